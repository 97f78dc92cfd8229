"""Illustori rules, given/when/then (RULES.md section 5): every numbered rule, the worked
examples I-1..I-7, every rejection code."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

import msgspec
import pytest

from shared.games.decider import Command, Context, Event, Rejection, fold
from shared.games.illustori import GAME, rules
from shared.games.illustori.chaining import Rules, allowed_letters, letters
from shared.games.illustori.data import CARD_IDS, CARDS, HAND_SIZE, MAX_TEXT_LENGTH
from shared.games.illustori.messages import (
    CardPenalised,
    CardPlayed,
    CardsDrawn,
    CardsSwapped,
    GameSetUp,
    IllustoriOptions,
    LastRoundStarted,
    PassTurn,
    PlayCard,
    ProposeStart,
    StackReshuffled,
    StartPenalised,
    StartProposed,
    SwapCards,
    TurnEnded,
    TurnPassed,
    UsedLettersCleared,
    Vote,
    VoteCast,
    VoteClosed,
)
from shared.games.illustori.rules import legal_commands, players_to_act, result
from shared.games.illustori.state import State, evolve
from shared.games.table import Create, Join, Start, TableDecider
from shared.games.testing import Given, accepted, as_type, rejected, unredacted

P = ("ann", "bob", "cid", "dan", "eve", "fay")
ENGLISH = Rules()
REVERSE = Rules(mode="english_reverse")
REVERSE_END = Rules(mode="english_reverse", reverse_direction="end")
GERMAN = Rules(mode="german_reverse")
NO_REPEAT = Rules(no_repeated_letter=True)
USED = Rules(no_used_letters=True)


def card(n: int) -> str:
    return f"c{n:02d}"


def dealt(n: int = 4, rules: Rules = ENGLISH, stack: list[str] | None = None) -> GameSetUp:
    """ann gets c01-c05, bob c06-c10, ...; the starting card follows; the stack is the rest."""
    players = list(P[:n])
    hands: dict[str, list[str | None]] = {
        p: [card(HAND_SIZE * i + j + 1) for j in range(HAND_SIZE)] for i, p in enumerate(players)
    }
    start = card(HAND_SIZE * n + 1)
    rest = [card(k) for k in range(HAND_SIZE * n + 2, 61)] if stack is None else stack
    return GameSetUp(players=players, rules=rules, hands=hands, stack=list(rest), start_card=start)


def vote_all(g: Given[State], ballots: list[bool]) -> list[Event]:
    """The waiting voters vote in seat order with `ballots`."""
    events: list[Event] = []
    for voter, yes in zip(list(players_to_act(g.state)), ballots, strict=True):
        events += g.then(voter, Vote(yes=yes))
    return events


def started(text: str = "Moon", n: int = 4, rules: Rules = ENGLISH, **kw) -> Given[State]:
    """The starting card named `text` and accepted; bob (the second seat) to play."""
    g = Given(GAME, [dealt(n, rules, **kw)])
    g.then("ann", ProposeStart(text=text))
    vote_all(g, [True] * (n - 1))
    return g


def chain(g: Given[State], actor: str, text: str, accept: bool = True) -> list[Event]:
    """`actor` chains its first card with `text`; everyone votes `accept`."""
    events = g.then(actor, PlayCard(card=g.state.hands[actor][0], text=text))
    if g.state.phase == "voting":
        events += vote_all(g, [accept] * (len(g.state.players) - 1))
    return events


def outcome(g: Given[State], actor: str, text: str) -> Sequence[Event] | Rejection:
    """What `actor` chaining its first card with `text` gives."""
    return g.when(actor, PlayCard(card=g.state.hands[actor][0], text=text))


def is_refused(g: Given[State], actor: str, text: str) -> bool:
    return isinstance(outcome(g, actor, text), Rejection)


def is_penalised(g: Given[State], actor: str, text: str) -> bool:
    played = outcome(g, actor, text)
    assert not isinstance(played, Rejection), played
    return isinstance(played[0], CardPenalised)


def is_put_to_vote(g: Given[State], actor: str, text: str) -> bool:
    played = outcome(g, actor, text)
    return not isinstance(played, Rejection) and isinstance(played[0], CardPlayed)


# --- setup (Illustori 1-3) ------------------------------------------------------------------


def test_setup_deals_five_each_and_reveals_the_starting_card_illustori_1():
    """Illustori 1: shuffle, 5 cards each, the rest is the stack; 2: the top card is revealed."""
    [event] = accepted(GAME.setup(IllustoriOptions(), ("ann", "bob", "cid"), Random(3)))
    setup = as_type(event, GameSetUp)
    assert all(len(h) == HAND_SIZE for h in setup.hands.values())
    cards = [c for h in setup.hands.values() for c in h] + [setup.start_card] + setup.stack
    assert sorted(unredacted(cards)) == sorted(CARD_IDS) and len(CARD_IDS) == 60
    g = Given(GAME, [setup])
    assert g.state.phase == "naming" and players_to_act(g.state) == ["ann"]
    assert g.state.cards_on_table() == [setup.start_card]


def test_deck_size_option_sets_the_deck_illustori_1():
    [event] = accepted(GAME.setup(IllustoriOptions(deck_size=20), ("ann", "bob", "cid"), Random(1)))
    setup = as_type(event, GameSetUp)
    assert len(setup.stack) == 20 - 3 * HAND_SIZE - 1
    cards = [c for h in setup.hands.values() for c in h] + [setup.start_card] + setup.stack
    assert sorted(unredacted(cards)) == sorted(CARD_IDS[:20])


def test_every_card_has_an_id_and_a_picture():
    assert all(cid.startswith("c") and len(CARDS[cid]) > 5 for cid in CARD_IDS)


def test_first_player_names_the_start_without_a_hand_card_illustori_2():
    g = Given(GAME, [dealt()])
    fork = Given(GAME, start=g.state)
    events = fork.then("ann", ProposeStart(text="  Moon  "))
    after = fork.state
    assert events == [StartProposed(player="ann", text="Moon")]
    assert after.hands == g.state.hands and after.phase == "voting"
    assert players_to_act(after) == ["bob", "cid", "dan"]


def test_rejected_start_is_named_again_by_the_same_player_illustori_2():
    """Illustori 2 and 5.3-8 (ASSUMED): the same player names the same card again."""
    g = Given(GAME, [dealt()])
    g.then("ann", ProposeStart(text="Moon"))
    events = vote_all(g, [True, False, False])
    assert events[-1] == VoteClosed(votes={"bob": True, "cid": False, "dan": False}, accepted=False)
    assert g.state.phase == "naming" and players_to_act(g.state) == ["ann"]
    assert g.state.chain == () and g.state.cards_on_table() == [card(21)]


def test_penalised_start_is_named_again_without_a_vote_illustori_2_and_13():
    g = Given(GAME, [dealt(rules=NO_REPEAT)])
    fork = Given(GAME, start=g.state)
    events = fork.then("ann", ProposeStart(text="Annapurna"))
    after = fork.state
    assert events == [StartPenalised(player="ann", text="Annapurna", reasons=["repeated_letter"])]
    assert after.phase == "naming" and players_to_act(after) == ["ann"]


def test_turn_passes_to_the_player_after_the_first_illustori_3():
    g = started("Moon")
    assert g.state.current_text == "Moon" and players_to_act(g.state) == ["bob"]
    chain(g, "bob", "Night")
    chain(g, "cid", "Train")
    chain(g, "dan", "Nest")
    assert players_to_act(g.state) == ["ann"]  # the first player is the last of each cycle
    events = chain(g, "ann", "Tea")
    assert events[-1] == TurnEnded(player="ann", accepted=True, next_player="bob")


# --- a turn (Illustori 4-8) -----------------------------------------------------------------


def test_chain_puts_the_card_on_the_table_and_opens_the_vote_illustori_4():
    g = started("Moon")
    fork = Given(GAME, start=g.state)
    events = fork.then("bob", PlayCard(card="c07", text="Night sky"))
    after = fork.state
    assert events == [CardPlayed(player="bob", card="c07", text="Night sky")]
    assert "c07" not in after.hands["bob"] and after.pending is not None and after.pending.card == "c07"
    assert players_to_act(after) == ["ann", "cid", "dan"]


def test_accepted_chain_becomes_the_current_text_illustori_6():
    g = started("Moon")
    events = chain(g, "bob", "Night sky")
    assert events[-2] == VoteClosed(votes={"ann": True, "cid": True, "dan": True}, accepted=True)
    assert g.state.current_text == "Night sky" and len(g.state.hands["bob"]) == 4
    assert [p.card for p in g.state.chain] == [card(21), "c06"]


def test_swap_discards_and_draws_as_many_illustori_5():
    g = started("Moon")
    fork = Given(GAME, start=g.state)
    events = fork.then("bob", SwapCards(cards=["c06", "c08"]))
    after = fork.state
    assert events == [
        CardsSwapped(player="bob", cards=["c06", "c08"]),
        CardsDrawn(player="bob", cards=["c22", "c23"]),
        TurnEnded(player="bob", accepted=False, next_player="cid"),
    ]
    assert sorted(after.hands["bob"]) == ["c07", "c09", "c10", "c22", "c23"]
    assert after.discard == ("c06", "c08") and after.current_text == "Moon"


def test_swap_with_an_empty_stack_reshuffles_the_discard_illustori_5_and_18():
    """Illustori 18 (ASSUMED): the discard pile is shuffled into a new stack."""
    g = Given(GAME, start=msgspec.structs.replace(started("Moon", stack=[]).state, discard=("c30",)))
    fork = Given(GAME, start=g.state)
    events = fork.then("bob", SwapCards(cards=["c06"]), Random(2))
    after = fork.state
    assert events[0] == CardsSwapped(player="bob", cards=["c06"])
    assert isinstance(events[1], StackReshuffled) and sorted(unredacted(events[1].stack)) == ["c06", "c30"]
    assert events[2] == CardsDrawn(player="bob", cards=events[1].stack[:1])
    assert len(after.hands["bob"]) == HAND_SIZE and len(after.stack) == 1 and after.discard == ()


def test_draw_takes_the_rest_of_the_stack_then_the_reshuffled_discard_illustori_18():
    g = started("Moon", stack=["c22"])
    g = Given(GAME, start=msgspec.structs.replace(g.state, discard=("c30",)))
    fork = Given(GAME, start=g.state)
    events = fork.then("bob", SwapCards(cards=["c06", "c07"]), Random(1))
    after = fork.state
    assert events[1] == CardsDrawn(player="bob", cards=["c22"])
    assert isinstance(events[2], StackReshuffled)
    assert sorted(unredacted(events[2].stack)) == ["c06", "c07", "c30"]
    assert events[3] == CardsDrawn(player="bob", cards=[events[2].stack[0]])
    assert len(after.hands["bob"]) == HAND_SIZE


def test_pass_only_when_stack_and_discard_are_empty_illustori_5():
    g = started("Moon", stack=[])
    assert g.refused("bob", SwapCards(cards=["c06"])) == "stack_empty"
    assert PassTurn() in legal_commands(g.state, "bob")
    events = Given(GAME, start=g.state).then("bob", PassTurn())
    assert events == [
        TurnPassed(player="bob"),
        TurnEnded(player="bob", accepted=False, next_player="cid"),
    ]
    assert started("Moon").refused("bob", PassTurn()) == "pass_not_allowed"


@pytest.mark.parametrize(
    ("n", "ballots", "accepted"),
    [
        (4, [True, True, False], True),  # I-5: 2 x 2 >= 3
        (4, [True, False, False], False),  # I-5: 2 < 3
        (3, [True, False], True),  # I-5: one yes of two
        (3, [False, False], False),
        (5, [True, True, False, False], True),  # 5 players: 2 of 4
        (5, [True, False, False, False], False),
        (6, [True, True, True, False, False], True),  # 6 players: 3 of 5
        (6, [True, True, False, False, False], False),
    ],
)
def test_votes_accept_with_at_least_half_example_i5_illustori_6(n, ballots, accepted):
    """Example I-5 and Illustori 6: accepted iff yes x 2 >= voters."""
    g = started("Moon", n=n)
    hand, top = len(g.state.hands["bob"]), g.state.stack[0]
    events = g.then("bob", PlayCard(card="c07", text="Night"))
    events = vote_all(g, ballots)
    assert as_type(events[len(ballots) - 1 + 1], VoteClosed).accepted is accepted
    if accepted:
        assert g.state.current_text == "Night" and len(g.state.hands["bob"]) == hand - 1
    else:  # card discarded, draw 1, hand size unchanged; the next chains on the same text
        assert g.state.current_text == "Moon" and len(g.state.hands["bob"]) == hand
        assert "c07" in g.state.discard
        assert CardsDrawn(player="bob", cards=[top]) in events
    assert players_to_act(g.state) == ["cid"]


def test_votes_stay_secret_until_the_last_is_in_illustori_6():
    g = started("Moon")
    g.then("bob", PlayCard(card="c07", text="Night"))
    events = g.then("ann", Vote(yes=False))
    assert GAME.redact(events[0], "cid") == VoteCast(player="ann", yes=None)
    assert GAME.redact(events[0], None) == VoteCast(player="ann", yes=None)
    assert GAME.redact(events[0], "ann") == VoteCast(player="ann", yes=False)
    view = GAME.player_view(g.state, "cid")
    assert view["voted"] == ["ann"] and view["my_vote"] is None
    flipped = msgspec.structs.replace(g.state, votes={"ann": True})
    assert GAME.player_view(flipped, "cid") == view  # nothing in the view depends on it
    assert GAME.player_view(flipped, None) == GAME.player_view(g.state, None)
    assert GAME.player_view(g.state, "ann")["my_vote"] is False


def test_penalty_discards_draws_and_skips_the_vote_illustori_7():
    g = started("Swim")
    fork = Given(GAME, start=g.state)
    events = fork.then("bob", PlayCard(card="c06", text="Maxx"))
    after = fork.state
    assert events == [
        CardPenalised(player="bob", card="c06", text="Maxx", reasons=["ends_with_xx"]),
        CardsDrawn(player="bob", cards=["c22"]),
        TurnEnded(player="bob", accepted=False, next_player="cid"),
    ]
    assert after.current_text == "Swim" and after.discard == ("c06",)
    assert len(after.hands["bob"]) == HAND_SIZE


@pytest.mark.parametrize("text", ["", "   ", "1 night", "Night!", "night 2", "-moon", "🌙 night"])
def test_starting_text_must_begin_and_end_with_a_letter_illustori_8_5_3_5(text):
    assert Given(GAME, [dealt()]).refused("ann", ProposeStart(text=text)) == "bad_text"


@pytest.mark.parametrize("text", ["", "   ", "...", "1 2 3", "🌙 !"])
def test_chained_text_must_hold_a_letter_illustori_8_5_3_5(text):
    g = started("Moon")
    assert g.refused("bob", PlayCard(card="c06", text=text)) == "bad_text"


@pytest.mark.parametrize(
    ("current", "text"),
    [
        ("Bravo", "Or !"),
        ("Bravo", "Oh là là..."),
        ("Lever", "Rêve ?"),
        ("Moi", "« Oui »"),
        ("Moon", "1 night"),
        ("Moon", "night 2"),
        ("Moon", "-night-"),
        ("Moon", "🌙 night"),
    ],
)
def test_issue12_point7_chained_text_may_begin_or_end_with_punctuation_illustori_5_3_5(
    current,
    text,
):
    """RULES 5.3-5 (ruling 2026-11-30, the seeds win): only the starting text must begin and
    end with a letter; a chained text chains on its first and last letters."""
    g = started(current)
    events = Given(GAME, start=g.state).then("bob", PlayCard(card="c06", text=text))
    assert events == [CardPlayed(player="bob", card="c06", text=text)]


def test_issue12_point7_chained_text_chains_on_its_letters_illustori_5_3_5():
    g = started("Moon")
    assert g.refused("bob", PlayCard(card="c06", text="« Ah »")) == "does_not_chain"
    events = Given(GAME, start=g.state).then("bob", PlayCard(card="c06", text="« Onyxx » !"))
    assert isinstance(events[0], CardPenalised) and events[0].reasons == ["ends_with_xx"]


def test_issue12_point7_a_sentence_of_280_characters_is_accepted_illustori_5_3_5():
    sentence = ("Nous marchions le long de la rivière " * 8)[:279].rstrip() + "."
    assert len(sentence) >= 270
    text = "N" + "o" * 278 + "n"
    g = started("Moon")
    assert len(text) == 280
    events = Given(GAME, start=g.state).then("bob", PlayCard(card="c06", text=text))
    assert events == [CardPlayed(player="bob", card="c06", text=text)]
    events = Given(GAME, start=g.state).then("bob", PlayCard(card="c06", text=sentence))
    assert events == [CardPlayed(player="bob", card="c06", text=sentence)]


def test_text_is_trimmed_and_compared_without_case_illustori_8():
    g = started("MOON")
    events = Given(GAME, start=g.state).then("bob", PlayCard(card="c06", text="  night sky \n"))
    assert events == [CardPlayed(player="bob", card="c06", text="night sky")]


def test_overlong_text_is_refused():
    g = started("Moon")
    text = "N" + "o" * MAX_TEXT_LENGTH
    assert g.refused("bob", PlayCard(card="c06", text=text)) == "text_too_long"


def test_refused_text_changes_nothing_and_the_player_tries_again_illustori_8():
    g = started("Moon")
    rejection = g.rejects("bob", PlayCard(card="c06", text="Apple"))
    assert rejection.code == "does_not_chain" and "N or O" in rejection.message
    assert players_to_act(g.state) == ["bob"]


# --- chaining modes (Illustori 9-12) --------------------------------------------------------


def test_english_worked_example_i1_illustori_9():
    """I-1: "Moon": "Night sky" and "Orange" chain, "Apple" is refused; after "Swim", "Maxx"
    is penalised (current text stays "Swim") and "Max" is fine."""
    moon = started("Moon")
    assert is_put_to_vote(moon, "bob", "Night sky")
    assert is_put_to_vote(moon, "bob", "Orange")
    assert moon.refused("bob", PlayCard(card="c06", text="Apple")) == "does_not_chain"
    swim = started("Swim")
    fork = Given(GAME, start=swim.state)
    events = fork.then("bob", PlayCard(card="c06", text="Maxx"))
    after = fork.state
    assert isinstance(events[0], CardPenalised) and after.current_text == "Swim"
    assert CardsDrawn(player="bob", cards=["c22"]) in events and "c06" in after.discard
    assert is_put_to_vote(swim, "bob", "Max")


def test_english_xx_penalty_needs_two_consecutive_x_5_3_1():
    swim = started("Swim")
    assert is_penalised(swim, "bob", "MAXX")
    assert not is_penalised(swim, "bob", "Max x")  # two x, not consecutive


def test_last_two_letters_skip_spaces_and_punctuation_5_3_3():
    g = started("Big cat!?".rstrip("!?"))  # "Big cat"
    assert allowed_letters(ENGLISH, "Big cat") == ("t", "a")
    assert is_put_to_vote(g, "bob", "Apple") and is_put_to_vote(g, "bob", "Tiger")
    assert is_refused(g, "bob", "Gold")


def test_english_reverse_worked_example_i4_illustori_10():
    """I-4: after "Moon", direction "start": "Mars" chains, "Broom" is refused; direction
    "end": "Broom" chains, "Mars" is refused."""
    start = started("Moon", rules=REVERSE)
    assert is_put_to_vote(start, "bob", "Mars")
    assert start.refused("bob", PlayCard(card="c06", text="Broom")) == "does_not_chain"
    end = started("Moon", rules=REVERSE_END)
    assert is_put_to_vote(end, "bob", "Broom")
    assert end.refused("bob", PlayCard(card="c06", text="Mars")) == "does_not_chain"


def test_english_reverse_has_no_penalty_illustori_10():
    g = started("Maxx", rules=REVERSE)
    assert is_put_to_vote(g, "bob", "Mixx")


def test_reverse_direction_is_a_validated_table_option_5_3_2():
    decider = TableDecider(GAME)
    bad = decider.decide(
        decider.initial_state,
        Create(options={"reverse_direction": "middle"}),
        ctx("ann"),
    )
    assert isinstance(bad, Rejection) and bad.code == "bad_option"
    assert "reverse_direction" in bad.message


def test_german_reverse_umlauts_and_qxz_penalty_illustori_11():
    """Illustori 11: ä/ö/ü/ß stand for a/o/u/s; a text starting with q, x or z is penalised."""
    g = started("Ärger", rules=GERMAN)
    assert is_put_to_vote(g, "bob", "Apfel") and is_put_to_vote(g, "bob", "Äpfel")
    assert is_refused(g, "bob", "Birne")
    end = started("Mast", rules=Rules(mode="german_reverse", reverse_direction="end"))
    assert is_penalised(end, "bob", "Zoom")  # ends with m as chained, starts with z
    assert is_put_to_vote(end, "bob", "Baum")
    assert is_put_to_vote(end, "bob", "Straße warm")  # ß is a letter of the German alphabet


def test_german_start_with_qxz_is_penalised_illustori_11():
    events = Given(GAME, [dealt(rules=GERMAN)]).then("ann", ProposeStart(text="Zebra"))
    assert events == [StartPenalised(player="ann", text="Zebra", reasons=["starts_with_qxz"])]


def test_german_alphabet_has_no_other_accents_5_3_4():
    refusal = Given(GAME, [dealt(rules=GERMAN)]).rejects("ann", ProposeStart(text="Apfel é"))
    assert refusal.code == "bad_text"
    assert "German alphabet" in refusal.message and "ä, ö, ü or ß" in refusal.message


def test_bad_text_message_says_which_letters_count_illustori_8():
    """Illustori 8: the refusal names the mode's alphabet, so "Луна" or "Apfel é" is clear."""
    refusal = started("Moon").rejects("bob", PlayCard(card="c06", text="Луна"))
    assert refusal.code == "bad_text" and "from a to z" in refusal.message


