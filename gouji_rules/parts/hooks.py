"""The expression hooks, each described once: what it asks, the names it may read, what it
decides instead of the parameters, and the 够级大纲's default written as an expression.

A hook lets a club write one rule as an expression (docs/variants.md, "Hooks").  Everything
about a hook is in its :class:`HookSpec` here: the checker types an expression against
``names`` and ``result`` (``dsl.expr``), the JSON Schema and ``gouji explain`` take their words
from it, ``validate`` warns about the parameters it ``decides``, ``gouji bench`` plays
``expression`` against the parameters, docs/variants.md's list of hooks is printed from it
(:func:`markdown`), and the :class:`~gouji_rules.rules.Rules` method named ``asked_by`` hands
the expression exactly these names (tests/dsl/test_hook_table.py holds each to that).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class HookSpec:
    """One expression hook.

    ``names`` maps each name of the hook's context to its type (``int``, ``bool``, ``rank``: a
    rank index that expressions write as a rank literal, or ``list[int]``) and ``result`` is the
    type it gives; ``zh`` / ``en`` say what it asks.  ``asked_by`` is the ``Rules`` method that
    runs it; ``default`` says (zh, en) what that method answers without it.  ``section`` is where
    the rule sheet shows it; ``decides`` the ``section.field`` parameters it answers for instead;
    ``via`` the context names through which a parameter's value still reaches the expression;
    ``partly`` the parameters it decides in part, with (zh, en) words for what they still do.
    ``expression`` is the default under ``dagang`` written as an expression: the same game.
    """

    names: Mapping[str, str]
    result: str
    zh: str
    en: str
    asked_by: str
    default: tuple[str, str]
    section: str
    expression: str
    decides: tuple[str, ...] = ()
    via: Mapping[str, str | tuple[str, ...]] = field(default_factory=dict)
    partly: Mapping[str, tuple[str, str]] = field(default_factory=dict)


SET_CONTEXT = {
    "rank": "rank",
    "count": "int",
    "twos": "int",
    "sj": "int",
    "bj": "int",
    "top": "int",
    "size": "int",
    "jokers": "int",
    "threshold": "int",
}
"""The names an ``is_gouji`` expression sees for one set."""


def _beat_context() -> dict[str, str]:
    """The names a ``beats`` expression sees: the played set's (as for ``is_gouji``, and each kind's
    cards core included: ``all_twos`` …), the same with ``table_`` for the table set, and ``default``."""
    one = {k: v for k, v in SET_CONTEXT.items() if k != "threshold"}
    one.update({"all_twos": "int", "all_sj": "int", "all_bj": "int", "all_top": "int", "plain": "int"})
    return {**one, **{"table_" + k: v for k, v in one.items()}, "default": "bool"}


BEAT_CONTEXT = _beat_context()

HOOKS: dict[str, HookSpec] = {
    "is_gouji": HookSpec(
        SET_CONTEXT,
        "bool",
        "这套牌是不是够级牌",
        "is this set 够级 (threshold is 0 when the rank has none)",
        "is_gouji",
        (
            "够 gouji.thresholds 的张数（gouji.twos_count 时带的2也算），gouji.joker_sets 时带王的也算",
            "as many cards as gouji.thresholds (attached 2s too under gouji.twos_count), any joker under gouji.joker_sets",
        ),
        "gouji",
        "jokers > 0 or rank >= 'SJ' or (threshold > 0 and count + twos >= threshold)",
        ("gouji.thresholds", "gouji.joker_sets", "gouji.twos_count"),
        {"threshold": "gouji.thresholds"},
    ),
    "is_pure_gouji": HookSpec(
        {**SET_CONTEXT, "gouji": "bool"},
        "bool",
        "这套牌是不是纯够级牌（能开点）",
        "is this set pure 够级 (may open the point)",
        "is_pure_gouji",
        (
            "够级、不带王不带2、不是单张（gouji.pure_twos 为否时2不算）",
            "够级 with no joker, no attached 2, not a single (no 2s unless gouji.pure_twos)",
        ),
        "gouji",
        "gouji and jokers == 0 and twos == 0 and size > 1",
        ("gouji.pure_twos",),
    ),
    "may_answer": HookSpec(
        {
            "is_opposite": "bool",
            "is_teammate": "bool",
            "no_head": "bool",
            "owner_no_head": "bool",
            "free_for_all": "bool",
        },
        "bool",
        "这个人能不能不烧牌直接管这套够级牌",
        "may this seat answer a 够级 set without burning",
        "may_answer",
        (
            "对头能管；四人乱缠、出牌人无头时谁都能管；play.no_head 时无头的人也能管（gouji.answer 为 anyone 时谁都能管）",
            "the opposite may; anyone in 四人乱缠 or when the owner is 无头; a 无头 seat under play.no_head"
            " (anyone where gouji.answer is anyone)",
        ),
        "gouji",
        "free_for_all or owner_no_head or is_opposite or no_head",
        ("gouji.answer", "play.no_head"),
        {"no_head": "play.no_head", "owner_no_head": "play.no_head"},
    ),
    "team_score": HookSpec(
        {"points": "list[int]", "places": "list[int]", "sweep": "bool"},
        "int",
        "一方的本局得分（points 为三人的名次分，places 为三人的名次）",
        "a team's score for the hand from its players' place points and places",
        "team_scores",
        (
            "三人的名次分相加（scoring.positive_only 时不低于0）",
            "the sum of its players' place points (at least 0 under scoring.positive_only)",
        ),
        "scoring",
        "max(0, sum(points))",
        ("scoring.positive_only",),
    ),
    "geming_eligible": HookSpec(
        {"twos": "int", "sj": "int", "bj": "int", "top": "int", "aces": "int", "cards": "int"},
        "bool",
        "能不能革命（大纲第二十一条：没有大花、小花、钱）",
        "may this player declare 革命 (counts are of the dealt hand)",
        "geming_eligible",
        ("手里没有2和王", "no 2 and no joker in the hand"),
        "geming",
        "twos + sj + bj + top == 0",
    ),
    "chongdian_eligible": HookSpec(
        {"max_rank": "rank", "pure_sets": "int", "twos": "int", "jokers": "int"},
        "bool",
        "能不能冲点（点烧闷拉 十、冲点：没有大于A的牌，至少3套纯够级牌）",
        "may this player 冲点",
        "chongdian_eligible",
        (
            "没有大于 chongdian.max_rank 的牌，至少 chongdian.sets 套纯够级牌",
            "nothing above chongdian.max_rank and at least chongdian.sets pure 够级 sets",
        ),
        "chongdian",
        "max_rank <= 'A' and pure_sets >= 3",
        ("chongdian.max_rank",),
        partly={
            "chongdian.sets": (
                "谁能冲点由表达式决定；冲点者仍要打出这么多套",
                "the expression decides who may; a 冲点 player still plays this many sets",
            )
        },
    ),
    "kang_self": HookSpec(
        {"sj": "int", "bj": "int"},
        "bool",
        "能不能扛自己的贡（四小扛自己）",
        "is this player exempt from paying tribute",
        "kang",
        ("小王或大王有 kang.small 张", "kang.small 小王 or 大王"),
        "kang",
        "sj >= 4",
        partly={
            "kang.small": (
                "小王扛不扛由表达式决定；这么多张大王仍扛自己的贡",
                "the expression decides for 小王; this many 大王 still exempt the holder",
            )
        },
    ),
    "kang_team": HookSpec(
        {"sj": "int", "bj": "int"},
        "bool",
        "能不能扛全队的贡（四大扛全场）",
        "is this player's whole team exempt",
        "kang",
        ("大王有 kang.big 张", "kang.big 大王"),
        "kang",
        "bj >= 4",
        ("kang.big",),
    ),
    "tribute_card": HookSpec(
        {"counts": "list[int]", "kept": "list[int]"},
        "rank",
        "进贡交哪张牌（counts 为各点数张数，kept 为不能进的张数）；返回点数，-1 表示没有可进的牌",
        "which rank to pay as tribute from the payer's counts by rank; -1 when nothing qualifies",
        "tribute_rank",
        (
            "tribute.cards 里手上有的最大的（tribute.kept_excluded 时本局进来的不算）",
            "the largest of tribute.cards in the hand (not those gained this hand under tribute.kept_excluded)",
        ),
        "tribute",
        "'Y' if counts['Y'] > 0 else 'BJ' if counts['BJ'] > 0 else 'SJ' if counts['SJ'] > 0 else '2'",
        ("tribute.cards", "tribute.kept_excluded"),
    ),
    "sweep_multiplier": HookSpec(
        {"sweep": "bool"},
        "int",
        "串三户时的得分倍数",
        "the score multiplier (sweep is true for 串三户)",
        "sweep_multiplier",
        ("串三户时 scoring.sweep_multiplier，否则1", "scoring.sweep_multiplier for 串三户, else 1"),
        "scoring",
        "2 if sweep else 1",
        ("scoring.sweep_multiplier",),
    ),
    "beats": HookSpec(
        BEAT_CONTEXT,
        "bool",
        "出的这套牌管不管得住桌上那套（table_ 开头的是桌上那套；default 为 sets.beat 的答案）",
        "does the played set beat the table set (table_… names are the table set's; default is sets.beat's answer)",
        "HookBeat.beats",
        ("sets.beat 所指的规则（和 sets.dead、sets.kill）", "the strategy sets.beat names (with sets.dead, sets.kill)"),
        "sets",
        "size == table_size and rank > table_rank and table_all_bj == 0 and (table_jokers == 0"
        " or (table_all_top == 0 and all_top >= table_all_bj and all_bj + all_top >= table_all_sj + table_all_bj))",
        ("sets.beat", "sets.dead", "sets.kill"),
        {"default": ("sets.beat", "sets.dead", "sets.kill")},
    ),
}
"""Every expression hook by name, in the order the docs list them."""


def _names_table(spec: HookSpec) -> list[str]:
    """The context as a markdown table; a played-set name and its ``table_`` twin share a row."""
    rows = []
    for name, kind in spec.names.items():
        if name.startswith("table_") and name[6:] in spec.names:
            continue
        twin = "table_" + name
        shown = f"`{name}`, `{twin}`" if twin in spec.names else f"`{name}`"
        rows.append(f"| {shown} | `{kind}` |")
    return ["| name | type |", "|---|---|", *rows]


def markdown() -> str:
    """docs/variants.md's list of hooks, as printed from :data:`HOOKS` (a test holds the page to it)."""
    out: list[str] = []
    for name, spec in HOOKS.items():
        asker = spec.asked_by if "." in spec.asked_by else f"Rules.{spec.asked_by}"
        decides = ", ".join(f"`{f}`" for f in (*spec.decides, *spec.partly)) or "no parameter (the rule has none)"
        out += [
            f"### `{name}` → `{spec.result}`",
            "",
            f"{spec.zh} / {spec.en}",
            "",
            f"* asked by `{asker}`; without it: {spec.default[1]} ({spec.default[0]})",
            f"* decides instead of: {decides}"
            + (" (in part: " + ", ".join(f"`{f}`" for f in spec.partly) + ")" if spec.partly else ""),
            f"* 够级大纲's default as an expression: `{spec.expression}`",
            "",
            *_names_table(spec),
            "",
        ]
    return "\n".join(out)


def main() -> None:
    """``python -m gouji_rules.parts.hooks`` (and the old path's): print docs/variants.md's list of hooks."""
    print(markdown(), end="")


if __name__ == "__main__":
    main()
