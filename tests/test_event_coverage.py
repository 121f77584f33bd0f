"""Issue 3's "must show": with greedy agents every play-rule event happens under each text's rules."""

import pytest

from gouji_rules.catalog import dagang, dianshaomenla
from gouji_rules.sim import simulate

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


# dagang needs more hands since issue 11: a seat that passed may no longer burn (S4 第五条), so 反烧 is rarer
# (2 in 2000 greedy hands from seed 2026, none in the first 1000)
@pytest.mark.parametrize("make,hands", [(dagang, 2000), (dianshaomenla, 1000)], ids=["S4_dagang", "S0_dianshaomenla"])
def test_every_play_rule_event_happens_in_many_greedy_hands(make, hands) -> None:  # type: ignore[no-untyped-def]
    out = simulate(make(), hands, seed=2026, agent_name="greedy")
    missing = [k for k in PLAY_EVENTS if out["events"].get(k, 0) == 0]
    assert not missing, f"never happened in {hands} hands: {missing}"
