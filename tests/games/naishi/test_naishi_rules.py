"""Naishi rules, given/when/then from events (RULES.md 1.1, Naishi 1-16, N-5 and N-6)."""

from __future__ import annotations

from collections import Counter
from random import Random

import msgspec
import pytest

from shared.games.decider import Context, Rejection, fold
from shared.games.naishi import GAME
from shared.games.naishi.components import FirstPlayer, development_deck, kind_of
from shared.games.naishi.messages import (
    CardGiven,
    CardsSwapped,
    ChooseNinjaCopy,
    DeclareEnd,
    DecreeImposed,
    Develop,
    Developed,
    DiscardRiverCards,
    EmissariesRecalled,
    EndTriggered,
    EndTurn,
    GameSetUp,
    GiveCard,
    HandsRevealed,
    HandsShuffled,
    ImposeDecree,
    NaishiOptions,
    NinjaCopied,
    RecallEmissaries,
    RiverCardsDiscarded,
    SwapCards,
    TurnEnded,
    TurnPassed,
)
from shared.games.naishi.rules import decide, legal_commands, players_to_act, setup
from shared.games.naishi.state import State
from shared.games.table import Create, Join, Start, TableDecider
from shared.games.testing import Given, accepted, as_type, unredacted
from tests.games.naishi.naishi_support import (
    ANN,
    ANN_HAND,
    ANN_LINE,
    BOB,
    BOB_HAND,
    BOB_LINE,
    FULL_RIVER,
    start,
)

DECIDER = TableDecider(GAME)


def table_after(*commands, seed: int = 0, options: dict | None = None):
    """A real table (create, join, start) then game commands as (actor, command) pairs."""
    table = DECIDER.initial_state
    rng = Random(seed)
    steps = [(ANN, Create(options=options or {}, seats=2)), (BOB, Join()), (ANN, Start())]
    for actor, command in [*steps, *commands]:
        events = accepted(DECIDER.decide(table, command, Context(actor=actor, rng=rng)))
        table = fold(DECIDER.evolve, events, table)
    return table


def dealt(seed: int = 0, first_player: FirstPlayer = "random") -> GameSetUp:
    (event,) = accepted(setup(NaishiOptions(first_player=first_player), (ANN, BOB), Random(seed)))
    return as_type(event, GameSetUp)


# --- setup (Naishi 1-6) ---------------------------------------------------------------------


def test_naishi_1_exactly_two_players():
    """Naishi 1: a table of 3 is refused at create; setup refuses a wrong player count."""
    table = DECIDER.initial_state
    out = DECIDER.decide(table, Create(seats=3), Context(actor=ANN, rng=Random(0)))
    assert isinstance(out, Rejection) and out.code == "bad_option"
    out = setup(NaishiOptions(), (ANN,), Random(0))
    assert isinstance(out, Rejection) and out.code == "bad_player_count"


def test_naishi_1_first_player_drawn_at_random_by_default():
    """Naishi 1 (RULES.md 1.3 #6): random first player, recorded in the setup event."""
    firsts = {dealt(seed).first_player for seed in range(20)}
    assert firsts == {ANN, BOB}


def test_naishi_1_first_player_option():
    """Naishi 1: the ASSUMED random start is a table option."""
    assert dealt(1, "first_seat").first_player == ANN
    assert dealt(1, "second_seat").first_player == BOB


def test_naishi_1_bad_first_player_option_is_refused_at_create():
    out = DECIDER.decide(
        DECIDER.initial_state,
        Create(options={"first_player": "oldest"}, seats=2),
        Context(actor=ANN, rng=Random(0)),
    )
    assert isinstance(out, Rejection) and out.code == "bad_option"
    assert "first_player must be one of random, first_seat, second_seat" in out.message
    out = DECIDER.decide(
        DECIDER.initial_state,
        Create(options={"colour": 3}, seats=2),
        Context(actor=ANN, rng=Random(0)),
    )
    assert isinstance(out, Rejection) and out.code == "bad_option"


def test_naishi_2_each_player_has_two_emissaries():
    state = Given(GAME, [dealt()]).state
    assert state.reserve == {ANN: 2, BOB: 2}
    assert set(state.court.values()) == {None}


def test_naishi_3_lines_of_five_mountains():
    event = dealt()
    for p in (ANN, BOB):
        assert [kind_of(c) for c in event.lines[p]] == ["mountain"] * 5


def test_naishi_4_deal_of_the_34_development_cards():
    """Naishi 4: 2 Development cards + 3 Mountains per Hand; River of 5 piles of 6."""
    event = dealt(3)
    kinds = {p: Counter(kind_of(c) for c in unredacted(event.hands[p])) for p in (ANN, BOB)}
    assert all(k["mountain"] == 3 and sum(k.values()) == 5 for k in kinds.values())
    assert [len(pile) for pile in event.river] == [6] * 5
    dev = [c for p in (ANN, BOB) for c in unredacted(event.hands[p]) if kind_of(c) != "mountain"]
    dev += [c for pile in event.river for c in unredacted(pile)]
    assert sorted(dev) == sorted(development_deck()) and len(dev) == 34
    assert dealt(3) == event and dealt(4) != event  # shuffled from the rng only


