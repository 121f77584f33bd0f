"""Which guards a weights file plays with: each blunder measured, the ones that pay kept in its meta.

A guard (``gouji_rules.play.blunders``, ``LearnedAgent(guards=…)``) replaces a blunder the network
chooses by greedy's choice.  Whether that helps is a question for the agent's own play, not for the
teacher that trained it: the teacher valued each move by greedy's play of the rest, and greedy
never burns back and never punishes an unopened point the way the network does (docs/research.md,
"The guards").  So each blunder is measured as the network plays: the network with that one guard
against the network without it, on duplicate deals in matches, under each variant the file plays.
A guard is kept when its mean gain is not below 0 under any variant measured: the blunders are the
ones club players point out and issue 32 asks the agent not to make, so a guard stays unless it
measurably costs the agent points (a first rule, kept only where the gain was clear, left out
``fours_before_open`` at +0.10 [−0.00, +0.21] under dianshaomenla; docs/research.md says so).  The
kept set is then measured as a whole the same way, and every figure is written in the file's meta
(``guard_choice``) beside the guards (``guards``).  ``reuse``: the figures of an earlier choice on
the same deals (its ``guard_choice``), taken instead of measuring them again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from ..play.blunders import BLUNDERS
from ..variant import Variant
from .carry import score_unit
from .duplicate import Strength, duplicate
from .net import QNet

GUARD_SEED = 0x6A2D
"""Deals of the guard choice: neither the training figure's, the margin choice's, nor benchmarks/strength.py's."""


def _agent(net: QNet, meta: dict[str, Any], guards: Sequence[str]) -> Any:
    from .agent import LearnedAgent

    return LearnedAgent(
        net,
        margin=float(meta.get("margin", 0.0)),
        candidates=int(meta.get("candidates", 0)),
        scope=meta.get("scope", "all"),
        learned_kinds=meta.get("learned_kinds"),
        guards=tuple(guards),
    )


def choose_guards(
    net: QNet,
    meta: dict[str, Any],
    variants: Sequence[Variant],
    pairs: int,
    match_hands: int = 8,
    progress: Callable[[str, str, Strength], None] | None = None,
    reuse: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The guards that pay for ``net`` (played as ``meta`` says) under ``variants``, and every figure:
    ``{"guards": [...], "guard_choice": {"pairs", "match_hands", "seed", "figures": [...]}}``."""
    figures: list[dict[str, Any]] = []
    same = reuse is not None and (reuse.get("pairs"), reuse.get("match_hands"), reuse.get("seed")) == (
        pairs,
        match_hands,
        GUARD_SEED,
    )
    earlier: dict[tuple[tuple[str, ...], str], dict[str, Any]] = {}
    if same:
        earlier = {(tuple(f["guards"]), str(f["variant"])): f for f in (reuse or {}).get("figures", [])}

    def measure(guards: Sequence[str], variant: Variant) -> dict[str, Any]:
        hit = earlier.get((tuple(guards), variant.name))
        if hit is not None:
            figures.append(hit)
            return hit
        s = duplicate(
            variant,
            pairs,
            GUARD_SEED,
            partial(_agent, net, meta, guards),
            partial(_agent, net, meta, ()),
            match_hands=match_hands,
        )
        row = {
            "guards": list(guards),
            "variant": variant.name,
            "gain": round(s.mean, 4),
            "ci95": [round(s.low, 4), round(s.high, 4)],
            "in_top_scores": round(s.mean / score_unit(variant.rules), 4),
        }
        figures.append(row)
        if progress is not None:
            progress("+".join(guards), variant.name, s)
        return row

    kept = []
    for name in BLUNDERS:
        rows = [measure((name,), v) for v in variants]
        if all(r["gain"] >= 0 for r in rows):
            kept.append(name)
    if len(kept) > 1:
        for v in variants:
            measure(kept, v)
    return {
        "guards": kept,
        "guard_choice": {"pairs": pairs, "match_hands": match_hands, "seed": GUARD_SEED, "figures": figures},
    }


__all__ = ["GUARD_SEED", "choose_guards"]
