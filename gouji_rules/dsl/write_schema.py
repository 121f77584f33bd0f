"""``python -m gouji_rules.dsl.write_schema``: rewrite the shipped JSON Schema (``gouji_rules/data/schema.json``)
from the model, after adding an option, a hook or an extension inside the package.

A module of its own because the package imports :mod:`gouji_rules.dsl.schema` before ``-m`` could run
it, which Python warns about (``RuntimeWarning: ... found in sys.modules``).
"""

from __future__ import annotations

from .schema import write_shipped

if __name__ == "__main__":  # pragma: no cover
    print(write_shipped())
