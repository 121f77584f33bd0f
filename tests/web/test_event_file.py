"""The served event file under attack: another writer holding the lock, a full disk, the file deleted or replaced
while the server runs, a revoked secret, a weak secret, an oversized body, and the sheets printed per side."""

from __future__ import annotations

import json
import os
import re
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from gouji_rules.tournament.event import Tournament
from gouji_rules.web.app import Config, State, create_app
from gouji_rules.web.links import Seat

from .conftest import make_event
from .test_app import FINISH, Club
from .test_serve_cli import serve


@pytest.fixture
def logged(tmp_path: Path) -> Iterator[tuple[Club, list[str]]]:
    event = make_event(tmp_path / "spring.sqlite")
    log: list[str] = []
    app = create_app(Config(event_path=event, log=log.append, busy_seconds=5.0))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield Club(client, event), log


def _state(club: Club) -> State:
    st: State = club.c.app.state.gouji  # type: ignore[attr-defined]
    return st


def _audit(event: Path) -> list[str]:
    with Tournament.open(event, write=False) as ev:
        return [a["action"] for a in ev.db.audit()]


def _is_project_page(r: Any, text: str) -> None:
    assert text in r.text, r.text
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert r.headers["x-frame-options"] == "DENY" and r.headers["content-type"].startswith("text/html")
    assert "Traceback" not in r.text


