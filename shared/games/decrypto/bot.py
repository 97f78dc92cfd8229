"""Decrypto's bot: it plays from its own seat's view (and its `legal` list) only, as a
client would."""

from __future__ import annotations

import random
from typing import Any

from shared.games.decider import (
    View,
)


def bot(view: View, rng: random.Random) -> dict[str, Any]:
    """Plays its own seat from its view only. Writing (clues, keyword guesses): a random
    example, since a bot cannot relate words. Guessing a code: any code, except, when codes are
    drawn without replacement, those already revealed for that team (they cannot come again
    before the 24 are used up), which is strictly better than chance."""
    legal = view["legal"]
    if legal[0]["type"] != "submit_guess" or view.get("code_draw") != "without_replacement":
        return dict(rng.choice(legal))
    team = legal[0]["team"]
    seen = {tuple(r["code"]) for r in view.get("history", []) if r["team"] == team}
    fresh = [c for c in legal if tuple(c["code"]) not in seen]
    return dict(rng.choice(fresh or legal))
