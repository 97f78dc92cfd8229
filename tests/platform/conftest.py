"""The platform tests' shared services: the highcard worker and both projectors, in this
process (tests/platform/stack.py), once per module that asks for them; and a count of the
consumers made again by deleting and creating them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from shared.bus import consumers
from tests.platform.stack import Stack, stack


@pytest.fixture(scope="module")  # a module that starts or stops services makes its own
async def services(nats_url: str) -> AsyncIterator[Stack]:
    async with stack(nats_url, "worker:highcard", "table-projector", "history-projector") as s:
        yield s


@pytest.fixture
def consumers_made_again(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The durables this process makes again by deleting and creating them
    (`Consumers.start_consumer_after`), in order, from the test's start."""
    made_again: list[str] = []
    start_after = consumers.Consumers.start_consumer_after

    async def counted(self: consumers.Consumers, durable: str, *args: Any, **kwargs: Any) -> bool:
        made_again.append(durable)
        return await start_after(self, durable, *args, **kwargs)

    monkeypatch.setattr(consumers.Consumers, "start_consumer_after", counted)
    return made_again
