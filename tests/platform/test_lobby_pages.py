"""The table projector's lobby pages, kept in order as entries come and go, equal the pages a
sort of every entry gives, whatever the tables, their statuses, the cursors and the limits."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from services.table_projector.lobby import GameLobby, cursor_of
from shared.messages.envelopes import LOBBY_PAGE_DEFAULT, LobbyRequest

INSTANTS = ["", "2026-12-01T10:00:00.000Z", "2026-12-01T10:00:00.001Z", "2026-12-02T08:00:00.000Z"]
TABLES = [f"naishi-{i:012x}" for i in range(12)]


def sorted_page(entries: dict[str, dict], request: LobbyRequest) -> tuple[list[str], str | None]:
    """The page as a sort of every entry makes it: the reference."""
    limit = request.limit or LOBBY_PAGE_DEFAULT
    chosen = [e for e in entries.values() if request.status is None or e["status"] == request.status]
    ordered = sorted(chosen, key=cursor_of, reverse=True)
    if request.after is not None:
        ordered = [e for e in ordered if cursor_of(e) < request.after]
    page = ordered[:limit]
    return [e["table"] for e in page], cursor_of(page[-1]) if len(ordered) > limit else None


changes = st.lists(
    st.tuples(
        st.sampled_from(TABLES),
        st.one_of(st.none(), st.tuples(st.sampled_from(INSTANTS), st.sampled_from(["open", "running"]))),
    ),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(
    changes=changes,
    status=st.sampled_from([None, "open", "running"]),
    limit=st.one_of(st.none(), st.integers(1, 6)),
    after=st.one_of(st.none(), st.sampled_from(TABLES), st.sampled_from(["2026-12-01T10:00:00.000Z|zz"])),
)
def test_every_page_and_its_cursor_equal_a_sort_of_every_entry(changes, status, limit, after):
    lobby = GameLobby()
    entries: dict[str, dict] = {}
    for table, change in changes:  # tables created, moved on, ended
        if change is None:
            lobby.pop(table)
            entries.pop(table, None)
        else:
            created_at, table_status = change
            entry = {"table": table, "status": table_status, "version": 1}
            if created_at:
                entry["created_at"] = created_at
            created = entries.get(table, entry).get("created_at")  # a table keeps its instant
            if created is not None:
                entry["created_at"] = created
            lobby.put(table, entry)
            entries[table] = entry
    cursor = None
    if after is not None:
        cursor = after if "|" in after else cursor_of(entries.get(after, {"table": after}))
    request = LobbyRequest(after=cursor, limit=limit, status=status)
    page = lobby.page("naishi", request)
    assert ([e["table"] for e in page.tables], page.next) == sorted_page(entries, request)
    # and walking the pages gives every entry of that status once, in order
    walked, request = [], LobbyRequest(limit=limit, status=status)
    while True:
        page = lobby.page("naishi", request)
        walked += [e["table"] for e in page.tables]
        if page.next is None:
            break
        request = LobbyRequest(after=page.next, limit=limit, status=status)
    assert walked == sorted_page(entries, LobbyRequest(limit=100, status=status))[0]


def test_a_page_of_a_large_lobby_costs_the_page_not_the_lobby():
    """Prints the figure (no timed assertion): a page of 50 among 10,000 open tables."""
    lobby = GameLobby()
    for i in range(10_000):
        table = f"t{i:012x}"
        lobby.put(table, {"table": table, "status": "open", "created_at": f"2026-12-01T{i:09d}"})
    request = LobbyRequest(status="open")
    start = time.perf_counter()
    for _ in range(100):
        page = lobby.page("naishi", request)
    each = (time.perf_counter() - start) / 100
    print(f"lobby page of 50 among 10,000 open tables: {each * 1e3:.3f} ms")
    start = time.perf_counter()
    for i in range(10_000):  # every table moves on: a new version, the same place
        table = f"t{(i * 7919) % 10_000:012x}"
        lobby.put(table, {**lobby.entries[table], "version": 2})
    print(f"a table's move among 10,000: {(time.perf_counter() - start) / 10_000 * 1e6:.2f} us")
    assert {e["version"] for e in lobby.page("naishi", request).tables} == {2}
    assert len(page.tables) == LOBBY_PAGE_DEFAULT and page.next is not None
