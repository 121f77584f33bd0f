"""Steps per second through the environments against the engine alone, in one run.

Every side plays the same random policy (a uniform legal action, chosen by index) over the same
deals.  The engine side asks, at each decision, what any agent asks: the legal actions and the
seat's observation.  The PettingZoo side (``GoujiEnv``) reads from each observation what
``--read`` names: ``legal`` the legal indices (an index-choosing agent), ``all`` the vector and
the feature rows as well (a learner), ``mask`` samples from the dense mask (PettingZoo's
tutorials' way), from the observation form ``--observation`` names (``rich``, the default here and
the form of the figures in docs/research.md: the indices are in the observation; ``classic``, the
environment's default, and ``vector``: they are in the acting seat's info).  The Gymnasium side (``SeatEnv``, the other seats ``random``) is counted in
decisions, the learner's and the others', so that it compares with the engine's.  Where RLCard or
PettingZoo's classic games are installed, their Dou Dizhu and Leduc hold'em environments run a
random policy in the same run.  Times are CPU seconds of this process (the machine may be shared),
the best of ``--repeat`` rounds.  Prints one JSON document; ``build`` says whether the engine core
is the compiled one (``pip install .``) or pure Python (an editable install).

    python benchmarks/env_speed.py --variant dagang --hands 50 [--read legal|all|mask] [--no-mask]
        [--observation rich|classic|vector]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import time
from typing import Any

import numpy as np

from gouji_rules import catalog
from gouji_rules.env import GoujiEnv, SeatEnv
from gouji_rules.game.rng import SplitMix64, derive
from gouji_rules.play import engine
from gouji_rules.play.engine import Hand

READS = ("legal", "all", "mask")
FORMS = ("rich", "classic", "vector")


def engine_steps(variant_name: str, hands: int, seed: int) -> tuple[int, float]:
    variant = catalog.resolve(variant_name)
    steps = 0
    start = time.process_time()
    for i in range(hands):
        rng = SplitMix64(derive(seed, i, 1))
        hand = Hand.deal(variant, derive(derive(seed, i), 0))  # the deal GoujiEnv.reset(seed=…) makes
        while not hand.is_over:
            legal = hand.legal_actions()
            hand.observation(hand.turn)
            hand.apply(legal[rng.below(len(legal))])
            steps += 1
    return steps, time.process_time() - start


def aec_steps(
    variant_name: str, hands: int, seed: int, dense_mask: bool, read: str, form: str = "rich"
) -> tuple[int, float]:
    env = GoujiEnv(variant_name, dense_mask=dense_mask, observation=form)
    rich = form == "rich"
    steps = 0
    start = time.process_time()
    for i in range(hands):
        rng = SplitMix64(derive(seed, i, 1))
        env.reset(seed=derive(seed, i))
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            entries = obs if rich else info
            if read == "mask":
                legal = np.flatnonzero(obs["action_mask"] if form != "vector" else info["action_mask"])
            else:
                legal = entries["legal_actions"]
                if read == "all":
                    obs["observation"] if form != "vector" else obs
                    entries["action_features"]
            env.step(int(legal[rng.below(len(legal))]))
            steps += 1
    return steps, time.process_time() - start


def seat_env_decisions(variant_name: str, hands: int, seed: int, dense_mask: bool, read: str) -> tuple[int, float]:
    env = SeatEnv(variant_name, seat=0, others="random", dense_mask=dense_mask)
    decisions = 0
    start = time.process_time()
    for i in range(hands):
        rng = SplitMix64(derive(seed, i, 1))
        obs, _ = env.reset(seed=derive(seed, i))
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"]) if read == "mask" else obs["legal_actions"]
            if read == "all":
                obs["observation"]
                obs["action_features"]
            obs, _, done, _, _ = env.step(int(legal[rng.below(len(legal))]))
        assert env.table is not None
        decisions += env.table.game.decisions  # type: ignore[union-attr]  # one hand: a Hand
    return decisions, time.process_time() - start


def rlcard_steps(game: str, episodes: int) -> tuple[int, float] | None:
    """RLCard's own env with its random agents (as RLCard's examples run it)."""
    if importlib.util.find_spec("rlcard") is None:
        return None
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make(game, config={"seed": 1})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    steps = 0
    start = time.process_time()
    for _ in range(episodes):
        trajectories, _ = env.run(is_training=False)
        steps += sum((len(t) - 1) // 2 for t in trajectories)
    return steps, time.process_time() - start


def pettingzoo_classic_steps(episodes: int) -> tuple[int, float] | None:
    """PettingZoo's ``leduc_holdem_v4``, sampling from its mask (PettingZoo's tutorials' way)."""
    try:
        from pettingzoo.classic import leduc_holdem_v4
    except ImportError:  # PettingZoo's classic games need rlcard and pygame
        return None

    env = leduc_holdem_v4.env()
    steps = 0
    start = time.process_time()
    for i in range(episodes):
        env.reset(seed=i)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(env.action_space(agent).sample(obs["action_mask"]))
            steps += 1
    return steps, time.process_time() - start


def rate(measured: tuple[int, float] | None) -> int | None:
    return None if measured is None else round(measured[0] / max(measured[1], 1e-9))


def best(repeat: int, run: Any, *args: Any) -> int | None:
    """The highest rate of ``repeat`` rounds of ``run(*args)``."""
    rates = [rate(run(*args)) for _ in range(repeat)]
    return None if rates[0] is None else max(r for r in rates if r is not None)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="dagang")
    ap.add_argument("--hands", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-mask", action="store_true", help="environments without the dense action mask")
    ap.add_argument("--read", choices=READS, default="legal", help="what the environments' policy reads")
    ap.add_argument("--observation", choices=FORMS, default="rich", help="GoujiEnv's observation form")
    ap.add_argument("--repeat", type=int, default=3, help="rounds of each measurement; the best is kept")
    ap.add_argument("--others", action="store_true", help="RLCard's and PettingZoo's envs too, where installed")
    args = ap.parse_args()
    if args.read == "mask" and args.no_mask:
        ap.error("--read mask needs the dense mask (leave out --no-mask)")
    if args.observation == "classic" and args.no_mask:
        ap.error("the classic observation always has the dense mask (leave out --no-mask)")
    dense = not args.no_mask
    n, seed, r = args.hands, args.seed, max(1, args.repeat)
    es = best(r, engine_steps, args.variant, n, seed)
    aec = best(r, aec_steps, args.variant, n, seed, dense, args.read, args.observation)
    seat = best(r, seat_env_decisions, args.variant, n, seed, dense, args.read)
    assert es is not None and aec is not None and seat is not None
    doc: dict[str, Any] = {
        "variant": args.variant,
        "hands": args.hands,
        "repeat": r,
        "build": "pure" if engine.__file__.endswith(".py") else "compiled",
        "dense_mask": dense,
        "read": args.read,
        "observation": args.observation,
        "engine_steps_per_second": es,
        "env_steps_per_second": aec,
        "env_to_engine_ratio": round(aec / es, 3),
        "seat_env_decisions_per_second": seat,
        "seat_env_to_engine_ratio": round(seat / es, 3),
    }
    if args.others:
        doc["rlcard_doudizhu_steps_per_second"] = best(r, rlcard_steps, "doudizhu", 200)
        doc["pettingzoo_leduc_holdem_v4_steps_per_second"] = best(r, pettingzoo_classic_steps, 2000)
    print(json.dumps(doc))


if __name__ == "__main__":
    main()
