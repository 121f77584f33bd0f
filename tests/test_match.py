"""Whole matches (issue 5, "Between hands and whole matches"): cross-cutting properties.

* every card is accounted for in every hand: the phases before play only move cards between
  hands (买3买4, 进贡, 还贡) or discard them (革命, 冲点), and play only moves cards from the
  hands to the table;
* over many matches with the heuristic agent, every between-hands event id of issue 5 shows up
  under the variant that has the rule.

The helpers at the top (a rigged deal, a rigged settlement, a driver that answers the phases'
decisions) are shared with ``test_between_s0.py`` and ``test_between_s4.py``.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import pytest

import gouji_rules.play.match as match_mod
from gouji_rules.catalog import dagang, dianshaomenla
from gouji_rules.game.actions import PASS, Action
from gouji_rules.game.cards import NRANKS, card, counts_of, parse_set
from gouji_rules.play.agents import GreedyAgent, RandomAgent
from gouji_rules.play.match import Match, play_match
from gouji_rules.rules.settlement import Debt
from gouji_rules.variant import Variant

S0 = dianshaomenla()
S4 = dagang()

# -- helpers shared by the between-hands tests ------------------------------------------------


def cards_of(hand: str | Sequence[int]) -> list[int]:
    """Dealt cards from hand notation (suits s h c d in turn within each rank), or cards as given."""
    if not isinstance(hand, str):
        return list(hand)
    out: list[int] = []
    counts = counts_of(hand)
    for r in range(NRANKS):
        out += [card(r, i % 4) for i in range(counts[r])]
    return out


def rig_deal(
    monkeypatch: pytest.MonkeyPatch,
    *deals: Sequence[str | Sequence[int]],
    first: Sequence[int | None] = (),
) -> list[int]:
    """Make ``Match`` deal the given hands, one deal per call (the last deal repeats).

    ``first[i]``, when given, is the first drawer of deal ``i``; otherwise the seat the match asks
    for draws first.  Returns the list of seeds the match dealt with (one per call).
    """
    calls: list[int] = []

    def fake(variant: Variant, seed: int, leader: int | None = None, rotate: int = 0) -> tuple[list[list[int]], int]:
        i = len(calls)
        calls.append(seed)
        hands = deals[min(i, len(deals) - 1)]
        f = first[i] if i < len(first) else None
        lead = f if f is not None else (leader if leader is not None else 0)
        return [cards_of(h) for h in hands], lead

    monkeypatch.setattr(match_mod, "deal_cards", fake)
    return calls


def rig_debts(monkeypatch: pytest.MonkeyPatch, debts: Sequence[Debt]) -> None:
    """The first hand's settlement leaves exactly ``debts`` for the next hand (scores stay real)."""
    real = match_mod.settle
    done: list[bool] = []

    def fake(variant: Variant, result: Any) -> Any:
        s = real(variant, result)
        if done:
            return s
        done.append(True)
        return dataclasses.replace(s, debts=list(debts))

    monkeypatch.setattr(match_mod, "settle", fake)


Pick = Action | Callable[[Any], Action]


def drive(
    m: Match,
    picks: Mapping[str | tuple[str, int], Pick] | None = None,
    until: Callable[[Match], bool] | None = None,
) -> list[tuple[str, int]]:
    """Answer the match's decisions until ``until(m)`` holds or the match is over.

    Between hands, ``picks`` gives the answer by ``(phase, seat)`` or by ``phase`` (an action, or a
    function of the legal actions); otherwise PASS when it is legal, else the first legal action.
    Play is left to the heuristic agent.  Returns the (phase, seat) of every decision answered.
    """
    picks = picks or {}
    agents = [GreedyAgent() for _ in range(6)]
    started = 0
    asked: list[tuple[str, int]] = []
    while not m.is_over and not (until and until(m)):
        seat, phase, legal = m.turn, m.phase, m.legal_actions()
        if phase == "play":
            assert m.hand is not None
            if m.hand_number != started:
                started = m.hand_number
                for s, agent in enumerate(agents):
                    agent.start_hand(m.hand.seed or 0, s)
            action = agents[seat].act(m.observation(seat), legal)
        else:
            assert phase == m.observation(seat).mode  # the decision, chong_set / chong_answer included
            asked.append((phase, seat))
            pick = picks.get((phase, seat), picks.get(phase))
            if callable(pick):
                action = pick(legal)
            elif pick is not None:
                action = pick
            else:
                action = PASS if PASS in legal else legal[0]
        m.apply(action, seat)
    return asked


def at_play(m: Match) -> bool:
    return m.phase == "play"