def test_english_folds_accents_and_ligatures_5_3_4():
    """5.3-4: NFD without marks, ß -> s, æ -> a, œ -> o, compared without case."""
    assert letters("Œuvre Café Straße Æon", "english") == tuple("ouvrecafestraseaon")
    g = started("Café")
    assert is_put_to_vote(g, "bob", "Éclair") and is_put_to_vote(g, "bob", "fall")
    assert is_put_to_vote(started("Lœ"), "bob", "Oak")


def test_japanese_mode_is_not_offered_illustori_12():
    """Illustori 12 (Japanese) is out of scope: the option is refused with a clear message."""
    decider = TableDecider(GAME)
    bad = decider.decide(decider.initial_state, Create(options={"mode": "japanese"}), ctx("ann"))
    assert isinstance(bad, Rejection) and bad.code == "bad_option" and "english" in bad.message


# --- prohibitions (Illustori 13-15) ---------------------------------------------------------


def test_no_repeat_worked_example_i2_illustori_13():
    """I-2: after "Moon", must start with N; "Nation" penalised, "Night" fine, "Oasis" refused."""
    g = started("Moon", rules=NO_REPEAT)
    assert is_penalised(g, "bob", "Nation")
    assert is_put_to_vote(g, "bob", "Night")
    assert g.refused("bob", PlayCard(card="c06", text="Oasis")) == "does_not_chain"


