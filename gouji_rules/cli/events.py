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

from ..game.seats import side, side_seats
from ..tournament.event import MAX_ENTRANTS, MAX_HANDS, MAX_ROUNDS
from .common import OUTPUT, SEED, TEXT, FiniteFloat, add_commands, check_output_paths, fail, handles_errors

F = TypeVar("F", bound=Callable[..., Any])


@contextmanager
def _open(path: str, *, write: bool = False, wait: float | None = None) -> Iterator[Any]:
    """The event, read-only unless the command changes it; a damaged file is one error, not a traceback."""
    import sqlite3

    from ..tournament.errors import EventError
    from ..tournament.event import Tournament
    from ..tournament.storage import BUSY_TIMEOUT

    ev = Tournament.open(path, write=write, timeout=BUSY_TIMEOUT if wait is None else wait)
    try:
        yield ev
    except sqlite3.DatabaseError as e:
        raise EventError(f"{path}: the event file is damaged or cannot be used ({e})") from None
    except (KeyError, TypeError, json.JSONDecodeError) as e:
        raise EventError(f"{path}: damaged event file ({type(e).__name__}: {e})") from None
    finally:
        ev.close()


def _encoding_option(fn: F) -> F:
    return click.option(
        "--encoding",
        help="the CSV's encoding when it is not UTF-8 (e.g. gbk for a CSV saved by Chinese Excel, utf-16)",
    )(fn)


def _wait_option(fn: F) -> F:
    return click.option(
        "--wait",
        type=FiniteFloat(0, 600),
        default=10.0,
        show_default=True,
        help="seconds to wait while another command writes to the event, then give up",
    )(fn)


def _write(text: str, output: str | None) -> None:
    """To stdout, or to a file written completely or not at all."""
    if output is None:
        click.echo(text, nl=False)
        return
    from ..atomic import atomic_writer

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
@click.argument("file", type=OUTPUT)
@click.option("--name", required=True, type=TEXT, help="the event's name")
@click.option("--variant", "variant_spec", default="dagang", show_default=True, help="shipped name or variant file")
@click.option("--players", help="players.csv (a 'name' column): individuals")
@click.option("--teams", help="teams.csv ('team,name', three players a team)")
@click.option(
    "--bots",
    multiple=True,
    type=TEXT,
    help="NAME=random|greedy|simple|ismcts|learned|learned:FILE|cmd:COMMAND, comma-separated (may repeat)",
)
@click.option("--format", "fmt", type=click.Choice(["round_robin", "swiss", "rotating"]), help="the schedule")
@click.option(
    "--rounds",
    type=click.IntRange(1, MAX_ROUNDS),
    help=f"rounds, at most {MAX_ROUNDS} (default: all for a round robin, else 3 / log2 teams)",
)
@click.option(
    "--hands", type=click.IntRange(1, MAX_HANDS), help=f"hands per match, at most {MAX_HANDS} (default: match.hands)"
)
@click.option("--seed", default=0, show_default=True, type=SEED, help="all randomness of the event comes from it")
@click.option("--duplicate/--no-duplicate", default=None, help="bots: also play each deal with the cards swapped")
@click.option("--tiebreaks", help="after match points, comma-separated: hand_points, head_to_head, buchholz, …")
@_encoding_option
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
    encoding: str | None,
) -> None:
    """Create the event FILE (never overwrites) with its entrants, rules copy and schedule."""
    from ..outputs import variant_inputs
    from ..tournament import event as ev

    given = sum(x is not None and x != () for x in (players, teams, bots))
    if given != 1:
        raise click.UsageError("give exactly one of --players, --teams or --bots")
    check_output_paths([file], [players, teams, *variant_inputs(variant_spec)])
    from ..tournament.tiebreaks import parse

    settings = ev.Settings(
        name, variant_spec, fmt, rounds, hands, seed, duplicate, parse(tiebreaks) if tiebreaks else ()
    )
    if players:
        db = ev.create(file, settings, players=ev.read_players(players, encoding))
    elif teams:
        db = ev.create(file, settings, teams=ev.read_teams(teams, encoding))
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
            from ..tournament.schedule import describe_repeats, seating_repeats

            click.echo(f"schedule: {describe_repeats(seating_repeats(db.seating()))}")


