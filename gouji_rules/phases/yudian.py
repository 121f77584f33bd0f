"""预点 (S4 第二十二条(三)): before 开牌, on no cards, a seat declares its opposite will not open."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from ..game.actions import PASS, Action, Declare
from ..game.events import Event, EventKind
from ..game.seats import opposite
from .base import Decision, DecisionKind, HandPrep, Recorded, recorded_by, register_phase

if TYPE_CHECKING:
    from ..rules import Rules
    from .base import Match


YUDIAN = DecisionKind("yudian", "预点", "预点 or pass, before the deal", listed=10)


@register_phase
class Yudian:
    """Each seat in turn from the first drawer: ``yudian`` or ``pass``."""

    name = "yudian"
    zh = "预点：开牌前宣布对头不开点"
    en = "预点: before the deal, declare that your opposite will not open"
    stage = "before_deal"
    order = 10
    decisions = (YUDIAN,)
    words = ()
    events = (EventKind("yudian", 70),)
    entry = None

    def enabled(self, rules: Rules) -> bool:
        """Is this phase played under these rules?"""
        return rules.can_declare("yudian")

    def run(self, m: Match, prep: HandPrep) -> Generator[Decision, Action, bool]:
        """Ask this phase's decisions; False when the deal is void and must be redealt."""
        for k in range(6):
            s = (prep.first + k) % 6
            a = yield m.ask(s, YUDIAN, (Declare("yudian"), PASS))
            if isinstance(a, Declare):
                prep.declarations.append(("yudian", s))
                m.event(Event("yudian", s, other=opposite(s)))
        return True

    def answer(self, rec: Recorded, d: Decision) -> Action | None:
        """The recorded ``yudian`` of this seat, or ``pass``."""
        return Declare("yudian") if recorded_by(rec.next_event(), "yudian", d.seat) else PASS