def test_naishi_4_river_tops_are_revealed_and_the_rest_hidden():
    state = Given(GAME, [dealt()]).state
    view = GAME.player_view(state, ANN)
    assert [p["size"] for p in view["river"]] == [6] * 5
    assert [p["top"] for p in view["river"]] == [pile[0] for pile in state.river]
    redacted = as_type(GAME.redact(dealt(), BOB), GameSetUp)
    assert all(pile[0] and pile[1:] == [None] * 5 for pile in redacted.river)


def test_naishi_5_opening_exchange_is_simultaneous_and_hidden():
    """Naishi 5: both give at once; the given card is hidden until both chose."""
    deal = dealt(5)
    state = Given(GAME, [deal]).state
    assert players_to_act(state) == [ANN, BOB]
    ann_offer = sorted(c for c in unredacted(deal.hands[ANN]) if kind_of(c) != "mountain")
    assert legal_commands(state, ANN) == [GiveCard(card=c) for c in ann_offer]
    out = Given(GAME, [deal]).when(ANN, GiveCard(card=ann_offer[0]))
    assert out == [CardGiven(player=ANN, card=ann_offer[0])]
    after = Given(GAME, [deal, *out]).state
    assert players_to_act(after) == [BOB]
    assert GAME.redact(out[0], BOB) == CardGiven(player=ANN, card=None)
    assert GAME.redact(out[0], None) == CardGiven(player=ANN, card=None)
    assert GAME.player_view(after, BOB).get("my_gift") is None
    assert ann_offer[0] not in str(GAME.player_view(after, BOB))
    assert GAME.player_view(after, ANN)["my_gift"] == ann_offer[0]


def test_naishi_5_hands_are_shuffled_after_the_exchange():
    deal = dealt(5)
    ann_gives = sorted(c for c in unredacted(deal.hands[ANN]) if kind_of(c) != "mountain")[1]
    bob_gives = sorted(c for c in unredacted(deal.hands[BOB]) if kind_of(c) != "mountain")[0]
    g = Given(GAME, [deal])
    g.then(ANN, GiveCard(card=ann_gives))
    g.then(BOB, GiveCard(card=bob_gives), Random(9))
    shuffled = g.events[-1]
    assert isinstance(shuffled, HandsShuffled)
    ann_hand = shuffled.hands[ANN]
    assert bob_gives in ann_hand and ann_gives not in ann_hand
    assert sorted(unredacted(ann_hand)) == sorted(
        [c for c in unredacted(deal.hands[ANN]) if c != ann_gives] + [bob_gives]
    )
    assert Counter(kind_of(c) for c in unredacted(ann_hand))["mountain"] == 3
    # The positions come from the rng: other seeds give other orders.
    orders = set()
    for seed in range(10):
        again = Given(GAME, g.events[:2]).accepts(BOB, GiveCard(card=bob_gives), Random(seed))
        orders.add(tuple(as_type(again[-1], HandsShuffled).hands[ANN]))
    assert len(orders) > 1
    state = g.state
    assert state.phase == "turns" and state.active == deal.first_player


def test_naishi_5_exchange_rejections():
    deal = dealt(5)
    mountain = next(c for c in unredacted(deal.hands[ANN]) if kind_of(c) == "mountain")
    assert Given(GAME, [deal]).refused(ANN, GiveCard(card=mountain)) == "card_not_in_hand"
    bob_card = next(c for c in unredacted(deal.hands[BOB]) if kind_of(c) != "mountain")
    assert Given(GAME, [deal]).refused(ANN, GiveCard(card=bob_card)) == "card_not_in_hand"
    offer = sorted(c for c in unredacted(deal.hands[ANN]) if kind_of(c) != "mountain")
    g = Given(GAME, [deal])
    g.then(ANN, GiveCard(card=offer[0]))
    assert g.refused(ANN, GiveCard(card=offer[1])) == "not_your_turn"  # given: bob is awaited
    assert Given(GAME, [deal]).refused(ANN, Develop(row="line", position=1)) == "wrong_phase"
    assert Given(GAME, start()).refused(ANN, GiveCard(card="naishi_1")) == "wrong_phase"


def test_naishi_6_first_player_starts_and_turns_alternate():
    g = Given(GAME, start(first=BOB))
    assert players_to_act(g.state) == [BOB]
    assert g.refused(ANN, Develop(row="line", position=1)) == "not_your_turn"
    g.then(BOB, Develop(row="line", position=1))
    g.then(BOB, EndTurn())
    assert g.events[-1] == TurnEnded(player=BOB, next_player=ANN)
    assert players_to_act(g.state) == [ANN]


def test_naishi_6_through_the_table():
    """Naishi 1-6 end to end on a real table: create, join, start, exchange."""
    table = table_after(options={"first_player": "second_seat"})
    game: State = table.game
    gifts = [
        (p, GiveCard(card=next(c for c in game.hands[p] if kind_of(c) != "mountain"))) for p in (BOB, ANN)
    ]
    table = table_after(*gifts, options={"first_player": "second_seat"})
    assert table.game.phase == "turns"
    assert DECIDER.players_to_act(table) == [BOB]


