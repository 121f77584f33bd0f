"""``/season``: the season of the event files in the folder named at ``serve --season``."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from selenium.webdriver.common.by import By
from starlette.testclient import TestClient

from gouji_rules.cli import main
from gouji_rules.web.app import Config, create_app

from .conftest import make_event, open_page, shot, start_server, stop_server, wait_text

PLAYERS = ["张三", "李四", "王五", "赵六", "钱七", "<b>孙八</b>"]


def gouji(*args: str) -> str:
    r = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert r.exit_code == 0, r.output
    return r.stdout


def night(folder: Path, stem: str, seed: int) -> Path:
    """A night of the six PLAYERS, one round of two hands, in which 张三's side takes places 1-3."""
    csv = folder / f"{stem}.csv"
    csv.write_text("name\n" + "".join(f"{p}\n" for p in PLAYERS), encoding="utf-8")
    ev = folder / f"{stem}.sqlite"
    gouji("event", "new", str(ev), "--name", stem, "--players", str(csv), "--rounds", "1", "--hands", "2",
          "--seed", str(seed))  # fmt: skip
    seats = json.loads(gouji("event", "seat", str(ev), "--round", "1", "--json"))["tables"][0]["seats"]
    s = next(x["seat"] for x in seats if x["player"] == "张三")
    finish = " ".join(str((s + d) % 6) for d in (0, 2, 4, 1, 3, 5))
    for h in ("1", "2"):
        gouji("event", "record", str(ev), "--round", "1", "--table", "1", "--hand", h, "--finish", finish)
    return ev


def client(tmp_path: Path, folder: Path | None) -> TestClient:
    (tmp_path / "served").mkdir()
    served = make_event(tmp_path / "served" / "spring.sqlite")  # the night being played; the season is elsewhere
    return TestClient(create_app(Config(event_path=served, season_folder=folder, log=lambda m: None)))


