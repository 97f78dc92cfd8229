"""The table life shared by every game: create, join, leave, start, game ended."""

import hashlib
import random

import pytest

from services.board_text import render
from services.registry import get
from shared.games.decider import Context, Rejection, fold
from shared.games.table import (
    Create,
    DeclineRematch,
    Join,
    Leave,
    PlayerJoined,
    Quit,
    Rematch,
    RematchDeclined,
    RematchOffered,
    SeedCommitted,
    Start,
    TableCreated,
    TableStarted,
)
from tests.highcard import PlayCard

HIGHCARD = get("highcard")


def given(*commands):
    """The table after `(actor, command)` pairs, each of which must be accepted."""
    table = HIGHCARD.initial_state
    for actor, command in commands:
        events = HIGHCARD.decide(table, command, Context(actor=actor, rng=random.Random(1)))
        assert not isinstance(events, Rejection), events
        table = fold(HIGHCARD.evolve, events, table)
    return table


def when(table, actor, command, seed=1):
    return HIGHCARD.decide(table, command, Context(actor=actor, rng=random.Random(seed)))


def code(outcome):
    assert isinstance(outcome, Rejection), outcome
    assert outcome.message
    return outcome.code


CREATED = [("ann", Create(options={"hand_size": 2}, seats=3))]


def test_create_seats_the_creator_with_the_options_filled_in():
    events = when(HIGHCARD.initial_state, "ann", Create(options={"hand_size": 2}, seats=3, entropy="a1"))
    sealed = events[1]
    assert isinstance(sealed, SeedCommitted) and sealed.secret is not None  # in the log only
    assert sealed.commitment == hashlib.sha256(bytes.fromhex(sealed.secret)).hexdigest()
    assert events == [
        TableCreated(creator="ann", options={"hand_size": 2, "deck_size": 30}, seats=3),
        sealed,
        PlayerJoined(player="ann", entropy="a1"),
    ]


@pytest.mark.parametrize(
    "command",
    [
        Create(options={"hand_size": 0}),
        Create(options={"colour": "red"}),
        Create(options={"hand_size": "2"}),
        Create(seats=1),
        Create(seats=6),
        Create(options={"hand_size": 10, "deck_size": 20}, seats=3),
    ],
)
def test_bad_options_or_seat_counts_are_refused(command):
    assert code(when(HIGHCARD.initial_state, "ann", command)) == "bad_option"


def test_a_table_is_created_once():
    assert code(when(given(*CREATED), "bob", Create())) == "table_exists"


@pytest.mark.parametrize("command", [Join(), Leave(), Start(), PlayCard(card=1)])
def test_every_command_but_create_needs_the_table(command):
    assert code(when(HIGHCARD.initial_state, "ann", command)) == "unknown_table"


def test_join_until_full():
    table = given(*CREATED, ("bob", Join()), ("cy", Join()))
    assert table.players == ("ann", "bob", "cy")
    assert code(when(table, "dan", Join())) == "table_full"
    assert code(when(table, "bob", Join())) == "already_seated"


def test_leave_before_the_start_frees_the_seat_and_passes_the_creator_on():
    table = given(*CREATED, ("bob", Join()), ("ann", Leave()))
    assert table.players == ("bob",) and table.creator == "bob"
    assert code(when(table, "ann", Leave())) == "not_seated"


def test_the_last_player_leaving_ends_the_table():
    table = given(*CREATED, ("ann", Leave()))
    assert table.status == "ended" and table.result.details == {"abandoned": True}
    assert code(when(table, "ann", Join())) == "game_over"


def test_start_needs_the_creator_and_the_minimum():
    assert code(when(given(*CREATED), "ann", Start())) == "not_enough_players"
    table = given(*CREATED, ("bob", Join()))
    assert code(when(table, "bob", Start())) == "not_creator"
    assert code(when(table, "cy", Start())) == "not_seated"
    started = given(*CREATED, ("bob", Join()), ("ann", Start()))
    assert started.status == "running" and started.game.hands["ann"]
    assert code(when(started, "ann", Start())) == "already_started"
    assert code(when(started, "cy", Join())) == "already_started"
    assert code(when(started, "bob", Leave())) == "already_started"


def test_game_commands_need_a_running_game_and_a_seat():
    table = given(*CREATED, ("bob", Join()))
    assert code(when(table, "ann", PlayCard(card=1))) == "not_started"
    started = given(*CREATED, ("bob", Join()), ("ann", Start()))
    assert code(when(started, "cy", PlayCard(card=1))) == "not_seated"


def test_the_game_ended_event_closes_the_table_with_its_ranking():
    table = given(*CREATED, ("bob", Join()), ("ann", Start()))
    rng = random.Random(3)
    while table.status == "running":
        actor = HIGHCARD.players_to_act(table)[0]
        command = rng.choice(HIGHCARD.legal_commands(table, actor))
        events = when(table, actor, command)
        table = fold(HIGHCARD.evolve, events, table)
    assert [type(e).__name__ for e in events[-2:]] == ["GameEnded", "SeedRevealed"]
    result = table.result
    assert sorted(result.scores) == ["ann", "bob"]
    assert result.winners == [s.player for s in result.ranking if s.rank == 1]
    assert code(when(table, "ann", PlayCard(card=1))) == "game_over"


