"""What a comparison found: scores in each variant's own units, changes of scale, power, findings.

A club that halves its place scores (2/1/0 instead of 4/2/0) halves every score
metric, and a raw comparison calls each of those halvings a clear difference.  So
every metric measured in points is also given in units of the variant's own 头科
score (:func:`~gouji_rules.compare.skill.score_unit`), and between two variants the
paired difference in those units decides: a raw difference that is clear while the
one in units is not is only a change of scale, said once and not listed as a finding.

For every metric the document also says how large a change this many deals can
see (:func:`~gouji_rules.compare.stats.detectable`, 95% interval, 80% power) and
how many deals a change of a quarter of the baseline's value would take, so "no
clear difference" can be read as "none this large", not "none".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..variant import Variant
from .stats import Moments, deals_needed, detectable

CHANGE = 0.25
"""The change the power statement sizes: a quarter of the baseline's value (of the variant's when
the baseline's is 0)."""


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def in_units(acc: Moments, scale: int, unit: int) -> dict[str, Any] | None:
    """A variant's estimate of a points metric in its own units (None when it keeps no score)."""
    return acc.estimate(scale * unit).to_json() if unit else None


def unit_difference(acc: Moments, scale: int, unit0: int, unit: int) -> dict[str, Any] | None:
    """The paired difference of a points metric in units (``acc`` sums ``y·u₀ − y₀·u`` per deal)."""
    if not unit0 or not unit:
        return None
    est = acc.estimate(scale * unit0 * unit)
    return {**est.to_json(), "clear": est.clear}


def power(acc: Moments, scale: int, base_mean: float, mean: float, hands: int) -> dict[str, Any]:
    """How large a change of a metric this sample can see, from the spread of its paired differences.

    ``status`` is ``never`` when the metric was 0 on every hand of both variants (``bound``: a
    per-hand rate below which that is likely, 3 / hands, the rule of three), ``same`` when the two
    variants gave the same value on every deal (``bound``: the rule changes it on fewer than this
    share of deals, 3 / deals), else ``varies`` with ``detectable`` (the smallest change seen four
    times in five), ``change`` (a quarter of the baseline's value) and ``deals_needed`` for it.
    """
    n = acc.n
    sd = acc.sd(scale)
    out: dict[str, Any] = {"status": "varies", "detectable": None, "change": None, "deals_needed": None, "bound": None}
    if n < 2 or sd is None:
        out["status"] = "few"
        return out
    if sd == 0:
        if base_mean == 0 and mean == 0:
            out.update(status="never", bound=_r(3 / hands))
        else:
            out.update(status="same", bound=_r(3 / n))
        return out
    change = CHANGE * (abs(base_mean) or abs(mean))
    out["detectable"] = _r(detectable(sd, n))
    if change > 0 and math.isfinite(change):
        out.update(change=_r(change), deals_needed=deals_needed(sd, change))
    return out


def proportional(a: Variant, b: Variant, unit_a: int, unit_b: int) -> bool:
    """Are ``b``'s place scores ``a``'s times a constant other than 1 (different, the same in units)?"""
    if not unit_a or not unit_b:
        return False
    pa, pb = list(a.scoring.points), list(b.scoring.points)
    same_in_units = len(pa) == len(pb) and all(x * unit_a == y * unit_b for x, y in zip(pb, pa, strict=True))
    return same_in_units and pa != pb


def findings(
    metrics: Sequence[Any], raw: dict[str, dict[str, Any]], units: dict[str, dict[str, Any] | None], rescaled: bool
) -> tuple[list[str], list[str]]:
    """The clear differences worth reporting, and those that are only a change of scale.

    With the same unit on both sides the raw difference decides.  When the units differ, a
    points metric counts as a finding only when its difference in units is clear; clear raw but
    not in units, it is listed as scale only.
    """
    found: list[str] = []
    scale_only: list[str] = []
    for m in metrics:
        clear = raw[m.id]["clear"]
        u = units.get(m.id)
        if m.points and rescaled and u is not None:
            if u["clear"]:
                found.append(m.id)
            elif clear:
                scale_only.append(m.id)
        elif clear:
            found.append(m.id)
    return found, scale_only


__all__ = ["CHANGE", "findings", "in_units", "power", "proportional", "unit_difference"]
