"""The web tests' shared fixtures: a `tabletop up` and a headless Chromium, one of each per test
module."""

from __future__ import annotations

import pytest
from playwright import async_api

from tests.web.browsers import Up, new_browser


@pytest.fixture(scope="module")
def up(tmp_path_factory):
    server = Up(tmp_path_factory.mktemp("tabletop-web")).start()
    yield server
    assert server.stop() == 0


@pytest.fixture(scope="module")
async def browser():
    async with async_api.async_playwright() as playwright:
        chromium = await new_browser(playwright)
        yield chromium
        await chromium.close()
