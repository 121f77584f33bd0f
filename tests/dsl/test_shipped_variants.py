"""The shipped variant files: they are the one source of dagang() and dianshaomenla(), validate cleanly and play."""

from __future__ import annotations

import json

import pytest

from gouji_rules import dsl
from gouji_rules.catalog import dagang, dianshaomenla
from gouji_rules.dsl import schema
from gouji_rules.game.cards import FOUR, THREE, card_rank
from gouji_rules.sim import simulate


def test_at_least_four_variants_are_shipped() -> None:
    assert {"dagang", "dianshaomenla", "liufu_ying", "sha21"} <= set(dsl.shipped_names())


def test_s4_art5_and_art19_readings_come_from_dagang_yaml() -> None:
    """dagang() is the shipped file (one source): S4 第五条's 够级 minimums and 第十九条's 4/2/0 points."""
    v = dagang()
    assert v.name == "dagang" and "S4" in v.source
    assert v.gouji.thresholds == {"T": 5, "J": 4, "Q": 3, "K": 2, "A": 2, "2": 2}
    assert list(v.scoring.points) == [4, 2, 0, 0, -2, -4] and v.scoring.positive_only
    assert v.scoring.sweep_multiplier == 2


def test_s0_opening_readings_come_from_dianshaomenla_yaml() -> None:
    """dianshaomenla() is the shipped file: S0's 2/1/0 points and its six 3s and six 4s (七、买3买4)."""
    v = dianshaomenla()
    assert v.name == "dianshaomenla" and "S0" in v.source
    assert list(v.scoring.points) == [2, 1, 0, 0, -1, -2]
    ranks = [card_rank(c) for c in v.rules.deck]
    assert ranks.count(THREE) == 6 and ranks.count(FOUR) == 6


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
    assert shipped == schema.generate(), "run: python -m gouji_rules.dsl.write_schema"
