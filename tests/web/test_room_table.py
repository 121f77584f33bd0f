"""The seat's page in Chromium (issue 33, deliver 3 and 8): whole matches played with the phone-first
table — 最小能管 / 出最小 in one tap, 提示 then 出牌 in two, 过牌 in one, a set picked rank by rank — under
`dagang`, `dianshaomenla` and a club file, one person with five agents and two people in two browser
sessions with four agents; AI建议, 规则 and 复盘 from the page; screenshots at 390 and 1280 wide."""

from __future__ import annotations

import time
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from ..servers import room_serve
from .conftest import open_page, shot, wait_for

DEADLINE = 300


class Player:
    """One person at one browser: makes each decision of its seat with at most two taps, and checks the
    server took it (the view's seq moved on, no refusal shown)."""

    def __init__(self, driver: Any, link: str) -> None:
        self.driver = driver
        open_page(driver, link, "#acts")
        wait_for(driver, lambda d: d.execute_script("return view !== null"), "the first view")
        self.decisions = self.taps = self.picked = self.advised = 0
        self.parts: set[str] = set()
        """the parts of the rules sheet the decisions' 这一步的规则 links opened at"""

    def state(self) -> dict[str, Any]:
        return self.driver.execute_script("return view")

    def over(self) -> bool:
        return bool(self.state()["over"])

    def step(self) -> bool:
        """Make the decision asked, if it is this seat's; True when it made one."""
        d, f = self.driver, self.state()
        if not f["yours"] or f["over"]:
            return False
        clause = d.find_element(By.ID, "clause")
        if clause.is_displayed():
            self.parts.add(clause.get_attribute("href").rsplit("#", 1)[1])
        taps = self._decide(f)
        self.decisions += 1
        assert taps <= 2 or taps == -1
        wait_for(
            d,
            lambda d: d.execute_script("return view.seq") != f["seq"] or d.find_element(By.ID, "msg").text,
            "the next view",
        )
        assert d.find_element(By.ID, "msg").text == "", (f["observation"]["mode"], d.find_element(By.ID, "msg").text)
        return True

    def _click(self, css: str) -> None:
        self.driver.find_element(By.CSS_SELECTOR, css).click()
        self.taps += 1

    def _decide(self, f: dict[str, Any]) -> int:
        o, d = f["observation"], self.driver
        k = self.decisions
        if not d.find_elements(By.ID, "smallest"):  # not a set of cards: the decision's own buttons
            self._click("#acts button")
            return 1
        legal = o["legal"]
        plain = [a for a in legal if a not in o["legal_compact"]["extras"] and len(set(a)) == 1 and a[0] not in "2"]
        if not self.picked and plain and o["legal_compact"]["kind"] == "play":  # a set picked rank by rank
            for _ in plain[0]:
                self._click(f'#hand button[data-rank="{plain[0][0]}"]')
            self._click("#play")
            self.picked += 1
            return -1  # not the common case: as many taps as cards, then 出牌
        if f["advice"] and not self.advised and k % 5 == 4:  # AI建议, then one of its three
            self._click("#advise")
            wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#advice button"), "the agent's advice")
            assert 1 <= len(d.find_elements(By.CSS_SELECTOR, "#advice button")) <= 3
            self._click("#advice button")
            self.advised += 1
            return 2
        if k % 3 == 1:
            self._click("#hint")
            self._click("#play")
            return 2
        if k % 3 == 2 and d.find_elements(By.ID, "pass"):
            self._click("#pass")
            return 1
        self._click("#smallest")
        return 1


def _play(players: list[Player]) -> None:
    deadline = time.monotonic() + DEADLINE
    while not players[0].over():
        assert time.monotonic() < deadline, "the match did not end"
        if not any(p.step() for p in players):
            time.sleep(0.05)


