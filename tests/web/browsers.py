"""A real `tabletop up` (NATS, services, web client) and headless Chromium driven by Playwright,
for the end-to-end tests of the web client: people sign in, create, join and start tables and
play them by clicking; bots on nats-py fill the seats a game needs beyond the browsers."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import secrets
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout

from services.client import Client
from services.registry import get
from shared.bus.connection import Bus
from shared.bus.credentials import Credentials, ServerSecrets
from shared.games.bot_levels import bot_move
from shared.settings import load_settings
from tests import processes
from tests.texts import strings

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PASSWORD = "correct horse battery"
SCREENSHOTS = os.environ.get("TABLETOP_SCREENSHOTS")  # a folder: the tests save pictures there
STEP_TIMEOUT_MS = 20_000
ACTION_TIMEOUT_MS = 5_000  # a click or a fill on what is on the page now


class Up(processes.Up):
    """`tabletop up` as a person starts it (tests/processes.py), with the address of its web
    client as it prints it."""

    def __init__(self, data: Path) -> None:
        super().__init__(data)
        self.http_url = ""

    @property
    def nats_url(self) -> str:
        return self.url

    def start(self, *, own_group: bool = False) -> Up:
        super().start(own_group=own_group)
        log = self.data / "up.log"
        deadline = time.monotonic() + 90
        while not (found := re.search(r"play in a browser at (http://\S+)", log.read_text())):
            assert self.process is not None and self.process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "tabletop up did not come up:\n" + log.read_text()
            time.sleep(0.1)
        self.http_url = found.group(1)
        return self

    async def admin(self) -> Client:
        """A client that may look as anyone (the operator's user)."""
        credentials = ServerSecrets(self.data / "credentials").credentials("admin")
        return Client(
            await Bus.connect(
                self.nats_url, load_settings(), name="test-admin", wait=10, credentials=credentials
            )
        )

    async def player(self, name: str) -> Client:
        return Client(
            await Bus.connect(
                self.nats_url,
                load_settings(),
                name=f"test-{name}",
                wait=10,
                credentials=Credentials.player(name, PASSWORD),
            )
        )


# the commands a page carries, and whether each can be clicked (for failure messages)
ON_PAGE = """() => Array.from(document.querySelectorAll('[data-command], form[data-command-type]'),
    n => `${n.dataset.command || n.dataset.commandType} ${n.disabled ? 'disabled' : ''} ${
        n.checkVisibility() ? 'visible' : 'hidden'}`).join('; ')"""


# What a game log must not show a person: the protocol's ids of Illustori's cards ("c26") and
# Diced Tomatoes' dice ("(die 34)"), or a tomato counted from 0 where the board counts from 1.
INTERNAL_IDS = re.compile(r"\bc\d\d\b|\(die \d+\)|tomato 0\b")


# A protocol word shown as it is written ("final_round", "first_seat"): a page says it in words.
RAW_WORDS = re.compile(r"\b[a-z][a-z0-9]*(_[a-z0-9]+)+\b")


def unique(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(3)}"


async def new_browser(playwright: Any) -> Any:
    return await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)


async def sign_in(
    browser: Any,
    base: str,
    name: str | None,
    *,
    width: int = 1100,
    prepare: Any = None,
    locale: str = "en-GB",
) -> Any:
    """A page of a new browser context signed in as `name` (None: a guest), its browser's
    language `locale`; `prepare(context)` is awaited before the page opens."""
    context = await browser.new_context(viewport={"width": width, "height": 900}, locale=locale)
    if prepare is not None:
        await prepare(context)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.errors = errors  # JavaScript errors of the page, checked at the end
    await page.goto(f"{base}/#/signin")
    if name is None:
        await page.click("#watch-as-guest")
    else:
        await page.fill("#signin-name", name)
        await page.fill("#signin-password", PASSWORD)
        await page.click("#signin button[type=submit]")
    await page.wait_for_selector("#who")
    return page


async def create_table(page: Any, base: str, game: str, seats: int, options: dict[str, Any]) -> str:
    """Create a table from the game's lobby form; its id (the page goes to the table)."""
    await page.goto(f"{base}/#/lobby/{game}")
    await page.wait_for_selector("#create-table")
    await page.select_option("#opt-seats", str(seats))
    for key, value in options.items():
        if isinstance(value, bool):
            await page.set_checked(f"#opt-{key}", value)
        elif isinstance(value, list):
            await page.fill(f"#opt-{key}", ", ".join(value))
        elif await page.eval_on_selector(f"#opt-{key}", "e => e.tagName") == "SELECT":
            await page.select_option(f"#opt-{key}", "" if value is None else str(value))
        else:
            await page.fill(f"#opt-{key}", "" if value is None else str(value))
    await page.click("#create-table button[type=submit]")
    await page.wait_for_url(re.compile(r".*#/table/"))
    await page.wait_for_selector("#table[data-status=open]")
    return page.url.rsplit("/", 1)[1]


