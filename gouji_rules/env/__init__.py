"""Reinforcement-learning and search interfaces: a PettingZoo AEC environment, a Gymnasium
single-seat environment (and ``CandidateEnv``, the same seat for SB3-style clients: a fixed number of
candidate actions, Box spaces only), and the fixed action encoding with per-action features.

The environments need the ``rl`` extra (``pip install 'gouji_rules[rl]'``: pettingzoo, gymnasium);
the encoding and the observation features need numpy only, so they are imported on first use
(the ``learned`` agent reads them without the extra).
docs/research.md shows how to train against it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .aec import AGENT_NAMES, GoujiEnv, Table, env, resolve_variant
    from .candidates import CandidateEnv
    from .encoding import FEATURES, WORDS, ActionEncoding
    from .features import MODES, OBS_SIZE, ObservationEncoder
    from .single import SeatEnv

_WHERE = {
    "AGENT_NAMES": "aec",
    "GoujiEnv": "aec",
    "Table": "aec",
    "env": "aec",
    "resolve_variant": "aec",
    "CandidateEnv": "candidates",
    "FEATURES": "encoding",
    "WORDS": "encoding",
    "ActionEncoding": "encoding",
    "MODES": "features",
    "OBS_SIZE": "features",
    "ObservationEncoder": "features",
    "SeatEnv": "single",
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{where}", __name__), name)


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
