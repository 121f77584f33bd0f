"""``gouji train``: the loop learns (loss down on a fixed batch of self-play samples), checkpoints
atomically, and a run killed with kill -9 continues from its checkpoint."""

import json
import os
import signal
import subprocess
import time

import numpy as np
import pytest

from gouji_rules.learn.checkpoint import load
from gouji_rules.learn.features import ACT_SIZE, OBS_SIZE
from gouji_rules.learn.net import Adam, QNet, WeightsError
from gouji_rules.learn.selfplay import SelfPlayUnit, run_selfplay
from gouji_rules.learn.train import TrainConfig, Trainer, export

from .conftest import train_cmd

TINY = (16, 8, 8)


def _unit(net: QNet, index: int = 0, hands: int = 1, follow_greedy: bool = True) -> SelfPlayUnit:
    return SelfPlayUnit(index, 7, "dagang", hands, net.p, net.hidden, 0.05, follow_greedy)


def test_selfplay_samples_carry_the_hands_return_for_the_deciding_team() -> None:
    net = QNet(OBS_SIZE, ACT_SIZE, TINY)
    s = run_selfplay(_unit(net))
    assert s.hands == 1 and s.decisions > len(s.target) > 50
    assert s.obs.shape == (len(s.target), OBS_SIZE) and s.act.shape == (len(s.target), ACT_SIZE)
    # zero-sum between the teams: the returns take exactly two values, x and −x (in place-score units)
    values = sorted(set(np.round(s.target, 5).tolist()))
    assert values == [0.0] or (len(values) == 2 and values[0] == -values[1])
    assert run_selfplay(_unit(net)).target.tolist() == s.target.tolist()  # seeded


def test_branch_points_judge_other_actions_in_the_same_deal() -> None:
    net = QNet(OBS_SIZE, ACT_SIZE, TINY)
    unit = SelfPlayUnit(0, 7, "dagang", 1, net.p, net.hidden, 0.0, True, branches=3, branch_rate=0.2)
    s = run_selfplay(unit)
    played = s.act[:, -1] == 1.0  # greedy's own choices (the behaviour), the rest are branches
    assert len(s.target) > 20 and 0 < played.sum() < len(s.target)
    # each branch point shares its observation row between greedy's action and the others
    first = np.flatnonzero(~played)[0]
    assert (s.obs == s.obs[first]).all(axis=1).sum() >= 2
    assert run_selfplay(unit).target.tolist() == s.target.tolist()  # seeded


def test_advantage_targets_are_returns_less_the_behaviours_action_in_the_same_deal() -> None:
    net = QNet(OBS_SIZE, ACT_SIZE, TINY)
    unit = SelfPlayUnit(0, 7, "dagang", 1, net.p, net.hidden, 0.0, True, 3, 0.2, advantage=True)
    s = run_selfplay(unit)
    played = s.act[:, -1] == 1.0
    assert played.sum() > 5 and (s.target[played] == 0.0).all()
    assert (s.target[~played] != 0.0).any()  # some other action does better or worse than greedy's
    # a branch point's rows come together: the behaviour's action first, then the others
    starts = np.flatnonzero(played)
    assert all((s.obs[i] == s.obs[i + 1]).all() for i in starts if i + 1 < len(s.obs) and not played[i + 1])


def test_distilled_targets_are_ismcts_world_means_less_greedys_choice() -> None:
    net = QNet(OBS_SIZE, ACT_SIZE, TINY)
    unit = SelfPlayUnit(0, 7, "dagang", 1, net.p, net.hidden, 0.0, True, 4, 0.3, teacher_worlds=3)
    s = run_selfplay(unit)
    greedy = s.act[:, -1] == 1.0
    starts = np.flatnonzero(greedy)
    assert len(starts) > 5 and (s.target[greedy] == 0.0).all()
    # a branch point is greedy's row, then the other candidates (at most 4 in all), on one observation
    ends = [*starts[1:], len(s.target)]
    assert all(1 < e - b <= 4 and (s.obs[b:e] == s.obs[b]).all() for b, e in zip(starts, ends, strict=True))
    # each target is a mean over 3 worlds of whole-point team differences, in units of 4 points
    assert np.allclose(s.target * 3 * 4, np.round(s.target * 3 * 4), atol=1e-4)
    assert (s.target[~greedy] != 0.0).any()
    assert run_selfplay(unit).target.tolist() == s.target.tolist()  # seeded


