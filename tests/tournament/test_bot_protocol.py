"""The bot protocol's compact legal actions, answers by index, its JSON Schema and the feature bot."""

from __future__ import annotations

import json
import sqlite3
import sys
import textwrap
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from gouji_rules import catalog
from gouji_rules.game.actions import Play, parse_action
from gouji_rules.game.cards import SYMBOLS
from gouji_rules.game.legal import Box, Legal
from gouji_rules.play.engine import Hand
from gouji_rules.tournament.bots import BotFault, observation_json, reply_action

from .conftest import gouji

ROOT = Path(__file__).resolve().parents[2]


def opening_lead(variant: str, seed: int = 1) -> tuple[Hand, Legal]:
    """The first lead of a hand: every choice before play answered with its first option."""
    hand = Hand.deal(catalog.resolve(variant), seed)
    while hand.observation().mode != "lead":
        hand.apply(hand.legal_actions()[0])
    return hand, hand.legal_actions()


def act_bytes(hand: Hand, legal: Legal, full: bool) -> int:
    """The size of the act line; ``full`` lists every legal action as text (the protocol before compaction)."""
    msg = observation_json(hand.observation(hand.turn), legal)
    if full:
        msg["legal"] = [str(a) for a in legal]
    return len(json.dumps(msg).encode())


