"""``gouji compare --agents A,B``: mixed tables and the skill gap, in every output format."""

from __future__ import annotations

import csv
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from gouji_rules.compare import compare
from gouji_rules.compare.skill import parse_agents, table_agents
from gouji_rules.errors import GoujiError

from .conftest import run_json


def test_the_stronger_side_has_a_clear_positive_skill_gap(gouji: click.Group) -> None:
    doc = run_json(
        gouji,
        "dagang",
        "dianshaomenla",
        "--hands",
        "16",
        "--seed",
        "3",
        "--agents",
        "greedy,random",
        "--match-hands",
        "0",
    )
    for result in doc["results"]:
        gap = result["metrics"]["skill_gap"]
        assert gap["low"] > 0, result["variant"]
    paired = doc["differences"][0]["metrics"]["skill_gap"]
    assert {"mean", "low", "high", "clear"} <= set(paired)


def test_swapping_the_sides_turns_the_gap_over() -> None:
    ab = compare(["dagang", "dianshaomenla"], 6, seed=1, agents="greedy,random")
    ba = compare(["dagang", "dianshaomenla"], 6, seed=1, agents="random,greedy")
    for x, y in zip(ab["results"], ba["results"], strict=True):
        assert x["metrics"]["skill_gap"]["mean"] > 0 > y["metrics"]["skill_gap"]["mean"]


def test_one_seat_blind_agent_everywhere_has_no_skill_gap() -> None:
    doc = compare(["dagang", "dianshaomenla"], 5, seed=2, agents="greedy")
    for result in doc["results"]:
        gap = result["metrics"]["skill_gap"]
        assert gap["mean"] == 0 and gap["low"] == gap["high"] == 0


def test_side_a_sits_in_team_0s_seats() -> None:
    names = [a.name for a in table_agents("greedy,random")]
    assert names == ["greedy", "random"] * 3
    assert parse_agents(" random ") == ("random", "random")


@pytest.mark.parametrize("spec", ["greedy,nobody", "greedy,random,greedy", ""])
def test_a_bad_agents_spec_is_a_usage_error(gouji: click.Group, spec: str) -> None:
    result = CliRunner().invoke(gouji, ["compare", "dagang", "dianshaomenla", "--hands", "1", "--agents", spec])
    assert result.exit_code == 2
    assert "--agents" in result.output and "Traceback" not in result.output
    with pytest.raises(GoujiError):
        compare(["dagang", "dianshaomenla"], 1, agents=spec)


def test_text_csv_and_html_carry_the_skill_gap(gouji: click.Group, tmp_path: Path) -> None:
    out_csv, out_html = tmp_path / "c.csv", tmp_path / "c.html"
    args = ["compare", "dagang", "dianshaomenla", "--hands", "4", "--agents", "greedy,random", "--quiet"]
    result = CliRunner().invoke(gouji, [*args, "--csv", str(out_csv), "--html", str(out_html)])
    assert result.exit_code == 0, result.output
    assert "skill_gap" in result.stdout
    rows = list(csv.DictReader(out_csv.open(encoding="utf-8")))
    assert any(r["metric"] == "skill_gap" for r in rows)
    assert "skill_gap" in out_html.read_text(encoding="utf-8")