async def join_from_lobby(page: Any, base: str, game: str, table: str) -> None:
    await page.goto(f"{base}/#/lobby/{game}")
    entry = await page.locator(f'[data-table="{table}"]').inner_text()
    shown = entry.replace(table, "")  # its options in words (the table's id is an id)
    assert not RAW_WORDS.search(shown), entry
    await page.click(f'[data-table="{table}"] [data-action=join]')
    await page.wait_for_url(re.compile(rf".*#/table/{game}/{table}$"))
    await page.wait_for_selector("#table[data-version]")


async def version_of(page: Any) -> int:
    return int(await page.get_attribute("#table", "data-version") or 0)


async def wait_version(page: Any, version: int) -> None:
    """Until the page shows `version` or later, or the end of the table."""
    await page.wait_for_function(
        """v => {
            const table = document.getElementById('table');
            return Number(table?.dataset.version || 0) >= v || table?.dataset.status === 'ended';
        }""",
        arg=version,
        timeout=STEP_TIMEOUT_MS,
    )


async def page_text(page: Any) -> tuple[int, str]:
    """(version shown, everything a person or a script could read on the page: the text and
    every attribute value)."""
    return await page.evaluate("""() => {
        const table = document.getElementById('table') || document.getElementById('replay');
        const parts = [document.body.innerText];
        for (const node of document.body.querySelectorAll('*')) {
            for (const attr of node.attributes) {  // those that carry content, not the markup's own words
                if (/^(data-|aria-)|^(title|alt|value|placeholder|href|label|content)$/.test(attr.name)) {
                    parts.push(attr.value);
                }
            }
            if (node.value) parts.push(String(node.value));
        }
        return [Number(table?.dataset.version || 0), parts.join('\\n')];
    }""")


@dataclass
class Seat:
    """A browser page playing one seat."""

    name: str
    page: Any
    rng: random.Random
    seen: list[tuple[int, str]] = field(default_factory=list)  # (version, page text)

    async def snapshot(self) -> None:
        self.seen.append(await page_text(self.page))


# The page's alert emptied, and the clicks it has taken counted (`window.__clicks`: how many,
# and whether the last one fell on a move), the counting set up on first use
CLEARED_AND_CLICKS = """() => {
    const a = document.getElementById('alert');
    if (a) { a.textContent = ''; delete a.dataset.code; }
    if (!window.__clicks) {
        window.__clicks = {count: 0, onMove: false};
        document.addEventListener('click', (event) => {
            const move = event.target.closest?.('[data-command], form[data-command-type]');
            window.__clicks = {count: window.__clicks.count + 1, onMove: Boolean(move)};
        }, true);
    }
    return window.__clicks.count;
}"""


