"""The game log, in process, over whole seeded random games of every game: every event is said
in words to every viewer (never an exception, never an empty text), and what a viewer reads
names none of the other seats' secrets: nothing that other seats' views showed and that this
viewer was never shown, in its views or its redacted events."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from services.registry import get
from shared.games.decider import Result, Standing, describe_by_type
from shared.games.illustori.data import CARDS as ILLUSTORI_CARDS
from shared.games.illustori.data import CARDS_FR as ILLUSTORI_CARDS_FR
from shared.games.simulate import simulate
from shared.games.table import (
    TABLE_EVENTS,
    BotSeated,
    ClockCharged,
    ClockExpired,
    DrawsMade,
    GameEnded,
    MoveTakenBack,
    PlayerJoined,
    PlayerLeft,
    RematchDeclined,
    RematchOffered,
    SeatZombied,
    SeedCommitted,
    SeedRevealed,
    TableCreated,
    TableDecider,
    TableExpired,
    TableStarted,
    TakeBackPoint,
    TakeBacksClosed,
)
from shared.messages.envelopes import Alike, seen_events
from tests.games import registered
from tests.highcard import GAME as HIGHCARD
from tests.texts import strings

Plays = dict[str, tuple[tuple[int, ...], tuple[dict[str, Any], ...]]]

# game -> (seat counts, option sets): spread so that the rarer events happen too; any other
# registered game is played at three seats (or the nearest it takes) with its defaults
PLAYS: Plays = {
    "naishi": ((2,), ({}, {"first_player": "second_seat"})),
    "dozito": ((2, 4), ({"rounds": 1}, {"rounds": 3}, {"deck": "four_colours", "rounds": 1})),
    "decrypto": (
        (4, 5, 8),
        ({}, {"max_rounds": 2}, {"max_rounds": 3, "last_round_tiebreak": "keywords", "language": "fr"}),
    ),
    "diced_tomatoes": (
        (1, 2, 4),
        (
            {},
            {"karma_overdose": True, "golden_sun": True},
            {"tomato_dice": True, "reroll_passed_dice": False},
        ),
    ),
    "illustori": (
        (3, 4, 6),
        (
            {"deck_size": 31},
            {"mode": "english_reverse", "no_used_letters": True},
            {"mode": "german_reverse", "no_repeated_letter": True, "reverse_direction": "end"},
        ),
    ),
    "highcard": ((2, 5), ({}, {"hand_size": 5})),
}
SEEDS = range(3)


def decider_of(game: str) -> TableDecider:
    return TableDecider(HIGHCARD) if game == "highcard" else get(game)


def naishi_forms(token: str) -> tuple[str, ...]:
    """How the Naishi log names a card: by its kind, in English and in French ("rice_3" ->
    "Rice", "Champ de riz")."""
    from shared.games.naishi.view import KIND_NAMES

    if "_" not in token:
        return (token,)
    kind = token.rsplit("_", 1)[0]
    return (kind.replace("_", " ").title(), *([KIND_NAMES["fr"][kind]] if kind in KIND_NAMES["fr"] else []))


def illustori_forms(token: str) -> tuple[str, ...]:
    """The Illustori log names a card by its picture (a public catalogue, in English and in
    French), the view by its id."""
    if token not in ILLUSTORI_CARDS:
        return (token,)
    return (token, ILLUSTORI_CARDS[token], ILLUSTORI_CARDS_FR[token])


def dozito_forms(token: str) -> tuple[str, ...]:
    """How the Dozito log names a card: by colour and number, in English and in French
    ("red-7" -> "red 7", "7 rouge")."""
    from shared.games.dozito.view import card_name

    return (token, *(n for n in (card_name(token, "en"), card_name(token, "fr")) if n))


# How each game's texts name what its views and events hold (by default, as they write it).
FORMS: dict[str, Callable[[str], tuple[str, ...]]] = {
    "naishi": naishi_forms,
    "illustori": illustori_forms,
    "dozito": dozito_forms,
}


OFFERED = frozenset({"legal"})  # the commands a view offers: no text it holds


def said_forms(game: str, tokens: Iterable[str]) -> set[str]:
    forms = FORMS.get(game, lambda token: (token,))
    return {form for token in tokens for form in forms(token)}


def said(token: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(token)}(?!\w)", text) is not None


def plays() -> Iterator[tuple[str, int, dict[str, Any], int]]:
    every: Plays = {game: ((registered.seats(game),), ({},)) for game in registered.PACKAGES} | PLAYS
    for game, (seat_counts, option_sets) in every.items():
        for seats in seat_counts:
            for index, options in enumerate(option_sets):
                for seed in SEEDS:
                    yield game, seats, options, seed * 10 + index


Tell = Callable[[TableDecider, list[Any], str | None], list[str]]


# The games whose every event is said in French too (a game without `describe_fr` logs in
# English for French readers).
SAID_IN_FRENCH = frozenset({"naishi", "dozito", "decrypto", "diced_tomatoes", "illustori"})


# The table's events that keep its books (clocks, take-backs, draws): the log says nothing of them.
BOOKKEEPING = (ClockCharged, TakeBackPoint, TakeBacksClosed, DrawsMade)


def told(decider: TableDecider, batch: list[Any], viewer: str | None) -> list[str]:
    """What the game log says of one step to one viewer, as replays and pushes say it, in
    English and in French."""
    events, texts, texts_fr = seen_events(decider, batch, viewer)
    events = [e for e in events if not isinstance(e, BOOKKEEPING)]  # nothing to tell of these
    for event in events:
        text = decider.describe(event, viewer)
        assert isinstance(text, str) and text.strip(), (type(event).__name__, viewer)
        if decider.game.name in SAID_IN_FRENCH and not isinstance(event, TABLE_EVENTS):
            french = decider.describe(event, viewer, "fr")
            assert decider.game.describe_fr is not None, decider.game.name
            assert isinstance(french, str) and french.strip(), (type(event).__name__, viewer)
    assert len(texts) == len(texts_fr) == len(events)
    return texts + texts_fr


def check_log(game: str, seats: int, options: dict[str, Any], seed: int, tell: Tell) -> None:
    """Play a whole game; at every step, what `tell` says to each viewer names no secret."""
    decider = decider_of(game)
    players = [f"p{i}" for i in range(1, seats + 1)]
    sim = simulate(decider, players, random.Random(seed), options=options)
    viewers: list[str | None] = [*players, None]
    known: dict[str | None, set[str]] = {v: set() for v in viewers}  # what it was shown
    table = decider.initial_state
    for _, batch in sim.log:
        for event in batch:
            table = decider.evolve(table, event)
        views = {v: decider.player_view(table, v) for v in viewers}
        shown = {v: said_forms(game, strings(views[v], skip=OFFERED)) for v in viewers}
        for viewer in viewers:
            known[viewer] |= said_forms(game, strings(views[viewer], keys=True, skip=OFFERED))
            # what its redacted events show (a card discarded face up, then reshuffled unseen)
            events, _, _ = seen_events(decider, batch, viewer)
            known[viewer] |= said_forms(game, strings(msgspec.to_builtins(events), keys=True, skip=OFFERED))
        for viewer in viewers:
            # a secret: a text other viewers' views showed, this viewer's views and events never
            secrets = set().union(*(shown[v] for v in viewers if v != viewer)) - known[viewer]
            for text in tell(decider, batch, viewer):
                leaked = [s for s in secrets if said(s, text)]
                assert not leaked, (viewer, text, leaked)


@pytest.mark.parametrize(("game", "seats", "options", "seed"), list(plays()))
def test_every_event_is_said_to_every_viewer_and_tells_no_secret(game, seats, options, seed):
    check_log(game, seats, options, seed, told)


@pytest.mark.parametrize(("game", "seats", "options", "seed"), list(plays()))
def test_what_a_message_is_to_its_viewers_said_once_is_what_each_alone_is_told(game, seats, options, seed):
    """A push says a message's table events once for all its viewers (`Alike`): each
    viewer's events and log lines are those it is told alone, at every step of a whole game,
    and some were shared."""
    decider = decider_of(game)
    players = [f"p{i}" for i in range(1, seats + 1)]
    sim = simulate(decider, players, random.Random(seed), options=options)
    shared_once = 0
    for _, batch in sim.log:
        alike: Alike = {}
        for viewer in [None, *players]:  # the spectator first, as the projector renders
            assert seen_events(decider, batch, viewer, alike) == seen_events(decider, batch, viewer)
        shared_once += len(alike)
    assert shared_once > 0


@pytest.mark.parametrize("game", ["naishi", "decrypto", "illustori"])
def test_the_check_finds_a_log_said_from_events_not_redacted(game):
    """The check can fail: the same games, said from the events as the log holds them."""

    def unredacted(decider: TableDecider, batch: list[Any], viewer: str | None) -> list[str]:
        return [t for t in (decider.describe(e, viewer) for e in batch) if t]

    with pytest.raises(AssertionError, match="assert not"):
        check_log(game, PLAYS[game][0][-1], {}, 0, unredacted)


def test_the_table_says_its_own_events_and_how_a_game_ended():
    decider = decider_of("highcard")
    said_of = {
        type(e): decider.describe(e, None)
        for e in (
            TableCreated(creator="ann", options={}, seats=3),
            PlayerJoined(player="bob"),
            PlayerLeft(player="bob"),
            TableStarted(players=["ann", "bob", "cat"]),
            TableExpired(),
            BotSeated(player="robot-1"),
            ClockCharged(at="2026-01-01T00:00:00.000Z", player="ann"),
            ClockExpired(player="bob"),
            SeatZombied(player="cat", reason="quit"),
            RematchOffered(table="highcard-2", by="ann"),
            RematchDeclined(player="bob"),
            TakeBackPoint(player="ann"),
            TakeBacksClosed(),
            MoveTakenBack(player="ann"),
            SeedCommitted(commitment="ab" * 32),
            DrawsMade(first=0, blocks=3),
            SeedRevealed(secret="cd" * 32),
        )
    }
    assert set(said_of) == set(TABLE_EVENTS) - {GameEnded}
    assert said_of[SeedCommitted] == "The table's draws are sealed: its secret's SHA-256 begins abababababab"
    assert said_of[DrawsMade] is None
    assert said_of[SeedRevealed] == "The table's secret is revealed: anyone can now check every draw"
    assert said_of[TakeBackPoint] is None and said_of[TakeBacksClosed] is None
    assert said_of[MoveTakenBack] == "ann took back their last move"
    assert said_of[TableStarted] == "The game started: ann, bob and cat, in seat order"
    assert said_of[ClockCharged] is None  # bookkeeping of the clocks: nothing to tell
    assert said_of[ClockExpired] == "bob ran out of time"
    assert said_of[SeatZombied] == "cat left the game; a bot plays that seat from now on"
    assert said_of[RematchOffered] == "ann offers a rematch: table highcard-2"
    assert said_of[RematchDeclined] == "bob declines the rematch"
    assert (
        decider.describe(SeatZombied(player="bob", reason="timed_out"), "ann")
        == "A bot plays bob's seat from now on"
    )
    assert said_of[BotSeated] == "robot-1, a bot, sat down"
    ranking = [Standing("ann", 1, 2), Standing("bob", 1, 2), Standing("cat", 3, 0.5)]
    shared = Result(scores={}, ranking=ranking, winners=["ann", "bob"])
    assert (
        decider.describe(GameEnded(result=shared), None)
        == "Game over: ann and bob share the win (ann 2, bob 2, cat 0.5)"
    )
    won = Result(scores={}, ranking=[Standing("bob", 1, 7.0), Standing("ann", 2, 3)], winners=["bob"])
    assert decider.describe(GameEnded(result=won), "ann") == "Game over: bob won (bob 7, ann 3)"
    assert (
        decider.describe(GameEnded(result=Result(scores={}, ranking=[], winners=[])), None)
        == "Game over: nobody won"
    )
    expired = Result(scores={}, ranking=[], winners=[], details={"abandoned": True, "expired": True})
    assert decider.describe(GameEnded(result=expired), None) == said_of[TableExpired]


def test_the_table_says_its_own_events_and_the_end_in_french_too():
    decider = TableDecider(HIGHCARD)
    events = [
        TableCreated(creator="ann", options={}, seats=3),
        PlayerJoined(player="bob"),
        PlayerLeft(player="bob"),
        TableStarted(players=["ann", "bob", "cat"]),
        TableExpired(),
        BotSeated(player="robot-1"),
        ClockExpired(player="bob"),
        SeatZombied(player="cat", reason="quit"),
        SeatZombied(player="cat", reason="timed_out"),
        RematchOffered(table="highcard-2", by="ann"),
        RematchDeclined(player="bob"),
    ]
    for event in events:
        french, english = decider.describe(event, None, "fr"), decider.describe(event, None)
        assert french and french != english, (event, french)
    started = decider.describe(events[3], None, "fr")
    assert started == "La partie commence : ann, bob et cat, dans l'ordre des places"
    assert decider.describe(ClockCharged(at="2026-01-01T00:00:00.000Z", player="ann"), None, "fr") is None
    ranking = [Standing("ann", 1, 2), Standing("bob", 1, 2), Standing("cat", 3, 0.5)]
    shared = Result(scores={}, ranking=ranking, winners=["ann", "bob"])
    assert (
        decider.describe(GameEnded(result=shared), None, "fr")
        == "Partie terminée : ann et bob partagent la victoire (ann 2, bob 2, cat 0.5)"
    )
    left = Result(
        scores={},
        ranking=[Standing("bob", 1, 7), Standing("ann", 2, 9)],
        winners=["bob"],
        details={"forfeited": ["ann"]},
    )
    assert (
        decider.describe(GameEnded(result=left), None, "fr")
        == "Partie terminée : bob a gagné (bob 7, ann 9 ; ann a quitté la partie et finit dernier)"
    )


def test_a_game_without_words_of_its_own_says_the_type_of_its_events():
    from tests.highcard import CardDrawn, TrickTaken

    assert describe_by_type(CardDrawn(player="ann", card=None), "bob") == "ann: card drawn"
    assert describe_by_type(TrickTaken(cards={}, winner="ann"), None) == "trick taken"


def test_the_events_random_play_seldom_reaches_are_said_too():
    from shared.games.dozito.messages import DrawPileRebuilt, OneColourGridCompleted
    from shared.games.illustori.messages import StartPenalised
    from shared.games.naishi.messages import TurnPassed

    rare = {
        "naishi": (TurnPassed(player="ann"), "ann had no main action and passed"),
        "dozito": (
            DrawPileRebuilt(draw=[None] * 20),
            "The discard piles but their top cards were shuffled into a new draw pile of 20 cards",
        ),
        "illustori": (
            StartPenalised(player="ann", text="Maxx", reasons=["ends_with_xx"]),
            "ann's starting text “Maxx” is penalised (it ends in xx): name it again",
        ),
    }
    for game, (event, text) in rare.items():
        assert get(game).describe(event, None) == text
    assert get("illustori").describe(rare["illustori"][0], None, "fr") == (
        "Le texte de démarrage « Maxx » de ann est pénalisé (il finit par xx) : il faut en proposer un autre"
    )
    assert (
        get("naishi").describe(TurnPassed(player="ann"), None, "fr")
        == "ann n'avait aucune action principale possible et a passé son tour"
    )
    assert (
        get("dozito").describe(OneColourGridCompleted(player="bob"), "ann")
        == "bob completed a one-colour grid and wins at once"
    )
    assert get("dozito").describe(DrawPileRebuilt(draw=[None] * 20), None, "fr") == (
        "Les piles de défausse, sauf leurs cartes du dessus, sont mélangées pour former une nouvelle "
        "pioche de 20 cartes"
    )
    assert (
        get("dozito").describe(OneColourGridCompleted(player="bob"), "ann", "fr")
        == "bob complète une grille d'une seule couleur et gagne immédiatement la partie"
    )


# The games the docs' "How the log reads" examples come from: seats, options, seed 4, read by ann.
DOC_GAMES: dict[str, tuple[list[str], dict[str, Any]]] = {
    "naishi": (["ann", "bob"], {}),
    "dozito": (["ann", "bob"], {"rounds": 1}),
    "decrypto": (["ann", "bob", "cat", "dan"], {}),
    "diced_tomatoes": (["ann", "bob"], {}),
    "illustori": (["ann", "bob", "cat"], {}),
}


@pytest.mark.parametrize("game", DOC_GAMES)
def test_the_docs_quote_the_log_as_the_game_says_it(game):
    players, options = DOC_GAMES[game]
    decider = get(game)
    sim = simulate(decider, players, random.Random(4), options=options)
    texts = [t for _, batch in sim.log for t in seen_events(decider, batch, "ann")[1]]
    doc = (Path(__file__).parents[2] / "docs" / "games" / f"{game}.md").read_text("utf-8")
    example = re.search(r"## How the log reads\n.*?```text\n(.*?)```", doc, re.S)
    assert example, f"docs/games/{game}.md has no log example"
    quoted = example.group(1).splitlines()
    said = iter(texts)
    missing = [line for line in quoted if line not in said]  # each found after the one before
    assert quoted and not missing, missing
