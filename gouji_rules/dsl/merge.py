"""``extends:`` chains: find the parent (a shipped name or a path relative to the file), merge.

Merge rules (documented in docs/variants.md):

* mappings merge key by key, recursively (``hooks`` too);
* lists and scalars replace: the child's value wins whole;
* ``extends``, ``name``, ``title`` and ``source`` describe one file and are not inherited;
* below every chain lies the model's defaults (the values of ``dagang``), and
  rank maps (``deck.remove``, ``gouji.thresholds``, ``sets.kill`` …) merge over
  those defaults key by key as well.

A chain that comes back to a file already in it is rejected, with the chain
printed.  Each merged node keeps its own file and position, so an error in a
parent file points into the parent.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..data import folder
from ..inputs import InputFileError, read_bytes
from .errors import VariantErrors, VariantFileError, did_you_mean
from .yamlpos import MAX_BYTES, Node, decode, parse

MAX_CHAIN = 16
READ_LIMIT = 4 * MAX_BYTES
"""Bytes read at most from a variant file: a little over the limit, so the too-large error can say by how much;
anything larger (``/dev/zero``, a log file) is refused by its size before it is read."""
NOT_INHERITED = ("extends", "name", "title", "source")


def shipped_dir() -> Path:
    """The folder of the variant files shipped with the package."""
    return folder("gouji_rules.data.variants")


def shipped_names() -> list[str]:
    """Names of the variant files shipped inside the package."""
    return sorted(p.name[: -len(".yaml")] for p in shipped_dir().iterdir() if p.name.endswith(".yaml") and p.is_file())


def shipped_file(name: str) -> Path:
    """Where the shipped variant file ``name`` is."""
    return shipped_dir() / f"{name}.yaml"


def shipped_text(name: str) -> tuple[str, str]:
    """The text of a shipped variant file and the file name to report."""
    path = shipped_file(name)
    data = path.read_bytes()
    filename = display_path(str(path))
    return decode(data, filename), filename


def shipped_chain(name: str) -> Chain:
    """A shipped variant file and everything it extends, merged.  Raises VariantErrors."""
    return load_chain(*_shipped_source(name))


def _shipped_source(name: str) -> tuple[str, str, Path, str]:
    """A shipped variant file as :func:`load_chain` reads it: text, file name, folder and identity."""
    text, fname = shipped_text(name)
    path = shipped_file(name)
    return text, fname, path.parent, _identity(str(path))


def display_path(path: str) -> str:
    """``path`` as a club should see it in a message: relative to the working folder where that is shorter."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # pragma: no cover - other drive on Windows
        return path
    return path if rel.startswith("..") else rel


@dataclass
class Chain:
    """The files of one extends chain, leaf first, and the merged tree."""

    root: Node
    files: list[str] = field(default_factory=list)


def load_chain(
    text: str, filename: str, base: Path | None, identity: str | None = None, *, root: Path | None = None
) -> Chain:
    """Parse a file and everything it extends; merge.  Raises VariantErrors.

    ``root`` confines the chain to one folder's tree (the rules editor's): an ``extends:`` that is
    an absolute path, or whose path leaves ``root`` (``..``, a link pointing out), is refused before
    anything is opened, so a page cannot be made to read any other file of the machine."""
    files: list[str] = []
    tree = _identity(str(root)) if root is not None else None
    node = _load(text, filename, base, identity or filename, [], files, tree)
    return Chain(node, files)


def _load(
    text: str,
    filename: str,
    base: Path | None,
    identity: str,
    stack: list[tuple[str, str]],
    files: list[str],
    root: str | None = None,
) -> Node:
    node = parse(text, filename)
    files.append(filename)
    if node.kind != "map":
        raise VariantErrors([node.error(f"a variant file is a mapping (extends:, name:, …), not {node.describe()}")])
    stack = [*stack, (identity, filename)]
    ext = node.get("extends")
    if ext is None:
        return node
    if ext.kind != "scalar" or ext.is_null or not ext.value.strip():
        raise VariantErrors([ext.error("extends must name a shipped variant or a file path")])
    target = ext.value.strip()
    parent_text, parent_name, parent_base, parent_id = _find_parent(ext, target, base, root)
    for ident, fname in stack:
        if ident == parent_id:
            start = [f for _, f in stack].index(fname)
            cycle = " -> ".join([f for _, f in stack[start:]] + [fname])
            raise VariantErrors([ext.error(f"extends cycle: {cycle}", "a variant cannot extend itself")])
    if len(stack) >= MAX_CHAIN:
        raise VariantErrors([ext.error(f"extends chain is longer than {MAX_CHAIN} files")])
    parent = _load(parent_text, parent_name, parent_base, parent_id, stack, files, root)
    return merge(parent, node)


