"""冲点 (S0 十、冲点): with nothing above A and three pure 够级 sets, play them at once to open."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from ..game.actions import PASS, Action, Choose, Head, Pass, Play
from ..game.cards import format_set
from ..game.events import Event, EventKind
from ..game.legal import Legal
from ..game.seats import opposite
from .base import Decision, DecisionKind, HandPrep, Recorded, recorded_by, register_phase
from .geming import HEAD

if TYPE_CHECKING:
    from ..rules import Rules
    from .base import Match


CHONGDIAN = DecisionKind("chongdian", "冲点", "冲点 or pass", listed=120)
CHONG_SET = DecisionKind("chong_set", "冲点出牌", "a pure 够级 set put down to 冲点", listed=130)
CHONG_ANSWER = DecisionKind("chong_answer", "冲点应牌", "the opposite's answer to a 冲点 set, or pass", listed=140)


@register_phase
class Chongdian:
    """Eligible seats choose; too many void the deal; each player puts down pure sets that his
    opposite may answer; places per the rules; each opposite chooses 有头 or 无头."""

    name = "chongdian"
    zh = "冲点"
    en = "冲点: rushing the point with three pure 够级 sets"
    stage = "before_play"
    order = 80
    decisions = (CHONGDIAN, HEAD, CHONG_SET, CHONG_ANSWER)
    words = (Choose("chongdian"), Head(True), Head(False))
    events = (EventKind("chongdian", 130),)
    entry = None

    def enabled(self, rules: Rules) -> bool:
        """Is this phase played under these rules?"""
        return bool(rules.chongdian)

    def run(self, m: Match, prep: HandPrep) -> Generator[Decision, Action, bool]:
        """Ask this phase's decisions; False when the deal is void and must be redealt."""
        rules, setup = m.rules, prep.setup
        players = []
        for k in range(6):
            s = (prep.lead + k) % 6
            if s not in setup.placed and rules.chongdian_eligible(m.hands_now[s]):
                a = yield m.ask(s, CHONGDIAN, (Choose("chongdian"), PASS))
                if isinstance(a, Choose):
                    players.append(s)
        if not players:
            return True
        if rules.chongdian_redeals(len(players)):
            m.event(Event("redeal", value=2))
            return False  # 若3人或3人以上冲点则重新洗牌摸牌，贡数不变
        results: dict[int, bool] = {}
        for s in players:
            o = opposite(s)
            success = False
            for _ in range(rules.chongdian_sets):
                sets = rules.pure_choices(m.hands_now[s])
                if not sets:
                    break
                a = yield m.ask_sets(s, CHONG_SET, Legal(sets=sets))
                assert isinstance(a, Play)
                m.take(s, a.cards)
                m.event(Event("play", s, a.cards, other=o))
                if o in setup.placed or o in players:
                    success = True
                    break
                answers = rules.beat.followers(m.hands_now[o], a.cards)
                b = yield m.ask_sets(o, CHONG_ANSWER, Legal(sets=answers, extras=(PASS,)), a.cards)
                if isinstance(b, Pass):
                    m.event(Event("pass", o))
                    success = True
                    break
                assert isinstance(b, Play)
                m.take(o, b.cards)
                m.event(Event("play", o, b.cards, other=s))
            results[s] = success
            m.event(Event("chongdian", s, other=o, value=1 if success else 2))
            m.discard(s)
            opened, closed = rules.chongdian_outcome(s, success)
            setup.opened |= opened
            setup.closed |= closed
            for r in rules.chongdian_dropped(success):
                m.discards[r] += m.hands_now[o][r]
                m.hands_now[o][r] = 0
        placing = rules.chongdian_placings([(s, results[s]) for s in players], prep.last_places or [0] * 6)[0]
        for s, place in sorted(placing.items(), key=lambda sp: sp[1]):
            setup.placed[s] = rules.place_before_play(setup.placed, place)
        for s in players:
            o = opposite(s)
            if o in setup.placed:
                continue
            a2 = yield m.ask(o, HEAD, (Head(True), Head(False)))
            if isinstance(a2, Head) and a2.keep:
                setup.head_rights[o] = rules.chongdian_opposite_rights
                m.event(Event("with_head", o, other=s))
            else:
                setup.no_head.add(o)
                if rules.chongdian_no_head_closed(results[s]):
                    setup.closed.add(o)
                    setup.opened.discard(o)
        return True

    def answer(self, rec: Recorded, d: Decision) -> Action | None:
        """冲点 where the deal's events have this seat's; each set and answer from the next ``play`` or ``pass``."""
        e, s = rec.next_event(), d.seat
        if d.kind == CHONGDIAN:
            return Choose("chongdian") if any(recorded_by(x, "chongdian", s) for x in rec.segment) else PASS
        if d.kind == HEAD:
            return Head(recorded_by(e, "with_head", s))
        if recorded_by(e, "play", s):
            return next((a for a in d.legal if isinstance(a, Play) and format_set(a.cards) == e.get("cards")), None)
        if d.kind == CHONG_ANSWER and recorded_by(e, "pass", s):
            return PASS
        return None
