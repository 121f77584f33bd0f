"""``gouji edit``: the rules editor in the browser (see docs/editor.md).

The page is served on 127.0.0.1 only: it writes files on this machine, so only this machine's
browser may reach it.  It needs the ``web`` extra, as ``gouji event serve`` does.
"""

from __future__ import annotations

import click

from .common import OUTPUT, add_commands, check_output_paths, fail, handles_errors
from .serve import _listen


@click.command("edit")
@click.argument("file", required=False, type=OUTPUT)
@click.option(
    "--base", default="dagang", show_default=True, metavar="NAME", help="the shipped variant a new file starts from"
)
@click.option("--port", default=8010, show_default=True, type=click.IntRange(1, 65535))
@click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True, help="language of the page")
@handles_errors
def edit_cmd(file: str | None, base: str, port: int, lang: str) -> None:
    """Edit the house rules FILE in the browser (a new file when it does not exist yet).

    Every option of the rule sheet's sections with its Chinese name, what each value means and
    its clause; the errors as `gouji validate` prints them; the rule sheet and the differences from
    the base; Save writes only what differs from the base, keeping the file's comments and order.
    """
    from pathlib import Path

    from .. import dsl

    if base not in dsl.shipped_names():
        raise click.BadParameter(
            f"{base!r} is not a shipped variant ({', '.join(dsl.shipped_names())})", param_hint="--base"
        )
    if file is not None:
        check_output_paths([file])  # never a database, a device, a folder …: refused before anything is served
    try:
        import uvicorn

        from ..web.editor import EditorConfig, create_editor_app
    except ImportError as e:
        fail(f"gouji edit needs the web extra: pip install 'gouji_rules[web]' ({e.name} is missing)")
    config = EditorConfig(path=Path(file) if file else None, base=base, lang=lang)
    sock = _listen("127.0.0.1", port)
    config.log(f"editing {file or '(a new file)'} at http://127.0.0.1:{port}/  (Ctrl+C stops)")
    app = create_editor_app(config)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, server_header=False))
    server.run(sockets=[sock])


def register(group: click.Group) -> None:
    """Add ``edit`` to the ``gouji`` group."""
    add_commands(group, edit_cmd)