def test_used_letters_worked_example_i3_illustori_14():
    """I-3: "New apple" accepted -> U={n,e}; "Evening" accepted -> U={n,e,g}; "Gown" is
    penalised (ends with n, in U): discarded, a draw, "Evening" stays; "Gold" accepted ->
    U={n,e,g,d}."""
    g = started("New apple", rules=USED)
    assert g.state.used == ("e", "n")
    chain(g, "bob", "Evening")
    state = g.state
    assert state.current_text == "Evening" and state.used == ("e", "g", "n")
    top = g.state.stack[0]
    events = chain(g, "cid", "Gown")
    assert events == [
        CardPenalised(player="cid", card="c11", text="Gown", reasons=["used_letter"]),
        CardsDrawn(player="cid", cards=[top]),
        TurnEnded(player="cid", accepted=False, next_player="dan"),
    ]
    state = g.state
    assert state.current_text == "Evening" and state.used == ("e", "g", "n")
    assert len(g.state.hands["cid"]) == HAND_SIZE and "c11" in g.state.discard
    events = chain(g, "dan", "Gold")
    assert events[-2] == VoteClosed(votes={"ann": True, "bob": True, "cid": True}, accepted=True)
    state = g.state
    assert state.current_text == "Gold" and state.used == ("d", "e", "g", "n")


