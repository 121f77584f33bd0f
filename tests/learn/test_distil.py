"""One network from several (``learn.distil``, ``training/distil.py``): positions labelled by each
variant's own teacher, a student that learns to choose as they do, and a script that refuses bad input
and writes a file that plays."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gouji_rules.catalog import dagang, dianshaomenla
from gouji_rules.learn import distil
from gouji_rules.learn.agent import LearnedAgent, pick
from gouji_rules.learn.checkpoint import load_weights, save_weights
from gouji_rules.learn.features import ACT_SIZE, GREEDY_AT, OBS_SIZE
from gouji_rules.learn.net import QNet
from gouji_rules.sim import play_hand

SCRIPT = Path(__file__).resolve().parents[2] / "training" / "distil.py"
META = {"margin": 0.1, "candidates": 4, "scope": "all"}


def _nets() -> list[QNet]:
    return [QNet(OBS_SIZE, ACT_SIZE, (16, 8, 8), seed=s) for s in (1, 2, 3)]


def test_each_position_is_labelled_by_its_variants_teacher_whoever_plays() -> None:
    """A dagang position carries dagang's teacher's Q, a dianshaomenla one its own teacher's, also in
    the rounds where the student plays (DAgger: the student's positions, the teacher's values)."""
    t_dagang, t_s0, student = _nets()
    got = distil.collect([(dagang(), t_dagang), (dianshaomenla(), t_s0)], META, 2, 1, 5, student)
    assert {"dagang", "dianshaomenla"} == set(got.variant)
    for o, a, t, v in zip(got.obs, got.acts, got.target, got.variant, strict=True):
        teacher = t_dagang if v == "dagang" else t_s0
        assert np.allclose(t, teacher.q(o, a), atol=1e-5)
        assert not np.allclose(t, student.q(o, a), atol=1e-5)
        assert 1 <= len(a) <= META["candidates"]  # the rows the agent chooses among, no more


def test_the_student_comes_to_choose_as_the_teacher_does() -> None:
    """Fitted on the teacher's positions, a student that chose otherwise plays as the teacher on
    positions it was not fitted on, and its Q comes near the teacher's."""
    teacher, _, student = _nets()
    got = distil.collect([(dagang(), teacher)], {**META, "margin": 0.0}, 8, 1, 7)
    train, held = got.split(5)
    before = distil.agreement(student, held, 0.0)
    distil.fit(student, train, epochs=200, lr=3e-3, batch=256)
    after = distil.agreement(student, held, 0.0)
    assert after["mse"] < before["mse"] / 4, (before, after)
    assert after["all"] > before["all"] + 0.25


def test_pick_keeps_greedys_action_unless_the_argmax_beats_it_by_the_margin() -> None:
    acts = np.zeros((3, ACT_SIZE), np.float32)
    acts[1, GREEDY_AT] = 1.0
    q = np.array([1.05, 1.0, 0.2], np.float32)
    assert pick(q, acts, 0.1) == 1
    assert pick(q, acts, 0.01) == 0


def test_from_meta_plays_a_weights_file_as_its_meta_says() -> None:
    net = _nets()[0]
    meta = {
        "margin": 0.25,
        "candidates": 3,
        "scope": "searched",
        "learned_kinds": ["lead"],
        "guards": ["lone_big_joker"],
    }
    a = LearnedAgent.from_meta(net, meta)
    assert (a.margin, a.candidates, a.scope, set(a.learned_kinds or ()), tuple(a.guards or ())) == (
        0.25,
        3,
        "searched",
        {"lead"},
        ("lone_big_joker",),
    )
    assert tuple(LearnedAgent.from_meta(net, meta, ()).guards or ()) == ()


def _teacher_file(tmp_path: Path, name: str, seed: int) -> Path:
    path = tmp_path / f"{name}.npz"
    save_weights(path, QNet(OBS_SIZE, ACT_SIZE, (16, 8, 8), seed=seed), {**META, "variant": name})
    return path


