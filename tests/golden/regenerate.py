"""Rewrite every golden playthrough from today's rules and views: `python -m tests.golden.regenerate`.

Run it only when a change is meant to alter play or views, and read the diff before committing.
"""

from __future__ import annotations

from tests.conformance.conformance import deciders
from tests.golden.golden import GOLDENS, write


def main() -> None:
    found = deciders()
    for golden in GOLDENS:
        write(found[golden.game], golden)
        print(f"{golden.path.name}: {golden.path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