# --- Develop (Naishi 7) ---------------------------------------------------------------------


def test_naishi_7_develop_replaces_the_card_at_the_same_position():
    g = Given(GAME, start())
    out = g.when(ANN, Develop(row="hand", position=2))
    pile = FULL_RIVER[1]
    assert out == [
        Developed(player=ANN, row="hand", position=2, discarded="naishi_1", taken=pile[0], revealed=pile[1])
    ]
    state = Given(GAME, [*g.events, *out]).state
    assert state.hands[ANN][1] == pile[0]
    assert state.discard == ("naishi_1",)
    assert state.river[1] == tuple(pile[1:])
    assert state.active == ANN  # a bonus is still open
    # The discarded Hand card is public: the opponent and spectators see it in the Discard.
    assert GAME.player_view(state, BOB)["discard"] == ["naishi_1"]
    assert GAME.player_view(state, None)["river"][1] == {"top": pile[1], "size": 5}


def test_naishi_7_develop_needs_a_card_in_the_pile():
    river = [FULL_RIVER[0], [], FULL_RIVER[2], FULL_RIVER[3], FULL_RIVER[4]]
    g = Given(GAME, start(river=river))
    assert g.refused(ANN, Develop(row="line", position=2)) == "pile_empty"
    assert Develop(row="line", position=2) not in legal_commands(g.state, ANN)


def test_naishi_7_develop_rejects_bad_row_and_position():
    g = Given(GAME, start())
    assert g.refused(ANN, Develop(row="river", position=1)) == "bad_row"
    assert g.refused(ANN, Develop(row="line", position=6)) == "bad_position"
    assert g.refused(ANN, Develop(row="line", position=0)) == "bad_position"


def test_naishi_7_one_develop_per_turn():
    g = Given(GAME, start())
    g.then(ANN, Develop(row="line", position=1))
    assert g.refused(ANN, Develop(row="line", position=2)) == "already_developed"


def test_naishi_7_last_card_of_a_pile_reveals_nothing():
    river = [["rice_1"], *FULL_RIVER[1:]]
    out = Given(GAME, start(river=river)).accepts(ANN, Develop(row="line", position=1))
    assert as_type(out[0], Developed).revealed is None
    assert Given(GAME, [*start(river=river), *out]).state.river[0] == ()


# --- bonus actions (Naishi 8) ---------------------------------------------------------------


def test_naishi_8_swap_before_develop_then_develop_is_required():
    g = Given(GAME, start())
    g.then(ANN, SwapCards(kind="line", first=1, second=2))
    assert g.events[-1] == CardsSwapped(player=ANN, spot="swap_1", kind="line", first=1, second=2)
    state = g.state
    assert state.lines[ANN][:2] == ("mountain_2", "mountain_1")  # identical cards: legal
    assert state.reserve[ANN] == 1 and state.court["swap_1"] == ANN
    assert state.active == ANN
    assert {type(c) for c in legal_commands(state, ANN)} == {Develop}
    # Ending the turn now would skip the obliged Develop: the code and message say so.
    assert g.refused(ANN, EndTurn()) == "must_develop"
    assert "develop now" in g.rejects(ANN, EndTurn()).message
    assert g.refused(ANN, ImposeDecree(row="line", position=1)) == "must_develop"
    assert g.refused(ANN, RecallEmissaries()) == "must_develop"
    assert g.refused(ANN, DeclareEnd()) == "must_develop"
    assert g.refused(ANN, DiscardRiverCards(first=1, second=2)) == "bonus_already_used"
    # Develop closes the turn: the bonus is used.
    events = g.then(ANN, Develop(row="line", position=3))
    assert events[-1] == TurnEnded(player=ANN, next_player=BOB)


def test_naishi_8_swap_after_develop_closes_the_turn():
    g = Given(GAME, start())
    g.then(ANN, Develop(row="line", position=1))
    g.then(ANN, SwapCards(kind="hand_line", first=2))
    assert g.events[-2:] == [
        CardsSwapped(player=ANN, spot="swap_1", kind="hand_line", first=2, second=2),
        TurnEnded(player=ANN, next_player=BOB),
    ]
    state = g.state
    assert state.lines[ANN][1] == "naishi_1" and state.hands[ANN][1] == "mountain_2"


def test_naishi_8_swap_kinds():
    """Naishi 8: River/River, Line/Line, Hand/Hand, Hand/Line at the same position."""
    g = Given(GAME, start())
    g.then(ANN, SwapCards(kind="river", first=1, second=5))
    state = g.state
    assert state.river[0][0] == FULL_RIVER[4][0] and state.river[4][0] == FULL_RIVER[0][0]
    assert state.river[0][1:] == tuple(FULL_RIVER[0][1:])
    g = Given(GAME, start())
    g.then(ANN, SwapCards(kind="hand", first=2, second=4))
    state = g.state
    assert state.hands[ANN] == ("mountain_6", "fort_1", "mountain_7", "naishi_1", "mountain_8")


