"""Commands for events: ``gouji event …``.

Thin: parse options, call gouji_rules.tournament, print.  Results go to stdout,
progress to stderr.  Exit codes: 0 fine, 1 bad input or a failed check (one
line, ``FILE:LINE: error: …`` where there is a line), 2 a usage error.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from .cli_common import handles_errors

F = TypeVar("F", bound=Callable[..., Any])


@contextmanager
def _open(path: str) -> Iterator[Any]:
    from .tournament.event import Tournament

    ev = Tournament.open(path)
    try:
        yield ev
    finally:
        ev.close()


def _write(text: str, output: str | None) -> None:
    """To stdout, or to a file written completely or not at all."""
    if output is None:
        click.echo(text, nl=False)
        return
    from .atomic import atomic_writer

    with atomic_writer(output) as fh:
        fh.write(text)
    click.echo(f"wrote {output}", err=True)


# -- gouji event -------------------------------------------------------------------------------


@click.group("event")
def event_group() -> None:
    """Run a tournament under house rules: club events at real tables, or bot events.

    One SQLite file holds the whole event; every change is one transaction.
    See docs/tournaments.md.
    """


@event_group.command("new")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--name", required=True, help="the event's name")
@click.option("--variant", "variant_spec", default="dagang", show_default=True, help="shipped name or variant file")
@click.option("--players", type=click.Path(dir_okay=False), help="players.csv (a 'name' column): individuals")
@click.option("--teams", type=click.Path(dir_okay=False), help="teams.csv ('team,name', three players a team)")
@click.option("--bots", multiple=True, help="NAME=random|greedy|cmd:COMMAND, comma-separated (may repeat)")
@click.option("--format", "fmt", type=click.Choice(["round_robin", "swiss", "rotating"]), help="the schedule")
@click.option("--rounds", type=click.IntRange(1), help="rounds (default: all for a round robin, else 3 / log2 teams)")
@click.option("--hands", type=click.IntRange(1), help="hands per match (default: the variant's match.hands)")
@click.option("--seed", default=0, show_default=True, type=int, help="all randomness of the event comes from it")
@click.option("--duplicate/--no-duplicate", default=None, help="bots: also play each deal with the cards swapped")
@click.option("--tiebreaks", help="after match points, comma-separated: hand_points, head_to_head, buchholz, …")
@handles_errors
def new_cmd(
    file: str,
    name: str,
    variant_spec: str,
    players: str | None,
    teams: str | None,
    bots: tuple[str, ...],
    fmt: str | None,
    rounds: int | None,
    hands: int | None,
    seed: int,
    duplicate: bool | None,
    tiebreaks: str | None,
) -> None:
    """Create the event FILE (never overwrites) with its entrants, rules copy and schedule."""
    from .tournament import event as ev

    given = sum(x is not None and x != () for x in (players, teams, bots))
    if given != 1:
        raise click.UsageError("give exactly one of --players, --teams or --bots")
    from .tournament.tiebreaks import parse

    settings = ev.Settings(
        name, variant_spec, fmt, rounds, hands, seed, duplicate, parse(tiebreaks) if tiebreaks else ()
    )
    if players:
        db = ev.create(file, settings, players=ev.read_players(players))
    elif teams:
        db = ev.create(file, settings, teams=ev.read_teams(teams))
    else:
        db = ev.create(file, settings, bots=ev.parse_bots(bots))
    with db:
        e = ev.Tournament(db)
        d = e.describe()
        click.echo(
            f"created {file}: {d['name']}, {d['mode']} event, {d['format']}, {d['rounds']} rounds of "
            f"{d['tables']} table(s), {d['hands_per_match']} hands a match"
            f"{' (duplicate)' if d['duplicate'] else ''}, variant {d['variant']}, {len(e.entrants)} entrants"
        )
        if d["format"] == "rotating":
            from .tournament.schedule import describe_repeats, seating_repeats

            click.echo(f"schedule: {describe_repeats(seating_repeats(db.seating()))}")


@event_group.command("seat")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--round", "rnd", required=True, type=click.IntRange(1))
@click.option("--json", "as_json", is_flag=True)
@handles_errors
def seat_cmd(file: str, rnd: int, as_json: bool) -> None:
    """Print the seating sheet of a round: seats 0-5 in order of play, 对头, sides."""
    from .tournament.club import seating_sheet
    from .tournament.standings import table

    with _open(file) as e:
        sheet = seating_sheet(e, rnd)
        if as_json:
            click.echo(json.dumps({"schema_version": 1, "tables": sheet}, ensure_ascii=False, indent=2))
            return
        for t in sheet:
            if "bye" in t:
                click.echo(f"bye: {', '.join(t['bye'])}\n")
                continue
            click.echo(f"{e.name}: round {rnd}, table {t['table']}")
            rows = []
            for r in t["seats"]:
                o = t["seats"][r["opposite"]]
                side = "0 2 4" if r["seat"] % 2 == 0 else "1 3 5"
                rows.append([str(r["seat"]), r["player"], r["team"], side, f"{o['seat']} {o['player']}"])
            click.echo(table(["seat", "player", "team", "side", "对头 (opposite)"], rows), nl=False)
            click.echo("")


def _record_options(fn: F) -> F:
    opts = [
        click.option("--round", "rnd", type=click.IntRange(1)),
        click.option("--table", "tbl", type=click.IntRange(1)),
        click.option("--hand", type=click.IntRange(1)),
        click.option("--finish", help='finishing order: "s0 s1 s2 s3 s4 s5" (seats or player names)'),
        click.option("--burn", multiple=True, help="BURNER:VICTIM (a successful 烧)"),
        click.option("--men", multiple=True, help="VICTIM:BY (闷 / 清)"),
        click.option("--opened", multiple=True, help="seats that opened (开点), space or comma separated"),
        click.option("--geming", multiple=True, help="SEAT that declared 革命"),
        click.option("--chongdian", multiple=True, help="SEAT:ok|fail (冲点)"),
        click.option("--declare", multiple=True, help="KIND:SEAT, KIND xuandian, mingdian or yudian"),
        click.option("--waive", multiple=True, help="GIVER:RECEIVER (a partner's tribute waived)"),
        click.option("--from", "from_csv", type=click.Path(dir_okay=False), help="results.csv instead of options"),
        click.option("--json", "as_json", is_flag=True, help="print the scored hands as JSON"),
    ]
    for opt in reversed(opts):
        fn = opt(fn)
    return fn


def _entries(
    rnd: int | None,
    tbl: int | None,
    hand: int | None,
    finish: str | None,
    lists: dict[str, tuple[str, ...]],
    from_csv: str | None,
) -> tuple[list[tuple[str, Any]], str]:
    from .tournament.club import Entry, read_results, split_list

    if from_csv:
        if any(x is not None for x in (rnd, tbl, hand, finish)) or any(lists.values()):
            raise click.UsageError("--from takes every result from the file; give no other result options")
        return list(read_results(from_csv)), from_csv
    if rnd is None or tbl is None or hand is None or finish is None:
        raise click.UsageError("give --round, --table, --hand and --finish (or --from results.csv)")
    flat = {k: [x for v in vals for x in split_list(v)] for k, vals in lists.items()}
    entry = Entry(rnd, tbl, hand, split_list(finish), **flat)
    return [("command line", entry)], ""


def _record(file: str, replace: bool, correct: bool, as_json: bool, **kw: Any) -> None:
    from .tournament.club import describe, record

    lists = {k: kw.pop(k) for k in ("burn", "men", "opened", "geming", "chongdian", "declare", "waive")}
    lists = {"burns" if k == "burn" else k: v for k, v in lists.items()}
    entries, src = _entries(kw["rnd"], kw["tbl"], kw["hand"], kw["finish"], lists, kw["from_csv"])
    with _open(file) as e:
        scored = record(e, entries, replace=replace, correct=correct, file=src)
        if as_json:
            out = [
                {
                    "round": s.entry.round,
                    "table": s.entry.table,
                    "hand": s.entry.hand,
                    "places": s.places,
                    "scores": list(s.settlement.scores),
                    "sweep": s.settlement.sweep,
                    "next_leader": s.settlement.next_leader,
                    "tribute": [d.__dict__ for d in s.debts],
                }
                for s in scored
            ]
            click.echo(json.dumps({"schema_version": 1, "hands": out}, ensure_ascii=False, indent=2))
            return
        for i, s in enumerate(scored):
            if i:
                click.echo("")
            click.echo(describe(e, s), nl=False)
        if src:
            click.echo(f"{len(scored)} hand(s) recorded from {src}", err=True)


@event_group.command("record")
@click.argument("file", type=click.Path(dir_okay=False))
@_record_options
@click.option("--replace", is_flag=True, help="overwrite a hand already recorded (kept in the audit trail)")
@handles_errors
def record_cmd(file: str, replace: bool, as_json: bool, **kw: Any) -> None:
    """Enter a hand's result from a real table; prints its points, next leader and tribute."""
    _record(file, replace, False, as_json, **kw)


