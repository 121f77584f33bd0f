"""Chapter 宣点 and the declarations before play: 革命, 冲点, 宣点 / 和点 / 明点 / 预点.

S4 第二十一条 (革命), 第二十二条 (打点, 明点, 预点), S0 四、开点 (宣点, 和点) and 十、冲点.  The
declarations themselves are registered parts (:mod:`gouji_rules.rules.declarations`), found by name.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import IllegalAction, VariantError
from ..game.cards import ACE, BJ, FOUR, NRANKS, SJ, TOP, TWO, rank_of
from ..game.seats import opposite, teammates
from ..parts.registry import DECLARATIONS
from .base import HEAD_FOREVER
from .points import PointsChapter

if TYPE_CHECKING:
    from ..parts.sections import Sections


class DeclareChapter(PointsChapter):
    """The declaring questions, and the places 革命 and 冲点 force."""

    def __init__(self, variant: Sections) -> None:
        super().__init__(variant)
        v = variant
        self.declarations = {name: DECLARATIONS.find(name)(self, v.declare) for name in DECLARATIONS}
        self.declare_win_needs_own_point = v.declare.win_needs_own_point
        self.fanche_multiplier = v.declare.fanche_multiplier
        g = v.geming
        self.geming = g.enabled
        self.geming_void_at = g.void_at
        self.geming_place = g.place
        self.geming_place_if_team_top = g.place_if_team_top
        self.geming_opposite_rights = g.opposite_rights
        self.geming_cannot_pay = g.cannot_pay
        ch = v.chongdian
        self.chongdian = ch.enabled
        self.chongdian_max_rank = rank_of(ch.max_rank)
        self.chongdian_sets = ch.sets
        self.chongdian_place = ch.place
        self.chongdian_second_place = ch.second_place
        self.chongdian_redeal_at = ch.redeal_at
        self.chongdian_fail_drops_fours = ch.fail_drops_fours
        self.chongdian_no_head_closes = ch.no_head_closes
        self.chongdian_opposite_rights = HEAD_FOREVER if ch.opposite_rights is None else ch.opposite_rights
        """够死级 rights of a 冲点 player's opposite who keeps 有头 (S0 十、冲点: the whole hand)"""

    def place_before_play(self, placed: Mapping[int, int], place: int) -> int:
        """The place a seat placed before play takes when ``place`` is already another's: the nearest free
        place below it, else the nearest above.  Only a club file that plays both 革命 (S4 第二十一条, 四科)
        and 冲点 (S0 十、冲点, 四客) can place two seats at one place before play, and neither text speaks of
        the two in one hand (docs/rules.md §32, "革命 and 冲点 in one hand")."""
        taken: set[int] = set(placed.values())
        below: list[int] = list(range(place + 1, 7))
        above: list[int] = list(range(place - 1, 0, -1))
        for p in [place, *below, *above]:
            if p not in taken:
                return p
        return place

    def geming_final_place(self, teammates_top: bool) -> int:
        """The place of a 革命 player (S4 第二十一条): 四科, or 三科 when his two teammates took 头科 and 二科."""
        return self.geming_place_if_team_top if teammates_top else self.geming_place

    def geming_place_at(self, seat: int, places: Sequence[int]) -> int:
        """The place of the 革命 player at ``seat`` given where the others finished (``places``, by seat)."""
        mates = sorted(places[s] for s in teammates(seat))
        return self.geming_final_place(mates == [1, 2])

    def geming_opposite_opens_by_rights(self) -> bool:
        """Does a 革命 player's opposite who keeps 有头 count as opened once his 够死级 sets have stood
        (S4 第二十二条: 够死级三把方算开点)?  Where 打点 is played (``open_point.dadian``)."""
        return bool(self.dadian)

    def geming_voids(self, declarers: int) -> bool:
        """This many 革命 at once void the hand (S4 第二十一条)."""
        return declarers >= self.geming_void_at

    def chongdian_places(self, players: int) -> tuple[int, ...]:
        """The places of the 冲点 players, the better first (S0 十、冲点: one is 四客; of two, the other 小拉)."""
        if players <= 1:
            return (self.chongdian_place,)
        return (self.chongdian_place, self.chongdian_second_place)

    def chongdian_placings(
        self, results: Sequence[tuple[int, bool]], last_places: Sequence[int] | None = None
    ) -> list[dict[int, int]]:
        """Where the 冲点 players (``(seat, succeeded)`` in the order they declared) are placed, as
        every placing the rules allow (S0 十、冲点): one is 四客; of two, the one that succeeded takes
        the better place, and when both succeeded or both failed, the better of last hand
        (``last_places``; the first to declare when they tied or there was no last hand).  Without
        ``last_places`` (a hand entered at a table) a tie allows either order."""
        places = self.chongdian_places(len(results))
        if len(results) == 1:
            return [{results[0][0]: places[0]}]
        (a, ok_a), (b, ok_b) = results[0], results[1]
        if ok_a != ok_b:
            good, bad = (a, b) if ok_a else (b, a)
            return [{good: places[0], bad: places[1]}]
        if last_places is None:
            return [{a: places[0], b: places[1]}, {b: places[0], a: places[1]}]
        good, bad = (a, b) if last_places[a] <= last_places[b] else (b, a)
        return [{good: places[0], bad: places[1]}]

    def chongdian_redeals(self, players: int) -> bool:
        """This many 冲点 players cause a redeal (S0 十、冲点)."""
        return players >= self.chongdian_redeal_at

    def chongdian_opens(self, seat: int, succeeded: bool) -> int:
        """The seat a 冲点 opens: its player when it succeeds, the opposite when it fails (S0 十、冲点)."""
        return seat if succeeded else opposite(seat)

    def chongdian_outcome(self, seat: int, success: bool) -> tuple[frozenset[int], frozenset[int]]:
        """Who counts as opened and who may no longer open after ``seat``'s 冲点 (S0 十、冲点):
        success opens it; failure closes it and opens its opposite."""
        opened = frozenset({self.chongdian_opens(seat, success)})
        return opened, (frozenset() if success else frozenset({seat}))

    def chongdian_dropped(self, succeeded: bool) -> tuple[int, ...]:
        """The ranks a 冲点 player's opposite throws away after it (S0 十、冲点「对门被视为开点并且扔掉4继续游戏」
        when it fails; ``chongdian.fail_drops_fours``)."""
        return (FOUR,) if not succeeded and self.chongdian_fail_drops_fours else ()

    def chongdian_no_head_closed(self, succeeded: bool) -> bool:
        """Does an opposite who chose 无头 lose the right to open (S0 十、冲点「选择无头若对门冲点成功则不能开点」;
        ``chongdian.no_head_closes``)?"""
        return succeeded and self.chongdian_no_head_closes

    def geming_eligible(self, hand: Sequence[int]) -> bool:
        """May a player holding ``hand`` declare 革命 (S4 第二十一条: no 2 and no joker)?"""
        if not self.geming:
            return False
        hook = self.hooks.get("geming_eligible")
        if hook is not None:
            ctx = {
                "twos": hand[TWO],
                "sj": hand[SJ],
                "bj": hand[BJ],
                "top": hand[TOP],
                "aces": hand[ACE],
                "cards": sum(hand),
            }
            return bool(hook(ctx))
        return hand[TWO] + hand[SJ] + hand[BJ] + hand[TOP] == 0

    def has_geming(self) -> bool:
        """革命 may be declared (S4 第二十一条)."""
        return bool(self.geming)

    def chongdian_eligible(self, hand: Sequence[int]) -> bool:
        """May a player holding ``hand`` 冲点 (S0 十、冲点: nothing above A, three pure 够级 sets)?"""
        if not self.chongdian:
            return False
        top = max((r for r in range(NRANKS) if hand[r]), default=0)
        pure = self.pure_sets(hand)
        hook = self.hooks.get("chongdian_eligible")
        if hook is not None:
            jokers = hand[SJ] + hand[BJ] + hand[TOP]
            return bool(hook({"max_rank": top, "pure_sets": pure, "twos": hand[TWO], "jokers": jokers}))
        return top <= self.chongdian_max_rank and pure >= self.chongdian_sets

    def has_chongdian(self) -> bool:
        """冲点 may be declared (S0 十、冲点)."""
        return bool(self.chongdian)

    def declaration(self, name: str) -> Any:
        """The compiled declaration called ``name``; unknown names raise VariantError."""
        hit = self.declarations.get(name)
        if hit is None:
            DECLARATIONS.find(name)
            raise VariantError(f"{self.name} has no {name}")
        return hit

    def verify_declaration(self, name: str) -> None:
        """Raise IllegalAction unless this variant has the declaration ``name`` (宣点, 明点, 预点 …)."""
        if not self.can_declare(name):
            on = [k for k, x in self.declarations.items() if x.enabled and x.stake is not None] or ["none"]
            raise IllegalAction(f"{self.name} has no {name} (it has: {', '.join(on)})", rule="declaration")

    def can_declare(self, name: str) -> bool:
        """:meth:`verify_declaration` as a yes or no."""
        d = self.declarations.get(name)
        return d is not None and bool(d.enabled)

    def staked_declarations(self) -> list[str]:
        """The declarations a result may record: those with a stake (宣点 S0 四、开点; 明点 / 预点 S4
        第二十二条(三)); 和点 only opens both opposites and is entered as 开点."""
        return [k for k, d in self.declarations.items() if d.stake is not None]

    def may_declare(self, kind: str) -> bool:
        """A staked declaration this variant has (:meth:`can_declare`)."""
        return kind in self.staked_declarations() and self.can_declare(kind)

    def declaration_barred(self, kind: str, seat: int, placed: Collection[int]) -> bool:
        """明点 is declared after 革命 and 冲点: not by a seat placed before play (``placed``), nor on one."""
        return kind == "mingdian" and (seat in placed or opposite(seat) in placed)

    def verify_declaring(self, kind: str, seat: int, placed: Collection[int], declared: Collection[int]) -> None:
        """Raise IllegalAction unless ``seat`` may declare ``kind`` now, having ``declared`` before: a seat
        declares once a hand (预点, 宣点/和点 or 明点: ⚑ chosen, docs/rules.md §24), and 明点 not by or
        on a seat placed before play.  Every declaring phase and club entry ask it."""
        if seat in declared:
            raise IllegalAction("a seat declares once a hand", rule="declare", clause="S4 第二十二条(三); S0 四、开点")
        if self.declaration_barred(kind, seat, placed):
            raise IllegalAction(
                "declared after 革命 and 冲点, not by or on a seat placed before play",
                rule="declare",
                clause="S4 第二十二条(三); S0 四、开点",
            )

    def can_declare_now(self, kind: str, seat: int, placed: Collection[int], declared: Collection[int]) -> bool:
        """:meth:`verify_declaring` as a yes or no."""
        try:
            self.verify_declaring(kind, seat, placed, declared)
        except IllegalAction:
            return False
        return True
