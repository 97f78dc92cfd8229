"""Every golden playthrough replayed: the same events and the same views, step by step
(tests/golden/golden.py; regenerate with `python -m tests.golden.regenerate`)."""

from __future__ import annotations

import json

import pytest

from tests.conformance.conformance import deciders
from tests.golden.golden import GOLDENS, Golden, differences, record

DECIDERS = deciders()


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda g: g.path.name)
def test_the_recorded_playthrough_is_replayed_exactly(golden):
    diff = differences(DECIDERS[golden.game], golden)
    assert not diff, f"{golden.path.name} differs (regenerate on purpose only):\n{diff}"


def test_every_game_has_a_golden_playthrough():
    assert {g.game for g in GOLDENS} >= set(DECIDERS)


def test_a_changed_view_shows_as_a_readable_diff(tmp_path, monkeypatch):
    """The replay can fail, and says where: a view key changed in the recording."""
    golden = GOLDENS[0]
    recorded = record(DECIDERS[golden.game], golden)
    recorded["steps"][-1]["views"]["p1"]["hand"] = [99]
    fake = Golden(golden.game, "planted", golden.options, golden.seats, golden.seed)
    monkeypatch.setattr("tests.golden.golden.FOLDER", tmp_path)
    fake.path.write_text(json.dumps(recorded))
    diff = differences(DECIDERS[golden.game], fake)
    assert "views" in diff and "99" in diff
