"""``gouji edit``: the rules editor, as a club uses it (issue 22 item 1).

The app is driven through Starlette's TestClient, posting back the form exactly as the page
drew it (every control's value, the hidden copy of the file), so each test is a user's round
trip; the browser tests at the end drive Debian's Chromium at 390×844 and 1280 wide.
"""

from __future__ import annotations

import html
import html.parser
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from gouji_rules import dsl
from gouji_rules.cli import main
from gouji_rules.dsl import edit
from gouji_rules.dsl.explain import zh_numeral
from gouji_rules.parts.hooks import HOOKS
from gouji_rules.variant import SECTIONS
from gouji_rules.web.editor import EditorConfig, create_editor_app

CLUB = """\
# 青岛某俱乐部的家规：以大纲为准，只写不同的地方
extends: dagang  # 基础规则

burn:
  # 我们这里不许烧自己人
  teammate: false  # 不烧队友
  exempt: ["3"]
deck: {packs: 4}  # 四副牌
"""


class Form(html.parser.HTMLParser):
    """The form as a browser would post it: inputs, selected options, textareas (their text)."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.fields: dict[str, str] = {}
        self._select: str | None = None
        self._first: str | None = None
        self._area: str | None = None
        self._text = ""
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "input" and a.get("name"):
            self.fields[a["name"]] = a.get("value", "")
        elif tag == "select":
            self._select, self._first = a["name"], None
        elif tag == "option" and self._select is not None:
            if self._first is None:
                self._first = a["value"]
                self.fields.setdefault(self._select, a["value"])
            if "selected" in a:
                self.fields[self._select] = a["value"]
        elif tag == "textarea":
            self._area, self._text = a["name"], ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea" and self._area is not None:
            self.fields[self._area] = self._text[1:] if self._text.startswith("\n") else self._text
            self._area = None

    def handle_data(self, data: str) -> None:
        if self._area is not None:
            self._text += data


def client(path: Path | None, **kw: Any) -> TestClient:
    """The editor as its organiser reaches it: the first visit by the printed address (its token),
    after which the browser holds the cookie."""
    config = EditorConfig(path=path, log=lambda _m: None, hosts=("testserver",), **kw)
    c = TestClient(create_editor_app(config))
    first = c.get("/", params={"token": config.token})
    assert first.status_code == 200, first.text
    return c


def post(c: TestClient, page: str, do: str = "check", **changes: str) -> Any:
    fields = Form(page).fields
    for name, value in changes.items():
        fields[name.replace("__", ".")] = value
    return c.post("/", data={**fields, "do": do})


def refusal(page: str) -> str:
    m = re.search(r'<p class="error refusal"[^>]*>(.*?)</p>', page, re.S)
    return html.unescape(m[1]) if m else ""


def diags(page: str) -> list[str]:
    return [html.unescape(d) for d in re.findall(r'<pre class="diag">(.*?)</pre>', page, re.S)]


@pytest.fixture
def club(tmp_path: Path) -> Path:
    f = tmp_path / "qingdao.yaml"
    f.write_text(CLUB, encoding="utf-8")
    return f


# -- what the page shows -------------------------------------------------------------------------


def test_every_option_in_the_rule_sheets_sections_with_its_chinese_name_meanings_and_clause(club: Path) -> None:
    page = client(club).get("/").text
    titles = re.findall(r'<summary><span class="title">(.*?)</span>', page)
    assert [t.split("、")[0] for t in titles[: len(SECTIONS)]] == [zh_numeral(i) for i in range(1, len(SECTIONS) + 1)]
    fields = Form(page).fields
    for section, key in edit.options():
        assert f"{section}.{key}" in fields, (section, key)
    for name in HOOKS:
        assert f"hooks.{name}" in fields
    packs = option_block(page, "deck.packs")
    assert "几副牌" in packs and "出处：《够级大纲》第一条" in packs and "同基础规则" in packs
    beat = option_block(page, "sets.beat")
    assert "大花盖小花" in beat and "<code>cover</code>" in beat  # each value's meaning
    teammate = option_block(page, "burn.teammate")
    assert "★" in teammate and "基础规则：是" in teammate  # differs from the base: the base's value in words
    assert fields["burn.teammate"] == "false" and fields["deck.packs"] == "4"
    assert "规则无误" in page
    assert "可以烧队友" in page[page.index('id="diff"') :]  # the diff against the base
    assert "★ 与 dagang 不同" in page  # the rule sheet, its differences marked


def test_the_page_in_english_on_request(club: Path) -> None:
    c = client(club)
    page = post(c, c.get("/").text, lang="en").text
    assert "Rules editor" in page and "The rules are valid." in page and 'lang="en"' in page
    assert Form(page).fields["burn.teammate"] == "false"  # switching language keeps what was entered
    page = post(c, page, deck__packs="99").text  # 检查 (or the page's script) posts no language switch
    assert 'lang="en"' in page and "deck.packs must be at most 8" in page  # the page stays in English


def option_block(page: str, name: str) -> str:
    """The HTML of one option: its label, control, errors, meanings and base value."""
    block = page[page.index(f'id="o-{name}"') :]
    ends = [i for i in (block.find('<div class="opt', 1), block.find("</details>")) if i > 0]
    return block[: min(ends)]


# -- refusals, in Chinese ------------------------------------------------------------------------


def test_an_invalid_value_is_refused_with_validates_message_and_position(club: Path) -> None:
    c = client(club)
    r = post(c, c.get("/").text, deck__packs="99")
    shown = diags(r.text)
    text = Form(r.text).fields["text"]
    club_copy = club.parent / "copy" / club.name
    club_copy.parent.mkdir()
    club_copy.write_text(text, encoding="utf-8")
    cli = CliRunner().invoke(main, ["validate", str(club_copy)])
    assert cli.exit_code == 1
    said = cli.output.split(f"{club_copy}:")[1]  # the diagnostic gouji validate prints, less the file name
    assert any(said.split("\n    提示")[0].strip() in d for d in shown), (said, shown)
    assert any(f"{club}:8:" in d and "deck.packs 最大为 8，不能是 99" in d for d in shown)
    assert "^" in shown[0]
    assert Form(r.text).fields["deck.packs"] == "99"  # the refused value stays where it was typed
    r = post(c, r.text, "save")
    assert "规则有错，没有保存" in refusal(r.text)
    assert club.read_text(encoding="utf-8") == CLUB


def test_a_hook_syntax_error_has_its_line_and_column(club: Path) -> None:
    c = client(club)
    r = post(c, c.get("/").text, hooks__is_gouji="count >= threshold and\n  (rank > ")
    hook = option_block(r.text, "hooks.is_gouji")
    errors = [d for d in diags(hook)]
    assert errors, hook
    assert re.search(rf"{re.escape(str(club))}:\d+:\d+: 错误: ", errors[0])
    assert "hooks.is_gouji" in errors[0]
    assert "count >= threshold and\n  (rank > " in Form(r.text).fields["hooks.is_gouji"]
    checked = dsl.check_text(Form(r.text).fields["text"], str(club))
    assert checked.errors[0].format("zh") in errors[0]  # the same position as validate gives


def test_a_save_path_that_is_forbidden_is_refused_and_nothing_is_written(club: Path, tmp_path: Path) -> None:
    db = tmp_path / "spring.yaml"  # an event's database, whatever its name says
    sqlite3.connect(db).execute("create table t (x)").connection.commit()
    before = db.read_bytes()
    folder = tmp_path / "rules.yaml"
    folder.mkdir()
    parent = tmp_path / "parent.yaml"
    parent.write_text("extends: dagang\nburn:\n  teammate: false\n", encoding="utf-8")
    child = tmp_path / "child.yaml"
    child.write_text("extends: parent.yaml\n", encoding="utf-8")
    c = client(club)
    page = c.get("/").text
    for path, words in [
        (str(db), "它是数据库（活动文件？）"),
        (str(folder), "它是文件夹，不是普通文件"),
        (str(tmp_path / "rules.txt"), "要以 .yaml 结尾"),
        (str(tmp_path / "nosuch" / "x.yaml"), "没有文件夹"),
        ("/dev/null.yaml", "不在编辑器启动时所在的文件夹"),  # outside the folder it was started on
        ("", "请填写要保存到的文件名"),
    ]:
        r = post(c, page, "save", path=path)
        assert words in refusal(r.text), (path, refusal(r.text))
    assert db.read_bytes() == before
    c = client(child)
    r = post(c, c.get("/").text, "save", path=str(parent), burn__counter="victim")
    assert "没有保存" in refusal(r.text)
    assert any("extends" in d and "parent.yaml" in d for d in diags(r.text)), diags(r.text)  # it would extend itself
    assert parent.read_text(encoding="utf-8") == "extends: dagang\nburn:\n  teammate: false\n"


def test_a_file_changed_on_disk_since_it_was_opened_is_never_overwritten(club: Path) -> None:
    c = client(club)
    page = c.get("/").text
    theirs = CLUB + "men:\n  severity: 2  # 别人刚加的\n"
    club.write_text(theirs, encoding="utf-8")
    r = post(c, page, "save", deck__packs="3")
    assert r.status_code == 409
    assert "在你打开之后被别人或别的程序改过了" in refusal(r.text)
    assert club.read_text(encoding="utf-8") == theirs
    assert Form(r.text).fields["deck.packs"] == "3"  # nothing the user entered is lost
    other = club.parent / "qingdao-2.yaml"
    r = post(c, r.text, "save", path=str(other))  # saved under another name instead
    assert "已保存" in r.text and dsl.load_file(other).deck.packs == 3
    assert club.read_text(encoding="utf-8") == theirs


def test_saving_over_another_existing_file_is_refused(club: Path, tmp_path: Path) -> None:
    someone = tmp_path / "someone.yaml"
    someone.write_text("extends: dianshaomenla\n", encoding="utf-8")
    c = client(club)
    r = post(c, c.get("/").text, "save", path=str(someone))
    assert r.status_code == 409 and "已经存在，而且不是你打开的文件" in refusal(r.text)
    assert someone.read_text(encoding="utf-8") == "extends: dianshaomenla\n"


def test_a_form_from_another_site_or_without_its_token_is_refused_in_chinese(club: Path) -> None:
    c = client(club)
    page = c.get("/").text
    fields = Form(page).fields
    r = c.post("/", data={**fields, "do": "save"}, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and "拒绝来自其他网站的表单" in r.text
    r = c.post("/", data={**fields, "csrf": "x" * 43, "do": "save"})
    assert r.status_code == 403 and "页面已过期" in r.text
    config = EditorConfig(path=club, log=lambda _m: None)
    rebound = TestClient(create_editor_app(config), base_url="http://evil.example")
    r = rebound.get("/", params={"token": config.token})  # a site pointed at 127.0.0.1 (DNS rebinding): nothing
    assert r.status_code == 403 and "gouji edit" in r.text and "teammate" not in r.text
    r = rebound.post("/", data={**fields, "do": "save"})
    assert r.status_code == 403
    assert club.read_text(encoding="utf-8") == CLUB


# -- saving --------------------------------------------------------------------------------------


def test_saving_a_commented_file_keeps_its_comments_and_key_order(club: Path) -> None:
    c = client(club)
    r = post(c, c.get("/").text, "save", burn__counter="victim")
    assert "已保存到" in r.text, refusal(r.text)
    saved = club.read_text(encoding="utf-8")
    assert saved == CLUB.replace('  exempt: ["3"]\n', '  exempt: ["3"]\n  counter: victim\n')
    v = dsl.load_file(club)
    assert v.burn.counter == "victim" and v.burn.teammate is False
    r = post(c, r.text, "save", deck__packs="3")  # a value replaced where it stands, its comment kept
    assert club.read_text(encoding="utf-8") == saved.replace("deck: {packs: 4}  # 四副牌", "deck: {packs: 3}  # 四副牌")
    assert dsl.load_file(club).deck.packs == 3


def test_a_new_file_says_only_what_differs_from_its_base(tmp_path: Path) -> None:
    target = tmp_path / "house.yaml"
    c = client(None, root=tmp_path)  # started in tmp_path with no file
    r = post(c, c.get("/").text, "save", path=str(target), burn__teammate="false", gouji__answer="anyone")
    assert "已保存到" in r.text, refusal(r.text)
    assert target.read_text(encoding="utf-8") == "extends: dagang\ngouji:\n  answer: anyone\nburn:\n  teammate: false\n"
    diff = dsl.diff.differences(dsl.load_shipped("dagang"), dsl.load_file(target))  # type: ignore[attr-defined]
    assert {d.path for d in diff} == {"gouji.answer", "burn.teammate"}


def test_an_option_set_back_to_the_bases_value_leaves_the_file(club: Path) -> None:
    c = client(club)
    r = post(c, c.get("/").text, "save", burn__teammate="true")
    saved = club.read_text(encoding="utf-8")
    assert "teammate" not in saved and "# 我们这里不许烧自己人" in saved and 'exempt: ["3"]' in saved
    assert dsl.load_file(club).burn.teammate is True
    assert "同基础规则" in r.text[r.text.index('id="o-burn.teammate"') :][:3000]


def test_a_new_file_moved_to_another_base_keeps_its_changes(tmp_path: Path) -> None:
    c = client(None, root=tmp_path)  # started in tmp_path with no file
    r = post(c, c.get("/").text, burn__teammate="false")
    r = post(c, r.text, base="dianshaomenla")
    text = Form(r.text).fields["text"]
    assert text.startswith("extends: dianshaomenla\n") and "teammate: false" in text
    assert dsl.load_text(text).burn.teammate is False


def test_the_file_edited_as_text_is_kept_and_a_broken_one_is_not_lost(club: Path) -> None:
    c = client(club)
    page = c.get("/").text
    typed = CLUB + "men:\n  severity: 2  # 手写的\n"
    r = post(c, page, text=typed)
    assert Form(r.text).fields["men.severity"] == "2" and "规则无误" in r.text
    broken = CLUB + "men: [severity: \n"
    r = post(c, r.text, text=broken, deck__packs="3")
    assert "YAML" in diags(r.text)[0]
    assert Form(r.text).fields["text"] == broken and Form(r.text).fields["deck.packs"] == "3"
    r = post(c, r.text)  # posted again untouched: still the broken text, still the 3
    assert Form(r.text).fields["text"] == broken and Form(r.text).fields["deck.packs"] == "3"


# -- try it --------------------------------------------------------------------------------------


def test_try_it_plays_a_small_compare_against_the_base_and_shows_the_report(club: Path) -> None:
    c = client(club, try_deals=3)
    r = post(c, c.get("/").text, "try")
    token = re.search(r'<iframe src="(/report/[^"]+)"', r.text)
    assert token, refusal(r.text)
    assert "dagang 与改后的规则各打同样的 6 局" in r.text
    report = c.get(token[1])
    assert report.status_code == 200 and "够级规则比较：dagang 对 qingdao" in report.text
    assert "frame-ancestors 'self'" in report.headers["content-security-policy"]
    assert "burn.teammate" in report.text  # the rule that differs, in the report's table
    bad = post(c, r.text, "try", deck__packs="0")
    assert "规则有错，不能试打" in refusal(bad.text)
    assert c.get("/report/nosuch").status_code == 404


# -- the command ---------------------------------------------------------------------------------


def test_the_command_refuses_an_unknown_base_and_a_database(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["edit", str(tmp_path / "x.yaml"), "--base", "nosuch"])
    assert r.exit_code == 2 and "nosuch" in r.output
    db = tmp_path / "e.sqlite"
    sqlite3.connect(db).execute("create table t (x)").connection.commit()
    r = CliRunner().invoke(main, ["edit", str(db)])
    assert r.exit_code == 1 and "SQLite" in r.output


# -- in Debian's Chromium ------------------------------------------------------------------------


def _serve(path: Path) -> tuple[Any, str]:
    import subprocess
    import sys
    import time
    import urllib.error
    import urllib.request

    from .conftest import free_port

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gouji_rules.cli", "edit", str(path), "--port", str(port)],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    from .test_editor_secret import printed_address

    try:
        url = printed_address(proc)  # the address with its token, as the organiser opens it
    except BaseException:
        proc.kill()
        raise
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read()
        except urllib.error.HTTPError as e:
            if e.code == 403:  # up, and refusing whoever lacks the token
                return proc, url
        except OSError:
            time.sleep(0.2)
    proc.kill()
    pytest.fail("gouji edit did not start")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_in_chromium_change_check_refuse_and_save(club: Path, size: str, request: pytest.FixtureRequest) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from .conftest import loaded, open_page, shot, wait_for, wait_text

    d = request.getfixturevalue("browser" if size == "phone" else "desktop")
    width = 390 if size == "phone" else 1280
    proc, url = _serve(club)
    try:
        open_page(d, url, "form.editor")
        wait_text(d, "规则无误")
        assert d.execute_script("return document.documentElement.scrollWidth") <= width
        shot(d, f"editor-01-opened-{size}", height=2400, width=width)

        def click(value: str) -> None:
            old = d.find_element(By.TAG_NAME, "html")
            d.find_element(By.CSS_SELECTOR, f"footer.bar button[value={value}]").click()
            wait_for(d, lambda drv: old != drv.find_element(By.TAG_NAME, "html"), "the next page")
            loaded(d, "form.editor")

        d.find_element(By.CSS_SELECTOR, "#s-deck summary").click() if not d.find_element(
            By.ID, "f-deck.packs"
        ).is_displayed() else None
        packs = d.find_element(By.ID, "f-deck.packs")
        packs.clear()
        packs.send_keys("99")
        click("save")
        wait_text(d, "规则有错，没有保存")
        wait_text(d, "deck.packs 最大为 8，不能是 99", "#o-deck\\.packs")
        assert d.find_element(By.ID, "f-deck.packs").get_attribute("value") == "99"
        assert d.execute_script("return document.documentElement.scrollWidth") <= width
        shot(d, f"editor-02-refused-{size}", height=1600, width=width)
        assert club.read_text(encoding="utf-8") == CLUB

        packs = d.find_element(By.ID, "f-deck.packs")
        packs.clear()
        packs.send_keys("4")
        d.find_element(By.CSS_SELECTOR, "#s-burn summary").click() if not d.find_element(
            By.ID, "f-burn.counter"
        ).is_displayed() else None
        Select(d.find_element(By.ID, "f-burn.counter")).select_by_value("victim")
        click("save")
        wait_text(d, "已保存到")
        wait_text(d, "★", "#o-burn\\.counter")
        assert dsl.load_file(club).burn.counter == "victim"
        assert "# 我们这里不许烧自己人" in club.read_text(encoding="utf-8")
        shot(d, f"editor-03-saved-{size}", height=2400, width=width)

        click("try")
        frame = wait_for(d, lambda drv: drv.find_elements(By.CSS_SELECTOR, "#report iframe"), "the report's frame")[0]
        d.execute_script("arguments[0].scrollIntoView()", frame)
        d.switch_to.frame(frame)
        wait_text(d, "够级规则比较：dagang 对 qingdao", "h1")
        d.switch_to.default_content()
        assert d.execute_script("return document.documentElement.scrollWidth") <= width
        top = d.execute_script("return document.getElementById('report').getBoundingClientRect().top + window.scrollY")
        shot(d, f"editor-04-try-{size}", top=top, height=900, width=width)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_file_not_in_utf8_is_never_saved_over(tmp_path: Path) -> None:
    f = tmp_path / "gbk.yaml"
    data = "extends: dagang\n# 青岛\n".encode("gb18030")
    f.write_bytes(data)
    c = client(f)
    page = c.get("/").text
    assert "不是 UTF-8 文本" in refusal(page)
    r = post(c, page, "save", burn__counter="victim")
    assert "不是 UTF-8 文本" in refusal(r.text)
    assert f.read_bytes() == data


def test_windows_line_breaks_and_a_file_written_as_one_mapping_are_edited_in_place(tmp_path: Path) -> None:
    crlf = tmp_path / "crlf.yaml"
    crlf.write_bytes(b"extends: dagang  # base\r\nburn:\r\n  teammate: false\r\n")
    c = client(crlf)
    post(c, c.get("/").text, "save", burn__counter="victim", men__severity="2")
    assert crlf.read_bytes() == (
        b"extends: dagang  # base\r\nburn:\r\n  teammate: false\r\n  counter: victim\r\nmen:\r\n  severity: 2\r\n"
    )
    flow = tmp_path / "flow.yaml"
    flow.write_text("{extends: dagang, burn: {teammate: false}}  # one line\n", encoding="utf-8")
    c = client(flow)
    post(c, c.get("/").text, "save", burn__counter="victim", men__severity="2")
    assert flow.read_text(encoding="utf-8") == (
        "{extends: dagang, burn: {teammate: false, counter: victim}, men: {severity: 2}}  # one line\n"
    )
    assert dsl.load_file(flow).men.severity == 2


def test_in_chromium_boxes_and_the_files_text_agree_whichever_was_edited_last(
    club: Path, request: pytest.FixtureRequest
) -> None:
    """A change to a box, then a click into the file's text (and the other way round): the text shows
    the box's change, the box shows the text's, and what is saved holds both."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    from .conftest import open_page, wait_for, wait_text

    d = request.getfixturevalue("desktop")
    proc, url = _serve(club)

    def settled() -> None:
        wait_for(
            d,
            lambda drv: drv.execute_script("const f = document.querySelector('form.editor');"
                                           "return f.dataset.checked === f.dataset.edits"),
            "the page to speak for the last edit",
        )  # fmt: skip

    def tap(element: Any) -> None:
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    try:
        open_page(d, url, "form.editor")
        wait_text(d, "规则无误", "#status")
        for key in ("deck", "burn", "text"):
            section = d.find_element(By.ID, f"s-{key}")
            if section.get_attribute("open") is None:
                tap(section.find_element(By.TAG_NAME, "summary"))
        text = d.find_element(By.CSS_SELECTOR, "textarea[name=text]")

        packs = d.find_element(By.ID, "f-deck.packs")
        packs.send_keys(Keys.CONTROL, "a")
        packs.send_keys("5")
        tap(text)  # the box's change is checked while the file's text has the focus
        settled()
        assert "packs: 5" in text.get_attribute("value")

        source = text.get_attribute("value").replace("packs: 5", "packs: 6")
        d.execute_script("arguments[0].focus(); arguments[0].value = arguments[1];", text, source)
        d.execute_script("arguments[0].dispatchEvent(new Event('input', {bubbles: true}))", text)
        tap(d.find_element(By.ID, "f-deck.packs"))  # the text's change, checked while the box has the focus
        # a value set by script is not the user's, so leaving the box fires no change: fire it, as typing would
        d.execute_script("arguments[0].dispatchEvent(new Event('change', {bubbles: true}))", text)
        settled()
        assert d.find_element(By.ID, "f-deck.packs").get_attribute("value") == "6"

        Select(d.find_element(By.ID, "f-burn.counter")).select_by_value("victim")
        settled()
        old = d.find_element(By.TAG_NAME, "html")
        d.find_element(By.CSS_SELECTOR, "footer.bar button[value=save]").click()
        wait_for(d, lambda drv: old != drv.find_element(By.TAG_NAME, "html"), "the saved page")
        wait_text(d, "已保存到")
        saved = dsl.load_file(club)
        assert saved.deck.packs == 6 and saved.burn.counter == "victim"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_in_chromium_a_change_is_checked_at_once_without_a_click(club: Path, request: pytest.FixtureRequest) -> None:
    """With the page's script, leaving a changed field checks the file in the background: its error
    appears beside it (validate's message and position), the ★ and the diff follow a changed choice,
    and none of it reloads the page or writes the file; 保存 still saves what the form shows."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    from .conftest import open_page, shot, wait_for, wait_text

    d = request.getfixturevalue("desktop")
    proc, url = _serve(club)
    try:
        open_page(d, url, "form.editor")
        wait_text(d, "规则无误", "#status")
        d.execute_script("window.sameDocument = true")
        for key in ("deck", "burn"):
            section = d.find_element(By.ID, f"s-{key}")
            if section.get_attribute("open") is None:
                section.find_element(By.TAG_NAME, "summary").click()

        packs = d.find_element(By.ID, "f-deck.packs")
        packs.send_keys(Keys.CONTROL, "a")
        packs.send_keys("99", Keys.TAB)
        wait_text(d, "deck.packs 最大为 8，不能是 99", "#o-deck\\.packs")
        wait_text(d, "有 1 处错误", "#status")
        assert "bad" in d.find_element(By.ID, "o-deck.packs").get_attribute("class")
        assert d.find_element(By.ID, "f-deck.packs").get_attribute("value") == "99"  # kept as typed
        shot(d, "editor-05-live-error-desktop", height=1400, width=1280)

        packs = d.find_element(By.ID, "f-deck.packs")
        packs.send_keys(Keys.CONTROL, "a")
        packs.send_keys("4", Keys.TAB)
        wait_text(d, "规则无误", "#status")
        wait_for(d, lambda drv: not drv.find_elements(By.CSS_SELECTOR, "#e-deck\\.packs pre"), "the error to go")

        # two changes faster than the server answers: the answer about 99 comes too late to be shown
        packs = d.find_element(By.ID, "f-deck.packs")
        packs.send_keys(Keys.CONTROL, "a")
        packs.send_keys("99", Keys.TAB)
        packs.send_keys(Keys.CONTROL, "a")
        packs.send_keys("4", Keys.TAB)
        wait_for(
            d,
            lambda drv: drv.execute_script("const f = document.querySelector('form.editor');"
                                           "return f.dataset.checked === f.dataset.edits"),
            "the page to speak for the last edit",
        )  # fmt: skip
        wait_text(d, "规则无误", "#status")
        assert not d.find_elements(By.CSS_SELECTOR, "#e-deck\\.packs pre")

        Select(d.find_element(By.ID, "f-burn.counter")).select_by_value("victim")
        wait_text(d, "★", "#l-burn\\.counter")
        wait_text(d, "★", "#n-burn")  # the section's count of changes
        wait_for(d, lambda drv: "只有被烧者" in drv.find_element(By.ID, "diff").text, "the diff to show it")
        assert d.execute_script("return window.sameDocument") is True  # never reloaded
        assert club.read_text(encoding="utf-8") == CLUB  # checking writes nothing

        old = d.find_element(By.TAG_NAME, "html")
        d.find_element(By.CSS_SELECTOR, "footer.bar button[value=save]").click()
        wait_for(d, lambda drv: old != drv.find_element(By.TAG_NAME, "html"), "the saved page")
        wait_text(d, "已保存到")
        saved = dsl.load_file(club)
        assert saved.burn.counter == "victim" and saved.deck.packs == 4
        assert "# 我们这里不许烧自己人" in club.read_text(encoding="utf-8")
    finally:
        proc.terminate()
        proc.wait(timeout=10)
