"""Issue 3's "must show": with greedy agents every play-rule event happens under each text's rules."""

import pytest

from gouji_rules.sim import simulate
from gouji_rules.variant import dagang, dianshaomenla

PLAY_EVENTS = (
    "burn",
    "counter_burn",
    "break_burn",
    "burn_fail",
    "open_point",
    "men",
    "no_head",
    "free_for_all",
    "jiefeng",
    "yield",
)


@pytest.mark.parametrize("make", [dagang, dianshaomenla], ids=["S4_dagang", "S0_dianshaomenla"])
def test_every_play_rule_event_happens_in_1000_greedy_hands(make) -> None:  # type: ignore[no-untyped-def]
    out = simulate(make(), 1000, seed=2026, agent_name="greedy")
    missing = [k for k in PLAY_EVENTS if out["events"].get(k, 0) == 0]
    assert not missing, f"never happened in 1000 hands: {missing}"
