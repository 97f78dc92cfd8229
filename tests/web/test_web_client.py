"""The web client end to end, in headless Chromium against a real `tabletop up`: people sign up,
create, join and start tables and play every game to its end by clicking; a guest watches
without seeing a hidden card; no page ever shows another seat's secrets; the replay slider
walks a finished table to the board seen live at its end."""

from __future__ import annotations

import asyncio
import gzip
import json
import random
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest

from services.client import play_with_bots
from services.registry import get
from services.web.server import serve_web, static_files
from shared.bus.connection import Bus
from shared.bus.credentials import Credentials
from shared.bus.errors import SignInRefused
from shared.bus.server import bound_socket
from shared.games.decider import type_tag
from shared.games.table import RESERVED_VIEW_KEYS
from shared.settings import load_settings
from tests.processes import TABLETOP, cli_env
from tests.web.browsers import (
    ACTION_TIMEOUT_MS,
    CHROMIUM,
    PASSWORD,
    Seat,
    Up,
    assert_no_secret_shown,
    create_table,
    in_french,
    join_from_lobby,
    page_text,
    play_in_browsers,
    play_through,
    screenshot,
    sign_in,
    take_a_move,
    unique,
    version_of,
    views_by_version,
    wait_version,
)

async_api = pytest.importorskip("playwright.async_api")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium here")

# Small option sets: short games.
GAMES = {
    # game: (browser seats, bot seats, options, the version pictured mid-game)
    "dozito": (2, 0, {"rounds": 1}, 12),
    "decrypto": (2, 2, {"max_rounds": 1}, 6),
    "illustori": (2, 1, {"deck_size": 16}, 10),
    "diced_tomatoes": (2, 0, {}, 12),
}


def test_the_server_hands_out_the_client_and_its_configuration(up):
    with urllib.request.urlopen(f"{up.http_url}/config.json") as answer:
        config = json.load(answer)
    assert config["websocket"].startswith("ws://127.0.0.1:")
    naishi = next(g for g in config["games"] if g["game"] == "naishi")
    assert naishi["min_players"] == naishi["max_players"] == 2
    assert naishi["options"]["properties"]["first_player"]["default"] == "random"
    assert config["reserved_view_keys"] == sorted(RESERVED_VIEW_KEYS)  # the generic board skips them
    for path, kind in (
        ("/", "text/html"),
        ("/app.js", "text/javascript"),
        ("/vendor/nats.js", "text/javascript"),
        ("/app.css", "text/css"),
    ):
        with urllib.request.urlopen(f"{up.http_url}{path}") as answer:
            assert answer.headers["Content-Type"].startswith(kind), path
            assert "connect-src 'self' ws://127.0.0.1:" in answer.headers["Content-Security-Policy"]
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(f"{up.http_url}/../pyproject.toml")
    assert missing.value.code in (403, 404)
    # gzipped for a browser that takes it, and revalidated by its ETag: unchanged, a 304
    plain = urllib.request.urlopen(f"{up.http_url}/vendor/nats.js").read()
    ask = urllib.request.Request(f"{up.http_url}/vendor/nats.js", headers={"Accept-Encoding": "gzip, br"})
    with urllib.request.urlopen(ask) as answer:
        assert answer.headers["Content-Encoding"] == "gzip" and answer.headers["Cache-Control"] == "no-cache"
        assert gzip.decompress(answer.read()) == plain
        etag = answer.headers["ETag"]
    again = urllib.request.Request(f"{up.http_url}/vendor/nats.js", headers={"If-None-Match": etag})
    with pytest.raises(urllib.error.HTTPError) as unchanged:
        urllib.request.urlopen(again)
    assert unchanged.value.code == 304


def test_a_symbolic_link_in_the_static_folder_is_never_served(tmp_path):
    """A link in the client's folder, to a file or a folder elsewhere, is not served."""
    static, outside = tmp_path / "static", tmp_path / "outside"
    static.mkdir()
    outside.mkdir()
    (static / "app.js").write_text("'use strict';")
    (outside / "secret.txt").write_text("not for the web")
    (static / "secret.txt").symlink_to(outside / "secret.txt")
    (static / "elsewhere").symlink_to(outside, target_is_directory=True)
    assert set(static_files(static)) == {"/app.js"}


async def test_the_page_s_port_is_held_from_its_choice_until_the_page_is_served():
    """`tabletop up` chooses the page's port before NATS starts (NATS's WebSocket takes that page
    only) and serves it later: the port is held in between, and served from that socket."""
    held = bound_socket(0)
    port = held.getsockname()[1]
    with socket.socket() as other, pytest.raises(OSError, match="in use"):
        other.bind(("127.0.0.1", port))  # nothing else can take it meanwhile
    assert bound_socket(port).getsockname()[1] != port  # a preferred port in use: another one
    stop, served = asyncio.Event(), asyncio.get_running_loop().create_future()
    serving = asyncio.create_task(
        serve_web(
            host="127.0.0.1", port=port, websocket_url="ws://x", stop=stop, ready=served.set_result, sock=held
        )
    )
    assert await asyncio.wait_for(served, 30) == f"http://127.0.0.1:{port}"
    page = await asyncio.to_thread(
        lambda: urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).read()
    )
    assert b"<html" in page.lower()
    stop.set()
    await serving


