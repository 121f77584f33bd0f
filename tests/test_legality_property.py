"""The hand's one source of legality, ``Hand.refusal``, held to the move generator.

Over random positions of every shipped variant (matches of random agents, so the phases before
play give 无头, head rights and 冲点 positions too), every candidate action (legal ones, and many
near misses: the legal sets nudged by a card, random sets of the seat's hand, the table set, every
action word, choices that belong between hands) is asked of both: ``a in hand.legal_actions()``
exactly when ``hand.refusal(a)`` is None, and every refusal names a rule and a clause.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from gouji_rules.catalog import names, resolve
from gouji_rules.errors import IllegalAction
from gouji_rules.game.actions import (
    AGREE,
    JIEFENG,
    KOU,
    PASS,
    REFUSE,
    YIELD,
    Action,
    Burn,
    Choose,
    Declare,
    Forfeit,
    Give,
    Head,
    Play,
)
from gouji_rules.game.cards import BJ, NRANKS, SJ, THREE, TOP, TWO, CardSet
from gouji_rules.game.rng import SplitMix64, derive
from gouji_rules.phases.base import DecisionKind
from gouji_rules.play.agents import RandomAgent
from gouji_rules.play.engine import Hand
from gouji_rules.play.match import Match

MATCHES = 2
"""matches of two hands of each shipped variant"""
LEGAL_SAMPLE = 16
"""legal actions tried at a decision that has more"""


@dataclass(frozen=True)
class Try:
    variant: str
    mode: str
    action: str
    generated: bool
    refusal: IllegalAction | None
    can_apply: bool


def near_misses(h: Hand, rng: SplitMix64) -> list[Action]:
    """Actions close to the legal ones, and some far from them."""
    hand = h.hands[h.turn]
    out: list[Action] = [PASS, YIELD, KOU, JIEFENG, AGREE, REFUSE, Forfeit()]
    out += [Declare("xuandian"), Choose("buy4"), Head(True), Give(TWO)]
    held = [r for r in range(NRANKS) if hand[r]]
    for _ in range(8):
        r = held[rng.below(len(held))] if held and rng.below(4) else rng.below(NRANKS)
        extra = [rng.below(hand[x] + 2) if rng.below(3) == 0 else 0 for x in (TWO, SJ, BJ, TOP)]
        cs = CardSet(r, 1 + rng.below(hand[r] + 2), *extra)
        out.append(Burn(cs) if rng.below(3) == 0 else Play(cs))
    if hand[THREE]:
        out += [Play(CardSet(THREE, hand[THREE])), Play(CardSet(THREE, 1)), Play(CardSet(THREE, hand[THREE], 1))]
    legal = h.legal_actions()
    sets = list(legal.iter_sets())
    for _ in range(3):
        if not sets:
            break
        cs = sets[rng.below(len(sets))]
        out.append(Burn(cs) if not legal.burn else Play(cs))
        out.append(Play(cs._replace(count=cs.count + 1)))
        out.append(Play(cs._replace(count=cs.count - 1)))
        for field, above in (("twos", TWO), ("sj", SJ), ("bj", BJ), ("top", TOP)):
            if cs.rank < above:
                out.append(Play(cs._replace(**{field: getattr(cs, field) + 1})))
        if cs.jokers:
            out.append(Play(cs._replace(sj=0, bj=0, top=0)))
    if h.table is not None:
        out += [Play(h.table), Burn(h.table)]
    return out


def candidates(h: Hand, rng: SplitMix64) -> list[Action]:
    legal = h.legal_actions()
    n = len(legal)
    picks = range(n) if n <= LEGAL_SAMPLE else [rng.below(n) for _ in range(LEGAL_SAMPLE)]
    return [legal[i] for i in picks] + near_misses(h, rng)


@pytest.fixture(scope="module")
def tries() -> list[Try]:
    out: list[Try] = []
    for name in names():
        variant = resolve(name)
        for i in range(MATCHES):
            seed = derive(24, i)
            rng = SplitMix64(seed)
            match = Match(variant, seed, hands=2)
            agents = [RandomAgent() for _ in range(6)]
            for s, agent in enumerate(agents):
                agent.start_hand(seed, s)
            while not match.is_over:
                h = match.hand
                if match.phase == DecisionKind.PLAY and h is not None and rng.below(3) == 0:
                    for a in candidates(h, rng):
                        generated = a in h.legal_actions()
                        out.append(Try(name, h.mode.label, str(a), generated, h.refusal(a), h.can_apply(a)))
                seat = match.turn
                match.apply(agents[seat].act(match.observation(seat), match.legal_actions()))
    return out


def test_generated_exactly_when_no_refusal(tries: list[Try]) -> None:
    wrong = [t for t in tries if t.generated != (t.refusal is None) or t.can_apply != t.generated]
    assert not wrong, [(t.variant, t.mode, t.action, t.generated, str(t.refusal)) for t in wrong[:5]]


def test_every_refusal_names_rule_and_clause(tries: list[Try]) -> None:
    bare = [t for t in tries if t.refusal is not None and not (t.refusal.rule and t.refusal.clause)]
    assert not bare, [(t.variant, t.mode, t.action, str(t.refusal)) for t in bare[:5]]
    assert not [t for t in tries if t.refusal is not None and t.refusal.rule == "not_legal"]


def test_positions_reach_every_decision_and_refusal(tries: list[Try]) -> None:
    """The property is worth what the positions reach: every kind of decision in play, and the
    refusals of each rule that decides one."""
    assert {t.mode for t in tries} == {"lead", "follow", "burn", "kou", "consent"}
    assert {t.variant for t in tries} == set(names())
    rules = {t.refusal.rule for t in tries if t.refusal is not None}
    wanted = {"cards_in_hand", "set_form", "bie3", "beat", "burn_when", "burn_joker", "gouji_opposite_only"}
    wanted |= {"yield", "jiefeng", "kou", "consent", "lead", "decision_kind", "wrong_play", "whole"}
    assert wanted <= rules, wanted - rules
    assert sum(t.generated for t in tries) > 1000 and sum(not t.generated for t in tries) > 10000
