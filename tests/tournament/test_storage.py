"""The event file: migrations, unique hands, and the rules copy that a later file edit cannot change."""

from __future__ import annotations

import json
import shlex
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from gouji_rules.tournament import schedule
from gouji_rules.tournament.errors import EventError
from gouji_rules.tournament.storage import MIGRATIONS, SCHEMA_VERSION, EventDB, HandRow, migrate

from .conftest import gouji, module_argv, run_gouji, standings_json


def version_1_event(tmp_path: Path, players_csv: Path) -> Path:
    """A new event made to look like a version-1 file: what versions 2 and 3 added is dropped."""
    ev = tmp_path / "e.sqlite"
    assert gouji("event", "new", str(ev), "--name", "e", "--players", str(players_csv)).exit_code == 0
    con = sqlite3.connect(ev)
    con.executescript(
        "DROP INDEX faults_by_entrant; ALTER TABLE audit DROP COLUMN source; DROP TABLE online_moves; "
        "DELETE FROM schema_version WHERE version >= 2;"
    )
    con.close()
    return ev


def test_old_file_is_migrated_and_newer_refused(tmp_path: Path, players_csv: Path) -> None:
    ev = version_1_event(tmp_path, players_csv)
    with EventDB(ev) as db:
        assert db.schema_version() == SCHEMA_VERSION == MIGRATIONS[-1][0]
        assert "source" in {r[1] for r in db.con.execute("PRAGMA table_info(audit)")}
        assert db.online_tables(1) == set()  # version 3: the online journal
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


def _foreign_files(tmp_path: Path) -> dict[str, Path]:
    """Files that are not events: another program's database, an empty file, a CSV, binary garbage."""
    other = tmp_path / "other.db"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT)")
    con.execute("INSERT INTO photos (path) VALUES ('a.jpg')")
    con.commit()
    con.close()
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    csv_file = tmp_path / "players.sqlite"
    csv_file.write_text("name\n张三\n", encoding="utf-8")
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(bytes(range(256)) * 8)
    half = tmp_path / "half.sqlite"
    half.write_bytes(b"SQLite format 3\x00" + b"\x00" * 84)
    return {"other": other, "empty": empty, "csv": csv_file, "garbage": garbage, "half": half}