async def take_a_move(seat: Seat) -> bool:
    """Click one of the moves this page offers (a free-text form filled with its examples,
    else invented words when those are refused); False when it offers none."""
    page = seat.page
    # pieces that glide to their new places settle first: a click aims where a button is drawn;
    # and a move of this page's still on its way is answered first: until then a click is not
    # taken (the page sends one move at a time)
    await page.wait_for_function(
        "() => document.getAnimations().every(a => a.playState !== 'running')"
        " && !('busy' in document.getElementById('table').dataset)",
        timeout=STEP_TIMEOUT_MS,
    )
    version = await version_of(page)
    # never Undo: a player taking moves back and forth would play for ever (test_take_back)
    buttons = page.locator("#table [data-command]:not([disabled]):not([data-action=undo]):visible")
    forms = page.locator("#table form[data-command-type]:visible")
    count, form_count = await buttons.count(), await forms.count()
    if not count and not form_count:
        return False
    for attempt in range(6):
        clicks = await page.evaluate(CLEARED_AND_CLICKS)
        choice = seat.rng.randrange(count + form_count)
        try:
            if choice < count:
                # force: no wait for two still animation frames (the animations ended above); it
                # is still a mouse click at the button, so a covered one gets nothing and fails
                await buttons.nth(choice).click(timeout=ACTION_TIMEOUT_MS, force=True)
            else:
                form = forms.nth(choice - count)
                inputs = form.locator("input[type=text], input:not([type]), textarea")
                for i in range(await inputs.count()):
                    field_ = inputs.nth(i)
                    example = await field_.get_attribute("placeholder", timeout=ACTION_TIMEOUT_MS)
                    await field_.fill(
                        (example or "word")
                        if attempt == 0
                        else "".join(seat.rng.choice("bcdfgklmnprstvz") for _ in range(7)),
                        timeout=ACTION_TIMEOUT_MS,
                    )
                await form.locator("[type=submit], button:not([type])").first.click(timeout=ACTION_TIMEOUT_MS)
        except PlaywrightTimeout:  # the page drew a newer view meanwhile: look at it again
            return True
        except PlaywrightError as error:
            # a forced click does not wait: the button was hidden or replaced by a newer view
            # between counting and clicking; look at the page again
            if "not visible" in error.message or "not attached" in error.message:
                return True
            raise
        try:
            outcome = await page.wait_for_function(
                """([v, clicks]) => {
                    const t = document.getElementById('table');
                    if (Number(t.dataset.version) > v) return 'moved';
                    const a = document.getElementById('alert');
                    if (a && a.textContent) return a.dataset.code || 'refused';
                    const c = window.__clicks;
                    return c.count > clicks && !c.onMove ? 'missed' : false;
                }""",
                arg=[version, clicks],
                timeout=STEP_TIMEOUT_MS,
            )
        except PlaywrightTimeout:
            raise AssertionError(f"{seat.name}: {await _stuck(page, version)}") from None
        result = await outcome.json_value()
        if result == "moved" or result == "stale_version":
            return True
        # 'missed': the page moved under the pointer between aiming and clicking (a line of the
        # players' panel came or went), and the click fell beside the move: as a person would,
        # aim again
        count, form_count = await buttons.count(), await forms.count()
        if not count and not form_count:
            return True
    raise AssertionError(
        f"{seat.name}: every move tried was refused or missed: {await page.text_content('#alert')}"
    )


async def _stuck(page: Any, version: int) -> str:
    """What a page shows when a move clicked at `version` brought neither a newer version nor
    an answer in time: for the failure to say."""
    shown = await page.evaluate(
        """() => {
            const t = document.getElementById('table');
            return {version: t.dataset.version, status: t.dataset.status, busy: 'busy' in t.dataset,
                    alert: document.getElementById('alert')?.textContent || ''};
        }"""
    )
    moves = await page.evaluate(ON_PAGE)
    return f"no version after {version} and no answer {STEP_TIMEOUT_MS} ms after a click; {shown}; {moves}"


async def play_through(seats: list[Seat], *, pause_at: int | None = None, on_pause: Any = None) -> None:
    """Every seat clicks its moves until the table has ended on every page. Pages without a
    move wait for the next version (a bot's or another seat's move)."""
    paused = pause_at is None
    for seat in seats:  # every page has seen the start
        await seat.page.wait_for_selector("#table:not([data-status=open])", timeout=STEP_TIMEOUT_MS)
    while True:
        statuses = [await s.page.get_attribute("#table", "data-status") for s in seats]
        if all(status == "ended" for status in statuses):
            for s in seats:
                await s.snapshot()
            return
        before = [await version_of(s.page) for s in seats]  # read before looking for moves
        moved = False
        for seat in seats:
            await seat.snapshot()
            moved = await take_a_move(seat) or moved
        if not paused and on_pause and max([await version_of(s.page) for s in seats]) >= (pause_at or 0):
            paused = True
            await on_pause()
        if not moved:  # someone else's turn: wait until any page shows a newer version
            waits = [asyncio.ensure_future(wait_version(s.page, v + 1)) for s, v in zip(seats, before)]
            done, pending = await asyncio.wait(
                waits, return_when=asyncio.FIRST_COMPLETED, timeout=STEP_TIMEOUT_MS / 1000
            )
            for wait in pending:
                wait.cancel()
            await asyncio.gather(*waits, return_exceptions=True)
            if not done:
                raise AssertionError(
                    "no page moved on: "
                    + ", ".join(
                        [
                            f"{s.name}: {await s.page.inner_text('#turn')} {await s.page.evaluate(ON_PAGE)}"
                            for s in seats
                        ]
                    )
                )


