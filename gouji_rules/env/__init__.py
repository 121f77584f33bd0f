"""Reinforcement-learning and search interfaces: a PettingZoo AEC environment, a Gymnasium
single-seat environment, and the fixed action encoding with per-action features.

Needs the ``rl`` extra (``pip install 'gouji_rules[rl]'``: pettingzoo, gymnasium, numpy).
docs/research.md shows how to train against it.
"""

from .aec import AGENT_NAMES, GoujiEnv, Table, env, resolve_variant
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
    "GoujiEnv",
    "ObservationEncoder",
    "SeatEnv",
    "Table",
    "env",
    "resolve_variant",
]