def test_naishi_8_swap_rejections():
    g = Given(GAME, start())
    assert g.refused(ANN, SwapCards(kind="diagonal", first=1, second=2)) == "bad_swap_kind"
    assert g.refused(ANN, SwapCards(kind="line", first=3, second=3)) == "same_position"
    assert g.refused(ANN, SwapCards(kind="line", first=3)) == "bad_position"
    assert g.refused(ANN, SwapCards(kind="hand", first=0, second=3)) == "bad_position"
    # A Hand card is only swapped with the Line card at the same position (RULES.md 1.3 #1).
    assert g.refused(ANN, SwapCards(kind="hand_line", first=1, second=2)) == "bad_position"
    river = [FULL_RIVER[0], [], *FULL_RIVER[2:]]
    code = Given(GAME, start(river=river)).refused(ANN, SwapCards(kind="river", first=1, second=2))
    assert code == "pile_empty"


def test_naishi_8_thirty_five_swaps_with_a_full_river():
    """RULES.md 1.3 #1: 10 River + 10 Line + 10 Hand + 5 Hand/Line swaps."""
    swaps = [c for c in legal_commands(Given(GAME, start()).state, ANN) if isinstance(c, SwapCards)]
    assert Counter(c.kind for c in swaps) == {"river": 10, "line": 10, "hand": 10, "hand_line": 5}


def test_naishi_8_discard_two_river_cards():
    g = Given(GAME, start())
    g.then(ANN, DiscardRiverCards(first=2, second=4))
    assert g.events[-1] == RiverCardsDiscarded(
        player=ANN,
        spot="discard_1",
        piles=[2, 4],
        discarded=[FULL_RIVER[1][0], FULL_RIVER[3][0]],
        revealed=[FULL_RIVER[1][1], FULL_RIVER[3][1]],
    )
    state = g.state
    assert state.discard == (FULL_RIVER[1][0], FULL_RIVER[3][0])
    assert state.court["discard_1"] == ANN


def test_naishi_8_discard_rejections():
    g = Given(GAME, start())
    assert g.refused(ANN, DiscardRiverCards(first=2, second=2)) == "same_position"
    assert g.refused(ANN, DiscardRiverCards(first=2, second=9)) == "bad_position"
    river = [["rice_1"], [], [], ["rice_2"], []]
    g = Given(GAME, start(river=river))
    assert g.refused(ANN, DiscardRiverCards(first=1, second=2)) == "pile_empty"
    # RULES.md 1.3 #2: not before the Develop when it would leave nothing to develop.
    assert g.refused(ANN, DiscardRiverCards(first=1, second=4)) == "nothing_to_develop"
    assert not any(isinstance(c, DiscardRiverCards) for c in legal_commands(g.state, ANN))


def test_naishi_8_discard_after_develop_may_empty_the_river():
    river = [["rice_1"], [], ["rice_3"], ["rice_2"], []]
    g = Given(GAME, start(river=river))
    g.then(ANN, Develop(row="line", position=3))
    g.then(ANN, DiscardRiverCards(first=1, second=4))
    assert g.state.river_size() == 0


def test_naishi_8_swap_before_develop_needs_a_river_card():
    river: list[list[str]] = [[], [], [], [], []]
    code = Given(GAME, start(river=river)).refused(ANN, SwapCards(kind="line", first=1, second=2))
    assert code == "nothing_to_develop"


def both_emissaries_out(swap_spot: str) -> Given:
    """Ann's two Emissaries out of her reserve (one on a Decree, one on `swap_spot`), and her
    turn again."""
    return Given(
        GAME,
        [
            *start(),
            DecreeImposed(player=ANN, row="line", position=5),
            CardsSwapped(player=ANN, spot=swap_spot, kind="line", first=1, second=2),
            TurnEnded(player=ANN, next_player=BOB),
            TurnEnded(player=BOB, next_player=ANN),
        ],
    )


def test_naishi_8_at_most_one_bonus_per_turn_needs_an_emissary_and_a_free_spot():
    """Naishi 8 (RULES.md 1.3 #9): one bonus a turn; an Emissary; a free Court spot."""
    g = Given(GAME, start())
    g.then(ANN, SwapCards(kind="line", first=1, second=2))
    assert g.refused(ANN, SwapCards(kind="line", first=1, second=2)) == "bonus_already_used"
    # No Emissary left in the reserve (one on the Decree, one on a Swap spot).
    g = both_emissaries_out("swap_2")
    assert g.state.reserve[ANN] == 0
    assert g.refused(ANN, SwapCards(kind="line", first=1, second=3)) == "no_emissary"
    assert not any(isinstance(c, SwapCards) for c in legal_commands(g.state, ANN))
    # Every Discard spot taken (by the opponent's Emissaries).
    g = Given(
        GAME,
        [
            *start(),
            RiverCardsDiscarded(
                player=BOB,
                spot="discard_1",
                piles=[1, 2],
                discarded=[FULL_RIVER[0][0], FULL_RIVER[1][0]],
                revealed=[FULL_RIVER[0][1], FULL_RIVER[1][1]],
            ),
            RiverCardsDiscarded(
                player=BOB,
                spot="discard_2",
                piles=[3, 4],
                discarded=[FULL_RIVER[2][0], FULL_RIVER[3][0]],
                revealed=[FULL_RIVER[2][1], FULL_RIVER[3][1]],
            ),
        ],
    )
    g.events += [TurnEnded(player=ANN, next_player=BOB), TurnEnded(player=BOB, next_player=ANN)]
    assert g.refused(ANN, DiscardRiverCards(first=1, second=5)) == "court_spot_taken"