async def bot_seat(client: Client, game: str, table: str, bot: str, rng: random.Random) -> None:
    """A seat played by the game's bot through the bus, as `tabletop play --bots` plays: from
    its own view and its `legal` list, until the table ends."""
    rules = get(game).game
    subscribed = asyncio.Event()
    updates = client.updates(game, table, bot, subscribed=subscribed)
    first = asyncio.ensure_future(anext(updates))
    await subscribed.wait()
    await client.bus.nc.flush()
    current = await client.view(game, table, bot)
    pending = first
    while current["view"]["status"] != "ended":
        view = current["view"]
        if "legal" in view and bot in view.get("to_act", []):
            move = bot_move(rules, view, rng)
            await client.command(game, table, bot, {**move, "expect": current["version"]})
        pushed = await pending
        pending = asyncio.ensure_future(anext(updates))
        if pushed["version"] > current["version"]:
            current = pushed
    pending.cancel()
    await updates.aclose()


# Words of the client's own texts ("leave a field blank to pass") and of the games' help (the
# rules in short, what each move does): a page shows them whatever the table holds, so a secret
# that is one of them (a Decrypto keyword "field") tells nothing by appearing; such secrets are
# left out of the scan, the others are all checked.
ROOT = Path(__file__).parents[2]
CLIENT_WORDS = frozenset(
    word.lower()
    for path in [
        *(ROOT / "services" / "web" / "static").rglob("*"),
        *(ROOT / "shared" / "games").glob("*/help.*.json"),
    ]
    if path.suffix in (".js", ".html", ".json") and "vendor" not in path.parts
    for word in re.findall(r"[^\W\d_]+", path.read_text())
)


# The games whose boards say each seat's standing (score, tokens, cards in hand) at the end,
# and that speak French wholly (help, board, log).
FIVE_GAMES = {"naishi", "dozito", "diced_tomatoes", "decrypto", "illustori"}


async def in_french(page: Any, *, wholly: bool = True) -> None:
    """The page is in French, and (`wholly`) every text it was asked to show so far had its
    French: a game that brings no French of its own leaves its board's words in English."""
    assert await page.get_attribute("html", "lang") == "fr"
    if wholly:
        assert await page.evaluate("() => [...window.__untranslated]") == []


async def play_in_browsers(
    up: Up, browser: Any, game: str, people: int, bots: int, options: dict[str, Any], pictured: int
) -> list[Seat]:
    """A table of `game` made in a browser, joined from the lobby by the other `people` (the
    last of them in a French browser), filled with `bots` on nats-py, and played to its end by
    clicking; every English page shows the same result and the French page its French, no page
    ever showed another seat's secrets, and no page had a JavaScript error. The first page and
    the French one are pictured at version `pictured`. The seats, with what their pages showed."""
    base = up.http_url
    names = [unique(f"p{i}") for i in range(people)]
    bot_names = [unique(f"bot{i}") for i in range(bots)]
    french = names[-1] if people > 1 else None
    seats = [
        Seat(n, await sign_in(browser, base, n, locale="fr-FR" if n == french else "en-GB"), random.Random(i))
        for i, n in enumerate(names)
    ]
    table = await create_table(seats[0].page, base, game, people + bots, options)
    for seat in seats[1:]:
        await join_from_lobby(seat.page, base, game, table)
        if seat.name == french:
            await in_french(seat.page, wholly=game in FIVE_GAMES)  # the lobby
    bot_clients = {bot: await up.player(bot) for bot in bot_names}
    try:
        for bot, client in bot_clients.items():
            assert (await client.command(game, table, bot, {"type": "join"}))["ok"]
        bot_tasks = [
            asyncio.ensure_future(bot_seat(client, game, table, bot, random.Random(7)))
            for bot, client in bot_clients.items()
        ]
        await seats[0].page.click("#table-controls [data-action=start]")

        async def picture() -> None:
            await screenshot(seats[0].page, game)
            if french:
                await screenshot(seats[-1].page, f"{game}-fr")

        await play_through(seats, pause_at=pictured, on_pause=picture)
        await asyncio.wait_for(asyncio.gather(*bot_tasks), 60)
    finally:
        for client in bot_clients.values():
            await client.bus.close()
    for seat in seats:  # each page asks the results projector for the rating changes
        await seat.page.wait_for_selector("#result[data-ratings=loaded]")
    results = [await s.page.inner_text("#result") for s in seats]
    english = [r for s, r in zip(seats, results) if s.name != french]
    assert all(r == results[0] for r in english) and "Rank" in results[0]
    assert "Rating" in results[0], results[0]  # every seat a person's: each has their entry
    if french:  # the board, the log and the result in French
        await in_french(seats[-1].page, wholly=game in FIVE_GAMES)
        assert results[-1] != results[0] and "Rang" in results[-1], results[-1]
        assert not RAW_WORDS.search(results[-1]), RAW_WORDS.search(results[-1])
        assert "La partie commence" in await seats[-1].page.inner_text("#log")
        assert "The game started" in await seats[0].page.inner_text("#log")
    # the players' panel: every seat, and, for the five games, each one's standing at the end
    panels = await seats[0].page.locator("#players .player-panel").all_inner_texts()
    assert len(panels) == people + bots and all(n in "".join(panels) for n in names + bot_names), panels
    if game in FIVE_GAMES:
        assert await seats[0].page.locator("#players .standing").count() == people + bots, panels
    assert not RAW_WORDS.search(results[0]), RAW_WORDS.search(results[0])
    admin = await up.admin()
    try:
        views = await views_by_version(admin, game, table, [*names, *bot_names, "spectator"])
        final = await admin.view(game, table)
    finally:
        await admin.bus.close()
    assert final["view"]["status"] == "ended"
    for name in final["view"]["result"]["scores"]:
        assert all(name in r for r in results)
    assert_no_secret_shown({s.name: s.seen for s in seats}, views, [*names, *bot_names])
    for seat in seats:
        assert not seat.page.errors, seat.page.errors
        log = await seat.page.inner_text("#log")
        assert not INTERNAL_IDS.search(log), INTERNAL_IDS.search(log)
        await seat.page.context.close()
    return seats


