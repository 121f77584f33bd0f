"""The parts of a comparison: decisiveness, rule differences, display width, work units."""

from __future__ import annotations

from gouji_rules.catalog import dagang, dianshaomenla
from gouji_rules.compare.report import fmt_difference, pad, table, width
from gouji_rules.compare.rulediff import rule_differences
from gouji_rules.compare.work import Decider, metrics_for, plan


def test_decided_when_one_team_takes_places_1_and_2() -> None:
    # dagang: 4/2/0/0/−2/−4, only positive sums.  Team 0 (seats 0, 2, 4) first and second:
    # whatever the rest, team 0 scores at least 4+2−4 = 2 and team 1 at most 0.
    d = Decider(dagang().rules)
    assert d.decided_at([1, 3, 2, 4, 5, 6]) == 2


def test_not_decided_when_places_1_and_2_are_split() -> None:
    d = Decider(dagang().rules)
    # seat 0 first, seat 1 second: team 0 = 4 + a + b, team 1 = 2 + c + d; still open after two places
    assert d.decided_at([1, 2, 3, 4, 5, 6]) > 2
    assert d.decided_at([1, 2, 3, 4, 5, 6]) <= 5


def test_decided_counts_the_variants_own_scoring() -> None:
    flat = dagang().replace(scoring={"points": [0, 0, 0, 0, 0, 0]}, name="flat")
    assert Decider(flat.rules).decided_at([1, 2, 3, 4, 5, 6]) == 0  # always a draw


def test_rule_differences_of_a_variant_with_itself_is_empty() -> None:
    assert rule_differences([dagang(), dagang()]) == []


def test_rule_differences_side_by_side_for_three() -> None:
    v = dagang().replace(burn={"enabled": False}, name="noburn")
    diffs = {d["path"]: d["values"] for d in rule_differences([dagang(), v, dianshaomenla()])}
    assert diffs["burn.enabled"] == [True, False, True]
    assert diffs["scoring.points"][0] == diffs["scoring.points"][1] != diffs["scoring.points"][2]
    assert "name" not in diffs and "title" not in diffs


def test_display_width() -> None:
    assert width("每局决策数") == 10
    assert width("e\u0301") == 1  # a combining accent takes no column
    assert width(pad("头科", 6)) == 6 and width(pad("ab", 6, right=True)) == 6
    lines = table([["指标", "x"], ["每局决策数", "1"], ["a", "22"]], right=[False, True])
    assert len({width(line) for line in lines}) == 1


def test_difference_wording() -> None:
    clear = {"mean": 1.5, "low": 1.0, "high": 2.0, "clear": True}
    unclear = {"mean": 0.1, "low": -0.2, "high": 0.4, "clear": False}
    assert fmt_difference(clear, "num") == "+1.500 [+1.000, +2.000]"
    assert fmt_difference(unclear, "num").startswith("≈0")
    assert fmt_difference({**unclear, "low": -0.02, "high": 0.04}, "rate") == "≈0 pp [−2.0, +4.0]"


def test_units_do_not_depend_on_workers() -> None:
    units = list(plan(9, 101, ["dagang", "dianshaomenla"], "greedy", per_unit=25))
    assert [(u.start, u.stop) for u in units] == [(0, 25), (25, 50), (50, 75), (75, 100), (100, 101)]
    assert [u.index for u in units] == list(range(5))


def test_metric_ids_are_unique() -> None:
    ids = [m.id for m in metrics_for(3)]
    assert len(ids) == len(set(ids))


def test_rule_differences_say_coded_values_in_the_rule_sheets_words() -> None:
    """Issue 22: a club reads ``被闷当即判为最后``, not ``place_bottom``, in compare's rule table (the
    rule sheet's own words, so explain and compare never word a value two ways)."""
    from gouji_rules.compare.report import shown_zh

    d = {r["path"]: r for r in rule_differences([dagang(), dianshaomenla()])}
    men = d["men.penalty"]
    assert men["values"] == ["bottom_plays_on", "place_bottom"]
    assert shown_zh(men) == ["先清为落：从最后排名，但继续出牌", "被闷当即判为最后、不再出牌"]
    assert d["jiefeng.policy"]["words"]["en"][1] == "the next seat in play"
    assert d["sets.kou"]["words"]["zh"] == ["是", "否"]
    del men["words"]  # a document written before values had words shows the values
    assert shown_zh(men) == ["bottom_plays_on", "place_bottom"]
