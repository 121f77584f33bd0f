"""One seat of 够级 for the learning libraries people already use (Stable-Baselines3, sb3-contrib,
CleanRL, RLlib): a fixed number of candidate actions per decision, every space a ``Box``.

Why: the variant's action encoding is large (164,087 actions under ``dagang``) and most of it is
never legal, so a dense mask makes a standard policy's action head enormous (SB3: a
``Linear(64→164,087)``), while the encoding the engine recommends, one feature row per legal action
(:class:`~gouji_rules.env.SeatEnv`'s ``action_features``), has a varying number of rows, which no
standard client can take.  Here each decision offers ``k`` candidates: the legal actions' feature
rows, padded to ``k`` rows, with a row mask.  The action is the number of a row.

Which candidates: every word action (pass, 让牌, …) first, then the sets.  Where more than ``k``
actions are legal (an opening lead may have a thousand), the sets are a uniform sample drawn with the
environment's seeded generator (``reset(seed=…)``), kept in the engine's order.

Observation (a ``Dict`` of ``Box`` spaces, as ``MultiInputPolicy`` expects)::

    observation      (OBS_SIZE,)        float32  the seat's observation vector (research.md)
    candidates       (k, FEATURES)      float32  one feature row per candidate, zeros past the last
    candidate_mask   (k,)               int8     1 for a candidate row, 0 for padding

``action_masks()`` gives the mask as booleans, which sb3-contrib's ``MaskablePPO`` reads.  A row
number that is padding never pays better than a legal move: with ``invalid="wrap"`` (the default, for
clients that do not mask) it plays candidate ``action % n`` of the ``n`` offered, a legal move; with
``invalid="raise"`` it raises ``IllegalAction``.  What is not a row number at all (a float, a string,
a bool, None, a number outside ``0..k-1``) raises ``EnvError`` (a ``ValueError``) in the words every
environment here uses (``aec.action_index``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..errors import IllegalAction
from ..play.agents import Agent
from ..variant import Variant
from .aec import EnvError, action_index, one_of, shown
from .encoding import FEATURES, KIND_WORD
from .features import OBS_SIZE
from .single import SeatEnv

CandidateObs = dict[str, Any]
INVALID = ("wrap", "raise")


class CandidateEnv(gymnasium.Env[CandidateObs, np.int64]):
    """One seat, ``k`` candidate actions a decision, Box spaces only.

    >>> env = CandidateEnv("dagang", k=32)
    >>> obs, info = env.reset(seed=3)
    >>> obs["candidates"].shape, int(obs["candidate_mask"].sum()) <= 32
    ((32, 58), True)
    >>> obs, reward, terminated, truncated, info = env.step(0)
    """

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(
        self,
        variant: str | Path | Variant = "dagang",
        *,
        k: int = 64,
        seat: int = 0,
        others: str | Sequence[Agent] = "greedy",
        match: bool = False,
        hands: int | None = None,
        invalid: str = "wrap",
        render_mode: str | None = None,
    ) -> None:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise EnvError(f"k must be a whole number of candidates, at least 1, got {shown(k)}")
        one_of(invalid, INVALID, "invalid")
        self.seat_env = SeatEnv(
            variant,
            seat=seat,
            others=others,
            match=match,
            hands=hands,
            dense_mask=False,
            illegal="raise",
            render_mode=render_mode,
        )
        self.k = k
        self.invalid = invalid
        self.render_mode = render_mode
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-1.0, 1024.0, (OBS_SIZE,), np.float32),
                "candidates": spaces.Box(0.0, 1024.0, (k, FEATURES), np.float32),
                "candidate_mask": spaces.Box(0, 1, (k,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(k)
        self.candidate_indices = np.zeros(0, dtype=np.int64)
        """the action-encoding index of each candidate row offered now"""
        self._obs: CandidateObs | None = None

    def _choose(self, seat_obs: dict[str, Any]) -> CandidateObs:
        idx: npt.NDArray[np.int64] = seat_obs["legal_actions"]
        feats: npt.NDArray[np.float32] = seat_obs["action_features"]
        words = np.flatnonzero(feats[:, KIND_WORD] > 0)[: self.k]
        sets = np.flatnonzero(feats[:, KIND_WORD] == 0)
        room = self.k - len(words)
        if len(sets) > room:
            sets = np.sort(self.np_random.choice(sets, size=room, replace=False))
        rows = np.concatenate([words, sets])
        idx, feats = idx[rows], feats[rows]
        n = len(idx)
        self.candidate_indices = idx.astype(np.int64)
        cand = np.zeros((self.k, FEATURES), dtype=np.float32)
        cand[:n] = feats
        mask = np.zeros(self.k, dtype=np.int8)
        mask[:n] = 1
        obs = {"observation": seat_obs["observation"].astype(np.float32), "candidates": cand, "candidate_mask": mask}
        self._obs = obs
        return obs

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[CandidateObs, dict[str, Any]]:
        """Gymnasium's reset: a new hand, observed as the candidate actions of the learning seat."""
        super().reset(seed=seed)
        seat_obs, info = self.seat_env.reset(seed=seed, options=options)
        return self._choose(seat_obs), info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The candidate rows that may be chosen now (sb3-contrib's ``MaskablePPO`` asks this)."""
        if self._obs is None:
            raise EnvError("call reset() before action_masks()")
        mask: npt.NDArray[np.int8] = self._obs["candidate_mask"]
        return mask.astype(bool)

    def step(self, action: Any) -> tuple[CandidateObs, float, bool, bool, dict[str, Any]]:
        """Play the chosen candidate (an index into the offered rows); an index past them raises EnvError rather than
        playing something else."""
        if self._obs is None:
            raise EnvError("call reset() before step()")
        row = action_index(action, self.k)
        n = len(self.candidate_indices)
        if n == 0:
            raise IllegalAction("the episode is over; call reset()", rule="hand_over")
        if row >= n:
            if self.invalid == "raise":
                raise IllegalAction(
                    f"candidate row {row} is padding: {n} candidates are offered (rows 0..{n - 1})",
                    rule="candidate_padding",
                )
            row %= n
        seat_obs, reward, terminated, truncated, info = self.seat_env.step(self.candidate_indices[row])
        return self._choose(seat_obs), reward, terminated, truncated, info

    def render(self) -> str | None:
        """The seat env's text rendering."""
        return self.seat_env.render()
