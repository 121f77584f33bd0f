"""A room in Chromium at 390 px (issue 33): one person plays a whole match against five agents from the
link `gouji room serve` prints, tapping the first action offered each time."""

from __future__ import annotations

import subprocess
import sys
import time
from typing import Any

from selenium.webdriver.common.by import By

from .conftest import ROOT, free_port, open_page, shot, wait_for


def test_one_person_and_five_agents_play_a_hand_in_chromium(browser: Any) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gouji_rules.cli", "room", "serve", "dagang", "--hands", "1", "--delay", "0",
         "--seed", "3", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(2)]  # the host's link first, then seat 1's
        assert lines[0].startswith("host: ") and lines[1].startswith("seat 1: ")
        link = lines[1].split(": ", 1)[1].strip()
        open_page(browser, link, "#acts")
        shot_taken = False
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            status = browser.find_element(By.ID, "status").text
            if "打完了" in status:
                break
            buttons = browser.find_elements(By.CSS_SELECTOR, "#acts button")
            if buttons and "轮到你了" in status:
                dealt = "没有牌" not in browser.find_element(By.ID, "hand").text
                if not shot_taken and len(buttons) > 1 and dealt:
                    shot(browser, "room-390", height=900)
                    shot_taken = True
                buttons[0].click()
                wait_for(browser, lambda d, b=buttons[0]: _gone(b), "the next view")
            else:
                time.sleep(0.05)
        assert "打完了" in browser.find_element(By.ID, "status").text
        assert "比分" in browser.find_element(By.ID, "scores").text
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _gone(element: Any) -> bool:
    try:
        element.is_displayed()
        return False
    except Exception:  # the view was redrawn: the old button is no longer in the page
        return True
