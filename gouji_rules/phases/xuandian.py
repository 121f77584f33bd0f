"""宣点 / 和点 (S0 四、开点): declare one's opposite will not open, or agree to count each other as opened."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from ..game.actions import PASS, Action, Declare
from ..game.events import Event, EventKind
from ..game.seats import opposite
from ..parts.registry import DECLARATIONS
from .base import Decision, DecisionKind, HandPrep, Recorded, recorded_by, register_phase

if TYPE_CHECKING:
    from ..rules import Rules
    from .base import Match


XUANDIAN = DecisionKind("xuandian", "宣点、和点", "宣点, 和点 or pass, after the deal", listed=20)


@register_phase
class Xuandian:
    """Each seat from the leader: one of the declarations of this phase the variant has, or ``pass``."""

    name = "xuandian"
    zh = "宣点、和点"
    en = "宣点 / 和点: declarations after the deal"
    stage = "before_play"
    order = 30
    decisions = (XUANDIAN,)
    words = ()
    events = (EventKind("xuandian", 40), EventKind("hedian", 50))
    entry = None

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
            a = yield m.ask(s, XUANDIAN, (*offer, PASS))
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

    def answer(self, rec: Recorded, d: Decision) -> Action | None:
        """Votes are asked in turn and announced together: the record names them anywhere in the deal."""
        want: Action = PASS
        for x in rec.segment:
            if x.get("type") == "hedian" and d.seat in (x.get("seat"), x.get("other")):
                want = Declare("hedian")
            elif recorded_by(x, str(x.get("type")), d.seat) and Declare(str(x.get("type"))) in d.legal:
                want = Declare(str(x.get("type")))
        return want