def test_used_letters_switches_english_to_the_last_letter_illustori_14():
    g = started("New apple", rules=USED)
    assert g.refused("bob", PlayCard(card="c06", text="Lemon")) == "does_not_chain"


def test_used_letters_exempts_the_forced_letter_in_reverse_end_illustori_14():
    """Reverse, direction "end": the forced letter is the last one, the free one the first."""
    rules = Rules(mode="english_reverse", reverse_direction="end", no_used_letters=True)
    g = started("Moon", rules=rules)  # U = {m, n}
    assert g.state.used == ("m", "n")
    assert is_put_to_vote(g, "bob", "Broom")  # ends with m (forced, exempt)
    assert is_penalised(g, "bob", "Nim")  # starts with n (free, used)


def test_rejected_text_adds_nothing_to_used_letters_illustori_14():
    g = started("New apple", rules=USED)
    chain(g, "bob", "Evening", accept=False)
    assert g.state.used == ("e", "n")


def test_clearing_after_every_player_failed_example_i6_illustori_15():
    """I-6: P2 swaps, P3 rejected, P4 penalised, P1 swaps -> U cleared before P2's turn."""
    rules = Rules(no_used_letters=True)
    g = started("New apple", rules=rules)
    g.then("bob", SwapCards(cards=["c06"]))
    chain(g, "cid", "Eagle", accept=False)
    events = g.then("dan", PlayCard(card="c16", text="Emu xx"))
    assert isinstance(events[0], CardPenalised)
    assert g.state.used == ("e", "n") and g.state.failed_turns == 3
    events = g.then("ann", SwapCards(cards=["c01"]))
    assert events[-2:] == [
        TurnEnded(player="ann", accepted=False, next_player="bob"),
        UsedLettersCleared(reason="all_failed"),
    ]
    state = g.state
    assert state.used == () and state.failed_turns == 0 and players_to_act(state) == ["bob"]
    # the chaining requirement on the current text still applies after clearing
    assert is_refused(g, "bob", "Apple") and is_put_to_vote(g, "bob", "Echo")


