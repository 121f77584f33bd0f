"""``gouji room serve``: a room for people and agents under any variant, in the browser (issue 33).

Listens on 127.0.0.1 unless ``--host`` says otherwise (``0.0.0.0`` for the phones of a club's Wi-Fi).
The host page's link, then the seats' links (one secret each), go to stdout; progress to stderr.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from .common import SEED, FiniteFloat, add_commands, fail, handles_errors

if TYPE_CHECKING:
    from ..room.core import Room
    from ..tournament.bot_agent import BotAgent

BOT_SECONDS = 2.0
"""seconds a bot program may take a decision before greedy takes its seat (the room waits meanwhile)"""


@click.group("room")
def room_group() -> None:
    """Play a match in the browser under any house rules: people and agents (docs/room.md)."""


@room_group.command("serve")
@click.argument("variant")
@click.option(
    "--people",
    type=click.IntRange(0, 6),
    default=1,
    show_default=True,
    help="seats for people (the first N; 0: agents only, to watch)",
)
@click.option(
    "--agents", default="greedy", show_default=True, help="who plays the other seats: an agent's name or cmd:PROGRAM"
)
@click.option("--hands", type=click.IntRange(1, 1000), default=None, help="hands in the match (default: the variant's)")
@click.option("--delay", type=FiniteFloat(0, 60), default=1.0, show_default=True, help="seconds an agent's decision")
@click.option("--takeover", type=FiniteFloat(1, 3600), default=30.0, show_default=True, help="seconds before 托管")
@click.option("--show-hands", is_flag=True, help="show every hand after each hand (friendly rooms)")
@click.option(
    "--advice/--no-advice", default=True, show_default=True, help="AI建议: a seat may ask the learned agent's top three"
)
@click.option("--seed", type=SEED, default=None, help="the match's seed (default: drawn)")
@click.option(
    "--store",
    type=click.Path(dir_okay=False),
    default=None,
    help="keep the match in FILE: started again with it, the room resumes where it was (its own settings win)",
)
@click.option(
    "--records",
    "records_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="append each hand's record to FILE (JSON lines) as the hand ends",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on (0.0.0.0: every one)")
@click.option("--port", default=8030, show_default=True, type=click.IntRange(1, 65535))
@handles_errors
def serve_cmd(
    variant: str,
    people: int,
    agents: str,
    hands: int | None,
    delay: float,
    takeover: float,
    show_hands: bool,
    advice: bool,
    seed: int | None,
    store: str | None,
    records_path: str | None,
    host: str,
    port: int,
) -> None:
    """Serve a room playing VARIANT (a shipped name or a file): the first --people seats are people, each with
    its own link; --agents plays the others."""
    import os
    import secrets

    from .. import catalog
    from ..outputs import check_outputs, variant_inputs
    from ..play.agents import AGENTS
    from .serve import _lan_address, _listen

    try:
        import uvicorn

        from ..room.core import PERSON, Room
        from ..room.store import StoredRoom
        from ..web.room_app import create_room_app
        from ..web.room_host import host_link, seat_link, watch_link
    except ImportError as e:
        fail(f"gouji room serve needs the web extra: pip install 'gouji_rules[web]' ({e.name} is missing)")
    program = agents[4:].strip() if agents.startswith("cmd:") else None
    if agents not in AGENTS and not program:
        raise click.BadParameter(f"{agents!r}: one of {', '.join(AGENTS)} or cmd:PROGRAM", param_hint="--agents")
    if program:
        _check_program(program)
    rules = catalog.resolve(variant)
    seats = [PERSON] * people + ["greedy" if program else agents] * (6 - people)
    room: Room
    resumed = False
    # a new store is checked as an output; an existing one is checked as a room store when it is opened
    new_store = store if store is not None and not os.path.lexists(store) else None
    check_outputs([new_store, records_path], variant_inputs(variant))
    if store is not None and records_path is not None and os.path.abspath(store) == os.path.abspath(records_path):
        raise click.BadParameter("the records file cannot be the store", param_hint="--records")
    if store is not None:
        from ..room.store import open_room

        settings = {"seats": seats, "hands": hands, "seed": secrets.randbits(63) if seed is None else seed,
                    "takeover": takeover, "show_hands": show_hands, "advice": advice, "agents": agents}  # fmt: skip
        room, resumed = open_room(store, rules, settings)
        assert isinstance(room, StoredRoom)
        if resumed:
            kept = room.settings
            people = kept["seats"].count(PERSON)
            agents = kept["agents"]
            program = agents[4:].strip() if agents.startswith("cmd:") else None
            click.echo(
                f"{store}: resuming room {room.code} at decision {room.seq}, hand {room.hand_number} of "
                f"{room.match.n_hands} (the file's own settings apply)",
                err=True,
            )
    else:
        room = Room(
            rules,
            seats,
            hands=hands,
            seed=secrets.randbits(63) if seed is None else seed,
            takeover=takeover,
            show_hands_after=show_hands,
            advice=advice,
        )
    if records_path is not None:
        from ..room.records_file import RecordsFile

        written = RecordsFile(records_path, room, resumed)
        written.catch_up(room)  # the hands a killed server ended but had not written yet
    bots = seat_programs(room, program, people) if program else []
    sock = _listen(host, port)
    shown = f"http://{_lan_address() if host in ('0.0.0.0', '::') else host}:{port}"
    click.echo(f"room {room.code}: {rules.title or rules.name}, {room.match.n_hands} hands (Ctrl+C stops)", err=True)
    app = create_room_app(room, delay=delay)
    if records_path is not None:
        app.state.hub.after = written.catch_up
    if isinstance(room, StoredRoom):
        app.state.hub.host_secret = room.host_secret
    app.state.rooms.base = shown
    click.echo(f"host: {host_link(shown, app.state.hub)}")
    for s in range(people):
        click.echo(f"seat {s + 1}: {seat_link(shown, room, s)}")
    click.echo(f"watch: {watch_link(shown, room)}")
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, server_header=False))
    try:
        server.run(sockets=[sock])
    finally:
        for bot in bots:
            bot.close()


def _check_program(program: str) -> None:
    """Refuse, before the room opens, a bot program that cannot start (a typo would otherwise be found at
    its first decision and the seat handed to greedy: a room of greedy agents the host did not ask for)."""
    import shlex
    import shutil

    try:
        argv = shlex.split(program)
    except ValueError as e:
        raise click.BadParameter(f"cmd:{program}: cannot split the command: {e}", param_hint="--agents") from None
    if not argv or shutil.which(argv[0]) is None:
        what = argv[0] if argv else program
        raise click.BadParameter(f"cmd:{program}: no program {what!r} to run", param_hint="--agents")


def seat_programs(room: Room, program: str, people: int) -> list[BotAgent]:
    """Seat the bot program ``program`` (the bot protocol, docs/bot-protocol.md) at every seat after the
    people's; the room's agents' task hands a seat whose program crashes or overruns its time to greedy and
    logs it, and the room goes on."""
    from ..tournament.bot_agent import BotAgent

    bots = []
    hand = room.match.hand
    for i in range(people, 6):
        bot = BotAgent(program, time_limit=BOT_SECONDS)
        bot.start_hand((hand.seed or 0) if hand is not None else 0, i)
        room.seats[i].agent, room.seats[i].who = bot, "bot"
        bots.append(bot)
    return bots


def register(group: click.Group) -> None:
    """Add ``room`` to the ``gouji`` group."""
    add_commands(group, room_group)


__all__ = ["register", "room_group"]
