"""Dozito (RULES.md section 2): 2 to 5 players fill a 4x3 grid of face-down cards, one card
at a time, to make large groups of one colour.

What is special about it:

* Hidden information that nobody holds: every face-down grid card is hidden from everyone,
  its owner included, as is the draw pile's order. Everything else is public, so all seats
  and spectators get the same view; only the deal and a rebuilt draw pile are redacted.
* Turns are chains: one command per step (take a discard or draw, then place or discard the
  card in hand, the replaced card becoming the next card in hand), until a discard ends the
  turn. STOP cards cut the chain, Replay cards give another turn.
* Randomness: the deal of each round and every rebuilt draw pile are shuffled in `decide`
  and recorded in their events.
* The deck composition is not known (ASSUMED): it is a data file, chosen with the `deck`
  table option (see `cards.py`).
"""

from __future__ import annotations

from shared.games.decider import Game
from shared.games.dozito.bot import bot
from shared.games.dozito.messages import COMMANDS, EVENTS, DiscardTaken, DozitoOptions
from shared.games.dozito.rules import (
    check_options,
    decide,
    is_terminal,
    legal_commands,
    players_to_act,
    result,
    setup,
)
from shared.games.dozito.search import SEARCH
from shared.games.dozito.state import State, evolve
from shared.games.dozito.view import (
    SEEN_ALIKE,
    describe,
    describe_fr,
    drawn,
    player_view,
    player_views,
    redact,
    secrets,
)

GAME: Game[State, DozitoOptions] = Game(
    name="dozito",
    title="Dozito",
    min_players=2,
    max_players=5,
    options=DozitoOptions,
    check_options=check_options,
    commands=COMMANDS,
    events=EVENTS,
    initial_state=State(),
    setup=setup,
    decide=decide,
    evolve=evolve,
    is_terminal=is_terminal,
    players_to_act=players_to_act,
    legal_commands=legal_commands,
    player_view=player_view,
    player_views=player_views,
    redact=redact,
    seen_alike=SEEN_ALIKE,
    drawn=drawn,
    secrets=secrets,
    result=result,
    bot=bot,
    search=SEARCH,
    describe=describe,
    describe_fr=describe_fr,
    take_back=frozenset({DiscardTaken}),  # it reveals nothing, draws nothing
    description="Fill a 4x3 grid of face-down cards to build large groups of one colour.",
)

__all__ = ["GAME"]
