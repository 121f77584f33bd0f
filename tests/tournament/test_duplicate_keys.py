"""A record whose object names a key twice is refused wherever records are read (issue 30 item 4).

Python's json keeps the last copy of a key, other readers the first: a record with ``"seed": 1`` and
later ``"seed": 2`` would verify under one seed and be read under the other.  Neither copy is the record.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from gouji_rules.inputs import DuplicateKey, loads_strict

from .conftest import gouji


def _records(tmp_path: Path) -> tuple[Path, list[str]]:
    out = tmp_path / "r.jsonl"
    assert gouji("simulate", "--hands", "2", "--records", str(out), "--quiet").exit_code == 0
    return out, out.read_text(encoding="utf-8").splitlines()


def _seed_twice(line: str) -> str:
    """The hand line with a wrong seed first and its own seed after it: Python keeps the last, which verifies."""
    return line.replace('"seed": ', '"seed": 1, "seed": ', 1)


def test_verify_refuses_a_record_with_its_seed_twice(tmp_path: Path) -> None:
    out, lines = _records(tmp_path)
    lines[1] = _seed_twice(lines[1])
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = gouji("verify", str(out))
    assert r.exit_code == 1
    assert f"{out}:2: error: key 'seed' appears twice" in r.output.splitlines()
    assert "1 record(s) read, 1 verified, 1 problem(s)" in r.output
    assert "Traceback" not in r.output


def test_a_key_twice_deep_inside_a_record_or_in_the_rules_line_is_refused(tmp_path: Path) -> None:
    out, lines = _records(tmp_path)
    lines[0] = lines[0].replace('"rules": {', '"rules": {"burn": {}, ', 1)  # the rules line's burn section twice
    lines[2] = lines[2].replace('"leader": ', '"leader": 3, "leader": ', 1)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = gouji("verify", str(out))
    assert r.exit_code == 1
    got = r.output.splitlines()
    assert f"{out}:1: error: key 'burn' appears twice" in got
    assert f"{out}:3: error: key 'leader' appears twice" in got


def test_a_pretty_printed_record_with_a_key_twice_is_one_problem(tmp_path: Path) -> None:
    _, lines = _records(tmp_path)
    rules, hand = json.loads(lines[0]), json.loads(lines[1])
    text = json.dumps({**hand, "rules": rules["rules"]}, indent=2)
    text = text.replace('"seed": ', '"seed": 1,\n  "seed": ', 1)
    one = tmp_path / "one.json"
    one.write_text(text, encoding="utf-8")
    r = gouji("verify", str(one))
    assert r.exit_code == 1
    assert [ln for ln in r.output.splitlines() if "error" in ln] == [f"{one}:1: error: key 'seed' appears twice"]


def test_replay_refuses_it_too(tmp_path: Path) -> None:
    out, lines = _records(tmp_path)
    lines[1] = _seed_twice(lines[1])
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = gouji("replay", str(out), "--hand", "1")
    assert r.exit_code == 1
    assert r.stderr.strip() == f"{out}:2: error: key 'seed' appears twice"


def test_a_hand_stored_with_a_key_twice_makes_the_event_file_damaged(tmp_path: Path, players_csv: Path) -> None:
    ev = tmp_path / "cup.sqlite"
    assert gouji("event", "new", str(ev), "--name", "cup", "--players", str(players_csv)).exit_code == 0
    key = ["--round", "1", "--table", "1", "--hand", "1"]
    assert gouji("event", "record", str(ev), *key, "--finish", "0 1 2 3 4 5").exit_code == 0
    with sqlite3.connect(ev) as con:
        (rec,) = con.execute("SELECT record FROM hands").fetchone()
        con.execute("UPDATE hands SET record = ?", (rec.replace('"scores": ', '"scores": [9, -9], "scores": ', 1),))
    con.close()
    r = gouji("verify", str(ev))
    assert r.exit_code == 1
    assert "key 'scores' appears twice" in r.output and "0 verified" in r.output


def test_the_strict_reader_keeps_json_otherwise() -> None:
    assert loads_strict('{"a": {"b": 1}, "c": [{"b": 2}, {"b": 3}]}') == {"a": {"b": 1}, "c": [{"b": 2}, {"b": 3}]}
    with pytest.raises(DuplicateKey, match="key 'b' appears twice"):
        loads_strict('{"a": [{"b": 1, "b": 1}]}')  # even with the same value: the file is not what it says
