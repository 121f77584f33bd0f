"""A web confirmation and ``gouji event correct`` on one hand at once: the second is refused (issue 30 item 4).

Both carry what they saw: the confirmation the entry it was shown (its audit id), the correction the
hand's revision (the audit id of its last change), and each compares it inside its own write
transaction.  So of the two, exactly one changes the hand and the other says the hand changed under it.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gouji_rules.tournament import club
from gouji_rules.tournament.club import Entry
from gouji_rules.tournament.errors import HandChanged
from gouji_rules.tournament.event import Tournament
from gouji_rules.web import tables

from .conftest import gouji

R0, WEB, CLI = "0 1 2 3 4 5", ["5", "4", "3", "2", "1", "0"], "1 0 2 3 4 5"
TRIALS = 30


def _event(tmp_path: Path, players_csv: Path, hands: int = 8) -> Path:
    ev = tmp_path / "race.sqlite"
    r = gouji("event", "new", str(ev), "--name", "race", "--players", str(players_csv), "--hands", str(hands))
    assert r.exit_code == 0, r.output
    return ev


def _key(hand: int) -> list[str]:
    return ["--round", "1", "--table", "1", "--hand", str(hand)]


def _entered(ev: Path, hand: int = 1) -> int:
    """Hand ``hand`` recorded as R0, then side A's correction to WEB waiting on the web: its audit id."""
    assert gouji("event", "record", str(ev), *_key(hand), "--finish", R0).exit_code == 0
    with Tournament.open(ev) as e:
        return tables.enter(e, 0, Entry(1, 1, hand, list(WEB))).audit_id


def _finish(ev: Path, hand: int = 1) -> str:
    with Tournament.open(ev, write=False) as e:
        row = e.db.hand(1, 1, hand)
        assert row is not None
        return " ".join(map(str, row.result["finish"]))


def _changes(ev: Path, hand: int = 1) -> list[str]:
    with Tournament.open(ev, write=False) as e:
        return [a["action"] for a in e.db.audit() if a["hand"] == hand and a["action"] in ("record", "correct")]


def test_a_confirmation_after_a_correction_it_did_not_see_is_refused(
    tmp_path: Path, players_csv: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The confirmation has read the waiting entry; ``event correct`` lands before it writes."""
    ev = _event(tmp_path, players_csv)
    audit = _entered(ev)
    store = tables._store

    def correct_first(*args: Any, **kw: Any) -> list[club.Scored]:
        r = gouji("event", "correct", str(ev), *_key(1), "--finish", CLI)
        assert r.exit_code == 0, r.output
        return store(*args, **kw)

    monkeypatch.setattr(tables, "_store", correct_first)
    with Tournament.open(ev) as e, pytest.raises(HandChanged, match="changed after the entry being confirmed"):
        tables.confirm(e, 1, 1, 1, 1, audit)
    assert _finish(ev) == CLI and _changes(ev) == ["record", "correct"]


def test_a_correction_after_a_confirmation_it_did_not_see_is_refused(
    tmp_path: Path, players_csv: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``event correct`` has worked its change out from R0; the web confirmation lands before it writes."""
    ev = _event(tmp_path, players_csv)
    audit = _entered(ev)
    record = club.record
    done: list[bool] = []

    def confirm_first(*args: Any, **kw: Any) -> list[club.Scored]:
        if not done:
            done.append(True)
            with Tournament.open(ev) as web:
                tables.confirm(web, 1, 1, 1, 1, audit)
        return record(*args, **kw)

    monkeypatch.setattr(club, "record", confirm_first)
    r = gouji("event", "correct", str(ev), *_key(1), "--finish", CLI)
    assert r.exit_code == 1
    assert r.stderr.count("\n") == 1 and "was changed by another command or on the web" in r.stderr
    assert "nothing was changed" in r.stderr and not r.stdout
    assert _finish(ev) == " ".join(WEB) and _changes(ev) == ["record", "correct"]


def _racing(ev: Path, barrier: threading.Barrier, hand: int, audit: int) -> dict[str, BaseException | None]:
    """The confirmation and the correction, each on its own connection, released together to write."""
    outcome: dict[str, BaseException | None] = {}

    def run(name: str, work: Callable[[Tournament], object]) -> None:
        try:
            with Tournament.open(ev) as e:
                work(e)
            outcome[name] = None
        except BaseException as exc:  # the loser's refusal is the outcome under test
            outcome[name] = exc

    threads = [
        threading.Thread(name="web", target=run, args=("web", lambda e: tables.confirm(e, 1, 1, 1, hand, audit))),
        threading.Thread(
            name="cli",
            target=run,
            args=("cli", lambda e: club.correct(e, [("command line", Entry(1, 1, hand, CLI.split()))])),
        ),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    barrier.reset()
    return outcome


def test_racing_many_times_exactly_one_lands(
    tmp_path: Path, players_csv: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both have read what they act on before either goes on (a barrier): the confirmation the waiting
    entry, the correction the hand it works its change out from.  Each time one lands, the other is
    refused with HandChanged, and the stored hand and audit trail are the winner's alone."""
    ev = _event(tmp_path, players_csv, hands=TRIALS)
    barrier = threading.Barrier(2, timeout=30)
    record, store = club.record, tables._store
    jitter = random.Random(30)
    delays = {h: (jitter.uniform(0, 0.01), jitter.uniform(0, 0.003)) for h in range(1, TRIALS + 1)}
    hand = 0

    def cli_waits(*args: Any, **kw: Any) -> list[club.Scored]:
        if threading.current_thread().name == "cli":
            barrier.wait()
            time.sleep(delays[hand][1])
        return record(*args, **kw)

    def web_waits(*args: Any, **kw: Any) -> list[club.Scored]:
        barrier.wait()
        time.sleep(delays[hand][0])  # every order: before, during and after the other's write
        return store(*args, **kw)

    winners = []
    for hand in range(1, TRIALS + 1):
        audit = _entered(ev, hand)
        monkeypatch.setattr(club, "record", cli_waits)
        monkeypatch.setattr(tables, "_store", web_waits)
        outcome = _racing(ev, barrier, hand, audit)
        monkeypatch.setattr(club, "record", record)
        monkeypatch.setattr(tables, "_store", store)
        assert sorted(outcome) == ["cli", "web"]
        won = [name for name, exc in outcome.items() if exc is None]
        assert len(won) == 1, outcome
        lost = outcome["web" if won == ["cli"] else "cli"]
        assert isinstance(lost, HandChanged), repr(lost)
        assert _finish(ev, hand) == (" ".join(WEB) if won == ["web"] else CLI)
        assert _changes(ev, hand) == ["record", "correct"]
        winners.append(won[0])
    assert len(winners) == TRIALS
    print(f"winners: web {winners.count('web')}, cli {winners.count('cli')}")
