"""gouji against its peers: decisions per second with uniform random agents, one core, one run.

    python benchmarks/peers.py [--seconds 10] [--rounds 3] [--json]

Measures ``gouji_rules`` (dagang, the engine alone: the same loop as ``gouji bench``), RLCard's
Dou Dizhu and OpenSpiel's C++ Dou Dizhu (``pyspiel``) when they are importable; it installs
nothing (``pip install rlcard open-spiel`` in the same environment to include them).  Each
round times every engine in turn for the same wall time, so a change in the machine's load
touches all of them alike; the figure is the median over the rounds and the ratios are
gouji / peer.  The machine's load average before and after is printed with the figures,
because the ratios are only as good as the quiet of the machine.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable

Runner = Callable[[float], tuple[int, float]]
"""Play for about ``seconds``; return (decisions, seconds actually spent)."""


def gouji_runner() -> Runner:
    from gouji_rules import catalog
    from gouji_rules.play.engine import Hand

    variant = catalog.resolve("dagang")
    variant.rules  # compile outside the timed part  # noqa: B018
    rng = random.Random(1)

    def run(seconds: float) -> tuple[int, float]:
        decisions, seed = 0, 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            hand = Hand.deal(variant, seed=seed)
            seed += 1
            while not hand.is_over:
                legal = hand.legal_actions()
                hand.apply(legal[rng.randrange(len(legal))])
                decisions += 1
        return decisions, time.perf_counter() - start

    return run


def openspiel_runner() -> Runner:
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(1)

    def run(seconds: float) -> tuple[int, float]:
        decisions = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
                    decisions += 1
        return decisions, time.perf_counter() - start

    return run


def rlcard_runner() -> Runner:
    import rlcard  # type: ignore[import-not-found]

    env = rlcard.make("doudizhu", config={"seed": 1})
    rng = random.Random(1)

    def run(seconds: float) -> tuple[int, float]:
        decisions = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state, _ = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _ = env.step(legal[rng.randrange(len(legal))])
                decisions += 1
        return decisions, time.perf_counter() - start

    return run


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="wall time per engine per round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if not (0 < args.seconds <= 600 and 1 <= args.rounds <= 20):
        ap.error("--seconds must be in (0, 600] and --rounds in 1..20")

    runners: dict[str, Runner] = {"gouji_rules": gouji_runner()}
    missing: list[str] = []
    for name, make in (("openspiel_doudizhu", openspiel_runner), ("rlcard_doudizhu", rlcard_runner)):
        try:
            runners[name] = make()
        except ImportError:
            missing.append(name)
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core for everyone

    load_before = os.getloadavg()
    rates: dict[str, list[float]] = {name: [] for name in runners}
    for r in range(args.rounds):
        for name, run in runners.items():
            n, s = run(args.seconds)
            rates[name].append(n / s)
            print(f"round {r + 1}: {name:<20} {n / s:>12,.0f} decisions/s", file=sys.stderr)
    load_after = os.getloadavg()

    median = {name: statistics.median(v) for name, v in rates.items()}
    doc = {
        "schema_version": 1,
        "decisions_per_second": {k: round(v) for k, v in median.items()},
        "ratio_gouji_to": {k: round(median["gouji_rules"] / v, 2) for k, v in median.items() if k != "gouji_rules"},
        "not_installed": missing,
        "seconds_per_round": args.seconds,
        "rounds": args.rounds,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in load_after],
        "python": platform.python_version(),
        "machine": platform.machine(),
        "measured_at": time.strftime("%Y-%m-%d %H:%M"),
    }
    if args.json:
        print(json.dumps(doc, indent=2))
        return 0
    print("| engine | decisions/s (median) | gouji ÷ engine |")
    print("|---|---|---|")
    for name, v in median.items():
        ratio = "1.00" if name == "gouji_rules" else f"{median['gouji_rules'] / v:.2f}"
        print(f"| {name} | {v:,.0f} | {ratio} |")
    print(f"\nload average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min); {platform.python_version()}")
    if missing:
        print(f"not installed, not measured: {', '.join(missing)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
