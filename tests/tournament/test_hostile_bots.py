"""Hostile bots: any reply, however large, deep or malformed, is a logged and bounded fault; no traceback, no leftovers."""

from __future__ import annotations

import os
import sqlite3
import sys
import textwrap
import time
from pathlib import Path

import pytest

from gouji_rules.tournament import bots
from gouji_rules.tournament.errors import EventError
from gouji_rules.tournament.event import Tournament
from gouji_rules.tournament.run import run_event

from .conftest import run_gouji

# Plays the first legal action with the request's id, except on its 3rd request where it does MODE.
HOSTILE = textwrap.dedent(
    """
    import json, os, subprocess, sys, time
    MODE, MARK = sys.argv[1], sys.argv[2]
    out = sys.stdout.buffer
    def say(data):
        out.write(data + b"\\n"); out.flush()
    if MODE == "fork":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
        open(MARK + ".pid", "w").write(str(child.pid))
    n = 0
    for line in sys.stdin:
        req = json.loads(line)
        if req["type"] == "hello":
            say(json.dumps({"type": "hello", "id": req["id"]}).encode())
        if req["type"] != "act":
            continue
        n += 1
        rid = req["id"]
        if n == 3 and not os.path.exists(MARK):
            open(MARK, "w").close()
            if MODE == "deep":
                say(b'{"id": %d, "action": ' % rid + b"[" * 30000 + b"]" * 30000 + b"}")
            elif MODE == "digits":
                say(b'{"id": %d, "action": ' % rid + b"9" * 500000 + b"}")
            elif MODE == "digits_short":
                say(b'{"id": %d, "action": ' % rid + b"9" * 5000 + b"}")
            elif MODE == "megabyte":
                say(b'{"id": %d, "action": "' % rid + b"x" * (1 << 20) + b'"}')
            elif MODE == "utf8":
                say(b'{"id": %d, "action": "\\xff\\xfe"}' % rid)
            elif MODE == "not_an_object":
                say(b"[1, 2, 3]")
            elif MODE == "no_newline":
                out.write(b'{"id": %d, "act' % rid); out.flush()
                time.sleep(30)
            elif MODE == "stderr_flood":
                for _ in range(64):
                    sys.stderr.buffer.write(b"e" * (1 << 20))
                sys.stderr.flush()
                sys.exit(5)
            elif MODE == "spam":
                out.write(b"x\\n" * 100000); out.flush()
                say(json.dumps({"id": rid, "action": req["legal"][0]}).encode())
            elif MODE == "child_holds_stdout":
                if os.fork() == 0:
                    time.sleep(60); os._exit(0)
                os._exit(3)
            elif MODE == "stray":
                say(b"thinking about it...")
                say(json.dumps({"id": rid + 1000, "action": "pass"}).encode())
                say(json.dumps({"id": rid, "action": req["legal"][0]}).encode())
            continue
        say(json.dumps({"id": rid, "action": req["legal"][0]}).encode())
    """
)

GOOD = "b=greedy,c=random,d=greedy,e=random,f=greedy"


