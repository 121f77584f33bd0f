"""Self-play work units: hands played by the behaviour policy, and the samples they leave.

A sample is one decision the network makes: (observation row, action row, return), the return
being the final score difference of a whole hand for the deciding seat's team (its team − the
other), in units of the variant's largest place score.  That is Deep Monte Carlo's target: the
network learns Q(s, a) of the behaviour policy by regression on whole-hand returns, no bootstrapping.

Exploration, two ways.  Plain DMC (``branches=0``): every decision is a sample of the action played,
and a uniformly random legal action is played at rate ε.  Branches (``branches=K``, the default):
at a decision drawn at ``branch_rate``, K − 1 other legal actions (the network's favourite among
them, then with ``search_candidates`` the actions ``ismcts`` would try — a lead of each rank's whole
set, the cheapest answers — and the rest uniformly drawn) are each played from a copy of the real position and the hand is
finished by the behaviour policy; each is a sample with its own return, beside the action played.
Every action of a branch point is judged in the same deal with the same continuation, so their
returns differ by what the actions do, not by the luck of the cards or of later exploration —
and most samples are of actions the behaviour would not play, which is what Q needs to learn to
improve on it.  The network still sees only the deciding seat's observation.

Distillation (``teacher_worlds=W``): branch points only at the decisions ``ismcts`` searches
(leads, burns, 扣 and consent, answers to an opponent's 够级 set), their actions the ones it tries
(greedy's choice, then the cheapest others, ``branches`` in all), and each judged as ``ismcts``
judges it: played out by greedy players in W worlds drawn from the deciding seat's own observation
(never the real deal), the target being the action's mean team score less that of greedy's choice.
The network then learns what ismcts would estimate — W rollouts averaged per target, so each
sample carries about 1/W of a single return's variance — and the ``learned`` agent trained so
plays with ``scope="searched"``: search's choice at search's decisions, without the rollouts.
This is the first step of expert iteration (the second: rollouts by the network itself).

Targets (``advantage``): a branch point's actions are all played out from copies by the behaviour
policy, and each action's target is its return less that of the behaviour's own action (which gets
0): the network learns Q(s, a) − Q(s, behaviour's a), the part of Q that tells actions apart,
without the value of the deal, which dominates a return and which the network would otherwise
spend itself fitting.  Without it, a target is the action's own return (Q itself).

A :class:`SelfPlayUnit` carries everything a worker needs (the variant as a name or an absolute
path, the weights, the hand seeds), so a process pool or a Dask worker runs it as it is, and a
unit's hands depend only on the run's seed and the unit's index.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from ..compare.work import VariantSource, load
from ..env.features import MODES
from ..errors import GoujiError
from ..game.actions import Action
from ..game.legal import Legal
from ..game.rng import SplitMix64, derive
from ..game.seats import side
from ..play.agents import Agent, GreedyAgent
from ..play.engine import Hand
from ..play.match import Match
from ..play.observe import Observation
from ..search import SearchAgent, rollout
from ..variant import Variant
from .agent import LearnedAgent
from .carry import CarryValue, declared_stakes
from .features import ACT_SIZE, OBS_SIZE, PLAY_MODES, Featurizer, FloatArray
from .net import QNet


@dataclass(frozen=True)
class SelfPlayUnit:
    """Hands ``index * hands`` … of a run with ``seed``; the behaviour is greedy's choice or the
    network's argmax, each with a uniformly random legal action at rate ``epsilon``."""

    index: int
    seed: int
    source: VariantSource
    hands: int
    params: dict[str, FloatArray]
    hidden: tuple[int, int, int]
    epsilon: float
    follow_greedy: bool
    branches: int = 0
    branch_rate: float = 0.1
    advantage: bool = False
    search_candidates: bool = False
    teacher_worlds: int = 0
    margin: float = 0.0
    between_rate: float = 0.5
    """with the match objective: the rate of branch points at decisions between hands (fewer than those
    of play, each worth more: the issue's 'spend the compute where it pays most')"""
    carry: dict[str, float] | None = None
    """the match objective (``learn.carry``): hands played as the first hand of a match, every decision
    between hands included, each valued by the hand's score plus these prices of what it carries on"""
    teacher_scope: str = "searched"
    """with ``teacher_worlds``: the decisions the teacher judges, ``searched`` (those ismcts searches) or
    ``play`` (every decision of play with a choice: a teammate's set and small follows too)"""
    teach_between: bool = False
    """with ``teacher_worlds`` and ``carry``: branch points at the decisions between hands too (at
    ``between_rate``), each action's hand played out by greedy seats in the real deal and valued by its
    score plus the carry, against the behaviour's action (search draws no worlds before play)"""
    teacher_rollout: str = "greedy"
    """with ``teacher_worlds``: who plays out the teacher's worlds (and the decisions between hands):
    ``greedy`` seats, or ``learned`` seats playing the network as the apprentice plays it, without
    exploration (expert iteration's second step; greedy while the behaviour still follows greedy)"""
    guards: tuple[str, ...] = ()
    """blunders the network's seats are guarded against (``LearnedAgent``'s ``guards``), wherever they play"""


