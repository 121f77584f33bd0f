"""The shipped variant files: they load, equal the Python definitions, validate cleanly and play."""

from __future__ import annotations

import json

import pytest

from gouji_rules import dsl
from gouji_rules.dsl import schema
from gouji_rules.sim import simulate
from gouji_rules.variant import dagang, dianshaomenla


def test_at_least_four_variants_are_shipped() -> None:
    assert {"dagang", "dianshaomenla", "liufu_ying", "sha21"} <= set(dsl.shipped_names())


def test_dagang_file_equals_python_dagang() -> None:
    assert dsl.load_shipped("dagang").to_dict() == dagang().to_dict()


def test_dianshaomenla_file_equals_python_dianshaomenla() -> None:
    assert dsl.load_shipped("dianshaomenla").to_dict() == dianshaomenla().to_dict()


@pytest.mark.parametrize("name", dsl.shipped_names())
def test_shipped_variant_validates_without_errors_or_warnings(name: str) -> None:
    (result,) = dsl.validate_paths([name])
    assert result.errors == [] and result.warnings == []


@pytest.mark.parametrize("name", dsl.shipped_names())
def test_shipped_variant_plays_500_hands_with_greedy_agents(name: str) -> None:
    out = simulate(dsl.load_shipped(name), 500, 2024, "greedy")
    assert out["hands"] == 500


@pytest.mark.parametrize("name", dsl.shipped_names())
def test_shipped_file_starts_with_schema_modeline(name: str) -> None:
    text, _ = dsl.shipped_text(name)
    assert text.splitlines()[0] == "# yaml-language-server: $schema=../gouji_rules/data/schema.json"


@pytest.mark.parametrize("name", dsl.shipped_names())
def test_shipped_file_cites_its_source(name: str) -> None:
    variant = dsl.load_shipped(name)
    assert variant.source
    text, _ = dsl.shipped_text(name)
    body = [ln for ln in text.splitlines() if ln.startswith("  ") and ":" in ln and not ln.strip().startswith("#")]
    assert all("#" in ln for ln in body), [ln for ln in body if "#" not in ln]


def test_liufu_ying_deals_52_cards_from_312() -> None:
    rules = dsl.load_shipped("liufu_ying").rules
    assert len(rules.deck) == 312 and rules.hand_sizes == [52] * 6


def test_shipped_schema_json_is_up_to_date() -> None:
    shipped = json.loads(schema.shipped_path().read_text("utf-8"))
    assert shipped == schema.generate(), "run: python -m gouji_rules.dsl.schema"
