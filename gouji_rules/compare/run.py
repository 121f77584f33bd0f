"""Run a comparison and build its document (the ``--json`` output every other format is drawn from).

The document is a pure function of the variants, the number of deals, the seed
and the agents: the backend, the number of workers and the clock appear only
under its ``timing`` key, so two runs that differ in those give documents that
are equal once ``timing`` is removed.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from ..errors import GoujiError
from ..variant import Variant
from .backends import Backend, SerialBackend
from .cross import cross_pairing, with_cross, without_cross
from .findings import findings, in_units, power, proportional, unit_difference
from .rulediff import between_hands, rule_differences
from .skill import parse_agents, score_unit, sides
from .stats import Z975, Histogram
from .work import (
    DEALS_PER_UNIT,
    Tally,
    VariantSource,
    hand_metrics,
    load,
    metrics_for,
    owed_kinds,
    plan,
    tally_for,
)

SCHEMA_VERSION = 6
CONFIDENCE = 0.95
POWER = 0.8
"""The power of the "detectable" change: an interval clear of 0 in this share of runs (findings.power)."""


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


class MatchPlan(NamedTuple):
    """How a run plays its deals: ``hands`` per match (0: single hands) over ``deals`` deal indices.

    ``auto``: compare chose matches itself because ``rules`` (the differing rules that act between
    hands) show only in matches; ``asked`` is the number of deals the caller asked for.
    """

    deals: int
    hands: int
    auto: bool
    asked: int
    rules: tuple[str, ...]


def plan_matches(variants: Sequence[Variant], deals: int, match_hands: int | None) -> MatchPlan:
    """Resolve ``match_hands``: a number is kept; None (auto) plays matches when a differing rule
    acts between hands, of the baseline's own ``match.hands``, as many as keep the hands dealt
    about ``deals`` (⌈deals / K⌉ matches of K hands, but two at least when ``deals`` ≥ 2, so there
    is an interval), so the run takes about as long as asked."""
    rules = tuple(between_hands(rule_differences(variants)))
    if match_hands is not None:
        return MatchPlan(deals, match_hands, False, deals, rules)
    if not rules:
        return MatchPlan(deals, 0, True, deals, rules)
    k = variants[0].match.hands
    matches = min(deals, max(2, -(-deals // k)))  # two at least, for an interval, when two deals were asked
    return MatchPlan(matches, k, True, deals, rules)


def compare(
    sources: Sequence[VariantSource],
    deals: int,
    seed: int = 0,
    agents: str = "greedy",
    backend: Backend | None = None,
    progress: Callable[[int], None] | None = None,
    per_unit: int = DEALS_PER_UNIT,
    match_hands: int | None = 0,
    cross_check: str = "none",
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals under every variant and return the comparison document.

    ``sources`` are shipped names, variant file paths or Variants; the first is the
    baseline every difference is taken against.  With ``match_hands`` K > 0 every deal
    index is a match of K hands instead of a single hand; with None compare decides
    (:func:`plan_matches`).  ``cross_check`` (``greedy``, ``ismcts``; ``none`` by default
    here, ``greedy`` in the CLI) plays the same deals again with that kind of agent and keeps
    as findings only what both see (compare/cross.py).  ``progress`` is called with the number
    of deals (or matches) finished after each work unit, counting both passes.
    """
    if len(sources) < 2:
        raise GoujiError("compare needs at least two variants")
    if deals < 1:
        raise GoujiError("compare needs at least one deal")
    if match_hands is not None and match_hands < 0:
        raise GoujiError("match_hands must be 0 (single hands) or more")
    parse_agents(agents)  # one agent for every seat, or side A,side B (compare/skill.py)
    second, skipped = cross_pairing(agents, cross_check)
    variants = [load(s)[0] for s in sources]  # fail early, before any worker starts
    chosen = plan_matches(variants, deals, match_hands)
    deals, match_hands = chosen.deals, chosen.hands
    backend = backend or SerialBackend()
    owed = owed_kinds()  # the tribute kinds registered now, each measured as owed_<kind>
    total = tally_for(variants, match_hands, owed)
    start = time.perf_counter()
    for tally in backend.run(plan(seed, deals, sources, agents, per_unit, match_hands, owed)):
        total.merge(tally)
        if progress is not None:
            progress(total.deals)
    names = labels([v.name for v in variants])
    doc = document(total, names, variants, sources, seed, agents, per_unit, match_hands, owed, chosen)
    if second is None:
        without_cross(doc, cross_check, skipped)
    else:
        again = tally_for(variants, match_hands, owed)
        for tally in backend.run(plan(seed, deals, sources, second, per_unit, match_hands, owed)):
            again.merge(tally)
            if progress is not None:
                progress(total.deals + again.deals)
        with_cross(
            doc,
            document(again, names, variants, sources, seed, second, per_unit, match_hands, owed, chosen),
            cross_check,
        )
    seconds = time.perf_counter() - start
    hands = 2 * deals * len(sources) * max(1, match_hands) * (1 if second is None else 2)
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
    chosen: MatchPlan | None = None,
) -> dict[str, Any]:
    """The comparison document from the merged tally (no timings: those are added by the caller).
    ``owed``: the tribute kinds the run measured (default: those registered now); ``chosen``: how
    the run was planned (default: as given, ``match_hands`` hands a match).

    A deal's sum over its two seatings is turned into a per-hand mean by dividing by 2
    (single hands) or 2K (a match of K hands); a match metric by 2.
    """
    metrics = metrics_for(match_hands, owed)
    per_hand = len(hand_metrics(owed))
    scales = [2 * max(1, match_hands)] * per_hand + [2] * (len(metrics) - per_hand)
    units = total.units or tuple(score_unit(v) for v in variants)
    points = [(i, metrics[i]) for i in (total.points or tuple(i for i, m in enumerate(metrics) if m.points))]
    hands = 2 * total.deals * max(1, match_hands)
    results = []
    for label, accs, unit in zip(names, total.per_variant, units, strict=True):
        ests = {m.id: acc.estimate(k).to_json() for m, acc, k in zip(metrics, accs, scales, strict=True)}
        result: dict[str, Any] = {"variant": label, "metrics": ests}
        if unit:
            result["in_units"] = {m.id: in_units(accs[i], scales[i], unit) for i, m in points}
        results.append(result)
    differences = []
    for v, (label, accs) in enumerate(zip(names[1:], total.diffs, strict=True), start=1):
        diffs: dict[str, Any] = {}
        power_of: dict[str, Any] = {}
        for m, acc, k in zip(metrics, accs, scales, strict=True):
            est = acc.estimate(k)
            diffs[m.id] = {**est.to_json(), "clear": est.clear}
            base_mean = results[0]["metrics"][m.id]["mean"]
            power_of[m.id] = power(acc, k, base_mean, results[v]["metrics"][m.id]["mean"], hands)
        unit_diffs = {
            m.id: unit_difference(acc, scales[i], units[0], units[v])
            for (i, m), acc in zip(points, total.unit_diffs[v - 1], strict=True)
        }
        rescaled = units[0] != units[v]
        found, scale_only = findings(metrics, diffs, unit_diffs, rescaled)
        differences.append(
            {
                "variant": label,
                "baseline": names[0],
                "metrics": diffs,
                "in_units": unit_diffs,
                "scale": {
                    "ratio": round(units[v] / units[0], 6) if units[0] and units[v] else None,
                    "proportional": proportional(variants[0], variants[v], units[0], units[v]),
                    "only_scale": scale_only,
                },
                "findings": found,
                "power": power_of,
            }
        )
    chosen = chosen or MatchPlan(total.deals, match_hands, False, total.deals, ())
    doc: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "command": "compare",
        "seed": seed,
        "deals": total.deals,
        "match_hands": match_hands,
        "hands_per_variant": hands,
        "agents": agents,
        "sides": sides(agents, variants, names),
        "deals_per_unit": per_unit,
        "confidence": CONFIDENCE,
        "power": POWER,
        "method": (
            "every variant plays the same deals, each deal twice (as dealt and with the seats rotated by one); "
            "a deal's value is the mean over its two seatings; differences are paired by deal; "
            f"intervals are mean ± t(0.975, n−1)·s/√n (→ {Z975:.2f}·s/√n for large n)"
        ),
        "variants": [
            {
                "label": label,
                "name": v.name,
                "title": v.title,
                "source": v.source,
                "spec": _spec(s),
                "score_unit": unit,
                "score_unit_zh": v.places.names[0] if v.places.names else "",
            }
            for label, v, s, unit in zip(names, variants, sources, units, strict=True)
        ],
        "baseline": names[0],
        "rule_differences": rule_differences(variants),
        "matches": _matches(chosen, sources, seed, agents, variants),
        "metrics": [m._asdict() for m in metrics],
        "results": results,
        "differences": differences,
        "score_distribution": _distribution(names, total.scores),
    }
    if match_hands:
        doc["match_score_distribution"] = _distribution(names, total.match_scores)
    return doc