@event_group.command("seat")
@click.argument("file")
@click.option("--round", "rnd", required=True, type=click.IntRange(1, MAX_ROUNDS))
@click.option("--json", "as_json", is_flag=True, help="JSON (seats 0-5, as records and the bot protocol)")
@click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True)
@_wait_option
@handles_errors
def seat_cmd(file: str, rnd: int, as_json: bool, lang: str, wait: float) -> None:
    """Print the seating sheet of a round: seats 1-6 in order of play (as the phones show them), 对头, sides.

    Read-only, except that the first look at a Swiss round pairs it and stores the pairing.
    """
    from ..tournament.club import needs_pairing, seating_sheet

    with _open(file) as e:
        pair_now = needs_pairing(e, rnd)
    with _open(file, write=pair_now, wait=wait) as e:
        sheet = seating_sheet(e, rnd)
        if as_json:
            click.echo(json.dumps({"schema_version": 1, "tables": sheet}, ensure_ascii=False, indent=2))
            return
        click.echo(seating_text(e.name, rnd, sheet, lang), nl=False)


SEAT_HEADERS = {
    "zh": ["座位", "选手", "队", "同一方（座位）", "对头"],
    "en": ["seat", "player", "team", "side (seats)", "对头 (opposite)"],
}


def seating_text(name: str, rnd: int, sheet: list[dict[str, Any]], lang: str = "zh") -> str:
    """The seating sheet as a club reads it: seats numbered 1-6 as on the phones and the printed sheets
    (JSON, CSV, records and the bot protocol keep 0-5), Chinese first."""
    from ..tournament.standings import table

    zh = lang == "zh"
    out = ""
    for t in sheet:
        if "bye" in t:
            out += f"轮空：{'、'.join(t['bye'])}\n\n" if zh else f"bye: {', '.join(t['bye'])}\n\n"
            continue
        out += f"{name}：第 {rnd} 轮 第 {t['table']} 桌\n" if zh else f"{name}: round {rnd}, table {t['table']}\n"
        rows = []
        for r in t["seats"]:
            o = t["seats"][r["opposite"]]
            sits = " ".join(str(s + 1) for s in side_seats(side(r["seat"])))
            rows.append([str(r["seat"] + 1), r["player"], r["team"], sits, f"{o['seat'] + 1} {o['player']}"])
        out += table(SEAT_HEADERS[lang], rows) + "\n"
    if sheet:
        out += (
            '座位 1–6 按出牌顺序；录入名次时写选手的名字（--finish "张三 李四 …"），不会和座位号弄混。\n'
            if zh
            else 'Seats 1-6 in order of play; enter a finish by player names (--finish "Li Wang ...").\n'
        )
    return out


class WithPhaseEntries(click.Command):
    """A command that also takes each registered phase's club entry (``--NAME A:B``, may repeat): the
    options are read from the phases when the command parses, so a phase registered after this module
    was imported is entered like the shipped choices."""

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        """The command's options plus one per registered phase's club entry, read now (not at import), so a plugin
        phase is entered like a shipped one."""
        from ..phases.base import club_entries

        params = super().get_params(ctx)
        taken = {n for p in params for n in p.opts}
        extra: list[click.Parameter] = [
            click.Option([e.flag, f"phase_{name}"], multiple=True, type=TEXT, help=e.help)
            for name, p in club_entries().items()
            if (e := p.entry) is not None and e.flag not in taken
        ]
        return params[:-1] + extra + params[-1:]  # --help stays last


