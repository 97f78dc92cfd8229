"""Dozito views, replays and bot (RULES.md 2): face-down cards are
hidden from everyone, their owner included; the draw pile's order too; the top card of each
discard pile and the size of every pile are public."""

from __future__ import annotations

from random import Random

import msgspec

from shared.games.decider import Context, Rejection
from shared.games.dozito import GAME
from shared.games.dozito.bot import bot
from shared.games.dozito.messages import DozitoOptions, DrawCard, DrawPileRebuilt, PlaceCard, RoundDealt
from shared.games.dozito.rules import legal_commands, setup
from shared.games.dozito.view import player_view, redact
from shared.games.table import Create, Join, Start, TableDecider
from shared.games.testing import Given, accepted, as_type

from .dozito_support import dealt, face_up

DECIDER = TableDecider(GAME)


def _started(seed: int = 4):
    table = DECIDER.initial_state
    for actor, command in [("ann", Create(seats=3)), ("bob", Join()), ("cat", Join()), ("ann", Start())]:
        out = DECIDER.decide(table, command, Context(actor=actor, rng=Random(seed)))
        assert not isinstance(out, Rejection), out
        for e in out:
            table = DECIDER.evolve(table, e)
    return table


def test_views_after_the_deal_show_no_grid_card_and_no_draw_card_dozito_1_dozito_2():
    table = _started()
    g = Given(GAME, start=table.game)
    for viewer in (None, "ann", "bob", "cat"):
        view = DECIDER.player_view(table, viewer)
        assert {"status", "seats", "to_act", "seat_count"} <= set(view)
        assert view["status"] == "running" and view["to_act"] == [g.state.current]
        assert all(c is None for g in view["grids"].values() for c in g)
        assert view["draw_size"] == len(g.state.draw) == 75 - 36 - 2
        assert [d["size"] for d in view["discards"]] == [1, 1]
        assert [d["top"]["id"] for d in view["discards"]] == [p[-1] for p in g.state.discards]
        text = msgspec.json.encode(view).decode()
        for card in [*g.state.draw, *(c for g in g.state.grids.values() for c in g)]:
            assert f'"{card}"' not in text
        assert ("legal" in view) == (viewer == g.state.current)


def test_seats_and_spectators_see_the_same_game():
    table = _started()
    views = [DECIDER.game.player_view(table.game, v) for v in (None, "ann", "bob")]
    for v in views:
        v.pop("you")
    assert views[0] == views[1] == views[2]


def test_redact_blanks_the_deal_and_a_rebuilt_draw_pile_but_not_the_discards():
    events = accepted(setup(DozitoOptions(), ("ann", "bob"), Random(9)))
    deal = as_type(events[1], RoundDealt)
    for viewer in (None, "ann", "bob"):
        seen = redact(deal, viewer)
        assert isinstance(seen, RoundDealt)
        assert seen.grids == {"ann": [None] * 12, "bob": [None] * 12}
        assert seen.draw == [None] * len(deal.draw) and seen.discards == deal.discards
        rebuilt = redact(DrawPileRebuilt(draw=["red-1", "blue-2"]), viewer)
        assert rebuilt == DrawPileRebuilt(draw=[None, None])


def test_flipped_and_placed_cards_become_visible_to_all():
    g = Given(GAME, dealt({"ann": {5: "blue-8"}}, draw_top=["green-5"]))
    g.then("ann", DrawCard())
    g.then("ann", PlaceCard(slot=5))
    for viewer in (None, "ann", "bob"):
        view = player_view(g.state, viewer)
        assert view["grids"]["ann"][4]["id"] == "green-5"
        assert view["hand"]["id"] == "blue-8" and view["hand_from"] == "grid"
        assert sum(c is not None for c in view["grids"]["ann"]) == 1


def test_a_deck_too_small_for_the_players_is_refused_by_the_platform_dozito_1():
    """The platform checks `check_options` against the seats at `create` and again against
    the seated players at `start`, so `setup` need not: 5 players need 62 cards."""
    problem = GAME.check_options(DozitoOptions(deck="four_colours"), 5)
    assert problem and "need at least 62" in problem
    assert GAME.check_options(DozitoOptions(deck="four_colours"), 4) is None
    out = DECIDER.decide(
        DECIDER.initial_state,
        Create(options={"deck": "four_colours"}, seats=5),
        Context(actor="ann", rng=Random(0)),
    )
    assert isinstance(out, Rejection) and out.code == "bad_option"


def test_bot_plays_a_legal_command_and_prefers_revealing_a_card():
    g = Given(
        GAME,
        start=face_up(Given(GAME, dealt({"ann": {5: "blue-8"}}, draw_top=["green-5"])).state, "ann", [1]),
    )
    g.then("ann", DrawCard())
    view = player_view(g.state, "ann")
    view["legal"] = msgspec.to_builtins(legal_commands(g.state, "ann"))
    picks = [bot(view, Random(s)) for s in range(40)]
    assert all(p in view["legal"] for p in picks)
    assert picks.count({"type": "place_card", "slot": 5}) > 30


def test_issue12_views_say_when_the_turn_is_an_extra_turn_dozito_8():
    """Issue 12 (views): the Replay's extra turn is shown; a Replay discarded this turn shows
    as earned until the extra turn starts."""
    from shared.games.dozito.messages import DiscardCard

    g = Given(GAME, dealt(draw_top=["green-4", "blue-5"]))  # green-4 is green's Replay card
    assert player_view(g.state, "bob")["extra_turn"] is False
    g.then("ann", DrawCard())
    g.then("ann", DiscardCard(pile=0))
    view = player_view(g.state, "bob")
    assert view["active_player"] == "ann" and view["extra_turn"] is True
    g.then("ann", DrawCard())
    g.then("ann", DiscardCard(pile=0))
    view = player_view(g.state, "ann")
    assert view["active_player"] == "bob" and view["extra_turn"] is False


def test_issue12_views_say_who_triggered_the_round_end_dozito_10():
    from shared.games.dozito.messages import DiscardCard

    g = Given(
        GAME,
        start=face_up(
            Given(
                GAME, dealt({"ann": {12: "blue-9"}}, players=("ann", "bob", "cat"), draw_top=["red-12"])
            ).state,
            "ann",
            range(1, 12),
        ),
    )
    assert player_view(g.state, None)["round_end_triggered_by"] is None
    g.then("ann", DrawCard())
    g.then("ann", PlaceCard(slot=12))
    g.then("ann", DiscardCard(pile=0))
    view = player_view(g.state, "cat")
    assert view["round_end_triggered_by"] == "ann" and view["active_player"] == "bob"