def event_with(tmp_path: Path, mode: str, script: str = HOSTILE, hands: int = 1) -> Path:
    bot = tmp_path / "hostile.py"
    bot.write_text(script, encoding="utf-8")
    ev = tmp_path / f"{mode}.sqlite"
    cmd = f"cmd:{sys.executable} {bot} {mode} {tmp_path / mode}"
    r = run_gouji(
        "event", "new", str(ev), "--name", mode, "--rounds", "1", "--hands", str(hands), "--no-duplicate",
        "--seed", "5", "--bots", f"x={cmd}", "--bots", GOOD,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    return ev


def faults(ev: Path) -> list[tuple[str, str]]:
    con = sqlite3.connect(f"file:{ev}?mode=ro", uri=True)
    try:
        return [(str(k), str(d)) for k, d in con.execute("SELECT kind, detail FROM faults ORDER BY id")]
    finally:
        con.close()


@pytest.mark.parametrize(
    ("mode", "kinds"),
    [
        ("deep", {"stray", "timeout"}),
        ("digits", {"invalid_reply"}),
        ("digits_short", {"stray", "timeout"}),
        ("megabyte", {"invalid_reply"}),
        ("utf8", {"stray", "timeout"}),
        ("not_an_object", {"stray", "timeout"}),
        ("no_newline", {"timeout"}),
        ("stderr_flood", {"crash"}),
        ("stray", {"stray"}),
        ("spam", {"stray"}),
        ("child_holds_stdout", {"crash"}),
    ],
)
def test_any_reply_is_a_bounded_fault(tmp_path: Path, mode: str, kinds: set[str]) -> None:
    ev = event_with(tmp_path, mode)
    # Only the faults that are timeouts need a short limit; the others get a long one, so a busy CI machine
    # (it took more than 0.5 s to drain the 64 MB of stderr_flood) cannot turn a crash into a timeout.
    limit = "2" if "timeout" in kinds else "20"
    r = run_gouji("event", "run", str(ev), "--time-limit", limit, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert "1 of 1 hands stored" in r.stdout
    got = faults(ev)
    assert {k for k, _ in got} == kinds, got
    assert all(len(d) <= 1000 + bots.STDERR_KEEP + 200 for _, d in got)  # the message and the stderr kept
    assert ev.stat().st_size < 1 << 20  # nothing the bot sent is stored whole
    if mode == "stderr_flood":
        assert "stderr (67,108,864 bytes, the last 4,096 kept):\neeee" in got[0][1]
    if mode == "spam":
        assert "100,000 lines that answered no request skipped" in got[0][1]
    if mode == "child_holds_stdout":
        assert "the bot exited (code 3)" in got[0][1]
    if mode == "stray":
        # skipped, and the bot stays in step: its real answer was used, no other fault followed
        assert len(got) == 1 and "2 lines that answered no request skipped" in got[0][1]


def test_the_bots_process_group_is_ended(tmp_path: Path) -> None:
    ev = event_with(tmp_path, "fork")
    r = run_gouji("event", "run", str(ev), "--time-limit", "2", timeout=120)
    assert r.returncode == 0, r.stderr
    pid = int((tmp_path / "fork.pid").read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            break  # gone
        if state == "Z":
            break  # killed, waiting for init to reap it
        time.sleep(0.05)
    else:
        os.kill(pid, 9)
        raise AssertionError("the bot's child outlived the event")


def test_a_bot_that_cannot_start_stops_the_run_before_the_first_hand(tmp_path: Path) -> None:
    ev = tmp_path / "nostart.sqlite"
    r = run_gouji(
        "event", "new", str(ev), "--name", "n", "--rounds", "1", "--hands", "1",
        "--bots", "x=cmd:no-such-python-here examples/bot.py", "--bots", GOOD,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    r = run_gouji("event", "run", str(ev))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "bot 'x'" in r.stderr and "cannot start" in r.stderr and "no hand was played" in r.stderr
    con = sqlite3.connect(f"file:{ev}?mode=ro", uri=True)
    assert con.execute("SELECT count(*) FROM hands").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM faults").fetchone()[0] == 0
    con.close()


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("import sys\nsys.exit(0)\n", "closed its stdout"),
        ('import json, sys\nprint(json.dumps({"type": "ready", "id": 0}), flush=True)\nsys.stdin.read()\n', "hello"),
        (
            'import json, sys\nprint(json.dumps({"type": "hello", "id": 0, "protocol": 1}), flush=True)\n'
            "sys.stdin.read()\n",
            "protocol",
        ),
    ],
)
def test_a_failed_handshake_stops_the_run(tmp_path: Path, script: str, message: str) -> None:
    ev = event_with(tmp_path, "hs", script=script)
    r = run_gouji("event", "run", str(ev), timeout=60)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "cannot play" in r.stderr and message in r.stderr


def test_a_silent_bot_fails_the_handshake_in_bounded_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ev = event_with(tmp_path, "silent", script="import sys\nfor line in sys.stdin:\n    pass\n")
    monkeypatch.setattr(bots, "HANDSHAKE_LIMIT", 0.5)
    with Tournament.open(ev) as e, pytest.raises(EventError, match="no reply within"):
        run_event(e, time_limit=0.2)
