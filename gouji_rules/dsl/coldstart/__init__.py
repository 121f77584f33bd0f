"""The shortcuts that make ``gouji validate`` start fast, set apart from what they stand in for.

A club's ``gouji validate`` runs in a fresh process; once, importing lark, jsonschema and PyYAML's
pure parser was most of its time.  Each module here stands in for a slower path, gives exactly that
path's answer, and falls back to it wherever it cannot be sure; ``tests/dsl/test_cold_start.py`` and
``tests/test_lalr.py`` hold each to the path it replaces, and ``gouji bench --cold-start`` measures
what they save.  The rest of :mod:`gouji_rules.dsl` asks each one question and reads as if it were
the slow path:

* :mod:`.expr_parser`: which parser reads hook expressions; :mod:`.lalr` runs the table lark built
  at development time (``data/expr_parser.json``), so lark is imported only when that table was
  built from another grammar or another lark;
* :mod:`.libyaml`: libyaml reads a variant file wherever it surely reads it as pure PyYAML does;
* :mod:`.conform`: a quick yes to "does this tree satisfy the JSON Schema?", so that a valid file
  needs no ``jsonschema``.

Outside this package the same purpose is served by ``gouji_rules/cli/__init__.py`` (a command's
module is imported when it runs), ``gouji_rules/__init__.py`` (the public names are imported on first
use), :mod:`gouji_rules.parts.section` (the variant's frozen dataclasses without generated code) and
:func:`gouji_rules.data.folder` (data files read without ``importlib.resources``).
"""
