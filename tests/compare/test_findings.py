"""What compare tells a club: changes of scale said once, the events a rule governs with a power
statement, matches for rules that act between hands, and who played."""

from __future__ import annotations

import csv
import io
import re
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from gouji_rules.catalog import resolve
from gouji_rules.compare import compare
from gouji_rules.compare.report import render_text, summary_zh, write_csv
from gouji_rules.compare.stats import deals_needed, detectable
from gouji_rules.compare.work import play
from gouji_rules.game.governs import GOVERNS, governs
from gouji_rules.game.rng import derive
from gouji_rules.game.strength import STRENGTHS, strength
from gouji_rules.parts.hooks import HOOKS
from gouji_rules.play.agents import make_agent
from gouji_rules.variant import SECTIONS

from .conftest import run_json

POINT_SCORES = ("margin", "points_awarded", "winner_score")


def _club(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"extends: dagang\nname: {name}\n{body}", encoding="utf-8")
    return str(path)


def test_a_scale_only_pair_gives_no_findings_but_one_scale_statement(gouji: click.Group, tmp_path: Path) -> None:
    """2/1/0 against 4/2/0: every score halves; in 头科 units nothing changes, so nothing is a finding."""
    half = _club(tmp_path, "half", "scoring:\n  points: [2, 1, 0, 0, -1, -2]\n")
    doc = run_json(gouji, "dagang", half, "--hands", "30", "--quiet")
    assert doc["match_hands"] == 0  # place scores act within the hand: no matches needed
    d = doc["differences"][0]
    for m in POINT_SCORES:
        assert d["metrics"][m]["clear"], m  # the raw points do differ clearly …
        assert d["in_units"][m]["mean"] == 0 and not d["in_units"][m]["clear"]  # … but not per 头科 point
    assert d["findings"] == []
    assert set(POINT_SCORES) <= set(d["scale"]["only_scale"])
    assert d["scale"] == {**d["scale"], "ratio": 0.5, "proportional": True}
    assert [v["score_unit"] for v in doc["variants"]] == [4, 2]
    base, club = doc["results"]
    assert club["in_units"]["margin"] == base["in_units"]["margin"]
    paragraph = summary_zh(doc)[1]
    assert paragraph.count("计分比例：") == 1 and "1/2" in paragraph
    assert "结果：" not in paragraph and "不算结果" in paragraph
    assert "每副牌的打法和结果都完全一样" in paragraph  # greedy plays alike whatever the points
    text = render_text(doc)
    assert text.count("计分比例：") == 1 and "按头科分折算" in text
    rows = list(csv.DictReader(io.StringIO(_csv(doc))))
    findings = {r["metric"]: r["finding"] for r in rows if r["variant"] == "half"}
    assert "clear" not in findings.values() and all(findings[m] == "scale" for m in POINT_SCORES)


def test_a_scale_change_with_another_rule_keeps_that_rules_findings(tmp_path: Path) -> None:
    """Halving the scores and changing who may burn: the burn rule's effects stay findings, the
    halving does not (the Qingdao case of issue 21)."""
    club = _club(tmp_path, "club", "burn:\n  needs_open_point: false\nscoring:\n  points: [2, 1, 0, 0, -1, -2]\n")
    d = compare(["dagang", club], 30, seed=1)["differences"][0]
    assert "decisions" in d["findings"]  # more burn offers to decline: a real change of play
    assert not set(POINT_SCORES) & set(d["findings"])


