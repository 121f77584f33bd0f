"""Issues 24 and 31: no import cycle in the package, imports made only for types included.

Every ``import`` statement counts, at the top of a module or inside a function (a late import
still knots two modules), and so does one under ``if TYPE_CHECKING:`` (issue 31: a type import
ties the modules together for every reader and for mypy, and it is how the layers went upward
unseen).  A module found by name at run time (a registry's loader, an agent by module path) is a
plugin, not an import, and is not followed.  A module's own packages are not edges either:
Python runs a package before any of its modules.  ``tests/test_layers.py`` holds the layer order.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "gouji_rules"


def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for path in sorted(PKG.rglob("*.py")):
        parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return out


def _imports(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """Import statements in ``body`` and every block under it, ``if TYPE_CHECKING:`` bodies included."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    yield from _imports([child])
                elif isinstance(child, ast.excepthandler):
                    yield from _imports(child.body)


def _targets(module: str, is_package: bool, node: ast.Import | ast.ImportFrom, known: set[str]) -> set[str]:
    """The package's modules that ``node`` (in ``module``) runs: the one named and, for ``from x
    import y``, ``x.y`` where that is a module."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        base = module.split(".") if is_package else module.split(".")[:-1]
        if node.level:
            base = base[: len(base) - node.level + 1]
            where = ".".join([*base, *([node.module] if node.module else [])])
        else:
            where = node.module or ""
        names = [where, *(f"{where}.{a.name}" for a in node.names)]
    out = set()
    for name in names:
        parts = name.split(".")
        out |= {".".join(parts[:k]) for k in range(1, len(parts) + 1)} & known
    return out


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports, for types too (its own packages left out)."""
    mods = _modules()
    known = set(mods)
    graph: dict[str, set[str]] = {}
    for module, (path, is_package) in mods.items():
        own = {module.rsplit(".", k)[0] for k in range(module.count(".") + 1)}
        deps: set[str] = set()
        for node in _imports(ast.parse(path.read_text(encoding="utf-8")).body):
            deps |= _targets(module, is_package, node, known)
        graph[module] = deps - own
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (as a path back to its start) through each strongly connected group of modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [_path_back(graph, set(g), g[0]) for g in groups]


def _path_back(graph: dict[str, set[str]], group: set[str], start: str) -> list[str]:
    """The shortest import path from ``start`` back to itself inside ``group``."""
    paths = [[start]]
    seen = {start}
    while paths:
        path = paths.pop(0)
        for w in sorted(graph[path[-1]] & group):
            if w == start:
                return [*path, start]
            if w not in seen:
                seen.add(w)
                paths.append([*path, w])
    return [start]


def test_no_import_cycle() -> None:
    """Type imports count: the circles issue 31 found through them (the compiled rules with the
    engine, the beat strategies, the observation, the options and the Variant; match and the phases;
    the tournament's storage and standings; the DSL's slips and YAML reader) stay untied."""
    assert [" -> ".join(c) for c in cycles(import_graph())] == []


def test_the_walk_sees_late_and_relative_imports() -> None:
    """The graph is not empty by mistake: the knots this issue untied would show, as edges the walk finds."""
    graph = import_graph()
    assert "gouji_rules.play.agents" in graph["gouji_rules.search"]  # top of the module, relative
    assert "gouji_rules.rules" in graph["gouji_rules.variant"]  # inside a method (variant.rules)
    assert "gouji_rules.game.hand_setup" in graph["gouji_rules.rules.tributes"]  # inside a method
    assert "gouji_rules.rules" in graph["gouji_rules.phases.buy"]  # only under TYPE_CHECKING: counted
    assert "gouji_rules.play.engine" not in graph["gouji_rules.phases.base"]  # HandSetup is in hand_setup
    assert "gouji_rules.phases" not in graph["gouji_rules.phases.buy"]  # its own package
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]


def test_the_search_agent_and_tribute_kinds_are_found_by_name() -> None:
    """What untied the knots: ``agents`` names the search agent, ``Rules`` finds tribute kinds and
    declarations in their registries; each is still the class its module defines."""
    from gouji_rules.catalog import dagang
    from gouji_rules.play.agents import make_agent
    from gouji_rules.rules.declarations import Mingdian
    from gouji_rules.rules.tributes import PointTribute
    from gouji_rules.search import SearchAgent

    assert type(make_agent("ismcts")) is SearchAgent
    rules = dagang().rules
    assert any(type(k) is PointTribute for k in rules.tribute_kinds)
    assert type(rules.declarations["mingdian"]) is Mingdian
