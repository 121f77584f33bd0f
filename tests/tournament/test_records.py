"""Records stand on their own: they carry their rules, are read with bounds, and are checked against the deck and seed."""

from __future__ import annotations

import contextlib
import json
import os
import textwrap
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from gouji_rules import catalog, dsl
from gouji_rules.play.agents import make_agent
from gouji_rules.records import MAX_LINE, rules_line
from gouji_rules.sim import play_hand
from gouji_rules.variant import Variant

from .conftest import gouji, run_gouji


def dagang() -> Variant:
    """The shipped dagang, as a record's name and `--variant dagang` find it."""
    return catalog.resolve("dagang")


CLUB = textwrap.dedent(
    """
    extends: dagang
    name: qingdao_club
    title: 青岛俱乐部
    scoring:
      points: [3, 1, 0, 0, -1, -3]
    hooks:
      team_score: sum(points)
    """
)


def club_variant(tmp_path: Path) -> Path:
    p = tmp_path / "club.yaml"
    p.write_text(CLUB, encoding="utf-8")
    return p


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def write(path: Path, recs: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs), encoding="utf-8")
    return path


def greedy_record(seed: int = 1) -> dict[str, Any]:
    return play_hand(dagang(), seed, [make_agent("greedy") for _ in range(6)]).record()


def test_simulate_records_under_a_club_file_verify_without_the_file(tmp_path: Path) -> None:
    club = club_variant(tmp_path)
    out = tmp_path / "sim.jsonl"
    for extra in ([], ["--match-hands", "3"]):
        r = gouji("simulate", "--variant", str(club), "--hands", "3", "--records", str(out), "--quiet", *extra)
        assert r.exit_code == 0, r.output
        head = lines(out)[0]
        assert head["kind"] == "rules" and head["variant"] == "qingdao_club"
        assert head["rules"]["hooks"] == {"team_score": "sum(points)"}
        saved = club.read_text(encoding="utf-8")
        club.unlink()  # the club's file is gone: the records still carry its rules
        r = gouji("verify", str(out))
        assert r.exit_code == 0, r.output
        assert "3 record(s) read, 3 verified" in r.stderr
        r = gouji("replay", str(out), "--hand", "2", "--no-pause")
        assert r.exit_code == 0 and r.stdout.startswith("qingdao_club, seed")
        club.write_text(saved, encoding="utf-8")


def test_club_event_export_and_event_file_verify_without_the_rules_file(tmp_path: Path, players_csv: Path) -> None:
    club = club_variant(tmp_path)
    ev = tmp_path / "spring.sqlite"
    r = gouji("event", "new", str(ev), "--name", "春季赛", "--variant", str(club), "--players", str(players_csv))
    assert r.exit_code == 0, r.output
    for hand, finish in ((1, "2 0 4 1 5 3"), (2, "0 1 2 3 4 5")):
        r = gouji("event", "record", str(ev), "--round", "1", "--table", "1", "--hand", str(hand), "--finish", finish)
        assert r.exit_code == 0, r.output
    out = tmp_path / "hands.jsonl"
    assert gouji("event", "export", str(ev), "--records", str(out)).exit_code == 0
    club.unlink()
    r = gouji("verify", str(out))
    assert r.exit_code == 0, r.output
    assert "2 record(s) read, 2 verified" in r.stderr
    before = ev.read_bytes()
    ev.chmod(0o444)  # verify is a read command: it works on a read-only file and changes nothing
    r = gouji("verify", str(ev))
    assert r.exit_code == 0, r.output
    assert ev.read_bytes() == before
    ev.chmod(0o644)
    # a score changed by hand in the export is caught, scored under the club's own points
    head, first, second = lines(out)
    write(out, [head, dict(first, scores=[0, 0]), second])
    r = gouji("verify", str(out))
    assert r.exit_code == 1 and ":2: hand 1: scores" in r.stdout and "qingdao_club" in r.stdout


