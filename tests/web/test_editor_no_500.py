"""The rules editor never answers 500 (issue 30 item 3).

Each input the third attack battery found to break it (a lone surrogate, a NUL, an over-long or
special path, an installed extension that fails to load or cannot even say why) gets a refusal in
Chinese on the page, and the page opens again afterwards.  The TestClient raises any exception a
handler lets out, so these tests also fail on a traceback.
"""

from __future__ import annotations

import importlib.metadata
import os
import stat
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gouji_rules.cli import main
from gouji_rules.parts import plugins, registry
from gouji_rules.web import editor as editor_module

from .test_editor import CLUB, Form, client, diags, post, refusal


@pytest.fixture
def club(tmp_path: Path) -> Path:
    f = tmp_path / "qingdao.yaml"
    f.write_text(CLUB, encoding="utf-8")
    return f


def opens(c: Any) -> str:
    r = c.get("/")
    assert r.status_code == 200, r.text
    return str(r.text)


def test_an_escaped_lone_surrogate_in_the_title_is_refused_and_the_page_still_opens(club: Path) -> None:
    c = client(club)
    text = CLUB + 'title: "青岛\\ud800"\n'
    r = post(c, opens(c), "save", text=text)
    assert r.status_code == 200 and "规则有错，没有保存" in refusal(r.text)
    assert any("\\ud800 是不成对的代理字符" in d for d in diags(r.text)), diags(r.text)
    assert club.read_text(encoding="utf-8") == CLUB
    opens(c)
    club.write_text(text, encoding="utf-8")  # written by another program: the page opens and says why
    page = opens(c)
    assert any("代理字符" in d for d in diags(page)) and "title: &#34;青岛\\ud800&#34;" in page  # the text as written
    r = post(c, page, "save", burn__counter="victim")
    assert "规则有错" in refusal(r.text) and club.read_text(encoding="utf-8") == text
    r = post(c, page, "try")
    assert r.status_code == 200 and "不能试打" in refusal(r.text)


