"""Full-width punctuation, tabs and expression slips are named where they are, with the fix; text keeps its own."""

from __future__ import annotations

import re

import pytest

from gouji_rules import dsl
from gouji_rules.dsl.schema import generate

COVER_WORDS = re.split(r"[，、；：（]", generate()["properties"]["sets"]["properties"]["beat"]["enumDescriptions"][0])[
    0
]
"""The first Chinese words of sets.beat's first value, cover, as the model gives them (大花盖小花)."""


@pytest.mark.parametrize(
    ("text", "position", "char"),
    [
        ("extends: dagang\nburn:\n  enabled： false\n", (3, 10), "："),
        ("extends: dagang\nsets:\n  beat: ‘cover’\n", (3, 9), "‘"),
        ("extends: dagang\nsets:\n  beat: ＂cover＂\n", (3, 9), "＂"),
        ('extends: dagang\nsets:\n  bare: ["3"，"4"]\n', (3, 13), "，"),
        ('extends: dagang\ngouji:\n  thresholds: {"T"： 6}\n', (3, 19), "："),
        ("extends: dagang\n- burn： x\n", (2, 7), "："),
    ],
)
def test_full_width_punctuation_is_named_at_its_own_line_and_column(
    text: str, position: tuple[int, int], char: str
) -> None:
    errors = dsl.check_text(text, "club.yaml").errors
    assert [(e.line, e.column) for e in errors][:1] == [position]
    assert "full-width" in errors[0].message and repr(char) in errors[0].message
    assert errors[0].hint.startswith("write: ")
    assert not any(ch in errors[0].hint[len("write: ") :] for ch in "：，、［］｛｝“”‘’＂＇")


@pytest.mark.parametrize(
    "written",
    [
        "[头科、二科、三科、四科、二落、大落]",
        "头科，二科，三科，四科，二落，大落",
        "［头科、二科、三科、四科、二落、大落］",
    ],
)
def test_a_list_written_with_chinese_commas_or_brackets_is_the_list_it_means(written: str) -> None:
    result = dsl.check_text(f"extends: dagang\nplaces:\n  names: {written}\n", "club.yaml")
    assert result.errors == [] and result.variant is not None
    assert list(result.variant.places.names) == ["头科", "二科", "三科", "四科", "二落", "大落"]


def test_full_width_punctuation_inside_text_is_the_club_s_own_business() -> None:
    text = (
        "extends: dagang\n"
        "name: 青岛\n"
        "title: “青岛”够级，2024：六人、四副\n"
        "source: 《够级大纲》［第五条］｛附｝\n"
        "places:\n  names: [头科，甲, 二科, 三科, 四科, 二落, 大落]\n"
        "# 注释：全角标点，随便写\n"
    )
    result = dsl.check_text(text, "club.yaml")
    assert result.errors == []
    assert result.variant is not None and result.variant.title == "“青岛”够级，2024：六人、四副"
    assert result.variant.places.names[0] == "头科，甲"


def test_a_tab_in_the_indentation_is_named_with_the_fix() -> None:
    errors = dsl.check_text("extends: dagang\nburn:\n\tenabled: false\n", "club.yaml").errors
    assert [(e.line, e.column, e.message) for e in errors] == [(3, 1, "a tab character: YAML indents with spaces only")]
    assert "spaces" in errors[0].hint


@pytest.mark.parametrize(
    ("expr", "hint"),
    [
        ("count => threshold", "write >= (at least)"),
        ("count =< threshold", "write <= (at most)"),
        ("count = threshold", "comparison is written =="),
        ("rank == T", "a rank is written in quotes: 'T'"),
        ("rank >= SJ", "a rank is written in quotes: 'SJ'"),
        ("rank == k", "a rank is written in quotes: 'K'"),
        ("rank == 10", "a rank is written in quotes: 'T'"),
        ("rank == 7", "a rank is written in quotes: '7'"),
    ],
)
def test_expression_slips_get_the_right_suggestion(expr: str, hint: str) -> None:
    errors = dsl.check_text(f'extends: dagang\nhooks:\n  is_gouji: "{expr}"\n', "club.yaml").errors
    assert len(errors) == 1 and errors[0].hint == hint and errors[0].line == 3


def test_a_context_name_that_looks_like_a_rank_is_still_a_name() -> None:
    v = dsl.load_text('extends: dagang\nhooks:\n  is_gouji: "count >= threshold or sj + bj >= 2"\n')
    assert "is_gouji" in v.hooks


@pytest.mark.parametrize(
    ("text", "position", "hint"),
    [
        ("extends: dagang\nburn:\n  teammate: 否\n", (3, 13), "write false"),
        ("extends: dagang\n烧牌:\n  teammate: false\n", (2, 1), "keys are written in English: 烧牌 is burn"),
        ("extends: dagang\nburn:\n  teammate:false\n", (3, 3), "YAML needs a space after the colon: teammate: false"),
        ('extends: dagang\nsets:\n  bare:\n    -"3"\n', (4, 5), "YAML needs a space after '-': - \"3\""),
        ("extends: dagang\ndeck:\n  packs: 四\n", (3, 10), "write it in digits: 4"),
        ("extends: dagang\ndeck:\n  packs: ４\n", (3, 10), "write it in ASCII digits: 4"),
        ("extends: dagang\nscoring:\n  points: [4, 2, 0, 0, －2, -4]\n", (3, 24), "write it in ASCII digits: -2"),
        ('extends: dagang\ngouji:\n  thresholds: {"k": 3}\n', (3, 16), "did you mean 'K'?"),
        (
            'extends: dagang\nsets:\n  attach_jokers: ["大王"]\n',
            (3, 19),
            "did you mean 'BJ'? (codes are written in English; 大王 is BJ)",
        ),
        (
            f"extends: dagang\nsets:\n  beat: {COVER_WORDS}\n",
            (3, 9),
            f"did you mean 'cover'? (codes are written in English; {COVER_WORDS} is cover)",
        ),
        ("extends: dagang\nhooks:\n  team_score: max（0, sum(points)）\n", (3, 18), "write the ASCII '('"),
        (
            "extends: dagang\nburn:\n\u3000\u3000teammate: false\n",
            (3, 1),
            "switch the input method to half-width and indent with spaces",
        ),
    ],
)
def test_a_new_user_s_mistake_gets_a_hint_that_fixes_it(text: str, position: tuple[int, int], hint: str) -> None:
    errors = dsl.check_text(text, "club.yaml").errors
    assert [(e.line, e.column, e.hint) for e in errors][:1] == [(*position, hint)]


def test_an_ascii_value_is_not_matched_against_the_words_of_a_code() -> None:
    errors = dsl.check_text("extends: dagang\nsets:\n  beat: a\n", "club.yaml").errors
    assert errors[0].hint == ""
