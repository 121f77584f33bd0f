"""A club night in a real browser at a phone's size: enter at one side, confirm at the other, standings move.

Every check waits for what it checks (conftest.wait_for: polled, bounded), and a page is read only once
it has loaded: on a busy machine a click's next page may take seconds to arrive.
"""

from __future__ import annotations

import base64
from typing import Any

from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from .conftest import ARTIFACTS, Server, loaded, open_page, shot, wait_for, wait_text


def _standings(driver: Any) -> dict[str, list[str]]:
    rows = driver.find_elements(By.CSS_SELECTOR, "table.standings tbody tr")
    out = {}
    for r in rows:
        cells = [c.text for c in r.find_elements(By.TAG_NAME, "td")]
        out[r.find_element(By.TAG_NAME, "summary").text] = cells
    return out


def _no_sideways_scroll(driver: Any) -> None:
    width = driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= driver.execute_script("return window.innerWidth"), width


def _gone(element: Any) -> bool:
    """Whether ``element`` has left the document: the next page has replaced the one it was on.

    ``ec.staleness_of`` counts only a stale-reference answer; Chromium 150, asked about a node while its
    document is being torn down, may answer "Node with given id does not belong to the document" as an
    unknown error instead (CI saw it once). Both mean the same here.
    """
    try:
        element.is_enabled()
    except StaleElementReferenceException:
        return True
    except WebDriverException as e:
        if "does not belong to the document" in str(e) or "No node with given id" in str(e):
            return True
        raise
    return False


def _click_and_wait(driver: Any, css: str, within: Any = None, then: str = "main") -> None:
    """Click a button or link, wait until the next page has replaced this one and has loaded ``then``."""
    old = driver.find_element(By.TAG_NAME, "html")
    (within or driver).find_element(By.CSS_SELECTOR, css).click()
    wait_for(driver, lambda d: _gone(old), f"the page after clicking {css!r}")
    loaded(driver, then)


def _enter_hand(driver: Any, order: list[int]) -> int:
    """Tap the players' names in finishing order (the last place fills itself); the taps it took."""
    for place, seat in enumerate(order[:5], start=1):
        driver.find_element(By.CSS_SELECTOR, f"label[for=p{place}s{seat}]").click()
    return 5


