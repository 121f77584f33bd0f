"""``gouji club``: the organiser's home, from which a secretary reaches the editor, new and open nights, the season."""

from __future__ import annotations

import tomllib
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from gouji_rules.web.club_home import ClubConfig, club_url, create_club_app

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = "张三\n李四\n王五\n赵六\n钱七\n孙八\n"


class FakeLaunch:
    """Stands for the sub-server thread: keeps each application by the port it was made for."""

    def __init__(self) -> None:
        self.apps: dict[int, Any] = {}

    def __call__(self, make: Callable[[int], Any]) -> int:
        port = 9100 + len(self.apps)
        self.apps[port] = make(port)
        return port

    def client(self, url: str) -> TestClient:
        port = urllib.parse.urlsplit(url).port
        assert port is not None
        return TestClient(self.apps[port], base_url=f"http://127.0.0.1:{port}", follow_redirects=False)


def home(folder: Path) -> tuple[TestClient, ClubConfig, FakeLaunch]:
    launch = FakeLaunch()
    config = ClubConfig(folder=folder, launch=launch, log=lambda _m: None)
    client = TestClient(create_club_app(config), base_url="http://127.0.0.1:8020", follow_redirects=False)
    r = client.get(club_url(config).replace("http://127.0.0.1:8020", ""))
    assert r.status_code == 303
    return client, config, launch


def test_the_club_extra_installs_the_web_pages_and_the_season() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["optional-dependencies"]
    assert set(extras["club"]) >= {"gouji_rules[web]", "gouji_rules[season]"}


def test_the_home_needs_the_printed_token(tmp_path: Path) -> None:
    config = ClubConfig(folder=tmp_path, launch=FakeLaunch(), log=lambda _m: None)
    stranger = TestClient(create_club_app(config), base_url="http://127.0.0.1:8020", follow_redirects=False)
    for method, path in [("GET", "/"), ("POST", "/rules/new"), ("POST", "/nights/new"), ("GET", "/season")]:
        r = stranger.request(method, path)
        assert r.status_code == 403 and "gouji club" in r.text and "启动时打印的地址" in r.text
    assert stranger.get("/?token=wrong").status_code == 403
    assert "token=" in club_url(config) and config.token in club_url(config)


def test_the_home_lists_the_folders_rules_and_nights(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text("extends: dagang\n", encoding="utf-8")
    (tmp_path / "老规矩.yml").write_text("extends: qingdao\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    (tmp_path / "sub.yaml").mkdir()
    client, _config, _launch = home(tmp_path)
    r = client.get("/")
    assert r.status_code == 200
    assert "house.yaml" in r.text and "老规矩.yml" in r.text
    assert "notes.txt" not in r.text and "sub.yaml" not in r.text
    assert "新建规则" in r.text and "新建比赛" in r.text and "打印规则表" in r.text
    assert 'name="viewport"' in r.text


def test_new_rules_opens_the_editor_on_the_folder_with_its_token(tmp_path: Path) -> None:
    client, _config, launch = home(tmp_path)
    r = client.post("/rules/new")
    assert r.status_code == 303
    url = r.headers["location"]
    assert url.startswith("http://127.0.0.1:9100/?token=")
    editor = launch.client(url)
    assert editor.get("/").status_code == 403  # the editor keeps its own gate
    first = editor.get(url.replace("http://127.0.0.1:9100", ""))
    assert first.status_code == 303
    page = editor.get("/")
    assert page.status_code == 200 and 'name="path"' in page.text
    assert client.post("/rules/new").headers["location"] != url  # each new rules is a new draft


def test_edit_opens_the_editor_on_that_file_and_refuses_others(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text("extends: dagang\n", encoding="utf-8")
    client, _config, launch = home(tmp_path)
    url = client.post("/rules/edit", data={"file": "house.yaml"}).headers["location"]
    editor = launch.client(url)
    editor.get(url.replace("http://127.0.0.1:9100", ""))
    assert "house.yaml" in editor.get("/").text
    assert client.post("/rules/edit", data={"file": "house.yaml"}).headers["location"] == url  # reused
    for bad in ["../etc/passwd", "/etc/passwd", "nothere.yaml", ""]:
        r = client.post("/rules/edit", data={"file": bad})
        assert r.status_code == 404 and "文件夹里没有这个文件" in r.text


def test_the_rule_sheet_prints_as_explain_writes_it(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text("extends: dagang\n", encoding="utf-8")
    (tmp_path / "broken.yaml").write_text("extends: [\n", encoding="utf-8")
    client, _config, _launch = home(tmp_path)
    r = client.get("/rules/sheet", params={"file": "house.yaml"})
    assert r.status_code == 200 and 'lang="zh' in r.text
    bad = client.get("/rules/sheet", params={"file": "broken.yaml"})
    assert bad.status_code == 400 and "没有完成" in bad.text


def test_new_night_creates_the_night_file(tmp_path: Path) -> None:
    client, _config, _launch = home(tmp_path)
    form = {"name": "十二月第一周", "file": "2026-12-04", "variant": "dagang", "players": PLAYERS}
    r = client.post("/nights/new", data=form)
    assert r.status_code == 303
    assert (tmp_path / "2026-12-04.sqlite").is_file()
    assert "2026-12-04.sqlite" in client.get("/").text
    again = client.post("/nights/new", data=form)
    assert again.status_code == 409 and "不会覆盖" in again.text


@pytest.mark.parametrize(
    ("form", "words"),
    [
        ({"name": "", "players": PLAYERS}, "比赛名称"),
        ({"name": "x", "players": "张三\n李四\n"}, "6 的倍数"),
        ({"name": "x", "players": PLAYERS + "张三\n" * 6}, "写了两次"),
        ({"name": "x", "file": "../up", "players": PLAYERS}, "文件名"),
        ({"name": "x", "variant": "nosuch", "players": PLAYERS}, "没有这套规则"),
    ],
)
def test_a_bad_new_night_is_refused_in_chinese_and_writes_nothing(
    tmp_path: Path, form: dict[str, str], words: str
) -> None:
    client, _config, _launch = home(tmp_path)
    r = client.post("/nights/new", data=form)
    assert 400 <= r.status_code < 500 and words in r.text
    assert not list(tmp_path.glob("*.sqlite")) and not list(tmp_path.parent.glob("up*"))


def test_open_night_and_the_season_serve_the_folders_nights(tmp_path: Path) -> None:
    client, _config, launch = home(tmp_path)
    assert "还没有比赛" in client.get("/season").text
    client.post("/nights/new", data={"name": "第一晚", "file": "a", "players": PLAYERS})
    r = client.post("/nights/open", data={"file": "a.sqlite"})
    assert r.status_code == 303 and "/admin/" in r.headers["location"]
    assert "赛季排名" in client.get("/").text and 'href="/season"' in client.get("/").text
    season = client.get("/season").headers["location"]
    assert season.endswith("/season")
    night = launch.client(season)
    with night:
        assert night.get("/season").status_code == 200


def test_a_post_from_the_page_itself_is_taken_and_one_from_another_site_refused(tmp_path: Path) -> None:
    client, _config, _launch = home(tmp_path)
    form = {"name": "第一晚", "file": "a", "players": PLAYERS}
    # the page's Referrer-Policy no-referrer makes Chromium send "Origin: null" for its own forms
    assert client.post("/nights/new", data=form, headers={"Origin": "null"}).status_code == 303
    evil = client.post("/nights/new", data={**form, "file": "b"}, headers={"Origin": "https://evil.example"})
    assert evil.status_code == 403 and "本机" in evil.text and not (tmp_path / "b.sqlite").exists()
