"""Issue 32 item 6: a finding counts only when agents of two kinds agree on it (``--cross-check``)."""

from __future__ import annotations

import copy
import csv
import io
import re
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from gouji_rules.compare import compare
from gouji_rules.compare.cross import DEFAULT_AGENTS, DEFAULT_CROSS_CHECK, cross_pairing, with_cross
from gouji_rules.compare.html import render_html
from gouji_rules.compare.report import render_text, write_csv

from .conftest import run_json, without_timing

CLUB = str(Path(__file__).resolve().parents[2] / "examples" / "clubs" / "qingdao.yaml")


def _csv(doc: dict[str, Any]) -> list[dict[str, str]]:
    fh = io.StringIO()
    write_csv(doc, fh)
    return list(csv.DictReader(io.StringIO(fh.getvalue())))


@pytest.fixture(scope="module")
def alone() -> dict[str, Any]:
    """dagang against dianshaomenla as greedy alone sees them (no cross-check), single hands."""
    return compare(["dagang", "dianshaomenla"], 6, seed=3, agents="greedy", match_hands=0)


def test_a_finding_the_second_agent_does_not_share_is_set_apart_as_depending_on_play(alone: dict[str, Any]) -> None:
    found = list(alone["differences"][0]["findings"])
    assert len(found) >= 3, found
    kept, lost, flipped = found[0], found[1], found[2]
    second = copy.deepcopy(alone)
    second["agents"] = "other"
    d2 = second["differences"][0]
    d2["findings"].remove(lost)  # the second agent sees no clear difference here
    e = d2["in_units"].get(flipped) or d2["metrics"][flipped]
    e["mean"], e["low"], e["high"] = -e["mean"], -e["high"], -e["low"]  # and the opposite direction here

    doc = with_cross(copy.deepcopy(alone), second, "greedy")
    d = doc["differences"][0]
    assert kept in d["findings"] and lost not in d["findings"] and flipped not in d["findings"]
    assert d["depends_on_play"] == [m for m in found if m in (lost, flipped)]
    assert d["cross_check"][kept]["holds"] is True
    assert d["cross_check"][lost] == {**d["cross_check"][lost], "holds": False}
    assert d["cross_check"][lost]["cross"]["clear"] is False and d["cross_check"][flipped]["cross"]["clear"] is True

    text = render_text(doc)
    summary = text.split("规则差异")[0]
    assert "取决于打法（两种机器人看法不一，不算规则的结果）" in summary
    zh = {m["id"]: m["zh"] for m in doc["metrics"]}
    depends = summary.split("取决于打法（")[1]
    assert zh[lost] in depends and zh[flipped] in depends
    section = text.split("取决于打法 depends on how people play")[1].split("\n\n")[0]
    assert lost in section and flipped in section and kept not in section

    rows = {(r["variant"], r["metric"]): r for r in _csv(doc)}
    assert rows[("dianshaomenla", lost)]["across_agents"] == "depends"
    assert rows[("dianshaomenla", kept)]["across_agents"] == "holds"
    assert rows[("dianshaomenla", kept)]["finding"] == "clear" and rows[("dianshaomenla", lost)]["finding"] == ""
    assert rows[("dianshaomenla", lost)]["cross_agents"] == "other"

    page = render_html(doc)
    assert '<section class="depends"><h2>取决于打法 Depends on how people play</h2>' in page
    part = page.split('<section class="depends">')[1].split("</section>")[0]
    assert f"<code>{lost}</code>" in part and f"<code>{kept}</code>" not in part


def test_cross_check_none_reports_what_the_agents_alone_found(alone: dict[str, Any], gouji: click.Group) -> None:
    doc = run_json(gouji, "dagang", "dianshaomenla", "--hands", "6", "--seed", "3", "--match-hands", "0",
                   "--agents", "greedy", "--cross-check", "none")  # fmt: skip
    assert without_timing(doc) == without_timing(alone)  # compare()'s own default is none
    assert doc["cross_check"]["agents"] is None and doc["differences"][0]["depends_on_play"] == []
    text = CliRunner().invoke(gouji, ["compare", "dagang", "dianshaomenla", "--hands", "6", "--seed", "3",
                                      "--match-hands", "0", "--agents", "greedy", "--cross-check", "none", "--quiet"])  # fmt: skip
    assert text.exit_code == 0, text.output
    assert "取决于打法" not in text.stdout and " 打法" not in text.stdout
    assert "cross-check:" not in text.stdout and "对照" not in text.stdout  # only the command names --cross-check
    assert all(r["across_agents"] == r["cross_diff_mean"] == "" for r in _csv(doc))
    assert 'class="depends"' not in render_html(doc)