def ev(m: Match, *kinds: str) -> list[tuple[Any, ...]]:
    """The phase events of the current hand of these kinds, as (type, seat, cards, other, value)."""
    return [(e.type, e.seat, str(e.cards) if e.cards else None, e.other, e.value) for e in m.events if e.type in kinds]


def counts(text: str) -> list[int]:
    return counts_of(text)


def cs(text: str) -> Any:
    return parse_set(text)


# -- card conservation -------------------------------------------------------------------------


def _vec(text: str) -> Counter[int]:
    c = counts_of(text)
    return Counter({r: n for r, n in enumerate(c) if n})


def _set_counter(text: str) -> Counter[int]:
    return Counter(parse_set(text).card_counts())


MOVES = ("buy3", "buy4", "tribute", "return_tribute", "point_call")


def check_conservation(v: Variant, m: Match) -> Iterator[str]:
    """Yield a message for every card not accounted for in any hand of the finished match."""
    deck = Counter(c >> 2 for c in v.rules.deck)
    for summ in m.summaries:
        rec = summ.record
        dealt = [_vec(h) for h in rec["dealt"]]
        start = [_vec(h) for h in rec["deal"]]
        end = [_vec(h) for h in rec["end"]]
        discards = _vec(rec["discards"])
        tag = f"seed {m.seed} hand {summ.index}"
        if sum(dealt, Counter()) != deck:
            yield f"{tag}: the dealt cards are not the deck"
        # the phases: what each seat was dealt, plus what it received, minus what it gave
        flow = [Counter(d) for d in dealt]
        pre = rec["pre_play"]
        voided = [i for i, e in enumerate(pre) if e["type"] == "redeal"]
        for e in pre[voided[-1] + 1 :] if voided else pre:  # a redeal starts the hand's phases anew
            t = e["type"]
            if t not in MOVES:
                continue
            got = _set_counter(e["cards"])
            if t in ("buy3", "buy4"):  # seat buys one card from other, paying value-1 (0: free)
                buyer, seller = e["seat"], e["other"]
                flow[buyer] += got
                flow[seller] -= got
                if e.get("value", 0) > 0:
                    paid = Counter({e["value"] - 1: 1})
                    flow[buyer] -= paid
                    flow[seller] += paid
            elif t == "point_call":  # S0: the 点贡 payer takes one card (rank value-1) from other
                took = Counter({e["value"] - 1: 1})
                flow[e["seat"]] += took
                flow[e["other"]] -= took
            else:  # seat hands the cards to other
                flow[e["other"]] += got
                flow[e["seat"]] -= got
        left_out: Counter[int] = Counter()
        for s in range(6):
            rest = Counter(flow[s])
            rest.subtract(start[s])
            if any(n < 0 for n in rest.values()):
                yield f"{tag}: seat {s} starts play with cards it was never given: {rest}"
            left_out += +rest
        if left_out != discards:
            yield f"{tag}: cards missing from the hands {left_out} are not the discards {discards}"
        if sum(start, Counter()) + discards != deck:
            yield f"{tag}: hands at the start of play + discards are not the deck"
        # the play: what the Hand started with = what was put on the table + what is left
        played: list[Counter[int]] = [Counter() for _ in range(6)]
        for e in rec["events"]:
            if e["type"] in ("play", "burn", "counter_burn"):
                played[e["seat"]] += _set_counter(e["cards"])
            elif e["type"] == "huiwu":
                # 会五: all the 5s of the swept side go out together, under one seat's name
                team = e["value"] - 1
                five = parse_set("5").rank
                seats = [s for s in range(6) if s % 2 == team]
                if parse_set(e["cards"]).count != sum(start[s][five] for s in seats):
                    yield f"{tag}: 会五 put out {e['cards']}, not the swept side's 5s"
                for s in seats:
                    played[s][five] += start[s][five]
        for s in range(6):
            if played[s] + end[s] != start[s]:
                yield f"{tag}: seat {s}: played {played[s]} + left {end[s]} != started with {start[s]}"


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}


@pytest.mark.parametrize("agent", sorted(AGENTS))
@pytest.mark.parametrize("variant", [S4, S0], ids=lambda v: v.name)
def test_every_card_accounted_for_in_every_hand(variant: Variant, agent: str) -> None:
    """Tribute, 还贡 and buying move cards between hands; 革命 and 冲点 discard them; play puts
    them on the table: for every hand, dealt = (hands at the start of play) + discards, with each
    seat's flow matching the recorded moves, and started with = played + left."""
    problems: list[str] = []
    hands = 0
    for seed in range(30):
        m = play_match(variant, seed, 8, [AGENTS[agent]() for _ in range(6)])
        assert len(m.summaries) == 8
        hands += len(m.summaries)
        problems += check_conservation(variant, m)
    assert hands == 240
    assert problems == []


