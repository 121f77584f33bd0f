"""gouji_rules: the reference engine for 够级 (Gouji) and its variants.

The public API, in one import::

    from gouji_rules import Hand, Match, Agent, Rules, Variant, load_variant, settle, HandResult, make_agent

See docs/api.md (its examples are run as doctests).
"""

from .actions import Action, Burn, Choose, Consent, Declare, Give, Head, Jiefeng, Kou, Pass, Play, Yield, parse_action
from .agents import Agent, GreedyAgent, RandomAgent, make_agent
from .beat import BeatStrategy, register_beat
from .cards import CardSet, Rank, format_hand, format_set, parse_hand, parse_set
from .catalog import resolve as load_variant
from .engine import Hand, HandSetup, Mode, Observation, Point
from .errors import GoujiError, IllegalAction, NotationError, PositionError, UnknownVariant, VariantError
from .events import Event
from .legal import Legal
from .match import HandSummary, Match, play_match
from .registry import BEAT_STRATEGIES, DECLARATIONS, PHASES, TRIBUTE_KINDS
from .rules import Rules
from .settle import Debt, HandResult, Settlement, settle
from .sim import play_hand, simulate
from .tributes import TributeKind, register_tribute
from .variant import Variant, dagang, dianshaomenla

__version__ = "0.1.0"

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
