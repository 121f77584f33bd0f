"""Measurements for ``gouji bench``: loading variant files and running expression hooks.

``bench_load`` times load + validate + compile of a club file with a two-level
extends chain (club -> dianshaomenla -> dagang), warm (after one untimed load);
``bench_cold_start`` times ``gouji validate`` in fresh processes, as a club runs it.
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

from ..errors import GoujiError
from ..parts.hooks import HOOKS
from . import load_file, load_text

CLUB = "extends: dianshaomenla\nname: bench_club\nburn:\n  teammate: false\n"

EQUIVALENT_HOOKS = {name: HOOKS[name].expression for name in ("is_gouji", "is_pure_gouji", "may_answer", "team_score")}
"""dagang's defaults for these hooks, written as expressions (``HookSpec.expression``: the same game)."""


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
    from ..catalog import dagang
    from ..sim import simulate

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


COVER_AS_HOOK = HOOKS["beats"].expression
"""dagang's beat relation (``cover``, 大王 dead) written out as a ``beats`` expression, without ``default``."""


def bench_beats(hands: int, seed: int, runs: int = 3) -> dict[str, Any]:
    """Engine speed with the beat relation as a ``beats`` hook vs the same relation as ``cover``.

    Both variants are loaded fresh for every run (the hook's tables start empty, as in a new
    process), played alternately, greedy agents; the ratio is the median of the runs' ratios."""
    from ..sim import simulate

    out: dict[str, Any] = {"schema_version": 1, "hands": hands, "seed": seed, "agents": "greedy", "runs": runs}
    ratios: list[float] = []
    speeds: dict[str, list[float]] = {"builtin": [], "hook": []}
    same = True
    for _ in range(max(1, runs)):
        plain = load_text("extends: dagang\nname: dagang_cover\n", "<bench>")
        hooked = load_text(f'extends: dagang\nname: dagang_beats\nhooks:\n  beats: "{COVER_AS_HOOK}"\n', "<bench>")
        results = {}
        for label, variant in (("builtin", plain), ("hook", hooked)):
            variant.rules  # noqa: B018 - compile outside the timed part
            results[label] = simulate(variant, hands, seed, "greedy")
            speeds[label].append(results[label]["decisions_per_second"] or 0.0)
        same = same and all(
            results["builtin"][k] == results["hook"][k] for k in ("decisions", "team_points", "places", "events")
        )
        if speeds["builtin"][-1]:
            ratios.append(speeds["hook"][-1] / speeds["builtin"][-1])
    out["decisions"] = results["builtin"]["decisions"]
    out["same_game"] = same
    out["decisions_per_second_builtin"] = round(statistics.median(speeds["builtin"]), 1)
    out["decisions_per_second_hook"] = round(statistics.median(speeds["hook"]), 1)
    out["ratio_hook_to_builtin"] = round(statistics.median(ratios), 3) if ratios else None
    out["hook"] = COVER_AS_HOOK
    return out


COLD_CLUB = """\
# a club's house rules: the 够级大纲 with its own scores and answering rule
extends: dagang
name: cold_club
title: 俱乐部够级
scoring:
  points: [6, 3, 0, 0, -3, -6]
hooks:
  may_answer: free_for_all or owner_no_head or is_opposite
"""
"""What ``bench_cold_start`` validates: a small club file that extends a shipped variant and has a hook."""


def _children_cpu_ms() -> float | None:
    """CPU (user + system) milliseconds of every child process waited for so far (None where unknown)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return None
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


def _run_ms(argv: list[str], cwd: str) -> tuple[float, float | None]:
    """Wall-clock and CPU (user + system) milliseconds of one fresh process (CPU None where unknown)."""
    import subprocess

    before = _children_cpu_ms()
    start = time.perf_counter()
    subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = (time.perf_counter() - start) * 1000
    after = _children_cpu_ms()
    return wall, (after - before if before is not None and after is not None else None)


def _check_succeeds(key: str, argv: list[str], cwd: str) -> None:
    """Run a measured command once; a failing one is never timed (an error exits quickly)."""
    import subprocess

    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or ["(nothing on stderr)"])[0]
        raise GoujiError(f"{key}: {' '.join(argv)} exited with {done.returncode}: {first}")


def bench_cold_start(runs: int = 20) -> dict[str, Any]:
    """``gouji validate`` from a cold start: ``runs`` fresh Python processes each, medians in ms.

    The command is the installed ``gouji`` script beside this Python, as a club runs it (``python -m
    gouji_rules.cli`` where there is none).

    Measured: a club file (:data:`COLD_CLUB`, extends dagang, one hook) and the shipped
    ``dianshaomenla``; ``gouji --help``; and the floor, a bare ``python -c pass`` and
    ``python -S -c pass``.  Runs are interleaved, so other load on the machine falls on all alike;
    CPU time (user + system of the child) is less sensitive to that load than wall time."""
    import os
    import sys

    from .merge import shipped_file

    runs = max(1, runs)
    script = Path(sys.executable).parent / ("gouji.exe" if os.name == "nt" else "gouji")
    gouji = [str(script)] if script.is_file() else [sys.executable, "-m", "gouji_rules.cli"]
    with tempfile.TemporaryDirectory() as tmp:
        club = Path(tmp) / "club.yaml"
        club.write_text(COLD_CLUB, encoding="utf-8")
        shipped = str(shipped_file("dianshaomenla"))
        commands = {
            "validate_cold_start": [*gouji, "validate", str(club)],
            "validate_dianshaomenla_cold_start": [*gouji, "validate", shipped],
            "help_cold_start": [*gouji, "--help"],
            "python_start": [sys.executable, "-c", "pass"],
            "python_start_no_site": [sys.executable, "-S", "-c", "pass"],
        }
        for key, argv in commands.items():  # untimed: writes the bytecode caches where Python may
            _check_succeeds(key, argv, tmp)
        walls: dict[str, list[float]] = {k: [] for k in commands}
        cpus: dict[str, list[float]] = {k: [] for k in commands}
        for _ in range(runs):
            for key, argv in commands.items():
                wall, cpu = _run_ms(argv, tmp)
                walls[key].append(wall)
                if cpu is not None:
                    cpus[key].append(cpu)
    out: dict[str, Any] = {"schema_version": 1, "runs": runs}
    for key in commands:
        out[f"{key}_ms_median"] = round(statistics.median(walls[key]), 1)
        if cpus[key]:
            out[f"{key}_cpu_ms_median"] = round(statistics.median(cpus[key]), 1)
    out["validate_cold_start_file"] = "club.yaml: extends dagang, scoring.points, hooks.may_answer (dsl/bench.py)"
    out["validate_cold_start_command"] = "gouji" if len(gouji) == 1 else "python -m gouji_rules.cli"
    out["bytecode_cached"] = not (sys.flags.dont_write_bytecode or os.environ.get("PYTHONDONTWRITEBYTECODE"))
    out["load_average"] = [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None
    out["target_ms"] = 100
    return out