async def test_a_first_visit_weighs_little_over_the_wire(up, browser):
    """Everything the sign-in page loads on a first visit, as the browser received it
    (compressed): printed, and under 150 KB."""
    context = await browser.new_context()
    page = await context.new_page()
    responses = []
    page.on("response", lambda response: responses.append(response))
    await page.goto(f"{up.http_url}/#/signin")
    await page.wait_for_selector("#signin")
    await page.wait_for_load_state("networkidle")
    sizes = {r.url.removeprefix(up.http_url): await r.request.sizes() for r in responses}
    await context.close()
    received = {url: s["responseBodySize"] + s["responseHeadersSize"] for url, s in sizes.items()}
    total = sum(received.values())
    print(f"first visit: {total} bytes over the wire in {len(received)} responses: {received}")
    assert "/vendor/nats.js" in received and received["/vendor/nats.js"] < 100_000
    assert total < 150_000


async def test_two_people_play_naishi_a_guest_watches_and_the_replay_ends_on_the_live_board(up, browser):
    base = up.http_url
    ann_name, bob_name = unique("ann"), unique("bob")
    ann = Seat(ann_name, await sign_in(browser, base, ann_name), random.Random(1))
    bob = Seat(bob_name, await sign_in(browser, base, bob_name, width=380, locale="fr-FR"), random.Random(2))
    table = await create_table(ann.page, base, "naishi", 2, {"first_player": "first_seat"})
    # a guest finds it in the lobby, with its options in words; bob too, in French, and joins
    guest = await sign_in(browser, base, None)
    await guest.goto(f"{base}/#/lobby/naishi")
    guest_row = guest.locator(f'[data-table="{table}"]')
    await guest_row.wait_for()
    assert "first player: first seat" in await guest_row.inner_text()
    await bob.page.goto(f"{base}/#/lobby/naishi")
    row = bob.page.locator(f'[data-table="{table}"]')
    await row.wait_for()
    await join_from_lobby(bob.page, base, "naishi", table)  # bob's browser speaks French
    await in_french(bob.page)
    await ann.page.wait_for_selector("#table-controls [data-action=start]")
    await ann.page.click("#table-controls [data-action=start]")
    # the first thing to do is said above the board, and its cards are in view without scrolling
    give = ann.page.locator('#table [data-command*="give_card"]').first
    await give.wait_for()
    assert "give it" in await ann.page.inner_text("#table .turn-line")
    box = await give.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 900, box
    await guest.goto(f"{base}/#/table/naishi/{table}")
    await guest.wait_for_selector("#table[data-status=running]")
    guest_seen: list[tuple[int, str]] = []

    async def look() -> None:
        guest_seen.append(await page_text(guest))
        await screenshot(ann.page, "naishi")
        await screenshot(bob.page, "phone")

    async def watch_guest() -> None:  # the guest's page, at every version it shows
        while True:
            guest_seen.append(await page_text(guest))
            if await guest.get_attribute("#table", "data-status") == "ended":
                return
            await guest.wait_for_function(
                "v => Number(document.getElementById('table').dataset.version) > v",
                arg=await version_of(guest),
                timeout=60_000,
            )

    watching = asyncio.ensure_future(watch_guest())
    try:
        await play_through([ann, bob], pause_at=12, on_pause=look)
        await asyncio.wait_for(watching, 60)
    finally:
        watching.cancel()

    # both see the same result, and the guest too
    for page in (ann.page, bob.page, guest):  # each player's rating change, once asked
        await page.wait_for_selector("#result[data-ratings=loaded]")
    results = [await p.inner_text("#result") for p in (ann.page, bob.page, guest)]
    assert results[0] == results[2] != results[1]  # bob's in French
    await in_french(bob.page)
    assert "Rank" in results[0] and ann_name in results[0] and bob_name in results[0]
    final = await version_of(ann.page)
    assert final == await version_of(bob.page) == await version_of(guest)

    # no page showed another seat's hidden cards: the guest none at all
    admin = await up.admin()
    try:
        views = await views_by_version(admin, "naishi", table, [ann_name, bob_name, "spectator"])
    finally:
        await admin.bus.close()
    checks = assert_no_secret_shown(
        {ann_name: ann.seen, bob_name: bob.seen, None: guest_seen}, views, [ann_name, bob_name]
    )
    assert checks > 100  # the hands were hidden for most of the game: there was much to check

    # the log beside the board says every step
    assert await ann.page.locator("#log > li").count() >= final - 3

    # the replay: the slider walks from the first step to the last, whose board is the live one
    live_board = await board_html(ann.page, "#board")
    replay = ann.page
    await replay.goto(f"{base}/#/replay/naishi/{table}")
    await replay.wait_for_selector("#step:not([disabled])")
    steps = int(await replay.get_attribute("#step", "max")) + 1
    assert steps == final
    await replay.focus("#step")
    await replay.keyboard.press("Home")
    versions = [int(await replay.get_attribute("#replay", "data-version"))]
    for _ in range(steps - 1):
        await replay.keyboard.press("ArrowRight")
        await replay.wait_for_function(
            "v => Number(document.getElementById('replay').dataset.version) > v", arg=versions[-1]
        )
        versions.append(int(await replay.get_attribute("#replay", "data-version")))
    assert versions == list(range(1, final + 1))
    assert replay.url.endswith(f"#/replay/naishi/{table}/{final}")  # an address per step
    assert await board_html(replay, "#replay-board") == live_board
    await replay.wait_for_selector("#result[data-ratings=loaded]")
    assert await replay.inner_text("#result") == results[0]
    # the address of a step opens the replay at that step
    await replay.goto(f"{base}/#/replay/naishi/{table}/5")
    await replay.reload()
    await replay.wait_for_selector("#replay[data-version='5']")
    await screenshot(replay, "replay")
    # as a spectator: the last board is the one the guest saw live
    await replay.click("#replay-as")
    await replay.wait_for_url(re.compile(r".*/5/spectator$"))
    await replay.wait_for_selector("#replay-viewer:has-text('As a spectator')")
    await replay.focus("#step")
    await replay.keyboard.press("End")
    await replay.wait_for_selector(f"#replay[data-version='{final}']")
    assert await board_html(replay, "#replay-board") == await board_html(guest, "#board")
    for page in (ann.page, bob.page, guest):
        assert not page.errors, page.errors
        await page.context.close()


