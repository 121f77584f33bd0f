"""Issue 24 item 2: what an extension declares of its options is checked when it is declared, and a
phase that declares options is played only where the variant names it under ``phases``."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import TYPE_CHECKING

import pytest

from gouji_rules import dsl
from gouji_rules.catalog import dagang
from gouji_rules.dsl.schema import generate
from gouji_rules.errors import VariantError
from gouji_rules.parts.options import Option, markdown_table
from gouji_rules.parts.registry import PHASES
from gouji_rules.phases import Decision, HandPrep, phases_of

if TYPE_CHECKING:
    from gouji_rules.game.actions import Action
    from gouji_rules.play.match import Match
    from gouji_rules.rules import Rules


class Tally:
    """A phase that asks nothing and counts the hands it ran (its option says by how much)."""

    name = "tally"
    zh = "记局：每局开始前记一笔"
    en = "tally: a mark before each hand"
    stage = "before_play"
    order = 95
    options = (Option("step", int, 1, "每局记几笔", "marks a hand", legacy=1, minimum=1, maximum=9),)
    marks = 0

    def enabled(self, rules: Rules) -> bool:
        return True

    def run(self, m: Match, prep: HandPrep) -> Generator[Decision, Action, bool]:
        Tally.marks += m.rules.extension_options(self)["step"]
        return True
        yield  # a generator that asks nothing


@pytest.fixture
def tally() -> Iterator[Tally]:
    phase = Tally()
    PHASES.register(phase)
    Tally.marks = 0
    yield phase
    PHASES.unregister("tally")


def test_a_phase_with_options_is_played_only_where_the_variant_names_it(tally: Tally) -> None:
    from gouji_rules.play.agents import RandomAgent
    from gouji_rules.play.match import play_match

    assert tally not in list(phases_of(dagang().rules, "before_play"))
    v = dagang().replace(name="tallied", phases={"tally": {"step": 3}})
    assert tally in list(phases_of(v.rules, "before_play"))
    play_match(v, 1, 2, [RandomAgent() for _ in range(6)])
    assert Tally.marks == 6  # two hands, three marks each
    assert v.to_dict()["phases"] == {"tally": {"step": 3}} and "phases" not in dagang().to_dict()


def test_a_file_names_a_phase_and_its_option_and_the_schema_offers_it(tally: Tally) -> None:
    step = generate()["properties"]["phases"]["properties"]["tally"]["properties"]["step"]
    assert (step["minimum"], step["maximum"], step["default"]) == (1, 9, 1)
    v = dsl.load_text("extends: dagang\nname: t\nphases:\n  tally: {}\n", "t.yaml")
    assert v.rules.extension_options(tally) == {"step": 1}
    (error,) = dsl.check_text("extends: dagang\nname: t\nphases:\n  tally: {step: 0}\n", "t.yaml").errors
    assert (error.line, error.column) == (4, 17)  # at the 0
    assert "`phases.tally.step` | int | `1` | `1` | 每局记几笔 | marks a hand |" in markdown_table()


@pytest.mark.parametrize(
    ("args", "kwargs", "words"),
    [
        (("Count", int, 1), {"legacy": 1}, "lower-case"),
        (("count", float, 1.0), {"legacy": 1.0}, "bool, int or str"),
        (("count", int, True), {"legacy": 1}, "default is invalid"),
        (("count", int, 1), {"legacy": -1, "minimum": 0}, "legacy value is invalid"),
        (("mode", str, "fast"), {"legacy": "slow", "choices": {"fast": ("快", "fast")}}, "legacy value is invalid"),
    ],
)
def test_an_option_declared_wrong_is_refused_when_declared(args: tuple, kwargs: dict, words: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(VariantError, match=words):
        Option(args[0], args[1], args[2], "中文", "English", **kwargs)


def test_docs_rules_md_points_to_the_derived_tables_and_copies_none() -> None:
    """The tables are derived when asked (issue 31): a part added inside the package changes no doc."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "    python -m gouji_rules.parts.options\n" in text and "    python -m gouji_rules.parts.catalogue\n" in text
    assert "| option | type | default |" not in text and "| kind | name |" not in text
    assert markdown_table().startswith("| option | type | default | legacy | 中文 | English | clause |\n")


def test_options_given_in_python_are_held_to_their_declaration(tally: Tally) -> None:
    bad = dagang().replace(name="t", phases={"tally": {"step": "3"}})
    with pytest.raises(VariantError, match=r"phases.tally.step: '3' is not a whole number"):
        bad.rules.extension_options(tally)
    with pytest.raises(VariantError, match="did you mean 'step'"):
        dagang().replace(name="t", phases={"tally": {"stpe": 3}}).rules.extension_options(tally)
