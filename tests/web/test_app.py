"""The web application attacked: no link, wrong links, other tables, forged forms, races, huge values, HTML."""

from __future__ import annotations

import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from gouji_rules.tournament.event import Tournament
from gouji_rules.web.app import Config, create_app
from gouji_rules.web.links import Seat

from .conftest import Server, make_event

FINISH = {"p1": "0", "p2": "2", "p3": "4", "p4": "1", "p5": "3", "p6": "5"}


class Club:
    """A test client on an event, with the links of its tables and the organiser's."""

    def __init__(self, client: TestClient, event: Path) -> None:
        self.c = client
        self.event = event
        st = client.app.state.gouji  # type: ignore[attr-defined]
        self.links = st.links
        self.admin = f"/admin/{st.links.admin_token}"

    def link(self, rnd: int, tbl: int, side: int) -> str:
        return f"/t/{self.links.token(Seat(rnd, tbl, side))}"

    def csrf(self, path: str = "/") -> str:
        r = self.c.get(path)
        m = re.search(r'name="csrf" value="([^"]+)"', r.text)
        return m[1] if m else str(self.c.cookies.get("gouji_csrf"))

    def post(self, path: str, data: dict[str, Any], **headers: str) -> Any:
        return self.c.post(path, data=data, headers=headers, follow_redirects=False)

    def enter(self, tbl: int, side: int, hand: int = 1, **extra: Any) -> Any:
        base = self.link(1, tbl, side)
        return self.post(f"{base}/hand/{hand}", {"csrf": self.csrf(f"{base}/hand/{hand}"), **FINISH, **extra})

    def pending_audit(self, tbl: int, side: int, hand: int = 1) -> str:
        page = self.c.get(self.link(1, tbl, side)).text
        ids = re.findall(rf'action="[^"]*/hand/{hand}/confirm".*?name="audit" value="(\d+)"', page)
        ids += re.findall(rf'action="[^"]*/hand/{hand}/reject".*?name="audit" value="(\d+)"', page)
        return ids[0]

    def stored(self) -> int:
        with Tournament.open(self.event) as ev:
            return len(ev.db.hands())


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Club]:
    event = make_event(tmp_path / "spring.sqlite")
    app = create_app(Config(event_path=event, log=lambda msg: None))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield Club(client, event)


def test_anyone_may_read_the_standings_and_the_seating(club: Club) -> None:
    r = club.c.get("/")
    assert r.status_code == 200
    assert '<meta name="viewport"' in r.text and 'http-equiv="refresh"' in r.text
    assert club.c.get("/rounds/1").status_code == 200
    assert club.c.get("/?lang=en").text.count("Standings") >= 1


def test_player_names_are_escaped_everywhere(club: Club) -> None:
    for path in ("/", "/rounds/1", club.admin, f"{club.admin}/print/1"):
        text = club.c.get(path).text
        assert "<b>褚四</b>" not in text, path
    assert "&lt;b&gt;褚四&lt;/b&gt;" in club.c.get("/").text


def test_no_token_wrong_token_and_a_guess_are_refused(club: Club) -> None:
    csrf = club.csrf()
    tries = [
        club.post("/t//hand/1", {"csrf": csrf, **FINISH}),
        club.post("/t/hand/1", {"csrf": csrf, **FINISH}),
        club.post("/t/" + "A" * 32 + "/hand/1", {"csrf": csrf, **FINISH}),
        club.post(club.link(1, 1, 0)[:-1] + "x/hand/1", {"csrf": csrf, **FINISH}),
        club.post("/admin/" + "A" * 32 + "/r/1/t/1/hand/1", {"csrf": csrf, **FINISH}),
        club.post("/t/" + "%3Cscript%3E" * 3 + "/hand/1", {"csrf": csrf, **FINISH}),
    ]
    assert [r.status_code for r in tries] == [404, 404, 403, 403, 403, 403]
    assert all("Traceback" not in r.text and "<script>" not in r.text for r in tries)
    assert club.stored() == 0
    assert club.c.get("/t/" + "B" * 32).status_code == 403


