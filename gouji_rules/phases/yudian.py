"""预点 (S4 第二十二条(三)): before 开牌, on no cards, a seat declares its opposite will not open."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from ..actions import PASS, Action, Declare
from ..events import Event
from ..seats import opposite
from .base import Decision, DecisionKind, HandPrep, register_phase

if TYPE_CHECKING:
    from ..match import Match
    from ..rules import Rules


@register_phase
class Yudian:
    """Each seat in turn from the first drawer: ``yudian`` or ``pass``."""

    name = "yudian"
    zh = "预点：开牌前宣布对头不开点"
    en = "预点: before the deal, declare that your opposite will not open"
    stage = "before_deal"
    order = 10

    def enabled(self, rules: Rules) -> bool:
        """Is this phase played under these rules?"""
        return rules.can_declare("yudian")

    def run(self, m: Match, prep: HandPrep) -> Generator[Decision, Action, bool]:
        """Ask this phase's decisions; False when the deal is void and must be redealt."""
        for k in range(6):
            s = (prep.first + k) % 6
            a = yield m.ask(s, DecisionKind.YUDIAN, (Declare("yudian"), PASS))
            if isinstance(a, Declare):
                prep.declarations.append(("yudian", s))
                m.event(Event("yudian", s, other=opposite(s)))
        return True
