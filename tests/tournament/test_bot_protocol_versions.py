"""Protocol versions, agreed at hello (docs/bot-protocol.md, "Versions"): a bot that names none, or 2,
gets protocol 2's frames exactly as before; one that answers 3 gets every integer that can pass
2^53 - 1 as a decimal string; anything else is refused at hello with a clear fault."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import subprocess
import sys
import textwrap
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from gouji_rules import catalog
from gouji_rules.game.events import Event
from gouji_rules.play.engine import Hand
from gouji_rules.tournament import protocol
from gouji_rules.tournament.bots import ExternalPlayer, observation_json

from .conftest import gouji

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PINNED = HERE / "earlier" / "7d9d267_protocol2_transcript.json"

# Writes every line it is sent to argv[1] (PID in it replaced by its pid), byte for byte; answers hello as argv[2] says (see ANSWERS) and
# every act with its last legal action by index.
LOG_BOT = textwrap.dedent(
    """
    import json, os, sys
    ANSWERS = {"none": {}, "two": {"protocol": 2}, "three": {"protocol": 3}, "end3": {"protocol": 3, "end": True},
               "end2": {"protocol": 2, "end": True}}
    log, mode = sys.argv[1].replace("PID", str(os.getpid())), sys.argv[2]
    with open(log, "ab") as out:
        for raw in sys.stdin.buffer:
            out.write(raw)
            out.flush()
            req = json.loads(raw)
            if req["type"] == "hello":
                print(json.dumps({"type": "hello", "id": req["id"], **ANSWERS[mode]}), flush=True)
            elif req["type"] == "act":
                print(json.dumps({"id": req["id"], "index": req["legal_count"] - 1}), flush=True)
    """
)


def transcript(tmp_path: Path, mode: str, hands: int = 2) -> list[bytes]:
    """The lines a logging bot in seat x is sent in a small fixed event (seed 5, dagang, two hands)."""
    bot, log, ev = tmp_path / f"log_bot_{mode}.py", tmp_path / f"log_{mode}.jsonl", tmp_path / f"{mode}.sqlite"
    bot.write_text(LOG_BOT, encoding="utf-8")
    r = gouji(
        "event", "new", str(ev), "--name", "pin", "--rounds", "1", "--hands", str(hands), "--no-duplicate",
        "--seed", "5", "--variant", "dagang",
        "--bots", f"x=cmd:{sys.executable} {bot} {log} {mode},b=greedy,c=random,d=greedy,e=random,f=greedy",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    r = gouji("event", "run", str(ev), "--quiet")
    assert r.exit_code == 0, r.output
    return log.read_bytes().splitlines(keepends=True)


def digest(lines: list[bytes]) -> list[dict[str, Any]]:
    """A transcript as it is pinned: each line's sha256, and the line itself unless it is an act (those are long)."""
    out = []
    for line in lines:
        row: dict[str, Any] = {"sha256": hashlib.sha256(line).hexdigest(), "bytes": len(line)}
        if not line.startswith(b'{"type": "act"'):
            row["line"] = line.decode("utf-8")
        out.append(row)
    return out


def pinned() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads(PINNED.read_text(encoding="utf-8"))["lines"]
    return rows


def test_a_protocol_2_bot_gets_todays_frames_byte_for_byte(tmp_path: Path) -> None:
    """Pinned against what 7d9d267 sent (before versions): the only change is the hello's list of versions,
    which a bot that names none, or 2, may ignore (the hello never had a closed schema)."""
    was = pinned()
    now = transcript(tmp_path, "end2")
    assert len(now) == len(was)
    hello = json.loads(was[0]["line"])
    assert now[0] == b'{"type": "hello", "protocol": 2, "protocols": [2, 3], "name": "x", "id": 0}\n'
    assert {k: v for k, v in json.loads(now[0]).items() if k != "protocols"} == hello
    assert digest(now[1:]) == was[1:]


def test_a_bot_that_names_no_version_is_a_protocol_2_bot(tmp_path: Path) -> None:
    """A bot that does not name a version gets the same frames as one that answers 2 (less the end it did not ask
    for): every bot written before versions keeps working."""
    assert digest(transcript(tmp_path, "none")[1:]) == pinned()[1:-1]


def frames(lines: list[bytes]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in lines]


