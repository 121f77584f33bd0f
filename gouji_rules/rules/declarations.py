"""Declarations on the point (宣点 / 和点, 明点 / 预点): registered, each with its own fields.

A declaration class in :data:`~gouji_rules.parts.registry.DECLARATIONS` carries its id (the action's
text and the event id), its Chinese and English names, the phase that asks for it, the
``declare`` fields it reads, and is compiled as ``cls(rules, declare_section)`` into ``enabled``
and ``stake`` (the 点贡 cards at stake; None for 和点, which is an agreement, not a bet).

A declaration that declares ``options`` (:mod:`gouji_rules.parts.options`) is played where the variant
names it under ``declare.kinds`` (``declare: {kinds: {baodian: {stake: 3}}}``), and its option
``stake``, if it has one, is its stake.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from ..parts.options import declared
from ..parts.registry import DECLARATIONS

if TYPE_CHECKING:
    from ..parts.sections import DeclareRules
    from . import Rules

T = TypeVar("T", bound=Any)


def register_declaration(cls: type[T]) -> type[T]:
    """Class decorator: make ``cls`` a declaration."""
    DECLARATIONS.register(cls)
    return cls


class Declaration:
    """A bet that one's opposite will not open; ``enabled`` and ``stake`` come from two ``declare`` fields."""

    name = ""
    zh = ""
    en = ""
    phase = ""
    """the match phase that asks for it"""
    reads: tuple[str, ...] = ()

    def __init__(self, rules: Rules, declare: DeclareRules) -> None:
        if declared(type(self)) is None:  # a built-in one: ``declare.<name>`` and ``declare.<name>_stake``
            self.enabled = bool(getattr(declare, self.name, False))
            stake = getattr(declare, f"{self.name}_stake", None)
        else:  # one with options of its own: played where ``declare.kinds`` names it; ``stake`` an option
            self.enabled = rules.names_extension(self)
            stake = rules.extension_options(self).get("stake")
        self.stake: int | None = None if stake is None else int(stake)


@register_declaration
class Xuandian(Declaration):
    """宣点 (S0 四、开点): before play, declare that one's opposite will not open."""

    name = "xuandian"
    zh = "宣点：出牌前宣称对门本局不开点"
    en = "宣点: before play, declare that your opposite will not open"
    phase = "xuandian"
    reads = ("xuandian", "xuandian_stake")


@register_declaration
class Hedian(Declaration):
    """和点 (S0 四、开点): both opposites agree to count each other as opened."""

    name = "hedian"
    zh = "和点：对门两人都同意则互相算开点"
    en = "和点: if both opposites agree, both count as opened"
    phase = "xuandian"
    reads = ("hedian",)


@register_declaration
class Mingdian(Declaration):
    """明点 (S4 第二十二条(三)): after tribute, before the first lead."""

    name = "mingdian"
    zh = "明点：进贡后、首发牌前宣布对头不开点"
    en = "明点: after tribute, before the first lead, declare your opposite will not open"
    phase = "mingdian"
    reads = ("mingdian", "mingdian_stake")


@register_declaration
class Yudian(Declaration):
    """预点 (S4 第二十二条(三)): before the deal."""

    name = "yudian"
    zh = "预点：开牌前宣布对头不开点"
    en = "预点: before the deal, declare your opposite will not open"
    phase = "yudian"
    reads = ("yudian", "yudian_stake")
