"""复盘: one seat's decisions of a hand record, each valued against the agent's best choice.

For every decision of play the seat made with more than one legal action (a forced one teaches
nothing and is skipped), the hand is replayed to that point and the seat's own observation taken.
The candidates are the action played and the learned agent's ``candidates`` best by Q; each is
played out over the same worlds (:func:`gouji_rules.review.values.paired_values`).  The agent's
choice is the candidate of the best mean; the difference *best − played* is paired world by world
and given with its 95% interval, in 头科 units.

A move is 失误 only when the interval's low end is at least :data:`MISTAKE_AT` (half a 头科: the
search is sure the move cost that much), 有争议 when it is at least :data:`DISPUTED_AT`.  The best is
picked on the same worlds it is measured on, so a small difference leans upward by the noise of the
pick; the thresholds sit on the interval's low end, well above that lean, so the marks hold.

Decisions between hands (declarations, tribute …) are not in a record as decisions a replay can
ask again with an observation, so they are counted (``between``) but not valued.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import GoujiError
from ..game.actions import Action, Forfeit, parse_action
from ..game.legal import Legal
from ..game.rng import SplitMix64, derive
from ..play.agents import Agent
from ..play.observe import Observation
from ..records.verify import hand_of_record
from ..tournament.errors import InputError
from ..variant import Variant
from .values import Interval, interval, paired_values
from .words import action_words

MISTAKE_AT = 0.5
"""失误: the 95% interval of (best − played) starts at half a 头科 or more."""
DISPUTED_AT = 0.2
"""有争议: the interval starts at a fifth of a 头科 or more (but below :data:`MISTAKE_AT`)."""

MIN_WORLDS = 4
"""No mark from fewer worlds: two worlds that agree give an interval of width 0, which says nothing."""

MISTAKE, DISPUTED, FINE, UNJUDGED = "mistake", "disputed", "ok", "unjudged"
VERDICT_WORDS = {
    MISTAKE: ("失误", "mistake"),
    DISPUTED: ("有争议", "disputed"),
    FINE: ("", ""),
    UNJUDGED: ("未判定", "not judged"),
}
"""Each verdict as a club reads it, Chinese then English (UNJUDGED: fewer than :data:`MIN_WORLDS` worlds)."""

MAX_WORLDS = 10_000
MAX_CANDIDATES = 64
HINTS = 3


@dataclass(frozen=True)
class Budget:
    """How hard to look: ``worlds`` per decision, the learned agent's ``candidates`` best tried beside
    the move played, and the ``seed`` the worlds are drawn from (the same seed, the same review)."""

    worlds: int = 16
    candidates: int = 3
    seed: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.worlds <= MAX_WORLDS:
            raise InputError(f"worlds must be 1 to {MAX_WORLDS:,}, not {self.worlds}")
        if not 1 <= self.candidates <= MAX_CANDIDATES:
            raise InputError(f"candidates must be 1 to {MAX_CANDIDATES}, not {self.candidates}")
        if not 0 <= self.seed < 2**64:
            raise InputError(f"the seed must be 0 to 2**64 - 1, not {self.seed}")


@dataclass(frozen=True)
class Choice:
    """One action of a decision: its notation, its words, its mean value over the worlds (头科 units;
    None where it was not played out) and the learned agent's Q for it."""

    action: str
    zh: str
    en: str
    value: float | None
    q: float

    def to_json(self) -> dict[str, Any]:
        """The choice as JSON (``value`` null where it was not played out)."""
        return {"action": self.action, "zh": self.zh, "en": self.en, "value": self.value, "q": self.q}


@dataclass(frozen=True)
class Decision:
    """One reviewed decision: ``step`` is the action's place in the record's ``actions`` (1-based)."""

    hand: int
    step: int
    mode: str
    options: int
    played: Choice
    best: Choice
    diff: Interval
    verdict: str
    top: tuple[Choice, ...]

    @property
    def agreed(self) -> bool:
        """The move played is the agent's top choice."""
        return self.played.action == self.best.action

    def to_json(self) -> dict[str, Any]:
        """The decision as JSON: ``diff``/``low``/``high`` in 头科 scores (low/high null with too few worlds)."""
        return {
            "hand": self.hand,
            "step": self.step,
            "mode": self.mode,
            "options": self.options,
            "played": self.played.to_json(),
            "best": self.best.to_json(),
            "diff": self.diff.mean,
            "low": self.diff.low,
            "high": self.diff.high,
            "worlds": self.diff.n,
            "verdict": self.verdict,
            "verdict_zh": VERDICT_WORDS[self.verdict][0],
            "agreed": self.agreed,
            "hint": [c.to_json() for c in self.top],
        }


