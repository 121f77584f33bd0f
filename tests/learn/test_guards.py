"""The learned agent's guards (``meta["guards"]``): a blunder the network chooses is replaced by its
best choice that is none, and nothing else changes; a weights file naming an unknown blunder is refused."""

import pytest

from gouji_rules.catalog import dianshaomenla
from gouji_rules.learn.agent import LearnedAgent
from gouji_rules.learn.checkpoint import check_play_meta
from gouji_rules.learn.features import ACT_SIZE, OBS_SIZE
from gouji_rules.learn.net import QNet, WeightsError
from gouji_rules.play.agents import GreedyAgent
from gouji_rules.play.blunders import BLUNDERS, made

from .test_agent import _positions


@pytest.mark.parametrize("seed", [4, 9])
def test_a_guarded_blunder_is_replaced_by_the_networks_best_choice_that_is_none(seed: int) -> None:
    """Issue 32's habits: with ``guards`` the agent never plays a named blunder where another choice is
    legal: it plays the action of highest Q that is no blunder; every other decision is as without guards."""
    net = QNet(OBS_SIZE, ACT_SIZE, (16, 8, 8), seed=seed)  # a random network blunders by chance
    guards = tuple(BLUNDERS)
    bare, guarded = LearnedAgent(net, margin=0.0), LearnedAgent(net, margin=0.0, guards=guards)
    for a in (bare, guarded):
        a.start_hand(0, 0)
    replaced = same = 0
    for hand, s in _positions(dianshaomenla(), range(4)):
        legal, obs = hand.legal_actions(), hand.observation(s)
        mine, kept = bare.act(obs, legal), guarded.act(obs, legal)
        clean = [i for i, a in enumerate(legal) if not made(guards, obs, legal, a)]
        if made(guards, obs, legal, mine) and clean:
            q = bare.scores(obs, legal)
            assert kept == legal[max(clean, key=lambda i: (q[i], -i))] and not made(guards, obs, legal, kept)
            replaced += 1
        else:
            assert kept == mine
            same += 1
    assert replaced > 0 and same > replaced


def test_guards_name_known_blunders_in_the_agent_and_in_a_weights_file() -> None:
    with pytest.raises(ValueError, match="no blunder named 'fours'; known: fours_before_open"):
        LearnedAgent(guards=["fours"])
    meta = {"learned_kinds": ["lead"], "guards": ["jokerless_burn", "burning_early"]}
    with pytest.raises(WeightsError, match=r"w\.npz: no blunder named 'burning_early'"):
        check_play_meta("w.npz", meta)
    with pytest.raises(WeightsError, match="guards must be a list"):
        check_play_meta("w.npz", {"learned_kinds": ["lead"], "guards": "jokerless_burn"})
    check_play_meta("w.npz", {"learned_kinds": ["lead"], "guards": ["jokerless_burn"]})
    with pytest.raises(ValueError) as long_name:  # a name as long as a file can hold is cut, not echoed
        LearnedAgent(guards=["x" * 100_000])
    assert len(str(long_name.value)) < 200


def test_choose_guards_measures_each_blunder_against_each_opponent_and_keeps_those_that_cost_nothing() -> None:
    from gouji_rules.catalog import dagang
    from gouji_rules.learn.duplicate import pair_seed, play_pair
    from gouji_rules.learn.guards import GUARD_SEED, choose_guards

    net = QNet(OBS_SIZE, ACT_SIZE, (16, 8, 8), seed=3)
    variants = [dagang(), dianshaomenla()]
    out = choose_guards(net, {"margin": 0.0}, variants, pairs=2, match_hands=1, opponents=("self", "greedy"))
    choice = out["guard_choice"]
    assert (choice["seed"], choice["opponents"]) == (GUARD_SEED, ["self", "greedy"])
    singles = [f for f in choice["figures"] if len(f["guards"]) == 1]
    assert [(f["guards"][0], f["variant"], f["against"]) for f in singles] == [
        (b, v, o) for b in BLUNDERS for v in ("dagang", "dianshaomenla") for o in ("self", "greedy")
    ]
    for name in BLUNDERS:  # kept: no loss against anyone under any variant
        rows = [f for f in singles if f["guards"] == [name]]
        assert (name in out["guards"]) == all(r["gain"] >= 0 for r in rows)
    # against greedy: (guarded − greedy) − (unguarded − greedy) on the same deal pairs
    row = next(
        f for f in singles if (f["guards"], f["variant"], f["against"]) == (["jokerless_burn"], "dagang", "greedy")
    )

    def team(guards: tuple[str, ...]) -> LearnedAgent:
        return LearnedAgent(net, margin=0.0, candidates=0, scope="all", guards=guards)

    diffs = [
        play_pair(variants[0], pair_seed(GUARD_SEED, i), lambda: team(("jokerless_burn",)), GreedyAgent, 1)
        - play_pair(variants[0], pair_seed(GUARD_SEED, i), lambda: team(()), GreedyAgent, 1)
        for i in range(2)
    ]
    assert row["gain"] == round(sum(diffs) / 2, 4)
    again = choose_guards(net, {"margin": 0.0}, variants, 2, 1, reuse=choice, opponents=("self", "greedy"))
    assert again == out  # the same figures, taken from the earlier choice, the same guards
    with pytest.raises(ValueError, match="opponents must be among self, greedy, simple"):
        choose_guards(net, {}, variants, 2, 1, opponents=("ismcts",))


def test_choose_guards_script_refuses_a_bad_file_and_writes_nothing(tmp_path) -> None:
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "training" / "choose_guards.py"
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a weights file")
    dest = tmp_path / "out.npz"
    r = subprocess.run(
        [sys.executable, str(script), str(bad), str(dest), "--pairs", "2"], capture_output=True, text=True
    )
    assert r.returncode == 1 and r.stderr.startswith("choose_guards: ") and "Traceback" not in r.stderr
    assert not dest.exists()


def test_kept_guards_are_kept_whatever_they_cost_and_their_cost_is_written() -> None:
    from gouji_rules.catalog import dagang
    from gouji_rules.learn.guards import choose_guards

    net = QNet(OBS_SIZE, ACT_SIZE, (16, 8, 8), seed=3)
    out = choose_guards(
        net,
        {"margin": 0.0},
        [dagang()],
        2,
        1,
        opponents=("self", "greedy"),
        keep=["lone_big_joker", "fours_before_open"],
    )
    assert out["guards"] == ["fours_before_open", "lone_big_joker"]  # in the order of BLUNDERS
    choice = out["guard_choice"]
    assert choice["rule"] == "kept"
    assert [(f["guards"], f["against"]) for f in choice["figures"]] == [
        (["fours_before_open", "lone_big_joker"], "self"),
        (["fours_before_open", "lone_big_joker"], "greedy"),
    ]
    with pytest.raises(ValueError, match="no blunder named 'fours'"):
        choose_guards(net, {"margin": 0.0}, [dagang()], 2, 1, keep=["fours"])
