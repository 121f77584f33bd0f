"""After every card has moved: S4 第九条 牌中没有3者，算做大落; 第十条 没有4者，算做没有开点."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from ..game.actions import Action
from ..game.cards import FOUR, THREE
from ..game.events import Event, EventKind
from .base import Decision, HandPrep, Recorded, register_phase

if TYPE_CHECKING:
    from ..rules import Rules
    from .base import Match


@register_phase
class BuyCheck:
    """Applied by the rules: a seat with no 3 is placed last (``buy.no_three: last``), one with no 4 cannot open."""

    name = "buy_check"
    zh = "买牌后没有3算大落，没有4算不开点"
    en = "after buying: no 3 is last place, no 4 cannot open"
    stage = "before_play"
    order = 70
    decisions = ()
    words = ()
    events = (EventKind("no_three", 190),)
    entry = None

    def enabled(self, rules: Rules) -> bool:
        """Is this phase played under these rules?"""
        return rules.buy

    def run(self, m: Match, prep: HandPrep) -> Generator[Decision, Action, bool]:
        """Ask this phase's decisions; False when the deal is void and must be redealt."""
        rules, setup = m.rules, prep.setup
        for k in range(6):
            s = (prep.lead + k) % 6
            if s in setup.placed:
                continue
            h = m.hands_now[s]
            if rules.no_three_places_last() and not h[THREE]:
                bottom = rules.no_three_place(setup.placed.values())
                setup.placed[s] = bottom
                setup.closed.add(s)
                m.event(Event("no_three", s, value=bottom))
            elif rules.no_four_closes_point and not h[FOUR]:
                setup.closed.add(s)
        return True
        yield  # a generator that asks nothing

    def answer(self, rec: Recorded, d: Decision) -> Action | None:
        """It asks nothing."""
        return None
