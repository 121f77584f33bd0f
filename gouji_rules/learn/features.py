"""The network's input for one decision: the observation row and one row per legal action.

The observation row is ``env.features`` (what the seat may see, nothing else) scaled to about
[0, 1], then the rules the hand is played under (the ``rule.*`` block of :mod:`.rulecols`, built
once per compiled Rules and copied into each row).  An action row is ``env.encoding``'s feature row (the cards it spends, its kind, the word
one-hot) and what the hand would be after it: the cards left by rank, how many, how many groups,
jokers, "only 3s left" (闷 risk), "out" — the facts a player weighs — and whether it is the greedy
agent's choice, so the first Q learned (of greedy's own play) can keep greedy's good sense where
data is thin.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..env import features as ef
from ..env.encoding import FEATURE_NAMES, FEATURES, KIND_WORD, ActionEncoding
from ..game.actions import Action
from ..game.cards import BJ, NRANKS, SJ, THREE, TOP, CardSet
from ..game.legal import Legal
from ..play.observe import Observation
from ..rules import Rules
from .rulecols import RULE_COLUMNS, rule_block

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]

BASE_SIZE = ef.OBS_SIZE
"""The columns of the observation row before the rule block (the env's, in the env's order)."""
OBS_SIZE = BASE_SIZE + len(RULE_COLUMNS)
AFTER_AT = FEATURES
SUMMARY_AT = AFTER_AT + NRANKS
GREEDY_AT = SUMMARY_AT + 5
ACT_SIZE = GREEDY_AT + 1

PLAY_MODES = frozenset({"lead", "follow", "burn", "kou", "consent"})
"""The decisions the trainer teaches the network (a weights file's ``learned_kinds``); every other kind
is made by its own default chooser (:func:`gouji_rules.learn.agent.default_chooser`)."""

OBS_COLUMNS: tuple[str, ...] = (*ef.COLUMNS, *RULE_COLUMNS)
"""The names of the observation row's columns: ``env.features.COLUMNS``, then ``rulecols.RULE_COLUMNS``."""
ACT_COLUMNS: tuple[str, ...] = (
    *FEATURE_NAMES,
    *(f"after.{r}" for r in ef.RANKS),
    "after.cards",
    "after.groups",
    "after.jokers",
    "after.only_3s",
    "after.out",
    "greedy",
)
"""The names of an action row's columns: the encoding's, the hand after it, greedy's choice."""
assert len(OBS_COLUMNS) == OBS_SIZE and len(ACT_COLUMNS) == ACT_SIZE


def _obs_scale() -> FloatArray:
    s = np.ones(BASE_SIZE, np.float32)
    for at, n in ((ef.HAND_AT, NRANKS), (ef.TABLE_AT, NRANKS), (ef.PLAYED_AT, 6 * NRANKS), (ef.SHOWN_AT, 6 * NRANKS)):
        s[at : at + n] = 0.25
    s[ef.LEFT_AT : ef.LEFT_AT + 6] = 1.0 / 36
    return s


OBS_SCALE = _obs_scale()
_GROUPS = np.array([r != THREE and r < SJ for r in range(NRANKS)], dtype=np.float32)
_SUMS = np.array(
    [[1.0, float(r in (SJ, BJ, TOP)), float(r != THREE)] for r in range(NRANKS)], dtype=np.float32
)  # columns: every card, jokers, every card but 3s
ROW_CACHE = 65536  # follow sets and words kept with their encoded rows
_SHARED: dict[int, tuple[Rules, ActionEncoding, dict[object, tuple[int, FloatArray]]]] = {}


class Featurizer:
    """Builds the rows of one seat's decisions under one variant (keeps the played-card counts).

    The encoding's row of a follow set or a word is kept per action: ``ActionEncoding.encode_legal``
    builds the same rows (a test checks), but vectorised over a handful of sets it spends more time
    setting up numpy than computing.  A lead's boxes are the encoding's own cache.
    """

    def __init__(self, rules: Rules) -> None:
        # the encoding and the rows of actions depend on the rules only: shared by every agent of a
        # process (compare makes new agents for every work unit; their caches would start cold)
        hit = _SHARED.get(id(rules))
        if hit is None or hit[0] is not rules:
            if len(_SHARED) >= 64:
                _SHARED.clear()
            hit = _SHARED[id(rules)] = (rules, ActionEncoding(rules), {})
        self.encoding = hit[1]
        self._rows = hit[2]
        self.rule_block = rule_block(rules)
        self.observations = ef.ObservationEncoder()

    def reset(self) -> None:
        """Forget the played-card counts at a new hand; the cached action rows stay (they depend on the rules only)."""
        self.observations.reset()

    def base_row(self, obs: Observation) -> FloatArray:
        """The observation row without the rule block (its first BASE_SIZE columns)."""
        out: FloatArray = self.observations.encode(obs) * OBS_SCALE
        return out

    def obs_row(self, obs: Observation) -> FloatArray:
        """The whole observation row: :meth:`base_row` and the rules' block."""
        return np.concatenate((self.base_row(obs), self.rule_block))

    def _one(self, key: object, cs: CardSet | None, burn: bool, word: Action | None) -> tuple[int, FloatArray]:
        hit = self._rows.get(key)
        if hit is None:
            if cs is not None:
                i, f = self.encoding._set_rows(np.asarray([cs], dtype=np.int64), burn)
            else:
                assert word is not None
                i = np.asarray([self.encoding.encode(word)])
                f = np.zeros((1, FEATURES), np.float32)
                f[0, KIND_WORD] = 1.0
                f[0, KIND_WORD + 1 + self.encoding.word_index[word]] = 1.0
            if len(self._rows) >= ROW_CACHE:
                self._rows.clear()
            hit = self._rows[key] = (int(i[0]), f[0])
        return hit

    def reads(self, legal: Legal) -> bool:
        """Has every legal word a column?  A word registered after the package's layout was built (a
        club's extension loaded at run time) has none, so no network can score it."""
        index = self.encoding.word_index
        return all(x in index for x in legal.extras)

    def encoded(self, legal: Legal) -> tuple[IntArray, FloatArray]:
        """The encoding's indices and feature rows of ``legal`` (``ActionEncoding.encode_legal``'s)."""
        if legal.boxes:
            return self.encoding.encode_legal(legal)
        burn = legal.burn
        got = [self._one((cs, burn), cs, burn, None) for cs in legal.sets]
        got += [self._one(x, None, False, x) for x in legal.extras]
        if not got:
            return np.zeros(0, np.int64), np.zeros((0, FEATURES), np.float32)
        return np.fromiter((g[0] for g in got), np.int64, len(got)), np.stack([g[1] for g in got])

    def action_rows(self, obs: Observation, legal: Legal, greedy: Action | None) -> FloatArray:
        """One row of ACT_SIZE numbers per legal action, in the order of ``legal``."""
        return self.indexed_rows(obs, legal, greedy)[1]

    def indexed_rows(self, obs: Observation, legal: Legal, greedy: Action | None) -> tuple[IntArray, FloatArray]:
        """The encoding's index of each legal action, and its row (:meth:`action_rows`)."""
        idx, f = self.encoded(legal)
        n = len(idx)
        rows = np.empty((n, ACT_SIZE), np.float32)
        rows[:, :FEATURES] = f
        spent = f[:, :NRANKS]
        rows[:, :NRANKS] *= 0.25
        after = np.asarray(obs.hand[:NRANKS], np.float32) - spent
        np.maximum(after, 0.0, out=after)
        rows[:, AFTER_AT:SUMMARY_AT] = after * 0.25
        sums = after @ _SUMS  # cards left, jokers left, cards left other than 3s
        rows[:, SUMMARY_AT] = sums[:, 0] / 36.0
        rows[:, SUMMARY_AT + 1] = (after > 0) @ _GROUPS / 10.0
        rows[:, SUMMARY_AT + 2] = sums[:, 1] / 4.0
        rows[:, SUMMARY_AT + 3] = (sums[:, 0] > 0) & (sums[:, 2] == 0)
        rows[:, SUMMARY_AT + 4] = sums[:, 0] == 0
        rows[:, GREEDY_AT] = 0.0
        if greedy is not None:
            rows[idx == self.encoding.encode(greedy), GREEDY_AT] = 1.0
        return idx, rows