@dataclass
class Samples:
    """What a self-play unit returns: rows, targets, and the decisions and hands it played (the run's counters)."""

    obs: FloatArray
    act: FloatArray
    target: FloatArray
    decisions: int
    hands: int

    @staticmethod
    def empty() -> Samples:
        """No samples (a unit whose hands gave none), shaped for ``np.concatenate``."""
        z = np.zeros((0,), np.float32)
        return Samples(np.zeros((0, OBS_SIZE), np.float32), np.zeros((0, ACT_SIZE), np.float32), z, 0, 0)


def _samples(
    obs_rows: list[FloatArray], act_rows: list[FloatArray], targets: list[float], decisions: int, hands: int
) -> Samples:
    if not targets:
        e = Samples.empty()
        return Samples(e.obs, e.act, e.target, decisions, hands)
    return Samples(np.stack(obs_rows), np.stack(act_rows), np.asarray(targets, np.float32), decisions, hands)


def _deals(
    unit: SelfPlayUnit, variant: Variant, feat: Featurizer | None, *groups: Sequence[Agent]
) -> Iterator[tuple[SplitMix64, Hand]]:
    """Each hand of the unit, dealt, with its stream for drawing branch points; every agent of each
    group told the hand's seed and its seat in the group, and the featurizer reset."""
    for k in range(unit.hands):
        seed = unit_seed(unit.seed, unit.index, k, unit.hands)
        hand = Hand.deal(variant, seed)
        for group in groups:
            for s, a in enumerate(group):
                a.start_hand(seed, s)
        if feat is not None:
            feat.reset()
        yield SplitMix64(derive(seed, 0xB7A)), hand


def score_unit(rules_points: list[int]) -> float:
    """The return's unit: the largest place score in absolute value (4 under dagang, 2 under dianshaomenla)."""
    return float(max(1, max(abs(p) for p in rules_points)))


def unit_seed(seed: int, index: int, k: int, hands: int) -> int:
    """The deal seed of hand ``k`` of unit ``index``."""
    return derive(derive(seed, 0x5E1F), index * hands + k)


def run_selfplay(unit: SelfPlayUnit) -> Samples:
    """Play a unit's hands and return their samples.  A module-level function of one picklable argument."""
    variant, _ = load(unit.source)
    rules = variant.rules
    net = QNet(OBS_SIZE, ACT_SIZE, unit.hidden)
    net.p = {k: v.astype(np.float32) for k, v in unit.params.items()}
    scale = score_unit([rules.place_points(p) for p in range(1, 7)])
    if unit.teacher_worlds > 0:
        return _taught(unit, variant, net, scale)
    if unit.carry is not None:
        return _matched(unit, variant, net, scale)
    if unit.branches > 1:
        return _branched(unit, variant, net, scale)
    obs_rows: list[FloatArray] = []
    act_rows: list[FloatArray] = []
    seats: list[int] = []
    targets: list[float] = []
    decisions = 0

    def trace(seat: int, x: FloatArray, row: FloatArray) -> None:
        obs_rows.append(x)
        act_rows.append(row)
        seats.append(seat)

    agents: list[Agent] = [
        LearnedAgent(net, epsilon=unit.epsilon, follow_greedy=unit.follow_greedy, trace=trace, guards=unit.guards)
        for _ in range(6)
    ]
    for _, hand in _deals(unit, variant, None, agents):
        first = len(seats)
        while not hand.is_over:
            s = hand.turn
            hand.apply(agents[s].act(hand.observation(s), hand.legal_actions()))
        decisions += hand.decisions
        sc = hand.scores()
        targets.extend((sc[side(s)] - sc[1 - side(s)]) / scale for s in seats[first:])
    return _samples(obs_rows, act_rows, targets, decisions, unit.hands)


