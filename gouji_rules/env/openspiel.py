"""够级 as an OpenSpiel game, ``python_gouji``: OpenSpiel's algorithms and the libraries that reach
games through ``pyspiel`` (RLlib's ``OpenSpielEnv``, Shimmy, TorchRL) play it under any variant.

Importing this module registers the game (it needs ``open_spiel``: ``pip install open_spiel``)::

    import pyspiel
    import gouji_rules.env.openspiel  # noqa: F401  (registers python_gouji)
    game = pyspiel.load_game("python_gouji", {"variant": "dianshaomenla"})

One game is one hand.  Why each choice:

* **The deal is chance**, one card at a time in the order the engine deals (docs/rng.md): first,
  where the variant draws the first dealer at random (``play.first_leader: random``), a chance node
  over the six seats; then one node per card, whose outcomes are the card ids still in the deck
  (rank × 4 + suit, docs/notation.md) with probability proportional to how many copies are left.
  Drawing cards one by one without replacement is the same distribution as the engine's shuffle.
* **Actions** are the variant's fixed :class:`~gouji_rules.env.encoding.ActionEncoding`: the same
  integer means the same action in every position, as ``GoujiEnv`` uses it.
* **Returns** are each seat's team score less the other team's (``GoujiEnv``'s reward): the game is
  zero-sum over the six players.  The utility bounds are worked out from the variant's scoring over
  every finishing order.
* **Observations** come from ``Hand.observation(seat)`` only, so a seat sees in OpenSpiel exactly
  what it may see at the table.  The observation tensor is
  :class:`~gouji_rules.env.features.ObservationEncoder`'s vector; the information-state tensor adds
  the seat's own dealt hand (16 rank counts).  The information-state *string* is perfect recall: the
  seat's dealt hand and every event it has seen, in order.

``load_game`` takes one parameter, ``variant``: a shipped name or a variant file's path.

An action given from Python (``apply_action``, ``apply_action_with_legality_check``, ``child``) is
checked as every environment of this package checks one (``aec.action_index``): ``True``, ``1.0``,
``np.float32(1)``, ``"1"``, None and a number outside the node's range raise ``EnvError`` rather
than reaching ``pyspiel``, which reads ``True`` and ``np.float32(1.7)`` as 1.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from ..game.cards import NRANKS
from ..play.engine import Hand
from ..rules import Rules
from .aec import action_index, resolve_variant, team_reward, utility_bound
from .encoding import ActionEncoding
from .features import OBS_SIZE, ObservationEncoder

SHORT_NAME = "python_gouji"
INFO_STATE_SIZE = OBS_SIZE + NRANKS
SEAT_DRAW = 6
"""Chance outcomes 0-5 of the first node, where the variant draws the first dealer: the seat."""

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Gouji (够级), any gouji_rules variant",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=6,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"variant": "dagang"},
)


def chance_outcomes(rules: Rules) -> int:
    """How many outcomes a chance node may have: the six seats of the first draw, or the card ids."""
    return max(SEAT_DRAW, max(rules.deck) + 1)


def max_length(rules: Rules) -> int:
    """An upper bound on the moves of a hand: the chance nodes of the deal, then for each card at
    most one play and a full round of answers (passes, yields, burns and their words) around it."""
    return 1 + len(rules.deck) + len(rules.deck) * 24


class GoujiGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """The ``python_gouji`` game for one variant (the ``variant`` parameter)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.variant = resolve_variant(str(params.get("variant", "dagang")))
        self.rules = self.variant.rules
        self.encoding = ActionEncoding(self.rules)
        bound = utility_bound(self.rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.size,
            max_chance_outcomes=chance_outcomes(self.rules),
            num_players=6,
            min_utility=float(-bound),
            max_utility=float(bound),
            utility_sum=0.0,
            max_game_length=max_length(self.rules),
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> GoujiState:
        """OpenSpiel's entry point: a fresh state at the chance node that seats and deals."""
        return GoujiState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> GoujiObserver:
        """OpenSpiel's observer for this game; with perfect recall when the observation type asks for it."""
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return GoujiObserver(self, perfect_recall)


class GoujiState(pyspiel.State):  # type: ignore[misc]
    """A hand being dealt (chance nodes), then played (the engine's ``Hand``)."""

    def __init__(self, game: GoujiGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.encoding = game.encoding
        self.leader: int | None = None if self.rules.random_first_drawer else 0
        self.left: dict[int, int] = {}
        for c in self.rules.deck:
            self.left[c] = self.left.get(c, 0) + 1
        self.dealt: list[list[int]] = [[] for _ in range(6)]
        self.order: list[int] = []
        self.hand: Hand | None = None

    # -- actions given from Python: checked before pyspiel converts them ------------------------

    def _index(self, action: object) -> int:
        """``action`` as an index of this node: a card or seat at a chance node, else the encoding's."""
        return action_index(action, chance_outcomes(self.rules) if self.hand is None else self.encoding.size)

    def apply_action(self, action: Any) -> None:
        """Apply an action given as OpenSpiel's integer or as our Action, so both algorithms and tests can drive the
        state."""
        super().apply_action(self._index(action))

    def apply_action_with_legality_check(self, action: Any) -> None:
        """As :meth:`apply_action`, through OpenSpiel's own legality check."""
        super().apply_action_with_legality_check(self._index(action))

    def child(self, action: Any) -> Any:
        """The state after ``action`` (integer or Action), leaving this one unchanged."""
        return super().child(self._index(action))

    # -- the deal -------------------------------------------------------------------------

    def _deal_order(self, leader: int) -> list[int]:
        """The seat that takes each card in turn: the engine's deal (``engine.deal_cards``)."""
        order: list[int] = []
        remaining = list(self.rules.hand_sizes)
        n = len(self.rules.deck)
        while len(order) < n and any(remaining):
            for k in range(6):
                if remaining[k] and len(order) < n:
                    order.append((leader + k) % 6)
                    remaining[k] -= 1
        return order

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance node's outcomes with their probabilities: the first leader's draw, then each card dealt."""
        if self.leader is None:
            return [(s, 1.0 / 6) for s in range(SEAT_DRAW)]
        total = sum(self.left.values())
        return [(c, n / total) for c, n in sorted(self.left.items()) if n]

    def _apply_chance(self, outcome: int) -> None:
        if self.leader is None:
            if not 0 <= outcome < SEAT_DRAW:
                raise ValueError(f"the first dealer is a seat 0-5, not {outcome}")
            self.leader = outcome
            return
        if self.left.get(outcome, 0) <= 0:
            raise ValueError(f"card {outcome} is not left in the deck")
        if not self.order:
            self.order = self._deal_order(self.leader)
        dealt = sum(len(c) for c in self.dealt)
        self.left[outcome] -= 1
        self.dealt[self.order[dealt]].append(outcome)
        if dealt + 1 == len(self.order):
            counts = [[0] * NRANKS for _ in range(6)]
            for s, cards in enumerate(self.dealt):
                for c in cards:
                    counts[s][c >> 2] += 1
            self.hand = Hand(self.rules, counts, self.leader, deal=[list(c) for c in self.dealt])

    # -- pyspiel.State --------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, or OpenSpiel's CHANCE while dealing and TERMINAL at the end."""
        h = self.hand
        if h is None:
            return int(pyspiel.PlayerId.CHANCE)
        if h.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(h.turn)

    def _legal_actions(self, player: int) -> list[int]:
        h = self.hand
        if h is None or h.is_over or player != h.turn:
            return []
        return sorted(int(i) for i in self.encoding.legal_indices(h.legal_actions()))

    def _apply_action(self, action: int) -> None:
        if self.hand is None:
            self._apply_chance(int(action))
        else:
            self.hand.apply(self.encoding.decode(int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.leader is None:
                return f"first dealer: seat {action}"
            return f"deal card {action}"
        return str(self.encoding.decode(int(action)))

    def is_terminal(self) -> bool:
        """Is the hand over?"""
        return self.hand is not None and self.hand.is_over

    def returns(self) -> list[float]:
        """Each seat's return at the end (0 before): its team's score, so a team's three seats share one reward."""
        h = self.hand
        if h is None or not h.is_over:
            return [0.0] * 6
        delta = h.scores()
        return [team_reward(delta, s) for s in range(6)]

    def __str__(self) -> str:
        h = self.hand
        if h is None:
            return f"dealing: {sum(len(c) for c in self.dealt)} of {len(self.rules.deck)} cards dealt"
        if h.is_over:
            return f"over: places {h.places}, scores {h.scores()}"
        o = h.observation(h.turn)
        table = "-" if o.table is None else f"{o.table} by seat {o.table_owner}"
        return f"seat {o.seat} to {o.mode}; table {table}"

    def __deepcopy__(self, memo: dict[int, Any]) -> GoujiState:
        """OpenSpiel clones a Python state by deep copy: the hand's own cheap copy does it."""
        new = GoujiState.__new__(GoujiState)
        pyspiel.State.__init__(new, self.get_game())
        new.rules, new.encoding = self.rules, self.encoding
        new.leader, new.left, new.order = self.leader, dict(self.left), self.order
        new.dealt = [list(c) for c in self.dealt]
        new.hand = None if self.hand is None else self.hand.copy()
        return new


class GoujiObserver:
    """Tensors and strings of what one seat may know (``Hand.observation`` only)."""

    def __init__(self, game: GoujiGame, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        size = INFO_STATE_SIZE if perfect_recall else OBS_SIZE
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[:OBS_SIZE]}
        if perfect_recall:
            self.dict["dealt"] = self.tensor[OBS_SIZE:]
        self.encoder = ObservationEncoder()

    def set_from(self, state: GoujiState, player: int) -> None:
        """Fill the observation tensor with what ``player`` may know of ``state``."""
        self.tensor.fill(0.0)
        h = state.hand
        if h is None:
            for c in state.dealt[player]:
                self.tensor[c >> 2] += 1.0  # the observation's hand block: the cards dealt so far
            return
        self.tensor[:OBS_SIZE] = self.encoder.encode(h.observation(player))
        if self.perfect_recall:
            self.tensor[OBS_SIZE:] = h.initial[player][:NRANKS]

    def string_from(self, state: GoujiState, player: int) -> str:
        """What ``player`` may know of ``state`` as text, for logs and OpenSpiel's string observations."""
        h = state.hand
        mine = " ".join(str(c) for c in state.dealt[player])
        if h is None:
            return f"seat {player} dealt {mine}"
        o = h.observation(player)
        head = f"seat {player} holds {list(o.hand)}; {o.mode}; table {o.table} by {o.table_owner}"
        if not self.perfect_recall:
            return head
        events = "; ".join(repr(e) for e in o.events)
        return f"seat {player} dealt {mine} | {events}"


pyspiel.register_game(GAME_TYPE, GoujiGame)
