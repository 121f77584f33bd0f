"""Chapter 进贡: 扛贡, what a seat pays and returns, and what a hand leaves owed.

S4 第十四条 (进贡, 还贡, 扛贡, 进贡不起), S0 八、进贡 (点贡, 明置).  The kinds of tribute are
registered parts (:mod:`gouji_rules.rules.tributes`), found by name and compiled in ``tribute.order``.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from ..game.cards import BJ, NRANKS, SJ, rank_of
from ..game.seats import same_side, side, side_seats
from ..parts.registry import TRIBUTE_KINDS
from .declare import DeclareChapter

if TYPE_CHECKING:
    from ..game.hand_setup import Debt, HandResult
    from ..parts.sections import Sections, TributeRules


class KangScope(IntEnum):
    """Whom 扛贡 exempts: nobody, the holder (四小扛自己) or his whole team (四大扛全场); the
    ``value`` of a ``kang`` event."""

    NONE = 0
    SELF = 1
    TEAM = 2


class TributeChapter(DeclareChapter):
    """The tribute questions; :meth:`debts` turns a hand's result into what the next hand pays."""

    def __init__(self, variant: Sections) -> None:
        super().__init__(variant)
        v = variant
        k = v.kang
        self.kang_enabled, self.kang_small, self.kang_big = k.enabled, k.small, k.big
        t = v.tribute
        self.tribute = t.enabled
        self.tribute_ranks = sorted((rank_of(x) for x in t.cards), reverse=True)
        self.kept_excluded = t.kept_excluded
        self.return_refusable = t.return_refusable
        self.point_call = t.point_call
        self.sweep_redeal = t.sweep_redeal
        self.sweep_streak_same_team = t.sweep_streak == "same_team"
        self.tribute_shown = t.shown
        """tribute and returned cards are shown to the whole table (S0 八、进贡: 明置)"""
        self.tribute_kinds = tribute_kinds(self, t)

    def kang(self, hand: Sequence[int]) -> KangScope:
        """扛贡 (S0 八、进贡, S4 第十四条(七)): whom the holder of ``hand`` exempts from tribute."""
        if not self.kang_enabled:
            return KangScope.NONE
        ctx = {"sj": hand[SJ], "bj": hand[BJ]}
        hook = self.hooks.get("kang_team")
        team = bool(hook(ctx)) if hook is not None else hand[BJ] >= self.kang_big
        if team:
            return KangScope.TEAM
        hook = self.hooks.get("kang_self")
        alone = bool(hook(ctx)) if hook is not None else hand[SJ] >= self.kang_small
        return KangScope.SELF if (alone or hand[BJ] >= self.kang_small) else KangScope.NONE

    def kang_seats(self, seat: int, scope: KangScope) -> frozenset[int]:
        """The seats a 扛贡 of ``scope`` by ``seat`` exempts from paying: his whole side (大王扛贡) or himself."""
        if scope is KangScope.TEAM:
            return frozenset(side_seats(side(seat)))
        return frozenset({seat}) if scope is KangScope.SELF else frozenset()

    def cannot_pay(self, hand: Sequence[int], owed: int) -> bool:
        """进贡不起 (S4 第十四条(二), ``geming.cannot_pay``): does a seat holding ``hand`` owe more tribute
        cards than it holds, so that it may declare 革命?"""
        if not (self.geming and self.geming_cannot_pay):
            return False
        return owed > sum(hand[r] for r in set(self.tribute_ranks))

    def tribute_rank(self, hand: Sequence[int], kept: Sequence[int]) -> int:
        """The rank a payer hands over as one tribute card, or -1 (the ``tribute_card`` hook, else the
        largest of ``tribute.cards`` not gained this hand when 吃了不吐 applies)."""
        hook = self.hooks.get("tribute_card")
        if hook is not None:
            r = int(hook({"counts": list(hand), "kept": list(kept)}))
            return r if 0 <= r < NRANKS and hand[r] > 0 else -1
        for r in self.tribute_ranks:
            if hand[r] - (kept[r] if self.kept_excluded else 0) > 0:
                return r
        return -1

    def tribute_kind(self, name: str) -> Any:
        """The compiled tribute kind called ``name`` (point, burn, men, place, sweep …)."""
        for k in self.tribute_kinds:
            if k.name == name:
                return k
        return TRIBUTE_KINDS.find(name)(self, self.variant.tribute)

    def may_call_point(self, kind: str) -> bool:
        """May the payer of a debt of ``kind`` show a 大王 and call the card he is owed back (S0 八、进贡
        「需要进贡的一方摸到一张大王，可以即刻亮出大王…进贡时将大王进上」: the 点贡 only; ``tribute.point_call``)?"""
        return self.point_call and kind == "point"

    def may_waive(self, kind: str, giver: int, receiver: int) -> bool:
        """May ``receiver`` waive this debt (a teammate's, of a waivable kind)?"""
        return giver != receiver and same_side(giver, receiver) and bool(self.tribute_kind(kind).waivable)

    def may_refuse_return(self, payer_hand: Sequence[int], rank: int, other_ranks: int) -> bool:
        """May the payer refuse a returned card of ``rank`` (``tribute.return_refusable``; S4 第十四条(四)
        「若进贡一方没有与还贡牌点数相同的牌，可拒绝此张还贡牌，请吃贡方换」)?  Only when he holds no card of
        that rank and the receiver has ``other_ranks`` (> 0) still to offer."""
        return self.return_refusable and not payer_hand[rank] and other_ranks > 0

    def debts(self, result: HandResult) -> list[Debt]:
        """What the hand's result leaves owed for the next hand, in the variant's tribute order."""
        if not self.tribute:
            return []
        out: list[Debt] = []
        for kind in self.tribute_kinds:
            out += kind.debts(self, result)
        out = [d for d in out if d.count > 0]
        rank = {k.name: i for i, k in enumerate(self.tribute_kinds)}
        out.sort(key=lambda d: rank.get(d.kind, len(rank)))
        return out


def tribute_kinds(rules: TributeChapter, tribute: TributeRules) -> list[Any]:
    """The kinds the variant names in ``tribute.order`` (a kind it names, or the kind it sorts as:
    the sweep kind under ``place``), compiled, in that order; a registered kind the order does not
    name is not paid under this variant.  Found through the registry by name: the kinds' module
    builds on this one."""
    for name in (*tribute.order, *tribute.returned, *tribute.waivable):
        TRIBUTE_KINDS.find(name)  # an unknown kind is an error, with the nearest name
    order = list(tribute.order)

    def key(name: str) -> str:
        return TRIBUTE_KINDS[name].sorts_as or name

    named = [name for name in TRIBUTE_KINDS if name in order or key(name) in order]
    named.sort(key=lambda name: order.index(name if name in order else key(name)))
    return [TRIBUTE_KINDS[name](rules, tribute) for name in named]
