"""Work units of a comparison: which deals to play, how a hand is measured, what a unit returns.

A comparison of variants V₀ (the baseline), V₁, … plays deal ``i`` (dealt from
``derive(seed, i)``) under *every* variant, and under each variant *twice*: as
dealt, and with every hand moved one seat on (``Hand.deal(rotate=1)``), so the
team that held the good cards in one seating holds the bad ones in the other.
The deal is the unit of analysis: its value for a metric is the *sum* of the
metric over its two seatings (an integer), and the difference between two
variants on that deal is the difference of those sums.  Luck of the deal cancels
within the pair, and between variants the same deal is compared with itself.

A :class:`WorkUnit` is a fixed, contiguous range of deal indices.  The ranges do
not depend on how many workers run them, and a unit's result (a :class:`Tally`)
is exact integer sums, so any backend, any number of workers, and any merge
order give identical numbers.
"""

from __future__ import annotations

import dataclasses
import os
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ..game.cards import parse_set
from ..game.governs import governed_events
from ..game.rng import derive
from ..game.seats import side
from ..parts.registry import TRIBUTE_KINDS
from ..play.agents import Agent
from ..play.engine import Hand
from ..play.match import HandSummary, Match, hand_result, play_match
from ..rules import Rules
from ..rules.settlement import Debt, settle
from ..variant import Variant
from .skill import closing_agents, score_unit, table_agents
from .stats import Histogram, Moments

DEALS_PER_UNIT = 25
"""Deals per work unit: fixed, so the split never depends on the number of workers."""

TRIBUTE_EVENTS = ("tribute", "return_tribute")
"""Event ids that move a card between players between hands (进贡 / 还贡), one card per event."""


def owed_kinds() -> tuple[str, ...]:
    """The kinds of tribute a hand's settlement can demand (``settle.Debt.kind``): the registry's,
    as registered when a comparison is planned, so a kind a club registers later gets its metric."""
    return tuple(TRIBUTE_KINDS)


class Metric(NamedTuple):
    """One measured quantity.  ``kind`` is ``rate`` for 0/1 flags (shown as %), else ``num``."""

    id: str
    zh: str
    en: str
    kind: str
    group: str
    points: bool = False
    """measured in points of the variant's scoring, so also given per 头科 point (:func:`score_unit`)"""


_EVENT_ZH = {
    "burn": "烧牌",
    "counter_burn": "反烧",
    "break_burn": "解烧",
    "burn_fail": "烧牌失败",
    "men": "闷/清",
    "open_point": "开点",
    "geming": "革命",
    "chongdian": "冲点",
    "kang": "扛贡",
    "sweep": "串三户",
}
_MORE_ZH = {
    "kaipai": "开牌",
    "first_leader": "定首发牌人",
    "xuandian": "宣点",
    "hedian": "和点",
    "mingdian": "明点",
    "yudian": "预点",
    "buy3": "买3",
    "buy4": "买4",
    "tribute": "进贡",
    "return_tribute": "还贡",
    "with_head": "有头",
    "waive": "免贡",
    "redeal": "重新摸牌",
    "huiwu": "会五",
    "choose_last": "商定大落",
    "no_three": "买不到3",
    "point_call": "大王叫点",
    "play": "出牌",
    "pass": "过牌",
    "yield": "让牌",
    "kou": "扣牌",
    "burn_success": "烧成",
    "natural_point": "自然点",
    "point_closed": "关点",
    "jiefeng": "接风",
    "jiefeng_request": "要风",
    "consent": "同意接风",
    "no_head": "无头",
    "free_for_all": "四人乱缠",
    "wrong_play": "错牌不出",
}
_EVENT_ZH.update((e, _MORE_ZH[e]) for e in governed_events() if e not in _EVENT_ZH)

