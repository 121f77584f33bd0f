"""The review's test pair: two records of one hand that differ in one decision (fixture ``pair``).

Greedy plays every seat of a ``dagang`` hand (seed 4).  At seat 0's 30th decision with a choice, an
opponent's single K is on the table and seat 0 holds the big joker: it may beat it (``BJ``) or pass.
In one record it plays ``BJ``; in the other it passes, as greedy itself would.  Greedy plays the rest
of both.  Passing hands the lead away with a card nobody can beat kept in hand, and seat 0 ends
last: the move costs a whole 头科 score in every world the review draws.
"""

from __future__ import annotations

from typing import Any

import pytest

from gouji_rules.catalog import dagang
from gouji_rules.play.agents import GreedyAgent
from gouji_rules.play.engine import Hand
from gouji_rules.variant import Variant

SEED = 4
SEAT = 0
AT = 30  # seat 0's 30th decision with a choice: BJ or pass on an opponent's K


def played_hand(variant: Variant, seed: int, seat: int, at: int, choice: str) -> tuple[dict[str, Any], int, int]:
    """The record of a greedy hand where ``seat`` plays ``choice`` (notation) at its ``at``-th decision
    with a choice; the step (1-based in ``actions``) of that decision, and of ``seat``'s first one."""
    hand = Hand.deal(variant, seed)
    agents = [GreedyAgent() for _ in range(6)]
    for s, a in enumerate(agents):
        a.start_hand(seed, s)
    n = step = chosen = first = 0
    while not hand.is_over:
        s = hand.turn
        legal = hand.legal_actions()
        action = agents[s].act(hand.observation(s), legal)
        step += 1
        if s == seat and len(legal) > 1:
            n += 1
            first = first or step
            if n == at:
                assert sorted(str(a) for a in legal) == ["BJ", "pass"]  # the hand the pair was built on
                action = next(a for a in legal if str(a) == choice)
                chosen = step
        hand.apply(action)
    return hand.record(), chosen, first


Pair = tuple[Variant, dict[str, Any], dict[str, Any], int, int]


@pytest.fixture(scope="module")
def pair() -> Pair:
    """The variant, the record where seat 0 passes, the one where it plays BJ, that decision's step,
    and a step where nothing is wrong (seat 0's first decision with a choice, greedy's move)."""
    v = dagang()
    bad, at, first = played_hand(v, SEED, SEAT, AT, "pass")
    good, at2, _ = played_hand(v, SEED, SEAT, AT, "BJ")
    assert at == at2
    return v, bad, good, at, first
