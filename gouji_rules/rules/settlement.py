"""After a hand: scores, 串三户, and what is owed next hand (进贡).

A pure function of the hand's result, so a club event that records hands
played with real cards gets exactly the same points and tribute as a
simulated one.  Clauses: S0 八、进贡 and S0 opening (scoring); S4 第十四–十九条, 第二十二条.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..game.hand_setup import Debt as Debt  # their home is hand_setup; settlement.Debt and .HandResult stay public
from ..game.hand_setup import HandResult as HandResult
from ..game.seats import sweep_of
from . import as_rules

if TYPE_CHECKING:
    from . import Compiles, Rules


@dataclass(frozen=True)
class Settlement:
    """What :func:`settle` decides: the hand's scores, the sweep, the debts and the next leader."""

    scores: tuple[int, int]  # team 0 (seats 0 2 4), team 1
    sweep: int | None  # the team that took places 1-3 (串三户)
    debts: list[Debt] = field(default_factory=list)
    next_leader: int = 0
    winner: int | None = None  # team with the higher score this hand, None for a draw


def settle(rules: Rules | Compiles, result: HandResult) -> Settlement:
    """Scores, 串三户, what is owed next hand and who leads it, from a hand's result.

    Every answer comes from :class:`~gouji_rules.rules.Rules` (a Variant is compiled first):
    the team formula and sweep multiplier (hooks or parameters), the registered tribute kinds
    in the variant's order, the next leader.

    >>> from gouji_rules.catalog import dagang
    >>> s = settle(dagang(), HandResult(places=[1, 4, 2, 5, 3, 6], opened=[True] * 6))
    >>> s.scores, s.sweep
    ((12, 0), 0)
    """
    r = as_rules(rules)
    places = list(result.places)
    scores = r.team_scores(places)
    winner = None if scores[0] == scores[1] else (0 if scores[0] > scores[1] else 1)
    return Settlement(
        scores=scores, sweep=sweep_of(places), debts=r.debts(result), next_leader=r.next_leader(places), winner=winner
    )
