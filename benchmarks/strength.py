"""Strength of the agents on duplicate deals: a team of three against a team of three, cards swapped.

Every deal is played twice, the second time with every hand moved one seat on, so each team holds
both sides' cards; a pair's value is team A's mean score difference per hand, and each figure is
the mean over pairs with a 95% interval (mean ± 1.96·s/√n, ``gouji_rules.learn.duplicate``), and the
mean in units of the variant's 头科 score (``mean_in_top_scores``).  ``--match-hands 8`` plays each pair
as a match of 8 hands (what one hand leaves the next counts); ``--variants`` takes files too.
Prints one JSON document; progress goes to stderr.

    python benchmarks/strength.py --pairs 100 --matchups learned-greedy,learned-ismcts=30,ismcts+learned-greedy=10

Agents: ``greedy``, ``simple`` (lowest set first, never over a partner), ``learned`` (the shipped weights, or ``--weights VARIANT=FILE``: that file's network
played as its meta says, margin, candidates and scope), ``unguarded`` (``learned`` without its file's
guards, ``meta["guards"]``: the network's own choice at every decision), ``shipped`` (the shipped weights even with
``--weights``, to measure a new file against them), ``ismcts`` (its default budget: 6 worlds, 4
candidates), ``ismcts+learned`` (the same search with learned rollouts, the shipped weights).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from gouji_rules import catalog
from gouji_rules.learn.agent import LearnedAgent
from gouji_rules.learn.carry import score_unit
from gouji_rules.learn.checkpoint import fit_columns, load
from gouji_rules.learn.duplicate import Strength, duplicate
from gouji_rules.learn.features import ACT_COLUMNS, OBS_COLUMNS
from gouji_rules.learn.net import QNet
from gouji_rules.play.agents import Agent, GreedyAgent, SimpleAgent
from gouji_rules.search import SearchAgent


def factory(name: str, weights: tuple[QNet, dict[str, Any]] | None) -> Callable[[], Agent]:
    if name == "greedy":
        return GreedyAgent
    if name == "simple":
        return SimpleAgent
    if name == "shipped" or (name == "learned" and weights is None):
        return LearnedAgent
    if name == "unguarded" and weights is None:
        return lambda: LearnedAgent(guards=())
    if name in ("learned", "unguarded") and weights is not None:
        net, meta = weights
        return lambda: LearnedAgent.from_meta(net, meta, None if name == "learned" else ())
    if name == "ismcts":
        return SearchAgent
    if name == "ismcts+learned":
        return lambda: SearchAgent(rollout="learned")
    raise SystemExit(f"unknown agent {name!r}: greedy, simple, learned, unguarded, shipped, ismcts, ismcts+learned")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="dagang,dianshaomenla")
    ap.add_argument("--pairs", type=int, default=50, help="deal pairs per matchup (NAME=N in --matchups overrides)")
    ap.add_argument(
        "--matchups", default="learned-greedy,learned-simple,simple-greedy,learned-ismcts=20,ismcts+learned-greedy=10"
    )
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--weights", action="append", default=[], help="VARIANT=FILE: learned plays these weights")
    ap.add_argument(
        "--match-hands",
        type=int,
        default=0,
        help="play each pair as a match of K hands (tribute and all between hands), per hand still; 0: single hands",
    )
    args = ap.parse_args()
    if args.match_hands < 0 or args.pairs < 1:
        ap.error("--match-hands must be 0 or more and --pairs at least 1")
    weights: dict[str, tuple[QNet, dict[str, Any]]] = {}
    for w in args.weights:
        v, _, path = w.partition("=")
        net, meta, _ = load(path)
        weights[v] = (fit_columns(net, meta, OBS_COLUMNS, ACT_COLUMNS)[0], meta)  # read by column name
    out = []
    for vname in args.variants.split(","):
        variant = catalog.resolve(vname)
        for spec in args.matchups.split(","):
            spec, _, n = spec.partition("=")
            a, _, b = spec.partition("-")
            pairs = int(n) if n else args.pairs
            net = weights.get(vname)
            start = time.perf_counter()

            def progress(done: int, s: Strength, label: str = f"{vname} {a} − {b}", total: int = pairs) -> None:
                print(f"{label}: {done}/{total} {s}", file=sys.stderr, flush=True)

            s = duplicate(variant, pairs, args.seed, factory(a, net), factory(b, net), progress, args.match_hands)
            top = score_unit(variant.rules)
            out.append(
                {
                    "variant": vname,
                    "team_a": a,
                    "team_b": b,
                    "pairs": s.pairs,
                    "seed": args.seed,
                    "mean_points_per_hand": round(s.mean, 4),
                    "ci95": [round(s.low, 4), round(s.high, 4)],
                    "match_hands": args.match_hands,
                    "mean_in_top_scores": round(s.mean / top, 4),
                    "seconds": round(time.perf_counter() - start, 1),
                    "weights": next((w for w in args.weights if w.startswith(vname + "=")), "shipped")
                    if {"learned", "unguarded"} & {a, b}
                    else "shipped"
                    if {"shipped", "ismcts+learned"} & {a, b}
                    else None,
                }
            )
    print(json.dumps(out, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
