"""赦免 (amnesty): a phase with its own decision and its own option, as docs/extending.md adds one.

Before tribute is paid, each receiver may forgive up to ``phases.amnesty.limit`` of the debts owed to
him.  It imports only the package's public parts, so the same text works as a test's module
(tests/test_catalogue.py registers it) and as a module put inside ``gouji_rules/phases/`` (the same
test copies the package and drops it there, with a ``register_phase`` line).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from gouji_rules.game.actions import PASS, Action, Choose
from gouji_rules.game.events import Event, EventKind
from gouji_rules.parts.options import Option
from gouji_rules.phases.base import Decision, DecisionKind, HandPrep, Recorded, recorded_by

if TYPE_CHECKING:
    from gouji_rules.play.match import Match
    from gouji_rules.rules import Rules

PARDON = DecisionKind("pardon", "赦免", "forgive a debt owed to you, or pass", listed=160)


class Amnesty:
    """Each receiver is asked about each debt owed to him, until he has forgiven ``limit`` of them."""

    name = "amnesty"
    zh = "赦免：收贡的人可以免掉几笔贡"
    en = "amnesty: a receiver may forgive some debts owed to him"
    stage = "before_play"
    order = 56
    decisions = (PARDON,)
    words = (Choose("pardon"),)
    events = (EventKind("pardon", 160, "赦免", "a receiver forgave a debt: seat, other the giver, value its number"),)
    entry = None
    options = (
        Option("limit", int, 1, "每人最多免几笔贡", "debts each receiver may forgive", legacy=1, minimum=0, maximum=6),
    )

    def enabled(self, rules: Rules) -> bool:
        """Played wherever the variant names it under ``phases`` (a phase with options is on only there)."""
        return True

    def run(self, m: Match, prep: HandPrep) -> Generator[Decision, Action, bool]:
        """Ask each receiver about each debt, in the order they are owed."""
        limit = m.rules.extension_options(self)["limit"]
        used: dict[int, int] = {}
        kept = []
        for d in prep.debts:
            if d.count > 0 and used.get(d.receiver, 0) < limit:
                number = prep.debt_number(d)
                a = yield m.ask(d.receiver, PARDON, (Choose("pardon"), PASS), subject=number)
                if isinstance(a, Choose):
                    used[d.receiver] = used.get(d.receiver, 0) + 1
                    m.event(Event("pardon", d.receiver, other=d.giver, value=number))
                    continue
            kept.append(d)
        prep.debts = kept
        return True

    def answer(self, rec: Recorded, d: Decision) -> Action | None:
        """``pardon`` where the next recorded event forgives this very debt."""
        e = rec.next_event()
        return Choose("pardon") if recorded_by(e, "pardon", d.seat) and e.get("value") == d.subject else PASS
