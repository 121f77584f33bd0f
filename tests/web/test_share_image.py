"""保存图片 (issue 34 item 5): the standings, the season and the rule sheet saved as a picture for a group chat.

Each page draws its own picture (no Chromium on the club's laptop, no CDN): the test clicks the button in
Chromium at a phone's 390 px and in a 1280 px window, reads the PNG the browser downloaded and checks
what a chat needs: always 1080 px wide, portrait but not a sliver, and text on it (not a blank canvas).
"""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from .conftest import (
    ARTIFACTS,
    Server,
    free_port,
    make_event,
    open_page,
    start_server,
    stop_server,
    wait_for,
)
from .test_season_page import night

WIDTH = 1080


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the rows of RGBA bytes of an 8-bit RGBA, non-interlaced PNG (what a canvas writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _c, _f, interlace = struct.unpack(">IIBBBBB", body)
            assert (depth, colour, interlace) == (8, 6, 0), "a canvas writes 8-bit RGBA without interlace"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, rows, prev = zlib.decompress(idat), width * 4, [], bytearray(width * 4)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b = prev[i]
            c = prev[i - 4] if i >= 4 else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows


def inked(rows: list[bytes]) -> float:
    """The share of pixels that are dark (text), sampled every 4th row and column."""
    dark = total = 0
    for row in rows[::4]:
        for x in range(0, len(row), 16):
            total += 1
            dark += row[x] + row[x + 1] + row[x + 2] < 3 * 128
    return dark / total


def save_picture(driver: Any, folder: Path, name: str) -> tuple[Path, int, int, float]:
    """Tap 保存图片 and return the downloaded PNG, its size and how much of it is ink."""
    folder.mkdir(exist_ok=True)
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(folder)})
    button = wait_for(
        driver,
        lambda d: [b for b in d.find_elements(By.CSS_SELECTOR, "button[data-share]") if b.is_displayed()],
        "保存图片",
    )[0]
    assert button.text == "保存图片"
    button.click()
    done = wait_for(
        driver,
        lambda d: [p for p in folder.glob("*.png") if p.stat().st_size > 0 and not list(folder.glob("*.crdownload"))],
        "the downloaded picture",
    )
    path = done[0]
    time.sleep(0.2)  # the download's last write and rename (the file is then checked whole by its own chunks)
    width, height, rows = png_pixels(path.read_bytes())
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"share-{name}.png").write_bytes(path.read_bytes())
    preview = driver.find_element(By.ID, "share-preview")
    assert preview.is_displayed() and "长按" in preview.text  # a chat app's browser saves by a long press
    return path, width, height, inked(rows)


@pytest.fixture(params=["browser", "desktop"])
def screen(request: pytest.FixtureRequest) -> Any:
    """The phone (390 px) and the laptop (1280 px): the picture is the same size from both."""
    driver = request.getfixturevalue(request.param)
    driver.shown_as = "390" if request.param == "browser" else "1280"
    return driver


def test_standings_save_as_a_picture_for_a_chat(served: Server, screen: Any, tmp_path: Path) -> None:
    open_page(screen, served.url + "/", "table.standings")
    path, width, height, ink = save_picture(screen, tmp_path / "dl", f"standings-{screen.shown_as}")
    assert path.name == "春季赛-排名.png"
    assert width == WIDTH and 1.0 <= height / width <= 2.5  # twelve players: one screen of a chat, portrait
    assert 0.01 < ink < 0.5  # text on white, not a blank or a black canvas


def test_the_season_saves_as_a_picture_for_a_chat(tmp_path: Path, screen: Any) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    for i, stem in enumerate(("2026-09-04", "2026-09-11"), start=1):
        night(folder, stem, i)
    (tmp_path / "served").mkdir()
    server = start_server(make_event(tmp_path / "served" / "spring.sqlite"), "--season", str(folder))
    try:
        open_page(screen, server.url + "/season", "table.season")
        path, width, height, ink = save_picture(screen, tmp_path / "dl", f"season-{screen.shown_as}")
    finally:
        stop_server(server)
    assert path.name == "赛季-2026-09-11.png"
    assert width == WIDTH and 0.5 <= height / width <= 2.5
    assert 0.01 < ink < 0.5


@pytest.fixture
def club_home(tmp_path: Path) -> Iterator[str]:
    """``gouji club FOLDER`` on a free port, the folder holding one house rules file; its printed address."""
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "青岛规则.yaml").write_text("name: qingdao-house\ntitle: 青岛家规\nextends: dagang\n", encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gouji_rules.cli", "club", str(folder), "--port", str(free_port()), "--no-browser"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        yield proc.stdout.readline().strip()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_the_rule_sheet_saves_as_a_picture_and_still_prints_without_the_button(
    club_home: str, screen: Any, tmp_path: Path
) -> None:
    open_page(screen, club_home, "main")
    open_page(screen, club_home.split("?")[0] + "rules/sheet?file=青岛规则.yaml", "h1")
    path, width, height, ink = save_picture(screen, tmp_path / "dl", f"sheet-{screen.shown_as}")
    assert path.name == "青岛规则-规则.png"
    assert width == WIDTH and height > width  # the whole sheet: a long picture, as chats show rules
    assert 0.01 < ink < 0.5
    screen.find_element(By.CSS_SELECTOR, "#share-preview button").click()
    screen.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    assert not screen.find_element(By.CSS_SELECTOR, "button[data-share]").is_displayed()  # not on paper


def test_a_table_too_tall_for_any_canvas_is_cut_and_says_so(served: Server, browser: Any) -> None:
    """Six hundred players would make a canvas taller than a phone can hold (a blank picture): the picture
    keeps the rows that fit and says how many more the page has."""
    open_page(browser, served.url + "/", "table.standings")
    wait_for(browser, lambda d: d.execute_script("return !!window.goujiShare"), "share.js")
    got = browser.execute_script(
        """const rows = Array.from({length: 600}, (_, i) => [String(i + 1), "选手" + i, "0", "0"]);
        const c = window.goujiShare.draw({title: "大赛", subtitle: "", foot: "", file: "x.png",
            blocks: [{heading: "", cols: ["名次", "选手", "赛分", "局分"], rows: rows}]});
        const url = c.toDataURL("image/png");
        return [c.width, c.height, window.goujiShare.MAX_HEIGHT, url.length];"""
    )
    width, height, most, size = got
    assert width == WIDTH and most // 2 < height <= most and size > 10000  # drawn, not "data:,"


def test_the_pictures_data_cannot_end_its_script_block_whatever_the_names() -> None:
    """A player named ``</script><script>…`` stays text: the JSON block holds no ``<``, ``>`` or ``&``."""
    from gouji_rules.web import share

    name = '</script><script>alert("&")</script>'
    text = share.as_json(share.picture(name, "", [share.table(["选手"], [[name]])], share.file_name(name, "排名")))
    assert not set("<>&") & set(text)
    data = json.loads(text)
    assert data["title"] == name and data["blocks"][0]["rows"] == [[name]]
    assert data["file"] == "_script_script_alert(_&_)_script_-排名.png"  # no / or " in a download's name
