"""Agents: who decides for a seat.  The protocol, a uniform random agent and two heuristic ones.

An agent gets the observation a seated player may see and the legal actions,
and returns one of them.  ``start_hand`` gives it the hand's seed so that runs
repeat exactly, whatever the order hands are played in.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Protocol

from ..game.actions import AGREE, JIEFENG, PASS, REFUSE, YIELD, Action, Burn, Consent, Give, Play
from ..game.cards import BJ, FOUR, NRANKS, SJ, THREE, TOP, TWO, CardSet
from ..game.legal import Legal
from ..game.rng import SplitMix64, derive
from ..game.seats import opposite, same_side
from ..game.strength import Strength as Strength  # how strong each agent measured: gouji_rules.game.strength
from ..game.strength import strength as strength
from ..rules import NEVER
from .observe import Observation

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # installed without mypy: the decorator only tells mypyc something, at build time

    def mypyc_attr(*_: object, **__: object) -> Callable[[type], type]:  # type: ignore[misc]
        return lambda cls: cls


class Agent(Protocol):
    """Who decides for a seat: told each hand's seed, then asked for one legal action at a time."""

    name: str

    def start_hand(self, seed: int, seat: int) -> None:
        """A new hand begins: ``seed`` makes the agent's choices repeatable."""
        ...

    def act(self, obs: Observation, legal: Legal) -> Action:
        """One of ``legal``, chosen from what the seat may see."""
        ...


@mypyc_attr(allow_interpreted_subclasses=True)  # a bot author's `class MyBot(RandomAgent)`
class RandomAgent:
    """Uniform over the legal actions."""

    name = "random"

    def __init__(self) -> None:
        self.rng = SplitMix64(0)

    def start_hand(self, seed: int, seat: int) -> None:
        """A new hand begins: ``seed`` makes the agent's choices repeatable."""
        self.rng = SplitMix64(derive(seed, 1000 + seat))

    def act(self, obs: Observation, legal: Legal) -> Action:
        """One of ``legal``, chosen from what the seat may see."""
        return legal[self.rng.below(len(legal))]


