"""扛贡 (S0 八、进贡, S4 第十四条(七)): 四小扛自己，四大扛全场."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from ..game.actions import Action
from ..game.events import Event, EventKind
from .base import Decision, HandPrep, Recorded, register_phase

if TYPE_CHECKING:
    from ..rules import Rules
    from .base import Match


@register_phase
class Kang:
    """Applied by the rules (nobody declines an exemption): debts of exempt seats are dropped."""

    name = "kang"
    zh = "扛贡：摸到四个以上的王可以不进贡"
    en = "扛贡: four or more jokers exempt the holder (or his team) from tribute"
    stage = "before_play"
    order = 20
    decisions = ()
    words = ()
    events = (EventKind("kang", 30),)
    entry = None

    def enabled(self, rules: Rules) -> bool:
        """Is this phase played under these rules?"""
        return rules.kang_enabled

    def run(self, m: Match, prep: HandPrep) -> Generator[Decision, Action, bool]:
        """Ask this phase's decisions; False when the deal is void and must be redealt."""
        if prep.debts:
            exempt: set[int] = set()
            owes = {d.giver for d in prep.debts}
            for s in range(6):
                how = m.rules.kang(m.hands_now[s])
                seats = m.rules.kang_seats(s, how)
                if seats & owes:
                    exempt |= seats
                    m.event(Event("kang", s, value=how))
            prep.debts = [d for d in prep.debts if d.giver not in exempt]
        return True
        yield  # a generator that asks nothing

    def answer(self, rec: Recorded, d: Decision) -> Action | None:
        """It asks nothing."""
        return None
