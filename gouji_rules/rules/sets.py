"""Chapter 够级牌: which sets are 够级, which are pure, and who may answer them.

S4 第五条 (够级牌, 够级对象), S0 四、开点 (纯够级牌) and the S0 opening (无头: once a seat's
opposite leaves play, 够级 no longer binds it).  Answers that depend only on a set are cached here,
so an ``is_gouji`` hook costs one dict lookup after its first call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..game.cards import NRANKS, SJ, TWO, CardSet
from .base import NEVER, RulesBase

if TYPE_CHECKING:
    from ..parts.sections import Sections


class SetsChapter(RulesBase):
    """The 够级 questions: :meth:`is_gouji`, :meth:`is_pure_gouji`, :meth:`may_answer`, 无头."""

    def __init__(self, variant: Sections) -> None:
        super().__init__(variant)
        v = variant
        self._gouji: dict[CardSet, bool] = {}
        self._pure: dict[CardSet, bool] = {}
        self._pure_min: list[int] | None = None
        self._answer: dict[tuple[bool, bool, bool, bool, bool], bool] = {}
        self.joker_sets = v.gouji.joker_sets
        self.twos_count = v.gouji.twos_count
        self.pure_twos = v.gouji.pure_twos
        self.answer_anyone = v.gouji.answer == "anyone"
        self.no_head = v.play.no_head
        """无头 applies: once a seat's opposite is out, 够级 no longer binds it"""
        self.no_head_when = ("left_play", "went_out", "first_out").index(v.play.no_head_when)
        """which departures of the opposite make a seat 无头 (``play.no_head_when``): 0 any, 1 going out, 2 头科's"""

    def set_context(self, cs: CardSet) -> dict[str, Any]:
        """The names an ``is_gouji`` / ``is_pure_gouji`` expression sees for one set."""
        return {
            "rank": cs.rank,
            "count": cs.count,
            "twos": cs.twos,
            "sj": cs.sj,
            "bj": cs.bj,
            "top": cs.top,
            "size": cs.size,
            "jokers": cs.jokers,
            "threshold": 0 if self.thresholds[cs.rank] >= NEVER else self.thresholds[cs.rank],
        }

    def is_gouji(self, cs: CardSet) -> bool:
        """够级牌 (S4 第五条): enough cards of a rank, or (where the variant says so) any joker."""
        hit = self._gouji.get(cs)
        if hit is None:
            hook = self.hooks.get("is_gouji")
            if hook is not None:
                hit = bool(hook(self.set_context(cs)))
            elif cs.jokers and cs.rank < SJ:
                hit = self.joker_sets
            elif cs.rank >= SJ:
                hit = self.joker_sets or cs.count >= self.thresholds[cs.rank]
            else:
                n = cs.count + (cs.twos if self.twos_count else 0)
                hit = n >= self.thresholds[cs.rank]
            self._gouji[cs] = hit
        return hit

    def is_pure_gouji(self, cs: CardSet) -> bool:
        """纯够级牌 (S0 四、开点, S4 第八条): 够级 with no joker, no attached 2, not a single."""
        hit = self._pure.get(cs)
        if hit is None:
            gouji = self.is_gouji(cs)
            hook = self.hooks.get("is_pure_gouji")
            if hook is not None:
                hit = bool(hook({**self.set_context(cs), "gouji": gouji}))
            else:
                hit = gouji and cs.jokers == 0 and cs.twos == 0 and cs.size > 1
                if cs.rank == TWO and not self.pure_twos:
                    hit = False
            self._pure[cs] = hit
        return hit

    def pure_minimum(self, r: int) -> int:
        """The fewest cards of rank ``r`` that make a pure 够级 set (0: none can)."""
        mins = self._pure_min
        if mins is None:
            pure = self.is_pure_gouji
            mins = [
                next((k for k in range(2, n + 1) if pure(CardSet(x, k))), 0) for x, n in enumerate(self.deck_counts)
            ]
            self._pure_min = mins
        return int(mins[r])

    def pure_sets(self, hand: Sequence[int]) -> int:
        """How many pure 够级 sets a hand can make at most (冲点 needs three; 自然点 needs none)."""
        return sum(hand[r] // m for r in range(NRANKS) if (m := self.pure_minimum(r)))

    def pure_choices(self, hand: Sequence[int]) -> list[CardSet]:
        """Every pure 够级 set a hand can put down (the sets a 冲点 player chooses from)."""
        out = []
        for r in range(NRANKS):
            m = self.pure_minimum(r)
            if m:
                out += [CardSet(r, k) for k in range(m, hand[r] + 1) if self.is_pure_gouji(CardSet(r, k))]
        return out

    def may_answer(self, is_opposite: bool, is_teammate: bool, no_head: bool, owner_no_head: bool, ffa: bool) -> bool:
        """May a seat answer a 够级 set without burning (S4 第五条, S0 无头)."""
        key = (is_opposite, is_teammate, no_head, owner_no_head, ffa)
        hit = self._answer.get(key)
        if hit is None:
            hook = self.hooks.get("may_answer")
            if hook is not None:
                hit = bool(
                    hook(
                        {
                            "is_opposite": is_opposite,
                            "is_teammate": is_teammate,
                            "no_head": no_head,
                            "owner_no_head": owner_no_head,
                            "free_for_all": ffa,
                        }
                    )
                )
            elif self.answer_anyone or ffa or owner_no_head:
                hit = True
            else:
                hit = is_opposite or (no_head and self.no_head)
            self._answer[key] = hit
        return hit

    def makes_no_head(self, went_out: bool, first: bool) -> bool:
        """Does a seat become 无头 when its opposite leaves play: ``went_out`` (出完牌, not 闷, a failed
        burn or a place given before play), as ``first`` (头科)?  S4 第十条 「头科产生后，其对头的够级对象不复存在」
        names only 头科's opposite; S0 opening 「若一个人对门走后」 any seat whose opposite went out
        (``play.no_head_when``).  A seat whose opposite left otherwise stays bound: see ``Hand.bound``."""
        if not self.no_head:
            return False
        when = self.no_head_when
        return when == 0 or (went_out and (when == 1 or first))