def test_a_side_cannot_confirm_its_own_entry_and_another_table_cannot_confirm(club: Club) -> None:
    assert club.enter(1, 0).status_code == 303
    audit = club.pending_audit(1, 0)
    csrf = club.csrf()
    own = club.post(f"{club.link(1, 1, 0)}/hand/1/confirm", {"csrf": csrf, "audit": audit})
    assert own.status_code == 403
    # table 2's link only reaches table 2's hands: its confirm finds nothing waiting there
    other = club.post(f"{club.link(1, 2, 1)}/hand/1/confirm", {"csrf": csrf, "audit": audit})
    assert other.status_code == 409
    # round 2's link of the same table number reaches round 2 only
    later = club.post(f"{club.link(2, 1, 1)}/hand/1/confirm", {"csrf": csrf, "audit": audit})
    assert later.status_code == 409
    assert club.stored() == 0
    ok = club.post(f"{club.link(1, 1, 1)}/hand/1/confirm", {"csrf": csrf, "audit": audit})
    assert ok.status_code == 303 and club.stored() == 1
    again = club.post(f"{club.link(1, 1, 1)}/hand/1/confirm", {"csrf": csrf, "audit": audit})
    assert again.status_code == 409 and club.stored() == 1


def test_cross_site_forms_are_refused(club: Club) -> None:
    csrf = club.csrf()
    base = club.link(1, 1, 0)
    tries = [
        club.post(f"{base}/hand/1", {"csrf": csrf, **FINISH}, Origin="http://evil.example"),
        club.post(f"{base}/hand/1", {"csrf": csrf, **FINISH}, Origin="null"),
        club.post(f"{base}/hand/1", {"csrf": csrf, **FINISH}, **{"Sec-Fetch-Site": "cross-site"}),
        club.post(f"{base}/hand/1", {"csrf": csrf, **FINISH}, **{"Sec-Fetch-Site": "same-site"}),
        club.post(f"{base}/hand/1", {**FINISH}),
        club.post(f"{base}/hand/1", {"csrf": "x" * 43, **FINISH}),
    ]
    assert [r.status_code for r in tries] == [403] * 6
    club.c.cookies.clear()
    assert club.post(f"{base}/hand/1", {"csrf": csrf, **FINISH}).status_code == 403
    assert club.stored() == 0 and club.c.get(base).text.count("待对方确认") == 0
    r = club.c.get("/")
    assert "SameSite=strict" in r.headers["set-cookie"] and "HttpOnly" in r.headers["set-cookie"]
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]


def test_huge_and_forged_form_values_get_4xx(club: Club) -> None:
    base = club.link(1, 1, 0)
    csrf = club.csrf(f"{base}/hand/1")
    big = club.c.post(
        f"{base}/hand/1", content=b"csrf=" + csrf.encode() + b"&p1=" + b"9" * 100_000,
        headers={"content-type": "application/x-www-form-urlencoded"}, follow_redirects=False,
    )  # fmt: skip
    assert big.status_code == 413
    many = club.post(f"{base}/hand/1", {"csrf": csrf, **{f"f{i}": "1" for i in range(300)}})
    assert many.status_code in (400, 413)
    long_value = club.post(f"{base}/hand/1", {"csrf": csrf, **FINISH, "burn": "0:1" * 40})
    assert long_value.status_code == 413
    forged = [
        club.post(f"{base}/hand/1", {"csrf": csrf, **FINISH, "burn": "0:3"}),  # the opposite: never offered
        club.post(f"{base}/hand/1", {"csrf": csrf, **FINISH, "p1": "7"}),
        club.post(f"{base}/hand/1", {"csrf": csrf, **FINISH, "declare0": "nonsense"}),
        club.post(f"{base}/hand/1", {"csrf": csrf, **FINISH, "chong0": "ok"}),  # dagang has no 冲点
        club.c.post(f"{base}/hand/1", json={"csrf": csrf}, follow_redirects=False),
        club.post(f"{base}/hand/99", {"csrf": csrf, **FINISH}),
        club.post(f"{base}/hand/1/confirm", {"csrf": csrf, "audit": "1e9"}),
    ]
    assert [r.status_code for r in forged] == [400, 400, 400, 400, 415, 404, 400]
    assert all("Traceback" not in r.text for r in forged)
    assert club.stored() == 0


