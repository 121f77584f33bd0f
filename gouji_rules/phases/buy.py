"""买3买4 (S0 七、买3买4; S4 第九条 买三, 第十条 买四)."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from ..game.actions import PASS, Action, Choose
from ..game.cards import FOUR, THREE, CardSet
from ..game.events import Event, EventKind
from .base import Decision, DecisionKind, HandPrep, Recorded, SetupDraft, recorded_by, register_phase

if TYPE_CHECKING:
    from ..rules import Rules
    from .base import Match

SELLERS = {"opposite": (3,), "team": (2, 4), "opposite_team": (1, 5)}
"""seat offsets of each group of sellers"""


BUY4 = DecisionKind("buy4", "买4", "buy a 4 or pass", listed=70)


@register_phase
class Buy:
    """Sellers serve in the variant's order of groups, so every seller serves its own opposite
    before anyone else (S0 七、买3买4: 如果对门缺3,4则必须先卖给对门)."""

    name = "buy"
    zh = "买3买4"
    en = "buying 3s and 4s"
    stage = "before_play"
    order = 50
    decisions = (BUY4,)
    words = (Choose("buy4"),)
    events = (EventKind("buy3", 80), EventKind("buy4", 90))
    entry = None

    def enabled(self, rules: Rules) -> bool:
        """Is this phase played under these rules?"""
        return rules.buy

    def run(self, m: Match, prep: HandPrep) -> Generator[Decision, Action, bool]:
        """Ask this phase's decisions; False when the deal is void and must be redealt."""
        rules, setup = m.rules, prep.setup
        order = [(prep.lead + k) % 6 for k in range(6) if (prep.lead + k) % 6 not in setup.placed]
        asked: set[int] = set()
        for rank, kind in ((THREE, "buy3"), (FOUR, "buy4")):
            for group in rules.buy_sellers:
                for s in order:
                    if m.hands_now[s][rank]:
                        continue
                    seat = seller(m, s, rank, group, setup)
                    if seat is None:
                        continue
                    paid = rules.buy_payment(group, m.hands_now[s])
                    if paid is None:
                        continue
                    if rank == FOUR:
                        if not rules.buy_four_optional or s in asked:
                            continue
                        asked.add(s)
                        a = yield m.ask(s, BUY4, (Choose("buy4"), PASS))
                        if not isinstance(a, Choose):
                            continue
                    if paid >= 0:
                        m.move(s, seat, paid)
                    m.move(seat, s, rank)
                    m.event(Event(kind, s, CardSet(rank, 1), other=seat, value=paid + 1))
        return True

    def answer(self, rec: Recorded, d: Decision) -> Action | None:
        """``buy4`` where the next event is this seat's ``buy4``, else ``pass``."""
        return Choose("buy4") if recorded_by(rec.next_event(), "buy4", d.seat) else PASS


def seller(m: Match, s: int, rank: int, group: str, setup: SetupDraft) -> int | None:
    """The first seat of ``group`` (relative to ``s``) in play holding more than it keeps of ``rank``."""
    for k in SELLERS.get(group, ()):
        p = (s + k) % 6
        if p not in setup.placed and m.hands_now[p][rank] > m.rules.buy_keep:
            return p
    return None
