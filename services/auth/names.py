"""When two players' names are one: the key a name is registered under.

Names are unique without regard to case, after NFKC normalisation, and with the characters
that look alike in common fonts folded together: `I`, `l`, `i` and `1` are one letter, and so
are `O`, `o` and `0` (case folding joins `I` to `i`, the eye joins `I` to `l`, so all four
are one). `Alice`, `alice` and `ALICE` are one name; so are `bill`, `biII`, `b1ll` and `BILL`,
and `bob0` and `bobo`. The registered spelling stays the player's name; the folded one is its
key, so that a second spelling finds the first."""

from __future__ import annotations

import unicodedata

# Lower-case letters and digits read as one another: each to the letter that stands for all.
_LOOKALIKES = str.maketrans({"i": "l", "1": "l", "0": "o"})


def name_key(name: str) -> str:
    """The key of `name` in the accounts bucket: equal for names a reader could take for one
    another. Only letters, digits, '_' and '-' for a valid name, like the name itself."""
    return unicodedata.normalize("NFKC", name).casefold().translate(_LOOKALIKES)
