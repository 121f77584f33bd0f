"""A real comparison: 点烧闷拉 against the 大纲 shows its scoring as a clear difference."""

from __future__ import annotations

import click
from click.testing import CliRunner

from .conftest import run_json

DEALS = 1000  # 2,000 hands per variant (two seatings a deal); the scoring intervals clear 0 long before


def test_dagang_vs_dianshaomenla(gouji: click.Group) -> None:
    # greedy, not the default learned agent: the scoring difference is the rules', whoever plays, and
    # greedy plays these 2,000 hands in a twelfth of the time
    doc = run_json(
        gouji, "dagang", "dianshaomenla", "--hands", str(DEALS), "--workers", "2", "--quiet", "--agents", "greedy"
    )
    diff = doc["differences"][0]["metrics"]
    # S0 scores 2/1/0/0/−1/−2 with negatives (zero-sum); S4 scores 4/2/0/0/−2/−4 counting only
    # positive sums: the points handed out per hand and the winner's score must differ clearly.
    assert diff["points_awarded"]["clear"] and diff["points_awarded"]["high"] < 0
    assert diff["winner_score"]["clear"] and diff["winner_score"]["high"] < 0
    assert doc["results"][1]["metrics"]["points_awarded"]["mean"] == 0
    paths = {d["path"] for d in doc["rule_differences"]}
    for path in (
        "scoring.points",
        "scoring.positive_only",
        "scoring.sweep_multiplier",
        "men.penalty",
        "gouji.thresholds",
    ):
        assert path in paths
    text = CliRunner().invoke(gouji, ["compare", "dagang", "dianshaomenla", "--hands", "40", "--quiet"]).stdout
    for d in doc["rule_differences"]:
        assert d["path"] in text
