"""The rule differences between variants: each rule whose value is not the same in all of them.

Built on ``gouji diff``'s :func:`gouji_rules.dsl.diff.differences` (two variants, field by
field, in the order of the model, hooks compared by their expression text), so
``compare`` and ``diff`` never disagree about what differs.  For more than two
variants a rule is listed when any variant differs from the baseline: equality is
transitive, so that also catches any two non-baseline variants that differ.  The
values are laid side by side, one per variant, as JSON-ready data, each with what the rule
governs (:mod:`gouji_rules.game.governs`: its events, tribute kinds, and whether it acts between hands).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from ..dsl.diff import Difference, differences
from ..dsl.explain import field_words
from ..game.governs import governs
from ..variant import SECTIONS, Variant


def _model_order() -> dict[str, int]:
    """Position of every ``section.field`` in the model (the order of a variant file)."""
    order: dict[str, int] = {}
    for key, cls in SECTIONS:
        for f in dataclasses.fields(cls):
            order[f"{key}.{f.name}"] = len(order)
    return order


def rule_differences(variants: Sequence[Variant]) -> list[dict[str, Any]]:
    """Each rule that differs, with its labels and the values side by side (the baseline first).

    >>> from gouji_rules.catalog import dagang, dianshaomenla
    >>> d = rule_differences([dagang(), dianshaomenla()])
    >>> [x["path"] for x in d][:2], [x["values"] for x in d if x["path"] == "scoring.points"]
    (['deck.remove', 'sets.bare'], [[[4, 2, 0, 0, -2, -4], [2, 1, 0, 0, -1, -2]]])
    """
    base = variants[0]
    per_variant = [{d.path: d for d in differences(base, v)} for v in variants[1:]]
    order: dict[str, Difference] = {}
    for found in per_variant:
        for path, d in found.items():
            order.setdefault(path, d)
    model = _model_order()
    out = []
    for path in sorted(order, key=lambda p: model.get(p, len(model))):  # hooks after the data, in name order
        first = order[path]
        values = [first.a] + [found[path].b if path in found else first.a for found in per_variant]
        g = governs(path)
        what = (
            None
            if g is None
            else {"events": list(g.events), "tribute": list(g.tribute), "between_hands": g.between_hands}
        )
        words = _words(variants, path, values)
        out.append(
            {
                "path": path,
                "zh": first.label_zh,
                "en": first.label_en,
                "values": values,
                "words": words,
                "governs": what,
            }
        )
    return out


def _words(variants: Sequence[Variant], path: str, values: list[Any]) -> dict[str, list[str]] | None:
    """Each value as the rule sheet words it (``被闷当即判为最后`` for ``place_bottom``), in both languages;
    None for a hook, whose value is its expression text, and for an extension's option."""
    key, _, name = path.partition(".")
    cls = dict(SECTIONS).get(key)
    if cls is None or name not in {f.name for f in dataclasses.fields(cls)}:
        return None  # a hook, or an extension's own option (its value is shown as it is written)
    return {
        lang: [field_words(v, key, name, value, lang) for v, value in zip(variants, values, strict=True)]
        for lang in ("zh", "en")
    }


def between_hands(differences: Sequence[dict[str, Any]]) -> list[str]:
    """The paths of the differing rules that act between hands (only matches show them)."""
    return [d["path"] for d in differences if d["governs"] and d["governs"]["between_hands"]]
