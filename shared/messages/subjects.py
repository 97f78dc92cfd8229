"""Every NATS subject of the protocol, built and parsed in one place."""

from __future__ import annotations

import re

ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")
STREAM = "TABLETOP_EVENTS"
VIEWS_BUCKET = "TABLETOP_VIEWS"
SPECTATOR = "spectator"
PREFIX = "tabletop"


def is_id(value: object) -> bool:
    return isinstance(value, str) and ID_PATTERN.fullmatch(value) is not None


def cmd(game: str, table: str, player: str) -> str:
    return f"{PREFIX}.cmd.{game}.{table}.{player}"


def cmd_all(game: str) -> str:
    return f"{PREFIX}.cmd.{game}.>"


def evt(game: str, table: str) -> str:
    return f"{PREFIX}.evt.{game}.{table}"


EVT_ALL = f"{PREFIX}.evt.>"


def view(game: str, table: str, viewer: str) -> str:
    return f"{PREFIX}.view.{game}.{table}.{viewer}"


def update(game: str, table: str, viewer: str) -> str:
    return f"{PREFIX}.update.{game}.{table}.{viewer}"


def replay(game: str, table: str, viewer: str) -> str:
    return f"{PREFIX}.replay.{game}.{table}.{viewer}"


def lobby(game: str) -> str:
    return f"{PREFIX}.lobby.{game}"


def parse(subject: str, kind: str) -> tuple[str, ...] | None:
    """The id tokens after `tabletop.<kind>.`, or None when any is not a valid id."""
    head = f"{PREFIX}.{kind}."
    if not subject.startswith(head):
        return None
    tokens = tuple(subject[len(head):].split("."))
    return tokens if all(is_id(t) for t in tokens) else None


def view_key(game: str, table: str, viewer: str) -> str:
    """The key of a table's view for one viewer in the views bucket."""
    return f"view.{game}.{table}.{viewer}"


def lobby_key(game: str, table: str) -> str:
    return f"lobby.{game}.{table}"
