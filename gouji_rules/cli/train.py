"""``gouji train``: train the ``learned`` agent by self-play (Deep Monte Carlo), with checkpoints.

Progress goes to stderr (a line that updates in place on a terminal, one line every
``--log-every`` seconds in a log); the run's summary (JSON) goes to stdout when it stops.
"""

from __future__ import annotations

import json
import math
import os
import shlex
import signal
import sys
import time
from pathlib import Path
from typing import Any

import click

from .common import (
    MAX_WORKERS,
    OUTPUT,
    SEED,
    FiniteFloat,
    SchedulerAddress,
    add_commands,
    check_output_paths,
    fail,
    handles_errors,
)


def held_out_folder() -> Path:
    """The club files kept out of training, so that strength under rules never trained on can be measured
    (issue 32): ``examples/clubs``, installed with the package as ``gouji_rules.data.clubs``."""
    from importlib import resources

    return Path(str(resources.files("gouji_rules.data.clubs"))).resolve()


def held_out(spec: str) -> str | None:
    """The held-out club file ``spec`` is (a file in an ``examples/clubs`` folder) or has the same rules as
    (fingerprint, so a renamed copy counts); None for any other variant, or one that does not load."""
    from .. import catalog
    from ..errors import GoujiError

    path = Path(spec)
    folder, clubs = path.resolve().parent, held_out_folder()
    if path.suffix in (".yaml", ".yml") and (folder.parts[-2:] == ("examples", "clubs") or folder == clubs):
        return spec
    try:
        mine = catalog.resolve(spec).fingerprint()
        for f in sorted(clubs.glob("*.yaml")):
            if catalog.resolve(str(f)).fingerprint() == mine:
                return str(f)
    except (GoujiError, OSError):
        return None  # training reports a variant that does not load, with its own message
    return None


def _line(p: Any) -> str:
    s = p.strength
    strength = f"vs greedy {s.mean:+.2f} [{s.low:+.2f}, {s.high:+.2f}]" if s is not None else "vs greedy –"
    behaviour = "greedy+ε" if p.follow_greedy else "learned+ε"
    return (
        f"{p.decisions:,} decisions  {p.decisions_per_second:,.0f}/s  {p.updates:,} updates  "
        f"loss {p.loss:.4f}  {strength}  behaviour {behaviour}  {p.seconds / 60:.1f} min"
    )


