"""The words of the game: cards, seats, the seeded shuffle, actions, events, legal sets.

The lowest folder of the package (docs/architecture.md): nothing here asks the rules of a variant,
so every other layer may use it.  The values that pass between hands (``HandSetup``, ``Debt``,
``HandResult``) live here too, so that a phase's metadata names them without the engine.  This
``__init__`` imports nothing: each module is imported by its own path.
"""