def test_naishi_8_develop_ends_the_turn_when_no_bonus_is_left():
    """After the Develop, a player with no Emissary left has nothing more to do."""
    g = both_emissaries_out("swap_2")
    out = g.accepts(ANN, Develop(row="line", position=1))
    assert [type(e) for e in out] == [Developed, TurnEnded]


def test_naishi_8_end_turn_before_any_action_is_refused():
    """Naishi 7-10: a turn is at least one main action; `end_turn` alone is not one."""
    assert Given(GAME, start()).refused(ANN, EndTurn()) == "no_main_action_yet"
    assert EndTurn() not in legal_commands(Given(GAME, start()).state, ANN)


def test_naishi_8_end_turn_after_develop_gives_the_bonus_up():
    g = Given(GAME, start())
    g.then(ANN, Develop(row="line", position=1))
    assert EndTurn() in legal_commands(g.state, ANN)
    g.then(ANN, EndTurn())
    assert g.events[-1] == TurnEnded(player=ANN, next_player=BOB)
    assert g.state.reserve[ANN] == 2


# --- Decree (Naishi 9) ----------------------------------------------------------------------


def test_naishi_9_decree_exchanges_same_position_and_ends_the_turn():
    g = Given(GAME, start())
    g.then(ANN, ImposeDecree(row="hand", position=2))
    assert g.events[-2:] == [
        DecreeImposed(player=ANN, row="hand", position=2),
        TurnEnded(player=ANN, next_player=BOB),
    ]
    state = g.state
    assert state.hands[ANN][1] == BOB_HAND[1] and state.hands[BOB][1] == ANN_HAND[1]
    assert state.court["decree"] == ANN and state.reserve[ANN] == 1


def test_naishi_9_decree_line_exchange():
    line = ["fort_1", *ANN_LINE[1:]]
    g = Given(GAME, start(ann_line=line))
    g.then(ANN, ImposeDecree(row="line", position=1))
    state = g.state
    assert state.lines[ANN][0] == BOB_LINE[0] and state.lines[BOB][0] == "fort_1"


def test_naishi_9_decree_once_per_game_and_its_emissary_never_returns():
    g = Given(GAME, start())
    g.then(ANN, ImposeDecree(row="hand", position=2))
    assert g.refused(BOB, ImposeDecree(row="line", position=1)) == "court_spot_taken"
    g.then(BOB, Develop(row="line", position=1))
    g.then(BOB, EndTurn())
    # Ann's only Emissary on the Court is the Decree's: nothing to recall.
    assert g.refused(ANN, RecallEmissaries()) == "nothing_to_recall"


def test_naishi_9_no_decree_after_develop_nor_without_an_emissary():
    g = Given(GAME, start())
    g.then(ANN, Develop(row="line", position=1))
    assert g.refused(ANN, ImposeDecree(row="line", position=1)) == "main_action_taken"
    assert Given(GAME, start()).refused(ANN, ImposeDecree(row="middle", position=1)) == "bad_row"
    g = Given(
        GAME,
        [
            *start(),
            CardsSwapped(player=ANN, spot="swap_1", kind="line", first=1, second=2),
            CardsSwapped(player=ANN, spot="swap_2", kind="line", first=1, second=2),
            TurnEnded(player=ANN, next_player=BOB),
            TurnEnded(player=BOB, next_player=ANN),
        ],
    )
    assert g.refused(ANN, ImposeDecree(row="line", position=1)) == "no_emissary"
    assert not any(isinstance(c, ImposeDecree) for c in legal_commands(g.state, ANN))


# --- Recall (Naishi 10) ---------------------------------------------------------------------


def test_naishi_10_recall_returns_swap_and_discard_emissaries_only():
    g = both_emissaries_out("swap_1")
    assert g.state.reserve[ANN] == 0
    assert RecallEmissaries() in legal_commands(g.state, ANN)
    g.then(ANN, RecallEmissaries())
    assert g.events[-2:] == [
        EmissariesRecalled(player=ANN, spots=["swap_1"]),
        TurnEnded(player=ANN, next_player=BOB),
    ]
    state = g.state
    assert state.reserve[ANN] == 1 and state.court["decree"] == ANN
    assert state.court["swap_1"] is None


def test_naishi_10_nothing_to_recall():
    assert Given(GAME, start()).refused(ANN, RecallEmissaries()) == "nothing_to_recall"


# --- Declare the end (Naishi 11) and the automatic end (Naishi 12) --------------------------


def short_river() -> list[list[str]]:
    """Piles 3 and 5 hold one card each; the others hold two."""
    cards = [c for pile in FULL_RIVER for c in pile]
    return [cards[0:2], cards[2:4], cards[4:5], cards[5:7], cards[7:8]]


def test_naishi_11_declare_needs_an_empty_pile():
    assert Given(GAME, start()).refused(ANN, DeclareEnd()) == "no_empty_pile"
    assert DeclareEnd() not in legal_commands(Given(GAME, start()).state, ANN)


