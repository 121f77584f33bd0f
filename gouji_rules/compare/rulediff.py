"""The rule differences between variants: dotted paths whose values are not all equal.

Computed from ``Variant.to_dict()`` (the variant in the shape of its file), so it
lists exactly what a club would have to change in a file to go from one variant
to another.  ``name``, ``title`` and ``source`` describe a variant rather than
rule it and are left out.  Expression hooks are compared by name only (a
compiled closure has no comparable value); a hook present in some variants and
not others shows as ``hooks.NAME`` with ``defined`` / ``—``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..variant import Variant

DESCRIPTIVE = frozenset(("name", "title", "source"))
MISSING = "—"


def flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{"burn": {"enabled": True}}`` → ``{"burn.enabled": True}``.

    Lists are leaves.  An empty map adds no path, so ``deck.remove: {}`` against
    ``deck.remove: {"3": 10}`` reads ``deck.remove.3: — | 10``.
    """
    out: dict[str, Any] = {}
    for key, value in data.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.update(flatten(value, path + "."))
        else:
            out[path] = value
    return out


def rule_differences(variants: Sequence[Variant]) -> list[dict[str, Any]]:
    """Each path whose value differs between the variants, with the values side by side, in file order.

    >>> from gouji_rules.variant import dagang, dianshaomenla
    >>> [d["path"] for d in rule_differences([dagang(), dianshaomenla()])][:3]
    ['deck.remove.3', 'deck.remove.4', 'sets.bare']
    """
    flats = []
    for v in variants:
        data = {k: x for k, x in v.to_dict().items() if k not in DESCRIPTIVE}
        flat = flatten(data)
        for hook in v.hooks:
            flat[f"hooks.{hook}"] = "defined"
        flats.append(flat)
    paths: list[str] = []
    seen: set[str] = set()
    for flat in flats:
        for p in flat:
            if p not in seen:
                seen.add(p)
                paths.append(p)
    sections: dict[str, int] = {}
    for p in paths:
        sections.setdefault(p.split(".", 1)[0], len(sections))
    paths.sort(key=lambda p: sections[p.split(".", 1)[0]])  # stable: file order within a section
    out = []
    for p in paths:
        values = [flat.get(p, MISSING) for flat in flats]
        if any(v != values[0] for v in values[1:]):
            out.append({"path": p, "values": values})
    return out