@pytest.mark.parametrize(
    "command",
    [
        ["standings"],
        ["standings", "--csv"],
        ["status"],
        ["seat", "--round", "1"],
        ["export", "--audit", "OUT"],
        ["record", "--round", "1", "--table", "1", "--hand", "1", "--finish", "0 1 2 3 4 5"],
        ["correct", "--round", "1", "--table", "1", "--hand", "1", "--finish", "0 1 2 3 4 5"],
        ["run", "--quiet"],
    ],
)
def test_a_file_that_is_not_an_event_is_refused_and_left_byte_for_byte(tmp_path: Path, command: list[str]) -> None:
    for kind, path in _foreign_files(tmp_path).items():
        before = path.read_bytes()
        siblings = sorted(p.name for p in tmp_path.iterdir())
        args = [str(tmp_path / "out.jsonl") if a == "OUT" else a for a in command]
        r = gouji("event", args[0], str(path), *args[1:])
        assert r.exit_code == 1, (kind, r.output)
        assert "not an event file" in r.stderr or "is empty" in r.stderr or "damaged" in r.stderr, (kind, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1
        assert path.read_bytes() == before, kind  # not one byte added: no event tables, no growth
        assert sorted(p.name for p in tmp_path.iterdir()) == siblings, kind  # no -wal / -journal left


def test_folders_and_fifos_are_refused_as_events(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path in (tmp_path, fifo, Path("/dev/zero"), tmp_path / "missing.sqlite"):
        for cmd in (
            ["standings"],
            ["record", "--round", "1", "--table", "1", "--hand", "1", "--finish", "0 1 2 3 4 5"],
        ):
            r = run_gouji("event", cmd[0], str(path), *cmd[1:], timeout=30)
            assert r.returncode == 1, (path, r.stderr)
            assert "Traceback" not in r.stderr


def test_read_commands_do_not_write(tmp_path: Path, players_csv: Path) -> None:
    ev = tmp_path / "e.sqlite"
    assert gouji("event", "new", str(ev), "--name", "e", "--players", str(players_csv)).exit_code == 0
    args = ["event", "record", str(ev), "--round", "1", "--table", "1", "--hand", "1", "--finish", "0 1 2 3 4 5"]
    assert gouji(*args).exit_code == 0
    before = ev.read_bytes()
    stamp = ev.stat().st_mtime_ns
    for cmd in (["standings"], ["standings", "--json"], ["status"], ["seat", "--round", "2"]):
        assert gouji("event", cmd[0], str(ev), *cmd[1:]).exit_code == 0
    assert gouji("event", "export", str(ev), "--audit", str(tmp_path / "a.jsonl")).exit_code == 0
    assert ev.read_bytes() == before and ev.stat().st_mtime_ns == stamp
    # SQLite's read-only WAL reader may leave its empty index files beside the event, nothing else
    left = sorted(p.name for p in tmp_path.iterdir() if p.name not in ("e.sqlite-wal", "e.sqlite-shm"))
    assert left == ["a.jsonl", "e.sqlite", "players.csv"]
    wal = tmp_path / "e.sqlite-wal"
    assert not wal.exists() or wal.stat().st_size == 0


def test_an_old_event_is_read_without_being_migrated(tmp_path: Path, players_csv: Path) -> None:
    ev = version_1_event(tmp_path, players_csv)
    before = ev.read_bytes()
    r = gouji("event", "standings", str(ev), "--json")
    assert r.exit_code == 0, r.output
    assert ev.read_bytes() == before  # migrated in memory for the read; the file waits for a write command


def test_outputs_never_overwrite_the_event(tmp_path: Path, players_csv: Path) -> None:
    ev = tmp_path / "e.sqlite"
    assert gouji("event", "new", str(ev), "--name", "e", "--players", str(players_csv)).exit_code == 0
    before = ev.read_bytes()
    for args in (
        ["event", "standings", str(ev), "--csv", "-o", str(ev)],
        ["event", "standings", str(ev), "-o", str(tmp_path / "." / "e.sqlite")],
        ["event", "export", str(ev), "--records", str(ev)],
        ["event", "export", str(ev), "--audit", str(tmp_path / "x"), "--results", str(tmp_path / "x")],
        ["simulate", "--hands", "1", "--records", str(ev)],
    ):
        r = gouji(*args)
        assert r.exit_code == 1, (args, r.output)
        assert "Traceback" not in r.output
    assert ev.read_bytes() == before
    assert not (tmp_path / "x").exists()


def test_reads_work_on_a_read_only_medium(tmp_path: Path, players_csv: Path) -> None:
    """A USB stick mounted read-only: standings and export still work (SQLite's immutable mode)."""
    import shutil

    if shutil.which("unshare") is None or shutil.which("mount") is None:
        pytest.skip("needs unshare and mount")
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("user namespaces are not available here")
    ev = tmp_path / "e.sqlite"
    assert gouji("event", "new", str(ev), "--name", "e", "--players", str(players_csv)).exit_code == 0
    args = ["event", "record", str(ev), "--round", "1", "--table", "1", "--hand", "1", "--finish", "0 1 2 3 4 5"]
    assert gouji(*args).exit_code == 0
    mnt = tmp_path / "ro"
    mnt.mkdir()
    gouji_cmd = " ".join(shlex.quote(a) for a in module_argv())
    script = (
        f"set -e; mount -t tmpfs none {mnt}; cp {ev} {mnt}/e.sqlite; mount -o remount,ro {mnt}; "
        f"{gouji_cmd} event standings {mnt}/e.sqlite --json; "
        f"{gouji_cmd} event status {mnt}/e.sqlite; "
        f"{gouji_cmd} event record {mnt}/e.sqlite --round 1 --table 1 --hand 2 --finish '0 1 2 3 4 5' || echo WRITE=$?"
    )
    r = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert '"hands_recorded": 1' in r.stdout and "WRITE=1" in r.stdout
    assert "Traceback" not in r.stderr


def test_reads_work_in_a_write_protected_folder(tmp_path: Path, players_csv: Path) -> None:
    """Another user's folder that this user may read but not write: reads work, a write says why."""
    import os
    import shutil

    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root to switch to an unprivileged user")
    probe = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable, "-c", "import gouji_rules"]
    if subprocess.run(probe, capture_output=True, check=False).returncode != 0:
        pytest.skip("the unprivileged user cannot read this checkout (it sits in a private folder)")
    ev = tmp_path / "e.sqlite"
    assert gouji("event", "new", str(ev), "--name", "e", "--players", str(players_csv)).exit_code == 0
    import tempfile

    with tempfile.TemporaryDirectory() as top:  # under /tmp, which every user may enter
        Path(top).chmod(0o755)
        shut = Path(top) / "shut"
        shut.mkdir()
        shutil.copy(ev, shut / "e.sqlite")
        shut.chmod(0o555)
        (shut / "e.sqlite").chmod(0o444)
        try:
            _as_nobody(shut)
        finally:
            shut.chmod(0o755)


def _as_nobody(shut: Path) -> None:
    import os

    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *module_argv()]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    r = subprocess.run([*nobody, "event", "status", str(shut / "e.sqlite")], capture_output=True, text=True, env=env)
    assert r.returncode == 0 and "已录入 0 / " in r.stdout, r.stderr
    args = ["event", "record", str(shut / "e.sqlite"), "--round", "1", "--table", "1", "--hand", "1"]
    r = subprocess.run([*nobody, *args, "--finish", "0 1 2 3 4 5"], capture_output=True, text=True, env=env)
    assert r.returncode == 1 and "cannot be" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert sorted(p.name for p in shut.iterdir()) == ["e.sqlite"]
