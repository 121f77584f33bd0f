"""The room's leak scan at scale: every view sent to every seat at every decision of N hands played by agents.

For each view of seat s: it must be the engine's own observation of s (``Match.observation(s)``, the
bot protocol's request), and no other seat's whole hand (8 cards or more, other than s's) may appear
in it.  The spectator's view is scanned at each decision too (``spectator_leaks``: no hand, no event
beyond what a seat that did not witness it was shown).  Prints the hands, the views scanned and the leaks found (0 expected); exit 1 on a leak.

    python benchmarks/room_leaks.py --variants dagang,dianshaomenla --hands 1000 --agents greedy
"""

from __future__ import annotations

import argparse
import sys
import time

from gouji_rules import catalog
from gouji_rules.room import Room
from gouji_rules.room.scan import spectator_leaks, view_leaks


def scan(variant: str, hands: int, agents: str, seed: int) -> tuple[int, int]:
    """Play ``hands`` hands (matches of 8) with ``agents`` in every seat; (views scanned, leaks)."""
    views = leaks = played = 0
    v = catalog.resolve(variant)
    while played < hands:
        n = min(8, hands - played)
        room = Room(v, [agents] * 6, hands=n, seed=seed + played, takeover=None)
        while not room.match.is_over:
            for s in range(6):
                views += 1
                leaks += bool(view_leaks(room, s))
            views += 1
            leaks += bool(spectator_leaks(room))
            room.step_agent()
        played += n
    return views, leaks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="dagang,dianshaomenla")
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--agents", default="greedy")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    total = 0
    for variant in args.variants.split(","):
        t = time.perf_counter()
        views, leaks = scan(variant, args.hands, args.agents, args.seed)
        total += leaks
        print(
            f"{variant}: {args.hands} hands, {views:,} views scanned, {leaks} leaks ({time.perf_counter() - t:.0f} s)"
        )
    sys.exit(1 if total else 0)


if __name__ == "__main__":
    main()