@pytest.mark.parametrize("declarer", [ANN, BOB])
def test_naishi_11_declare_gives_the_opponent_one_final_turn(declarer):
    """Naishi 11 (RULES.md 1.3 #7, publisher Q15): whoever declares, the other plays once."""
    other = BOB if declarer == ANN else ANN
    g = Given(GAME, start(first=declarer, river=short_river()))
    g.then(declarer, Develop(row="line", position=3))  # pile 3 empties
    g.then(declarer, EndTurn())
    g.then(other, Develop(row="line", position=1))
    g.then(other, EndTurn())
    assert DeclareEnd() in legal_commands(g.state, declarer)
    g.then(declarer, DeclareEnd())
    assert g.events[-2:] == [
        EndTriggered(player=declarer, reason="declared", final_player=other),
        TurnEnded(player=declarer, next_player=other),
    ]
    assert g.refused(other, DeclareEnd()) == "end_already_triggered"
    g.then(other, Develop(row="hand", position=1))
    g.then(other, EndTurn())
    assert isinstance(g.events[-1], HandsRevealed | NinjaCopied)
    assert GAME.is_terminal(g.state)


def _n5_start():
    g = Given(GAME, start(river=short_river()))
    g.then(ANN, Develop(row="line", position=3))  # pile 3 empty: 1 empty pile
    g.then(ANN, EndTurn())
    assert g.events[-1] == TurnEnded(player=ANN, next_player=BOB)
    # "Nothing happens": one empty pile does not trigger the end.
    state = g.state
    assert state.empty_piles() == 1 and state.end_reason is None
    assert not any(isinstance(e, EndTriggered) for e in g.events)
    return g.events


def test_naishi_12_n5_second_player_empties_the_second_pile_game_ends_now():
    """N-5: Seat 1 empties pile 3: nothing; Seat 2 empties pile 5: the game ends at once."""
    g = Given(GAME, _n5_start())
    g.then(BOB, Develop(row="line", position=5))
    g.then(BOB, EndTurn())
    kinds = [type(e) for e in g.events[-3:]]
    assert g.events[-3] == EndTriggered(player=BOB, reason="two_piles_empty", final_player=None)
    assert kinds[1:] == [TurnEnded, HandsRevealed]
    assert g.events[-2] == TurnEnded(player=BOB, next_player=None)
    assert GAME.is_terminal(g.state) and players_to_act(g.state) == []


def test_naishi_12_n5_first_player_empties_the_second_pile_second_plays_once_more():
    """N-5: had Seat 1 emptied the 2nd pile, Seat 2 plays one more turn."""
    g = Given(GAME, _n5_start())
    g.then(BOB, Develop(row="line", position=1))
    g.then(BOB, EndTurn())
    g.then(ANN, Develop(row="line", position=5))
    g.then(ANN, EndTurn())
    assert g.events[-2:] == [
        EndTriggered(player=ANN, reason="two_piles_empty", final_player=BOB),
        TurnEnded(player=ANN, next_player=BOB),
    ]
    assert not GAME.is_terminal(g.state)
    g.then(BOB, Develop(row="hand", position=1))
    g.then(BOB, EndTurn())
    assert GAME.is_terminal(g.state)


def test_naishi_12_n5_second_player_declares_first_player_plays_a_final_turn():
    """N-5: Seat 2 declares with 1 empty pile: Seat 1 plays one final turn."""
    g = Given(GAME, _n5_start())
    g.then(BOB, DeclareEnd())
    assert g.events[-2] == EndTriggered(player=BOB, reason="declared", final_player=ANN)
    assert players_to_act(g.state) == [ANN]
    g.then(ANN, Develop(row="line", position=1))
    g.then(ANN, EndTurn())
    assert GAME.is_terminal(g.state)


def test_naishi_12_empty_piles_during_the_final_turn_change_nothing():
    """Naishi 12: the automatic end only applies while the end is not triggered."""
    g = Given(GAME, _n5_start())
    g.then(BOB, DeclareEnd())
    g.then(ANN, Develop(row="line", position=5))  # 2nd empty pile
    g.then(ANN, EndTurn())
    assert sum(isinstance(e, EndTriggered) for e in g.events) == 1


# --- no legal action (Naishi 13) ------------------------------------------------------------


def test_naishi_13_a_player_without_main_action_passes():
    """Naishi 13: the River empty, the Decree taken, nothing to recall, the end triggered.

    (This cannot happen with a full base River: the end triggers before 5 piles are empty.
    The history here is built by hand.)"""
    river = [["rice_1"], [], [], [], []]
    g = Given(GAME, [*start(river=river), DecreeImposed(player=ANN, row="line", position=5)])
    g.then(ANN, Develop(row="line", position=1))
    g.then(ANN, EndTurn())
    assert g.events[-5:-2] == [
        EndTriggered(player=ANN, reason="two_piles_empty", final_player=BOB),
        TurnEnded(player=ANN, next_player=BOB),
        TurnPassed(player=BOB),
    ]
    assert g.events[-2] == TurnEnded(player=BOB, next_player=None)
    assert GAME.is_terminal(g.state)


# --- end of game (Naishi 14-16) -------------------------------------------------------------


