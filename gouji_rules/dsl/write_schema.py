"""``python -m gouji_rules.dsl.write_schema``: rewrite the shipped JSON Schemas from the model, after
adding a section, an option, a hook or a part inside the package: ``gouji_rules/data/schema.json``
(a variant file's, for editors) and ``gouji_rules/data/record.schema.json`` (a hand record's; its
``rules`` part comes from the catalogue).  ``gouji validate`` and ``gouji verify`` derive both when they
run; the files are what editors and other tools read, and tests hold them to the model.

A module of its own because the package imports :mod:`gouji_rules.dsl.schema` before ``-m`` could run
it, which Python warns about (``RuntimeWarning: ... found in sys.modules``).
"""

from __future__ import annotations

from pathlib import Path

from ..atomic import atomic_writer
from ..errors import GoujiError
from ..records.read import schema_text
from .schema import dumps, shipped_path

COMMAND = "python -m gouji_rules.dsl.write_schema"
"""What a test that finds a shipped schema out of date tells you to run."""


def record_schema_path() -> Path:
    """Where the shipped record schema lives in a source checkout."""
    return shipped_path().with_name("record.schema.json")


def write_all() -> list[Path]:
    """Regenerate both shipped schemas; their paths."""
    record = record_schema_path()
    try:
        record_text = schema_text()  # the file's own parts, its rules derived now
    except ValueError as e:
        raise GoujiError(f"{record}: not the record schema ({e}); restore it from version control first") from None
    out = [(shipped_path(), dumps()), (record, record_text)]
    for (
        path,
        text,
    ) in (
        out
    ):  # both made before either is written; an editor reading one mid-write, or a killed run, never sees half of it
        with atomic_writer(path) as f:
            f.write(text)
    return [path for path, _ in out]


if __name__ == "__main__":  # pragma: no cover
    import sys

    try:
        for path in write_all():
            print(path)
    except (GoujiError, OSError) as e:  # a target that is a folder, a device, read-only …: one line, the file kept
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(1) from None
