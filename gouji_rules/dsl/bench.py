"""Measurements for ``gouji bench``: loading variant files and running expression hooks.

``bench_load`` times load + validate + compile of a club file with a two-level
extends chain (club -> dianshaomenla -> dagang), warm (after one untimed load).
``bench_hooks`` plays the same hands twice with greedy agents: once with
dagang's rules as plain parameters, once with the same rules written as
expression hooks, and reports decisions per second of both and their ratio.
Nothing here asserts a speed; the numbers are reported.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from ..sim import simulate
from ..variant import dagang
from . import load_file, load_text

CLUB = "extends: dianshaomenla\nname: bench_club\nburn:\n  teammate: false\n"

EQUIVALENT_HOOKS = {
    "is_gouji": "jokers > 0 or rank >= 'SJ' or (threshold > 0 and count + twos >= threshold)",
    "is_pure_gouji": "gouji and jokers == 0 and twos == 0 and size > 1",
    "may_answer": "free_for_all or owner_no_head or is_opposite or no_head",
    "team_score": "max(0, sum(points))",
}
"""dagang's defaults for these hooks, written as expressions (they must give the same game)."""


def bench_load(n: int) -> dict[str, Any]:
    """Milliseconds to load, validate and compile a variant with a two-level extends chain."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench_club.yaml"
        path.write_text(CLUB, encoding="utf-8")
        load_file(path)  # warm: imports, the grammar, the schema
        times = []
        for _ in range(max(1, n)):
            start = time.perf_counter()
            variant = load_file(path)
            variant.rules  # noqa: B018 - the engine's tables are part of compiling
            times.append((time.perf_counter() - start) * 1000)
    return {
        "schema_version": 1,
        "what": "load + validate + compile, club -> dianshaomenla -> dagang, warm",
        "runs": len(times),
        "ms_median": round(statistics.median(times), 3),
        "ms_min": round(min(times), 3),
        "ms_max": round(max(times), 3),
        "target_ms": 50,
    }


def _quote_hooks() -> str:
    lines = ["extends: dagang", "name: dagang_hooks", "hooks:"]
    for k, v in EQUIVALENT_HOOKS.items():
        lines.append(f'  {k}: "{v}"')
    return "\n".join(lines) + "\n"


def bench_hooks(hands: int, seed: int) -> dict[str, Any]:
    """Engine speed with rules as expression hooks vs the same rules as plain parameters."""
    plain = dagang()
    hooked = load_text(_quote_hooks(), "<bench>")
    out: dict[str, Any] = {"schema_version": 1, "hands": hands, "seed": seed, "agents": "greedy"}
    results = {}
    for label, variant in (("parameters", plain), ("hooks", hooked)):
        variant.rules  # noqa: B018 - compile outside the timed part
        results[label] = simulate(variant, hands, seed, "greedy")
    out["decisions"] = results["parameters"]["decisions"]
    out["same_game"] = (
        results["parameters"]["decisions"] == results["hooks"]["decisions"]
        and results["parameters"]["team_points"] == results["hooks"]["team_points"]
    )
    p = results["parameters"]["decisions_per_second"] or 0.0
    h = results["hooks"]["decisions_per_second"] or 0.0
    out["decisions_per_second_parameters"] = p
    out["decisions_per_second_hooks"] = h
    out["ratio_hooks_to_parameters"] = round(h / p, 3) if p else None
    out["hooks"] = dict(EQUIVALENT_HOOKS)
    return out
