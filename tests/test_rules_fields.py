"""Issue 24 item 3: every chapter of ``Rules`` (rules/*.py, each ``__init__``) reads each option under its field's own name.

An attribute copied from ``section.field`` is ``rules.<section>_<field>``, ``rules.<field>`` or,
for ``section.enabled``, ``rules.<section>``; the few that hold a worked-out answer instead (a bool
for a choice of words) are listed with their field in ``rules.RENAMED``.  Read from the source
(ast), so an attribute added under another name fails here.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from gouji_rules.catalog import dagang, dianshaomenla
from gouji_rules.rules import RENAMED
from gouji_rules.variant import SECTIONS

SOURCE = Path(__file__).resolve().parent.parent / "gouji_rules" / "rules"
FIELDS = {f"{key}.{f.name}" for key, cls in SECTIONS for f in dataclasses.fields(cls)}


def _init() -> ast.FunctionDef:
    """Every chapter's ``__init__`` (rules/*.py: each copies its own sections), as one body."""
    body: list[ast.stmt] = []
    for path in sorted(SOURCE.glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                body += [
                    stmt
                    for n in node.body
                    if isinstance(n, ast.FunctionDef) and n.name == "__init__"
                    for stmt in n.body
                ]
    return ast.FunctionDef(name="__init__", args=ast.arguments(), body=body, decorator_list=[], lineno=1)


def _sections(init: ast.FunctionDef) -> dict[str, str]:
    """Local names bound to a section (``b = v.burn``)."""
    out = {}
    for node in ast.walk(init):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Attribute):
            base = node.value.value
            if isinstance(base, ast.Name) and base.id == "v":
                out.update({t.id: node.value.attr for t in node.targets if isinstance(t, ast.Name)})
    return out


def _options_read(node: ast.AST, sections: dict[str, str]) -> set[str]:
    out = set()
    for n in ast.walk(node):
        if not isinstance(n, ast.Attribute):
            continue
        base = n.value
        if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and base.value.id == "v":
            out.add(f"{base.attr}.{n.attr}")
        elif isinstance(base, ast.Name) and base.id in sections:
            out.add(f"{sections[base.id]}.{n.attr}")
    return out & FIELDS


def _self_targets(node: ast.AST) -> list[str]:
    """``self.x`` attributes a statement assigns (``self.x[i] = …`` included)."""
    out = []
    for n in ast.walk(node):
        targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(n, ast.AnnAssign) else []
        for t in targets:
            for e in t.elts if isinstance(t, ast.Tuple) else [t]:
                e = e.value if isinstance(e, ast.Subscript) else e
                if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id == "self":
                    out.append(e.attr)
    return out


def copied_options() -> dict[str, set[str]]:
    """Attribute -> the options its statement in ``Rules.__init__`` reads (a tuple assignment pairwise)."""
    init = _init()
    sections = _sections(init)
    out: dict[str, set[str]] = {}
    for stmt in init.body:
        if (
            isinstance(stmt, ast.Assign)
            and isinstance(stmt.targets[0], ast.Tuple)
            and isinstance(stmt.value, ast.Tuple)
        ):
            for t, val in zip(stmt.targets[0].elts, stmt.value.elts, strict=True):
                if isinstance(t, ast.Attribute):
                    out.setdefault(t.attr, set()).update(_options_read(val, sections))
            continue
        read = _options_read(stmt, sections)
        for attr in _self_targets(stmt):
            out.setdefault(attr, set()).update(read)
    return {a: r for a, r in out.items() if r}


def _own_name(attr: str, option: str) -> bool:
    section, field = option.split(".")
    return attr in (f"{section}_{field}", field) or (field == "enabled" and attr == section)


def test_every_option_is_read_under_its_own_name_or_listed() -> None:
    bad = []
    for attr, read in copied_options().items():
        if attr in RENAMED:
            if read != {RENAMED[attr][0]}:
                bad.append(f"{attr}: RENAMED says {RENAMED[attr][0]}, __init__ reads {sorted(read)}")
        elif not any(_own_name(attr, o) for o in read):
            bad.append(f"{attr} is read from {sorted(read)}")
    assert bad == []


def test_the_walk_finds_the_copies() -> None:
    """Not empty by mistake: loops over rank lists, tuple assignments and section aliases are seen."""
    copies = copied_options()
    assert copies["thresholds"] == {"gouji.thresholds"}  # for sym, n in v.gouji.thresholds.items()
    assert copies["kang_big"] == {"kang.big"}  # self.kang_enabled, self.kang_small, self.kang_big = k…
    assert copies["burn_counter"] == {"burn.counter"}  # b = v.burn
    assert len(copies) > 70
    assert not _own_name("ffa", "free_for_all.enabled") and _own_name("free_for_all", "free_for_all.enabled")


def test_renamed_attributes_name_real_fields_and_hold_what_they_say() -> None:
    assert {field for field, _ in RENAMED.values()} <= FIELDS
    assert set(RENAMED) <= set(copied_options())
    s4, s0 = dagang().rules, dianshaomenla().rules
    for rules, variant in ((s4, dagang()), (s0, dianshaomenla())):
        assert rules.answer_anyone == (variant.gouji.answer == "anyone")
        assert rules.next_leader_place == (6 if variant.match.next_leader == "last_place" else 1)
        assert rules.tribute_ranks == sorted(rules.tribute_ranks, reverse=True)
