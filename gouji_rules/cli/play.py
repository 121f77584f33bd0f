"""``gouji simulate`` and ``gouji bench``: bots play a variant, and how fast the engine referees.

Kept out of ``gouji_rules.cli`` so that ``gouji`` imports the engine only for the commands that play
(``gouji_rules.cli`` loads this module when one of them is asked for).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from .. import catalog
from ..play.agents import AGENTS
from ..sim import simulate
from .common import (
    MAX_MATCH_HANDS,
    OUTPUT,
    SEED,
    add_commands,
    check_agents,
    check_output_paths,
    handles_errors,
    hands_option,
)


@click.command("simulate")
@click.option("--variant", "variant_spec", default="dagang", show_default=True, help="shipped name or variant file")
@hands_option(100, "hands to play")
@click.option("--seed", default=0, show_default=True, type=SEED)
@click.option(
    "--agents",
    "agent_name",
    default="greedy",
    show_default=True,
    callback=check_agents,
    help=f"one agent for every seat, or A,B: A in seats 0 2 4, B in 1 3 5 ({', '.join(sorted(AGENTS))}, "
    "learned:FILE for a weights file of your own, or cmd:COMMAND for a bot, docs/bot-protocol.md; NAME=… names one)",
)
@click.option("--json", "as_json", is_flag=True, help="print one JSON document on stdout")
@click.option(
    "--records", type=OUTPUT, help="write one JSON hand record per line (never over an event file or an input)"
)
@click.option(
    "--match-hands",
    type=click.IntRange(1, MAX_MATCH_HANDS),
    default=None,
    help="play whole matches of K hands (tribute and scores carried between hands)",
)
@click.option("--quiet", is_flag=True, help="no progress bar")
@handles_errors
def simulate_cmd(
    variant_spec: str,
    hands: int,
    seed: int,
    agent_name: str,
    as_json: bool,
    records: str | None,
    match_hands: int | None,
    quiet: bool,
) -> None:
    """Play HANDS hands of a variant with bots and count what happens."""
    if records:
        _check_records_path(records, variant_spec)
    variant = catalog.resolve(variant_spec)
    out = _run_with_progress(variant, hands, seed, agent_name, records, quiet, match_hands)
    if as_json:
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    _print_summary(out, variant.rules.places_names)


def _check_records_path(records: str, variant_spec: str) -> None:
    """The records file is written whole at the end; it must not be an input, nor an event file."""
    from ..outputs import variant_inputs

    check_output_paths([records], variant_inputs(variant_spec))


def _run_with_progress(
    variant: Any, hands: int, seed: int, agent_name: str, records: str | None, quiet: bool, match_hands: int | None
) -> dict[str, Any]:
    from functools import partial

    from ..atomic import atomic_writer
    from ..compare.skill import closing_agents, table_agents
    from ..sim import simulate_matches

    run: Any = simulate if match_hands is None else partial(simulate_matches, match_hands=match_hands)

    show = not quiet and hands >= 200 and sys.stderr.isatty()  # no bar in logs and pipes
    with click.progressbar(length=hands, label="hands", file=sys.stderr) if show else _null_bar() as bar:
        last = [0]

        def progress(done: int) -> None:
            bar.update(done - last[0])
            last[0] = done

        with closing_agents(table_agents(agent_name)) as agents:
            if records:
                with atomic_writer(records) as fh:
                    out: dict[str, Any] = run(
                        variant, hands, seed=seed, agent_name=agent_name, records=fh, progress=progress, agents=agents
                    )
                    return out
            out = run(variant, hands, seed=seed, agent_name=agent_name, progress=progress, agents=agents)
            return out


class _null_bar:
    def __enter__(self) -> _null_bar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, n: int) -> None:
        return None


def _print_summary(out: dict[str, Any], place_names: list[str]) -> None:
    click.echo(f"variant {out['variant']}: {out['hands']} hands, seed {out['seed']}, agents {out['agents']}")
    click.echo(
        f"{out['decisions']} decisions in {out['seconds']:.2f} s "
        f"({out['hands_per_second']} hands/s, {out['decisions_per_second']} decisions/s)"
    )
    click.echo("events per hand:")
    for k, n in out["events"].items():
        click.echo(f"  {k:<16}{n / out['hands']:>10.3f}")
    click.echo("places by seat (" + " ".join(place_names) + "):")
    for seat, counts in out["places"].items():
        click.echo(f"  seat {seat}: " + " ".join(f"{c:>6}" for c in counts))
    click.echo(f"team points: {out['team_points'][0]} (seats 0 2 4) vs {out['team_points'][1]} (seats 1 3 5)")
    if "match_results" in out:
        r = out["match_results"]
        click.echo(
            f"matches of {out['match_hands']} hands: {r['team0']} won by seats 0 2 4, {r['team1']} by 1 3 5, {r['draw']} drawn"
        )


@click.command("bench")
@click.option("--variant", "variant_spec", default="dagang", show_default=True)
@hands_option(1000, "hands to time")
@click.option("--seed", default=0, show_default=True, type=SEED)
@click.option("--json", "as_json", is_flag=True)
@click.option("--engine-only", is_flag=True, help="skip the variant-loading and expression-hook measurements")
@click.option("--schedule", "schedule_players", type=click.IntRange(6, 6000), help="also time scheduling N players")
@click.option(
    "--cold-start", is_flag=True, help="instead: time `gouji validate` of a club file in fresh processes (medians)"
)
@click.option(
    "--runs", type=click.IntRange(1, 1000), default=20, show_default=True, help="processes per --cold-start figure"
)
@click.option(
    "--agents",
    "agent_name",
    default="random",
    show_default=True,
    type=click.Choice(sorted(AGENTS)),
    help="who plays the six seats of the timed hands (learned: the agent's own speed)",
)
@handles_errors
def bench_cmd(
    variant_spec: str,
    hands: int,
    seed: int,
    as_json: bool,
    engine_only: bool,
    schedule_players: int | None,
    cold_start: bool,
    runs: int,
    agent_name: str,
) -> None:
    """Engine speed on one core (random agents), variant loading, and expression hooks vs parameters.

    With --cold-start: how long `gouji validate` takes in a fresh process, against Python's own start.
    """
    if cold_start:
        from ..dsl.bench import bench_cold_start

        cold = bench_cold_start(runs)
        _print_bench(cold, as_json, max(len(k) for k in cold) + 2)
        return
    from ..bench import run_bench

    if schedule_players is not None and schedule_players % 6:
        raise click.BadParameter(f"{schedule_players} is not a multiple of 6 (six sit at a table)")
    out = run_bench(
        variant_spec, hands, seed, dsl=not engine_only, schedule_players=schedule_players, agent_name=agent_name
    )
    _print_bench(out, as_json)


def _print_bench(out: dict[str, Any], as_json: bool, width: int = 32) -> None:
    if as_json:
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    for key, value in out.items():
        click.echo(f"{key:<{width}}{value}")


def register(group: click.Group) -> None:
    """Add ``simulate`` and ``bench`` to the ``gouji`` group."""
    add_commands(group, simulate_cmd, bench_cmd)


__all__ = ["bench_cmd", "register", "simulate_cmd"]