class _ExploringGreedy(GreedyAgent):
    """Greedy's choice, or a uniformly random legal action at rate ``epsilon`` (no features needed)."""

    def __init__(self, epsilon: float) -> None:
        super().__init__()
        self.epsilon = int(epsilon * 1_000_000)
        self.explore = SplitMix64(0)

    def start_hand(self, seed: int, seat: int) -> None:
        super().start_hand(seed, seat)
        self.explore = SplitMix64(derive(seed, 4000 + seat))

    def act(self, obs: Observation, legal: Legal) -> Action:
        if self.epsilon and len(legal) > 1 and self.explore.below(1_000_000) < self.epsilon:
            return legal[self.explore.below(len(legal))]
        return super().act(obs, legal)


def _teaches(unit: SelfPlayUnit, teacher: SearchAgent, obs: Observation, legal: Legal) -> bool:
    """Is this a decision the teacher judges: one ismcts searches, or (``teacher_scope`` ``play``) any
    decision of play with a choice, a teammate's set and an opponent's small set included."""
    if unit.teacher_scope == "play":
        return obs.mode in PLAY_MODES and len(legal) > 1
    return teacher.searches(obs, legal)


def _taught(unit: SelfPlayUnit, variant: Variant, net: QNet, scale: float) -> Samples:
    """Hands whose branch points are judged as ismcts judges them: see the module's docstring.  With the
    match objective (``unit.carry``) each unit hand is a one-hand match started from drawn last places
    (its decisions between hands made by the behaviour), and a world is valued by its settled score
    plus the carry value of what it leaves (``CarryValue.of_hand``)."""
    feat = Featurizer(variant.rules)
    judge = GreedyAgent()
    rollers = _rollers(unit, net)
    teacher = SearchAgent(worlds=unit.teacher_worlds, candidates=max(2, unit.branches), rollers=rollers)
    players = _players(unit, net, unit.epsilon)
    carry = CarryValue(dict(unit.carry)) if unit.carry is not None else None
    rate = int(unit.branch_rate * 1_000_000)
    obs_rows: list[FloatArray] = []
    act_rows: list[FloatArray] = []
    targets: list[float] = []

    def teach(rng: SplitMix64, obs: Observation, legal: Legal) -> None:
        if not _teaches(unit, teacher, obs, legal) or rng.below(1_000_000) >= rate:
            return
        first = judge.act(obs, legal)
        cands = teacher.candidate_actions(obs, legal, first)
        if len(cands) < 2:
            return
        value = None
        if carry is not None:
            declared = declared_stakes(obs)
            value = partial(carry.of_hand, declarations=declared)
        totals, done = teacher.world_values(obs, legal, cands, value)
        if not done:
            return
        x = feat.obs_row(obs)
        idx, rows = feat.indexed_rows(obs, legal, first)
        for a, total in zip(cands, totals, strict=True):
            j = int(np.flatnonzero(idx == feat.encoding.encode(a))[0])
            obs_rows.append(x)
            act_rows.append(rows[j])
            targets.append((total - totals[0]) / done / scale)

    if carry is None:
        decisions = 0
        # the teacher draws one world stream a hand, in the order of the hand's decisions
        for rng, hand in _deals(unit, variant, feat, players, [judge], [teacher]):
            while not hand.is_over:
                s = hand.turn
                obs = hand.observation(s)
                legal = hand.legal_actions()
                action = players[s].act(obs, legal)
                teach(rng, obs, legal)
                hand.apply(action)
            decisions += hand.decisions
        return _samples(obs_rows, act_rows, targets, decisions, unit.hands)
    between = int(unit.between_rate * 1_000_000)
    decisions = 0
    for k in range(unit.hands):
        seed = unit_seed(unit.seed, unit.index, k, unit.hands)
        first_row = len(targets)
        try:
            m = Match(variant, seed, hands=1, last_places=match_start(seed))
            rng = SplitMix64(derive(seed, 0xB7A))
            for group in (players, rollers, [judge], [teacher]):
                for s, a in enumerate(group):
                    a.start_hand(seed, s)
            feat.reset()
            started = [0]
            while not m.is_over:
                s, obs, legal = _drive(m, players, started)
                action = players[s].act(obs, legal)
                if obs.mode in PLAY_MODES:
                    teach(rng, obs, legal)
                elif unit.teach_between and len(legal) > 1 and rng.below(1_000_000) < between:
                    x, rows, chosen, others = _branch_point(
                        feat, judge, net, None, unit.branches, rng, obs, legal, action
                    )
                    returns = []
                    for j in [chosen, *others]:
                        sim = m.copy()
                        sim.apply(legal[j])
                        _finish(sim, rollers, started[0])
                        returns.append(_match_return(sim, side(s), carry, scale))
                    _branch_rows(x, rows, chosen, others, returns, True, (obs_rows, act_rows, targets))
                m.apply(action)
            decisions += m.decisions
        except GoujiError:  # the engine stopped the hand (a club's rules that void every deal): no samples
            del obs_rows[first_row:], act_rows[first_row:], targets[first_row:]
    return _samples(obs_rows, act_rows, targets, decisions, unit.hands)


