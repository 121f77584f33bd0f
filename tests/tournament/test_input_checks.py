"""What a new user gets wrong, and what the event commands answer (found in an acceptance run)."""

from __future__ import annotations

import json
from pathlib import Path

from gouji_rules.catalog import dagang
from gouji_rules.play.agents import make_agent
from gouji_rules.sim import play_hand

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


NAMES = ["张三", "李四", "王五", "赵六", "钱七", "孙八"]


def test_a_players_csv_saved_by_chinese_excel_is_named_then_read_with_encoding(tmp_path: Path) -> None:
    gbk = tmp_path / "gbk.csv"
    gbk.write_bytes(("name\n" + "\n".join(NAMES) + "\n").encode("gbk"))
    ev = tmp_path / "e.sqlite"
    r = gouji("event", "new", str(ev), "--name", "e", "--players", str(gbk))
    assert r.exit_code == 1 and "GBK" in r.stderr and "--encoding" in r.stderr and "Traceback" not in r.output
    assert not ev.exists()
    r = gouji("event", "new", str(ev), "--name", "e", "--players", str(gbk), "--encoding", "gbk")
    assert r.exit_code == 0, r.output
    assert {x["name"] for x in standings_json(ev)} == set(NAMES)
    u16 = tmp_path / "u16.csv"
    u16.write_bytes(("round,table,hand,finish\n1,1,1,张三 李四 王五 赵六 钱七 孙八\n").encode("utf-16"))
    r = gouji("event", "record", str(ev), "--from", str(u16))
    assert r.exit_code == 1 and "UTF-16" in r.stderr
    r = gouji("event", "record", str(ev), "--from", str(u16), "--encoding", "utf-16")
    assert r.exit_code == 0, r.output
    r = gouji("event", "new", str(tmp_path / "f.sqlite"), "--name", "e", "--players", str(gbk), "--encoding", "nope")
    assert r.exit_code == 1 and "unknown encoding" in r.stderr


def test_player_names_hidden_characters_are_refused_and_look_alikes_are_one_player(tmp_path: Path) -> None:
    ev = tmp_path / "e.sqlite"
    for bad, pos in (("张\u200b三", 2), ("\u202eevil", 1), ("a\u0007b", 2), ("x\u2028y", 2)):
        p = tmp_path / "p.csv"
        p.write_text("name\n" + "\n".join([bad, *NAMES[1:]]) + "\n", encoding="utf-8")
        r = gouji("event", "new", str(ev), "--name", "e", "--players", str(p))
        assert r.exit_code == 1 and f"character {pos} is" in r.stderr and r.stderr.startswith(f"{p}:2:"), r.stderr
        assert not ev.exists()
    p = tmp_path / "p.csv"
    nfd, nfc = "Jose\u0301", "Jos\u00e9"  # José typed two ways: the same player
    p.write_text("name\n" + "\n".join([nfc, *NAMES[1:], nfd]) + "\n", encoding="utf-8")
    r = gouji("event", "new", str(ev), "--name", "e", "--players", str(p))
    assert r.exit_code == 1 and "already on line 2" in r.stderr and r.stderr.startswith(f"{p}:8:"), r.stderr


def test_absurd_numbers_are_refused_with_the_bound(tmp_path: Path) -> None:
    p = tmp_path / "p.csv"
    p.write_text("name\n" + "\n".join(NAMES) + "\n", encoding="utf-8")
    ev = str(tmp_path / "e.sqlite")
    for args, bound in (
        (["event", "new", ev, "--name", "e", "--players", str(p), "--rounds", "1000000"], "1<=x<=100"),
        (["event", "new", ev, "--name", "e", "--players", str(p), "--hands", "100000"], "1<=x<=100"),
        (["event", "new", ev, "--name", "e", "--players", str(p), "--seed", str(10**30)], "<=x<="),
        (["simulate", "--hands", "100000000000"], "1<=x<=10000000"),
        (["bench", "--hands", "-5"], "1<=x<=10000000"),
        (["compare", "dagang", "dianshaomenla", "--workers", "100000"], "1<=x<=64"),
        (["compare", "dagang", "dianshaomenla", "--hands", "0"], "1<=x<=10000000"),
    ):
        r = gouji(*args)
        assert r.exit_code == 2 and bound in r.output, (args, r.output)
    assert not Path(ev).exists()


def test_standings_csv_is_safe_in_a_spreadsheet(tmp_path: Path) -> None:
    import csv
    import io

    p = tmp_path / "p.csv"
    evil = ["=HYPERLINK(1)", "+SUM(A1)", "-2+3", "@cmd", "=cmd|x", "李四"]
    p.write_text("name\n" + "\n".join(evil) + "\n", encoding="utf-8")
    ev = tmp_path / "e.sqlite"
    r = gouji("event", "new", str(ev), "--name", "e", "--players", str(p), "--variant", "dianshaomenla")
    assert r.exit_code == 0, r.output
    args = ["event", "record", str(ev), "--round", "1", "--table", "1", "--hand", "1", "--finish", "0 1 2 3 4 5"]
    assert gouji(*args).exit_code == 0
    out = tmp_path / "s.csv"
    assert gouji("event", "standings", str(ev), "--csv", "-o", str(out)).exit_code == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert {r["name"] for r in rows} == {"'" + n for n in evil[:5]} | {"李四"}
    assert all(not r["name"].startswith(("=", "+", "-", "@")) for r in rows)
    assert sorted(int(r["hand_points"]) for r in rows) == [-1, -1, -1, 1, 1, 1]  # numbers stay numbers
