"""The five game boards (services/web/static/games/<game>.js) in headless Chromium: views of
seeded bot games, rendered in a harness page, must draw without a JavaScript error, offer every
legal command as a button (or a free-text form) that sends it, never show another seat's hidden
information, and offer nothing to click when the page only shows."""

from __future__ import annotations

import json
import re
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from shared.games.decrypto.words import WORDS
from tests.texts import strings
from tests.web.game_views import GAMES, PLAYERS, Step, steps

playwright_api = pytest.importorskip("playwright.sync_api")

from tests.web.browsers import CHROMIUM, CHROMIUM_FLAGS  # noqa: E402  (needs playwright)

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "services" / "web" / "static"
HARNESS = Path(__file__).with_name("harness.html")
SEED = 7
SAMPLES = 6  # steps looked at per game: the first, the last, and some in between
SCREENSHOTS = Path("/tmp/boards")
DESKTOP = {"width": 1100, "height": 800}
PHONE = {"width": 390, "height": 800}
TOO_WIDE = "document.documentElement.scrollWidth > window.innerWidth"
# View fields whose strings are no secret of the seat even when others' views lack them: its
# own moves and their example texts, which team it is in, its own id.
NOT_SECRETS = frozenset({"legal", "free_text", "ninja_choices", "my_team", "you"})


class Handler(SimpleHTTPRequestHandler):
    """/static/... from the web app's static folder, /harness.html from the tests."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript"}

    def translate_path(self, path: str) -> str:
        path = path.split("?", 1)[0]
        if path == "/harness.html":
            return str(HARNESS)
        if path.startswith("/static/"):
            file = (STATIC / path.removeprefix("/static/")).resolve()
            if file.is_relative_to(STATIC):
                return str(file)
        return str(ROOT / "missing")

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    httpd.shutdown()
    httpd.server_close()
    thread.join()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip("no chromium")
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


class Harness:
    """One page with the harness loaded; every JS error and console error is kept."""

    def __init__(self, page: Any, game: str) -> None:
        self.page = page
        self.game = game
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        page.on("console", self._console)

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text}")

    def show(self, view: dict[str, Any], seat: str | None) -> dict[str, Any]:
        """Render `view` for `seat` and read back what the board offers (see `show_step`)."""
        return self.show_step({seat: view})[seat]

    def show_step(
        self,
        views: dict[str | None, dict[str, Any]],
        clicks: dict[str | None, str] | None = None,
        look: bool = False,
        measure: bool = False,
    ) -> dict[str | None, dict[str, Any]]:
        """Render each viewer's view in turn and read back what its board offers; for the
        viewers in `clicks`, click the button whose data-command is given (what the board
        sent: `acted`); with `look`, render it again only to look (`looking`: what stays
        enabled); with `measure`, whether the page is wider than the window (a layout, so
        only when asked). One round trip to the page for them all."""
        shown = self.page.evaluate(
            """async ([g, views, clicks, look, measure]) => {
                const root = document.getElementById("root");
                const drawn = () => {
                    const buttons = [...root.querySelectorAll("[data-command]")];
                    return {
                        commands: buttons.map((b) => b.getAttribute("data-command")),
                        enabled: buttons.filter((b) => !b.disabled).length,
                        notButtons: buttons.filter((b) => b.tagName !== "BUTTON").length,
                        forms: [...root.querySelectorAll("form[data-command-type]")]
                            .map((f) => f.getAttribute("data-command-type")),
                        formsEnabled: [...root.querySelectorAll("form [type=submit]")]
                            .filter((b) => !b.disabled).length,
                        html: root.innerHTML,
                        tooWide: measure && ("""
            + TOO_WIDE
            + """),
                    };
                };
                const out = [];
                for (const [i, [seat, view]] of JSON.parse(views).entries()) {
                    window.acted = [];
                    await window.show(g, view, seat, true);
                    const got = drawn();
                    if (clicks[i] !== null) {
                        [...root.querySelectorAll("[data-command]")]
                            .find((b) => b.getAttribute("data-command") === clicks[i]).click();
                        got.acted = window.acted;
                    }
                    if (look) {
                        await window.show(g, view, seat, false);
                        got.looking = drawn();
                    }
                    out.push(got);
                }
                return out;
            }""",
            # the views as JSON text: Playwright checks a structured argument value by value, slowly
            [
                self.game,
                json.dumps(list(views.items())),
                [(clicks or {}).get(viewer) for viewer in views],
                look,
                measure,
            ],
        )
        assert not self.errors, self.errors
        return dict(zip(views, shown))


def sampled(game: str) -> list[Step]:
    every = list(steps(game, SEED))
    picks = {round(i * (len(every) - 1) / (SAMPLES - 1)) for i in range(SAMPLES)}
    return [every[i] for i in sorted(picks)]


def secrets(step: Step, seat: str, other: str | None) -> set[str]:
    """What `seat`'s view shows that `other`'s view does not: its hidden cards, words, texts."""
    mine = strings(step.views[seat], skip=NOT_SECRETS)
    theirs = strings(step.views[other], keys=True) | set(step.views[seat]["seats"])
    return {s for s in mine - theirs if len(s) > 1}


def shows(html: str, secret: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(secret)}(?![\w-])", html, re.IGNORECASE) is not None


def submit_form(harness: Harness, view: dict[str, Any], viewer: str | None, form_type: str) -> int:
    """Fill a free-text form with made-up words and submit it: the board must send a command
    of that type with the fields of the `legal` examples, the typed words in them."""
    harness.show(view, viewer)
    page = harness.page
    form = page.locator(f"form[data-command-type='{form_type}']")
    inputs = form.locator("input[type=text]")
    words = [f"word{i}" for i in range(inputs.count())]
    for i, word in enumerate(words):
        inputs.nth(i).fill(word)
    form.locator("[type=submit]").click()
    acted = page.evaluate("window.acted")
    example = next(c for c in view["legal"] if c["type"] == form_type)
    assert len(acted) == 1 and acted[0]["type"] == form_type, acted
    assert set(acted[0]) == set(example), (acted[0], example)
    sent = json.dumps(acted[0])
    assert all(word in sent for word in words), (acted[0], words)
    return 1


def as_js(command: dict[str, Any]) -> str:
    """`JSON.stringify(command)`: what a button's data-command must be, to the character."""
    return json.dumps(command, separators=(",", ":"), ensure_ascii=False)