async def board_html(page, selector: str) -> str:
    """The board as drawn, but for what only says whether it may be clicked."""
    return await page.evaluate(
        """s => {
        const copy = document.querySelector(s).cloneNode(true);
        copy.querySelectorAll('[disabled]').forEach(n => n.removeAttribute('disabled'));
        return copy.innerHTML;
    }""",
        selector,
    )


@pytest.mark.parametrize("game", list(GAMES))
async def test_each_game_is_played_to_its_end_in_browsers(up, browser, game):
    await play_in_browsers(up, browser, game, *GAMES[game])


async def test_players_profiles_and_rankings(up, browser):
    """After a table two signed-in players played to its end (through the bus: playing in
    browsers is the test above): its result shows each player's rating change, a name leads
    to that player's profile (their record per game, a chart of the rating, their tables with
    replays), and the game's rankings list them, best first; a guest sees all."""
    ann, bob = unique("p0"), unique("p1")
    clients = {name: await up.player(name) for name in (ann, bob)}
    try:
        await play_with_bots(
            clients[ann],
            "dozito",
            f"t{uuid.uuid4().hex[:12]}",
            [ann, bob],
            random.Random(4),
            options={"rounds": 1},
            seat_clients=clients,
        )
    finally:
        for client in clients.values():
            await client.bus.close()
    page = await sign_in(browser, up.http_url, ann)
    await page.goto(f"{up.http_url}/#/player/{ann}")
    entry = page.locator("#history .history-entry").first
    await entry.wait_for()
    table = await entry.get_attribute("data-table")
    record = page.locator("#profile .records tr[data-game=dozito]")
    assert (await record.locator("td").nth(1).inner_text()) == "1"  # played
    assert await record.locator(".rating-chart polyline").count() == 1
    assert "replay" in await entry.inner_text() and bob in await entry.inner_text()
    assert await page.locator("#profile button", has_text="More tables").is_hidden()  # one page
    await screenshot(page, "profile")
    # the table's result: each player's rating after it, and the change
    await page.goto(f"{up.http_url}/#/table/dozito/{table}")
    await page.wait_for_selector("#result[data-ratings=loaded]")
    changes = await page.locator("#result .rating-change").all_inner_texts()
    assert len(changes) == 2 and all(re.fullmatch(r"-?\d+\.\d \([+−]\d+\.\d\)", c) for c in changes), changes
    await screenshot(page, "result-with-ratings")
    # a name in the result leads to that player's profile
    await page.locator("#result .ranking a.player", has_text=bob).click()
    await page.wait_for_selector(f"#profile[data-player={bob}] .records")
    await page.context.close()
    # the rankings, for a guest too: both players, ranks in order, best rating first
    guest = await sign_in(browser, up.http_url, None)
    await guest.goto(f"{up.http_url}/#/rankings/dozito")
    await guest.wait_for_selector(f"#rankings tr[data-player={ann}]")
    rows = await guest.eval_on_selector_all(
        "#rankings tbody tr", "rs => rs.map(r => [...r.children].map(c => c.textContent))"
    )
    assert [int(r[0]) for r in rows] == list(range(1, len(rows) + 1))
    ratings = [float(r[2].rstrip("?")) for r in rows]
    assert ratings == sorted(ratings, reverse=True) and {ann, bob} <= {r[1] for r in rows}
    assert await guest.locator("button", has_text="More players").is_hidden()
    await screenshot(guest, "rankings")
    assert not guest.errors, guest.errors
    await guest.context.close()


# A page whose notifications are allowed and recorded, whose chimes are counted, and whose tab
# can be made to read as hidden (`window.__hidden`), as when the player is in another tab.
WATCHED_ALERTS = """
window.__notes = [];
window.__chimes = 0;
window.Notification = class {
  static permission = "granted";
  static requestPermission = async () => "granted";
  constructor(title, options) { window.__notes.push(title); }
  close() {}
};
Object.defineProperty(document, "visibilityState", { get: () => (window.__hidden ? "hidden" : "visible") });
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  createOscillator() {
    const tone = super.createOscillator();
    const start = tone.start.bind(tone);
    tone.start = (...args) => { window.__chimes += 1; return start(...args); };
    return tone;
  }
};
"""