def test_a_burn_rule_difference_lists_burn_events_and_their_rates(gouji: click.Group, tmp_path: Path) -> None:
    club = _club(tmp_path, "club", "burn:\n  needs_open_point: false\n")
    doc = run_json(gouji, "dagang", club, "--hands", "40", "--seed", "3", "--quiet", "--agents", "greedy")
    [rule] = doc["rule_differences"]
    assert rule["path"] == "burn.needs_open_point" and not rule["governs"]["between_hands"]
    assert {"burn", "counter_burn", "break_burn", "burn_fail"} <= set(rule["governs"]["events"])
    assert rule["governs"]["tribute"] == ["burn"]
    # the rates are the events counted in the hands themselves
    agents = [make_agent("greedy") for _ in range(6)]
    for label, variant in zip(("dagang", "club"), (resolve("dagang"), resolve(club)), strict=True):
        burns = sum(
            sum(1 for e in play(variant, derive(3, i), r, agents).events if e.type == "burn")
            for i in range(40)
            for r in (0, 1)
        )
        result = next(r for r in doc["results"] if r["variant"] == label)
        assert result["metrics"]["burn"]["mean"] == pytest.approx(burns / 80)
    power = doc["differences"][0]["power"]["burn"]
    assert power["status"] in ("varies", "same", "never")
    if power["status"] == "varies":
        assert power["detectable"] > 0 and power["deals_needed"] >= 2
    text = render_text(doc)
    assert "规则管的事件" in text
    block = text[text.index("规则管的事件") :]
    assert "burn.needs_open_point" in block and "counter_burn" in block and "owed_burn" in block
    assert "「没有开点的不能烧牌」管的事" in summary_zh(doc)[2]


def test_the_power_statement_sizes_a_change_and_the_deals_it_needs() -> None:
    """Four times the deals see a change half as large; the deals a change needs give it back."""
    assert detectable(2.0, 400) == pytest.approx(detectable(2.0, 100) / 2, rel=0.02)
    assert detectable(2.0, 100) == pytest.approx(2 * detectable(1.0, 100))
    n = deals_needed(1.5, detectable(1.5, 500))
    assert 480 <= n <= 520


def test_a_geming_difference_plays_matches_by_default(gouji: click.Group, tmp_path: Path) -> None:
    """革命 acts between hands: compare plays matches of the baseline's match.hands by itself."""
    club = _club(tmp_path, "club", "geming:\n  enabled: false\n")
    doc = run_json(gouji, "dagang", club, "--hands", "16", "--quiet")
    assert doc["matches"]["between_hands"] == ["geming.enabled"]
    assert doc["matches"]["played"] and doc["matches"]["auto"]
    assert doc["match_hands"] == resolve("dagang").match.hands == 8
    assert doc["deals"] == 2 and doc["matches"]["deals_asked"] == 16
    assert doc["matches"]["command"] is None
    assert "在两局之间起作用，所以按整场打" in "".join(summary_zh(doc))


def test_a_geming_difference_played_as_single_hands_says_how_to_see_it(gouji: click.Group, tmp_path: Path) -> None:
    club = _club(tmp_path, "club", "geming:\n  enabled: false\n")
    doc = run_json(gouji, "dagang", club, "--hands", "4", "--match-hands", "0", "--quiet")
    m = doc["matches"]
    assert m["between_hands"] == ["geming.enabled"] and not m["played"] and doc["match_hands"] == 0
    assert m["command"] in summary_zh(doc)[-1] and "单局比较看不出" in summary_zh(doc)[-1]
    words = shlex.split(m["command"])
    assert words[:2] == ["gouji", "compare"] and words[words.index("--match-hands") + 1] == "8"
    again = CliRunner().invoke(gouji, [*words[1:], "--quiet", "--json"], catch_exceptions=False)
    assert again.exit_code == 0, again.output
    assert '"match_hands": 8' in again.stdout


def test_no_between_hands_rule_no_matches(gouji: click.Group, tmp_path: Path) -> None:
    club = _club(tmp_path, "club", "burn:\n  needs_open_point: false\n")
    doc = run_json(gouji, "dagang", club, "--hands", "2", "--quiet")
    assert doc["match_hands"] == 0 and doc["matches"]["between_hands"] == [] and doc["matches"]["command"] is None


