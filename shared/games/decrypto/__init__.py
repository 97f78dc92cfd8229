"""Decrypto (RULES.md section 4): two teams, White and Black, of 2 to 4 players.

What is special about it:

* Teams, not players: every command acts for a team (the encryptor's clues, the team's answer,
  the tie-break keyword guesses), submitted by any one eligible member.
* Hidden information of three kinds: each team's 4 keywords (from the other team until the
  end), each round's secret codes (from all but their encryptor until revealed), and each
  team's answer (from the other team until the reveal).
* Simultaneous steps: both encryptors write at once; then, code by code (White's first), the
  code's own team (without its encryptor) and, from round 2, the other team answer at once.
* Free text: clues and keyword guesses. `legal` offers examples drawn from the word list the
  package ships (words_en.txt, words_fr.txt; the `language` option), and clues are checked
  (three, non-empty, not used before in the game, not an own keyword; case and accents ignored).
* Randomness: the team deal, the 8 keywords and every code are drawn in decide/setup and
  recorded in `game_set_up` / `round_started`.
"""

from __future__ import annotations

from shared.games.decider import Game
from shared.games.decrypto.bot import bot
from shared.games.decrypto.messages import COMMANDS, EVENTS, DecryptoOptions
from shared.games.decrypto.rules import (
    check_options,
    decide,
    is_terminal,
    legal_commands,
    players_to_act,
    result,
    setup,
)
from shared.games.decrypto.state import State, evolve
from shared.games.decrypto.strong_bot import strong_bot
from shared.games.decrypto.view import SEEN_ALIKE, describe, describe_fr, drawn, player_view, redact, secrets

GAME: Game[State, DecryptoOptions] = Game(
    name="decrypto",
    title="Decrypto",
    min_players=4,
    max_players=8,
    options=DecryptoOptions,
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
    description="Two teams pass secret codes through clues; intercept twice to win.",
)

__all__ = ["GAME"]
