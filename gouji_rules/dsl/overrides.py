"""Which rule parameters each expression hook decides instead of the engine's default.

A hook replaces a rule the engine would otherwise compute from parameters: a club's
``is_gouji`` decides what is 够级, so ``gouji.joker_sets`` no longer counts, and
``gouji.thresholds`` counts only as the ``threshold`` the expression may read.  ``gouji
explain`` prints such parameters as decided by the hook (never as if they held), and
``gouji validate`` warns about a parameter that a hook has made dead.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    from ..section import dataclass  # a frozen dataclass without generated code: on every gouji validate


@dataclass(frozen=True)
class Override:
    """``section``: where the rule sheet shows the hook; ``fields``: the ``section.field`` parameters it
    decides; ``via``: context names through which a parameter's value reaches the expression;
    ``partly``: parameters the hook decides in part, with (zh, en) words for what they still do."""

    section: str
    fields: tuple[str, ...] = ()
    via: Mapping[str, str | tuple[str, ...]] = field(default_factory=dict)
    partly: Mapping[str, tuple[str, str]] = field(default_factory=dict)


OVERRIDES: dict[str, Override] = {
    "is_gouji": Override(
        "gouji", ("gouji.thresholds", "gouji.joker_sets", "gouji.twos_count"), {"threshold": "gouji.thresholds"}
    ),
    "is_pure_gouji": Override("gouji", ("gouji.pure_twos",)),
    "may_answer": Override(
        "gouji", ("gouji.answer", "play.no_head"), {"no_head": "play.no_head", "owner_no_head": "play.no_head"}
    ),
    "team_score": Override("scoring", ("scoring.positive_only",)),
    "sweep_multiplier": Override("scoring", ("scoring.sweep_multiplier",)),
    "kang_self": Override(
        "kang",
        partly={
            "kang.small": (
                "小王扛不扛由表达式决定；这么多张大王仍扛自己的贡",
                "the expression decides for 小王; this many 大王 still exempt the holder",
            )
        },
    ),
    "kang_team": Override("kang", ("kang.big",)),
    "beats": Override(
        "sets", ("sets.beat", "sets.dead", "sets.kill"), {"default": ("sets.beat", "sets.dead", "sets.kill")}
    ),
    "tribute_card": Override("tribute", ("tribute.cards", "tribute.kept_excluded")),
    "geming_eligible": Override("geming"),
    "chongdian_eligible": Override(
        "chongdian",
        ("chongdian.max_rank",),
        partly={
            "chongdian.sets": (
                "谁能冲点由表达式决定；冲点者仍要打出这么多套",
                "the expression decides who may; a 冲点 player still plays this many sets",
            )
        },
    ),
}


def partly(hooks: Mapping[str, object]) -> dict[str, tuple[str, tuple[str, str]]]:
    """``section.field`` -> (the hook deciding it in part, words for what the parameter still does)."""
    return {f: (name, words) for name in hooks if name in OVERRIDES for f, words in OVERRIDES[name].partly.items()}


def decided(hooks: Mapping[str, object]) -> dict[str, tuple[str, bool]]:
    """``section.field`` -> (the hook deciding it, whether the expression reads the field's value)."""
    out: dict[str, tuple[str, bool]] = {}
    for name, hook in hooks.items():
        o = OVERRIDES.get(name)
        if o is None:
            continue
        # a hook written in Python does not say what it reads: assume it reads everything it is given
        uses: frozenset[str] = getattr(hook, "uses", frozenset(o.via))
        read = {f for n in uses if n in o.via for f in via_fields(o.via[n])}
        for f in o.fields:
            out[f] = (name, f in read)
    return out


def via_fields(via: str | tuple[str, ...]) -> tuple[str, ...]:
    """The ``section.field`` parameters one context name carries into an expression."""
    return (via,) if isinstance(via, str) else via
