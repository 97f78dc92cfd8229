"""Illustori played whole by bots: 1,040 seeded games over every option and player count,
checking the game's invariants after every event, the folded log, JSON round trips, the result,
and that no view or redacted event shows a viewer what it may not see."""

from __future__ import annotations

import itertools
import re
import unicodedata
from random import Random

import msgspec

from shared.games.decider import fold
from shared.games.illustori import GAME
from shared.games.illustori.data import CARD_IDS, CARDS, HAND_SIZE
from shared.games.illustori.messages import (
    CardPenalised, CardPlayed, CardsSwapped, GameSetUp, StartProposed, TurnEnded,
    UsedLettersCleared,
    VoteCast, VoteClosed,
)
from shared.games.illustori.state import State
from shared.games.simulate import simulate
from shared.games.table import Table, TableDecider

DECIDER = TableDecider(GAME)
DECODE = msgspec.json.Decoder(DECIDER.event_type).decode
PLAYERS = ("ann", "bob", "cid", "dan", "eve", "fay")
MODES = [("english", "start"), ("english_reverse", "start"), ("english_reverse", "end"),
         ("german_reverse", "start"), ("german_reverse", "end")]
CONFIGS = [
    (mode, direction, repeat, used, small)
    for (mode, direction), repeat, used, small
    in itertools.product(MODES, (False, True), (False, True), (False, True))
]  # 40 option sets; "small": the smallest deck the seats allow, so the stack runs dry
GAMES = 1040  # every option set with every player count, 6 or 7 times each
CARD_ID = re.compile(r'"(c\d\d)"')
PICTURE = re.compile(r'"picture":"([^"]*)"')
BY_PICTURE = {picture: card for card, picture in CARDS.items()}


