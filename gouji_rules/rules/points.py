"""Chapter 开点: opening, 闷 / 清, and buying the 3s and 4s that opening and 憋3 turn on.

S4 第八条 (开点 and its deadline), 第九条 (买3 买4), 第十五条 (清, 先清为落), S0 四、开点 and
六、闷与被闷; where a seat is placed at once for 诈烧 (S0 五、烧牌) or 闷.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from ..errors import IllegalAction, VariantError
from ..game.cards import rank_of
from .burn import BurnChapter

if TYPE_CHECKING:
    from ..parts.sections import Sections


class PointsChapter(BurnChapter):
    """The 开点, 闷 and 买 questions."""

    def __init__(self, variant: Sections) -> None:
        super().__init__(variant)
        v = variant
        op = v.open_point
        self.open_point = op.enabled
        self.open_point_deadline_out = op.deadline_out
        self.last_set_exception = op.last_set_exception
        self.natural_point = op.natural_point
        self.dadian = op.dadian
        self.four_any_time = op.four_when == "any_time"
        """S4 第八条: the 4s that open may come any time after the pure set stood (S0: the very next lead)"""
        self.dadian_any_gouji = op.dadian_lived == "gouji_won"
        """S4 第二十二条(一): any 够级 set that won the lead spares its seat from 打点 (else a pure set that stood)"""
        self.men = v.men.enabled
        self.men_ranks_last = v.men.penalty == "place_bottom"
        self.men_severity = v.men.severity
        self.men_plays_on_at_bottom = v.men.penalty == "bottom_plays_on"
        """先清为落 (S4 第十五条): placed from the bottom at once, but plays on"""
        self.men_show_hand = v.men.show_hand
        bu = v.buy
        self.buy = bu.enabled
        self.buy_four_optional = bu.four == "optional"
        self.buy_price = [rank_of(x) for x in bu.price]
        self.buy_sellers = list(bu.sellers)
        self.buy_keep = bu.keep
        self.buy_price_opposite_team = (
            self.buy_price if bu.price_opposite_team is None else [rank_of(x) for x in bu.price_opposite_team]
        )
        self.buy_free = bu.free
        self.no_three_last = bu.no_three == "last"
        self.no_four_closes_point = bu.no_four_closes_point

    def may_open_now(self, out: int, trick_out: int) -> bool:
        """May a seat still open (S4 第八条: not once 头科 and 二科 are out, but for the round of the
        deadline player's last set)?  ``out``: players out now; ``trick_out``: out when the round began."""
        d = self.open_point_deadline_out
        if d is None or out < d:
            return True
        return self.last_set_exception and trick_out < d

    def point_deadline_passed(self, out: int) -> bool:
        """Has the 开点 deadline passed once ``out`` players are out (S4 第八条)?"""
        return self.open_point and self.open_point_deadline_out is not None and out >= self.open_point_deadline_out

    def has_open_point(self) -> bool:
        """开点 is played (S0 四、开点, S4 第八条)."""
        return bool(self.open_point)

    def bottom_severity(self, kind: str) -> int | None:
        """How far down a seat is placed at once, counted from last place, by ``kind``: ``burn_fail``
        (诈烧, S0 五、烧牌, S4 第六条) or ``men`` (闷 under S0 六、闷与被闷); None when the seat plays on (S4's 清).
        Of two seats placed so, the higher severity is lower."""
        if kind == "burn_fail":
            return self.burn_fail_severity
        if kind == "men":
            # a 清 seat that plays on is placed later, not at once (men_bottom_severity says where)
            return None if (self.men_plays_on_at_bottom or not self.men) else self.men_bottom_severity()
        raise VariantError(f"no place is forced by {kind!r} (burn_fail or men)")

    def _men_refusal(self, victim: int, by: int) -> IllegalAction | None:
        if not self.men:
            return IllegalAction(f"{self.name} has no 闷 / 清", rule="men_enabled")
        if victim == by:
            return IllegalAction("a seat cannot 闷 itself", rule="men_self", clause="S0 六、闷与被闷, S4 第十五条")
        return None

    def verify_men(self, victim: int, by: int) -> None:
        """Raise IllegalAction unless ``by`` beating ``victim``'s set before his last 3s can be 闷 / 清."""
        refusal = self._men_refusal(victim, by)
        if refusal is not None:
            raise refusal

    def has_men(self) -> bool:
        """闷 / 清 applies (S0 六、闷与被闷, S4 第十五条)."""
        return bool(self.men)

    def men_bottom_severity(self) -> int | None:
        """How far down a 闷 victim is placed at once (S0; S4 先清为落, who plays on but keeps the place),
        or None where 闷 only costs 清贡."""
        if self.men_ranks_last or self.men_plays_on_at_bottom:
            return int(self.men_severity)
        return None

    def no_three_places_last(self) -> bool:
        """A seat left without a 3 is placed last before play (S4 第九条)."""
        return bool(self.buy and self.no_three_last)

    def no_three_place(self, taken: Collection[int]) -> int:
        """The place of a seat left without a 3 (S4 第九条): the lowest place not ``taken`` by a seat
        placed before play."""
        place = 6
        while place in taken:
            place -= 1
        return place

    def buy_payment(self, group: str, hand: Sequence[int]) -> int | None:
        """The rank a buyer holding ``hand`` pays a seller of ``group`` for one 3 or 4: -1 when the card
        is given (a teammate, or S0's 直接白送), None when he cannot buy from that group (S4 第九条:
        「可以用2向对头的联邦买」 — the opposite's team sells only for a 2)."""
        if group == "team":
            return -1
        prices = self.buy_price_opposite_team if group == "opposite_team" else self.buy_price
        for r in prices:
            if hand[r]:
                return r
        return -1 if self.buy_free else None
