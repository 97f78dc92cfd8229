"""Draws nobody can load (docs/fairness.md): the generator against its published vector, whole
random games of every game checked from a spectator's and every seat's replay, the check
failing on a log with a draw changed or a secret that does not match, and the secret in no
view, event or log line before the end."""

from __future__ import annotations

import copy
import hashlib
import hmac
import random
from collections import Counter
from typing import Any

import msgspec
import pytest

from services.registry import get
from shared.games.decider import type_tag
from shared.games.draws import Draws, commitment, redraw, table_seed
from shared.games.fairness import check
from shared.games.simulate import simulate
from shared.games.table import SeedRevealed, TableDecider
from shared.games.table_state import game_options_of
from shared.messages.envelopes import seen_events
from tests.highcard import GAME as HIGHCARD
from tests.texts import strings

# The published vector (docs/fairness.md; the browser's check tests the same numbers).
VECTOR_SECRET = bytes(range(32))
VECTOR_ENTROPY = ["00ff", "", "0123456789abcdef"]
VECTOR_SEED = "baec25b033464a70e2e0ebaf70435224b57bec1dc176cbddd22d0454f664c07a"
VECTOR_BELOW_6 = [1, 4, 5, 5, 5, 3, 2, 4]
VECTOR_SHUFFLE_10 = [9, 3, 6, 7, 5, 8, 0, 2, 4, 1]

# (game, seats, options) of the whole games played; three seeds each.
GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("naishi", 2, {}),
    ("dozito", 2, {"rounds": 3}),
    ("dozito", 4, {}),
    ("decrypto", 4, {}),
    ("decrypto", 5, {"code_draw": "with_replacement"}),
    ("diced_tomatoes", 1, {}),
    ("diced_tomatoes", 3, {"golden_sun": True}),
    ("illustori", 3, {"deck_size": 31}),
    ("highcard", 3, {"hand_size": 2}),
]


def decider_of(game: str) -> TableDecider:
    return TableDecider(HIGHCARD) if game == "highcard" else get(game)


def played(game: str, seats: int, options: dict[str, Any], seed: int) -> tuple[TableDecider, list[list[Any]]]:
    decider = decider_of(game)
    sim = simulate(decider, [f"p{i}" for i in range(1, seats + 1)], random.Random(seed), options=options)
    return decider, [batch for _, batch in sim.log]


def replay(decider: TableDecider, batches: list[list[Any]], viewer: str | None) -> list[dict[str, Any]]:
    """The steps of `viewer`'s replay, as JSON brings them."""
    steps = [{"events": seen_events(decider, batch, viewer)[0]} for batch in batches]
    decoded: list[dict[str, Any]] = msgspec.json.decode(msgspec.json.encode(steps))
    return decoded


# --- the generator --------------------------------------------------------------------------


def test_the_generator_is_hmac_sha256_of_the_seed_and_the_block_number():
    seed = table_seed(VECTOR_SECRET, VECTOR_ENTROPY)
    by_hand = hashlib.sha256(
        VECTOR_SECRET + b"\x02\x00\xff" + b"\x00" + b"\x08" + bytes.fromhex("0123456789abcdef")
    )
    assert seed == by_hand.digest()
    draws = Draws(seed)
    first = int.from_bytes(hmac.digest(seed, (0).to_bytes(8, "big"), "sha256")[:8], "big")
    assert draws.below(6) == first % 6 and draws.next == 1
    assert commitment(VECTOR_SECRET) == hashlib.sha256(VECTOR_SECRET).hexdigest()


def test_the_published_vector():
    """The numbers docs/fairness.md prints and the browser's check is tested on."""
    seed = table_seed(VECTOR_SECRET, VECTOR_ENTROPY)
    draws = Draws(seed)
    faces = [draws.below(6) for _ in range(8)]
    deck = list(range(10))
    draws.shuffle(deck)
    assert (seed.hex(), faces, deck) == (VECTOR_SEED, VECTOR_BELOW_6, VECTOR_SHUFFLE_10)


def test_a_number_below_n_is_uniform_and_a_shuffle_reaches_every_order():
    draws = Draws(b"\x07" * 32)
    faces = Counter(draws.below(6) for _ in range(60_000))
    assert set(faces) == set(range(6))
    assert sum((n - 10_000) ** 2 / 10_000 for n in faces.values()) < 20.5  # chi-square, 5 dof, p 0.001
    orders = Counter(tuple(draws.sample("abcd", 4)) for _ in range(24_000))
    assert len(orders) == 24 and min(orders.values()) > 800


