"""gouji_rules: the reference engine for 够级 (Gouji) and its variants."""

from .actions import Action, Burn, Consent, Jiefeng, Kou, Pass, Play, Yield, parse_action
from .cards import CardSet, Rank, format_hand, format_set, parse_hand, parse_set
from .engine import Hand, Observation
from .errors import GoujiError, IllegalAction, NotationError, UnknownVariant, VariantError
from .variant import Variant, dagang, dianshaomenla

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Burn",
    "CardSet",
    "Consent",
    "GoujiError",
    "Hand",
    "IllegalAction",
    "Jiefeng",
    "Kou",
    "NotationError",
    "Observation",
    "Pass",
    "Play",
    "Rank",
    "UnknownVariant",
    "Variant",
    "VariantError",
    "Yield",
    "dagang",
    "dianshaomenla",
    "format_hand",
    "format_set",
    "parse_action",
    "parse_hand",
    "parse_set",
]
