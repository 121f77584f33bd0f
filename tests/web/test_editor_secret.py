"""``gouji edit`` behind a secret (issue 30 item 1): a token on every request, and the organiser's
folder as the only place it reads or writes.

The third attack battery, as another account of the same machine, took the CSRF cookie with
``GET /``, posted ``extends: <a 0600 file>`` and read the file line by line off the page, and saved
a ``planted.yaml`` into a 0700 folder.  Here each of those is tried against the app (Starlette's
TestClient) and against the real command.
"""

from __future__ import annotations

import http.client
import os
import re
import selectors
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from gouji_rules.cli import main
from gouji_rules.web.editor import EditorConfig, create_editor_app, editor_url

from .test_editor import CLUB, Form, client, diags, post, refusal

SECRET = "extends: dagang\nburn:\n  counter: SECRET-LINE-7f3a  # the organiser's private note\n"


@pytest.fixture
def club(tmp_path: Path) -> Path:
    folder = tmp_path / "club"
    folder.mkdir()
    f = folder / "qingdao.yaml"
    f.write_text(CLUB, encoding="utf-8")
    return f


def stranger(path: Path) -> tuple[TestClient, EditorConfig]:
    """A client of a running editor that never saw the printed address."""
    config = EditorConfig(path=path, log=lambda _m: None, hosts=("testserver",))
    return TestClient(create_editor_app(config), follow_redirects=False), config


def refused(r: object) -> bool:
    text = getattr(r, "text", "")
    return getattr(r, "status_code", 0) == 403 and "gouji edit" in text and "teammate" not in text


# -- the token -----------------------------------------------------------------------------------


def test_every_route_refuses_a_request_without_the_token(club: Path) -> None:
    c, _ = stranger(club)
    for path in ["/", "/?base=dianshaomenla", "/static/editor.js", "/static/style.css", "/report/x", "/nosuch"]:
        r = c.get(path)
        assert refused(r), (path, r.status_code)
        assert "启动时打印的地址" in r.text  # says, in Chinese, where the way in is
    assert c.head("/").status_code == 403
    assert "gouji_csrf" not in c.cookies  # no CSRF token handed to whoever asks any more
    fields = {"csrf": "x" * 43, "path": str(club), "text": "extends: dagang\n", "do": "save"}
    c.cookies.set("gouji_csrf", "x" * 43)  # the form's own token, as the attack took it
    assert refused(c.post("/", data=fields))  # the save, and the page's live check
    assert refused(c.post("/", data={**fields, "do": "check"}))
    assert club.read_text(encoding="utf-8") == CLUB


def test_a_wrong_token_is_refused_in_the_url_and_in_the_cookie(club: Path) -> None:
    c, config = stranger(club)
    assert refused(c.get("/", params={"token": "wrong"}))
    assert refused(c.get("/", params={"token": config.token[:-1]}))
    assert refused(c.get(f"/?token={config.token}&token={config.token}"))  # given twice
    assert refused(c.get(f"/?token={'é' * 43}"))
    c.cookies.set(f"gouji_edit_{config.port}", "x" * len(config.token))
    assert refused(c.get("/"))
    assert refused(c.get("/static/editor.js"))


def test_the_first_visit_by_the_printed_address_leaves_a_cookie_and_drops_the_token_from_the_url(
    club: Path,
) -> None:
    c, config = stranger(club)
    r = c.get("/", params={"token": config.token, "base": "dianshaomenla"})
    assert r.status_code == 303 and r.headers["location"] == "/?base=dianshaomenla"  # the token stays nowhere
    cookie = r.headers["set-cookie"]
    assert f"gouji_edit_{config.port}={config.token}" in cookie
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict") and "Path=/" in cookie
    page = c.get("/")
    assert page.status_code == 200 and "teammate" in page.text
    assert c.get("/static/editor.js").status_code == 200
    r = post(c, page.text, "save", burn__counter="victim")  # posts and the live check go through with the cookie
    assert "已保存到" in r.text, refusal(r.text)


