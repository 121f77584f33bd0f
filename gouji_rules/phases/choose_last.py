"""Who counts as last place for tribute and the next lead.

S4 第十四条(六): 大落、二落为同一方人员时，可在开牌前自行商定谁为大落.
S0: 被串三户的一方下一局游戏开始之前决定谁是拉客.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from ..game.actions import PASS, Action, Choose
from ..game.events import Event, EventKind
from .base import Decision, DecisionKind, HandPrep, Recorded, register_phase

if TYPE_CHECKING:
    from ..rules import Rules
    from .base import Match


CHOOSE_LAST = DecisionKind("choose_last", "商定大落", "name another seat of one's side as last place", listed=60)


@register_phase
class ChooseLast:
    """The seat in last place may name another (``last<seat>``) or ``pass``."""

    name = "choose_last"
    zh = "商定谁为大落（拉客）"
    en = "who counts as last place, when the rules let the losers choose"
    stage = "after_play"
    order = 100
    decisions = (CHOOSE_LAST,)
    words = tuple(Choose(f"last{s}") for s in range(6))
    events = (EventKind("choose_last", 180),)
    entry = None

    def enabled(self, rules: Rules) -> bool:
        """Is this phase played under these rules?"""
        return rules.choose_last != "none"

    def run(self, m: Match, prep: HandPrep) -> Generator[Decision, Action, bool]:
        """Ask this phase's decisions; False when the deal is void and must be redealt."""
        places = prep.places
        last = places.index(6)
        candidates = m.rules.last_place_swaps(places)
        if not candidates:
            return True
        opts: list[Action] = [Choose(f"last{s}") for s in candidates]
        a = yield m.ask(last, CHOOSE_LAST, (*opts, PASS))
        if isinstance(a, Choose):
            other = int(a.what[4:])
            places[last], places[other] = places[other], places[last]
            m.event(Event("choose_last", other, other=last))
        return True

    def answer(self, rec: Recorded, d: Decision) -> Action | None:
        """The seat the recorded ``choose_last`` names, or ``pass``."""
        e = rec.next_event()
        return Choose(f"last{e.get('seat')}") if e.get("type") == "choose_last" else PASS
