"""明点 (S4 第二十二条(三)): after tribute and before the first lead."""

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


MINGDIAN = DecisionKind("mingdian", "明点", "明点 or pass, after tribute", listed=50)


@register_phase
class Mingdian:
    """Each seat from the leader that has not declared and whose pair is in play: ``mingdian`` or ``pass``."""

    name = "mingdian"
    zh = "明点：进贡后、首发牌前宣布对头不开点"
    en = "明点: after tribute, before the first lead"
    stage = "before_play"
    order = 90
    decisions = (MINGDIAN,)
    words = ()
    events = (EventKind("mingdian", 60),)
    entry = None

    def enabled(self, rules: Rules) -> bool:
        """Is this phase played under these rules?"""
        return rules.can_declare("mingdian")

    def run(self, m: Match, prep: HandPrep) -> Generator[Decision, Action, bool]:
        """Ask this phase's decisions; False when the deal is void and must be redealt."""
        done = prep.declared()
        placed = prep.setup.placed
        for k in range(6):
            s = (prep.lead + k) % 6
            if not m.rules.can_declare_now("mingdian", s, placed, done):
                continue
            a = yield m.ask(s, MINGDIAN, (Declare("mingdian"), PASS))
            if isinstance(a, Declare):
                prep.declarations.append(("mingdian", s))
                m.event(Event("mingdian", s, other=opposite(s)))
        return True

    def answer(self, rec: Recorded, d: Decision) -> Action | None:
        """The recorded ``mingdian`` of this seat, or ``pass``."""
        return Declare("mingdian") if recorded_by(rec.next_event(), "mingdian", d.seat) else PASS
