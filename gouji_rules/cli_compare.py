"""``gouji compare``: variants side by side on the same duplicate deals.

Kept out of ``cli.py`` so the comparison can grow without touching the core
commands; ``cli.py`` calls :func:`register` once.  This module imports nothing
from ``cli.py`` (which imports it), so it can also be registered on any click
group, as the tests do.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from .agents import AGENTS
from .cli_common import MAX_RUN_HANDS, MAX_WORKERS
from .cli_common import fail as _fail
from .errors import GoujiError


@contextmanager
def _progress(deals: int, quiet: bool) -> Iterator[Callable[[int], None]]:
    """A progress bar over deals on stderr (never stdout, which may carry JSON)."""
    if quiet or not sys.stderr.isatty():  # a bar only for a person at a terminal, not in logs
        yield lambda done: None
        return
    with click.progressbar(length=deals, label="deals", file=sys.stderr) as bar:
        last = [0]

        def update(done: int) -> None:
            bar.update(done - last[0])
            last[0] = done

        yield update


def _check_agents(ctx: click.Context, param: click.Parameter, value: str) -> str:
    from .compare.skill import parse_agents

    try:
        parse_agents(value)
    except GoujiError as e:
        raise click.BadParameter(str(e)) from None
    return value


def register(group: click.Group) -> None:
    """Add ``compare`` to the ``gouji`` group."""

    @group.command("compare")
    @click.argument("variants", nargs=-1, required=True)
    @click.option(
        "--hands",
        "deals",
        default=1000,
        show_default=True,
        type=click.IntRange(1, MAX_RUN_HANDS),
        help="deals to play; each is played twice per variant (seats rotated), so 2×N hands per variant",
    )
    @click.option(
        "--match-hands",
        default=0,
        show_default=True,
        type=click.IntRange(0),
        help="play each deal as a match of K hands (tribute and all between hands) and add per-match metrics",
    )
    @click.option("--seed", default=0, show_default=True, type=int)
    @click.option(
        "--agents",
        "agent_name",
        default="learned",  # the strongest that keeps 200 deals under a minute (docs/research.md)
        show_default=True,
        callback=_check_agents,
        help=f"one agent for every seat, or A,B: side A in seats 0 2 4, side B in 1 3 5, and skill_gap = A − B "
        f"({', '.join(sorted(AGENTS))})",
    )
    @click.option(
        "--workers",
        default=1,
        show_default=True,
        type=click.IntRange(1, MAX_WORKERS),
        help=f"local processes (at most {MAX_WORKERS})",
    )
    @click.option("--scheduler", metavar="ADDRESS", help="run on a Dask distributed cluster (tcp://host:8786)")
    @click.option("--json", "as_json", is_flag=True, help="print one JSON document on stdout")
    @click.option("--csv", "csv_path", type=click.Path(dir_okay=False), help="write one row per variant and metric")
    @click.option("--html", "html_path", type=click.Path(dir_okay=False), help="write a self-contained HTML report")
    @click.option("--quiet", is_flag=True, help="no progress bar")
    def compare_cmd(
        variants: tuple[str, ...],
        deals: int,
        match_hands: int,
        seed: int,
        agent_name: str,
        workers: int,
        scheduler: str | None,
        as_json: bool,
        csv_path: str | None,
        html_path: str | None,
        quiet: bool,
    ) -> None:
        """Compare VARIANTS (shipped names or files; the first is the baseline) on the same deals.

        Every variant plays the same N deals, each twice with the teams' seats swapped, so the
        luck of the deal cancels.  Prints the rule differences, then each metric per variant with
        its 95% interval and each variant's paired difference to the first (≈0 when the interval
        contains 0).  比较规则: 同样的牌、换座再打一遍，差值按牌局配对。
        """
        if len(variants) < 2:
            raise click.UsageError("compare needs at least two variants")
        try:
            from .atomic import check_writable

            for out_path in (csv_path, html_path):
                if out_path:
                    check_writable(out_path)  # fail before the simulation, not after it
            doc = _run(list(variants), deals, match_hands, seed, agent_name, workers, scheduler, quiet)
            _write_outputs(doc, csv_path, html_path)
        except GoujiError as e:
            _fail(str(e))
        except OSError as e:
            _fail(f"{e.filename or ''}: error: {e.strerror}")
        if as_json:
            click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
        else:
            from .compare.report import render_text

            click.echo(render_text(doc), nl=False)


def _run(
    variants: list[str],
    deals: int,
    match_hands: int,
    seed: int,
    agent_name: str,
    workers: int,
    scheduler: str | None,
    quiet: bool,
) -> dict[str, Any]:
    from .compare import compare, make_backend

    with make_backend(workers, scheduler) as backend, _progress(deals, quiet) as progress:
        return compare(variants, deals, seed, agent_name, backend=backend, progress=progress, match_hands=match_hands)


def _write_outputs(doc: dict[str, Any], csv_path: str | None, html_path: str | None) -> None:
    from .atomic import atomic_writer

    if csv_path:
        from .compare.report import write_csv

        with atomic_writer(csv_path) as fh:
            write_csv(doc, fh)
    if html_path:
        from .compare.html import render_html

        with atomic_writer(html_path) as fh:
            fh.write(render_html(doc))