def test_conservation_checker_sees_a_missing_card() -> None:
    """The checker itself: a card taken out of a record is reported."""
    m = play_match(S4, 1, 1, [GreedyAgent() for _ in range(6)])
    assert list(check_conservation(S4, m)) == []
    rec = m.summaries[0].record
    rec["end"] = list(rec["end"])
    seat = next(s for s in range(6) if rec["end"][s])
    rec["end"][seat] = rec["end"][seat][1:]
    assert list(check_conservation(S4, m))


# -- every event id of issue 5 shows up --------------------------------------------------------

ISSUE5 = (
    "kang",
    "xuandian",
    "hedian",
    "mingdian",
    "yudian",
    "buy3",
    "buy4",
    "tribute",
    "return_tribute",
    "geming",
    "chongdian",
    "sweep",
)
ONLY = {
    "dianshaomenla": {"xuandian", "hedian", "chongdian"},
    "dagang": {"mingdian", "yudian", "geming", "return_tribute"},
}


def _event_counts(v: Variant, matches: int) -> Counter[str]:
    c: Counter[str] = Counter()
    for seed in range(matches):
        m = play_match(v, seed, 8, [GreedyAgent() for _ in range(6)])
        c.update(e.type for e in m.all_events)
        for summ in m.summaries:
            c.update(e["type"] for e in summ.record["events"])
    return c


@pytest.mark.parametrize("variant", [S4, S0], ids=lambda v: v.name)
def test_issue5_events_all_occur_over_200_matches(variant: Variant) -> None:
    """200 matches of 8 hands, heuristic agents: each event id of issue 5 occurs where the variant
    has the rule, and never where it has not (S0 has no 明点/预点/革命/还贡, S4 no 宣点/和点/冲点)."""
    c = _event_counts(variant, 200)
    mine = ONLY[variant.name]
    theirs = ONLY["dagang" if variant.name == "dianshaomenla" else "dianshaomenla"]
    expected = [k for k in ISSUE5 if k not in theirs]
    assert {k: c[k] for k in expected if c[k] == 0} == {}
    assert {k: c[k] for k in theirs if c[k]} == {}
    assert mine <= set(expected)


@pytest.mark.parametrize("variant", [S4, dianshaomenla()], ids=["dagang", "dianshaomenla"])
def test_next_hand_led_by_last_place_in_a_rotated_match(variant: Variant) -> None:
    """S0 “下一局游戏拉客先摸牌出牌”; S4 第二条(三) “大落为法定的取牌人，也是法定首发牌人” — also when the
    duplicate deal is played with the cards rotated (rotate=1)."""
    from gouji_rules.play.agents import GreedyAgent
    from gouji_rules.play.match import play_match

    m = play_match(variant, 11, 4, [GreedyAgent() for _ in range(6)], rotate=1)
    for a, b in zip(m.summaries, m.summaries[1:], strict=False):
        if a.sweep is None or not variant.match.reopen_after_sweep:
            assert b.leader == a.tribute_places.index(6)


# -- issue 10: state you can copy and build ---------------------------------------------------


class Counting(RandomAgent):
    """A random agent that counts the hands it is told about."""

    def __init__(self) -> None:
        super().__init__()
        self.hands = 0

    def start_hand(self, seed: int, seat: int) -> None:
        self.hands += 1
        super().start_hand(seed, seat)


def test_play_match_starts_every_hand_for_every_agent() -> None:
    """``start_hand`` once per hand and agent: hands are counted, never told apart by ``id()``
    (ids are reused once a hand is freed)."""
    agents = [Counting() for _ in range(6)]
    m = play_match(S4, 5, 12, agents)
    assert [a.hands for a in agents] == [len(m.summaries)] * 6 == [12] * 6


CHONG = "3 4 5 6 QQQ KK AA"
OTHER = "3 4 5 6 7 8 9 T J Q K A 2"


def test_match_phase_is_the_decision_kind_during_chongdian() -> None:
    """docs/events.md: ``Match.phase`` reads ``chong_set`` and ``chong_answer`` inside 冲点 (S0 十、冲点)."""
    m = Match(S0, 1, 1, deal=[CHONG, OTHER, OTHER, OTHER, OTHER, OTHER], leader=0)
    seen = drive(m, {("chongdian", 0): lambda legal: legal[0]}, until=at_play)
    assert ("chongdian", 0) in seen and ("chong_set", 0) in seen and ("chong_answer", 3) in seen
    assert [e.seat for e in m.all_events if e.type == "chongdian"] == [0]


