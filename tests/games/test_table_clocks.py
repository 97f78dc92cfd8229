"""The table's clocks, quitting, zombie and bot seats: pure, time given as the `at` stamps."""

import random

import pytest

from services.registry import get
from shared.games.clock import later
from shared.games.decider import Context, Rejection, fold
from shared.games.table import (
    BOTS_PLAYER,
    SERVICE_PLAYER,
    BotSeated,
    ClockCharged,
    ClockExpired,
    Create,
    Deadline,
    Expire,
    GameEnded,
    Join,
    PlayFor,
    Quit,
    SeatZombied,
    SeedRevealed,
    Start,
)
from tests.highcard import PlayCard

HIGHCARD = get("highcard")
T0 = "2026-01-01T00:00:00.000Z"


def at(ms: int) -> str:
    return later(T0, ms)


def decide(table, actor, command, ms=0):
    return HIGHCARD.decide(table, command, Context(actor=actor, rng=random.Random(1), now=at(ms)))


def then(table, actor, command, ms=0):
    events = decide(table, actor, command, ms)
    assert not isinstance(events, Rejection), events
    return fold(HIGHCARD.evolve, events, table), events


def code(outcome):
    assert isinstance(outcome, Rejection), outcome
    assert outcome.message
    return outcome.code


def started(options, players=("ann", "bob", "cat"), ms=0):
    table, _ = then(HIGHCARD.initial_state, players[0], Create(options={"hand_size": 2, **options}, seats=3))
    for p in players[1:]:
        table, _ = then(table, p, Join())
    table, _ = then(table, players[0], Start(), ms)
    return table


def a_card(table, player):
    return PlayCard(card=table.game.hands[player][0])


CUSTOM = {"clock": "custom", "clock_bank": 10, "clock_increment": 2}


def played_out(table, ms=0):
    """The table played to its end, each seat its first card; a zombie's by the bot service."""
    while table.status == "running":
        for seat in HIGHCARD.players_to_act(table):
            move = a_card(table, seat)
            if seat in table.zombies:
                command = PlayFor(seat=seat, command={"type": "play_card", "card": move.card})
                table, _ = then(table, BOTS_PLAYER, command, ms=ms)
            else:
                table, _ = then(table, seat, move, ms=ms)
    return table


def test_a_table_has_no_clock_unless_asked_and_its_options_stay_as_before():
    table = started({})
    assert table.clock is None
    assert "clock" not in HIGHCARD.player_view(table, "ann")
    assert table.options == {"hand_size": 2, "deck_size": 30}


@pytest.mark.parametrize(
    ("options", "wrong"),
    [
        ({"clock": "blitz"}, "clock must be one of none, fast, normal, slow, custom"),
        ({"clock": "custom"}, "needs clock_bank"),
        ({"clock": "fast", "clock_bank": 10}, "custom only"),
        ({"clock": "custom", "clock_bank": 0.5}, "clock_bank must be"),
        ({"on_timeout": "sulk"}, "on_timeout must be one of zombie, lose"),
        ({"bots": 3}, "bots must be 0 to 2"),
        ({"bots": 1, "bot_level": "expert"}, "bot_level must be one of easy, normal, hard"),
        ({"bot_level": 3}, "bot_level must be one of easy, normal, hard"),
    ],
)
def test_bad_table_options_are_refused_with_bad_option(options, wrong):
    refused = decide(HIGHCARD.initial_state, "ann", Create(options=options, seats=3))
    assert code(refused) == "bad_option"
    assert wrong in refused.message


def test_the_clocks_start_with_the_game_and_the_view_shows_them():
    table = started(CUSTOM, ms=500)
    view = HIGHCARD.player_view(table, "bob")
    assert view["clock"] == {
        "remaining_ms": {"ann": 10_000, "bob": 10_000, "cat": 10_000},
        "running": ["ann", "bob", "cat"],
        "since": at(500),
        "deadline": at(10_500),
        "increment_ms": 2000,
    }
    assert HIGHCARD.player_view(table, None)["clock"] == view["clock"]
    assert table.options["clock"] == "custom"  # the table's options only where not default


def test_a_move_charges_the_running_clocks_and_gives_its_player_the_increment():
    table = started(CUSTOM)
    table, events = then(table, "ann", a_card(table, "ann"), ms=3000)
    assert events[0] == ClockCharged(at=at(3000), player="ann")
    assert table.clock.remaining_ms == {"ann": 9000, "bob": 7000, "cat": 7000}
    view = HIGHCARD.player_view(table, None)["clock"]
    assert view["running"] == ["bob", "cat"]  # ann chose: hers stopped
    assert view["deadline"] == at(3000 + 7000)


