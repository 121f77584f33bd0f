"""The rule block (issue 32, item 3): the network reads the rules it plays under, by name, from the
catalogue, once per Rules; what it cannot read is listed; the shipped weights play as before."""

import dataclasses

import numpy as np
import pytest

from gouji_rules.catalog import dagang, resolve
from gouji_rules.env import features as ef
from gouji_rules.learn import rulecols
from gouji_rules.learn.agent import LearnedAgent, folded, shipped_weights
from gouji_rules.learn.features import BASE_SIZE, OBS_COLUMNS, OBS_SIZE, Featurizer
from gouji_rules.learn.rulecols import RULE_COLUMNS, encode_rules, rule_block, unseen_rules
from gouji_rules.parts import catalogue
from gouji_rules.sim import play_hand


def _at(variant, column: str) -> float:
    return float(encode_rules(variant)[RULE_COLUMNS.index(column)])


def test_todays_columns_come_first_in_todays_order_then_the_rule_block() -> None:
    assert OBS_COLUMNS[:BASE_SIZE] == ef.COLUMNS and OBS_COLUMNS[BASE_SIZE:] == RULE_COLUMNS
    assert BASE_SIZE + len(RULE_COLUMNS) == OBS_SIZE and all(c.startswith("rule.") for c in RULE_COLUMNS)


def test_every_field_of_every_section_is_a_column_or_listed_as_unreadable() -> None:
    """Derived from the sections, not kept by hand: a field missing from both would be a silent gap."""
    covered = {i.path for i in rulecols.INPUTS} | {u[0] for u in rulecols.UNREADABLE}
    fields = {f"{key}.{f.name}" for key, cls in catalogue.sections() for f in dataclasses.fields(cls)}
    assert fields <= covered
    assert {"sets.kill", "places.names", "tribute.place"} <= {u[0] for u in rulecols.UNREADABLE}


@pytest.mark.parametrize("name", ["dagang", "dianshaomenla", "liufu_ying", "sha21"])
def test_every_number_is_in_0_1_but_scores_and_one_value_of_each_enum_is_set(name: str) -> None:
    v = resolve(name)
    block = encode_rules(v)
    assert block.dtype == np.float32 and len(block) == len(RULE_COLUMNS)
    assert ((block >= -1) & (block <= 1)).all()
    lists = [i for i, c in enumerate(RULE_COLUMNS) if c.startswith("rule.scoring.points.")]
    assert (np.delete(block, lists) >= 0).all()
    assert (
        sum(block[RULE_COLUMNS.index(f"rule.jiefeng.policy={p}")] for p in ("next_seat", "next_teammate", "by_consent"))
        == 1
    )


def test_the_values_are_the_variants_own() -> None:
    v = dagang()
    assert _at(v, "rule.burn.needs_open_point") == 1.0
    off = v.replace(burn={"needs_open_point": False}, geming={"place": 6}, scoring={"points": [2, 1, 0, 0, -1, -2]})
    assert _at(off, "rule.burn.needs_open_point") == 0.0
    assert _at(v, "rule.geming.place") == pytest.approx(3 / 5) and _at(off, "rule.geming.place") == 1.0  # 1..6
    assert _at(off, "rule.scoring.points.0") == 1.0 and _at(off, "rule.scoring.points.1") == 0.5
    assert _at(off, "rule.scoring.points.5") == -1.0  # a list of numbers keeps its signs: [−1, 1]
    assert _at(v, "rule.tribute.order=point") == 1.0 and _at(v, "rule.tribute.order=sweep") == 0.0
    assert _at(v, "rule.match.hands") == pytest.approx(7 / 10)  # unbounded: min(v − 1, 10) / 10


def test_the_block_is_built_once_per_rules_not_once_per_decision(monkeypatch) -> None:
    calls = []
    real = rulecols.encode_rules
    monkeypatch.setattr(rulecols, "encode_rules", lambda v: calls.append(v) or real(v))
    v = dagang().replace(burn={"teammate": False})  # fresh rules: nothing cached yet
    play_hand(v, 3, [LearnedAgent() for _ in range(6)])
    assert len(calls) == 1 and rule_block(v.rules) is rule_block(v.rules)
    assert not rule_block(v.rules).flags.writeable


def test_observation_rows_end_with_the_rules_block() -> None:
    v = dagang().replace(geming={"enabled": False})
    feat = Featurizer(v.rules)
    hand = type(play_hand(v, 1, [LearnedAgent() for _ in range(6)])).deal(v, 1)
    row = feat.obs_row(hand.observation(hand.turn))
    assert row.shape == (OBS_SIZE,) and np.array_equal(row[BASE_SIZE:], encode_rules(v))


def test_the_folded_shipped_network_scores_as_the_whole_one() -> None:
    """The shipped agent adds the block's part of the first layer to its bias once per Rules; with
    non-zero rule weights that must give the Q the whole network gives."""
    net = shipped_weights()[0].copy()
    net.p["w_obs"][BASE_SIZE:] = np.random.default_rng(1).normal(0, 0.1, (len(RULE_COLUMNS), net.hidden[0]))
    v = dagang()
    feat = Featurizer(v.rules)
    hand = type(play_hand(v, 2, [LearnedAgent() for _ in range(6)])).deal(v, 2)
    obs, legal = hand.observation(hand.turn), hand.legal_actions()
    rows = feat.action_rows(obs, legal, None)
    np.testing.assert_allclose(
        folded(net, feat.rule_block).q(feat.base_row(obs), rows), net.q(feat.obs_row(obs), rows), rtol=1e-4, atol=1e-4
    )


def test_unseen_rules_lists_the_hooks_and_the_options_with_no_column() -> None:
    assert unseen_rules(dagang()) == []
    assert unseen_rules(resolve("dianshaomenla")) == ["places.names"]
    assert "sets.kill" in unseen_rules(resolve("sha21"))
    from gouji_rules.dsl import load_text

    hooked = load_text("extends: dagang\nname: h\nhooks:\n  team_score: 'points[0] + points[1] + points[2]'\n")
    assert unseen_rules(hooked)[0] == "hooks.team_score"
