"""What a new user gets wrong, and what the event commands answer (found in an acceptance run)."""

from __future__ import annotations

import json
from pathlib import Path

from gouji_rules.agents import make_agent
from gouji_rules.sim import play_hand
from gouji_rules.variant import dagang

from .conftest import gouji, standings_json
from .test_club import _teams_csv, new_event, write_results


def test_a_bot_event_takes_no_typed_results(tmp_path: Path) -> None:
    ev = tmp_path / "b.sqlite"
    bots = "a=random,b=greedy,c=random,d=greedy,e=random,f=greedy"
    assert gouji("event", "new", str(ev), "--name", "b", "--bots", bots, "--rounds", "1", "--hands", "1").exit_code == 0
    assert gouji("event", "run", str(ev), "--quiet").exit_code == 0
    r = gouji("event", "correct", str(ev), "--round", "1", "--table", "1", "--hand", "1", "--finish", "0 1 2 3 4 5")
    assert r.exit_code == 1 and "bot event" in r.stderr


def test_a_bye_scores_only_once_its_round_has_begun(tmp_path: Path) -> None:
    teams = _teams_csv(tmp_path, 3)  # three teams: one sits out each round
    ev = tmp_path / "rr.sqlite"
    assert gouji("event", "new", str(ev), "--name", "rr", "--teams", str(teams), "--hands", "1").exit_code == 0
    assert all(x["byes"] == 0 and x["match_points"] == 0 for x in standings_json(ev))
    rows = [(1, 1, 1, "0 1 2 3 4 5")]
    assert gouji("event", "record", str(ev), "--from", str(write_results(tmp_path / "r1.csv", rows))).exit_code == 0
    byes = {x["name"]: x["byes"] for x in standings_json(ev)}
    assert sorted(byes.values()) == [0, 0, 1]  # only round 1's bye counts so far


def test_standings_take_one_format(tmp_path: Path, players_csv: Path) -> None:
    ev = new_event(tmp_path, players_csv, "dagang")
    r = gouji("event", "standings", str(ev), "--json", "--csv")
    assert r.exit_code == 2 and "one of --json, --csv and --html" in r.output


def test_verify_rejects_places_that_are_not_1_to_6_or_disagree_with_finish(tmp_path: Path, players_csv: Path) -> None:
    ev = new_event(tmp_path, players_csv, "dagang")
    rows = [(1, 1, 1, "0 1 2 3 4 5")]
    assert gouji("event", "record", str(ev), "--from", str(write_results(tmp_path / "r.csv", rows))).exit_code == 0
    out = tmp_path / "r.jsonl"
    assert gouji("event", "export", str(ev), "--records", str(out)).exit_code == 0
    rec = json.loads(out.read_text().splitlines()[-1])  # after the rules line
    assert gouji("verify", str(out)).exit_code == 0
    for bad in ({"places": [1, 1, 2, 6, 3, 5]}, {"finish": list(reversed(rec["finish"]))}):
        path = tmp_path / "bad.jsonl"
        path.write_text(json.dumps({**rec, **bad}) + "\n")
        r = gouji("verify", str(path))
        assert r.exit_code == 1, r.output


def test_replay_and_verify_exit_1_on_an_illegal_record_or_nothing_to_verify(tmp_path: Path) -> None:
    rec = play_hand(dagang(), 2, [make_agent("greedy") for _ in range(6)]).record()
    seat = rec["actions"][5].split(":")[0]
    rec["actions"][5] = f"{(int(seat) + 1) % 6}:pass"  # out of turn
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    r = gouji("replay", str(path), "--no-pause")
    assert r.exit_code == 1 and "ILLEGAL" in r.stdout
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    r = gouji("verify", str(empty))
    assert r.exit_code == 1 and "no hand records" in r.stderr
    r = gouji("verify", str(tmp_path / "missing.jsonl"))
    assert r.exit_code == 1 and "no such file" in r.stdout


def test_verify_refuses_a_record_played_under_other_rules(tmp_path: Path) -> None:
    rec = play_hand(dagang(), 3, [make_agent("greedy") for _ in range(6)]).record()
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    assert gouji("verify", str(path)).exit_code == 0
    club = tmp_path / "club.yaml"
    club.write_text("extends: dagang\nburn:\n  teammate: false\n", encoding="utf-8")
    r = gouji("verify", str(path), "--variant", str(club))
    assert r.exit_code == 1 and "other rules" in r.stdout
