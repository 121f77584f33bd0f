"""错牌不出 under `play.wrong_play: lose_turn`: a bot's illegal play is a lost turn, recorded, not the fallback's move."""

from __future__ import annotations

import json
import sqlite3
import sys
import textwrap
from pathlib import Path

from .conftest import gouji

# Leads "kou" (never legal on a lead) once, then plays the first legal action.
BOT = textwrap.dedent(
    """
    import json, sys
    wrong = False
    for line in sys.stdin:
        req = json.loads(line)
        if req["type"] == "hello":
            print(json.dumps({"type": "hello", "id": req["id"]}), flush=True)
        if req["type"] != "act":
            continue
        if req["mode"] == "lead" and not wrong:
            wrong = True
            print(json.dumps({"id": req["id"], "action": "kou"}), flush=True)
            continue
        print(json.dumps({"id": req["id"], "action": req["legal"][0]}), flush=True)
    """
)


def run(tmp_path: Path, wrong_play: str) -> tuple[list[str], list[tuple[str, str]]]:
    rules = tmp_path / f"{wrong_play}.yaml"
    rules.write_text(f"extends: dagang\nname: club_{wrong_play}\nplay:\n  wrong_play: {wrong_play}\n", encoding="utf-8")
    bot = tmp_path / "bot.py"
    bot.write_text(BOT, encoding="utf-8")
    ev = tmp_path / f"{wrong_play}.sqlite"
    r = gouji(
        "event", "new", str(ev), "--name", "w", "--variant", str(rules), "--rounds", "1", "--hands", "1",
        "--no-duplicate", "--seed", "1", "--bots", f"x=cmd:{sys.executable} {bot},b=greedy,c=greedy,d=greedy,e=greedy,f=greedy",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert gouji("event", "run", str(ev), "--quiet").exit_code == 0
    con = sqlite3.connect(ev)
    faults = [(str(k), str(d)) for k, d in con.execute("SELECT kind, detail FROM faults")]
    record = json.loads(con.execute("SELECT record FROM hands").fetchone()[0])
    con.close()
    out = tmp_path / f"{wrong_play}.jsonl"
    assert gouji("event", "export", str(ev), "--records", str(out)).exit_code == 0
    assert gouji("verify", str(out)).exit_code == 0  # the lost turn replays under the club's rules
    return list(record["actions"]), faults


def test_s4_art4_wrong_play_loses_the_turn_for_a_bot(tmp_path: Path) -> None:
    actions, faults = run(tmp_path, "lose_turn")
    assert [k for k, _ in faults] == ["illegal"]
    assert any(a.endswith(":wrong_play") for a in actions)  # recorded as the seat's lost turn


def test_wrong_play_refused_lets_the_fallback_decide(tmp_path: Path) -> None:
    actions, faults = run(tmp_path, "refuse")
    assert [k for k, _ in faults] == ["illegal"]
    assert not any(a.endswith(":wrong_play") for a in actions)