def test_match_from_a_chosen_deal_leader_and_debts() -> None:
    """The first hand is dealt as given, led by the given seat, and pays the given debts."""
    debt = Debt("place", 5, 0, 2)
    m = Match(S4, 1, 1, deal=[*[OTHER] * 5, OTHER + " SJ"], leader=2, debts=[debt])
    drive(m, until=at_play)
    paid = [(e.seat, e.other, e.value) for e in m.events if e.type == "tribute"]
    assert paid == [(5, 0, 4), (5, 0, 4)]  # 落贡 is value 4
    assert m.hand is not None and m.hand.events[0].seat == 2
    assert m.hands_now[5] == counts("3 4 5 6 7 8 9 T J Q K A")  # his 2 and 小王 went to seat 0


def test_match_setup_is_where_the_phases_start() -> None:
    from gouji_rules.play.engine import HandSetup

    setup = HandSetup(placed={4: 4}, geming=frozenset({4}), closed=frozenset({4}))
    m = Match(S4, 1, 1, deal=[OTHER] * 6, leader=0, setup=setup)
    drive(m, until=at_play)
    assert m.hand is not None and m.hand.setup.placed == {4: 4} and not m.hand.active[4]


def test_match_copy_replays_to_the_same_state_and_is_independent() -> None:
    m = Match(S0, 9, 2)
    agents = [RandomAgent() for _ in range(6)]
    for s, a in enumerate(agents):
        a.start_hand(9, s)
    for _ in range(250):
        m.apply(agents[m.turn].act(m.observation(), m.legal_actions()))
    c = m.copy()
    assert (c.phase, c.turn, c.hands_now, c.scores, c.log) == (m.phase, m.turn, m.hands_now, m.scores, m.log)
    assert c.hand is not None and m.hand is not None and c.hand.record() == m.hand.record()
    c.apply(c.legal_actions()[0])
    assert len(c.log) == len(m.log) + 1 and m.decisions == 250


def test_hand_copy_is_independent_and_plays_the_same() -> None:
    from gouji_rules.play.engine import Hand

    h = Hand.deal(S4, 3)
    agents = [RandomAgent() for _ in range(6)]
    for s, a in enumerate(agents):
        a.start_hand(3, s)
    for _ in range(80):
        h.apply(agents[h.turn].act(h.observation(), h.legal_actions()))
    before = h.record()
    c = h.copy()
    c.apply(c.legal_actions()[0])
    assert h.record() == before  # the original did not move
    twin = h.copy()
    while not h.is_over:
        a = h.legal_actions()[0]
        h.apply(a)
        twin.apply(a)
    assert twin.record() == h.record() and twin.is_over


@pytest.mark.parametrize(
    "kwargs",
    [
        {"deal": ["3 4"] * 5, "leader": 0},
        {"deal": ["3 4"] * 6, "leader": 7},
        {"leader": -1},
        {"deal": ["SJ SJ 3"] * 6, "leader": 0},  # 12 小王 in a 4-pack deck
        {"deal": ["3 4 2"] * 6, "leader": 0, "debts": [Debt("place", 9, 0, 1)]},
        {"deal": ["3 4 2"] * 6, "leader": 0, "debts": [Debt("nope", 1, 0, 1)]},
        {"deal": ["3 4 2"] * 6, "leader": 0, "debts": [Debt("place", 1, 1, 1)]},
    ],
)
def test_a_match_refuses_a_start_no_deal_could_give(kwargs: dict[str, Any]) -> None:
    """A chosen start is checked before anything is asked: six hands from the deck, seats 0-5,
    debts between two seats of a registered kind.  A typed error, never an IndexError later."""
    from gouji_rules.errors import PositionError
    from gouji_rules.play.engine import HandSetup

    with pytest.raises(PositionError):
        Match(S4, 1, 1, **kwargs)
    with pytest.raises(PositionError):
        Match(S4, 1, 1, deal=["3 4 2"] * 6, leader=0, setup=HandSetup(placed={9: 1}))


def test_match_copy_replays_lost_turns() -> None:
    """S4 第四条(一) 错牌不出: a forfeited turn is one of the match's decisions, and a copy replays it."""
    from gouji_rules.game.actions import Forfeit

    m = Match(S4, 2, 1)
    m.forfeit(reason="a phase choice out of turn")  # between hands: the default choice is taken
    drive(m, until=at_play)
    m.apply(Forfeit("a wrong set"))  # in play: the seat loses its turn
    c = m.copy()
    assert c.log == m.log and [s for s, a in m.log if isinstance(a, Forfeit)] != []
    assert c.hand is not None and m.hand is not None and c.hand.record() == m.hand.record()
    assert [e.type for e in c.all_events] == [e.type for e in m.all_events]
