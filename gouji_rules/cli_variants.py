"""Commands about variant files: validate, explain, diff, variants, schema (filled in by the DSL work)."""

from __future__ import annotations

import click


def register(group: click.Group) -> None:
    """Add the variant-file commands to the ``gouji`` group."""