async def watched(browser, base: str, name: str):
    async def prepare(context):
        await context.add_init_script(WATCHED_ALERTS)

    return await sign_in(browser, base, name, prepare=prepare)


async def test_the_turn_shows_in_the_tab_and_calls_a_player_who_is_elsewhere(up, browser):
    """The tab whose turn it is says so in its title and icon; when the turn comes to a player
    whose tab is hidden, a chime sounds and a notification says so."""
    names = [unique("al"), unique("bo")]
    pages = [await watched(browser, up.http_url, n) for n in names]
    table = await create_table(pages[0], up.http_url, "dozito", 2, {"rounds": 1})
    await join_from_lobby(pages[1], up.http_url, "dozito", table)
    await pages[0].click("#table-controls [data-action=start]")
    for page in pages:
        await page.wait_for_selector("#table[data-status=running]")

    async def title(page) -> str:
        return await page.evaluate("() => document.title")

    async def mine(page) -> bool:
        return (await title(page)).startswith("Your turn")

    await pages[0].wait_for_function("() => document.title.includes('Dozito')")
    first = 0 if await mine(pages[0]) else 1
    mover, waiter = pages[first], pages[1 - first]
    assert await mine(mover) and not await mine(waiter)
    assert await mover.get_attribute("#icon", "href") == "icon-turn.svg"
    assert await waiter.get_attribute("#icon", "href") == "icon.svg"
    await screenshot(mover, "your-turn-tab")
    await waiter.evaluate("() => { window.__hidden = true; }")
    seat = Seat(names[first], mover, random.Random(3))
    while not await mine(waiter):  # the mover plays its turn out
        before = await version_of(mover)
        assert await take_a_move(seat)
        await wait_version(mover, before + 1)
    await waiter.wait_for_function("() => window.__notes.length > 0")
    assert await waiter.evaluate("() => window.__notes") == ["Your turn at Dozito"]
    assert await waiter.evaluate("() => window.__chimes") == 1
    assert await waiter.get_attribute("#icon", "href") == "icon-turn.svg"
    assert not await mine(mover) and await mover.evaluate("() => window.__notes") == []
    # the chime and the notifications can each be turned off, and stay off
    await waiter.uncheck("#alert-sound")
    await waiter.uncheck("#alert-notify")
    kept = await waiter.evaluate("() => JSON.parse(localStorage.getItem('tabletop.alerts'))")
    assert kept == {"sound": False, "notify": False}
    for page in pages:
        assert not page.errors, page.errors
        await page.context.close()


# Every animation a page starts, by the id of the card or die it moves.
WATCHED_MOTION = """
window.__animated = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  window.__animated.push(this.dataset.card ?? this.dataset.die ?? "?");
  return animate.call(this, frames, options);
};
"""


@pytest.mark.parametrize("reduced", [False, True])
async def test_pieces_that_move_glide_unless_the_player_asked_for_less_motion(up, browser, reduced):
    async def prepare(context):
        await context.add_init_script(WATCHED_MOTION)

    page = await sign_in(browser, up.http_url, unique("mo"), prepare=prepare)
    if reduced:
        await page.emulate_media(reduced_motion="reduce")
    await create_table(page, up.http_url, "diced_tomatoes", 1, {})
    await page.click("#table-controls [data-action=start]")
    await page.wait_for_selector("#table[data-status=running]")
    seat = Seat("me", page, random.Random(5))
    for _ in range(6):  # dice taken, placed, turned: pieces appear and change places
        before = await version_of(page)
        if not await take_a_move(seat):
            break
        await wait_version(page, before + 1)
    animated = await page.evaluate("() => window.__animated")
    if reduced:
        assert animated == []
    else:
        assert animated and all(key != "?" for key in animated), animated
    assert not page.errors, page.errors
    await page.context.close()


async def test_a_move_that_revealed_nothing_is_taken_back_with_undo(up, browser):
    """Diced Tomatoes: a die placed can be taken back (the Undo button beside Quit), and the
    board is again the one before; a roll cannot (no Undo after it)."""
    page = await sign_in(browser, up.http_url, unique("un"), locale="fr-FR")
    await create_table(page, up.http_url, "diced_tomatoes", 1, {})
    await page.click("#table-controls [data-action=start]")
    await page.wait_for_selector("#table[data-status=running]")
    seat, undo = Seat("me", page, random.Random(3)), page.locator("#table-controls [data-action=undo]")
    board = await board_html(page, "#board")
    for _ in range(10):  # until a move can be taken back
        board = await board_html(page, "#board")
        before = await version_of(page)
        assert await take_a_move(seat)
        await wait_version(page, before + 1)
        if await undo.count():
            break
    assert await undo.count() == 1 and await undo.inner_text() == "Annuler"
    version = await version_of(page)
    await undo.click()
    await wait_version(page, version + 1)
    await page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    assert await board_html(page, "#board") == board
    assert "a annulé son dernier coup" in await page.inner_text("#log")
    await in_french(page)
    assert not page.errors, page.errors
    await page.context.close()


