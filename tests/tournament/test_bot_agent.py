"""A bot tried outside an event: ``gouji simulate`` / ``gouji compare --agents cmd:COMMAND``
(docs/bot-protocol.md, "Trying a bot outside an event"), with real bot processes."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from gouji_rules.compare.skill import parse_agents
from gouji_rules.game.rng import derive
from gouji_rules.phases.base import DecisionKind
from gouji_rules.play.engine import MODE_NAMES

from .conftest import module_argv

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_BOT = ROOT / "examples" / "bot.py"

# One bot for every attack: it notes its pid, then misbehaves as argv[1] says.
BOT = textwrap.dedent(
    """
    import json, os, sys, time
    mode, pids = sys.argv[1], sys.argv[2]
    with open(pids, "a") as f:
        f.write(f"{os.getpid()}\\n")
    if mode == "hello_crash":
        sys.stderr.write("cannot load my model: weights.bin is missing\\n")
        sys.exit(3)
    acts = 0
    for line in sys.stdin:
        req = json.loads(line)
        if req["type"] == "hello":
            print(json.dumps({"type": "hello", "id": req["id"], "protocol": 2}), flush=True)
            continue
        if req["type"] != "act":
            continue
        acts += 1
        if mode == "mid_crash" and acts == 5:
            raise RuntimeError("my bug at decision 5")
        if mode == "garbage":
            print("thinking... {not json", flush=True)
            continue
        if mode == "silent":
            time.sleep(120)
        if mode == "flood":
            sys.stderr.write("x" * 200_000 + "\\n")
            sys.stderr.flush()
            if acts == 3:
                sys.stderr.write("the last words of the bot\\n")
                sys.exit(5)
        if mode == "illegal":
            print(json.dumps({"id": req["id"], "action": "BJBJBJBJBJ"}), flush=True)
            continue
        if mode == "slow" and acts == 3:
            with open(pids + ".thinking", "a") as f:
                f.write(f"{os.getpid()}\\n")
            time.sleep(120)
        print(json.dumps({"id": req["id"], "index": 0}), flush=True)
    time.sleep(120)  # does not exit when its stdin ends: only ending its process group stops it
    """
)


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie waiting to be reaped does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def assert_all_gone(pids_file: Path) -> None:
    pids = [int(x) for x in pids_file.read_text().split()] if pids_file.exists() else []
    assert pids, "no bot was started"
    deadline = time.monotonic() + 5
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [p for p in pids if alive(p)]
    for p in left:
        os.kill(p, signal.SIGKILL)
    assert not left, f"bot processes left behind: {left}"


def gouji(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*module_argv(), *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT)


def bot_spec(tmp_path: Path, mode: str) -> tuple[str, Path]:
    bot, pids = tmp_path / "bot.py", tmp_path / "pids.txt"
    bot.write_text(BOT, encoding="utf-8")
    return f"cmd:{sys.executable} {bot} {mode} {pids}", pids


def test_simulate_plays_the_example_bot_against_greedy() -> None:
    r = gouji("simulate", "--hands", "2", "--agents", f"mine=cmd:{sys.executable} {EXAMPLE_BOT},greedy", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["hands"] == 2 and out["agents"] == f"mine=cmd:{sys.executable} {EXAMPLE_BOT},greedy"
    assert sum(sum(c) for c in out["places"].values()) == 12


def test_simulate_with_greedy_named_as_sides_plays_the_same_games(tmp_path: Path) -> None:
    """``greedy`` and ``greedy,greedy`` seat the same agents: the records are byte-identical."""
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert gouji("simulate", "--hands", "3", "--records", str(a)).returncode == 0
    assert gouji("simulate", "--hands", "3", "--agents", "greedy,greedy", "--records", str(b)).returncode == 0
    assert a.read_bytes() == b.read_bytes()


def test_compare_measures_a_bot_on_duplicate_deals(tmp_path: Path) -> None:
    spec, pids = bot_spec(tmp_path, "fine")
    r = gouji(
        "compare", "dagang", "liufu_ying", "--match-hands", "0", "--hands", "1", "--agents", f"{spec},greedy", "--json"
    )
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["deals"] == 1 and doc["agents"] == f"{spec},greedy"
    assert "skill_gap" in {m["id"] for m in doc["metrics"]}
    # three seats of side A, in one work unit: three processes, all ended with the run
    assert len(pids.read_text().split()) == 3
    assert_all_gone(pids)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_a_javascript_bot_reads_the_seed_exactly_from_seed_str(tmp_path: Path) -> None:
    """docs/bot-protocol.md, Versions: protocol 2's ``seed_str`` is exact in JavaScript, where ``seed`` (above 2^53) is not."""
    js, log = tmp_path / "bot.js", tmp_path / "seeds.txt"
    js.write_text(
        textwrap.dedent(
            """
            const fs = require("fs");
            const rl = require("readline").createInterface({ input: process.stdin });
            rl.on("line", (line) => {
              const msg = JSON.parse(line);
              if (msg.type === "hello") {
                console.log(JSON.stringify({ type: "hello", id: msg.id, protocol: 2 }));
              } else if (msg.type === "start_hand") {
                const raw = /"seed": (\\d+)/.exec(line)[1];
                if (BigInt(msg.seed_str).toString() !== raw) { process.stderr.write("seed_str differs\\n"); process.exit(1); }
                fs.appendFileSync(process.argv[2], `${BigInt(msg.seed_str)} ${BigInt(msg.seed)}\\n`);
              } else if (msg.type === "act") {
                console.log(JSON.stringify({ id: msg.id, index: 0 }));
              }
            });
            """
        ),
        encoding="utf-8",
    )
    r = gouji("simulate", "--hands", "3", "--seed", "7", "--agents", f"js=cmd:node {js} {log},greedy", "--json")
    assert r.returncode == 0, r.stderr
    rows = [line.split() for line in log.read_text().splitlines()]
    expected = [str(derive(7, i)) for i in range(3)]
    assert sorted({exact for exact, _ in rows}) == sorted(expected)  # three seats, each told every hand
    assert len(rows) == 9
    assert any(number != exact for exact, number in rows)  # JSON.parse's number is off: the test can fail