@event_group.command("correct")
@click.argument("file", type=click.Path(dir_okay=False))
@_record_options
@handles_errors
def correct_cmd(file: str, as_json: bool, **kw: Any) -> None:
    """Change a hand already recorded; the old result stays in the audit trail."""
    _record(file, False, True, as_json, **kw)


@event_group.command("standings")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="JSON with a schema_version")
@click.option("--csv", "as_csv", is_flag=True)
@click.option("--html", "as_html", is_flag=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="write to this file (atomically)")
@handles_errors
def standings_cmd(file: str, as_json: bool, as_csv: bool, as_html: bool, output: str | None) -> None:
    """Standings: match points, hand points, head-to-head, fewest last places, most first places."""
    from .tournament import standings as st

    chosen = [f for f, on in (("json", as_json), ("csv", as_csv), ("html", as_html)) if on]
    if len(chosen) > 1:
        raise click.UsageError("choose one of --json, --csv and --html")
    fmt = chosen[0] if chosen else None

    with _open(file) as e:
        lines = st.compute(e)
        if fmt == "json":
            text = st.to_json(e, lines)
        elif fmt == "csv":
            text = st.to_csv(lines)
        elif fmt == "html":
            text = st.to_html(e, lines)
        else:
            text = st.to_text(e, lines)
        _write(text, output)


