"""Issue 22 item 5: the printable rule sheet a club secretary prints or posts (text, HTML, PNG).

Each test is named after the clause of the issue it checks: a switched-off section printed as
one line, no codes or parameters of other strategies, the club's differences from its base
marked, and ``--html`` / ``--png`` written through the output-path rule.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest
from click.testing import CliRunner

from gouji_rules import dsl
from gouji_rules.cli import main
from gouji_rules.dsl import printable
from gouji_rules.dsl.explain import explain, sheet
from gouji_rules.dsl.printable import to_html

CLUB = "extends: dagang\nname: qingdao\ntitle: 青岛够级\ngeming:\n  enabled: false\nburn:\n  teammate: false\n"
CODES = re.compile(r"\b(false|true|null)\b|\b[a-z_]+\.[a-z_]+\b|方式下|\bunder [a-z_]+,|\[|\b[a-z]+_[a-z_]+\b")
"""What a club member should never read on the sheet: YAML values, dotted keys, strategy codes, list shapes."""


def _club(tmp_path: Path, text: str = CLUB, name: str = "club.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _rules_lines(text: str) -> list[str]:
    """The sheet's lines but the title and the hooks' own expressions (the club's code, shown on purpose)."""
    lines = text.splitlines()[1:]
    return [x for x in lines if not re.search(r"按表达式|By expression|即：|That is:|^出处|^Source", x.strip())]


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_issue22_5_a_switched_off_section_is_printed_as_one_line(tmp_path: Path) -> None:
    code, out, _ = run("explain", str(_club(tmp_path)))
    assert code == 0
    line = next(x for x in out.splitlines() if "革命" in x and "、" in x[:4])
    assert line.endswith("：不采用。")
    after = out[out.index(line) + len(line) :].lstrip("\n")
    assert after.startswith("十八、")  # nothing of 革命 2–6 under 不革命
    assert "几人以上同时革命" not in out and "革命者的名次" not in out
    on = explain(dsl.load_shipped("dagang"))
    assert "几人以上同时革命" in on and "十八、冲点（点烧闷拉 十、冲点）：不采用。" in on


def test_issue22_5_no_codes_on_any_shipped_sheet_in_either_language() -> None:
    for name in dsl.shipped_names():
        for lang in ("zh", "en"):
            bad = [x for x in _rules_lines(explain(dsl.load_shipped(name), lang)) if CODES.search(x)]
            assert bad == [], (name, lang, bad)


def test_issue22_5_a_cover_variant_shows_no_kill_table_parameter() -> None:
    cover = explain(dsl.load_shipped("dagang"))
    assert "盖住一张王的办法" not in cover and "kill_table" not in cover
    assert "挂了这些牌的牌为死牌" in cover and "（见三、第5条）" in cover  # sets.dead named as the sheet's item
    kill = explain(dsl.load_text("extends: dagang\nsets:\n  beat: kill_table\n"))
    assert "盖住一张王的办法" in kill and "挂了这些牌的牌为死牌" not in kill and "cover" not in kill


def test_issue22_5_no_eagle_in_a_deck_without_one() -> None:
    dagang = explain(dsl.load_shipped("dagang"))
    assert "鹰" not in dagang and "eagle" not in explain(dsl.load_shipped("dagang"), "en")
    with_eagles = explain(dsl.load_text("extends: dagang\ndeck:\n  extra: {Y: 6}\n"))
    assert "可以挂的王（挂花），保留自身大小：小王、大王、鹰。" in with_eagles


def test_issue22_5_tribute_places_read_as_names_not_numbers() -> None:
    text = explain(dsl.load_shipped("dagang"))
    assert "落贡：大落→头科 2张；二落→二科 1张。" in text


def test_issue22_5_the_clubs_differences_from_its_base_are_marked(tmp_path: Path) -> None:
    code, out, _ = run("explain", str(_club(tmp_path)))
    assert code == 0 and "★ 与 dagang 不同" in out.splitlines()[:3]
    marked = [x for x in out.splitlines() if x.lstrip().startswith("★") and "不同" not in x]
    assert len(marked) == 2
    assert marked[0] == " ★3. 不采用：可以烧队友。" and marked[1].startswith("★十七、革命")
    _, plain, _ = run("explain", "dagang")
    assert "★" not in plain
    en = explain(dsl.load_text(CLUB), "en", dsl.load_shipped("dagang"))
    assert "★ differs from dagang" in en


def test_issue22_5_a_club_file_extending_another_club_file_is_marked_against_that_file(tmp_path: Path) -> None:
    _club(tmp_path)
    child = _club(tmp_path, "extends: club.yaml\nname: laoshan\nburn:\n  teammate: true\n", "child.yaml")
    _, out, _ = run("explain", str(child))
    assert "★ 与 qingdao 不同" in out
    assert " ★3. 可以烧队友。" in out and "★十七" not in out  # 革命 is off in both


def test_issue22_5_html_is_self_contained_a4_and_chinese_first(tmp_path: Path) -> None:
    page_path = tmp_path / "sheet.html"
    code, out, err = run("explain", str(_club(tmp_path)), "--html", str(page_path))
    assert code == 0 and out == "" and "sheet.html" in err
    page = page_path.read_text("utf-8")
    assert '<html lang="zh-Hans">' in page and "@page { size: A4;" in page
    assert not re.search(r"<script|<link|src=|href=|url\(", page)
    assert "★ 与 dagang 不同" in page and page.count('<li value="3" class="changed">') == 1
    assert "几人以上同时革命" not in page and "十七、革命（大纲第二十一条）：不采用。" in page
    text = re.sub(r"<[^>]+>", "", re.sub(r"<style>.*?</style>", "", page, flags=re.S))
    assert [x for x in _rules_lines(text) if CODES.search(x)] == []


def test_issue22_5_html_is_never_written_over_an_input(tmp_path: Path) -> None:
    club = _club(tmp_path)
    code, _, err = run("explain", str(club), "--html", str(club))
    assert code == 1 and "这也是这个命令读的文件" in err and "Traceback" not in err
    assert "is also an input" in run("explain", str(club), "--html", str(club), "--lang", "en")[2]
    assert club.read_text("utf-8") == CLUB


def test_issue22_5_png_without_chromium_is_one_line_saying_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(printable, "CHROMIUM_NAMES", ("no-such-browser-here",))
    old = tmp_path / "sheet.png"
    old.write_bytes(b"kept")
    page = tmp_path / "sheet.html"
    code, out, err = run("explain", str(_club(tmp_path)), "--png", str(old), "--html", str(page))
    assert code == 1 and out == ""
    assert err.strip().count("\n") == 0 and "apt-get install chromium" in err
    assert old.read_bytes() == b"kept" and not page.exists()


@pytest.mark.skipif(printable.find_chromium() is None, reason="needs Debian's chromium (installed in CI)")
def test_issue22_5_png_is_the_page_drawn_by_chromium(tmp_path: Path) -> None:
    png = tmp_path / "sheet.png"
    code, _, err = run("explain", str(_club(tmp_path)), "--png", str(png))
    assert code == 0, err
    data = png.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", data[16:24])
    s = sheet(dsl.load_text(CLUB), "zh")
    assert width == printable.PNG_WIDTH and height == printable.page_height(s)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary left


def test_issue22_5_html_escapes_what_a_club_writes(tmp_path: Path) -> None:
    v = dsl.load_text("extends: dagang\ntitle: '<b>俱乐部</b> & 朋友'\n")
    page = to_html(sheet(v))
    assert "<b>俱乐部" not in page and "&lt;b&gt;俱乐部&lt;/b&gt; &amp; 朋友" in page


def test_issue22_2_diff_speaks_chinese_words_by_default_and_keys_under_lang_en() -> None:
    code, out, _ = run("diff", "dagang", "dianshaomenla")
    assert code == 0 and out.splitlines()[0].startswith("规则")
    body = "\n".join(line.split("  ")[0] for line in out.splitlines()[2:])
    assert not re.search(r"\b[a-z_]+\.[a-z_]+\b", body)  # no rule keys
    assert [x for x in out.splitlines()[2:] if CODES.search(x)] == []
    assert re.search(r"^十、被闷（清）的处罚 +先清为落：从最后排名，但继续出牌 +被闷当即判为最后、不再出牌$", out, re.M)
    assert re.search(r"^十五、向对头的联邦买用什么付… +2 +同买一张用什么付", out, re.M)  # null in words
    _, en, _ = run("diff", "dagang", "dianshaomenla", "--lang", "en")
    assert re.search(r"^men\.penalty .* bottom_plays_on +place_bottom$", en, re.M)


def _fake_browser(tmp_path: Path, body: str) -> str:
    script = tmp_path / "fake-chromium"
    script.write_text("#!/bin/sh\n" + body + "\n", encoding="utf-8")
    script.chmod(0o755)
    return str(script)


def test_issue22_5_a_browser_that_draws_nothing_leaves_the_old_png_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(printable, "find_chromium", lambda: _fake_browser(tmp_path, "echo broken >&2; exit 3"))
    old = tmp_path / "sheet.png"
    old.write_bytes(b"kept")
    code, _, err = run("explain", str(_club(tmp_path)), "--png", str(old))
    assert code == 1 and "没有画出图：broken" in err and "Traceback" not in err
    assert old.read_bytes() == b"kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.yaml", "fake-chromium", "sheet.png"]


def test_issue22_5_a_browser_that_hangs_is_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(printable, "find_chromium", lambda: _fake_browser(tmp_path, "exec sleep 30"))
    monkeypatch.setattr(printable, "RENDER_TIMEOUT_S", 1)
    code, _, err = run("explain", str(_club(tmp_path)), "--png", str(tmp_path / "sheet.png"))
    assert code == 1 and "在 1 秒内没有画完" in err
    assert not (tmp_path / "sheet.png").exists()
