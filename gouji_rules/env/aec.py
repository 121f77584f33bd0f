"""The PettingZoo AEC environment: six seats, one decision at a time, any variant.

One episode is a single hand (``match=False``, the default) or a whole match. The
agents are ``seat_0`` … ``seat_5``; team 0 is seats 0, 2, 4.  Rewards come when a
hand ends: each seat gets its team's score for that hand minus the other team's
(under ``match=True``, the change of the match scores, which includes 宣点 and the
like).  Actions are indices of the variant's ActionEncoding; an index that is not
legal now raises ``IllegalAction`` (the engine's own error, naming the rule).  What is
not an index of the space raises :class:`EnvError`, in the same words in every environment
of this package (:func:`action_index`): a number outside it, a float, a string, a bool
(``True`` is an ``int`` to Python, and gymnasium's ``Discrete.contains`` takes it as 1, but
an agent that steps with one has a bug), as do a step after the episode, a step before
``reset`` and arguments of the wrong type.

The observation takes one of three forms (``observation=``); each entry is built when first read,
from what the seat was shown at that step (an :class:`~gouji_rules.env.obsdict.ObservationDict`),
so an agent pays only for what it reads:

* ``"classic"`` (the default): PettingZoo's classic games' form, a dict of exactly
  ``observation`` (the ObservationEncoder vector, float32, OBS_SIZE) and ``action_mask`` (int8,
  one 0/1 entry per index of the space), which PettingZoo's tutorials and Tianshou's
  ``PettingZooEnv`` read.
  The acting seat's ``info`` also holds ``legal_actions`` and ``action_features`` (below), so an
  agent need not scan the 164,087-entry mask for the few legal indices.
* ``"rich"`` (``"dict"``, its earlier name): a dict of ``observation``; ``legal_actions``, the
  legal indices in the order of the engine's ``legal_actions()``; ``action_features``, one row of
  FEATURES numbers per legal action; and ``action_mask``, only with ``dense_mask=True``.
* ``"vector"``: the vector alone (a ``Box``), with ``legal_actions``, ``action_features`` and
  (with ``dense_mask``) ``action_mask`` in the acting seat's ``info`` (``env.last()``'s fifth value).

Why the classic form is the default: it is what PettingZoo's own card and board games give, and what
code written for them reads.  PettingZoo's ``api_test`` knows those games by name: for any other
environment it warns at each observation that a dict is not a NumPy array, and once per agent about
a ``Dict`` space, whatever the dict holds.  Treated as it treats its own games, the classic form
passes with no warning; the vector form passes with none as it is (tests/env/test_env_api.py).

Seeding: ``reset(seed=s)`` fixes the sequence of deals; the k-th episode after it is
dealt from ``derive(s, k)``, so runs repeat exactly.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .. import catalog
from ..errors import GoujiError, IllegalAction
from ..game.actions import Action
from ..game.legal import Legal
from ..game.rng import check_seed, derive
from ..game.seats import side
from ..play.engine import Hand
from ..play.match import Match
from ..play.observe import Observation
from ..rules import Rules
from ..variant import Variant
from .encoding import FEATURES, ActionEncoding
from .features import OBS_SIZE, ObservationEncoder
from .obsdict import CLASSIC_KEYS, DICT_KEYS, LEGAL_KEYS, ObservationDict

AGENT_NAMES = tuple(f"seat_{s}" for s in range(6))
SEAT_OF = {a: s for s, a in enumerate(AGENT_NAMES)}
NO_CHANGE = (0, 0)
NO_LEGAL = Legal()  # a seat not to act is shown no legal actions
OBSERVATION_FORMS = ("classic", "rich", "vector")
EARLIER_NAMES = {"dict": "rich"}
RENDER_MODES = ("ansi",)
ObsDict = dict[str, Any]


class EnvError(GoujiError, ValueError):
    """The environment used in a way it does not allow: an action that is not an index of its space,
    a step after the episode ended or before ``reset``, an argument of the wrong type."""


def action_index(action: object, n: int) -> int:
    """``action`` as an index of ``Discrete(n)``: a Python or numpy integer (or a 0-d integer array)
    from 0 to ``n - 1``.  Every environment here takes its actions through this, so each refuses the
    same things with the same :class:`EnvError`: a float or a string that looks like an integer, a bool
    or ``numpy.bool_`` (``True`` would otherwise play index 1), None, and a number outside the space."""
    if type(action) is int:
        index = action
    elif isinstance(action, np.integer):
        index = int(action)
    elif isinstance(action, int) and not isinstance(action, bool):
        index = int.__int__(action)  # an int subclass (an IntEnum): its value, whatever it overrides
    elif isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        index = int(action)
    else:
        raise EnvError(f"{_wanted(n)}, not {type(action).__name__} {shown(action)}")
    if not 0 <= index < n:
        number = str(index) if index.bit_length() <= 256 else f"a number of {index.bit_length():,} bits"
        raise EnvError(f"{_wanted(n)}; {number} is outside it")
    return index


def _wanted(n: int) -> str:
    return f"an action is an integer index 0..{n - 1} (Discrete({n}))"


def one_of(value: object, choices: tuple[str, ...], name: str) -> str:
    """``value`` if it is one of the strings ``choices``; else an EnvError naming them (never numpy's
    truth-value error for an array, nor a bare ValueError)."""
    if isinstance(value, str) and value in choices:
        return value
    raise EnvError(f"{name} must be one of {', '.join(choices)}, got {shown(value)}")


def shown(value: object) -> str:
    """A short repr for an error message, whatever ``value`` is (its ``repr`` may be huge or raise)."""
    if isinstance(value, (str, bytes)) and len(value) > 60:
        value = value[:60]
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__: the type alone names it
        return "(unprintable)"
    return text if len(text) <= 60 else text[:60] + "…"


def check_hands(hands: object) -> int | None:
    """``hands`` (hands a match) as given to an environment: None or an integer of at least 1."""
    if hands is None:
        return None
    if isinstance(hands, bool) or not isinstance(hands, (int, np.integer)):
        raise EnvError(f"hands must be an integer of at least 1 or None, not {type(hands).__name__} {shown(hands)}")
    if hands < 1:
        raise EnvError(f"hands must be at least 1, got {hands}")
    return int(hands)


def team_reward(delta: tuple[int, int], seat: int) -> float:
    """A seat's reward for a step: its team's score change less the other team's."""
    team = side(seat)
    return float(delta[team] - delta[1 - team])


