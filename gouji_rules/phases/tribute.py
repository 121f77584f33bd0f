"""进贡 / 还贡 (S0 八、进贡, S4 第十四–十八条): the debts of the last hand, in the variant's order."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from ..actions import AGREE, PASS, REFUSE, Action, Choose, Consent, Give
from ..cards import BJ, NRANKS, CardSet
from ..events import Event
from .base import Decision, DecisionKind, HandPrep, register_phase

if TYPE_CHECKING:
    from ..match import Match
    from ..rules import Rules


@register_phase
class Tribute:
    """Per debt: a teammate receiver may waive; S0's 大王 call; the payer's cards as the rules pick
    them (吃了不吐); for a returned kind, the receiver gives a card back per card (refusable)."""

    name = "tribute"
    zh = "进贡、还贡"
    en = "tribute and its return"
    stage = "before_play"
    order = 60

    def enabled(self, rules: Rules) -> bool:
        """Is this phase played under these rules?"""
        return rules.tribute

    def run(self, m: Match, prep: HandPrep) -> Generator[Decision, Action, bool]:
        """Ask this phase's decisions; False when the deal is void and must be redealt."""
        rules, setup = m.rules, prep.setup
        for d in prep.debts:
            if d.giver in setup.geming or d.receiver in setup.geming:
                continue  # a 革命 player has left the hand: he neither pays nor takes tribute
            kind = rules.tribute_kind(d.kind)
            if rules.may_waive(d.kind, d.giver, d.receiver):
                a = yield m.ask(d.receiver, DecisionKind.WAIVE, (Choose("waive"), PASS))
                if isinstance(a, Choose):
                    m.event(Event("waive", d.receiver, other=d.giver))
                    continue
            paid = 0
            if rules.may_call_point(d.kind) and m.free(d.giver, BJ):
                a = yield m.ask(d.giver, DecisionKind.POINT_CALL, (Choose("call"), PASS))
                if isinstance(a, Choose) and any(m.hands_now[d.receiver]):
                    # 亮出大王，叫停对门要摸的这张牌作为还贡收入自己的牌里，进贡时将大王进上 (S0 八、进贡)
                    r = m.random_card(d.receiver)
                    m.move(d.receiver, d.giver, r)
                    m.move(d.giver, d.receiver, BJ)
                    m.event(Event("point_call", d.giver, CardSet(BJ, 1), other=d.receiver, value=r + 1))
                    m.event(Event("tribute", d.giver, CardSet(BJ, 1), other=d.receiver, value=kind.value))
                    paid = 1
            for _ in range(d.count - paid):
                r = rules.tribute_rank(m.hands_now[d.giver], m.kept[d.giver])
                if r < 0:
                    break
                m.move(d.giver, d.receiver, r)
                paid += 1
                m.event(Event("tribute", d.giver, CardSet(r, 1), other=d.receiver, value=kind.value))
            if not d.returned:
                continue
            for _ in range(paid):
                refused: set[int] = set()
                while True:
                    h = m.hands_now[d.receiver]
                    opts = [Give(r) for r in range(NRANKS) if h[r] and r not in refused]
                    if not opts:
                        break
                    a = yield m.ask(d.receiver, DecisionKind.GIVE, opts)
                    assert isinstance(a, Give)
                    if rules.may_refuse_return(m.hands_now[d.giver], a.rank, len(opts) - 1):
                        c = yield m.ask(d.giver, DecisionKind.ACCEPT, (AGREE, REFUSE), CardSet(a.rank, 1))
                        if isinstance(c, Consent) and not c.agree:
                            refused.add(a.rank)
                            continue
                    m.move(d.receiver, d.giver, a.rank, kept=False)
                    m.event(Event("return_tribute", d.receiver, CardSet(a.rank, 1), other=d.giver))
                    break
        return True
