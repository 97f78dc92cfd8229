"""Diced Tomatoes (RULES.md section 3): 1 to 6 gardeners sow, grow and harvest dice plants.

What is special about it:

* **Dice, all public.** Nothing is hidden but the future: every die in the bushel, in hand, on
  plants and on score tracks is visible to everyone. Chance is the only secret, so each roll is
  drawn in `decide` from the context's rng and written in the event (`DiceRolled.faces`, the
  karma re-roll in `DieChanged.face`, the starting roll in `GameSetUp.start_rolls`).
* **One active player, many small steps.** A turn is: take 3 dice of chosen colours
  (`take_dice`), then place them one at a time while any can be placed (`place_die`), spending
  karma at will (six effects), then `end_turn` hands the unplaceable dice to the next player.
* **Shared boards.** Dice go on anyone's plants: sabotage with black dice, help an opponent to
  earn karma by completing their plant.
* **Solo mode** when a single player sits (3.1-18): match each harvest to its slot number.

Options: `tomato_dice`, `karma_overdose`, `golden_sun`, `dice_bonus` ("pooled"/"per_plant"),
`reroll_passed_dice`. The player-facing reference is docs/games/diced_tomatoes.md.
"""

from __future__ import annotations

from shared.games.decider import Game
from shared.games.diced_tomatoes.bot import bot
from shared.games.diced_tomatoes.messages import COMMANDS, EVENTS, DicedTomatoesOptions, DiePlaced
from shared.games.diced_tomatoes.rules import (
    decide,
    is_terminal,
    legal_commands,
    players_to_act,
    result,
    setup,
)
from shared.games.diced_tomatoes.search import SEARCH
from shared.games.diced_tomatoes.state import State, evolve
from shared.games.diced_tomatoes.view import (
    SEEN_ALIKE,
    describe,
    describe_fr,
    drawn,
    player_view,
    player_views,
    redact,
    secrets,
)

GAME: Game[State, DicedTomatoesOptions] = Game(
    name="diced_tomatoes",
    title="Diced Tomatoes",
    min_players=1,
    max_players=6,
    options=DicedTomatoesOptions,
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
    describe=describe,
    describe_fr=describe_fr,
    take_back=frozenset({DiePlaced}),  # they reveal nothing, draw nothing
    bot=bot,
    search=SEARCH,
    description="Sow, grow and harvest tomato plants made of dice; 1 to 6 players.",
)

__all__ = ["GAME"]