def test_an_accepted_chain_resets_the_failure_count_illustori_15():
    g = started("New apple", rules=USED)
    g.then("bob", SwapCards(cards=["c06"]))
    chain(g, "cid", "Eagle", accept=False)
    chain(g, "dan", "Egg")
    assert g.state.failed_turns == 0
    events = g.then("ann", SwapCards(cards=["c01"]))
    assert not any(isinstance(e, UsedLettersCleared) for e in events)


def test_clearing_when_every_letter_is_used_illustori_15():
    g = started("New apple", rules=USED)
    g = Given(GAME, start=msgspec.structs.replace(g.state, used=tuple("abcdefhijklmnopqrstuvwxyz")))  # no g
    events = chain(g, "bob", "Evening")
    assert events[-1] == UsedLettersCleared(reason="alphabet_full")
    assert g.state.used == ()


# --- end (Illustori 16-18) ------------------------------------------------------------------


def test_last_round_worked_example_i7_illustori_16_17():
    """I-7: P3 empties their hand -> P4 and P1 still play; after P1's turn the game ends;
    the winners are every player with 0 cards."""
    g = started("Moon")
    one_card = {p: g.state.hands[p][:1] for p in g.state.players}
    g = Given(GAME, start=msgspec.structs.replace(g.state, hands={**g.state.hands, "cid": one_card["cid"]}))
    g.then("bob", SwapCards(cards=["c06"]))
    events = chain(g, "cid", "Night")
    assert LastRoundStarted(player="cid") in events and g.state.last_round
    assert events[-1] == TurnEnded(player="cid", accepted=True, next_player="dan")
    assert not GAME.is_terminal(g.state)
    g.then("dan", SwapCards(cards=["c16"]))
    assert players_to_act(g.state) == ["ann"]
    g = Given(GAME, start=msgspec.structs.replace(g.state, hands={**g.state.hands, "ann": ("c01",)}))
    events = chain(g, "ann", "Train")
    assert events[-1] == TurnEnded(player="ann", accepted=True, next_player=None)
    assert GAME.is_terminal(g.state) and players_to_act(g.state) == []
    res = result(g.state)
    assert sorted(res.winners) == ["ann", "cid"]
    assert res.details["cards_left"] == {"ann": 0, "bob": 5, "cid": 0, "dan": 5}
    assert [s.rank for s in res.ranking if s.player in ("ann", "cid")] == [1, 1]