def test_protocol_3_sends_seeds_and_hand_points_as_strings_and_nothing_else_changes(tmp_path: Path) -> None:
    """The same event for a bot that answers 3: the seeds (both above 2^53) come as exact decimal strings without
    ``seed_str``, the end's hand points as a string; every act is byte for byte protocol 2's."""
    two, three = transcript(tmp_path, "end2"), transcript(tmp_path, "end3")
    assert json.loads(three[0])["protocols"] == [2, 3] and len(two) == len(three)
    for a, b in zip(frames(two), frames(three), strict=True):
        assert a["type"] == b["type"]
        if a["type"] == "start_hand":
            assert a["seed"] > 2**53 and b["seed"] == a["seed_str"] == str(a["seed"]) and b["protocol"] == 3
            assert {k: v for k, v in b.items() if k not in ("seed", "protocol")} == {
                k: v for k, v in a.items() if k not in ("seed", "seed_str", "protocol")
            }
        elif a["type"] == "end":
            assert b["protocol"] == 3 and b["standing"]["hand_points"] == str(a["standing"]["hand_points"])
    acts = [(x, y) for x, y in zip(two, three, strict=True) if x.startswith(b'{"type": "act"')]
    assert acts and all(x == y for x, y in acts)


def validator(ref: str = "") -> jsonschema.Draft202012Validator:
    """The shipped schema, or one version's part of it (``protocol2``, ``protocol3``)."""
    text = resources.files("gouji_rules.data").joinpath("bot-protocol.schema.json").read_text(encoding="utf-8")
    schema = json.loads(text)
    if ref:
        schema = {**schema, "anyOf": [{"$ref": f"#/$defs/{ref}"}]}
    return jsonschema.Draft202012Validator(schema)


def test_the_schema_describes_both_versions_and_tells_them_apart(tmp_path: Path) -> None:
    """Every message of a real event validates, under the whole schema and under its own version's part; the
    start_hand and end of one version do not pass as the other's."""
    whole, v2, v3 = validator(), validator("protocol2"), validator("protocol3")
    for mode, mine, other in (("end2", v2, v3), ("end3", v3, v2)):
        msgs = frames(transcript(tmp_path, mode))
        for m in msgs:
            whole.validate(m)
            mine.validate(m)
        for m in msgs:
            assert other.is_valid(m) == (m["type"] not in ("start_hand", "end")), (mode, m["type"])
    seed = 2**64 - 1
    good = {"type": "start_hand", "id": 1, "protocol": 3, "seed": str(seed), "seat": 0, "variant": "x"}
    v3.validate(good)
    for bad in (
        {**good, "seed": seed},
        {**good, "seed": "-1"},
        {**good, "seed": str(2**64)},
        {**good, "seed_str": "1"},
    ):
        assert not whole.is_valid(bad), bad
    huge_event = {"type": "tribute", "seat": 1, "value": str(2**60)}
    act = next(m for m in frames(transcript(tmp_path, "none")) if m["type"] == "act")
    assert v3.is_valid({**act, "events": [huge_event]}) and not v2.is_valid({**act, "events": [huge_event]})
    assert not v3.is_valid({**act, "events": [{**huge_event, "value": 2**60}]})


@pytest.mark.parametrize(
    ("answer", "version"), [({}, 2), ({"protocol": 2}, 2), ({"protocol": 3}, 3), ({"protocol": 3.0}, 3)]
)
def test_the_version_a_hello_answer_chooses(answer: dict[str, Any], version: int) -> None:
    """3.0 is 3: JSON has one kind of number (a JavaScript bot cannot even write 3.0), and JSON Schema agrees."""
    assert protocol.agree({"type": "hello", "id": 0, **answer}) == version


@pytest.mark.parametrize(
    ("asked", "shown"),
    [
        ("3", '"3" (a string)'),
        ("2", '"2" (a string)'),
        (True, "true (a boolean)"),
        (None, "protocol null;"),
        (1, "protocol 1;"),
        (99, "protocol 99;"),
        (2.5, "protocol 2.5;"),
        ([3], "[3] (a list)"),
        ({"v": 3}, '{"v": 3} (an object)'),
        (2**70, "protocol 1180591620717411303424;"),
        (10**200, "… (201 characters)"),
        (float("nan"), "NaN"),
        (float("inf"), "Infinity"),
    ],
)
def test_a_version_not_spoken_is_refused_saying_what_was_asked(asked: Any, shown: str) -> None:
    with pytest.raises(protocol.VersionRefused) as e:
        protocol.agree({"type": "hello", "id": 0, "protocol": asked})
    text = str(e.value)
    assert shown in text and "this runner speaks protocol 2 or 3" in text and "\n" not in text and len(text) < 260


REFUSED_BOT = (
    'import json, sys\nprint(json.dumps({"type": "hello", "id": 0, "protocol": "3"}), flush=True)\nsys.stdin.read()\n'
)