def _players(unit: SelfPlayUnit, net: QNet, epsilon: float) -> list[Agent]:
    """The behaviour policy's six seats: greedy's choice, or the network's.  A distilled network
    (``teacher_worlds``) plays as the agent it becomes plays: only where ismcts searches, among its
    candidates, leaving greedy's choice only by ``margin`` (expert iteration's apprentice)."""
    if unit.follow_greedy:
        return [_ExploringGreedy(epsilon) for _ in range(6)]
    if unit.teacher_worlds > 0:
        return _apprentices(unit, net, epsilon, None)
    kinds = MODES if unit.carry is not None else None
    return [LearnedAgent(net, epsilon=epsilon, learned_kinds=kinds, guards=unit.guards) for _ in range(6)]


def _rollers(unit: SelfPlayUnit, net: QNet) -> list[Agent]:
    """The six seats that play out the teacher's worlds and the decisions between hands: greedy, or
    (``teacher_rollout="learned"`` once the behaviour is the network's) the apprentice as it plays,
    without exploration, at every kind of decision it learns."""
    if unit.teacher_rollout != "learned" or unit.follow_greedy:
        return [GreedyAgent() for _ in range(6)]
    return _apprentices(unit, net, 0.0, MODES if unit.teach_between else None)


def _apprentices(unit: SelfPlayUnit, net: QNet, epsilon: float, kinds: Collection[str] | None) -> list[Agent]:
    """Six seats playing a distilled network as the agent it becomes plays: among the teacher's
    candidates, at its scope, leaving greedy's choice only by the margin."""
    k = max(2, unit.branches)
    scope = "all" if unit.teacher_scope == "play" else "searched"
    return [
        LearnedAgent(
            net,
            epsilon=epsilon,
            margin=unit.margin,
            candidates=k,
            scope=scope,
            learned_kinds=kinds,
            guards=unit.guards,
        )
        for _ in range(6)
    ]


def _branch_point(
    feat: Featurizer,
    judge: Agent,
    net: QNet,
    search: SearchAgent | None,
    branches: int,
    rng: SplitMix64,
    obs: Observation,
    legal: Legal,
    action: Action,
) -> tuple[FloatArray, FloatArray, int, list[int]]:
    """A branch point at the decision ``obs``: its observation row, its action rows, the row of the action
    played and the other rows to try (:func:`_others`; the search's candidates among them with ``search``)."""
    x = feat.obs_row(obs)
    idx, rows = feat.indexed_rows(obs, legal, judge.act(obs, legal))
    hit = np.flatnonzero(idx == feat.encoding.encode(action))
    chosen = int(hit[0]) if len(hit) else 0
    alts = []
    if search is not None:
        alts = [
            int(np.flatnonzero(idx == feat.encoding.encode(a))[0])
            for a in search.candidate_actions(obs, legal, action)[1:]
        ]
    return x, rows, chosen, _others(net.q(x, rows), chosen, alts, branches, len(legal), rng)


