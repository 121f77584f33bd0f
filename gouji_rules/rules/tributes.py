"""The kinds of tribute (进贡): 点贡, 烧贡, 闷贡/清贡, 落贡/拉贡 and the 串三户 tribute.

Each kind is a class registered in :data:`~gouji_rules.parts.registry.TRIBUTE_KINDS`.  It carries its
id (the value in ``tribute.order`` / ``returned`` / ``waivable`` and in ``Debt.kind``), its
Chinese and English names, the ``tribute`` fields it reads, the number its ``tribute`` events
carry as ``value``, and its behaviour: the debts a hand's result leaves.  It is compiled once
per variant as ``cls(rules, tribute_section)``; :meth:`Rules.debts` asks every compiled kind,
in the variant's order (S0 八、进贡 点→烧→闷→拉; S4 第十四条 点→烧→清→落).  A kind is paid only
where ``tribute.order`` names it (or the kind it ``sorts_as``).  A kind may declare options of its
own (``options``, :mod:`gouji_rules.parts.options`), written as ``tribute.kinds.<name>.<option>`` and read
with :meth:`Rules.extension_options`.

A new kind (docs/extending.md) is one class here or in the club's own module; the schema's
choices, the rule sheet and the compare metrics pick it up from the registry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from ..game.seats import opposite, side_seats, sweep_of
from ..parts.registry import TRIBUTE_KINDS

if TYPE_CHECKING:
    from ..game.hand_setup import Debt, HandResult
    from ..parts.sections import TributeRules
    from . import Rules

T = TypeVar("T", bound=Any)


def register_tribute(cls: type[T]) -> type[T]:
    """Class decorator: make ``cls`` a kind of tribute (see docs/extending.md)."""
    TRIBUTE_KINDS.register(cls)
    return cls


class TributeKind:
    """What every kind has once compiled: ``returned`` (the receiver hands back 还贡) and
    ``waivable`` (a teammate receiver may waive it), read from ``tribute.returned`` / ``waivable``.

    Subclassing it is a convenience, not a requirement: a kind needs ``name``, ``zh``, ``en``,
    ``value``, ``reads``, ``sorts_as``, ``__init__(rules, tribute)`` and ``debts(rules, result)``.
    """

    name = ""
    zh = ""
    en = ""
    value = 0
    """the ``value`` of this kind's ``tribute`` events (docs/events.md)"""
    reads: tuple[str, ...] = ()
    """the ``tribute`` fields this kind uses (besides order, returned, waivable)"""
    sorts_as = ""
    """the kind whose place in ``tribute.order`` this one takes ("" = its own name)"""

    def __init__(self, rules: Rules, tribute: TributeRules) -> None:
        self.returned = self.name in tribute.returned
        self.waivable = self.name in tribute.waivable

    def debt(self, giver: int, receiver: int, count: int) -> Debt:
        """One debt of this kind."""
        from ..game.hand_setup import Debt  # here, not above: checking a variant file reads the kinds' names only

        return Debt(self.name, giver, receiver, count, self.returned)

    def debts(self, rules: Rules, result: HandResult) -> list[Debt]:
        """The debts of this kind that ``result`` leaves (none by default)."""
        return []


@register_tribute
class PointTribute(TributeKind):
    """点贡 (S0 八、进贡, S4 第十七条, 第二十二条): the seat that did not open pays its opposite that
    did; a declaration (宣点, 明点, 预点) stakes its own count and replaces the pair's 点贡."""

    name = "point"
    zh = "点贡"
    en = "point tribute (点贡)"
    value = 1
    reads = ("point_count", "point_when_neither")

    def __init__(self, rules: Rules, tribute: TributeRules) -> None:
        super().__init__(rules, tribute)
        self.count = tribute.point_count
        self.both_when_neither = tribute.point_when_neither == "both"

    def debts(self, rules: Rules, result: HandResult) -> list[Debt]:
        """The debts of this kind that ``result`` leaves."""
        if not rules.open_point:
            return []
        opened = list(result.opened)
        for s in result.geming:
            opened[s] = False  # 革命 算自动认点
        out: list[Debt] = []
        declared_pairs: set[int] = set()
        for kind, s in result.declarations:
            o = opposite(s)
            declared_pairs.add(min(s, o))
            stake = rules.declaration(kind).stake or 0
            if not opened[o]:
                if rules.declare_win_needs_own_point and not opened[s]:
                    continue
                out.append(self.debt(o, s, stake))
            else:
                out.append(self.debt(s, o, stake * rules.fanche_multiplier))
        n = self.count
        for s in range(3):
            if s in declared_pairs:
                continue
            o = s + 3
            if opened[s] and not opened[o]:
                out.append(self.debt(o, s, n))
            elif opened[o] and not opened[s]:
                out.append(self.debt(s, o, n))
            elif not opened[s] and not opened[o] and self.both_when_neither:
                out.append(self.debt(s, o, n))
                out.append(self.debt(o, s, n))
        return out