@pytest.mark.parametrize("variant", ["dagang", "dianshaomenla", "examples/clubs/qingdao.yaml"])
def test_one_person_plays_a_whole_match_with_the_table_in_one_or_two_taps(browser: Any, variant: str) -> None:
    with room_serve(variant, "--hands", "2", "--delay", "0", "--seed", "5", "--agents", "simple") as links:
        me = Player(browser, links["seat 1"])
        _play([me])
        assert me.decisions > 10 and me.picked == 1 and me.advised == 1
        assert "打完了" in browser.find_element(By.ID, "status").text
        assert "play" in me.parts
        open_page(browser, links["seat 1"].split("#")[0] + "/rules", "h1")
        for part in me.parts:  # each decision's link lands on a part of the sheet that exists
            assert browser.find_elements(By.ID, part), part


@pytest.mark.parametrize("variant", ["dagang", "dianshaomenla", "examples/clubs/qingdao.yaml"])
def test_two_people_in_two_browsers_play_a_match_and_review_a_hand(browser: Any, desktop: Any, variant: str) -> None:
    with room_serve(variant, "--people", "2", "--hands", "2", "--delay", "0", "--seed", "8", lines=3) as links:
        phone, laptop = Player(browser, links["seat 1"]), Player(desktop, links["seat 2"])
        shots = {"room-390": (browser, phone, 390, 844), "room-1280": (desktop, laptop, 1280, 800)}
        deadline = time.monotonic() + DEADLINE
        while not phone.over():
            assert time.monotonic() < deadline, "the match did not end"
            for name, (driver, player, width, height) in list(shots.items()):
                state = player.state()  # each page shot while its own seat decides a play, a full hand
                full = variant == "dagang" and state["yours"] and len(state["observation"]["hand"]) > 30
                if full and driver.find_elements(By.ID, "smallest"):
                    shot(driver, name, height=height, width=width)
                    del shots[name]
            if not any(p.step() for p in (phone, laptop)):
                time.sleep(0.05)
        assert (not shots or variant != "dagang") and phone.decisions > 10 and laptop.decisions > 10
        browser.find_element(By.XPATH, "//button[text()='复盘第1局']").click()
        link = wait_for(browser, lambda d: d.find_elements(By.PARTIAL_LINK_TEXT, "打开第1局复盘"), "the review")[0]
        browser.get(link.get_attribute("href"))
        assert "复盘 · 第1座" in browser.find_element(By.TAG_NAME, "h1").text
        open_page(desktop, links["seat 2"].split("#")[0] + "/rules", "h1")
        assert "够级" in desktop.find_element(By.TAG_NAME, "body").text


def test_attacks_from_the_page_are_refused_in_chinese_and_leave_the_game_unchanged(browser: Any) -> None:
    """Issue 33 deliver 8's attacks, each from a real page: a malformed action, an illegal one, a replayed
    frame, another seat's turn, a second tab of the same seat, an old link, a wrong secret, a flood."""
    import json

    with room_serve("dagang", "--people", "2", "--hands", "1", "--delay", "0", "--seed", "3", lines=3) as links:
        me = Player(browser, links["seat 1"])
        d = browser

        def refused(frame: object) -> str:
            text = frame if isinstance(frame, str) else json.dumps(frame)
            d.execute_script("document.getElementById('msg').textContent = ''; ws.send(arguments[0])", text)
            return str(wait_for(d, lambda d: d.find_element(By.ID, "msg").text, "a refusal"))

        wait_for(d, lambda d: me.state()["yours"], "seat 1's decision")
        f = me.state()
        assert refused({"type": "act", "seq": f["seq"], "action": "KKKKKKKKK"}) == "这一步不合规则，请换一手。"
        assert refused("not json") == "看不懂这条消息。"
        assert me.state()["seq"] == f["seq"]  # nothing changed
        frame = {"type": "act", "seq": f["seq"], "action": f["observation"]["legal"][0]}
        d.execute_script("ws.send(arguments[0])", json.dumps(frame))
        wait_for(d, lambda d: d.execute_script("return view.seq") != f["seq"], "the move taken")
        assert refused(frame) == "这一步已经过去了，请看最新的牌面。"  # the same frame replayed
        wait_for(d, lambda d: me.state()["turn"] == 1 or me.state()["yours"], "a person's decision")
        assert me.state()["turn"] == 1  # seat 2's person decides (no 托管 for 30 s): seat 1 acts for them
        taken = me.state()["seq"]
        assert refused({"type": "act", "seq": taken, "action": "pass"}) == "还没轮到你。"
        assert me.state()["seq"] == taken
        d.switch_to.new_window("tab")  # a second tab of the same seat: the same view, its old frame refused
        open_page(d, links["seat 1"], "#acts")
        wait_for(d, lambda d: d.execute_script("return view !== null"), "the second tab's view")
        assert refused(frame) == "这一步已经过去了，请看最新的牌面。"
        code = links["seat 1"].split("/r/")[1].split("#")[0]
        d.get(links["seat 1"].replace(code, code[::-1]))  # a link of a room this server does not hold
        assert "没有这个房间" in d.find_element(By.TAG_NAME, "body").text
        d.get("about:blank")  # a link that differs only after # would not reload the page
        open_page(d, links["seat 1"].split("#")[0] + "#" + "x" * 22, "#acts")  # this room, a secret it never gave
        assert wait_for(d, lambda d: d.find_element(By.ID, "msg").text, "a refusal") == "这个链接不是本房间的座位链接。"
        d.get("about:blank")
        open_page(d, links["seat 1"], "#acts")
        wait_for(d, lambda d: d.execute_script("return view !== null"), "the view")
        d.execute_script("for (let i = 0; i < 60; i++) ws.send('{}')")  # a flood of refused frames
        wait_for(d, lambda d: "连接断开" in d.find_element(By.ID, "status").text, "the flooding socket closed")
        d.close()
        d.switch_to.window(d.window_handles[0])
        assert "连接断开" not in d.find_element(By.ID, "status").text  # the first tab is still at the table
        assert me.state()["seq"] >= f["seq"] + 1