def test_the_engine_refuses_an_impossible_result_with_its_reason(club: Club) -> None:
    r = club.enter(1, 0, p2="0")  # seat 0 finishes twice
    assert r.status_code == 422
    assert "选了两次（头科、二科）" in r.text and "finish names each of the six seats once" not in r.text
    assert re.search(r'id="p2s0" value="0" checked', r.text)  # the form keeps what was typed
    assert club.stored() == 0


def test_s4_art15_the_form_refuses_a_qing_seat_above_the_bottom_and_takes_no_three(club: Club) -> None:
    """第十五条 「先清为落」 on the web form as at the command line: seat 4, 清 by seat 3 and entered 二落 above
    seat 5 (not his teammate: no 商定大落), is refused while nobody is entered as without a 3; with seat 5
    entered so (第九条 「算做大落」) it is accepted."""
    order = {"p3": "3", "p5": "4"}  # 0 2 3 1 4 5
    r = club.enter(1, 0, men="4:3", **order)
    assert r.status_code == 422 and "中途离场（诈烧或被闷）的人排在最后几名" in r.text
    assert club.enter(1, 0, men="4:3", no_three="5", **order).status_code == 303
    assert club.enter(1, 0, hand=2, no_three="9").status_code == 400  # not one of the seats offered


def test_the_form_offers_only_what_the_rules_allow(club: Club) -> None:
    page = club.c.get(f"{club.link(1, 1, 0)}/hand/1").text
    assert 'name="burn_by"' in page and 'name="burn_on"' in page  # who burned whom: the engine judges the pair
    assert 'name="chong0"' not in page  # dagang has no 冲点 ...
    assert 'name="geming"' in page  # ... but 革命
    assert 'value="mingdian"' in page and 'value="yudian"' in page and 'value="xuandian"' not in page
    assert 'name="no_three"' in page  # S4 第九条 (买三): a seat without a 3 is entered, placed 大落 before play


def test_s4_art3_the_form_names_places_as_the_rules_do(club: Club) -> None:
    """The entry form's places are the variant's own names (dagang, S4: 头科 二科 三科 四科 二落 大落)."""
    page = club.c.get(f"{club.link(1, 1, 0)}/hand/1").text
    with Tournament.open(club.event) as ev:
        names = list(ev.variant.places.names)
    assert all(f'<span class="placename">{n}</span>' in page for n in names), names
    assert "五科" not in page


def test_in_english_the_form_and_score_sheet_name_places_in_english_with_the_rules_own_names(club: Club) -> None:
    """``?lang=en``: each place is an English ordinal with the variant's own name in brackets, as the pages
    write every term of the game (``Opened (开点)``), on the entry form and on the printed score sheet."""
    with Tournament.open(club.event) as ev:
        names = list(ev.variant.places.names)
    want = [f"{en} ({zh})" for en, zh in zip(["1st", "2nd", "3rd", "4th", "5th", "last"], names, strict=True)]
    form = club.c.get(f"{club.link(1, 1, 0)}/hand/1?lang=en").text
    assert all(f'<span class="placename">{n}</span>' in form for n in want), want
    sheet = club.c.get(f"{club.admin}/print/1?lang=en").text
    assert all(f"<th>{n}</th>" in sheet for n in want), want
    admin_form = club.c.get(f"{club.admin}/r/1/t/1/hand/1?lang=en")
    assert admin_form.status_code == 200 and all(f'<span class="placename">{n}</span>' in admin_form.text for n in want)
    zh_form = club.c.get(f"{club.link(1, 1, 0)}/hand/1?lang=zh").text
    assert all(f'<span class="placename">{n}</span>' in zh_form for n in names) and "1st" not in zh_form