def test_the_cross_check_leaves_the_compared_agents_numbers_alone(gouji: click.Group) -> None:
    args = ("dagang", CLUB, "--hands", "3", "--seed", "2", "--match-hands", "0")
    checked = run_json(gouji, *args)  # the defaults: learned, cross-checked by greedy
    alone = run_json(gouji, *args, "--cross-check", "none")
    by_greedy = run_json(gouji, *args, "--agents", "greedy", "--cross-check", "none")
    assert checked["schema_version"] == 6 and checked["agents"] == DEFAULT_AGENTS == "learned"
    c = checked["cross_check"]
    assert (c["kind"], c["agents"], c["skipped"]) == (DEFAULT_CROSS_CHECK, "greedy", None) == ("greedy",) * 2 + (None,)
    assert checked["results"] == alone["results"]
    assert c["results"] == by_greedy["results"]
    assert [d["metrics"] for d in c["differences"]] == [d["metrics"] for d in by_greedy["differences"]]
    for d, first, second in zip(checked["differences"], alone["differences"], by_greedy["differences"], strict=True):
        both = set(first["findings"]) & set(second["findings"])
        assert set(d["findings"]) <= both
        assert set(d["findings"]) | set(d["depends_on_play"]) == set(first["findings"]) | set(second["findings"])
        assert set(d["cross_check"]) == set(d["findings"]) | set(d["depends_on_play"])
        for mid, e in d["cross_check"].items():
            assert e["holds"] == (mid in d["findings"])
            assert e["compared"]["clear"] == (mid in first["findings"])
            assert e["cross"]["clear"] == (mid in second["findings"])
    opts = {p.name: p.default for p in gouji.commands["compare"].params}
    assert (opts["agent_name"], opts["cross_check"]) == (DEFAULT_AGENTS, DEFAULT_CROSS_CHECK)


def test_the_report_names_what_learned_was_trained_over_and_flags_a_club_outside_it(
    gouji: click.Group, session7_weights: None
) -> None:
    """Weights trained over dagang alone (session 7's): qingdao's file lies outside them."""
    doc = run_json(gouji, "dagang", CLUB, "--hands", "2", "--match-hands", "0", "--cross-check", "none")
    rows = {r["variant"]: r for r in doc["sides"][0]["strength"]}
    assert rows["dagang"]["trained_over"]["variants"] == ["dagang"] and rows["dagang"]["outside_training"] is False
    assert rows["qingdao"]["outside_training"] is True
    text = "".join(line.strip() for line in render_text(doc).splitlines())  # unwrapped
    assert "learned 训练时用过的规则：dagang。qingdao 不在其中" in text.split("规则差异")[0]
    assert "learned was trained over dagang; outside them: qingdao" in text
    assert 'class="trained"' in render_html(doc)
    greedy = run_json(gouji, "dagang", CLUB, "--hands", "1", "--match-hands", "0", "--agents", "greedy",
                      "--cross-check", "none")  # fmt: skip
    assert all(r["trained_over"] is None and r["outside_training"] is None for r in greedy["sides"][0]["strength"])


def test_weights_trained_over_drawn_clubs_name_them_and_take_a_club_inside_their_ranges(gouji: click.Group) -> None:
    """The shipped dagang weights were trained over dagang, dianshaomenla and club files drawn from ranges
    that cover qingdao's options (burning without 开点, 2/1/0, 预点, no 革命): not flagged, ranges named."""
    doc = run_json(gouji, "dagang", CLUB, "--hands", "1", "--match-hands", "0", "--cross-check", "none")
    rows = {r["variant"]: r for r in doc["sides"][0]["strength"]}
    trained = rows["qingdao"]["trained_over"]
    assert trained["variants"] == ["dagang", "dianshaomenla"] and trained["clubs"]["count"] > 0
    assert trained["clubs"]["ranges"]["burn.needs_open_point"] == [True, False]
    assert rows["qingdao"]["outside_training"] is False
    text = "".join(line.strip() for line in render_text(doc).splitlines())
    assert "learned 训练时用过的规则：dagang、dianshaomenla、按范围抽出的俱乐部规则。" in text


