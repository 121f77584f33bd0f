"""A hook's number is checked where the hook makes it: a clear error naming the hook and its file,
never a traceback in ``event record``, and a bot event keeps every match finished before it."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from gouji_rules import dsl
from gouji_rules.dsl import expr
from gouji_rules.dsl.expr import HOOK_INT_MAX, HookValueError
from gouji_rules.tournament.errors import EventError
from gouji_rules.tournament.event import Tournament
from gouji_rules.tournament.run import run_event

from .conftest import gouji

HUGE = 'extends: dagang\nname: huge\nhooks:\n  team_score: "sum(points) * 99999999999 * 99999999999"\n'
BOTS = "a=greedy,b=random,c=greedy,d=random,e=greedy,f=random"


def test_a_score_beyond_the_bound_names_the_hook_and_the_file(tmp_path: Path) -> None:
    club = tmp_path / "club.yaml"
    club.write_text(HUGE, encoding="utf-8")
    v = dsl.load_file(club)  # it validates: only running it makes the number
    with pytest.raises(HookValueError) as caught:
        v.rules.team_scores([1, 2, 3, 4, 5, 6])
    e = caught.value
    assert e.hook == "team_score" and e.value == 2 * 99999999999**2  # seats 0 2 4 took places 1 3 5: 4 + 0 - 2
    assert str(e).startswith(f"{club}:4:15: hook team_score gave ") and "outside -1,000,000,000" in str(e)


def test_the_bound_itself_is_a_score(tmp_path: Path) -> None:
    club = tmp_path / "club.yaml"
    club.write_text(f'extends: dagang\nname: edge\nhooks:\n  team_score: "{HOOK_INT_MAX} + 0 * sum(points)"\n')
    assert dsl.load_file(club).rules.team_scores([1, 2, 3, 4, 5, 6]) == (HOOK_INT_MAX, HOOK_INT_MAX)


def balanced(n: int) -> str:
    """A product of ``n`` 18-digit numbers that nests only log2(n) deep (expressions nest 60 deep at most)."""
    return "999999999999999999" if n == 1 else f"({balanced(n // 2)} * {balanced(n - n // 2)})"


def test_a_number_of_thousands_of_digits_is_named_by_its_size(tmp_path: Path) -> None:
    club = tmp_path / "club.yaml"
    product = balanced(64)  # 1,152 digits
    club.write_text(f'extends: dagang\nname: vast\nhooks:\n  sweep_multiplier: "{product}"\n', encoding="utf-8")
    with pytest.raises(HookValueError, match=r"a number of 1,15[0-9] digits"):
        dsl.load_file(club).rules.sweep_multiplier(True)


def test_a_pickled_hook_keeps_where_it_is_written(tmp_path: Path) -> None:
    club = tmp_path / "club.yaml"
    club.write_text(HUGE, encoding="utf-8")
    hook = pickle.loads(pickle.dumps(dsl.load_file(club).hooks["team_score"]))
    with pytest.raises(HookValueError, match=f"^{club}:4:15: hook team_score"):
        hook({"points": [1, 0, 0], "places": [1, 3, 5], "sweep": False})


def test_event_new_refuses_rules_that_cannot_score_every_finish(tmp_path: Path) -> None:
    """The 720 finishes are every hand an event can store: one out of range is named when the event is made."""
    club = tmp_path / "club.yaml"
    club.write_text(HUGE, encoding="utf-8")
    players = tmp_path / "players.csv"
    players.write_text("name\n" + "".join(f"p{i}\n" for i in range(6)), encoding="utf-8")
    ev = tmp_path / "cup.sqlite"
    r = gouji("event", "new", str(ev), "--name", "cup", "--players", str(players), "--variant", str(club))
    assert r.exit_code == 1
    assert r.stderr.count("\n") == 1 and "no event was created" in r.stderr and "for the finish 0 1 2 3 4 5" in r.stderr
    assert "hook team_score gave" in r.stderr and "club.yaml:4:15" in r.stderr
    assert not list(tmp_path.glob("cup.sqlite*"))


def test_event_record_refuses_the_hand_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An event made before ``event new`` checked the scores: each hand is still refused where it is scored."""
    from gouji_rules.tournament import event

    club = tmp_path / "club.yaml"
    club.write_text(HUGE, encoding="utf-8")
    players = tmp_path / "players.csv"
    players.write_text("name\n" + "".join(f"p{i}\n" for i in range(6)), encoding="utf-8")
    ev = tmp_path / "cup.sqlite"
    monkeypatch.setattr(event, "check_scores", lambda variant: None, raising=False)
    assert (
        gouji("event", "new", str(ev), "--name", "cup", "--players", str(players), "--variant", str(club)).exit_code
        == 0
    )
    monkeypatch.undo()
    r = gouji("event", "record", str(ev), "--round", "1", "--table", "1", "--hand", "1", "--finish", "0 1 2 3 4 5")
    assert r.exit_code == 1
    assert r.stderr.count("\n") == 1 and "hook team_score gave" in r.stderr and "club.yaml:4:15" in r.stderr
    with Tournament.open(ev, write=False) as e:
        assert not e.db.hands()