def ninja_end(ann_line, ann_hand):
    """A game whose last turn (Bob's, second player, emptying the 2nd pile) is to come."""
    river = [["rice_4", "rice_5"], ["torii_1", "torii_2"], ["torii_3", "torii_4"], ["banner_1"], ["fort_4"]]
    g = Given(GAME, start(ann_line=ann_line, ann_hand=ann_hand, river=river))
    g.then(ANN, Develop(row="line", position=5))
    g.then(ANN, EndTurn())
    g.then(BOB, Develop(row="line", position=4))
    g.then(BOB, EndTurn())
    return g.events


def test_naishi_14_hands_revealed_at_the_end():
    g = Given(GAME, ninja_end(ANN_LINE, ANN_HAND))
    state = g.state
    revealed = next(e for e in g.events if isinstance(e, HandsRevealed))
    assert revealed.hands == {p: list(state.hands[p]) for p in (ANN, BOB)}
    for viewer in (ANN, BOB, None):
        view = GAME.player_view(state, viewer)
        assert view["territories"][ANN]["hand"] == list(state.hands[ANN])
        assert view["territories"][BOB]["hand"] == list(state.hands[BOB])
        assert set(view["scores"]) == {ANN, BOB}


def test_naishi_14_hands_hidden_before_the_end():
    state = Given(GAME, start()).state
    assert GAME.player_view(state, BOB)["territories"][ANN]["hand"] == [None] * 5
    assert GAME.player_view(state, None)["territories"][BOB]["hand"] == [None] * 5
    assert GAME.player_view(state, ANN)["territories"][ANN]["hand"] == ANN_HAND
    assert "scores" not in GAME.player_view(state, ANN)


def test_naishi_16_ninja_with_one_candidate_copies_automatically():
    hand = ["ninja_1", "monk_1", "mountain_7", "fort_1", "mountain_8"]
    g = Given(GAME, ninja_end(ANN_LINE, hand))
    assert NinjaCopied(player=ANN, row="hand", position=1, copies="monk", automatic=True) in g.events
    assert GAME.is_terminal(g.state)


def test_naishi_16_ninja_with_no_candidate_copies_nothing():
    hand = ["ninja_1", "rice_1", "mountain_7", "fort_1", "mountain_8"]
    g = Given(GAME, ninja_end(ANN_LINE, hand))
    assert NinjaCopied(player=ANN, row="hand", position=1, copies=None, automatic=True) in g.events


def test_naishi_16_owner_chooses_among_several_candidates():
    """Naishi 16 / N-3: the owner chooses; the game waits for it."""
    line = ["mountain_1", "councillor_2", "ninja_1", "councillor_3", "mountain_5"]
    hand = ["fort_2", "monk_1", "naishi_1", "sentinel_2", "fort_3"]
    g = Given(GAME, ninja_end(line, hand))
    state = g.state
    assert not GAME.is_terminal(state)
    assert players_to_act(state) == [ANN]
    assert sorted(as_type(c, ChooseNinjaCopy).copies for c in legal_commands(state, ANN)) == [
        "councillor",
        "monk",
        "naishi",
        "sentinel",
    ]
    view = GAME.player_view(state, ANN)
    assert view["ninja_choices"] == {"line:3": ["naishi", "councillor", "sentinel", "monk"]}
    assert "ninja_choices" not in GAME.player_view(state, BOB)
    assert g.refused(ANN, ChooseNinjaCopy(row="line", position=3, copies="fort")) == "cannot_copy"
    assert g.refused(ANN, ChooseNinjaCopy(row="line", position=2, copies="monk")) == "not_a_ninja"
    assert g.refused(BOB, ChooseNinjaCopy(row="line", position=3, copies="monk")) == "not_your_turn"
    assert g.refused(ANN, Develop(row="line", position=1)) == "wrong_phase"
    g.then(ANN, ChooseNinjaCopy(row="line", position=3, copies="naishi"))
    state = g.state
    assert GAME.is_terminal(state)
    result = GAME.result(state)
    assert result.details["scores"][ANN]["by_kind"]["ninja"] == 12


def test_naishi_16_two_ninjas_choose_one_at_a_time():
    line = ["ninja_1", "councillor_2", "ninja_2", "councillor_3", "mountain_5"]
    hand = ["fort_2", "monk_1", "naishi_1", "sentinel_2", "fort_3"]
    g = Given(GAME, ninja_end(line, hand))
    g.then(ANN, ChooseNinjaCopy(row="line", position=1, copies="monk"))
    assert not GAME.is_terminal(g.state)
    assert g.refused(ANN, ChooseNinjaCopy(row="line", position=1, copies="naishi")) == "already_chosen"
    g.then(ANN, ChooseNinjaCopy(row="line", position=3, copies="naishi"))
    assert GAME.is_terminal(g.state)
    assert g.state.copies[ANN] == {"line:1": "monk", "line:3": "naishi"}


def test_naishi_16_choose_outside_the_end_is_the_wrong_phase():
    code = Given(GAME, start()).refused(ANN, ChooseNinjaCopy(row="line", position=1, copies="monk"))
    assert code == "wrong_phase"