_BEFORE_OWED: tuple[Metric, ...] = (
    Metric("decisions", "每局决策数", "play decisions per hand", "num", "play"),
    Metric("sets", "每局出牌套数", "sets put down per hand (play, burn, counter_burn)", "num", "play"),
    *(Metric(e, f"每局{zh}次数", f"{e} events per hand", "num", "events") for e, zh in _EVENT_ZH.items()),
    Metric("tribute_cards", "每局进贡还贡张数", "cards moved by tribute and return_tribute per hand", "num", "tribute"),
)
_AFTER_OWED: tuple[Metric, ...] = (
    Metric("score_diff", "比分差(0队−1队)", "team 0 score − team 1 score", "num", "score", points=True),
    Metric("margin", "分差绝对值", "|team 0 score − team 1 score|", "num", "score", points=True),
    Metric(
        "points_awarded",
        "两队得分之和",
        "team 0 score + team 1 score (0 when scoring is zero-sum)",
        "num",
        "score",
        points=True,
    ),
    Metric("winner_score", "高分方得分", "the higher of the two team scores", "num", "score", points=True),
    Metric("team0_win", "0队胜率", "team 0 (seats 0 2 4) scores more", "rate", "score"),
    Metric("team1_win", "1队胜率", "team 1 (seats 1 3 5) scores more", "rate", "score"),
    Metric("draw", "平局率", "equal scores", "rate", "score"),
    Metric(
        "leader_adv", "首出方净胜分", "first leader's team score − the other team's", "num", "fairness", points=True
    ),
    Metric("leader_win", "首出方胜率", "first leader's team scores more", "rate", "fairness"),
    Metric("leader_place", "首出者平均名次", "first leader's mean place", "num", "fairness"),
    *(Metric(f"place_seat_{s}", f"{s}号座位平均名次", f"seat {s}'s mean place", "num", "fairness") for s in range(6)),
    Metric("decided_1", "头科出来即定胜负", "result certain once place 1 is known", "rate", "decisive"),
    Metric("decided_2", "二科出来即定胜负", "result certain once places 1 and 2 are known", "rate", "decisive"),
    Metric(
        "decided_at", "定胜负所需名次数", "places that must be known before the result is certain", "num", "decisive"
    ),
    Metric(
        "skill_gap",
        "强弱分差(甲方−乙方)",
        "side A's score − side B's (--agents A,B; compare/skill.py)",
        "num",
        "skill",
        points=True,
    ),
)
MATCH_METRICS: tuple[Metric, ...] = (
    Metric(
        "match_score_diff", "整场比分差(0队−1队)", "match: team 0 total − team 1 total", "num", "match", points=True
    ),
    Metric("match_margin", "整场分差绝对值", "match: |team 0 total − team 1 total|", "num", "match", points=True),
    Metric("match_team0_win", "整场0队胜率", "match: team 0 ends ahead", "rate", "match"),
    Metric("match_team1_win", "整场1队胜率", "match: team 1 ends ahead", "rate", "match"),
    Metric("match_draw", "整场平局率", "match: equal totals", "rate", "match"),
    Metric("match_hands", "整场局数", "hands played in the match", "num", "match"),
)
_SET_EVENTS = frozenset(("play", "burn", "counter_burn"))


def hand_metrics(owed: Sequence[str] | None = None) -> tuple[Metric, ...]:
    """The per-hand metrics, with one ``owed_<kind>`` for each kind of tribute in ``owed``
    (default: :func:`owed_kinds`, the kinds registered now)."""
    kinds = owed_kinds() if owed is None else owed
    return (
        *_BEFORE_OWED,
        *(
            Metric(
                f"owed_{k}",
                f"每局应进{TRIBUTE_KINDS[k].zh}张数",
                f"{k} tribute cards the hand's settlement demands",
                "num",
                "tribute",
            )
            for k in kinds
        ),
        *_AFTER_OWED,
    )


def metrics_for(match_hands: int, owed: Sequence[str] | None = None) -> tuple[Metric, ...]:
    """The metrics a run measures: per hand (:func:`hand_metrics`), plus per match when hands are
    played in matches."""
    hand = hand_metrics(owed)
    return hand + MATCH_METRICS if match_hands else hand


VariantSource = str | Variant
"""What a unit carries to name a variant: a shipped name or a file path (resolved in the worker,
so hooks compiled from expressions never need pickling), or a Variant built in Python."""


@dataclass(frozen=True)
class WorkUnit:
    """Deals ``start`` to ``stop − 1`` of the run with ``seed``, under every variant, both seatings.

    With ``match_hands`` K > 0 each deal index is a whole match of K hands (seeded like the deal)
    instead of a single hand.
    """

    index: int
    start: int
    stop: int
    seed: int
    sources: tuple[VariantSource, ...]
    agents: str
    match_hands: int = 0
    owed: tuple[str, ...] = ()
    """the tribute kinds measured (``owed_<kind>``), fixed when the run is planned, so every worker
    fills the same rows whatever its process has registered"""