def test_withdraw_and_reject_leave_the_hand_open_and_the_audit_trail_complete(club: Club) -> None:
    assert club.enter(1, 0).status_code == 303
    audit = club.pending_audit(1, 1)
    csrf = club.csrf()
    assert club.post(f"{club.link(1, 1, 1)}/hand/1/reject", {"csrf": csrf, "audit": audit}).status_code == 303
    assert club.stored() == 0
    assert club.enter(1, 1).status_code == 303  # side B enters it now, side A confirms
    audit = club.pending_audit(1, 0)
    assert club.post(f"{club.link(1, 1, 0)}/hand/1/confirm", {"csrf": csrf, "audit": audit}).status_code == 303
    with Tournament.open(club.event) as ev:
        trail = [(a["action"], a["source"]) for a in ev.db.audit()]
    assert [a for a, _ in trail] == ["enter", "reject", "enter", "record"]
    assert "side B confirmed" not in trail[-1][1] and "side A confirmed" in trail[-1][1]


def test_a_correction_is_entered_and_confirmed_like_a_result(club: Club) -> None:
    assert club.enter(1, 0).status_code == 303
    csrf = club.csrf()
    club.post(f"{club.link(1, 1, 1)}/hand/1/confirm", {"csrf": csrf, "audit": club.pending_audit(1, 1)})
    form = club.c.get(f"{club.link(1, 1, 1)}/hand/1").text
    assert 'id="p1s0" value="0" checked' in form  # the form starts from the stored result
    assert club.enter(1, 1, p1="1", p4="0").status_code == 303
    club.post(f"{club.link(1, 1, 0)}/hand/1/confirm", {"csrf": csrf, "audit": club.pending_audit(1, 0)})
    with Tournament.open(club.event) as ev:
        row = ev.db.hand(1, 1, 1)
        assert row is not None and row.result["finish"][0] == 1
        assert [a["action"] for a in ev.db.audit()] == ["enter", "record", "enter", "correct"]


def test_the_organiser_enters_directly_and_prints_qr_codes(club: Club) -> None:
    path = f"{club.admin}/r/1/t/2/hand/2"
    csrf = club.csrf(path)
    assert club.post(path, {"csrf": csrf, **FINISH}).status_code == 303
    assert club.stored() == 1
    sheet = club.c.get(f"{club.admin}/print/1").text
    assert sheet.count("<svg") == 4 and "@media print" not in sheet  # print CSS lives in style.css
    assert "@media print" in club.c.get("/static/style.css").text
    assert club.c.get("/admin/not-it/print/1").status_code == 403


def _post(url: str, data: dict[str, str], cookie: str) -> int:
    req = urllib.request.Request(
        url, data=urllib.parse.urlencode(data).encode(), method="POST",
        headers={"Cookie": f"gouji_csrf={cookie}", "Content-Type": "application/x-www-form-urlencoded"},
    )  # fmt: skip
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return int(r.status)
    except urllib.error.HTTPError as e:
        return int(e.code)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any) -> None:
        return None


def test_two_phones_submit_the_same_hand_at_once_one_lands(served: Server) -> None:
    urllib.request.install_opener(urllib.request.build_opener(_NoRedirect))
    cookie = "c" * 43
    codes: list[int] = []
    for trial in range(1, 3):
        jobs = []
        for link in (served.link(1, 1, "A"), served.link(1, 1, "B"), served.link(1, 1, "A")):
            data = {"csrf": cookie, **FINISH}
            jobs.append(
                threading.Thread(target=lambda u=f"{link}/hand/{trial}", d=data: codes.append(_post(u, d, cookie)))
            )
        for j in jobs:
            j.start()
        for j in jobs:
            j.join()
    assert sorted(codes) == [303, 303, 409, 409, 409, 409]
    with Tournament.open(served.event) as ev:
        assert [a["action"] for a in ev.db.audit()] == ["enter", "enter"]


def test_an_unexpected_error_is_a_500_page_and_one_log_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gouji_rules.tournament import standings

    def broken(event: Any) -> Any:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(standings, "compute", broken)
    log: list[str] = []
    app = create_app(Config(event_path=make_event(tmp_path / "e.sqlite"), log=log.append))
    with TestClient(app, raise_server_exceptions=False) as client:
        r = client.get("/")
    assert r.status_code == 500 and "Traceback" not in r.text and "disk on fire" not in r.text
    assert log == ["error: RuntimeError: disk on fire (GET /)"]


