"""用这套规则打一局 (issue 33 item 2): the editor opens a room with the draft as typed, one tap to open it
and one to enter it; a draft with errors is refused in Chinese; the editor's token and cookies stay out
of the room's link."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from gouji_rules.room.core import PERSON

from .test_editor import CLUB, client, post, refusal


def _launched() -> tuple[list[Any], Any]:
    apps: list[Any] = []

    def launch(make_app: Any) -> int:
        apps.append(make_app(8123))
        return 8123

    return apps, launch


def test_the_editor_opens_a_room_with_the_draft_as_typed(tmp_path: Path) -> None:
    club = tmp_path / "qingdao.yaml"
    club.write_text(CLUB, encoding="utf-8")
    apps, launch = _launched()
    c = client(club, launch=launch)
    typed = CLUB + 'title: "青岛试打"\n'  # typed, not saved: the room plays it all the same
    r = post(c, c.get("/").text, "room", text=typed)
    assert r.status_code == 200 and not refusal(r.text)
    link = html.unescape(re.search(r'id="room-link" href="([^"]+)"', r.text)[1])  # type: ignore[index]
    assert link.startswith("http://127.0.0.1:8123/r/") and "token" not in link and "#" in link
    assert club.read_text(encoding="utf-8") == CLUB  # nothing written
    room = apps[0].state.room
    assert room.variant.title == "青岛试打" and [s.who for s in room.seats] == [PERSON] + ["simple"] * 5
    code, secret = link.split("/r/")[1].split("#")
    with TestClient(apps[0]) as rc:
        page = rc.get(f"/r/{code}")
        assert page.status_code == 200 and "set-cookie" not in page.headers
        with rc.websocket_connect(f"/r/{code}/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "secret": secret}))
            assert json.loads(ws.receive_text())["seat"] == 0


def test_a_draft_with_errors_opens_no_room_and_says_why_in_chinese(tmp_path: Path) -> None:
    apps, launch = _launched()
    c = client(None, launch=launch)
    r = post(c, c.get("/").text, "room", text="extends: dagang\ndeck: {packs: -1}\n")
    assert r.status_code == 200 and "规则有错，不能开房间打" in refusal(r.text) and apps == []
    assert 'id="room-link"' not in r.text


def test_the_host_page_in_chromium_shows_a_qr_per_person_and_the_seats(browser: Any) -> None:
    """The host link ``gouji room serve`` prints first, opened in Chromium (its CSP lets the page fetch its
    state and draw the QR codes)."""
    import subprocess
    import sys

    from selenium.webdriver.common.by import By

    from .conftest import ROOT, free_port, open_page, wait_for

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gouji_rules.cli", "room", "serve", "dagang", "--people", "2", "--hands", "1",
         "--seed", "3", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        host = proc.stdout.readline().split(": ", 1)[1].strip()
        open_page(browser, host, "#seats")
        wait_for(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#seats .seat svg")) == 2, "two QR codes")
        seats = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#seats .seat")]
        assert seats[0].startswith("座位 1：真人") and seats[5].startswith("座位 6：贪心机器人")
        assert "比分" in browser.find_element(By.ID, "progress").text
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_from_the_editor_a_room_with_five_agents_takes_two_taps_in_chromium(tmp_path: Path, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    from .conftest import open_page, wait_for, wait_text
    from .test_editor_secret import printed_address, start_edit

    club = tmp_path / "qingdao.yaml"
    club.write_text(CLUB, encoding="utf-8")
    proc, port = start_edit(club)
    try:
        open_page(browser, printed_address(proc), "form")
        taps = 0
        browser.find_element(By.CSS_SELECTOR, 'button[name="do"][value="room"]').click()
        taps += 1
        link = wait_for(browser, lambda d: d.find_elements(By.ID, "room-link"), "the room's link")[0]
        assert "token" not in link.get_attribute("href")
        browser.get(link.get_attribute("href"))  # the link opens a new tab; the same page in this one
        taps += 1
        wait_text(browser, "我是座位 1", "#scores")
        assert taps == 2
        # a browser sends 127.0.0.1's cookies to every port: the editor's reach the room's server (which reads
        # none and sets none) but are httpOnly, so the room's page cannot read them
        assert browser.execute_script("return document.cookie") == ""
        assert {c["name"] for c in browser.get_cookies()} <= {"gouji_csrf", *(f"gouji_edit_{port}",)}
    finally:
        proc.terminate()
        proc.wait(timeout=10)