@dataclass(frozen=True)
class HandReview:
    """The seat's reviewed decisions of one hand, the forced ones skipped, and its decisions between hands."""

    hand: int
    decisions: tuple[Decision, ...]
    forced: int
    between: int


@dataclass(frozen=True)
class Review:
    """A seat's review over one hand or a match's hands."""

    variant: str
    seat: int
    budget: Budget
    hands: tuple[HandReview, ...] = field(default_factory=tuple)

    @property
    def decisions(self) -> list[Decision]:
        """Every reviewed decision, hand by hand."""
        return [d for h in self.hands for d in h.decisions]

    @property
    def agreement(self) -> float | None:
        """The share of reviewed decisions where the move played was the agent's top choice (None: none reviewed)."""
        ds = self.decisions
        return sum(d.agreed for d in ds) / len(ds) if ds else None

    def count(self, verdict: str) -> int:
        """How many decisions got ``verdict`` (MISTAKE, DISPUTED …)."""
        return sum(d.verdict == verdict for d in self.decisions)

    def to_json(self) -> dict[str, Any]:
        """The review as JSON: seats 0-5, as records and the bot protocol count them."""
        return {
            "variant": self.variant,
            "seat": self.seat,
            "worlds": self.budget.worlds,
            "candidates": self.budget.candidates,
            "seed": self.budget.seed,
            "mistake_at": MISTAKE_AT,
            "disputed_at": DISPUTED_AT,
            "unit": "头科",
            "decisions": len(self.decisions),
            "agreement": self.agreement,
            "mistakes": self.count(MISTAKE),
            "disputed": self.count(DISPUTED),
            "forced": sum(h.forced for h in self.hands),
            "between_hands": sum(h.between for h in self.hands),
            "hands": [
                {
                    "hand": h.hand,
                    "forced": h.forced,
                    "between_hands": h.between,
                    "decisions": [d.to_json() for d in h.decisions],
                }
                for h in self.hands
            ],
        }


def verdict_of(diff: Interval) -> str:
    """失误, 有争议, fine, or not judged (too few worlds), from the low end of the interval of (best − played)."""
    if diff.low is None or diff.n < MIN_WORLDS:
        return UNJUDGED
    if diff.low >= MISTAKE_AT:
        return MISTAKE
    if diff.low >= DISPUTED_AT:
        return DISPUTED
    return FINE


class Reviewer:
    """Values decisions with the learned agent: its Q ranks the candidates and it plays every seat of
    every world.  One Reviewer serves many decisions (the room calls it after each hand); it holds
    agents with per-hand state, so a thread or process uses its own."""

    def __init__(self, budget: Budget | None = None) -> None:
        from ..learn.agent import LearnedAgent

        self.budget = budget or Budget()
        self.scorer = LearnedAgent()
        self.players: list[Agent] = [LearnedAgent() for _ in range(6)]

    def ranked(self, obs: Observation, legal: Legal) -> list[tuple[Action, float]]:
        """Every legal action with its Q, best first (ties: ``legal``'s order)."""
        self.scorer.start_hand(0, obs.seat)
        q = self.scorer.scores(obs, legal)
        order = sorted(range(len(legal)), key=lambda i: (-float(q[i]), i))
        return [(legal[i], float(q[i])) for i in order]

    def hint(self, obs: Observation, legal: Legal, k: int = HINTS) -> list[Choice]:
        """The agent's ``k`` first choices in words, by Q only (no search: cheap enough for a 提示 button)."""
        return [_choice(a, None, q, obs.mode) for a, q in self.ranked(obs, legal)[:k]]

    def decide(self, obs: Observation, legal: Legal, played: Action, hand: int, step: int) -> Decision:
        """One decision valued: ``played`` against the agent's best over paired worlds."""
        b = self.budget
        ranked = self.ranked(obs, legal)
        q_of = {a: q for a, q in ranked}
        cands = [a for a, _ in ranked[: b.candidates]]
        if played not in cands:
            cands.append(played)
        seed = derive(b.seed, hand, step)
        rows = paired_values(obs, legal, cands, self.players, SplitMix64(seed), b.worlds, seed)
        means = [sum(r[i] for r in rows) / len(rows) if rows else None for i in range(len(cands))]
        at = cands.index(played)
        # the best by mean value, ties to the move played, then the agent's Q order; with no world
        # drawn (a view no deal agrees with) the agent's choice is its Q's first
        best = max(range(len(cands)), key=lambda i: (means[i] or 0.0, i == at, -i)) if rows else 0
        diff = interval([r[best] - r[at] for r in rows])
        by_value = sorted(range(len(cands)), key=lambda i: (-(means[i] or 0.0), i))
        top = tuple(_choice(cands[i], means[i], q_of[cands[i]], obs.mode) for i in by_value[:HINTS])
        return Decision(
            hand=hand,
            step=step,
            mode=obs.mode,
            options=len(legal),
            played=_choice(played, means[at], q_of.get(played, 0.0), obs.mode),
            best=_choice(cands[best], means[best], q_of[cands[best]], obs.mode),
            diff=diff,
            verdict=verdict_of(diff),
            top=top,
        )


