"""The layers of the package, lowest first: a module imports only from its own layer or below.

This is the one written statement of the layer order (docs/architecture.md explains it;
``tests/test_layers.py`` holds every import of the package to it, imports made only for types
included).  It maps the layers of the design card (``game/``, ``parts/``, ``rules/``, ``dsl/``,
agents, the tools, ``cli/``) onto today's flat modules, in the order their imports allow today:

- ``engine``, ``observe``, ``match`` and the phases sit above ``rules`` (the design card puts the
  hand and the match in ``game/``, under ``rules/``): every rule decision the engine makes asks a
  compiled :class:`~gouji_rules.rules.Rules` it holds, and a phase's ``run`` asks it too.
- the Agent protocol and the simple bots (``agents``) sit with the match that asks them; the search
  agent is above the engine it copies.
- ``dsl.bench`` and ``dsl.write_schema`` are scripts (they time a simulation, write the schemas from
  the records' module), so they sit with the commands.
- ``tournament`` sits below ``records`` and ``compare`` (the card puts it above them): a record is
  checked against an event's copy of its variant, and ``compare`` plays the tournament's bots.

:data:`KNOT` names the one circle still tied, in the modules of the compiled rules; the test keeps
it from growing and fails once it is untied, so this file stays true.  A module is named by its
dotted path below ``gouji_rules``; a package's name covers every module under it that no longer
name claims.  The package's own ``__init__`` (the public API, imported lazily) is above all of them.
"""

from __future__ import annotations

LAYERS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "base",
        "what every layer uses: errors, registries, cards and seats, the values passed between hands",
        (
            "errors",
            "section",
            "hooks",
            "plugins",
            "registry",
            "rng",
            "seats",
            "cards",
            "strength",
            "inputs",
            "hand_setup",
            "data",
            "parts",
        ),
    ),
    ("game", "actions, events and legal sets: the words of play", ("actions", "events", "legal", "governs")),
    ("parts", "the options and the sections of a Variant, the catalogue", ("options", "variant", "parts.catalogue")),
    (
        "rules",
        "the compiled Variant and what it compiles: beat strategies, tribute kinds, declarations, settlement",
        ("beat", "rules", "settlement", "tributes", "declarations"),
    ),
    (
        "play",
        "the hand and the match as state machines, the phases between hands, a table's result, the Agent protocol",
        ("observe", "agents", "engine", "phases", "match", "outcome"),
    ),
    (
        "dsl",
        "YAML with positions, the schema, extends/merge, the grammar; the shipped variants; the output-path rule",
        ("dsl", "catalog", "outputs", "atomic"),
    ),
    ("search", "the search agent (ismcts), which plays copies of the hand", ("search",)),
    ("tournament", "events, schedules, standings, storage, bot events", ("tournament",)),
    ("tools", "records, variant analysis, simulation, RL envs", ("records", "sim", "compare", "env")),
    ("learn", "self-play training and the learned agent", ("learn",)),
    ("web", "club night, editor, rooms", ("web",)),
    (
        "cli",
        "the gouji commands, and the scripts that time or write files",
        ("cli", "bench", "dsl.bench", "dsl.write_schema"),
    ),
)
"""``(name, what it holds, modules)`` for each layer, lowest first."""

KNOT: frozenset[str] = frozenset({"beat", "engine", "observe", "options", "rules", "variant"})
"""The modules of the one import circle still tied (issue 31 counted 7 with ``settlement``): a
``Variant`` compiles its ``Rules`` (``variant.rules``) while ``Rules``, the beat strategies and the
observation name the Variant's section classes and the ``Hand`` in their types.  Untying it needs the
section classes in a module of their own, below both, and Protocols for the Hand: the step that makes
``game/`` and ``rules/`` folders."""


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
