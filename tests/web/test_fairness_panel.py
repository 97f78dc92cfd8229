"""The replay's "Check the dice" panel (services/web/static/fairness.js), in headless Chromium:
the browser's own generator (WebCrypto, BigInt) against the published vector and against
Python's `redraw`, and a table played through a real `tabletop up` whose replay shows every
check passing, in English and in French; a changed secret is reported, and a table not ended
says so in one line."""

from __future__ import annotations

import asyncio
import copy
import hashlib
import random
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

from services.registry import get
from shared.games.draws import Draws, redraw
from shared.games.fairness import check
from tests.web.browsers import (
    CHROMIUM,
    Seat,
    bot_seat,
    create_table,
    in_french,
    play_through,
    screenshot,
    sign_in,
    unique,
)

async_api = pytest.importorskip("playwright.async_api")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium here")

# The published vector (docs/fairness.md; tests/games/test_fairness.py checks the same numbers).
VECTOR_SECRET = bytes(range(32))
VECTOR_ENTROPY = ["00ff", "", "0123456789abcdef"]
VECTOR_SEED = "baec25b033464a70e2e0ebaf70435224b57bec1dc176cbddd22d0454f664c07a"
VECTOR_BELOW_6 = [1, 4, 5, 5, 5, 3, 2, 4]
VECTOR_SHUFFLE_10 = [9, 3, 6, 7, 5, 8, 0, 2, 4, 1]

# An entropy of the seat that joins through the bus (the web client sends 32 fresh bytes).
EVE_ENTROPY = "c0ffee0123456789"


async def fairness_page(browser: Any, base: str) -> Any:
    """A page of the client with fairness.js loaded (`window.tabletopFairness`)."""
    context = await browser.new_context()
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.errors = errors
    await page.goto(f"{base}/#/signin")
    await page.wait_for_selector("#signin")
    await page.evaluate("() => import('./fairness.js')")
    assert await page.evaluate("() => window.tabletopFairness.available()")
    return page


async def test_the_browser_generator_gives_the_published_vector(up, browser):
    page = await fairness_page(browser, up.http_url)
    found = await page.evaluate(
        """async ([secret, entropies]) => {
            const f = window.tabletopFairness;
            const seed = await f.tableSeed(secret, entropies);
            const draws = new f.Draws(seed);
            const faces = [];
            for (let i = 0; i < 8; i += 1) faces.push(await draws.below(6));
            const deck = await draws.shuffle([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
            return { seed: f.bytesToHex(seed), faces, deck,
                     commitment: await f.sha256Hex(f.hexToBytes(secret)) };
        }""",
        [VECTOR_SECRET.hex(), VECTOR_ENTROPY],
    )
    assert found == {
        "seed": VECTOR_SEED,
        "faces": VECTOR_BELOW_6,
        "deck": VECTOR_SHUFFLE_10,
        "commitment": hashlib.sha256(VECTOR_SECRET).hexdigest(),
    }
    assert not page.errors, page.errors
    await page.context.close()