async def test_the_rules_are_at_hand_and_each_move_says_what_it_does(up, browser):
    """A folded panel of the game's rules in short (written in only once opened) and, on a
    move under the pointer or the keyboard's focus, a line saying what it does."""
    game_help = {
        g["game"]: g["help"]
        for g in json.loads(urllib.request.urlopen(f"{up.http_url}/config.json").read())["games"]
    }
    assert set(game_help) >= {"naishi", "dozito", "diced_tomatoes", "decrypto", "illustori"}
    for name, help_ in game_help.items():  # every move of every game is explained
        if name in ("highcard", "crashy"):
            continue
        tags = {type_tag(command) for command in get(name).game.commands}
        assert help_["rules"] and set(help_["moves"]) == tags, name
    page = await sign_in(browser, up.http_url, unique("ru"))
    await create_table(page, up.http_url, "naishi", 2, {"bots": 1})
    rules = game_help["naishi"]["rules"]
    assert rules[0][:40] not in await page.inner_text("#table")  # not in the page until asked
    await page.click("#rules summary")
    await page.locator("#rules p").first.wait_for()  # written on the toggle event, after the click
    assert await page.locator("#rules p").all_inner_texts() == rules
    await page.click("#table-controls [data-action=start]")
    give = page.locator("#table [data-command*=give_card]").first
    await give.wait_for()
    await give.hover()
    await page.wait_for_function("() => document.getElementById('move-hint').textContent !== ''")
    assert await page.inner_text("#move-hint") == game_help["naishi"]["moves"]["give_card"]
    await page.mouse.move(0, 0)
    await page.wait_for_function("() => document.getElementById('move-hint').textContent === ''")
    # the board drawn again under the pointer (a new view came): the hint still goes with it
    await give.hover()
    await page.wait_for_function("() => document.getElementById('move-hint').textContent !== ''")
    await give.evaluate("move => move.parentElement.replaceChild(move.cloneNode(true), move)")
    await page.mouse.move(0, 0)
    await page.wait_for_function(
        "() => document.getElementById('move-hint').textContent === ''", timeout=ACTION_TIMEOUT_MS
    )
    await give.focus()  # from the keyboard too
    assert await page.inner_text("#move-hint") == game_help["naishi"]["moves"]["give_card"]
    await screenshot(page, "rules-and-move-hint")
    assert not page.errors, page.errors
    await page.context.close()


async def test_an_invitation_link_brings_a_player_to_the_table_to_join(up, browser):
    host = await sign_in(browser, up.http_url, unique("ho"))
    table = await create_table(host, up.http_url, "naishi", 2, {})
    link = await host.input_value("#invitation-link")
    assert link == f"{up.http_url}/#/table/naishi/{table}"
    await screenshot(host, "invitation")
    # the invited player opens the link, signs in first, and lands on the table to join it
    context = await browser.new_context(viewport={"width": 1100, "height": 900})
    guest = await context.new_page()
    guest_name = unique("in")
    await guest.goto(link)
    await guest.fill("#signin-name", guest_name)
    await guest.fill("#signin-password", PASSWORD)
    await guest.click("#signin button[type=submit]")
    await guest.wait_for_url(re.compile(rf".*#/table/naishi/{table}$"))
    await guest.click("#table-controls [data-action=join]")
    await host.wait_for_selector(f"#seats >> text={guest_name}")
    await host.wait_for_selector("#invitation-link", state="detached")  # full: nobody more to invite
    await host.context.close()
    await context.close()


@pytest.mark.parametrize("answer", ["join", "decline"])
async def test_a_rematch_is_offered_after_the_end_and_joined_or_declined_from_the_ended_table(
    up, browser, answer
):
    names = [unique("ra"), unique("rb")]
    clients = [await up.player(n) for n in names]
    table = f"naishi-{uuid.uuid4().hex[:8]}"
    try:
        for name, command in (
            (names[0], {"type": "create", "seats": 2}),
            (names[1], {"type": "join"}),
            (names[0], {"type": "start"}),
            (names[0], {"type": "quit"}),
            (names[1], {"type": "quit"}),
        ):
            assert (await clients[0 if name == names[0] else 1].command("naishi", table, name, command))["ok"]
    finally:
        for client in clients:
            await client.bus.close()
    pages = [await sign_in(browser, up.http_url, n) for n in names]
    for page in pages:
        await page.goto(f"{up.http_url}/#/table/naishi/{table}")
        await page.wait_for_selector("#table[data-status=ended]")
    await pages[0].click("#rematch [data-action=rematch]")
    await pages[0].wait_for_function("old => !location.hash.endsWith(old)", arg=table)
    fresh = pages[0].url.rsplit("/", 1)[1]
    assert re.fullmatch(r"naishi-[0-9a-f]{12}", fresh), fresh
    await pages[1].wait_for_selector(f"#rematch >> text={names[0]} offers a rematch")
    await screenshot(pages[1], "rematch-offered")
    if answer == "join":  # everyone has joined: the game starts by itself
        await pages[1].click("#rematch [data-action=join-rematch]")
        await pages[1].wait_for_url(re.compile(rf".*#/table/naishi/{fresh}$"))
        for page in pages:
            await page.wait_for_selector("#table[data-status=running]")
        assert await pages[0].locator("#table-controls [data-action=start]").count() == 0
    else:  # the offerer, at the new table, still sees it open; the ended table says who declined
        await pages[1].click("#rematch [data-action=decline-rematch]")
        await pages[1].wait_for_selector(f"#rematch-declined >> text=Declined: {names[1]}.")
        assert await pages[1].locator("#rematch [data-action=join-rematch]").count() == 0
        assert await pages[0].get_attribute("#table", "data-status") == "open"
    for page in pages:
        assert not page.errors, page.errors
        await page.context.close()


