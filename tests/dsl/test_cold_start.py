"""What makes ``gouji validate`` start fast changes nothing it says.

The shortcuts (commands imported when run, libyaml, the shipped expression-parser table, the
quick schema check) each stand in for a slower path; these tests hold each one to the answer of
the path it replaces.  How fast it is is measured by ``gouji bench --cold-start``, not here.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import jsonschema
import pytest
from click.testing import CliRunner

from gouji_rules import cli, dsl
from gouji_rules.dsl import yamlpos
from gouji_rules.dsl.coldstart import conform, libyaml
from gouji_rules.dsl.errors import VariantErrors
from gouji_rules.dsl.merge import load_chain, shipped_dir
from gouji_rules.dsl.schema import schema as generated_schema
from gouji_rules.dsl.validate import typed

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "variants").glob("*.yaml"))
INVALID = sorted((ROOT / "tests" / "invalid").glob("*.yaml"))
CLUB = "extends: dagang\nname: club\nscoring:\n  points: [6, 3, 0, 0, -3, -6]\nhooks:\n  may_answer: is_opposite\n"


# -- gouji --help without importing the commands ----------------------------------------------------


def test_help_lists_every_command_with_the_one_line_help_of_the_command_itself() -> None:
    ctx = click.Context(cli.main)
    loaded = {name: cli.main.get_command(ctx, name) for name in cli.COMMANDS}
    assert set(cli.main.commands) == set(cli.COMMANDS)  # no module registers a command the table lacks
    for name, cmd in loaded.items():
        assert cmd is not None
        stub = click.Command(name, help=cli.COMMANDS[name][1])
        for limit in (20, 45, 60, 200):
            assert stub.get_short_help_str(limit) == cmd.get_short_help_str(limit), name
    out = CliRunner().invoke(cli.main, ["--help"]).output
    for name in cli.COMMANDS:
        assert f"  {name} " in out


def test_a_mistyped_command_still_gets_its_did_you_mean() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "gouji_rules.cli", "validat", "x.yaml"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert "No such command 'validat'" in proc.stderr
    assert "'validate'" in proc.stderr


def test_validating_a_valid_club_file_loads_neither_jsonschema_nor_the_engine(tmp_path: Path) -> None:
    club = tmp_path / "club.yaml"
    club.write_text(CLUB, encoding="utf-8")
    code = (
        "import sys\nfrom gouji_rules.cli import main\n"
        "try:\n    main(['validate', '-q', sys.argv[1]])\nexcept SystemExit as e:\n    print(e.code)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'jsonschema' "
        "or m in ('gouji_rules.play.engine', 'gouji_rules.play.match', 'gouji_rules.tournament')))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code, str(club)], capture_output=True, text=True, timeout=60)
    assert proc.stdout.splitlines() == ["0", "[]"], proc.stderr


# -- the expression parser from the shipped table: tests/test_lalr.py ------------------------------


# -- libyaml reads as pure PyYAML -------------------------------------------------------------------

TRICKY = [
    "a: {b: }\n",
    "a: [x: ]\n",
    "a: [b? c]\n",
    "a: {b?c: 1}\n",
    "a: [b:c]\n",
    "a: [b#c]\n",
    "a:\n  b:\n",
    "a: b\tc\n",
    "a:\tb\n",
    "a: b\r\nc: d\r\n",
    "a: b\rc: [1, x]\r",
    "a: b\x85c: d\n",
    "a: b\u2028c: d\n",
    "a: \ufeffb\n",
    "a: &x [1, 2]\nb: *x\n",
    "a: &x [*x]\n",
    "%YAML 1.2\n---\na: 1\n",
    "a: 1\n---\nb: 2\n",
    "a: !!str 1\n",
    'a: "\\x41\\u263a\\N\\_\\L\\P\\/"\n',
    "a: |2-\n   x\n",
    "? a\n: b\n",
    "a: 😀 b\n",
    "[a, b]\n",
    "",
    "#\n",
]


def _read(text: str, fast: bool, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(libyaml, "CSafeLoader", libyaml.CSafeLoader if fast else None)

    def dump(n: yamlpos.Node) -> Any:
        entries = [(k, dump(a), dump(b)) for k, (a, b) in n.entries.items()]
        return n.kind, n.start, n.end, n.line, n.column, n.value, n.style, [dump(i) for i in n.items], entries

    try:
        return dump(yamlpos.parse(text, "f.yaml"))
    except VariantErrors as e:
        return [x.format() for x in e.errors]


def _mutants(n: int) -> list[str]:
    rnd = random.Random(13)
    pieces = [":", " ", "\n", "- ", "[", "]", "{", "}", "?", "#", "&a ", "*a", "'", '"', "\t", "\r", "，", "：", "\x85"]
    texts = [p.read_text("utf-8")[:800] for p in SHIPPED] + [CLUB]
    out = []
    for _ in range(n):
        s = rnd.choice(texts)
        for _ in range(rnd.randint(1, 3)):
            k = rnd.randrange(len(s) + 1)
            s = s[:k] + rnd.choice(pieces) + s[k + rnd.randint(0, 2) :]
        out.append(s)
    return out


def test_libyaml_gives_the_nodes_and_positions_and_errors_pure_pyyaml_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    assert libyaml.CSafeLoader is not None, "PyYAML without libyaml: nothing to compare"
    texts = [p.read_bytes().decode("utf-8", "replace") for p in [*SHIPPED, *INVALID]] + TRICKY + _mutants(300)
    for text in texts:
        assert _read(text, True, monkeypatch) == _read(text, False, monkeypatch), repr(text[:200])


def test_a_lone_carriage_return_breaks_a_line_as_yaml_reads_it(tmp_path: Path) -> None:
    f = tmp_path / "cr.yaml"
    f.write_bytes(b"extends: dagang\rscoring:\r  points: [4, 2, 0, 0, -2, x]\r")
    (err,) = dsl.check_file(f).errors
    assert (err.line, err.column) == (3, 28)
    assert err.source_line == "  points: [4, 2, 0, 0, -2, x]"


def test_a_next_line_character_before_a_full_width_comma_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    f = tmp_path / "nel.yaml"
    f.write_text("extends: dagang\nscoring:\n  points:\x85 [4，2，0，0，-2，-4]\n", encoding="utf-8", newline="")
    (err,) = dsl.check_file(f).errors
    assert "full-width comma" in err.message
    assert (err.line, err.column) == (4, 4)


# -- the quick schema check never says yes where jsonschema finds an error --------------------------


def _typed(text: str) -> Any:
    chain = load_chain(text, "f.yaml", Path(str(shipped_dir())))
    return typed(chain.root, generated_schema(), (), {}, [])


def _mutate(data: Any, rnd: random.Random) -> Any:
    """A copy of ``data`` with one value replaced by something of another type or size."""
    if isinstance(data, dict) and data and rnd.random() < 0.8:
        key = rnd.choice(list(data))
        out = dict(data)
        out[key] = _mutate(data[key], rnd)
        if rnd.random() < 0.1:
            out[rnd.choice(["extra", "T", "10", "hooks", "2"])] = 1
        return out
    if isinstance(data, list) and data and rnd.random() < 0.8:
        i = rnd.randrange(len(data))
        out_list = list(data)
        out_list[i] = _mutate(data[i], rnd)
        if rnd.random() < 0.2:
            out_list.append(out_list[0])
        return out_list
    return rnd.choice(
        [None, True, False, 0, 1, -1, 2, 7, 10**40, -(10**6), "", "x", "cover", "T", "10", "SJ", "a" * 300, [], {}, [1]]
    )


def test_conforms_says_yes_only_where_jsonschema_finds_nothing() -> None:
    sch = generated_schema()
    validator = jsonschema.Draft7Validator(sch)
    rnd = random.Random(7)
    bases = [_typed(p.read_text("utf-8")) for p in SHIPPED] + [_typed(CLUB)]
    for base in bases:
        assert conform.conforms(base, sch)  # the shipped variants take the quick path
        assert not list(validator.iter_errors(base))
    yes = 0
    for _ in range(3000):
        data = _mutate(rnd.choice(bases), rnd)
        if conform.conforms(data, sch):
            yes += 1
            assert not list(validator.iter_errors(data)), data
    assert yes > 100  # the mutations also leave many trees valid, so both answers are exercised


def test_a_schema_keyword_conform_does_not_know_sends_the_tree_to_jsonschema() -> None:
    assert not conform.conforms({"a": 1}, {"type": "object", "required": ["a"]})
    assert not conform.conforms(1.5, {"type": "integer"})
    assert not conform.conforms(True, {"type": "integer"})
    assert not conform.conforms(1, {"enum": [True]})
    assert conform.conforms({"a": 1}, {"type": "object", "properties": {"a": {"type": "integer"}}})
