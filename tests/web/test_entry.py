"""Entering and confirming a hand as a table does: names tapped in finishing order, who burned whom,
开点 by who did not open; every refusal in Chinese naming players; the confirming side reads every fact
and what follows next hand, from the engine's own settlement (``gouji event record``'s lines)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from gouji_rules.tournament import club as clubmod
from gouji_rules.tournament.club import Entry
from gouji_rules.tournament.event import Tournament
from gouji_rules.web import lan
from gouji_rules.web.app import Config, create_app

from .conftest import make_event
from .test_app import FINISH, Club


@pytest.fixture(name="club")
def _club(tmp_path: Path) -> Iterator[Club]:
    event = make_event(tmp_path / "spring.sqlite")
    with TestClient(create_app(Config(event_path=event, log=lambda msg: None)), raise_server_exceptions=False) as c:
        yield Club(c, event)


def _names(club: Club, tbl: int = 1) -> list[str]:
    with Tournament.open(club.event) as ev:
        return ev.seat_names(ev.db.seating(1)[(1, tbl)])


def _who(names: list[str], s: int) -> str:
    return f"{names[s]}（{s + 1}号）"


def test_five_taps_place_all_six(club: Club) -> None:
    """A plain hand: five names tapped (头科 … 二落), the player left is 大落; seven taps with 录入 and 提交."""
    five = {k: v for k, v in FINISH.items() if k != "p6"}
    assert club.enter(1, 0, **five).status_code == 303
    club.post(f"{club.link(1, 1, 1)}/hand/1/confirm", {"csrf": club.csrf(), "audit": club.pending_audit(1, 1)})
    with Tournament.open(club.event) as ev:
        row = ev.db.hand(1, 1, 1)
        assert row is not None and row.result["finish"] == [0, 2, 4, 1, 3, 5]


def test_a_finish_with_a_player_twice_and_two_left_out_is_refused_in_chinese(club: Club) -> None:
    names = _names(club)
    r = club.enter(1, 0, p2="0", p6="")  # seat 0 at 头科 and 二科; 二科's player and 大落 left empty
    assert r.status_code == 422
    text = r.text
    assert f"{_who(names, 0)} 选了两次（头科、二科）" in text and "大落 还没选人" in text
    assert _who(names, 2) in text and _who(names, 5) in text and "还没有名次" in text
    assert "finish" not in text.split('role="alert"')[1].split("</p>")[0]  # no engine text
    assert club.stored() == 0


def test_s4_art6_burning_the_opposite_is_refused_in_chinese_naming_both(club: Club) -> None:
    """S4 第六条 / S0 五、烧牌: the opposite answers a 够级 set; nobody burns his opposite."""
    names = _names(club)
    r = club.enter(1, 0, burn_by="0", burn_on="3")
    assert r.status_code == 422
    alert = r.text.split('role="alert">')[1].split("</p>")[0]
    assert alert.startswith("规则不接受这个结果：")
    assert f"{names[0]} 烧 {names[3]}" in alert and "对头" in alert and "第六条" in alert
    assert "S4" not in alert and "《够级大纲》" in alert
    assert not re.search(r"[A-Za-z]{4,}", alert.split("（")[0])  # words, not the engine's English or a rule id
    assert club.stored() == 0


def test_s4_art6_a_burn_needs_both_pickers(club: Club) -> None:
    r = club.enter(1, 0, burn_by="0", burn_on="")
    assert r.status_code == 400 and "请选全一对里的两个人" in r.text


def test_s4_art15_a_seat_men_itself_is_refused_in_chinese(club: Club) -> None:
    """S4 第十五条 / S0 六、闷与被闷: a seat cannot 闷 itself."""
    names = _names(club)
    r = club.enter(1, 0, men_victim="1", men_by="1")
    assert r.status_code == 422
    alert = r.text.split('role="alert">')[1].split("</p>")[0]
    assert f"{names[1]} 被 {names[1]} 闷" in alert and "不能闷自己" in alert
    assert "《够级大纲》第十五条" in alert and "《点烧闷拉够级规则明细》六、闷与被闷" in alert  # texts by name
    assert "S4" not in alert and "S0" not in alert


def test_refusals_in_english_name_players_too(club: Club) -> None:
    names = _names(club)
    base = club.link(1, 1, 0)
    data = {"csrf": club.csrf(f"{base}/hand/1"), **FINISH, "burn_by": "0", "burn_on": "3"}
    r = club.post(f"{base}/hand/1?lang=en", data)
    alert = r.text.split('role="alert">')[1].split("</p>")[0]
    assert alert.startswith("The rules refuse this result:") and f"{names[0]} → {names[3]}" in alert
    assert "opposite" in alert and "0:3" not in alert


def test_not_opened_is_what_the_table_enters(club: Club) -> None:
    """开点 as the table says it: everyone who played opened, except the players tapped as 没开点."""
    assert club.enter(1, 0, open_form="except", not_opened="5").status_code == 303
    with Tournament.open(club.event) as ev:
        pend = [a for a in ev.db.audit() if a["action"] == "enter"][-1]
    new = pend["new"] if isinstance(pend["new"], dict) else json.loads(pend["new"])
    assert sorted(new["entry"]["opened"]) == ["0", "1", "2", "3", "4"]


def test_the_confirming_side_reads_every_fact_and_next_hands_tribute_from_the_engine(club: Club) -> None:
    names = _names(club)
    facts = {"burn_by": "0", "burn_on": "1", "open_form": "except", "not_opened": "5", "declare2": "mingdian"}
    assert club.enter(1, 0, **facts).status_code == 303
    page = club.c.get(club.link(1, 1, 1)).text
    assert f"烧：{_who(names, 0)} 烧了 {_who(names, 1)}" in page
    assert f"没开点：{_who(names, 5)}" in page and f"明点：{_who(names, 2)}" in page
    # what gouji event record prints for the same entry: the next leader and every tribute
    with Tournament.open(club.event) as ev:
        entry = Entry(1, 1, 1, ["0", "2", "4", "1", "3", "5"], burns=["0:1"], opened=["0", "1", "2", "3", "4"],
                      declare=["mingdian:2"])  # fmt: skip
        sc = clubmod.score_entry(ev, entry)
        described = clubmod.describe(ev, sc)
    leader = sc.settlement.next_leader
    assert f"seat {leader} ({names[leader]}) leads" in described
    assert f"下一局由 {_who(names, leader)} 先出牌" in page
    assert sc.debts, described
    for d in sc.debts:
        kind = clubmod.DEBT_NAMES[d.kind]
        assert f"进贡：{_who(names, d.giver)} 给 {_who(names, d.receiver)} {d.count} 张（{kind}）" in page
    # the same summary once confirmed, and on the organiser's page
    club.post(f"{club.link(1, 1, 1)}/hand/1/confirm", {"csrf": club.csrf(), "audit": club.pending_audit(1, 1)})
    for path in (club.link(1, 1, 0), club.link(1, 1, 1), club.admin):
        text = club.c.get(path).text
        assert (
            f"下一局由 {_who(names, leader)} 先出牌" in text and f"烧：{_who(names, 0)} 烧了 {_who(names, 1)}" in text
        )


def test_seats_are_counted_one_to_six(club: Club) -> None:
    page = club.c.get("/rounds/1").text
    seats = re.findall(r'<tr class="side\d"><td>(\d)</td>', page)
    assert seats[:6] == ["1", "2", "3", "4", "5", "6"]
    assert "你是A方（座位 1 3 5）" in club.c.get(club.link(1, 1, 0)).text


def test_standings_tell_not_played_from_scored_zero(club: Club) -> None:
    assert club.enter(1, 0).status_code == 303  # side A sweeps (串三户): side B plays and scores 0
    club.post(f"{club.link(1, 1, 1)}/hand/1/confirm", {"csrf": club.csrf(), "audit": club.pending_audit(1, 1)})
    names, other = _names(club, 1), _names(club, 2)
    page = club.c.get("/").text
    rows = {
        m[1]: m[2]
        for m in re.finditer(
            r"<summary>([^<]+)</summary>.*?</details></td>\n<td>[^<]*</td><td[^>]*>([^<]+)</td>", page, re.S
        )
    }
    assert rows[names[1]] == "0" and rows[other[0]] == "未上场"


def test_the_next_rounds_seating_shows_when_a_round_ends(club: Club) -> None:
    assert "下一轮座次" not in club.c.get("/").text
    for tbl in (1, 2):
        for hand in (1, 2):
            path = f"{club.admin}/r/1/t/{tbl}/hand/{hand}"
            assert club.post(path, {"csrf": club.csrf(path), **FINISH}).status_code == 303
    page = club.c.get("/").text
    assert "下一轮座次：第2轮" in page
    with Tournament.open(club.event) as ev:
        round2 = ev.seat_names(ev.db.seating(2)[(2, 1)])
    assert f"1 {round2[0]}" in page


def test_print_warns_when_its_links_point_at_this_machine_only(tmp_path: Path) -> None:
    event = make_event(tmp_path / "spring.sqlite")
    app = create_app(Config(event_path=event, log=lambda msg: None))
    for base, warned in (
        ("http://127.0.0.1:8765", True),
        ("http://localhost:8765", True),
        ("http://192.168.1.20:8765", False),
    ):
        with TestClient(app, base_url=base) as c:
            admin = f"/admin/{c.app.state.gouji.links.admin_token}"  # type: ignore[attr-defined]
            page = c.get(f"{admin}/print/1").text
            assert ("只有这台电脑自己能打开" in page) is warned, base
            if warned:
                for addr in lan.lan_addresses():
                    assert f"http://{addr}:8765{admin}/print/1" in page


def test_loopback_addresses_are_recognised_and_lan_addresses_are_not() -> None:
    for url in ("http://127.0.0.1:8000", "http://127.8.9.1/", "http://[::1]:8000/x", "http://LOCALHOST:80"):
        assert lan.is_loopback(url), url
    for url in ("http://192.168.1.5:8000", "http://10.0.0.2/", "http://gouji.example/"):
        assert not lan.is_loopback(url), url
    assert all(not a.startswith("127.") for a in lan.lan_addresses())


def test_forged_pickers_and_chips_get_400_and_store_nothing(club: Club) -> None:
    base = club.link(1, 1, 0)
    csrf = club.csrf(f"{base}/hand/1")
    forged = [
        {"burn_by": "9", "burn_on": "1"},
        {"burn_by": ["0", "2"], "burn_on": "1"},  # rows that do not pair up
        {"men_victim": "x", "men_by": "1"},
        {"open_form": "except", "not_opened": "6"},
        {"p1": "-1"},
    ]
    for extra in forged:
        r = club.post(f"{base}/hand/1", {"csrf": csrf, **FINISH, **extra})
        assert r.status_code == 400 and "Traceback" not in r.text, extra
    assert club.stored() == 0
    with Tournament.open(club.event) as ev:
        assert not ev.db.audit()


def test_a_refused_entry_keeps_every_fact_typed(club: Club) -> None:
    r = club.enter(1, 0, burn_by="0", burn_on="3", open_form="except", not_opened="4", declare2="mingdian")
    assert r.status_code == 422
    text = r.text
    assert re.search(r'name="burn_by"[^>]*>.*?<option value="0" selected', text, re.S)
    assert re.search(r'name="burn_on"[^>]*>.*?<option value="3" selected', text, re.S)
    assert 'id="no4" value="4" checked' in text and 'id="no3" value="3" checked' not in text
    assert '<option value="mingdian" selected' in text


def test_a_table_is_told_where_its_players_sit_next_round(club: Club) -> None:
    """As Bridgemate names the next table: once a match is complete, each player's next table and seat."""
    for hand in (1, 2):
        path = f"{club.admin}/r/1/t/1/hand/{hand}"
        assert "下一轮座次" not in club.c.get(club.link(1, 1, 0)).text
        assert club.post(path, {"csrf": club.csrf(path), **FINISH}).status_code == 303
    page = club.c.get(club.link(1, 1, 1)).text
    with Tournament.open(club.event) as ev:
        now = ev.db.seating(1)[(1, 1)]
        name = ev.seat_names(now)[0]
        (tbl, seat) = next((t, ids.index(now[0]) + 1) for (_r, t), ids in ev.db.seating(2).items() if now[0] in ids)
    assert f"{name} → 第{tbl}桌 {seat}号座" in page


