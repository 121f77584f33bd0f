"""Every file in tests/invalid/ is rejected with the expected message at the exact line and column,
in English (``--lang en``) and in Chinese (``gouji validate``'s default), the position and caret the same."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gouji_rules import dsl

CORPUS = Path(__file__).resolve().parent.parent / "invalid"
EXPECTED: dict[str, dict[str, object]] = yaml.safe_load((CORPUS / "expected.yaml").read_text("utf-8"))


def test_corpus_has_at_least_40_files_each_with_an_expectation() -> None:
    files = {p.name for p in CORPUS.glob("*.yaml")} - {"expected.yaml"}
    assert len(files) >= 40
    assert files == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_invalid_file_reports_expected_error_at_exact_position(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CORPUS)
    want = EXPECTED[name]
    result = dsl.check_file(name)
    assert result.variant is None and result.errors
    first = result.errors[0]
    assert Path(first.file).name == want.get("file", name)
    assert (first.line, first.column) == (want["line"], want["column"])
    assert str(want["message"]) in first.message
    if "hint" in want:
        assert first.hint == want["hint"]
    text = first.format()
    assert text.startswith(f"{first.file}:{first.line}:{first.column}: error: ")
    if first.source_line is not None:
        caret = text.splitlines()[2]
        assert caret.strip() == "^"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_issue22_2_invalid_file_reports_the_expected_chinese_message_and_hint(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(CORPUS)
    want = EXPECTED[name]
    first = dsl.check_file(name).errors[0]
    zh, en = first.format("zh").splitlines(), first.format("en").splitlines()
    assert zh[0] == f"{first.location}: 错误: {want['message_zh']}"
    assert zh[1:3] == en[1:3] if first.source_line is not None else len(zh) == len(en)  # same source and caret
    if first.hint:
        assert zh[-1] == f"    提示: {want['hint_zh']}" and en[-1] == f"    hint: {first.hint}"
    else:
        assert "hint_zh" not in want


def test_issue22_2_cli_validate_speaks_chinese_by_default_and_english_with_lang_en(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from click.testing import CliRunner

    from gouji_rules.cli import main

    monkeypatch.chdir(CORPUS)
    names = ["yes_for_bool.yaml", "enum_near_miss.yaml", "expr_unknown_name.yaml", "fullwidth_colon.yaml"]
    zh = CliRunner().invoke(main, ["validate", *names])
    en = CliRunner().invoke(main, ["validate", *names, "--lang", "en"])
    assert zh.exit_code == en.exit_code == 1
    for name in names:
        want = EXPECTED[name]
        assert f"{name}:{want['line']}:{want['column']}: 错误: {want['message_zh']}" in zh.stderr
        assert f"{name}:{want['line']}:{want['column']}: error: {want['message']}" in en.stderr
        assert f"{name}: 1 个错误" in zh.stdout and f"{name}: 1 error" in en.stdout
    assert "    提示: 是不是要写 'kill_table'？" in zh.stderr and "hint: did you mean 'kill_table'?" in en.stderr
    assert "error" not in zh.stderr and "hint" not in zh.stderr


def test_invalid_file_raises_variant_errors_from_load_file() -> None:
    with pytest.raises(dsl.VariantErrors) as info:
        dsl.load_file(CORPUS / "yes_for_bool.yaml")
    from gouji_rules.errors import VariantError

    assert isinstance(info.value, VariantError)
    assert info.value.errors[0].line == 3