def test_an_event_with_a_bot_asking_for_a_version_not_spoken_stops_before_the_first_hand(tmp_path: Path) -> None:
    bot, ev = tmp_path / "bot.py", tmp_path / "v.sqlite"
    bot.write_text(REFUSED_BOT, encoding="utf-8")
    spec = f"x=cmd:{sys.executable} {bot},b=greedy,c=random,d=greedy,e=random,f=greedy"
    r = gouji("event", "new", str(ev), "--name", "v", "--rounds", "1", "--hands", "1", "--no-duplicate", "--bots", spec)
    assert r.exit_code == 0, r.output
    r = gouji("event", "run", str(ev))
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "cannot play" in r.stderr and '"3" (a string)' in r.stderr
    assert "no hand was played" in r.stderr


def test_exact_turns_only_integers_a_double_cannot_hold_into_strings() -> None:
    big = 2**53
    frame = {"a": [1, -(2**53 - 1), 2**53 - 1, True, 1.5], "b": {"c": big, "d": [-big]}, "e": "x"}
    assert protocol.exact(frame) == {
        "a": [1, -(2**53 - 1), 2**53 - 1, True, 1.5],
        "b": {"c": str(big), "d": [str(-big)]},
        "e": "x",
    }
    small = {"a": [1, 2, {"b": 3}]}
    assert protocol.exact(small) is small  # nothing to change: the act frame of every shipped rule is sent as built


def test_in_protocol_3_an_extensions_huge_event_value_goes_as_a_string(tmp_path: Path) -> None:
    """The last line: an event value an installed extension made beyond 2^53 reaches a protocol 3 bot exactly."""
    hand = Hand.deal(catalog.resolve("dagang"), 1)
    built = {**observation_json(hand.observation(hand.turn), hand.legal_actions()), "id": 3}
    built["events"].append(Event("tribute", 1, other=2, value=2**60 + 1).to_json())
    msg = protocol.exact(built)
    assert msg["events"][-1] == {"type": "tribute", "seat": 1, "other": 2, "value": str(2**60 + 1)}
    assert msg["events"][:-1] == built["events"][:-1] and msg["hand"] == built["hand"]
    validator("protocol3").validate(msg)
    assert not validator("protocol3").is_valid(built)


def test_in_protocol_3_the_end_carries_hand_points_as_a_string() -> None:
    standing = {k: 1 for k in ("rank", "played", "won", "drawn", "lost", "byes", "match_points", "firsts", "lasts")}
    result = {"event": "e", "complete": True, "entrants": 6, "standing": {**standing, "hand_points": -(2**60)}}
    three, two = protocol.end(3, result), protocol.end(2, result)
    assert three["standing"]["hand_points"] == str(-(2**60)) and two["standing"]["hand_points"] == -(2**60)
    validator("protocol3").validate({**three, "id": 9})
    validator("protocol2").validate({**two, "id": 9})
    assert protocol.end(3, {**result, "standing": None})["standing"] is None


def xorshift_index(seed: int, seat: int, count: int) -> int:
    """examples/bot.js's first choice, computed exactly: its generator seeded by ``seed ^ (seat + 1)``."""
    mask = 2**64 - 1
    state = (seed ^ (seat + 1)) or 1
    state ^= (state << 13) & mask
    state ^= state >> 7
    state ^= (state << 17) & mask
    return state % count


