"""Kill `gouji event run` with SIGKILL at random points, restart it, and get the uninterrupted result."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from .conftest import gouji, module_argv, run_gouji

BOTS = "a=random,b=greedy,c=random,d=greedy,e=random,f=greedy"


def new(path: Path) -> None:
    r = gouji("event", "new", str(path), "--name", "k", "--bots", BOTS, "--rounds", "6", "--hands", "4", "--seed", "9")
    assert r.exit_code == 0, r.output


def stored(path: Path) -> int:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
    try:
        return int(con.execute("SELECT count(*) FROM hands").fetchone()[0])
    finally:
        con.close()


def test_sigkill_and_resume_gives_the_uninterrupted_event(tmp_path: Path) -> None:
    clean, killed = tmp_path / "clean.sqlite", tmp_path / "killed.sqlite"
    new(clean)
    new(killed)
    started = time.monotonic()
    r = run_gouji("event", "run", str(clean), "--quiet")
    took = time.monotonic() - started  # the compiled build runs this event in well under a second
    assert r.returncode == 0, r.stderr
    total = stored(clean)
    assert total == 6 * 4 * 2  # rounds x hands x (deal + its duplicate)

    rng = random.Random(2024)
    partial = []
    for attempt in range(6):
        before = stored(killed)
        if before == total:
            break
        proc = subprocess.Popen([*module_argv(), "event", "run", str(killed), "--quiet"], stdout=subprocess.DEVNULL)
        if attempt % 2 == 0:
            time.sleep(rng.uniform(0.05, 0.6) * took)  # anywhere before the end, start-up included
        else:
            deadline = time.monotonic() + 20
            while proc.poll() is None and stored(killed) == before and time.monotonic() < deadline:
                time.sleep(0.005)
            time.sleep(rng.uniform(0.0, 0.06))  # mid-run: after a commit, inside the next match
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        n = stored(killed)
        assert n % 4 == 0  # whole matches only: a match is stored in one transaction
        partial.append(n)
    assert any(0 < n < total for n in partial), partial
    r = run_gouji("event", "run", str(killed), "--quiet")
    assert r.returncode == 0, r.stderr

    con = sqlite3.connect(killed)
    keys = con.execute("SELECT round, tbl, hand, rotation FROM hands").fetchall()
    con.close()
    assert len(keys) == len(set(keys)) == total
    assert set(keys) == {(r_, 1, h, rot) for r_ in range(1, 7) for h in range(1, 5) for rot in (0, 1)}

    def doc(p: Path) -> list[dict[str, object]]:
        d = json.loads(gouji("event", "standings", str(p), "--json").stdout)
        rows: list[dict[str, object]] = d["standings"]
        return rows

    assert doc(killed) == doc(clean)
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    gouji("event", "export", str(clean), "--records", str(a))
    gouji("event", "export", str(killed), "--records", str(b))
    assert a.read_text() == b.read_text()
    # a further run replays nothing
    r = run_gouji("event", "run", str(killed))
    assert r.returncode == 0 and "0 match(es) played, 12 already stored" in r.stdout


def bot_processes(marker: str) -> list[int]:
    """Live (not zombie) processes whose command line holds ``marker``."""
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in cmd and state != "Z":
            out.append(int(pid))
    return out


def test_sigkill_with_external_bots_leaves_no_bot_and_loses_nothing(tmp_path: Path) -> None:
    bot = tmp_path / "mybot.py"
    bot.write_bytes((Path(__file__).resolve().parents[2] / "examples" / "bot.py").read_bytes())
    bots = f"x=cmd:{sys.executable} {bot},y=cmd:{sys.executable} {bot},c=random,d=greedy,e=random,f=greedy"
    clean, killed = tmp_path / "clean.sqlite", tmp_path / "killed.sqlite"
    for p in (clean, killed):
        r = gouji("event", "new", str(p), "--name", "k", "--bots", bots, "--rounds", "3", "--hands", "2", "--seed", "4")
        assert r.exit_code == 0, r.output
    assert run_gouji("event", "run", str(clean), "--quiet").returncode == 0
    rng = random.Random(7)
    for _ in range(4):
        proc = subprocess.Popen([*module_argv(), "event", "run", str(killed), "--quiet"], stdout=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.3, 1.5))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 10
        while bot_processes(str(bot)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert bot_processes(str(bot)) == []  # each bot saw its stdin close and ended
        assert stored(killed) % 2 == 0
    assert run_gouji("event", "run", str(killed), "--quiet").returncode == 0
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    gouji("event", "export", str(clean), "--records", str(a))
    gouji("event", "export", str(killed), "--records", str(b))
    assert a.read_text() == b.read_text()
