"""`gouji verify` finds a planted illegal action and names the rule; `gouji replay` steps through a record."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gouji_rules import catalog
from gouji_rules.game.actions import parse_action
from gouji_rules.game.cards import THREE, CardSet, format_set
from gouji_rules.play.agents import make_agent
from gouji_rules.play.engine import Hand
from gouji_rules.play.observe import Observation
from gouji_rules.sim import play_hand

from .conftest import gouji

V = catalog.resolve("dagang")  # the shipped file, as `--variant dagang` and a record's name find it

# A finder looks at one decision of a real hand and returns the illegal action to plant there, or None.
Finder = Callable[[Observation, str], str | None]


def does_not_beat(obs: Observation, original: str) -> str | None:
    t = obs.table
    if obs.mode != "follow" or t is None or t.jokers or t.twos:
        return None
    h = obs.hand
    for r in range(THREE + 1, t.rank):
        if h[r] >= t.count:
            return format_set(CardSet(r, t.count))
    return None


def gouji_by_non_opposite(obs: Observation, original: str) -> str | None:
    if obs.mode != "burn" or not original.startswith("pass"):
        return None
    t = obs.table
    assert t is not None
    sets = obs.rules.beat.followers(obs.hand, t)
    return format_set(sets[0]) if sets else None


def three_early(obs: Observation, original: str) -> str | None:
    h = obs.hand
    if obs.mode != "lead" or not h[THREE] or sum(h) == h[THREE]:
        return None
    return format_set(CardSet(THREE, h[THREE]))


def plant(finder: Finder) -> tuple[dict[str, Any], int]:
    """A real greedy hand's record with one action replaced by an illegal one; returns it and the action's number."""
    for seed in range(200):
        agents = [make_agent("greedy") for _ in range(6)]
        rec = play_hand(V, seed, agents).record()
        hand = Hand.from_record(V, rec)
        for k, text in enumerate(rec["actions"]):
            seat, _, act = text.partition(":")
            bad = finder(hand.observation(int(seat)), act)
            if bad is not None:
                rec = dict(rec)
                rec["actions"] = [*rec["actions"][:k], f"{seat}:{bad}", *rec["actions"][k + 1 :]]
                return rec, k + 1
            hand.apply(parse_action(act), int(seat))
    raise AssertionError("no hand offered the decision")


def test_verify_names_the_broken_rule(tmp_path: Path) -> None:
    good = [play_hand(V, s, [make_agent("greedy") for _ in range(6)]).record() for s in range(3)]
    planted = [(plant(f), rule) for f, rule in [
        (does_not_beat, "beat"),
        (gouji_by_non_opposite, "gouji_opposite_only"),
        (three_early, "bie3"),
    ]]  # fmt: skip
    path = tmp_path / "hands.jsonl"
    recs = [good[0], *[p[0][0] for p in planted], good[1]]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs), encoding="utf-8")
    r = gouji("verify", str(path))
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    assert len(lines) == 3
    for i, (((rec, k), rule), line) in enumerate(zip(planted, lines, strict=True)):
        n = i + 2  # line and hand number in the file
        action = rec["actions"][k - 1]
        want = rf"^{re.escape(str(path))}:{n}: hand {n} action {k} \({re.escape(action)}\): illegal: .+ \(rule {rule}\)"
        assert re.match(want, line), line
        assert line.endswith("]")  # each of these rules cites its clause
    ok = tmp_path / "ok.jsonl"
    ok.write_text("".join(json.dumps(x) + "\n" for x in good), encoding="utf-8")
    r = gouji("verify", str(ok))
    assert r.exit_code == 0 and r.stdout == ""
    assert "3 record(s) read, 3 verified" in r.stderr


def test_verify_reports_bad_lines_and_mismatches(tmp_path: Path) -> None:
    rec = play_hand(V, 1, [make_agent("greedy") for _ in range(6)]).record()
    wrong = dict(rec, scores=[99, 0])
    short = dict(rec, actions=rec["actions"][:-3])
    path = tmp_path / "x.jsonl"
    path.write_text(
        "{not json\n"
        + json.dumps(wrong)
        + "\n"
        + json.dumps(short)
        + "\n"
        + json.dumps(dict(rec, variant="nope"))
        + "\n"
    )
    r = gouji("verify", str(path))
    assert r.exit_code == 1
    out = r.stdout.splitlines()
    assert out[0].startswith(f"{path}:1: error: not JSON")
    assert out[1].startswith(f"{path}:2: hand 2: replay does not reproduce the record: scores")
    assert out[2].startswith(f"{path}:3: hand 3: the actions end after action")
    assert out[3].startswith(f"{path}:4: hand 4: error: the rules of this record (variant 'nope'")
    assert "give the rules with --variant FILE" in out[3]
    # --variant overrides the record's name
    one = tmp_path / "one.jsonl"
    one.write_text(json.dumps(dict(rec, variant="nope")) + "\n")
    assert gouji("verify", str(one), "--variant", "dagang").exit_code == 0


def test_replay_steps_and_quits(tmp_path: Path) -> None:
    rec = play_hand(V, 2, [make_agent("greedy") for _ in range(6)]).record()
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    r = gouji("replay", str(path), "--no-pause")
    assert r.exit_code == 0
    n = len(rec["actions"])
    assert f"{n:>4}. seat" in r.stdout and "places" in r.stdout
    r = gouji("replay", str(path), input="\n\nq\n")
    assert r.exit_code == 0
    assert "   2. seat" in r.stdout and "   3. seat" not in r.stdout
    r = gouji("replay", str(path), "--hand", "2")
    assert r.exit_code == 1 and "has 1 hand record" in r.stderr


def test_event_records_export_and_verify(tmp_path: Path) -> None:
    ev = tmp_path / "b.sqlite"
    bots = "a=random,b=greedy,c=random,d=greedy,e=random,f=greedy"
    r = gouji("event", "new", str(ev), "--name", "b", "--bots", bots, "--rounds", "1", "--hands", "3", "--seed", "4")
    assert r.exit_code == 0
    assert gouji("event", "run", str(ev), "--quiet").exit_code == 0
    out = tmp_path / "r.jsonl"
    assert gouji("event", "export", str(ev), "--records", str(out)).exit_code == 0
    head, *recs = [json.loads(x) for x in out.read_text().splitlines()]
    assert head["kind"] == "rules" and head["variant_hash"] == V.fingerprint() and head["event"] == "b"
    assert len(recs) == 6 and {r_["rotation"] for r_ in recs} == {0, 1}
    # the duplicate deal: the same cards, each side holding what the other held
    assert gouji("verify", str(out)).exit_code == 0
    r = gouji("verify", str(ev))
    assert r.exit_code == 0 and "6 record(s) read, 6 verified" in r.stderr
