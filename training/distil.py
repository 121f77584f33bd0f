"""Distil the weights of several variants into one file that plays every variant (gouji_rules.learn.distil).

Usage: python training/distil.py OUT.npz [--teacher dagang=FILE --teacher dianshaomenla=FILE]
       [--ensemble FILE --ensemble FILE ... [--variant NAME ...]] [--guards NAMES] [--init FILE]
       [--turns 3] [--draw-clubs 24 --club-seed 14] [--matches 400] [--match-hands 8] [--rounds 2]
       [--epochs 12] [--lr 3e-4] [--seed 17]

Each teacher is the weights a variant played with (default: the two files dagang and dianshaomenla
shipped until session 17, kept in training/one/teachers/); a drawn club is labelled by the teacher of
the variant nearest its rules (``agent.nearest``), the file it was played with before.  Round 1 records
the teachers' own matches, each later round the student's (DAgger), against themselves, greedy and
simple; after each round the student (started from ``--init``, default the last teacher) is fitted on
all rounds' positions and OUT is written (completely or not at all), its meta naming the teachers, the
rounds and the held-out agreement with the teachers.  ``--ensemble`` instead makes one teacher of every
variant (``--variant``, default both shipped ones) and club: the mean Q of the files named (the student
starts from the first); ``--guards`` plays the recorded seats guarded against those blunders, and OUT
carries them in its meta.  Progress on stderr; the agreement of the last
round on stdout as JSON.  A bad file or variant: its name and why, exit 1.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from gouji_rules import catalog
from gouji_rules.errors import GoujiError
from gouji_rules.learn import clubs as club_space
from gouji_rules.learn import distil
from gouji_rules.learn.agent import nearest
from gouji_rules.learn.checkpoint import check_play_meta, fit_columns, load_weights, save_weights
from gouji_rules.learn.features import ACT_COLUMNS, OBS_COLUMNS
from gouji_rules.learn.net import QNet
from gouji_rules.outputs import check_outputs
from gouji_rules.play.blunders import check_guards

TEACHERS = Path(__file__).resolve().parent / "one" / "teachers"
DEFAULT = ("dagang", "dianshaomenla")


def _shown(path: str) -> str:
    """A teacher's path as the meta names it: from the checkout's root when it lies inside."""
    full = Path(path).resolve()
    root = TEACHERS.parents[2]
    return str(full.relative_to(root)) if full.is_relative_to(root) else path


def _load(path: str) -> tuple[QNet, dict[str, Any]]:
    net, meta, _ = load_weights(path)
    check_play_meta(path, meta)
    return fit_columns(net, meta, OBS_COLUMNS, ACT_COLUMNS)[0], meta


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dest")
    ap.add_argument("--teacher", action="append", default=[], help="VARIANT=FILE (default: the shipped files)")
    ap.add_argument("--ensemble", action="append", default=[], help="FILE: one teacher, the mean Q of these files")
    ap.add_argument("--variant", action="append", default=[], help="a variant an --ensemble teaches (default both)")
    ap.add_argument("--guards", default="", help="blunder names, comma-separated: the recorded seats play guarded")
    ap.add_argument("--init", default=None, help="the student's first weights (default: the last teacher)")
    ap.add_argument("--turns", type=int, default=3, help="matches of each teacher's variant per drawn club's")
    ap.add_argument("--draw-clubs", type=int, default=24)
    ap.add_argument("--club-seed", type=int, default=14)
    ap.add_argument("--matches", type=int, default=400, help="matches recorded per round")
    ap.add_argument("--match-hands", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--epochs", type=float, default=12.0)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--seed", type=int, default=17)
    args = ap.parse_args()
    if min(args.matches, args.match_hands, args.rounds, args.turns) < 1 or args.draw_clubs < 0 or args.epochs <= 0:
        ap.error(
            "--matches, --match-hands, --rounds and --turns must be at least 1, --draw-clubs 0 or more, --epochs > 0"
        )
    if args.ensemble and args.teacher:
        ap.error("--teacher and --ensemble are two ways to name the teachers: give one")
    if len({os.path.realpath(p) for p in args.ensemble}) < len(args.ensemble):
        ap.error("--ensemble names one file twice: each member counts once in the mean")
    if args.variant and not args.ensemble:
        ap.error("--variant names the variants an --ensemble teaches; with --teacher, name them there")
    try:
        guards = check_guards([g for g in args.guards.split(",") if g])
    except ValueError as e:
        ap.error(f"--guards: {e}")
    pairs = [t.split("=", 1) for t in args.teacher] or [[n, str(TEACHERS / f"{n}.npz")] for n in DEFAULT]
    if any(len(p) != 2 or not p[0] or not p[1] for p in pairs):
        ap.error("--teacher is VARIANT=FILE")
    # the files the teachers are made of, by the name the meta gives them
    sources = {_shown(p): p for p in args.ensemble} if args.ensemble else {n: p for n, p in pairs}
    try:
        check_outputs([args.dest], list(sources.values()) + ([args.init] if args.init else []))
        if args.ensemble:
            members = [_load(p) for p in args.ensemble]
            mean = distil.MeanQ([net for net, _ in members])
            teachers = {name: (mean, members[0][1]) for name in args.variant or DEFAULT}
            first = members[0]
        else:
            teachers = {name: _load(path) for name, path in pairs}
            first = teachers[pairs[-1][0]]
        variants = {name: catalog.resolve(name) for name in teachers}
        student, meta = _load(args.init) if args.init else (first[0].copy(), first[1])
        drawn = club_space.draw_clubs(args.draw_clubs, args.club_seed) if args.draw_clubs else []
    except (GoujiError, OSError, ValueError) as e:
        print(f"distil: {str(e).splitlines()[0]}", file=sys.stderr)
        raise SystemExit(1) from None
    jobs = [(variants[n], teachers[n][0]) for n in teachers for _ in range(args.turns)]
    jobs += [(club, teachers[nearest(club, list(teachers))][0]) for club in drawn]
    digests = {n: hashlib.sha256(Path(p).read_bytes()).hexdigest()[:16] for n, p in sources.items()}
    margin = float(meta.get("margin", 0.0))
    samples, held = distil.Samples(), distil.Samples()
    adam = None
    rounds: list[dict[str, Any]] = []
    for r in range(args.rounds):
        t0 = time.monotonic()
        got = distil.collect(
            jobs, meta, args.matches, args.match_hands, args.seed * 1000 + r, student if r else None, guards=guards
        )
        train, out = got.split(20)
        samples.extend(train)
        held.extend(out)
        t1 = time.monotonic()
        print(f"round {r + 1}: {len(got)} positions in {t1 - t0:.0f} s; fitting {len(samples)}", file=sys.stderr)

        def progress(step: int, loss: float) -> None:
            if step % 2000 == 0:
                print(f"  step {step}: loss {loss:.5f}", file=sys.stderr, flush=True)

        adam = distil.fit(student, samples, args.epochs, args.lr, seed=args.seed + r, adam=adam, progress=progress)
        agree = distil.agreement(student, held, margin)
        rounds.append(
            {
                "round": r + 1,
                "behaviour": "student" if r else "teachers",
                "positions": len(got),
                "fitted_on": len(samples),
                "held_out": len(held),
                "agreement": agree,
                "seconds": round(time.monotonic() - t0, 1),
            }
        )
        print(f"round {r + 1}: agreement {json.dumps(agree)}", file=sys.stderr, flush=True)
        dropped = ("net", "guards", "guard_choice", "guard_command", "guard_command_note")
        out_meta = {k: v for k, v in meta.items() if k not in dropped}
        if guards:
            out_meta["guards"] = list(guards)
        out_meta["distilled"] = {
            "teachers": {n: {"file": _shown(p), "sha256": digests[n]} for n, p in sources.items()},
            "teacher": "the mean Q of the teachers (an ensemble)" if args.ensemble else "each variant's own",
            "guards": list(guards),
            "clubs_labelled_by": "the ensemble"
            if args.ensemble
            else "the teacher of the nearest variant (agent.nearest)",
            "matches_per_round": args.matches,
            "match_hands": args.match_hands,
            "opponents": list(distil.OPPONENTS),
            "epochs": args.epochs,
            "lr": args.lr,
            "seed": args.seed,
            "rounds": rounds,
            "method": "policy distillation (Q regression on the candidates) with DAgger rounds"
            + (", from an ensemble's mean Q" if args.ensemble else ""),
        }
        out_meta["trained_over"] = {
            "variants": list(teachers),
            "clubs": club_space.space(args.draw_clubs, args.club_seed) if args.draw_clubs else None,
        }
        out_meta["command"] = shlex.join(["python", "training/distil.py", *sys.argv[1:]])
        try:
            save_weights(args.dest, student, out_meta)
        except (GoujiError, OSError) as e:  # e.g. the disk filled during the run: say so, keep nothing half-written
            print(f"distil: {str(e).splitlines()[0]}", file=sys.stderr)
            raise SystemExit(1) from None
    print(json.dumps(rounds[-1]["agreement"]))


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # OUT holds the last round written, whole (each round is written whole)
        print("distil: stopped; the destination holds the last finished round, if any", file=sys.stderr)
        raise SystemExit(130) from None