def test_cross_check_ismcts_plays_the_same_deals_at_its_written_down_budget(gouji: click.Group) -> None:
    doc = run_json(gouji, "dagang", "dianshaomenla", "--hands", "1", "--match-hands", "0", "--agents", "greedy",
                   "--cross-check", "ismcts")  # fmt: skip
    c = doc["cross_check"]
    assert (c["kind"], c["agents"], c["budget"]) == ("ismcts", "ismcts-quick", {"worlds": 1, "candidates": 2})
    assert [s["agent"] for s in c["sides"]] == ["ismcts-quick", "ismcts-quick"]
    assert doc["timing"]["hands"] == 2 * 2 * 2  # a deal, two seatings, two variants, twice
    assert "cross-check: the same deals again with ismcts-quick (1 world, 2 candidates a decision)" in render_text(doc)


def test_a_cross_check_of_the_agents_own_kind_is_not_played_and_says_so(gouji: click.Group) -> None:
    r = CliRunner().invoke(gouji, ["compare", "dagang", "dianshaomenla", "--hands", "1", "--match-hands", "0",
                                   "--agents", "greedy", "--json"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "no cross-check: greedy is greedy already" in r.stderr
    doc = run_json(gouji, "dagang", "dianshaomenla", "--hands", "1", "--match-hands", "0", "--agents", "greedy")
    assert doc["cross_check"]["skipped"] == "greedy is greedy already" and doc["cross_check"]["agents"] is None
    assert "没有做对照检查" in render_text(doc)
    bad = CliRunner().invoke(gouji, ["compare", "dagang", "dianshaomenla", "--cross-check", "random"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


@pytest.mark.parametrize(
    ("agents", "kind", "expected"),
    [
        ("learned", "greedy", "greedy"),
        ("learned", "ismcts", "ismcts-quick"),
        ("learned,greedy", "ismcts", "ismcts-quick,greedy"),  # the pairing kept: learned's side changes
        ("greedy,learned", "ismcts", "greedy,ismcts-quick"),
        ("simple,random", "greedy", "greedy,random"),  # no learned side: side A changes
        ("learned", "none", None),
        ("ismcts", "ismcts", None),
    ],
)
def test_the_cross_check_keeps_the_pairing_and_changes_the_default_agents_side(
    agents: str, kind: str, expected: str | None
) -> None:
    assert cross_pairing(agents, kind)[0] == expected


def test_the_matches_command_names_the_cross_check_and_runs_as_printed(gouji: click.Group) -> None:
    import shlex

    doc = run_json(gouji, "dagang", CLUB, "--hands", "1", "--match-hands", "0", "--agents", "greedy",
                   "--cross-check", "none")  # fmt: skip
    words = shlex.split(doc["matches"]["command"])
    assert words[-2:] == ["--cross-check", "none"]
    r = CliRunner().invoke(gouji, [*words[1:], "--quiet"])
    assert r.exit_code == 0, r.output


def test_the_cross_check_keys_are_documented(alone: dict[str, Any]) -> None:
    second = copy.deepcopy(alone)
    doc = with_cross(copy.deepcopy(alone), second, "greedy")
    page = (Path(__file__).parents[2] / "docs" / "compare.md").read_text(encoding="utf-8")
    json_part = page[page.index("## The JSON document") :]
    entry = next(iter(doc["differences"][0]["cross_check"].values()))
    keys = set(doc["cross_check"]) | set(entry) | set(doc["cross_check"]["differences"][0])
    assert not [k for k in sorted(keys) if not re.search(rf'"{k}"', json_part)]
    assert '"schema_version": 6' in json_part and "--cross-check" in page


def test_the_events_a_rule_governs_say_depends_on_play_not_clear_for_such_a_difference(alone: dict[str, Any]) -> None:
    from gouji_rules.compare.report import events_zh, governed_rows

    governed = {mid for _, mids in governed_rows(alone) for mid in mids}
    d = alone["differences"][0]
    power = d["power"]
    target = next(m for m in d["findings"] if m in governed and power[m]["status"] == "varies")
    second = copy.deepcopy(alone)
    second["differences"][0]["findings"].remove(target)
    doc = with_cross(copy.deepcopy(alone), second, "greedy")
    zh = (
        {m["id"]: m["zh"] for m in doc["metrics"]}[target]
        .removeprefix("每局")
        .removesuffix("次数")
        .removesuffix("张数")
    )
    text = "".join(events_zh(doc, doc["differences"][0]))
    assert re.search(rf"{re.escape(zh)} [^、；]*，取决于打法", text), text
    assert not re.search(rf"{re.escape(zh)} [^、；]*，明显", text), text
