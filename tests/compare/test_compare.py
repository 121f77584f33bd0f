"""``gouji compare``: reproducibility, backends that agree, self-comparison, outputs."""

from __future__ import annotations

import csv
import hashlib
import json
import pickle
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from gouji_rules.compare import compare, strip_timing
from gouji_rules.compare.run import labels
from gouji_rules.compare.work import hand_metrics, plan, run_unit

from .conftest import run_json, without_timing


def test_same_seed_gives_the_same_document(gouji: click.Group) -> None:
    a = run_json(gouji, "dagang", "dianshaomenla", "--hands", "12", "--seed", "4")
    b = run_json(gouji, "dagang", "dianshaomenla", "--hands", "12", "--seed", "4")
    assert "timing" in a
    assert without_timing(a) == without_timing(b)
    c = run_json(gouji, "dagang", "dianshaomenla", "--hands", "12", "--seed", "5")
    assert without_timing(a) != without_timing(c)


def test_document_shape(gouji: click.Group) -> None:
    doc = run_json(gouji, "dagang", "dianshaomenla", "--hands", "6", "--match-hands", "0")
    assert doc["schema_version"] == 6
    assert all(row["never_saw"] == [] for side in doc["sides"] for row in side["strength"])
    for side in doc["sides"]:  # the names of places are text: the learned agent has no column for them
        assert [row["cannot_read"] for row in side["strength"]] == [[], ["places.names"]]
    assert doc["deals"] == 6 and doc["hands_per_variant"] == 12
    assert [v["label"] for v in doc["variants"]] == ["dagang", "dianshaomenla"]
    assert doc["baseline"] == "dagang"
    ids = [m["id"] for m in doc["metrics"]]
    for needed in ("decisions", "sets", "burn", "men", "open_point", "sweep", "tribute_cards", "score_diff"):
        assert needed in ids
    assert set(doc["results"][0]["metrics"]) == set(ids)
    assert set(doc["differences"][0]["metrics"]) == set(ids)
    hands = sum(doc["score_distribution"][0]["counts"].values())
    assert hands == 12


def test_the_learned_agent_compares_as_before_its_weights_were_read_by_name(
    gouji: click.Group, session7_weights: None
) -> None:
    """``gouji compare dagang dianshaomenla --hands 20 --json`` as it was with the session-7 weights in
    format 1 (schema 2, taken before the conversion): the same document but for the new keys and the
    schema's number."""
    doc = without_timing(run_json(gouji, "dagang", "dianshaomenla", "--hands", "20", "--cross-check", "none"))
    for side in doc["sides"]:
        for row in side["strength"]:
            assert row.pop("never_saw") == []
            assert row.pop("cannot_read") == (["places.names"] if row["variant"] == "dianshaomenla" else [])
            assert row.pop("trained_over") == {"variants": [row["variant"]], "clubs": None}
            assert row.pop("outside_training") is False
            assert row.pop("guards") == []  # schema 6: the session-7 files name no guards
    assert doc.pop("cross_check")["agents"] is None  # schema 5: the cross-check, none asked for here
    for d in doc["differences"]:
        assert d.pop("depends_on_play") == [] and d.pop("cross_check") == {}
    doc["schema_version"] = 2
    text = json.dumps(doc, sort_keys=True, ensure_ascii=False)
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == "d37d7d2d5634645b"


def test_workers_2_equal_workers_1(gouji: click.Group) -> None:
    # 60 deals are three work units, so two processes really share the run
    serial = run_json(gouji, "dagang", "dianshaomenla", "--hands", "60", "--seed", "11")
    pooled = run_json(gouji, "dagang", "dianshaomenla", "--hands", "60", "--seed", "11", "--workers", "2")
    assert pooled["timing"]["backend"] == "process" and pooled["timing"]["workers"] == 2
    assert json.dumps(without_timing(serial)) == json.dumps(without_timing(pooled))


def test_chunking_does_not_change_a_number() -> None:
    whole = compare(["dagang", "dianshaomenla"], 30, seed=2, per_unit=30)
    split = compare(["dagang", "dianshaomenla"], 30, seed=2, per_unit=7)
    whole.pop("deals_per_unit"), split.pop("deals_per_unit")
    assert strip_timing(whole) == strip_timing(split)


