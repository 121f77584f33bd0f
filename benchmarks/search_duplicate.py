"""Search agent against greedy on duplicate deals: each deal is played twice, the searching
team holding one side's cards and then the other's (the deal turned one seat), so card luck
cancels and what is left is skill.  Prints one JSON document; progress goes to stderr.

    python benchmarks/search_duplicate.py --variant dagang --pairs 100 --worlds 8 --seats 0,2,4
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

from gouji_rules import catalog
from gouji_rules.game.rng import derive
from gouji_rules.play.agents import Agent, GreedyAgent
from gouji_rules.play.engine import Hand
from gouji_rules.search import SearchAgent


def play(variant_name: str, seed: int, rotate: int, agents: list[Agent]) -> tuple[int, int]:
    hand = Hand.deal(catalog.resolve(variant_name), seed, rotate=rotate)
    for s, a in enumerate(agents):
        a.start_hand(seed, s)
    while not hand.is_over:
        s = hand.turn
        hand.apply(agents[s].act(hand.observation(s), hand.legal_actions()))
    return hand.scores()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="dagang")
    ap.add_argument("--pairs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--worlds", type=int, default=8)
    ap.add_argument("--candidates", type=int, default=6)
    ap.add_argument("--margin", type=float, default=None, help="default: a quarter of the largest place score")
    ap.add_argument("--seats", default="0,2,4", help="seats of team 0 played by the search agent")
    args = ap.parse_args()
    seats = {int(x) for x in args.seats.split(",")}
    if not seats <= {0, 2, 4}:
        ap.error("--seats must be team 0 seats (0, 2, 4)")
    values: list[float] = []
    start = time.perf_counter()
    searched = 0
    for i in range(args.pairs):
        seed = derive(args.seed, i)
        pair = 0.0
        for rotate in (0, 1):
            agents: list[Agent] = [
                SearchAgent(args.worlds, args.candidates, margin=args.margin) if s in seats else GreedyAgent()
                for s in range(6)
            ]
            sc = play(args.variant, seed, rotate, agents)
            pair += (sc[0] - sc[1]) / 2
            searched += sum(a.searched for a in agents if isinstance(a, SearchAgent))
        values.append(pair)
        n = len(values)
        mean = sum(values) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1)) if n > 1 else 0.0
        print(f"{n}/{args.pairs} mean {mean:+.3f} ± {1.96 * sd / math.sqrt(n):.3f}", file=sys.stderr)
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    print(
        json.dumps(
            {
                "variant": args.variant,
                "pairs": n,
                "seed": args.seed,
                "search_seats": sorted(seats),
                "worlds": args.worlds,
                "candidates": args.candidates,
                "margin": args.margin,
                "mean_score_difference_per_hand": round(mean, 4),
                "ci95": [round(mean - half, 4), round(mean + half, 4)],
                "searched_decisions": searched,
                "seconds": round(time.perf_counter() - start, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
