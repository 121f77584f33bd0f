"""Issue 31 items 1 and 2: one catalogue of parts and options, one registry read path.

A part of each kind (beat strategy, tribute kind with its own option, declaration, phase with its own
decision and option) is registered from test modules, and every consumer agrees that it exists:
validate, the variant schema, the record schema and ``gouji verify``, ``gouji explain``,
``python -m gouji_rules.parts.options`` and the catalogue itself.  The same phase put inside a copy of the
package is read by ``gouji validate`` whatever was imported first."""

from __future__ import annotations

import contextlib
import io
import json
import os
import runpy
import shutil
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from gouji_rules import dsl
from gouji_rules.dsl.explain import explain
from gouji_rules.dsl.schema import generate
from gouji_rules.env.features import MODES  # the layout is fixed when the env is first imported: here, before
from gouji_rules.parts.registry import BEAT_STRATEGIES, DECLARATIONS, PHASES, TRIBUTE_KINDS

# this module's fixture registers its parts, whichever test runs first (run alone, the test saw a longer layout)
from gouji_rules.phases.base import register_phase, unregister_phase
from gouji_rules.records.read import schema_problem, schema_text

from .parts_amnesty import Amnesty
from .test_extending import Baodian, LastToFirst, TopCard
from .tournament.conftest import gouji

CLUB = """\
extends: dagang
name: every_part
sets:
  beat: top_card
tribute:
  order: [point, burn, men, place, last_to_first]
  kinds:
    last_to_first: {count: 2}
declare:
  kinds:
    baodian: {stake: 4}
phases:
  amnesty: {limit: 2}
"""

PATHS = ("tribute.kinds.last_to_first.count", "declare.kinds.baodian.stake", "phases.amnesty.limit")


@pytest.fixture
def every_part() -> Iterator[None]:
    BEAT_STRATEGIES.register(TopCard)
    TRIBUTE_KINDS.register(LastToFirst)
    DECLARATIONS.register(Baodian)
    register_phase(Amnesty)
    yield
    BEAT_STRATEGIES.unregister("top_card")
    TRIBUTE_KINDS.unregister("last_to_first")
    DECLARATIONS.unregister("baodian")
    unregister_phase("amnesty")


def test_every_kind_of_part_is_in_the_catalogue_with_its_options_and_columns(every_part: None) -> None:
    from gouji_rules.parts import catalogue

    names = {(p.kind, p.name) for p in catalogue.parts()}
    assert {("beat strategy", "top_card"), ("tribute kind", "last_to_first")} <= names
    assert {("declaration", "baodian"), ("match phase", "amnesty")} <= names
    rows = {r.path: r for r in catalogue.option_rows()}
    assert set(PATHS) <= set(rows)
    assert rows["phases.amnesty.limit"].record_key == "rules.phases.amnesty.limit"
    assert (rows["phases.amnesty.limit"].option.maximum, rows["phases.amnesty.limit"].option.default) == (6, 1)
    kinds = {k.name: k.column for k in catalogue.decision_kinds()}
    # a kind the env imported before it does not know (it reads as the last mode column, "other"); a fresh
    # env would place it after every kind listed before it
    assert "pardon" not in MODES and kinds["pardon"] > kinds["chong_answer"]
    assert kinds["buy4"] == MODES.index("buy4")
    assert "phases" in catalogue.rules_keys()
    table = catalogue.markdown_table()
    assert "`amnesty`" in table and "`phases.amnesty.limit`" in table


def test_validate_and_the_schema_know_every_part_and_option(every_part: None) -> None:
    checked = dsl.check_text(CLUB, "club.yaml")
    assert not checked.errors
    v = checked.variant
    assert v is not None and v.rules.extension_options(PHASES["amnesty"]) == {"limit": 2}
    props = generate()["properties"]
    assert "top_card" in props["sets"]["properties"]["beat"]["enum"]
    assert props["phases"]["properties"]["amnesty"]["properties"]["limit"]["maximum"] == 6
    (error,) = dsl.check_text(CLUB.replace("limit: 2", "limit: 7"), "club.yaml").errors
    assert (error.line, "phases.amnesty.limit" in error.message or "maximum" in error.message) == (13, True)


