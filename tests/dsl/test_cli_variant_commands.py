"""The variant-file commands: exit codes, stdout for results, stderr for diagnostics."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from gouji_rules.cli import main
from gouji_rules.dsl import bench, shipped_names
from gouji_rules.dsl.bench import bench_cold_start, bench_hooks, bench_load
from gouji_rules.errors import GoujiError

INVALID = Path(__file__).resolve().parent.parent / "invalid"


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_validate_exit_0_for_every_shipped_variant() -> None:
    code, out, err = run("validate", *shipped_names())
    assert code == 0 and err == "" and out.count(": 没有问题") == len(shipped_names())
    code, out, err = run("validate", *shipped_names(), "--lang", "en")
    assert code == 0 and err == "" and out.count(": ok") == len(shipped_names())


def test_validate_exit_1_with_positioned_diagnostics_on_stderr() -> None:
    code, out, err = run(
        "validate", str(INVALID / "yes_for_bool.yaml"), str(INVALID / "octal_int.yaml"), "--lang", "en"
    )
    assert code == 1
    assert "yes_for_bool.yaml:3:12: error: burn.enabled must be true or false" in err
    assert "octal_int.yaml:3:10: error:" in err and "1 error" in out
    code, out, err = run("validate", str(INVALID / "yes_for_bool.yaml"), str(INVALID / "octal_int.yaml"))
    assert code == 1
    assert "yes_for_bool.yaml:3:12: 错误: burn.enabled 要写 true 或 false，不能是 'yes'" in err
    assert "octal_int.yaml:3:10: 错误:" in err and "1 个错误" in out


def test_validate_exit_2_on_usage_error() -> None:
    assert run("validate")[0] == 2


def test_validate_reports_a_missing_file_and_still_checks_the_others(tmp_path: Path) -> None:
    club = tmp_path / "club.yaml"
    club.write_text("extends: dagang\n", encoding="utf-8")
    code, out, err = run("validate", "no/such/file.yaml", str(club), "--lang", "en")
    assert code == 1
    assert "no/such/file.yaml: error: no such file or shipped variant" in err
    assert f"{club}: ok" in out
    code, out, err = run("validate", "no/such/file.yaml", str(club))
    assert code == 1 and "no/such/file.yaml: 错误: 没有这个文件，也没有这个内置规则" in err
    assert f"{club}: 没有问题" in out and "no/such/file.yaml: 找不到" in out


def test_diff_of_a_club_file_shows_its_one_change(tmp_path: Path) -> None:
    club = tmp_path / "club.yaml"
    club.write_text("extends: dagang\nburn:\n  teammate: false\n", encoding="utf-8")
    code, out, _ = run("diff", "dagang", str(club))
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3 and lines[2].startswith("八、可以烧队友") and "burn" not in out
    code, out, _ = run("diff", "dagang", str(club), "--lang", "en")
    assert code == 0 and out.splitlines()[2].startswith("burn.teammate")


def test_diff_aligns_chinese_columns_by_display_width() -> None:
    import re

    from gouji_rules.dsl.errors import display_width

    _, out, _ = run("diff", "dagang", "dianshaomenla")
    starts = set()
    for row in [out.splitlines()[0], *out.splitlines()[2:]]:
        m = re.match(r"(.*?\S)( {2,})(\S.*)", row)
        assert m is not None
        starts.add(display_width(m.group(1) + m.group(2)))
    assert len(starts) == 1


def test_explain_defaults_to_chinese_and_accepts_en() -> None:
    _, zh, _ = run("explain", "dagang")
    _, en, _ = run("explain", "dagang", "--lang", "en")
    assert "够级大纲" in zh and "出处" in zh and "Source:" in en


def test_variants_lists_one_line_each() -> None:
    _, out, _ = run("variants")
    assert len(out.splitlines()) == len(shipped_names())


def test_schema_prints_json_schema() -> None:
    _, out, _ = run("schema")
    assert json.loads(out)["additionalProperties"] is False


def test_explain_of_invalid_file_prints_all_errors_and_exits_1() -> None:
    code, _, err = run("explain", str(INVALID / "unknown_key_suggestion.yaml"))
    assert code == 1 and "是不是要写 'teammate'？" in err and "1 个错误" in err
    code, _, err = run("explain", str(INVALID / "unknown_key_suggestion.yaml"), "--lang", "en")
    assert code == 1 and "did you mean 'teammate'?" in err


def test_bench_functions_report_numbers() -> None:
    load = bench_load(3)
    assert load["ms_median"] > 0
    hooks = bench_hooks(20, 1)
    assert hooks["same_game"] is True and hooks["ratio_hooks_to_parameters"] > 0


def test_bench_cold_start_times_the_gouji_command_a_club_runs() -> None:
    cold = bench_cold_start(1)
    script = Path(sys.executable).parent / ("gouji.exe" if os.name == "nt" else "gouji")
    assert cold["validate_cold_start_command"] == ("gouji" if script.is_file() else "python -m gouji_rules.cli")
    assert cold["validate_cold_start_ms_median"] > 0 and cold["target_ms"] == 100


def test_bench_cold_start_refuses_to_time_a_command_that_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "COLD_CLUB", "extends: no_such_variant\n")
    with pytest.raises(
        GoujiError, match=r"validate_cold_start: .* exited with 1: .*没有叫 'no_such_variant' 的内置规则或文件"
    ):
        bench.bench_cold_start(1)


def test_validate_of_a_file_that_is_no_variant_prints_50_diagnostics_and_the_count(tmp_path: Path) -> None:
    other = tmp_path / "passwd.yaml"
    other.write_text("".join(f"user{i}: x\n" for i in range(300)), encoding="utf-8")
    code, out, err = run("validate", str(other), "--lang", "en")
    assert code == 1 and err.count(": error: unknown key") == 50
    assert "… and 250 more" in err and "300 errors" in out
    code, out, err = run("validate", str(other))
    assert code == 1 and err.count(": 错误: 没有这个键") == 50
    assert "…… 还有 250 条" in err and "300 个错误" in out
