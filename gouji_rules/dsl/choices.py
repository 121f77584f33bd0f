"""Words for coded values: what ``place_bottom``, ``never``, ``cover`` … mean, in Chinese and English.

An enumerated field's values are codes a club types; the schema (for an
editor's completion and hover) and ``gouji explain`` show them as words.  The
words come first from the field's own ``metadata["choices"]`` (``{value: (zh,
en)}``, or a callable returning it, filled from a registry); this table is
the fallback for fields that do not carry them yet, keyed by ``section.field``.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from typing import Any

Words = tuple[str, str]

FALLBACK: dict[str, dict[str, Words]] = {
    "deck.uneven": {
        "first_seats_more": ("先摸牌的人多一张", "the first drawers get one card more"),
        "error": ("报错（牌必须能平分）", "an error (the deck must divide evenly)"),
    },
    "table.direction": {
        "ccw": ("反时针出牌（大纲第四条(五)）", "counter-clockwise (S4 第四条(五))"),
        "cw": ("顺时针出牌", "clockwise"),
    },
    "sets.beat": {
        "cover": (
            "大花盖小花，核心点数更大（大纲）",
            "a bigger joker covers a smaller one, core rank strictly higher (S4)",
        ),
        "kill_table": ("按杀牌表：二杀一、三杀一", "by the kill table: two kill one, three kill one"),
        "card_by_card": ("逐张比大", "card by card, each card higher"),
    },
    "gouji.answer": {
        "opposite": ("只有对头能管（烧牌、无头除外）", "only the opposite (besides burns and 无头)"),
        "anyone": ("谁都能管", "any player"),
    },
    "play.pass_reentry": {
        "never": ("过牌后本轮不能再出", "a player who passed may not play again in the round"),
        "opposite_set": ("过牌后只能管对头的牌", "a player who passed may play again only on the opposite's set"),
    },
    "play.first_leader": {
        "random": ("随机", "at random"),
        "seat0": ("0号座位", "seat 0"),
    },
    "free_for_all.starts": {
        "immediately": ("立即开始", "at once"),
        "next_trick": (
            "二科的底牌这一轮打完后开始（大纲第九条）",
            "after the round of the set that triggered it (S4 第九条)",
        ),
    },
    "jiefeng.policy": {
        "next_seat": ("走的人的下家接风", "the next seat after the player who went out"),
        "next_teammate": ("走的人的队友先接风", "the teammate of the player who went out first"),
        "by_consent": ("下家申请接风，其余人同意才行（大纲）", "the next seat asks and the others must agree (S4)"),
    },
    "burn.priority": {
        "own_team_first": ("发够级牌者的联邦优先", "the 够级 player's own team first"),
        "play_order": ("按出牌顺序", "in order of play"),
    },
    "burn.counter": {
        "anyone": ("谁都可以反烧", "anyone may counter-burn"),
        "victim": ("只有被烧者可以反烧", "only the burned player may counter-burn"),
        "none": ("不许反烧", "no counter-burn"),
    },
    "men.penalty": {
        "place_bottom": ("被闷当即判为最后（点烧闷拉）", "the player is ranked last at once (S0)"),
        "tribute_only": (
            "继续打，只进清贡，不影响名次",
            "play goes on; the player only owes 清贡, his place is unaffected",
        ),
        "bottom_plays_on": (
            "先清为落：从最后排名，但继续出牌（大纲第十五条）",
            "placed from the bottom (先清为落) but plays on (S4 第十五条)",
        ),
    },
    "buy.four": {
        "optional": ("没有4的人可以选择买一张", "a player without a 4 may buy one"),
        "never": ("不能买4", "4s are never bought"),
    },
    "buy.sellers": {
        "opposite": ("对头", "the opposite"),
        "team": ("自己联邦（白给）", "one's own team (free)"),
        "opposite_team": ("对头的联邦", "the opposite's team"),
    },
    "buy.no_three": {
        "last": ("买不到3算大落", "no 3 after buying: ranked last"),
        "none": ("照常", "nothing happens"),
    },
    "tribute.order": {
        "point": ("点贡", "点贡 (point tribute)"),
        "burn": ("烧贡", "烧贡 (burn tribute)"),
        "men": ("清贡（闷贡）", "清贡 / 闷贡"),
        "place": ("落贡（拉贡）", "落贡 / 拉贡 (place tribute)"),
    },
    "tribute.returned": {
        "point": ("点贡", "点贡 (point tribute)"),
        "burn": ("烧贡", "烧贡 (burn tribute)"),
        "men": ("清贡（闷贡）", "清贡 / 闷贡"),
        "place": ("落贡（拉贡）", "落贡 / 拉贡 (place tribute)"),
        "sweep": ("串三户的贡", "the tribute after a sweep"),
    },
    "tribute.point_when_neither": {
        "none": ("都不进贡", "nobody pays"),
        "both": ("互相进贡", "both pay"),
    },
    "tribute.sweep": {
        "opposite": ("被串的每人向对头进1张", "each swept player pays one card to his opposite"),
        "place": ("照常进落贡", "the usual place tribute"),
    },
    "match.kaipai": {
        "count": (
            "开牌人抽牌按点数数到首取牌人（大纲第二条）",
            "count from the 开牌人 by a drawn card's value (S4 第二条)",
        ),
        "random": ("随机", "at random"),
    },
    "match.first_leader": {
        "random": ("随机", "at random"),
        "shangban": ("上班：先亮两张同花4者首发", "上班: the first to show two same-suit 4s leads"),
    },
    "match.next_leader": {
        "last_place": ("上局大落（拉客）先出", "last hand's last place (大落/拉客)"),
        "winner": ("上局头科先出", "last hand's first place"),
    },
    "match.choose_last": {
        "none": ("不能商定", "nobody may"),
        "losing_pair": (
            "大落二落同一方时自行商定（大纲第十四条(六)）",
            "大落 and 二落 of one team agree (S4 第十四条(六))",
        ),
        "swept_team": ("被串三户的一方决定谁是拉客（点烧闷拉）", "the swept team names its 拉客 (S0)"),
    },
}
FALLBACK["tribute.waivable"] = FALLBACK["tribute.returned"]


def literal_values(tp: Any) -> tuple[str, ...]:
    """The values of a ``Literal[...]`` type, of ``list[Literal[...]]`` or ``Literal | None``; else ()."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Literal:
        return tuple(str(a) for a in args)
    if origin is list or (args and type(None) in args):
        for a in args:
            found = literal_values(a)
            if found:
                return found
    return ()


def field_choices(section: str, f: dataclasses.Field[Any], tp: Any) -> dict[str, Words]:
    """Every value an enumerated field takes, with its words; {} for a field that is not enumerated."""
    given: Any = f.metadata.get("choices")
    if callable(given):
        given = given()
    if isinstance(given, Mapping) and given:
        return {str(k): _words(v) for k, v in given.items()}
    values = literal_values(tp)
    table = FALLBACK.get(f"{section}.{f.name}", {})
    return {v: table.get(v, (v, v)) for v in values}


def _words(v: Any) -> Words:
    if isinstance(v, (tuple, list)) and len(v) == 2:
        return str(v[0]), str(v[1])
    return str(v), str(v)


def choice_words(choices: Mapping[str, Words], value: str, lang: str) -> str:
    """A value in words (zh or en), or the value itself when it has none."""
    words = choices.get(value)
    if words is None:
        return value
    return words[0] if lang == "zh" else words[1]
