"""Issue 31 item 4: every public function and class of the package says why it exists.

An ``ast`` walk over ``gouji_rules/``: each module-level function or class whose name does not start
with ``_``, and each such method of a public class, has a docstring.  A few modules that other work
owns still owe some; :data:`OWED` says how many, and the count may only go down.
"""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "gouji_rules"

OWED: dict[str, int] = {}
"""Public definitions without a docstring, by module, in modules another change owns (counted when
this test was written); each number may only go down, and a module at 0 leaves the list."""


def undocumented(source: str) -> list[str]:
    """The public functions and classes (methods of public classes included) in ``source`` that
    lack a docstring, by qualified name."""
    out: list[str] = []

    def walk(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if node.name.startswith("_"):
                    continue
                if ast.get_docstring(node) is None:
                    out.append(prefix + node.name)
                if isinstance(node, ast.ClassDef):
                    walk(node.body, f"{prefix}{node.name}.")

    walk(ast.parse(source).body, "")
    return out


def test_every_public_definition_has_a_docstring() -> None:
    lacking = {}
    for path in sorted(PKG.rglob("*.py")):
        name = path.relative_to(PKG).as_posix()
        missing = undocumented(path.read_text(encoding="utf-8"))
        if len(missing) > OWED.get(name, 0):
            lacking[name] = missing
    assert lacking == {}


def test_the_owed_list_is_no_longer_than_it_must_be() -> None:
    """A module that has paid what it owed leaves :data:`OWED`, so the list stays true."""
    paid = [n for n in OWED if (PKG / n).is_file() and not undocumented((PKG / n).read_text(encoding="utf-8"))]
    assert paid == []


def test_the_walk_sees_methods_and_skips_private_names() -> None:
    source = (
        "def f():\n    pass\n"
        "def _g():\n    pass\n"
        "class C:\n    '''Why.'''\n    def m(self):\n        pass\n    def _n(self):\n        pass\n"
        "class _D:\n    def m(self):\n        pass\n"
    )
    assert undocumented(source) == ["f", "C.m"]
