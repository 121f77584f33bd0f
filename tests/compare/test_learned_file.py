"""``learned:FILE``: a club that fine-tunes the learned agent (``gouji train --variant club.yaml --init
learned``) plays its own file wherever an agent is named: ``gouji compare`` and ``gouji simulate``
``--agents``, the cross-check, and the library's ``make_agent``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import numpy as np
import pytest
from click.testing import CliRunner

from gouji_rules.catalog import dagang
from gouji_rules.cli import main as gouji_main
from gouji_rules.compare.cross import cross_pairing
from gouji_rules.compare.skill import parse_agents
from gouji_rules.errors import GoujiError
from gouji_rules.learn.agent import LearnedAgent, shipped_path
from gouji_rules.learn.checkpoint import load_weights, save_weights
from gouji_rules.play.agents import is_agent, make_agent
from gouji_rules.sim import play_hand

from .conftest import run_json


def _club_file(tmp_path: Path, name: str, noise: float = 0.0) -> Path:
    """The shipped network saved as a club's own file (optionally nudged), its meta naming the club."""
    net, meta, _ = load_weights(shipped_path())
    if noise:
        rng = np.random.default_rng(5)
        for p in net.p.values():
            p += rng.normal(0.0, noise, p.shape).astype(p.dtype)
    meta = {**meta, "trained_over": {"variants": ["club_of_mine"], "clubs": None}}
    path = tmp_path / name
    save_weights(path, net, meta)
    return path


def _plays(agents: list[Any], seed: int = 11) -> list[str]:
    hand = play_hand(dagang(), seed, agents)
    return [repr(e) for e in hand.events]


def test_a_club_file_plays_the_network_it_holds(tmp_path: Path) -> None:
    same = _club_file(tmp_path, "same.npz")
    nudged = _club_file(tmp_path, "nudged.npz", noise=0.5)
    shipped = _plays([LearnedAgent() for _ in range(6)])
    assert _plays([make_agent(f"learned:{same}") for _ in range(6)]) == shipped
    assert _plays([make_agent(f"learned:{nudged}") for _ in range(6)]) != shipped


def test_compare_names_what_the_clubs_file_was_trained_over(gouji: click.Group, tmp_path: Path) -> None:
    path = _club_file(tmp_path, "club.npz")
    doc = run_json(gouji, "dagang", "dianshaomenla", "--hands", "2", "--agents", f"learned:{path}", "--quiet")
    row = doc["sides"][0]["strength"][0]
    assert doc["sides"][0]["agent"] == f"learned:{path}"
    assert row["trained_over"] == {"variants": ["club_of_mine"], "clubs": None}
    assert row["outside_training"] is True
    assert row["edge"] is None  # a file of one's own was never measured against greedy
    assert doc["cross_check"]["agents"] == "greedy"


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("nope.npz", "nope.npz: cannot read the weights file"),
        ("/etc/passwd", "/etc/passwd: not a weights file"),
        ("/dev/zero", "/dev/zero: is a device"),
        (".", ".: is a folder"),
    ],
)
def test_a_file_that_is_no_weights_file_stops_the_run_in_one_line(body: str, says: str) -> None:
    for cmd in (["compare", "dagang", "dianshaomenla"], ["simulate"]):
        result = CliRunner().invoke(gouji_main, [*cmd, "--hands", "2", "--quiet", "--agents", f"learned:{body}"])
        assert result.exit_code == 1, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: {says}"), result.stderr
        assert not result.stdout


def test_learned_with_no_file_is_a_usage_error() -> None:
    assert not is_agent("learned:")
    with pytest.raises(GoujiError, match="names no weights file"):
        parse_agents("learned:")
    result = CliRunner().invoke(gouji_main, ["simulate", "--hands", "2", "--agents", "learned:"])
    assert result.exit_code == 2 and "names no weights file" in result.stderr


def test_the_cross_check_replaces_a_clubs_file_as_it_replaces_learned() -> None:
    assert cross_pairing("learned:club.npz", "greedy") == ("greedy", "")
    assert cross_pairing("learned:club.npz,simple", "ismcts") == ("ismcts-quick,simple", "")
    assert parse_agents("learned:a.npz,learned") == ("learned:a.npz", "learned")


def test_a_club_file_has_seen_the_parts_of_the_club_it_was_trained_under(tmp_path: Path) -> None:
    from gouji_rules import load_variant
    from gouji_rules.learn.agent import unseen_parts

    path = _club_file(tmp_path, "club.npz")  # trained over club_of_mine alone
    club = tmp_path / "club.yaml"
    club.write_text("extends: dagang\nname: club_of_mine\n", encoding="utf-8")
    assert unseen_parts(load_variant(str(club)), str(path)) == []
    other = tmp_path / "other.yaml"
    other.write_text("extends: dagang\nname: another_club\n", encoding="utf-8")
    assert unseen_parts(load_variant(str(other)), str(path))  # by name it knows only its own club
