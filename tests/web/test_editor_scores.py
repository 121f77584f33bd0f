"""Issue 34 item 2: a score list typed as a Chinese user types it is accepted and stored as a list,
and every hint the editor or ``gouji validate`` shows is accepted when typed back as shown."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from gouji_rules import dsl
from gouji_rules.cli import main

from .test_editor import client, diags, post, refusal

TYPED = [
    "2、1、0、0、-1、-2",
    "2,1,0,0,-1,-2",
    "2，1，0，0，-1，-2",
    "2、1、0、0、－1、−2",
    "[2, 1, 0, 0, -1, -2]",
    "［2，1，0，0，-1，-2］",
    "2, 1, 0, 0, -1, -2",
    "2 1 0 0 -1 -2",
]


@pytest.mark.parametrize("typed", TYPED)
def test_a_score_list_typed_any_chinese_way_is_saved_as_a_yaml_list(tmp_path: Path, typed: str) -> None:
    target = tmp_path / "house.yaml"
    c = client(None, root=tmp_path)
    r = post(c, c.get("/").text, "save", path=str(target), scoring__points=typed)
    assert "已保存到" in r.text, (refusal(r.text), diags(r.text))
    assert "points: [2, 1, 0, 0, -1, -2]" in target.read_text(encoding="utf-8")
    assert list(dsl.load_file(target).scoring.points) == [2, 1, 0, 0, -1, -2]


@pytest.mark.parametrize("typed", TYPED)
def test_gouji_validate_accepts_a_score_list_typed_any_chinese_way(tmp_path: Path, typed: str) -> None:
    f = tmp_path / "house.yaml"
    f.write_text(f"extends: dagang\nscoring:\n  points: {typed}\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", str(f)])
    assert r.exit_code == 0, r.output
    assert list(dsl.load_file(f).scoring.points) == [2, 1, 0, 0, -1, -2]


def test_a_short_score_list_says_how_many_not_full_width_comma(tmp_path: Path) -> None:
    f = tmp_path / "house.yaml"
    f.write_text("extends: dagang\nscoring:\n  points: 2、1、0\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", str(f)])
    assert r.exit_code == 1 and "正好 6 项，不是 3 项" in r.output and "全角" not in r.output


HINT = re.compile(r"提示: (?:应写成|写成列表)：(.+)")

WRONG = {
    # every list option written as one bare value, and a line with full-width punctuation: the two
    # hints that say what to write ("写成列表：…", "应写成：…")
    **{
        f"{s}.{k}": v
        for s, k, v in [
            ("scoring", "points", "2"),
            ("sets", "attach_jokers", "SJ"),
            ("sets", "bare", "3"),
            ("sets", "dead", "BJ"),
            ("tribute", "order", "point"),
            ("tribute", "returned", "place"),
            ("places", "names", "头科"),
        ]
    },
    "deck.packs": "4，",
    "scoring.points#fw": "［2，1，0，0，-1，-2］]",
}


@pytest.mark.parametrize("where", sorted(WRONG))
def test_every_hint_typed_back_exactly_as_shown_is_accepted(tmp_path: Path, where: str) -> None:
    section, _, key = where.partition("#")[0].partition(".")
    f = tmp_path / "house.yaml"
    f.write_text(f"extends: dagang\n{section}:\n  {key}: {WRONG[where]}\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", str(f)])
    assert r.exit_code == 1
    hints = HINT.findall(r.output)
    assert hints, r.output
    line = hints[0].strip()
    if not line.startswith(f"{key}:"):
        line = f"{key}: {line}"
    f.write_text(f"extends: dagang\n{section}:\n  {line}\n", encoding="utf-8")
    again = CliRunner().invoke(main, ["validate", str(f)])
    assert HINT.findall(again.output) == [] and "全角" not in again.output, again.output
    assert "要写成列表" not in again.output, again.output


TYPE_BACK = [
    (re.compile(r"write it in (?:ASCII )?digits: (.+)"), "{}"),
    (re.compile(r"write (true|false)\Z"), "{}"),
    (re.compile(r"did you mean '(.+)'\?"), "{}"),
    (re.compile(r"remove the quotes"), None),
    (re.compile(r"write a list: \w+: (.+)"), "{}"),
]


def _wrong_inputs(section: str, key: str) -> list[str]:
    kind = dsl.edit.control_kind(section, key)
    if kind == "int":
        return ["２", "二", '"2"']
    if kind == "bool":
        return ["是", "否", '"true"']
    if kind == "choice":
        from gouji_rules.dsl.schema import schema

        sch = schema()["properties"][section]["properties"][key]
        codes = [c for c in sch.get("enum", []) if isinstance(c, str) and c.lower() != c.upper()]
        return [codes[0].upper() if codes[0] != codes[0].upper() else codes[0].lower()] if codes else []
    if kind == "yaml":
        from gouji_rules.dsl.schema import schema

        sch = schema()["properties"][section]["properties"][key]
        items = sch.get("items")
        if sch.get("type") == "array" and isinstance(items, dict) and items.get("enum"):
            return [str(items["enum"][0])]
        if sch.get("type") == "array" and isinstance(items, dict):
            return ["2" if items.get("type") == "integer" else "头科"]
    return []


def _typed_back(hint: str, wrong: str) -> str | None:
    for pattern, shape in TYPE_BACK:
        m = pattern.search(hint)
        if m:
            return wrong.strip('"') if shape is None else m.group(1)
    return None


OPTIONS = [(s, k, w) for s, k in dsl.edit.options() for w in _wrong_inputs(s, k)]


@pytest.mark.parametrize(("section", "key", "wrong"), OPTIONS)
def test_each_options_hint_typed_back_exactly_as_shown_is_accepted(section: str, key: str, wrong: str) -> None:
    first = dsl.check_text(f"extends: dagang\n{section}:\n  {key}: {wrong}\n", "club.yaml").errors
    assert first, (section, key, wrong)
    back = _typed_back(first[0].hint, wrong)
    if back is None:
        pytest.skip(f"no hint to type back for {wrong!r}: {first[0].hint!r}")
    again = dsl.check_text(f"extends: dagang\n{section}:\n  {key}: {back}\n", "club.yaml").errors
    assert not [e for e in again if e.message == first[0].message or _typed_back(e.hint, back)], (
        first[0].hint,
        [e.format() for e in again],
    )


def test_the_title_field_writes_the_files_title_and_the_sheet_shows_it(tmp_path: Path) -> None:
    club = tmp_path / "qingdao.yaml"
    club.write_text("extends: dagang  # 基础规则\nburn:\n  teammate: false  # 不烧队友\n", encoding="utf-8")
    c = client(club)
    page = c.get("/").text
    assert 'name="title"' in page and "规则名称" in page
    r = post(c, page, "save", title="青岛某俱乐部够级家规")
    assert "已保存到" in r.text, refusal(r.text)
    saved = club.read_text(encoding="utf-8")
    assert saved == "extends: dagang  # 基础规则\ntitle: 青岛某俱乐部够级家规\nburn:\n  teammate: false  # 不烧队友\n"
    assert dsl.load_file(club).title == "青岛某俱乐部够级家规"
    assert '<p class="sheet-title"><b>青岛某俱乐部够级家规' in r.text
    out = CliRunner().invoke(main, ["explain", str(club)]).output
    assert out.splitlines()[0].startswith("青岛某俱乐部够级家规")
    r = post(c, r.text, "save", title="")  # emptied: the file says no title, the sheet its name
    assert "title" not in club.read_text(encoding="utf-8")


def test_try_its_suggested_command_runs_as_printed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import html
    import shlex

    club = tmp_path / "qingdao.yaml"
    club.write_text("extends: dagang\ntribute:\n  enabled: false\n", encoding="utf-8")  # acts between hands
    c = client(club, try_deals=2)
    r = post(c, c.get("/").text, "try")
    token = re.search(r'<iframe src="(/report/[^"]+)"', r.text)
    assert token, refusal(r.text)
    report = html.unescape(c.get(token[1]).text)
    command = re.search(r"要看，请运行：(gouji compare [^<\n]+)", report)
    assert command, report[:2000]
    words = shlex.split(command[1].strip())
    assert "<python:" not in command[1] and words[2] == "dagang" and words[3] == str(club.absolute())
    monkeypatch.chdir(tmp_path.parent)  # printed for any folder: the file by its absolute path
    done = CliRunner().invoke(main, words[1:])
    assert done.exit_code == 0, done.output

    unsaved = post(c, r.text, "try", burn__teammate="true")  # changed, not saved: no command that cannot run
    token = re.search(r'<iframe src="(/report/[^"]+)"', unsaved.text)
    assert token, refusal(unsaved.text)
    assert "<python:" not in html.unescape(c.get(token[1]).text)
