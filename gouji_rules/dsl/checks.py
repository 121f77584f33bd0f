"""Whole-rule checks: settings that contradict each other or can never take effect.

Each check looks at the compiled Variant and reports a warning at the key in
the user's own file that takes part in the problem.  A warning is only given
when at least one of the keys involved is written in the file being checked
(the leaf of the extends chain), so a club file does not inherit its parent's
warnings, and the parent reports them when it is checked itself.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..parts import options
from ..rules.beat import unused_sets_fields
from ..variant import SECTIONS, TributeRules, Variant
from .errors import VariantFileError
from .expr import CompiledHook
from .overrides import decided
from .schema import NAME_RULE, is_name_char
from .yamlpos import Node


def find(root: Node, path: str) -> Node | None:
    """The key node at a dotted path (``burn.enabled``) in the merged tree, or None."""
    node: Node | None = root
    key_node: Node | None = None
    for part in path.split("."):
        if node is None or node.kind != "map":
            return None
        key_node = node.key_node(part)
        node = node.get(part)
    return key_node


def build_errors(variant: Variant, root: Node) -> list[VariantFileError]:
    """Errors that need more than one field to see (before the engine's tables are built)."""
    out: list[VariantFileError] = []
    name = root.get("name")
    odd = [c for c in variant.name if not is_name_char(c)]
    if name is not None and odd:  # what a portable schema pattern cannot say: symbols such as emoji
        out.append(
            name.error(
                f"name: {variant.name!r} {NAME_RULE}",
                f"{odd[0]!r} (U+{ord(odd[0]):04X}) is not a letter or a digit",
            )
        )
    for sym in variant.deck.remove:
        if variant.deck.extra.get(sym):
            node = find(root, f"deck.extra.{sym}") or find(root, "deck.extra") or root
            out.append(
                node.error(f"deck.extra adds {sym} cards that deck.remove also removes; write only the net change")
            )
    return out


def warnings(variant: Variant, root: Node, hooks: Mapping[str, CompiledHook]) -> list[VariantFileError]:
    """The things a valid file most likely did not mean (a rule that has no effect, a setting its base already has), as
    warnings with positions: valid, but worth a look."""
    out: list[VariantFileError] = []
    leaf = root.src

    def warn(message: str, paths: list[str], hint: str = "") -> None:
        nodes = [n for n in (find(root, p) for p in paths) if n is not None]
        mine = [n for n in nodes if n.src is leaf]
        if mine:
            out.append(mine[0].error(message, hint, severity="warning"))

    v = variant
    if v.burn.enabled and v.burn.needs_open_point and not v.open_point.enabled:
        warn(
            "burning needs 开点 (burn.needs_open_point) but open_point.enabled is false: nobody can ever burn",
            ["burn.needs_open_point", "open_point.enabled", "burn.enabled"],
            "set burn.needs_open_point: false, or burn.enabled: false",
        )
    if v.burn.enabled and not v.sets.attach_jokers:
        warn(
            "burning needs a joker on every later set, but sets.attach_jokers is empty: no burn can succeed",
            ["sets.attach_jokers", "burn.enabled"],
        )
    if v.free_for_all.enabled and v.free_for_all.after_out >= 5:
        warn(
            f"free_for_all.after_out is {v.free_for_all.after_out}: with 5 players out only one is left, "
            "so 四人乱缠 can never start",
            ["free_for_all.after_out"],
            "四人乱缠 starts after 2 players are out in S0 and S4",
        )
    if v.open_point.enabled and v.open_point.deadline_out is not None and v.open_point.deadline_out >= 6:
        warn(
            f"open_point.deadline_out is {v.open_point.deadline_out}: never reached in a hand of 6 players",
            ["open_point.deadline_out"],
            "write null for no deadline",
        )
    both = sorted(set(v.sets.bare) & set(v.sets.attach_jokers))
    if both:
        warn(
            f"{', '.join(both)} {'is' if len(both) == 1 else 'are'} both in sets.bare (sets that carry nothing) "
            "and in sets.attach_jokers (cards that are attached)",
            ["sets.bare", "sets.attach_jokers"],
        )
    for name, users in unused_sets_fields(v.sets.beat):
        warn(f"sets.{name} only applies when sets.beat is {' or '.join(users)} (here {v.sets.beat})", [f"sets.{name}"])
    if "team_score" not in hooks and len(set(v.scoring.points)) == 1:
        warn("every place scores the same (scoring.points): the places never change the score", ["scoring.points"])
    ts = hooks.get("team_score")
    if ts is not None and not ts.uses & {"points", "places"}:
        warn(
            "hooks.team_score ignores the places: it uses neither points nor places",
            ["hooks.team_score"],
            "for example: max(0, sum(points))",
        )
    for p, (hook, read) in decided(hooks).items():
        if not read:
            warn(f"{p} has no effect: hooks.{hook} decides instead", [p, f"hooks.{hook}"])
    left_out = [k for k in TributeRules().order if k not in v.tribute.order]
    if v.tribute.enabled and left_out:
        warn(
            f"tribute.order leaves out {', '.join(left_out)}: a kind of tribute is paid only where the order names it",
            ["tribute.order"],
            "name every kind that is paid, in the order it is paid",
        )
    for registry, _, _ in options.homes():
        path = options.home_path(registry)
        for name in v.extensions.get(path, {}):
            if name in registry and not options.switched_on(v, registry, name):
                why = f"sets.beat is {v.sets.beat}" if path == "sets.strategies" else "tribute.order does not name it"
                warn(f"{path}.{name} has no effect: {why}", [f"{path}.{name}"])
    for key, cls in SECTIONS:
        if "enabled" in getattr(cls, "__dataclass_fields__", {}) and not getattr(v, key).enabled:
            section = root.get(key)
            if section is None or section.kind != "map":
                continue
            for name in section.entries:
                if name != "enabled":
                    warn(f"{key}.{name} has no effect: {key}.enabled is false", [f"{key}.{name}"])
    return out
