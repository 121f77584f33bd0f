"""The network's input for one decision: the observation row and one row per legal action.

The observation row is ``env.features`` (what the seat may see, nothing else) scaled to about
[0, 1].  An action row is ``env.encoding``'s feature row (the cards it spends, its kind, the word
one-hot) and what the hand would be after it: the cards left by rank, how many, how many groups,
jokers, "only 3s left" (闷 risk), "out" — the facts a player weighs — and whether it is the greedy
agent's choice, so the first Q learned (of greedy's own play) can keep greedy's good sense where
data is thin.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..actions import Action
from ..cards import BJ, NRANKS, SJ, THREE, TOP
from ..engine import Observation
from ..env import features as ef
from ..env.encoding import FEATURES, ActionEncoding
from ..legal import Legal
from ..rules import Rules

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]

OBS_SIZE = ef.OBS_SIZE
AFTER_AT = FEATURES
SUMMARY_AT = AFTER_AT + NRANKS
GREEDY_AT = SUMMARY_AT + 5
ACT_SIZE = GREEDY_AT + 1

PLAY_MODES = frozenset({"lead", "follow", "burn", "kou", "consent"})
"""The decisions the network makes; declarations, tribute and 冲点 stay with the greedy agent."""


def _obs_scale() -> FloatArray:
    s = np.ones(OBS_SIZE, np.float32)
    for at, n in ((ef.HAND_AT, NRANKS), (ef.TABLE_AT, NRANKS), (ef.PLAYED_AT, 6 * NRANKS), (ef.SHOWN_AT, 6 * NRANKS)):
        s[at : at + n] = 0.25
    s[ef.LEFT_AT : ef.LEFT_AT + 6] = 1.0 / 36
    return s


OBS_SCALE = _obs_scale()
_GROUP_RANKS = np.array([r != THREE and r < SJ for r in range(NRANKS)], dtype=bool)
_JOKERS = np.array([r in (SJ, BJ, TOP) for r in range(NRANKS)], dtype=bool)
_NOT_THREE = np.array([r != THREE for r in range(NRANKS)], dtype=bool)


class Featurizer:
    """Builds the rows of one seat's decisions under one variant (keeps the played-card counts)."""

    def __init__(self, rules: Rules) -> None:
        self.encoding = ActionEncoding(rules)
        self.observations = ef.ObservationEncoder()

    def reset(self) -> None:
        self.observations.reset()

    def obs_row(self, obs: Observation) -> FloatArray:
        out: FloatArray = self.observations.encode(obs) * OBS_SCALE
        return out

    def action_rows(self, obs: Observation, legal: Legal, greedy: Action | None) -> FloatArray:
        """One row of ACT_SIZE numbers per legal action, in the order of ``legal``."""
        idx, f = self.encoding.encode_legal(legal)
        n = len(idx)
        rows = np.zeros((n, ACT_SIZE), np.float32)
        spent = f[:, :NRANKS]
        after = np.asarray(obs.hand[:NRANKS], np.float32) - spent
        np.maximum(after, 0.0, out=after)
        rows[:, :FEATURES] = f
        rows[:, :NRANKS] *= 0.25
        rows[:, AFTER_AT:SUMMARY_AT] = after * 0.25
        left = after.sum(1)
        rows[:, SUMMARY_AT] = left / 36.0
        rows[:, SUMMARY_AT + 1] = (after[:, _GROUP_RANKS] > 0).sum(1) / 10.0
        rows[:, SUMMARY_AT + 2] = after[:, _JOKERS].sum(1) / 4.0
        rows[:, SUMMARY_AT + 3] = (left > 0) & (after[:, _NOT_THREE].sum(1) == 0)
        rows[:, SUMMARY_AT + 4] = left == 0
        if greedy is not None:
            rows[idx == self.encoding.encode(greedy), GREEDY_AT] = 1.0
        return rows
