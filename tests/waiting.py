"""Waiting for a condition in a test: on a signal, polled, never a fixed sleep."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable
from typing import Any


async def within(condition: Callable[[], Any], timeout: float, *, every: float = 0.01) -> Any:
    """The first truthy result of `condition()` (awaited if need be) within `timeout`
    seconds, asked every `every` seconds; the last falsy one if it never comes."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if inspect.isawaitable(result):
            result = await result
        if result or time.monotonic() > deadline:
            return result
        await asyncio.sleep(every)


async def until(condition: Callable[[], Any], timeout: float = 10.0, *, every: float = 0.01) -> Any:
    """The first truthy result of `condition()`; a failure after `timeout` seconds, never a hang."""
    result = await within(condition, timeout, every=every)
    assert result, f"the condition did not hold within {timeout} s"
    return result