def test_a_chosen_set_that_is_not_legal_is_explained_in_chinese_and_never_sent(browser: Any) -> None:
    """出牌 with a chosen set that no legal action equals (a single low card on a bigger set): the page says
    why in Chinese and sends nothing; a set it does send is the server's own spelling of a legal action."""
    import json

    with room_serve("dagang", "--hands", "1", "--delay", "0", "--seed", "5", "--agents", "simple") as links:
        me = Player(browser, links["seat 1"])
        d = browser
        d.execute_script("window.sent = []; const s0 = ws.send.bind(ws); ws.send = (t) => { sent.push(t); s0(t); };")
        deadline = time.monotonic() + DEADLINE
        while True:
            assert time.monotonic() < deadline and not me.over(), "no follow decision with a full list came"
            f = me.state()
            if not f["yours"]:
                time.sleep(0.05)
                continue
            o = f["observation"]
            bad = _single_not_legal(o) if d.find_elements(By.ID, "smallest") else None
            if bad is not None:
                break
            me.step()
        before = len(d.execute_script("return sent"))
        d.find_element(By.CSS_SELECTOR, f'#hand button[data-rank="{bad}"]').click()
        d.find_element(By.ID, "play").click()
        msg = d.find_element(By.ID, "msg").text
        assert "不能出" in msg and ("管不上" in msg or "张" in msg), msg
        assert len(d.execute_script("return sent")) == before  # nothing went to the server
        assert me.state()["seq"] == f["seq"]
        d.find_element(By.CSS_SELECTOR, "#chosen button").click()  # the chosen card taken back
        assert d.execute_script("return Object.values(chosen).every((n) => n === 0)")
        d.find_element(By.ID, "hint").click()
        d.find_element(By.ID, "play").click()
        wait_for(d, lambda d: d.execute_script("return view.seq") != f["seq"], "the hinted set taken")
        assert json.loads(d.execute_script("return sent")[-1])["action"] in o["legal"]


def _single_not_legal(o: dict[str, Any]) -> str | None:
    """A rank of the seat's hand whose single card is no legal set, when the legal list is complete and the
    seat follows a set on the table; else None."""
    legal = o["legal"]
    if not o.get("table") or len(legal) < o["legal_count"] or o["legal_compact"]["kind"] != "play":
        return None
    hand = o["hand"].replace("SJ", "").replace("BJ", "")
    for rank in "3456789TJQKA":
        if rank in hand and rank not in legal:
            return rank
    return None
