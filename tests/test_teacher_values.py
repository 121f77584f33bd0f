"""benchmarks/teacher_values.py: the match-valued teacher read at the positions habits.py calls "4s led before opening"."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


def test_the_teacher_values_fours_against_greedys_lead_with_and_without_the_carry() -> None:
    spec = importlib.util.spec_from_file_location("teacher_values", BENCH / "teacher_values.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    r = mod.fours_values("dagang", positions=3, worlds=2, carry_matches=6, seed=7)
    assert r["positions"] == 3 and r["worlds"] == 2
    hand, carried = r["fours_minus_greedy_hand"], r["fours_minus_greedy_with_carry"]
    assert all(math.isfinite(x) for x in (*hand, *carried))
    assert hand != carried  # the carry moves the values (a closed point owes 点贡)
    assert set(r["carry_prices"]) >= {"point"}
