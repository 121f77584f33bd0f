"""Run a comparison and build its document (the ``--json`` output every other format is drawn from).

The document is a pure function of the variants, the number of deals, the seed
and the agents: the backend, the number of workers and the clock appear only
under its ``timing`` key, so two runs that differ in those give documents that
are equal once ``timing`` is removed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import GoujiError
from .backends import Backend, SerialBackend
from .rulediff import rule_differences
from .skill import parse_agents
from .stats import Z975, Histogram
from .work import DEALS_PER_UNIT, Tally, VariantSource, hand_metrics, load, metrics_for, owed_kinds, plan

SCHEMA_VERSION = 1
CONFIDENCE = 0.95


def labels(names: Sequence[str]) -> list[str]:
    """Unique display labels: a name given twice becomes ``name``, ``name#2``.

    >>> labels(["dagang", "dagang", "x"])
    ['dagang', 'dagang#2', 'x']
    """
    out: list[str] = []
    for name in names:
        label, k = name, 1
        while label in out:
            k += 1
            label = f"{name}#{k}"
        out.append(label)
    return out


def compare(
    sources: Sequence[VariantSource],
    deals: int,
    seed: int = 0,
    agents: str = "greedy",
    backend: Backend | None = None,
    progress: Callable[[int], None] | None = None,
    per_unit: int = DEALS_PER_UNIT,
    match_hands: int = 0,
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals under every variant and return the comparison document.

    ``sources`` are shipped names, variant file paths or Variants; the first is the
    baseline every difference is taken against.  With ``match_hands`` K > 0 every deal
    index is a match of K hands instead of a single hand.  ``progress`` is called with
    the number of deals finished after each work unit.
    """
    if len(sources) < 2:
        raise GoujiError("compare needs at least two variants")
    if deals < 1:
        raise GoujiError("compare needs at least one deal")
    if match_hands < 0:
        raise GoujiError("match_hands must be 0 (single hands) or more")
    parse_agents(agents)  # one agent for every seat, or side A,side B (compare/skill.py)
    variants = [load(s)[0] for s in sources]  # fail early, before any worker starts
    backend = backend or SerialBackend()
    owed = owed_kinds()  # the tribute kinds registered now, each measured as owed_<kind>
    total = Tally(len(sources), len(metrics_for(match_hands, owed)))
    start = time.perf_counter()
    for tally in backend.run(plan(seed, deals, sources, agents, per_unit, match_hands, owed)):
        total.merge(tally)
        if progress is not None:
            progress(total.deals)
    seconds = time.perf_counter() - start
    names = labels([v.name for v in variants])
    doc = document(total, names, variants, sources, seed, agents, per_unit, match_hands, owed)
    hands = 2 * deals * len(sources) * max(1, match_hands)
    doc["timing"] = {
        "seconds": round(seconds, 3),
        "hands": hands,
        "hands_per_second": round(hands / seconds, 1) if seconds else None,
        "backend": backend.name,
        "workers": backend.workers,
    }
    return doc


def document(
    total: Tally,
    names: list[str],
    variants: Sequence[Any],
    sources: Sequence[VariantSource],
    seed: int,
    agents: str,
    per_unit: int,
    match_hands: int = 0,
    owed: Sequence[str] | None = None,
) -> dict[str, Any]:
    """The comparison document from the merged tally (no timings: those are added by the caller).
    ``owed``: the tribute kinds the run measured (default: those registered now).

    A deal's sum over its two seatings is turned into a per-hand mean by dividing by 2
    (single hands) or 2K (a match of K hands); a match metric by 2.
    """
    metrics = metrics_for(match_hands, owed)
    per_hand = len(hand_metrics(owed))
    scales = [2 * max(1, match_hands)] * per_hand + [2] * (len(metrics) - per_hand)
    results = []
    for label, accs in zip(names, total.per_variant, strict=True):
        ests = {m.id: acc.estimate(k).to_json() for m, acc, k in zip(metrics, accs, scales, strict=True)}
        results.append({"variant": label, "metrics": ests})
    differences = []
    for label, accs in zip(names[1:], total.diffs, strict=True):
        diffs: dict[str, Any] = {}
        for m, acc, k in zip(metrics, accs, scales, strict=True):
            est = acc.estimate(k)
            diffs[m.id] = {**est.to_json(), "clear": est.clear}
        differences.append({"variant": label, "baseline": names[0], "metrics": diffs})
    doc: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "command": "compare",
        "seed": seed,
        "deals": total.deals,
        "match_hands": match_hands,
        "hands_per_variant": 2 * total.deals * max(1, match_hands),
        "agents": agents,
        "deals_per_unit": per_unit,
        "confidence": CONFIDENCE,
        "method": (
            "every variant plays the same deals, each deal twice (as dealt and with the seats rotated by one); "
            "a deal's value is the mean over its two seatings; differences are paired by deal; "
            f"intervals are mean ± t(0.975, n−1)·s/√n (→ {Z975:.2f}·s/√n for large n)"
        ),
        "variants": [
            {"label": label, "name": v.name, "title": v.title, "source": v.source, "spec": _spec(s)}
            for label, v, s in zip(names, variants, sources, strict=True)
        ],
        "baseline": names[0],
        "rule_differences": rule_differences(variants),
        "metrics": [m._asdict() for m in metrics],
        "results": results,
        "differences": differences,
        "score_distribution": _distribution(names, total.scores),
    }
    if match_hands:
        doc["match_score_distribution"] = _distribution(names, total.match_scores)
    return doc


def _distribution(names: Sequence[str], hists: Sequence[Histogram]) -> list[dict[str, Any]]:
    return [
        {"variant": label, "counts": {str(k): n for k, n in h.items()}} for label, h in zip(names, hists, strict=True)
    ]


def _spec(source: VariantSource) -> str:
    return source if isinstance(source, str) else f"<python:{source.name}>"


def strip_timing(doc: dict[str, Any]) -> dict[str, Any]:
    """The document without its ``timing`` key: what must be equal between equivalent runs."""
    return {k: v for k, v in doc.items() if k != "timing"}
