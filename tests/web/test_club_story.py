"""Issue 34 item 7: the club secretary's whole story in Chromium at 390 px, with every tap counted.

Install assumed.  ``gouji club FOLDER`` → the home → new rules in the editor (a Chinese title, the scores typed
as 2、1、0、0、-1、-2) → the rule sheet printed → a new night → its seating sheets with the QR codes → two
hands entered by side A and confirmed by side B → a correction (更正, 原来 / 改为) confirmed → a second night
with a hand → the season.  A tap is a click or a tap into a field to type; opening a table's link stands for
scanning its QR code and is counted apart.  The counts go to test-artifacts/web/story-taps.txt and
docs/club-night.md (故事：从新电脑到赛季).  Screenshots: test-artifacts/web/story-*.png.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from gouji_rules import dsl

from .conftest import ARTIFACTS, free_port, loaded, open_page, shot, wait_for, wait_text
from .test_browser import _gone

PLAYERS = ["张三", "李四", "王五", "赵六", "钱七", "孙八"]


class Story:
    """The browser, and the taps each step of the story took."""

    def __init__(self, driver: Any) -> None:
        self.d = driver
        self.taps: Counter[str] = Counter()
        self.scans: Counter[str] = Counter()
        self.step = ""

    def tap(self, css: str, within: Any = None) -> None:
        """Tap what ``css`` finds (in view first, as a thumb would scroll to it)."""
        el = (within or self.d).find_element(By.CSS_SELECTOR, css)
        self.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
        el.click()
        self.taps[self.step] += 1

    def tap_to(self, css: str, then: str = "main", within: Any = None) -> None:
        """Tap a link or button and wait for the next page to have loaded ``then``."""
        old = self.d.find_element(By.TAG_NAME, "html")
        self.tap(css, within)
        wait_for(self.d, lambda d: _gone(old), f"the page after tapping {css!r}")
        loaded(self.d, then)

    def type(self, css: str, text: str, by: str = By.CSS_SELECTOR) -> None:
        """Tap into a field, empty it and type ``text``: one tap, whatever the length."""
        el = self.d.find_element(by, css)
        self.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
        el.click()
        el.clear()
        el.send_keys(text)
        self.taps[self.step] += 1

    def choose(self, css: str, value: str) -> None:
        """Open a list and pick ``value``: two taps."""
        Select(self.d.find_element(By.CSS_SELECTOR, css)).select_by_value(value)
        self.taps[self.step] += 2

    def scan(self, url: str, then: str = "main") -> None:
        """A phone scans a table's QR code: it opens ``url``."""
        open_page(self.d, url, then)
        self.scans[self.step] += 1

    def fits(self) -> None:
        width = self.d.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390, f"{self.step}: the page is {width} px wide at a phone's 390"


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """``gouji club FOLDER`` on a free port, as the secretary starts it; its printed address and the folder."""
    folder = tmp_path / "俱乐部"
    folder.mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gouji_rules.cli", "club", str(folder), "--port", str(free_port()), "--no-browser"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        yield proc.stdout.readline().strip(), folder
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def enter(s: Story, hand: int, order: list[int]) -> None:
    """Side A taps 录入 (or 更正), the first five names in finishing order, and 提交."""
    s.tap_to(f"#hand{hand} a.button", then="form.entry")
    for place, seat in enumerate(order[:5], start=1):
        s.tap(f"label[for=p{place}s{seat}]")
    s.fits()
    s.tap_to("form.entry button[type=submit]", then=f"#hand{hand}")


def confirm(s: Story, link: str, hand: int) -> None:
    """Side B scans its own code and taps 确认无误."""
    s.scan(link, f"#hand{hand} button[value=confirm]")
    s.tap_to("button[value=confirm]", within=s.d.find_element(By.ID, f"hand{hand}"), then=f"#hand{hand}")
    wait_text(s.d, "已确认", f"#hand{hand}")


def new_night(s: Story, name: str) -> None:
    s.type("input[name=name]", name)
    s.choose("select[name=variant]", "青岛家规.yaml")
    s.type("textarea[name=players]", "\n".join(PLAYERS))
    s.tap_to('form[action="/nights/new"] button')
    wait_text(s.d, f"{name}.sqlite")


def open_night(s: Story, name: str) -> tuple[str, str]:
    """Open the night from the home, its seating sheets printed; the two sides' links of table 1."""
    item = next(li for li in s.d.find_elements(By.CSS_SELECTOR, "li") if f"{name}.sqlite" in li.text)
    s.tap_to('form[action="/nights/open"] button', within=item, then="h1")
    wait_text(s.d, "组织者", "h1")
    links = [a.get_attribute("href") for a in s.d.find_elements(By.CSS_SELECTOR, "p.links a")][:2]  # round 1, table 1
    s.tap_to('a[href*="/print/1"]', then="section.sheet")
    qr = s.d.find_elements(By.CSS_SELECTOR, "section.sheet figure.qr")
    assert [f.find_element(By.TAG_NAME, "small").text for f in qr] == links  # each side's sheet: its own code
    assert all(f.find_elements(By.TAG_NAME, "svg") for f in qr)
    return links[0], links[1]


def test_from_the_home_to_the_season_at_390_px(club: tuple[str, Path], browser: Any) -> None:
    s = Story(browser)
    try:
        walk(s, *club)
    except Exception:
        shot(browser, "story-failed", height=1200)  # where the story stopped, for whoever reads the failure
        print(browser.find_element(By.TAG_NAME, "body").text[:2000])
        raise