@pytest.mark.slow
def test_tabletop_web_serves_the_client_alone_with_the_address_it_is_given(tmp_path):
    log = tmp_path / "web.log"
    process = subprocess.Popen(
        [*TABLETOP, "web", "--port", "0", "--websocket", "wss://games.example.org/nats"],
        env=cli_env(),
        stdout=subprocess.DEVNULL,
        stderr=open(log, "ab"),  # noqa: SIM115 - the process keeps it
    )
    try:
        deadline = time.monotonic() + 30
        while not (found := re.search(r"open (http://\S+)", log.read_text())):
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        with urllib.request.urlopen(f"{found.group(1)}/config.json") as answer:
            assert json.load(answer)["websocket"] == "wss://games.example.org/nats"
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(15) == 0


async def test_a_page_that_lost_its_connection_catches_up_on_what_it_missed(up, browser):
    """The move of the other seat is pushed while this page is cut off: once the connection
    is back, the page asks the view and the log again and shows the move."""
    base = up.http_url
    ann_name, bob_name = unique("ann"), unique("bob")
    allowed = asyncio.Event()
    allowed.set()
    sockets: list = []

    async def through_a_cable(context) -> None:  # the page's WebSockets, which the test can cut
        async def route(socket) -> None:
            await allowed.wait()
            sockets.append((socket, socket.connect_to_server()))

        await context.route_web_socket(re.compile(r"^wss?://"), route)

    ann = Seat(ann_name, await sign_in(browser, base, ann_name, prepare=through_a_cable), random.Random(3))
    table = await create_table(ann.page, base, "naishi", 2, {})
    bob = await up.player(bob_name)
    try:
        assert (await bob.command("naishi", table, bob_name, {"type": "join"}))["ok"]
        await ann.page.click("#table-controls [data-action=start]")
        await ann.page.wait_for_selector("#table[data-status=running]")
        choose = get("naishi").game.bot
        rng = random.Random(4)
        while True:  # until bob is to act (ann clicks her moves meanwhile)
            own = await bob.view("naishi", table, bob_name)
            if "legal" in own["view"]:
                break
            await take_a_move(ann)
        shown = await version_of(ann.page)
        allowed.clear()
        for page_side, server_side in sockets:
            await server_side.close()
            await page_side.close()
        await ann.page.wait_for_selector("#status:not(:empty)")  # "Connection lost: ..."
        reply = await bob.command(
            "naishi", table, bob_name, {**choose(own["view"], rng), "expect": own["version"]}
        )
        assert reply["ok"] and reply["version"] > shown
        assert await version_of(ann.page) == shown  # nothing can reach the page
        allowed.set()
        await wait_version(ann.page, reply["version"])
        assert await ann.page.inner_text("#status") == ""
        # the log catches up too
        await ann.page.wait_for_selector(f'#log > li[data-version="{reply["version"]}"]')
        assert not ann.page.errors, ann.page.errors
    finally:
        await bob.bus.close()
        await ann.page.context.close()


async def test_refusals_are_shown_with_the_servers_message(up, browser):
    base = up.http_url
    name = unique("cy")
    page = await sign_in(browser, base, name)
    try:
        await page.goto(f"{base}/#/lobby/illustori")
        await page.fill("#opt-deck_size", "6")
        await page.click("#create-table button[type=submit]")
        error = page.locator("#create-table .error")
        await error.filter(has_text="deck_size").wait_for()
        assert "between" in await error.inner_text()  # the rules' own words
        assert "#/lobby/illustori" in page.url  # no table was made
    finally:
        await page.context.close()
    other = await browser.new_context()
    try:
        page = await other.new_page()
        await page.goto(f"{base}/#/signin")
        await page.fill("#signin-name", name)
        await page.fill("#signin-password", "not the password at all")
        await page.click("#signin button[type=submit]")
        refused = page.locator("#signin .error")
        await refused.filter(has_text="Sign-in refused").wait_for()
        assert await page.locator("#who").count() == 0
        await screenshot(page, "signin-refused")
    finally:
        await other.close()


