"""Which rule parameters each expression hook decides instead of the engine's default
(``HookSpec.decides``, ``via`` and ``partly`` in :mod:`gouji_rules.parts.hooks`).

A hook replaces a rule the engine would otherwise compute from parameters: a club's
``is_gouji`` decides what is 够级, so ``gouji.joker_sets`` no longer counts, and
``gouji.thresholds`` counts only as the ``threshold`` the expression may read.  ``gouji
explain`` prints such parameters as decided by the hook (never as if they held), and
``gouji validate`` warns about a parameter that a hook has made dead.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..parts.hooks import HOOKS


def partly(hooks: Mapping[str, object]) -> dict[str, tuple[str, tuple[str, str]]]:
    """``section.field`` -> (the hook deciding it in part, words for what the parameter still does)."""
    return {f: (name, words) for name in hooks if name in HOOKS for f, words in HOOKS[name].partly.items()}


def decided(hooks: Mapping[str, object]) -> dict[str, tuple[str, bool]]:
    """``section.field`` -> (the hook deciding it, whether the expression reads the field's value)."""
    out: dict[str, tuple[str, bool]] = {}
    for name, hook in hooks.items():
        o = HOOKS.get(name)
        if o is None:
            continue
        # a hook written in Python does not say what it reads: assume it reads everything it is given
        uses: frozenset[str] = getattr(hook, "uses", frozenset(o.via))
        read = {f for n in uses if n in o.via for f in via_fields(o.via[n])}
        for f in o.decides:
            out[f] = (name, f in read)
    return out


def via_fields(via: str | tuple[str, ...]) -> tuple[str, ...]:
    """The ``section.field`` parameters one context name carries into an expression."""
    return (via,) if isinstance(via, str) else via
