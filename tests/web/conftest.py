"""A real ``gouji event serve`` on a free port of 127.0.0.1, an event to serve, and Debian's Chromium.

The browser is the system's (/usr/bin/chromium driven by /usr/bin/chromedriver);
nothing downloads one.  CI installs them (.ci/run) and sets GOUJI_BROWSER_TESTS=required, so there a missing
browser fails rather than skips and is never mistaken for a pass; elsewhere (the README's
quickstart on a machine with only Python) these tests skip with the install command.
Screenshots go to test-artifacts/web/ (ignored by git, kept by CI).
"""

from __future__ import annotations

import base64
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from ..servers import free_port

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "web"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
PLAYERS = ["张三", "李四", "王五", "赵六", "钱七", "孙八", "周九", "吴十", "郑一", "冯二", "陈三", "<b>褚四</b>"]


def make_event(path: Path, *, variant: str = "dagang", hands: int = 2) -> Path:
    players = path.parent / "players.csv"
    players.write_text("name\n" + "".join(f"{n}\n" for n in PLAYERS), encoding="utf-8")
    r = subprocess.run(
        [sys.executable, "-m", "gouji_rules.cli", "event", "new", str(path), "--name", "春季赛",
         "--variant", variant, "--players", str(players), "--rounds", "3", "--hands", str(hands)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    return path


@dataclass
class Server:
    """A running server: its address, the organiser's link, and each (round, table, side)'s link."""

    url: str
    admin: str
    links: dict[tuple[int, int, str], str]
    proc: subprocess.Popen[str]
    event: Path
    log: list[str] = field(default_factory=list)

    def link(self, rnd: int, tbl: int, side: str) -> str:
        return self.links[(rnd, tbl, side)]


LINK_RE = re.compile(r"^round (\d+) table (\d+) side ([AB]): (\S+)$")


def start_server(event: Path, *extra: str) -> Server:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gouji_rules.cli", "event", "serve", str(event), "--port", str(port), *extra],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    assert proc.stderr is not None
    links: dict[tuple[int, int, str], str] = {}
    admin = ""
    log: list[str] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        log.append(line)
        m = LINK_RE.match(line.strip())
        if m:
            links[(int(m[1]), int(m[2]), m[3])] = m[4]
        elif line.startswith("organiser: "):
            admin = line.split(": ", 1)[1].strip()
        if len(links) == 12:
            break
    url = f"http://127.0.0.1:{port}"
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url + "/", timeout=10).read()
            break
        except OSError:  # URLError, a refused connection, or a first page slower than the timeout
            time.sleep(0.1)
    else:
        proc.kill()
        pytest.fail("the server did not start: " + "".join(log))
    return Server(url, admin, links, proc, event, log)


def stop_server(server: Server) -> None:
    server.proc.terminate()
    try:
        server.proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.proc.kill()
        server.proc.wait()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Server]:
    server = start_server(make_event(tmp_path / "spring.sqlite"))
    try:
        yield server
    finally:
        stop_server(server)


@pytest.fixture
def browser() -> Iterator[Any]:
    """Headless Chromium at a phone's size (390×844), with a new empty profile."""
    yield from _chromium(phone=True)


@pytest.fixture
def desktop() -> Iterator[Any]:
    """Headless Chromium in a laptop's window, 1280 CSS pixels wide (the organiser's screen)."""
    yield from _chromium(phone=False)


def _chromium(*, phone: bool) -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must never fetch a browser or driver
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        why = "install Debian's chromium and chromium-driver (apt-get install -y chromium chromium-driver)"
        if os.environ.get("GOUJI_BROWSER_TESTS") == "required":  # .ci/run: never skipped there
            pytest.fail(why)
        pytest.skip(why)  # a fresh machine with only Python (the README's quickstart) has no browser
    profile = tempfile.mkdtemp(prefix="gouji-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=500,900" if phone else "--window-size=1280,900",
        f"--user-data-dir={profile}",
        "--lang=zh-CN",
    ):
        opts.add_argument(arg)
    # a phone's screen: 390×844 CSS pixels, touch, the viewport meta honoured (a desktop window cannot be that narrow)
    if phone:
        opts.add_experimental_option(
            "mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 1.0, "touch": True}}
        )
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


WAIT_SECONDS = 60
"""The longest a browser test waits for what it checks: generous for a loaded machine, never forever."""


def wait_for(driver: Any, condition: Any, what: str) -> Any:
    """Poll ``condition(driver)`` until it is true (returning its value), or fail naming ``what``."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT_SECONDS, poll_frequency=0.1).until(
        condition, message=f"waited {WAIT_SECONDS} s for {what}"
    )


def loaded(driver: Any, css: str = "main") -> None:
    """Wait until the page has finished loading and shows ``css`` (a page is never read half-loaded)."""
    from selenium.webdriver.common.by import By

    wait_for(
        driver,
        lambda d: (
            d.execute_script("return document.readyState") == "complete" and d.find_elements(By.CSS_SELECTOR, css)
        ),
        f"a loaded page with {css!r} ({driver.current_url})",
    )


def open_page(driver: Any, url: str, css: str = "main") -> None:
    driver.get(url)
    loaded(driver, css)


def wait_text(driver: Any, text: str, css: str = "body") -> None:
    """Wait until ``text`` shows in the element ``css`` (the whole page by default)."""
    from selenium.webdriver.common.by import By

    def shown(d: Any) -> bool:
        return any(text in e.text for e in d.find_elements(By.CSS_SELECTOR, css))

    wait_for(driver, shown, f"{text!r} in {css!r} ({driver.current_url})")


def shot(driver: Any, name: str, top: float = 0, height: float = 8000, width: float = 390) -> Path:
    """A screenshot at phone width, or ``width`` (the whole page, or ``height`` pixels from ``top``) in
    test-artifacts/web/."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    png = driver.execute_cdp_cmd(
        "Page.captureScreenshot",
        {
            "format": "png",
            "captureBeyondViewport": True,
            "clip": {"x": 0, "y": top, "width": width, "height": min(float(size["height"]) - top, height), "scale": 1},
        },
    )["data"]
    path.write_bytes(base64.b64decode(png))
    return path
