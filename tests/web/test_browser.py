"""A club night in a real browser at a phone's size: enter at one side, confirm at the other, standings move."""

from __future__ import annotations

import base64
from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import Select, WebDriverWait

from .conftest import ARTIFACTS, Server, shot


def _standings(driver: Any) -> dict[str, list[str]]:
    rows = driver.find_elements(By.CSS_SELECTOR, "table.standings tbody tr")
    out = {}
    for r in rows:
        cells = [c.text for c in r.find_elements(By.TAG_NAME, "td")]
        out[cells[1]] = cells
    return out


def _click_and_wait(driver: Any, css: str, within: Any = None) -> None:
    """Click a button or link and wait until the next page has replaced this one."""
    old = driver.find_element(By.TAG_NAME, "html")
    (within or driver).find_element(By.CSS_SELECTOR, css).click()
    WebDriverWait(driver, 20).until(ec.staleness_of(old))


def _enter_hand(driver: Any, order: list[int]) -> None:
    for place, seat in enumerate(order, start=1):
        Select(driver.find_element(By.ID, f"p{place}")).select_by_value(str(seat))


def test_enter_confirm_and_the_standings_change(served: Server, browser: Any) -> None:
    d = browser
    d.get(served.url + "/")
    assert d.find_element(By.TAG_NAME, "h1").text == "排名"
    assert "已录入 0 / 12 局" in d.page_source
    headers = [th.text for th in d.find_elements(By.CSS_SELECTOR, "table.standings th")]
    assert headers[:4] == ["名次", "选手", "赛分", "局分"] and "头科" in headers and "大落" in headers
    before = _standings(d)
    shot(d, "01-standings-empty")

    d.get(served.url + "/rounds/1")
    assert "第1桌" in d.page_source and "对头" in d.page_source
    names = [td.text for td in d.find_elements(By.CSS_SELECTOR, "#table1 table.seats tbody td:nth-child(2)")]
    assert len(names) == 6
    shot(d, "02-round-seating")

    # side A of table 1 enters hand 1: seat 0 first, then 2, 4 (串三户 for side A), seat 0 opened and burned 1
    d.get(served.link(1, 1, "A"))
    assert "你是A方" in d.page_source
    shot(d, "03-table-side-a")
    _click_and_wait(d, "#hand1 a.button")
    _enter_hand(d, [0, 2, 4, 1, 3, 5])
    d.find_element(By.CSS_SELECTOR, "input[name=opened][value='0']").click()  # a burner has opened (开点)
    d.find_element(By.CSS_SELECTOR, "input[name=burn][value='0:1']").click()
    shot(d, "04-entry-form")
    _click_and_wait(d, "form.entry button[type=submit]")
    assert "确认前本局不计分" in d.page_source
    assert "待对方确认" in d.find_element(By.ID, "hand1").text
    # side A cannot confirm its own entry: no confirm button on its page
    assert not d.find_elements(By.CSS_SELECTOR, "#hand1 button[value=confirm]")
    shot(d, "05-entered-waiting")

    # pending is not counted
    d.get(served.url + "/")
    assert "已录入 0 / 12 局" in d.page_source

    # side B confirms from its own link
    d.get(served.link(1, 1, "B"))
    hand1 = d.find_element(By.ID, "hand1")
    assert names[0] in hand1.text and names[2] in hand1.text
    shot(d, "06-side-b-confirms")
    _click_and_wait(d, "button[value=confirm]", hand1)
    assert "已确认" in d.page_source
    shot(d, "07-confirmed")

    d.get(served.url + "/")
    assert "已录入 1 / 12 局" in d.page_source
    after = _standings(d)
    hp = [c.text for c in d.find_elements(By.CSS_SELECTOR, "table.standings th")].index("局分")
    assert hp == 3  # what decides the ranking is on screen first
    assert int(after[names[0]][hp]) > int(before[names[0]][hp]) == 0
    assert int(after[names[1]][hp]) == 0  # side B scored nothing in a 串三户
    shot(d, "08-standings-after")

    # the English switch
    _click_and_wait(d, "a.lang")
    assert d.find_element(By.TAG_NAME, "h1").text == "Standings"
    assert "1 of 12 hands recorded" in d.page_source
    shot(d, "09-standings-english")


def test_an_entry_without_the_table_link_is_refused(served: Server, browser: Any) -> None:
    d = browser
    d.get(served.url + "/t/not-a-table-link/hand/1")
    assert "403" in d.title or "出错了" in d.page_source
    assert "this link does not open any table" in d.page_source
    shot(d, "10-no-token")
    # a real form whose target is switched to a made-up link is refused, and nothing is stored
    d.get(served.link(1, 1, "A") + "/hand/1")
    _enter_hand(d, [0, 1, 2, 3, 4, 5])
    d.execute_script("document.querySelector('form.entry').action = '/t/" + "x" * 32 + "/hand/1'")
    _click_and_wait(d, "form.entry button[type=submit]")
    assert "this link does not open any table" in d.page_source
    d.get(served.url + "/rounds/1")
    assert "待对方确认" not in d.page_source and "A方已录入" not in d.page_source


def test_the_organiser_prints_sheets_with_qr_codes(served: Server, browser: Any) -> None:
    d = browser
    d.get(served.admin)
    assert "组织者" in d.page_source
    shot(d, "11-organiser")
    old = d.find_element(By.TAG_NAME, "html")
    d.find_element(By.PARTIAL_LINK_TEXT, "打印").click()
    WebDriverWait(d, 20).until(ec.staleness_of(old))
    sheets = d.find_elements(By.CSS_SELECTOR, "section.sheet")
    assert len(sheets) == 2
    assert len(d.find_elements(By.CSS_SELECTOR, "figure.qr svg")) == 4
    assert served.link(1, 1, "A") in d.page_source and served.link(1, 2, "B") in d.page_source
    assert "&lt;b&gt;褚四&lt;/b&gt;" in d.page_source or "<b>褚四</b>" not in d.page_source
    shot(d, "12-print-sheets")
    # printed: no page header, each table on its own page
    d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    assert not d.find_element(By.CSS_SELECTOR, "header.top").is_displayed()
    assert sheets[0].value_of_css_property("break-after") == "page"
    pdf = base64.b64decode(d.print_page())
    assert pdf.startswith(b"%PDF")
    (ARTIFACTS / "13-print-round1.pdf").write_bytes(pdf)