def walk(s: Story, url: str, folder: Path) -> None:
    d = s.d

    s.step = "主页"
    open_page(d, url, "main")  # what gouji club opens in the browser
    wait_text(d, "够级俱乐部主页", "h1")
    s.fits()
    shot(d, "story-01-home")

    s.step = "新规则"
    s.tap_to('form[action="/rules/new"] button', then="form.editor")
    s.type("input[name=title]", "青岛家规")
    if not d.find_element(By.ID, "f-scoring.points").is_displayed():
        s.tap("#s-scoring summary")
    s.type("f-scoring.points", "2、1、0、0、-1、-2", by=By.ID)
    s.type("input[name=path]", "青岛家规.yaml")
    s.tap_to("footer.bar button[value=save]", then="form.editor")
    wait_text(d, "已保存到")
    saved = folder / "青岛家规.yaml"
    assert "points: [2, 1, 0, 0, -1, -2]" in saved.read_text(encoding="utf-8")
    assert list(dsl.load_file(saved).scoring.points) == [2, 1, 0, 0, -1, -2]
    assert dsl.load_file(saved).title == "青岛家规"
    s.fits()
    shot(d, "story-02-editor-saved", height=1600)
    s.tap_to("header.top a.home", then="main")
    wait_text(d, "青岛家规.yaml")

    s.step = "打印规则表"
    home_tab = d.current_window_handle
    s.tap('a.btn[href^="/rules/sheet"]')  # opens the sheet in its own tab
    wait_for(d, lambda drv: len(drv.window_handles) == 2, "the rule sheet's tab")
    d.switch_to.window(next(h for h in d.window_handles if h != home_tab))
    loaded(d, "h1")
    wait_text(d, "青岛家规", "h1")
    assert d.find_element(By.TAG_NAME, "h1").text == "青岛家规"  # the title once, not 青岛家规（青岛家规）
    assert d.find_element(By.CSS_SELECTOR, "button[data-share]").text == "保存图片"
    s.taps[s.step] += 1  # 打印 (the browser's print, Ctrl+P)
    s.fits()
    shot(d, "story-03-rule-sheet", height=1400)
    d.close()
    d.switch_to.window(home_tab)

    s.step = "第一晚：新建"
    new_night(s, "十二月第一周")
    s.fits()
    shot(d, "story-04-night-created")

    s.step = "第一晚：打开并打印座次表"
    side_a, side_b = open_night(s, "十二月第一周")
    s.taps[s.step] += 1  # 打印
    shot(d, "story-05-seating-sheets", height=1400)

    for hand, order in ((1, [0, 2, 4, 1, 3, 5]), (2, [1, 0, 3, 2, 5, 4])):
        s.step = f"第{hand}局：A方录入"
        s.scan(side_a, f"#hand{hand}")
        enter(s, hand, order)
        wait_text(d, "确认前本局不计分")
        if hand == 1:
            shot(d, "story-06-entered")
        s.step = f"第{hand}局：B方确认"
        confirm(s, side_b, hand)
    shot(d, "story-07-confirmed")

    s.step = "更正：A方改第1局"
    s.scan(side_a, "#hand1")
    enter(s, 1, [2, 0, 4, 1, 3, 5])
    s.step = "更正：B方确认"
    s.scan(side_b, "#hand1 button[value=confirm]")
    hand1 = d.find_element(By.ID, "hand1")
    assert "更正" in hand1.find_element(By.CSS_SELECTOR, ".badge.correction").text
    labels = [e.text for e in hand1.find_elements(By.CSS_SELECTOR, ".was-now .label")]
    assert labels == ["原来", "改为"]
    s.fits()
    shot(d, "story-08-correction", height=1400)
    s.tap_to("button[value=confirm]", within=hand1, then="#hand1")
    wait_text(d, "已确认", "#hand1")

    s.step = "第二晚：新建"
    s.tap_to("header.top a.home", then="main")
    new_night(s, "十二月第二周")
    s.step = "第二晚：打开并打印座次表"
    side_a, side_b = open_night(s, "十二月第二周")
    s.taps[s.step] += 1  # 打印
    s.step = "第二晚第1局：A方录入"
    s.scan(side_a, "#hand1")
    enter(s, 1, [1, 3, 5, 0, 2, 4])
    s.step = "第二晚第1局：B方确认"
    confirm(s, side_b, 1)

    s.step = "赛季"
    s.tap_to("header.top a.home", then="main")
    s.tap_to('a[href="/season"]', then="table.season")
    wait_text(d, "最近 2 晚")
    names = [e.text for e in d.find_elements(By.CSS_SELECTOR, "table.season tbody td.name summary")]
    assert sorted(names) == sorted(PLAYERS)
    s.fits()
    shot(d, "story-09-season")

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    lines = [f"{step}\t{s.taps[step]} 次点击\t{s.scans[step]} 次扫码" for step in dict.fromkeys([*s.taps, *s.scans])]
    total = f"合计\t{sum(s.taps.values())} 次点击\t{sum(s.scans.values())} 次扫码"
    (ARTIFACTS / "story-taps.txt").write_text("\n".join([*lines, total]) + "\n", encoding="utf-8")
    assert s.taps["第1局：A方录入"] == 7  # 录入, five names, 提交
    assert s.taps["第1局：B方确认"] == 1
    assert s.taps["更正：A方改第1局"] == 7 and s.taps["更正：B方确认"] == 1
