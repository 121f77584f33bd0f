"""Edits of a variant file's text in place (``gouji edit``'s save): what a club wrote by hand survives."""

from __future__ import annotations

import pytest

from gouji_rules import dsl
from gouji_rules.catalog import dagang
from gouji_rules.dsl import edit


def edited(text: str, **wanted: str) -> str:
    """``text`` after the controls say ``wanted`` (``section__key="value"``), checked to load."""
    base = dagang()
    current = edit.values(text, "club.yaml", None, base)
    want = dict(current)
    for name, value in wanted.items():
        section, key = name.split("__")
        want[(section, key)] = value
    out = edit.apply(text, edit.changes(want, current, edit.base_values(base), removable=True), "club.yaml")
    dsl.load_text(out, "club.yaml")
    return out


def test_nothing_changed_leaves_the_text_as_it_is() -> None:
    text = "# 注释\nextends: dagang   # 基础\nburn:\n  teammate: false\n"
    assert edited(text) == text


def test_a_value_is_replaced_where_it_stands_with_its_comment() -> None:
    text = 'extends: dagang\nburn:\n  teammate: false  # 不烧队友\n  exempt: ["3"]\n'
    assert edited(text, burn__exempt="[]") == text.replace('exempt: ["3"]', "exempt: []")


def test_a_new_key_goes_after_the_last_of_its_section_and_a_new_section_at_the_end() -> None:
    text = "extends: dagang\nburn:\n  teammate: false\n\n# 记分\nscoring:\n  positive_only: false\n"
    out = edited(text, burn__counter="victim", men__severity="2")
    assert out == (
        "extends: dagang\nburn:\n  teammate: false\n  counter: victim\n\n# 记分\nscoring:\n  positive_only: false\n"
        "men:\n  severity: 2\n"
    )


def test_the_last_option_of_a_section_set_back_to_the_base_takes_the_section_out() -> None:
    text = "extends: dagang\n# 上面\nburn:\n  teammate: false  # x\nmen:\n  severity: 2\n"
    assert edited(text, burn__teammate="true") == "extends: dagang\n# 上面\nmen:\n  severity: 2\n"


def test_a_hook_is_written_plain_quoted_or_as_a_block_as_its_text_needs() -> None:
    text = "extends: dagang\nhooks:\n  may_answer: |\n    is_opposite or\n    no_head\n  # 后面\n"
    assert (
        edited(text, hooks__may_answer="is_opposite")
        == "extends: dagang\nhooks:\n  may_answer: is_opposite\n  # 后面\n"
    )
    out = edited("extends: dagang\n", hooks__may_answer="is_opposite or\nno_head")
    assert out == "extends: dagang\nhooks:\n  may_answer: |-\n    is_opposite or\n    no_head\n"
    assert edited(out, hooks__may_answer="") == "extends: dagang\n"


def test_a_block_map_value_becomes_a_flow_map_after_its_key() -> None:
    text = "extends: dagang\ngouji:\n  thresholds:\n    T: 6\n    J: 4\n  answer: anyone\n"
    out = edited(text, gouji__thresholds='{"T": 7}')
    assert out == 'extends: dagang\ngouji:\n  thresholds: {"T": 7}\n  answer: anyone\n'
    assert dsl.load_text(out, "club.yaml").gouji.thresholds["T"] == 7


@pytest.mark.parametrize(
    ("kind", "typed", "written"),
    [("int", "3", "3"), ("int", "", "null"), ("int", "三", "三"), ("int", "a: b", '"a: b"'), ("text", "a", '"a"')],
)
def test_a_typed_value_reaches_the_validator_as_written_or_quoted_when_it_would_break_the_file(
    kind: str, typed: str, written: str
) -> None:
    assert edit.scalar(typed, kind) == written
