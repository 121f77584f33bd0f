"""A clause cited by the name of its rule text, for anything a club reads.

The code, the variant files and the glossary cite the two seed texts by their short codes: S0 is
《点烧闷拉够级规则明细》 and S4 the 《够级大纲》 (its copy 《够级规则》 in seeds/, see GLOSSARY.md).
A club secretary does not know the codes: "S4 第十五条" says nothing, 《够级大纲》第十五条 does.
"""

from __future__ import annotations

import re

NAMES = {"S0": "《点烧闷拉够级规则明细》", "S4": "《够级大纲》"}
"""The rule texts by code, as a club names them."""

_WITH_TITLE = re.compile(r"\b(S0|S4)\s*《[^》]*》(?:\s*[(（]够级大纲[)）])?")
_OPENING = re.compile(r"\bS0 opening\b")
_CODE = re.compile(r"\b(S0|S4)\b\s*")


def cite(text: str) -> str:
    """``text`` with every S0 / S4 written as the rule text's name (``S4 第十五条`` → 《够级大纲》第十五条)."""
    text = _WITH_TITLE.sub(lambda m: NAMES[m[1]], text)
    text = _OPENING.sub(NAMES["S0"] + "开头几段", text)
    return _CODE.sub(lambda m: NAMES[m[1]], text)