def test_distilled_samples_come_only_from_decisions_ismcts_searches() -> None:
    from gouji_rules.catalog import dagang
    from gouji_rules.learn.features import Featurizer
    from gouji_rules.search import SearchAgent

    net = QNet(OBS_SIZE, ACT_SIZE, TINY)
    s = run_selfplay(SelfPlayUnit(0, 7, "dagang", 1, net.p, net.hidden, 0.0, True, 4, 1.0, teacher_worlds=1))
    # replay the same hand (greedy behaviour, no exploration) and collect the rows of its searched decisions
    from gouji_rules.learn.selfplay import unit_seed
    from gouji_rules.play.agents import GreedyAgent
    from gouji_rules.play.engine import Hand

    variant = dagang()
    seed = unit_seed(7, 0, 0, 1)
    hand, search, feat = Hand.deal(variant, seed), SearchAgent(), Featurizer(variant.rules)
    players = [GreedyAgent() for _ in range(6)]
    for i, p in enumerate(players):
        p.start_hand(seed, i)
    searched = []
    while not hand.is_over:
        seat, legal = hand.turn, hand.legal_actions()
        obs = hand.observation(seat)
        if search.searches(obs, legal) and len(search.candidate_actions(obs, legal, legal[0])) > 1:
            searched.append(feat.obs_row(obs))
        hand.apply(players[seat].act(obs, legal))
    rows = {r.tobytes() for r in s.obs}
    assert rows and rows <= {r.tobytes() for r in searched}


def test_loss_goes_down_on_a_fixed_batch_of_selfplay_samples() -> None:
    net = QNet(OBS_SIZE, ACT_SIZE, TINY, seed=1)
    s = run_selfplay(_unit(net, hands=2))
    opt = Adam(net, lr=2e-3)
    before = net.loss(s.obs, s.act, s.target)
    for _ in range(150):
        opt.step(net, net.loss_and_grads(s.obs, s.act, s.target)[1])
    assert net.loss(s.obs, s.act, s.target) < 0.5 * before


def _config(out, **kw) -> TrainConfig:
    base = dict(
        variant="dagang",
        out=str(out),
        seed=3,
        hands_per_unit=1,
        batch=32,
        buffer=2000,
        hidden=TINY,
        eval_every=10,
        eval_pairs=1,
        checkpoint_seconds=0.5,
    )
    base.update(kw)
    return TrainConfig(**base)


def test_a_short_run_checkpoints_measures_and_resumes(tmp_path) -> None:
    t = Trainer(_config(tmp_path))
    p = t.run(max_decisions=2500)
    assert p.decisions >= 2500 and p.updates > 10 and p.strength is not None
    meta = load(tmp_path / "checkpoint.npz")[1]
    assert meta["decisions"] == p.decisions and meta["updates"] == p.updates and meta["seed"] == 3
    assert (tmp_path / "best.npz").exists() and (tmp_path / "log.jsonl").read_text().count("\n") >= 1
    again = Trainer(_config(tmp_path))
    assert again.resumed and again.decisions == p.decisions and again.units == p.units
    assert all(np.array_equal(again.net.p[k], t.net.p[k]) for k in t.net.p)
    assert again.adam.t == t.adam.t
    q = again.run(max_decisions=p.decisions + 500)
    assert q.decisions > p.decisions and q.updates >= p.updates
    meta = export(tmp_path, tmp_path / "w.npz", margins=(0.0, 0.5), pairs=1)
    assert meta["margin"] in (0.0, 0.5) and len(meta["margin_choice"]["figures"]) == 2
    _, smeta, rest = load(tmp_path / "w.npz")
    assert smeta["margin"] == meta["margin"] and not rest  # no optimizer state in an exported file


def test_a_distilled_run_exports_weights_that_play_where_ismcts_searches(tmp_path) -> None:
    t = Trainer(_config(tmp_path, teacher_worlds=1, branch_rate=0.5))
    assert t.play_scope() == {"scope": "searched", "candidates": 4}
    p = t.run(max_decisions=1500)
    assert p.samples > 0 and p.updates > 0
    meta = export(tmp_path, tmp_path / "w.npz", margins=(0.0,), pairs=1, candidates=(4,), latest=True)
    assert meta["scope"] == "searched" and meta["candidates"] == 4
    figures = meta["margin_choice"]["figures"]
    assert [f["weights"] for f in figures] == ["best.npz", "checkpoint.npz"]
    best = max(figures, key=lambda f: f["vs_greedy"])
    assert meta["exported_from"] == best["weights"]
    assert load(tmp_path / "w.npz")[1]["scope"] == "searched"