def test_rejection_sampling_takes_the_next_block_past_the_last_incomplete_run():
    n = (1 << 63) + 1  # nearly half of the 8-byte numbers are past the last full run of n
    draws = Draws(b"\x01" * 32)
    blocks = []
    for _ in range(200):
        start = draws.next
        assert 0 <= draws.below(n) < n
        blocks.append(draws.next - start)
    assert max(blocks) > 1 and min(blocks) == 1


def test_receipts_make_the_same_draws_again():
    draws = Draws(b"\x02" * 32, first=40)
    picked = (draws.choice(["a", "b", "c"]), draws.sample(list(range(30)), 5))
    deck = list("abcdefgh")
    draws.shuffle(deck)
    results, after = redraw(b"\x02" * 32, 40, draws.receipts)
    assert results == [picked[0], picked[1], deck] and after == draws.next


# --- whole games ----------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "seats", "options"), GAMES)
@pytest.mark.parametrize("seed", range(3))
def test_every_viewer_checks_a_finished_table_and_it_passes(game, seats, options, seed):
    decider, batches = played(game, seats, options, seed)
    for viewer in [None, *(f"p{i}" for i in range(1, seats + 1))]:
        report = check(decider, replay(decider, batches, viewer), viewer)
        assert report.passed, (viewer, report.problems, report.unverifiable)
        assert len(report.checked) >= 5, report.checked


@pytest.mark.parametrize(("game", "seats", "options"), GAMES)
def test_a_deal_made_from_another_seed_is_reported(game, seats, options):
    """The setup's events replaced by those of the same setup from another seed (a stacked
    deck), as far as a viewer sees them (a spectator, or the first seat where a spectator sees
    nothing of the deal): the check fails."""
    decider, batches = played(game, seats, options, 7)
    game_types = {type_tag(t) for t in decider.game.events}
    for viewer in (None, "p1"):
        steps = replay(decider, batches, viewer)
        start = next(i for i, s in enumerate(steps) if any(e["type"] == "table_started" for e in s["events"]))
        events = steps[start]["events"]
        players = next(e["players"] for e in events if e["type"] == "table_started")
        created = next(e for e in steps[0]["events"] if e["type"] == "table_created")
        setup_options = msgspec.convert(game_options_of(created["options"]), decider.game.options)
        logged = [e for e in events if e["type"] in game_types]
        for other in range(1, 20):
            stacked = decider.game.setup(setup_options, tuple(players), Draws(bytes([other]) * 32))
            assert isinstance(stacked, list)
            shown = msgspec.to_builtins([decider.game.redact(e, viewer) for e in stacked])
            if shown != logged:
                first = next(i for i, e in enumerate(events) if e["type"] in game_types)
                events[first : first + len(logged)] = shown
                report = check(decider, steps, viewer)
                assert not report.passed and "does not deal what the log shows" in " ".join(report.problems)
                return
    pytest.fail("no other seed deals anything a viewer sees differently")


@pytest.mark.parametrize(
    ("game", "seats", "options", "event_type", "field"),
    [
        ("diced_tomatoes", 2, {}, "dice_rolled", "faces"),
        ("naishi", 2, {}, "hands_shuffled", "hands"),
        ("decrypto", 4, {}, "round_started", "codes"),
    ],
)
def test_a_later_draw_changed_in_the_log_is_reported(game, seats, options, event_type, field):
    """One value a viewer's replay shows of a draw after the setup (a die, a card, a code)."""
    decider, batches = played(game, seats, options, 3)
    for viewer in [None, *(f"p{i}" for i in range(1, seats + 1))]:
        steps = replay(decider, batches, viewer)
        start = next(i for i, s in enumerate(steps) if any(e["type"] == "table_started" for e in s["events"]))
        for step in steps[start + 1 :]:
            for event in step["events"]:
                if event["type"] == event_type and _changed(event, field):
                    report = check(decider, steps, viewer)
                    assert not report.passed, report.checked
                    assert any("the seed drew" in p for p in report.problems), report.problems
                    return
    pytest.fail(f"no {event_type} showing its draw to anyone")


def _changed(event: dict[str, Any], field: str) -> bool:
    """Change one value the event shows of `field` (a die face, a card, a code): True if done."""
    value = event[field]
    if isinstance(value, dict):
        for key, inner in value.items():
            if inner is not None:
                value[key] = list(reversed(inner)) if len(set(map(str, inner))) > 1 else None
                return value[key] is not None
        return False
    value[0] = 6 if value[0] != 6 else 1
    return True


