"""Illustori's own invariants in whole bot games, on top of the conformance suite (which checks
the folded log, JSON, legal commands, refusals and secrets for every game): every card exactly
once, hand sizes, the letter rules read again independently (Illustori 9-15), the votes, the
last round (16) and the result. The quick run plays each option set and player count once, and
the smallest decks; the `slow` run `TABLETOP_TEST_GAMES` games over every combination of the
letter options, deck sizes and player counts."""

from __future__ import annotations

import itertools
import unicodedata
from typing import Any

import pytest

from shared.games.illustori import GAME
from shared.games.illustori.data import CARD_IDS, HAND_SIZE
from shared.games.illustori.messages import (
    CardPenalised,
    CardPlayed,
    GameSetUp,
    StartProposed,
    TurnEnded,
    UsedLettersCleared,
    VoteCast,
    VoteClosed,
)
from shared.games.illustori.state import State
from shared.games.table import Table, TableDecider
from tests.conformance.conformance import GAMES, play, quick_cases

DECIDER = TableDecider(GAME)
MODES = [
    ("english", "start"),
    ("english_reverse", "start"),
    ("english_reverse", "end"),
    ("german_reverse", "start"),
    ("german_reverse", "end"),
]
CONFIGS = [
    (mode, direction, repeat, used, small)
    for (mode, direction), repeat, used, small in itertools.product(
        MODES, (False, True), (False, True), (False, True)
    )
]  # 40 option sets; "small": the smallest deck the seats allow, so the stack runs dry


