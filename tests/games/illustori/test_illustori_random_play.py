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
    CardPenalised, CardPlayed, CardsDrawn, CardsSwapped, GameSetUp, StackReshuffled,
    StartProposed, TurnEnded, UsedLettersCleared, VoteCast, VoteClosed,
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
# The leak test runs on every third game: 3 and the 40 option sets are coprime, so it meets
# every option set (the small decks, which reshuffle most, included) and every player count.
LEAK_EVERY = 3
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
                if nxt is not None and rules.no_used_letters and (
                        self.failed >= len(state.players) or len(self.used) == 26):
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


def moved(cards: list, rng: Random) -> list:
    """`cards` turned round by a random step: every card (they are distinct) changes place."""
    step = 1 + rng.randrange(len(cards) - 1) if len(cards) > 1 else 0
    return [*cards[step:], *cards[:step]]


def redealt(stack, hands: dict, viewer: str | None, rng: Random) -> tuple[list, dict]:
    """The cards `viewer` may not see (the stack, the other hands) moved between those places,
    each place keeping its size."""
    others = [p for p in hands if p != viewer]
    pool = moved([*stack, *(c for p in others for c in hands[p])], rng)
    new_stack, pool = pool[:len(stack)], pool[len(stack):]
    new_hands = dict(hands)
    for p in others:
        new_hands[p], pool = pool[:len(hands[p])], pool[len(hands[p]):]
    return new_stack, new_hands


def scrambled_state(state: State, viewer: str | None, rng: Random) -> State:
    """Another state that `viewer` cannot tell from `state`: the cards it may not see (the
    other hands and the stack, with the stack's order) dealt again into the same places, and
    every vote but its own turned round."""
    stack, hands = redealt(state.stack, state.hands, viewer, rng)
    votes = {p: (v if p == viewer else not v) for p, v in state.votes.items()}
    return msgspec.structs.replace(
        state, stack=tuple(stack), hands={p: tuple(h) for p, h in hands.items()}, votes=votes)


def scrambled_event(event, viewer: str | None, rng: Random):
    """The same event with what `viewer` may not see replaced (hidden: the other hands, the
    stack and its order, the others' votes until the vote closes)."""
    match event:
        case GameSetUp(hands=hands, stack=stack):
            stack, hands = redealt(stack, hands, viewer, rng)
            return msgspec.structs.replace(event, hands=hands, stack=stack)
        case StackReshuffled(stack=stack) if len(stack) > 1:
            return msgspec.structs.replace(event, stack=moved(stack, rng))
        case CardsDrawn(player=p, cards=cards) if p != viewer:
            others = [c for c in CARD_IDS if c not in cards]
            return msgspec.structs.replace(event, cards=rng.sample(others, len(cards)))
        case VoteCast(player=p, yes=yes) if p != viewer:
            return msgspec.structs.replace(event, yes=not yes)
    return event


def check_leaks(sim, seats: tuple[str, ...], tally: dict[str, int], rng: Random) -> None:
    """Replay the log command by command: after each, every seat's view and the spectator's
    hide the others' hands, the stack and the votes not yet closed; every redacted event
    hides what its viewer may not see. Two checks: no hidden card's id or picture appears,
    and the view (or redacted event) is the same for a scrambled state (or event) that the
    viewer cannot tell apart, so no ordering, count or code may give a hidden card away."""
    table = DECIDER.initial_state
    encode = msgspec.json.encode
    viewers = (*seats, None)
    public: set[str] = set()
    for step, (_, batch) in enumerate(sim.log):
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
                twin = scrambled_event(event, viewer, rng)
                if twin is not event:
                    assert DECIDER.redact(twin, viewer) == seen, (event, viewer)
                    tally[type(event).__name__] = tally.get(type(event).__name__, 0) + 1
                if isinstance(event, VoteCast) and viewer != event.player:
                    assert seen.yes is None
                if viewer is None and seen != event:  # a redacted event still decodes
                    again = DECODE(encode(seen))
                    assert again == seen
        state = table.game
        if not isinstance(state, State) or not state.players:
            continue
        for viewer in viewers:
            view = DECIDER.player_view(table, viewer)
            tally["views"] += 1
            assert_no_leak(encode(view), hidden_from(state, viewer, public), viewer)
            if step % 2 == 0:  # after every other command: enough, and it halves the cost
                twin = msgspec.structs.replace(table, game=scrambled_state(state, viewer, rng))
                assert DECIDER.player_view(twin, viewer) == view, viewer


def test_the_games_cover_every_option_set_and_player_count():
    plan = {(tuple(sorted(options_for(i)[0].items())), options_for(i)[1]) for i in range(GAMES)}
    assert len(plan) == len(CONFIGS) * 4
    leak = {(tuple(sorted(options_for(i)[0].items())), options_for(i)[1])
            for i in range(0, GAMES, LEAK_EVERY)}
    assert len(leak) == len(CONFIGS) * 4  # the leak test too


def test_random_games_keep_every_invariant_and_hide_what_they_must():
    """1,040 seeded bot games: Illustori 1-18 invariants after every event, the folded log
    equal to the live state, JSON round trips, a result, no leak (every third game,
    covering every option set and player count)."""
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
        if index % LEAK_EVERY == 0:  # every option set and player count, small decks included
            check_leaks(sim, players, tally, Random(index))
        for key, value in invariants.counts.items():
            totals[key] += value
        tally["games"] += 1
    assert tally["games"] == GAMES
    # the scrambles of the leak test met every kind of event that hides something
    assert all(tally.get(kind, 0) > 0 for kind in (
        "GameSetUp", "StackReshuffled", "CardsDrawn", "VoteCast")), tally
    # the random play reached every kind of turn
    assert all(totals[k] > 0 for k in totals), totals