def _record_options(fn: F) -> F:
    opts = [
        click.option("--round", "rnd", type=click.IntRange(1, MAX_ROUNDS)),
        click.option("--table", "tbl", type=click.IntRange(1, MAX_ENTRANTS // 6)),
        click.option("--hand", type=click.IntRange(1, MAX_HANDS)),
        click.option("--finish", help='finishing order: "s0 s1 s2 s3 s4 s5" (seats or player names)'),
        click.option("--burn", multiple=True, help="BURNER:VICTIM (a successful 烧)"),
        click.option("--burn-fail", "burn_fail", multiple=True, help="SEAT whose burn failed (诈烧 / 烧牌失败)"),
        click.option("--men", multiple=True, help="VICTIM:BY (闷 / 清)"),
        click.option("--opened", multiple=True, help="seats that opened (开点), space or comma separated"),
        click.option("--geming", multiple=True, help="SEAT that declared 革命"),
        click.option("--chongdian", multiple=True, help="SEAT:ok|fail (冲点)"),
        click.option(
            "--declare",
            multiple=True,
            help="KIND:SEAT: a declaration the variant plays (xuandian, hedian, mingdian, yudian, or one an extension registers)",
        ),
        click.option("--waive", multiple=True, help="GIVER:RECEIVER (a partner's tribute waived)"),
        click.option(
            "--no-three", "no_three", multiple=True, help="SEAT left without a 3 after buying (S4 第九条: 算做大落)"
        ),
        click.option("--from", "from_csv", help="results.csv instead of options"),
        click.option("--json", "as_json", is_flag=True, help="print the scored hands as JSON"),
        click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True),
        click.option("--encoding", help="the results CSV's encoding when it is not UTF-8 (e.g. gbk for Chinese Excel)"),
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
    encoding: str | None,
    *,
    need_finish: bool = True,
    choices: dict[str, tuple[str, ...]] | None = None,
) -> tuple[list[tuple[str, Any]], str]:
    from ..tournament.club import Entry, read_results, split_list

    if from_csv:
        if any(x is not None for x in (rnd, tbl, hand, finish)) or any(lists.values()) or any((choices or {}).values()):
            raise click.UsageError("--from takes every result from the file; give no other result options")
        return list(read_results(from_csv, encoding)), from_csv
    if rnd is None or tbl is None or hand is None or (finish is None and need_finish):
        what = "--round, --table, --hand and --finish" if need_finish else "--round, --table and --hand"
        raise click.UsageError(f"give {what} (or --from results.csv)")
    flat = {k: [x for v in vals for x in split_list(v)] for k, vals in lists.items()}
    chosen = {k: [x for v in vals for x in split_list(v)] for k, vals in (choices or {}).items()}
    entry = Entry(rnd, tbl, hand, split_list(finish or ""), **flat, choices={k: v for k, v in chosen.items() if v})
    return [("command line", entry)], ""


LIST_OPTIONS = ("burn", "burn_fail", "men", "opened", "geming", "chongdian", "declare", "waive", "no_three")


def _lists(kw: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    lists = {k: kw.pop(k) for k in LIST_OPTIONS}
    return {"burns" if k == "burn" else k: v for k, v in lists.items()}


def _choices(kw: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """The registered phases' entries given (``--NAME``), by the entry's name."""
    return {k.removeprefix("phase_"): kw.pop(k) for k in [k for k in kw if k.startswith("phase_")]}


def _hands_json(scored: list[Any]) -> list[dict[str, Any]]:
    return [
        {
            "round": s.entry.round,
            "table": s.entry.table,
            "hand": s.entry.hand,
            "places": s.places,
            "scores": list(s.settlement.scores),
            "sweep": s.settlement.sweep,
            "next_leader": s.settlement.next_leader,
            "tribute": [d.__dict__ for d in s.debts],
            "result": s.result,
        }
        for s in scored
    ]


def read_out(event: Any, sc: Any, lang: str = "zh") -> str:
    """What the scorer reads out at the table, as the phones say it: names first, seats 1-6, Chinese
    first (``--lang en``: the library's English, seats 0-5 as ``--finish`` takes them)."""
    from ..tournament.club import DEBT_NAMES, describe

    if lang != "zh":
        return describe(event, sc)
    names, st, e = sc.names, sc.settlement, sc.entry
    place_names = event.variant.rules.places_names

    def who(s: int) -> str:
        return f"{names[s]}（{s + 1}号）"

    order = sorted(range(6), key=lambda s: sc.places[s])
    sides = ["、".join(names[s] for s in side_seats(team)) for team in (0, 1)]
    out = [f"第 {e.round} 轮 第 {e.table} 桌 第 {e.hand} 局（{event.variant.name}）"]
    out.append("名次：" + "，".join(f"{place_names[sc.places[s] - 1]} {who(s)}" for s in order))
    sweep = f"；{'A' if st.sweep == 0 else 'B'}方串三户" if st.sweep is not None else ""
    out.append(f"得分：A方（{sides[0]}）{st.scores[0]}，B方（{sides[1]}）{st.scores[1]}{sweep}")
    out.append(f"下一局由 {who(st.next_leader)} 先出牌")
    if not sc.debts:
        out.append("进贡：无")
    for d in sc.debts:
        back = "，要还贡" if d.returned else ""
        kind = DEBT_NAMES.get(d.kind, d.kind)
        out.append(f"进贡：{who(d.giver)} 给 {who(d.receiver)} {d.count} 张（{kind}）{back}")
    return "\n".join(out) + "\n"


@event_group.command("record", cls=WithPhaseEntries)
@click.argument("file")
@_record_options
@click.option("--replace", is_flag=True, help="overwrite a hand already recorded (kept in the audit trail)")
@_wait_option
@handles_errors
def record_cmd(file: str, replace: bool, as_json: bool, lang: str, wait: float, **kw: Any) -> None:
    """Enter a hand's result from a real table; prints its points, next leader and tribute."""
    from ..tournament.club import record

    lists, choices = _lists(kw), _choices(kw)
    entries, src = _entries(
        kw["rnd"], kw["tbl"], kw["hand"], kw["finish"], lists, kw["from_csv"], kw["encoding"], choices=choices
    )
    with _open(file, write=True, wait=wait) as e:
        scored = record(e, entries, replace=replace, file=src)
        if as_json:
            click.echo(json.dumps({"schema_version": 1, "hands": _hands_json(scored)}, ensure_ascii=False, indent=2))
            return
        for i, s in enumerate(scored):
            if i:
                click.echo("")
            click.echo(read_out(e, s, lang), nl=False)
        if src:
            said = f"从 {src} 录入了 {len(scored)} 局" if lang == "zh" else f"{len(scored)} hand(s) recorded from {src}"
            click.echo(said, err=True)


@event_group.command("correct", cls=WithPhaseEntries)
@click.argument("file")
@_record_options
@click.option(
    "--replace", is_flag=True, help="the options are the whole hand: facts not given are dropped (else they stay)"
)
@_wait_option
@handles_errors
def correct_cmd(file: str, replace: bool, as_json: bool, lang: str, wait: float, **kw: Any) -> None:
    """Change a hand already recorded: only what is given changes; prints the result before and after.

    The old result stays in the audit trail.  A change that would drop a recorded fact (a burn,
    an opened seat, …) needs --replace with the whole hand.
    """
    from ..tournament.club import correct, facts_line

    lists, choices = _lists(kw), _choices(kw)
    entries, src = _entries(
        kw["rnd"],
        kw["tbl"],
        kw["hand"],
        kw["finish"],
        lists,
        kw["from_csv"],
        kw["encoding"],
        need_finish=replace,
        choices=choices,
    )
    with _open(file, write=True, wait=wait) as e:
        done = correct(e, entries, replace=replace, file=src)
        if as_json:
            out = [
                {"before": c.before, "changed": c.changed, **h}
                for c, h in zip(done, _hands_json([c.after for c in done]), strict=True)
            ]
            click.echo(json.dumps({"schema_version": 1, "hands": out}, ensure_ascii=False, indent=2))
            return
        for i, c in enumerate(done):
            if i:
                click.echo("")
            r, t, h = c.key
            zh = lang == "zh"
            click.echo(f"第 {r} 轮 第 {t} 桌 第 {h} 局" if zh else f"round {r}, table {t}, hand {h}")
            if zh:  # the finishing order by name, then the facts as --finish and the other options write them
                for label, res in (("原来", c.before), ("改为", c.after.result)):
                    order = "、".join(c.after.names[int(x)] for x in res.get("finish", []))
                    click.echo(f"{label}：{order}（{facts_line(res, e.variant.rules)}）")
            else:
                click.echo(f"before: {facts_line(c.before, e.variant.rules)}")
                click.echo(f"after:  {facts_line(c.after.result, e.variant.rules)}")
            if not c.changed:
                click.echo("没有改动：这一局保持原样" if zh else "nothing changes: the hand is left as it was")
                continue
            click.echo(read_out(e, c.after, lang), nl=False)
        changed = sum(c.changed for c in done)
        if lang == "zh":
            click.echo(f"更正了 {changed} 局，{len(done) - changed} 局没有改动", err=True)
        else:
            click.echo(f"{changed} hand(s) corrected, {len(done) - changed} unchanged", err=True)


@event_group.command("status")
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="JSON with a schema_version")
@click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True)
@handles_errors
def status_cmd(file: str, as_json: bool, lang: str) -> None:
    """The hands still to be entered (or played), by round, table and hand.  Read-only."""
    from ..tournament.club import missing_hands

    zh = lang == "zh"
    with _open(file) as e:
        missing = missing_hands(e)
        stored = len(e.db.hands())
        if as_json:
            rows = [{"round": r, "table": t or None, "hand": h or None, "rotation": rot} for r, t, h, rot in missing]
            doc = {
                "schema_version": 1,
                "hands_recorded": stored,
                "hands_scheduled": e.scheduled_hands(),
                "missing": rows,
            }
            click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
            return
        if zh:
            click.echo(f"{e.name}：已录入 {stored} / {e.scheduled_hands()} 局")
        else:
            click.echo(f"{e.name}: {stored} of {e.scheduled_hands()} hands recorded")
        if not missing:
            click.echo("每一局都已录入" if zh else "every hand is recorded")
            return
        by_table: dict[tuple[int, int], list[str]] = {}
        for r, t, h, rot in missing:
            by_table.setdefault((r, t), []).append(f"{h}{'*' if rot else ''}")
        for (r, t), hands in by_table.items():
            if t == 0 and zh:
                click.echo(f"第 {r} 轮：还没排座（第 {r - 1} 轮打完后排）")
            elif t == 0:
                click.echo(f"round {r}: not seated yet (paired once round {r - 1} is complete)")
            elif zh:
                click.echo(f"第 {r} 轮 第 {t} 桌：第 {' '.join(hands)} 局待录入")
            else:
                click.echo(f"round {r} table {t}: hand{'s' if len(hands) > 1 else ''} {' '.join(hands)}")
        if any(rot for *_x, rot in missing):
            click.echo("（* 是复式那一局：同样的牌，两方互换）" if zh else "(* the duplicate deal, cards swapped)")


@event_group.command("standings")
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="JSON with a schema_version")
@click.option("--csv", "as_csv", is_flag=True)
@click.option("--html", "as_html", is_flag=True)
@click.option(
    "--png",
    "png_out",
    type=OUTPUT,
    metavar="FILE",
    help="write the standings as a picture for a group chat (1080 px wide; needs chromium, as the page's 保存图片 does not)",
)
@click.option("-o", "--output", type=OUTPUT, help="write to this file (atomically)")
@click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True)
@handles_errors
def standings_cmd(
    file: str, as_json: bool, as_csv: bool, as_html: bool, png_out: str | None, output: str | None, lang: str
) -> None:
    """Standings: match points, hand points, head-to-head, fewest last places, most first places."""
    from ..tournament import standings as st

    chosen = [f for f, on in (("json", as_json), ("csv", as_csv), ("html", as_html)) if on]
    if len(chosen) > 1:
        raise click.UsageError("choose one of --json, --csv and --html")
    if png_out and (chosen or output):
        raise click.UsageError("--png writes its own file: leave out --json, --csv, --html and -o")
    fmt = "png" if png_out else chosen[0] if chosen else None
    check_output_paths([output, png_out], [file])
    with _open(file) as e:
        lines = st.compute(e)
        if fmt == "png":
            from ..web import share, share_png

            assert png_out is not None
            share_png.write_png(share.standings_picture(e, lines, share.standings_headers(e, lang), lang), png_out)
            click.echo(f"已写入 {png_out}" if lang == "zh" else f"wrote {png_out}", err=True)
            return
        if fmt == "json":
            text = st.to_json(e, lines)
        elif fmt == "csv":
            text = st.to_csv(lines)
        elif fmt == "html":
            text = st.to_html(e, lines, lang)
        else:
            text = st.to_text(e, lines, lang)
        _write(text, output)