@pytest.mark.parametrize("value", ["x", "-3", "1.5", "1001"])
def test_a_bad_match_hands_is_a_usage_error(gouji: click.Group, value: str) -> None:
    result = CliRunner().invoke(gouji, ["compare", "dagang", "dagang", "--match-hands", value])
    assert result.exit_code == 2 and "--match-hands" in result.output


def test_the_report_says_who_played_and_how_strong(gouji: click.Group, tmp_path: Path) -> None:
    club = _club(tmp_path, "club", "burn:\n  needs_open_point: false\n")
    doc = run_json(gouji, "dagang", club, "--hands", "2", "--agents", "random,greedy", "--quiet")
    a, b = doc["sides"]
    assert (a["side"], a["seats"], a["agent"]) == ("A", [0, 2, 4], "random")
    assert (b["side"], b["seats"], b["agent"]) == ("B", [1, 3, 5], "greedy")
    measured = strength("random", "dagang")
    assert measured is not None
    on_dagang, on_club = a["strength"]
    assert on_dagang["edge"] == measured.edge and on_dagang["exact"] and on_dagang["measured_under"] == "dagang"
    assert not on_club["exact"] and on_club["rules_apart"] == 1 and on_club["measured_under"] == "dagang"
    assert on_dagang["edge_in_units"] == pytest.approx(measured.edge / 4, abs=1e-6)
    assert b["strength"][0]["edge"] == 0
    first = summary_zh(doc)[0]
    assert "甲方（0、2、4 号座）是 random" in first and f"{abs(measured.edge):.2f}" in first
    assert "对局者 agents" in render_text(doc)


def test_strength_is_measured_or_none() -> None:
    ismcts = strength("ismcts", "dagang")
    assert ismcts is not None and ismcts.low < ismcts.edge < ismcts.high and ismcts.source
    assert strength("ismcts", "sha21") is None and strength("nosuch") is None
    for s in STRENGTHS:
        assert s.low <= s.edge <= s.high and s.source


def test_every_section_and_hook_says_what_it_governs() -> None:
    """A rule with no entry would be reported as governing nothing: every section and hook has one."""
    for key, _ in SECTIONS:
        assert governs(f"{key}.anything") is not None, key
    for hook in HOOKS:
        assert governs(f"hooks.{hook}") is not None, hook
    assert governs("sets.kou") == GOVERNS["sets.kou"] and governs("sets.bare") == GOVERNS["sets"]
    between = {k for k, g in GOVERNS.items() if g.between_hands and "." not in k}
    assert between == {"kang", "declare", "buy", "tribute", "geming", "chongdian", "match", "phases"}
    assert governs("phases.forgive.anything") == GOVERNS["phases"]  # the options of an added phase (issue 24)


def test_every_document_key_is_documented(gouji: click.Group, tmp_path: Path) -> None:
    club = _club(tmp_path, "club", "scoring:\n  points: [2, 1, 0, 0, -1, -2]\ngeming:\n  enabled: false\n")
    doc = run_json(gouji, "dagang", club, "--hands", "8", "--quiet")
    page = (Path(__file__).parents[2] / "docs" / "compare.md").read_text(encoding="utf-8")
    json_part = page[page.index("## The JSON document") :]
    keys = set(doc) | set(doc["differences"][0]) | set(doc["variants"][0]) | set(doc["matches"])
    keys |= set(doc["differences"][0]["power"]["burn"]) | set(doc["differences"][0]["scale"])
    keys |= set(doc["sides"][0]) | set(doc["sides"][0]["strength"][0]) | set(doc["results"][0])
    missing = sorted(k for k in keys if not re.search(rf'"{k}"', json_part))
    assert not missing, f"not documented in docs/compare.md: {missing}"
    assert f'"schema_version": {doc["schema_version"]}' in json_part


def _csv(doc: dict[str, object]) -> str:
    out = io.StringIO()
    write_csv(doc, out)  # type: ignore[arg-type]
    return out.getvalue()