def test_methods_and_paths_that_do_not_exist_get_pages(club: Club) -> None:
    codes = [
        club.c.put("/").status_code,
        club.c.delete(club.link(1, 1, 0)).status_code,
        club.c.get("/rounds/99").status_code,
        club.c.get("/rounds/-1").status_code,
        club.c.get("/static/../app.py").status_code,
        club.c.get("/static/style.css?lang=<script>").status_code,
        club.c.get("/nowhere").status_code,
        club.c.get("/?lang=<script>").status_code,
        club.c.get("/t/" + "é" * 32).status_code,
    ]
    assert codes == [405, 405, 404, 404, 404, 200, 404, 200, 403]
    assert "<script>" not in club.c.get("/?lang=<script>").text


def test_the_organiser_pairs_the_next_swiss_round_once_the_last_is_complete(tmp_path: Path) -> None:
    teams = tmp_path / "teams.csv"
    teams.write_text(
        "team,name\n" + "".join(f"队{t},p{t}{i}\n" for t in range(1, 5) for i in range(3)), encoding="utf-8"
    )
    event = tmp_path / "sw.sqlite"
    from click.testing import CliRunner

    from gouji_rules.cli import main as gouji

    r = CliRunner().invoke(
        gouji,
        ["event", "new", str(event), "--name", "sw", "--teams", str(teams), "--format", "swiss", "--hands", "1"],
    )
    assert r.exit_code == 0, r.output
    with TestClient(create_app(Config(event_path=event, log=lambda m: None))) as client:
        club = Club(client, event)
        admin = club.c.get(club.admin).text
        assert f"{club.admin}/seat/2" in admin and "队1" in club.c.get("/").text
        csrf = club.csrf()
        early = club.post(f"{club.admin}/seat/2", {"csrf": csrf})
        assert early.status_code == 409 and "上一轮还没有全部录完" in early.text
        for tbl in (1, 2):
            path = f"{club.admin}/r/1/t/{tbl}/hand/1"
            assert club.post(path, {"csrf": csrf, **FINISH}).status_code == 303
        assert club.post(f"{club.admin}/seat/2", {"csrf": csrf}).status_code == 303
        assert club.c.get("/rounds/2").status_code == 200
        assert club.c.get(club.link(2, 1, 0)).status_code == 200  # the new round's links work at once


def test_a_correction_that_changes_nothing_is_refused_at_entry(club: Club) -> None:
    assert club.enter(1, 0).status_code == 303
    csrf = club.csrf()
    club.post(f"{club.link(1, 1, 1)}/hand/1/confirm", {"csrf": csrf, "audit": club.pending_audit(1, 1)})
    same = club.enter(1, 1)
    assert same.status_code == 422 and "没有要更正的地方" in same.text
    with Tournament.open(club.event) as ev:
        assert [a["action"] for a in ev.db.audit()] == ["enter", "record"]


def test_the_organiser_sees_what_waits_for_confirmation(club: Club) -> None:
    assert "没有待确认的局" in club.c.get(club.admin).text
    assert club.enter(2, 1, hand=2).status_code == 303
    page = club.c.get(club.admin).text
    assert "第1轮 · 第2桌 · 第2局" in page and "B方已录入，待对方确认" in page


def test_a_pending_correction_is_badged_as_one_with_was_and_becomes_side_by_side(club: Club) -> None:
    assert club.enter(1, 0).status_code == 303
    club.post(f"{club.link(1, 1, 1)}/hand/1/confirm", {"csrf": club.csrf(), "audit": club.pending_audit(1, 1)})
    assert club.enter(1, 1, p1="1", p4="0").status_code == 303  # side B corrects: seat 1 first, not seat 0
    for page in (club.c.get(club.link(1, 1, 0)).text, club.c.get(club.link(1, 1, 1)).text):
        assert '<span class="badge correction">更正</span>' in page
        assert "B方提出更正，待对方确认" in page and "已录入，待对方确认" not in page
        was, now = page.index(">原来<"), page.index(">改为<")
        assert was < now and 'class="was-now"' in page[:was]
    public = club.c.get("/rounds/1").text
    admin = club.c.get(club.admin).text
    for page in (public, admin):
        assert "更正" in page and "B方提出更正" in page
    hand = club.c.get(f"{club.link(1, 1, 0)}/hand/1").text
    assert '<span class="badge correction">更正</span>' in hand