def run_js_example(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    node = shutil.which("node")
    assert node is not None
    sent = "".join(json.dumps(m) + "\n" for m in lines)
    r = subprocess.run(
        [node, str(ROOT / "examples" / "bot.js")], input=sent, capture_output=True, text=True, timeout=30
    )
    assert r.returncode == 0, r.stderr
    return [json.loads(x) for x in r.stdout.splitlines()]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("offered", [[2, 3], None])
def test_the_javascript_example_speaks_protocol_3_and_reads_the_seed_exactly(offered: list[int] | None) -> None:
    """A seed near 2^64 that JSON.parse would round (to 2^64): the example's first draw is the exact seed's.
    With a runner from before versions (no ``protocols`` in its hello) it answers 2 and reads ``seed_str``."""
    seed, seat, count = 2**64 - 59, 2, 1_000_003
    assert xorshift_index(int(float(seed)), seat, count) != xorshift_index(seed, seat, count)  # the test can fail
    hello: dict[str, Any] = {"type": "hello", "protocol": 2, "name": "js", "id": 0}
    if offered is not None:
        hello["protocols"] = offered
    version = 3 if offered else 2
    start = protocol.start_hand(version, seed, seat, {"variant": "dagang"})
    act = {"type": "act", "id": 2, "seat": seat, "mode": "lead", "legal_count": count}
    answer, reply = run_js_example([hello, {**start, "id": 1}, act])
    assert answer == {"type": "hello", "id": 0, "protocol": version, "name": "random.js"}
    assert reply == {"id": 2, "index": xorshift_index(seed, seat, count)}


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_javascript_example_plays_an_event_under_protocol_3(tmp_path: Path) -> None:
    ev = tmp_path / "js.sqlite"
    spec = f"x=cmd:node {ROOT / 'examples' / 'bot.js'},b=greedy,c=random,d=greedy,e=random,f=greedy"
    r = gouji(
        "event", "new", str(ev), "--name", "js", "--rounds", "1", "--hands", "2", "--no-duplicate", "--bots", spec
    )
    assert r.exit_code == 0, r.output
    r = gouji("event", "run", str(ev), "--time-limit", "5")
    assert r.exit_code == 0 and "0 fault(s)" in r.stdout and "2 of 2 hands stored" in r.stdout, r.output


@pytest.mark.parametrize("mode", ["two", "three"])
@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_simulate_and_compare_play_a_bot_of_either_version(tmp_path: Path, command: str, mode: str) -> None:
    """Outside an event (``start_hand`` with the variant only) each of the three bot processes gets its version."""
    bot = tmp_path / "log_bot.py"
    bot.write_text(LOG_BOT, encoding="utf-8")
    agents = f"cmd:{sys.executable} {bot} {tmp_path / 'log.PID.jsonl'} {mode},greedy"
    if command == "simulate":
        r = gouji("simulate", "--hands", "2", "--seed", "3", "--agents", agents, "--json")
    else:
        r = gouji("compare", "dagang", "liufu_ying", "--match-hands", "0", "--hands", "1", "--agents", agents, "--json")
    assert r.exit_code == 0, r.output
    logs = sorted(tmp_path.glob("log.*.jsonl"))
    assert len(logs) == 3  # a process for each seat of side A
    version = {"two": 2, "three": 3}[mode]
    schema = validator(f"protocol{version}")
    for log in logs:
        msgs = frames(log.read_bytes().splitlines())
        starts = [m for m in msgs if m["type"] == "start_hand"]
        assert starts and all(m["protocol"] == version for m in starts)
        assert all(isinstance(m["seed"], str if version == 3 else int) for m in starts)
        for m in msgs:
            schema.validate(m)
        variants = {m["variant"] for m in starts}
        assert variants == ({"dagang"} if command == "simulate" else {"dagang", "liufu_ying"})


# Answers 3 at its first start and crashes at its third decision; started again, it answers 2.
SWITCH_BOT = textwrap.dedent(
    """
    import json, os, sys
    log, mark = sys.argv[1], sys.argv[2]
    again = os.path.exists(mark)
    n = 0
    with open(log, "ab") as out:
        for raw in sys.stdin.buffer:
            out.write(raw)
            out.flush()
            req = json.loads(raw)
            if req["type"] == "hello":
                print(json.dumps({"type": "hello", "id": req["id"], "protocol": 2 if again else 3}), flush=True)
            elif req["type"] == "act":
                n += 1
                if n == 3 and not again:
                    open(mark, "w").close()
                    sys.exit(3)
                print(json.dumps({"id": req["id"], "index": 0}), flush=True)
    """
)


def test_a_restarted_bot_is_told_its_hand_again_in_the_version_it_chose_this_time(tmp_path: Path) -> None:
    bot, log, ev = tmp_path / "switch.py", tmp_path / "log.jsonl", tmp_path / "s.sqlite"
    bot.write_text(SWITCH_BOT, encoding="utf-8")
    spec = f"x=cmd:{sys.executable} {bot} {log} {tmp_path / 'mark'},b=greedy,c=random,d=greedy,e=random,f=greedy"
    r = gouji("event", "new", str(ev), "--name", "s", "--rounds", "1", "--hands", "1", "--no-duplicate", "--bots", spec)
    assert r.exit_code == 0, r.output
    r = gouji("event", "run", str(ev))
    assert r.exit_code == 0 and "1 fault(s)" in r.stdout, r.output
    msgs = frames(log.read_bytes().splitlines())
    starts = [m for m in msgs if m["type"] == "start_hand"]
    assert [m["type"] for m in msgs].count("hello") == 2 and len(starts) == 2
    first, again = starts
    assert first["protocol"] == 3 and "seed_str" not in first
    assert again["protocol"] == 2 and again["seed"] == int(first["seed"]) and again["seed_str"] == first["seed"]


def test_a_protocol_3_bot_answering_with_the_id_as_a_string_is_told_at_once(tmp_path: Path) -> None:
    """Not a stray line and a timeout at every decision: the id is a number in every version."""
    bot = tmp_path / "bot.py"
    bot.write_text(
        textwrap.dedent(
            """
            import json, sys
            for line in sys.stdin:
                req = json.loads(line)
                if req["type"] == "hello":
                    print(json.dumps({"type": "hello", "id": req["id"], "protocol": 3}), flush=True)
                elif req["type"] == "act":
                    print(json.dumps({"id": str(req["id"]), "index": 0}), flush=True)
            """
        ),
        encoding="utf-8",
    )
    r = gouji("simulate", "--hands", "1", "--agents", f"cmd:{sys.executable} {bot},greedy", "--json")
    assert r.exit_code == 1 and "invalid_reply: the reply's id is the string '" in r.stderr and "a number" in r.stderr


def test_a_reply_naming_a_key_twice_is_refused_not_read_either_way(tmp_path: Path) -> None:
    """``{"id": 1, "index": 0, "index": 5}``: Python keeps the last copy, other readers the first; which move
    the bot meant cannot be known, so the reply is an ``invalid_reply`` naming the key, not a move."""
    bot = tmp_path / "bot.py"
    bot.write_text(
        textwrap.dedent(
            """
            import json, sys
            for line in sys.stdin:
                req = json.loads(line)
                if req["type"] == "hello":
                    print(json.dumps({"type": "hello", "id": req["id"], "protocol": 3}), flush=True)
                elif req["type"] == "act":
                    print('{"id": %d, "index": 0, "index": 0}' % req["id"], flush=True)
            """
        ),
        encoding="utf-8",
    )
    r = gouji("simulate", "--hands", "1", "--agents", f"cmd:{sys.executable} {bot},greedy", "--json")
    assert r.exit_code == 1 and "invalid_reply: a reply whose key 'index' appears twice" in r.stderr


def test_the_quick_look_never_misses_an_integer_exact_would_change() -> None:
    """``may_be_wide`` decides whether a message is walked at all: it may say yes in vain (a hand's digits after a
    space), never no where :func:`protocol.exact` would change something."""
    rng = random.Random(5)
    edges = [2**53 - 1, 2**53, -(2**53), -(2**53) + 1, 10**15, 10**16 - 1, 2**64 - 1, 10**30, 0, -1]
    for _ in range(3000):
        n = rng.choice(edges) if rng.random() < 0.5 else rng.randrange(-(2**70), 2**70) >> rng.randrange(70)
        msg: dict[str, Any] = {
            "type": "act",
            "hand": "3344445666677789" * rng.randrange(3) + "TT",
            "名": "张三 1234567890123456",
            "events": [{"type": "x", "value": n}] if rng.random() < 0.5 else [n, 1],
        }
        if rng.random() < 0.3:
            msg = {"v": n}
        line = (json.dumps({**msg, "id": 1}, ensure_ascii=False) + "\n").encode("utf-8")
        if protocol.exact(msg) is not msg:
            assert protocol.may_be_wide(line), n
    quiet = {"hand": "3344445666677789TT", "cards": "TT33444456666777899", "名": "张三", "value": -(10**15 - 1)}
    assert not protocol.may_be_wide(json.dumps(quiet, ensure_ascii=False).encode("utf-8"))


@pytest.mark.parametrize("mode", ["two", "three"])
def test_what_the_runner_writes_holds_no_wide_number_in_protocol_3(tmp_path: Path, mode: str) -> None:
    """Through the runner's own writing (not only :func:`protocol.exact`): an integer beyond 2^53 - 1 that a
    message picked up from elsewhere reaches a protocol 3 bot as a string; protocol 2 sends it as it always did."""
    bot, log = tmp_path / "log_bot.py", tmp_path / "log.jsonl"
    bot.write_text(LOG_BOT, encoding="utf-8")
    p = ExternalPlayer("x", f"{sys.executable} {bot} {log} {mode}", 5.0)
    try:
        p.handshake()
        p.start_hand(2**64 - 1, 0, {"variant": "dagang", "round": 2**60, "table": 1})
    finally:
        p.close()
    start = frames(log.read_bytes().splitlines())[1]
    if mode == "three":
        assert (start["seed"], start["round"], start["table"]) == (str(2**64 - 1), str(2**60), 1)
    else:
        assert (start["seed"], start["seed_str"], start["round"], start["table"]) == (
            2**64 - 1,
            str(2**64 - 1),
            2**60,
            1,
        )