def _others(q: FloatArray, chosen: int, alts: list[int], branches: int, n: int, rng: SplitMix64) -> list[int]:
    """The rows a branch point tries besides the one played: the net's best other, then the search's
    candidates ``alts``, then rows drawn at random (of ``n``), up to ``branches - 1`` of them (both kinds of branch
    point choose so, and draw the same numbers from ``rng``)."""
    q[chosen] = -np.inf
    others = [int(np.argmax(q))]
    for j in alts:
        if len(others) < branches - 1 and j != chosen and j not in others:
            others.append(j)
    while len(others) < min(branches - 1, n - 1):
        j = rng.below(n)
        if j != chosen and j not in others:
            others.append(j)
    return others


def _branch_rows(
    x: FloatArray,
    rows: FloatArray,
    chosen: int,
    others: list[int],
    returns: list[float],
    advantage: bool,
    out: tuple[list[FloatArray], list[FloatArray], list[float]],
) -> None:
    """A branch point's samples: each other row with its return; with ``advantage``, ``returns`` starts with the
    played row's and every action is valued against it, in the same deal and continuation (the played row: 0)."""
    obs_rows, act_rows, targets = out
    if advantage:
        base = returns.pop(0)
        obs_rows.append(x)
        act_rows.append(rows[chosen])
        targets.append(0.0)
        returns = [r - base for r in returns]
    for j, r in zip(others, returns, strict=True):
        obs_rows.append(x)
        act_rows.append(rows[j])
        targets.append(r)


def _branched(unit: SelfPlayUnit, variant: Variant, net: QNet, scale: float) -> Samples:
    """Hands with branch points: see the module's docstring."""
    feat = Featurizer(variant.rules)
    judge = GreedyAgent()  # greedy's choice is one of the features of every action row
    search = SearchAgent(candidates=unit.branches)
    players = _players(unit, net, unit.epsilon)
    rollers = _players(unit, net, 0.0)
    rate = int(unit.branch_rate * 1_000_000)
    obs_rows: list[FloatArray] = []
    act_rows: list[FloatArray] = []
    targets: list[float] = []
    decisions = 0
    for rng, hand in _deals(unit, variant, feat, players, rollers, [judge]):
        played: list[tuple[int, FloatArray, FloatArray]] = []
        while not hand.is_over:
            s = hand.turn
            obs = hand.observation(s)
            legal = hand.legal_actions()
            action = players[s].act(obs, legal)
            n = len(legal)
            if obs.mode in PLAY_MODES and n > 1 and rng.below(1_000_000) < rate:
                searched = search if unit.search_candidates else None
                x, rows, chosen, others = _branch_point(
                    feat, judge, net, searched, unit.branches, rng, obs, legal, action
                )
                team = side(s)
                returns = []
                for j in [chosen, *others] if unit.advantage else others:
                    sim = hand.copy()
                    sim.apply(legal[j])
                    rollout(sim, rollers)
                    sc = sim.scores()
                    returns.append((sc[team] - sc[1 - team]) / scale)
                if not unit.advantage:  # with it, the branch values the played row (0) instead of the hand
                    played.append((s, x, rows[chosen]))
                _branch_rows(x, rows, chosen, others, returns, unit.advantage, (obs_rows, act_rows, targets))
            hand.apply(action)
        decisions += hand.decisions
        sc = hand.scores()
        for s, x, row in played:
            obs_rows.append(x)
            act_rows.append(row)
            targets.append((sc[side(s)] - sc[1 - side(s)]) / scale)
    return _samples(obs_rows, act_rows, targets, decisions, unit.hands)