@register_tribute
class BurnTribute(TributeKind):
    """烧贡: the burned seat pays the burner who went out while burning (S0 八、进贡, S4 第十七条)."""

    name = "burn"
    zh = "烧贡"
    en = "burn tribute (烧贡)"
    value = 2
    reads = ("burn_count",)

    def __init__(self, rules: Rules, tribute: TributeRules) -> None:
        super().__init__(rules, tribute)
        self.count = tribute.burn_count

    def debts(self, rules: Rules, result: HandResult) -> list[Debt]:
        """The debts of this kind that ``result`` leaves."""
        return [self.debt(victim, burner, self.count) for burner, victim in result.burns]


@register_tribute
class MenTribute(TributeKind):
    """闷贡 / 清贡: the seat whose set before its last 3s was beaten pays the beater (S0 六、闷与被闷 and 八、进贡, S4 第十五条)."""

    name = "men"
    zh = "闷贡/清贡"
    en = "men tribute (闷贡 / 清贡)"
    value = 3
    reads = ("men_count",)

    def __init__(self, rules: Rules, tribute: TributeRules) -> None:
        super().__init__(rules, tribute)
        self.count = tribute.men_count

    def debts(self, rules: Rules, result: HandResult) -> list[Debt]:
        """The debts of this kind that ``result`` leaves."""
        return [self.debt(victim, by, self.count) for victim, by in result.men if by >= 0]


@register_tribute
class PlaceTribute(TributeKind):
    """落贡 / 拉贡: the bottom places pay the top ones (``tribute.place``), unless a sweep is paid
    by the sweep kind instead."""

    name = "place"
    zh = "落贡/拉贡"
    en = "place tribute (落贡 / 拉贡)"
    value = 4
    reads = ("place", "sweep")

    def __init__(self, rules: Rules, tribute: TributeRules) -> None:
        super().__init__(rules, tribute)
        self.table = [tuple(x) for x in tribute.place]
        self.sweep_by_opposite = tribute.sweep == "opposite"

    def debts(self, rules: Rules, result: HandResult) -> list[Debt]:
        """The debts of this kind that ``result`` leaves."""
        if self.sweep_by_opposite and sweep_of(result.places) is not None:
            return []
        by_place = {p: s for s, p in enumerate(result.places)}
        return [
            self.debt(by_place[pay], by_place[recv], n)
            for pay, recv, n in self.table
            if pay in by_place and recv in by_place
        ]


@register_tribute
class SweepTribute(TributeKind):
    """串三户 (S4 第十四条(五)): with ``tribute.sweep: opposite`` each swept player pays his opposite one card."""

    name = "sweep"
    zh = "串三户贡"
    en = "sweep tribute (串三户: each swept player pays his opposite)"
    value = 5
    reads = ("sweep",)
    sorts_as = "place"

    def __init__(self, rules: Rules, tribute: TributeRules) -> None:
        super().__init__(rules, tribute)
        self.on = tribute.sweep == "opposite"

    def debts(self, rules: Rules, result: HandResult) -> list[Debt]:
        """The debts of this kind that ``result`` leaves."""
        team = sweep_of(result.places)
        if not self.on or team is None:
            return []
        return [self.debt(s, opposite(s), 1) for s in side_seats(1 - team)]