def _club_of(tmp_path: Path, variant: str) -> Iterator[Club]:
    event = make_event(tmp_path / "e.sqlite", variant=variant)
    with TestClient(create_app(Config(event_path=event, log=lambda msg: None)), raise_server_exceptions=False) as c:
        yield Club(c, event)


def test_s4_art21_a_geming_player_at_the_wrong_place_is_refused_with_the_places_he_takes(tmp_path: Path) -> None:
    """S4 第二十一条: a 革命 player is 四科 (三科 when his teammates took 头科 and 二科)."""
    for club in _club_of(tmp_path, "dagang"):
        names = _names(club)
        r = club.enter(1, 0, open_form="except", geming="0")  # seat 0 declared 革命 but is entered as 头科
        assert r.status_code == 422
        alert = r.text.split('role="alert">')[1].split("</p>")[0]
        assert f"{names[0]}（1号）" in alert and "革命的人应是四科或三科" in alert and "第二十一条" in alert


def test_s0_sec10_a_chongdian_player_takes_fourth_and_the_summary_says_it(tmp_path: Path) -> None:
    """S0 十、冲点: the 冲点 player is 四客, opened if it succeeded; the confirming side reads it in words."""
    for club in _club_of(tmp_path, "dianshaomenla"):
        names = _names(club)
        wrong = club.enter(1, 0, open_form="except", chong0="ok")
        assert wrong.status_code == 422 and "冲点的人应是四客" in wrong.text
        order = {"p1": "2", "p2": "4", "p3": "1", "p4": "0", "p5": "3", "p6": "5"}
        assert club.enter(1, 0, open_form="except", chong0="ok", **order).status_code == 303
        page = club.c.get(club.link(1, 1, 1)).text
        assert f"冲点：{_who(names, 0)} 成功" in page and "先出牌" in page


def test_s4_art9_and_art15_the_confirming_side_reads_no_three_and_qing(club: Club) -> None:
    """第九条 「算做大落」 and 第十五条 「先清为落」, as entered: both facts are on the other side's page."""
    names = _names(club)
    order = {"p3": "3", "p5": "4"}  # 0 2 3 1 4 5: seat 4 清 by seat 3, seat 5 without a 3
    assert club.enter(1, 0, men_victim="4", men_by="3", no_three="5", open_form="except", **order).status_code == 303
    page = club.c.get(club.link(1, 1, 1)).text
    assert f"买不到3（算做大落）：{_who(names, 5)}" in page
    assert f"闷/清：{_who(names, 4)} 被 {_who(names, 3)} 闷" in page
