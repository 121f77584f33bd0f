"""A bot run always ends: hands that cannot end, bots that never read, a director's time budget.

Also what a fault keeps of a bot's stderr (its last KiB, shown by ``gouji event faults --stderr``)
and a byte order mark before the hello answer.
"""

from __future__ import annotations

import sqlite3
import sys
import textwrap
import time
from pathlib import Path

import pytest

from gouji_rules.tournament import bots
from gouji_rules.tournament.bots import BotFault, ExternalPlayer
from gouji_rules.tournament.event import Tournament
from gouji_rules.tournament.run import run_event

from .conftest import gouji, run_gouji

PASS_BOT = textwrap.dedent(
    """
    import json, sys
    for line in sys.stdin:
        req = json.loads(line)
        if req["type"] == "hello":
            print(json.dumps({"type": "hello", "id": req["id"]}), flush=True)
        elif req["type"] == "act":
            print(json.dumps({"id": req["id"], "action": "pass"}), flush=True)
    """
)


def script(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return f"{sys.executable} {path}"


def new_event(tmp_path: Path, bots_spec: str, *extra: str, variant: str = "dagang", name: str = "ev") -> Path:
    ev = tmp_path / f"{name}.sqlite"
    r = gouji("event", "new", str(ev), "--name", name, "--variant", variant, "--bots", bots_spec, *extra)
    assert r.exit_code == 0, r.output
    return ev


def fault_kinds(ev: Path) -> list[str]:
    con = sqlite3.connect(f"file:{ev}?mode=ro", uri=True)
    try:
        return [str(k) for (k,) in con.execute("SELECT kind FROM faults ORDER BY id")]
    finally:
        con.close()


def test_s4_art4_wrong_play_two_bots_that_only_pass_end_the_hand(tmp_path: Path) -> None:
    """错牌不出 (S4 第四条(一)) hands a lost lead to the next seat; two bots answering only ``pass`` would
    hand it back and forth for ever once the others are out.  When the lead has gone round every seat
    still in the hand, the fallback leads once (fault ``lead_round``), and the hand ends."""
    rules = tmp_path / "lose_turn.yaml"
    rules.write_text("extends: dagang\nname: lose_turn\nplay:\n  wrong_play: lose_turn\n", encoding="utf-8")
    cmd = script(tmp_path, "pass.py", PASS_BOT)
    spec = f"a=cmd:{cmd},b=cmd:{cmd},c=greedy,d=greedy,e=greedy,f=greedy"
    ev = new_event(tmp_path, spec, "--rounds", "1", "--hands", "2", "--no-duplicate", variant=str(rules))
    r = run_gouji("event", "run", str(ev), "--quiet", timeout=120)  # hung for ever before
    assert r.returncode == 0, r.stderr
    assert "2 of 2 hands stored" in r.stdout
    kinds = fault_kinds(ev)
    assert "lead_round" in kinds and set(kinds) <= {"illegal", "lead_round"}
    assert gouji("verify", str(ev)).exit_code == 0  # the forfeits and the fallback's leads replay


def test_a_bot_that_never_reads_its_input_is_a_timeout(tmp_path: Path) -> None:
    """Writes to a bot are bounded by the time limit: a bot that answers hello, then floods its stdout
    and never reads, fills both pipes; the runner used to block in write() for ever."""
    cmd = script(
        tmp_path,
        "deaf.py",
        """
        import json, sys
        req = json.loads(sys.stdin.readline())
        print(json.dumps({"type": "hello", "id": req["id"]}), flush=True)
        while True:
            sys.stdout.write("{}\\n" * 1000)
        """,
    )
    p = ExternalPlayer("deaf", cmd, 0.5)
    try:
        p.handshake()
        start = time.monotonic()
        with pytest.raises(BotFault) as caught:
            for _ in range(100):  # 100 x 100 KB: far past what the pipe holds
                p._send({"type": "act", "pad": "x" * 100_000})
        assert time.monotonic() - start < 30  # bounded (it blocked for ever), with room for a loaded machine
        assert caught.value.kind == "timeout" and "did not read its input within 0.5 s" in caught.value.detail
        assert p.proc is None  # its process group was ended
    finally:
        p.close()


def test_an_event_with_a_bot_that_never_reads_ends(tmp_path: Path) -> None:
    cmd = script(
        tmp_path,
        "sleeper.py",
        """
        import json, sys, time
        req = json.loads(sys.stdin.readline())
        print(json.dumps({"type": "hello", "id": req["id"]}), flush=True)
        time.sleep(600)
        """,
    )
    ev = new_event(
        tmp_path, f"a=cmd:{cmd},b=greedy,c=greedy,d=greedy,e=greedy,f=greedy", "--rounds", "1", "--hands", "1"
    )
    r = run_gouji("event", "run", str(ev), "--time-limit", "0.2", "--quiet", timeout=300)
    assert r.returncode == 0, r.stderr
    assert "2 of 2 hands stored" in r.stdout
    assert set(fault_kinds(ev)) <= {"timeout", "retired"}


def hands_of(ev: Path) -> list[tuple[object, ...]]:
    """Every stored hand, its record without the event's name."""
    with Tournament.open(ev, write=False) as e:
        rows = sorted(e.db.hands(), key=lambda h: (h.round, h.tbl, h.rotation, h.hand))
        return [
            (h.round, h.tbl, h.hand, h.rotation, h.places, h.scores, h.result, {**h.record, "event": ""}) for h in rows
        ]


def test_a_budget_stops_the_run_and_the_next_run_finishes_it(tmp_path: Path) -> None:
    """``--budget``: the run stops between two decisions when it runs out, every finished match kept,
    the rest reported as not played; the next run plays them, and the event ends with the same hands as
    one run without a budget.  The bot is quick in round 1 and slow in round 2 until ``fast`` exists,
    so which matches finish within the budget does not depend on the machine's load."""
    fast = tmp_path / "fast"
    cmd = script(
        tmp_path,
        "slow.py",
        f"""
        import json, os, sys, time
        rnd = 1
        for line in sys.stdin:
            req = json.loads(line)
            if req["type"] == "hello":
                print(json.dumps({{"type": "hello", "id": req["id"]}}), flush=True)
            elif req["type"] == "start_hand":
                rnd = req["round"]
            elif req["type"] == "act":
                if rnd > 1 and not os.path.exists({str(fast)!r}):
                    time.sleep(1.0)
                print(json.dumps({{"id": req["id"], "index": 0}}), flush=True)
        """,
    )
    spec = f"a=cmd:{cmd},b=greedy,c=greedy,d=greedy,e=greedy,f=greedy"
    args = ("--rounds", "2", "--hands", "2", "--seed", "7")
    ev, whole = new_event(tmp_path, spec, *args), new_event(tmp_path, spec, *args, name="whole")
    r = gouji("event", "run", str(ev), "--budget", "12", "--quiet")
    assert r.exit_code == 0, r.output
    assert "the budget of 12 s ran out: 2 match(es) not played" in r.stderr
    assert "2 match(es) played" in r.stdout and "4 of 8 hands stored" in r.stdout
    with Tournament.open(ev, write=False) as e:
        assert e.db.stored_units() == {(1, 1, 0), (1, 1, 1)}  # round 1, both rotations
    assert gouji("verify", str(ev)).exit_code == 0
    fast.touch()
    r = gouji("event", "run", str(ev), "--quiet")
    assert r.exit_code == 0 and "2 match(es) played, 2 already stored" in r.stdout, r.output
    assert gouji("event", "run", str(whole), "--quiet").exit_code == 0
    assert hands_of(ev) == hands_of(whole)


def test_a_spent_budget_plays_nothing(tmp_path: Path) -> None:
    ev = new_event(tmp_path, "a=greedy,b=greedy,c=greedy,d=greedy,e=greedy,f=greedy", "--rounds", "1")
    with Tournament.open(ev) as e:
        rep = run_event(e, budget=0)
        assert rep.out_of_time and rep.not_played == 2 and not rep.played
        assert not e.db.hands()


@pytest.mark.parametrize("value", ["nan", "inf", "-1"])
def test_a_budget_that_is_not_a_time_is_a_usage_error(tmp_path: Path, value: str) -> None:
    ev = new_event(tmp_path, "a=greedy,b=greedy,c=greedy,d=greedy,e=greedy,f=greedy", "--rounds", "1")
    r = gouji("event", "run", str(ev), "--budget", value)
    assert r.exit_code == 2 and "--budget" in r.output
    assert not hands_of(ev)


def test_a_crash_keeps_the_end_of_the_bots_stderr(tmp_path: Path) -> None:
    """The error that explains a crash is what the bot wrote last: a fault keeps the last KiB of its
    stderr (not only its last line), and ``gouji event faults --stderr`` shows them."""
    cmd = script(
        tmp_path,
        "noisy.py",
        """
        import json, sys
        for line in sys.stdin:
            req = json.loads(line)
            if req["type"] == "hello":
                print(json.dumps({"type": "hello", "id": req["id"]}), flush=True)
            elif req["type"] == "act":
                sys.stderr.write("debug chatter\\n" * 20000)
                sys.stderr.write("Traceback (most recent call last):\\n  File bot.js, line 7\\nTypeError: x is undefined\\n")
                sys.stderr.write("\\x1b[31mNode.js v20.20.2\\n")
                sys.exit(1)
        """,
    )
    ev = new_event(tmp_path, f"x=cmd:{cmd},b=greedy,c=greedy,d=greedy,e=greedy,f=greedy", "--rounds", "1")
    r = run_gouji("event", "run", str(ev), "--quiet", "--limit", "1", timeout=120)
    assert r.returncode == 0, r.stderr
    r = gouji("event", "faults", str(ev), "--bot", "x", "--stderr")
    assert r.exit_code == 0, r.output
    first = r.stdout.split("\n    Node.js")[0]
    assert "crash" in first and "the last 4,096 kept" in first
    assert "    TypeError: x is undefined\n" in r.stdout and "    Traceback (most recent call last):\n" in r.stdout
    assert "\\x1b[31mNode.js v20.20.2" in r.stdout and "\x1b" not in r.stdout  # shown, not obeyed
    plain = gouji("event", "faults", str(ev))
    assert "TypeError" not in plain.stdout
    assert plain.stdout.splitlines() == [ln for ln in r.stdout.splitlines() if not ln.startswith("    ")]


def test_a_byte_order_mark_before_the_hello_answer_is_tolerated(tmp_path: Path) -> None:
    cmd = script(
        tmp_path,
        "bom.py",
        """
        import json, sys
        out = sys.stdout.buffer
        for line in sys.stdin:
            req = json.loads(line)
            if req["type"] == "hello":
                out.write(b"\\xef\\xbb\\xbf" + json.dumps({"type": "hello", "id": req["id"]}).encode() + b"\\r\\n")
                out.flush()
            elif req["type"] == "act":
                out.write(json.dumps({"id": req["id"], "index": 0}).encode() + b"\\r\\n")
                out.flush()
        """,
    )
    p = ExternalPlayer("bom", cmd, 2.0)
    try:
        p.handshake()
    finally:
        p.close()


def test_a_hello_answer_that_is_not_one_is_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot whose hello answer cannot be read is told what was read, not only "no reply"."""
    cmd = script(
        tmp_path,
        "utf16.py",
        """
        import json, sys, time
        req = json.loads(sys.stdin.readline())
        sys.stdout.buffer.write(json.dumps({"type": "hello", "id": req["id"]}).encode("utf-16") + b"\\n")
        sys.stdout.flush()
        time.sleep(60)
        """,
    )
    monkeypatch.setattr(bots, "HANDSHAKE_LIMIT", 3.0)  # time to start python on a loaded machine
    p = ExternalPlayer("u16", cmd, 0.2)
    try:
        with pytest.raises(BotFault) as caught:
            p.handshake()
    finally:
        p.close()
    assert "1 stray line(s) skipped, the first: " in caught.value.detail
    assert "which looks like UTF-16: replies are UTF-8" in caught.value.detail


def test_a_hand_past_the_decision_bound_is_played_out_by_the_fallback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last bound: past HAND_DECISIONS_MAX decisions in one hand, the fallback plays every seat to
    the end of the hand (one ``hand_limit`` fault); the hand is stored and verifies."""
    from gouji_rules.tournament import run

    monkeypatch.setattr(run, "HAND_DECISIONS_MAX", 40)
    ev = new_event(tmp_path, "a=random,b=random,c=random,d=random,e=random,f=random", "--rounds", "1", "--hands", "2")
    with Tournament.open(ev) as e:
        rep = run_event(e)
        assert len(rep.played) == 2 and len(e.db.hands()) == 4
    assert fault_kinds(ev) == ["hand_limit"] * 4
    assert gouji("verify", str(ev)).exit_code == 0


PRE_PLAY_WRONG = textwrap.dedent(
    """
    import json, sys
    for line in sys.stdin:
        req = json.loads(line)
        if req["type"] == "hello":
            print(json.dumps({"type": "hello", "id": req["id"]}), flush=True)
        elif req["type"] == "act":
            playing = req["mode"] in ("lead", "follow", "burn", "kou", "consent")
            print(json.dumps({"id": req["id"], "index": 0 if playing else -1}), flush=True)
    """
)


def test_s4_art4_wrong_choices_between_hands_verify(tmp_path: Path) -> None:
    """Under lose_turn a bot's wrong choice between hands (a declaration, a tribute card, accepting a
    card handed back) takes the default (Match.forfeit) and leaves a ``wrong_play`` event in
    ``pre_play``: verify replays it there, so the event verifies (it reported event 2 as not the
    record's before)."""
    rules = tmp_path / "lose_turn.yaml"
    rules.write_text("extends: liufu_ying\nname: lose_turn\nplay:\n  wrong_play: lose_turn\n", encoding="utf-8")
    cmd = script(tmp_path, "prebad.py", PRE_PLAY_WRONG)
    spec = ",".join(f"{n}=cmd:{cmd}" for n in "abcdef")
    ev = new_event(tmp_path, spec, "--rounds", "1", "--hands", "3", "--no-duplicate", "--seed", "1", variant=str(rules))
    r = run_gouji("event", "run", str(ev), "--quiet", timeout=300)
    assert r.returncode == 0, r.stderr
    with Tournament.open(ev, write=False) as e:
        pre = [x for h in e.db.hands() for x in h.record.get("pre_play", [])]
    assert any(x.get("type") == "wrong_play" for x in pre)
    r = gouji("verify", str(ev))
    assert r.exit_code == 0 and "3 verified, 0 problem(s)" in r.output, r.output
