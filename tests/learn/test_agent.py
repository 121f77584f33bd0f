"""The shipped ``learned`` agent: legal, repeatable play from the seat's own observation, one weights
file that names where it came from and plays every variant, a club's file read by its rules, and the
name known wherever agents are named."""

import json
import subprocess
import sys

import numpy as np
import pytest

from gouji_rules.catalog import dagang, dianshaomenla
from gouji_rules.env.encoding import ActionEncoding
from gouji_rules.learn.agent import WEIGHTS, LearnedAgent, nearest, shipped_path, shipped_weights
from gouji_rules.learn.checkpoint import load
from gouji_rules.learn.features import PLAY_MODES, Featurizer
from gouji_rules.play.agents import AGENTS, GreedyAgent, make_agent
from gouji_rules.play.blunders import made
from gouji_rules.play.engine import Hand
from gouji_rules.sim import play_hand

from ..conftest import swap_hidden


def test_the_shipped_weights_name_the_variants_they_were_distilled_over_the_command_and_the_teachers() -> None:
    """One file for every variant (issue 32): trained over both shipped variants and drawn clubs, made
    by a command in its meta from the files it was distilled from (committed in training/), whose digests
    it names."""
    import hashlib
    from pathlib import Path

    _, meta, _ = load(shipped_path())
    assert (
        meta["trained_over"]["variants"] == ["dagang", "dianshaomenla"] and meta["trained_over"]["clubs"]["count"] > 0
    )
    assert meta["command"].startswith("python training/distil.py")
    assert isinstance(meta["seed"], int) and meta["decisions"] > 0 and meta["code_version"]
    root = Path(__file__).resolve().parents[2]
    for t in meta["distilled"]["teachers"].values():
        digest = hashlib.sha256((root / t["file"]).read_bytes()).hexdigest()  # committed beside the runs
        assert t["sha256"] == digest[:16]
    assert shipped_path().stat().st_size < 5_000_000


@pytest.mark.parametrize("factory", [dagang, dianshaomenla])
def test_learned_plays_whole_hands_repeatably(factory) -> None:
    a = play_hand(factory(), 11, [make_agent("learned") for _ in range(6)])
    b = play_hand(factory(), 11, [make_agent("learned") for _ in range(6)])
    assert a.is_over and a.record() == b.record()


def _positions(variant, seeds=range(3)):
    """(hand, seat) at every decision of greedy play, before the decision."""
    for seed in seeds:
        hand = Hand.deal(variant, seed)
        players = [GreedyAgent() for _ in range(6)]
        for s, p in enumerate(players):
            p.start_hand(seed, s)
        while not hand.is_over:
            s = hand.turn
            yield hand, s
            hand.apply(players[s].act(hand.observation(s), hand.legal_actions()))


def test_learned_scores_every_legal_action_and_leaves_greedy_only_by_its_margin() -> None:
    # the margin rule alone: the shipped file's guards (tests/learn/test_guards.py) set aside
    agent = LearnedAgent(candidates=0, scope="all", guards=())
    argmax = LearnedAgent(margin=0.0, candidates=0, scope="all", guards=())
    margin = shipped_weights()[1]["margin"]
    for a in (agent, argmax):
        a.start_hand(0, 0)
    checked = 0
    for hand, s in _positions(dagang(), range(1)):
        legal = hand.legal_actions()
        obs = hand.observation(s)
        if obs.mode not in PLAY_MODES or len(legal) < 3:
            continue
        q = agent.scores(obs, legal)
        assert q.shape == (len(legal),)
        best = int(np.argmax(q))
        assert argmax.act(obs, legal) == legal[best]
        g = list(legal).index(GreedyAgent().act(obs, legal))
        assert agent.act(obs, legal) == legal[best if q[best] - q[g] >= margin else g]
        checked += 1
    assert checked > 30