def _choice(a: Action, value: float | None, q: float, mode: str = "") -> Choice:
    return Choice(str(a), action_words(a, "zh", mode), action_words(a, "en", mode), value, q)


def seat_decisions(
    variant: Variant, record: dict[str, Any], seat: int
) -> Iterator[tuple[int, Observation, Legal, Action]]:
    """(step, the seat's observation, its legal actions, the action it played) for each of ``seat``'s
    decisions in the record, forced ones included; a damaged record raises InputError at the first
    action the rules refuse."""
    hand = hand_of_record(variant, record, "review")
    for step, text in enumerate(record["actions"], start=1):
        seat_text, _, act_text = str(text).partition(":")
        try:
            s = int(seat_text)
            action = parse_action(act_text)
            mine = s == seat and not isinstance(action, Forfeit) and not hand.is_over and hand.turn == seat
            if mine:
                yield step, hand.observation(seat), hand.legal_actions(), action
            hand.apply(action, s)
        except (GoujiError, ValueError) as e:
            raise InputError(f"action {step} ({text}) cannot be replayed: {e}") from None


CHOICE_EVENTS = frozenset({"return_tribute", "with_head", "no_head", "hedian"})
"""Events before play that record a seat's choice under another name than its decision kind (还贡 is
the kind ``give``, 有头/无头 the kind ``head``, 和点 a ``xuandian`` answer)."""


def between_decisions(record: dict[str, Any], seat: int) -> int:
    """How many of ``seat``'s choices between hands the record names: its events before play that
    answer a decision a phase asks.  A choice declined (no 宣点, no 革命) leaves no event, so it is
    not counted: the record cannot say it was asked."""
    from ..phases.base import answering

    pre = record.get("pre_play")
    if not isinstance(pre, list):
        return 0
    return sum(
        1
        for e in pre
        if isinstance(e, dict)
        and e.get("seat") == seat
        and (e.get("type") in CHOICE_EVENTS or answering(str(e.get("type"))) is not None)
    )


def review_hand(
    variant: Variant,
    record: dict[str, Any],
    seat: int,
    budget: Budget | None = None,
    hand: int = 1,
    reviewer: Reviewer | None = None,
    steps: Collection[int] | None = None,
) -> HandReview:
    """``seat``'s decisions of one hand record (``hand``: its number in the file, for the output);
    ``steps``: only the decisions at those places of ``actions`` (1-based), e.g. one the player asks about."""
    if not 0 <= seat < 6:
        raise InputError(f"seat {seat} is not a seat: seats are 0 to 5 (1 to 6 as people count them)")
    rv = reviewer or Reviewer(budget)
    decided: list[Decision] = []
    forced = 0
    try:
        for step, obs, legal, played in seat_decisions(variant, record, seat):
            if len(legal) <= 1:
                forced += 1
                continue
            if steps is not None and step not in steps:
                continue
            decided.append(rv.decide(obs, legal, played, hand, step))
    except InputError as e:
        raise InputError(f"hand {hand}: {e.message}") from None
    return HandReview(hand, tuple(decided), forced, between_decisions(record, seat))


def review(
    variant: Variant,
    records: Sequence[tuple[int, dict[str, Any]]],
    seat: int,
    budget: Budget | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """``seat``'s review over hand records, each given with its number in the file; ``progress(k, n)``
    is called as the k-th of n hands starts (a match takes minutes)."""
    b = budget or Budget()
    rv = Reviewer(b)
    hands = []
    for k, (n, rec) in enumerate(records, start=1):
        if progress is not None:
            progress(k, len(records))
        hands.append(review_hand(variant, rec, seat, b, n, rv))
    return Review(variant.name, seat, b, tuple(hands))


__all__ = [
    "DISPUTED",
    "DISPUTED_AT",
    "FINE",
    "MIN_WORLDS",
    "MISTAKE",
    "MISTAKE_AT",
    "UNJUDGED",
    "VERDICT_WORDS",
    "Budget",
    "Choice",
    "Decision",
    "HandReview",
    "Review",
    "Reviewer",
    "review",
    "review_hand",
    "seat_decisions",
    "verdict_of",
]