@pytest.mark.parametrize("name", ["/dev/zero", "/etc/shadow", "/etc/passwd", "FIFO", "../club.yaml"])
def test_the_variant_field_is_never_opened(tmp_path: Path, name: str) -> None:
    if name == "FIFO":
        name = str(tmp_path / "fifo")
        os.mkfifo(name)
    rec = dict(greedy_record(), variant=name)
    rec["variant_hash"] = "0123456789abcdef"
    path = write(tmp_path / "x.jsonl", [rec])
    r = run_gouji("verify", str(path), timeout=30)  # a FIFO opened would hang here
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "are not in the file" in r.stdout and "root:" not in r.stdout
    r = run_gouji("replay", str(path), "--no-pause", timeout=30)
    assert r.returncode == 1 and "Traceback" not in r.stderr and "are not in the file" in r.stderr


def test_a_rules_line_cannot_name_a_file(tmp_path: Path) -> None:
    head = rules_line(dagang())
    head["rules"]["extends"] = "/etc/shadow"
    path = write(tmp_path / "x.jsonl", [head, greedy_record()])
    r = gouji("verify", str(path))
    assert r.exit_code == 1 and "x.jsonl:1: not a valid record" in r.stdout


def test_rules_that_are_not_the_fingerprint_are_refused(tmp_path: Path) -> None:
    head = rules_line(dagang())
    head["rules"]["scoring"]["points"] = [9, 1, 0, 0, -1, -9]
    rec = greedy_record()
    rec["variant"] = "mine"  # not shipped: only the (tampered) rules line could supply the rules
    path = write(tmp_path / "x.jsonl", [head, rec])
    r = gouji("verify", str(path))
    assert r.exit_code == 1
    out = r.stdout.splitlines()
    assert out[0].startswith(f"{path}:1: error: the rules carried have the fingerprint")
    assert out[1].startswith(f"{path}:2: hand 1: error: the rules of this record")


def test_a_record_without_a_fingerprint_needs_variant(tmp_path: Path) -> None:
    rec = greedy_record()
    del rec["variant_hash"]
    path = write(tmp_path / "x.jsonl", [rec])
    r = gouji("verify", str(path))
    assert r.exit_code == 1 and "has no rules fingerprint (variant_hash)" in r.stdout and "--variant" in r.stdout
    assert gouji("verify", str(path), "--variant", "dagang").exit_code == 0


def test_a_record_carrying_its_rules_inline_stands_alone(tmp_path: Path) -> None:
    club = club_variant(tmp_path)
    v = dsl.load_file(club)
    rec = play_hand(v, 3, [make_agent("greedy") for _ in range(6)]).record()
    rec["rules"] = rules_line(v)["rules"]
    path = tmp_path / "one.json"
    path.write_text(json.dumps(rec, ensure_ascii=False, indent=2), encoding="utf-8")  # pretty-printed, one record
    club.unlink()
    assert gouji("verify", str(path)).exit_code == 0
    assert gouji("replay", str(path), "--no-pause").exit_code == 0


def _move(deal: list[str], src: int, dst: int, card: str, n: int = 1) -> list[str]:
    out = list(deal)
    for _ in range(n):
        assert card in out[src]
        out[src] = out[src].replace(card, "", 1)
        out[dst] = out[dst] + card
    return out


def _two_ranks(deal: list[str]) -> tuple[str, str]:
    """A plain rank seat 0 holds and another that seat 1 holds: swapping them keeps the deck, not the seed's deal."""
    a = next(c for c in "3456789TQKA" if c in deal[0])
    b = next(c for c in "3456789TQKA" if c in deal[1] and c != a)
    return a, b


def test_the_deal_must_be_the_deck(tmp_path: Path) -> None:
    rec = greedy_record(2)
    deal = rec["deal"]
    seven = list(deal)
    seven[0] = "BJ" * 7 + deal[0][14:]  # seven 大王 in a 4-pack deck, hand sizes kept
    extra = list(deal)
    extra[0] = deal[0] + "5"
    missing = list(deal)
    missing[0] = deal[0][1:]
    a, b = _two_ranks(deal)
    swapped = _move(_move(deal, 0, 1, a), 1, 0, b)
    recs = [dict(rec, deal=d) for d in (seven, extra, missing)] + [dict(rec, deal=swapped), rec]
    path = write(tmp_path / "d.jsonl", recs)
    r = gouji("verify", str(path))
    assert r.exit_code == 1
    out = r.stdout.splitlines()
    assert "deal gives seat 0 7 × BJ, but the deck of dagang has 4" in out[0]
    assert "deal holds" in out[1] and "but the deck of dagang has" in out[1]
    assert "every card is dealt" in out[2] or "deals" in out[2]
    assert f"the deal is not the one seed {rec['seed']} deals" in out[3]
    assert len(out) == 4  # the untouched record verifies


