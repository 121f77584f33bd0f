"""Self-play work units: hands played by the behaviour policy, and the samples they leave.

A sample is one decision the network makes: (observation row, chosen action row, return), the
return being the hand's final score difference for the deciding seat's team (its team − the
other), in units of the variant's largest place score.  That is Deep Monte Carlo's target: the
network learns Q(s, a) of the behaviour policy by regression on whole-hand returns, no bootstrapping.

A :class:`SelfPlayUnit` carries everything a worker needs (the variant as a name or an absolute
path, the weights, the hand seeds), so a process pool or a Dask worker runs it as it is, and a
unit's hands depend only on the run's seed and the unit's index.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..agents import Agent
from ..compare.work import VariantSource, load
from ..engine import Hand
from ..rng import derive
from .agent import LearnedAgent
from .features import ACT_SIZE, OBS_SIZE, FloatArray
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


@dataclass
class Samples:
    obs: FloatArray
    act: FloatArray
    target: FloatArray
    decisions: int
    hands: int

    @staticmethod
    def empty() -> Samples:
        z = np.zeros((0,), np.float32)
        return Samples(np.zeros((0, OBS_SIZE), np.float32), np.zeros((0, ACT_SIZE), np.float32), z, 0, 0)


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
        LearnedAgent(net, epsilon=unit.epsilon, follow_greedy=unit.follow_greedy, trace=trace) for _ in range(6)
    ]
    for k in range(unit.hands):
        seed = unit_seed(unit.seed, unit.index, k, unit.hands)
        hand = Hand.deal(variant, seed)
        for s, a in enumerate(agents):
            a.start_hand(seed, s)
        first = len(seats)
        while not hand.is_over:
            s = hand.turn
            hand.apply(agents[s].act(hand.observation(s), hand.legal_actions()))
        decisions += hand.decisions
        sc = hand.scores()
        targets.extend((sc[s % 2] - sc[1 - s % 2]) / scale for s in seats[first:])
    if not seats:
        e = Samples.empty()
        return Samples(e.obs, e.act, e.target, decisions, unit.hands)
    return Samples(np.stack(obs_rows), np.stack(act_rows), np.asarray(targets, np.float32), decisions, unit.hands)
