"""革命 (S4 第二十一条): a player with no 2 and no joker may drop out of the hand."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from ..game.actions import PASS, Action, Choose, Head
from ..game.events import Event, EventKind
from ..game.seats import opposite
from .base import Decision, DecisionKind, HandPrep, Recorded, recorded_by, register_phase

if TYPE_CHECKING:
    from ..rules import Rules
    from .base import Match


GEMING = DecisionKind("geming", "革命", "革命 or pass", listed=30)
HEAD = DecisionKind("head", "有头、无头", "有头 or 无头, after the opposite's 革命 or 冲点", listed=40)


@register_phase
class Geming:
    """Eligible seats (no 2, no joker; or 进贡不起 where ``geming.cannot_pay``) choose; too many void
    the deal; each 革命's opposite chooses 有头 or 无头."""

    name = "geming"
    zh = "革命：没有大花、小花、钱可以退出本局"
    en = "革命: a player with no 2 and no joker may drop out"
    stage = "before_play"
    order = 40
    decisions = (GEMING, HEAD)
    words = (Choose("geming"), Head(True), Head(False))
    events = (EventKind("geming", 120), EventKind("with_head", 140))
    entry = None

    def enabled(self, rules: Rules) -> bool:
        """Is this phase played under these rules?"""
        return rules.geming

    def run(self, m: Match, prep: HandPrep) -> Generator[Decision, Action, bool]:
        """Ask this phase's decisions; False when the deal is void and must be redealt."""
        rules, setup = m.rules, prep.setup
        rev = []
        for k in range(6):
            s = (prep.lead + k) % 6
            owed = sum(d.count for d in prep.debts if d.giver == s)
            if rules.geming_eligible(m.hands_now[s]) or rules.cannot_pay(m.hands_now[s], owed):
                a = yield m.ask(s, GEMING, (Choose("geming"), PASS))
                if isinstance(a, Choose):
                    rev.append(s)
        if rules.geming_voids(len(rev)):
            m.event(Event("redeal", value=1))
            return False
        for s in rev:
            m.event(Event("geming", s))
            setup.placed[s] = rules.place_before_play(setup.placed, rules.geming_final_place(False))
            setup.geming.add(s)
            setup.closed.add(s)
            m.discard(s)
            prep.debts = [d for d in prep.debts if d.giver != s]
            o = opposite(s)
            a = yield m.ask(o, HEAD, (Head(True), Head(False)))
            if isinstance(a, Head) and a.keep:
                setup.head_rights[o] = rules.geming_opposite_rights
                if rules.geming_opposite_opens_by_rights():
                    setup.open_by_rights.add(o)
                m.event(Event("with_head", o, other=s))
            else:
                setup.no_head.add(o)
        return True

    def answer(self, rec: Recorded, d: Decision) -> Action | None:
        """革命 where the deal's events have this seat's; 有头 where the next is its ``with_head``
        (冲点 asks the same 有头/无头 and is answered here too)."""
        if d.kind == HEAD:
            return Head(recorded_by(rec.next_event(), "with_head", d.seat))
        return Choose("geming") if any(recorded_by(x, "geming", d.seat) for x in rec.segment) else PASS
