"""``gouji club [FOLDER]``: the organiser's home page in the browser (see docs/zh/开始.md).

A club secretary who has never used a terminal types one command and gets one page from which
the house rules are written and printed, nights created and opened, and the season seen.  Like
``gouji edit`` it listens on 127.0.0.1 only and its address carries a token new at each start,
since the page writes the club's files.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import click

from .common import add_commands, fail, handles_errors
from .edit import _open_in_browser
from .serve import _listen


@click.command("club")
@click.argument("folder", required=False, default=".", type=click.Path(file_okay=False, dir_okay=True))
@click.option("--port", default=8020, show_default=True, type=click.IntRange(1, 65535))
@click.option("--no-browser", is_flag=True, help="only print the address; do not open the browser")
@handles_errors
def club_cmd(folder: str, port: int, no_browser: bool) -> None:
    """Open the club's home page for FOLDER (its rules *.yaml and nights *.sqlite; default: here).

    From it: new rules and editing them (the rules editor), printing a rule sheet, a new night,
    opening a night (as `gouji event serve`), and the season over the folder's nights.
    """
    path = Path(folder)
    if not path.is_dir():
        fail(f"gouji club: {folder}: 不是文件夹 (not a folder)")
    try:
        import uvicorn

        from ..web.club_home import ClubConfig, club_url, create_club_app
    except ImportError as e:
        fail(f"gouji club needs the club extra: pip install 'gouji_rules[club]' ({e.name} is missing)")
    sock = _listen("127.0.0.1", port)
    sock.listen(128)  # the printed address answers at once: a browser opened before the server runs waits, not refused
    config = ClubConfig(folder=path, port=port)
    url = club_url(config)
    config.log(f"俱乐部文件夹 club folder: {config.folder}")
    click.echo(url)
    config.log("按 Ctrl+C 停止 (Ctrl+C stops)")
    app = create_club_app(config)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, server_header=False))
    opener = None if no_browser else _open_in_browser(url)
    try:
        server.run(sockets=[sock])
    finally:
        if opener is not None:
            shutil.rmtree(opener, ignore_errors=True)


def register(group: click.Group) -> None:
    """Add ``club`` to the ``gouji`` group."""
    add_commands(group, club_cmd)
