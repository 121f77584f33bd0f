"""Commands about variant files: validate, explain, diff, variants, schema.

Results go to stdout, diagnostics (``FILE:LINE:COL: error: …``) to stderr.
Exit codes: 0 fine, 1 an invalid variant, 2 a usage error.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn

import click

from . import catalog
from .errors import GoujiError
from .variant import Variant


def _die(e: GoujiError) -> NoReturn:
    from .dsl import VariantErrors

    if isinstance(e, VariantErrors):
        for err in e.errors:
            click.echo(err.format(), err=True)
        n = len(e.errors)
        click.echo(f"{n} error{'s' if n != 1 else ''}", err=True)
    else:
        click.echo(f"error: {e}", err=True)
    sys.exit(1)


def _resolve(spec: str) -> Variant:
    try:
        return catalog.resolve(spec)
    except GoujiError as e:
        _die(e)


def _unusable(path: str) -> str:
    """Why ``validate`` cannot read ``path`` as a file ("" when it can try): missing, or a name the OS refuses."""
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return "no such file or shipped variant"
    except OSError as e:  # ENAMETOOLONG (a name over NAME_MAX or PATH_MAX), ELOOP, EACCES on a folder
        return f"cannot be used: {e.strerror}"
    except ValueError:  # a NUL byte in the name
        return "cannot be used: the name holds a NUL character"
    return ""


MAX_SHOWN = 50
"""Diagnostics printed per file at most (a file that is not a variant file would give one per line)."""

LANG = click.option(
    "--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True, help="language of the text"
)


def register(group: click.Group) -> None:
    """Add the variant-file commands to the ``gouji`` group."""

    @group.command("validate")
    @click.argument("paths", nargs=-1, required=True)
    @click.option("--quiet", "-q", is_flag=True, help="no summary line per file on stdout")
    def validate_cmd(paths: tuple[str, ...], quiet: bool) -> None:
        """Check variant files (or shipped names): every error of every file, and warnings.

        Exit 0 when all are valid, 1 when any is invalid or missing, 2 on a usage error.
        """
        from . import dsl

        shipped = set(dsl.shipped_names())
        unusable = {p: why for p in paths if p not in shipped and (why := _unusable(p))}
        missing = list(unusable)
        for p, why in unusable.items():  # reported like any invalid file; the others are still checked
            click.echo(f"{p}: error: {why}", err=True)
            if not quiet:
                click.echo(f"{p}: {'not found' if why.startswith('no such') else 'cannot be read'}")
        present = tuple(p for p in paths if p not in missing)
        results = dsl.validate_paths(present) if present else []
        bad = len(missing)
        for p, r in zip(present, results, strict=True):
            shown = sorted([*r.errors, *r.warnings], key=lambda e: e.sort_key())
            for d in shown[:MAX_SHOWN]:
                click.echo(d.format(), err=True)
            if len(shown) > MAX_SHOWN:  # not a variant file at all, most likely: the first ones say so
                click.echo(f"{p}: … and {len(shown) - MAX_SHOWN} more", err=True)
            if r.errors:
                bad += 1
            if not quiet:
                status = "ok" if not r.errors else f"{len(r.errors)} error{'s' if len(r.errors) != 1 else ''}"
                if r.warnings:
                    status += f", {len(r.warnings)} warning{'s' if len(r.warnings) != 1 else ''}"
                click.echo(f"{p}: {status}")
        sys.exit(1 if bad else 0)

    @group.command("explain")
    @click.argument("variant")
    @LANG
    def explain_cmd(variant: str, lang: str) -> None:
        """Print VARIANT (a shipped name or a file) as a house-rules sheet."""
        from .dsl.explain import explain

        click.echo(explain(_resolve(variant), lang), nl=False)

    @group.command("diff")
    @click.argument("a")
    @click.argument("b")
    @LANG
    def diff_cmd(a: str, b: str, lang: str) -> None:
        """Show the rules in which variants A and B differ, side by side."""
        from .dsl.diff import format_diff

        click.echo(format_diff(_resolve(a), _resolve(b), lang), nl=False)

    @group.command("variants")
    def variants_cmd() -> None:
        """List the shipped variants, one line each."""
        from . import dsl
        from .dsl.diff import pad
        from .dsl.errors import display_width

        rows = []
        for name in dsl.shipped_names():
            try:
                v = dsl.load_shipped(name)
                rows.append((name, v.title, v.source))
            except GoujiError as e:
                rows.append((name, "(invalid)", str(e).splitlines()[0]))
        w0 = max(display_width(r[0]) for r in rows)
        w1 = max(display_width(r[1]) for r in rows)
        for name, title, source in rows:
            click.echo(f"{pad(name, w0)}  {pad(title, w1)}  {source}".rstrip())

    @group.command("schema")
    def schema_cmd() -> None:
        """Print the JSON Schema of a variant file (for editors and other tools)."""
        from .dsl.schema import dumps

        click.echo(dumps(), nl=False)