def test_enter_confirm_and_the_standings_change(served: Server, browser: Any) -> None:
    d = browser
    open_page(d, served.url + "/", "table.standings")
    wait_text(d, "排名", "h1")
    wait_text(d, "已录入 0 / 12 局")
    headers = [th.text for th in d.find_elements(By.CSS_SELECTOR, "table.standings th")]
    assert headers == ["名次", "选手", "赛分", "局分"]
    _no_sideways_scroll(d)
    before = _standings(d)
    assert all(cells[3] == "未上场" for cells in before.values())  # nobody has played: not a score of 0
    first = d.find_element(By.CSS_SELECTOR, "table.standings tbody tr summary")
    first.click()  # the other columns are a tap away
    wait_text(d, "大落", "table.standings tbody tr")
    wait_text(d, "头科", "table.standings tbody tr")
    _no_sideways_scroll(d)
    shot(d, "01-standings-empty")

    open_page(d, served.url + "/rounds/1", "#table1 table.seats")
    wait_text(d, "第1桌")
    wait_text(d, "对头")
    names = [td.text for td in d.find_elements(By.CSS_SELECTOR, "#table1 table.seats tbody td:nth-child(2)")]
    assert len(names) == 6
    shot(d, "02-round-seating")

    # side A of table 1 enters hand 1: seat 0 first, then 2, 4 (串三户 for side A), seat 0 opened and burned 1
    open_page(d, served.link(1, 1, "A"), "#hand1")
    wait_text(d, "你是A方（座位 1 3 5）")
    shot(d, "03-table-side-a")
    # a refusal first: a player tapped twice, in Chinese with the names
    _click_and_wait(d, "#hand1 a.button", then="form.entry")
    for place, seat in enumerate([0, 0, 4, 1, 3], start=1):
        d.find_element(By.CSS_SELECTOR, f"label[for=p{place}s{seat}]").click()
    _click_and_wait(d, "form.entry button[type=submit]", then="p.error")
    wait_text(d, f"{names[0]}（1号） 选了两次（头科、二科）", "p.error")
    _no_sideways_scroll(d)
    shot(d, "04a-refused-twice", height=900)
    open_page(d, served.link(1, 1, "A") + "/hand/1", "form.entry")  # a fresh form, as after tapping 录入
    # then the hand as played: five taps, seat 1 burned seat 2 (who burned whom), seat 6 did not open
    taps = 1 + _enter_hand(d, [0, 2, 4, 1, 3, 5])
    d.find_element(By.CSS_SELECTOR, "label[for=no5]").click()
    d.find_element(By.CSS_SELECTOR, "details:has(select[name=burn_by]) summary").click()
    Select(d.find_elements(By.NAME, "burn_by")[0]).select_by_value("0")
    Select(d.find_elements(By.NAME, "burn_on")[0]).select_by_value("1")
    _no_sideways_scroll(d)
    shot(d, "04-entry-form")
    _click_and_wait(d, "form.entry button[type=submit]", then="#hand1")
    assert taps + 1 <= 8  # 录入, five names, 提交 (the burn and 没开点 are this hand's extra facts)
    wait_text(d, "确认前本局不计分")
    wait_text(d, "待对方确认", "#hand1")
    # side A cannot confirm its own entry: no confirm button on its page
    assert not d.find_elements(By.CSS_SELECTOR, "#hand1 button[value=confirm]")
    shot(d, "05-entered-waiting")

    # pending is not counted
    open_page(d, served.url + "/", "table.standings")
    wait_text(d, "已录入 0 / 12 局")

    # side B confirms from its own link
    open_page(d, served.link(1, 1, "B"), "#hand1 button[value=confirm]")
    hand1 = d.find_element(By.ID, "hand1")
    assert names[0] in hand1.text and names[2] in hand1.text
    assert f"烧：{names[0]}（1号） 烧了 {names[1]}（2号）" in hand1.text
    assert f"没开点：{names[5]}（6号）" in hand1.text
    assert "先出牌" in hand1.text and "进贡：" in hand1.text  # what follows next hand
    _no_sideways_scroll(d)
    shot(d, "06-side-b-confirms")
    _click_and_wait(d, "button[value=confirm]", hand1, then="#hand1")
    wait_text(d, "已确认", "#hand1")
    wait_text(d, "先出牌", "#hand1")  # the same summary after confirmation
    shot(d, "07-confirmed")

    open_page(d, served.url + "/", "table.standings")
    wait_text(d, "已录入 1 / 12 局")
    after = _standings(d)
    hp = [c.text for c in d.find_elements(By.CSS_SELECTOR, "table.standings th")].index("局分")
    assert hp == 3  # what decides the ranking is on screen first
    assert int(after[names[0]][hp]) > 0 and before[names[0]][hp] == "未上场"
    assert after[names[1]][hp] == "0"  # side B played and scored nothing in a 串三户
    _no_sideways_scroll(d)
    shot(d, "08-standings-after")

    # the English switch
    _click_and_wait(d, "a.lang", then="table.standings")
    wait_text(d, "Standings", "h1")
    wait_text(d, "1 of 12 hands recorded")
    shot(d, "09-standings-english")


def test_an_entry_without_the_table_link_is_refused(served: Server, browser: Any) -> None:
    d = browser
    open_page(d, served.url + "/t/not-a-table-link/hand/1", "p.error")
    wait_text(d, "出错了", "h1")
    wait_text(d, "这个链接打不开任何一桌")
    shot(d, "10-no-token")
    # a real form whose target is switched to a made-up link is refused, and nothing is stored
    open_page(d, served.link(1, 1, "A") + "/hand/1", "form.entry")
    _enter_hand(d, [0, 1, 2, 3, 4, 5])
    d.execute_script("document.querySelector('form.entry').action = '/t/" + "x" * 32 + "/hand/1'")
    _click_and_wait(d, "form.entry button[type=submit]", then="p.error")
    wait_text(d, "这个链接打不开任何一桌")
    open_page(d, served.url + "/rounds/1", "#table1 table.hands")
    assert "待对方确认" not in d.page_source and "A方已录入" not in d.page_source