def test_first_player_emptying_their_hand_ends_the_game_at_once_illustori_16():
    g = started("Moon", n=3)
    g.then("bob", SwapCards(cards=["c06"]))
    g.then("cid", SwapCards(cards=["c11"]))
    g = Given(GAME, start=msgspec.structs.replace(g.state, hands={**g.state.hands, "ann": ("c01",)}))
    events = chain(g, "ann", "Night")
    assert events[-2:] == [
        LastRoundStarted(player="ann"),
        TurnEnded(player="ann", accepted=True, next_player=None),
    ]
    assert result(g.state).winners == ["ann"]


def test_nobody_with_an_empty_hand_means_no_winner_illustori_17():
    """Illustori 17 (ASSUMED): no empty hand, no winner (a draw)."""
    g = Given(GAME, start=msgspec.structs.replace(started("Moon").state, phase="over"))
    res = result(g.state)
    assert res.winners == [] and all(s.rank == 1 for s in res.ranking)


def test_whole_game_through_the_table_ends_with_game_ended_illustori_16():
    """Through the platform's table: the first player chains their last card, the last
    round ends with their turn, and the table appends `game_ended` with the winners."""
    decider = TableDecider(GAME)
    table = decider.initial_state

    def send(actor: str, command: Command) -> list:
        nonlocal table
        events = decider.decide(table, command, ctx(actor))
        assert not isinstance(events, Rejection), events
        table = fold(decider.evolve, events, table)
        return list(events)

    send("ann", Create(seats=3))
    send("bob", Join())
    send("cid", Join())
    send("ann", Start())
    assert table.status == "running"
    game = table.game
    one_card = msgspec.structs.replace(game, hands={**game.hands, "ann": game.hands["ann"][:1]})
    table = msgspec.structs.replace(table, game=one_card)
    send("ann", ProposeStart(text="Moon"))
    send("bob", Vote(yes=True))
    send("cid", Vote(yes=True))
    send("bob", SwapCards(cards=[table.game.hands["bob"][0]]))
    send("cid", SwapCards(cards=[table.game.hands["cid"][0]]))
    send("ann", PlayCard(card=table.game.hands["ann"][0], text="Night"))
    send("bob", Vote(yes=True))
    events = send("cid", Vote(yes=False))
    assert [type(e).__name__ for e in events[-2:]] == ["GameEnded", "SeedRevealed"]
    assert table.status == "ended" and table.result is not None and table.result.winners == ["ann"]
    assert decider.player_view(table, None)["result"]["winners"] == ["ann"]


