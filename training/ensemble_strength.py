"""Strength of an ensemble of weights files played as one agent: the mean of their Q (``learn.distil.MeanQ``).

Usage: python training/ensemble_strength.py FILE [FILE ...] --guards NAMES [--variants V,…]
       [--against greedy,simple] [--pairs 200] [--match-hands 8] [--seed 2026]

The agent is the first file's (margin, candidates, scope, learned kinds) with the guards named; its team
of three plays ``--against`` on ``benchmarks/strength.py``'s duplicate deals (the same pairs for the same
seed, so the figures sit beside that command's).  This is how the teacher of the shipped file was judged
before it was distilled (docs/research.md, "An ensemble distilled"); the shipped file itself is measured
by ``benchmarks/strength.py``.  One JSON document on stdout, progress on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys

from gouji_rules import catalog
from gouji_rules.errors import GoujiError
from gouji_rules.learn.agent import LearnedAgent
from gouji_rules.learn.carry import score_unit
from gouji_rules.learn.checkpoint import fit_columns, load_weights
from gouji_rules.learn.distil import MeanQ
from gouji_rules.learn.duplicate import duplicate
from gouji_rules.learn.features import ACT_COLUMNS, OBS_COLUMNS
from gouji_rules.play.agents import GreedyAgent, SimpleAgent
from gouji_rules.play.blunders import check_guards


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--guards", default="", help="blunder names, comma-separated")
    ap.add_argument("--variants", default="dagang,dianshaomenla")
    ap.add_argument("--against", default="greedy,simple")
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--match-hands", type=int, default=8)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    baselines = {"greedy": GreedyAgent, "simple": SimpleAgent}
    against = args.against.split(",")
    if args.pairs < 1 or args.match_hands < 0 or not set(against) <= set(baselines):
        ap.error("--pairs at least 1, --match-hands 0 or more, --against among greedy, simple")
    try:
        guards = check_guards([g for g in args.guards.split(",") if g])
    except ValueError as e:
        ap.error(f"--guards: {e}")
    try:
        loaded = [load_weights(f)[:2] for f in args.files]
        mean = MeanQ([fit_columns(net, meta, OBS_COLUMNS, ACT_COLUMNS)[0] for net, meta in loaded])
        variants = [catalog.resolve(v) for v in args.variants.split(",")]
    except (GoujiError, OSError, ValueError) as e:
        print(f"ensemble_strength: {str(e).splitlines()[0]}", file=sys.stderr)
        raise SystemExit(1) from None
    meta = loaded[0][1]

    def agent() -> LearnedAgent:
        return LearnedAgent.from_meta(mean, meta, guards)

    out = []
    for vname, variant in zip(args.variants.split(","), variants, strict=True):
        for b in against:
            s = duplicate(variant, args.pairs, args.seed, agent, baselines[b], None, args.match_hands)
            print(f"{vname} ensemble − {b}: {s}", file=sys.stderr, flush=True)
            out.append(
                {
                    "variant": vname,
                    "team_a": "ensemble",
                    "team_b": b,
                    "pairs": s.pairs,
                    "seed": args.seed,
                    "match_hands": args.match_hands,
                    "mean_points_per_hand": round(s.mean, 4),
                    "ci95": [round(s.low, 4), round(s.high, 4)],
                    "mean_in_top_scores": round(s.mean / score_unit(variant.rules), 4),
                    "files": args.files,
                    "guards": list(guards),
                }
            )
    print(json.dumps(out, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
