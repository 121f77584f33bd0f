"""A Gymnasium environment for one seat; the other five are played by given agents.

The learner sits at ``seat`` (team ``seats.side(seat)``); its teammates and opponents are
gouji_rules agents (``greedy`` by default), asked exactly as ``gouji simulate`` asks
them.  The reward is the learner's team score minus the other team's, when a hand
ends.  Observations are the AEC environment's rich dicts (``GoujiEnv(observation="rich")``:
the vector, the legal indices, their feature rows and, with ``dense_mask``, the mask) for the
learner's seat.

An index that is not legal now either raises ``IllegalAction`` (``illegal="raise"``)
or ends the episode with ``illegal_reward`` and ``info["illegal"] = True``
(``illegal="terminate"``, the default: Gymnasium's tools step with unmasked random
actions, and a learner must be able to make that mistake without a crash).  What is not an
index of the space at all (``True``, ``1.0``, ``"1"``, None, ``-1``, a number past the last
index) raises ``EnvError`` under either: it is a program's mistake, not a move.  Quitting
never pays: ``illegal_reward`` defaults to the worst outcome a hand can have under the
variant (the largest team-score difference of a hand, negated: -12 under ``dagang``;
in a match, that times the match's hands), below every legal outcome of the places.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from ..errors import IllegalAction
from ..game.rng import check_seed
from ..play.agents import Agent, make_agent
from ..variant import Variant
from .aec import (
    NO_CHANGE,
    EnvError,
    GoujiEnv,
    ObsDict,
    Table,
    action_index,
    one_of,
    shown,
    team_reward,
    utility_bound,
)


class SeatEnv(gymnasium.Env[ObsDict, np.int64]):
    """One seat of 够级 as a Gymnasium environment.

    >>> env = SeatEnv("dagang", seat=0)
    >>> obs, info = env.reset(seed=3)
    >>> obs, reward, terminated, truncated, info = env.step(obs["legal_actions"][0])
    >>> terminated or obs["legal_actions"].size > 0
    True
    """

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(
        self,
        variant: str | Path | Variant = "dagang",
        *,
        seat: int = 0,
        others: str | Sequence[Agent] = "greedy",
        match: bool = False,
        hands: int | None = None,
        dense_mask: bool = True,
        illegal: str = "terminate",
        illegal_reward: float | None = None,
        render_mode: str | None = None,
    ) -> None:
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < 6:
            raise EnvError(f"seat must be 0..5, got {shown(seat)}")
        one_of(illegal, ("raise", "terminate"), "illegal")
        self.aec = GoujiEnv(
            variant, match=match, hands=hands, dense_mask=dense_mask, observation="rich", render_mode=render_mode
        )
        self.seat = seat
        if isinstance(others, str):
            self.others: list[Agent] = [make_agent(others) for _ in range(6)]
        else:
            if len(others) != 5:
                raise ValueError(f"give 5 agents for the other seats, got {len(others)}")
            self.others = list(others)
            self.others.insert(seat, self.others[0])  # placeholder at the learner's seat, never asked
        self.illegal = illegal
        worst = -utility_bound(self.aec.rules) * (self.aec.hands or self.aec.rules.match_hands if match else 1)
        self.illegal_reward = float(worst if illegal_reward is None else illegal_reward)
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(f"seat_{seat}")
        self.action_space = self.aec.action_space(f"seat_{seat}")
        self.table: Table | None = None
        self._ended = False

    def _advance(self) -> float:
        """Let the other seats act until it is the learner's turn or the game is over."""
        t = self.table
        assert t is not None
        reward = 0.0
        g = t.game
        while True:
            seed, fresh = t.new_hand()
            if fresh:
                for s, agent in enumerate(self.others):
                    if s != self.seat:
                        agent.start_hand(seed, s)
            if g.is_over or g.turn == self.seat:
                return reward
            s = g.turn
            d = t.apply(self.others[s].act(g.observation(s), g.legal_actions()))
            if d != NO_CHANGE:
                reward += team_reward(d, self.seat)

    def _obs(self) -> ObsDict:
        t = self.table
        assert t is not None
        acting = not t.is_over and t.turn == self.seat
        return self.aec.observe_table(t, self.seat, acting)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        """Gymnasium's reset: a new hand, the other seats played by their agents up to the learning seat's first
        decision; a bad seed is refused."""
        if seed is not None:
            check_seed(seed, "reset(seed=…)")
        super().reset(seed=seed)
        self.table = Table(self.aec.variant, self.aec.next_seed(seed), self.aec.match, self.aec.hands)
        self.aec.encoder.reset()
        self._ended = False
        self._advance()
        return self._obs(), {}

    def step(self, action: np.int64 | int) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        """Play the learning seat's action, then the other seats until it is asked again or the hand ends, and return
        its reward."""
        t = self.table
        if t is None:
            raise EnvError("call reset() before step()")
        if t.is_over or self._ended:
            raise IllegalAction("the episode is over; call reset()", rule="hand_over")
        act = self.aec.encoding.decode(action_index(action, self.aec.encoding.size))  # EnvError: never a move
        try:
            reward = team_reward(t.apply(act), self.seat)
        except IllegalAction:
            if self.illegal == "raise":
                raise
            self._ended = True
            return self._obs(), self.illegal_reward, True, False, {"illegal": True}
        reward += self._advance()
        return self._obs(), reward, t.is_over, False, {}

    def render(self) -> str | None:
        """The table as text under ``render_mode='ansi'`` (None otherwise)."""
        if self.render_mode != "ansi" or self.table is None:
            return None
        self.aec.table = self.table
        return self.aec.render()
