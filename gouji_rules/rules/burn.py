"""Chapter 烧牌: who may burn whose 够级 set, and what a burner must play.

S4 第六条 (烧牌: 每次所发牌中必须挂一小花或大花, 最后一次发3可除外), S0 五、烧牌 (反烧, 诈烧).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import IllegalAction
from ..game.cards import BJ, NRANKS, SJ, TOP, CardSet
from ..game.seats import opposite, same_side
from .play import PlayChapter

if TYPE_CHECKING:
    from ..parts.sections import Sections


class BurnChapter(PlayChapter):
    """The burn questions, in pokerkit's triple: :meth:`verify_burn`, :meth:`can_burn`, one check."""

    def __init__(self, variant: Sections) -> None:
        super().__init__(variant)
        v = variant
        b = v.burn
        self.burn = b.enabled
        self.burn_needs_open_point = b.needs_open_point
        self.burn_teammate = b.teammate
        self.burn_after_pass = b.after_pass
        self.burn_own_team_first = b.priority == "own_team_first"
        self.burn_counter = b.counter
        self.break_burn = b.break_burn
        self.burn_fail_severity = b.fail_severity

    def burn_order(self, owner: int) -> list[int]:
        """The seats asked whether they burn ``owner``'s 够级 set, in priority order (S4 第六条, S0 五、烧牌)."""
        ks = (2, 4, 1, 5) if self.burn_own_team_first else (1, 2, 4, 5)
        return [(owner + k) % 6 for k in ks]

    def _burn_refusal(
        self, burner: int, victim: int, opened: bool, passed: bool, burning: int, burn_victim: int
    ) -> IllegalAction | None:
        if not self.burn:
            return IllegalAction(f"{self.name} has no 烧牌", rule="burn_enabled")
        if burner == victim:
            return IllegalAction("nobody burns his own set", rule="burn_self")
        if victim == opposite(burner):
            return IllegalAction("the opposite answers a 够级 set; he does not burn it", rule="burn_opposite")
        if victim == burning:
            if self.burn_counter == "none":
                return IllegalAction("反烧 is not allowed", rule="counter_burn")
            if self.burn_counter == "victim" and burner != burn_victim:
                return IllegalAction("only the burned seat may counter-burn (反烧)", rule="counter_burn")
        if not self.burn_teammate and same_side(burner, victim):
            return IllegalAction("a teammate's 够级 set may not be burned", rule="burn_teammate")
        if self.burn_needs_open_point and not opened:
            return IllegalAction(
                "only a player who has opened (开点) may burn", rule="burn_open_point", clause="S4 第六条"
            )
        if not self.burn_after_pass and passed:
            return IllegalAction(
                "a player who passed in this round may not burn", rule="burn_after_pass", clause="S0 五、烧牌"
            )
        return None

    def verify_burn(
        self,
        burner: int,
        victim: int,
        *,
        opened: bool = True,
        passed: bool = False,
        burning: int = -1,
        burn_victim: int = -1,
    ) -> None:
        """Raise IllegalAction unless ``burner`` may burn ``victim``'s 够级 set.

        ``opened``: the burner has opened (开点); ``passed``: he passed in this round;
        ``burning`` / ``burn_victim``: the seat burning now and whom it burned (for 反烧).
        """
        refusal = self._burn_refusal(burner, victim, opened, passed, burning, burn_victim)
        if refusal is not None:
            raise refusal

    def can_burn(
        self,
        burner: int,
        victim: int,
        *,
        opened: bool = True,
        passed: bool = False,
        burning: int = -1,
        burn_victim: int = -1,
    ) -> bool:
        """:meth:`verify_burn` as a yes or no."""
        return self._burn_refusal(burner, victim, opened, passed, burning, burn_victim) is None

    def has_burn(self) -> bool:
        """烧牌 is played at all (S4 第六条, S0 五、烧牌)."""
        return bool(self.burn)

    def may_burn(self, burner: int, victim: int) -> bool:
        """May ``burner`` ever burn a 够级 set of ``victim`` (what a result may say): :meth:`can_burn` with a
        burner who has opened, has not passed and burns no counter-burn (反烧)."""
        return self._burn_refusal(burner, victim, True, False, -1, -1) is None

    def burner_needs_joker(self, cs: CardSet) -> bool:
        """Would a burner break S4 第六条 (每次所发牌中必须挂一小花或大花, 最后一次发3可除外) with ``cs``?"""
        return not cs.jokers and not self.burn_exempt[cs.rank]

    def burner_sets(self, sets: list[CardSet]) -> list[CardSet]:
        """The sets of ``sets`` a burner may play: each carries a joker, the exempt ranks aside."""
        ex = self.burn_exempt
        return [cs for cs in sets if cs.jokers or ex[cs.rank]]

    def burner_can_lead(self, hand: Sequence[int]) -> bool:
        """Can a burner asked to lead with ``hand`` keep S4 第六条: a joker left to attach, or only
        exempt ranks (the last 3s)?  If not, the burn has failed (诈烧, S0 五、烧牌)."""
        if hand[SJ] or hand[BJ] or hand[TOP]:
            return True
        ex = self.burn_exempt
        return all(not hand[r] or ex[r] for r in range(NRANKS))
