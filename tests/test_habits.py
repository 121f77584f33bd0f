"""benchmarks/habits.py: a run counts each blunder (gouji_rules.play.blunders) and the records' closed points and burns."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from gouji_rules.catalog import dagang


def _load() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "habits.py"
    spec = importlib.util.spec_from_file_location("habits", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["habits"] = mod  # dataclasses look their module up by name
    spec.loader.exec_module(mod)
    return mod


habits = _load()


@pytest.mark.parametrize("agent", ["greedy", "simple", "unguarded"])
def test_habits_counts_a_short_run(agent: str) -> None:
    row = habits.habits("dagang", agent, hands=2, seed=1)
    assert row["hands"] == 2
    assert set(row["habits"]) == {"fours_before_open", "jokerless_burn", "lone_big_joker"}


def test_closed_points_and_failed_burns_are_counted_per_hand_from_the_records() -> None:
    """Issue 32: "it closes its own 开点 no more often than greedy" — the rate the report gives is the
    hands' own ``point_closed`` events per hand, and burns and failed burns likewise."""
    from gouji_rules.game.rng import derive
    from gouji_rules.play.agents import GreedyAgent
    from gouji_rules.play.match import play_match

    row = habits.habits("dagang", "greedy", 8, 7)
    m = play_match(dagang(), derive(7, 0), 8, [GreedyAgent() for _ in range(6)])
    events = [e["type"] for s in m.summaries for e in s.record["events"]]
    assert row["per_hand"]["point_closed"] == round(events.count("point_closed") / 8, 3) > 0
    assert row["per_hand"]["burn_fail"] == round(events.count("burn_fail") / 8, 3)