def free_text_types(view: dict[str, Any]) -> set[str]:
    return set(view.get("free_text", {}))


@dataclass
class Checked:
    clicked: int = 0
    submitted: int = 0
    secrets: int = 0


def check_steps(harness: Harness, game: str, steps_to_check: list[Step]) -> Checked:
    """Every check of the module docstring on each step, for every viewer."""
    page = harness.page
    checked = Checked()
    for step in steps_to_check:
        # every viewer with a move clicks its last legal one
        clicks = {v: as_js(view["legal"][-1]) for v, view in step.views.items() if view.get("legal")}
        drawn = harness.show_step(step.views, clicks=clicks, look=True)
        for viewer, view in step.views.items():
            got = drawn[viewer]
            assert got["notButtons"] == 0
            offered = set(got["commands"])
            for command in view.get("legal", []):
                if command["type"] in free_text_types(view):
                    assert command["type"] in got["forms"], (viewer, command)
                else:
                    assert as_js(command) in offered, (viewer, command)
            if viewer in clicks:  # clicking a move sends it, exactly as `legal` has it
                assert got["acted"] == [view["legal"][-1]], (viewer, got["acted"])
                checked.clicked += 1
            for form_type in got["forms"]:
                checked.submitted += submit_form(harness, view, viewer, form_type)
        for seat in PLAYERS[game]:
            for other in [*PLAYERS[game], None]:
                if other == seat:
                    continue
                hidden = secrets(step, seat, other)
                leaked = {s for s in hidden if shows(drawn[other]["html"], s)}
                assert not leaked, f"{other or 'the spectator'} sees {seat}'s {sorted(leaked)}"
                drawn_own = {s for s in hidden if shows(drawn[seat]["html"], s)}
                assert drawn_own == hidden, f"{seat}'s own board lacks {sorted(hidden - drawn_own)}"
                checked.secrets += len(hidden)
        for viewer, got in drawn.items():
            assert got["looking"]["enabled"] == 0 and got["looking"]["formsEnabled"] == 0, viewer
    page.set_viewport_size(PHONE)  # once for all the steps: a resize lays the page out again
    for step in steps_to_check:
        for viewer, shown in harness.show_step(step.views, measure=True).items():
            assert not shown["tooWide"], f"step {step.index} for {viewer} is wider than a phone"
    page.set_viewport_size(DESKTOP)
    return checked