def test_a_distilled_run_resumes_only_as_one_and_plays_as_measured(tmp_path) -> None:
    from gouji_rules.errors import GoujiError

    Trainer(_config(tmp_path, teacher_worlds=1, branch_rate=0.5)).run(max_decisions=400)
    meta = load(tmp_path / "checkpoint.npz")[1]
    assert (meta["scope"], meta["candidates"], meta["margin"]) == ("searched", 4, 0.25)  # a checkpoint plays so too
    with pytest.raises(GoujiError, match="--teacher-worlds 1"):
        Trainer(_config(tmp_path))  # the same folder without the method it was trained with
    out = export(tmp_path, tmp_path / "w.npz")  # no margins measured: the run's own margin and candidates
    assert (out["scope"], out["candidates"], out["margin"]) == ("searched", 4, 0.25)
    latest = export(tmp_path, tmp_path / "w2.npz", latest=True)  # the checkpoint's weights, unmeasured
    assert latest["exported_from"] == "checkpoint.npz" and "margin_choice" not in latest
    assert latest["decisions"] == load(tmp_path / "checkpoint.npz")[1]["decisions"]


def test_the_distilled_agent_as_behaviour_plays_the_selfplay_hands() -> None:
    net = QNet(OBS_SIZE, ACT_SIZE, TINY, seed=2)
    unit = SelfPlayUnit(0, 7, "dagang", 1, net.p, net.hidden, 0.0, False, 4, 0.3, teacher_worlds=1, margin=0.0)
    learned = run_selfplay(unit)
    greedy = run_selfplay(SelfPlayUnit(0, 7, "dagang", 1, net.p, net.hidden, 0.0, True, 4, 0.3, teacher_worlds=1))
    assert len(learned.target) > 5 and learned.obs.tolist() != greedy.obs.tolist()  # another hand was played


def test_resume_refuses_another_variants_run(tmp_path) -> None:
    Trainer(_config(tmp_path)).run(max_decisions=300)
    from gouji_rules.errors import GoujiError

    with pytest.raises(GoujiError, match="continues a run of 'dagang'"):
        Trainer(_config(tmp_path, variant="dianshaomenla"))


