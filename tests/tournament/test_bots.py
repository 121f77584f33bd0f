"""External bots that crash, hang, reply garbage or play illegally: the event goes on, the fault is logged."""

from __future__ import annotations

import json
import os
import sys
import textwrap
import time
from pathlib import Path

import pytest

from gouji_rules.tournament import bots
from gouji_rules.tournament.event import Tournament
from gouji_rules.tournament.run import run_event

from .conftest import gouji, standings_json

# Each bot answers with the first legal action, except for its one fault (behaviour FAULT). The
# two restart faults crash at the third decision, then, started again, take 2.5 s to answer hello
# (a model that loads slowly) or never answer it (one that cannot load).
BOT = textwrap.dedent(
    """
    import json, os, sys, time
    FAULT, MARK = sys.argv[1], sys.argv[2]
    if os.path.exists(MARK) and FAULT == "slow_start":
        time.sleep(2.5)
    if os.path.exists(MARK) and FAULT == "no_second_start":
        sys.stdin.read()
    n = 0
    for line in sys.stdin:
        req = json.loads(line)
        if req["type"] == "hello":
            print(json.dumps({"type": "hello", "id": req["id"]}), flush=True)
        if req.get("type") != "act":
            continue
        n += 1
        first_time = not os.path.exists(MARK)
        if n == 3 and first_time:
            open(MARK, "w").close()
            if FAULT in ("crash", "slow_start", "no_second_start"):
                sys.exit(3)
            if FAULT == "hang":
                time.sleep(30)
        if FAULT == "garbage" and n % 5 == 0:
            print(json.dumps({"id": req["id"], "action": "not an action"}), flush=True)
            continue
        if FAULT == "illegal" and req["mode"] == "lead":
            print(json.dumps({"id": req["id"], "action": "kou"}), flush=True)
            continue
        print(json.dumps({"id": req["id"], "action": req["legal"][0]}), flush=True)
    """
)