@pytest.mark.parametrize("name", ["dagang", "dianshaomenla"])
def test_the_shipped_agent_plays_as_its_weights_meta_says(name) -> None:
    """margin, choice set, scope and guards come from the file: the best of the choice set by Q where
    the scope asks the network, greedy's choice unless that best clears the margin and is no blunder
    the file guards against."""
    from gouji_rules.catalog import resolve
    from gouji_rules.search import SearchAgent

    meta = shipped_weights()[1]
    margin, k, scope = meta["margin"], meta.get("candidates", 0), meta.get("scope", "all")
    guards = tuple(meta.get("guards", ()))
    agent, search = LearnedAgent(), SearchAgent(candidates=max(1, k))
    agent.start_hand(0, 0)
    checked = 0
    for hand, s in _positions(resolve(name), range(1)):
        legal, obs = hand.legal_actions(), hand.observation(s)
        greedy = GreedyAgent().act(obs, legal)
        if obs.mode not in PLAY_MODES or len(legal) == 1 or (scope == "searched" and not search.searches(obs, legal)):
            assert agent.act(obs, legal) == greedy
            continue
        q = agent.scores(obs, legal)
        keep = search.candidate_actions(obs, legal, greedy) if k else list(legal)
        best = max(keep, key=lambda a: (q[list(legal).index(a)], -list(legal).index(a)))
        gain = q[list(legal).index(best)] - q[list(legal).index(greedy)]
        chosen = best if gain >= margin else greedy
        if made(guards, obs, legal, chosen) and not made(guards, obs, legal, greedy):
            chosen = greedy  # a blunder the file guards against
        assert agent.act(obs, legal) == chosen
        checked += 1
    assert checked > 10


def test_action_rows_begin_with_the_encodings_rows() -> None:
    v = dagang()
    feat, enc = Featurizer(v.rules), ActionEncoding(v.rules)
    for hand, s in _positions(v, range(2)):
        legal = hand.legal_actions()
        idx, rows = feat.indexed_rows(hand.observation(s), legal, None)
        i2, f2 = enc.encode_legal(legal)
        assert idx.tolist() == i2.tolist()
        f2[:, :16] *= 0.25
        assert np.array_equal(rows[:, : f2.shape[1]], f2)


def test_learned_sees_only_its_own_observation() -> None:
    """Moving hidden cards between two other seats never changes the learned agent's choice."""
    changed = 0
    for hand, s in _positions(dagang(), range(2)):
        if hand.observation(s).mode not in PLAY_MODES or len(hand.legal_actions()) < 2:
            continue
        try:
            other = swap_hidden(hand, s)
        except StopIteration:
            continue
        a, b = LearnedAgent(), LearnedAgent()
        for x in (a, b):
            x.start_hand(1, s)
        assert a.act(hand.observation(s), hand.legal_actions()) == b.act(other.observation(s), other.legal_actions())
        changed += 1
        if changed >= 40:
            break
    assert changed >= 40


def test_every_variant_plays_the_one_file_and_a_club_is_nearest_the_variant_it_extends(tmp_path) -> None:
    from gouji_rules.dsl import load_file

    s0 = tmp_path / "s0club.yaml"
    s0.write_text("extends: dianshaomenla\nname: s0club\nburn:\n  teammate: false\n", encoding="utf-8")
    s4 = tmp_path / "s4club.yaml"
    s4.write_text("extends: dagang\nname: s4club\nburn:\n  needs_open_point: false\n", encoding="utf-8")
    names = ["dagang", "dianshaomenla"]
    assert nearest(load_file(s0), names) == "dianshaomenla"  # whose teacher labels it in distillation
    assert nearest(load_file(s4), names) == "dagang"
    assert nearest(dagang(), names) == "dagang"
    blocks = []
    for v in (load_file(s0), dianshaomenla(), load_file(s4), dagang()):
        agent = LearnedAgent()
        play_hand(v, 3, [agent] + [GreedyAgent() for _ in range(5)])
        assert agent._play is shipped_weights(WEIGHTS)[0] and agent._feat is not None
        blocks.append(agent._feat.rule_block)
    assert not np.array_equal(blocks[0], blocks[1]) and not np.array_equal(blocks[2], blocks[3])  # it reads the rules