def test_every_mode_the_engine_and_phases_ask_is_documented() -> None:
    """docs/bot-protocol.md's ``mode`` row and the schema's enum name every mode an ``act`` can carry:
    the engine's play modes and every kind of decision a phase asks.  A new one fails here until documented."""
    sent = {m for m in MODE_NAMES if m != "over"} | {
        k.value for k in DecisionKind if k not in (DecisionKind.START, DecisionKind.PLAY, DecisionKind.OVER)
    }
    doc = (ROOT / "docs" / "bot-protocol.md").read_text(encoding="utf-8")
    row = next(line for line in doc.splitlines() if line.startswith("| `mode` |"))
    documented = set(re.findall(r"(?:^|[\s:;,(])`([a-z_0-9]+)`", row.split("|")[2]))
    assert sent - documented == set(), "modes sent but not documented"
    assert documented - {"call", "pass"} - sent == set(), "documented modes never sent"
    text = resources.files("gouji_rules.data").joinpath("bot-protocol.schema.json").read_text(encoding="utf-8")
    assert set(json.loads(text)["$defs"]["act"]["properties"]["mode"]["enum"]) == sent


def test_start_hand_with_seed_str_matches_the_schema() -> None:
    text = resources.files("gouji_rules.data").joinpath("bot-protocol.schema.json").read_text(encoding="utf-8")
    validator = jsonschema.Draft202012Validator(json.loads(text))
    seed = 2**64 - 1
    good = {
        "type": "start_hand",
        "id": 1,
        "protocol": 2,
        "seed": seed,
        "seed_str": str(seed),
        "seat": 0,
        "variant": "x",
    }
    validator.validate(good)
    for bad in (
        {**good, "seed_str": seed},
        {**good, "seed_str": "-1"},
        {k: v for k, v in good.items() if k != "seed_str"},
    ):
        assert not validator.is_valid(bad)


@pytest.mark.parametrize(
    ("mode", "kind", "words"),
    [
        ("hello_crash", "crash", "weights.bin is missing"),
        ("mid_crash", "crash", "RuntimeError: my bug at decision 5"),
        ("garbage", "timeout", "stray line"),
        ("silent", "timeout", "no reply within 2 s"),
        ("flood", "crash", "the last words of the bot"),
        ("illegal", "illegal", "is not legal now"),
    ],
)
@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_a_bot_fault_stops_the_run_with_one_line(
    tmp_path: Path, command: str, mode: str, kind: str, words: str
) -> None:
    """No fallback outside an event: exit 1, one line naming bot, seat and fault, then the end of the
    bot's stderr (indented); no traceback of gouji's own, nothing written, no bot process left."""
    spec, pids = bot_spec(tmp_path, mode)
    out = tmp_path / "out.jsonl"
    agents = f"mine={spec},greedy"
    if command == "simulate":
        r = gouji("simulate", "--hands", "3", "--agents", agents, "--records", str(out))
    else:
        r = gouji(
            "compare",
            "dagang",
            "liufu_ying",
            "--match-hands",
            "0",
            "--hands",
            "2",
            "--agents",
            agents,
            "--csv",
            str(out),
        )
    assert r.returncode == 1, r.stderr
    assert r.stdout == ""
    first, *rest = r.stderr.splitlines()
    assert re.fullmatch(rf"error: bot mine \(seat [024]\): {kind}: .+", first), first
    assert words in r.stderr
    assert all(line.startswith(("stderr of the bot", "  | ")) for line in rest), rest
    assert "Traceback" not in first and not any(line.startswith("Traceback") for line in rest)
    assert len(r.stderr) < 6000  # a flood keeps its last 4 KiB, no more
    assert not out.exists()
    assert_all_gone(pids)