def make_event(tmp_path: Path, fault: str) -> Path:
    bot = tmp_path / "faulty.py"
    bot.write_text(BOT, encoding="utf-8")
    mark = tmp_path / f"{fault}.mark"
    cmd = f"cmd:{sys.executable} {bot} {fault} {mark}"
    ev = tmp_path / f"{fault}.sqlite"
    r = gouji(
        "event", "new", str(ev), "--name", fault, "--rounds", "1", "--hands", "1", "--no-duplicate", "--seed", "3",
        "--bots", f"x={cmd}", "--bots", "b=greedy,c=random,d=greedy,e=random,f=greedy",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    return ev


@pytest.mark.parametrize(
    ("fault", "kind"),
    [("crash", "crash"), ("hang", "timeout"), ("garbage", "invalid_reply"), ("illegal", "illegal")],
)
def test_fault_is_logged_and_event_completes(tmp_path: Path, fault: str, kind: str) -> None:
    ev = make_event(tmp_path, fault)
    # Only a hang should meet the limit: the other faults get one no busy machine reaches, so a slow
    # reply is never logged as a timeout beside the fault the test expects.
    limit = "3" if fault == "hang" else "20"
    r = gouji("event", "run", str(ev), "--time-limit", limit, "--quiet")
    assert r.exit_code == 0, r.output
    assert "1 of 1 hands stored" in r.stdout
    out = tmp_path / "faults.csv"
    assert gouji("event", "export", str(ev), "--faults", str(out)).exit_code == 0
    rows = out.read_text().splitlines()[1:]
    assert rows, "the fault was not logged"
    assert all(row.split(",")[6] == "x" for row in rows)
    assert {row.split(",")[7] for row in rows} == {kind}
    if fault in ("crash", "hang"):
        assert len(rows) == 1  # restarted for the next decision, which it answered
    assert len(standings_json(ev)) == 6
    recs = tmp_path / "r.jsonl"
    gouji("event", "export", str(ev), "--records", str(recs))
    assert gouji("verify", str(recs)).exit_code == 0


def test_no_process_left_behind(tmp_path: Path) -> None:
    ev = make_event(tmp_path, "hang")
    with Tournament.open(ev) as e:
        run_event(e, time_limit=0.3)
    me = os.getpid()
    children = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == me and not _resource_tracker(pid):
                children.append((pid, stat))
    assert children == []  # neither running bots nor zombies


def _resource_tracker(pid: str) -> bool:
    """Python's own multiprocessing resource tracker, which lives as long as the process that started it
    (here pytest, once a test has trained with spawned workers): not a bot."""
    try:
        return b"resource_tracker" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def test_example_bot_plays_an_event(tmp_path: Path) -> None:
    bot = Path(__file__).resolve().parents[2] / "examples" / "bot.py"
    ev = tmp_path / "ex.sqlite"
    r = gouji(
        "event", "new", str(ev), "--name", "ex", "--rounds", "1", "--hands", "2",
        "--bots", f"me=cmd:{sys.executable} {bot},b=greedy,c=random,d=greedy,e=random,f=greedy",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    r = gouji("event", "run", str(ev))
    assert r.exit_code == 0, r.output
    assert "0 fault(s)" in r.stdout and "4 of 4 hands stored" in r.stdout


def test_bad_bot_specs(tmp_path: Path) -> None:
    ev = tmp_path / "x.sqlite"
    r = gouji("event", "new", str(ev), "--name", "x", "--bots", "a=random,b=smart")
    assert r.exit_code == 1 and "unknown agent 'smart'" in r.stderr
    r = gouji("event", "new", str(ev), "--name", "x", "--bots", "a=random,b=greedy")
    assert r.exit_code == 1 and "not a multiple of 6" in r.stderr
    assert not ev.exists()
    r = gouji("event", "new", str(ev), "--name", "x")
    assert r.exit_code == 2


def test_observation_request_shape(tmp_path: Path) -> None:
    """The request a bot gets carries the documented fields (docs/bot-protocol.md)."""
    log = tmp_path / "log.jsonl"
    bot = tmp_path / "logger.py"
    bot.write_text(
        textwrap.dedent(
            f"""
            import json, sys
            with open({str(log)!r}, "a") as out:
                for line in sys.stdin:
                    out.write(line)
                    req = json.loads(line)
                    if req["type"] == "hello":
                        print(json.dumps({{"type": "hello", "id": req["id"]}}), flush=True)
                    if req["type"] == "act":
                        print(json.dumps({{"id": req["id"], "action": req["legal"][0]}}), flush=True)
            """
        ),
        encoding="utf-8",
    )
    ev = tmp_path / "l.sqlite"
    gouji(
        "event", "new", str(ev), "--name", "l", "--rounds", "1", "--hands", "1", "--no-duplicate",
        "--bots", f"x=cmd:{sys.executable} {bot},b=greedy,c=random,d=greedy,e=random,f=greedy",
    )  # fmt: skip
    assert gouji("event", "run", str(ev), "--quiet").exit_code == 0
    msgs = [json.loads(x) for x in log.read_text().splitlines()]
    assert msgs[0]["type"] == "hello" and msgs[0]["protocol"] == 2 and msgs[0]["id"] == 0
    assert msgs[1]["type"] == "start_hand" and {"seed", "seat", "variant", "protocol", "id"} <= set(msgs[1])
    act = next(m for m in msgs if m["type"] == "act")
    for key in ("id", "seat", "mode", "hand", "table", "cards_left", "legal", "events", "point", "finish"):
        assert key in act


def test_a_restarted_bot_has_the_hellos_limit_to_start(tmp_path: Path) -> None:
    """A bot that crashes once and takes 2.5 s to start again, under a 1 s decision limit: the restart
    waits for its hello (10 s), so the crash is its only fault; the decision's clock does not run while
    it starts (it did: every restart timed out, until the seat was retired)."""
    ev = make_event(tmp_path, "slow_start")
    r = gouji("event", "run", str(ev), "--time-limit", "1", "--quiet")
    assert r.exit_code == 0, r.output
    out = tmp_path / "faults.csv"
    assert gouji("event", "export", str(ev), "--faults", str(out)).exit_code == 0
    kinds = [row.split(",")[7] for row in out.read_text().splitlines()[1:]]
    assert kinds == ["crash"]


def test_a_bot_that_cannot_start_again_is_retired_after_two_tries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After its crash the bot never answers hello again: two restarts in a row fail at hello (each a
    fault saying so), then the seat is retired for the match and the fallback plays it; the event ends
    (it used to wait a hello's limit at each of 20 restarts, every match)."""
    monkeypatch.setattr(bots, "HANDSHAKE_LIMIT", 1.0)
    ev = make_event(tmp_path, "no_second_start")
    with Tournament.open(ev) as e:
        rep = run_event(e, time_limit=0.5)
        assert rep.played == [(1, 1, 0)] and not rep.out_of_time
        rows = e.db.faults()
    got = [(f.kind, f.detail.split(":")[0]) for f in rows]
    assert [k for k, _ in got] == ["crash", "timeout", "timeout", "retired"]
    assert got[1][1] == got[2][1] == "restarted, at hello"
    assert "without a proper hello" in rows[3].detail


def test_a_restart_waits_for_hello_no_longer_than_the_budget(tmp_path: Path) -> None:
    """A restart's wait for hello (10 s) is cut at the end of the run's budget: the run stops at most
    about one decision's time limit after it, as ``--budget`` promises."""
    ev = make_event(tmp_path, "no_second_start")
    with Tournament.open(ev) as e:
        start = time.monotonic()
        rep = run_event(e, time_limit=0.5, budget=2.0)
        took = time.monotonic() - start
    assert rep.out_of_time
    assert took < 7.0, took  # a full hello wait would take 10 s past the crash


def test_a_clubs_weights_file_plays_in_a_bot_event_from_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``NAME=learned:FILE``: the file is read when the event is made (a bad one makes no event) and kept by
    its full path, so the event runs from another folder."""
    from gouji_rules.learn.agent import shipped_path

    club = tmp_path / "club"
    club.mkdir()
    (club / "mine.npz").write_bytes(shipped_path().read_bytes())
    (club / "bad.npz").write_text("no weights here")
    monkeypatch.chdir(club)
    bad = tmp_path / "bad.sqlite"
    r = gouji(
        "event",
        "new",
        str(bad),
        "--name",
        "x",
        "--bots",
        "a=learned:bad.npz,b=greedy,c=random,d=greedy,e=random,f=greedy",
    )
    assert (
        r.exit_code == 1 and "bot 'a': " in r.stderr and "bad.npz: not a weights file" in r.stderr and not bad.exists()
    )
    ev = tmp_path / "ok.sqlite"
    r = gouji(
        "event", "new", str(ev), "--name", "ok", "--rounds", "1", "--hands", "2",
        "--bots", "a=learned:mine.npz,b=greedy,c=random,d=greedy,e=random,f=greedy",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    monkeypatch.chdir(tmp_path)
    r = gouji("event", "run", str(ev))
    assert r.exit_code == 0, r.output
    assert "0 fault(s)" in r.stdout and "4 of 4 hands stored" in r.stdout