async def test_the_browser_draws_again_what_python_drew(up, browser):
    """Receipts Python's generator wrote (choices, samples and shuffles of various sizes and
    items, from a block other than 0) made again in the browser: the same results, ending at
    the same block; and numbers below an n near 2**63, where most blocks are rejected."""
    seed = hashlib.sha256(b"cross-check").digest()
    rng = random.Random(5)
    draws = Draws(seed, first=17)
    draws.choice(["a", "b", "c"])
    draws.choice([[1, 2], {"x": None}, True, 3.5])
    draws.choice(["alone"])
    draws.sample(list(range(52)), 5)
    draws.sample(["p", "q", "r"], 3)
    draws.sample(list(range(9)), 0)
    for size in (0, 1, 2, 10, 31, 200, 1000):
        draws.shuffle([rng.randrange(10**6) for _ in range(size)])
    draws.shuffle([{"die": i, "faces": [1, 2, 3]} for i in range(12)])
    for _ in range(40):
        population = rng.randrange(1, 3000)
        draws.sample(list(range(population)), rng.randrange(population + 1))
        draws.choice(list(range(rng.randrange(1, 5000))))
    receipts = msgspec.to_builtins(draws.receipts)
    expected, after = redraw(seed, 17, draws.receipts)
    assert after == draws.next

    # n near 2**64: the browser's rejection sampling takes the blocks Python's takes
    huge = [(1 << 63) + 1, (1 << 64) - 1, 3 << 62, (1 << 63) + 12345] * 30 + [6, 1, 2**53 + 1]
    big = Draws(seed)
    numbers, taken = [], []
    for n in huge:
        start = big.next
        numbers.append(str(big.below(n)))
        taken.append(big.next - start)
    assert max(taken) > 1 and min(taken) == 1  # some draws were rejected, some were not

    page = await fairness_page(browser, up.http_url)
    found = await page.evaluate(
        """async ([seed, receipts, huge]) => {
            const f = window.tabletopFairness;
            const again = await f.redraw(seed, 17, receipts);
            const big = new f.Draws(seed);
            const numbers = [];
            for (const n of huge) numbers.push(String(await big.below(BigInt(n))));
            return { results: again.results, next: again.next, numbers, bigNext: big.next };
        }""",
        [seed.hex(), receipts, [str(n) for n in huge]],
    )
    assert found["results"] == msgspec.to_builtins(expected)
    assert found["next"] == after
    assert found["numbers"] == numbers and found["bigNext"] == big.next
    assert not page.errors, page.errors
    await page.context.close()


async def replay_panel(page: Any, base: str, game: str, table: str) -> dict[str, Any]:
    """The replay of `table` opened in `page`, once its panel has a verdict: the verdict and
    each check's line as shown."""
    await page.goto(f"{base}/#/replay/{game}/{table}")
    await page.wait_for_selector("#fairness[data-verdict]", timeout=20_000)
    return {
        "verdict": await page.get_attribute("#fairness", "data-verdict"),
        "oks": [await li.get_attribute("data-ok") for li in await page.locator("#fairness li").all()],
        "text": await page.inner_text("#fairness"),
    }


