"""Which guards a weights file plays with: each blunder measured, the ones that pay kept in its meta.

A guard (``gouji_rules.play.blunders``, ``LearnedAgent(guards=…)``) replaces a blunder the network
chooses by its best choice that is none (greedy's choice until session 18).  Whether that helps is a question for the agent's own play, not for the
teacher that trained it: the teacher valued each move by greedy's play of the rest (docs/research.md,
"The guards").  So each blunder is measured as the network plays,
on duplicate deals in matches, under each variant the file plays, against each of ``opponents``: the
network without the guard (``self``), and greedy and simple, paired on the same deals.  A guard is kept
when its mean gain is not below 0 against any of them under any variant: the blunders are the ones
club players point out and issue 32 asks the agent not to make, so a guard stays unless it measurably
costs the agent points.  (Measured against the network alone, both guards of dianshaomenla's file
gained, +0.26 together; against greedy and simple the same guards cost −0.37 and −0.87: whether a habit
is a blunder depends on whom it meets; docs/research.md, "The guards".)  The kept set is then measured
as a whole the same way, and every figure is written in the file's meta (``guard_choice``) beside the
guards (``guards``).  ``reuse``: the figures of an earlier choice on the same deals (its
``guard_choice``), taken instead of measuring them again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from ..play.blunders import BLUNDERS, check_guards
from ..variant import Variant
from .carry import score_unit
from .duplicate import Strength, interval, pair_seed, play_pair
from .net import QNet

GUARD_SEED = 0x6A2D
"""Deals of the guard choice: neither the training figure's, the margin choice's, nor benchmarks/strength.py's."""


def _agent(net: QNet, meta: dict[str, Any], guards: Sequence[str]) -> Any:
    from .agent import LearnedAgent

    return LearnedAgent.from_meta(net, meta, tuple(guards))


OPPONENTS = ("self", "greedy", "simple")
"""Whom a guard is measured against: the unguarded network itself, and the two baselines of issue 32."""


def _opponent(name: str) -> Callable[[], Any]:
    from ..play.agents import GreedyAgent, SimpleAgent

    return {"greedy": GreedyAgent, "simple": SimpleAgent}[name]


def choose_guards(
    net: QNet,
    meta: dict[str, Any],
    variants: Sequence[Variant],
    pairs: int,
    match_hands: int = 8,
    progress: Callable[[str, str, Strength], None] | None = None,
    reuse: dict[str, Any] | None = None,
    opponents: Sequence[str] = OPPONENTS,
    keep: Sequence[str] | None = None,
) -> dict[str, Any]:
    """The guards that pay for ``net`` (played as ``meta`` says) under ``variants``, and every figure:
    ``{"guards": [...], "guard_choice": {"pairs", "match_hands", "seed", "opponents", "figures": [...]}}``.

    Against ``self`` a figure is the guarded network − the unguarded on each deal pair; against another
    agent it is (guarded − it) − (unguarded − it) on the same deal pair, so the deal's luck cancels.
    ``keep``: the guards to keep whatever they measure (``rule`` ``kept``: the habits a club or an issue asks
    gone); only that set is measured, so its cost is written beside it."""
    unknown = [o for o in opponents if o not in OPPONENTS]
    if unknown or not opponents:
        raise ValueError(f"opponents must be among {', '.join(OPPONENTS)}, not {list(opponents)}")
    figures: list[dict[str, Any]] = []
    same = reuse is not None and (reuse.get("pairs"), reuse.get("match_hands"), reuse.get("seed")) == (
        pairs,
        match_hands,
        GUARD_SEED,
    )
    earlier: dict[tuple[tuple[str, ...], str, str], dict[str, Any]] = {}
    if same:
        for f in (reuse or {}).get("figures", []):
            earlier[(tuple(f["guards"]), str(f["variant"]), str(f.get("against", "self")))] = f
    baselines: dict[tuple[str, str], list[float]] = {}

    def values(variant: Variant, a: Callable[[], Any], b: Callable[[], Any]) -> list[float]:
        return [play_pair(variant, pair_seed(GUARD_SEED, i), a, b, match_hands) for i in range(pairs)]

    def measure(guards: Sequence[str], variant: Variant, against: str) -> dict[str, Any]:
        hit = earlier.get((tuple(guards), variant.name, against))
        if hit is not None:
            figures.append(hit)
            return hit
        guarded, bare = partial(_agent, net, meta, guards), partial(_agent, net, meta, ())
        if against == "self":
            gains = values(variant, guarded, bare)
        else:
            key = (variant.name, against)
            if key not in baselines:
                baselines[key] = values(variant, bare, _opponent(against))
            gains = [g - b for g, b in zip(values(variant, guarded, _opponent(against)), baselines[key], strict=True)]
        s = interval(gains)
        row = {
            "guards": list(guards),
            "variant": variant.name,
            "against": against,
            "gain": round(s.mean, 4),
            "ci95": [round(s.low, 4), round(s.high, 4)],
            "in_top_scores": round(s.mean / score_unit(variant.rules), 4),
        }
        figures.append(row)
        if progress is not None:
            progress(f"{'+'.join(guards)} against {against}", variant.name, s)
        return row

    if keep is not None:
        kept = [b for b in BLUNDERS if b in check_guards(list(keep))]
    else:
        kept = []
        for name in BLUNDERS:
            rows = [measure((name,), v, o) for v in variants for o in opponents]
            if all(r["gain"] >= 0 for r in rows):
                kept.append(name)
    if len(kept) > 1 or (keep is not None and kept):
        for v in variants:
            for o in opponents:
                measure(kept, v, o)
    return {
        "guards": kept,
        "guard_choice": {
            "pairs": pairs,
            "match_hands": match_hands,
            "seed": GUARD_SEED,
            "opponents": list(opponents),
            "rule": "kept" if keep is not None else "no loss",
            "figures": figures,
        },
    }


__all__ = ["GUARD_SEED", "OPPONENTS", "choose_guards"]