@event_group.command("season")
@click.argument("files", nargs=-1, required=True)
@click.option("--window", type=click.IntRange(1), help="only the last N nights (files are given oldest first)")
@click.option(
    "--min-nights",
    type=click.IntRange(1),
    help="nights in the window to be ranked  [default: 2, at most the nights in the window]",
)
@click.option("--mixed", is_flag=True, help="allow events played under different rules")
@click.option("--json", "as_json", is_flag=True, help="JSON with a schema_version")
@click.option("--csv", "csv_file", help="also write the season as CSV to this file (atomically)")
@click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True)
@handles_errors
def season_cmd(
    files: tuple[str, ...],
    window: int | None,
    min_nights: int | None,
    mixed: bool,
    as_json: bool,
    csv_file: str | None,
    lang: str,
) -> None:
    """Rank the players of several nights (event FILES, oldest first): averages and an OpenSkill rating.

    Read-only.  Players are matched by name; see "Season" in docs/tournaments.md.
    """
    from ..tournament import season as se
    from ..tournament.errors import EventError

    if window is not None and min_nights is not None and min_nights > window:
        raise click.BadParameter(
            f"{min_nights} nights cannot be attended in a window of {window}", param_hint="--min-nights"
        )
    check_output_paths([csv_file], files)
    try:
        s = se.build(files, window=window, min_nights=min_nights, mixed=mixed)
    except EventError as e:
        if lang != "zh":
            raise
        fail(se.zh_refusal(e))
    if csv_file:
        _write(se.to_csv(s), csv_file)
    click.echo(se.to_json(s) if as_json else se.to_text(s, lang), nl=False)