def options_for(index: int) -> tuple[dict, int]:
    mode, direction, repeat, used, small = CONFIGS[index % len(CONFIGS)]
    seats = 3 + (index // len(CONFIGS)) % 4
    options = {"mode": mode, "reverse_direction": direction, "no_repeated_letter": repeat,
               "no_used_letters": used}
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


def follows(rules, previous: str, text: str, used: set[str]) -> bool:
    """Illustori 8-14 read again: `text` chains on `previous` and escapes every penalty."""
    mode = rules.mode
    prev, new = ref_letters(previous, mode), ref_letters(text, mode)
    if not new or not ref_letters(text[0], mode) or not ref_letters(text[-1], mode):
        return False
    prohibition = rules.no_repeated_letter or rules.no_used_letters
    if mode == "english":
        ok = new[0] == prev[-1] or (not prohibition and new[0] == prev[-2:][0])
        ok = ok and not text.lower().endswith("xx")
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
        self.counts = {"penalties": 0, "rejections": 0, "clearings": 0, "reshuffles": 0,
                       "passes": 0}

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
                assert not follows(rules, self.current, event.text, self.used)
            case VoteClosed(accepted=accepted, votes=votes):
                player, text = self.proposal
                voters = [p for p in state.players if p != player]
                assert sorted(votes) == sorted(voters)
                assert accepted == (2 * sum(votes.values()) >= len(voters))
                if accepted:
                    if self.current is not None:  # the starting text chains on nothing
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
                self.failed = 0 if accepted else self.failed + 1
                if nxt is not None and rules.no_used_letters:
                    if self.failed >= len(state.players) or len(self.used) == 26:
                        self.used, self.failed = set(), 0
                if nxt is None:
                    assert state.last_round and player == state.players[0]
                    assert any(not h for h in state.hands.values())
            case UsedLettersCleared():
                self.counts["clearings"] += 1
        if not isinstance(event, TurnEnded):
            assert set(state.used) == self.used, (event, state.used, self.used)
        if type(event).__name__ == "StackReshuffled":
            self.counts["reshuffles"] += 1
        if type(event).__name__ == "TurnPassed":
            self.counts["passes"] += 1
        assert state.current_text == self.current
        if not isinstance(event, VoteCast):  # the last vote is followed at once by its close
            assert bool(GAME.players_to_act(state)) != GAME.is_terminal(state)


def hidden_from(state: State, viewer: str | None, public: set[str]) -> set[str]:
    """The cards `viewer` may not see: the other hands and the stack, except the cards every
    one has seen face up (played, discarded: `public`), whose history stays on view."""
    cards = set(state.stack)
    for player, hand in state.hands.items():
        if player != viewer:
            cards.update(hand)
    return cards - public


def shown(event) -> list[str]:
    """The cards an event puts face up for everyone."""
    match event:
        case GameSetUp(start_card=card) | CardPlayed(card=card) | CardPenalised(card=card):
            return [card]
        case CardsSwapped(cards=cards):
            return list(cards)
    return []


def assert_no_leak(blob: bytes, hidden: set[str], where) -> None:
    """No id nor picture of a hidden card anywhere in `blob` (a JSON view or event)."""
    text = blob.decode()
    seen = set(CARD_ID.findall(text)) | {BY_PICTURE[m] for m in PICTURE.findall(text)}
    assert not hidden & seen, (where, hidden & seen)


def check_leaks(sim, seats: tuple[str, ...], tally: dict[str, int]) -> None:
    """Replay the log command by command: after each, every seat's view and the spectator's
    hide the others' hands, the stack and the votes not yet closed; every redacted event
    hides what its viewer may not see."""
    table = DECIDER.initial_state
    encode = msgspec.json.encode
    viewers = (*seats, None)
    public: set[str] = set()
    for _, batch in sim.log:
        for event in batch:
            table = DECIDER.evolve(table, event)
            public.update(shown(event))
            state = table.game
            if not isinstance(state, State) or not state.players:
                continue
            for viewer in viewers:
                seen = DECIDER.redact(event, viewer)
                tally["redacted"] += 1
                assert_no_leak(encode(seen), hidden_from(state, viewer, public), (event, viewer))
                if isinstance(event, VoteCast) and viewer != event.player:
                    assert seen.yes is None
                if viewer is None and seen != event:  # a redacted event still decodes
                    again = DECODE(encode(seen))
                    assert again == seen
        state = table.game
        if not isinstance(state, State) or not state.players:
            continue
        flipped = None
        if state.votes:  # the votes in so far, all turned round: no view may change but the voter's
            flipped = msgspec.structs.replace(
                table, game=msgspec.structs.replace(
                    state, votes={p: not v for p, v in state.votes.items()}))
        for viewer in viewers:
            view = DECIDER.player_view(table, viewer)
            tally["views"] += 1
            assert_no_leak(encode(view), hidden_from(state, viewer, public), viewer)
            if flipped is not None and viewer not in state.votes:
                assert DECIDER.player_view(flipped, viewer) == view


def test_the_games_cover_every_option_set_and_player_count():
    plan = {(tuple(sorted(options_for(i)[0].items())), options_for(i)[1]) for i in range(GAMES)}
    assert len(plan) == len(CONFIGS) * 4


def test_random_games_keep_every_invariant_and_hide_what_they_must():
    """1,040 seeded bot games: Illustori 1-18 invariants after every event, the folded log
    equal to the live state, JSON round trips, a result, no leak (every other game)."""
    tally = {"games": 0, "views": 0, "redacted": 0}
    totals = {"penalties": 0, "rejections": 0, "clearings": 0, "reshuffles": 0, "passes": 0}
    for index in range(GAMES):
        options, seats = options_for(index)
        players = PLAYERS[:seats]
        deck = list(CARD_IDS[:options.get("deck_size", len(CARD_IDS))])
        invariants = Invariants(deck)
        sim = simulate(DECIDER, players, Random(index), options=options, after_event=invariants)
        assert fold(DECIDER.evolve, sim.events, DECIDER.initial_state) == sim.table
        for event in sim.events:
            wire = msgspec.json.encode(event)
            assert DECODE(wire) == event
        result = sim.table.result
        assert sim.table.status == "ended" and result is not None
        state = sim.table.game
        assert result.winners and set(result.winners) == {p for p in players if not state.hands[p]}
        if index % 2 == 0:  # the leak test on every other game keeps the file fast
            check_leaks(sim, players, tally)
        for key, value in invariants.counts.items():
            totals[key] += value
        tally["games"] += 1
    assert tally["games"] == GAMES
    # the random play reached every kind of turn
    assert all(totals[k] > 0 for k in totals), totals