def open_harness(server: str, browser: Any, game: str, viewport: dict[str, int]) -> Harness:
    page = browser.new_page(viewport=viewport)
    harness = Harness(page, game)
    page.goto(f"{server}/harness.html")
    page.wait_for_function("window.harnessReady === true")
    return harness


@pytest.mark.parametrize("game", GAMES)
def test_board_draws_every_sampled_step(game: str, server: str, browser: Any) -> None:
    harness = open_harness(server, browser, game, DESKTOP)
    checked = check_steps(harness, game, sampled(game))
    assert checked.clicked > 0
    if game in ("decrypto", "illustori"):
        assert checked.submitted > 0
    if game not in ("dozito", "diced_tomatoes"):  # these two hide nothing from one seat only
        assert checked.secrets > 0
    harness.page.close()


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_board_draws_every_step_of_a_whole_game(game: str, server: str, browser: Any) -> None:
    harness = open_harness(server, browser, game, DESKTOP)
    check_steps(harness, game, list(steps(game, 0)))
    harness.page.close()


@pytest.mark.parametrize("game", GAMES)
def test_screenshots(game: str, server: str, browser: Any) -> None:
    """A mid-game board, as the seat to act sees it, at desktop and phone width, no wider than
    the screen."""
    SCREENSHOTS.mkdir(exist_ok=True)
    every = list(steps(game, SEED))
    step = next(s for s in every[len(every) // 2 :] if any("legal" in v for v in s.views.values()))
    seat = next(v for v, view in step.views.items() if "legal" in view)
    for viewport in (DESKTOP, PHONE):
        harness = open_harness(server, browser, game, viewport)
        harness.show(step.views[seat], seat)
        harness.page.screenshot(path=str(SCREENSHOTS / f"{game}-{viewport['width']}.png"), full_page=True)
        assert not harness.page.evaluate(TOO_WIDE), f"{game} is wider than {viewport['width']} px"
        harness.page.close()


# Each word of a Decrypto keyword on one line (a line may end at a space or after a hyphen):
# (text, lines its longest word takes, the tile wider than its box), for every keyword tile.
KEYWORD_LAYOUT = """() => [...document.querySelectorAll(".board-decrypto .kw")].map((kw) => {
    const range = document.createRange();
    const text = kw.firstChild;
    let lines = 1;
    let start = 0;
    for (const word of text.textContent.split(/(\\s+|-)/)) {
        if (word.trim() && word !== "-") {
            range.setStart(text, start);
            range.setEnd(text, start + word.length);
            lines = Math.max(lines, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size);
        }
        start += word.length;
    }
    return [text.textContent, lines, kw.scrollWidth > kw.clientWidth];
})"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_decrypto_keywords_are_never_broken_inside_a_word(server: str, browser: Any, viewport) -> None:
    """The longest keywords of both shipped lists, shown on both teams' screens (a finished
    game shows all eight), keep each word whole on one line, at desktop and at phone width."""
    longest = sorted(
        {w for language in WORDS.values() for w in language}, key=lambda w: max(map(len, w.split()))
    )[-8:]
    ended = next(s for s in reversed(list(steps("decrypto", SEED))) if s.views[None]["status"] == "ended")
    view = {**ended.views[None], "keywords": {"white": longest[:4], "black": longest[4:]}}
    harness = open_harness(server, browser, "decrypto", viewport)
    harness.show(view, None)
    shown = harness.page.evaluate(KEYWORD_LAYOUT)
    assert len(shown) == 8, shown
    broken = [(text, lines, wide) for text, lines, wide in shown if lines > 1 or wide]
    assert not broken, f"keywords broken inside a word at {viewport['width']} px: {broken}"
    harness.page.screenshot(path=str(SCREENSHOTS / f"decrypto-keywords-{viewport['width']}.png"))
    harness.page.close()
