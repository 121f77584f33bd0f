"""Reinforcement-learning and search interfaces: a PettingZoo AEC environment, a Gymnasium
single-seat environment (and ``CandidateEnv``, the same seat for SB3-style clients: a fixed number of
candidate actions, Box spaces only), and the fixed action encoding with per-action features.

Needs the ``rl`` extra (``pip install 'gouji_rules[rl]'``: pettingzoo, gymnasium, numpy).
docs/research.md shows how to train against it.
"""

from .aec import AGENT_NAMES, GoujiEnv, Table, env, resolve_variant
from .candidates import CandidateEnv
from .encoding import FEATURES, WORDS, ActionEncoding
from .features import MODES, OBS_SIZE, ObservationEncoder
from .single import SeatEnv

__all__ = [
    "AGENT_NAMES",
    "FEATURES",
    "MODES",
    "OBS_SIZE",
    "WORDS",
    "ActionEncoding",
    "CandidateEnv",
    "GoujiEnv",
    "ObservationEncoder",
    "SeatEnv",
    "Table",
    "env",
    "resolve_variant",
]