def test_a_variant_against_itself_is_indistinguishable_everywhere(gouji: click.Group) -> None:
    doc = run_json(gouji, "dagang", "dagang", "--hands", "20")
    assert [v["label"] for v in doc["variants"]] == ["dagang", "dagang#2"]
    assert doc["rule_differences"] == []
    for metric, est in doc["differences"][0]["metrics"].items():
        assert not est["clear"], metric
        assert est["mean"] == 0
    text = CliRunner().invoke(gouji, ["compare", "dagang", "dagang", "--hands", "20", "--quiet"]).stdout
    rows = [
        line for line in text.splitlines() if line.startswith("  每局") and "比 greedy" not in line
    ]  # not the agents' strength
    diff_column = [line.rsplit("  ", 1)[-1] for line in rows]
    assert diff_column and all("≈0" in cell for cell in diff_column)


def test_duplicate_seating_cancels_team_luck() -> None:
    """With seat-symmetric agents the rotated seating is the same game one seat on: team metrics mirror."""
    doc = compare(["dagang", "dianshaomenla"], 15, seed=3)
    for r in doc["results"]:
        m = r["metrics"]
        assert m["score_diff"]["mean"] == 0
        assert m["team0_win"]["mean"] == m["team1_win"]["mean"]


def test_text_report_lists_rules_and_aligns_columns(gouji: click.Group) -> None:
    from gouji_rules.compare.report import width

    result = CliRunner().invoke(gouji, ["compare", "dagang", "dianshaomenla", "--hands", "8", "--quiet"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert any(line.strip().startswith("scoring.points") for line in lines)
    header = next(line for line in lines if line.startswith("  指标"))
    part = lines[lines.index(header) : lines.index("", lines.index(header))]  # the table's first part
    rows = [line for line in part if line.startswith("  每局")]
    assert rows
    # the metric-id column starts at the same display column on every row, whatever the Chinese label
    col = width(header[: header.index("metric")])
    for row in rows:
        label = row[2:].split(" ")[0]
        gap = len(row) - len(row[2 + len(label) :].lstrip(" ")) - 2 - len(label)
        assert width(row[: 2 + len(label)]) + gap == col, row
    # the last column is right-aligned: every row ends exactly where the underline ends
    rule = lines[lines.index(header) + 1]
    assert {width(row) for row in rows} == {width(rule)}


def test_csv_and_html_files(gouji: click.Group, tmp_path: Path) -> None:
    csv_path, html_path = tmp_path / "c.csv", tmp_path / "c.html"
    result = CliRunner().invoke(
        gouji,
        [
            "compare",
            "dagang",
            "dianshaomenla",
            "--hands",
            "6",
            "--match-hands",
            "0",
            "--quiet",
            "--csv",
            str(csv_path),
            "--html",
            str(html_path),
        ],
    )
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(csv_path.open(encoding="utf-8")))
    assert len(rows) == 2 * len(hand_metrics())
    assert {r["variant"] for r in rows} == {"dagang", "dianshaomenla"}
    assert all(r["baseline"] == "" for r in rows if r["variant"] == "dagang")
    assert all(
        r["baseline"] == "dagang" and r["diff_clear"] in ("true", "false") for r in rows if r["variant"] != "dagang"
    )
    page = html_path.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") >= 3
    assert "scoring.points" in page
    # self-contained: no scripts, stylesheets or images fetched from anywhere
    for needle in ("<script", "<link", "src=", "url(", "@import", "https://"):
        assert needle not in page
    assert not list(tmp_path.glob(".c.*"))  # atomic writes leave no temporary files


def test_usage_errors(gouji: click.Group) -> None:
    runner = CliRunner()
    one = runner.invoke(gouji, ["compare", "dagang"])
    assert one.exit_code == 2 and "at least two" in one.output
    unknown = runner.invoke(gouji, ["compare", "dagang", "dagnag", "--hands", "2", "--quiet"])
    assert unknown.exit_code == 1 and "unknown variant" in unknown.output and "dagang" in unknown.output


def test_missing_dask_is_a_clear_error(gouji: click.Group, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    real = importlib.import_module

    def no_distributed(name: str, package: str | None = None) -> object:
        if name == "distributed":
            raise ImportError("No module named 'distributed'")
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", no_distributed)
    result = CliRunner().invoke(
        gouji, ["compare", "dagang", "dagang", "--hands", "2", "--scheduler", "tcp://127.0.0.1:1"]
    )
    assert result.exit_code == 1
    assert "dask[distributed]" in result.output


def test_labels() -> None:
    assert labels(["a", "a", "a", "b"]) == ["a", "a#2", "a#3", "b"]


def test_memory_stays_flat() -> None:
    """A unit's result has the same size however many deals it covers: sums and bounded histograms only."""
    small = next(plan(0, 5, ["dagang", "dianshaomenla"], "greedy", per_unit=5))
    large = next(plan(0, 60, ["dagang", "dianshaomenla"], "greedy", per_unit=60))
    a, b = run_unit(small), run_unit(large)
    a_size, b_size = len(pickle.dumps(a)), len(pickle.dumps(b))
    histogram_keys = sum(len(h.counts) for h in b.scores) - sum(len(h.counts) for h in a.scores)
    # bigger integers and a few more score values; nothing per hand
    assert b_size - a_size < 400 + 40 * histogram_keys


def test_matches(gouji: click.Group) -> None:
    doc = run_json(gouji, "dagang", "dianshaomenla", "--hands", "4", "--match-hands", "3")
    ids = [m["id"] for m in doc["metrics"]]
    assert "match_score_diff" in ids and "match_team0_win" in ids
    assert doc["hands_per_variant"] == 24
    assert doc["results"][0]["metrics"]["match_hands"]["mean"] == 3
    assert sum(doc["match_score_distribution"][0]["counts"].values()) == 8
    assert sum(doc["score_distribution"][0]["counts"].values()) == 24


def test_a_variant_file_against_its_base(gouji: click.Group, tmp_path: Path) -> None:
    """A club's file (``extends: dagang``) is compared by path; only its own change is a rule difference."""
    club = tmp_path / "club.yaml"
    club.write_text("extends: dagang\nname: club\nscoring:\n  sweep_multiplier: 3\n", encoding="utf-8")
    # greedy, which reads no scoring option (learned reads the rules it plays under, so it may play
    # differently when a sweep pays three times)
    doc = run_json(gouji, "dagang", str(club), "--hands", "6", "--workers", "2", "--agents", "greedy")
    assert [v["label"] for v in doc["variants"]] == ["dagang", "club"]
    assert [(d["path"], d["values"]) for d in doc["rule_differences"]] == [("scoring.sweep_multiplier", [2, 3])]
    # the same cards and the same play: only the sweep hands score differently
    diff = doc["differences"][0]["metrics"]
    assert diff["decisions"]["mean"] == 0 and diff["sets"]["mean"] == 0


def test_an_edited_file_is_reloaded(tmp_path: Path) -> None:
    import os

    club = tmp_path / "club.yaml"
    club.write_text("extends: dagang\nname: club\nscoring:\n  sweep_multiplier: 3\n", encoding="utf-8")
    first = compare(["dagang", str(club)], 1)
    club.write_text("extends: dagang\nname: club\nscoring:\n  sweep_multiplier: 4\n", encoding="utf-8")
    st = club.stat()
    os.utime(club, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # a later edit, whatever the clock
    second = compare(["dagang", str(club)], 1)
    assert first["rule_differences"][0]["values"] == [2, 3]
    assert second["rule_differences"][0]["values"] == [2, 4]


def test_the_report_says_what_the_learned_agent_cannot_read(gouji: click.Group, tmp_path: Path) -> None:
    """A club file with an expression hook: the learned agent plays by the options it reads, and the
    report names the hook it cannot see, in the text and in --json beside never_saw."""
    club = tmp_path / "hooked.yaml"
    club.write_text(
        "extends: dagang\nname: hooked\nhooks:\n  team_score: 'points[0] + points[1] + points[2]'\n", encoding="utf-8"
    )
    doc = run_json(gouji, "dagang", str(club), "--hands", "4", "--match-hands", "0")
    for side in doc["sides"]:
        reads = {row["variant"]: row["cannot_read"] for row in side["strength"]}
        assert reads["dagang"] == [] and reads["hooked"] == ["hooks.team_score"]
    r = CliRunner().invoke(gouji, ["compare", "dagang", str(club), "--hands", "4", "--match-hands", "0"])
    assert r.exit_code == 0, r.output
    flat = " ".join(line.strip() for line in r.output.splitlines())
    assert "learned cannot read hooks.team_score (expression hooks" in flat
    assert "读不到这些规则（表达式钩子和没有输入列的选项）：hooks.team_score" in flat.replace(" ", "")