def test_a_bot_event_keeps_the_matches_played_before_the_hook_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bound made small, so that some hands are in range and others not: the run stops at the first
    match with a hand out of range, before storing it, and keeps every match stored before it.  The event is
    made as before ``event new`` tried every finish (which now refuses these rules)."""
    from gouji_rules.tournament import event

    monkeypatch.setattr(expr, "HOOK_INT_MAX", 3)
    monkeypatch.setattr(event, "check_scores", lambda variant: None, raising=False)
    club = tmp_path / "club.yaml"
    club.write_text('extends: dagang\nname: small\nhooks:\n  team_score: "sum(points)"\n', encoding="utf-8")
    for seed in range(30):
        ev = tmp_path / f"ev{seed}.sqlite"
        r = gouji(
            "event", "new", str(ev), "--name", "ev", "--variant", str(club), "--bots", BOTS, "--rounds", "4",
            "--hands", "1", "--no-duplicate", "--seed", str(seed),
        )  # fmt: skip
        assert r.exit_code == 0, r.output
        with Tournament.open(ev) as e, pytest.raises(EventError) as caught:
            run_event(e)
        with Tournament.open(ev, write=False) as e:
            stored = len(e.db.stored_units())
            assert all(max(map(abs, h.scores)) <= 3 * 2 for h in e.db.hands())  # x2: a sweep's multiplier
        assert "hook team_score gave" in str(caught.value) and "the run stops: this match is not stored" in str(
            caught.value
        )
        assert f"the {stored} stored before it are kept" in str(caught.value)
        if stored:
            assert gouji("verify", str(ev)).exit_code == 0
            return
    pytest.fail("no seed played a match in range before one out of range")


def test_records_whose_rules_overflow_are_problems_not_an_abort(tmp_path: Path) -> None:
    """Records carrying rules whose hook overflows (fingerprint and all): each hand is one problem, and
    verify goes on to the next (it stopped at the first before)."""
    import json

    from gouji_rules.tournament.variant_copy import variant_from_rules

    out = tmp_path / "r.jsonl"
    assert gouji("simulate", "--hands", "2", "--records", str(out), "--quiet").exit_code == 0
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    lines[0]["rules"]["hooks"] = {"team_score": "sum(points) * 99999999999 * 99999999999"}
    fingerprint = variant_from_rules(lines[0]["rules"]).rules.fingerprint
    out.write_text("".join(json.dumps({**x, "variant_hash": fingerprint}) + "\n" for x in lines), encoding="utf-8")
    r = gouji("verify", str(out))
    assert r.exit_code == 1
    problems = [ln for ln in r.stdout.splitlines() if "hook team_score gave" in ln]
    assert len(problems) == 2 and problems[1].startswith(f"{out}:3: hand 2: error:")
    assert "2 record(s) read, 0 verified, 2 problem(s)" in r.output
