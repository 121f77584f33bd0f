"""``gouji event serve``: the event on the club's phones (see docs/club-night.md).

The web application lives in gouji_rules.web and needs the ``web`` extra
(``pip install 'gouji_rules[web]'``); without it the command says so and exits 1.
The organiser's link and every table's links go to stderr at start-up.
"""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import click

from .common import TEXT, FiniteFloat, add_commands, fail, handles_errors


def _lan_address() -> str:
    """This machine's address on the local network (no packet is sent), for the links phones open."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, opened before anything is served, so a busy port is one clear error."""
    try:
        family, kind, proto, _, addr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[
            0
        ]
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(addr)
            sock.listen(128)  # a browser opened before the server runs waits in the queue, never refused
        except OSError:
            sock.close()
            raise
    except (OSError, UnicodeError) as e:
        fail(f"cannot listen on {host} port {port}: {getattr(e, 'strerror', None) or e}")
    return sock


@click.command("serve")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on (0.0.0.0: every one)")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--public-url", type=TEXT, help="the address phones use, for links and QR codes (default: as browsed)")
@click.option("--new-links", is_flag=True, help="replace every table link (printed QR codes stop working)")
@click.option(
    "--season",
    "season_folder",
    type=click.Path(exists=True, file_okay=False),
    help="a folder of the club's event files, ranked at /season (gouji event season)",
)
@click.option(
    "--online", is_flag=True, help="play a round's tables online: each seat a link, results stored as hands end"
)
@click.option(
    "--round", "online_round", type=click.IntRange(1), help="the round played online (default: the last seated)"
)
@click.option("--absent", multiple=True, type=TEXT, help="a player not there: the agent plays their seat (repeatable)")
@click.option("--agent", default="greedy", show_default=True, type=TEXT, help="the agent of absent players and 托管")
@click.option(
    "--takeover", default=30.0, show_default=True, type=FiniteFloat(0, 3600), help="seconds silent before 托管"
)
@click.option("--delay", default=1.0, show_default=True, type=FiniteFloat(0, 60), help="seconds an agent's decision")
@handles_errors
def serve_cmd(
    file: str,
    host: str,
    port: int,
    public_url: str | None,
    new_links: bool,
    season_folder: str | None,
    online: bool,
    online_round: int | None,
    absent: tuple[str, ...],
    agent: str,
    takeover: float,
    delay: float,
) -> None:
    """Serve the club event FILE to phones: standings, seating, and results entered at the tables.

    Anyone who reaches the server may read; entering a result needs a table's link
    (one per side, printed as QR codes on the seating sheets); the organiser's link
    is printed here.  Listens on 127.0.0.1 unless --host says otherwise.
    """
    try:
        import uvicorn

        from ..web.app import Config, State, create_app
        from ..web.links import Seat
    except ImportError as e:
        fail(f"gouji event serve needs the web extra: pip install 'gouji_rules[web]' ({e.name} is missing)")
    if public_url is not None and not public_url.startswith(("http://", "https://")):
        raise click.UsageError("--public-url starts with http:// or https://")
    if not online and (online_round is not None or absent):
        raise click.UsageError("--round and --absent go with --online")
    config = Config(
        event_path=Path(file),
        public_url=public_url,
        new_links=new_links,
        season_folder=Path(season_folder) if season_folder else None,
    )
    state = State(config)  # opened and checked, nothing written yet
    try:
        sock = _listen(host, port)
        try:
            state.start()  # only now, with the port ours, is a missing secret drawn or --new-links applied
        except BaseException:
            sock.close()
            raise
    except BaseException:
        state.close()
        raise
    shown = public_url or f"http://{_lan_address() if host in ('0.0.0.0', '::') else host}:{port}"
    shown = shown.rstrip("/")
    say = config.log
    say(f"serving {state.name} ({file}) at {shown}/  (Ctrl+C stops)")
    say(f"organiser: {shown}/admin/{state.links.admin_token}")
    if config.season_folder is not None:
        say(f"season ({config.season_folder}): {shown}/season")
    for rnd in state.reader.db.rounds_seated():
        for r, tbl in sorted(state.reader.db.seating(rnd)):
            for side in (0, 1):
                say(f"round {r} table {tbl} side {'AB'[side]}: {shown}/t/{state.links.token(Seat(r, tbl, side))}")
    if host not in ("127.0.0.1", "localhost", "::1"):
        say("anyone on this network can read the standings; only table and organiser links change results")
    app = create_app(config, state)
    if online:
        app = _online(file, state, app, shown, online_round, set(absent), agent, takeover, delay)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, server_header=False))
    server.run(sockets=[sock])


def _online(
    file: str,
    state: Any,
    night: Any,
    shown: str,
    rnd: int | None,
    absent: set[str],
    agent: str,
    takeover: float,
    delay: float,
) -> Any:
    """The night's app with round ``rnd``'s tables as rooms; each seat's link to stderr."""
    from ..room.core import PERSON
    from ..tournament.event import Tournament
    from ..web.links import event_secret
    from ..web.online import online_app, open_round
    from ..web.room_app import Rooms
    from ..web.room_host import host_link, seat_link

    event = Tournament.open(file)  # its own connection: the rooms write as the hands end
    seated = event.db.rounds_seated()
    if not seated:
        fail(f"{file}: no round is seated yet; seat one first (gouji event seat)")
    rnd = rnd if rnd is not None else seated[-1]
    tables = open_round(event, rnd, event_secret(event), absent=absent, agent=agent, takeover=takeover)
    rooms = Rooms()
    rooms.base = shown
    for t in tables:
        hub = rooms.add(t, delay)
        hub.host_secret = t.host_secret
        names = event.seat_names(event.db.seating(rnd)[(rnd, t.tbl)])
        for i, seat in enumerate(t.seats):
            who = names[i] if seat.who == PERSON else f"{names[i]} ({seat.who})"
            click.echo(f"online round {rnd} table {t.tbl} seat {i + 1} {who}: {seat_link(shown, t, i)}", err=True)
        click.echo(f"online round {rnd} table {t.tbl} host (a QR code per seat): {host_link(shown, hub)}", err=True)
    return online_app(night, rooms)


def register(group: click.Group) -> None:
    """Add ``serve`` to the ``gouji event`` group."""
    add_commands(group, serve_cmd)