def test_distil_script_writes_one_file_that_plays_both_variants(tmp_path: Path) -> None:
    a, b = _teacher_file(tmp_path, "dagang", 1), _teacher_file(tmp_path, "dianshaomenla", 2)
    dest = tmp_path / "one.npz"
    cmd = [sys.executable, str(SCRIPT), str(dest), "--teacher", f"dagang={a}", "--teacher", f"dianshaomenla={b}"]
    cmd += [
        "--matches",
        "2",
        "--match-hands",
        "1",
        "--rounds",
        "2",
        "--epochs",
        "0.5",
        "--draw-clubs",
        "1",
        "--turns",
        "1",
    ]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert set(json.loads(r.stdout)) >= {"all", "mse"}
    net, meta, _ = load_weights(dest)
    d = meta["distilled"]
    assert [x["behaviour"] for x in d["rounds"]] == ["teachers", "student"]
    assert set(d["teachers"]) == {"dagang", "dianshaomenla"}
    assert (
        meta["trained_over"]["variants"] == ["dagang", "dianshaomenla"] and meta["trained_over"]["clubs"]["count"] == 1
    )
    assert meta["command"].startswith("python training/distil.py")
    for v in (dagang(), dianshaomenla()):
        play_hand(v, 3, [LearnedAgent.from_meta(net, meta) for _ in range(6)])


@pytest.mark.parametrize(
    "extra",
    [["--teacher", "dagang=/nonexistent.npz"], ["--teacher", "nosuchvariant={bad}"], ["--teacher", "dagang={bad}"]],
)
def test_distil_script_refuses_bad_input_in_one_line_and_writes_nothing(tmp_path: Path, extra: list[str]) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a weights file")
    good = _teacher_file(tmp_path, "dagang", 1)
    extra = [e.format(bad=good if "nosuch" in e else bad) for e in extra]
    dest = tmp_path / "one.npz"
    r = subprocess.run(
        [sys.executable, str(SCRIPT), str(dest), *extra, "--matches", "1"], capture_output=True, text=True
    )
    assert r.returncode == 1, r.stderr
    assert r.stderr.startswith("distil: ") and len(r.stderr.strip().splitlines()) == 1
    assert not dest.exists()


@pytest.mark.parametrize("where", ["missing-folder", "folder", "a-teacher"])
def test_distil_script_refuses_a_destination_it_cannot_write_before_any_work(tmp_path: Path, where: str) -> None:
    """A run takes half an hour: a destination that cannot be written is refused at once, in one line."""
    good = _teacher_file(tmp_path, "dagang", 1)
    dest = {"missing-folder": tmp_path / "no" / "one.npz", "folder": tmp_path, "a-teacher": good}[where]
    before = good.read_bytes()
    cmd = [sys.executable, str(SCRIPT), str(dest), "--teacher", f"dagang={good}", "--matches", "1"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 1 and r.stderr.startswith("distil: ") and len(r.stderr.strip().splitlines()) == 1
    assert "round 1" not in r.stderr and good.read_bytes() == before


def test_distil_script_usage_errors_exit_2(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path / "x.npz"), "--rounds", "0"], capture_output=True, text=True
    )
    assert r.returncode == 2 and not (tmp_path / "x.npz").exists()


def test_an_ensemble_teacher_gives_its_members_mean_q() -> None:
    """``MeanQ``: the teacher an ensemble makes values every action at the mean of its networks' Q."""
    a, b, c = _nets()
    mean = distil.MeanQ([a, b, c])
    got = distil.collect([(dagang(), mean)], META, 1, 1, 3)
    for o, acts, t in zip(got.obs, got.acts, got.target, strict=True):
        assert np.allclose(t, (a.q(o, acts) + b.q(o, acts) + c.q(o, acts)) / 3, atol=1e-5)
    with pytest.raises(ValueError, match="at least one"):
        distil.MeanQ([])
    with pytest.raises(ValueError, match="same columns"):
        distil.MeanQ([a, QNet(OBS_SIZE + 1, ACT_SIZE, (16, 8, 8))])