async def test_a_second_tab_opens_a_table_without_signing_in_and_sign_out_revokes_the_token(up, browser):
    base = up.http_url
    name = unique("di")
    first = await sign_in(browser, base, name)
    context = first.context
    try:
        table = await create_table(first, base, "dozito", 2, {"rounds": 1})
        kept = await first.evaluate("() => localStorage.getItem('tabletop.session')")
        assert json.loads(kept)["name"] == name and json.loads(kept)["token"]
        assert PASSWORD not in kept  # the token, never the password
        assert await first.evaluate("() => sessionStorage.length") == 0
        second = await context.new_page()  # another tab of the same browser
        await second.goto(f"{base}/#/table/dozito/{table}")
        await second.wait_for_selector("#table[data-status=open]")
        assert await second.inner_text("#who") == f"Signed in as {name}"
        assert await second.locator("#signin").count() == 0
        await screenshot(second, "second-tab")
        # sign out in the second tab: the first one follows, and the token is revoked
        await second.click("#nav button")
        await second.wait_for_selector("#signin")
        await first.wait_for_selector("#signin")
        with pytest.raises(SignInRefused):
            await Bus.connect(
                up.nats_url,
                load_settings(),
                name="test-revoked",
                wait=10,
                credentials=Credentials.session(name, json.loads(kept)["token"]),
            )
        # a browser still holding the revoked token is asked to sign in again
        await second.evaluate("(kept) => localStorage.setItem('tabletop.session', kept)", kept)
        await second.goto(f"{base}/#/table/dozito/{table}")
        await second.reload()
        notice = second.locator("#signin .error")
        await notice.filter(has_text="signed out").wait_for()
        await screenshot(second, "session-refused")
        assert await second.evaluate("() => localStorage.getItem('tabletop.session')") is None
    finally:
        await context.close()


@pytest.mark.parametrize("game", ["decrypto", "illustori"])
async def test_every_option_of_the_create_form_is_explained(up, browser, game):
    """Each field of a game's create form (its own options and the table's) carries the
    sentence the game gives it."""
    page = await sign_in(browser, up.http_url, unique("op"))
    await page.goto(f"{up.http_url}/#/lobby/{game}")
    await page.wait_for_selector("#create-table")
    fields = await page.eval_on_selector_all(
        "#create-table .field:has([id^=opt-]:not(#opt-seats))",
        "fs => fs.map(f => [f.querySelector('label').textContent,"
        " f.querySelector('small')?.textContent || ''])",
    )
    assert len(fields) >= 10, fields
    unexplained = [label for label, hint in fields if len(hint.split()) < 4]
    assert not unexplained, unexplained
    # the language is offered by its name, as the game names it
    languages = await page.eval_on_selector_all("#opt-language option", "os => os.map(o => o.textContent)")
    assert languages == ["English", "Français"], languages
    await screenshot(page, f"create-{game}")
    await page.context.close()


async def test_a_game_everyone_walked_away_from_ends_by_itself(browser, tmp_path):
    """A table without clocks where nobody moves any more ends abandoned once
    TABLETOP_IDLE_TABLE_TTL has passed (3 s here), and its page says so."""
    idle = Up(tmp_path)
    idle.env["TABLETOP_IDLE_TABLE_TTL"] = "3"
    idle.start()
    try:
        base = idle.http_url
        names = [unique("wa"), unique("wb")]
        pages = [await sign_in(browser, base, n) for n in names]
        table = await create_table(pages[0], base, "highcard", 2, {})
        await join_from_lobby(pages[1], base, "highcard", table)
        await pages[0].click("#table-controls [data-action=start]")
        for page in pages:  # then nobody moves
            await page.wait_for_selector("#table[data-status=ended]", timeout=60_000)
            result = await page.inner_text("#result")
            assert "Nobody moved for a long time" in result and "No winner" in result, result
            assert not page.errors, page.errors
            await page.context.close()
    finally:
        assert idle.stop() == 0


async def test_a_player_who_quits_ranks_last_and_the_result_says_so(up, browser):
    """Two people at a one-card table: one quits at once, the bot service plays the seat, the
    other plays on; every page's result ranks the quitter last and says they left."""
    base = up.http_url
    names = [unique("qa"), unique("qb")]
    seats = [Seat(n, await sign_in(browser, base, n), random.Random(i)) for i, n in enumerate(names)]
    table = await create_table(seats[0].page, base, "highcard", 2, {"hand_size": 1})
    await join_from_lobby(seats[1].page, base, "highcard", table)
    await seats[0].page.click("#table-controls [data-action=start]")
    await seats[0].page.wait_for_selector("#table[data-status=running]")

    async def accept(dialog):
        await dialog.accept()

    seats[0].page.once("dialog", accept)
    await seats[0].page.click("#table-controls [data-action=quit]")
    await play_through(seats[1:])
    for seat in seats:
        await seat.page.wait_for_selector("#table[data-status=ended]")
        result = await seat.page.inner_text("#result")
        assert f"{names[0]} left the game: ranked last" in result, result
        last = await seat.page.inner_text("#result .ranking tbody tr:last-child th")
        assert last == names[0] and f"{names[0]} wins" not in result
        assert not seat.page.errors, seat.page.errors
    await screenshot(seats[1].page, "forfeit")
    for seat in seats:
        await seat.page.context.close()


