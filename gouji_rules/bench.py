"""``gouji bench``: how fast the engine referees, measured, never asserted by a test."""

from __future__ import annotations

import os
import platform
import time
from typing import TYPE_CHECKING, Any

from . import catalog
from .sim import simulate

if TYPE_CHECKING:
    from .variant import Variant


def compiled() -> bool:
    """Is the engine core the mypyc-compiled build (setup.py), judged by the module's file?"""
    from .play import engine

    return not (engine.__file__ or "").endswith(".py")


def copies_per_second(variant: Variant, seed: int, seconds: float = 0.3) -> float:
    """How many ``Hand.copy()`` a second of a mid-hand position (random play to half the decisions)."""
    from .play.agents import RandomAgent
    from .play.engine import Hand

    agents = [RandomAgent() for _ in range(6)]
    hand = Hand.deal(variant, seed)
    for s, a in enumerate(agents):
        a.start_hand(seed, s)
    while not hand.is_over and sum(hand.cards_left()) > len(variant.rules.deck) // 2:
        hand.apply(agents[hand.turn].act(hand.observation(), hand.legal_actions()))
    n = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(200):
            hand.copy()
        n += 200
    return n / elapsed


def run_bench(
    variant_spec: str,
    hands: int,
    seed: int,
    dsl: bool = True,
    schedule_players: int | None = None,
    agent_name: str = "random",
) -> dict[str, Any]:
    """Engine speed with ``agent_name`` in all six seats (random: the engine's own speed; learned:
    the agent's, which includes the engine); with ``dsl``, also variant loading and expression
    hooks; with ``schedule_players``, also how long the event schedules take (tournament/schedule.py)."""
    variant = catalog.resolve(variant_spec)
    variant.rules  # compile outside the timed part  # noqa: B018
    if agent_name != "random":  # load what the agent needs (the learned network) outside the timed part
        simulate(variant, 1, seed ^ 1, agent_name)
    cpu = time.process_time()
    out = simulate(variant, hands, seed, agent_name)
    cpu = time.process_time() - cpu
    copies = copies_per_second(variant, seed)
    extra: dict[str, Any] = {}
    if dsl:
        from .dsl.bench import bench_beats, bench_hooks, bench_load

        load = bench_load(50)
        hooks = bench_hooks(max(50, hands // 5), seed)
        beats = bench_beats(max(50, hands // 5), seed)
        extra = {
            "variant_load_ms_median": load["ms_median"],
            "variant_load_what": load["what"],
            "hooks_decisions_per_second": hooks.get("decisions_per_second_hooks"),
            "parameters_decisions_per_second": hooks.get("decisions_per_second_parameters"),
            "hooks_vs_parameters_ratio": hooks.get("ratio_hooks_to_parameters"),
            "hooks_same_game": hooks.get("same_game"),
            "hook_beats_decisions_per_second": beats.get("decisions_per_second_hook"),
            "builtin_beats_decisions_per_second": beats.get("decisions_per_second_builtin"),
            "hook_beats_vs_builtin_ratio": beats.get("ratio_hook_to_builtin"),
            "hook_beats_same_game": beats.get("same_game"),
        }
    if schedule_players is not None:
        from .tournament.schedule import bench

        extra.update(bench(schedule_players, 3, seed))
    return {
        "schema_version": 1,
        "variant": variant.name,
        "agents": agent_name,
        "hands": hands,
        "seed": seed,
        "decisions": out["decisions"],
        "seconds": out["seconds"],
        "hands_per_second": out["hands_per_second"],
        "decisions_per_second": out["decisions_per_second"],
        # this process's CPU time: the one-core speed even when other processes share the machine
        "cpu_decisions_per_second": round(out["decisions"] / cpu, 1) if cpu > 0 else None,
        "hand_copies_per_second": round(copies, 1),
        "compiled": compiled(),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "measured_at": time.strftime("%Y-%m-%d"),
        **extra,
    }
