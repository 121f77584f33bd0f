"""Which rule parameters each expression hook decides instead of the engine's default.

A hook replaces a rule the engine would otherwise compute from parameters: a club's
``is_gouji`` decides what is 够级, so ``gouji.joker_sets`` no longer counts, and
``gouji.thresholds`` counts only as the ``threshold`` the expression may read.  ``gouji
explain`` prints such parameters as decided by the hook (never as if they held), and
``gouji validate`` warns about a parameter that a hook has made dead.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Override:
    """``section``: where the rule sheet shows the hook; ``fields``: the ``section.field`` parameters it
    decides; ``via``: context names through which a parameter's value reaches the expression."""

    section: str
    fields: tuple[str, ...] = ()
    via: Mapping[str, str] = field(default_factory=dict)


OVERRIDES: dict[str, Override] = {
    "is_gouji": Override(
        "gouji", ("gouji.thresholds", "gouji.joker_sets", "gouji.twos_count"), {"threshold": "gouji.thresholds"}
    ),
    "is_pure_gouji": Override("gouji", ("gouji.pure_twos",)),
    "may_answer": Override("gouji", ("gouji.answer", "play.no_head")),
    "team_score": Override("scoring", ("scoring.positive_only",)),
    "sweep_multiplier": Override("scoring", ("scoring.sweep_multiplier",)),
    "kang_self": Override("kang", ("kang.small",)),
    "kang_team": Override("kang", ("kang.big",)),
    "tribute_card": Override("tribute", ("tribute.cards",)),
    "geming_eligible": Override("geming"),
    "chongdian_eligible": Override("chongdian", ("chongdian.max_rank", "chongdian.sets")),
}


def decided(hooks: Mapping[str, object]) -> dict[str, tuple[str, bool]]:
    """``section.field`` -> (the hook deciding it, whether the expression reads the field's value)."""
    out: dict[str, tuple[str, bool]] = {}
    for name, hook in hooks.items():
        o = OVERRIDES.get(name)
        if o is None:
            continue
        uses: frozenset[str] = getattr(hook, "uses", frozenset())
        read = {o.via[n] for n in uses if n in o.via}
        for f in o.fields:
            out[f] = (name, f in read)
    return out
