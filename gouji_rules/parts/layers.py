"""The layers of the package, lowest first: a module imports only from its own layer or below.

This is the one written statement of the layer order (docs/architecture.md says how to read it;
``tests/test_layers.py`` holds every import of the package to it, imports made only for types
included).  The folders show the layers of the design card: ``game/`` (the words of the game),
``parts/`` (registries, options, the catalogue), ``rules/`` (the compiled rules, chapter by
chapter, and the parts they compile), ``play/`` (the hand and the match), then the tools.  Where
the imports demand it the folders differ from issue 31's target:

- the values every layer passes (cards, seats, the shuffle, ``HandSetup``/``Debt``) and the
  registries (``parts.registry``, ``parts.plugins``, ``parts.hooks``, ``parts.section``) sit in
  the lowest layer, below ``game``: an action and an event name registered parts.
- ``rules.beat``, ``rules.tributes``, ``rules.declarations`` sit in ``rules/`` (the target had the
  strategies in ``game/``, the kinds in ``parts/``): the rules build them from a variant's words
  and they read the rules' tables.
- ``variant`` sits above ``rules`` (the card has one ``rules/`` layer for both): a Variant compiles
  its :class:`~gouji_rules.rules.Rules` (``variant.rules``); the rules and the options read a Variant
  by :class:`~gouji_rules.parts.sections.Sections`, a Protocol, and its sections from ``parts.sections``.
- ``play/`` (engine, observe, match, outcome, the simple agents) and the phases sit above
  ``rules`` (the target had the engine and the match in ``game/``): every rule decision the engine
  makes asks a compiled :class:`~gouji_rules.rules.Rules` it holds, and a phase's ``run`` asks it too.
  The search agent is above the engine it copies.
- ``dsl.bench`` and ``dsl.write_schema`` are scripts (they time a simulation, write the schemas from
  the records' module), so they sit with the commands.
- ``learn`` is split: the learned agent (``learn.agent`` and what it reads) sits below ``compare``,
  which plays it; the training (``selfplay``, ``train``, ``duplicate``, ``workers``) sits above,
  since it scores its checkpoints with ``compare``.
- ``tournament`` sits below ``records`` and ``compare`` (the card puts it above them): a record is
  checked against an event's copy of its variant, and ``compare`` plays the tournament's bots.
- the old flat paths (``gouji_rules.engine``, ``gouji_rules.cards`` …) are deprecation shims
  (:data:`MOVED`), above everything: nothing in the package imports them.

A module is named by its dotted path below ``gouji_rules``; a package's name covers every module
under it that no longer name claims.  The package's own ``__init__`` (the public API, imported
lazily) is above all of them.  ``python -m gouji_rules.parts.layers`` prints the table.
"""

from __future__ import annotations

MOVED: dict[str, str] = {
    **{m: f"game.{m}" for m in ("cards", "seats", "rng", "strength", "actions", "events", "legal", "governs")},
    "hand_setup": "game.hand_setup",
    **{m: f"parts.{m}" for m in ("registry", "plugins", "hooks", "section", "options")},
    **{m: f"rules.{m}" for m in ("beat", "settlement", "tributes", "declarations")},
    **{m: f"play.{m}" for m in ("observe", "agents", "engine", "match", "outcome")},
}
"""The flat modules that moved into the folders (issue 31 item 4), old name -> new name: each old
path is a shim that warns ``DeprecationWarning`` and hands over the moved module."""

LAYERS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "base",
        "what every layer uses: errors, registries, cards and seats, the values passed between hands",
        (
            "errors",
            "parts",
            "parts.section",
            "parts.hooks",
            "parts.plugins",
            "parts.registry",
            "game.rng",
            "game.seats",
            "game.cards",
            "game.strength",
            "game.hand_setup",
            "inputs",
            "data",
        ),
    ),
    ("game", "actions, events and legal sets: the words of play", ("game",)),
    ("parts", "the options and the sections of a variant file", ("parts.options", "parts.sections")),
    (
        "rules",
        "the compiled rules by chapter, and what they compile: beat strategies, tribute kinds, declarations, settlement",
        ("rules",),
    ),
    (
        "variant",
        "the Variant (its sections; it compiles its rules) and the one catalogue",
        ("variant", "parts.catalogue"),
    ),
    (
        "play",
        "the hand and the match as state machines, the phases between hands, a table's result, the Agent protocol",
        ("play", "phases"),
    ),
    (
        "dsl",
        "YAML with positions, the schema, extends/merge, the grammar; the shipped variants; the output-path rule",
        ("dsl", "catalog", "outputs", "atomic"),
    ),
    ("search", "the search agent (ismcts), which plays copies of the hand", ("search",)),
    ("tournament", "events, schedules, standings, storage, bot events", ("tournament",)),
    ("tools", "records, simulation, RL envs", ("records", "sim", "env")),
    ("learned", "the learned agent, its features and weights", ("learn",)),
    ("compare", "variant analysis (it plays the learned agent)", ("compare",)),
    ("review", "复盘: a seat's decisions valued by search with the learned agent", ("review",)),
    ("room", "a match online: six seats of people and agents, each told only what it may see", ("room",)),
    (
        "training",
        "self-play training, and the club files it draws",
        (
            "learn.selfplay",
            "learn.train",
            "learn.duplicate",
            "learn.workers",
            "learn.clubs",
            "learn.guards",
            "learn.distil",
        ),
    ),
    ("web", "club night, editor, rooms", ("web",)),
    (
        "cli",
        "the gouji commands, and the scripts that time or write files",
        ("cli", "bench", "dsl.bench", "dsl.write_schema"),
    ),
    ("moved", "the old flat paths: deprecation shims, imported by nothing in the package", tuple(MOVED)),
)
"""``(name, what it holds, modules)`` for each layer, lowest first."""


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of ``module`` (dotted, below ``gouji_rules``): the layer naming the
    longest prefix of it.  Raises KeyError for a module no layer names."""
    best, index = -1, -1
    for i, (_name, _what, modules) in enumerate(LAYERS):
        for m in modules:
            if (module == m or module.startswith(m + ".")) and len(m) > best:
                best, index = len(m), i
    if index < 0:
        raise KeyError(module)
    return index


def table() -> str:
    """The layers as text, highest first (as the design card draws them)."""
    return "\n".join(
        f"{i:2}  {name:<11} {', '.join(modules)}\n    {'':<11} {what}"
        for i, (name, what, modules) in reversed(list(enumerate(LAYERS)))
    )


if __name__ == "__main__":
    import os
    import sys

    try:
        print(table())
        sys.stdout.flush()
    except BrokenPipeError:  # `python -m gouji_rules.parts.layers | head`: the reader went away
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