def test_views_carry_the_platform_fields():
    table = given(*CREATED, ("bob", Join()))
    assert HIGHCARD.player_view(table, "ann")["legal"] == [{"type": "start"}]
    assert "legal" not in HIGHCARD.player_view(table, "bob")
    started = given(*CREATED, ("bob", Join()), ("ann", Start()))
    view = HIGHCARD.player_view(started, "bob")
    assert view["status"] == "running" and view["seats"] == ["ann", "bob"]
    assert view["to_act"] == ["ann", "bob"]
    assert view["legal"] == [{"type": "play_card", "card": c} for c in view["hand"]]
    spectator = HIGHCARD.player_view(started, None)
    assert spectator["hand"] is None and "legal" not in spectator
    assert HIGHCARD.player_view(started, "stranger") == spectator


def test_options_are_checked_again_against_the_players_seated_at_the_start():
    """Checked at create against the most seats, then at the start against the players
    actually seated (a game's options may need more players than its minimum)."""
    import dataclasses

    from shared.games.table import TableDecider
    from tests.highcard import GAME

    picky = TableDecider(
        dataclasses.replace(
            GAME, check_options=lambda options, seats: None if seats >= 3 else "Needs 3 players."
        )
    )
    table = picky.initial_state
    for actor, command in (("ann", Create(seats=3)), ("bob", Join())):
        events = picky.decide(table, command, Context(actor=actor, rng=random.Random(0)))
        assert not isinstance(events, Rejection)
        table = fold(picky.evolve, events, table)
    refused = picky.decide(table, Start(), Context(actor="ann", rng=random.Random(1)))
    assert refused == Rejection("bad_option", "Needs 3 players.")


def test_a_player_offers_a_rematch_once_the_game_is_over():
    """After the end, a seated player names the next table, once; every viewer sees it."""
    running = given(*CREATED, ("bob", Join()), ("ann", Start()))
    assert code(when(running, "ann", Rematch(table="highcard-next"))) == "game_not_over"
    ended = fold(HIGHCARD.evolve, when(running, "ann", Quit()), running)
    ended = fold(HIGHCARD.evolve, when(ended, "bob", Quit()), ended)
    assert ended.status == "ended"
    assert code(when(ended, "cy", Rematch(table="highcard-next"))) == "not_seated"
    assert code(when(ended, "ann", Rematch(table="not an id!"))) == "bad_command"
    events = when(ended, "bob", Rematch(table="highcard-next"))
    assert events == [RematchOffered(table="highcard-next", by="bob")]
    offered = fold(HIGHCARD.evolve, events, ended)
    for viewer in ("ann", "bob", None):
        shown = HIGHCARD.player_view(offered, viewer)["rematch"]
        assert shown == {"table": "highcard-next", "by": "bob", "declined": []}
    text = render({"version": 9, "view": HIGHCARD.player_view(offered, "ann")})  # the terminal's
    assert "  rematch : bob offers table highcard-next (tabletop join highcard-next)" in text
    assert code(when(offered, "ann", Rematch(table="highcard-other"))) == "rematch_offered"
    assert code(when(offered, "ann", PlayCard(card=1))) == "game_over"  # nothing else after the end


def test_a_rematch_is_declined_once_by_each_other_player():
    table = given(*CREATED, ("bob", Join()), ("cy", Join()), ("ann", Start()))
    for player in ("ann", "bob", "cy"):
        table = fold(HIGHCARD.evolve, when(table, player, Quit()), table)
    assert code(when(table, "bob", DeclineRematch())) == "no_rematch"
    table = fold(HIGHCARD.evolve, when(table, "ann", Rematch(table="highcard-next")), table)
    assert code(when(table, "ann", DeclineRematch())) == "already_answered"  # the offerer
    assert code(when(table, "dan", DeclineRematch())) == "not_seated"
    events = when(table, "cy", DeclineRematch())
    assert events == [RematchDeclined(player="cy")]
    table = fold(HIGHCARD.evolve, events, table)
    assert code(when(table, "cy", DeclineRematch())) == "already_answered"
    assert HIGHCARD.player_view(table, None)["rematch"]["declined"] == ["cy"]


def test_a_table_made_to_start_when_full_starts_as_its_last_seat_is_taken():
    table = given(
        ("ann", Create(options={"hand_size": 2, "start_when_full": True}, seats=3)), ("bob", Join())
    )
    assert table.status == "open"
    events = when(table, "cy", Join())
    assert isinstance(events[0], PlayerJoined) and isinstance(events[1], TableStarted)
    assert fold(HIGHCARD.evolve, events, table).status == "running"
    plain = given(*CREATED, ("bob", Join()))  # without the option: the creator starts it
    assert [type(e) for e in when(plain, "cy", Join())] == [PlayerJoined]
    # a creator alone with bots fills the table at once: it starts there and then
    alone = when(HIGHCARD.initial_state, "ann", Create(options={"bots": 1, "start_when_full": True}, seats=2))
    assert [type(e).__name__ for e in alone][:5] == [
        "TableCreated",
        "SeedCommitted",
        "PlayerJoined",
        "BotSeated",
        "TableStarted",
    ]
    assert fold(HIGHCARD.evolve, alone, HIGHCARD.initial_state).status == "running"
