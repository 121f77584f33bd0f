"""Loader behaviour: club files, merge rules, YAML 1.1 strictness, all errors at once, warnings."""

from __future__ import annotations

from pathlib import Path

import pytest

from gouji_rules import dsl
from gouji_rules.catalog import dagang
from gouji_rules.dsl.diff import differences, format_diff
from gouji_rules.dsl.explain import explain

CLUB = "extends: dagang\nburn:\n  teammate: false\n"


def _write(tmp: Path, name: str, text: str) -> Path:
    p = tmp / name
    p.write_text(text, encoding="utf-8")
    return p


def test_three_line_club_file_validates_and_differs_in_exactly_one_rule(tmp_path: Path) -> None:
    club = dsl.load_file(_write(tmp_path, "club.yaml", CLUB))
    diffs = differences(dagang(), club)
    assert [d.path for d in diffs] == ["burn.teammate"]
    table = format_diff(dagang(), club, "en")
    assert len(table.splitlines()) == 3 and "burn.teammate" in table
    assert "八、可以烧队友" in format_diff(dagang(), club)


def test_name_defaults_to_file_stem_and_is_not_inherited(tmp_path: Path) -> None:
    assert dsl.load_file(_write(tmp_path, "my_club.yaml", CLUB)).name == "my_club"


def test_maps_merge_key_by_key_and_lists_replace(tmp_path: Path) -> None:
    text = 'extends: dagang\ngouji:\n  thresholds: {"2": 1}\nsets:\n  bare: ["3"]\n'
    v = dsl.load_file(_write(tmp_path, "c.yaml", text))
    assert v.gouji.thresholds == {"T": 5, "J": 4, "Q": 3, "K": 2, "A": 2, "2": 1}
    assert v.sets.bare == ["3"]


def test_two_level_relative_extends_chain(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    _write(tmp_path, "base.yaml", "extends: dianshaomenla\nplay:\n  bie3: false\n")
    leaf = _write(tmp_path / "sub", "leaf.yaml", "extends: ../base.yaml\nburn:\n  teammate: false\n")
    v = dsl.load_file(leaf)
    assert v.play.bie3 is False and v.burn.teammate is False and v.scoring.points == [2, 1, 0, 0, -1, -2]


def test_yes_stays_a_string_where_a_string_is_expected(tmp_path: Path) -> None:
    v = dsl.load_file(_write(tmp_path, "t.yaml", "extends: dagang\ntitle: yes\nsource: 010\n"))
    assert v.title == "yes" and v.source == "010"


def test_ten_is_read_as_the_rank_t(tmp_path: Path) -> None:
    v = dsl.load_file(_write(tmp_path, "t.yaml", 'extends: dagang\ngouji:\n  thresholds: {"10": 4}\n'))
    assert v.gouji.thresholds["T"] == 4


def test_all_errors_of_a_file_are_reported_together(tmp_path: Path) -> None:
    text = "extends: dagang\nburn:\n  enabled: yes\n  teamate: false\ndeck:\n  packs: 010\n"
    result = dsl.check_file(_write(tmp_path, "bad.yaml", text))
    assert [(e.line, e.column) for e in result.errors] == [(3, 12), (4, 3), (6, 10)]


def test_hook_expression_compiles_and_changes_the_rules(tmp_path: Path) -> None:
    text = "extends: dagang\nhooks:\n  team_score: sum(points)\n  is_gouji: jokers > 0 or count + twos >= 3\n"
    v = dsl.load_file(_write(tmp_path, "h.yaml", text))
    assert v.rules.team_scores([1, 2, 3, 4, 5, 6]) == (2, -2)
    assert v.hooks["team_score"]({"points": [4, -2, -4], "places": [1, 5, 6], "sweep": False}) == -2


def test_burning_that_needs_open_point_without_open_point_warns_at_the_users_key(tmp_path: Path) -> None:
    text = "extends: dagang\nopen_point:\n  enabled: false\n"
    result = dsl.check_file(_write(tmp_path, "w.yaml", text))
    assert result.variant is not None
    (w,) = [w for w in result.warnings if "nobody can ever burn" in w.message]
    assert (w.line, w.column, w.severity) == (3, 3, "warning")


def test_score_formula_that_ignores_places_warns(tmp_path: Path) -> None:
    text = "extends: dagang\nhooks:\n  team_score: 1 if sweep else 0\n"
    result = dsl.check_file(_write(tmp_path, "w.yaml", text))
    assert any("ignores the places" in w.message and w.line == 3 for w in result.warnings)


def test_bare_rank_that_is_also_an_attached_joker_warns(tmp_path: Path) -> None:
    text = 'extends: dagang\nsets:\n  bare: ["3", "4", "SJ"]\n'
    result = dsl.check_file(_write(tmp_path, "w.yaml", text))
    assert any("both in sets.bare" in w.message for w in result.warnings)


def test_free_for_all_after_out_that_can_never_happen_warns(tmp_path: Path) -> None:
    result = dsl.check_file(_write(tmp_path, "w.yaml", "extends: dagang\nfree_for_all:\n  after_out: 5\n"))
    assert any("can never start" in w.message for w in result.warnings)


def test_parent_warnings_are_not_repeated_in_a_child(tmp_path: Path) -> None:
    _write(tmp_path, "p.yaml", "extends: dagang\nfree_for_all:\n  after_out: 5\n")
    result = dsl.check_file(_write(tmp_path, "c.yaml", "extends: p.yaml\nburn:\n  teammate: false\n"))
    assert result.warnings == []


def test_explain_prints_every_section_in_chinese_and_english() -> None:
    v = dsl.load_shipped("dianshaomenla")
    zh, en = explain(v, "zh"), explain(v, "en")
    assert "点烧闷拉" in zh and "不采用" in zh and "头客" in zh
    assert "No:" in en and "Yes:" in en


def test_unknown_variant_name_in_catalog_suggests_a_name() -> None:
    from gouji_rules import catalog
    from gouji_rules.errors import UnknownVariant

    with pytest.raises(UnknownVariant, match="dagang"):
        catalog.resolve("dagnag")