def test_a_second_writer_holding_the_lock_gets_a_503_page_while_the_standings_are_served(
    logged: tuple[Club, list[str]],
) -> None:
    club, log = logged
    csrf = club.csrf(f"{club.link(1, 1, 0)}/hand/1")
    other = sqlite3.connect(club.event, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # `gouji event record` (or a stuck program) holding the write lock
    answer: dict[str, Any] = {}

    def enter() -> None:
        started = time.monotonic()
        answer["r"] = club.post(f"{club.link(1, 1, 0)}/hand/1", {"csrf": csrf, **FINISH})
        answer["done"] = time.monotonic()
        answer["seconds"] = answer["done"] - started

    try:
        phone = threading.Thread(target=enter)
        phone.start()
        time.sleep(0.5)
        assert phone.is_alive()  # its change waits for the lock (5 s here)
        assert club.c.get("/").status_code == 200 and club.c.get("/rounds/1").status_code == 200
        read_at = time.monotonic()
        phone.join(timeout=60)
        assert not phone.is_alive()
        assert read_at < answer["done"], "the standings waited behind the blocked write"
    finally:
        other.execute("ROLLBACK")
        other.close()
    r = answer["r"]
    assert r.status_code == 503 and answer["seconds"] < 30
    _is_project_page(r, "活动文件正忙")
    assert any("busy" in line for line in log)
    assert _audit(club.event) == []
    assert club.enter(1, 0).status_code == 303  # the lock released: the same entry goes through


def test_the_busy_page_speaks_the_readers_language(logged: tuple[Club, list[str]]) -> None:
    club, _ = logged
    club.c.get("/?lang=en")  # the reader chose English
    csrf = club.csrf(f"{club.link(1, 1, 0)}/hand/1")
    other = sqlite3.connect(club.event, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        r = club.post(f"{club.link(1, 1, 0)}/hand/1", {"csrf": csrf, **FINISH})
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert r.status_code == 503
    _is_project_page(r, "the event file is busy")
    assert "活动文件" not in r.text


def test_a_full_disk_is_a_507_page_and_nothing_half_written(logged: tuple[Club, list[str]]) -> None:
    club, _ = logged
    con = _state(club).writer.db.con
    pages = con.execute("PRAGMA page_count").fetchone()[0]
    con.execute(f"PRAGMA max_page_count = {pages}")
    codes = []
    for tbl in (1, 2):
        for hand in (1, 2):
            for rnd in (1, 2, 3):
                base = club.link(rnd, tbl, 0)
                csrf = club.csrf(f"{base}/hand/{hand}")
                r = club.post(f"{base}/hand/{hand}", {"csrf": csrf, **FINISH})
                codes.append(r.status_code)
                if r.status_code == 507:
                    _is_project_page(r, "磁盘已满")
    assert 507 in codes and set(codes) <= {303, 507}
    assert len(_audit(club.event)) == codes.count(303)  # each refused entry left nothing behind
    con.execute("PRAGMA max_page_count = 1073741823")
    assert club.enter(1, 0, hand=2).status_code in (303, 409)


class FailingCommit:
    """The writing connection, but COMMIT fails (a full disk, an I/O error) after SQLite rolled back itself."""

    def __init__(self, con: sqlite3.Connection, error: str = "database or disk is full") -> None:
        self.con = con
        self.error = error

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT":
            self.con.execute("ROLLBACK")
            raise sqlite3.OperationalError(self.error)
        return self.con.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.con, name)


def test_a_failed_commit_then_rollback_is_a_507_page_not_a_500(logged: tuple[Club, list[str]]) -> None:
    club, _ = logged
    db = _state(club).writer.db
    real = db.con
    db.con = FailingCommit(real)  # type: ignore[assignment]
    try:
        r = club.enter(1, 0)
    finally:
        db.con = real
    assert r.status_code == 507
    _is_project_page(r, "磁盘已满")
    assert _audit(club.event) == [] and not real.in_transaction
    assert club.enter(1, 0).status_code == 303


def test_a_confirmation_whose_commit_hits_an_io_error_is_a_503_page_and_stays_waiting(
    logged: tuple[Club, list[str]],
) -> None:
    club, log = logged
    assert club.enter(1, 0).status_code == 303
    audit = club.pending_audit(1, 1)
    db = _state(club).writer.db
    real = db.con
    db.con = FailingCommit(real, "disk I/O error")  # type: ignore[assignment]
    try:
        r = club.post(f"{club.link(1, 1, 1)}/hand/1/confirm", {"csrf": club.csrf(), "audit": audit})
    finally:
        db.con = real
    assert r.status_code == 503  # the file failed, not the hand: no 409 "someone changed it"
    _is_project_page(r, "活动文件")
    assert any("disk I/O error" in line for line in log)
    assert _audit(club.event) == ["enter"] and club.stored() == 0
    ok = club.post(f"{club.link(1, 1, 1)}/hand/1/confirm", {"csrf": club.csrf(), "audit": audit})
    assert ok.status_code == 303 and club.stored() == 1


def test_an_event_file_deleted_while_serving_takes_no_entry(logged: tuple[Club, list[str]]) -> None:
    club, log = logged
    assert club.enter(1, 0).status_code == 303
    audit = club.pending_audit(1, 1)
    keep = club.event.with_suffix(".kept")
    os.link(club.event, keep)  # to look inside afterwards
    club.event.unlink()
    r = club.enter(2, 0)
    assert r.status_code == 503
    _is_project_page(r, "被删除或替换")
    csrf = club.csrf()
    confirm = club.post(f"{club.link(1, 1, 1)}/hand/1/confirm", {"csrf": csrf, "audit": audit})
    assert confirm.status_code == 503
    assert any("deleted or moved" in line for line in log)
    standings = club.c.get("/")  # nor does it show standings that vanish when it stops
    assert standings.status_code == 503
    _is_project_page(standings, "被删除或替换")
    con = sqlite3.connect(keep)
    assert [a for (a,) in con.execute("SELECT action FROM audit")] == ["enter"]  # only what came before
    con.close()


def test_an_event_file_replaced_while_serving_takes_no_entry_and_gets_nothing_mixed_in(
    logged: tuple[Club, list[str]], tmp_path: Path
) -> None:
    club, _ = logged
    assert club.enter(1, 0).status_code == 303
    (tmp_path / "restore").mkdir()
    restored = make_event(tmp_path / "restore" / "spring.sqlite")
    os.replace(restored, club.event)  # a restore, or a copy from a stick, moved into place
    r = club.enter(1, 0, hand=2)
    assert r.status_code == 503
    _is_project_page(r, "被删除或替换")
    assert _audit(club.event) == []  # the new file has nothing of the old one, not even from the old WAL


def test_new_links_on_another_server_revoke_the_links_of_a_running_one(logged: tuple[Club, list[str]]) -> None:
    club, _ = logged
    old = club.link(1, 1, 0)
    assert club.c.get(old).status_code == 200
    second = State(Config(event_path=club.event, new_links=True, log=lambda m: None))
    try:
        second.start()  # `gouji event serve FILE --new-links`, started while this server runs
        new = f"/t/{second.links.token(Seat(1, 1, 0))}"
    finally:
        second.close()
    assert club.c.get(old).status_code == 403  # the leaked link dies here too, at once
    assert club.c.get(new).status_code == 200


def _secret(event: Path) -> str | None:
    con = sqlite3.connect(event)
    row = con.execute("SELECT value FROM meta WHERE key = 'web_secret'").fetchone()
    con.close()
    return None if row is None else str(json.loads(row[0]))


def test_new_links_on_a_busy_port_fail_before_replacing_the_secret(tmp_path: Path) -> None:
    event = make_event(tmp_path / "e.sqlite")
    State(Config(event_path=event, log=lambda m: None)).start()  # a first start drew the secret
    before = _secret(event)
    assert before is not None
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        r = serve(str(event), "--port", str(busy.getsockname()[1]), "--new-links")
    assert r.returncode == 1 and "cannot listen" in r.stderr and "Traceback" not in r.stderr
    assert _secret(event) == before  # every printed QR code still works, the running server is unchanged


@pytest.mark.parametrize("weak", ["", "abc", "x" * 31, "a b" * 20])
def test_a_weak_secret_is_refused_and_new_links_replaces_it(tmp_path: Path, weak: str) -> None:
    event = make_event(tmp_path / "e.sqlite")
    con = sqlite3.connect(event)
    con.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('web_secret', ?)", (json.dumps(weak),))
    con.commit()
    con.close()
    r = serve(str(event), "--port", "1")
    assert r.returncode == 1 and "damaged" in r.stderr and "web_secret" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    state = State(Config(event_path=event, new_links=True, log=lambda m: None))
    try:
        state.start()
    finally:
        state.close()
    fresh = _secret(event)
    assert fresh is not None and fresh != weak and len(fresh) >= 43


def test_a_secret_weakened_while_serving_opens_no_table(logged: tuple[Club, list[str]]) -> None:
    club, log = logged
    link = club.link(1, 1, 0)
    con = sqlite3.connect(club.event)
    con.execute("UPDATE meta SET value = '\"\"' WHERE key = 'web_secret'")
    con.commit()
    con.close()
    r = club.c.get(link)
    assert r.status_code == 503
    _is_project_page(r, "活动文件")
    assert any("web_secret" in line for line in log)
    assert club.c.get("/").status_code == 200  # reading needs no link


def test_an_oversized_body_gets_the_projects_413_page_in_the_readers_language(logged: tuple[Club, list[str]]) -> None:
    club, _ = logged
    base = club.link(1, 1, 0)
    form = {"content-type": "application/x-www-form-urlencoded"}
    big = club.c.post(f"{base}/hand/1", content=b"p1=" + b"9" * 20_000, headers=form, follow_redirects=False)
    assert big.status_code == 413
    _is_project_page(big, "表单内容太多")

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit holds while the body is read
        for _ in range(40):
            yield b"9" * 1000

    chunked = club.c.post(f"{base}/hand/1", content=chunks(), headers=form, follow_redirects=False)
    assert chunked.status_code == 413
    _is_project_page(chunked, "表单内容太多")
    english = club.c.post(
        f"{base}/hand/1?lang=en", content=b"p1=" + b"9" * 20_000, headers=form, follow_redirects=False
    )
    assert english.status_code == 413
    _is_project_page(english, "larger than")
    assert _audit(club.event) == []


def test_each_side_gets_its_own_printed_page_with_only_its_own_link(logged: tuple[Club, list[str]]) -> None:
    club, _ = logged
    sheet = club.c.get(f"{club.admin}/print/1").text
    pages = re.findall(r'<section class="sheet" data-side="([AB])">(.*?)</section>', sheet, re.S)
    assert [side for side, _ in pages] == ["A", "B", "A", "B"]  # two tables, a page per side
    for (side, body), tbl in zip(pages, (1, 1, 2, 2), strict=True):
        own = club.link(1, tbl, "AB".index(side))
        other = club.link(1, tbl, 1 - "AB".index(side))
        assert body.count("<svg") == 1 and own in body and other not in body
    # the page of side A cannot confirm what side A entered
    assert club.enter(1, 0).status_code == 303
    audit = club.pending_audit(1, 0)
    own = club.post(f"{club.link(1, 1, 0)}/hand/1/confirm", {"csrf": club.csrf(), "audit": audit})
    assert own.status_code == 403 and _audit(club.event) == ["enter"]
