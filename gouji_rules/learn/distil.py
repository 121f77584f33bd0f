"""One network from several: the weights each variant plays with, distilled into one that reads the rules.

Each shipped weights file was trained leaning on one variant, and the one best under ``dianshaomenla``
loses to ``dagang``'s under ``dagang``; so the agent played the file of the shipped variant a club's
file is nearest to (``agent.nearest``), and a club was judged by whichever file that was.  Policy
distillation (Rusu et al., "Policy Distillation", 2016: one student regressing the Q-values of several
teachers, each on its own game) makes one network of them: the student sees the rule columns, and on
every position of a variant it learns the Q-values that variant's teacher gives the actions the agent
chooses among (the candidates of ``meta["candidates"]``: the rows the teacher itself compares).  The
positions come from matches the agents play (the teachers in the first round; in later rounds the
student, whose mistakes lead to positions the teachers never reach: DAgger, Ross, Gordon & Bagnell
2011), against themselves, greedy and ``simple``, so the positions the strength bars are measured
in are among them.  ``training/distil.py`` is the command.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from ..play.agents import Agent, GreedyAgent, SimpleAgent
from ..play.match import play_match
from ..variant import Variant
from .agent import pick
from .duplicate import pair_seed
from .features import FloatArray
from .net import Adam, QNet

OPPONENTS = ("self", "greedy", "simple")
"""Who sits across from the recorded agents, in turn: a copy of themselves, and the two baselines."""


@dataclass
class Samples:
    """Positions and the teacher's Q of each candidate: one observation row a decision, its action rows."""

    obs: list[FloatArray] = field(default_factory=list)
    acts: list[FloatArray] = field(default_factory=list)
    target: list[FloatArray] = field(default_factory=list)
    variant: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.obs)

    def add(self, obs: FloatArray, acts: FloatArray, target: FloatArray, variant: str) -> None:
        """One decision: its observation row, candidate rows, the teacher's Q of each, and the variant."""
        self.obs.append(np.array(obs, dtype=np.float32))
        self.acts.append(np.array(acts, dtype=np.float32))
        self.target.append(np.array(target, dtype=np.float32))
        self.variant.append(variant)

    def extend(self, other: Samples) -> None:
        """Add every decision of ``other`` (the next round's positions)."""
        self.obs += other.obs
        self.acts += other.acts
        self.target += other.target
        self.variant += other.variant

    def split(self, every: int) -> tuple[Samples, Samples]:
        """(training, held out): every ``every``-th decision held out."""
        train, held = Samples(), Samples()
        for i in range(len(self)):
            (held if i % every == every - 1 else train).add(self.obs[i], self.acts[i], self.target[i], self.variant[i])
        return train, held


class MeanQ(QNet):
    """The mean of several networks' Q: an ensemble as one teacher.  Networks trained apart (the shipped
    file and runs fine-tuned from it) err in different places, and averaging their estimates cuts the
    variance of each (Anschel, Baram & Shimkin, "Averaged-DQN", 2017); distilling the mean into one
    network (Hinton, Vinyals & Dean, "Distilling the Knowledge in a Neural Network", 2015) keeps the
    agent's speed.  It plays as a network does (``q``); it cannot be trained."""

    def __init__(self, members: Sequence[QNet]) -> None:
        if not members:
            raise ValueError("an ensemble needs at least one network")
        first = members[0]
        if any((m.obs_size, m.act_size) != (first.obs_size, first.act_size) for m in members):
            raise ValueError("the networks of an ensemble must read the same columns")
        self.obs_size, self.act_size, self.hidden = first.obs_size, first.act_size, first.hidden
        self.p = first.p  # what a Recorder shares; the mean itself has no parameters of its own
        self.members = list(members)

    def q(self, obs: FloatArray, acts: FloatArray) -> FloatArray:
        """The members' mean Q of each row of ``acts``."""
        out = self.members[0].q(obs, acts).copy()
        for m in self.members[1:]:
            out += m.q(obs, acts)
        out /= np.float32(len(self.members))
        return out


class Recorder(QNet):
    """A network the agent plays with (``behaviour``) that writes down, at each decision, the position, the
    candidate rows and ``teacher``'s Q of them.  It shares ``behaviour``'s parameters."""

    def __init__(self, behaviour: QNet, teacher: QNet, sink: Samples, variant: str) -> None:
        self.obs_size, self.act_size, self.hidden = behaviour.obs_size, behaviour.act_size, behaviour.hidden
        self.p = behaviour.p
        self.behaviour, self.teacher, self.sink, self.variant = behaviour, teacher, sink, variant

    def q(self, obs: FloatArray, acts: FloatArray) -> FloatArray:
        """``behaviour``'s Q, which the agent plays by; ``teacher``'s is what is written down."""
        out = self.behaviour.q(obs, acts)
        self.sink.add(obs, acts, out if self.teacher is self.behaviour else self.teacher.q(obs, acts), self.variant)
        return out


