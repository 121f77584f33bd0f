"""Findings that hold across agents: the same deals played again by an agent of another kind.

What a comparison measures is what its agents do under each rule set.  One agent's habit (a
network that burns too often, a heuristic that never 开点) can make a rule look as if it changes
the game when it only changes how that agent plays.  So compare plays the same deals a second
time with an agent of another kind (``greedy``, or ``ismcts`` at :data:`~.skill.QUICK_BUDGET`),
and calls a difference a rule's effect only when both agents see it clearly (the 95% interval
excludes 0 for both) and in the same direction.  The others depend on how people play (取决于打法)
and are listed apart.

With ``--agents A,B`` the cross-check keeps the pairing and changes one side: every side played by
``learned`` (the default agent, or ``learned:FILE``) takes the second kind, or side A when neither is ``learned``.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import Any

from ..errors import GoujiError
from ..play.agents import agent_kind
from .skill import QUICK_BUDGET, QUICK_ISMCTS, parse_agents

DEFAULT_AGENTS = "learned"
"""Who plays a comparison unless told (the CLI and the editor's 试打比较)."""
DEFAULT_CROSS_CHECK = "greedy"
"""The second kind unless told: a 200-deal compare with it stays well under two minutes on one core."""
CROSS_KINDS = ("greedy", "ismcts", "none")
_AGENT_OF = {"greedy": "greedy", "ismcts": QUICK_ISMCTS}
_KIND_OF = {"ismcts": "ismcts", QUICK_ISMCTS: "ismcts", "greedy": "greedy"}


def check_kind(kind: str) -> str:
    """``kind`` if it is one of :data:`CROSS_KINDS`, else a GoujiError naming them."""
    if kind not in CROSS_KINDS:
        raise GoujiError(f"--cross-check takes {'|'.join(CROSS_KINDS)}, not {kind!r}")
    return kind


def cross_pairing(agents: str, kind: str) -> tuple[str | None, str]:
    """The agents spec the cross-check plays, and why none when it cannot (a side is of that kind
    already).  ``kind`` ``none``: no cross-check.

    >>> cross_pairing("learned", "greedy")
    ('greedy', '')
    >>> cross_pairing("learned,random", "ismcts")
    ('ismcts-quick,random', '')
    >>> cross_pairing("greedy", "greedy")[0] is None
    True
    """
    if check_kind(kind) == "none":
        return None, ""
    a, b = parse_agents(agents)
    second = _AGENT_OF[kind]
    if a == b:
        swap = [True, True]
    elif "learned" in (agent_kind(a), agent_kind(b)):
        swap = [agent_kind(a) == "learned", agent_kind(b) == "learned"]
    else:
        swap = [True, False]
    sides = [a, b]
    if any(_KIND_OF.get(s) == kind for s, on in zip(sides, swap, strict=True) if on):
        who = " and ".join(
            dict.fromkeys(s for s, on in zip(sides, swap, strict=True) if on and _KIND_OF.get(s) == kind)
        )
        return None, f"{who} is {kind} already"
    new = [second if on else s for s, on in zip(sides, swap, strict=True)]
    return (new[0] if new[0] == new[1] else f"{new[0]},{new[1]}"), ""


def _deciding(diff: dict[str, Any], mid: str, points: bool, rescaled: bool) -> tuple[dict[str, Any], bool]:
    """The estimate that decides whether ``mid`` is a finding: in 头科 units for a points metric when
    the units differ (findings.findings), else the raw difference; and whether it is in units."""
    unit = diff["in_units"].get(mid) if points and rescaled else None
    if unit is not None:
        return unit, True
    return diff["metrics"][mid], False


def agreement(metrics: Sequence[dict[str, Any]], first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    """For every metric either agent finds (``findings``), whether both find it in the same direction.

    Returns ``{"findings": [ids that hold], "depends_on_play": [the others], "cross_check": {id:
    {"holds", "in_units", "compared": estimate, "cross": estimate}}}``, ids in metric order.
    """
    rescaled = first["scale"]["ratio"] not in (None, 1)
    mine, theirs = set(first["findings"]), set(second["findings"])
    holds: list[str] = []
    depends: list[str] = []
    per: dict[str, Any] = {}
    for m in metrics:
        mid = m["id"]
        if mid not in mine and mid not in theirs:
            continue
        a, in_units = _deciding(first, mid, bool(m.get("points")), rescaled)
        b, _ = _deciding(second, mid, bool(m.get("points")), rescaled)
        ok = mid in mine and mid in theirs and (a["mean"] > 0) == (b["mean"] > 0)
        (holds if ok else depends).append(mid)
        per[mid] = {
            "holds": ok,
            "in_units": in_units,
            "compared": {**_est(a), "clear": mid in mine},
            "cross": {**_est(b), "clear": mid in theirs},
        }
    return {"findings": holds, "depends_on_play": depends, "cross_check": per}


def _est(e: dict[str, Any]) -> dict[str, Any]:
    return {"mean": e["mean"], "low": e["low"], "high": e["high"]}


def with_cross(doc: dict[str, Any], second: dict[str, Any], kind: str) -> dict[str, Any]:
    """``doc`` (the compared agents' document) with the cross-check's verdicts: each difference's
    ``findings`` become those both agents agree on, the rest ``depends_on_play``, each with its
    ``cross_check`` entry; ``cross_check`` at the top says who played it and what it measured."""
    for d, e in zip(doc["differences"], second["differences"], strict=True):
        d.update(agreement(doc["metrics"], d, e))
    doc["cross_check"] = {
        "kind": kind,
        "agents": second["agents"],
        "budget": dict(QUICK_BUDGET) if kind == "ismcts" else None,
        "skipped": None,
        "sides": second["sides"],
        "results": second["results"],
        "differences": [
            {k: e[k] for k in ("variant", "baseline", "metrics", "in_units", "scale", "findings")}
            for e in second["differences"]
        ],
    }
    _command(doc, kind)
    return doc


def without_cross(doc: dict[str, Any], kind: str, skipped: str) -> dict[str, Any]:
    """``doc`` as the compared agents found it (``--cross-check none``, or a cross-check that cannot be
    played: ``skipped`` says why): every finding kept, none set apart."""
    for d in doc["differences"]:
        d["depends_on_play"] = []
        d["cross_check"] = {}
    doc["cross_check"] = {
        "kind": kind,
        "agents": None,
        "budget": None,
        "skipped": skipped or None,
        "sides": [],
        "results": [],
        "differences": [],
    }
    _command(doc, kind)
    return doc


def _command(doc: dict[str, Any], kind: str) -> None:
    """The command that would play matches runs as printed: it names the cross-check too."""
    m = doc.get("matches")
    if m and m.get("command"):
        m["command"] += " --cross-check " + shlex.quote(kind)


__all__ = [
    "CROSS_KINDS",
    "DEFAULT_AGENTS",
    "DEFAULT_CROSS_CHECK",
    "agreement",
    "check_kind",
    "cross_pairing",
    "with_cross",
    "without_cross",
]