def _find_parent(
    ext: Node, target: str, base: Path | None, root: str | None = None
) -> tuple[str, str, Path | None, str]:
    names = shipped_names()
    looks_like_path = "/" in target or "\\" in target or target.endswith((".yaml", ".yml"))
    if not looks_like_path and target in names:
        return _shipped_source(target)
    if "\0" in target:
        raise VariantErrors([ext.error("extends: a file name cannot hold a NUL character")])
    path = (base or Path.cwd()) / target
    if root is not None:
        path = _confined(ext, target, path, root)
    try:
        found = path.exists()
    except OSError as e:  # a name over the system's limits (NAME_MAX, PATH_MAX), a loop of links
        raise VariantErrors([ext.error(f"extends: cannot use {target[:60]!r}…: {e.strerror}")]) from None
    if not found:
        choices: list[str] = list(names)
        if base is not None and base.is_dir():
            choices += [p.name for p in base.glob("*.y*ml")]
        hint = did_you_mean(target, choices) or f"shipped variants: {', '.join(names)}"
        kind = "file" if looks_like_path else "shipped variant or file"
        raise VariantErrors([ext.error(f"extends: no {kind} {target!r}", hint)])
    try:
        data = read_bytes(path, limit=READ_LIMIT)
    except InputFileError as e:
        raise VariantErrors([ext.error(f"extends: cannot read {target!r}: it {e.message}")]) from None
    fname = display_path(str(path))
    return decode(data, fname), fname, path.parent, _identity(str(path))


class OutsideRoot(ValueError):
    """A path that leads out of the confining folder (see :func:`within`)."""


def within(path: Path, root: str) -> Path:
    """``path`` with every link followed, when that stays inside the folder ``root`` (itself resolved);
    else :class:`OutsideRoot`.  A path that does not exist yet is judged by where it would be."""
    try:
        real = os.path.realpath(path)
        inside = os.path.commonpath([real, root]) == root
    except (OSError, ValueError):
        raise OutsideRoot(str(path)) from None
    if not inside:
        raise OutsideRoot(str(path))
    return Path(real)


def _confined(ext: Node, target: str, path: Path, root: str) -> Path:
    """The parent ``target`` names, if it lies in ``root``'s tree; else an error that names only the value written."""
    outside = VariantErrors(
        [
            ext.error(
                f"extends: {target[:80]!r} is outside the folder being edited ({root})",
                "extends may name a shipped variant or a file in that folder or below it",
            )
        ]
    )
    if Path(target).is_absolute() or target.startswith("~"):
        raise outside
    try:
        return within(path, root)
    except OutsideRoot:
        raise outside from None


def _identity(path: str) -> str:
    try:
        return str(Path(path).resolve())
    except OSError:  # pragma: no cover
        return path


def merge(parent: Node, child: Node, top: bool = True) -> Node:
    """Child over parent: maps key by key, everything else replaced."""
    out = Node("map", child.src, child.start, child.end)
    for key, pair in parent.entries.items():
        if top and key in NOT_INHERITED:
            continue
        out.entries[key] = pair
    for key, (knode, vnode) in child.entries.items():
        if key in ("10", "T"):  # one rank, two spellings: the child's replaces the parent's
            for alias in ("10", "T"):
                if alias != key and alias not in child.entries:
                    out.entries.pop(alias, None)
        old = out.entries.get(key)
        if old is not None and old[1].kind == "map" and vnode.kind == "map":
            out.entries[key] = (knode, merge(old[1], vnode, top=False))
        else:
            out.entries[key] = (knode, vnode)
    return out


def read_file(path: Path) -> tuple[str, str]:
    """A variant file's text and display name; a missing file is a VariantErrors."""
    fname = str(path)
    try:
        data = read_bytes(path, limit=READ_LIMIT)
    except InputFileError as e:
        raise VariantErrors([VariantFileError(e.message, file=fname, line=0)]) from None
    return decode(data, fname), fname
