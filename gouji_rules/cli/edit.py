"""``gouji edit``: the rules editor in the browser (see docs/editor.md).

The page is served on 127.0.0.1 only, and only to whoever has the address printed at start: it
carries a token new at each start (:mod:`gouji_rules.web.editor_gate`), since every account and
program of the machine can reach 127.0.0.1.  ``--open`` opens it in the browser through a file
only this account can read, so the token never shows in a process list.  It needs the ``web``
extra, as ``gouji event serve`` does.
"""

from __future__ import annotations

import os
import shutil
import threading

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
@click.option("--open", "open_browser", is_flag=True, help="open the page (with its token) in the default browser")
@handles_errors
def edit_cmd(file: str | None, base: str, port: int, lang: str, open_browser: bool) -> None:
    """Edit the house rules FILE in the browser (a new file when it does not exist yet).

    Every option of the rule sheet's sections with its Chinese name, what each value means and
    its clause; the errors as `gouji validate` prints them; the rule sheet and the differences from
    the base; Save writes only what differs from the base, keeping the file's comments and order.

    The editor reads and writes only in FILE's folder (the current folder for a new file) and below
    it. Open the address it prints: it carries a secret token, new at each start.
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

        from ..web.editor import EditorConfig, create_editor_app, editor_url
    except ImportError as e:
        fail(f"gouji edit needs the web extra: pip install 'gouji_rules[web]' ({e.name} is missing)")
    config = EditorConfig(path=Path(file) if file else None, base=base, lang=lang, port=port)
    sock = _listen("127.0.0.1", port)
    url = editor_url(config)
    config.log(f"editing {file or '(a new file)'} in {config.root}")
    config.log(f"open {url}  (Ctrl+C stops)")
    app = create_editor_app(config)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, server_header=False))
    opener = _open_in_browser(url) if open_browser else None
    try:
        server.run(sockets=[sock])
    finally:
        if opener is not None:
            shutil.rmtree(opener, ignore_errors=True)


def _open_in_browser(url: str) -> str | None:
    """Open ``url`` through a page in a folder only this account can read (as Jupyter does): a
    browser's command line is visible to every account, a file of mode 0600 is not.  The folder,
    to remove when the editor stops; None when it could not be made (the printed address still works)."""
    import html
    import tempfile
    import webbrowser

    try:
        folder = tempfile.mkdtemp(prefix="gouji-edit-")
        page = os.path.join(folder, "open.html")
        fd = os.open(page, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(
                '<!DOCTYPE html><meta charset="utf-8"><meta name="referrer" content="no-referrer">'
                f'<meta http-equiv="refresh" content="0;url={html.escape(url)}">'
                f'<p><a href="{html.escape(url)}">规则编辑器 / rules editor</a></p>\n'
            )
    except OSError as e:
        click.echo(f"gouji edit: cannot open the browser ({e.strerror}); open the address above", err=True)
        return None

    def launch() -> None:  # in a thread: a console browser may hold its terminal, the server must run meanwhile
        if not webbrowser.open("file://" + page):
            click.echo("gouji edit: no browser found; open the address above", err=True)

    threading.Thread(target=launch, name="gouji-edit-browser", daemon=True).start()
    return folder


def register(group: click.Group) -> None:
    """Add ``edit`` to the ``gouji`` group."""
    add_commands(group, edit_cmd)