def test_season_page_ranks_the_folder(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    files = [night(folder, "2026-09-04", 1), night(folder, "2026-09-11", 2), night(folder, "2026-09-18", 3)]
    before = [hashlib.sha256(f.read_bytes()).hexdigest() for f in files]
    with client(tmp_path, folder) as c:
        zh = c.get("/season")
        assert zh.status_code == 200
        assert "赛季" in zh.text and "实力分" in zh.text and "最近 3 晚" in zh.text
        assert zh.text.index("2026-09-04") < zh.text.index("2026-09-18")  # by file name: oldest first
        first_row = zh.text.split("<tbody>")[1].split("</tr>")[0]
        assert "张三" in first_row  # the side that won every hand: 张三 ranked first
        assert "&lt;b&gt;孙八&lt;/b&gt;" in zh.text and "<b>孙八" not in zh.text
        en = c.get("/season?lang=en&window=2&min=2")
        assert en.status_code == 200 and "The last 2 night(s) of 3" in en.text and "skill score" in en.text
        assert "2026-09-04" not in en.text
        assert c.get("/season?window=0").status_code == 400
        assert c.get("/season?min=x").status_code == 400
    assert [hashlib.sha256(f.read_bytes()).hexdigest() for f in files] == before


def test_season_page_refuses_a_folder_that_is_not_one_season(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    ev = night(folder, "2026-09-04", 1)
    shutil.copy(ev, folder / "2026-09-05.sqlite")
    with client(tmp_path, folder) as c:
        r = c.get("/season")
        assert r.status_code == 422 and "副本" in r.text and "每一晚只给一次" in r.text
        assert str(folder) not in r.text  # the server's folder stays private


def test_season_page_needs_the_serve_option(tmp_path: Path) -> None:
    with client(tmp_path, None) as c:
        r = c.get("/season")
        assert r.status_code == 404 and "--season" in r.text


def test_serve_season_must_name_a_folder(tmp_path: Path) -> None:
    served = make_event(tmp_path / "spring.sqlite")
    for bad in (tmp_path / "missing", served):
        r = CliRunner().invoke(main, ["event", "serve", str(served), "--season", str(bad)])
        assert r.exit_code == 2 and "--season" in r.output


def test_season_page_on_a_phone(tmp_path: Path, browser: Any) -> None:
    """At 390 px the page itself never scrolls sideways, and the rank, name and ordinal are in view."""
    folder = tmp_path / "club"
    folder.mkdir()
    for i, stem in enumerate(("2026-09-04", "2026-09-11", "2026-09-18"), start=1):
        night(folder, stem, i)
    (tmp_path / "served").mkdir()
    server = start_server(make_event(tmp_path / "served" / "spring.sqlite"), "--season", str(folder))
    try:
        open_page(browser, server.url + "/season", "table.season")
        wait_text(browser, "名次把握")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
        first = browser.find_element(By.CSS_SELECTOR, "table.season tbody tr")
        cells = first.find_elements(By.TAG_NAME, "td")
        assert cells[1].text == "张三"
        assert all(c.rect["x"] + c.rect["width"] <= 390 for c in cells[:3])
        assert all(c.rect["x"] + c.rect["width"] <= 390 for c in cells)  # folded: every column in view
        shot(browser, "season")
        open_page(browser, server.url + "/", "table.standings")
        assert browser.find_element(By.CSS_SELECTOR, 'nav a[href="/season"]').text == "赛季"
        shot(browser, "season-standings")
    finally:
        stop_server(server)


def test_season_page_speaks_plain_words_with_the_terms_on_a_details_page(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    for i, stem in enumerate(("2026-09-04", "2026-09-11"), start=1):
        night(folder, stem, i)
    with client(tmp_path, folder) as c:
        page = c.get("/season").text
        for term in ("OpenSkill", "Plackett", "μ", "σ", "保守分"):
            assert term not in page, term
        assert "出勤满 2 晚才排名" in page and 'href="/season/about"' in page
        about = c.get("/season/about").text
        assert "OpenSkill" in about and "Plackett-Luce" in about and "μ − 3σ" in about and "张三" in about
        assert c.get("/").text.count('href="/season"') == 1  # linked from the standings


def test_a_ranks_sureness_is_a_range_of_places_or_the_nights_still_needed(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    night(folder, "2026-09-04", 1)
    with client(tmp_path, folder) as c:
        one = c.get("/season?min=2").text  # one night in the folder: nobody has two
        assert "还需要 1 晚才能排定" in one
        assert "可能第 1–6 名" in c.get("/season").text  # one night of two hands: nobody told apart yet
    night(folder, "2026-09-11", 2)
    (tmp_path / "again").mkdir()
    with client(tmp_path / "again", folder) as c:
        assert "出勤满 2 晚才排名" in c.get("/season").text


def test_season_without_the_extra_names_the_install(tmp_path: Path, monkeypatch: Any) -> None:
    import builtins

    real = builtins.__import__

    def no_openskill(name: str, *args: Any, **kw: Any) -> Any:
        if name.startswith("openskill"):
            raise ImportError(name)
        return real(name, *args, **kw)

    folder = tmp_path / "club"
    folder.mkdir()
    ev = night(folder, "2026-09-04", 1)
    monkeypatch.setattr(builtins, "__import__", no_openskill)
    with client(tmp_path, folder) as c:
        r = c.get("/season")
        assert r.status_code == 503
        assert "需要安装 openskill" in r.text and "pip install &#39;gouji_rules[season]&#39;" in r.text
        assert "不能用的文件" not in r.text
    cli = CliRunner().invoke(main, ["event", "season", str(ev)])
    assert cli.exit_code == 1 and "需要安装 openskill" in cli.output and "gouji_rules[season]" in cli.output


def test_serve_prints_the_season_address(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    (tmp_path / "served").mkdir()
    server = start_server(make_event(tmp_path / "served" / "spring.sqlite"), "--season", str(folder))
    try:
        assert any(line.rstrip().endswith(f"{server.url}/season") for line in server.log), server.log
    finally:
        stop_server(server)
