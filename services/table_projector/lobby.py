"""A game's lobby as the table projector holds it: every open or running table's entry, kept in
lobby order as entries come and go, so that a page costs the tables it shows, not a sort of
every table of the game."""

from __future__ import annotations

import bisect
from typing import Any

from shared.messages.envelopes import LOBBY_PAGE_DEFAULT, LobbyPage, LobbyRequest, lobby_cursor


def cursor_of(entry: dict[str, Any]) -> str:
    """An entry's place in the lobby, which is also the cursor of a page ending at it: its
    creation instant and table id (`lobby_cursor`); pages go from the greatest down."""
    return lobby_cursor(entry.get("created_at", ""), entry["table"])


class GameLobby:
    """One game's lobby entries by table, and their cursors in order: all of them, and those
    of each status (a page asks one status or all)."""

    def __init__(self) -> None:
        self.entries: dict[str, dict[str, Any]] = {}
        self.ordered: dict[str | None, list[str]] = {None: []}  # status (None: any) -> cursors

    def put(self, table: str, entry: dict[str, Any]) -> None:
        before = self.entries.get(table)
        if (
            before is not None
            and before.get("status") == entry.get("status")
            and cursor_of(before) == cursor_of(entry)
        ):  # the same place in each order (nearly every move of a table): the entry alone
            self.entries[table] = entry
            return
        self.pop(table)
        self.entries[table] = entry
        cursor = cursor_of(entry)
        for status in (None, entry.get("status")):
            bisect.insort(self.ordered.setdefault(status, []), cursor)

    def pop(self, table: str) -> None:
        entry = self.entries.pop(table, None)
        if entry is None:
            return
        cursor = cursor_of(entry)
        for status in (None, entry.get("status")):
            cursors = self.ordered[status]
            del cursors[bisect.bisect_left(cursors, cursor)]

    def page(self, game: str, request: LobbyRequest) -> LobbyPage:
        """Newest first, `limit` at most, after the `after` cursor, of one status if asked (the
        request is checked as it is decoded: `LobbyRequest`)."""
        limit = request.limit or LOBBY_PAGE_DEFAULT
        cursors = self.ordered.get(request.status, [])
        end = len(cursors) if request.after is None else bisect.bisect_left(cursors, request.after)
        shown = cursors[max(0, end - limit) : end][::-1]
        tables = [self.entries[cursor.partition("|")[2]] for cursor in shown]
        return LobbyPage(game=game, tables=tables, next=shown[-1] if end > limit else None)