def test_naishi_16_bot_copies_the_best_card():
    line = ["mountain_1", "councillor_2", "ninja_1", "councillor_3", "mountain_5"]
    hand = ["fort_2", "monk_1", "naishi_1", "sentinel_2", "fort_3"]
    state = Given(GAME, ninja_end(line, hand)).state
    view = GAME.player_view(state, ANN)
    view["legal"] = msgspec.to_builtins(legal_commands(state, ANN))
    for seed in range(5):
        assert GAME.bot(view, Random(seed)) == {
            "type": "choose_ninja_copy",
            "row": "line",
            "position": 3,
            "copies": "naishi",
        }


# --- winner (Naishi 15) ---------------------------------------------------------------------


def final_state(ann_line, ann_hand, bob_line, bob_hand) -> State:
    return Given(
        GAME,
        [
            *start(ann_line=ann_line, ann_hand=ann_hand, bob_line=bob_line, bob_hand=bob_hand),
            TurnEnded(player=ANN, next_player=None),
            HandsRevealed(hands={ANN: list(ann_hand), BOB: list(bob_hand)}),
        ],
    ).state


def test_naishi_15_highest_total_wins():
    state = final_state(
        ["fort_1", "mountain_2", "mountain_3", "mountain_4", "fort_2"], ANN_HAND, BOB_LINE, BOB_HAND
    )
    result = GAME.result(state)
    assert result.winners == [ANN]
    assert result.scores == {p: result.details["scores"][p]["total"] for p in (ANN, BOB)}


M = [f"mountain_{n}" for n in range(17)]  # M[1]..M[16]
# Bob: Fort 6, Mountains -5, a lone Sentinel 3, Monk in Hand 5 = 9; colours 4.
TIE_BOB_LINE = ["fort_2", M[9], "sentinel_1", M[11], M[12]]
TIE_BOB_HAND = [M[13], M[14], M[15], "monk_2", M[16]]


def test_naishi_15_equal_totals_and_colours_share_the_victory():
    """Naishi 15 (RULES.md 1.3 #5): still tied after the colours -> shared victory."""
    # Ann: Fort 6, Mountains -5, Monk 5, Knight in Hand 3 = 9; white, brown, orange, dark blue.
    ann_line = ["fort_1", M[2], M[3], M[4], M[5]]
    ann_hand = [M[6], M[7], M[8], "monk_1", "knight_1"]
    result = GAME.result(final_state(ann_line, ann_hand, TIE_BOB_LINE, TIE_BOB_HAND))
    assert result.scores == {ANN: 9, BOB: 9}
    assert [result.details["scores"][p]["colours"] for p in (ANN, BOB)] == [4, 4]
    assert [s.rank for s in result.ranking] == [1, 1]
    assert sorted(result.winners) == [ANN, BOB]


def test_naishi_15_equal_totals_broken_by_more_colours():
    """Naishi 15: equal totals -> the territory with more distinct colours wins."""
    # Ann: Fort 6, Mountains -5, Knight in Line 0, Banner 3, Monk 5 = 9; 5 colours.
    ann_line = ["fort_1", "knight_1", "banner_1", M[4], M[5]]
    ann_hand = [M[6], M[7], M[8], "monk_1", M[1]]
    result = GAME.result(final_state(ann_line, ann_hand, TIE_BOB_LINE, TIE_BOB_HAND))
    assert result.scores == {ANN: 9, BOB: 9}
    assert [result.details["scores"][p]["colours"] for p in (ANN, BOB)] == [5, 4]
    assert result.winners == [ANN]
    assert [(s.player, s.rank) for s in result.ranking] == [(ANN, 1), (BOB, 2)]


# --- N-6: legality of a first turn ----------------------------------------------------------


def test_n6_first_turn_legal_choices_with_a_fresh_river():
    """N-6: 10 Develop targets, Swap, Discard, Decree; no Recall, no Declare."""
    legal = legal_commands(Given(GAME, start()).state, ANN)
    kinds = Counter(type(c).__name__ for c in legal)
    assert kinds["Develop"] == 10
    assert kinds["SwapCards"] == 35 and kinds["DiscardRiverCards"] == 10
    assert kinds["ImposeDecree"] == 10
    assert "RecallEmissaries" not in kinds and "DeclareEnd" not in kinds
    assert set(kinds) == {"Develop", "SwapCards", "DiscardRiverCards", "ImposeDecree"}
    assert legal_commands(Given(GAME, start()).state, BOB) == []


# --- other rejections -----------------------------------------------------------------------


def test_commands_before_setup_are_refused():
    out = decide(State(), Develop(row="line", position=1), Context(actor=ANN, rng=Random()))
    assert isinstance(out, Rejection) and out.code == "not_started"


def test_unknown_command_is_refused():
    out = decide(Given(GAME, start()).state, Start(), Context(actor=ANN, rng=Random()))
    assert isinstance(out, Rejection) and out.code == "bad_command"


def test_every_rejection_appends_nothing_through_the_table():
    table = table_after()
    out = DECIDER.decide(table, Develop(row="line", position=1), Context(actor=ANN, rng=Random()))
    assert isinstance(out, Rejection) and out.code == "wrong_phase"
