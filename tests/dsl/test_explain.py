"""``gouji explain`` tells the truth about hooks, shows values as words and numbers its sections one way."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from gouji_rules import dsl
from gouji_rules.cli import main
from gouji_rules.dsl.choices import field_choices
from gouji_rules.dsl.explain import explain, zh_numeral
from gouji_rules.variant import SECTIONS

TEN_NEEDS_SIX = (
    "extends: dagang\nname: 青岛\n"
    "hooks:\n  is_gouji: \"count >= 6 if rank == 'T' else count >= threshold and threshold > 0\"\n"
)


def _section(sheet: str, key: str) -> str:
    """The lines of section ``key``: found by its number (the sheet prints no section codes)."""
    number = [k for k, _ in SECTIONS].index(key) + 1
    m = re.search(rf"^★?({zh_numeral(number)}、|{number}\. )", sheet, re.M)
    assert m is not None, key
    end = sheet.find("\n\n", m.start())
    return sheet[m.start() : end if end >= 0 else len(sheet)]


def test_a_rule_a_hook_decides_says_so_with_the_expression_and_not_the_overridden_parameter() -> None:
    v = dsl.load_text(TEN_NEEDS_SIX)
    gouji = _section(explain(v), "gouji")
    assert "10×5" not in gouji
    assert "10×6" in gouji and "J×4" in gouji and "由表达式决定" in gouji
    assert "hooks.is_gouji" in gouji and "count >= 6 if rank == 'T'" in gouji
    assert "挂王的牌也算够级牌：由表达式决定（见第6条），此参数不起作用" in gouji
    en = _section(explain(v, "en"), "gouji")
    assert "10×5" not in en and "10×6" in en and "decided by an expression" in en and "has no effect" in en


def test_every_hook_is_shown_in_the_section_of_the_rule_it_decides() -> None:
    text = (
        "extends: dagang\nhooks:\n"
        '  kang_self: "sj >= 3"\n'
        '  kang_team: "bj >= 3"\n'
        '  team_score: "sum(points)"\n'
        '  geming_eligible: "twos + sj + bj + top == 0 and aces <= 1"\n'
    )
    sheet = explain(dsl.load_text(text))
    kang = _section(sheet, "kang")
    assert "几个小王扛自己的贡（四小扛自己）：4（小王扛不扛由表达式决定；这么多张大王仍扛自己的贡，见第4条）" in kang
    assert "4. 按表达式：能不能扛自己的贡（四小扛自己）（hooks.kang_self）：sj >= 3" in kang
    big = next(line for line in kang.splitlines() if "几个大王" in line)
    assert big.endswith("由表达式决定（见第5条），此参数不起作用。")
    assert "只记正分，不记负分（大纲第十九条）：由表达式决定" in _section(sheet, "scoring")
    assert "aces <= 1" in _section(sheet, "geming")
    assert "用表达式写的其他规则" not in sheet


def _words(section: str, name: str, value: str) -> tuple[str, str]:
    """The words the model gives a coded value (the field's own choices)."""
    import dataclasses
    import typing

    cls = dict(SECTIONS)[section]
    f = next(f for f in dataclasses.fields(cls) if f.name == name)
    return field_choices(f, typing.get_type_hints(cls)[name])[value]


def test_values_are_words_not_codes() -> None:
    zh = explain(dsl.load_shipped("dianshaomenla"))
    en = explain(dsl.load_shipped("dianshaomenla"), "en")
    men = _section(zh, "men")
    penalty = _words("men", "penalty", "place_bottom")
    assert f"：{penalty[0]}。" in men and f": {penalty[1]}." in _section(en, "men")
    assert not re.search(r"：(place_bottom|never|cover|next_seat|tribute_only)。", zh)
    assert f"：{_words('play', 'pass_reentry', 'never')[0]}。" in _section(zh, "play")


def test_sections_are_numbered_in_chinese_numerals_throughout() -> None:
    sheet = explain(dsl.load_text(TEN_NEEDS_SIX))
    heads = [line.split("、", 1)[0] for line in sheet.splitlines() if re.match(r"^\S+、", line)]
    assert heads == [zh_numeral(i) for i in range(1, len(SECTIONS) + 1)]
    assert zh_numeral(11) == "十一" and zh_numeral(19) == "十九" and zh_numeral(20) == "二十"
    assert not re.search(r"^\d+、", sheet, re.M)


def test_cli_explain_prints_the_hook_truth_in_both_languages(tmp_path: Path) -> None:
    club = tmp_path / "club.yaml"
    club.write_text(TEN_NEEDS_SIX, encoding="utf-8")
    zh = CliRunner().invoke(main, ["explain", str(club)])
    en = CliRunner().invoke(main, ["explain", str(club), "--lang", "en"])
    assert zh.exit_code == en.exit_code == 0
    assert "10×6" in zh.stdout and "10×5" not in zh.stdout
    assert "By expression" in en.stdout and "10×5" not in en.stdout


def test_a_line_does_not_spell_out_the_codes_its_value_is_printed_in_words() -> None:
    v = dsl.load_text("extends: dagang\nsets:\n  beat: card_by_card\n")
    zh, en = _section(explain(v), "sets"), _section(explain(v, "en"), "sets")
    beat = _words("sets", "beat", "card_by_card")
    line = next(x for x in zh.splitlines() if x.endswith(f"：{beat[0]}。"))
    assert "cover" not in line and "kill_table" not in line
    line = next(x for x in en.splitlines() if x.endswith(f": {beat[1]}."))
    assert "kill_table" not in line


def test_a_parameter_in_another_section_points_to_the_hook_by_section_and_item() -> None:
    v = dsl.load_text('extends: dagang\nhooks:\n  may_answer: "is_opposite or free_for_all"\n')
    zh, en = explain(v), explain(v, "en")
    assert "对头走了就是无头：不受够级约束，谁的牌都能管：由表达式决定（见四、第6条），此参数不起作用。" in zh
    assert "  6. 按表达式：" in _section(zh, "gouji") and "is_opposite or free_for_all" in _section(zh, "gouji")
    assert "decided by an expression (see 4.6); this parameter has no effect." in _section(en, "play")


def test_a_hook_written_in_python_is_named_and_its_parameters_are_not_called_dead() -> None:
    from gouji_rules.catalog import dagang

    def ten_needs_six(ctx: dict[str, int]) -> bool:
        return ctx["count"] >= (6 if ctx["rank"] == 7 else max(ctx["threshold"], 2))

    sheet = explain(dagang().replace(hooks={"is_gouji": ten_needs_six}))
    gouji = _section(sheet, "gouji")
    assert "(Python: test_a_hook_written_in_python_is_named" in gouji and "10×6" in gouji and "10×5" not in gouji
