"""``gouji club``: 让手机录入 serves a night to the phones of the room without a terminal (issue 34 item 1:
the one step a secretary who never used a terminal could not do was ``gouji event serve --host 0.0.0.0``)."""

from __future__ import annotations

import re
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from gouji_rules.web.club_home import ClubConfig, club_url, create_club_app
from gouji_rules.web.lan import lan_addresses

from .test_club_home import PLAYERS, FakeLaunch


def _home(folder: Path, addresses: list[str], lan: object | None = None) -> tuple[TestClient, FakeLaunch]:
    launch = FakeLaunch()
    config = ClubConfig(
        folder=folder,
        launch=launch,
        lan_launch=lan or launch,  # type: ignore[arg-type]
        lan_address=lambda: addresses,
        log=lambda _m: None,
    )
    client = TestClient(create_club_app(config), base_url="http://127.0.0.1:8020", follow_redirects=False)
    assert client.get(club_url(config).replace("http://127.0.0.1:8020", "")).status_code == 303
    client.post("/nights/new", data={"name": "第一晚", "file": "a", "players": PLAYERS})
    return client, launch


def test_the_phones_button_serves_the_night_with_links_at_the_local_address(tmp_path: Path) -> None:
    client, launch = _home(tmp_path, ["192.168.1.20"])
    page = client.get("/").text
    assert 'action="/nights/phones"' in page and "让手机录入" in page and "gouji event serve" not in page
    r = client.post("/nights/phones", data={"file": "a.sqlite"})
    assert r.status_code == 303
    admin = r.headers["location"]
    assert admin.startswith("http://192.168.1.20:") and "/admin/" in admin
    night = launch.client(admin)
    with night:
        body = night.get(urllib.parse.urlsplit(admin).path).text
    table_links = re.findall(r"http://[0-9.]+:\d+/t/[\w-]+", body)
    assert table_links and all(link.startswith("http://192.168.1.20:") for link in table_links)
    again = client.post("/nights/phones", data={"file": "a.sqlite"}).headers["location"]
    assert again == admin and len(launch.apps) == 1  # one server a night, however often it is tapped


def test_no_local_network_is_said_in_chinese_and_starts_nothing(tmp_path: Path) -> None:
    client, launch = _home(tmp_path, [])
    r = client.post("/nights/phones", data={"file": "a.sqlite"})
    assert r.status_code == 503 and "请先连上 Wi-Fi" in r.text and not launch.apps


def test_only_the_home_with_its_token_serves_a_night_to_the_phones(tmp_path: Path) -> None:
    config = ClubConfig(folder=tmp_path, launch=FakeLaunch(), lan_launch=FakeLaunch(), log=lambda _m: None)
    stranger = TestClient(create_club_app(config), base_url="http://127.0.0.1:8020", follow_redirects=False)
    assert stranger.post("/nights/phones", data={"file": "a.sqlite"}).status_code == 403


def test_a_phone_on_the_network_opens_its_table_link(tmp_path: Path) -> None:
    """The real launcher binds every address: a request to the machine's own network address (not
    127.0.0.1) reaches the night, as a phone's would."""
    found = lan_addresses()
    if not found:
        pytest.skip("this machine has no local network address")
    from gouji_rules.web.launch import launch_lan_thread

    client, _launch = _home(tmp_path, found, launch_lan_thread)
    admin = client.post("/nights/phones", data={"file": "a.sqlite"}).headers["location"]
    assert urllib.parse.urlsplit(admin).hostname == found[0]
    with urllib.request.urlopen(admin, timeout=10) as r:
        page = r.read().decode()
    link = re.findall(r"http://[0-9.]+:\d+/t/[\w-]+", page)[0]
    with urllib.request.urlopen(link, timeout=10) as r:
        assert r.status == 200 and "第一晚" in r.read().decode()
