"""Whole random tables of the test game: the platform's own random-play and leak tests."""

import random

import msgspec
import pytest

from services.registry import get
from shared.games.decider import fold
from shared.games.simulate import simulate
from shared.messages.envelopes import normalize
from tests.highcard import CardChosen, CardDrawn, HandsDealt, TrickTaken

HIGHCARD = get("highcard")


def hidden_cards(table, viewer):
    """The cards `viewer` may not know now: other hands, the deck, choices not yet revealed."""
    game = table.game
    if game is None or not game.players:
        return set()
    secret = set(game.deck)
    for player, hand in game.hands.items():
        if player != viewer:
            secret |= set(hand)
    for player, card in game.chosen.items():
        if player != viewer:
            secret.add(card)
    return secret


def numbers_in(value):
    text = msgspec.json.encode(value).decode()
    return {
        int(t)
        for t in text.replace("[", " ")
        .replace("]", " ")
        .replace(",", " ")
        .replace(":", " ")
        .replace("{", " ")
        .replace("}", " ")
        .split()
        if t.isdigit()
    }


@pytest.mark.parametrize("seed", range(300))
def test_random_tables_end_fold_exactly_and_leak_nothing(seed):
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(rng.randint(2, 5))]
    options = {"hand_size": rng.randint(1, 4), "deck_size": rng.choice([20, 30, 40])}
    played: list[int] = []

    def after_event(table, event):
        if isinstance(event, TrickTaken):
            played.extend(event.cards.values())
        game = table.game
        if game is not None and game.players:  # invariant: every card exactly once
            cards = [*game.deck, *played, *game.chosen.values(), *(c for h in game.hands.values() for c in h)]
            assert sorted(cards) == list(range(1, options["deck_size"] + 1))
        for viewer in (*players, None):
            view = HIGHCARD.player_view(table, viewer)
            assert normalize(view) == view  # JSON-native
            own = set(game.hands.get(viewer, ())) if game and viewer else set()
            own_choice = {game.chosen[viewer]} if game and viewer in game.chosen else set()
            private = [view.get("hand"), view.get("my_choice"), view.get("chosen")]
            assert numbers_in(private) <= own | own_choice, viewer
            assert not numbers_in(view) & hidden_cards(table, viewer) - numbers_in(
                [
                    view.get("tricks"),
                    view.get("hand_sizes"),
                    view.get("deck_size"),
                    view.get("seat_count"),
                    view.get("options"),
                    view.get("result"),
                ]
            ), viewer
            redacted = HIGHCARD.redact(event, viewer)
            if isinstance(event, HandsDealt):
                assert isinstance(redacted, HandsDealt)
                assert all(not h for p, h in redacted.hands.items() if p != viewer)
                assert redacted.deck == []
            if isinstance(event, (CardChosen, CardDrawn)) and event.player != viewer:
                assert isinstance(redacted, (CardChosen, CardDrawn))
                assert redacted.card is None

    sim = simulate(HIGHCARD, players, rng, options=options, after_event=after_event)
    assert sim.table.status == "ended" and sim.table.result is not None
    assert fold(HIGHCARD.evolve, sim.events, HIGHCARD.initial_state) == sim.table
    for event in sim.events:
        body = msgspec.json.encode(event)
        assert msgspec.json.decode(body, type=HIGHCARD.event_type) == event


def test_the_same_seed_gives_the_same_log_whatever_global_random_does():
    logs = []
    for _ in range(2):
        random.seed()  # noise in the global generator must change nothing
        random.random()
        logs.append(msgspec.json.encode(simulate(HIGHCARD, ["a", "b", "c"], random.Random(42)).events))
    assert logs[0] == logs[1]
