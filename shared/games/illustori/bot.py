"""Illustori's bot: it plays from its own seat's view (and its `legal` list) only, as a
client would."""

from __future__ import annotations

import random
from typing import Any

from shared.games.decider import (
    View,
)
from shared.games.illustori.chaining import (
    Rules,
)
from shared.games.illustori.examples import penalised_example


def bot(view: View, rng: random.Random) -> dict[str, Any]:
    """Votes at random; names and chains with the examples of `legal`, now and then swapping,
    playing any legal command, or writing a text of its own that the rules penalise (so
    penalties happen too)."""
    legal = view["legal"]
    rules = Rules(**view["rules"])
    roll = rng.random()
    plays = [c for c in legal if c["type"] in ("play_card", "propose_start")]
    if plays and plays[0]["type"] == "play_card" and roll < 0.08:
        used = view["used_letters"]
        bad = penalised_example(rules, view["current_text"] or "", used, rng.randrange(1000))
        if bad is not None:
            return {"type": "play_card", "card": plays[0]["card"], "text": bad}
    if roll < 0.15:
        return dict(rng.choice(legal))
    swaps = [c for c in legal if c["type"] == "swap_cards"]
    if swaps and roll < 0.25:
        return dict(rng.choice(swaps))
    return dict(rng.choice(plays or legal))