def set_cost(cs: CardSet, hand: tuple[int, ...]) -> float:
    """How much of the hand's strength a set spends: jokers most, then 2s, then high ranks."""
    broken = 0.5 if cs.count < hand[cs.rank] else 0.0
    joker_core = cs.count if cs.rank >= SJ else 0
    return (cs.sj + joker_core) * 20 + cs.bj * 30 + cs.top * 40 + cs.twos * 8 + cs.rank * 0.5 + broken


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyAgent:
    """A sensible heuristic: lead low, beat with the cheapest set, keep jokers for 够级 fights.

    It opens the point when it can (leads 4s right after a pure 够级 set stood),
    burns only when it holds a joker for every set it has left, and tries not to
    be 闷: the set before its last 3s is made as strong as it can be.
    """

    name = "greedy"

    def __init__(self) -> None:
        self.rng = SplitMix64(0)
        self.seat = 0

    def start_hand(self, seed: int, seat: int) -> None:
        """A new hand begins: ``seed`` makes the agent's choices repeatable."""
        self.rng = SplitMix64(derive(seed, 2000 + seat))
        self.seat = seat

    def act(self, obs: Observation, legal: Legal) -> Action:
        """One of ``legal``, chosen from what the seat may see."""
        mode = obs.mode
        if mode == "lead":
            return Play(self._lead(obs, legal))
        if mode == "burn":
            return self._burn(obs, legal)
        if mode == "consent":
            return AGREE if not self._beats_table(obs, legal) else REFUSE
        if mode == "follow":
            return self._follow(obs, legal)
        return self._between(obs, legal)

    # -- between hands ------------------------------------------------------------------

    def _between(self, obs: Observation, legal: Legal) -> Action:
        """Choices before play: bluff a 预点 now and then, declare on strength, buy the 4."""
        mode, h, rules = obs.mode, obs.hand, obs.rules
        opts = {str(a): a for a in legal}
        jokers = h[SJ] + h[BJ] + h[TOP]
        t = rules.thresholds
        pure = sum(1 for r in range(TWO + 1) if t[r] < NEVER and h[r] >= max(t[r], 2))  # ranks with a 够级 set
        if mode == "yudian":
            return opts["yudian"] if self.rng.below(40) == 0 else PASS
        if mode == "xuandian":
            if "hedian" in opts and pure <= 2:
                return opts["hedian"]
            if "xuandian" in opts and jokers >= 4 and pure >= 2:
                return opts["xuandian"]
            return PASS
        if mode == "mingdian":
            return opts["mingdian"] if jokers >= 4 and pure >= 2 else PASS
        if mode == "point_call":
            return opts["call"]
        if mode in ("geming", "chongdian", "buy4", "waive"):
            return opts.get(mode, PASS)
        if mode == "choose_last":
            return PASS
        if mode == "head":
            return opts["with_head"]
        if mode == "accept":
            return AGREE
        if mode == "give":
            gives = [a for a in legal if isinstance(a, Give)]
            low = [a for a in gives if a.rank not in (THREE, FOUR)] or gives
            return min(low, key=lambda a: a.rank)
        if mode == "chong_set":
            return Play(max(legal.sets, key=lambda cs: (cs.rank, cs.count)))
        if mode == "chong_answer":
            return Play(self._cheapest(legal.sets, h)) if legal.sets else PASS
        return legal[0]

    # -- leading --------------------------------------------------------------------

    def _lead(self, obs: Observation, legal: Legal) -> CardSet:
        h = obs.hand
        rules = obs.rules
        me = obs.seat
        non3 = [r for r in range(NRANKS) if h[r] and r != THREE]
        if obs.burning == me:
            return self._cheapest([cs for cs in legal.iter_sets() if cs.jokers or rules.burn_exempt[cs.rank]], h)
        if obs.point[me] == "pending" and h[FOUR]:
            return CardSet(FOUR, h[FOUR])
        if len(non3) == 1 and h[THREE]:
            # the set before the last 3s: make it as strong as possible (avoid 闷)
            r = non3[0]
            return CardSet(r, h[r])
        plain = [r for r in non3 if r < TWO and r != FOUR]
        if plain:
            if obs.point[me] == "none" and h[FOUR]:
                # still need the point: lead the lowest pure 够级 set we have
                pure = [r for r in plain if rules.is_pure_gouji(CardSet(r, h[r]))]
                if pure:
                    return CardSet(pure[0], h[pure[0]])
            return CardSet(plain[0], h[plain[0]])
        if h[FOUR] and (obs.point[me] != "none" or len(non3) == 1):
            return CardSet(FOUR, h[FOUR])
        rest = [r for r in non3 if r != FOUR] or non3 or [THREE]
        return CardSet(rest[0], h[rest[0]])

    # -- following ------------------------------------------------------------------

    def _follow(self, obs: Observation, legal: Legal) -> Action:
        me = obs.seat
        owner = obs.table_owner
        h = obs.hand
        rules = obs.rules
        teammate = owner >= 0 and owner != me and same_side(owner, me)
        sets = legal.sets
        if JIEFENG in legal.extras and not sets:
            return JIEFENG
        if teammate or not sets:
            return PASS
        table = obs.table
        assert table is not None
        fight = rules.is_gouji(table) and owner == opposite(me)
        cands = sets
        if not fight:
            cands = [cs for cs in sets if not cs.jokers and not (cs.twos and cs.rank < TWO)] or []
            if not cands and YIELD in legal.extras:
                return YIELD
        if obs.point[me] == "none" and h[FOUR]:
            # answering with 4s before opening gives the point away
            cands = [cs for cs in cands if cs.rank != FOUR]
        cands = [cs for cs in cands if not self._leaves_only_threes(cs, h, rules)] or (
            [cs for cs in cands if rules.beat.dead(cs)]
        )
        if not cands:
            return YIELD if YIELD in legal.extras else PASS
        return Play(self._cheapest(cands, h))

    @staticmethod
    def _leaves_only_threes(cs: CardSet, h: tuple[int, ...], rules: object) -> bool:
        left = sum(h) - cs.size
        return 0 < left == h[THREE]

    def _burn(self, obs: Observation, legal: Legal) -> Action:
        me = obs.seat
        owner = obs.table_owner
        h = obs.hand
        if same_side(owner, me):
            return PASS
        best = self._cheapest(legal.sets, h)
        after = list(h)
        for r, n in best.card_counts().items():
            after[r] -= n
        jokers = after[SJ] + after[BJ] + after[TOP]
        groups = sum(1 for r in range(NRANKS) if after[r] and r not in (THREE, SJ, BJ, TOP))
        # stopping an opponent's burn (反烧) is worth a little more risk than starting one
        margin = 1 if owner == obs.burning else 0
        if jokers + margin >= groups and (jokers > 0 or groups == 0):
            return Burn(best)
        return PASS

    @staticmethod
    def _beats_table(obs: Observation, legal: Legal) -> bool:
        t = obs.table
        if t is None:
            return False
        return bool(obs.rules.beat.followers(obs.hand, t))

    @staticmethod
    def _cheapest(cands: list[CardSet], h: tuple[int, ...]) -> CardSet:
        return min(cands, key=lambda cs: set_cost(cs, h))


