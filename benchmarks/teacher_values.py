"""What the match-valued teacher says at the positions ``habits.py`` counts as "4s led before opening".

Greedy seats play matches; at each lead where the point is still to open, a pure 够级 set is in hand,
greedy leads something else and the 4s are legal, greedy's lead and the 4s are each played out in
``--worlds`` worlds drawn from the seat's own view (``SearchAgent.world_values``), valued by the hand's
score alone and by the settled score plus the carry value (``CarryValue.of_hand``, prices fitted on
``--carry-matches`` greedy matches of the variant).  Prints, per variant, the mean advantage of the
4s in points with its standard error, and the share of positions where the 4s were worth more.

    python benchmarks/teacher_values.py --variants dagang,dianshaomenla --positions 60
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from functools import partial

from gouji_rules import catalog
from gouji_rules.game.actions import Action, Play
from gouji_rules.game.cards import FOUR, CardSet
from gouji_rules.game.legal import Legal
from gouji_rules.game.rng import derive
from gouji_rules.learn.carry import declared_stakes, fit_carry
from gouji_rules.play.agents import GreedyAgent
from gouji_rules.play.blunders import fours_before_open
from gouji_rules.play.match import play_match
from gouji_rules.play.observe import Observation
from gouji_rules.search import SearchAgent


def _mean_se(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / max(1, n - 1)
    return mean, math.sqrt(var / n)


def fours_values(variant: str, positions: int, worlds: int, carry_matches: int, seed: int) -> dict[str, object]:
    """The teacher's advantage of leading the 4s over greedy's lead, hand alone and with the carry."""
    v = catalog.resolve(variant)
    carry = fit_carry([v], carry_matches, derive(seed, 0xCA77))
    found: list[tuple[float, float]] = []

    class Spy(GreedyAgent):
        def act(self, obs: Observation, legal: Legal) -> Action:
            a = super().act(obs, legal)
            if len(found) < positions and fours_before_open(obs, legal, a) is False:
                four = Play(CardSet(FOUR, obs.hand[FOUR]))
                if four in legal:
                    values = []
                    for value in (None, partial(carry.of_hand, declarations=declared_stakes(obs))):
                        search = SearchAgent(worlds=worlds)
                        search.start_hand(derive(seed, len(found)), obs.seat)
                        totals, done = search.world_values(obs, legal, [a, four], value)
                        values.append((totals[1] - totals[0]) / done if done else math.nan)
                    if not any(math.isnan(x) for x in values):
                        found.append((values[0], values[1]))
            return a

    i = 0
    while len(found) < positions and i < 50 * positions:
        play_match(v, derive(seed, 1000 + i), 4, [Spy() for _ in range(6)])
        i += 1
    hand_only, with_carry = _mean_se([x for x, _ in found]), _mean_se([y for _, y in found])
    return {
        "variant": variant,
        "positions": len(found),
        "worlds": worlds,
        "fours_minus_greedy_hand": [round(hand_only[0], 3), round(hand_only[1], 3)],
        "fours_minus_greedy_with_carry": [round(with_carry[0], 3), round(with_carry[1], 3)],
        "share_fours_better_with_carry": round(sum(y > 0 for _, y in found) / len(found), 3),
        "carry_prices": carry.to_meta()["prices"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variants", default="dagang,dianshaomenla")
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--worlds", type=int, default=24)
    ap.add_argument("--carry-matches", type=int, default=300)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if a.positions < 1 or a.worlds < 1 or a.carry_matches < 1:
        ap.error("--positions, --worlds and --carry-matches must be at least 1")
    rows = []
    for name in a.variants.split(","):
        print(f"{name}: …", file=sys.stderr)
        rows.append(fours_values(name, a.positions, a.worlds, a.carry_matches, a.seed))
    if a.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    print("| variant | positions | 4s − greedy's lead, hand only | with the carry | 4s better |")
    print("|---|---|---|---|---|")
    for r in rows:
        h, c = r["fours_minus_greedy_hand"], r["fours_minus_greedy_with_carry"]
        print(
            f"| `{r['variant']}` | {r['positions']} | {h[0]:+.2f} ± {h[1]:.2f} | {c[0]:+.2f} ± {c[1]:.2f} "
            f"| {r['share_fours_better_with_carry']:.0%} |"
        )


if __name__ == "__main__":
    main()
