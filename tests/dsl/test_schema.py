"""The JSON Schema is the source of every check, a draft-07 schema editors accept, with every value explained."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from gouji_rules import dsl
from gouji_rules.dsl import schema

VARIANTS = Path(__file__).resolve().parent.parent.parent / "variants"


def _walk(node: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        yield path, node
        for k, v in node.items():
            yield from _walk(v, f"{path}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _walk(v, f"{path}/{i}")


def test_schema_is_draft_07_with_an_id_and_no_later_draft_keywords() -> None:
    sch = schema.generate()
    jsonschema.Draft7Validator.check_schema(sch)
    assert sch["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert sch["$id"]
    for path, node in _walk(sch):
        assert not {"prefixItems", "$defs", "$dynamicRef", "unevaluatedProperties", "dependentRequired"} & set(node)
        assert node.get("items") is not False, path


@pytest.mark.parametrize("path", sorted(VARIANTS.glob("*.yaml")), ids=lambda p: p.name)
def test_draft7_validator_accepts_every_shipped_file_as_an_editor_reads_it(path: Path) -> None:
    data = yaml.safe_load(path.read_text("utf-8"))
    errors = list(jsonschema.Draft7Validator(schema.generate()).iter_errors(data))
    assert errors == []


@pytest.mark.parametrize("name", dsl.shipped_names())
def test_draft7_validator_accepts_every_shipped_variant_in_full(name: str) -> None:
    data = dsl.load_shipped(name).to_dict()
    data["extends"] = "dagang"
    jsonschema.Draft7Validator(schema.generate()).validate(data)


def test_every_enum_value_has_chinese_and_english_words() -> None:
    for path, node in _walk(schema.generate()):
        if "enum" not in node or path.endswith("/enum"):
            continue
        values = node["enum"]
        assert len(node["enumDescriptions"]) == len(values), path
        assert len(node["markdownEnumDescriptions"]) == len(values), path
        for value, words in zip(values, node["enumDescriptions"], strict=True):
            zh, en = words.split("\n")
            assert zh and en, (path, value)
            assert zh != str(value), f"{path}: {value} has no Chinese words"  # English may be the code itself


def test_every_enumerated_field_of_the_model_carries_words_for_each_of_its_values() -> None:
    import dataclasses
    import typing

    from gouji_rules.dsl.choices import field_choices, literal_values
    from gouji_rules.variant import SECTIONS

    for key, cls in SECTIONS:
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            values = literal_values(hints[f.name])
            if values:
                words = field_choices(f, hints[f.name])
                assert set(values) <= set(words), f"{key}.{f.name}"
                assert all(words[v][0] != v for v in values), f"{key}.{f.name} has a value without Chinese words"


def test_every_number_list_and_text_is_bounded() -> None:
    for path, node in _walk(schema.generate()):
        types = node.get("type")
        types = types if isinstance(types, list) else [types]
        if "integer" in types:
            assert "minimum" in node and "maximum" in node, path
            assert -10_000 <= node["minimum"] <= node["maximum"] <= 10_000, path
        if "array" in types:
            assert "maxItems" in node, path
        if "string" in types:
            assert "enum" in node or "maxLength" in node, path


def test_schema_is_the_source_of_the_checks_a_tightened_copy_refuses_what_the_shipped_one_accepts() -> None:
    text = "extends: dagang\ndeck:\n  packs: 6\nsets:\n  beat: card_by_card\n"
    assert dsl.check_text(text, "club.yaml").errors == []
    tight = copy.deepcopy(schema.generate())
    tight["properties"]["deck"]["properties"]["packs"]["maximum"] = 5
    beat = tight["properties"]["sets"]["properties"]["beat"]
    beat["enum"] = ["cover", "kill_table"]
    errors = dsl.check_text(text, "club.yaml", schema=tight).errors
    assert [(e.line, e.column, e.message) for e in errors] == [
        (3, 10, "deck.packs must be at most 5, not 6"),
        (5, 9, "sets.beat: 'card_by_card' is not one of cover, kill_table"),
    ]


def test_schema_is_the_source_of_the_checks_a_loosened_copy_accepts_what_the_shipped_one_refuses() -> None:
    text = "extends: dagang\nscoring:\n  sweep_multiplier: 5000\n"
    assert [e.message for e in dsl.check_text(text, "club.yaml").errors] == [
        "scoring.sweep_multiplier must be at most 1000, not 5000"
    ]
    loose = copy.deepcopy(schema.generate())
    loose["properties"]["scoring"]["properties"]["sweep_multiplier"]["maximum"] = 10_000
    assert dsl.check_text(text, "club.yaml", schema=loose).errors == []


def test_huge_numbers_are_refused_by_the_schema_before_sqlite_or_memory_see_them() -> None:
    text = (
        "extends: dagang\n"
        "scoring:\n  points: [100000000000000000000, 2, 0, 0, -2, -4]\n"
        "deck:\n  extra: {'Y': " + "9" * 5000 + "}\n"
    )
    errors = dsl.check_text(text, "club.yaml").errors
    assert [(e.line, e.column) for e in errors] == [(3, 12), (5, 16)]
    assert errors[0].message == "scoring.points[0] must be at most 1000, not 100000000000000000000"
    assert errors[1].message == "deck.extra.Y must be at most 64, not 999999999999… (5000 digits)"
    e100 = dsl.check_text("extends: dagang\nscoring:\n  points: [1e100, 2, 0, 0, -2, -4]\n").errors
    assert e100[0].message == "scoring.points[0] must be a whole number, not '1e100'"


@pytest.mark.parametrize("name", ["青岛", "qingdao-2", "潍坊_够级", "Zürich", "नमस्ते", "Ελλάδα"])
def test_s_name_in_any_script_is_accepted(name: str) -> None:
    v = dsl.load_text(f"extends: dagang\nname: {name}\n")
    assert v.name == name


@pytest.mark.parametrize("name", ["my club", "a.b", "-x", "青岛，够级", "a/b", "x\u200by", "'..'", "club😀", "♠A"])
def test_a_name_unsafe_as_a_file_name_or_cli_word_is_refused_at_its_position(name: str) -> None:
    errors = dsl.check_text(f"extends: dagang\nname: {json.dumps(name)}\n").errors
    assert errors and (errors[0].line, errors[0].column) == (2, 7)
    assert "may use only letters" in errors[0].message or "full-width" in errors[0].message


def test_shipped_schema_file_is_what_validation_uses_when_nothing_is_registered() -> None:
    shipped = json.loads(schema.shipped_path().read_text("utf-8"))
    assert shipped == schema.schema() == schema.generate(), "run: python -m gouji_rules.dsl.write_schema"
    assert os.path.getsize(schema.shipped_path()) < 200_000


def test_a_field_s_own_choices_give_its_words_and_a_field_without_shows_its_codes() -> None:
    import dataclasses
    from typing import Literal

    from gouji_rules.dsl.choices import field_choices

    kinds = Literal["place_bottom", "tribute_only"]

    @dataclasses.dataclass
    class Registered:
        penalty: kinds = dataclasses.field(
            default="place_bottom",
            metadata={"choices": lambda: {"place_bottom": ("判最后", "last"), "tribute_only": ("进贡", "tribute")}},
        )

    (registered,) = dataclasses.fields(Registered)
    assert field_choices(registered, kinds)["place_bottom"] == ("判最后", "last")

    @dataclasses.dataclass
    class Plain:
        penalty: kinds = "place_bottom"

    (plain,) = dataclasses.fields(Plain)
    assert field_choices(plain, kinds) == {
        "place_bottom": ("place_bottom", "place_bottom"),
        "tribute_only": ("tribute_only", "tribute_only"),
    }


def test_a_file_name_unsafe_as_a_name_gives_a_safe_default_name_that_round_trips(tmp_path: Path) -> None:
    club = tmp_path / "qingdao.2024 春.yaml"
    club.write_text("extends: dagang\nburn:\n  teammate: false\n", encoding="utf-8")
    v = dsl.load_file(club)
    assert v.name == "qingdao_2024_春"
    again = dsl.load_text(f"extends: dagang\nname: {v.name}\nburn:\n  teammate: false\n")
    assert again.fingerprint() == v.fingerprint()
