"""Texts a club reads cite a clause by the rule text's name, not by S0 / S4 (issue 34 item 6)."""

from __future__ import annotations

from click.testing import CliRunner

from gouji_rules.cli import main
from gouji_rules.dsl.cite import cite


def test_codes_become_the_rule_texts_names() -> None:
    assert cite("S0 六、闷与被闷, S4 第十五条") == "《点烧闷拉够级规则明细》六、闷与被闷, 《够级大纲》第十五条"
    assert cite("S4 《够级规则》(够级大纲)") == "《够级大纲》"
    assert cite("S0 opening") == "《点烧闷拉够级规则明细》开头几段"
    assert cite("PS4 第一条") == "PS4 第一条"


def test_the_rule_sheet_names_its_source() -> None:
    zh = CliRunner().invoke(main, ["explain", "dagang"]).output
    assert "出处：《够级大纲》" in zh and "S4" not in zh
    s0 = CliRunner().invoke(main, ["explain", "dianshaomenla"]).output
    assert "《点烧闷拉够级规则明细》" in s0 and "S0" not in s0