def options_for(index: int) -> tuple[dict, int]:
    mode, direction, repeat, used, small = CONFIGS[index % len(CONFIGS)]
    seats = 3 + (index // len(CONFIGS)) % 4
    options = {
        "mode": mode,
        "reverse_direction": direction,
        "no_repeated_letter": repeat,
        "no_used_letters": used,
    }
    if small:
        options["deck_size"] = seats * HAND_SIZE + 1
    return options, seats


# --- an independent reading of the letter rules, for the invariants -------------------------


def ref_letters(text: str, mode: str) -> str:
    out = []
    for char in text.lower():
        if mode == "german_reverse":
            char = {"ä": "a", "ö": "o", "ü": "u", "ß": "s"}.get(char, char)
        else:
            char = unicodedata.normalize("NFD", char)[0]
            char = {"ß": "s", "æ": "a", "œ": "o"}.get(char, char)
        if "a" <= char <= "z":
            out.append(char)
    return "".join(out)


def valid_start(rules, text: str) -> bool:
    """Illustori 2, 8 and 5.3-5: letters at both ends, and no penalty (no chaining to follow)."""
    mode, new = rules.mode, ref_letters(text, rules.mode)
    if not new or not ref_letters(text[0], mode) or not ref_letters(text[-1], mode):
        return False
    if mode == "english" and text.lower().endswith("xx"):
        return False
    if mode == "german_reverse" and new[0] in "qxz":
        return False
    return not (rules.no_repeated_letter and new[0] == new[-1])


def follows(rules, previous: str, text: str, used: set[str]) -> bool:
    """Illustori 8-14 read again: `text` chains on `previous` and escapes every penalty."""
    mode = rules.mode
    prev, new = ref_letters(previous, mode), ref_letters(text, mode)
    if not new:  # 5.3-5 (ruling 2026-11-30): a chained text only needs a letter
        return False
    prohibition = rules.no_repeated_letter or rules.no_used_letters
    if mode == "english":
        ok = new[0] == prev[-1] or (not prohibition and new[0] == prev[-2:][0])
        body = text.lower().rstrip()
        while body and not ref_letters(body[-1], mode):
            body = body[:-1]
        ok = ok and not body.endswith("xx")
        free = new[-1]
    elif rules.reverse_direction == "start":
        ok, free = new[0] == prev[0], new[-1]
    else:
        ok, free = new[-1] == prev[0], new[0]
    if mode == "german_reverse" and new[0] in "qxz":
        ok = False
    if rules.no_repeated_letter and new[0] == new[-1]:
        ok = False
    if rules.no_used_letters and free in used:
        ok = False
    return ok


class Invariants:
    """Checked after every event of a game (Illustori 1-18)."""

    def __init__(self, deck: list[str]) -> None:
        self.deck = sorted(deck)
        self.sizes: dict[str, int] = {}
        self.used: set[str] = set()
        self.failed = 0
        self.current: str | None = None
        self.proposal: tuple[str, str] | None = None  # (player, text) under vote
        self.last_round = False
        self.counts = {"penalties": 0, "rejections": 0, "clearings": 0, "reshuffles": 0, "passes": 0}

    def __call__(self, table: Table, event) -> None:
        state: State = table.game
        if state is None or not state.players:
            return
        rules = state.rules
        # every card exactly once across hands, stack, discard and the table
        cards = [c for h in state.hands.values() for c in h]
        cards += [*state.stack, *state.discard, *state.cards_on_table()]
        assert sorted(cards) == self.deck, event
        assert all(len(h) <= HAND_SIZE for h in state.hands.values())
        match event:
            case GameSetUp():
                self.sizes = {p: len(h) for p, h in state.hands.items()}
                assert set(self.sizes.values()) == {HAND_SIZE}
            case StartProposed(text=text) | CardPlayed(text=text):
                self.proposal = (event.player, text)
            case CardPenalised():
                self.counts["penalties"] += 1
                assert self.current is not None  # a card is played on a named text
                assert not follows(rules, self.current, event.text, self.used)
            case VoteClosed(accepted=accepted, votes=votes):
                assert self.proposal is not None
                player, text = self.proposal
                voters = [p for p in state.players if p != player]
                assert sorted(votes) == sorted(voters)
                assert accepted == (2 * sum(votes.values()) >= len(voters))
                if accepted:
                    if self.current is None:  # the starting text chains on nothing
                        assert valid_start(rules, text) and player == state.players[0], text
                    else:
                        assert follows(rules, self.current, text, self.used), (self.current, text)
                    self.current = text
                    if rules.no_used_letters:
                        letters = ref_letters(text, rules.mode)
                        self.used |= {letters[0], letters[-1]}
                else:
                    self.counts["rejections"] += 1
            case TurnEnded(player=player, accepted=accepted, next_player=nxt):
                # hand sizes change only by an accepted chain (a starting text uses no card)
                expected = dict(self.sizes)
                if accepted and state.chain[-1].card != state.start_card:
                    expected[player] -= 1
                assert {p: len(h) for p, h in state.hands.items()} == expected, event
                self.sizes = expected
                # Illustori 16: an accepted chain emptying a hand starts the last round, which
                # ends exactly when the first player's turn ends; 3: otherwise the next seat
                self.last_round = self.last_round or (accepted and expected[player] == 0)
                players = state.players
                if self.last_round and player == players[0]:
                    assert nxt is None and any(not h for h in state.hands.values()), event
                else:
                    assert nxt == players[(players.index(player) + 1) % len(players)], event
                assert state.last_round == self.last_round
                self.failed = 0 if accepted else self.failed + 1
                if (
                    nxt is not None
                    and rules.no_used_letters
                    and (self.failed >= len(state.players) or len(self.used) == 26)
                ):
                    self.used, self.failed = set(), 0
            case UsedLettersCleared():
                self.counts["clearings"] += 1
        if not isinstance(event, TurnEnded):
            assert set(state.used) == self.used, (event, state.used, self.used)
            if rules.no_used_letters:  # Illustori 15a: the count of turns without a chain
                assert state.failed_turns == self.failed, (event, state.failed_turns)
        if type(event).__name__ == "StackReshuffled":
            self.counts["reshuffles"] += 1
        if type(event).__name__ == "TurnPassed":
            self.counts["passes"] += 1
        assert state.current_text == self.current
        if not isinstance(event, VoteCast):  # the last vote is followed at once by its close
            assert bool(GAME.players_to_act(state)) != GAME.is_terminal(state)


def run(seed: int, options: dict[str, Any], seats: int, totals: dict[str, int]) -> None:
    deck = list(CARD_IDS[: options.get("deck_size", len(CARD_IDS))])
    invariants = Invariants(deck)
    played = play(DECIDER, seed, options, seats, invariants=invariants)
    assert played is not None and played.sim is not None
    table = played.sim.table
    state = table.game
    assert table.result is not None and table.result.winners
    assert set(table.result.winners) == {p for p in state.players if not state.hands[p]}
    for key, value in invariants.counts.items():
        totals[key] = totals.get(key, 0) + value


def test_illustori_invariants_in_every_option_set_player_count_and_small_deck():
    totals: dict[str, int] = {}
    for seed, options, seats in quick_cases(DECIDER):
        run(seed, options, seats, totals)
    for seats in (3, 6):  # the smallest decks: the stack runs dry and is reshuffled
        run(seats, {"deck_size": seats * HAND_SIZE + 1}, seats, totals)
    assert totals["reshuffles"], totals


@pytest.mark.slow
def test_illustori_invariants_in_many_games_reach_every_kind_of_turn():
    totals: dict[str, int] = {}
    for index in range(max(GAMES, len(CONFIGS) * 4)):
        options, seats = options_for(index)
        run(index, options, seats, totals)
    assert all(totals[k] > 0 for k in totals), totals
