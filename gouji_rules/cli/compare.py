"""``gouji compare``: variants side by side on the same duplicate deals.

Kept out of ``gouji_rules.cli`` so the comparison can grow without touching the core
commands; ``gouji_rules.cli`` calls :func:`register` once.  This module imports nothing
from ``gouji_rules.cli`` (which imports it), so it can also be registered on any click
group, as the tests do.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from ..errors import GoujiError
from ..play.agents import AGENTS
from .common import MAX_RUN_HANDS, MAX_WORKERS, OUTPUT, SEED, SchedulerAddress, check_output_paths
from .common import check_agents as _check_agents
from .common import fail as _fail


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


MAX_MATCH_HANDS = 1000
"""``--match-hands`` at most: as ``simulate --match-hands`` (docs/tournaments.md)."""


def _check_match_hands(ctx: click.Context, param: click.Parameter, value: str) -> int | None:
    """``auto`` (None: compare decides) or a whole number of hands, 0 for single hands."""
    if value == "auto":
        return None
    try:
        k = int(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is neither auto nor a whole number") from None
    if not 0 <= k <= MAX_MATCH_HANDS:
        raise click.BadParameter(f"{k} is not in the range 0<=x<={MAX_MATCH_HANDS} (0 plays single hands)")
    return k


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
        default="auto",
        show_default=True,
        callback=_check_match_hands,
        help="play each deal as a match of K hands (tribute and all between hands) and add per-match metrics; "
        "auto: matches of the baseline's match.hands (N deals as ⌈N/K⌉ matches) when a differing rule acts "
        "between hands, else single hands; 0: always single hands",
    )
    @click.option("--seed", default=0, show_default=True, type=SEED)
    @click.option(
        "--agents",
        "agent_name",
        default="learned",  # the strongest that keeps 200 deals under a minute (docs/research.md); cross.DEFAULT_AGENTS
        show_default=True,
        callback=_check_agents,
        help=f"one agent for every seat, or A,B: side A in seats 0 2 4, side B in 1 3 5, and skill_gap = A − B "
        f"({', '.join(sorted(AGENTS))}, learned:FILE for a weights file of your own, or cmd:COMMAND for a bot, "
        "docs/bot-protocol.md; NAME=… names one)",
    )
    @click.option(
        "--cross-check",
        "cross_check",
        default="greedy",  # cross.DEFAULT_CROSS_CHECK
        show_default=True,
        type=click.Choice(["greedy", "ismcts", "none"]),
        help="play the same deals again with this kind of agent (ismcts: 1 world, 2 candidates) and count as "
        "findings only what both see in the same direction; the rest is listed as 取决于打法 "
        "(depends on how people play); none: the compared agents alone",
    )
    @click.option(
        "--workers",
        default=1,
        show_default=True,
        type=click.IntRange(1, MAX_WORKERS),
        help=f"local processes (at most {MAX_WORKERS})",
    )
    @click.option(
        "--scheduler",
        type=SchedulerAddress(),
        help="run on a Dask distributed cluster (tcp://host:8786)",
    )
    @click.option("--json", "as_json", is_flag=True, help="print one JSON document on stdout")
    @click.option("--csv", "csv_path", type=OUTPUT, help="write one row per variant and metric")
    @click.option("--html", "html_path", type=OUTPUT, help="write a self-contained HTML report")
    @click.option("--quiet", is_flag=True, help="no progress bar")
    def compare_cmd(
        variants: tuple[str, ...],
        deals: int,
        match_hands: int | None,
        seed: int,
        agent_name: str,
        cross_check: str,
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
            from ..atomic import check_writable
            from ..outputs import variant_inputs

            # before the simulation, not after it: never an input, an event file, a device …
            check_output_paths([csv_path, html_path], [f for v in variants for f in variant_inputs(v)])
            for out_path in (csv_path, html_path):
                if out_path:
                    check_writable(out_path)
            try:
                doc = _run(list(variants), deals, match_hands, seed, agent_name, cross_check, workers, scheduler, quiet)
            except OverflowError:
                _fail(_beyond_float(variants, None))
            where = _not_finite(doc)
            if where:
                _fail(_beyond_float(variants, where))
            skipped = doc["cross_check"]["skipped"]
            if skipped and not quiet:  # after the run, so a failing run still says one line
                click.echo(f"compare: no cross-check: {skipped} (--cross-check greedy|ismcts|none)", err=True)
            _write_outputs(doc, csv_path, html_path)
        except GoujiError as e:
            _fail(str(e))
        except OSError as e:
            _fail(f"{e.filename or ''}: error: {e.strerror}")
        if as_json:
            click.echo(json.dumps(doc, ensure_ascii=False, indent=2, allow_nan=False))
        else:
            from ..compare.report import render_text

            click.echo(render_text(doc), nl=False)


def _not_finite(doc: Any, where: str = "") -> str:
    """Where the compare document holds a float beyond a float's range (``inf`` or ``nan``), or ""."""
    import math

    if isinstance(doc, float):
        return "" if math.isfinite(doc) else where or "the document"
    if isinstance(doc, dict):
        items: Any = doc.items()
    elif isinstance(doc, list):
        items = enumerate(doc)
    else:
        return ""
    for key, value in items:
        found = _not_finite(value, f"{where}.{key}" if where else str(key))
        if found:
            return found
    return ""


def _beyond_float(variants: tuple[str, ...], where: str | None) -> str:
    """The error for scores too large to average: which variants' hooks make the scores, from which file."""
    from .. import catalog
    from ..parts.hooks import HOOKS

    makers = []
    for spec in variants:
        try:
            v = catalog.resolve(spec)
        except GoujiError:
            continue
        hooks = [f"hooks.{h}" for h in sorted(v.hooks) if h in HOOKS and HOOKS[h].result == "int"]
        if hooks:
            makers.append(f"{', '.join(hooks)} of {v.name} ({spec})")
    at = f" (at {where})" if where else ""
    cause = "; ".join(makers) if makers else "the variants' scoring"
    return (
        f"compare: the scores are beyond a float's range{at}, so no mean or interval can be given; "
        f"they come from {cause}: make them smaller"
    )


def _run(
    variants: list[str],
    deals: int,
    match_hands: int | None,
    seed: int,
    agent_name: str,
    cross_check: str,
    workers: int,
    scheduler: str | None,
    quiet: bool,
) -> dict[str, Any]:
    from ..compare import compare, make_backend
    from ..compare.cross import cross_pairing
    from ..compare.run import plan_matches
    from ..compare.work import load

    chosen = plan_matches([load(v)[0] for v in variants], deals, match_hands)
    if chosen.auto and chosen.hands and not quiet:
        click.echo(
            f"compare: {', '.join(chosen.rules)} act between hands: playing {chosen.deals} matches of "
            f"{chosen.hands} hands (--match-hands 0 for single hands)",
            err=True,
        )
    second, _ = cross_pairing(agent_name, cross_check)
    passes = 2 if second else 1
    with make_backend(workers, scheduler) as backend, _progress(passes * chosen.deals, quiet) as progress:
        return compare(
            variants,
            deals,
            seed,
            agent_name,
            backend=backend,
            progress=progress,
            match_hands=match_hands,
            cross_check=cross_check,
        )


def _write_outputs(doc: dict[str, Any], csv_path: str | None, html_path: str | None) -> None:
    from ..atomic import atomic_writer

    if csv_path:
        from ..compare.report import write_csv

        with atomic_writer(csv_path) as fh:
            write_csv(doc, fh)
    if html_path:
        from ..compare.html import render_html

        with atomic_writer(html_path) as fh:
            fh.write(render_html(doc))