def test_the_token_is_new_at_each_start_and_the_editors_address_carries_it(club: Path) -> None:
    a = EditorConfig(path=club, port=8011)
    b = EditorConfig(path=club, port=8011)
    assert a.token != b.token and len(a.token) >= 43  # 256 bits from secrets.token_urlsafe
    assert editor_url(a) == f"http://127.0.0.1:8011/?token={a.token}"
    old = TestClient(create_editor_app(EditorConfig(path=club, hosts=("testserver",))))
    old.cookies.set("gouji_edit_8010", a.token)
    assert refused(old.get("/"))  # a cookie of another start opens nothing


def test_the_command_prints_an_address_with_a_new_token_and_refuses_without_it(club: Path) -> None:
    tokens = []
    for _ in range(2):
        proc, port = start_edit(club)
        try:
            url = printed_address(proc)
            m = re.fullmatch(rf"http://127\.0\.0\.1:{port}/\?token=([A-Za-z0-9_-]{{43}})", url)
            assert m, url
            tokens.append(m[1])
            deadline = time.monotonic() + 60
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5)
                    pytest.fail("the editor answered without its token")
                except urllib.error.HTTPError as e:
                    assert e.code == 403
                    break
                except OSError:
                    assert time.monotonic() < deadline, "gouji edit did not start"
                    time.sleep(0.2)
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("GET", f"/?token={m[1]}")
            first = conn.getresponse()
            first.read()
            assert first.status == 303 and first.getheader("location") == "/"
            cookie = (first.getheader("set-cookie") or "").split(";")[0]
            conn.request("GET", "/", headers={"Cookie": cookie})
            page = conn.getresponse()
            assert page.status == 200 and "teammate" in page.read().decode("utf-8")
            conn.close()
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    assert tokens[0] != tokens[1]


def start_edit(path: Path) -> tuple[subprocess.Popen[str], int]:
    """``gouji edit PATH`` started as a process on a free port, its stderr kept for :func:`printed_address`."""
    from .conftest import free_port

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gouji_rules.cli", "edit", str(path), "--port", str(port)],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    return proc, port


def printed_address(proc: subprocess.Popen[str], seconds: float = 60) -> str:
    """The address ``gouji edit`` printed on its ``open …`` line; fails (never waits for ever) without one.

    Read from the descriptor itself: a buffered readline could hold the line while select waits."""
    assert proc.stderr is not None
    fd = proc.stderr.fileno()
    seen = b""
    deadline = time.monotonic() + seconds
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while time.monotonic() < deadline:
            if not sel.select(timeout=0.5):
                continue
            chunk = os.read(fd, 4096)
            assert chunk, f"gouji edit ended without printing an address: {seen!r}"
            seen += chunk
            for line in seen.decode("utf-8", "replace").split("\n")[:-1]:  # whole lines only
                if line.startswith("open "):
                    return line.split()[1]
    pytest.fail(f"gouji edit printed no address: {seen!r}")


# -- the folder it was started on ----------------------------------------------------------------


def test_extends_outside_the_folder_is_refused_without_quoting_a_line(club: Path, tmp_path: Path) -> None:
    secret = tmp_path / "private.yaml"  # beside the club's folder, not in it
    secret.write_text(SECRET, encoding="utf-8")
    secret.chmod(0o600)
    (club.parent / "link.yaml").symlink_to(secret)
    (club.parent / "sub").mkdir()
    (club.parent / "sub" / "up.yaml").write_text("extends: ../../private.yaml\n", encoding="utf-8")
    c = client(club)
    page = c.get("/").text
    for target in [str(secret), "../private.yaml", "link.yaml", "sub/up.yaml", "/etc/passwd", "~/x.yaml"]:
        r = post(c, page, text=f"extends: {target}\n")
        assert r.status_code == 200
        assert "SECRET-LINE" not in r.text and "root:" not in r.text, target
        said = diags(r.text)
        if target == "sub/up.yaml":  # in the tree, but it leaves it: named, by its name alone
            assert any(d.startswith("up.yaml: 错误: extends: 所用的这个文件有错误") for d in said), said
        else:
            assert any("不在正在编辑的文件夹" in d for d in said), (target, said)
        r = post(c, page, "save", text=f"extends: {target}\n")
        assert "SECRET-LINE" not in r.text and "没有保存" in refusal(r.text)
    assert club.read_text(encoding="utf-8") == CLUB


