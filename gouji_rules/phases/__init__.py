"""The phases of a match around each hand, one module per phase, registered in order.

Before each hand (S0 十、冲点, last paragraph: 摸牌 → 扛贡 → 宣点/和点 → 买3买4 → 进贡 → 冲点 → 正常游戏; S4: 预点
before 开牌, 买4 before 进贡 (第十条), 明点 after 进贡 and before the first lead (第二十二条(三))):

    yudian → [deal] → kang → xuandian → geming → buy → tribute → buy_check → chongdian → mingdian → [play]

and after it: ``choose_last``.  Each phase is a class in :data:`~gouji_rules.parts.registry.PHASES`
with ``name``, ``zh``, ``en``, ``stage`` (``before_deal``, ``before_play`` or ``after_play``),
``order`` (its place within the stage: a number, so a new phase goes between two others),
``enabled(rules)`` and ``run(match, prep)``: a generator that yields each
:class:`~gouji_rules.phases.base.Decision` and receives the chosen action, and returns False
when the deal is void (革命 by too many, 冲点 by too many) and must be redealt.  A phase is on only
where the variant has it, so both texts' orders come out of one list.
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import Decision, DecisionKind, HandPrep, Phase, SetupDraft, phases_of, register_phase

for _module in pkgutil.iter_modules(__path__):  # importing registers a phase: a new module needs no line here
    importlib.import_module(f"{__name__}.{_module.name}")

__all__ = [
    "Decision",
    "DecisionKind",
    "HandPrep",
    "Phase",
    "SetupDraft",
    "phases_of",
    "register_phase",
]