def _gouji(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gouji_rules.cli", *args], capture_output=True, text=True, timeout=300)


def test_learned_is_named_in_simulate_compare_events_and_the_environment(tmp_path) -> None:
    assert "learned" in AGENTS
    r = _gouji("simulate", "--hands", "2", "--agents", "learned", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["agents"] == "learned"
    r = _gouji("compare", "dagang", "dianshaomenla", "--hands", "1", "--agents", "learned,greedy", "--json")
    assert r.returncode == 0, r.stderr
    r = _gouji("bench", "--agents", "learned", "--hands", "2", "--engine-only", "--json")
    assert r.returncode == 0, r.stderr
    bench = json.loads(r.stdout)
    assert bench["agents"] == "learned" and bench["cpu_decisions_per_second"] > 0
    ev = tmp_path / "ev.sqlite"
    r = _gouji(
        "event", "new", str(ev), "--name", "x", "--rounds", "1", "--hands", "1", "--no-duplicate", "--seed", "3",
        "--bots", "a=learned,b=greedy,c=learned,d=greedy,e=learned,f=greedy",
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    r = _gouji("event", "run", str(ev), "--quiet")
    assert r.returncode == 0 and "1 of 1 hands stored" in r.stdout, r.stderr
    from gouji_rules.env import SeatEnv

    env = SeatEnv("dagang", seat=0, others="learned", dense_mask=False)
    obs, _ = env.reset(seed=1)
    assert len(obs["legal_actions"]) >= 1


def test_with_a_margin_no_network_can_clear_the_agent_plays_as_greedy_does() -> None:
    v = dagang()
    learned = play_hand(v, 21, [LearnedAgent(margin=1e9) for _ in range(6)])
    greedy = play_hand(v, 21, [GreedyAgent() for _ in range(6)])
    assert learned.record() == greedy.record()
    assert play_hand(v, 21, [LearnedAgent(margin=0.0) for _ in range(6)]).record() != greedy.record()
    # a choice set of one is greedy's choice alone
    assert play_hand(v, 21, [LearnedAgent(margin=0.0, candidates=1) for _ in range(6)]).record() == greedy.record()


def test_ismcts_can_play_its_worlds_out_with_the_learned_agent() -> None:
    from gouji_rules.search import SearchAgent

    agent = SearchAgent(worlds=1, candidates=2, rollout="learned")
    assert all(isinstance(p, LearnedAgent) for p in agent.players)
    hand = play_hand(dagang(), 4, [agent] + [GreedyAgent() for _ in range(5)])
    assert hand.is_over and agent.searched > 0
    with pytest.raises(ValueError, match="rollout must be greedy or learned"):
        SearchAgent(rollout="random")


def test_a_bare_network_of_another_layout_is_refused_in_words_not_a_matmul_error() -> None:
    """A network handed in directly (not read from a file, which is fitted by name) must be of this
    layout: otherwise a WeightsError that says so, never numpy's shape error mid-hand."""
    from gouji_rules.errors import GoujiError
    from gouji_rules.learn.features import ACT_SIZE, OBS_SIZE
    from gouji_rules.learn.net import QNet, WeightsError

    for net in (QNet(OBS_SIZE + 1, ACT_SIZE), QNet(OBS_SIZE, ACT_SIZE + 1)):
        with pytest.raises(WeightsError, match="fit it to the columns by name first") as e:
            play_hand(dagang(), 3, [LearnedAgent(net=net) for _ in range(6)])
        assert isinstance(e.value, GoujiError)
    play_hand(dagang(), 3, [LearnedAgent(net=QNet(OBS_SIZE, ACT_SIZE)) for _ in range(6)])


def test_scope_searched_plays_the_network_only_where_ismcts_searches() -> None:
    from gouji_rules.learn.features import ACT_SIZE, OBS_SIZE
    from gouji_rules.learn.net import QNet
    from gouji_rules.search import SearchAgent

    net = QNet(OBS_SIZE, ACT_SIZE, (16, 8, 8), seed=4)  # a random network: it leaves greedy wherever it may
    scoped, everywhere, search = (
        LearnedAgent(net, margin=0.0, scope="searched"),
        LearnedAgent(net, margin=0.0),
        SearchAgent(),
    )
    for a in (scoped, everywhere):
        a.start_hand(0, 0)
    left, kept = 0, 0
    for hand, s in _positions(dagang(), range(2)):
        legal, obs = hand.legal_actions(), hand.observation(s)
        greedy = GreedyAgent().act(obs, legal)
        if search.searches(obs, legal):
            left += scoped.act(obs, legal) == everywhere.act(obs, legal) != greedy
        else:
            assert scoped.act(obs, legal) == greedy
            kept += everywhere.act(obs, legal) != greedy
    assert left > 0 and kept > 0  # the scope is what tells them apart
    with pytest.raises(ValueError, match="scope"):
        LearnedAgent(scope="some")
