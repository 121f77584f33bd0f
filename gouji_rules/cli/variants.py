"""Commands about variant files: validate, explain, diff, variants, schema.

Results go to stdout, diagnostics (``FILE:LINE:COL: error: …``) to stderr.
Exit codes: 0 fine, 1 an invalid variant, 2 a usage error.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import NoReturn

import click

from .. import catalog
from ..errors import GoujiError
from ..variant import Variant


def _die(e: GoujiError, lang: str = "en") -> NoReturn:
    from ..dsl import VariantErrors
    from ..dsl.zh_messages import count, translate

    if isinstance(e, VariantErrors):
        for err in e.errors:
            click.echo(err.format(lang), err=True)
        click.echo(count(len(e.errors), "error", lang), err=True)
    elif lang == "zh":
        click.echo(f"错误：{translate(str(e))}", err=True)
    else:
        click.echo(f"error: {e}", err=True)
    sys.exit(1)


def _resolve(spec: str, lang: str = "en") -> Variant:
    try:
        return catalog.resolve(spec)
    except GoujiError as e:
        _die(e, lang)


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
    @LANG
    def validate_cmd(paths: tuple[str, ...], quiet: bool, lang: str) -> None:
        """Check variant files (or shipped names): every error of every file, and warnings.

        Exit 0 when all are valid, 1 when any is invalid or missing, 2 on a usage error.
        """
        from .. import dsl
        from ..dsl.zh_messages import STATUS, count

        zh = lang == "zh"
        shipped = set(dsl.shipped_names())
        unusable = {p: why for p in paths if p not in shipped and (why := _unusable(p))}
        missing = list(unusable)
        for p, why in unusable.items():  # reported like any invalid file; the others are still checked
            if zh:
                said = (
                    "没有这个文件，也没有这个内置规则"
                    if why.startswith("no such")
                    else why.replace("cannot be used: ", "不能使用：")
                )
                click.echo(f"{p}: 错误: {said}", err=True)
            else:
                click.echo(f"{p}: error: {why}", err=True)
            if not quiet:
                status = "not found" if why.startswith("no such") else "cannot be read"
                click.echo(f"{p}: {STATUS.get(status, status) if zh else status}")
        present = tuple(p for p in paths if p not in missing)
        results = dsl.validate_paths(present) if present else []
        bad = len(missing)
        for p, r in zip(present, results, strict=True):
            shown = sorted([*r.errors, *r.warnings], key=lambda e: e.sort_key())
            for d in shown[:MAX_SHOWN]:
                click.echo(d.format(lang), err=True)
            if len(shown) > MAX_SHOWN:  # not a variant file at all, most likely: the first ones say so
                more = len(shown) - MAX_SHOWN
                click.echo(f"{p}: …… 还有 {more} 条" if zh else f"{p}: … and {more} more", err=True)
            if r.errors:
                bad += 1
            if not quiet:
                ok = STATUS["ok"] if zh else "ok"
                status = ok if not r.errors else count(len(r.errors), "error", lang)
                if r.warnings:
                    status += ("，" if zh else ", ") + count(len(r.warnings), "warning", lang)
                click.echo(f"{p}: {status}")
        sys.exit(1 if bad else 0)

    @group.command("explain")
    @click.argument("variant")
    @LANG
    @click.option("--html", "html_out", metavar="FILE", help="also write the sheet as a printable HTML page (A4)")
    @click.option("--png", "png_out", metavar="FILE", help="also write it as a PNG picture (needs chromium)")
    def explain_cmd(variant: str, lang: str, html_out: str | None, png_out: str | None) -> None:
        """Print VARIANT (a shipped name or a file) as a house-rules sheet.

        Rules that differ from the variant it extends are marked ★.  With --html or --png the
        sheet is written to FILE instead of printed (never over an input; all or nothing).
        """
        from ..dsl.explain import extended, sheet, text_of
        from ..dsl.printable import to_html, write_png
        from .common import check_output_paths

        try:
            if html_out or png_out:
                check_output_paths([html_out, png_out], [variant if Path(variant).exists() else None])
            v = _resolve(variant, lang)
            s = sheet(v, lang, extended(variant))
            if not (html_out or png_out):
                click.echo(text_of(s), nl=False)
                return
            page = to_html(s)
            if png_out:
                write_png(page, s, png_out)
            if html_out:
                from ..atomic import atomic_writer

                with atomic_writer(html_out) as fh:
                    fh.write(page)
        except GoujiError as e:
            _die(e, lang)
        except OSError as e:
            if lang == "zh":
                from ..dsl.zh_messages import translate

                click.echo(f"{e.filename or ''}: 错误: {translate(e.strerror or '')}", err=True)
            else:
                click.echo(f"{e.filename or ''}: error: {e.strerror}", err=True)
            sys.exit(1)
        for out in (html_out, png_out):
            if out:
                click.echo(f"已写入 {out}" if lang == "zh" else f"wrote {out}", err=True)

    @group.command("diff")
    @click.argument("a")
    @click.argument("b")
    @LANG
    def diff_cmd(a: str, b: str, lang: str) -> None:
        """Show the rules in which variants A and B differ, side by side."""
        from ..dsl.diff import format_diff

        click.echo(format_diff(_resolve(a, lang), _resolve(b, lang), lang), nl=False)

    @group.command("variants")
    def variants_cmd() -> None:
        """List the shipped variants, one line each."""
        from .. import dsl
        from ..dsl.diff import pad
        from ..dsl.errors import display_width

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
        from ..dsl.schema import dumps

        click.echo(dumps(), nl=False)
