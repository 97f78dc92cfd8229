"""The platform tests' shared services: the highcard worker and both projectors, in this
process (tests/platform/stack.py), once per module that asks for them."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.platform.stack import Stack, stack


@pytest.fixture(scope="module")  # a module that starts or stops services makes its own
async def services(nats_url: str) -> AsyncIterator[Stack]:
    async with stack(nats_url, "worker:highcard", "table-projector", "history-projector") as s:
        yield s
