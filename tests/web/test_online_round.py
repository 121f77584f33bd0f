"""``gouji event serve --online``: a club night's round played online (issue 33 item 5, item 4's "an event's
online round always has its store: the event file").  One table, one person and five absent players whose
seats the agent plays, over a real server's socket; killed mid-hand and started again."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
websocket = pytest.importorskip("websocket")  # websocket-client, which selenium (the test extra) brings

from ..servers import killed  # noqa: E402
from .conftest import free_port  # noqa: E402

SEAT_RE = re.compile(r"^online round (\d+) table (\d+) seat (\d) (\S+?)( \(\w+\))?: (\S+)$")
NAMES = ["甲", "乙", "丙", "丁", "戊", "己"]


def gouji(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gouji_rules.cli", *args], capture_output=True, text=True, timeout=120)


def _event(tmp: Path) -> Path:
    (tmp / "p.csv").write_text("name\n" + "".join(f"{n}\n" for n in NAMES), encoding="utf-8")
    ev = tmp / "ev.db"
    r = gouji("event", "new", str(ev), "--name", "线上赛", "--variant", "dagang", "--players", str(tmp / "p.csv"),
              "--rounds", "1", "--hands", "1")  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert gouji("event", "seat", str(ev), "--round", "1").returncode == 0
    return ev


def _serve(ev: Path, port: int, person: str, *extra: str) -> tuple[subprocess.Popen[str], dict[int, tuple[str, str]]]:
    absent = [a for n in NAMES if n != person for a in ("--absent", n)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "gouji_rules.cli", "event", "serve", str(ev), "--port", str(port), "--online",
         "--delay", "0", *absent, *extra],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    assert proc.stderr is not None
    seats: dict[int, tuple[str, str]] = {}
    log = []
    while len(seats) < 7:  # the six seats, then the table's host link
        line = proc.stderr.readline()
        if not line:
            pytest.fail("the server stopped: " + "".join(log))
        log.append(line)
        m = SEAT_RE.match(line.strip())
        if m:
            seats[int(m[3]) - 1] = (m[4] + (m[5] or ""), m[6])
        elif line.startswith("online round 1 table 1 host"):
            seats[-1] = ("host", line.strip().rsplit(": ", 1)[1])
    url = f"http://127.0.0.1:{port}/"
    for _ in range(600):
        try:
            urllib.request.urlopen(url, timeout=10).read()
            break
        except OSError:
            time.sleep(0.1)
    return proc, seats


def _socket(link: str) -> tuple[Any, dict[str, Any]]:
    page, secret = link.split("#")
    ws = websocket.create_connection(page.replace("http://", "ws://") + "/ws", timeout=60)
    ws.send(json.dumps({"type": "join", "secret": secret}))
    return ws, json.loads(ws.recv())


def _hands(ev: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(ev) as con:
        return con.execute("SELECT hand, score0, score1, result, record FROM hands").fetchall()


def test_an_online_round_is_stored_as_it_ends_resumes_after_sigkill_and_refuses_entry(tmp_path: Path) -> None:
    ev = _event(tmp_path)
    person = NAMES[0]
    port = free_port()
    proc, seats = _serve(ev, port, person, "--takeover", "600")
    with killed(proc):  # mid-hand
        mine = next(i for i, (who, _) in seats.items() if who == person)
        assert all(who.endswith("(greedy)") for i, (who, _) in seats.items() if i not in (mine, -1))
        host = seats[-1][1].split("#")
        asked = urllib.request.Request(host[0] + "/state", headers={"X-Host-Secret": host[1]})
        state = json.loads(urllib.request.urlopen(asked, timeout=30).read())
        assert [s["seat"] for s in state["seats"] if "qr" in s] == [mine + 1]  # the present player's QR
        ws, view = _socket(seats[mine][1])
        acted = 0
        while acted < 3:  # the person plays three decisions; the agents play the absent players' seats
            if view["type"] == "view" and view["yours"]:
                ws.send(json.dumps({"type": "act", "seq": view["seq"], "index": 0}))
                acted += 1
            view = json.loads(ws.recv())
        while view["yours"] is False:
            view = json.loads(ws.recv())
        before = view
        assert not before["over"] and _hands(ev) == []
    ws.close()

    proc, again = _serve(ev, port, person, "--takeover", "600")  # the same command again
    try:
        assert again == seats  # same room code, same seat links, same host link
        ws, resumed = _socket(again[mine][1])
        assert resumed == before  # the same hand at the same decision: nothing lost
        ws.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)

    proc, again = _serve(ev, port, person, "--takeover", "0")  # the person stays silent now: 托管 plays on
    try:
        ws, resumed = _socket(again[mine][1])
        while not resumed["over"]:
            resumed = json.loads(ws.recv())
        ws.close()
        for _ in range(600):
            if _hands(ev):
                break
            time.sleep(0.1)
        (_hand, a, b, result, record), *_ = _hands(ev)
        record = json.loads(record)
        assert record["takeover"] and json.loads(result)["takeover"] == len(record["takeover"])
        assert any(t["seat"] == mine for t in record["takeover"])  # the silent person's, beside the absent seats'
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/rounds/1", timeout=30).read().decode()
        assert f"托管 {len(record['takeover'])} 步" in page
    finally:
        proc.terminate()
        proc.wait(timeout=30)

    standings = gouji("event", "standings", str(ev))
    assert standings.returncode == 0 and "1 of 1 hands recorded" in standings.stdout
    season = gouji("event", "season", str(ev))
    assert season.returncode == 0 and person in season.stdout
    order = " ".join(str(s) for s in range(6))
    entry = gouji("event", "record", str(ev), "--round", "1", "--table", "1", "--hand", "1", "--finish", order,
                  "--replace")  # fmt: skip
    assert entry.returncode == 1 and "played online" in entry.stderr
    assert _hands(ev)[0][1:3] == (a, b)  # the engine's result stands
