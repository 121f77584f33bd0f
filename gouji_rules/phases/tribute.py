"""进贡 / 还贡 (S0 八、进贡, S4 第十四–十八条): the debts of the last hand, in the variant's order."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from ..game.actions import AGREE, PASS, REFUSE, Action, Choose, Consent, Give
from ..game.cards import BJ, NRANKS, CardSet, format_hand
from ..game.events import Event, EventKind
from .base import Decision, DecisionKind, HandPrep, Recorded, recorded_by, register_phase

if TYPE_CHECKING:
    from ..rules import Rules
    from .base import Match


WAIVE = DecisionKind("waive", "免贡", "waive a teammate's tribute, or pass", listed=80)
POINT_CALL = DecisionKind("point_call", "亮大王叫牌", "show a 大王 and take a card (S0 点贡), or pass", listed=90)
GIVE = DecisionKind("give", "还贡", "the card handed back for a tribute card", listed=100)
ACCEPT = DecisionKind("accept", "收还贡", "agree to or refuse the card handed back", listed=110)


@register_phase
class Tribute:
    """Per debt: a teammate receiver may waive; S0's 大王 call; the payer's cards as the rules pick
    them (吃了不吐); for a returned kind, the receiver gives a card back per card (refusable)."""

    name = "tribute"
    zh = "进贡、还贡"
    en = "tribute and its return"
    stage = "before_play"
    order = 60
    decisions = (WAIVE, POINT_CALL, GIVE, ACCEPT)
    words = (Choose("waive"), Choose("call"), *(Give(r) for r in range(NRANKS)))
    events = (
        EventKind("tribute", 100),
        EventKind("return_tribute", 110),
        EventKind("waive", 150),
        EventKind("point_call", 200),
    )
    entry = None

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
                a = yield m.ask(d.receiver, WAIVE, (Choose("waive"), PASS), subject=d)
                if isinstance(a, Choose):
                    m.event(Event("waive", d.receiver, other=d.giver))
                    continue
            paid = 0
            if rules.may_call_point(d.kind) and m.free(d.giver, BJ):
                a = yield m.ask(d.giver, POINT_CALL, (Choose("call"), PASS), subject=d)
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
                    a = yield m.ask(d.receiver, GIVE, opts, subject=d)
                    assert isinstance(a, Give)
                    if rules.may_refuse_return(m.hands_now[d.giver], a.rank, len(opts) - 1):
                        c = yield m.ask(d.giver, ACCEPT, (AGREE, REFUSE), CardSet(a.rank, 1), subject=d)
                        if isinstance(c, Consent) and not c.agree:
                            refused.add(a.rank)
                            continue
                    m.move(d.receiver, d.giver, a.rank, kept=False)
                    m.event(Event("return_tribute", d.receiver, CardSet(a.rank, 1), other=d.giver))
                    break
        return True

    def answer(self, rec: Recorded, d: Decision) -> Action | None:
        """From the next recorded event: the waive of this debt (``d.subject``), the 大王 call, the card
        handed back; a refused card leaves no event, so the card handed back is the one asked for."""
        e, s = rec.next_event(), d.seat
        if d.kind == WAIVE:
            mine = recorded_by(e, "waive", s) and e.get("other") == d.subject.giver
            return Choose("waive") if mine else PASS
        if d.kind == POINT_CALL:
            return Choose("call") if recorded_by(e, "point_call", s) else PASS
        if d.kind == GIVE:
            # the giver's wrong play on accepting it (the default, agree) comes before the event
            if e.get("type") == "wrong_play" and recorded_by(rec.next_event(1), "return_tribute", s):
                e = rec.next_event(1)
            if recorded_by(e, "return_tribute", s):
                return next((a for a in d.legal if isinstance(a, Give) and _rank_text(a.rank) == e.get("cards")), None)
            return None
        return AGREE


def _rank_text(r: int) -> str:
    return format_hand(tuple(1 if i == r else 0 for i in range(NRANKS)))
