"""Measure each blunder's guard for a weights file and write the file again with those that pay.

Usage: python training/choose_guards.py IN.npz OUT.npz --variants dagang,dianshaomenla [--pairs 400] [--match-hands 8]
       [--opponents self,greedy,simple] [--reuse EARLIER.npz] [--keep fours_before_open,...]

The network's numbers are written unchanged; the meta gains ``guards`` (the blunders whose guard
pays, ``gouji_rules.learn.guards``), ``guard_choice`` (every figure: what one guard gains the network
against itself unguarded, greedy and simple, points a hand on duplicate match deals, 95% intervals) and
``guard_command`` (this command).  ``--reuse`` takes the figures of an earlier choice written in another
file (the same pairs, hands and deals) instead of measuring them again.  ``--keep`` keeps the guards it names
whatever they measure (the habits a club or issue 32 asks gone) and measures only that set, so the file
says what they cost.  Progress on stderr; the chosen guards on stdout.  A bad file or
variant: its name and why on stderr, exit status 1, nothing written.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys

from gouji_rules import catalog
from gouji_rules.errors import GoujiError
from gouji_rules.learn.checkpoint import check_play_meta, fit_columns, load_weights, save_weights
from gouji_rules.learn.duplicate import Strength
from gouji_rules.learn.features import ACT_COLUMNS, OBS_COLUMNS
from gouji_rules.learn.guards import OPPONENTS, choose_guards


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source")
    ap.add_argument("dest")
    ap.add_argument("--variants", default="dagang,dianshaomenla")
    ap.add_argument("--pairs", type=int, default=400)
    ap.add_argument("--match-hands", type=int, default=8)
    ap.add_argument("--opponents", default=",".join(OPPONENTS), help="whom each guard is measured against")
    ap.add_argument("--reuse", default=None, help="a file whose guard_choice figures are taken, not measured again")
    ap.add_argument("--keep", default=None, help="guards kept whatever they measure (comma-separated blunder names)")
    args = ap.parse_args()
    if args.pairs < 2 or args.match_hands < 0:
        ap.error("--pairs must be at least 2 and --match-hands 0 or more")
    try:
        net, meta, _ = load_weights(args.source)
        check_play_meta(args.source, meta)
        net = fit_columns(net, meta, OBS_COLUMNS, ACT_COLUMNS)[0]
        variants = [catalog.resolve(v) for v in args.variants.split(",") if v.strip()]
        reuse = load_weights(args.reuse)[1].get("guard_choice") if args.reuse else None
    except (GoujiError, OSError, ValueError) as e:
        print(f"choose_guards: {str(e).splitlines()[0]}", file=sys.stderr)
        raise SystemExit(1) from None
    if not variants:
        ap.error("--variants names at least one")

    def progress(guards: str, variant: str, s: Strength) -> None:
        print(f"{variant} +{guards}: {s}", file=sys.stderr, flush=True)

    opponents = [o for o in args.opponents.split(",") if o.strip()]
    if not opponents or any(o not in OPPONENTS for o in opponents):
        ap.error(f"--opponents names some of {', '.join(OPPONENTS)}")
    keep = None if args.keep is None else [k for k in args.keep.split(",") if k.strip()]
    try:
        chosen = choose_guards(net, meta, variants, args.pairs, args.match_hands, progress, reuse, opponents, keep)
    except ValueError as e:
        print(f"choose_guards: {e}", file=sys.stderr)
        raise SystemExit(1) from None
    meta = {k: v for k, v in meta.items() if k != "net"}
    meta.update(chosen)
    argv = sys.argv[1:]
    if "--reuse" in argv:  # it changes no figure: the command without it writes the same file
        i = argv.index("--reuse")
        argv = argv[:i] + argv[i + 2 :]
    argv = [a for a in argv if not a.startswith("--reuse=")]
    meta["guard_command"] = shlex.join(["python", "training/choose_guards.py", *argv])
    save_weights(args.dest, net, meta)
    print(json.dumps(chosen["guards"]))


if __name__ == "__main__":
    main()