@event_group.command("run")
@click.argument("file")
@click.option("--time-limit", default=2.0, show_default=True, type=FiniteFloat(min=0.01), help="seconds a decision")
@click.option("--limit", type=click.IntRange(1), help="stop after playing this many matches")
@click.option(
    "--budget",
    type=FiniteFloat(min=0, max=366 * 86400),
    help="seconds the whole run may take; then it stops, every finished match kept",
)
@click.option("--quiet", is_flag=True, help="no progress on stderr")
@handles_errors
def run_cmd(file: str, time_limit: float, limit: int | None, budget: float | None, quiet: bool) -> None:
    """Play the bot event's matches not played yet; run again after a stop to continue."""
    from ..tournament.run import run_event

    def progress(msg: str) -> None:
        if not quiet:
            click.echo(msg, err=True)

    def on_term(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)  # unwinds through finally: bot processes are stopped

    old = signal.signal(signal.SIGTERM, on_term)
    try:
        with _open(file, write=True) as e:
            rep = run_event(e, time_limit=time_limit, progress=progress, limit=limit, budget=budget)
            stored = len(e.db.hands())
            if rep.out_of_time:
                click.echo(
                    f"the budget of {budget:g} s ran out: {rep.not_played} match(es) not played (the next "
                    "'gouji event run' plays them, the one under way from its start)",
                    err=True,
                )
            click.echo(
                f"{len(rep.played)} match(es) played, {rep.skipped} already stored, {rep.faults} fault(s); "
                f"{stored} of {e.scheduled_hands()} hands stored"
            )
    finally:
        signal.signal(signal.SIGTERM, old)


