"""``gouji room serve --store FILE`` (issue 33, deliver 4): 「With --store, a server restarted mid-match
resumes with nothing lost.」"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gouji_rules.catalog import dagang, resolve
from gouji_rules.room import PERSON
from gouji_rules.room.store import RoomStoreError, open_room

from ..servers import ROOT, free_port, killed

SETTINGS = {"seats": [PERSON] + ["greedy"] * 5, "hands": 2, "seed": 9, "takeover": 0.0, "show_hands": False,
            "advice": True, "agents": "greedy"}  # fmt: skip


def _views(room) -> list[dict]:
    return [room.view(s) for s in range(6)]


def test_a_stored_room_reopened_is_the_same_room_at_the_same_decision_and_plays_on(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite"
    room, resumed = open_room(path, dagang(), SETTINGS)
    assert not resumed
    for _ in range(150):  # takeover 0: the agent plays the silent person too, and the records mark it
        room.step_agent()
    person_secret, code = room.seats[0].secret, room.code
    before, seq, takeovers = _views(room), room.seq, list(room.takeovers)
    room.close()
    again, resumed = open_room(path, dagang(), {**SETTINGS, "hands": 8, "seed": 1})  # the file's settings win
    assert resumed and again.code == code and again.seats[0].secret == person_secret
    assert again.seq == seq and again.takeovers == takeovers and _views(again) == before
    again.run_agents()
    assert again.match.is_over and len(again.records()) == 2
    again.close()


def test_a_store_of_other_rules_a_foreign_file_and_a_second_server_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite"
    room, _ = open_room(path, dagang(), SETTINGS)
    with pytest.raises(RoomStoreError, match="another server"):
        open_room(path, dagang(), SETTINGS)
    room.close()
    with pytest.raises(RoomStoreError, match="other rules"):
        open_room(path, resolve("dianshaomenla"), SETTINGS)
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n")
    with pytest.raises(RoomStoreError, match="not a room store"):
        open_room(text, dagang(), SETTINGS)
    assert text.read_text() == "not a database\n"


def _serve(store: Path, port: int) -> tuple[subprocess.Popen[str], dict[str, str]]:
    cmd = [sys.executable, "-P", "-m", "gouji_rules.cli", "room", "serve", "dagang", "--hands", "2", "--delay", "0",
           "--takeover", "600", "--seed", "4", "--store", str(store), "--port", str(port)]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    assert proc.stdout is not None
    lines = [proc.stdout.readline().rstrip("\n") for _ in range(3)]
    return proc, dict(line.split(": ", 1) for line in lines)


def _join(link: str):
    import websocket

    base, secret = link.split("#")
    ws = websocket.create_connection(base.replace("http://", "ws://") + "/ws", timeout=60)
    ws.send(json.dumps({"type": "join", "secret": secret}))
    return ws


def test_room_serve_killed_mid_hand_and_started_again_resumes_with_nothing_lost(tmp_path: Path) -> None:
    pytest.importorskip("websocket")
    store, port = tmp_path / "room.sqlite", free_port()
    proc, links = _serve(store, port)
    with killed(proc):
        ws = _join(links["seat 1"])
        acted = 0
        while True:
            view = json.loads(ws.recv())
            if view["type"] == "view" and view["yours"]:
                if acted == 5:
                    break
                ws.send(json.dumps({"type": "act", "seq": view["seq"], "index": 0}))
                acted += 1
    ws.close()
    proc, again = _serve(store, port)
    try:
        assert again == links  # the same host, seat and watch links
        ws = _join(again["seat 1"])
        assert json.loads(ws.recv()) == view  # the same hand at the same decision
        ws.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_a_damaged_store_is_one_line_naming_the_file_and_exit_1(tmp_path: Path) -> None:
    store = tmp_path / "room.sqlite"
    store.write_bytes(b"SQLite format 3\x00" + b"\xff" * 2000)
    done = subprocess.run(
        [sys.executable, "-P", "-m", "gouji_rules.cli", "room", "serve", "dagang", "--store", str(store), "--port",
         str(free_port())], capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1 and str(store) in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def _run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-P", "-m", "gouji_rules.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
    )


def test_records_are_written_as_hands_end_checked_by_verify_and_never_twice_or_into_another_match(
    tmp_path: Path,
) -> None:
    import time

    store, records = tmp_path / "room.sqlite", tmp_path / "room.jsonl"
    cmd = [sys.executable, "-P", "-m", "gouji_rules.cli", "room", "serve", "dagang", "--people", "0", "--hands", "2",
           "--delay", "0", "--seed", "6", "--store", str(store), "--records", str(records)]  # fmt: skip
    for _ in range(2):  # the second start finds the match over and its two records written: nothing added
        proc = subprocess.Popen(
            [*cmd, "--port", str(free_port())], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT
        )
        try:
            deadline = time.monotonic() + 120
            while (not records.exists() or records.read_text().count("\n") < 2) and time.monotonic() < deadline:
                time.sleep(0.1)
            time.sleep(0.5)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        assert records.read_text().count("\n") == 2
    done = _run("verify", str(records))
    assert done.returncode == 0, done.stdout + done.stderr
    other = _run("room", "serve", "dagang", "--records", str(records), "--port", str(free_port()))
    assert other.returncode == 1 and "another match" in other.stderr and records.read_text().count("\n") == 2