def test_records_of_every_part_match_the_record_schema_and_verify(every_part: None, tmp_path: Path) -> None:
    club = tmp_path / "club.yaml"
    club.write_text(CLUB, encoding="utf-8")
    records = tmp_path / "club.jsonl"
    r = gouji(
        "simulate", "--variant", str(club), "--agents", "random", "--hands", "24", "--match-hands", "4",
        "--seed", "7", "--records", str(records), "--quiet",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in records.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["rules"]["phases"] == {"amnesty": {"limit": 2}}
    assert all(schema_problem(x) is None for x in lines)
    assert any(e["type"] == "pardon" for x in lines for e in x.get("pre_play", []))
    r = gouji("verify", str(records))
    assert r.exit_code == 0, r.output
    assert '"phases"' in schema_text()


def test_explain_and_the_options_module_show_every_option(every_part: None) -> None:
    v = dsl.load_text(CLUB, "club.yaml", None)
    sheet = explain(v, "zh")
    assert "每人最多免几笔贡" in sheet and "末游贡张数" in sheet
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the module is imported already: run again as a program
        runpy.run_module("gouji_rules.parts.options", run_name="__main__")
    assert all(f"`{path}`" in out.getvalue() for path in PATHS)


def test_the_shipped_schemas_are_the_derived_ones() -> None:
    from gouji_rules.dsl import write_schema

    for path, text in (
        (write_schema.shipped_path(), write_schema.dumps()),
        (write_schema.record_schema_path(), schema_text()),
    ):
        assert path.read_text(encoding="utf-8") == text, f"{path.name} is out of date: run {write_schema.COMMAND}"


def test_the_learned_agent_plays_every_part_and_compare_says_what_it_never_saw(
    every_part: None, tmp_path: Path
) -> None:
    """The shipped weights play a club file using every kind of part, and ``gouji compare`` plays it
    against dagang without failing: its report says the file lies outside what learned was trained over
    and names the phase whose decision it never learned."""
    club = tmp_path / "club.yaml"
    club.write_text(CLUB, encoding="utf-8")
    r = gouji(
        "simulate", "--variant", str(club), "--agents", "learned", "--hands", "4", "--match-hands", "4", "--quiet"
    )
    assert r.exit_code == 0, r.output
    r = gouji("compare", "dagang", str(club), "--hands", "2", "--match-hands", "0")
    assert r.exit_code == 0, r.output
    assert "outside them: every_part" in r.output
    assert "learned never saw amnesty" in r.output
    for part in ("top_card", "last_to_first", "baodian"):  # each kind of part, not only the phase
        assert part in r.output.split("learned never saw", 1)[1], part
    assert "训练时没有见过赦免" in "".join(r.output.split())  # the Chinese summary, wrapped at any character


def test_the_editor_offers_and_shows_every_part(every_part: None, tmp_path: Path) -> None:
    """``gouji edit``: the strategy is a choice of ``sets.beat``, and the rule sheet beside the form shows
    each part's options with their words, in their sections."""
    from starlette.testclient import TestClient

    from gouji_rules.web.editor import EditorConfig, create_editor_app

    club = tmp_path / "club.yaml"
    club.write_text(CLUB, encoding="utf-8")
    config = EditorConfig(path=club, log=lambda _m: None, hosts=("testserver",))
    page = TestClient(create_editor_app(config)).get("/", params={"token": config.token}).text
    assert '<option value="top_card" selected' in page or 'value="top_card"' in page
    for words in ("末游贡张数：2", "报点输赢的点贡张数：4", "每人最多免几笔贡：2"):
        assert words in page, words


# -- the same phase inside the package ---------------------------------------------------------


@pytest.fixture(scope="module")
def package_with_amnesty(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the package with ``phases/amnesty.py`` added, as a newcomer adds a phase."""
    import gouji_rules

    root = tmp_path_factory.mktemp("clone")
    shutil.copytree(
        Path(gouji_rules.__file__).parent, root / "gouji_rules", ignore=shutil.ignore_patterns("__pycache__")
    )
    source = (Path(__file__).parent / "parts_amnesty.py").read_text(encoding="utf-8")
    source = source.replace(
        "from gouji_rules.phases.base import ", "from gouji_rules.phases.base import register_phase, "
    )
    (root / "gouji_rules" / "phases" / "amnesty.py").write_text(
        source + "\n\nregister_phase(Amnesty)\n", encoding="utf-8"
    )
    (root / "club.yaml").write_text("extends: dagang\nname: club\nphases:\n  amnesty: {limit: 2}\n", encoding="utf-8")
    return root


def _python(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(root)
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, cwd=root, timeout=120, check=False
    )


@pytest.mark.parametrize("first", ["", "import gouji_rules.play.match", "import gouji_rules.parts.options"])
def test_a_phase_inside_the_package_is_validated_whatever_was_imported_first(
    package_with_amnesty: Path, first: str
) -> None:
    code = f"""{first}
import gouji_rules, sys
assert gouji_rules.__file__.startswith({str(package_with_amnesty)!r}), gouji_rules.__file__
from gouji_rules import dsl
from gouji_rules.parts import options
from gouji_rules.parts.registry import PHASES
print(dsl.check_file("club.yaml").errors)
print(options.markdown_table().count("phases.amnesty.limit"), "amnesty" in PHASES)
"""
    r = _python(package_with_amnesty, "-c", code)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["[]", "1 True"]


@pytest.mark.parametrize("module", ["gouji_rules.parts.options", "gouji_rules.options"])
def test_the_options_module_run_as_a_program_lists_a_phase_inside_the_package(
    package_with_amnesty: Path, module: str
) -> None:
    """The old path (a shim since the layout) is the command the issue and older docs name: run as a
    program it prints the same table, and says on stderr where the module went."""
    r = _python(package_with_amnesty, "-m", module)
    assert r.returncode == 0, r.stderr
    assert "`phases.amnesty.limit` | int | `1` | `1` |" in r.stdout
    assert ("moved" in r.stderr) == (module == "gouji_rules.options")


def test_a_phase_inside_the_package_documents_its_event_by_its_own_words(package_with_amnesty: Path) -> None:
    """docs/events.md's table of who sees each event names the engine's and the built-in phases' events; the
    added phase's ``pardon`` is described by its own words in the catalogue's events table, so the test that
    holds that table to the events (tests/test_observation.py) passes without editing the doc."""
    repo = Path(__file__).resolve().parent.parent
    code = f"""import sys
sys.path.append({str(repo)!r})
from tests.test_observation import test_every_event_id_is_in_the_visibility_table_and_only_its_private_ones_are_redacted as t
t()
"""
    r = _python(package_with_amnesty, "-c", code)
    assert r.returncode == 0, r.stderr[-2000:]
    r = _python(package_with_amnesty, "-m", "gouji_rules.parts.catalogue")
    assert r.returncode == 0, r.stderr
    assert "| `pardon` | 赦免 | a receiver forgave a debt: seat, other the giver, value its number | 160 |" in r.stdout


def test_a_registry_whose_loader_fails_says_so_at_every_read_and_never_reads_empty() -> None:
    from gouji_rules.parts.registry import REGISTRIES, Registry

    broken: Registry[object] = Registry("thing", "gouji_rules_no_such_loader_module")
    try:
        for _ in range(2):  # the first failure does not leave it "loaded" with nothing in it
            with pytest.raises(ModuleNotFoundError):
                len(broken)
    finally:
        REGISTRIES[:] = [r for r in REGISTRIES if r is not broken]  # by identity: == compares entries


def test_validate_reads_the_phases_only_for_a_file_that_writes_phases(tmp_path: Path) -> None:
    """The schema a file is checked with leaves out only what the file cannot reach; a file that writes
    ``phases`` is checked against every registered phase, one that does not never imports them."""
    from gouji_rules.dsl.schema import schema

    every = generate()
    assert schema(set(every["properties"])) == every
    assert schema({"name"})["properties"]["phases"]["properties"] == {}
    (tmp_path / "plain.yaml").write_text("extends: dagang\nname: plain\n", encoding="utf-8")
    (tmp_path / "typo.yaml").write_text("extends: dagang\nname: typo\nphases:\n  kangg: {}\n", encoding="utf-8")
    code = """import sys
from gouji_rules import dsl
print(dsl.check_file("plain.yaml").errors, "gouji_rules.phases" in sys.modules)
print([e.message for e in dsl.check_file("typo.yaml").errors], "gouji_rules.phases" in sys.modules)
"""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run(
        [sys.executable, "-P", "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    plain, typo = r.stdout.splitlines()
    assert plain == "[] False"
    assert typo.endswith("True") and "phases.kangg" in typo


def test_every_home_of_options_is_a_key_of_its_own() -> None:
    """A registry's home never takes a key the model has: ``phases`` is not a section, and
    ``tribute.kinds`` is not a field of ``tribute`` (options.split would take the field's value)."""
    import dataclasses

    from gouji_rules.parts.catalogue import rules_keys
    from gouji_rules.parts.options import homes
    from gouji_rules.variant import SECTIONS

    sections = dict(SECTIONS)
    for _, section, key in homes():
        if key:
            assert key not in {f.name for f in dataclasses.fields(sections[section])}
        else:
            assert section not in sections and rules_keys().count(section) == 1


def test_a_phase_inside_the_package_adds_columns_and_the_shipped_weights_still_play(package_with_amnesty: Path) -> None:
    """The phase's kind and word are appended to the env's layout (no column before them moves), the
    shipped weights are read by name (zero rows for the two new columns) and play the same single hands
    as before, and ``gouji compare`` plays the club file and says the agent never saw the phase."""
    learn, env = Path(__file__).parent / "learn", Path(__file__).parent / "env"
    sys.path[:0] = [str(learn)]
    try:
        from test_columns import hands_digest  # the hands the shipped weights play without the phase
    finally:
        sys.path.remove(str(learn))
    before = {v: hands_digest(v) for v in ("dagang", "dianshaomenla")}
    code = f"""import sys
sys.path[:0] = [{str(learn)!r}, {str(env)!r}]
from test_columns import hands_digest
BEFORE = {before!r}
from test_env_lazy import aec_digest, seat_digest
from gouji_rules.game.actions import Choose
from gouji_rules.env.encoding import WORDS
from gouji_rules.env.features import MODES
from gouji_rules.learn.agent import shipped_fit
assert MODES[-1] == "pardon" and WORDS[-1] == Choose("pardon"), (MODES, WORDS)
fit = shipped_fit()[2]
assert [c for c in fit.new if c.endswith(".pardon")] == ["mode.pardon", "word.pardon"] and not fit.gone, fit
for v in BEFORE:
    assert hands_digest(v) == BEFORE[v], v
assert aec_digest("dagang", 400) == "84034009c2cb5ed4"  # the env's pins, by name (tests/env/test_env_lazy.py)
assert aec_digest("dagang_jifen", 400, True) == "8e0969a6e0957edf"
assert seat_digest("dagang", 300, "greedy") == "e655060a64e87efb"
print("ok")
"""
    r = _python(package_with_amnesty, "-c", code)
    assert (r.returncode, r.stdout, r.stderr[-2000:]) == (0, "ok\n", "")
    r = _python(
        package_with_amnesty, "-m", "gouji_rules.cli", "compare", "dagang", "club.yaml", "--hands", "4", "--json"
    )
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["schema_version"] == 6
    for side in doc["sides"]:
        saw = {row["variant"]: row["never_saw"] for row in side["strength"]}
        assert saw["dagang"] == []
        assert [(p["part"], p["kinds"], p["words"]) for p in saw["club"]] == [("amnesty", ["pardon"], ["pardon"])]
    r = _python(
        package_with_amnesty,
        "-m",
        "gouji_rules.cli",
        "compare",
        "dagang",
        "club.yaml",
        "--hands",
        "4",
        "--html",
        "r.html",
    )
    assert r.returncode == 0, r.stderr
    assert "learned never saw amnesty" in r.stdout and "训练时没有见过赦免" in r.stdout
    assert "never saw amnesty" in (package_with_amnesty / "r.html").read_text(encoding="utf-8")


def test_the_hooks_table_by_its_old_path_is_the_same_table() -> None:
    """``python -m gouji_rules.hooks``, the command docs/variants.md gave before the layout, prints the
    hooks' table as ``python -m gouji_rules.parts.hooks`` does (it printed nothing since the move)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    old, new = (
        subprocess.run(
            [sys.executable, "-m", module], capture_output=True, text=True, env=env, timeout=120, check=False
        )
        for module in ("gouji_rules.hooks", "gouji_rules.parts.hooks")
    )
    assert (old.returncode, new.returncode) == (0, 0)
    assert old.stdout == new.stdout and "### `is_gouji`" in old.stdout
    assert "moved" in old.stderr
