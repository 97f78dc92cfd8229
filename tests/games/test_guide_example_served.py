"""The guide's example game served by a real `tabletop up`, added as an operator adds a game:
its folder on PYTHONPATH, `last_stone:GAME` in TABLETOP_GAMES. A whole table is played from the
terminal's text alone, and one in two browsers on the web client's generic board (the example
has no board of its own). No list of games in the repository names it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.games.test_cli_text_play import play_in_a_terminal
from tests.games.test_guide_example import NAME, registered, written_out

async_api = pytest.importorskip("playwright.async_api")

from tests.web.browsers import CHROMIUM, Up, new_browser, play_in_browsers  # noqa: E402  (needs playwright)


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with written_out(tmp_path_factory.mktemp("guide")) as folder:
        yield folder


@pytest.fixture(scope="module")
def up(package: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Up]:
    server = Up(tmp_path_factory.mktemp("tabletop-guide"))
    server.env["PYTHONPATH"] = os.pathsep.join([str(package), server.env["PYTHONPATH"]])
    server.env["TABLETOP_GAMES"] = ",".join(
        filter(None, [server.env.get("TABLETOP_GAMES", ""), f"{NAME}:GAME"])
    )
    server.start()
    yield server
    assert server.stop() == 0


def test_a_whole_table_of_the_example_is_played_from_the_text_view_alone(up, package, monkeypatch):
    with registered(package, monkeypatch):  # the CLI, run in this process, knows the game too
        # one kind of command in this game: take_stones
        play_in_a_terminal(monkeypatch, up, NAME, 2, {"max_take": 2}, kinds_of_command=1)


async def test_a_whole_table_of_the_example_is_played_in_browsers_on_the_generic_board(up):
    if not Path(CHROMIUM).exists():
        pytest.skip("no chromium here")
    async with async_api.async_playwright() as playwright:
        browser: Any = await new_browser(playwright)
        try:
            seats = await play_in_browsers(up, browser, NAME, 2, 0, {"max_take": 2}, 4)
        finally:
            await browser.close()
    # the generic board: the view's own keys, named as a person reads them
    assert all(any("Stones" in text and "Max take" in text for _, text in seat.seen) for seat in seats)
