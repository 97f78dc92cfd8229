"""The texts of a JSON value, for the tests that look for a view's strings on a page or in a
description."""

from __future__ import annotations

from typing import Any


def strings(value: Any, *, keys: bool = False, skip: frozenset[str] = frozenset()) -> set[str]:
    """Every string of a JSON value, with the dict keys if `keys`, but none under a key in
    `skip` (at any depth)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            for key, inner in item.items():
                if key not in skip:
                    if keys:
                        found.add(str(key))
                    stack.append(inner)
        elif isinstance(item, list):
            stack.extend(item)
    return found
