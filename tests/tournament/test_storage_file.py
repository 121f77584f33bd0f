"""The event file under attack: a crash that leaves results in the WAL, a file deleted or replaced while open,
a full disk, and settings tampered with by hand."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gouji_rules.tournament import club
from gouji_rules.tournament.club import Entry
from gouji_rules.tournament.errors import EventError, EventFileChanged, EventFileFull
from gouji_rules.tournament.event import Tournament
from gouji_rules.tournament.storage import EventDB

from .conftest import gouji, module_argv

CRASH = """
import os, signal, sys
from gouji_rules.tournament import club
from gouji_rules.tournament.club import Entry
from gouji_rules.tournament.event import Tournament
ev = Tournament.open(sys.argv[1])
ev.db.con.execute("PRAGMA wal_autocheckpoint=0")  # the results stay in the WAL, as after a server's crash
for hand in (1, 2):
    club.record(ev, [("crash test", Entry(1, 1, hand, ["0", "1", "2", "3", "4", "5"]))])
os.kill(os.getpid(), signal.SIGKILL)
"""


def new_event(tmp_path: Path, players_csv: Path, name: str = "e.sqlite") -> Path:
    ev = tmp_path / name
    assert gouji("event", "new", str(ev), "--name", "e", "--players", str(players_csv)).exit_code == 0
    return ev


def crash_after_two_hands(ev: Path) -> None:
    """Two hands recorded by a process killed with SIGKILL before it could checkpoint: both live only in the WAL."""
    r = subprocess.run([sys.executable, "-c", CRASH, str(ev)], capture_output=True, text=True, timeout=120)
    assert r.returncode == -9, r.stderr
    assert Path(f"{ev}-wal").stat().st_size > 0
    # the file alone does not have them: a reader that ignored the WAL would see none
    con = sqlite3.connect(f"file:{ev}?mode=ro&immutable=1", uri=True)
    assert con.execute("SELECT count(*) FROM hands").fetchone()[0] == 0
    con.close()


def _nobody_can_run_gouji() -> bool:
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        return False
    probe = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable, "-c", "import gouji_rules"]
    return subprocess.run(probe, capture_output=True, check=False).returncode == 0


@pytest.fixture
def shut_folder() -> Iterator[Path]:
    """A folder under /tmp that an unprivileged user may read but not write."""
    with tempfile.TemporaryDirectory() as top:
        Path(top).chmod(0o755)
        shut = Path(top) / "shut"
        shut.mkdir()
        try:
            yield shut
        finally:
            shut.chmod(0o755)


@pytest.mark.parametrize("with_index", [False, True], ids=["wal-only", "wal-and-shm"])
def test_a_reader_who_cannot_write_reads_the_results_still_in_the_wal(
    tmp_path: Path, players_csv: Path, shut_folder: Path, with_index: bool
) -> None:
    if not _nobody_can_run_gouji():
        pytest.skip("needs root, setpriv, and a checkout the unprivileged user can read")
    ev = new_event(tmp_path, players_csv)
    crash_after_two_hands(ev)
    for suffix in ("", "-wal", *(("-shm",) if with_index else ())):
        shutil.copy(f"{ev}{suffix}", shut_folder / f"e.sqlite{suffix}")
        (shut_folder / f"e.sqlite{suffix}").chmod(0o444)
    shut_folder.chmod(0o555)
    before = {p.name: p.read_bytes() for p in shut_folder.iterdir()}
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *module_argv()]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "TMPDIR": "/tmp"}
    target = str(shut_folder / "e.sqlite")
    status = subprocess.run([*nobody, "event", "status", target], capture_output=True, text=True, env=env)
    assert status.returncode == 0 and "已录入 2 / " in status.stdout, (status.stdout, status.stderr)
    table = subprocess.run([*nobody, "event", "standings", target, "--json"], capture_output=True, text=True, env=env)
    assert table.returncode == 0, table.stderr
    assert max(row["hand_points"] for row in json.loads(table.stdout)["standings"]) > 0
    verify = subprocess.run([*nobody, "verify", target], capture_output=True, text=True, env=env)
    assert verify.returncode == 0 and "2 verified" in verify.stdout + verify.stderr, verify.stdout + verify.stderr
    assert {p.name: p.read_bytes() for p in shut_folder.iterdir()} == before  # read, never written
    assert "Traceback" not in status.stderr + table.stderr + verify.stderr


def test_a_wal_this_user_cannot_read_is_an_error_that_says_what_to_do(
    tmp_path: Path, players_csv: Path, shut_folder: Path
) -> None:
    if not _nobody_can_run_gouji():
        pytest.skip("needs root, setpriv, and a checkout the unprivileged user can read")
    ev = new_event(tmp_path, players_csv)
    crash_after_two_hands(ev)
    shutil.copy(ev, shut_folder / "e.sqlite")
    shutil.copy(f"{ev}-wal", shut_folder / "e.sqlite-wal")
    (shut_folder / "e.sqlite").chmod(0o444)
    (shut_folder / "e.sqlite-wal").chmod(0o400)  # the owner's only
    shut_folder.chmod(0o555)
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *module_argv()]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "TMPDIR": "/tmp"}
    r = subprocess.run(
        [*nobody, "event", "status", str(shut_folder / "e.sqlite")], capture_output=True, text=True, env=env
    )
    assert r.returncode == 1 and "e.sqlite-wal" in r.stderr and "copy" in r.stderr, r.stderr
    assert "0 of" not in r.stdout and "Traceback" not in r.stderr


def test_a_read_only_medium_with_a_hot_wal_is_read_whole(tmp_path: Path, players_csv: Path) -> None:
    """A USB stick pulled from the laptop after a crash, mounted read-only: the results in its WAL count."""
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode:
        pytest.skip("needs user namespaces (unshare -rm)")
    ev = new_event(tmp_path, players_csv)
    crash_after_two_hands(ev)
    mnt = tmp_path / "ro"
    mnt.mkdir()
    gouji_cmd = " ".join(module_argv())
    script = (
        f"set -e; mount -t tmpfs none {mnt}; cp {ev} {ev}-wal {mnt}/; mount -o remount,ro {mnt}; "
        f"{gouji_cmd} event status {mnt}/e.sqlite; "
        f"{gouji_cmd} event serve {mnt}/e.sqlite --port 1 || echo SERVE=$?"
    )
    r = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "已录入 2 / " in r.stdout and "SERVE=1" in r.stdout, r.stdout
    assert "cannot be written" in r.stderr and "Traceback" not in r.stderr


def test_a_deleted_event_file_takes_no_write(tmp_path: Path, players_csv: Path) -> None:
    ev = new_event(tmp_path, players_csv)
    with Tournament.open(ev) as t:
        ev.unlink()
        with pytest.raises(EventFileChanged, match="deleted or moved"):
            club.record(t, [("test", Entry(1, 1, 1, ["0", "1", "2", "3", "4", "5"]))])
        assert t.db.hands() == []  # rolled back: not even the unlinked file took it


def test_a_replaced_event_file_takes_no_write(tmp_path: Path, players_csv: Path) -> None:
    ev = new_event(tmp_path, players_csv)
    other = new_event(tmp_path, players_csv, "other.sqlite")
    with Tournament.open(ev) as t:
        os.replace(other, ev)  # a restore, or a copy from a stick, renamed into place
        with pytest.raises(EventFileChanged, match="replaced"):
            club.record(t, [("test", Entry(1, 1, 1, ["0", "1", "2", "3", "4", "5"]))])
    with Tournament.open(ev, write=False) as fresh:
        assert fresh.db.hands() == []


class FailingCommit:
    """A connection whose COMMIT fails as on a full disk; ``undone`` says whether SQLite rolled back itself."""

    def __init__(self, con: sqlite3.Connection, undone: bool) -> None:
        self.con = con
        self.undone = undone

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT":
            if self.undone:
                self.con.execute("ROLLBACK")
            raise sqlite3.OperationalError("database or disk is full")
        return self.con.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.con, name)


@pytest.mark.parametrize("undone", [False, True], ids=["open-transaction", "already-rolled-back"])
def test_a_commit_on_a_full_disk_is_rolled_back_without_a_second_error(
    tmp_path: Path, players_csv: Path, undone: bool
) -> None:
    ev = new_event(tmp_path, players_csv)
    with Tournament.open(ev) as t:
        real = t.db.con
        t.db.con = FailingCommit(real, undone)  # type: ignore[assignment]
        with pytest.raises(EventFileFull, match="disk is full"):
            club.record(t, [("test", Entry(1, 1, 1, ["0", "1", "2", "3", "4", "5"]))])
        t.db.con = real
        assert not real.in_transaction and t.db.hands() == []
        club.record(t, [("test", Entry(1, 1, 1, ["0", "1", "2", "3", "4", "5"]))])  # space again: it works
        assert len(t.db.hands()) == 1


def test_a_file_that_cannot_grow_refuses_the_change_and_keeps_the_rest(tmp_path: Path, players_csv: Path) -> None:
    ev = new_event(tmp_path, players_csv)
    with Tournament.open(ev) as t:
        pages = t.db.con.execute("PRAGMA page_count").fetchone()[0]
        t.db.con.execute(f"PRAGMA max_page_count = {pages}")  # SQLITE_FULL at the first page the change needs
        keys = [(r, tbl, h) for r in (1, 2, 3) for tbl in (1, 2) for h in range(1, t.hands_per_match + 1)]
        stored = 0
        with pytest.raises(EventFileFull, match="disk is full"):
            for r, tbl, h in keys:  # each hand adds a row and an audit entry; soon one needs a new page
                club.record(t, [("test", Entry(r, tbl, h, ["0", "1", "2", "3", "4", "5"]))])
                stored += 1
        assert 0 < stored < len(keys) and len(t.db.hands()) == stored  # the refused hand left nothing behind
        assert not t.db.con.in_transaction
    assert gouji("verify", str(ev)).exit_code == 0


TAMPERED: dict[str, Any] = {
    "hands": 10**9,
    "rounds": -3,
    "tables": 10**6,
    "seed": 2**70,
    "name": 7,
    "duplicate": "yes",
    "mode": "chaos",
    "format": "knockout",
    "tiebreaks": ["hand_points", "hand_points"],
    "web_secret": "",
}


@pytest.mark.parametrize("key", list(TAMPERED))
def test_a_tampered_setting_is_a_damaged_file_not_a_hang(tmp_path: Path, players_csv: Path, key: str) -> None:
    ev = new_event(tmp_path, players_csv)
    con = sqlite3.connect(ev)
    con.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, json.dumps(TAMPERED[key])))
    con.commit()
    con.close()
    for cmd in (["status"], ["standings"]):
        r = gouji("event", cmd[0], str(ev))
        assert r.exit_code == 1, (key, r.output)
        assert "the event file is damaged" in r.stderr and repr(key) in r.stderr, r.stderr
    with pytest.raises(EventError, match="damaged"):
        EventDB(ev, write=False)


@pytest.mark.parametrize("value", ["1e9", "true", "NaN", "[" * 5000 + "]" * 5000, "x"])
def test_settings_that_are_not_numbers_are_refused(tmp_path: Path, players_csv: Path, value: str) -> None:
    ev = new_event(tmp_path, players_csv)
    con = sqlite3.connect(ev)
    con.execute("UPDATE meta SET value = ? WHERE key = 'hands'", (value,))
    con.commit()
    con.close()
    r = gouji("event", "status", str(ev))
    assert r.exit_code == 1 and "damaged" in r.stderr, r.output
