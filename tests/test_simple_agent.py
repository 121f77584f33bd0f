"""The ``simple`` agent: lowest set first, never over a partner, greedy for everything else; and its bot."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gouji_rules.catalog import dagang
from gouji_rules.game.actions import PASS, Burn, Play
from gouji_rules.game.cards import parse_hand, parse_set
from gouji_rules.game.legal import Legal
from gouji_rules.play.agents import GreedyAgent, SimpleAgent, make_agent
from gouji_rules.play.match import play_match
from gouji_rules.play.observe import Observation

RULES = dagang().rules
SIMPLE_BOT = Path(__file__).resolve().parents[1] / "examples" / "simple_bot.py"


def obs(mode: str, hand: str, table: str | None = None, owner: int = -1) -> Observation:
    return Observation(
        seat=0,
        mode=mode,
        hand=parse_hand(hand),
        table=parse_set(table) if table else None,
        table_owner=owner,
        cards_left=(-1,) * 6,
        active=(True,) * 6,
        finish=(),
        point=("none",) * 6,
        no_head=(False,) * 6,
        burning=-1,
        free_for_all=False,
        events=(),
        rules=RULES,
    )


def sets(*texts: str, extras: tuple[object, ...] = ()) -> Legal:
    return Legal(sets=[parse_set(t) for t in texts], extras=extras)  # type: ignore[arg-type]


def agent() -> SimpleAgent:
    a = SimpleAgent()
    a.start_hand(7, 0)
    return a


def test_leads_its_whole_lowest_rank_keeping_3s_and_jokers() -> None:
    legal = sets("33", "5", "55", "55+SJ", "99", "K")
    assert agent().act(obs("lead", "3355899KSJ"), legal) == Play(parse_set("55"))


def test_leads_3s_only_when_nothing_else_is_left() -> None:
    assert agent().act(obs("lead", "33"), sets("3", "33")) == Play(parse_set("33"))


def test_passes_rather_than_play_over_a_partner() -> None:
    legal = sets("KK", "AA", extras=(PASS,))
    assert agent().act(obs("follow", "KKAA", table="99", owner=2), legal) == PASS


def test_beats_an_opponent_with_the_smallest_set() -> None:
    legal = sets("AA", "KK", "JJ+2", extras=(PASS,))
    assert agent().act(obs("follow", "JKKAA2", table="99", owner=1), legal) == Play(parse_set("KK"))


def test_leaves_burns_to_greedy() -> None:
    o = obs("burn", "2222BJ9", table="TTTT", owner=1)
    legal = Legal(sets=[parse_set("2222")], burn=True, extras=(PASS,))
    g = GreedyAgent()
    g.start_hand(7, 0)
    assert agent().act(o, legal) == g.act(o, legal)
    assert isinstance(agent().act(o, legal), Burn | type(PASS))


@pytest.mark.parametrize("variant", ["dagang", "dianshaomenla"])
def test_simple_is_registered_and_plays_whole_matches(variant: str) -> None:
    from gouji_rules import catalog

    assert make_agent("simple").name == "simple"
    m = play_match(catalog.resolve(variant), seed=11, hands=3, agents=[make_agent("simple") for _ in range(6)])
    assert len(m.summaries) == 3


def test_the_example_bot_plays_as_the_agent() -> None:
    """``examples/simple_bot.py`` in seats 0 2 4 and ``simple`` in 1 3 5 play as six ``simple`` agents."""

    def simulate(agents: str) -> dict[str, object]:
        argv = [sys.executable, "-m", "gouji_rules.cli", "simulate", "--hands", "2", "--agents", agents, "--json"]
        r = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        out: dict[str, object] = json.loads(r.stdout)
        for timing in ("agents", "hands_per_second", "decisions_per_second", "seconds"):
            out.pop(timing, None)
        return out

    assert simulate(f"mine=cmd:{sys.executable} {SIMPLE_BOT},simple") == simulate("simple")
