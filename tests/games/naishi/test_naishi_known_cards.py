"""Issue 12 (views): what a player with perfect memory knows of the opponent's Hand, the view
shows: cards that entered it face up, at their positions, until a shuffle; never a card the
viewer did not see. Spectators see none of it."""

from __future__ import annotations

from shared.games.naishi import GAME
from shared.games.naishi.messages import (
    CardGiven,
    Develop,
    EndTurn,
    GameSetUp,
    HandsShuffled,
    ImposeDecree,
    SwapCards,
)
from shared.games.naishi.view import player_view
from shared.games.testing import Given, as_type

from .naishi_support import ANN, ANN_HAND, BOB, BOB_HAND, FULL_RIVER, start


def opponent_hand(events, viewer: str) -> list[str | None]:
    other = BOB if viewer == ANN else ANN
    return player_view(Given(GAME, events).state, viewer)["territories"][other]["hand"]


def test_a_card_developed_into_the_hand_is_known_to_the_opponent_at_its_position():
    g = Given(GAME, start())
    g.then(ANN, Develop(row="hand", position=2))
    taken = FULL_RIVER[1][0]
    assert opponent_hand(g.events, BOB) == [None, taken, None, None, None]
    assert opponent_hand(g.events, ANN) == [None] * 5  # Bob's Hand: nothing entered face up
    spectator = player_view(g.state, None)["territories"][ANN]["hand"]
    assert spectator == [None] * 5


def test_known_cards_follow_a_hand_swap_and_a_hand_line_swap():
    g = Given(GAME, start())
    g.then(ANN, SwapCards(kind="hand_line", first=4))  # Line 4 -> Hand 4
    line_card = as_type(start()[0], GameSetUp).lines[ANN][3]
    assert opponent_hand(g.events, BOB) == [None, None, None, line_card, None]
    g.then(ANN, Develop(row="line", position=1))
    if g.state.active == ANN:
        g.then(ANN, EndTurn())
    g.then(BOB, Develop(row="line", position=1))
    if g.state.active == BOB:
        g.then(BOB, EndTurn())
    g.then(ANN, SwapCards(kind="hand", first=4, second=1))
    assert opponent_hand(g.events, BOB) == [line_card, None, None, None, None]


def test_a_decree_on_the_hands_shows_each_player_the_card_it_gave():
    g = Given(GAME, start())
    g.then(ANN, ImposeDecree(row="hand", position=2))
    assert opponent_hand(g.events, ANN) == [None, ANN_HAND[1], None, None, None]
    assert opponent_hand(g.events, BOB) == [None, BOB_HAND[1], None, None, None]


def test_the_exchange_gift_is_known_after_the_shuffle_but_not_where():
    dealt = start()[0]
    gift_ann, gift_bob = "naishi_1", "councillor_1"
    hands: dict[str, list[str | None]] = {
        ANN: [*(c for c in ANN_HAND if c != gift_ann), gift_bob],
        BOB: [*(c for c in BOB_HAND if c != gift_bob), gift_ann],
    }
    g = Given(
        GAME,
        [
            dealt,
            CardGiven(player=ANN, card=gift_ann),
            CardGiven(player=BOB, card=gift_bob),
            HandsShuffled(hands=hands),
        ],
    )
    view = player_view(g.state, ANN)["territories"][BOB]
    assert view["hand"] == [None] * 5 and view["hand_known_unplaced"] == [gift_ann]
    # Bob discards it by a Develop at its position: it is gone from what Ann knows is there.
    state = g.state
    position = state.hands[BOB].index(gift_ann) + 1
    assert state.active is not None
    g.then(state.active, Develop(row="line", position=1))
    if g.state.active == ANN:
        g.then(ANN, EndTurn())
    g.then(BOB, Develop(row="hand", position=position))
    view = player_view(g.state, ANN)["territories"][BOB]
    assert view["hand_known_unplaced"] == []
    assert view["hand"][position - 1] == FULL_RIVER[position - 1][0 if position != 1 else 1]


def test_a_deal_shows_no_known_card():
    dealt = start()[0]
    assert isinstance(dealt, GameSetUp)
    state = Given(GAME, [dealt]).state
    assert state.known == {ANN: (None,) * 5, BOB: (None,) * 5}