def test_a_file_of_the_chain_in_the_tree_is_named_but_never_quoted(club: Path) -> None:
    parent = club.parent / "house.yaml"
    parent.write_text("extends: dagang\nburn:\n  teammate: SECRET-VALUE-9c1\n", encoding="utf-8")
    notes = club.parent / "notes.txt"
    notes.write_text("SECRET-NOTE line one\nSECRET-NOTE line two\n", encoding="utf-8")
    c = client(club)
    page = c.get("/").text
    for target, name in [("house.yaml", "house.yaml"), ("notes.txt", "notes.txt")]:
        r = post(c, page, text=f"extends: {target}\n")
        assert "SECRET" not in r.text, target
        named = [d for d in diags(r.text) if name in d]
        assert named and all("gouji validate" in d for d in named), diags(r.text)
    parent.write_text("extends: dagang\nburn:\n  teammate: false\n", encoding="utf-8")
    r = post(c, page, text="extends: house.yaml\ndeck:\n  packs: 5\n")  # a good parent in the tree is followed
    assert "规则无误" in r.text and Form(r.text).fields["burn.teammate"] == "false"


def test_saving_outside_the_folder_is_refused_and_nothing_is_written(club: Path, tmp_path: Path) -> None:
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    (club.parent / "out").symlink_to(private)
    c = client(club)
    page = c.get("/").text
    for path in [
        str(private / "planted.yaml"),
        str(club.parent / ".." / "private" / "planted.yaml"),
        str(club.parent / "out" / "planted.yaml"),
        "/tmp/planted.yaml",
    ]:
        r = post(c, page, "save", path=path)
        assert "不在编辑器启动时所在的文件夹" in refusal(r.text), (path, refusal(r.text))
    assert not list(private.iterdir()) and not Path("/tmp/planted.yaml").exists()
    (club.parent / "sub").mkdir()
    r = post(c, page, "save", path=str(club.parent / "sub" / "kept.yaml"))  # below it is inside
    assert "已保存到" in r.text, refusal(r.text)


def test_validate_still_follows_extends_out_of_the_files_folder(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text("extends: dagang\nburn:\n  teammate: false\n", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    child = tmp_path / "sub" / "child.yaml"
    child.write_text("extends: ../house.yaml\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", str(child)])
    assert r.exit_code == 0, r.output


def test_a_new_file_is_confined_to_the_current_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    config = EditorConfig(path=None)
    assert config.root == Path(os.path.realpath(tmp_path))


def test_open_hands_the_browser_a_private_file_never_the_token(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading
    import webbrowser

    from gouji_rules.cli.edit import _open_in_browser

    opened: list[str] = []
    done = threading.Event()
    monkeypatch.setattr(webbrowser, "open", lambda url: bool(opened.append(url) or done.set() or True))
    url = editor_url(EditorConfig(port=8012))
    folder = _open_in_browser(url)
    assert folder is not None and done.wait(10)
    try:
        assert opened[0].startswith("file://") and "token" not in opened[0]  # a command line every account sees
        page = Path(opened[0][len("file://") :])
        assert page.stat().st_mode & 0o777 == 0o600 and Path(folder).stat().st_mode & 0o777 == 0o700
        assert url.replace("&", "&amp;") in page.read_text(encoding="utf-8")
    finally:
        import shutil

        shutil.rmtree(folder)
