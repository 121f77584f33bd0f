"""宣点 / 和点 (S0 四、开点): declare one's opposite will not open, or agree to count each other as opened."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from ..actions import PASS, Action, Declare
from ..events import Event
from ..registry import DECLARATIONS
from ..seats import opposite
from .base import Decision, DecisionKind, HandPrep, register_phase

if TYPE_CHECKING:
    from ..match import Match
    from ..rules import Rules


@register_phase
class Xuandian:
    """Each seat from the leader: one of the declarations of this phase the variant has, or ``pass``."""

    name = "xuandian"
    zh = "宣点、和点"
    en = "宣点 / 和点: declarations after the deal"
    stage = "before_play"
    order = 30

    def kinds(self, rules: Rules) -> list[str]:
        """The declarations asked in this phase, in registry order."""
        return [k for k in DECLARATIONS if DECLARATIONS[k].phase == self.name and rules.can_declare(k)]

    def enabled(self, rules: Rules) -> bool:
        """Is this phase played under these rules?"""
        return bool(self.kinds(rules))

    def run(self, m: Match, prep: HandPrep) -> Generator[Decision, Action, bool]:
        """Ask this phase's decisions; False when the deal is void and must be redealt."""
        kinds = self.kinds(m.rules)
        done = prep.declared()  # 预点, where a variant has both
        votes: dict[int, str] = {}
        for k in range(6):
            s = (prep.lead + k) % 6
            offer = [Declare(x) for x in kinds if m.rules.can_declare_now(x, s, prep.setup.placed, done)]
            if not offer:
                continue
            a = yield m.ask(s, DecisionKind.XUANDIAN, (*offer, PASS))
            if isinstance(a, Declare):
                votes[s] = a.kind
        for s in range(3):
            o = s + 3
            if votes.get(s) == "hedian" and votes.get(o) == "hedian":
                prep.setup.opened |= {s, o}
                m.event(Event("hedian", s, other=o))
        staked = m.rules.staked_declarations()  # bets (宣点); 和点 only opened both, above
        for s, kind in sorted(votes.items()):
            if kind in staked:
                prep.declarations.append((kind, s))
                m.event(Event(kind, s, other=opposite(s)))
        return True