def _turns(specs: tuple[str, ...], variants: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """``--turns VARIANT=K`` read: each VARIANT one given to --variant, once; K a whole number 1 to 100."""
    out: dict[str, int] = {}
    for spec in specs:
        name, eq, count = spec.rpartition("=")
        if not eq or not count.strip().isdigit() or not 1 <= int(count) <= 100:
            raise click.BadParameter(f"{spec!r}: VARIANT=K, K a whole number 1 to 100", param_hint="--turns")
        if name not in variants:
            raise click.BadParameter(
                f"{name!r} is not one of the --variant given ({', '.join(variants)})", param_hint="--turns"
            )
        if name in out:
            raise click.BadParameter(f"{name!r} given twice", param_hint="--turns")
        out[name] = int(count)
    return tuple(out.items())


@click.command("train")
@click.option(
    "--variant",
    "variant_specs",
    multiple=True,
    help="a shipped name or a variant file [default: dagang]; again for more variants, played in turn (the "
    "first is the run's: its strength figure and name); with --export --margins: the run's variant, when it is "
    "not shipped",
)
@click.option(
    "--turns",
    "turn_specs",
    multiple=True,
    metavar="VARIANT=K",
    help="self-play takes VARIANT (as given to --variant) K times in each round of turns, not once; again for "
    "another variant",
)
@click.option(
    "--draw-clubs",
    type=click.IntRange(0, 5000),
    default=0,
    show_default=True,
    help="also play this many club files drawn from the ranges clubs use (learn.clubs, seeded by --seed; "
    "drawn at the start, about 130 a second)",
)
@click.option("--out", "out", required=True, help="run folder: checkpoints, best weights, log (resumed if it has one)")
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--seconds", type=FiniteFloat(0, min_open=True), default=None, help="stop after this long")
@click.option("--decisions", "max_decisions", type=click.IntRange(1), default=None, help="stop at this many decisions")
@click.option("--workers", type=click.IntRange(1, MAX_WORKERS), default=1, show_default=True, help="local processes")
@click.option(
    "--scheduler",
    type=SchedulerAddress(),
    default=None,
    help="a Dask scheduler address (tcp://host:8786) to run self-play on",
)
@click.option("--init", "init", default=None, help="start from the shipped weights (learned) or a weights file")
@click.option("--epsilon", type=FiniteFloat(0, 1), default=0.02, show_default=True, help="exploration rate")
@click.option(
    "--branches",
    type=click.IntRange(0, 64),
    default=4,
    show_default=True,
    help="actions judged at a branch point (each played out from the real position); 0: plain DMC",
)
@click.option(
    "--target",
    type=click.Choice(["advantage", "return"]),
    default="advantage",
    show_default=True,
    help="with branches: each action's return less the behaviour's action's (advantage), or its own return",
)
@click.option(
    "--alternatives",
    type=click.Choice(["search", "uniform"]),
    default="search",
    show_default=True,
    help="a branch point's other actions: the network's favourite, then those ismcts tries (search) or drawn",
)
@click.option(
    "--teacher-worlds",
    type=click.IntRange(0, 64),
    default=0,
    show_default=True,
    help="distil ismcts: branch only where it searches, among its candidates, each judged over this many "
    "worlds drawn from the seat's view (0: branches judged in the real deal)",
)
@click.option(
    "--teacher-scope",
    type=click.Choice(["searched", "play"]),
    default="searched",
    show_default=True,
    help="with --teacher-worlds: judge the decisions ismcts searches, or every decision of play with a choice "
    "(a teammate's set and small follows too; the network then chooses at all of them)",
)
@click.option(
    "--teacher-rollouts",
    "teacher_rollout",
    type=click.Choice(["greedy", "learned"]),
    default="greedy",
    show_default=True,
    help="with --teacher-worlds: who plays out each world, greedy seats or the network as it plays "
    "(expert iteration's second step; about 20 times fewer samples a second, docs/research.md)",
)
@click.option(
    "--guards",
    "guard_names",
    default=None,
    metavar="NAMES",
    help="blunders the network plays guarded against while it trains (comma list: "
    "fours_before_open, jokerless_burn, lone_big_joker), written in the exported file's guards; "
    "default: a new run from --init FILE takes that file's guards, a resumed run keeps its own",
)
@click.option(
    "--teach-between",
    is_flag=True,
    help="with --objective match and --teacher-worlds: branch at the decisions between hands too "
    "(--between-rate), judged in the real deal; the weights then make every kind of decision",
)
@click.option("--branch-rate", type=FiniteFloat(0, 1), default=0.1, show_default=True, help="decisions that branch")
@click.option(
    "--behaviour",
    type=click.Choice(["auto", "greedy", "learned"]),
    default="auto",
    show_default=True,
    help="self-play policy: greedy's choice, the network's, or greedy until the network beats it",
)
@click.option("--lr", type=FiniteFloat(0, min_open=True), default=5e-4, show_default=True)
@click.option("--batch", type=click.IntRange(16), default=512, show_default=True)
@click.option(
    "--buffer",
    type=click.IntRange(1_000, 5_000_000),
    default=60_000,
    show_default=True,
    help="samples kept to learn from (the most recent; about 1.6 kB each)",
)
@click.option(
    "--reuse", type=FiniteFloat(0, min_open=True), default=8.0, show_default=True, help="gradient rows per sample"
)
@click.option("--hidden", default="256,128,64", show_default=True, help="three hidden layer widths")
@click.option("--hands-per-unit", type=click.IntRange(1, 1000), default=4, show_default=True)
@click.option(
    "--eval-every", type=click.IntRange(1), default=1000, show_default=True, help="updates between strength figures"
)
@click.option(
    "--eval-pairs", type=click.IntRange(1, 10_000), default=32, show_default=True, help="duplicate deal pairs"
)
@click.option(
    "--eval-match-hands",
    type=click.IntRange(0, 64),
    default=0,
    show_default=True,
    help="play the strength figure's pairs as matches of K hands, so what a hand leaves the next counts "
    "(0: single hands)",
)
@click.option("--checkpoint-seconds", type=FiniteFloat(0.1), default=60.0, show_default=True)
@click.option("--log-every", type=FiniteFloat(0.1), default=30.0, show_default=True, help="seconds between log lines")
@click.option(
    "--export", "export_to", type=OUTPUT, default=None, help="instead of training: write the run's best weights here"
)
@click.option(
    "--margins",
    default="",
    help="with --export: measure these margins (0,0.25,0.5) against greedy and keep the best in the file",
)
@click.option(
    "--candidates",
    "candidate_counts",
    default="0",
    show_default=True,
    help="with --margins: also these choice sets (0: every legal action; K: the K actions ismcts tries)",
)
@click.option(
    "--latest",
    is_flag=True,
    help="with --export: the latest checkpoint's weights, not best.npz's; with --margins too, both are "
    "measured and the better exported",
)
@click.option(
    "--eval-margin",
    type=FiniteFloat(0),
    default=0.25,
    show_default=True,
    help="margin over greedy's choice of the strength figure (in units of the largest place score); "
    "with --teacher-worlds also the margin the learned behaviour plays with",
)
@click.option(
    "--objective",
    type=click.Choice(["hand", "match"]),
    default="hand",
    show_default=True,
    help="what a decision is valued by: its hand's score, or (match) the hand's score plus the carry value "
    "of what it leaves the next hand, every kind of decision learned (docs/research.md)",
)
@click.option(
    "--carry-matches",
    type=click.IntRange(10, 100_000),
    default=1200,
    show_default=True,
    help="with --objective match: greedy matches the carry prices are fitted on when the run starts",
)
@click.option(
    "--between-rate",
    type=FiniteFloat(0, 1),
    default=0.5,
    show_default=True,
    help="with --objective match: decisions between hands that branch",
)
@click.option(
    "--allow-held-out",
    is_flag=True,
    help="train on a club file kept out of training (examples/clubs/, or the same rules under another name)",
)
@handles_errors
def train_cmd(
    variant_specs: tuple[str, ...],
    turn_specs: tuple[str, ...],
    draw_clubs: int,
    out: str,
    seed: int,
    seconds: float | None,
    max_decisions: int | None,
    workers: int,
    scheduler: str | None,
    init: str | None,
    epsilon: float,
    branches: int,
    branch_rate: float,
    teacher_worlds: int,
    teacher_scope: str,
    teacher_rollout: str,
    teach_between: bool,
    guard_names: str,
    target: str,
    alternatives: str,
    behaviour: str,
    lr: float,
    batch: int,
    buffer: int,
    reuse: float,
    hidden: str,
    hands_per_unit: int,
    eval_every: int,
    eval_pairs: int,
    eval_match_hands: int,
    checkpoint_seconds: float,
    log_every: float,
    export_to: str | None,
    margins: str,
    candidate_counts: str,
    latest: bool,
    eval_margin: float,
    objective: str,
    carry_matches: int,
    between_rate: float,
    allow_held_out: bool,
) -> None:
    """Train the learned agent by self-play under a variant, with checkpoints and resume.

    Ctrl-C or kill -9 keeps the last checkpoint in --out; the same command again continues it.
    --export FILE writes the run's best weights (for gouji_rules/data/agents/).
    """
    from ..learn.train import NonFiniteUpdate, TrainConfig, Trainer, WorkerLost, export

    variant_spec = variant_specs[0] if variant_specs else None

    if export_to is not None:
        if len(variant_specs) > 1 or draw_clubs or turn_specs:
            raise click.UsageError(
                "--export measures the run under one variant: give --variant once, no --draw-clubs or --turns"
            )
        check_output_paths([export_to], [os.path.join(out, "best.npz"), os.path.join(out, "checkpoint.npz")])
        try:
            tried = [float(m) for m in margins.split(",") if m.strip()]
        except ValueError:
            raise click.BadParameter(f"{margins!r}: numbers separated by commas", param_hint="--margins") from None
        if not all(math.isfinite(m) for m in tried):
            raise click.BadParameter(f"{margins!r}: finite numbers (no nan or inf)", param_hint="--margins")
        try:
            counts = [int(k) for k in candidate_counts.split(",") if k.strip()] or [0]
        except ValueError:
            raise click.BadParameter(f"{candidate_counts!r}: whole numbers", param_hint="--candidates") from None

        def said(m: float, k: int, s: Any, weights: str) -> None:
            click.echo(f"{weights}: margin {m:g}, candidates {k}: vs greedy {s}", err=True)

        meta = export(out, export_to, tried, eval_pairs, said, counts, latest, variant_spec)
        keys = (
            "variant",
            "command",
            "seed",
            "decisions",
            "code_version",
            "margin",
            "candidates",
            "scope",
            "exported_from",
            "margin_choice",
        )
        click.echo(json.dumps({k: meta[k] for k in keys if k in meta}, ensure_ascii=False))
        return
    if len(set(variant_specs)) < len(variant_specs):
        raise click.BadParameter(
            "a variant given twice (--turns VARIANT=K plays one more often)", param_hint="--variant"
        )
    turns = _turns(turn_specs, variant_specs or ("dagang",))
    for spec in variant_specs or ("dagang",):
        kept = None if allow_held_out else held_out(spec)
        if kept is not None:
            fail(
                f"{spec}: the rules of {kept}, a club file kept out of training to measure agents on rules "
                "they never saw; give --allow-held-out to train on it anyway"
            )
    try:
        widths = tuple(int(x) for x in hidden.split(","))
    except ValueError:
        widths = ()
    if len(widths) != 3 or min(widths) < 1:
        raise click.BadParameter(f"{hidden!r}: three positive widths, such as 256,128,64", param_hint="--hidden")
    if teach_between and not (teacher_worlds and objective == "match"):
        raise click.UsageError("--teach-between goes with --objective match and --teacher-worlds")
    if teacher_scope != "searched" and not teacher_worlds:
        raise click.UsageError("--teacher-scope goes with --teacher-worlds")
    if teacher_rollout != "greedy" and not teacher_worlds:
        raise click.UsageError("--teacher-rollouts goes with --teacher-worlds")
    if teacher_worlds and branches < 2:
        raise click.BadParameter(
            f"--teacher-worlds needs at least 2 candidates to compare (--branches {branches})", param_hint="--branches"
        )
    from ..play.blunders import check_guards

    try:
        guards = check_guards([g.strip() for g in (guard_names or "").split(",") if g.strip()])
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--guards") from None
    command = "gouji train " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    cfg = TrainConfig(
        variant=variant_spec or "dagang",
        also=tuple(variant_specs[1:]),
        turns=turns,
        draw_clubs=draw_clubs,
        out=out,
        seed=seed,
        workers=workers,
        scheduler=scheduler,
        hands_per_unit=hands_per_unit,
        epsilon=epsilon,
        branches=branches,
        branch_rate=branch_rate,
        teacher_worlds=teacher_worlds,
        teacher_scope=teacher_scope,
        teach_between=teach_between,
        teacher_rollout=teacher_rollout,
        guards=guards,
        guards_from_init=guard_names is None,
        advantage=target == "advantage",
        search_candidates=alternatives == "search",
        batch=batch,
        buffer=buffer,
        reuse=reuse,
        lr=lr,
        hidden=(widths[0], widths[1], widths[2]),
        eval_every=eval_every,
        eval_pairs=eval_pairs,
        eval_match_hands=eval_match_hands,
        eval_margin=eval_margin,
        checkpoint_seconds=checkpoint_seconds,
        behaviour=behaviour,
        init=init,
        command=command,
        objective=objective,
        carry_matches=carry_matches,
        between_rate=between_rate,
    )
    if objective == "match" and not os.path.lexists(os.path.join(out, "checkpoint.npz")):
        click.echo(f"fitting the carry prices on {carry_matches:,} greedy matches first", err=True)
    trainer = Trainer(cfg)
    if trainer.resumed:
        click.echo(f"resuming {out}: {trainer.decisions:,} decisions, {trainer.updates:,} updates", err=True)
    elif guard_names is None and trainer.cfg.guards:
        click.echo(f"guarded as --init's file is: {','.join(trainer.cfg.guards)} (--guards '' for none)", err=True)
    tty = sys.stderr.isatty()
    last = [0.0]

    def progress(p: Any) -> None:
        now = time.monotonic()
        if tty:
            click.echo("\r" + _line(p) + "\033[K", err=True, nl=False)
        elif now - last[0] >= log_every:
            click.echo(_line(p), err=True)
            last[0] = now

    stopping = [False]

    def stop(signum: int, frame: object) -> None:
        if not stopping[0]:  # `kill PID` stops as Ctrl-C does: the run writes its checkpoint first
            stopping[0] = True
            raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        p = trainer.run(seconds=seconds, max_decisions=max_decisions, progress=progress)
    except KeyboardInterrupt:
        click.echo(f"\ninterrupted; {trainer.kept()}", err=True)
        sys.exit(130)
    except (WorkerLost, NonFiniteUpdate) as e:
        if tty:
            click.echo("", err=True)
        fail(f"{e}; {trainer.kept()}")
    if tty:
        click.echo("", err=True)
    s = p.strength
    click.echo(
        json.dumps(
            {
                "variant": trainer.variant.name,
                "out": out,
                "decisions": p.decisions,
                "samples": p.samples,
                "updates": p.updates,
                "seconds": round(p.seconds, 1),
                "loss": round(p.loss, 5) if p.loss == p.loss else None,
                "vs_greedy": None if s is None else {"mean": s.mean, "ci95": [s.low, s.high], "pairs": s.pairs},
                "best_vs_greedy": trainer.best,
            }
        )
    )


def register(group: click.Group) -> None:
    """Add ``train`` to the ``gouji`` group."""
    add_commands(group, train_cmd)


__all__ = ["register", "train_cmd"]
