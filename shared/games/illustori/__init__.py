"""Illustori: a word chain on illustrated cards, decided by the players' votes (RULES.md 5).

What is special about it:

* **Free text.** Players type texts, so a command cannot be picked from a finite list:
  `legal_commands` gives examples built from the shipped word list (`words.txt`), and the
  referee is the table itself: every other player votes on each chained text.
* **Simultaneous, secret votes.** During a vote every other seat acts at once; each vote stays
  hidden (views, replays) until the last is in, when `vote_closed` reveals them all.
* **Letter rules checked by the engine.** Input validation and the chaining mode refuse a
  text outright (nothing changes, the player tries again); the penalty rules (the mode's own,
  and the optional no-repeated-letter and no-used-letters prohibitions) fail it at once,
  without a vote. Letters are compared case-free, folded to a-z (5.3-4).
* **Hidden information:** the hands (each seat sees its own) and the draw stack (its order,
  also after a reshuffle of the discard pile). The discard pile is face up.
* **Randomness:** the deal and each reshuffle are drawn from the context's rng and recorded.

Docs: docs/games/illustori.md.
"""

from __future__ import annotations

from shared.games.decider import Game
from shared.games.illustori.bot import bot
from shared.games.illustori.data import MAX_PLAYERS, MIN_PLAYERS
from shared.games.illustori.messages import COMMANDS, EVENTS, IllustoriOptions
from shared.games.illustori.rules import (
    check_options,
    decide,
    is_terminal,
    legal_commands,
    players_to_act,
    result,
    setup,
)
from shared.games.illustori.state import State, evolve
from shared.games.illustori.strong_bot import strong_bot
from shared.games.illustori.view import SEEN_ALIKE, describe, describe_fr, drawn, player_view, redact, secrets

GAME: Game[State, IllustoriOptions] = Game(
    name="illustori",
    title="Illustori",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=IllustoriOptions,
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
    redact=redact,
    seen_alike=SEEN_ALIKE,
    drawn=drawn,
    secrets=secrets,
    result=result,
    bot=bot,
    strong_bot=strong_bot,
    describe=describe,
    describe_fr=describe_fr,
    description="Chain texts on illustrated cards; the other players vote on each one.",
)

__all__ = ["GAME"]
