"""The compiled Variant: integer tables, the beat strategy and hook closures, by chapter of the texts.

Built once per Variant (``variant.rules``).  The engine asks this object every rule question;
answers that depend only on a set are cached, so an expression hook costs one dict lookup after
its first call.  :class:`Rules` is one chain of chapters, each a module here citing its chapter of
the texts (docs/rules.md): ``base`` (the deck), ``sets`` (够级), ``play`` (出牌, 让牌, 接风),
``burn`` (烧牌), ``points`` (开点, 闷, 买), ``declare`` (革命, 冲点, 宣点), ``tribute`` (进贡),
``scoring`` (计分, the next hand).  A single-inheritance chain, because mypyc compiles it so.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .base import HEAD_FOREVER, NEVER, RENAMED, Compiles, RulesBase, build_deck, deal_sizes
from .beat import make_strategy
from .burn import BurnChapter
from .declare import DeclareChapter
from .play import JIEFENG_REFUSALS, YIELD_REFUSALS, HandState, PlayChapter
from .points import PointsChapter
from .scoring import ScoringChapter
from .sets import SetsChapter
from .tribute import KangScope, TributeChapter, tribute_kinds

if TYPE_CHECKING:
    from ..parts.sections import Sections

__all__ = [
    "HEAD_FOREVER",
    "JIEFENG_REFUSALS",
    "NEVER",
    "RENAMED",
    "YIELD_REFUSALS",
    "BurnChapter",
    "Compiles",
    "DeclareChapter",
    "HandState",
    "KangScope",
    "PlayChapter",
    "PointsChapter",
    "Rules",
    "RulesBase",
    "ScoringChapter",
    "SetsChapter",
    "TributeChapter",
    "as_rules",
    "build_deck",
    "deal_sizes",
    "tribute_kinds",
]


def as_rules(x: Rules | Compiles) -> Rules:
    """The compiled rules of a Variant (compiled once and cached), or ``x`` itself if it is Rules."""
    return x if isinstance(x, Rules) else x.rules


class Rules(ScoringChapter):
    """The only door to the rules: every question the engine, the match phases, settlement,
    result entry and statistics ask is an attribute or a method here.

    Parameters are copied out of the Variant's sections once, as plain ints, bools and tables
    (that is also what makes them fast); every hook is dispatched by a method of this class, so
    a club's expression and the variant's parameter are one answer.  Legality questions come
    in pokerkit's triple: ``verify_x`` raises :class:`IllegalAction` naming the rule and the
    clause, ``can_x`` answers ``verify_x`` as a bool, and both use one check.

    >>> from gouji_rules.catalog import dagang, dianshaomenla
    >>> dagang().rules.can_burn(0, 2)  # a teammate's 够级 set may be burned (S4 第六条)
    True
    >>> dianshaomenla().rules.can_burn(0, 3)  # never the opposite's: he answers it
    False
    """

    def __init__(self, variant: Sections) -> None:
        super().__init__(variant)
        self.beat = make_strategy(self, variant.sets)

    # -- a value: equal, pickled and copied as the variant it was compiled from ---------

    def __eq__(self, other: object) -> bool:
        return other is self or (isinstance(other, Rules) and other.variant == self.variant)

    def __hash__(self) -> int:
        return hash(self.name)

    def __reduce__(self) -> tuple[Callable[..., Rules], tuple[Sections]]:
        return (as_rules, (self.variant,))

    def __copy__(self) -> Rules:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        return self