def test_guarded_collection_plays_no_guarded_blunder(monkeypatch: pytest.MonkeyPatch) -> None:
    """The positions of a guarded distillation are those the guarded file meets: its recorded seats
    never play the blunders named (where an unguarded one does)."""
    from gouji_rules.learn import agent as agent_module
    from gouji_rules.play.blunders import fours_before_open

    made: list[bool] = []
    real_act = agent_module.LearnedAgent.act

    def act(self, obs, legal):  # type: ignore[no-untyped-def]
        action = real_act(self, obs, legal)
        made.append(bool(fours_before_open(obs, legal, action)))
        return action

    monkeypatch.setattr(agent_module.LearnedAgent, "act", act)
    teacher = _nets()[0]
    every = {**META, "margin": 0.0, "candidates": 0}  # the network's own choice among every legal action
    distil.collect([(dianshaomenla(), teacher)], every, 4, 2, 9, opponents=("self",))
    assert any(made)  # the untrained net leads 4s before opening somewhere
    made.clear()
    distil.collect([(dianshaomenla(), teacher)], every, 4, 2, 9, opponents=("self",), guards=("fours_before_open",))
    assert made and not any(made)


def test_distil_script_distils_an_ensemble_guarded(tmp_path: Path) -> None:
    """``--ensemble`` twice: one teacher for both variants, named by file in the meta with its digest;
    ``--guards``: written in the file, which then plays guarded."""
    import hashlib

    a, b = _teacher_file(tmp_path, "dagang", 1), _teacher_file(tmp_path, "dianshaomenla", 2)
    dest = tmp_path / "one.npz"
    cmd = [sys.executable, str(SCRIPT), str(dest), "--ensemble", str(a), "--ensemble", str(b)]
    cmd += ["--guards", "fours_before_open,lone_big_joker", "--matches", "2", "--match-hands", "1"]
    cmd += ["--rounds", "1", "--epochs", "0.5", "--draw-clubs", "0"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    net, meta, _ = load_weights(dest)
    d = meta["distilled"]
    assert meta["guards"] == d["guards"] == ["fours_before_open", "lone_big_joker"]
    assert {Path(t["file"]).name for t in d["teachers"].values()} == {"dagang.npz", "dianshaomenla.npz"}
    for t in d["teachers"].values():
        assert t["sha256"] == hashlib.sha256(Path(t["file"]).read_bytes()).hexdigest()[:16]
    assert "ensemble" in d["teacher"] and meta["trained_over"]["variants"] == ["dagang", "dianshaomenla"]
    assert LearnedAgent.from_meta(net, meta).guards == ["fours_before_open", "lone_big_joker"]


@pytest.mark.parametrize(
    "extra",
    [
        ["--guards", "no_such_blunder"],
        ["--teacher", "dagang={a}", "--ensemble", "{a}"],
        ["--variant", "dagang"],
        ["--ensemble", "{a}", "--ensemble", "{a}"],
    ],
)
def test_distil_script_refuses_mixed_or_unknown_teachers_and_guards_as_usage(tmp_path: Path, extra: list[str]) -> None:
    a = _teacher_file(tmp_path, "dagang", 1)
    dest = tmp_path / "one.npz"
    extra = [e.format(a=a) for e in extra]
    r = subprocess.run([sys.executable, str(SCRIPT), str(dest), *extra], capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr and not dest.exists(), r.stderr


def test_ensemble_strength_measures_the_mean_of_files_as_one_guarded_agent(tmp_path: Path) -> None:
    """``training/ensemble_strength.py``: the ensemble's team against a baseline on duplicate deals, one
    JSON row per variant and baseline naming the files and guards; a guard that is no blunder: exit 2."""
    a, b = _teacher_file(tmp_path, "dagang", 1), _teacher_file(tmp_path, "dianshaomenla", 2)
    script = SCRIPT.parent / "ensemble_strength.py"
    cmd = [sys.executable, str(script), str(a), str(b), "--guards", "fours_before_open", "--variants", "dagang"]
    r = subprocess.run(
        [*cmd, "--against", "greedy", "--pairs", "2", "--match-hands", "1"], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr
    (row,) = json.loads(r.stdout)
    assert (row["team_b"], row["pairs"], row["guards"], row["files"]) == (
        "greedy",
        2,
        ["fours_before_open"],
        [str(a), str(b)],
    )
    assert row["ci95"][0] <= row["mean_points_per_hand"] <= row["ci95"][1]
    bad = subprocess.run([*cmd[:4], "--guards", "nope"], capture_output=True, text=True)
    assert bad.returncode == 2 and "no blunder named 'nope'" in bad.stderr and "Traceback" not in bad.stderr