@event_group.command("faults")
@click.argument("file")
@click.option("--bot", "bot", help="only this entrant's faults")
@click.option("--stderr", "with_stderr", is_flag=True, help="also the bot's stderr kept with each fault")
@handles_errors
def faults_cmd(file: str, bot: str | None, with_stderr: bool) -> None:
    """List a bot event's faults, one a line; --stderr shows what the bot wrote to stderr before each."""
    with _open(file) as e:
        if bot is not None and bot not in e.by_name:
            raise click.BadParameter(f"no entrant {bot!r}", param_hint="--bot")
        shown = 0
        for f in e.db.faults():
            name = e.entrants[f.entrant].name
            if bot is not None and name != bot:
                continue
            first, _, rest = f.detail.partition("\n")
            rot = f" rotation {f.rotation}" if f.rotation else ""
            at = f"round {f.round} table {f.tbl}{rot} hand {f.hand} decision {f.decision}"
            click.echo(f"{at}: {name} (seat {f.seat}) {f.kind}: {first}")
            if with_stderr and rest:
                click.echo("".join(f"    {line}\n" for line in rest.splitlines()), nl=False)
            shown += 1
        click.echo(f"{shown} fault(s)", err=True)


@event_group.command("export")
@click.argument("file")
@click.option("--records", type=OUTPUT, help="write every hand record, one JSON object a line")
@click.option("--results", type=OUTPUT, help="write the club results in the results.csv format")
@click.option("--faults", type=OUTPUT, help="write the bot faults as CSV")
@click.option("--audit", type=OUTPUT, help="write the audit trail of entries and corrections, JSONL")
@handles_errors
def export_cmd(file: str, records: str | None, results: str | None, faults: str | None, audit: str | None) -> None:
    """Write the event's hand records, results, faults or audit trail to files (each atomically)."""
    import csv
    import io

    from ..outputs import spreadsheet_cell
    from ..tournament.club import results_csv

    if not any((records, results, faults, audit)):
        raise click.UsageError("give at least one of --records, --results, --faults, --audit")
    check_output_paths([records, results, faults, audit], [file])
    with _open(file) as e:
        if records:
            from ..records import export_lines

            _write("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in export_lines(e)), records)
        if results:
            _write(results_csv(e), results)
        if faults:
            out = io.StringIO()
            w = csv.writer(out, lineterminator="\n")
            w.writerow(["round", "table", "hand", "rotation", "decision", "seat", "bot", "kind", "detail"])
            for f in e.db.faults():
                name = e.entrants[f.entrant].name
                row = [f.round, f.tbl, f.hand, f.rotation, f.decision, f.seat, name, f.kind, f.detail]
                w.writerow([spreadsheet_cell(c) for c in row])  # a reply such as =cmd|... stays text
            _write(out.getvalue(), faults)
        if audit:
            _write("".join(json.dumps(a, ensure_ascii=False) + "\n" for a in e.db.audit()), audit)


def register(group: click.Group) -> None:
    """Add ``event`` to the ``gouji`` group."""
    from .serve import register as register_serve

    register_serve(event_group)
    add_commands(group, event_group)


__all__ = ["event_group", "register"]
