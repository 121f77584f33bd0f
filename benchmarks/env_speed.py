"""Steps per second through the PettingZoo environment against the engine alone.

Both sides play the same random policy (a uniform legal action, chosen by index)
over the same deals; the environment also builds each observation: the vector, the
legal indices, the per-action features and, unless --no-mask, the dense mask.
Prints one JSON document.

    python benchmarks/env_speed.py --variant dagang --hands 50
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from gouji_rules import catalog
from gouji_rules.engine import Hand
from gouji_rules.env import GoujiEnv
from gouji_rules.rng import SplitMix64, derive


def engine_steps(variant_name: str, hands: int, seed: int) -> tuple[int, float]:
    variant = catalog.resolve(variant_name)
    steps = 0
    start = time.perf_counter()
    for i in range(hands):
        rng = SplitMix64(derive(seed, i, 1))
        hand = Hand.deal(variant, derive(derive(seed, i), 0))  # the deal GoujiEnv.reset(seed=…) makes
        while not hand.is_over:
            legal = hand.legal_actions()
            hand.observation(hand.turn)
            hand.apply(legal[rng.below(len(legal))])
            steps += 1
    return steps, time.perf_counter() - start


def env_steps(variant_name: str, hands: int, seed: int, dense_mask: bool) -> tuple[int, float]:
    env = GoujiEnv(variant_name, dense_mask=dense_mask)
    steps = 0
    start = time.perf_counter()
    for i in range(hands):
        rng = SplitMix64(derive(seed, i, 1))
        env.reset(seed=derive(seed, i))
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal: np.ndarray = obs["legal_actions"]
            env.step(int(legal[rng.below(len(legal))]))
            steps += 1
    return steps, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="dagang")
    ap.add_argument("--hands", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-mask", action="store_true", help="leave out the dense action mask")
    args = ap.parse_args()
    es, et = engine_steps(args.variant, args.hands, args.seed)
    vs, vt = env_steps(args.variant, args.hands, args.seed, not args.no_mask)
    print(
        json.dumps(
            {
                "variant": args.variant,
                "hands": args.hands,
                "dense_mask": not args.no_mask,
                "engine_steps_per_second": round(es / et),
                "env_steps_per_second": round(vs / vt),
                "env_to_engine_ratio": round((vs / vt) / (es / et), 3),
                "steps": [es, vs],
            }
        )
    )


if __name__ == "__main__":
    main()