def collect(
    jobs: Sequence[tuple[Variant, QNet]],
    meta: dict[str, Any],
    matches: int,
    match_hands: int,
    seed: int,
    student: QNet | None = None,
    opponents: Sequence[str] = OPPONENTS,
    guards: Sequence[str] = (),
) -> Samples:
    """The positions of ``matches`` matches of ``match_hands`` hands, labelled by each variant's teacher.

    Match ``i`` is played under ``jobs[i % len(jobs)]`` (a variant and its teacher), on the deal of
    ``pair_seed(seed, i)``, seats 0, 2, 4 recorded, the others ``opponents`` in turn.  The recorded
    seats play the teacher, or ``student`` when given (DAgger's later rounds); the labels are always
    the teacher's.  The agent is played as ``meta`` says (margin, candidates, scope, learned kinds), guarded
    against the blunders ``guards`` names (the positions the file will meet when it plays guarded)."""
    from .agent import LearnedAgent

    out = Samples()
    for i in range(matches):
        variant, teacher = jobs[i % len(jobs)]
        against = opponents[(i // len(jobs)) % len(opponents)]
        recorded = partial(
            LearnedAgent.from_meta, Recorder(student or teacher, teacher, out, variant.name), meta, tuple(guards)
        )
        baseline: dict[str, Callable[[], Agent]] = {"self": recorded, "greedy": GreedyAgent, "simple": SimpleAgent}
        other = baseline[against]
        agents = [recorded() if s % 2 == 0 or against == "self" else other() for s in range(6)]
        play_match(variant, pair_seed(seed, i), match_hands, agents, rotate=i % 2)
    return out


def _rows(samples: Samples) -> tuple[FloatArray, FloatArray, FloatArray, np.ndarray[Any, np.dtype[np.int64]]]:
    obs = np.stack(samples.obs)
    acts = np.concatenate(samples.acts)
    target = np.concatenate(samples.target)
    owner = np.repeat(np.arange(len(samples)), [len(a) for a in samples.acts])
    return obs, acts, target, owner


def fit(
    student: QNet,
    samples: Samples,
    epochs: float,
    lr: float = 3e-4,
    batch: int = 1024,
    seed: int = 0,
    adam: Adam | None = None,
    progress: Callable[[int, float], None] | None = None,
) -> Adam:
    """Regress ``student``'s Q on the teachers' over the candidate rows of ``samples`` (½·squared error),
    ``epochs`` passes of shuffled batches of ``batch`` rows; returns the optimiser to go on with."""
    obs, acts, target, owner = _rows(samples)
    adam = adam or Adam(student, lr=lr)
    adam.lr = lr
    rng = np.random.default_rng(seed)
    steps = max(1, int(epochs * len(target) / batch))
    order = rng.permutation(len(target))
    at = 0
    for step in range(steps):
        if at + batch > len(order):
            order, at = rng.permutation(len(target)), 0
        idx = order[at : at + batch]
        at += batch
        loss, grads = student.loss_and_grads(obs[owner[idx]], acts[idx], target[idx])
        adam.step(student, grads)
        if progress is not None and (step + 1) % 200 == 0:
            progress(step + 1, loss)
    return adam


def agreement(net: QNet, samples: Samples, margin: float) -> dict[str, float]:
    """Per variant, the share of decisions where ``net`` plays what the teacher plays (all, then each
    variant's name), and the mean squared error of its Q."""
    same: dict[str, list[float]] = {}
    err: list[float] = []
    for o, a, t, v in zip(samples.obs, samples.acts, samples.target, samples.variant, strict=True):
        q = net.q(o, a)
        err.append(float(np.mean((q - t) ** 2)))
        hit = float(pick(q, a, margin) == pick(t, a, margin))
        same.setdefault("all", []).append(hit)
        same.setdefault(v, []).append(hit)
    out = {k: round(float(np.mean(x)), 4) for k, x in same.items()}
    out["mse"] = round(float(np.mean(err)) if err else 0.0, 5)
    return out


__all__ = ["OPPONENTS", "MeanQ", "Recorder", "Samples", "agreement", "collect", "fit"]
