"""The club home's editor and nights, as the whole-story test found them (issue 34 item 7).

A secretary who types a bare file name in the editor the home opened means the club's folder, wherever
``gouji club`` was started; the editor and the night pages lead back to the home; a rules file named by
its Chinese title prints that title once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette")

from gouji_rules import dsl
from gouji_rules.dsl.explain import sheet

from .test_club_home import PLAYERS, home
from .test_editor import post, refusal


def test_a_file_name_typed_in_the_homes_editor_is_saved_in_the_clubs_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "俱乐部"
    folder.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # gouji club started from another folder (a desktop shortcut, a terminal's home)
    client, _config, launch = home(folder)
    url = client.post("/rules/new").headers["location"]
    editor = launch.client(url)
    editor.get(url.replace(url.split("/?")[0], ""))
    page = editor.get("/").text
    assert 'class="lang home" href="http://127.0.0.1:8020/"' in page  # back to the home
    r = post(editor, page, "save", path="青岛家规.yaml", title="青岛家规", scoring__points="2、1、0、0、-1、-2")
    assert refusal(r.text) == "" and "已保存到" in r.text
    saved = folder / "青岛家规.yaml"
    assert dsl.load_file(saved).title == "青岛家规" and list(elsewhere.iterdir()) == []
    # opened again from the home: the path shown is the name in the folder, and saving it writes there
    url = client.post("/rules/edit", data={"file": "青岛家规.yaml"}).headers["location"]
    again = launch.client(url)
    again.get(url.replace(url.split("/?")[0], ""))
    page = again.get("/").text
    assert 'value="青岛家规.yaml"' in page
    r = post(again, page, "save", scoring__points="3、1、0、0、-1、-3")
    assert refusal(r.text) == "" and list(dsl.load_file(saved).scoring.points) == [3, 1, 0, 0, -1, -3]


def test_the_night_opened_from_the_home_links_back_to_it(tmp_path: Path) -> None:
    client, _config, launch = home(tmp_path)
    r = client.post("/nights/new", data={"name": "十二月第一周", "variant": "dagang", "players": PLAYERS})
    assert r.status_code == 303
    admin = client.post("/nights/open", data={"file": "十二月第一周.sqlite"}).headers["location"]
    with launch.client(admin) as night:
        for page in (admin, "/", "/season"):
            text = night.get(page.replace(admin.split("/admin")[0], "")).text
            assert 'class="lang home" href="http://127.0.0.1:8020/"' in text, page


def test_a_rules_file_named_by_its_title_prints_the_title_once() -> None:
    variant = dsl.load_text("title: 青岛家规\nextends: dagang\n", "青岛家规.yaml")
    assert sheet(variant, "zh").title == "青岛家规"
    other = dsl.load_text("title: 青岛家规\nextends: dagang\n", "qingdao.yaml")
    assert sheet(other, "zh").title == "青岛家规（qingdao）"


@pytest.mark.parametrize("typed", ["../逃出去.yaml", "子目录/../../逃出去.yaml", "/tmp/逃出去.yaml"])
def test_a_path_typed_in_the_homes_editor_stays_in_the_clubs_folder(tmp_path: Path, typed: str) -> None:
    folder = tmp_path / "俱乐部"
    folder.mkdir()
    client, _config, launch = home(folder)
    url = client.post("/rules/new").headers["location"]
    editor = launch.client(url)
    editor.get(url.replace(url.split("/?")[0], ""))
    r = post(editor, editor.get("/").text, "save", path=typed)
    assert "不在编辑器启动时所在的文件夹" in refusal(r.text)
    assert not (tmp_path / "逃出去.yaml").exists() and not Path("/tmp/逃出去.yaml").exists()