def test_the_organiser_prints_one_sheet_per_side(served: Server, browser: Any) -> None:
    d = browser
    open_page(d, served.admin, "main")
    wait_text(d, "组织者")
    shot(d, "11-organiser")
    _click_and_wait(d, "a[href*='/print/1']", then="section.sheet figure.qr svg")
    # the server was opened at 127.0.0.1: a phone could not open these codes, and the page says so
    wait_text(d, "只有这台电脑自己能打开", ".lanwarn")
    shot(d, "12a-print-loopback-warning", height=600)
    sheets = d.find_elements(By.CSS_SELECTOR, "section.sheet")
    assert len(sheets) == 4  # two tables, one page for each side
    for sheet, (tbl, side) in zip(sheets, [(1, "A"), (1, "B"), (2, "A"), (2, "B")], strict=True):
        assert len(sheet.find_elements(By.CSS_SELECTOR, "figure.qr svg")) == 1  # its own side's code only
        text = sheet.text
        other = "B" if side == "A" else "A"
        assert served.link(1, tbl, side) in text and served.link(1, tbl, other) not in text
        assert f"本页只交给{side}方" in text
    assert "&lt;b&gt;褚四&lt;/b&gt;" in d.page_source or "<b>褚四</b>" not in d.page_source
    shot(d, "12-print-sheets", height=float(sheets[1].location["y"]))  # the first page: table 1, side A
    # printed: no page header, each side's page on its own sheet of paper
    d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    wait_for(d, lambda d: not d.find_element(By.CSS_SELECTOR, "header.top").is_displayed(), "the print layout")
    assert sheets[0].value_of_css_property("break-after") == "page"
    pdf = base64.b64decode(d.print_page())
    assert pdf.startswith(b"%PDF")
    (ARTIFACTS / "13-print-round1.pdf").write_bytes(pdf)


def test_the_organiser_and_the_standings_at_a_laptops_width(served: Server, desktop: Any) -> None:
    """1280 px: the organiser's page, a hand's summary there, the print page's warning, the standings."""
    d = desktop
    path = served.admin.replace(served.url, "")
    open_page(d, served.admin + "/r/1/t/1/hand/1", "form.entry")
    _enter_hand(d, [0, 2, 4, 1, 3, 5])
    _click_and_wait(d, "form.entry button[type=submit]", then="main")
    wait_text(d, "先出牌")  # the organiser's page shows the hand's summary
    shot(d, "20-organiser-wide", width=1280, height=1400)
    open_page(d, served.link(1, 1, "B"), "#hand1")
    wait_text(d, "先出牌", "#hand1")
    shot(d, "24-table-wide", width=1280, height=1200)
    open_page(d, served.link(1, 1, "B") + "/hand/2", "form.entry")
    shot(d, "25-entry-form-wide", width=1280, height=1500)
    open_page(d, served.url + "/rounds/1", "#table1")
    shot(d, "26-round-wide", width=1280, height=1400)
    open_page(d, served.url + path + "/print/1", ".lanwarn")
    shot(d, "21-print-wide", width=1280, height=1000)
    open_page(d, served.url + "/", "table.standings")
    wait_text(d, "已录入 1 / 12 局")
    shot(d, "22-standings-wide", width=1280, height=900)
    open_page(d, served.url + "/?lang=en", "table.standings")
    wait_text(d, "not played")
    shot(d, "23-standings-wide-en", width=1280, height=900)


def test_a_correction_at_390_px_is_badged_with_was_and_becomes_side_by_side(served: Server, browser: Any) -> None:
    """Issue 34 item 4: side B corrects a confirmed hand; side A sees 更正 with 原来 / 改为 side by side."""
    from click.testing import CliRunner

    from gouji_rules.cli import main

    d = browser
    r = CliRunner().invoke(
        main, ["event", "record", str(served.event), "--round", "1", "--table", "1", "--hand", "1",
               "--finish", "0 2 4 1 3 5"],
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    open_page(d, served.link(1, 1, "B") + "/hand/1", "form.entry")
    for place, seat in enumerate(
        [1, 3, 5, 0, 2, 4], start=1
    ):  # side B swept instead (the form starts from 0 2 4 1 3 5)
        d.find_element(By.CSS_SELECTOR, f"label[for=p{place}s{seat}]").click()
    _click_and_wait(d, "form.entry button[type=submit]", then="main")
    errors = d.find_elements(By.CSS_SELECTOR, "p.error")
    assert not errors, errors[0].text
    open_page(d, served.link(1, 1, "A"), "#hand1 .was-now")
    hand1 = d.find_element(By.ID, "hand1")
    assert hand1.find_element(By.CSS_SELECTOR, ".badge.correction").text == "更正"
    was = hand1.find_element(By.CSS_SELECTOR, ".was-now .was")
    now = hand1.find_element(By.CSS_SELECTOR, ".was-now .now")
    assert was.text.startswith("原来") and now.text.startswith("改为")
    assert abs(was.rect["y"] - now.rect["y"]) < 2 and was.rect["x"] < now.rect["x"]  # side by side
    _no_sideways_scroll(d)
    shot(d, "10-correction-side-by-side", height=1400)
