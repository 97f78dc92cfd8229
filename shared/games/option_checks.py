"""The options a `create` gives, checked: the table's own (`shared.games.clock`) and the
game's, decoded strictly, bounded in size, and checked against the seat count. A refusal names
what was wrong and, where the type lists them, the values allowed."""

from __future__ import annotations

import re
import typing
from typing import Any, Literal

import msgspec

from shared.games.clock import TableOptions, clock_problem
from shared.games.decider import Game, Rejection
from shared.games.table_state import game_options_of, table_options_of

# Free text in a table's options is bounded, so a table cannot make the lobby or a view huge.
MAX_OPTION_TEXT = 64
MAX_OPTION_ITEMS = 32


def checked_options(game: Game[Any, Any], given: dict[str, Any], seats: int) -> dict[str, Any] | Rejection:
    """The options to store for a table of `seats` (the game's in full, the table's only
    where they differ from the defaults), or why they are refused (`bad_option`)."""
    try:
        table_options = table_options_of(given, strict=True)
        options = msgspec.convert(game_options_of(given), game.options, strict=True)
    except msgspec.ValidationError as err:
        choices = _choices(TableOptions, err) or _choices(game.options, err)
        return Rejection("bad_option", f"Invalid option: {err}.{choices}")
    problem = (
        _unbounded(msgspec.to_builtins(options))
        or clock_problem(table_options)
        or game.check_options(options, seats)
    )
    if problem:
        return Rejection("bad_option", problem)
    if not 0 <= table_options.bots < seats:
        return Rejection("bad_option", f"bots must be 0 to {seats - 1}: the creator sits too.")
    stored: dict[str, Any] = msgspec.to_builtins(options)
    stored.update(
        (k, v) for k, v in msgspec.to_builtins(table_options).items() if v != getattr(TableOptions(), k)
    )
    return stored


def _choices(options: type[Any], err: msgspec.ValidationError) -> str:
    """The values a refused option takes, when its type lists them (a `Literal`), in the
    order the game declares them."""
    found = re.search(r"`\$\.(\w+)`", str(err))
    hint = typing.get_type_hints(options).get(found.group(1)) if found else None
    values = _literal_values(hint)
    if found is None or not values:
        return ""
    return f" {found.group(1)} must be one of {', '.join(map(str, values))}."


def _literal_values(hint: Any) -> list[Any]:
    if typing.get_origin(hint) is Literal:
        return list(typing.get_args(hint))
    return [v for arg in typing.get_args(hint) for v in _literal_values(arg)]


def _unbounded(value: Any) -> str | None:
    """Why an option value is too big, or None: texts and lists are bounded."""
    if isinstance(value, str) and len(value) > MAX_OPTION_TEXT:
        return f"An option's text may be at most {MAX_OPTION_TEXT} characters."
    if isinstance(value, (list, dict)):
        if len(value) > MAX_OPTION_ITEMS:
            return f"An option may list at most {MAX_OPTION_ITEMS} items."
        items = value.values() if isinstance(value, dict) else value
        return next((p for p in map(_unbounded, items) if p), None)
    return None
