"""Perft: the exact number of legal actions in hand-derived positions (tests/perft.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from gouji_rules.play.engine import MODE_NAMES

from .conftest import pos, variant_named

POSITIONS: list[dict[str, Any]] = yaml.safe_load((Path(__file__).parent / "perft.yaml").read_text("utf-8"))


def test_enough_positions() -> None:
    assert len(POSITIONS) >= 30
    assert len({p["id"] for p in POSITIONS}) == len(POSITIONS)


@pytest.mark.parametrize("p", POSITIONS, ids=[p["id"] for p in POSITIONS])
def test_perft(p: dict[str, Any]) -> None:
    variant = variant_named(p["variant"], p.get("beat"))
    h = pos(
        variant,
        p["hands"],
        p.get("leader", 0),
        table=p.get("table"),
        owner=p.get("owner"),
        passed=p.get("passed", ()),
        point=p.get("point"),
        out=p.get("out", ()),
        burning=p.get("burning", -1),
        burn_victim=p.get("burn_victim", -1),
    )
    want = p["expect"]
    legal = h.legal_actions()
    got = (h.turn, MODE_NAMES[h.mode], len(legal))
    assert got == (want["turn"], want["mode"], want["count"]), [str(a) for a in legal]
    # the lazy sequence agrees with itself: iteration, indexing and membership
    listed = list(legal)
    assert len(listed) == len(legal) == len(set(map(str, listed)))
    assert all(a in legal for a in listed)
