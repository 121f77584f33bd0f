"""gouji_rules: the reference engine for 够级 (Gouji) and its variants.

The public API, in one import::

    from gouji_rules import Hand, Match, Agent, Rules, Variant, load_variant, settle, HandResult, make_agent

See docs/api.md (its examples are run as doctests).

The names are imported on first use (PEP 562), so that ``gouji validate`` and the other
commands that need only the variant-file modules start without loading the engine.  The first
name read imports every module of the API at once, as an eager ``__init__`` would.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .catalog import dagang, dianshaomenla
    from .catalog import resolve as load_variant
    from .errors import GoujiError, IllegalAction, NotationError, PositionError, UnknownVariant, VariantError
    from .game.actions import (
        Action,
        Burn,
        Choose,
        Consent,
        Declare,
        Give,
        Head,
        Jiefeng,
        Kou,
        Pass,
        Play,
        Yield,
        parse_action,
    )
    from .game.cards import CardSet, Rank, format_hand, format_set, parse_hand, parse_set
    from .game.events import Event
    from .game.legal import Legal
    from .parts.registry import BEAT_STRATEGIES, DECLARATIONS, PHASES, TRIBUTE_KINDS
    from .play.agents import Agent, GreedyAgent, RandomAgent, make_agent
    from .play.engine import Hand, HandSetup, Mode, Point
    from .play.match import HandSummary, Match, play_match
    from .play.observe import Observation
    from .rules import Rules
    from .rules.beat import BeatStrategy, register_beat
    from .rules.settlement import Debt, HandResult, Settlement, settle
    from .rules.tributes import TributeKind, register_tribute
    from .sim import play_hand, simulate
    from .variant import Variant

__version__ = "0.1.0"

_MODULES: dict[str, tuple[str, ...]] = {
    "game.actions": (
        "Action",
        "Burn",
        "Choose",
        "Consent",
        "Declare",
        "Give",
        "Head",
        "Jiefeng",
        "Kou",
        "Pass",
        "Play",
        "Yield",
        "parse_action",
    ),
    "play.agents": ("Agent", "GreedyAgent", "RandomAgent", "make_agent"),
    "rules.beat": ("BeatStrategy", "register_beat"),
    "game.cards": ("CardSet", "Rank", "format_hand", "format_set", "parse_hand", "parse_set"),
    "catalog": ("load_variant", "dagang", "dianshaomenla"),
    "play.engine": ("Hand", "HandSetup", "Mode", "Point"),
    "errors": ("GoujiError", "IllegalAction", "NotationError", "PositionError", "UnknownVariant", "VariantError"),
    "game.events": ("Event",),
    "game.legal": ("Legal",),
    "play.match": ("HandSummary", "Match", "play_match"),
    "play.observe": ("Observation",),
    "parts.registry": ("BEAT_STRATEGIES", "DECLARATIONS", "PHASES", "TRIBUTE_KINDS"),
    "rules": ("Rules",),
    "rules.settlement": ("Debt", "HandResult", "Settlement", "settle"),
    "sim": ("play_hand", "simulate"),
    "rules.tributes": ("TributeKind", "register_tribute"),
    "variant": ("Variant",),
}
"""The modules of the public API, in the order an eager ``__init__`` imported them, and their names."""
_RENAMED = {"load_variant": "resolve"}
"""Public names that a module defines under another name."""

__all__ = [
    "BEAT_STRATEGIES",
    "DECLARATIONS",
    "PHASES",
    "TRIBUTE_KINDS",
    "Action",
    "Agent",
    "BeatStrategy",
    "Burn",
    "CardSet",
    "Choose",
    "Consent",
    "Debt",
    "Declare",
    "Event",
    "Give",
    "GoujiError",
    "GreedyAgent",
    "Hand",
    "HandResult",
    "HandSetup",
    "HandSummary",
    "Head",
    "IllegalAction",
    "Jiefeng",
    "Kou",
    "Legal",
    "Match",
    "Mode",
    "NotationError",
    "Observation",
    "Pass",
    "Play",
    "Point",
    "PositionError",
    "RandomAgent",
    "Rank",
    "Rules",
    "Settlement",
    "TributeKind",
    "UnknownVariant",
    "Variant",
    "VariantError",
    "Yield",
    "dagang",
    "dianshaomenla",
    "format_hand",
    "format_set",
    "load_variant",
    "make_agent",
    "parse_action",
    "parse_hand",
    "parse_set",
    "play_hand",
    "play_match",
    "register_beat",
    "register_tribute",
    "settle",
    "simulate",
]


def __getattr__(name: str) -> Any:
    """A public name, imported on first use together with every other (as an eager import would)."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    for module, names in _MODULES.items():
        mod = importlib.import_module(f".{module}", __name__)
        for public in names:
            globals()[public] = getattr(mod, _RENAMED.get(public, public))
    return globals()[name]


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
