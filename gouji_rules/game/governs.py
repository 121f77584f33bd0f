"""What each rule governs: the events a rule decides (GLOSSARY ids) and whether it acts between hands.

A club that changes a rule wants to see the events that rule decides: a burn rule
decides burns, 反烧, 解烧 and 烧贡, a 革命 rule decides 革命.  The table is keyed by
a dotted path prefix of the variant file (``burn`` covers every ``burn.*`` option,
``sets.kou`` only that one) and kept here, beside the rules, so ``gouji compare``
and anything else that explains a rule read one table.  Rules that act *between*
hands (tribute, 革命, 冲点, declarations, 买3买4, 扛贡, the match's own rules) show
nothing in a hand played alone: they need whole matches to be seen.
"""

from __future__ import annotations

from typing import NamedTuple

from .events import event_ids


class Governs(NamedTuple):
    """The events (GLOSSARY ids) a rule decides, the tribute kinds it charges, and whether it acts
    between hands (so only matches show it)."""

    events: tuple[str, ...]
    tribute: tuple[str, ...] = ()
    between_hands: bool = False


_PLAY = ("play", "pass", "yield")
_ALL_TRIBUTE = ("point", "burn", "men", "place", "sweep")

GOVERNS: dict[str, Governs] = {
    "deck": Governs(_PLAY),
    "table": Governs(_PLAY),
    "sets": Governs(_PLAY),
    "sets.kou": Governs(("kou",)),
    "gouji": Governs(("open_point", "burn", "counter_burn", "no_head")),
    "play": Governs(_PLAY),
    "play.wrong_play": Governs(("wrong_play",)),
    "free_for_all": Governs(("free_for_all",)),
    "jiefeng": Governs(("jiefeng", "jiefeng_request", "consent")),
    "burn": Governs(("burn", "counter_burn", "break_burn", "burn_fail", "burn_success"), ("burn",)),
    "open_point": Governs(("open_point", "natural_point", "point_closed"), ("point",)),
    "men": Governs(("men",), ("men",)),
    "places": Governs(()),
    "scoring": Governs(()),
    "scoring.sweep_multiplier": Governs(("sweep",)),
    "kang": Governs(("kang",), (), True),
    "declare": Governs(("xuandian", "hedian", "mingdian", "yudian"), ("point",), True),
    "buy": Governs(("buy3", "buy4", "no_three"), (), True),
    "tribute": Governs(("tribute", "return_tribute", "waive"), _ALL_TRIBUTE, True),
    "tribute.point_call": Governs(("point_call",), ("point",), True),
    "tribute.sweep": Governs(("tribute", "return_tribute", "redeal"), ("sweep",), True),
    "tribute.sweep_redeal": Governs(("redeal",), (), True),
    "geming": Governs(("geming", "with_head", "no_head"), (), True),
    "chongdian": Governs(("chongdian", "with_head", "open_point"), (), True),
    "match": Governs(("first_leader", "kaipai", "redeal"), (), True),
    "match.huiwu": Governs(("huiwu",), (), True),
    "match.choose_last": Governs(("choose_last",), (), True),
    "phases": Governs((), (), True),
    "hooks.is_gouji": Governs(("open_point", "burn", "counter_burn")),
    "hooks.is_pure_gouji": Governs(("open_point",), ("point",)),
    "hooks.may_answer": Governs(("burn", "counter_burn", "play", "pass")),
    "hooks.beats": Governs(_PLAY),
    "hooks.team_score": Governs(()),
    "hooks.sweep_multiplier": Governs(("sweep",)),
    "hooks.geming_eligible": Governs(("geming", "with_head", "no_head"), (), True),
    "hooks.chongdian_eligible": Governs(("chongdian", "with_head", "open_point"), (), True),
    "hooks.kang_self": Governs(("kang",), (), True),
    "hooks.kang_team": Governs(("kang",), (), True),
    "hooks.tribute_card": Governs(("tribute", "return_tribute"), (), True),
}
"""Rule path prefix → what it governs.  The longest matching prefix wins (:func:`governs`)."""


def governs(path: str) -> Governs | None:
    """What the rule at ``path`` (``burn.needs_open_point``) governs: the entry of its longest prefix
    in :data:`GOVERNS`, or None for a path no entry covers.

    >>> governs("burn.needs_open_point").events[:3], governs("geming.enabled").between_hands
    (('burn', 'counter_burn', 'break_burn'), True)
    """
    parts = path.split(".")
    for k in range(len(parts), 0, -1):
        hit = GOVERNS.get(".".join(parts[:k]))
        if hit is not None:
            return hit
    return None


def governed_events() -> tuple[str, ...]:
    """Every event id some rule governs, in the order of :func:`~gouji_rules.game.events.event_ids`."""
    named = {e for g in GOVERNS.values() for e in g.events}
    return tuple(e for e in event_ids() if e in named)


__all__ = ["GOVERNS", "Governs", "governed_events", "governs"]
