"""Chapter 计分 and between hands: a hand's scores, who leads the next, 串三户 and 大落.

S4 第二条 (who leads), 第十四条(六)(七) (谁为大落可以商定, 连续三次串三户), 第十九条 (计分), S0 串三户;
大纲第二条(二) (重新开牌).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..game.seats import same_side, side, side_seats, sweep_of, teammates
from .tribute import TributeChapter

if TYPE_CHECKING:
    from ..parts.sections import Sections


class ScoringChapter(TributeChapter):
    """The scoring and next-hand questions."""

    def __init__(self, variant: Sections) -> None:
        super().__init__(variant)
        v = variant
        m = v.match
        self.kaipai_count = m.kaipai == "count"
        self.shangban = m.first_leader == "shangban"
        self.next_leader_place = 6 if m.next_leader == "last_place" else 1
        self.match_hands = m.hands
        self.match_target = m.target
        self.huiwu = m.huiwu
        self.reopen_after_sweep = m.reopen_after_sweep
        self.choose_last = m.choose_last
        self.points = list(v.scoring.points)
        self.positive_only = v.scoring.positive_only
        self.scoring = v.scoring.enabled
        """hands are scored (S4 第十九条); off: tribute without scoring"""
        self.scoring_sweep_multiplier = v.scoring.sweep_multiplier

    def place_points(self, place: int) -> int:
        """The points of one place (1..6) before the team formula."""
        return int(self.points[place - 1])

    def team_scores(self, places: Sequence[int]) -> tuple[int, int]:
        """Scores of team 0 (seats 0, 2, 4) and team 1 from each seat's place (1..6)."""
        if not self.scoring:
            return 0, 0  # tribute without scoring (scoring.enabled, S4 第十四条 vs 第十九条)
        sweep_team = sweep_of(places)
        out = []
        hook = self.hooks.get("team_score")
        for team in (0, 1):
            seats = side_seats(team)
            pts = [self.place_points(places[s]) for s in seats]
            sweep = sweep_team == team
            if hook is not None:
                score = int(hook({"points": pts, "places": [places[s] for s in seats], "sweep": sweep}))
            else:
                score = sum(pts)
                if self.positive_only:
                    score = max(0, score)
            out.append(score * self.sweep_multiplier(sweep))
        return out[0], out[1]

    def sweep_multiplier(self, sweep: bool) -> int:
        """The score multiplier of a team (``sweep``: it took places 1-3, 串三户)."""
        hook = self.hooks.get("sweep_multiplier")
        if hook is not None:
            return int(hook({"sweep": sweep}))
        return self.scoring_sweep_multiplier if sweep else 1

    def next_leader(self, places: Sequence[int]) -> int:
        """Who leads the next hand: last hand's last place (S4 第二条, S0) or its first."""
        return next((s for s, p in enumerate(places) if p == self.next_leader_place), 0)

    def carried_leader(self, next_leader: int, sweep: int | None) -> int | None:
        """The seat that leads the next hand, or None when 开牌 (and 上班) choose again: after a
        串三户 where ``match.reopen_after_sweep`` (大纲第二条(二): 出现串三户…应重新开牌)."""
        return None if sweep is not None and self.reopen_after_sweep else next_leader

    def sweep_streak(self, streak: int, sweep: int | None, last_sweep: int | None) -> tuple[int, bool]:
        """串三户 in a row once a hand swept for team ``sweep`` (None: no sweep) after ``streak`` of them
        (the last by ``last_sweep``), counted as ``tribute.sweep_streak`` says; and whether the streak
        redeals with no tribute (S4 第十四条(七) 连续三次串三户一般不进贡，应重新开牌), the count then
        starting again."""
        if sweep is None:
            return 0, False
        streak = 1 if self.sweep_streak_same_team and sweep != last_sweep else streak + 1
        if self.sweep_redeal and streak >= self.sweep_redeal:
            return 0, True
        return streak, False

    def last_place_swaps(self, places: Sequence[int]) -> list[int]:
        """Seats the last place may trade places with after the hand (谁为大落可以商定: S4 第十四条(六),
        S0 串三户)."""
        how = self.choose_last
        last = list(places).index(6)
        if how == "losing_pair":
            second = list(places).index(5)
            return [second] if same_side(last, second) else []
        if how == "swept_team":
            team = sweep_of(list(places))
            if team is None or side(last) == team:
                return []
            return teammates(last)
        return []