def secrets_of(view: dict[str, Any], public: set[str]) -> set[str]:
    """The strings of a seat's view (and of the events it was told) that are not `public`:
    that seat's hidden information, such as its cards or its team's words."""
    own = {k: v for k, v in view.items() if k != "legal"}  # its examples of free text are no secret
    return {s for s in strings(own) if len(s) >= 3 and s not in public and s.lower() not in CLIENT_WORDS}


def shown(secret: str, text: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(secret)}(?![A-Za-z0-9_])", text) is not None


async def views_by_version(
    admin: Client, game: str, table: str, viewers: list[str]
) -> dict[str, dict[int, dict[str, Any]]]:
    """Every viewer's view after every step of the table, from its replay, with the step's
    events as that viewer was told them (under `TOLD`)."""
    found: dict[str, dict[int, dict[str, Any]]] = {}
    for viewer in viewers:
        steps = await admin.replay(game, table, viewer, views="every")
        found[viewer] = {
            step["version"]: {**step["view"], TOLD: [*step["events"], *step["log"]]} for step in steps
        }
    return found


TOLD = "(events and log told)"


def told_so_far(views: dict[int, dict[str, Any]]) -> dict[int, set[str]]:
    """For each version, every string one viewer was shown up to it (views and events): a page
    may still show them (a game log says what happened before), even once they are hidden
    again, as a card played face up and later drawn by another seat."""
    told: dict[int, set[str]] = {}
    so_far: set[str] = set()
    for version in sorted(views):
        so_far |= strings(views[version], keys=True)
        told[version] = set(so_far)
    return told


def said_in_log(views: dict[int, dict[str, Any]]) -> dict[int, str]:
    """For each version, the game log one viewer was told up to it, as one text."""
    said: dict[int, str] = {}
    lines: list[str] = []
    for version in sorted(views):
        lines += [t for t in views[version][TOLD] if isinstance(t, str)]
        said[version] = "\n".join(lines)
    return said


def assert_no_secret_shown(
    pages: dict[str | None, list[tuple[int, str]]],
    views: dict[str, dict[int, dict[str, Any]]],
    seats: list[str],
) -> int:
    """No page (of a seat, or of a guest: None) showed, at any version, a string only another
    seat's view held then. The number of (page, version, secret) checks made."""
    checks = 0
    told = {viewer: told_so_far(by_version) for viewer, by_version in views.items()}
    # the log names what was public when it happened (a card played face up): not a secret
    logs = {viewer: said_in_log(by_version) for viewer, by_version in views.items()}
    for looker, seen in pages.items():
        for version, text in seen:
            if version == 0:
                continue
            public = told["spectator"][version]
            if looker is not None:
                public = public | told[looker][version]
            for other in seats:
                if other == looker:
                    continue
                log = logs["spectator"][version] + (logs[looker][version] if looker is not None else "")
                for secret in secrets_of(views[other][version], public):
                    if shown(secret, log):
                        continue
                    checks += 1
                    assert not shown(secret, text), (
                        f"{looker or 'a guest'} saw {secret!r} of {other} at version {version}"
                    )
    return checks


async def screenshot(page: Any, name: str) -> None:
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        await page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
        await page.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"), full_page=True)


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