def test_a_match_hand_checks_the_cards_dealt_and_the_cards_in_play(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    assert gouji("simulate", "--hands", "2", "--match-hands", "2", "--records", str(out), "--quiet").exit_code == 0
    head, first, second = lines(out)
    dealt = first["dealt"]
    bad_dealt = dict(first, dealt=[dealt[0] + "BJ", *dealt[1:]])
    a, b = _two_ranks(dealt)
    reseeded = dict(first, dealt=_move(_move(dealt, 0, 1, a), 1, 0, b))
    bad_play = dict(second, deal=[second["deal"][0] + "3", *second["deal"][1:]])
    path = write(tmp_path / "bad.jsonl", [head, bad_dealt, reseeded, bad_play])
    r = gouji("verify", str(path))
    assert r.exit_code == 1
    got = r.stdout.splitlines()
    assert "dealt holds" in got[0]
    assert "the cards dealt are not the ones seed" in got[1]
    assert "the cards in play (deal and discards) are not the cards dealt" in got[2]


def test_the_published_schema_is_valid_and_printed(tmp_path: Path) -> None:
    r = gouji("verify", "--schema")
    assert r.exit_code == 0
    schema = json.loads(r.stdout)
    Draft202012Validator.check_schema(schema)
    from gouji_rules.variant import SECTIONS

    keys = set(schema["$defs"]["rules"]["propertyNames"]["enum"])
    # no 'extends'; 'phases', where a phase's options are written (it was left out of a hand-kept list)
    assert keys == {"name", "title", "source", "hooks", "phases", *(k for k, _ in SECTIONS)}
    assert gouji("verify").exit_code == 2


def test_a_record_that_breaks_the_schema_is_reported_before_replay(tmp_path: Path) -> None:
    rec = greedy_record()
    cases = [dict(rec, leader=9), dict(rec, seed=-1), dict(rec, actions="0:pass"), dict(rec, deal=rec["deal"][:5])]
    path = write(tmp_path / "s.jsonl", cases)
    r = gouji("verify", str(path))
    assert r.exit_code == 1
    out = r.stdout.splitlines()
    assert len(out) == 4 and all("not a valid record (docs/records.md) at" in x for x in out)
    assert "at leader: 9 is greater than the maximum of 5" in out[0]


HOSTILE: list[tuple[str, bytes, str]] = [
    ("huge_line", b'{"a": "' + b"x" * (MAX_LINE + 10) + b'"}\n', "a line of"),
    ("deep", b"[" * 100000 + b"]" * 100000 + b"\n", "nested too deeply"),
    ("digits", b'{"seed": ' + b"9" * 500000 + b"}\n", "too many digits"),
    ("utf8", b'{"variant": "\xff\xfe"}\n', "not UTF-8 text"),
    ("utf16", '{"variant": "x"}\n'.encode("utf-16"), "not UTF-8 text"),
    ("array", b"[1, 2]\n", "a hand record is a JSON object"),
    ("nan", b'{"variant": "dagang", "variant_hash": "00d8929d4da385a4", "seed": NaN}\n', "not a valid record"),
    ("float", b'{"variant": "dagang", "leader": 1e999, "deal": [], "actions": []}\n', "not a valid record"),
]


@pytest.mark.parametrize(("name", "data", "message"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_damaged_records_are_a_clear_error(tmp_path: Path, name: str, data: bytes, message: str) -> None:
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(data)
    for cmd in (["verify", str(path)], ["replay", str(path), "--no-pause"]):
        r = run_gouji(*cmd, timeout=60)
        assert r.returncode == 1, (cmd, r.stdout, r.stderr)
        assert "Traceback" not in r.stderr
        assert message in r.stdout + r.stderr


def test_special_files_are_refused_by_type(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo), str(tmp_path), str(tmp_path / "missing.jsonl")):
        r = run_gouji("verify", path, timeout=30)
        assert r.returncode in (1, 2) and "Traceback" not in r.stderr, (path, r.stderr)
        r = run_gouji("replay", path, "--no-pause", timeout=30)
        assert r.returncode in (1, 2) and "Traceback" not in r.stderr, (path, r.stderr)


def test_every_outcome_the_record_states_must_be_the_replays(tmp_path: Path) -> None:
    rec = greedy_record(4)
    events = [dict(e) for e in rec["events"]]
    k = next(i for i, e in enumerate(events) if e["type"] == "play")
    events[k]["seat"] = (events[k]["seat"] + 1) % 6
    cases = [
        dict(rec, events=events),
        dict(rec, opened=["open"] * 6),
        dict(rec, finish=list(reversed(rec["finish"]))),
        dict(rec, end=["BJ", *rec["end"][1:]]),
    ]
    r = gouji("verify", str(write(tmp_path / "o.jsonl", cases)))
    out = r.stdout.splitlines()
    assert r.exit_code == 1 and len(out) == 4
    assert f"event {k + 1} is" in out[0]
    assert "opened" in out[1] and "finish" in out[2] and "cards left" in out[3]
    assert all("replay does not reproduce the record" in x for x in out)


def test_mutated_records_are_problems_never_exceptions(tmp_path: Path) -> None:
    """60 seeded mutations of real records (keys dropped, values swapped for other types, bytes flipped)."""
    import io
    import random

    from gouji_rules.errors import GoujiError
    from gouji_rules.records import pick, verify_files
    from gouji_rules.sim import simulate, simulate_matches

    match_buf, hand_buf = io.StringIO(), io.StringIO()
    simulate_matches(catalog.resolve("dianshaomenla"), 4, 2, 3, "greedy", records=match_buf)
    simulate(dagang(), 3, 1, "random", records=hand_buf)
    sources = [match_buf.getvalue().splitlines(), hand_buf.getvalue().splitlines()]
    rng = random.Random(12)
    values: list[Any] = [None, True, -1, 0, 7, 10**30, "x", "", [], {}, [1] * 6, ["BJ" * 7] * 6, 1.5, "/etc/shadow"]

    def mutate(obj: Any, depth: int = 0) -> Any:
        if isinstance(obj, dict) and obj:
            k = rng.choice(list(obj))
            if rng.random() < 0.25:
                del obj[k]
            else:
                obj[k] = mutate(obj[k], depth + 1) if depth < 3 and rng.random() < 0.5 else rng.choice(values)
            return obj
        if isinstance(obj, list) and obj:
            i = rng.randrange(len(obj))
            obj[i] = mutate(obj[i], depth + 1) if depth < 3 and rng.random() < 0.5 else rng.choice(values)
            return obj
        if isinstance(obj, str) and obj:
            i = rng.randrange(len(obj))
            return obj[:i] + rng.choice("3456789TJQKA2BSJ:+ x") + obj[i + 1 :]
        return rng.choice(values)

    flagged = 0
    path = tmp_path / "f.jsonl"
    for _ in range(60):
        recs = [json.loads(x) for x in rng.choice(sources)]
        i = rng.randrange(len(recs))
        recs[i] = mutate(recs[i])
        data = bytearray("\n".join(json.dumps(r) for r in recs).encode())
        if rng.random() < 0.2:
            data[rng.randrange(len(data))] = rng.randrange(256)
        path.write_bytes(bytes(data))
        _, problems = verify_files([str(path)])
        flagged += bool(problems)
        with contextlib.suppress(GoujiError):
            pick(str(path), rng.randint(1, 4))
    assert flagged > 45  # the rest changed only labels (a name, a match number) or nothing that matters


@pytest.mark.parametrize(
    ("stored", "message"),
    [
        ("[" * 100000 + "]" * 100000, "the stored hands cannot be read"),
        ("9" * 500000, "the stored hands cannot be read"),
        ("not json", "the stored hands cannot be read"),
        ("[1, 2]", "not a JSON object"),
        ('{"deal": 5}', "not a valid record"),
    ],
)
def test_a_damaged_event_file_is_one_clear_error(tmp_path: Path, stored: str, message: str) -> None:
    import sqlite3

    ev = tmp_path / "d.sqlite"
    bots = "a=random,b=greedy,c=random,d=greedy,e=random,f=greedy"
    assert gouji("event", "new", str(ev), "--name", "d", "--rounds", "1", "--hands", "1", "--bots", bots).exit_code == 0
    assert gouji("event", "run", str(ev), "--quiet").exit_code == 0
    con = sqlite3.connect(ev)
    con.execute("UPDATE hands SET record = ? WHERE rotation = 0", (stored,))
    con.commit()
    con.close()
    r = run_gouji("verify", str(ev))
    assert r.returncode == 1 and "Traceback" not in r.stderr and message in r.stdout
    r = run_gouji("event", "export", str(ev), "--records", str(tmp_path / "x.jsonl"))
    assert "Traceback" not in r.stderr
    if r.returncode == 0:  # a record that is an object is exported as it is; verify then reports it
        assert "not a valid record" in run_gouji("verify", str(tmp_path / "x.jsonl")).stdout
    else:
        assert r.returncode == 1 and not (tmp_path / "x.jsonl").exists()


def test_verify_leaves_another_programs_database_untouched(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "other.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE t (x)")
    con.execute("INSERT INTO t VALUES (1)")
    con.commit()
    con.close()
    before = db.read_bytes()
    r = gouji("verify", str(db))
    assert r.exit_code == 1 and "not an event file" in r.stdout
    assert db.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]


@pytest.mark.parametrize(("name", "seed"), [("dagang", 2), ("dianshaomenla", 3)])
def test_verify_recomputes_debts_next_of_a_match_record(tmp_path: Path, name: str, seed: int) -> None:
    """What a hand leaves owed (``debts_next``) is settled again from the replay: the declarations (预点, 明点,
    宣点), 革命, a void deal dealt again and the losers' choice of last place all count as in the match."""
    out = tmp_path / "m.jsonl"
    argv = ["--hands", "12", "--match-hands", "6", "--agents", "random", "--seed", str(seed), "--quiet"]
    assert gouji("simulate", "--variant", name, "--records", str(out), *argv).exit_code == 0
    head, *recs = lines(out)
    seen = {e["type"] for r in recs for e in r["pre_play"]}
    wanted = {"yudian", "mingdian", "geming", "redeal"} if name == "dagang" else {"xuandian", "hedian"}
    assert wanted | {"choose_last"} <= seen  # the records exercise each of them
    r = gouji("verify", str(out))
    assert r.exit_code == 0, r.output
    k = next(i for i, x in enumerate(recs) if x["debts_next"])
    debts = [dict(d) for d in recs[k]["debts_next"]]
    debts[0]["count"] += 1
    tampered = [*recs[:k], dict(recs[k], debts_next=debts), *recs[k + 1 :]]
    for bad in (tampered, [*recs[:k], dict(recs[k], debts_next=[]), *recs[k + 1 :]]):
        r = gouji("verify", str(write(out, [head, *bad])))
        assert r.exit_code == 1
        (line,) = r.stdout.splitlines()
        assert line.startswith(f"{out}:{k + 2}: hand {k + 1}: debts_next [")
        assert f"is not what the hand leaves under {name}: [" in line


def test_verify_judges_and_settles_an_entered_result_as_the_club_did(tmp_path: Path, players_csv: Path) -> None:
    """A result record (entered at a table) is judged by the rules again (a burn the rules forbid is refused
    with rule and clause) and its ``debts_next`` is settled again, waivers taken out."""
    ev = tmp_path / "e.sqlite"
    assert gouji("event", "new", str(ev), "--name", "e", "--players", str(players_csv)).exit_code == 0
    r = gouji("event", "record", str(ev), "--round", "1", "--table", "1", "--hand", "1", "--finish", "2 0 4 1 5 3")
    assert r.exit_code == 0, r.output
    out = tmp_path / "r.jsonl"
    assert gouji("event", "export", str(ev), "--records", str(out)).exit_code == 0
    head, rec = lines(out)
    assert rec["kind"] == "result" and rec["debts_next"]
    assert gouji("verify", str(out)).exit_code == 0
    r = gouji("verify", str(write(out, [head, dict(rec, debts_next=rec["debts_next"][1:])])))
    assert r.exit_code == 1 and ":2: hand 1: debts_next [" in r.stdout
    burned = dict(rec, result=dict(rec["result"], burns=[[1, 4]]))  # seat 1 burning its opposite
    r = gouji("verify", str(write(out, [head, burned])))
    assert r.exit_code == 1 and "illegal:" in r.stdout and "(rule burn_who) [S4 第六条" in r.stdout
