"""What a hand leaves the next one, valued: the match objective's second term.

A hand's decisions reach the match through what the hand carries into the next: the tribute owed
(落贡 and 拉贡 by places, 点贡 of a point closed or a declaration lost, 烧贡, 闷贡, 串三户's), whether it is
returned (还贡), and who leads the next hand.  A player who leads 4s before opening, or burns and
fails, pays in the next hand; a network trained on one hand's score never sees that bill.

:class:`CarryValue` prices it linearly: the next hand's expected score difference, team 0 − team 1,
in units of the variant's largest place score, as a sum over the carried facts — per tribute kind
the cards team 0 receives less those it gives (returned debts counted apart), and +1 or −1 for the
team that leads next.  :func:`fit_carry` fits the prices by least squares on consecutive hands of
whole matches (by default played by greedy seats), without an intercept since the game is the same
for both teams.  The trainer's ``--objective match`` values every decision by the hand's score plus
this carry value (``learn.selfplay``), and the weights' meta keeps the prices and how they were fitted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import GoujiError
from ..game.hand_setup import Debt
from ..game.rng import derive
from ..game.seats import side
from ..play.agents import Agent, GreedyAgent
from ..play.engine import Hand
from ..play.match import Before, HandSummary, after, hand_result, play_match
from ..play.observe import Observation
from ..rules import Rules
from ..rules.settlement import settle
from ..variant import Variant

LEADER = "leader"
"""The feature of who leads the next hand (+1 team 0, −1 team 1, 0 when 开牌 draws again)."""


def score_unit(rules: Rules) -> float:
    """The return's unit: the largest place score in absolute value (4 under dagang, 2 under dianshaomenla)."""
    return float(max(1, max(abs(rules.place_points(p)) for p in range(1, 7))))


def declared_stakes(obs: Observation) -> list[tuple[str, int]]:
    """The staked declarations (宣点, 明点, 预点) a seat's events name since its hand began: what a
    search world's hand settles with (:meth:`CarryValue.of_hand`)."""
    staked = set(obs.rules.staked_declarations())
    return [(e.type, e.seat) for e in obs.events if e.type in staked]


def debt_feature(debt: Debt) -> str:
    """The feature a debt counts in: its tribute kind, ``.returned`` when the receiver hands cards back."""
    return f"{debt.kind}.returned" if debt.returned else debt.kind


def carried(rules: Rules, summary: HandSummary) -> tuple[list[Debt], int | None]:
    """What a finished hand leaves the next: its debts and the seat that leads it (None: 开牌 again),
    as :func:`gouji_rules.match.after` decides them for the match."""
    places = summary.tribute_places or summary.places
    nxt = after(rules, Before(), list(places), summary.debts, summary.sweep, rules.next_leader(places))
    return nxt.debts, nxt.leader


def features(rules: Rules, summary: HandSummary) -> dict[str, float]:
    """The carried facts of a finished hand, from team 0's side (see the module's docstring)."""
    debts, leader = carried(rules, summary)
    out: dict[str, float] = {}
    for d in debts:
        give, get = side(d.giver), side(d.receiver)
        if give == get:
            continue
        name = debt_feature(d)
        out[name] = out.get(name, 0.0) + (d.count if get == 0 else -d.count)
    out[LEADER] = 0.0 if leader is None else (1.0 if side(leader) == 0 else -1.0)
    return out


