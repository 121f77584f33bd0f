"""``gouji review``: text in Chinese with seats 1-6, JSON with seats 0-5, the phone page through the
output-path rule, and one clear line for every bad input (exit 1, or 2 for a usage error)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from gouji_rules.cli import main
from gouji_rules.records import rules_line

from .conftest import Pair


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory, pair: Pair) -> dict[str, Path]:
    v, bad, good, at, _ = pair
    d = tmp_path_factory.mktemp("review")
    out = {}
    # a rules line and two hands: the one with the 失误, then the one without
    out["bad"] = d / "bad.jsonl"
    out["bad"].write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in (rules_line(v), bad, good)) + "\n")
    broken = {**bad, "actions": [*bad["actions"][:5], "3:BJBJBJBJ", *bad["actions"][6:]]}
    out["broken"] = d / "broken.jsonl"
    out["broken"].write_text(json.dumps(broken) + "\n")
    out["short"] = d / "short.jsonl"  # cut off in the middle of the hand
    out["short"].write_text(json.dumps({**bad, "actions": bad["actions"][:40]}) + "\n")
    out["text"] = d / "notes.txt"
    out["text"].write_text("这不是记录\n")
    out["at"] = Path(str(at))
    return out


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


def test_text_counts_seats_from_one_and_marks_the_mistake(files: dict[str, Path]) -> None:
    code, out, err = run(
        "review", str(files["bad"]), "--seat", "1", "--hand", "1", "--worlds", "4", "--candidates", "1"
    )
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("复盘 第1座（dagang）")
    [line] = [x for x in lines if f"第{int(str(files['at'])):>3}步" in x]
    assert "打出 过牌" in line and "AI选 出 BJ" in line and line.endswith("【失误】")
    assert lines[-1].startswith("与AI一致率")


def test_json_counts_seats_from_zero_and_html_is_written(files: dict[str, Path], tmp_path: Path) -> None:
    page = tmp_path / "复盘.html"
    code, out, err = run(
        "review", str(files["bad"]), "--seat", "1", "--hand", "1", "--worlds", "1", "--candidates", "1",
        "--json", "--html", str(page),
    )  # fmt: skip
    assert code == 0, err
    doc = json.loads(out)
    assert doc["seat"] == 0 and doc["worlds"] == 1 and doc["hands"][0]["hand"] == 1
    html = page.read_text(encoding="utf-8")
    assert 'name="viewport"' in html and "复盘 · 第1座" in html and "提示" in html


@pytest.mark.parametrize(
    ("args", "codes", "says"),
    [
        (("--seat", "0"), {2}, "1<=x<=6"),
        (("--seat", "7"), {2}, "1<=x<=6"),
        (("--seat", "1", "--hand", "9"), {1}, "has 2 hand records, not 9"),
        (("--seat", "1", "--variant", "dianshaomenla"), {1}, "played under other rules"),
        (("--seat", "1", "--worlds", "0"), {2}, "1<=x<=10000"),
    ],
)
def test_bad_options(files: dict[str, Path], args: tuple[str, ...], codes: set[int], says: str) -> None:
    code, _, err = run("review", str(files["bad"]), *args)
    assert code in codes and says in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("text", "not JSON"),
        ("broken", "hand 1: action 6 (3:BJBJBJBJ): illegal"),
        ("short", "hand 1: the actions end after action 40 but the hand is not over"),
    ],
)
def test_bad_files_get_one_line(files: dict[str, Path], name: str, says: str) -> None:
    code, out, err = run("review", str(files[name]), "--seat", "1", "--worlds", "1", "--candidates", "1")
    assert code == 1 and out == ""
    assert len(err.strip().splitlines()) == 1 and says in err and str(files[name]) in err


def test_an_event_file_is_sent_to_export(tmp_path: Path) -> None:
    import sqlite3

    event = tmp_path / "night.sqlite"
    con = sqlite3.connect(event)
    con.execute("CREATE TABLE meta (key TEXT)")
    con.commit()
    con.close()
    code, _, err = run("review", str(event), "--seat", "1")
    assert code == 1 and "gouji event export" in err and len(err.strip().splitlines()) == 1


def test_special_files_are_refused(files: dict[str, Path], tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    code, _, err = run("review", str(fifo), "--seat", "1")
    assert code == 1 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    code, _, err = run("review", str(tmp_path), "--seat", "1")
    assert code in (1, 2) and "Traceback" not in err


def test_the_page_never_overwrites_the_records_or_a_folder(files: dict[str, Path], tmp_path: Path) -> None:
    before = files["bad"].read_bytes()
    code, _, err = run("review", str(files["bad"]), "--seat", "1", "--html", str(files["bad"]))
    assert code == 1 and "also an input" in err and files["bad"].read_bytes() == before
    code, _, err = run("review", str(files["bad"]), "--seat", "1", "--html", str(tmp_path))
    assert code == 1 and "Traceback" not in err
