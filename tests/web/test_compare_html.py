"""The compare report on a phone: Chinese summary first, differing rows highlighted, charts with axes, no overflow."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from selenium.webdriver.common.by import By

from gouji_rules.cli import main as gouji
from gouji_rules.compare.html import render_html
from gouji_rules.compare.report import render_text, width

from .conftest import shot


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    r = CliRunner().invoke(gouji, ["compare", "dagang", "dianshaomenla", "sha21", "--hands", "30", "--quiet", "--json"])
    assert r.exit_code == 0, r.output
    out: dict[str, Any] = json.loads(r.stdout)
    return out


def test_the_html_report_opens_with_a_chinese_summary_and_fits_a_phone(
    doc: dict[str, Any], browser: Any, tmp_path: Path
) -> None:
    page = tmp_path / "compare.html"
    page.write_text(render_html(doc), encoding="utf-8")
    d = browser
    d.get(page.as_uri())
    first = d.find_element(By.CSS_SELECTOR, "body > section.summary")
    assert "与 dagang 有" in first.text and "条规则不同" in first.text
    assert d.find_element(By.TAG_NAME, "h1").text.startswith("够级规则比较")
    # nothing but the inner scroll boxes is wider than the phone
    assert d.execute_script("return document.documentElement.scrollWidth") <= 390
    for table in d.find_elements(By.TAG_NAME, "table"):
        parent = table.find_element(By.XPATH, "..")
        assert parent.get_attribute("class") == "scroll"
    shot(d, "20-compare-report")
    shot(d, "21-compare-first-screen", height=844)
    table = d.find_element(By.CSS_SELECTOR, "tr.differs")
    shot(d, "22-compare-metrics", top=table.location["y"] - 100, height=844)


def test_rows_that_differ_are_highlighted_and_every_chart_has_axes_units_and_a_legend(doc: dict[str, Any]) -> None:
    text = render_html(doc)
    clear = {m for d in doc["differences"] for m in d["findings"]}  # clear, and not only a change of scale
    highlighted = set(
        re.findall(r'<tr class="differs"><td>[^<]*</td><td title="[^"]*"><code>([a-z_0-9]+)</code>', text)
    )
    assert clear and highlighted == clear
    assert "class=changed" in text  # rule values that differ from the baseline
    charts = re.findall(r"<svg.*?</svg>", text, flags=re.S)
    assert len(charts) > 10
    for svg in charts:
        assert 'text-anchor="middle">' in svg, "ticks on the x axis"
        assert re.search(r"(points|%|百分点|每局平均)", svg), "a unit"
    bars = [c for c in charts if "score difference distribution" in c]
    assert bars and all("dianshaomenla" in c and ("占局数" in c or "占场数" in c) and "分差" in c for c in bars)
    assert 'name="viewport"' in text and "Noto Sans CJK SC" in text and "@font-face" not in text


def test_the_text_report_fits_100_columns(doc: dict[str, Any]) -> None:
    text = render_text(doc)
    assert max(width(line) for line in text.splitlines()) <= 100
    assert text.splitlines()[3].startswith("概要")


def test_compare_csv_cells_are_safe_in_spreadsheets(doc: dict[str, Any]) -> None:
    """Labels come from files a user chose; a cell a spreadsheet would run as a formula is neutralised."""
    import copy
    import csv
    import io

    from gouji_rules.compare.report import write_csv

    evil = copy.deepcopy(doc)
    evil["results"][0]["variant"] = "=HYPERLINK(1)"
    evil["results"][1]["variant"] = "@SUM(A1)"
    for d in evil["differences"]:
        d["baseline"] = "=HYPERLINK(1)"
    out = io.StringIO()
    write_csv(evil, out)
    cells = [c for row in csv.reader(io.StringIO(out.getvalue())) for c in row]
    assert "'=HYPERLINK(1)" in cells and "'@SUM(A1)" in cells
    assert not any(c.startswith(("=", "+", "@")) for c in cells)
    assert [c for c in cells if c.startswith("-") and c[1:2].isdigit()]  # negative numbers stay numbers


def test_the_text_report_fits_100_columns_with_many_long_named_variants(doc: dict[str, Any]) -> None:
    import copy

    many = copy.deepcopy(doc)
    long_names = [f"club_{i}_" + "x" * 40 for i in range(6)]
    many["variants"] = [dict(doc["variants"][i % 3], label=n) for i, n in enumerate(long_names)]
    many["results"] = [dict(doc["results"][i % 3], variant=n) for i, n in enumerate(long_names)]
    many["differences"] = [
        dict(doc["differences"][i % 2], variant=n, baseline=long_names[0]) for i, n in enumerate(long_names[1:])
    ]
    for d in many["rule_differences"]:
        d["values"] = [d["values"][i % 3] for i in range(6)]
    many["score_distribution"] = [dict(doc["score_distribution"][i % 3], variant=n) for i, n in enumerate(long_names)]
    many["baseline"] = long_names[0]
    text = render_text(many)
    assert max(width(line) for line in text.splitlines()) <= 100
    assert text.count("每局决策数") >= 2  # the metrics table was split, each part labelled
