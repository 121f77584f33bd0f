"""How well the hand's refusals explain themselves: random actions at random positions of every
shipped variant, counted by the rule their refusal names.

Matches of random agents are played (so the phases before play give 革命, 冲点, 无头 and head
rights positions too); at a share of the decisions in play, many candidate actions are tried on
the hand: plays and burns of random card sets of the seat's hand (random counts and attachments,
some it does not hold), the legal sets nudged by one card, the table set itself, every other
action word, and choices that belong between hands.  Each candidate the move generator does not
list must be refused (``Hand.verify``) and each one it lists accepted.  Printed: tries, refusals,
refusals by rule, the refusals with the generic ``not_legal`` or without a clause, and any
disagreement between the generator and the refusal (which must be none).

    python benchmarks/refusals.py [--matches N] [--seed S] [--variant NAME]...
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from gouji_rules.catalog import names, resolve
from gouji_rules.errors import IllegalAction
from gouji_rules.game.actions import AGREE, JIEFENG, KOU, PASS, REFUSE, YIELD, Action, Burn, Choose, Declare, Play
from gouji_rules.game.cards import BJ, NRANKS, SJ, TOP, TWO, CardSet
from gouji_rules.game.rng import SplitMix64, derive
from gouji_rules.phases.base import DecisionKind
from gouji_rules.play.agents import RandomAgent
from gouji_rules.play.engine import Hand
from gouji_rules.play.match import Match


def candidates(h: Hand, rng: SplitMix64) -> list[Action]:
    """Actions near the legal ones, and some far from them."""
    hand = h.hands[h.turn]
    out: list[Action] = [PASS, YIELD, KOU, JIEFENG, AGREE, REFUSE, Declare("xuandian"), Choose("buy4")]
    held = [r for r in range(NRANKS) if hand[r]]
    for _ in range(12):
        r = held[rng.below(len(held))] if held and rng.below(4) else rng.below(NRANKS)
        count = 1 + rng.below(hand[r] + 2)
        twos = rng.below(hand[TWO] + 2) if rng.below(3) == 0 else 0
        sj = rng.below(hand[SJ] + 2) if rng.below(3) == 0 else 0
        bj = rng.below(hand[BJ] + 2) if rng.below(3) == 0 else 0
        top = rng.below(hand[TOP] + 2) if rng.below(4) == 0 else 0
        cs = CardSet(r, count, twos, sj, bj, top)
        out.append(Burn(cs) if rng.below(3) == 0 else Play(cs))
    legal = h.legal_actions()
    sets = list(legal.iter_sets())
    for _ in range(4):
        if not sets:
            break
        cs = sets[rng.below(len(sets))]
        out.append(Burn(cs) if not legal.burn else Play(cs))
        out.append(Play(cs._replace(count=cs.count + 1)))
        if cs.count > 1:
            out.append(Play(cs._replace(count=cs.count - 1)))
        for field, top_rank in (("twos", TWO), ("sj", SJ), ("bj", BJ), ("top", TOP)):
            if cs.rank < top_rank:
                out.append(Play(cs._replace(**{field: getattr(cs, field) + 1})))
    if h.table is not None:
        out.append(Play(h.table))
        out.append(Burn(h.table))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=40, help="matches of each shipped variant")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", action="append", help="only these variants (default: every shipped one)")
    args = ap.parse_args()
    tries = refused = 0
    by_rule: Counter[str] = Counter()
    generic: Counter[str] = Counter()
    no_clause: Counter[str] = Counter()
    wrong = 0
    for name in args.variant or names():
        variant = resolve(name)
        for i in range(args.matches):
            seed = derive(args.seed, i)
            rng = SplitMix64(seed ^ 0x5EED)
            match = Match(variant, seed, hands=2)
            agents = [RandomAgent() for _ in range(6)]
            for s, a in enumerate(agents):
                a.start_hand(seed, s)
            while not match.is_over:
                hand = match.hand
                if match.phase == DecisionKind.PLAY and hand is not None and rng.below(3) == 0:
                    legal = hand.legal_actions()
                    for a in candidates(hand, rng):
                        tries += 1
                        try:
                            hand.verify(a)
                        except IllegalAction as e:
                            refused += 1
                            by_rule[e.rule] += 1
                            if e.rule == "not_legal":
                                generic[f"{name} {hand.mode.label} {a}"] += 1
                            if not e.clause:
                                no_clause[f"{e.rule} {hand.mode.label} {type(a).__name__}"] += 1
                            if a in legal:
                                wrong += 1
                                print(f"{name}: generated {a} refused: {e}", file=sys.stderr)
                            continue
                        if a not in legal:
                            wrong += 1
                            print(f"{name}: {a} accepted, not generated ({hand.mode.label})", file=sys.stderr)
                seat = match.turn
                match.apply(agents[seat].act(match.observation(seat), match.legal_actions()))
    print(
        f"tries {tries}, refused {refused}, generic not_legal {sum(generic.values())}, "
        f"without a clause {sum(no_clause.values())}, generator/refusal disagreements {wrong}"
    )
    for rule, n in by_rule.most_common():
        print(f"  {rule:24} {n}")
    for what, n in generic.most_common(15):
        print(f"  not_legal: {what}  x{n}")
    for what, n in no_clause.most_common(15):
        print(f"  no clause: {what}  x{n}")
    return 1 if wrong or generic or no_clause else 0


if __name__ == "__main__":
    sys.exit(main())
