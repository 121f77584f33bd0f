"""Two scorers at once: the already-recorded check and the write are one transaction (issue 12 item 1)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import time
from pathlib import Path

from .conftest import gouji, module_argv

TRIALS = 16


def _event(tmp_path: Path, players_csv: Path) -> Path:
    ev = tmp_path / "race.sqlite"
    r = gouji("event", "new", str(ev), "--name", "race", "--players", str(players_csv), "--hands", str(TRIALS))
    assert r.exit_code == 0, r.output
    return ev


def test_two_processes_record_one_hand_exactly_one_lands(tmp_path: Path, players_csv: Path) -> None:
    ev = _event(tmp_path, players_csv)
    finishes = ["0 1 2 3 4 5", "5 4 3 2 1 0"]
    outcomes = []
    for hand in range(1, TRIALS + 1):
        base = [*module_argv(), "event", "record", str(ev), "--round", "1", "--table", "1", "--hand", str(hand)]
        procs = [
            subprocess.Popen([*base, "--finish", f], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for f in finishes
        ]
        done = [(p.wait(timeout=60), *p.communicate()) for p in procs]
        codes = sorted(rc for rc, _out, _err in done)
        assert codes == [0, 1], done
        for rc, _out, err in done:
            assert "Traceback" not in err
            if rc == 1:
                assert "is already recorded" in err and "gouji event correct" in err, err
        winner = finishes[[rc for rc, _o, _e in done].index(0)]
        outcomes.append(winner)
        with sqlite3.connect(ev) as con:
            (result,) = con.execute("SELECT result FROM hands WHERE round=1 AND tbl=1 AND hand=?", (hand,)).fetchone()
            audit = con.execute("SELECT action FROM audit WHERE round=1 AND tbl=1 AND hand=?", (hand,)).fetchall()
        assert " ".join(map(str, json.loads(result)["finish"])) == winner  # the stored hand is the one that said ok
        assert audit == [("record",)]  # and the audit trail never calls the loser a correction
    assert len(outcomes) == TRIALS


def test_a_busy_event_waits_a_bounded_time_then_says_so(tmp_path: Path, players_csv: Path) -> None:
    ev = _event(tmp_path, players_csv)
    holder = sqlite3.connect(ev, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another command in the middle of a long write
    try:
        args = ["event", "record", str(ev), "--round", "1", "--table", "1", "--hand", "1", "--finish", "0 1 2 3 4 5"]
        start = time.monotonic()
        r = subprocess.run([*module_argv(), *args, "--wait", "0.5"], capture_output=True, text=True, timeout=60)
        assert time.monotonic() - start < 30
        assert r.returncode == 1 and "busy" in r.stderr and "nothing was changed" in r.stderr, r.stderr
        assert "Traceback" not in r.stderr
        # reads do not wait for a writer
        assert gouji("event", "standings", str(ev)).exit_code == 0
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert gouji("event", "record", str(ev), *args[3:]).exit_code == 0


def test_a_correction_worked_out_from_a_stale_result_is_refused(tmp_path: Path, players_csv: Path) -> None:
    """Two scorers correct one hand at once: the second worked from the result before the first's
    change, so storing it would undo that change without a word; it is refused instead."""
    import pytest

    from gouji_rules.tournament.club import Entry, record
    from gouji_rules.tournament.errors import HandChanged
    from gouji_rules.tournament.event import Tournament

    ev = _event(tmp_path, players_csv)
    key = ["--round", "1", "--table", "1", "--hand", "1"]
    assert gouji("event", "record", str(ev), *key, "--finish", "0 1 2 3 4 5").exit_code == 0
    with Tournament.open(ev) as e:
        seen = e.db.revision(1, 1, 1)
        assert seen > 0
    assert gouji("event", "correct", str(ev), *key, "--finish", "1 0 2 3 4 5").exit_code == 0
    with Tournament.open(ev) as e:
        entry = Entry(1, 1, 1, ["0", "1", "2", "3", "4", "5"], men=["5:4"])
        with pytest.raises(HandChanged, match="changed by another command or on the web"):
            record(e, [("test", entry)], correct=True, revisions={(1, 1, 1): seen})
    assert len(_audit_rows(ev)) == 2


def _audit_rows(ev: Path) -> list[tuple[str]]:
    with sqlite3.connect(ev) as con:
        return list(con.execute("SELECT action FROM audit"))