def test_a_move_one_millisecond_before_the_deadline_counts_and_one_at_it_does_not():
    table = started(CUSTOM)
    assert code(decide(table, "ann", a_card(table, "ann"), ms=10_000)) == "out_of_time"
    table, _ = then(table, "ann", a_card(table, "ann"), ms=9_999)
    assert table.clock.remaining_ms["ann"] == 1 + 2000
    # at the deadline, only those who had not moved are out of time
    assert HIGHCARD.out_of_time(table, at(10_000)) == ["bob", "cat"]


def test_a_deadline_before_its_time_or_from_a_player_is_refused():
    table = started(CUSTOM)
    assert code(decide(table, SERVICE_PLAYER, Deadline(), ms=9_999)) == "not_due"
    assert code(decide(table, "ann", Deadline(), ms=20_000)) == "not_allowed"


def test_a_clock_running_out_makes_the_seat_a_zombie_the_bot_service_plays():
    table = started(CUSTOM)
    table, _ = then(table, "ann", a_card(table, "ann"), ms=1000)
    table, _ = then(table, "bob", a_card(table, "bob"), ms=2000)
    table, events = then(table, SERVICE_PLAYER, Deadline(), ms=10_000)
    assert events[1:] == [ClockExpired(player="cat"), SeatZombied(player="cat", reason="timed_out")]
    view = HIGHCARD.player_view(table, "cat")
    assert view["zombies"] == ["cat"] and view["clock"]["running"] == []
    assert view["clock"]["deadline"] is None  # no human must act: no clock runs
    # the player can no longer act; the bot service can, for that seat only
    assert code(decide(table, "cat", a_card(table, "cat"), ms=10_001)) == "seat_played_by_bot"
    card = {"type": "play_card", "card": table.game.hands["cat"][0]}
    assert code(decide(table, "cat", PlayFor(seat="cat", command=card))) == "not_allowed"
    assert code(decide(table, BOTS_PLAYER, PlayFor(seat="ann", command=card))) == "not_a_bot_seat"
    assert code(decide(table, BOTS_PLAYER, PlayFor(seat="cat", command={"type": "dance"}))) == "bad_command"
    table, _ = then(table, BOTS_PLAYER, PlayFor(seat="cat", command=card), ms=10_002)
    assert table.game.tricks  # the trick was taken with the zombie's card
    assert HIGHCARD.legal_commands(table, "cat")  # the zombie's view still lists its moves


def test_on_timeout_lose_ends_a_two_player_game_with_the_other_player_winning():
    table = started({**CUSTOM, "on_timeout": "lose"}, players=("ann", "bob"))
    table, _ = then(table, "ann", a_card(table, "ann"), ms=1000)
    table, events = then(table, SERVICE_PLAYER, Deadline(), ms=10_000)
    assert isinstance(events[-2], GameEnded) and isinstance(events[-1], SeedRevealed)
    result = table.result
    assert result.winners == ["ann"]
    assert [s.player for s in result.ranking] == ["ann", "bob"]
    assert result.details["timed_out"] == ["bob"]
    assert HIGHCARD.describe(events[-2], None) == "Game over: ann won (ann 1, bob 0)"


def test_on_timeout_lose_with_more_players_makes_a_zombie_who_ranks_last():
    table = started({**CUSTOM, "on_timeout": "lose"})
    table, _ = then(table, "ann", a_card(table, "ann"), ms=1000)
    table, _ = then(table, "cat", a_card(table, "cat"), ms=1000)
    table, _ = then(table, SERVICE_PLAYER, Deadline(), ms=10_000)
    assert table.zombies == ("bob",) and table.status == "running"
    table = played_out(table, ms=10_001)
    assert table.result.ranking[-1].player == "bob"
    assert "bob" not in table.result.winners
    assert table.result.details["timed_out"] == ["bob"]


def test_quit_hands_the_seat_to_a_bot_and_the_result_names_it():
    table = started({})  # no clock needed to quit
    assert code(decide(table, "dan", Quit())) == "not_seated"
    table, events = then(table, "bob", Quit())
    assert events == [SeatZombied(player="bob", reason="quit")]
    assert code(decide(table, "bob", Quit())) == "seat_played_by_bot"
    table = played_out(table)
    assert table.result.details["abandoned_seats"] == ["bob"]
    assert table.result.ranking  # the game was played to its end