@event_group.command("run")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--time-limit", default=2.0, show_default=True, type=click.FloatRange(min=0.01), help="seconds a decision"
)
@click.option("--limit", type=click.IntRange(1), help="stop after playing this many matches")
@click.option("--quiet", is_flag=True, help="no progress on stderr")
@handles_errors
def run_cmd(file: str, time_limit: float, limit: int | None, quiet: bool) -> None:
    """Play the bot event's matches not played yet; run again after a stop to continue."""
    from .tournament.run import run_event

    def progress(msg: str) -> None:
        if not quiet:
            click.echo(msg, err=True)

    def on_term(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)  # unwinds through finally: bot processes are stopped

    old = signal.signal(signal.SIGTERM, on_term)
    try:
        with _open(file) as e:
            rep = run_event(e, time_limit=time_limit, progress=progress, limit=limit)
            stored = len(e.db.hands())
            click.echo(
                f"{len(rep.played)} match(es) played, {rep.skipped} already stored, {rep.faults} fault(s); "
                f"{stored} of {e.scheduled_hands()} hands stored"
            )
    finally:
        signal.signal(signal.SIGTERM, old)


@event_group.command("export")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--records", type=click.Path(dir_okay=False), help="every hand record, one JSON object a line")
@click.option("--results", type=click.Path(dir_okay=False), help="club results in the results.csv format")
@click.option("--faults", type=click.Path(dir_okay=False), help="bot faults as CSV")
@click.option("--audit", type=click.Path(dir_okay=False), help="the audit trail of entries and corrections, JSONL")
@handles_errors
def export_cmd(file: str, records: str | None, results: str | None, faults: str | None, audit: str | None) -> None:
    """Write the event's hand records, results, faults or audit trail to files (each atomically)."""
    import csv
    import io

    from .tournament.club import results_csv

    if not any((records, results, faults, audit)):
        raise click.UsageError("give at least one of --records, --results, --faults, --audit")
    with _open(file) as e:
        if records:
            from .tournament.records import export_lines

            _write("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in export_lines(e)), records)
        if results:
            _write(results_csv(e), results)
        if faults:
            out = io.StringIO()
            w = csv.writer(out, lineterminator="\n")
            w.writerow(["round", "table", "hand", "rotation", "decision", "seat", "bot", "kind", "detail"])
            for f in e.db.faults():
                name = e.entrants[f.entrant].name
                w.writerow([f.round, f.tbl, f.hand, f.rotation, f.decision, f.seat, name, f.kind, f.detail])
            _write(out.getvalue(), faults)
        if audit:
            _write("".join(json.dumps(a, ensure_ascii=False) + "\n" for a in e.db.audit()), audit)


def register(group: click.Group) -> None:
    """Add ``event`` to the ``gouji`` group."""
    from .cli_serve import register as register_serve

    register_serve(event_group)
    for cmd in (event_group,):
        if cmd.name not in group.commands:
            group.add_command(cmd)


__all__ = ["event_group", "register"]