def plan(
    seed: int,
    deals: int,
    sources: Sequence[VariantSource],
    agents: str,
    per_unit: int = DEALS_PER_UNIT,
    match_hands: int = 0,
    owed: Sequence[str] | None = None,
) -> Iterator[WorkUnit]:
    """The work units of a run, in order.  Lazy: 100,000 deals make no list.  ``owed``: the tribute
    kinds measured (default: those registered now)."""
    portable = tuple(portable_source(s) for s in sources)
    kinds = owed_kinds() if owed is None else tuple(owed)
    for index, start in enumerate(range(0, deals, per_unit)):
        yield WorkUnit(index, start, min(start + per_unit, deals), seed, portable, agents, match_hands, kinds)


def portable_source(source: VariantSource) -> VariantSource:
    """A file path made absolute (a worker's working directory may differ); a Variant without its compiled cache."""
    if isinstance(source, Variant):
        return dataclasses.replace(source)
    from ..catalog import names

    if source in names():
        return source
    path = Path(source)
    return str(path.resolve()) if path.exists() else source


@dataclass
class Tally:
    """Exact sums over a range of deals: per variant and metric, and each variant's difference to the baseline.

    ``scores`` and ``match_scores`` count each hand's and each match's score difference
    (team 0 − team 1) per variant.  ``unit_diffs`` hold, for the metrics at ``points`` (indices
    of metrics measured in points), each variant's difference to the baseline in units of each
    one's own 头科 score (``units``, :func:`score_unit`): ``y·u₀ − y₀·u`` per deal, an exact
    integer that :func:`~gouji_rules.compare.run.document` divides by ``u₀·u``.
    """

    variants: int
    metrics: int
    units: tuple[int, ...] = ()
    points: tuple[int, ...] = ()
    deals: int = 0
    per_variant: list[list[Moments]] = field(default_factory=list)
    diffs: list[list[Moments]] = field(default_factory=list)
    unit_diffs: list[list[Moments]] = field(default_factory=list)
    scores: list[Histogram] = field(default_factory=list)
    match_scores: list[Histogram] = field(default_factory=list)

    def __post_init__(self) -> None:
        m = self.metrics
        if not self.per_variant:
            self.per_variant = [[Moments() for _ in range(m)] for _ in range(self.variants)]
        if not self.diffs:
            self.diffs = [[Moments() for _ in range(m)] for _ in range(self.variants - 1)]
        if not self.unit_diffs:
            self.unit_diffs = [[Moments() for _ in self.points] for _ in range(self.variants - 1)]
        if not self.scores:
            self.scores = [Histogram() for _ in range(self.variants)]
        if not self.match_scores:
            self.match_scores = [Histogram() for _ in range(self.variants)]

    def add_deal(self, pair_sums: Sequence[Sequence[int]]) -> None:
        """Add one deal: for each variant, each metric summed over the deal's two seatings."""
        self.deals += 1
        base = pair_sums[0]
        for v, ys in enumerate(pair_sums):
            for acc, y in zip(self.per_variant[v], ys, strict=True):
                acc.add(y)
            if v:
                for acc, y, y0 in zip(self.diffs[v - 1], ys, base, strict=True):
                    acc.add(y - y0)
                if self.points:
                    u0, u = self.units[0], self.units[v]
                    for acc, i in zip(self.unit_diffs[v - 1], self.points, strict=True):
                        acc.add(ys[i] * u0 - base[i] * u)

    def merge(self, other: Tally) -> None:
        """Add another tally's sums (exact, so the order of merging cannot change a number)."""
        self.deals += other.deals
        mine_all = self.per_variant + self.diffs + self.unit_diffs
        for mine, theirs in zip(mine_all, other.per_variant + other.diffs + other.unit_diffs, strict=True):
            for a, b in zip(mine, theirs, strict=True):
                a.merge(b)
        for h, o in zip(self.scores + self.match_scores, other.scores + other.match_scores, strict=True):
            h.merge(o)