def test_evolve_never_mutates_its_input():
    state = Given(GAME, [dealt(rules=USED)]).state
    for actor, command in [
        ("ann", ProposeStart(text="New apple")),
        ("bob", Vote(yes=True)),
        ("cid", Vote(yes=True)),
        ("dan", Vote(yes=True)),
        ("bob", PlayCard(card="c06", text="Evening")),
        ("ann", Vote(yes=False)),
        ("cid", Vote(yes=False)),
        ("dan", Vote(yes=False)),
        ("cid", SwapCards(cards=["c11", "c12"])),
    ]:
        for event in Given(GAME, start=state).accepts(actor, command):
            before = msgspec.to_builtins(state)
            after = evolve(state, event)
            assert msgspec.to_builtins(state) == before and after is not state
            state = after


# --- rejections and options -----------------------------------------------------------------


def ctx(actor: str, seed: int = 0) -> Context:
    return Context(actor=actor, rng=Random(seed))


def test_not_your_turn():
    g = started("Moon")
    assert g.refused("cid", PlayCard(card="c11", text="Night")) == "not_your_turn"
    assert Given(GAME, [dealt()]).refused("bob", ProposeStart(text="Moon")) == "not_your_turn"
    fork = Given(GAME, start=g.state)
    fork.then("bob", PlayCard(card="c06", text="Night"))
    voting = fork.state
    assert Given(GAME, start=voting).refused("bob", Vote(yes=True)) == "not_your_turn"  # own text


def test_a_second_vote_is_not_your_turn():
    g = started("Moon")
    g.then("bob", PlayCard(card="c06", text="Night"))
    g.then("cid", Vote(yes=True))
    refused = g.when("cid", Vote(yes=False))
    assert isinstance(refused, Rejection)
    assert refused.code == "not_your_turn" and "cid" not in refused.message  # names who is awaited


def test_wrong_phase():
    g = started("Moon")
    assert g.refused("bob", Vote(yes=True)) == "wrong_phase"
    assert g.refused("bob", ProposeStart(text="Moon")) == "wrong_phase"
    naming = Given(GAME, [dealt()]).state
    assert Given(GAME, start=naming).refused("ann", PlayCard(card="c01", text="Moon")) == "wrong_phase"
    assert Given(GAME, start=naming).refused("ann", SwapCards(cards=["c01"])) == "wrong_phase"
    assert Given(GAME, start=naming).refused("ann", PassTurn()) == "wrong_phase"
    fork = Given(GAME, start=g.state)
    fork.then("bob", PlayCard(card="c06", text="Night"))
    voting = fork.state
    assert Given(GAME, start=voting).refused("cid", SwapCards(cards=["c11"])) == "wrong_phase"


def test_card_not_in_hand():
    g = started("Moon")
    assert g.refused("bob", PlayCard(card="c01", text="Night")) == "card_not_in_hand"
    assert g.refused("bob", SwapCards(cards=["c06", "c99"])) == "card_not_in_hand"


def test_swap_needs_distinct_cards():
    g = started("Moon")
    assert g.refused("bob", SwapCards(cards=[])) == "no_cards"
    assert g.refused("bob", SwapCards(cards=["c06", "c06"])) == "duplicate_card"


def test_foreign_command_is_bad_command():
    class Shout(Command, frozen=True, kw_only=True):
        pass

    assert started("Moon").refused("bob", Shout()) == "bad_command"


@pytest.mark.parametrize(
    "options",
    [
        {"mode": "klingon"},
        {"reverse_direction": "up"},
        {"deck_size": 10},
        {"deck_size": 61},
        {"no_used_letters": "yes"},
        {"colour": "red"},
    ],
)
def test_bad_options_are_refused_at_create(options):
    decider = TableDecider(GAME)
    outcome = decider.decide(decider.initial_state, Create(options=options, seats=4), ctx("ann"))
    assert isinstance(outcome, Rejection) and outcome.code == "bad_option", outcome


def test_deck_size_must_cover_every_seat():
    decider = TableDecider(GAME)
    empty = decider.initial_state
    outcome = decider.decide(empty, Create(options={"deck_size": 30}, seats=6), ctx("ann"))
    assert isinstance(outcome, Rejection) and "31" in outcome.message
    ok = decider.decide(empty, Create(options={"deck_size": 31}, seats=6), ctx("ann"))
    assert not isinstance(ok, Rejection)


def test_a_deck_too_small_for_the_seated_players_is_refused_illustori_1():
    """The platform checks the options against the seats at `create` and again against the
    players seated at `start` (setup no longer repeats it): 5 cards each and the start card."""
    message = rules.check_options(IllustoriOptions(deck_size=15), 3)
    assert message is not None and "deck_size" in message and "16" in message
    assert rules.check_options(IllustoriOptions(deck_size=16), 3) is None


def test_the_hand_size_is_data_not_a_literal_illustori_1(monkeypatch):
    """Illustori 1: the deck bound and its message follow `HAND_SIZE`, not a buried 5."""
    monkeypatch.setattr(rules, "HAND_SIZE", 4)
    assert rules.check_options(IllustoriOptions(deck_size=13), 3) is None
    message = rules.check_options(IllustoriOptions(deck_size=12), 3)
    assert message is not None and "4 cards for each of 3 players" in message


def test_player_range_is_three_to_six():
    assert (GAME.min_players, GAME.max_players) == (3, 6)


# --- views, redaction, events ---------------------------------------------------------------