async def test_a_player_against_the_bot_service_sees_the_clocks_and_quits(up, browser):
    """A table with clocks and a bot seat, made from the create form: the page counts the
    clocks, the bot service plays the bot's seat, and quitting (the only person) ends the
    table, naming the seat that left."""
    base = up.http_url
    name = unique("solo")
    page = await sign_in(browser, base, name)
    # the form offers the bots' level by name
    await page.goto(f"{base}/#/lobby/naishi")
    levels = await page.locator("#opt-bot_level option").all_inner_texts()
    assert levels == ["Easy bots", "Normal bots", "Hard bots"], levels
    await screenshot(page, "create-form-bot-level")
    table = await create_table(page, base, "naishi", 2, {"clock": "fast", "bots": 1, "bot_level": "hard"})
    assert "robot-1 (bot)" in await page.inner_text("#players")
    await page.click("#table-controls [data-action=start]")
    await page.wait_for_selector("#table[data-status=running]")
    clocks = await page.inner_text("#players")
    # a panel per seat: the name, its marks, its time left
    mine = await page.inner_text(f'#players [data-player="{name}"]')
    assert mine.startswith(f"{name} (you)") and re.search(r"\d+:\d\d", mine), mine
    robot = await page.inner_text('#players [data-player="robot-1"]')
    assert robot.startswith("robot-1 (bot)") and re.search(r"\d+:\d\d", robot), robot
    # the running clock is marked by a drawn dot, never an emoji a font may lack
    assert all(ord(c) < 0x2300 for c in clocks), clocks
    assert await page.locator("#players .running .tick").count() >= 1
    await screenshot(page, "clocks")
    # the opening exchange asks both seats at once: the bot service gives the robot's card
    await page.wait_for_function(
        "() => document.querySelector('#log').innerText.includes('robot-1 chose a card to give')"
    )

    async def accept(dialog):
        await dialog.accept()

    page.once("dialog", accept)
    await page.click("#table-controls [data-action=quit]")
    await page.wait_for_selector("#table[data-status=ended]")
    assert name in await page.inner_text("#result")
    assert f"{name} left the game" in await page.inner_text("#log")
    admin = await up.admin()
    try:
        final = await admin.view("naishi", table)
    finally:
        await admin.bus.close()
    assert final["view"]["result"]["details"]["abandoned_seats"] == [name]
    assert final["view"]["options"]["bot_level"] == "hard"
    await screenshot(page, "quit")
    await page.context.close()


# A line that would run script or draw an image if a page took it as markup.
MARKUP = '<img src="x" onerror="window.pwned = 1"><script>window.pwned = 2</script><b>hello</b> & bye'


async def test_players_and_spectators_chat_at_a_table_and_in_the_lobby_as_plain_text_and_see_who_is_away(
    up, browser
):
    names = [unique("ca"), unique("cb"), unique("cc")]  # two seated players, one looking on
    clients = [await up.player(n) for n in names]
    table = f"naishi-{uuid.uuid4().hex[:8]}"
    try:
        for name, command in (
            (names[0], {"type": "create", "seats": 2}),
            (names[1], {"type": "join"}),
            (names[0], {"type": "start"}),
        ):
            assert (await clients[names.index(name)].command("naishi", table, name, command))["ok"]
    finally:
        for client in clients:
            await client.bus.close()
    pages = [await sign_in(browser, up.http_url, n) for n in names]
    guest = await sign_in(browser, up.http_url, None)
    for page in [*pages, guest]:
        await page.goto(f"{up.http_url}/#/table/naishi/{table}")
        await page.wait_for_selector("#table[data-version]")
        if page is pages[0]:  # bob's page is not open yet: ann sees him away, and not herself
            bob = pages[0].locator(f'#players [data-player="{names[1]}"][data-away]')
            await bob.wait_for()
            assert "away" in await bob.inner_text()
            assert await pages[0].locator(f'#players [data-player="{names[0]}"][data-away]').count() == 0
    assert "Sign in to chat." in await guest.inner_text("#table-chat")
    assert await guest.locator("#table-chat form").count() == 0

    async def say(page, text: str) -> None:
        await page.fill("#table-chat input[name=text]", text)
        await page.press("#table-chat input[name=text]", "Enter")
        await page.wait_for_function(
            "() => document.querySelector('#table-chat input[name=text]').value === ''"
        )

    await say(pages[0], MARKUP)
    await say(pages[2], "good luck to you both")
    for page in [*pages, guest]:
        lines = page.locator("#table-chat .chat-line")
        await lines.nth(1).wait_for()
        texts = await page.locator("#table-chat .chat-text").all_inner_texts()
        assert texts == [MARKUP, "good luck to you both"], texts
        assert (
            await page.locator(
                "#table-chat .chat-lines img, #table-chat .chat-lines script, #table-chat .chat-lines b"
            ).count()
            == 0
        )
        assert await page.evaluate("() => window.pwned") is None
        # the spectator's line is marked, the player's is not
        assert await lines.nth(0).get_attribute("class") == "chat-line"
        assert "(spectator)" in await lines.nth(1).inner_text()
        assert names[2] in await lines.nth(1).inner_text()
    await screenshot(pages[1], "chat-at-a-table")

    # a page opened later reads what was said; the lobby is a room of its own
    await pages[1].reload()
    await pages[1].wait_for_selector("#table-chat .chat-line >> nth=1")
    await pages[0].goto(f"{up.http_url}/#/lobby/naishi")
    await guest.goto(f"{up.http_url}/#/lobby/naishi")
    await pages[0].wait_for_selector("#lobby-chat form")
    await pages[0].fill("#lobby-chat input[name=text]", "anyone for a game?")
    await pages[0].press("#lobby-chat input[name=text]", "Enter")
    for page in (pages[0], guest):
        await page.wait_for_selector("#lobby-chat .chat-text >> text=anyone for a game?")
        assert MARKUP not in await page.inner_text("#lobby-chat")
    assert "anyone for a game?" not in await pages[1].inner_text("#table-chat")
    for page in [*pages, guest]:
        assert not page.errors, page.errors
        await page.context.close()