class Decider:
    """How many places must be known before a hand's result (who wins, or a draw) is certain.

    With the first ``k`` places fixed, every way the other ``6 − k`` seats could fill the
    remaining places is scored with the variant's own scoring (hooks included); the result is
    certain when all of them give the same sign of (team 0 − team 1).  Sets of outcomes are
    memoised by prefix of the finishing order, so a variant costs at most 720 scorings per process.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.memo: dict[tuple[int, ...], frozenset[int]] = {}

    def outcomes(self, prefix: tuple[int, ...]) -> frozenset[int]:
        """The results for team 0 (1 win, 0 draw, -1 loss) still possible once the seats in ``prefix`` have gone
        out in that order; memoised, since every hand asks about the same few orders."""
        hit = self.memo.get(prefix)
        if hit is not None:
            return hit
        if len(prefix) == 6:
            places = [0] * 6
            for i, s in enumerate(prefix):
                places[s] = i + 1
            a, b = self.rules.team_scores(places)
            out = frozenset(((a > b) - (a < b),))
        else:
            out = frozenset().union(*(self.outcomes((*prefix, s)) for s in range(6) if s not in prefix))
        self.memo[prefix] = out
        return out

    def decided_at(self, places: Sequence[int]) -> int:
        """The smallest k such that places 1..k (as in ``places``, seat → place) settle the result."""
        order = sorted(range(6), key=lambda s: places[s])
        for k in range(6):
            if len(self.outcomes(tuple(order[:k]))) == 1:
                return k
        return 6


def tally_for(variants: Sequence[Variant], match_hands: int, owed: Sequence[str]) -> Tally:
    """An empty tally for a run over ``variants``: every unit and the runner start from one."""
    metrics = metrics_for(match_hands, owed)
    points = tuple(i for i, m in enumerate(metrics) if m.points)
    return Tally(len(variants), len(metrics), tuple(score_unit(v) for v in variants), points)


_LOADED: dict[tuple[str, int, int], tuple[Variant, Decider]] = {}


def load(source: VariantSource) -> tuple[Variant, Decider]:
    """The variant of a source, resolved once per process (workers keep it between units).

    A file is cached under its modification time and size too, so a long-lived worker (a
    Dask cluster serving many runs) picks up a club's edited file instead of the old rules.
    """
    if isinstance(source, Variant):
        return source, Decider(source.rules)
    try:
        st = os.stat(source)
        key = (source, st.st_mtime_ns, st.st_size)
    except OSError:
        key = (source, 0, 0)
    hit = _LOADED.get(key)
    if hit is None:
        from ..catalog import resolve

        variant = resolve(source)
        hit = _LOADED[key] = (variant, Decider(variant.rules))
    return hit


class HandFacts(NamedTuple):
    """What the metrics need from a finished hand, whether it was played alone or inside a match."""

    decisions: int
    events: list[tuple[str, int]]  # (event id, cards it moved) for every event of the hand
    places: Sequence[int]
    scores: tuple[int, int]
    leader: int
    debts: Sequence[Debt]


def facts_of_hand(hand: Hand) -> HandFacts:
    """A hand played alone: its events, and the tribute its settlement would demand."""
    settlement = settle(hand.rules, hand_result(hand, (), (), hand.places))
    events = [(e.type, e.cards.size if e.cards is not None else 0) for e in hand.events]
    return HandFacts(hand.decisions, events, hand.places, settlement.scores, hand.events[0].seat, settlement.debts)


def facts_of_summary(summary: HandSummary) -> HandFacts:
    """A hand of a match, from its summary and record.

    Events are the hand's own plus those of the phases before it (``pre_play``: 扛贡, 革命,
    进贡/还贡 …), except the settlement's ``sweep``, which the hand already counted.
    """
    record = summary.record
    pre = [e for e in record.get("pre_play", ()) if e["type"] != "sweep"]
    events = [(e["type"], parse_set(e["cards"]).size if "cards" in e else 0) for e in [*record["events"], *pre]]
    return HandFacts(len(record["actions"]), events, summary.places, summary.scores, summary.leader, summary.debts)


def measure(facts: HandFacts, decider: Decider) -> dict[str, int]:
    """One finished hand as integers by metric id (:func:`hand_metrics`; a metric not named is 0)."""
    counts = Counter([t for t, _ in facts.events])
    out: dict[str, int] = dict(counts)  # every event id; row_of keeps those that are metrics
    out["decisions"] = facts.decisions
    out["sets"] = sum(counts[t] for t in _SET_EVENTS)
    moved = counts["tribute"] + counts["return_tribute"]
    out["tribute_cards"] = sum(cards or 1 for t, cards in facts.events if t in TRIBUTE_EVENTS) if moved else 0
    for d in facts.debts:
        key = f"owed_{d.kind}"
        out[key] = out.get(key, 0) + d.count
    a, b = facts.scores
    diff = a - b
    leader = facts.leader
    lead_diff = diff if side(leader) == 0 else -diff
    places = facts.places
    k = decider.decided_at(places)
    out.update(
        score_diff=diff,
        skill_gap=diff,  # side A always holds team 0's seats (compare/skill.py)
        margin=abs(diff),
        points_awarded=a + b,
        winner_score=max(a, b),
        team0_win=int(diff > 0),
        team1_win=int(diff < 0),
        draw=int(diff == 0),
        leader_adv=lead_diff,
        leader_win=int(lead_diff > 0),
        leader_place=places[leader],
        decided_1=int(k <= 1),
        decided_2=int(k <= 2),
        decided_at=k,
    )
    for s in range(6):
        out[f"place_seat_{s}"] = places[s]
    return out


def row_of(values: dict[str, int], metrics: Sequence[Metric]) -> list[int]:
    """Measured values in the order of ``metrics``."""
    return [values.get(m.id, 0) for m in metrics]


def play(variant: Variant, seed: int, rotate: int, agents: Sequence[Agent]) -> Hand:
    """Deal from ``seed`` with the seats rotated by ``rotate`` and let the agents play it out."""
    hand = Hand.deal(variant, seed, rotate=rotate)
    for seat, agent in enumerate(agents):
        agent.start_hand(seed, seat)
    while not hand.is_over:
        seat = hand.turn
        hand.apply(agents[seat].act(hand.observation(seat), hand.legal_actions()))
    return hand


def measure_match(match: Match, decider: Decider, metrics: Sequence[Metric]) -> tuple[list[int], list[int]]:
    """A finished match: the sum of its hands' rows (in the order of ``metrics``), and its own row
    (:data:`MATCH_METRICS`)."""
    total = [0] * len(metrics)
    for summary in match.summaries:
        for i, x in enumerate(row_of(measure(facts_of_summary(summary), decider), metrics)):
            total[i] += x
    a, b = match.scores
    diff = a - b
    return total, [diff, abs(diff), int(diff > 0), int(diff < 0), int(diff == 0), len(match.summaries)]


def run_unit(unit: WorkUnit) -> Tally:
    """Play a unit's deals under every variant in both seatings and return their exact sums.

    A module-level function of one picklable argument, so a process pool or a Dask worker
    can run it as it is.  Bots (``cmd:`` agents) are started for the unit and stopped at its
    end, also when it fails or is interrupted, so no bot process outlives a unit.
    """
    with closing_agents(table_agents(unit.agents)) as agents:
        return _play_unit(unit, agents)


def _play_unit(unit: WorkUnit, agents: Sequence[Agent]) -> Tally:
    loaded = [load(s) for s in unit.sources]
    metrics = hand_metrics(unit.owed)
    tally = tally_for([v for v, _ in loaded], unit.match_hands, unit.owed)
    for i in range(unit.start, unit.stop):
        dseed = derive(unit.seed, i)
        sums: list[list[int]] = []
        for v, (variant, decider) in enumerate(loaded):
            rows = []
            for r in (0, 1):
                if unit.match_hands:
                    match = play_match(variant, dseed, unit.match_hands, agents, rotate=r)
                    hands, whole = measure_match(match, decider, metrics)
                    for summary in match.summaries:
                        a, b = summary.scores
                        tally.scores[v].add(a - b)
                    tally.match_scores[v].add(whole[0])
                    rows.append(hands + whole)
                else:
                    values = measure(facts_of_hand(play(variant, dseed, r, agents)), decider)
                    tally.scores[v].add(values["score_diff"])
                    rows.append(row_of(values, metrics))
            sums.append([x + y for x, y in zip(*rows, strict=True)])
        tally.add_deal(sums)
    return tally


__all__ = [
    "DEALS_PER_UNIT",
    "MATCH_METRICS",
    "Decider",
    "HandFacts",
    "Metric",
    "Tally",
    "VariantSource",
    "WorkUnit",
    "hand_metrics",
    "measure",
    "metrics_for",
    "owed_kinds",
    "plan",
    "play",
    "run_unit",
    "score_unit",
    "tally_for",
]
