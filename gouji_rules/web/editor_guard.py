"""What the rules editor's page may show of a check, and text it can always send.

The page quotes lines of the text being edited, and of no other file: an ``extends:`` parent in
the folder's tree can be read to check the rules, but an error in it is named by the file's name
alone (the page would otherwise be a way to read any file line by line, as the third attack
battery did with a 0600 file and ``/etc/passwd``).  A YAML escape (``"\\ud800"``) can put a lone
surrogate in a value; no page or file can hold one, so it is an error at its line, and whatever
text still carries one is sent with it spelled as the escape, never as a failed encode (HTTP 500).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from ..dsl import Checked
from ..dsl.errors import VariantErrors, VariantFileError
from ..dsl.yamlpos import Node, parse

SURROGATE = re.compile("[\ud800-\udfff]")


class Diagnostic(VariantFileError):
    """A diagnostic the editor words itself, in Chinese and in English."""

    def __init__(self, en: str, zh: str, **kw: object) -> None:
        super().__init__(en, **kw)  # type: ignore[arg-type]
        self.zh = zh

    def format(self, lang: str = "en") -> str:
        """The diagnostic in ``lang`` as every other error of the file is formatted, so the editor's own words sit
        among the checker's in one style."""
        said = VariantFileError(
            self.zh if lang == "zh" else self.message,
            file=self.file,
            line=self.line,
            column=self.column,
            source_line=self.source_line,
            severity=self.severity,
        )
        return said.format(lang)


def elsewhere(error: VariantFileError) -> Diagnostic:
    """``error``, which lies in another file of the chain, named by that file's name alone."""
    name = Path(error.file).name or error.file
    return Diagnostic(
        "this file of the extends: chain has errors, not shown here (the editor shows no other file's text); "
        f"check it with: gouji validate {name}",
        f"extends: 所用的这个文件有错误；编辑器不显示别的文件的内容，请用 gouji validate {name} 检查它。",
        file=name,
        line=0,
        severity=error.severity,
    )


def own_only(errors: list[VariantFileError], filename: str) -> list[VariantFileError]:
    """The errors of the edited text as they are; those of other files, one per file, by name only."""
    out: list[VariantFileError] = []
    named: set[tuple[str, str]] = set()
    for e in errors:
        if e.file == filename:
            out.append(e)
        elif (e.file, e.severity) not in named:
            named.add((e.file, e.severity))
            out.append(elsewhere(e))
    return out


def surrogate_errors(text: str, filename: str) -> list[VariantFileError]:
    """An error at each key or value of ``text`` that holds a lone surrogate."""
    try:
        root = parse(text, filename)
    except VariantErrors:
        return []
    out: list[VariantFileError] = []

    def walk(node: Node) -> None:
        if node.kind == "scalar" and SURROGATE.search(node.value):
            code = f"\\u{ord(SURROGATE.search(node.value)[0]):04x}"  # type: ignore[index]
            bad = node.error(f"{code} is half of a UTF-16 pair, not a character: no file or page can hold it")
            out.append(
                Diagnostic(
                    bad.message,
                    f"{code} 是不成对的代理字符（UTF-16 的半个字符），不是合法的文字：不能保存，也不能显示。",
                    file=bad.file,
                    line=bad.line,
                    column=bad.column,
                    source_line=bad.source_line,
                )
            )
        for item in node.items:
            walk(item)
        for key, value in node.entries.values():
            walk(key)
            walk(value)

    walk(root)
    return out


def shown(result: Checked, filename: str, text: str) -> Checked:
    """``result`` as the page may show it: other files by name only, lone surrogates refused
    (the rules are then not valid, so they are neither saved nor tried)."""
    bad = surrogate_errors(text, filename)
    errors = own_only([*result.errors, *bad], filename)
    return dataclasses.replace(
        result,
        variant=None if bad else result.variant,
        errors=sorted(errors, key=VariantFileError.sort_key),
        warnings=own_only(result.warnings, filename),
    )


def printable(page: str) -> str:
    """``page`` with any lone surrogate spelled as its escape, so that it can be sent as UTF-8."""
    return SURROGATE.sub(lambda m: f"\\u{ord(m[0]):04x}", page)


__all__ = ["Diagnostic", "printable", "shown", "surrogate_errors"]
