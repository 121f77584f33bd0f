"""A club that upgrades gouji_rules keeps its event and its records.

The files in ``earlier/`` were written by earlier releases (``earlier/make.sh`` says how): club
events with results entered, their standings as that release printed them, and records.  This
release has options those did not, so their copies of the rules lack them; each such option says
with ``legacy`` which value plays the game as before it existed.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from gouji_rules.tournament.errors import EventError
from gouji_rules.tournament.variant_copy import rebuild, snapshot
from gouji_rules.variant import SECTIONS, Variant, rules_fingerprint, with_legacy

from .conftest import gouji, standings_json

EARLIER = Path(__file__).resolve().parent / "earlier"
EVENTS = ["083eee8_dagang", "9af894a_dianshaomenla"]


def _points(rows: list[dict[str, Any]]) -> dict[str, tuple[int, int]]:
    return {r["name"]: (r["match_points"], r["hand_points"]) for r in rows}


@pytest.mark.parametrize("name", EVENTS)
def test_an_event_of_an_earlier_release_verifies_keeps_its_standings_and_takes_new_results(
    name: str, tmp_path: Path
) -> None:
    event = tmp_path / f"{name}.sqlite"
    shutil.copy(EARLIER / f"{name}.sqlite", event)
    r = gouji("verify", str(event))
    assert r.exit_code == 0, r.output
    assert "4 verified, 0 problem(s)" in r.output
    before = json.loads((EARLIER / f"{name}.standings.json").read_text(encoding="utf-8"))["standings"]
    assert _points(standings_json(event)) == _points(before)
    r = gouji("event", "record", str(event), "--round", "2", "--table", "1", "--hand", "1", "--finish", "0 1 2 3 4 5")
    assert r.exit_code == 0, r.output
    assert gouji("verify", str(event)).exit_code == 0


@pytest.mark.parametrize("variant", ["dagang", "dianshaomenla"])
def test_records_written_by_an_earlier_release_verify_under_the_rules_they_carry(variant: str) -> None:
    r = gouji("verify", str(EARLIER / f"9af894a_{variant}.jsonl"))
    assert r.exit_code == 0, r.output
    assert ", 0 problem(s)" in r.output


def test_every_option_added_since_events_kept_their_rules_says_how_an_older_copy_plays_it() -> None:
    lines = (EARLIER / "fields_083eee8.txt").read_text(encoding="utf-8").splitlines()
    then = {line for line in lines if line and not line.startswith("#")}
    now = {f"{key}.{f.name}": f for key, cls in SECTIONS for f in dataclasses.fields(cls)}
    assert then <= set(now), f"options removed: {sorted(then - set(now))}"
    undeclared = sorted(name for name, f in now.items() if name not in then and "legacy" not in f.metadata)
    assert not undeclared, f"added since 083eee8 without a legacy value: {undeclared}"


def test_a_copy_from_before_the_buy_options_buys_as_it_did_then() -> None:
    """S4 第九条/第十条 (buy.price_opposite_team, buy.free) came after events kept their rules: an older
    dagang copy keeps the S0-style price list and the free card it was created with."""
    variant, copy = snapshot("dagang")
    assert variant.buy.price_opposite_team == ["2"] and variant.buy.free is False
    for option in ("price_opposite_team", "free"):
        del copy["rules"]["buy"][option]
    older = rebuild(copy)
    assert older.buy.price_opposite_team is None and older.buy.free is True
    assert older.scoring == variant.scoring and older.deck == variant.deck


def test_a_copy_holding_an_option_this_release_does_not_know_stops_the_event() -> None:
    _, copy = snapshot("dagang")
    copy["rules"]["buy"]["no_such_option"] = 1
    with pytest.raises(EventError, match="differ from the rules the event was created with"):
        rebuild(copy)


def test_a_shipped_variant_changed_since_the_event_plays_on_under_the_event_copy() -> None:
    variant, copy = snapshot("dagang")
    copy["rules"]["scoring"]["points"] = [6, 3, 0, 0, -3, -6]
    older = rebuild(copy)
    assert list(older.scoring.points) == [6, 3, 0, 0, -3, -6]
    assert older.tribute == variant.tribute


def test_a_rules_copy_is_fingerprinted_as_written() -> None:
    variant, copy = snapshot("dianshaomenla")
    assert rules_fingerprint(copy["rules"]) == variant.rules.fingerprint
    del copy["rules"]["buy"]["free"]
    assert with_legacy(copy["rules"])["buy"]["free"] is True
    assert rules_fingerprint(copy["rules"]) != variant.rules.fingerprint


def test_an_event_file_keeps_its_rules_copy_untouched_by_an_upgrade(tmp_path: Path) -> None:
    event = tmp_path / "e.sqlite"
    shutil.copy(EARLIER / "083eee8_dagang.sqlite", event)
    with sqlite3.connect(event) as db:
        before = db.execute("select * from meta order by 1").fetchall()
    assert gouji("event", "standings", str(event)).exit_code == 0
    assert gouji("verify", str(event)).exit_code == 0
    with sqlite3.connect(event) as db:
        assert db.execute("select * from meta order by 1").fetchall() == before


def test_a_copy_from_before_a_section_existed_plays_that_section_as_it_did_then() -> None:
    """A section added to the model after the copy was written is missing from it whole: its options,
    like any option the copy lacks, take their legacy values, not the defaults."""
    _, copy = snapshot("dagang")
    del copy["rules"]["play"]
    assert with_legacy(copy["rules"])["play"] == {
        "no_head_when": "left_play",
        "yield_lapses": False,
        "wrong_play": "refuse",
        "announce": "always",
    }


def test_a_copy_missing_an_option_every_copy_holds_stops_the_event() -> None:
    """An option without a legacy value was in every copy ever written: a copy without it is damaged,
    and filling in today's default would score the event under other rules."""
    variant, copy = snapshot("dianshaomenla")
    assert variant.match.choose_last != Variant(name="x").match.choose_last
    del copy["rules"]["match"]["choose_last"]
    with pytest.raises(EventError, match="differ from the rules the event was created with"):
        rebuild(copy)
