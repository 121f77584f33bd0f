"""Every file in tests/invalid/ is rejected with the expected message at the exact line and column."""

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


def test_invalid_file_raises_variant_errors_from_load_file() -> None:
    with pytest.raises(dsl.VariantErrors) as info:
        dsl.load_file(CORPUS / "yes_for_bool.yaml")
    from gouji_rules.errors import VariantError

    assert isinstance(info.value, VariantError)
    assert info.value.errors[0].line == 3
