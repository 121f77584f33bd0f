"""The copy of the house rules an event keeps, so past hands are always scored the same way.

A club edits its rules file between events (or during one).  An event must not
change its past scores when that happens, so ``event new`` stores the file's
text (or, for a shipped variant, its name) together with the resolved rules as
plain data (``Variant.to_dict()``).  Every later command rebuilds the Variant
from the stored text, never from the file on disk, and checks that the rebuilt
rules are the ones stored.  Nothing in the copy is ever opened as a path: an event
file may come from someone else, and a copy that ``extends: /etc/passwd`` must not
print that file's lines.  The stored text's ``extends`` is followed only when it
names a shipped variant; a copy made from a file that extends another file by path
is rebuilt from its resolved rules and the hook texts stored with them (``hooks``).  When they are not (a file the copy ``extends``, or
the shipped variant, has changed, or this version of gouji_rules has options the
copy's did not), the event plays on under the stored rules themselves, each
option added since at its legacy value (``with_legacy``); only a copy that
cannot be rebuilt to the same rules stops the event, as scoring silently under
other rules would be worse than stopping.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .. import catalog, dsl
from ..dsl.yamlpos import parse
from ..errors import GoujiError
from ..parts.catalogue import rules_keys
from ..variant import SECTIONS, Variant, _hook_text, with_legacy
from .errors import EventError


def _canon(v: Variant) -> str:
    return json.dumps(v.to_dict(), ensure_ascii=False, sort_keys=True, default=str)


def snapshot(spec: str) -> tuple[Variant, dict[str, Any]]:
    """Resolve ``spec`` (a shipped name or a file) and the copy to store with the event."""
    variant = catalog.resolve(spec)
    data = json.loads(_canon(variant))
    if spec in dsl.shipped_names() or spec in catalog.BUILTIN:
        return variant, {"kind": "shipped", "name": spec, "rules": data}
    path = Path(spec)
    text = path.read_text(encoding="utf-8")
    return variant, {
        "kind": "file",
        "name": variant.name,
        "filename": str(path),
        "base": str(path.resolve().parent),
        "text": text,
        "rules": data,
        "hooks": {k: _hook_text(f) for k, f in sorted(variant.hooks.items())},
    }


def _parent_named(text: str, filename: str) -> str | None:
    """What the stored text's ``extends`` names (None without one), read without following it."""
    try:
        node = parse(text, filename)
    except GoujiError as e:
        raise EventError(f"the event's copy of its rules is damaged: {_first_line(e)}") from None
    ext = node.get("extends") if node.kind == "map" else None
    if ext is None:
        return None
    return ext.value.strip() if ext.kind == "scalar" and not ext.is_null else ""


def _first_line(e: BaseException) -> str:
    text = str(e)
    return text.splitlines()[0] if text.strip() else type(e).__name__


def _from_file_copy(copy: dict[str, Any]) -> Variant:
    """The Variant a ``"kind": "file"`` copy holds, opening nothing it names."""
    filename = str(copy["filename"])
    if not filename.isprintable() or len(filename) > 200:
        filename = "<the event's copy of its rules>"
    parent = _parent_named(str(copy["text"]), filename)
    if parent is None or parent in dsl.shipped_names():
        # nothing, or only shipped files, below it: the text is loaded as written (no base folder)
        try:
            return dsl.load_text(str(copy["text"]), filename, None)
        except GoujiError as e:
            raise EventError(f"the event's copy of its rules is not valid: {_first_line(e)}") from None
    hooks = copy.get("hooks")
    if not isinstance(hooks, dict) or not isinstance(copy["rules"], dict):
        raise EventError(
            f"the event's copy of its rules extends {parent[:80]!r}, which is not a shipped variant; a file "
            "named inside an event is never opened (the event file may come from anyone), and this copy "
            "holds no hook texts to rebuild its rules without it"
        )
    return variant_from_rules({**copy["rules"], "hooks": hooks}, "<the event's copy of its rules>")


def rebuild(copy: dict[str, Any]) -> Variant:
    """The Variant an event was created with, from its stored copy."""
    keys = {"shipped": ("name", "rules"), "file": ("name", "filename", "base", "text", "rules")}
    if not isinstance(copy, dict) or copy.get("kind") not in keys or any(k not in copy for k in keys[copy["kind"]]):
        raise EventError("the event's copy of its rules is damaged (the variant entry of its meta table)")
    if copy["kind"] == "shipped":
        if copy["name"] not in catalog.names():
            raise EventError(
                f"the event was made under the shipped variant {str(copy['name'])[:60]!r}, not shipped here"
            )
        variant = catalog.resolve(str(copy["name"]))
    else:
        variant = _from_file_copy(copy)
    if json.loads(_canon(variant)) == copy["rules"]:
        return variant
    older = _as_stored(copy["rules"], variant)
    if older is None:
        raise EventError(
            f"the rules rebuilt from the event's copy of {str(copy.get('filename') or copy['name'])[:80]!r} differ from the "
            "rules the event was created with (a file it extends, or the shipped variant, has changed); "
            "scores would change, so the event stops here"
        )
    return older


def _as_stored(stored: Any, current: Variant) -> Variant | None:
    """The rules the event was created with, rebuilt from its stored copy: the options added to the
    model since at their legacy values, the hooks from the stored text (``current``).  None when the
    copy cannot be rebuilt to the same rules (an option it holds no longer exists or changed meaning, or
    it lacks one that every copy holds)."""
    if not isinstance(stored, dict):
        return None
    try:
        older = variant_from_rules(_with_hooks(stored, current), "<the event's copy of its rules>")
    except EventError:
        return None
    # every option as stored or, when the copy lacks it, at its legacy value: a missing option that has
    # none (or a missing section of such options) was in every copy ever written, so the copy is damaged
    rebuilt = json.loads(_canon(older))
    expected = with_legacy(stored)
    same = all(key in expected for key, _ in SECTIONS) and all(rebuilt.get(k) == v for k, v in expected.items())
    return older if same else None


# -- the rules a hand record carries ---------------------------------------------------------


def rules_data(variant: Variant) -> dict[str, Any]:
    """Every rule of ``variant`` as plain data in a variant file's shape, hooks as their expression text.

    This is what a hand record (or the first line of a records file) carries, so the
    record can be checked without the club's file: :func:`variant_from_rules` turns it
    back into the same rules (the same :meth:`Variant.fingerprint`).
    """
    return _with_hooks(json.loads(_canon(variant)), variant)


def _with_hooks(data: dict[str, Any], variant: Variant) -> dict[str, Any]:
    """``data`` and, when ``variant`` has hooks, their expression texts under ``hooks``."""
    hooks = {k: _hook_text(f) for k, f in sorted(variant.hooks.items())}
    return {**data, "hooks": hooks} if hooks else dict(data)


def variant_from_rules(data: dict[str, Any], where: str = "<record>") -> Variant:
    """The Variant that :func:`rules_data` wrote, through the same checks as a variant file.

    The data goes through the variant file's loader (schema, bounds, the expression
    grammar), never through a path: a key outside the catalogue's
    :func:`~gouji_rules.parts.catalogue.rules_keys` (``extends`` above all) is refused before anything
    is loaded.
    """
    keys = rules_keys()
    extra = sorted(str(k) for k in data if k not in keys)
    if extra:
        raise EventError(f"{where}: the rules hold {extra[0]!r}, which a record's rules may not hold")
    try:
        return dsl.load_text(json.dumps(with_legacy(data), ensure_ascii=False), where, None)
    except GoujiError as e:
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise EventError(f"the rules the record carries are not valid: {first}") from None