def match_start(rules_seed: int) -> list[int] | None:
    """The places of the hand before a match unit's hand (so its tribute and the phases before play are
    played), or None for a match's first hand (开牌): one unit hand in eight."""
    rng = SplitMix64(derive(rules_seed, 0x1A57))
    if rng.below(8) == 0:
        return None
    places = [1, 2, 3, 4, 5, 6]
    for i in range(5, 0, -1):
        j = rng.below(i + 1)
        places[i], places[j] = places[j], places[i]
    return places


def _match_return(m: Match, team: int, carry: CarryValue, scale: float) -> float:
    """A finished one-hand match's value for ``team``: its score difference plus the carry value."""
    sc = m.scores
    c = carry.value(m.rules, m.summaries[-1]) if m.summaries else 0.0
    return (sc[team] - sc[1 - team]) / scale + (c if team == 0 else -c)


def _drive(m: Match, players: Sequence[Agent], started: list[int]) -> tuple[int, Observation, Legal]:
    """The seat to decide, its observation and legal actions; tells the players when play begins."""
    if m.hand is not None and m.hand_number != started[0]:
        started[0] = m.hand_number
        for seat, agent in enumerate(players):
            agent.start_hand(m.hand.seed or 0, seat)
    s = m.turn
    return s, m.observation(s), m.legal_actions()


def _finish(m: Match, players: Sequence[Agent], started: int) -> None:
    at = [started]
    while not m.is_over:
        s, obs, legal = _drive(m, players, at)
        m.apply(players[s].act(obs, legal))


def _matched(unit: SelfPlayUnit, variant: Variant, net: QNet, scale: float) -> Samples:
    """The match objective: each unit hand is a one-hand match started from drawn last places, so the
    decisions between hands are asked too; branch points at every kind of decision, each action's
    return the hand's score plus the carry value of what it leaves (see the module's docstring)."""
    assert unit.carry is not None
    carry = CarryValue(dict(unit.carry))
    feat = Featurizer(variant.rules)
    judge = GreedyAgent()
    search = SearchAgent(candidates=max(2, unit.branches))
    players = _players(unit, net, unit.epsilon)
    rollers = _players(unit, net, 0.0)
    rates = (int(unit.between_rate * 1_000_000), int(unit.branch_rate * 1_000_000))
    obs_rows: list[FloatArray] = []
    act_rows: list[FloatArray] = []
    targets: list[float] = []
    decisions = 0
    for k in range(unit.hands):
        seed = unit_seed(unit.seed, unit.index, k, unit.hands)
        first = len(targets)
        try:
            m = Match(variant, seed, hands=1, last_places=match_start(seed))
            rng = SplitMix64(derive(seed, 0xB7A))
            for group in (players, rollers, [judge]):
                for s, a in enumerate(group):
                    a.start_hand(seed, s)
            feat.reset()
            started = [0]
            played: list[tuple[int, FloatArray, FloatArray]] = []
            while not m.is_over:
                s, obs, legal = _drive(m, players, started)
                action = players[s].act(obs, legal)
                n = len(legal)
                if n > 1 and rng.below(1_000_000) < rates[obs.mode in PLAY_MODES]:
                    searched = search if unit.search_candidates and obs.mode in PLAY_MODES else None
                    x, rows, chosen, others = _branch_point(
                        feat, judge, net, searched, unit.branches, rng, obs, legal, action
                    )
                    team = side(s)
                    returns = []
                    for j in [chosen, *others] if unit.advantage else others:
                        sim = m.copy()
                        sim.apply(legal[j])
                        _finish(sim, rollers, started[0])
                        returns.append(_match_return(sim, team, carry, scale))
                    if not unit.advantage:
                        played.append((s, x, rows[chosen]))
                    _branch_rows(x, rows, chosen, others, returns, unit.advantage, (obs_rows, act_rows, targets))
                m.apply(action)
            decisions += m.decisions
            for s, x, row in played:
                obs_rows.append(x)
                act_rows.append(row)
                targets.append(_match_return(m, side(s), carry, scale))
        except GoujiError:  # the engine stopped the hand (a club's rules that void every deal): no samples
            del obs_rows[first:], act_rows[first:], targets[first:]
    return _samples(obs_rows, act_rows, targets, decisions, unit.hands)