@pytest.mark.parametrize("on_timeout", ["quit", "zombie", "lose"])
def test_leaving_forfeits_whatever_the_bot_scored_for_the_seat(on_timeout):
    """The player who would have won leaves (quits, or runs out of time) at once; the bot
    plays the seat exactly as they would have: the seat tops the scores, its player ranks
    last, below every player who finished, and the result says so."""
    options = {} if on_timeout == "quit" else {**CUSTOM, "on_timeout": on_timeout}
    natural = played_out(started(options)).result
    leaver = natural.winners[0]
    table = started(options)
    if on_timeout == "quit":
        table, _ = then(table, leaver, Quit())
    else:  # everyone else moves at once; the leaver's clock runs out
        for seat in HIGHCARD.players_to_act(table):
            if seat != leaver:
                table, _ = then(table, seat, a_card(table, seat), ms=1000)
        table, _ = then(table, SERVICE_PLAYER, Deadline(), ms=10_000)
    result = played_out(table, ms=10_001).result
    assert result.scores == natural.scores and max(result.scores.values()) == result.scores[leaver]
    assert result.ranking[-1].player == leaver and leaver not in result.winners
    assert result.details["forfeited"] == [leaver]
    others = [s.player for s in natural.ranking if s.player != leaver]
    assert [s.player for s in result.ranking[:-1]] == others
    said = HIGHCARD.describe(GameEnded(result=result), None) or ""
    assert said.endswith(f"; {leaver} left the game and ranks last)"), said


def test_when_no_person_is_left_the_table_ends_abandoned():
    table = started({})
    table, _ = then(table, "bob", Quit())
    table, _ = then(table, "cat", Quit())
    table, events = then(table, "ann", Quit())
    assert isinstance(events[-2], GameEnded) and isinstance(events[-1], SeedRevealed)
    assert table.status == "ended"
    assert table.result.details == {"abandoned": True, "abandoned_seats": ["bob", "cat", "ann"]}
    assert HIGHCARD.describe(events[-2], None) == "No player is left at the table: it is closed"


def test_quit_is_for_a_running_game_leave_before_it():
    table, _ = then(HIGHCARD.initial_state, "ann", Create(options={}, seats=3))
    assert code(decide(table, "ann", Quit())) == "not_started"


def test_bots_take_seats_at_creation_and_the_game_needs_no_one_else():
    table, events = then(HIGHCARD.initial_state, "ann", Create(options={"bots": 2}, seats=3))
    assert events[-2:] == [BotSeated(player="robot-1"), BotSeated(player="robot-2")]
    assert table.players == ("ann", "robot-1", "robot-2")
    assert code(decide(table, "dan", Join())) == "table_full"
    table, _ = then(table, "ann", Start())
    assert HIGHCARD.player_view(table, None)["bots"] == ["robot-1", "robot-2"]
    card = {"type": "play_card", "card": table.game.hands["robot-1"][0]}
    assert code(decide(table, "robot-1", PlayCard(card=card["card"]))) == "seat_played_by_bot"
    table, _ = then(table, BOTS_PLAYER, PlayFor(seat="robot-1", command=card))
    assert "robot-1" not in HIGHCARD.players_to_act(table)


def test_the_clocks_fold_the_same_from_the_log_whatever_the_time_of_the_fold():
    """Replays read remaining times from the events alone: the same log, the same clocks."""
    table = started(CUSTOM)
    log = []
    for seat, ms in (("ann", 1200), ("bob", 2500), ("cat", 4000)):
        events = decide(table, seat, a_card(table, seat), ms=ms)
        log.append(events)
        table = fold(HIGHCARD.evolve, events, table)
    again = started(CUSTOM)
    for events in log:
        again = fold(HIGHCARD.evolve, events, again)
    assert again.clock == table.clock
    # each charged while it ran, each given the increment after its move
    assert table.clock.remaining_ms == {"ann": 10_800, "bob": 9_500, "cat": 8_000}


def test_the_service_ends_a_running_table_without_clocks_and_only_that():
    """`expire` ends an open table (expired) or a running one without clocks (idle, no
    winner); a table with clocks ends by its deadlines, an ended one stays as it is, and
    nobody but the service may send it."""
    idle = started({})
    assert code(decide(idle, "ann", Expire())) == "not_allowed"
    ended, events = then(idle, SERVICE_PLAYER, Expire())
    assert events == [GameEnded(result=ended.result), SeedRevealed(secret=idle.secret, draws=idle.receipts)]
    assert ended.status == "ended"
    assert ended.result.details == {"abandoned": True, "idle": True} and not ended.result.winners
    said = HIGHCARD.describe(events[0], None)
    assert said == "Nobody moved for a long time: the game is closed, without a winner"
    assert code(decide(ended, SERVICE_PLAYER, Expire())) == "game_over"
    assert code(decide(started(CUSTOM), SERVICE_PLAYER, Expire())) == "has_clocks"