async def test_a_finished_table_passes_the_check_in_its_replay_and_a_changed_secret_fails(up, browser):
    """A High Card table of a person in a browser, a player through the bus who gives entropy
    of their own, and a bot of the bot service, played to its end; its replay's panel shows
    every check passing, in English and in French, and so does the command line's checker; the
    same steps with another secret fail on the commitment."""
    base = up.http_url
    game = "highcard"
    ann, eve = unique("fa"), unique("fe")
    page = await sign_in(browser, base, ann)
    table = await create_table(page, base, game, 3, {"hand_size": 2, "bots": 1})
    client = await up.player(eve)
    try:
        joined = await client.command(game, table, eve, {"type": "join", "entropy": EVE_ENTROPY})
        assert joined["ok"], joined
        playing = asyncio.ensure_future(bot_seat(client, game, table, eve, random.Random(7)))
        await page.click("#table-controls [data-action=start]")
        await play_through([Seat(ann, page, random.Random(1))])
        await asyncio.wait_for(playing, 60)
    finally:
        await client.bus.close()

    admin = await up.admin()
    try:
        by_viewer = {v: await admin.replay(game, table, v, views="none") for v in (ann, eve, "spectator")}
    finally:
        await admin.bus.close()
    # each seat's entropy: eve's own, the bot's none, ann's 32 bytes from her browser
    entropy = {
        e["player"]: e["entropy"] for s in by_viewer[ann] for e in s["events"] if e["type"] == "player_joined"
    }
    players = next(e["players"] for s in by_viewer[ann] for e in s["events"] if e["type"] == "table_started")
    assert entropy[eve] == EVE_ENTROPY and "robot-1" in players and "robot-1" not in entropy
    assert re.fullmatch(r"[0-9a-f]{64}", entropy[ann]), entropy
    given = sum(1 for p in players if entropy.get(p))
    assert given == 2

    shown = await replay_panel(page, base, game, table)
    assert shown["verdict"] == "passed", shown["text"]
    assert shown["oks"] == ["true"] * 4, shown["text"]
    text = shown["text"]
    assert text.startswith("Check the dice")
    assert f"(seats: 3; with entropy of their own: {given})" in text, text
    assert "Verdict: every check passed" in text and "✗" not in text
    assert f"tabletop verify-fairness {table}" in text
    await page.locator("#fairness").scroll_into_view_if_needed()
    await page.locator("#fairness").screenshot(path="/tmp/fairness-panel.png")
    await screenshot(page, "fairness")

    # every viewer's replay checks the same, in the browser and with the command line's checker
    decider = get(game)
    for viewer, steps in by_viewer.items():
        report = await page.evaluate("steps => window.tabletopFairness.checkReplay(steps)", steps)
        assert report["status"] == "passed", (viewer, report["checks"])
        seated = None if viewer == "spectator" else viewer
        python = check(decider, steps, seated)
        assert python.passed, (viewer, python.problems)
        seed_line = next(line for line in python.checked if line.startswith("the seed"))
        assert f"3 seats ({given} gave their own)" in seed_line

    # the revealed secret changed: the commitment check fails, and nothing is built on it
    steps = copy.deepcopy(by_viewer[ann])
    revealed = next(e for s in steps for e in s["events"] if e["type"] == "seed_revealed")
    revealed["secret"] = "00" * 32
    report = await page.evaluate("steps => window.tabletopFairness.checkReplay(steps)", steps)
    assert report["status"] == "failed"
    assert [c["ok"] for c in report["checks"]] == [False]
    assert report["checks"][0]["text"].startswith("The revealed secret does not match the commitment")
    # a receipt changed (a shuffle of one card fewer): its draws no longer take the blocks logged
    steps = copy.deepcopy(by_viewer[ann])
    revealed = next(e for s in steps for e in s["events"] if e["type"] == "seed_revealed")
    revealed["draws"]["0"][0]["items"].pop()
    report = await page.evaluate("steps => window.tabletopFairness.checkReplay(steps)", steps)
    assert report["status"] == "failed"
    failed = [c for c in report["checks"] if not c["ok"]]
    assert len(failed) == 1 and failed[0]["text"].startswith(
        "The draws from block {first}, made again, stop"
    ), failed
    assert failed[0]["params"]["first"] == 0 and failed[0]["params"]["next"] < failed[0]["params"]["logged"]
    assert not page.errors, page.errors
    await page.context.close()

    # in French: every line of the panel has its French
    guest = await sign_in(browser, base, None, locale="fr-FR")
    shown = await replay_panel(guest, base, game, table)
    assert shown["verdict"] == "passed" and shown["oks"] == ["true"] * 4, shown["text"]
    assert shown["text"].startswith("Vérifier les tirages") and "Verdict : tout est vérifié" in shown["text"]
    await in_french(guest)
    await guest.locator("#fairness").scroll_into_view_if_needed()
    await guest.locator("#fairness").screenshot(path="/tmp/fairness-panel-fr.png")
    await screenshot(guest, "fairness-fr")
    assert not guest.errors, guest.errors
    await guest.context.close()


async def test_a_table_not_ended_says_so_in_one_line(up, browser):
    base = up.http_url
    page = await sign_in(browser, base, unique("fo"))
    table = await create_table(page, base, "highcard", 2, {})
    shown = await replay_panel(page, base, "highcard", table)
    assert shown["verdict"] == "unverifiable" and shown["oks"] == []
    lines = [line for line in shown["text"].splitlines() if line.strip()]
    assert lines == [
        "Check the dice",
        "The table has not ended: its secret is kept until it does, and its draws can be checked then.",
    ], lines
    assert not page.errors, page.errors
    await page.context.close()
