"""Club events: 12 players, 3 rounds, results from CSV files, standings worked out by hand."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from .conftest import gouji, standings_json

# Round 1 results by table and hand: the finishing order as seat numbers.
ROUND1 = {
    (1, 1): "0 1 2 3 4 5",
    (1, 2): "0 2 4 1 3 5",  # seats 0 2 4 take places 1-3: 串三户
    (2, 1): "1 0 3 2 5 4",
    (2, 2): "1 0 2 3 4 5",
}

# Worked out by hand from the place points (see the comments), side 0 = seats 0 2 4.
# dagang: 4/2/0/0/-2/-4, a side's negative sum counts 0, 串三户 doubles.
#   t1h1: side0 4+0-2=2, side1 2+0-4=-2 -> 0       t1h2: side0 (4+2+0)*2=12, side1 0
#   t2h1: side0 2+0-4=-2 -> 0, side1 4+0-2=2         t2h2: side0 2+0-2=0, side1 4+0-4=0
# dianshaomenla: 2/1/0/0/-1/-2, negatives count, no doubling.
#   t1h1: 1, -1    t1h2: 3, -3    t2h1: -1, 1    t2h2: 0, 0
HAND_POINTS = {
    "dagang": {(1, 0): 14, (1, 1): 0, (2, 0): 0, (2, 1): 2},
    "dianshaomenla": {(1, 0): 4, (1, 1): -4, (2, 0): -1, (2, 1): 1},
}
# (table, seat) -> (rank, match points, last places) after round 1; ties share a rank.
# Table 1 side 0 and table 2 side 1 won their matches (2 MP).  Within equal MP and points,
# nobody met a tied rival (h2h 0); then fewest last places, then most first places.
EXPECTED = {
    "dagang": {
        (1, 0): (1, 2, 0),  # 2 firsts
        (1, 2): (2, 2, 0),
        (1, 4): (2, 2, 0),
        (2, 1): (4, 2, 0),  # 2 firsts
        (2, 3): (5, 2, 0),
        (2, 5): (6, 2, 1),
        (1, 1): (7, 0, 0),  # six players on 0 MP, 0 points
        (1, 3): (7, 0, 0),
        (2, 0): (7, 0, 0),
        (2, 2): (7, 0, 0),
        (2, 4): (11, 0, 1),
        (1, 5): (12, 0, 2),
    },
    "dianshaomenla": {
        (1, 0): (1, 2, 0),
        (1, 2): (2, 2, 0),
        (1, 4): (2, 2, 0),
        (2, 1): (4, 2, 0),
        (2, 3): (5, 2, 0),
        (2, 5): (6, 2, 1),
        (2, 0): (7, 0, 0),  # 0 MP, -1 point
        (2, 2): (7, 0, 0),
        (2, 4): (9, 0, 1),
        (1, 1): (10, 0, 0),  # 0 MP, -4 points
        (1, 3): (10, 0, 0),
        (1, 5): (12, 0, 2),
    },
}


def seating(path: Path, rnd: int) -> dict[tuple[int, int], str]:
    r = gouji("event", "seat", str(path), "--round", str(rnd), "--json")
    assert r.exit_code == 0, r.output
    out = {}
    for t in json.loads(r.stdout)["tables"]:
        for s in t["seats"]:
            out[(t["table"], s["seat"])] = s["player"]
    return out


def new_event(tmp_path: Path, players_csv: Path, variant: str) -> Path:
    ev = tmp_path / f"{variant}.sqlite"
    r = gouji(
        "event", "new", str(ev), "--name", "春季赛", "--variant", variant, "--players", str(players_csv),
        "--rounds", "3", "--hands", "2", "--seed", "11",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    return ev


def write_results(path: Path, rows: list[tuple[int, int, int, str]], extra: str = "") -> Path:
    text = "round,table,hand,finish,opened\n" + "".join(f"{r},{t},{h},{f},\n" for r, t, h, f in rows) + extra
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("variant", ["dagang", "dianshaomenla"])
def test_round_one_standings_by_hand(tmp_path: Path, players_csv: Path, variant: str) -> None:
    ev = new_event(tmp_path, players_csv, variant)
    seats = seating(ev, 1)
    # names instead of seat numbers on table 2: both are accepted
    rows = []
    for (t, h), finish in ROUND1.items():
        text = finish if t == 1 else " ".join(seats[(t, int(s))] for s in finish.split())
        rows.append((1, t, h, text))
    res = write_results(tmp_path / "r1.csv", rows)
    r = gouji("event", "record", str(ev), "--from", str(res))
    assert r.exit_code == 0, r.output
    assert "串三户" in r.stdout
    lines = {x["name"]: x for x in standings_json(ev)}
    for (t, s), (rank, mp, lasts) in EXPECTED[variant].items():
        line = lines[seats[(t, s)]]
        assert (line["rank"], line["match_points"], line["lasts"]) == (rank, mp, lasts), (t, s, line)
        assert line["hand_points"] == HAND_POINTS[variant][(t, s % 2)]
        assert line["played"] == 1 and line["hands"] == 2


def test_three_rounds_from_csv_and_totals(tmp_path: Path, players_csv: Path) -> None:
    ev = new_event(tmp_path, players_csv, "dagang")
    finishes = ["0 1 2 3 4 5", "5 4 3 2 1 0", "1 3 5 0 2 4", "2 1 0 5 4 3"]
    rows = []
    for rnd in (1, 2, 3):
        for t in (1, 2):
            for h in (1, 2):
                rows.append((rnd, t, h, finishes[(rnd + t + h) % 4]))
    r = gouji("event", "record", str(ev), "--from", str(write_results(tmp_path / "all.csv", rows)))
    assert r.exit_code == 0, r.output
    # every player's hand points, summed independently from place points 4/2/0/0/-2/-4
    pts = [4, 2, 0, 0, -2, -4]
    want: dict[str, int] = {}
    for rnd in (1, 2, 3):
        seats = seating(ev, rnd)
        for t in (1, 2):
            for h in (1, 2):
                order = [int(x) for x in finishes[(rnd + t + h) % 4].split()]
                place = {s: i for i, s in enumerate(order)}
                sides = [sum(pts[place[s]] for s in range(side, 6, 2)) for side in (0, 1)]
                sweep = {place[s] for s in range(0, 6, 2)} == {0, 1, 2} or {place[s] for s in range(1, 6, 2)} == {
                    0,
                    1,
                    2,
                }
                sides = [max(0, x) * (2 if sweep and x > 0 else 1) for x in sides]
                for s in range(6):
                    want[seats[(t, s)]] = want.get(seats[(t, s)], 0) + sides[s % 2]
    got = {x["name"]: x["hand_points"] for x in standings_json(ev)}
    assert got == want
    doc = json.loads(gouji("event", "standings", str(ev), "--json").stdout)
    assert doc["hands_recorded"] == doc["hands_scheduled"] == 12
    assert all(x["played"] == 3 for x in doc["standings"])


def test_malformed_row_stores_nothing(tmp_path: Path, players_csv: Path) -> None:
    ev = new_event(tmp_path, players_csv, "dagang")
    res = write_results(
        tmp_path / "bad.csv",
        [(1, 1, 1, "0 1 2 3 4 5"), (1, 1, 2, "0 1 2 3 4")],  # line 3: five seats
    )
    r = gouji("event", "record", str(ev), "--from", str(res))
    assert r.exit_code == 1
    assert r.stderr.startswith(f"{res}:3: error: finish names each of the six seats once")
    assert len(r.stderr.strip().splitlines()) == 1
    with sqlite3.connect(ev) as con:
        assert con.execute("SELECT count(*) FROM hands").fetchone()[0] == 0
        assert con.execute("SELECT count(*) FROM audit").fetchone()[0] == 0
    for bad, msg in [
        ("1,1,x,0 1 2 3 4 5,\n", "hand 'x' is not a number"),
        ("1,9,1,0 1 2 3 4 5,\n", "round 1 has no table 9"),
        ("1,1,1,0 1 2 3 4 nobody,\n", "'nobody' is neither a seat number"),
        ("1,1,1,0 1 2 3 4 5,\n1,1,1,0 1 2 3 4 5,\n", "is already on"),
    ]:
        p = tmp_path / "b.csv"
        p.write_text("round,table,hand,finish,opened\n" + bad, encoding="utf-8")
        r = gouji("event", "record", str(ev), "--from", str(p))
        assert r.exit_code == 1 and msg in r.stderr and r.stderr.startswith(f"{p}:"), r.stderr
    with sqlite3.connect(ev) as con:
        assert con.execute("SELECT count(*) FROM hands").fetchone()[0] == 0


def test_record_prints_points_tribute_and_leader(tmp_path: Path, players_csv: Path) -> None:
    ev = new_event(tmp_path, players_csv, "dagang")
    args = ["event", "record", str(ev), "--round", "1", "--table", "1", "--hand", "1"]
    r = gouji(*args, "--finish", "0 2 4 1 3 5", "--burn", "2:1", "--men", "5:4", "--opened", "0,2", "--json")
    assert r.exit_code == 0, r.output
    h = json.loads(r.stdout)["hands"][0]
    assert h["scores"] == [12, 0] and h["sweep"] == 0 and h["next_leader"] == 5
    kinds = {(d["kind"], d["giver"], d["receiver"]) for d in h["tribute"]}
    assert ("burn", 1, 2) in kinds and ("men", 5, 4) in kinds
    # the same hand again is refused; corrected, it is replaced and audited
    r = gouji(*args, "--finish", "0 1 2 3 4 5")
    assert r.exit_code == 1 and "already recorded" in r.stderr
    r = gouji("event", "correct", *args[2:], "--finish", "0 1 2 3 4 5", "--lang", "en")
    assert r.exit_code == 0, r.output
    assert "points: seats 0 2 4" in r.stdout and " 2, seats 1 3 5" in r.stdout
    out = tmp_path / "audit.jsonl"
    assert gouji("event", "export", str(ev), "--audit", str(out)).exit_code == 0
    audit = [json.loads(x) for x in out.read_text().splitlines()]
    assert [a["action"] for a in audit] == ["record", "correct"]
    assert json.loads(audit[1]["old"])["burns"] == [[2, 1]]
    # options the house rules do not have
    r = gouji(*args, "--finish", "0 1 2 3 4 5", "--replace", "--declare", "xuandian:0")
    assert r.exit_code == 1 and "dagang has no xuandian" in r.stderr
    r = gouji(*args, "--finish", "0 1 2 3 4 5", "--replace", "--burn", "0:3")
    assert r.exit_code == 1 and "burn 0:3" in r.stderr
    r = gouji("event", "record", str(ev), "--round", "1")
    assert r.exit_code == 2


def _teams_csv(tmp_path: Path, n: int) -> Path:
    p = tmp_path / "teams.csv"
    p.write_text("team,name\n" + "".join(f"T{t},p{t}_{i}\n" for t in range(n) for i in range(3)), encoding="utf-8")
    return p


def test_team_round_robin_and_swiss(tmp_path: Path) -> None:
    teams = _teams_csv(tmp_path, 4)
    rr = tmp_path / "rr.sqlite"
    assert gouji("event", "new", str(rr), "--name", "rr", "--teams", str(teams), "--hands", "1").exit_code == 0
    met = set()
    for rnd in (1, 2, 3):
        sheet = json.loads(gouji("event", "seat", str(rr), "--round", str(rnd), "--json").stdout)["tables"]
        for t in sheet:
            assert [s["team"] for s in t["seats"]][0::2] == [t["seats"][0]["team"]] * 3
            met.add(frozenset((t["seats"][0]["team"], t["seats"][1]["team"])))
    assert len(met) == 6  # every pair of the four teams once
    sw = tmp_path / "sw.sqlite"
    r = gouji("event", "new", str(sw), "--name", "sw", "--teams", str(teams), "--format", "swiss", "--hands", "1")
    assert r.exit_code == 0, r.output
    r = gouji("event", "seat", str(sw), "--round", "2")
    assert r.exit_code == 1 and "still misses hands" in r.stderr
    rows = [(1, 1, 1, "0 1 2 3 4 5"), (1, 2, 1, "1 0 3 2 5 4")]
    assert gouji("event", "record", str(sw), "--from", str(write_results(tmp_path / "s1.csv", rows))).exit_code == 0
    sheet2 = json.loads(gouji("event", "seat", str(sw), "--round", "2", "--json").stdout)["tables"]
    sheet1 = json.loads(gouji("event", "seat", str(sw), "--round", "1", "--json").stdout)["tables"]

    def pairs(sheet: list[dict[str, Any]]) -> set[frozenset[str]]:
        return {frozenset((t["seats"][0]["team"], t["seats"][1]["team"])) for t in sheet}

    assert not pairs(sheet1) & pairs(sheet2)  # no rematch
    winners = {sheet1[0]["seats"][0]["team"], sheet1[1]["seats"][1]["team"]}
    assert winners in pairs(sheet2)  # the two winners meet
    lines = standings_json(sw)
    assert {x["name"] for x in lines[:2]} == winners


def test_standings_formats(tmp_path: Path, players_csv: Path) -> None:
    ev = new_event(tmp_path, players_csv, "dagang")
    gouji("event", "record", str(ev), "--round", "1", "--table", "1", "--hand", "1", "--finish", "0 1 2 3 4 5")
    text = gouji("event", "standings", str(ev)).stdout
    assert "1 of 12 hands recorded" in text and "张三" in text
    csv_text = gouji("event", "standings", str(ev), "--csv").stdout
    assert csv_text.splitlines()[0].startswith("rank,name,played")
    out = tmp_path / "s.html"
    assert gouji("event", "standings", str(ev), "--html", "-o", str(out)).exit_code == 0
    assert "<table>" in out.read_text(encoding="utf-8")


def test_swiss_round_is_paired_by_its_first_result(tmp_path: Path) -> None:
    sw = tmp_path / "sw.sqlite"
    teams = _teams_csv(tmp_path, 4)
    assert (
        gouji(
            "event", "new", str(sw), "--name", "sw", "--teams", str(teams), "--format", "swiss", "--hands", "1"
        ).exit_code
        == 0
    )
    args = ["event", "record", str(sw), "--round", "2", "--table", "1", "--hand", "1", "--finish", "0 1 2 3 4 5"]
    r = gouji(*args)
    assert r.exit_code == 1 and "still misses hands" in r.stderr
    rows = [(1, 1, 1, "0 1 2 3 4 5"), (1, 2, 1, "1 0 3 2 5 4")]
    assert gouji("event", "record", str(sw), "--from", str(write_results(tmp_path / "s1.csv", rows))).exit_code == 0
    assert gouji(*args).exit_code == 0


def _audit(ev: Path) -> list[tuple[str, str | None, str | None]]:
    with sqlite3.connect(ev) as con:
        return [(a, o, n) for a, o, n in con.execute("SELECT action, old, new FROM audit ORDER BY id")]


def test_correct_changes_only_what_it_is_given(tmp_path: Path, players_csv: Path) -> None:
    ev = new_event(tmp_path, players_csv, "dagang")
    key = ["--round", "1", "--table", "1", "--hand", "1"]
    r = gouji("event", "record", str(ev), *key, "--finish", "0 2 4 1 3 5", "--burn", "2:1", "--opened", "0,2")
    assert r.exit_code == 0, r.output
    # only the finishing order changes: the burn, the 开点 and their tribute stay
    r = gouji("event", "correct", str(ev), *key, "--finish", "2 0 4 1 3 5", "--json")
    assert r.exit_code == 0, r.output
    h = json.loads(r.stdout)["hands"][0]
    assert h["changed"] and h["before"]["finish"] == [0, 2, 4, 1, 3, 5]
    assert h["result"]["finish"] == [2, 0, 4, 1, 3, 5] and h["result"]["burns"] == [[2, 1]]
    assert h["result"]["opened"] == [0, 2]
    assert ("burn", 1, 2) in {(d["kind"], d["giver"], d["receiver"]) for d in h["tribute"]}
    # the text output shows before and after
    r = gouji("event", "correct", str(ev), *key, "--men", "5:4", "--lang", "en")
    assert r.exit_code == 0, r.output
    assert "before: finish 2 0 4 1 3 5; burn 2:1; opened 0 2" in r.stdout
    assert "after:  finish 2 0 4 1 3 5; burn 2:1; men 5:4; opened 0 2" in r.stdout
    # dropping a recorded fact needs --replace (the whole hand)
    r = gouji("event", "correct", str(ev), *key, "--burn", "4:1")
    assert r.exit_code == 1 and "would drop" in r.stderr and "burns 2:1" in r.stderr and "--replace" in r.stderr
    r = gouji("event", "correct", str(ev), *key, "--replace", "--finish", "0 1 2 3 4 5", "--lang", "en")
    assert r.exit_code == 0, r.output
    assert "after:  finish 0 1 2 3 4 5" in r.stdout and "burn" not in r.stdout.split("after:")[1].splitlines()[0]
    audit = _audit(ev)
    assert [a for a, _o, _n in audit] == ["record", "correct", "correct", "correct"]
    # nothing changes: nothing written, no audit entry
    r = gouji("event", "correct", str(ev), *key, "--finish", "0 1 2 3 4 5")
    assert r.exit_code == 0 and "没有改动" in r.stdout
    assert len(_audit(ev)) == 4
    r = gouji("event", "correct", str(ev), "--round", "1", "--table", "1", "--hand", "2", "--finish", "0 1 2 3 4 5")
    assert r.exit_code == 1 and "no result to correct" in r.stderr


def test_status_lists_the_hands_still_to_enter(tmp_path: Path, players_csv: Path) -> None:
    ev = new_event(tmp_path, players_csv, "dagang")  # 3 rounds, 2 tables, 2 hands
    rows = [(1, 1, 1, "0 1 2 3 4 5"), (1, 1, 2, "0 1 2 3 4 5"), (1, 2, 2, "0 1 2 3 4 5")]
    assert gouji("event", "record", str(ev), "--from", str(write_results(tmp_path / "r.csv", rows))).exit_code == 0
    r = gouji("event", "status", str(ev), "--lang", "en")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].endswith("3 of 12 hands recorded")
    assert "round 1 table 2: hand 1" in lines and "round 2 table 1: hands 1 2" in lines
    assert not any(x.startswith("round 1 table 1") for x in lines)
    doc = json.loads(gouji("event", "status", str(ev), "--json").stdout)
    assert len(doc["missing"]) == 9 and {"round": 1, "table": 2, "hand": 1, "rotation": 0} in doc["missing"]


def test_s0_and_s4_teammate_burn_is_entered(tmp_path: Path, players_csv: Path) -> None:
    """S0 五、烧牌: 烧牌可以烧队友; S4 第六条: 当任意一人发够级牌时. Both shipped variants have
    burn.teammate: true, so seat 2 burning its teammate seat 0 is a result a club can enter."""
    for variant in ("dagang", "dianshaomenla"):
        ev = new_event(tmp_path, players_csv, variant)
        args = ["event", "record", str(ev), "--round", "1", "--table", "1", "--hand", "1"]
        r = gouji(*args, "--finish", "2 1 0 3 4 5", "--burn", "2:0", "--opened", "2", "--json")
        assert r.exit_code == 0, r.output
        tribute = json.loads(r.stdout)["hands"][0]["tribute"]
        assert ("burn", 0, 2) in {(d["kind"], d["giver"], d["receiver"]) for d in tribute}


def test_entry_the_engine_cannot_produce_names_rule_and_clause(tmp_path: Path, players_csv: Path) -> None:
    ev = new_event(tmp_path, players_csv, "dagang")
    args = ["event", "record", str(ev), "--round", "1", "--table", "1", "--hand", "1"]
    r = gouji(*args, "--finish", "0 1 2 3 4 5", "--burn", "1:2")  # seat 1 never opened
    assert r.exit_code == 1 and "rule burn_open_point" in r.stderr and "S4 第六条" in r.stderr, r.stderr
    r = gouji(*args, "--finish", "0 1 2 3 4 5", "--geming", "0")  # 革命 is 四科 (or 三科), not 头科
    assert r.exit_code == 1 and "rule geming_place" in r.stderr and "S4 第二十一条" in r.stderr, r.stderr
    r = gouji(*args, "--finish", "0 1 2 4 3 5", "--geming", "4", "--json")
    assert r.exit_code == 0, r.output


def test_s0_burn_fail_is_entered_and_ranks_last(tmp_path: Path, players_csv: Path) -> None:
    """S0 五、烧牌: 诈烧者直接被判定为拉客 (and below a 闷 victim)."""
    ev = new_event(tmp_path, players_csv, "dianshaomenla")
    args = ["event", "record", str(ev), "--round", "1", "--table", "1", "--hand", "1"]
    r = gouji(*args, "--finish", "0 1 2 3 4 5", "--burn-fail", "1")
    assert r.exit_code == 1 and "rule placed_bottom" in r.stderr, r.stderr
    r = gouji(*args, "--finish", "0 1 2 3 4 5", "--burn-fail", "5", "--men", "4:1")
    assert r.exit_code == 0, r.output
    out = tmp_path / "res.csv"
    assert gouji("event", "export", str(ev), "--results", str(out)).exit_code == 0
    assert "burn_fail" in out.read_text().splitlines()[0] and ",5," in out.read_text().splitlines()[1]


def test_s0_sec10_chongdian_survives_a_correction_and_the_results_export(tmp_path: Path, players_csv: Path) -> None:
    """S0 十、冲点: a failed 冲点 gives the point to the opposite; correcting the finish keeps that."""
    ev = new_event(tmp_path, players_csv, "dianshaomenla")
    key = ["--round", "1", "--table", "1", "--hand", "1"]
    r = gouji("event", "record", str(ev), *key, "--finish", "0 1 2 3 4 5", "--chongdian", "3:fail", "--opened", "1")
    assert r.exit_code == 0, r.output
    r = gouji("event", "correct", str(ev), *key, "--finish", "1 0 2 3 4 5", "--json")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)["hands"][0]["result"]
    assert res["chongdian"] == [[3, "fail"]] and res["opened"] == [0, 1]  # seat 0 opened by 3's failed 冲点
    out = tmp_path / "res.csv"
    assert gouji("event", "export", str(ev), "--results", str(out)).exit_code == 0
    row = out.read_text().splitlines()[1].split(",")
    header = out.read_text().splitlines()[0].split(",")
    assert row[header.index("opened")] == "1" and row[header.index("chongdian")] == "3:fail"


def test_s4_art15_record_refuses_a_qing_seat_above_the_bottom_and_takes_no_three(
    tmp_path: Path, players_csv: Path
) -> None:
    """第十五条 「先清为落」 at club entry: under dagang (``buy.no_three: last``) a 清 seat entered at 三科 is
    refused; a seat without a 3 (第九条 「算做大落」, ``--no-three``) is below it, and ``verify`` and the
    results export keep it."""
    ev = new_event(tmp_path, players_csv, "dagang")
    args = ["event", "record", str(ev), "--round", "1", "--table", "1", "--hand", "1"]
    r = gouji(*args, "--finish", "1 3 0 5 2 4", "--men", "0:1")
    assert r.exit_code == 1 and "placed_bottom" in r.stderr and "第十五条" in r.stderr, r.output
    r = gouji(*args, "--finish", "1 3 2 4 0 5", "--men", "0:1", "--no-three", "5")
    assert r.exit_code == 0, r.output
    assert gouji("verify", str(ev)).exit_code == 0
    out = tmp_path / "results.csv"
    assert gouji("event", "export", str(ev), "--results", str(out)).exit_code == 0
    assert out.read_text(encoding="utf-8").splitlines()[1].endswith(",5")


def test_club_text_output_numbers_seats_1_to_6_with_chinese_headers(tmp_path: Path, players_csv: Path) -> None:
    """Issue 34 item 6: the phones and printed sheets say seats 1-6; so does every text a club reads.
    JSON keeps 0-5 (records and the bot protocol)."""
    ev = new_event(tmp_path, players_csv, "dagang")
    sheet = json.loads(gouji("event", "seat", str(ev), "--round", "1", "--json").stdout)["tables"][0]["seats"]
    assert sorted(s["seat"] for s in sheet) == [0, 1, 2, 3, 4, 5]
    zh = gouji("event", "seat", str(ev), "--round", "1").stdout
    lines = zh.splitlines()
    assert lines[0].endswith("第 1 轮 第 1 桌") and lines[1].split() == ["座位", "选手", "队", "同一方（座位）", "对头"]
    first = next(s for s in sheet if s["seat"] == 0)
    row = lines[2].split()
    assert row[0] == "1" and row[1] == first["player"] and row[3:6] == ["1", "3", "5"] and row[6] == "4"
    assert not any(line.split()[:1] == ["0"] for line in lines)
    en = gouji("event", "seat", str(ev), "--round", "1", "--lang", "en").stdout
    assert en.splitlines()[1].split()[:2] == ["seat", "player"] and en.splitlines()[2].split()[0] == "1"
    status = gouji("event", "status", str(ev)).stdout
    assert "已录入 0 / 12 局" in status and "第 1 轮 第 1 桌：第 1 2 局待录入" in status
    st_zh = gouji("event", "standings", str(ev)).stdout
    st_en = gouji("event", "standings", str(ev), "--lang", "en").stdout
    assert "名次" in st_zh and "Ranked by" in st_en and "排名依次比较" not in st_en


def test_record_and_correct_read_out_in_chinese_with_seats_1_to_6(tmp_path: Path, players_csv: Path) -> None:
    ev = new_event(tmp_path, players_csv, "dagang")
    sheet = json.loads(gouji("event", "seat", str(ev), "--round", "1", "--json").stdout)["tables"][0]["seats"]
    name = {s["seat"]: s["player"] for s in sheet}
    key = ("--round", "1", "--table", "1", "--hand", "1")
    r = gouji("event", "record", str(ev), *key, "--finish", "0 2 4 1 3 5")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].startswith("第 1 轮 第 1 桌 第 1 局")
    assert lines[1].startswith(f"名次：头科 {name[0]}（1号），二科 {name[2]}（3号）") and "（0号）" not in r.stdout
    assert lines[2].startswith("得分：A方") and "串三户" in lines[2]
    assert any(x.startswith("下一局由 ") and x.endswith(" 先出牌") for x in lines)
    assert "seat" not in r.stdout and "points:" not in r.stdout
    r = gouji("event", "correct", str(ev), *key, "--replace", "--finish", "1 3 5 0 2 4")
    assert r.exit_code == 0, r.output
    assert f"原来：{name[0]}、{name[2]}" in r.stdout and f"改为：{name[1]}、{name[3]}" in r.stdout
    assert "更正了 1 局" in r.stderr