@mypyc_attr(allow_interpreted_subclasses=True)
class SimpleAgent:
    """A twenty-line baseline that beats greedy: lead the lowest set, never play over a partner.

    It leads all its cards of its lowest rank (3s last), passes when the set to beat is a
    partner's, and otherwise follows with the cheapest set that beats.  Everything that is not
    leading or following (burns, 接风 consent, tribute, declarations, 买3买4, 冲点, 革命 …) it
    leaves to :class:`GreedyAgent`, so the two differ only in how they shed cards.
    """

    name = "simple"

    def __init__(self) -> None:
        self.greedy = GreedyAgent()

    def start_hand(self, seed: int, seat: int) -> None:
        """A new hand begins: ``seed`` makes the delegated choices repeatable."""
        self.greedy.start_hand(seed, seat)

    def act(self, obs: Observation, legal: Legal) -> Action:
        """One of ``legal``, chosen from what the seat may see."""
        me, owner = obs.seat, obs.table_owner
        if obs.mode == "lead" and obs.burning != me:
            # lowest rank first, 3s only when nothing else is left, whole rank, nothing attached
            low = min(
                legal.iter_sets(), key=lambda cs: (cs.rank == THREE, cs.attached, cs.rank, -cs.count), default=None
            )
            if low is not None:
                return Play(low)
        if obs.mode == "follow" and owner != me and same_side(owner, me) and PASS in legal:
            return PASS
        if obs.mode == "follow" and legal.sets:
            return Play(min(legal.sets, key=lambda cs: (cs.attached, cs.size, cs.rank)))
        return self.greedy.act(obs, legal)


def _by_name(module: str, attr: str, **kwargs: Any) -> Callable[[], Agent]:
    """An agent made from a class found by name when the first one is made, never imported here:
    search builds on this module (an import would knot the two), and the learned agent needs numpy
    (and mypyc compiling this module would type-check the learning package with it)."""

    def make() -> Agent:
        agent: Agent = getattr(importlib.import_module(module), attr)(**kwargs)
        return agent

    return make


AGENTS: dict[str, Callable[[], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "simple": SimpleAgent,
    "ismcts": _by_name("gouji_rules.search", "SearchAgent"),
    "learned": _by_name("gouji_rules.learn.agent", "LearnedAgent"),
}


LEARNED_FILE = "learned:"
"""``learned:FILE``: the learned agent playing a weights file of one's own (a club's fine-tuned file)."""


def is_agent(name: str) -> bool:
    """Whether :func:`make_agent` makes ``name``: a key of :data:`AGENTS`, or ``learned:FILE``.

    >>> is_agent("greedy"), is_agent("learned:club.npz"), is_agent("learned:"), is_agent("clever")
    (True, True, False, False)
    """
    return name in AGENTS or learned_file(name) is not None


def learned_file(name: str) -> str | None:
    """The weights file a ``learned:FILE`` name plays; None for any other name.

    >>> learned_file("learned:club.npz"), learned_file("learned"), learned_file("learned:")
    ('club.npz', None, None)
    """
    return name[len(LEARNED_FILE) :] if name.startswith(LEARNED_FILE) and len(name) > len(LEARNED_FILE) else None


def agent_kind(name: str) -> str:
    """The kind of agent ``name`` makes: ``learned`` for ``learned:FILE``, else the name itself."""
    return "learned" if name.startswith(LEARNED_FILE) else name


def make_agent(name: str) -> Agent:
    """A new agent by name (a key of :data:`AGENTS`: ``random``, ``greedy``, ``simple``, ``ismcts``, ``learned``;
    or ``learned:FILE``, whose file is read now: a WeightsError names a file that is none); unknown names
    raise ValueError."""
    weights = learned_file(name)
    if weights is not None:
        return _by_name("gouji_rules.learn.agent", "LearnedAgent", weights=weights)()
    try:
        return AGENTS[name]()
    except KeyError:
        raise ValueError(f"unknown agent {name!r}; known: {', '.join(AGENTS)}, learned:FILE") from None


__all__ = [
    "AGENTS",
    "LEARNED_FILE",
    "Agent",
    "Consent",
    "GreedyAgent",
    "RandomAgent",
    "SimpleAgent",
    "agent_kind",
    "is_agent",
    "learned_file",
    "make_agent",
]
