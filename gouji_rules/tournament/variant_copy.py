"""The copy of the house rules an event keeps, so past hands are always scored the same way.

A club edits its rules file between events (or during one).  An event must not
change its past scores when that happens, so ``event new`` stores the file's
text (or, for a shipped variant, its name) together with the resolved rules as
plain data (``Variant.to_dict()``).  Every later command rebuilds the Variant
from the stored text, never from the file on disk, and checks that the rebuilt
rules are the ones stored: a file the copy ``extends`` may still have changed,
and scoring silently under other rules would be worse than stopping.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .. import catalog, dsl
from ..variant import BUILTIN, Variant
from .errors import EventError


def _canon(v: Variant) -> str:
    return json.dumps(v.to_dict(), ensure_ascii=False, sort_keys=True, default=str)


def snapshot(spec: str) -> tuple[Variant, dict[str, Any]]:
    """Resolve ``spec`` (a shipped name or a file) and the copy to store with the event."""
    variant = catalog.resolve(spec)
    data = json.loads(_canon(variant))
    if spec in dsl.shipped_names() or spec in BUILTIN:
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
    }


def rebuild(copy: dict[str, Any]) -> Variant:
    """The Variant an event was created with, from its stored copy."""
    if copy["kind"] == "shipped":
        variant = catalog.resolve(str(copy["name"]))
    else:
        variant = dsl.load_text(str(copy["text"]), str(copy["filename"]), Path(str(copy["base"])))
    if json.loads(_canon(variant)) != copy["rules"]:
        raise EventError(
            f"the rules rebuilt from the event's copy of {copy.get('filename') or copy['name']} differ from the "
            "rules the event was created with (a file it extends, or the shipped variant, has changed); "
            "scores would change, so the event stops here"
        )
    return variant