def test_a_secret_that_does_not_match_the_commitment_is_reported():
    decider, batches = played("naishi", 2, {}, 1)
    steps = replay(decider, batches, None)
    revealed = next(e for s in steps for e in s["events"] if e["type"] == "seed_revealed")
    revealed["secret"] = "00" * 32
    report = check(decider, steps)
    assert not report.passed and "does not match the commitment" in report.problems[0]


def test_a_revealed_draw_changed_is_reported():
    decider, batches = played("dozito", 2, {"rounds": 3}, 1)
    steps = replay(decider, batches, None)
    revealed = next(e for s in steps for e in s["events"] if e["type"] == "seed_revealed")
    later = max(revealed["draws"], key=int)
    receipt = revealed["draws"][later][0]
    receipt["items"] = list(reversed(receipt["items"]))
    report = check(decider, steps)
    assert not report.passed, report.checked


def test_a_table_still_playing_or_from_before_seeds_cannot_be_checked():
    decider, batches = played("naishi", 2, {}, 2)
    steps = replay(decider, batches[:-1], None)  # not ended: no seed_revealed yet
    assert check(decider, steps).unverifiable == "the table has not ended: its secret is kept until it does"
    old = [
        {"events": [e for e in s["events"] if e["type"] not in ("seed_committed", "seed_revealed")]}
        for s in steps
    ]
    assert "before tables committed" in check(decider, old).unverifiable


# --- no leak --------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "seats", "options"), GAMES)
def test_the_secret_and_the_draws_are_in_no_view_event_or_log_line_before_the_end(game, seats, options):
    decider = decider_of(game)
    players = [f"p{i}" for i in range(1, seats + 1)]
    sim = simulate(decider, players, random.Random(11), options=options)
    table = decider.initial_state
    secret, seed = "", ""
    for _, batch in sim.log:
        for event in batch:
            table = decider.evolve(table, event)
        secret, seed = table.secret or secret, table.seed or seed
        ended = any(isinstance(e, SeedRevealed) for e in batch)
        for viewer in [*players, None]:
            events, log, log_fr = seen_events(decider, batch, viewer)
            shown = strings(msgspec.to_builtins(events), keys=True) | set(log) | set(log_fr)
            shown |= strings(decider.player_view(table, viewer), keys=True)
            said = " ".join(shown)
            assert seed not in said or not seed, viewer  # the seed is never said, even at the end
            if not ended:
                assert secret not in said, (viewer, batch)
                assert all(e.receipts is None for e in events if type(e).__name__ == "DrawsMade")
    assert secret and seed


def test_the_secret_is_kept_in_the_log_and_revealed_once_the_table_ends():
    _, batches = played("dozito", 2, {"rounds": 1}, 5)
    committed = next(e for e in batches[0] if type(e).__name__ == "SeedCommitted")
    revealed = [e for batch in batches for e in batch if isinstance(e, SeedRevealed)]
    assert committed.secret and len(revealed) == 1 and revealed[0].secret == committed.secret
    assert any(isinstance(e, SeedRevealed) for e in batches[-1])
    assert commitment(bytes.fromhex(committed.secret)) == committed.commitment


def test_a_seat_s_entropy_changes_every_draw_and_the_service_cannot_choose_it_after():
    """Same secret, one seat's entropy different: another deal."""
    secret = b"\x09" * 32
    deals = set()
    for entropy in ("", "01", "02", "0102"):
        draws = Draws(table_seed(secret, ["aa", entropy]))
        deck = list(range(40))
        draws.shuffle(deck)
        deals.add(tuple(deck))
    assert len(deals) == 4


def test_bad_entropy_is_refused_and_changes_nothing():
    from shared.games.decider import Context
    from shared.games.table import Create, Join

    decider = get("naishi")
    ctx = Context(actor="ann", rng=random.Random(0))
    for bad in ("xyz", "abc", "a" * 66, "0g"):
        refused = decider.decide(decider.initial_state, Create(entropy=bad), ctx)
        assert getattr(refused, "code", None) == "bad_entropy", bad
    created = decider.decide(decider.initial_state, Create(entropy="ABCD"), ctx)
    assert not hasattr(created, "code")
    table = decider.initial_state
    for event in created:
        table = decider.evolve(table, event)
    assert table.entropy == {"ann": "abcd"}
    joined = decider.decide(table, Join(entropy="1"), Context(actor="bob", rng=random.Random(0)))
    assert getattr(joined, "code", None) == "bad_entropy"
    assert copy.deepcopy(table) == table