def test_compare_workers_report_a_bot_fault_the_same_way(tmp_path: Path) -> None:
    spec, pids = bot_spec(tmp_path, "mid_crash")
    r = gouji(
        "compare",
        "dagang",
        "liufu_ying",
        "--match-hands",
        "0",
        "--hands",
        "60",
        "--workers",
        "2",
        "--agents",
        f"mine={spec},greedy",
    )
    assert r.returncode == 1, r.stderr
    assert re.fullmatch(r"error: bot mine \(seat [024]\): crash: .+", r.stderr.splitlines()[0]), r.stderr
    assert "RuntimeError: my bug at decision 5" in r.stderr
    assert_all_gone(pids)


def _as_from_a_terminal() -> None:
    """The signal state a shell gives a foreground command (SIGINT and SIGTERM neither ignored nor blocked),
    whatever this test process has come to (late in a full run Ctrl-C reached a command that ignored it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})


CTRL_C = """
import os, signal, sys, time
thinking, group = sys.argv[1], int(sys.argv[2])
deadline = time.monotonic() + 60
while not os.path.exists(thinking) and time.monotonic() < deadline:  # a bot is in the hand, thinking
    time.sleep(0.005)
if not os.path.exists(thinking):
    sys.exit(1)
os.killpg(group, signal.SIGINT)  # at once: well inside the bot's 2 s limit
"""


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--hands", "5"],
        ["compare", "dagang", "liufu_ying", "--match-hands", "0", "--hands", "5"],
        ["compare", "dagang", "liufu_ying", "--match-hands", "0", "--hands", "60", "--workers", "2"],
    ],
)
def test_ctrl_c_ends_every_bot(tmp_path: Path, args: list[str]) -> None:
    """Ctrl-C (SIGINT to the terminal's process group) while a bot thinks: the run stops and no bot outlives it."""
    spec, pids = bot_spec(tmp_path, "slow")
    proc = subprocess.Popen(
        [*module_argv(), *args, "--agents", spec],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        start_new_session=True,
        preexec_fn=_as_from_a_terminal,
    )
    thinking = Path(str(pids) + ".thinking")
    # The "terminal" that presses Ctrl-C is a fresh process of its own, the moment a bot is thinking: late in
    # a long test run this pytest process can be too slow to notice within the bot's 2 s limit.
    watcher = subprocess.run(
        [sys.executable, "-c", CTRL_C, str(thinking), str(proc.pid)], capture_output=True, text=True, timeout=90
    )
    assert watcher.returncode == 0, "no bot reached its third decision"
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err  # interrupted, not ended by the bot's timeout
    assert "Traceback" not in err
    assert_all_gone(pids)


@pytest.mark.parametrize(
    ("spec", "sides"),
    [
        ("greedy", ("greedy", "greedy")),
        ("cmd:python3 bot.py", ("cmd:python3 bot.py", "cmd:python3 bot.py")),
        ("me=cmd:node bot.js --level=3,greedy", ("me=cmd:node bot.js --level=3", "greedy")),
        ("cmd:python3 bot.py --w 1,2,random", ("cmd:python3 bot.py --w 1,2", "random")),
        ("a=greedy,b=cmd:./bot", ("a=greedy", "b=cmd:./bot")),
    ],
)
def test_agents_sides_take_bots(spec: str, sides: tuple[str, str]) -> None:
    assert parse_agents(spec) == sides


@pytest.mark.parametrize("spec", ["cmd:", "cmd:   ", "cmd:python3 'bot.py", "greedy,nobody", "a,b,c", "x=cmd:"])
def test_a_bad_agents_option_is_a_usage_error(spec: str) -> None:
    for command in (
        ["simulate", "--hands", "1"],
        ["compare", "dagang", "liufu_ying", "--match-hands", "0", "--hands", "1"],
    ):
        r = gouji(*command, "--agents", spec)
        assert r.returncode == 2, (spec, r.stderr)
        assert "Traceback" not in r.stderr and "--agents" in r.stderr


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_research_page_runs_the_javascript_example_bot() -> None:
    """docs/research.md, "A bot in another language": its two commands run as written (fewer hands)."""
    import shlex

    page = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    section = page.split("### A bot in another language", 1)[1].split("\n## ", 1)[0]
    commands = [line.strip() for line in section.splitlines() if line.startswith("    gouji ")]
    assert [c.split()[1] for c in commands] == ["simulate", "compare"]
    for command in commands:
        argv = shlex.split(command.replace("--hands 200", "--hands 2"))[1:]
        r = gouji(*argv, "--json")
        assert r.returncode == 0, (command, r.stderr)
        assert "examples/bot.js" in json.loads(r.stdout)["agents"]
