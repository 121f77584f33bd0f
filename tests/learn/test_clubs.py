"""Club files drawn from the ranges real clubs use (issue 32, item 3): every draw is a valid variant
file that plays, a seed gives the same file, the held-out club files are never drawn, docs/research.md
prints the ranges as the module has them, and ``gouji train`` plays several variants and drawn clubs."""

import subprocess
import sys
from pathlib import Path

from gouji_rules.dsl import check_text
from gouji_rules.learn import clubs
from gouji_rules.learn.checkpoint import load
from gouji_rules.learn.train import TrainConfig, Trainer
from gouji_rules.play.agents import GreedyAgent
from gouji_rules.sim import play_hand

ROOT = Path(__file__).resolve().parents[2]


def test_200_drawn_files_pass_validate_and_play_a_hand() -> None:
    for i in range(200):
        text = clubs.club_text(11, i)
        checked = check_text(text, f"club_{i}.yaml")
        assert checked.variant is not None and not checked.errors, (text, [str(e) for e in checked.errors])
        hand = play_hand(checked.variant, i, [GreedyAgent() for _ in range(6)])
        assert hand.is_over


def test_a_few_drawn_files_pass_gouji_validate(tmp_path) -> None:
    paths = []
    for i in range(3):
        p = tmp_path / f"club_{i}.yaml"
        p.write_text(clubs.club_text(5, i), encoding="utf-8")
        paths.append(str(p))
    r = subprocess.run([sys.executable, "-m", "gouji_rules.cli", "validate", *paths], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_a_seed_gives_the_same_file_and_another_seed_another() -> None:
    assert clubs.club_text(3, 7) == clubs.club_text(3, 7)
    assert [clubs.club_text(3, i) for i in range(5)] != [clubs.club_text(4, i) for i in range(5)]


def test_a_drawn_file_is_never_a_held_out_club_file() -> None:
    held = clubs.held_out_fingerprints()
    assert len(held) == 3
    assert all(v.fingerprint() not in held for v in clubs.draw_clubs(100, 2))
    # the guard redraws: a draw whose rules are "held out" is replaced by another
    first = clubs.draw(2, 0)[1]
    text, again = clubs.draw(2, 0, avoid={first.fingerprint()})
    assert again.fingerprint() != first.fingerprint() and "club_2_0_1" in text


def test_docs_research_prints_the_ranges_the_module_draws_from() -> None:
    assert clubs.markdown_table() in (ROOT / "docs" / "research.md").read_text(encoding="utf-8")


def test_a_run_over_several_variants_and_drawn_clubs_plays_them_in_turn_and_says_so(tmp_path) -> None:
    cfg = TrainConfig(
        variant="dagang", out=str(tmp_path), seed=3, hands_per_unit=1, batch=32, buffer=2000, hidden=(16, 8, 8),
        eval_every=10**6, eval_pairs=1, also=("dianshaomenla",), draw_clubs=2,
    )  # fmt: skip
    t = Trainer(cfg)
    assert [getattr(t.unit(i).source, "name", t.unit(i).source) for i in range(5)] == [
        "dagang", "dianshaomenla", "club_3_0", "club_3_1", "dagang",
    ]  # fmt: skip
    t.run(max_decisions=300)
    over = load(tmp_path / "checkpoint.npz")[1]["trained_over"]
    assert over["variants"] == ["dagang", "dianshaomenla"]
    assert over["clubs"]["count"] == 2 and over["clubs"]["ranges"]["burn.needs_open_point"] == [True, False]
    again = Trainer(TrainConfig(**{**cfg.__dict__, "also": ("liufu_ying",), "draw_clubs": 0}))
    assert again.resumed and again.trained_over() == {
        "variants": ["dagang", "dianshaomenla", "liufu_ying"],
        "clubs": over["clubs"],
    }


def test_gouji_train_takes_variant_twice_and_draw_clubs(tmp_path) -> None:
    base = [
        sys.executable, "-m", "gouji_rules.cli", "train", "--seed", "5", "--hidden", "16,8,8", "--batch", "32",
        "--hands-per-unit", "1", "--eval-pairs", "1", "--eval-every", "100000", "--decisions", "200",
    ]  # fmt: skip
    r = subprocess.run(
        [*base, "--out", str(tmp_path / "a"), "--variant", "dagang", "--variant", "dianshaomenla", "--draw-clubs", "1"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert load(tmp_path / "a" / "checkpoint.npz")[1]["trained_over"]["variants"] == ["dagang", "dianshaomenla"]
    held = str(ROOT / "examples" / "clubs" / "qingdao.yaml")
    r = subprocess.run(
        [*base, "--out", str(tmp_path / "b"), "--variant", "dagang", "--variant", held], capture_output=True, text=True
    )
    assert r.returncode == 1 and "kept out of training" in r.stderr and not (tmp_path / "b").exists()
    for bad in ("-1", "5001"):
        r = subprocess.run([*base, "--out", str(tmp_path / "c"), "--draw-clubs", bad], capture_output=True, text=True)
        assert r.returncode == 2 and "--draw-clubs" in r.stderr
    r = subprocess.run(
        [*base, "--out", str(tmp_path / "d"), "--variant", "dagang", "--variant", "dagang"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 2 and "given twice" in r.stderr


def test_turns_play_a_variant_more_often_in_each_round(tmp_path) -> None:
    cfg = TrainConfig(
        variant="dagang", out=str(tmp_path), seed=3, hands_per_unit=1, batch=32, buffer=2000, hidden=(16, 8, 8),
        eval_every=10**6, eval_pairs=1, also=("dianshaomenla",), turns=(("dianshaomenla", 3),), draw_clubs=1,
    )  # fmt: skip
    t = Trainer(cfg)
    assert [getattr(t.unit(i).source, "name", t.unit(i).source) for i in range(6)] == [
        "dagang", "dianshaomenla", "dianshaomenla", "dianshaomenla", "club_3_0", "dagang",
    ]  # fmt: skip
    assert t.trained_over()["variants"] == ["dagang", "dianshaomenla"]


def test_gouji_train_turns_are_checked_before_any_work(tmp_path) -> None:
    base = [sys.executable, "-m", "gouji_rules.cli", "train", "--out", str(tmp_path / "r"), "--variant", "dagang"]
    for turns, said in (
        ("dianshaomenla=2", "not one of the --variant given"),
        ("dagang=0", "K a whole number 1 to 100"),
        ("dagang", "VARIANT=K"),
        ("dagang=x", "VARIANT=K"),
    ):
        r = subprocess.run([*base, "--turns", turns], capture_output=True, text=True)
        assert r.returncode == 2 and said in r.stderr and "Traceback" not in r.stderr, (turns, r.stderr)
    r = subprocess.run([*base, "--turns", "dagang=2", "--turns", "dagang=3"], capture_output=True, text=True)
    assert r.returncode == 2 and "given twice" in r.stderr
    assert not (tmp_path / "r").exists()
