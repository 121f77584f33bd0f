"""Properties of whole hands played by random agents, under every beat strategy.

2,100 hands (700 per strategy, alternating S4 and S0): every hand ends, every dealt card is
played exactly once or is still held at the end, illegal actions are refused without changing
anything, every generated legal action is accepted, and a seed repeats exactly.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

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
    Play,
)
from gouji_rules.game.cards import NRANKS, SJ, TWO, CardSet
from gouji_rules.game.rng import SplitMix64, derive
from gouji_rules.play.agents import RandomAgent
from gouji_rules.play.engine import Hand
from gouji_rules.sim import play_hand

from .conftest import S0, S4, snapshot

STRATEGIES = ("cover", "kill_table", "card_by_card")
HANDS_PER_STRATEGY = 700
MAX_DECISIONS = 5000


def variants_for(beat: str) -> tuple[Any, Any]:
    return S4.replace(sets={"beat": beat}), S0.replace(sets={"beat": beat})


def copy_hand(h: Hand) -> Hand:
    """A deep copy that shares the (immutable) variant and its compiled rules."""
    return copy.deepcopy(h, {id(h.variant): h.variant, id(h.rules): h.rules})


def played_cards(h: Hand) -> list[Counter[int]]:
    """Cards each seat put down, from the action list."""
    out: list[Counter[int]] = [Counter() for _ in range(6)]
    for seat, a in h.actions:
        if isinstance(a, (Play, Burn)):
            out[seat].update(a.cards.card_counts())
    return out


def played_from_events(h: Hand) -> list[Counter[int]]:
    out: list[Counter[int]] = [Counter() for _ in range(6)]
    for e in h.events:
        if e.type in ("play", "burn", "counter_burn"):
            assert e.cards is not None
            out[e.seat].update(e.cards.card_counts())
    return out


def check_conservation(h: Hand) -> None:
    deck = Counter(c >> 2 for c in h.rules.deck)
    dealt: Counter[int] = Counter()
    by_actions, by_events = played_cards(h), played_from_events(h)
    for s in range(6):
        initial = Counter({r: n for r, n in enumerate(h.initial[s]) if n})
        dealt.update(initial)
        end = Counter({r: n for r, n in enumerate(h.hands[s]) if n})
        assert by_actions[s] == by_events[s], f"seat {s}: actions and events disagree"
        assert by_actions[s] + end == initial, f"seat {s}: cards not conserved"
        assert all(n >= 0 for n in h.hands[s])
    assert dealt == deck


def mutations(h: Hand, rng: SplitMix64) -> list[Action]:
    """Actions close to legal ones that the engine must refuse (filtered against legal_actions)."""
    legal = h.legal_actions()
    hand = h.hands[h.turn]
    out: list[Action] = [PASS, YIELD, KOU, JIEFENG, AGREE, REFUSE]
    sets = list(legal.iter_sets())
    for _ in range(3):
        if sets:
            cs = sets[rng.below(len(sets))]
            out.append(Play(cs._replace(count=cs.count + 1)))
            out.append(Play(cs._replace(count=cs.count + 1 + hand[cs.rank])))
            if cs.count > 1:
                out.append(Play(cs._replace(count=cs.count - 1)))
            out.append(Burn(cs) if not legal.burn else Play(cs))
            if cs.rank < TWO:
                out.append(Play(cs._replace(twos=cs.twos + 1)))
            if cs.rank < SJ:
                out.append(Play(cs._replace(sj=cs.sj + 1)))
        r = rng.below(NRANKS - 1)
        if hand[r]:
            out.append(Play(CardSet(r, hand[r])))
            out.append(Play(CardSet(r, 1)))
    if h.table is not None:
        out.append(Play(h.table))
    return [a for a in out if a not in legal]


def check_refusals(h: Hand, rng: SplitMix64) -> int:
    n = 0
    for a in mutations(h, rng):
        before = snapshot(h)
        with pytest.raises(IllegalAction) as info:
            h.apply(a)
        assert info.value.rule
        assert snapshot(h) == before, f"state changed after refusing {a}"
        n += 1
    # an action by a seat whose turn it is not
    other = (h.turn + 1) % 6
    legal = h.legal_actions()
    if len(legal):
        before = snapshot(h)
        with pytest.raises(IllegalAction):
            h.apply(legal[0], seat=other)
        assert snapshot(h) == before
    return n


def check_all_legal_accepted(h: Hand, rng: SplitMix64, cap: int = 12) -> int:
    legal = h.legal_actions()
    n = len(legal)
    picks = range(n) if n <= cap else sorted({rng.below(n) for _ in range(cap)} | {0, n - 1})
    for i in picks:
        a = legal[i]
        assert a in legal
        c = copy_hand(h)
        c.apply(a)
    return len(picks)


def run_checked(variant: Any, seed: int, sample_every: int) -> tuple[Hand, int, int]:
    hand = Hand.deal(variant, seed)
    agents = [RandomAgent() for _ in range(6)]
    for seat, ag in enumerate(agents):
        ag.start_hand(seed, seat)
    rng = SplitMix64(derive(seed, 77))
    refused = accepted = 0
    k = 0
    while not hand.is_over:
        assert hand.decisions < MAX_DECISIONS, "hand does not terminate"
        legal = hand.legal_actions()
        assert len(legal) > 0, "a seat to act with no legal action"
        if k % sample_every == 0:
            refused += check_refusals(hand, rng)
            accepted += check_all_legal_accepted(hand, rng)
        k += 1
        seat = hand.turn
        hand.apply(agents[seat].act(hand.observation(seat), legal))
    return hand, refused, accepted


@pytest.mark.parametrize("beat", STRATEGIES)
def test_random_hands(beat: str) -> None:
    """700 hands per strategy: termination, conservation, refusals, acceptance, places."""
    v4, v0 = variants_for(beat)
    refused = accepted = 0
    seen: Counter[str] = Counter()
    for i in range(HANDS_PER_STRATEGY):
        variant = v4 if i % 2 == 0 else v0
        seed = derive(20240601, i)
        hand, r, a = run_checked(variant, seed, sample_every=37 if i % 10 == 0 else 10**9)
        refused += r
        accepted += a
        assert hand.is_over
        assert sorted(hand.places) == [1, 2, 3, 4, 5, 6]
        assert hand.events[-1].type == "hand_end"
        assert len(hand.legal_actions()) == 0
        check_conservation(hand)
        seen.update(e.type for e in hand.events)
    assert refused > 100 and accepted > 100
    # the hands reach the rules this suite is about
    for t in ("play", "pass", "finish", "no_head", "free_for_all", "men"):
        assert seen[t] > 0, t


@pytest.mark.parametrize("beat", STRATEGIES)
def test_same_seed_same_record(beat: str) -> None:
    """A seed repeats exactly: same deal, same actions, same events and places."""
    for variant in variants_for(beat):
        for i in range(15):
            seed = derive(99, i)
            a = play_hand(variant, seed, [RandomAgent() for _ in range(6)]).record()
            b = play_hand(variant, seed, [RandomAgent() for _ in range(6)]).record()
            assert a == b
            assert Hand.deal(variant, seed).initial == Hand.deal(variant, seed).initial


def test_deal_conserves_the_deck() -> None:
    for variant in (S4, S0):
        for i in range(20):
            h = Hand.deal(variant, derive(5, i))
            total = Counter(c >> 2 for c in h.rules.deck)
            dealt: Counter[int] = Counter()
            for row in h.initial:
                dealt.update({r: n for r, n in enumerate(row) if n})
            assert dealt == total
            assert sum(h.cards_left()) == len(h.rules.deck)