def test_kill_9_mid_run_then_the_same_command_continues_from_the_checkpoint(tmp_path) -> None:
    out = tmp_path / "run"
    proc = subprocess.Popen(train_cmd(out, "--seconds", "120"), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    ckpt = out / "checkpoint.npz"
    deadline = time.monotonic() + 90
    meta = None
    while time.monotonic() < deadline:
        if ckpt.exists():
            meta = load(ckpt)[1]
            if meta["decisions"] > 1000:
                break
        time.sleep(0.2)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert meta is not None and meta["decisions"] > 1000, proc.stderr.read().decode() if proc.stderr else ""
    (out / ".checkpoint.npz.half").write_bytes(b"PK")  # as a kill during a write would leave it
    saved = load(ckpt)[1]  # the checkpoint a kill left is whole (never half-written)
    r = subprocess.run(
        train_cmd(out, "--decisions", str(saved["decisions"] + 300)), capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stderr
    assert f"resuming {out}: {saved['decisions']:,} decisions" in r.stderr
    done = json.loads(r.stdout)
    assert done["decisions"] >= saved["decisions"] + 300 and done["updates"] >= saved["updates"]
    after = load(ckpt)[1]
    assert after["units"] > saved["units"] and after["command"].startswith("gouji train --out")
    assert not [p.name for p in out.iterdir() if p.name.startswith(".")]  # the resumed run cleared it


def test_train_usage_errors_exit_2_and_bad_init_exits_1(tmp_path) -> None:
    r = subprocess.run(train_cmd(tmp_path / "a", "--hidden", "3,4"), capture_output=True, text=True)
    assert r.returncode == 2 and "three positive widths" in r.stderr
    r = subprocess.run(train_cmd(tmp_path / "b", "--init", "nosuch", "--seconds", "1"), capture_output=True, text=True)
    assert r.returncode == 1 and "--init 'nosuch'" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run(train_cmd(tmp_path / "b", "--init", "dagang", "--seconds", "1"), capture_output=True, text=True)
    assert r.returncode == 1 and "neither the shipped weights (learned)" in r.stderr  # one file since session 17
    assert not os.path.exists(tmp_path / "b")  # nothing is made for a run that cannot start
    r = subprocess.run(
        train_cmd(tmp_path / "c", "--teacher-worlds", "2", "--branches", "1"), capture_output=True, text=True
    )
    assert r.returncode == 2 and "at least 2 candidates" in r.stderr


def test_init_fine_tunes_a_club_file_from_the_shipped_weights(tmp_path) -> None:
    from gouji_rules.learn.agent import shipped_weights

    club = tmp_path / "club.yaml"
    club.write_text("extends: dagang\nname: club\nburn:\n  needs_open_point: false\n", encoding="utf-8")
    t = Trainer(_config(tmp_path / "run", variant=str(club), init="learned"))
    shipped = shipped_weights()[0]
    assert t.variant.name == "club" and t.net.hidden == shipped.hidden
    assert all(np.array_equal(t.net.p[k], shipped.p[k]) for k in shipped.p)
    p = t.run(max_decisions=400)
    meta = load(tmp_path / "run" / "checkpoint.npz")[1]
    assert p.updates > 0 and meta["config"]["init"] == "learned"
    # what the start was trained over, and the club: a report then knows what the fine-tuned file has seen
    start = shipped_weights()[1]["trained_over"]
    assert meta["trained_over"] == {"variants": [*start["variants"], "club"], "clubs": start["clubs"]}


def test_the_same_units_on_a_dask_cluster_learn_the_same_network(tmp_path) -> None:
    distributed = pytest.importorskip("distributed")
    local = Trainer(_config(tmp_path / "local", eval_every=100000))
    a = local.run(max_decisions=1500)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, protocol="tcp", host="127.0.0.1", dashboard_address=None
    ) as cluster:
        remote = Trainer(_config(tmp_path / "remote", eval_every=100000, scheduler=cluster.scheduler_address))
        b = remote.run(max_decisions=1500)
    assert (a.decisions, a.samples, a.updates) == (b.decisions, b.samples, b.updates)
    assert all(np.array_equal(local.net.p[k], remote.net.p[k]) for k in local.net.p)


def test_worker_processes_run_the_units(tmp_path) -> None:
    t = Trainer(_config(tmp_path, eval_every=100000, workers=2))
    p = t.run(max_decisions=1500)
    assert p.decisions >= 1500 and p.units >= 2 and p.updates > 0


def test_kill_term_writes_a_last_checkpoint_and_exits_130(tmp_path) -> None:
    out = tmp_path / "run"
    proc = subprocess.Popen(train_cmd(out, "--seconds", "120"), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and not (out / "checkpoint.npz").exists():
        time.sleep(0.2)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and b"checkpoint kept" in err
    assert load(out / "checkpoint.npz")[1]["decisions"] > 0


def test_a_guarded_run_never_makes_its_blunder_in_selfplay(monkeypatch) -> None:
    """``--guards``: the network's seats in self-play play as the exported file will, so the hands after
    a blunder it will never make (the 4s it keeps) are the hands it learns from."""
    from gouji_rules.learn import selfplay
    from gouji_rules.play.blunders import fours_before_open

    made: list[bool] = []

    class Watched(selfplay.LearnedAgent):
        def act(self, obs, legal):  # type: ignore[no-untyped-def]
            action = super().act(obs, legal)
            made.append(bool(fours_before_open(obs, legal, action)))
            return action

    monkeypatch.setattr(selfplay, "LearnedAgent", Watched)
    net = QNet(OBS_SIZE, ACT_SIZE, TINY, seed=4)
    counts = {}
    for guards in ((), ("fours_before_open",)):
        made.clear()
        run_selfplay(SelfPlayUnit(0, 7, "dagang", 3, net.p, net.hidden, 0.0, False, guards=guards))
        counts[guards] = sum(made)
    assert counts[()] > 0 and counts[("fours_before_open",)] == 0, counts


def test_a_guarded_run_writes_its_guards_and_resumes_only_with_them(tmp_path) -> None:
    from gouji_rules.errors import GoujiError
    from gouji_rules.learn.agent import LearnedAgent

    Trainer(_config(tmp_path, guards=("fours_before_open",))).run(max_decisions=300)
    assert load(tmp_path / "checkpoint.npz")[1]["guards"] == ["fours_before_open"]
    with pytest.raises(GoujiError, match="--guards fours_before_open"):
        Trainer(_config(tmp_path))
    out = export(tmp_path, tmp_path / "w.npz")
    assert out["guards"] == ["fours_before_open"]
    assert _fours_led(lambda: LearnedAgent(weights=tmp_path / "w.npz")) == 0  # the file plays guarded
    assert _fours_led(lambda: LearnedAgent(weights=tmp_path / "w.npz", guards=())) > 0


def _fours_led(make) -> int:  # type: ignore[no-untyped-def]
    """4s led before opening in two hands of dagang by six seats of ``make()``."""
    from gouji_rules import catalog
    from gouji_rules.play.blunders import fours_before_open
    from gouji_rules.play.match import play_match

    made = []

    class Watched:
        def __init__(self) -> None:
            self.inner = make()

        def __getattr__(self, name):  # type: ignore[no-untyped-def]
            return getattr(self.inner, name)

        def act(self, obs, legal):  # type: ignore[no-untyped-def]
            action = self.inner.act(obs, legal)
            made.append(bool(fours_before_open(obs, legal, action)))
            return action

    play_match(catalog.resolve("dagang"), seed=9, hands=2, agents=[Watched() for _ in range(6)])
    return sum(made)


def test_train_guards_names_an_unknown_blunder_as_a_usage_error(tmp_path) -> None:
    r = subprocess.run(
        train_cmd(tmp_path / "run", "--guards", "fours_before_open,late_4s"), capture_output=True, text=True
    )
    assert (
        r.returncode == 2 and "late_4s" in r.stderr and "fours_before_open" in r.stderr and "Traceback" not in r.stderr
    )
    assert not (tmp_path / "run").exists()


def test_a_match_run_can_measure_itself_in_matches_and_resumes_only_so(tmp_path) -> None:
    """``--eval-match-hands``: the strength figure plays matches, so a guard that pays only in the next
    hand (点贡 for a closed 开点) is not judged by single hands."""
    from gouji_rules.errors import GoujiError

    Trainer(_config(tmp_path, eval_match_hands=2)).run(max_decisions=300)
    rows = [json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines()]
    assert rows and all(r["match_hands"] == 2 for r in rows)
    meta = export(tmp_path, tmp_path / "w.npz", margins=(0.0,), pairs=1)  # its margins measured so too
    assert meta["margin_choice"]["match_hands"] == 2
    with pytest.raises(GoujiError, match="--eval-match-hands 2"):
        Trainer(_config(tmp_path))


def test_a_run_from_a_guarded_file_trains_and_exports_with_its_guards_unless_told(tmp_path) -> None:
    """A club fine-tuning the shipped file (``--init``, no ``--guards``) keeps the guards its start plays
    with; ``--guards ''`` (an empty tuple said) trains unguarded; a resumed run keeps the guards it has."""
    from gouji_rules.learn.checkpoint import save_weights

    start = tmp_path / "start.npz"
    save_weights(start, QNet(OBS_SIZE, ACT_SIZE, TINY, seed=5), {"guards": ["lone_big_joker"], "variant": "dagang"})
    inherit = _config(tmp_path / "a", init=str(start), guards_from_init=True)
    t = Trainer(inherit)
    assert t.cfg.guards == ("lone_big_joker",)
    t.run(max_decisions=200)
    assert export(tmp_path / "a", tmp_path / "a.npz")["guards"] == ["lone_big_joker"]
    said_none = Trainer(_config(tmp_path / "b", init=str(start), guards_from_init=False))
    assert said_none.cfg.guards == ()
    said_none.run(max_decisions=200)
    assert "guards" not in export(tmp_path / "b", tmp_path / "b.npz")
    # a run trained unguarded resumes as it was, though its --init file now has guards
    assert Trainer(_config(tmp_path / "b", init=str(start), guards_from_init=True)).cfg.guards == ()
    bad = tmp_path / "bad.npz"
    save_weights(bad, QNet(OBS_SIZE, ACT_SIZE, TINY, seed=5), {"guards": ["no_such"], "variant": "dagang"})
    with pytest.raises(WeightsError, match="no blunder named 'no_such'"):
        Trainer(_config(tmp_path / "c", init=str(bad), guards_from_init=True))