@dataclass(frozen=True)
class CarryValue:
    """Prices of the carried facts, in units of the variant's largest place score per card (per lead)."""

    prices: dict[str, float] = field(default_factory=dict)
    hands: int = 0
    """the consecutive hand pairs the prices were fitted on (0: not fitted, every price 0)"""
    fitted_over: tuple[str, ...] = ()
    agents: str = ""

    def value(self, rules: Rules, summary: HandSummary) -> float:
        """The carry value of a finished hand for team 0 (team 1's is its negative)."""
        return sum(self.prices.get(k, 0.0) * x for k, x in features(rules, summary).items())

    def of_hand(self, hand: Hand, declarations: Sequence[tuple[str, int]] = ()) -> float:
        """Team 0's value of a finished ``hand`` in the variant's points: its settled score difference
        plus the carry value of what it leaves (a search world's hand: no 商定大落, the match's
        ``declarations`` as its events named them, its 革命 seats from its setup)."""
        rules = hand.rules
        st = settle(rules, hand_result(hand, declarations, hand.setup.geming, hand.places))
        summary = HandSummary(0, 0, 0, list(hand.places), st.scores, st.sweep, st.debts)
        return float(st.scores[0] - st.scores[1]) + self.value(rules, summary) * score_unit(rules)

    def to_meta(self) -> dict[str, Any]:
        """The prices as a weights file's meta keeps them (``meta["carry"]``)."""
        return {
            "prices": {k: round(v, 5) for k, v in sorted(self.prices.items())},
            "hands": self.hands,
            "fitted_over": list(self.fitted_over),
            "agents": self.agents,
        }

    @staticmethod
    def from_meta(meta: Any) -> CarryValue:
        """The prices a checkpoint's meta kept (``to_meta``); anything else is no carry value."""
        if not isinstance(meta, dict) or not isinstance(meta.get("prices"), dict):
            return CarryValue()
        prices = {
            str(k): float(v)
            for k, v in meta["prices"].items()
            if isinstance(v, (int, float)) and np.isfinite(v) and abs(v) < 100
        }
        fitted = meta.get("fitted_over", [])
        return CarryValue(
            prices,
            int(meta.get("hands", 0)) if isinstance(meta.get("hands", 0), int) else 0,
            tuple(str(x) for x in fitted) if isinstance(fitted, list) else (),
            str(meta.get("agents", "")),
        )


def fit_carry(
    variants: Sequence[Variant],
    matches: int,
    seed: int,
    hands: int = 8,
    agent: Callable[[], Agent] = GreedyAgent,
    progress: Callable[[int], None] | None = None,
) -> CarryValue:
    """Prices fitted on ``matches`` matches of ``hands`` hands, the variants taken in turn, six
    ``agent`` seats: each hand but a match's last is a row (its carried facts → the next hand's
    score difference in units).  A kind seen in fewer than 20 rows is priced 0 (too few to tell).
    A match the engine stops (a club's rules under which every deal is void) gives no rows."""
    rows: list[dict[str, float]] = []
    ys: list[float] = []
    for i in range(matches):
        variant = variants[i % len(variants)]
        rules = variant.rules
        try:
            m = play_match(variant, derive(seed, i), hands, [agent() for _ in range(6)])
        except GoujiError:  # a club's rules that void every deal (革命 by seats that cannot pay): no rows
            continue
        unit = score_unit(rules)
        for a, b in zip(m.summaries, m.summaries[1:], strict=False):
            rows.append(features(rules, a))
            ys.append((b.scores[0] - b.scores[1]) / unit)
        if progress is not None:
            progress(i + 1)
    seen: dict[str, int] = {}
    for r in rows:
        for k, x in r.items():
            if x:
                seen[k] = seen.get(k, 0) + 1
    names = sorted(k for k, n in seen.items() if n >= 20)
    names_of = tuple(dict.fromkeys(v.name for v in variants[: max(1, min(matches, len(variants)))]))
    if not names:
        return CarryValue({}, len(rows), names_of, _agent_name(agent))
    design = np.array([[r.get(k, 0.0) for k in names] for r in rows], np.float64)
    coef, *_ = np.linalg.lstsq(design, np.asarray(ys, np.float64), rcond=None)
    return CarryValue({k: float(c) for k, c in zip(names, coef, strict=True)}, len(rows), names_of, _agent_name(agent))


def _agent_name(agent: Callable[[], Agent]) -> str:
    # an instance's name: on the compiled build a class's ``name`` is a descriptor, not the string
    name = getattr(agent(), "name", None)
    return name if isinstance(name, str) else str(getattr(agent, "__name__", "agent"))
