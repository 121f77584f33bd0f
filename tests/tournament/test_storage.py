"""The event file: migrations, unique hands, and the rules copy that a later file edit cannot change."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from gouji_rules.tournament import schedule
from gouji_rules.tournament.errors import EventError
from gouji_rules.tournament.storage import MIGRATIONS, SCHEMA_VERSION, EventDB, HandRow, migrate

from .conftest import gouji, standings_json


def test_old_file_is_migrated_and_newer_refused(tmp_path: Path, players_csv: Path) -> None:
    ev = tmp_path / "e.sqlite"
    assert gouji("event", "new", str(ev), "--name", "e", "--players", str(players_csv)).exit_code == 0
    # make it look like a version-1 file: drop what version 2 added
    con = sqlite3.connect(ev)
    con.executescript(
        "DROP INDEX faults_by_entrant; ALTER TABLE audit DROP COLUMN source; DELETE FROM schema_version WHERE version = 2;"
    )
    con.close()
    with EventDB(ev) as db:
        assert db.schema_version() == SCHEMA_VERSION == MIGRATIONS[-1][0]
        assert "source" in {r[1] for r in db.con.execute("PRAGMA table_info(audit)")}
        assert db.con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con = sqlite3.connect(ev)
    con.execute("INSERT INTO schema_version VALUES (99, 'from the future')")
    con.commit()
    con.close()
    with pytest.raises(EventError, match="schema version 99"):
        EventDB(ev)


def test_a_hand_is_stored_once(tmp_path: Path) -> None:
    con = sqlite3.connect(":memory:", isolation_level=None)
    migrate(con)
    row = HandRow(1, 1, 1, 0, [1, 2, 3, 4, 5, 6], (2, 0), {}, {})
    EventDB.put_hand(con, row)
    with pytest.raises(sqlite3.IntegrityError):
        EventDB.put_hand(con, row)
    EventDB.put_hand(con, HandRow(1, 1, 1, 1, [1, 2, 3, 4, 5, 6], (2, 0), {}, {}))  # its duplicate deal


def test_new_never_overwrites(tmp_path: Path, players_csv: Path) -> None:
    ev = tmp_path / "e.sqlite"
    assert gouji("event", "new", str(ev), "--name", "e", "--players", str(players_csv)).exit_code == 0
    r = gouji("event", "new", str(ev), "--name", "e", "--players", str(players_csv))
    assert r.exit_code == 1 and "never overwritten" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e.sqlite", "players.csv"]


def test_scores_use_the_copy_not_the_edited_file(tmp_path: Path, players_csv: Path) -> None:
    rules = tmp_path / "club.yaml"
    rules.write_text("extends: dagang\nname: club\nscoring:\n  points: [3, 1, 0, 0, -1, -3]\n", encoding="utf-8")
    ev = tmp_path / "e.sqlite"
    r = gouji("event", "new", str(ev), "--name", "e", "--players", str(players_csv), "--variant", str(rules))
    assert r.exit_code == 0, r.output
    rules.write_text("extends: dagang\nname: club\nscoring:\n  points: [9, 9, 0, 0, -9, -9]\n", encoding="utf-8")
    args = ["event", "record", str(ev), "--round", "1", "--table", "1", "--hand", "1", "--finish", "0 1 2 3 4 5"]
    r = gouji(*args, "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["hands"][0]["scores"] == [2, 0]  # 3+0-1, and 1+0-3 -> 0 (positive only)
    rules.unlink()
    assert max(x["hand_points"] for x in standings_json(ev)) == 2
    # the exported result record verifies under the copy's rules file
    out = tmp_path / "r.jsonl"
    gouji("event", "export", str(ev), "--records", str(out))
    rules.write_text("extends: dagang\nname: club\nscoring:\n  points: [3, 1, 0, 0, -1, -3]\n", encoding="utf-8")
    assert gouji("verify", str(out), "--variant", str(rules)).exit_code == 0
    assert gouji("verify", str(out), "--variant", "dianshaomenla").exit_code == 1


def test_schedules() -> None:
    rounds = schedule.rotating(12, 3, seed=1)
    partners = set()
    for tables in rounds:
        assert sorted(p for t in tables for p in t) == list(range(12))
        for t in tables:
            for side in (t[0::2], t[1::2]):
                for i in range(3):
                    for j in range(i + 1, 3):
                        pair = frozenset((side[i], side[j]))
                        assert pair not in partners  # 12 players, 3 rounds: nobody partners anyone twice
                        partners.add(pair)
    assert schedule.rotating(12, 3, seed=1) == rounds
    rr = schedule.round_robin(["a", "b", "c", "d", "e"])
    met = [frozenset(p) for pairs, _ in rr for p in pairs]
    assert len(met) == len(set(met)) == 10 and sorted(b for _, bs in rr for b in bs) == ["a", "b", "c", "d", "e"]
    pairs, byes = schedule.swiss(["a", "b", "c", "d"], {frozenset("ab"), frozenset("cd")}, set())
    assert pairs == [("a", "c"), ("b", "d")] and byes == []