def _matches(
    chosen: MatchPlan, sources: Sequence[VariantSource], seed: int, agents: str, variants: Sequence[Variant]
) -> dict[str, Any]:
    """Whether the run played matches, why, and (when rules act between hands but it did not)
    the exact command that would."""
    command = None
    if chosen.rules and not chosen.hands and all(isinstance(s, str) for s in sources):
        k = variants[0].match.hands
        words = ["gouji", "compare", *(_spec(s) for s in sources), "--hands", str(chosen.asked)]
        words += ["--match-hands", str(k), "--seed", str(seed), "--agents", agents]
        command = " ".join(shlex.quote(w) for w in words)
    return {
        "between_hands": list(chosen.rules),
        "played": chosen.hands > 0,
        "auto": chosen.auto,
        "hands": chosen.hands,
        "deals_asked": chosen.asked,
        "command": command,
    }


def _distribution(names: Sequence[str], hists: Sequence[Histogram]) -> list[dict[str, Any]]:
    return [
        {"variant": label, "counts": {str(k): n for k, n in h.items()}} for label, h in zip(names, hists, strict=True)
    ]


def _spec(source: VariantSource) -> str:
    return source if isinstance(source, str) else f"<python:{source.name}>"


def strip_timing(doc: dict[str, Any]) -> dict[str, Any]:
    """The document without its ``timing`` key: what must be equal between equivalent runs."""
    return {k: v for k, v in doc.items() if k != "timing"}