def schema() -> dict[str, Any]:
    text = resources.files("gouji_rules.data").joinpath("bot-protocol.schema.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def test_liufu_ying_opening_lead_act_is_small() -> None:
    hand, legal = opening_lead("liufu_ying", seed=2)  # 7,183 legal leads
    before, after = act_bytes(hand, legal, full=True), act_bytes(hand, legal, full=False)
    assert before > 100_000  # the case: every legal lead spelled out
    assert after < 10_000


def test_compact_legal_rebuilds_every_action_in_order() -> None:
    hand, legal = opening_lead("liufu_ying", seed=2)
    msg = observation_json(hand.observation(hand.turn), legal)
    assert msg["legal_count"] == len(legal)
    boxes: list[Box] = [
        (SYMBOLS.index(b["rank"]), *b["count"], b["twos"][1], *b["sj"], *b["bj"], *b["top"])
        for b in msg["legal_compact"]["boxes"]
    ]
    rebuilt = Legal(boxes=boxes, burn=msg["legal_compact"]["kind"] == "burn")
    assert [str(a) for a in rebuilt] == [str(a) for a in legal][: legal.n_sets]
    assert len(msg["legal"]) == 256 and all(parse_action(t) in legal for t in msg["legal"])


def test_reply_by_index_or_text_is_checked() -> None:
    _, legal = opening_lead("liufu_ying")
    last = len(legal) - 1
    assert reply_action({"id": 5, "index": last}, legal, 5, "lead") == legal[last]
    assert reply_action({"id": 5, "action": str(legal[3])}, legal, 5, "lead") == legal[3]
    bad_replies: list[tuple[dict[str, Any], str]] = [
        ({"id": 5, "index": len(legal)}, "illegal"),
        ({"id": 5, "index": -1}, "illegal"),
        ({"id": 5, "index": True}, "invalid_reply"),
        ({"id": 5, "index": "0"}, "invalid_reply"),
        ({"id": 5, "index": 10**400}, "illegal"),
        ({"id": 5}, "invalid_reply"),
        ({"id": 5, "index": 1.0}, "invalid_reply"),
        ({"id": 5, "action": "kou"}, "illegal"),
    ]
    for bad, kind in bad_replies:
        with pytest.raises(BotFault) as e:
            reply_action(bad, legal, 5, "lead")
        assert e.value.kind == kind
    assert isinstance(legal[0], Play)


INDEX_BOT = textwrap.dedent(
    """
    import json, sys
    with open(sys.argv[1], "a") as log:
        for line in sys.stdin:
            log.write(line)
            req = json.loads(line)
            if req["type"] == "hello":
                out = {"type": "hello", "id": req["id"], "protocol": 2}
            elif req["type"] == "act":
                out = {"id": req["id"], "index": req["legal_count"] - 1}
            else:
                continue
            log.write(json.dumps(out) + "\\n")
            print(json.dumps(out), flush=True)
    """
)


def run_event(tmp_path: Path, seat_spec: str, variant: str, hands: int = 1) -> str:
    ev = tmp_path / "e.sqlite"
    r = gouji(
        "event", "new", str(ev), "--name", "p", "--rounds", "1", "--hands", str(hands), "--no-duplicate",
        "--variant", variant, "--bots", f"x={seat_spec}", "--bots", "b=greedy,c=random,d=greedy,e=random,f=greedy",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    r = gouji("event", "run", str(ev), "--time-limit", "5")
    assert r.exit_code == 0, r.output
    return str(r.stdout)


def test_index_bot_plays_an_event_and_messages_match_the_schema(tmp_path: Path) -> None:
    bot, log = tmp_path / "index_bot.py", tmp_path / "log.jsonl"
    bot.write_text(INDEX_BOT, encoding="utf-8")
    out = run_event(tmp_path, f"cmd:{sys.executable} {bot} {log}", "liufu_ying")
    assert "0 fault(s)" in out and "1 of 1 hands stored" in out
    msgs = [json.loads(x) for x in log.read_text().splitlines()]
    validator = jsonschema.Draft202012Validator(schema())
    kinds = set()
    for m in msgs:
        validator.validate(m)
        kinds.add(m.get("type", "reply"))
    assert kinds == {"hello", "start_hand", "act", "reply"}
    assert max(len(json.dumps(m)) for m in msgs) < 64 * 1024


# Asks for the end message in its hello answer; logs every message, and "EOF" once its stdin closes.
END_BOT = textwrap.dedent(
    """
    import json, sys
    with open(sys.argv[1], "a") as log:
        for line in sys.stdin:
            log.write(line)
            req = json.loads(line)
            if req["type"] == "hello":
                print(json.dumps({"type": "hello", "id": req["id"], "protocol": 2, "end": True}), flush=True)
            elif req["type"] == "act":
                print(json.dumps({"id": req["id"], "index": 0}), flush=True)
        log.write("EOF\\n")
    """
)


def test_a_bot_that_asks_for_it_gets_end_with_its_standing_then_eof(tmp_path: Path) -> None:
    """docs/bot-protocol.md, Ending: ``"end": true`` in the hello answer brings one ``end`` message when the run
    is over, with the bot's line of the standings as ``gouji event standings --json`` prints it; then stdin closes.
    A bot that did not ask gets no ``end`` (test_index_bot_plays_an_event_and_messages_match_the_schema)."""
    bot, log = tmp_path / "end_bot.py", tmp_path / "log.jsonl"
    bot.write_text(END_BOT, encoding="utf-8")
    out = run_event(tmp_path, f"cmd:{sys.executable} {bot} {log}", "dagang", hands=2)
    assert "0 fault(s)" in out
    *lines, last = log.read_text().splitlines()
    assert last == "EOF"
    msgs = [json.loads(x) for x in lines]
    validator = jsonschema.Draft202012Validator(schema())
    for m in msgs:
        validator.validate(m)
    assert [m["type"] for m in msgs].count("end") == 1 and msgs[-1]["type"] == "end"
    end = msgs[-1]
    r = gouji("event", "standings", str(tmp_path / "e.sqlite"), "--json")
    table = json.loads(r.stdout)["standings"]
    mine = next(row for row in table if row["name"] == "x")
    assert end["event"] == "p" and end["complete"] is True and end["entrants"] == len(table)
    assert end["standing"] == {k: mine[k] for k in end["standing"]} and end["standing"]["played"] == 1


def test_schema_rejects_malformed_messages() -> None:
    validator = jsonschema.Draft202012Validator(schema())
    for bad in [{"id": 1, "action": "pass", "index": 0}, {"id": 1}, {"type": "act", "id": 1}, {"id": -1, "index": 0}]:
        assert not validator.is_valid(bad)


def test_feature_bot_plays_an_event(tmp_path: Path) -> None:
    out = run_event(tmp_path, f"cmd:{sys.executable} {ROOT / 'examples' / 'feature_bot.py'}", "dagang", hands=2)
    assert "0 fault(s)" in out and "2 of 2 hands stored" in out


# Leads by an index one past the last legal action once, then answers by index 0.
OUT_OF_RANGE_BOT = textwrap.dedent(
    """
    import json, sys
    wrong = False
    for line in sys.stdin:
        req = json.loads(line)
        if req["type"] == "hello":
            print(json.dumps({"type": "hello", "id": req["id"]}), flush=True)
        if req["type"] != "act":
            continue
        k = 0
        if req["mode"] == "lead" and not wrong:
            wrong, k = True, req["legal_count"]
        print(json.dumps({"id": req["id"], "index": k}), flush=True)
    """
)


def test_s4_art4_index_out_of_range_loses_the_turn(tmp_path: Path) -> None:
    """dagang's play.wrong_play is lose_turn (S4 第四条(一)): an index past the end is a wrong play like bad text."""
    bot = tmp_path / "bot.py"
    bot.write_text(OUT_OF_RANGE_BOT, encoding="utf-8")
    ev = tmp_path / "w.sqlite"
    r = gouji(
        "event", "new", str(ev), "--name", "w", "--rounds", "1", "--hands", "1", "--no-duplicate", "--seed", "1",
        "--bots", f"x=cmd:{sys.executable} {bot},b=greedy,c=greedy,d=greedy,e=greedy,f=greedy",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert gouji("event", "run", str(ev), "--quiet").exit_code == 0
    con = sqlite3.connect(ev)
    faults = [str(k) for (k,) in con.execute("SELECT kind FROM faults")]
    record = json.loads(con.execute("SELECT record FROM hands").fetchone()[0])
    con.close()
    assert faults == ["illegal"]
    assert any(a.endswith(":wrong_play") for a in record["actions"])