def test_a_raw_lone_surrogate_in_the_form_or_the_file_is_refused(club: Path) -> None:
    c = client(club)
    fields = Form(opens(c)).fields
    body = "&".join(
        f"{k}={'%ED%A0%80' if k == 'text' else __import__('urllib.parse').parse.quote(v)}" for k, v in fields.items()
    )
    r = c.post("/", content=body + "&do=save", headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code < 500 and club.read_text(encoding="utf-8") == CLUB
    club.write_bytes(b"extends: dagang\ntitle: \xed\xa0\x80\n")  # a surrogate encoded as UTF-8 bytes (CESU-8)
    page = opens(c)
    assert "不是 UTF-8 文本" in refusal(page)


def test_a_nul_in_the_text_or_the_path_is_refused(club: Path) -> None:
    c = client(club)
    page = opens(c)
    r = post(c, page, text="extends: dagang\x00\n")
    assert r.status_code == 200 and diags(r.text)
    r = post(c, page, text='extends: "dag\\0ang.yaml"\n')  # a NUL written as an escape reaches the loader
    assert r.status_code == 200 and any("NUL" in d for d in diags(r.text)), diags(r.text)
    for do in ("check", "save", "try"):
        r = post(c, page, do, path=str(club.parent / "a\x00.yaml"))
        assert r.status_code == 200, do
    assert "文件名里有 NUL 字符" in refusal(r.text) or "不能试打" not in refusal(r.text)
    r = post(c, page, "save", path=str(club.parent / "a\x00.yaml"))
    assert "文件名里有 NUL 字符" in refusal(r.text)
    assert club.read_text(encoding="utf-8") == CLUB
    opens(c)


def test_an_over_long_path_is_refused(club: Path) -> None:
    c = client(club)
    page = opens(c)
    for path in [str(club.parent / ("a" * 300 + ".yaml")), str(club.parent) + "/" + "a/" * 2100 + "x.yaml"]:
        for do in ("check", "save"):
            r = post(c, page, do, path=path)
            assert r.status_code == 200
        assert "文件名太长" in refusal(r.text), refusal(r.text)
    r = post(c, page, text="extends: " + "a" * 300 + ".yaml\n")
    assert r.status_code == 200 and diags(r.text)
    opens(c)


def test_a_path_that_is_a_folder_a_fifo_or_a_device_is_refused_and_never_read(club: Path) -> None:
    c = client(club)
    page = opens(c)
    fifo = club.parent / "pipe.yaml"
    os.mkfifo(fifo)
    folder = club.parent / "folder.yaml"
    folder.mkdir()
    for path, words in [(fifo, "管道"), (folder, "文件夹")]:
        r = post(c, page, "save", path=str(path))
        assert words in refusal(r.text), refusal(r.text)
    r = post(c, page, text="extends: pipe.yaml\n")  # a FIFO as a parent is refused, never opened for reading
    assert r.status_code == 200 and any("pipe.yaml" in d for d in diags(r.text))
    club.unlink()
    os.mkfifo(club)  # the file the editor was started on, replaced by a FIFO: no hang, no 500
    threading.Thread(target=unblock, args=(club,), daemon=True).start()
    page = opens(c)
    assert "打不开" in refusal(page) and "管道" in refusal(page)
    club.unlink()
    club.mkdir()
    assert "打不开" in refusal(opens(c))
    club.rmdir()
    device = club.parent / "null.yaml"
    try:
        os.mknod(club, 0o600 | stat.S_IFCHR, os.makedev(1, 3))  # /dev/null's numbers, where the file was
        os.mknod(device, 0o600 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        return  # only root makes devices
    assert "打不开" in refusal(opens(c)) and "设备" in refusal(opens(c))
    r = post(c, page, "save", path=str(device))
    assert "设备" in refusal(r.text), refusal(r.text)


def unblock(fifo: Path, seconds: float = 10) -> None:
    """Should anything open ``fifo`` to read it, let it read nothing after all, so that a regression
    fails its test instead of hanging it."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:  # no reader (ENXIO), or the FIFO is gone: as it should be
            time.sleep(0.2)


@pytest.fixture
def broken_extension(monkeypatch: pytest.MonkeyPatch) -> None:
    """An installed extension whose import fails, and whose exception cannot even be printed."""

    class Unprintable(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no words")

    class EntryPoint:
        name, value, attr = "club", "gouji_club_broken", None

        def load(self) -> None:
            raise Unprintable()

    monkeypatch.setattr(plugins, "_state", {})
    monkeypatch.setattr(plugins, "_failed", [])
    monkeypatch.setattr(plugins, "may_have_extensions", lambda: True)
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **_kw: [EntryPoint()])
    monkeypatch.setattr(registry, "_plugins_loaded", False)


def test_an_extension_whose_exception_cannot_be_printed_is_refused_in_one_line(broken_extension: None) -> None:
    with pytest.raises(plugins.ExtensionError) as caught:
        plugins.load_installed()
    assert str(caught.value) == (
        "extension 'club' (gouji_club_broken, entry point group gouji_rules.extensions) failed to load: "
        "Unprintable (its message cannot be printed)"
    )
    r = CliRunner().invoke(main, ["validate", "dagang"])
    assert r.exit_code == 1 and "Traceback" not in r.output and "failed to load" in r.output, r.output


def test_a_failing_extension_is_a_refusal_on_the_page_and_the_page_opens_once_it_is_mended(
    club: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    c = client(club)
    page = opens(c)
    request.getfixturevalue("broken_extension")
    for r in (c.get("/"), post(c, page, "save", burn__counter="victim")):
        assert r.status_code == 503 and "已安装的扩展加载失败" in r.text and "club" in r.text, r.status_code
    assert club.read_text(encoding="utf-8") == CLUB
    monkeypatch.undo()
    opens(c)


def test_any_other_failure_in_a_handler_is_a_refusal_not_a_500(club: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    c = client(club)
    page = opens(c)

    def broken(*_a: object) -> None:
        raise RuntimeError("an unforeseen state")

    monkeypatch.setattr(editor_module.Editor, "check", broken)
    for r in (c.get("/"), post(c, page, "save", burn__counter="victim")):
        assert r.status_code == 400 and "这次请求没有完成（RuntimeError）" in r.text and "文件没有改动" in r.text
    assert club.read_text(encoding="utf-8") == CLUB
    monkeypatch.undo()
    opens(c)