def utility_bound(rules: Rules) -> int:
    """The largest team-score difference a hand can end with under ``rules`` (every finishing order)."""
    best = 0
    for order in itertools.permutations(range(6)):
        places = [0] * 6
        for place, seat in enumerate(order, start=1):
            places[seat] = place
        a, b = rules.team_scores(places)
        best = max(best, abs(a - b))
    return best


def resolve_variant(variant: str | Path | Variant) -> Variant:
    """A Variant from a shipped name, a file path, or a Variant."""
    if isinstance(variant, Variant):
        return variant
    return catalog.resolve(str(variant))


class Table:
    """A hand or a match behind one interface, with the rewards each decision earned.

    ``Hand`` and ``Match`` both offer ``turn``, ``is_over``, ``legal_actions()``,
    ``apply()`` and ``observation(seat)``; a Table adds the team score change of the
    last step and tells when a new hand has started (for agents' ``start_hand``).
    """

    def __init__(self, variant: Variant, seed: int, match: bool, hands: int | None) -> None:
        self.variant = variant
        self.seed = seed
        self.game: Hand | Match = Match(variant, seed, hands) if match else Hand.deal(variant, seed)
        self._scored = [0, 0]
        self._hand_seen: Hand | None = None
        self.one_hand = isinstance(self.game, Hand)
        """a single hand: it scores only when it is over"""

    @property
    def turn(self) -> int:
        """The seat to act, whether the match is between hands or in play: the env asks one object either way."""
        return self.game.turn

    @property
    def is_over(self) -> bool:
        """Is the hand (or the match) over? The env ends the episode then."""
        return self.game.is_over

    def legal_actions(self) -> Legal:
        """What the seat to act may do now, for the action mask."""
        return self.game.legal_actions()

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now, the only input the encoder gets (no peeking at others' cards)."""
        return self.game.observation(seat)

    def new_hand(self) -> tuple[int, bool]:
        """The current hand's seed, and whether it began since the last call."""
        g = self.game
        if isinstance(g, Hand):
            fresh = self._hand_seen is None
            self._hand_seen = g
            return self.seed, fresh
        h = g.hand
        if h is None or h is self._hand_seen:
            return (h.seed or 0) if h is not None else self.seed, False
        self._hand_seen = h  # a reference, not id(): a freed hand's id can be reused
        return h.seed or 0, True

    def scores(self) -> list[int]:
        """Team scores so far: the match's, or a hand's once it is over."""
        g = self.game
        if isinstance(g, Match):
            return list(g.scores)
        return list(g.scores()) if g.is_over else [0, 0]

    def apply(self, action: Action) -> tuple[int, int]:
        """Apply the action of the seat to act; the score change of each team it caused."""
        g = self.game
        g.apply(action)
        if self.one_hand and not g.is_over:
            return NO_CHANGE
        return self.score_change()

    def score_change(self) -> tuple[int, int]:
        """The score change of each team since the last call (after the game's ``apply``)."""
        now = self.scores()
        delta = (now[0] - self._scored[0], now[1] - self._scored[1])
        self._scored = now
        return delta


class GoujiEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """PettingZoo AEC environment for 够级 under any variant.

    >>> env = GoujiEnv("dagang")
    >>> env.reset(seed=1)
    >>> obs, reward, terminated, truncated, info = env.last()
    >>> sorted(obs), obs["action_mask"].shape, obs["action_mask"].dtype
    (['action_mask', 'observation'], (164087,), dtype('int8'))
    >>> env.step(int(info["legal_actions"][0]))     # or an index where obs["action_mask"] is 1
    >>> env.agent_selection in env.agents
    True
    """

    metadata = {"name": "gouji_v0", "render_modes": ["ansi"], "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        variant: str | Path | Variant = "dagang",
        *,
        match: bool = False,
        hands: int | None = None,
        dense_mask: bool = True,
        observation: str = "classic",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        named = EARLIER_NAMES.get(observation, observation) if isinstance(observation, str) else observation
        form = one_of(named, OBSERVATION_FORMS, "observation")
        if form == "classic" and not dense_mask:
            raise EnvError(
                'dense_mask=False leaves out the action_mask of the classic observation: give observation="rich" '
                'or "vector" with it (the legal indices without a mask)'
            )
        self.observation_form: str = form
        """``classic``, ``rich`` or ``vector`` (module docstring)"""
        self.vector = form == "vector"
        hands = check_hands(hands)
        self.variant = resolve_variant(variant)
        self.rules = self.variant.rules
        self.match = match
        self.hands = hands
        self.dense_mask = dense_mask
        if render_mode is not None:
            one_of(render_mode, RENDER_MODES, "render_mode")
        self.render_mode = render_mode
        self.encoding = ActionEncoding(self.rules)
        self.encoder = ObservationEncoder()
        n = self.encoding.size
        fields: dict[str, spaces.Space[Any]] = {
            "observation": spaces.Box(-1.0, 1024.0, (OBS_SIZE,), np.float32),
            "legal_actions": spaces.Sequence(spaces.Discrete(n), stack=True),
            "action_features": spaces.Sequence(spaces.Box(0.0, 1024.0, (FEATURES,), np.float32), stack=True),
        }
        if dense_mask:
            fields["action_mask"] = spaces.Box(0, 1, (n,), np.int8)
        self._keys: tuple[str, ...] = DICT_KEYS if dense_mask else DICT_KEYS[:-1]
        self._legal_keys: tuple[str, ...] = LEGAL_KEYS if dense_mask else LEGAL_KEYS[:-1]
        space: spaces.Space[Any] = spaces.Dict(fields)
        if form == "classic":  # the mask is the observation's; the info holds the indices and their rows
            self._keys, self._legal_keys = CLASSIC_KEYS, LEGAL_KEYS[:-1]
            space = spaces.Dict({k: fields[k] for k in CLASSIC_KEYS})
        elif form == "vector":
            space = fields["observation"]
        self._info_keys = () if form == "rich" else self._legal_keys
        """the entries of the acting seat's info (none in the rich form, whose observation holds them)"""
        self.possible_agents = list(AGENT_NAMES)
        self.agents: list[str] = []
        self.observation_spaces: dict[str, spaces.Space[Any]] = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._base_seed: int | None = None
        self._episode = 0
        self.table: Table | None = None
        self._paid = False  # some entry of self.rewards is not 0.0
        self._informed: str | None = None  # the agent whose info holds the legal actions (not the rich form)
        self._decoded = self.encoding.decoded  # the encoding's cache of decoded indices, read at every step

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """PettingZoo's per-agent space; every seat sees the same layout."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """PettingZoo's per-agent space: an index into the legal actions, masked by the observation."""
        return self.action_spaces[agent]

    # -- episodes ------------------------------------------------------------------------------

    def next_seed(self, seed: int | None) -> int:
        """The deal seed of the next episode: derived from the last ``reset(seed=…)``."""
        if seed is not None:
            self._base_seed, self._episode = check_seed(seed, "reset(seed=…)"), 0
        elif self._base_seed is None:
            self._base_seed, self._episode = random.SystemRandom().getrandbits(63), 0
        out = derive(self._base_seed, self._episode)
        self._episode += 1
        return out

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand (or match) from the next seed, so a run of episodes is reproducible from one seed."""
        self.table = Table(self.variant, self.next_seed(seed), self.match, self.hands)
        self.encoder.reset()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._paid = False
        self._informed = None
        self.agent_selection = AGENT_NAMES[self.table.turn]
        self._legal_info()

    def observe(self, agent: str) -> Any:
        """The encoded observation of ``agent``, with its action mask; only what that seat may know."""
        t = self.table
        if t is None:
            raise EnvError("call reset() before observe()")
        seat = SEAT_OF[agent] if agent in SEAT_OF else AGENT_NAMES.index(agent)  # index() raises ValueError
        g = t.game
        if self.vector:
            return self.encoder.encode(g.observation(seat))
        legal = g.legal_actions() if not g.is_over and g.turn == seat else NO_LEGAL
        # observe_table's dict, without its two calls: this runs at every step
        return ObservationDict(self._keys, self.encoding, legal, self.encoder, g.observation(seat))

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last()``, with the acting seat's observation dict made here: this runs at
        every step, and PettingZoo's goes through ``observe`` and its checks."""
        agent = self.agent_selection
        t = self.table
        seat = SEAT_OF.get(agent)
        if not observe:
            obs = None
        elif t is None or seat is None or self.vector:
            obs = self.observe(agent)  # raises what observe raises, or gives the vector
        else:
            g = t.game
            legal = g.legal_actions() if g.turn == seat and not g.is_over else NO_LEGAL
            obs = ObservationDict(self._keys, self.encoding, legal, self.encoder, g.observation(seat))
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def _legal_info(self) -> None:
        """Outside the rich form: the legal indices and features (and, in the vector form with
        ``dense_mask``, the mask) in the acting seat's info, each built when read."""
        t = self.table
        if not self._info_keys or t is None:
            return
        infos, informed = self.infos, self._informed
        if informed is not None and informed in infos:
            infos[informed] = {}
        g = t.game  # not Table's forwarding properties: this runs at every step
        if g.is_over:
            self._informed = None
        else:
            self._informed = informed = AGENT_NAMES[g.turn]
            infos[informed] = ObservationDict(self._info_keys, self.encoding, g.legal_actions())

    def observe_table(self, t: Table, seat: int, acting: bool) -> ObsDict:
        """A seat's observation dict; the legal actions only for the seat to act."""
        g = t.game  # not Table's forwarding properties: this runs at every read of an observation
        return self.encode(g.observation(seat), g.legal_actions() if acting else NO_LEGAL)

    def encode(self, obs: Observation, legal: Legal) -> ObsDict:
        """The observation dict of one seat from its engine Observation and legal actions (each entry
        built when read)."""
        return ObservationDict(self._keys, self.encoding, legal, self.encoder, obs)

    def encode_legal(self, legal: Legal) -> ObsDict:
        """The legal indices, their feature rows and (with ``dense_mask``, outside the classic form) the
        mask, as a dict whose entries are built when read."""
        return ObservationDict(self._legal_keys, self.encoding, legal)

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Apply the acting agent's action (an index into its legal actions) and hand out the rewards at the hand's
        end; an illegal index raises EnvError rather than playing something else."""
        t = self.table
        if t is None:
            raise EnvError("call reset() before step()")
        agent = self.agent_selection
        if agent not in self.terminations:
            raise EnvError("the episode is over: every agent is done; call reset()")
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:  # PettingZoo's rule; its own ValueError does not name the way out
                raise EnvError(f"{agent} is done: the only action it may give is None, not {shown(action)}")
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} must act: give one of its legal_actions", rule="no_action")
        act = self._decoded.get(action) if type(action) is int else None  # an int seen before: the usual
        if act is None:
            act = self.encoding.decode(action_index(action, self.encoding.size))
        g = t.game
        g.apply(act)  # Table.apply, without its call
        delta = NO_CHANGE if t.one_hand and not g.is_over else t.score_change()
        self._cumulative_rewards[agent] = 0.0
        paid = delta != NO_CHANGE
        if paid or self._paid:
            for s, a in enumerate(AGENT_NAMES):
                self.rewards[a] = team_reward(delta, s)
            self._paid = paid
        if g.is_over:
            for a in self.agents:
                self.terminations[a] = True
        else:
            self.agent_selection = AGENT_NAMES[g.turn]
        if self._info_keys:
            self._legal_info()
        if paid:  # adding zeros changes nothing
            self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as text under ``render_mode='ansi'`` (None otherwise), for watching an episode in a terminal."""
        if self.render_mode != "ansi" or self.table is None:
            return None
        t = self.table
        if t.is_over:
            return "over"
        o = t.observation(t.turn)
        table = "-" if o.table is None else f"{o.table} by seat {o.table_owner}"
        return f"seat {o.seat} to {o.mode}; table {table}; {len(t.legal_actions())} legal actions"

    def close(self) -> None:
        """Drop the table; the env holds no other resource."""
        self.table = None


def env(variant: str | Path | Variant = "dagang", **kwargs: Any) -> GoujiEnv:
    """PettingZoo's conventional constructor name."""
    return GoujiEnv(variant, **kwargs)
