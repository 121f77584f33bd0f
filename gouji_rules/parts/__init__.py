"""The parts of 够级 that regions vary, and the one catalogue of them.

A part is a beat strategy, a tribute kind, a declaration or a match phase: a class in its registry
(:mod:`gouji_rules.parts.registry`) that carries its own name, words, options
(:mod:`gouji_rules.parts.options`) and, for a phase, the decisions it asks.  :mod:`.catalogue` lists every
part and option as they are registered now, and everything that must agree on what exists (the
variant schema, the record schema's ``rules``, ``gouji explain``, the docs tables, the env's mode
columns) is derived from it when it is asked.

This package's ``__init__`` imports nothing: :mod:`gouji_rules.parts.options` is read while the catalogue
is still being imported.
"""