def test_each_seat_sees_only_its_own_hand_and_nobody_the_stack():
    g = started("Moon")
    view = GAME.player_view(g.state, "bob")
    assert [c["card"] for c in view["hand"]] == list(g.state.hands["bob"])
    assert view["hand_sizes"] == {"ann": 5, "bob": 5, "cid": 5, "dan": 5}
    text = repr(view)
    assert not any(c in text for p in ("ann", "cid", "dan") for c in g.state.hands[p])
    assert not any(c in text for c in g.state.stack) and view["stack_size"] == len(g.state.stack)
    spectator = GAME.player_view(g.state, None)
    assert spectator["hand"] is None
    assert not any(c in repr(spectator) for h in g.state.hands.values() for c in h)


def test_redact_hides_hands_stack_and_draws():
    setup = dealt()
    for viewer in ("bob", None):
        seen = as_type(GAME.redact(setup, viewer), GameSetUp)
        assert all(h == [None] * 5 for p, h in seen.hands.items() if p != viewer)
        assert seen.stack == [None] * len(setup.stack)
    assert as_type(GAME.redact(setup, "bob"), GameSetUp).hands["bob"] == setup.hands["bob"]
    drawn = CardsDrawn(player="bob", cards=["c22"])
    assert GAME.redact(drawn, "bob") == drawn
    assert as_type(GAME.redact(drawn, "cid"), CardsDrawn).cards == [None]
    reshuffled = GAME.redact(StackReshuffled(stack=["c01", "c02"]), "bob")
    assert as_type(reshuffled, StackReshuffled).stack == [None, None]


def test_events_round_trip_through_json():
    decider = TableDecider(GAME)
    g = started("New apple", rules=USED)
    events = Given(GAME, start=g.state).then("bob", SwapCards(cards=["c06"]))
    for event in [dealt(rules=USED), *events, VoteCast(player="ann", yes=None)]:
        wire = msgspec.json.encode(event)
        assert msgspec.json.decode(wire, type=decider.event_type) == event


def test_legal_commands_are_all_accepted():
    for table_rules in (
        ENGLISH,
        REVERSE,
        REVERSE_END,
        GERMAN,
        NO_REPEAT,
        USED,
        Rules(mode="german_reverse", reverse_direction="end", no_used_letters=True, no_repeated_letter=True),
    ):
        naming = Given(GAME, [dealt(rules=table_rules)]).state
        for command in legal_commands(naming, "ann"):
            assert not isinstance(Given(GAME, start=naming).when("ann", command), Rejection)
        g = started("Moon" if table_rules.mode == "english" else "Mond", rules=table_rules)
        commands = legal_commands(g.state, "bob")
        assert any(isinstance(c, PlayCard) for c in commands)
        for command in commands:
            assert not isinstance(g.when("bob", command), Rejection), (table_rules, command)
        assert legal_commands(g.state, "cid") == []


# --- issue 12 point 8: the examples offered in `legal` ---------------------------------------

FRENCH = Rules(language="fr")


def offered_texts(state: State, player: str) -> list[str]:
    return [c.text for c in legal_commands(state, player) if hasattr(c, "text")]


def test_issue12_point8_examples_follow_the_tables_language():
    """Issue 12 point 8: French words at a French table (the `language` option)."""
    from shared.games.illustori.data import WORDS_BY_LANGUAGE

    french = {w.casefold() for w in WORDS_BY_LANGUAGE["fr"]}
    english = {w.casefold() for w in WORDS_BY_LANGUAGE["en"]}
    start = offered_texts(Given(GAME, [dealt(rules=FRENCH)]).state, "ann")
    chained = offered_texts(started("Lune", rules=FRENCH).state, "bob")
    for text in start + chained:
        assert set(text.casefold().split()) <= french, text
    assert any(set(t.casefold().split()) - english for t in start + chained)
    assert offered_texts(Given(GAME, [dealt()]).state, "ann")[0].casefold() in english


@pytest.mark.parametrize(
    "rules",
    [
        ENGLISH,
        NO_REPEAT,
        USED,
        REVERSE,
        REVERSE_END,
        GERMAN,
        FRENCH,
        Rules(no_repeated_letter=True, no_used_letters=True, language="fr"),
    ],
)
def test_issue12_point8_no_offered_example_is_penalised_or_refused(rules):
    """Issue 12 point 8: "Rev maxx" used to be offered; every example now goes to the vote."""
    from shared.games.illustori.chaining import chain_problem, penalties, text_problem

    g = started("Rêve", rules=rules)
    for k in range(40):  # the examples rotate with the state: try many of them
        g = Given(GAME, start=msgspec.structs.replace(g.state, turns=k))
        texts = offered_texts(g.state, "bob")
        assert texts and g.state.current_text is not None
        for text in texts:
            assert not text_problem(text, rules.mode), text
            assert not chain_problem(rules, g.state.current_text, text), text
            assert not penalties(rules, text, g.state.used), text


def test_issue12_point8_views_mark_free_text_fields_as_examples():
    view = GAME.player_view(started("Moon").state, "bob")
    assert view["free_text"] == {"propose_start": ["text"], "play_card": ["text"]}


def test_language_option_is_checked():
    decider = TableDecider(GAME)
    refused = rejected(
        decider.decide(
            decider.initial_state,
            Create(options={"language": "xx"}, seats=4),
            Context(actor="ann", rng=Random(0)),
        )
    )
    assert refused.code == "bad_option" and "language must be one of en, fr" in refused.message
    assert rules.check_options(IllustoriOptions(language="fr"), 4) is None
