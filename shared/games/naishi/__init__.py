"""Naishi (2 players): RULES.md section 1, on the platform's `Game` interface.

What is special about this game:

* A simultaneous opening step: each player gives one of their two Development cards to the
  other, hidden until both have chosen; then each Hand is shuffled into positions that even its
  owner does not pick (the shuffle is drawn in `decide` and recorded in `hands_shuffled`).
* Position is everything: a card never moves except by Develop (same position as its River
  pile), a Swap, or the Decree (same position in both territories). The 2x5 grid of Line over
  Hand is only scored at the end, with adjacency across the rows.
* A turn is one main action, and with Develop at most one bonus action before or after it:
  several commands make one turn, and the turn closes itself once nothing is left to choose.
* The end is a decision step of its own: each Ninja's owner chooses what it copies (automatic
  with at most one candidate), simultaneously for both players.
* Hidden information: the opponent's Hand until the end, the River's face-down cards.
"""

from __future__ import annotations

from shared.games.decider import Game
from shared.games.naishi.bot import bot
from shared.games.naishi.messages import (
    COMMANDS,
    EVENTS,
    CardsSwapped,
    EmissariesRecalled,
    EndTriggered,
    NaishiOptions,
    TurnEnded,
)
from shared.games.naishi.rules import (
    decide,
    is_terminal,
    legal_commands,
    players_to_act,
    result,
    setup,
)
from shared.games.naishi.search import SEARCH
from shared.games.naishi.state import State, evolve
from shared.games.naishi.view import SEEN_ALIKE, describe, describe_fr, drawn, player_view, redact, secrets

GAME: Game[State, NaishiOptions] = Game(
    name="naishi",
    title="Naishi",
    min_players=2,
    max_players=2,
    options=NaishiOptions,
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
    redact=redact,
    seen_alike=SEEN_ALIKE,
    drawn=drawn,
    secrets=secrets,
    result=result,
    describe=describe,
    describe_fr=describe_fr,
    # moves that reveal nothing and draw nothing: a player may take them back
    take_back=frozenset({CardsSwapped, EmissariesRecalled, EndTriggered, TurnEnded}),
    bot=bot,
    search=SEARCH,
    description="Build the best 2x5 territory of Line and Hand cards from the River.",
)

__all__ = ["GAME", "NaishiOptions", "State"]
