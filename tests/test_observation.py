"""What a seat may know (issue 11): hand sizes only where announced, private cards only to those who saw them.

S0 opening 「不能上报或者询问任何人的手牌数」; S4 第二十三条 「实行憋3打法，不报牌」 and 第十一条 「四人乱缠，也应按顺序发牌，
按规定报牌和扣牌」; S0 八、进贡 「所有进贡的牌全部明置」 and its 大王 call (a card taken unseen); S4 第十五条 亮牌.
The property tests: changing anything a seat may not know never changes its observation; and (issue 25) in
a match every seat is given, at every decision of the hand, play included, every event the table saw
since the hand began (tribute where shown, 冲点 sets, buying, declarations, 革命 …), in order, and nothing
it may not see.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from gouji_rules import catalog
from gouji_rules.errors import PositionError
from gouji_rules.game.actions import AGREE, PASS, Choose, Declare, Give, Head, Play
from gouji_rules.game.cards import NRANKS, TWO, counts_of, parse_set
from gouji_rules.game.events import Event, event_ids
from gouji_rules.parts import catalogue
from gouji_rules.play.agents import GreedyAgent, RandomAgent
from gouji_rules.play.engine import BURN, Hand
from gouji_rules.play.match import Match
from gouji_rules.play.observe import UNKNOWN, as_seen
from gouji_rules.rules.settlement import Debt
from gouji_rules.variant import Variant

from .conftest import S0, S4, act, pos
from .test_between_s0 import CHONG, second, start
from .test_between_s4 import R4, hand2
from .test_between_s4 import start as start4
from .test_match import drive, rig_deal, rig_debts

FILL = "3 4 5 6"
ROOT = Path(__file__).resolve().parents[1]


def test_s0_opening_nobody_is_told_hand_sizes() -> None:
    """S0 opening “每个人看每个人自己的牌…不能上报或者询问任何人的手牌数”: a seat sees only its own size."""
    h = Hand.deal(S0, seed=5)
    for s in range(6):
        left = h.observation(s).cards_left
        assert left[s] == sum(h.hands[s])
        assert all(left[k] == UNKNOWN for k in range(6) if k != s)


def test_s4_art23_no_announcing_under_bie3() -> None:
    """S4 第二十三条 “实行憋3打法，不报牌”: dagang (played 憋3) announces no sizes, in 四人乱缠 neither."""
    h = pos(S4, ["55", "6", "7", "8", "9", "T"], out=[1, 4])
    assert h.ffa
    assert h.observation(0).cards_left == (2, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN)


def test_s4_art11_announce_in_free_for_all_option() -> None:
    """S4 第十一条 “四人乱缠，也应按顺序发牌，按规定报牌和扣牌” read alone (``play.announce: free_for_all``): sizes
    are told once 四人乱缠 has begun, not before; ``always`` tells them at any time."""
    v = S4.replace(play={"announce": "free_for_all"})
    before = pos(v, ["55", "6", "7", "8", "9", "T"])
    assert before.observation(0).cards_left == (2, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN)
    during = pos(v, ["55", "9", "7", "8", "9", "T"], out=[1, 4])
    assert during.observation(0).cards_left == tuple(during.cards_left())
    always = pos(S4.replace(play={"announce": "always"}), ["55", "6", "7", "8", "9", "T"])
    assert always.observation(3).cards_left == (2, 1, 1, 1, 1, 1)


def _call_then_waive(monkeypatch: pytest.MonkeyPatch, variant: Variant) -> Match:
    """Seat 1 owes seat 4 a 点贡 and calls with its 大王 (S0); then seat 1 is asked to waive seat 5's 落贡."""
    rig_debts(monkeypatch, [Debt("point", 1, 4, 1), Debt("place", 5, 1, 1)])
    hands = [FILL, "3 4 7 BJ", FILL, FILL, "3 4 K K", "3 4 8 2"]
    rig_deal(monkeypatch, [FILL] * 6, hands, first=[0, 0])
    m = Match(variant.replace(match={"first_leader": "random"}), 1, 2)
    drive(m, {"point_call": Choose("call")}, until=lambda m: len(m.summaries) == 1 and m.phase == "waive")
    assert m.phase == "waive" and m.turn == 1
    return m


def test_s0_sec8_card_taken_unseen_is_known_only_to_the_two_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    """S0 八、进贡 (点贡): “当对门摸牌时可以随时叫停，将对门要摸的这张牌作为还贡收入自己的牌里” — the card is taken unseen:
    its rank (the ``point_call`` value) is in the observation of the caller and his opposite only."""
    m = _call_then_waive(monkeypatch, S0.replace(chongdian={"enabled": False}))
    (taken,) = [e.value for e in m.events if e.type == "point_call"]
    assert taken > 0
    for seat in range(6):
        (call,) = [e for e in m.observation(seat).events if e.type == "point_call"]
        assert call.value == (taken if seat in (1, 4) else 0), seat


def test_s0_sec8_tribute_cards_are_shown_to_all(monkeypatch: pytest.MonkeyPatch) -> None:
    """S0 八、进贡 “所有进贡的牌全部明置” (``tribute.shown``): every seat sees the 大王 paid as 点贡."""
    m = _call_then_waive(monkeypatch, S0.replace(chongdian={"enabled": False}))
    for seat in range(6):
        paid = [str(e.cards) for e in m.observation(seat).events if e.type == "tribute"]
        assert paid == ["BJ"], seat


def test_s4_art14_tribute_cards_seen_by_giver_and_receiver_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """S4 says nothing of showing tribute (⚑ ``tribute.shown: false``): the card paid is seen by the two seats."""
    m = _call_then_waive(monkeypatch, S4.replace(geming={"enabled": False}))
    for seat in range(6):
        (paid,) = [e for e in m.observation(seat).events if e.type == "tribute"]
        assert (str(paid.cards) if paid.cards else None) == ("BJ" if seat in (1, 4) else None), seat


# -- the property: hidden information never changes an observation --------------------------------------


def _reshuffle_hidden(h: Hand, seat: int, rng: random.Random, keep_sizes: bool) -> Hand:
    """A copy of ``h`` in which the cards of every other seat whose hand is not shown are dealt anew among them."""
    from .test_properties import copy_hand

    g = copy_hand(h)
    hidden = [s for s in range(6) if s != seat and s not in g.shown]
    pool = [r for s in hidden for r in range(NRANKS) for _ in range(g.hands[s][r])]
    rng.shuffle(pool)
    sizes = [sum(g.hands[s]) for s in hidden]
    if not keep_sizes and len(hidden) > 1:
        cut = sorted(rng.randint(0, len(pool)) for _ in range(len(hidden) - 1))
        sizes = [b - a for a, b in zip([0, *cut], [*cut, len(pool)], strict=True)]
    i = 0
    for s, n in zip(hidden, sizes, strict=True):
        g.hands[s] = [0] * NRANKS
        for r in pool[i : i + n]:
            g.hands[s][r] += 1
        i += n
    return g


@pytest.mark.parametrize(
    "variant",
    [S4, S0, S4.replace(play={"announce": "free_for_all"}), S4.replace(play={"announce": "always"})],
    ids=["dagang", "dianshaomenla", "announce_ffa", "announce_always"],
)
def test_hidden_information_never_changes_an_observation(variant: Variant) -> None:
    """Over 40 random hands, at random moments: dealing the other seats' hidden cards anew (sizes too, unless the
    variant announces them now) leaves every seat's observation exactly as it was."""
    from gouji_rules.play.observe import announced

    rng = random.Random(11)
    checked = 0
    for seed in range(40):
        h = Hand.deal(variant, seed=seed)
        while not h.is_over:
            if rng.random() < 0.08:
                seat = rng.randrange(6)
                keep = announced(h.rules, h.ffa)
                other = _reshuffle_hidden(h, seat, rng, keep)
                assert other.observation(seat) == h.observation(seat), (seed, seat)
                checked += 1
            legal = h.legal_actions()
            h.apply(legal[rng.randrange(len(legal))])
    assert checked > 100


def test_s4_art15_shown_hand_is_not_hidden_information() -> None:
    """The 清 player's hand, once shown, is in every observation: changing it changes what the others see."""
    h = pos(S4, ["553", "66J", "7", "8", "9", "T"])
    act(h, "55", "66")
    before = h.observation(2)
    h.hands[0][parse_set("3").rank] += 1
    assert h.observation(2).shown != before.shown and h.observation(2).cards_left[0] == 2


def test_s0_opening_a_declined_burn_offer_tells_nobody_what_the_seat_holds() -> None:
    """S0 opening 「每个人看每个人自己的牌」 and 五、烧牌: only a seat that can burn is offered the burn, so
    turning it down must leave no trace others see: the table's events are the same whether seat 1 held
    the burning AA+小王 (offered, declined) or not (never asked)."""
    could = pos(S0, ["KK 5", "AA SJ 6", "7", "8", "9", "T"], leader=0)
    could_not = pos(S0, ["KK 5", "66 7 8", "7", "8", "9", "T"], leader=0)
    act(could, "KK")
    act(could_not, "KK")
    assert could.turn == 1 and could.mode == BURN  # seat 1 is asked to burn, and declines
    act(could, "pass")
    for h in (could, could_not):
        while h.turn != 3:  # the opposite answers the 够级 set
            act(h, "pass")
    seen = [(e.type, e.seat, e.value) for e in could.observation(3).events]
    assert seen == [(e.type, e.seat, e.value) for e in could_not.observation(3).events]


# -- the table's open information at every decision of the hand (issue 25) ------------------------------


def _seen(events: Sequence[Event], *kinds: str) -> list[tuple[Any, ...]]:
    return [(e.type, e.seat, str(e.cards) if e.cards else None, e.other, e.value) for e in events if e.type in kinds]


def _through_play(m: Match) -> Iterator[tuple[int, list[Event], list[Event]]]:
    """Play the current hand out (greedy), yielding at every decision of play, for every seat, that seat, the
    events of its observation before the hand's own, and those after."""
    assert m.hand is not None and m.phase == "play"
    agents = [GreedyAgent() for _ in range(6)]
    for s, a in enumerate(agents):
        a.start_hand(m.hand.seed or 0, s)
    number = m.hand_number
    while not m.is_over and m.phase == "play" and m.hand_number == number:
        own = m.hand.events
        for s in range(6):
            events = list(m.observation(s).events)
            cut = len(events) - len(own)
            assert events[cut:] == own, s  # the hand's own log, all of it public
            yield s, events[:cut], events[cut:]
        m.apply(agents[m.turn].act(m.observation(), m.legal_actions()))


def test_s0_sec8_tribute_shown_reaches_every_seat_at_every_decision_of_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """S0 八、进贡 「所有进贡的牌全部明置」: seat 5 pays seat 0 two 拉贡; nobody is asked anything between the tribute
    and the first lead (no seat can 冲点), yet every seat's observation holds both cards at every decision of
    play, after the phases' ``deal`` and before the hand's own."""
    m = second(monkeypatch, [Debt("place", 5, 0, 2)], [FILL, FILL, FILL, FILL, FILL, "3 4 A 2 2 SJ"])
    paid = [("tribute", 5, "SJ", 0, 4), ("tribute", 5, "2", 0, 4)]
    n = 0
    for s, before, own in _through_play(m):
        assert _seen(before, "tribute", "deal") == [("deal", 0, None, -1, 0), *paid], s
        assert own[0].type == "deal"
        n += 1
    assert n >= 12


def test_s4_art14_unshown_tribute_and_return_stay_with_the_two_seats_in_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """S4 第十四条 says nothing of showing tribute (⚑ ``tribute.shown: false``): in play as before it, the cards
    paid (第十四条(一)) and handed back (第十四条(四) 还贡) are seen by payer and receiver only; the others see
    who paid whom and the kind of debt (落贡, from the last hand's places), not the cards."""
    rig_debts(monkeypatch, [Debt("place", 5, 0, 2, True)])
    rig_deal(monkeypatch, [FILL] * 6, ["3 4 7 8 9", FILL, FILL, FILL, FILL, "3 4 5 2 BJ"], first=[0, 0])
    m = Match(R4, 1, 2)
    gives = iter([Give(parse_set("9").rank), Give(parse_set("8").rank)])
    drive(m, {"give": lambda legal: next(gives), "accept": AGREE}, until=hand2)
    full = [
        ("tribute", 5, "BJ", 0, 4),
        ("tribute", 5, "2", 0, 4),
        ("return_tribute", 0, "9", 5, 0),
        ("return_tribute", 0, "8", 5, 0),
    ]
    hidden = [(t, s, None, o, v) for t, s, _, o, v in full]
    n = 0
    for s, before, _ in _through_play(m):
        assert _seen(before, "tribute", "return_tribute") == (full if s in (0, 5) else hidden), s
        n += 1
    assert n >= 12


def _chongdian_beaten(monkeypatch: pytest.MonkeyPatch) -> Match:
    """S0 十、冲点: seat 0 puts down TTTTT, JJJJ and QQQ before play, and seat 3 beats all three."""
    sets = iter(["TTTTT", "JJJJ", "QQQ"])
    answers = iter(["QQQQQ", "KKKK", "AAA"])
    picks = {
        ("chongdian", 0): Choose("chongdian"),
        "chong_set": lambda legal: Play(parse_set(next(sets))),
        "chong_answer": lambda legal: Play(parse_set(next(answers))),
    }
    return start(monkeypatch, [CHONG, FILL, FILL, "3 44 5 QQQQQ KKKK AAA", FILL, FILL], picks)


def test_s0_sec10_chongdian_sets_and_answers_reach_every_seat_in_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """S0 十、冲点 「冲点者将3套够级牌依次打出，每打一套够级牌则询问冲点者对门是否要」: the sets go down on the table;
    seat 3 beats all three.  Every seat, the four never asked anything included, has the six sets and the
    failed 冲点 in its observation at every decision of play."""
    m = _chongdian_beaten(monkeypatch)
    table = [
        ("play", 0, "TTTTT", 3, 0),
        ("play", 3, "QQQQQ", 0, 0),
        ("play", 0, "JJJJ", 3, 0),
        ("play", 3, "KKKK", 0, 0),
        ("play", 0, "QQQ", 3, 0),
        ("play", 3, "AAA", 0, 0),
        ("chongdian", 0, None, 3, 2),
    ]
    n = 0
    for s, before, _ in _through_play(m):
        assert _seen(before, "play", "chongdian") == table, s
        n += 1
    assert n > 0


def test_s0_sec10_a_chongdian_set_answered_with_a_pass_is_seen_in_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """S0 十、冲点 「3套够级牌若有一套站住则冲点成功」: the set that stood and the opposite's pass are the table's too."""
    picks = {"chongdian": Choose("chongdian"), "chong_set": Play(parse_set("QQQ")), "chong_answer": PASS}
    m = start(monkeypatch, [CHONG, FILL, FILL, "3 4 KKK", FILL, FILL], picks)
    for s, before, _ in _through_play(m):
        assert _seen(before, "play", "pass", "chongdian") == [
            ("play", 0, "QQQ", 3, 0),
            ("pass", 3, None, -1, 0),
            ("chongdian", 0, None, 3, 1),
        ], s


def test_s0_sec7_buying_is_seen_by_every_seat_in_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """S0 七、买3买4 「每个人把多出的3和4摆在桌面上，然后分给没有3,4的人」 「上交1张2来买」: the exchange is done on the
    table: every seat sees the 3 and the 4 seat 0 bought from seat 3, and the 2 paid for each, throughout play."""
    m = start(monkeypatch, ["5 2 2", FILL, FILL, "33 44 5", FILL, FILL], {"buy4": Choose("buy4")})
    for s, before, _ in _through_play(m):
        assert _seen(before, "buy3", "buy4") == [("buy3", 0, "3", 3, TWO + 1), ("buy4", 0, "4", 3, TWO + 1)], s


def test_s0_sec4_xuandian_is_seen_by_every_seat_in_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """S0 四、开点 「宣点即出牌前宣称本局游戏对门不开点」: a declaration made before play is known in play to all."""
    m = start(monkeypatch, [FILL] * 6, {("xuandian", 2): Declare("xuandian")})
    for s, before, _ in _through_play(m):
        assert _seen(before, "xuandian") == [("xuandian", 2, None, 5, 0)], s


def test_s4_art21_geming_and_art22_mingdian_are_seen_by_every_seat_in_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """S4 第二十一条 「可声明“革命”」 (and his opposite's 有头) and 第二十二条(三) 「首发牌前，任何人都有宣布对头不开点的权力，
    是为“明点”」: both are declared to the table, and every seat has them at every decision of play."""
    picks = {("geming", 1): Choose("geming"), ("head", 4): Head(True), ("mingdian", 2): Declare("mingdian")}
    m = start4(monkeypatch, ["3 4 5 2", FILL, "3 4 6 2", "3 4 7 2", "3 4 8 2", "3 4 9 2"], picks)
    for s, before, _ in _through_play(m):
        assert _seen(before, "geming", "with_head", "mingdian") == [
            ("geming", 1, None, -1, 0),
            ("with_head", 4, None, 1, 0),
            ("mingdian", 2, None, 5, 0),
        ], s


def test_s0_sec8_point_call_shows_the_big_joker_to_all_and_the_card_taken_to_two_in_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """S0 八、进贡 (点贡) 「可以即刻亮出大王，当对门摸牌时可以随时叫停，将对门要摸的这张牌作为还贡收入自己的牌里」: the 大王
    is shown to the table; the card taken is known to the caller and his opposite only, in play as before it."""
    m = _call_then_waive(monkeypatch, S0.replace(chongdian={"enabled": False}))
    drive(m, until=lambda m: m.phase == "play")
    (taken,) = [e.value for e in m.events if e.type == "point_call"]
    for s, before, _ in _through_play(m):
        assert _seen(before, "point_call") == [("point_call", 1, "BJ", 4, taken if s in (1, 4) else 0)], s


# -- the property, over whole matches: the table's events, in order, and nothing hidden -----------------

AFTER_PLAY = ("choose_last", "sweep")
"""the phase events a match emits after play (docs/events.md); every other phase event comes before it"""


def _as_seen(rules: Any, seat: int, e: Event) -> Event:
    """docs/events.md, "Who sees each event", written out again: what ``seat`` may see of ``e``."""
    if seat in (e.seat, e.other):
        return e
    if e.type == "point_call":
        return e._replace(value=0)
    if e.type in ("tribute", "return_tribute") and not rules.tribute_shown:
        return e._replace(cards=None)
    return e


def _hide_differently(m: Match, seat: int, rng: random.Random) -> Match:
    """A copy of ``m`` that differs only in what ``seat`` may not know: the other seats' unshown cards are dealt
    anew among them (sizes kept), and every event part it did not witness is given another value."""
    twin = m.copy()
    in_play = twin.phase == "play" and twin.hand is not None
    hands = twin.hand.hands if (in_play and twin.hand is not None) else twin.hands_now
    shown = twin.hand.shown if (in_play and twin.hand is not None) else set()
    hidden = [s for s in range(6) if s != seat and s not in shown]
    pool = [r for s in hidden for r in range(NRANKS) for _ in range(hands[s][r])]
    rng.shuffle(pool)
    for s in hidden:
        n = sum(hands[s])
        hands[s][:] = [0] * NRANKS
        for r in pool[:n]:
            hands[s][r] += 1
        pool = pool[n:]
    other = parse_set("Q")
    twin.events[:] = [
        e
        if _as_seen(twin.rules, seat, e) == e
        else (e._replace(value=e.value % 15 + 1) if e.type == "point_call" else e._replace(cards=other))
        for e in twin.events
    ]
    return twin


@pytest.mark.parametrize("name", catalog.names())
def test_every_seat_sees_the_tables_events_in_order_and_nothing_hidden(name: str) -> None:
    """For random matches of every shipped variant, at every decision (the choices before play, play, and those
    after it), every seat's observation holds (a) every event of the hand so far that it may see, in the order
    the table saw them: the phase events before play, the hand's own, the phase events after play, (b) with
    the parts it may not see left out; and (c) a copy of the match that differs only in what the seat may
    not know (other seats' cards, the hidden parts of events) gives it the same observation."""
    variant = catalog.resolve(name)
    rules = variant.rules
    rng = random.Random(25)
    checked = twins = redacted = before_play_in_play = 0
    for seed in range(3):
        m = Match(variant, seed, hands=3)
        agents = [RandomAgent() for _ in range(6)]
        hands: list[tuple[list[Event], list[list[Event]], list[tuple[int, int, tuple[Event, ...]]]]] = []
        started = -1
        while not m.is_over:
            if not hands or hands[-1][0] is not m.events:
                hands.append((m.events, [], []))
            phase_events, own, seen = hands[-1]
            if m.phase == "play":
                assert m.hand is not None
                if m.hand_number != started:
                    started = m.hand_number
                    own.append(m.hand.events)
                    for s, a in enumerate(agents):
                        a.start_hand(m.hand.seed or 0, s)
            happened = len(m.events) + (len(own[0]) if own else 0)
            for s in range(6):
                seen.append((s, happened, tuple(m.observation(s).events)))
            if rng.random() < 0.04:
                seat = rng.randrange(6)
                assert _hide_differently(m, seat, rng).observation(seat) == m.observation(seat), (seed, seat)
                twins += 1
            if m.phase == "play" and own and len(m.events) and any(e.type != "deal" for e in m.events):
                before_play_in_play += 1
            m.apply(agents[m.turn].act(m.observation(), m.legal_actions()))
        for phase_events, own, seen in hands:
            table = [e for e in phase_events if e.type not in AFTER_PLAY]
            table += own[0] if own else []
            table += [e for e in phase_events if e.type in AFTER_PLAY]
            views = [tuple(_as_seen(rules, s, e) for e in table) for s in range(6)]
            for s, happened, got in seen:
                assert got == views[s][:happened], (seed, s, happened)
                checked += 1
            redacted += sum(v != e for s in range(6) for v, e in zip(views[s], table, strict=True))
    assert checked > 1000 and twins > 20 and before_play_in_play > 100
    if name == "dagang":
        assert redacted > 0  # unshown tribute happened, and was hidden from the other seats


def test_s0_sec10_chongdian_sets_count_as_played_in_the_feature_vector(monkeypatch: pytest.MonkeyPatch) -> None:
    """S0 十、冲点: the sets put down before play are out of the game like any played set; the environment's
    ``played`` block (env/features.py) counts them for every seat from the first lead on."""
    from gouji_rules.env.features import PLAYED_AT, ObservationEncoder

    m = _chongdian_beaten(monkeypatch)
    me = 1
    v = ObservationEncoder().encode(m.observation(me))
    for seat, played in ((0, "TTTTT JJJJ QQQ"), (3, "QQQQQ KKKK AAA")):
        block = PLAYED_AT + NRANKS * ((seat - me) % 6)
        assert [int(x) for x in v[block : block + NRANKS]] == list(counts_of(played)), seat


def test_the_feature_vector_counts_each_hand_of_a_match_afresh() -> None:
    """One encoder over a whole match (the environment's ``match=True``) gives, at every decision, the vector a
    new encoder gives: the running count of played cards starts again with each hand."""
    from gouji_rules.env.features import ObservationEncoder

    m = Match(S4, 3, 3)
    enc = ObservationEncoder()
    agents = [RandomAgent() for _ in range(6)]
    n = 0
    while not m.is_over:
        obs = m.observation()
        assert (enc.encode(obs) == ObservationEncoder().encode(obs)).all(), n
        m.apply(agents[m.turn].act(obs, m.legal_actions()))
        n += 1
    assert len(m.summaries) >= 2 and n > 200


def test_every_event_id_is_in_the_visibility_table_and_only_its_private_ones_are_redacted() -> None:
    """docs/events.md "Who sees each event" names every event id; the engine hides a part only of the three it
    lists as private (unshown tribute and its return, the card taken by the 大王 call), under both texts."""
    section = (ROOT / "docs" / "events.md").read_text(encoding="utf-8").split("## Who sees each event", 1)[1]
    first_cells = " ".join(line.split("|")[1] for line in section.splitlines() if line.startswith("| "))
    named = set(re.findall(r"`([a-z0-9_]+)`", first_cells))
    described = {e.name for e in catalogue.events() if e.zh or e.en}  # by their own words: the table's last row
    missing = [e for e in event_ids() if e not in named and e not in described]
    assert missing == [], f"name {missing} in docs/events.md, or declare its words: EventKind(name, listed, zh, en)"
    private = {"tribute", "return_tribute", "point_call"}
    for rules in (S0.rules, S4.rules):
        for kind in event_ids():
            e = Event(kind, 1, parse_set("K"), 4, 7)
            assert (as_seen(rules, 2, e) != e) == (
                kind in private and (kind == "point_call" or not rules.tribute_shown)
            )
            assert as_seen(rules, 1, e) == e and as_seen(rules, 4, e) == e


def test_s4_art14_the_bot_protocol_act_message_carries_the_tables_events(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/bot-protocol.md ``events``: a bot in play is sent the tribute paid before it, with the card only where
    its seat paid or received it (S4 第十四条, ⚑ ``tribute.shown: false``)."""
    from gouji_rules.tournament.bots import observation_json

    rig_debts(monkeypatch, [Debt("place", 5, 0, 1)])
    rig_deal(monkeypatch, [FILL] * 6, [FILL, FILL, FILL, FILL, FILL, "3 4 5 2 BJ"], first=[0, 0])
    m = Match(R4, 1, 2)
    drive(m, until=hand2)
    for seat in range(6):
        sent = observation_json(m.observation(seat), m.legal_actions())["events"]
        paid = {"type": "tribute", "seat": 5, "other": 0, "value": 4}
        assert (paid | {"cards": "BJ"} if seat in (0, 5) else paid) in sent, seat
        assert [e["type"] for e in sent].count("deal") == 2


def test_a_match_observation_of_no_seat_is_refused_and_spoils_no_seats_view() -> None:
    """``Match.observation(-1)`` or ``(6)`` raises PositionError (no seat's view is built for it), before play
    as in play, and every seat's observation stays what it was."""
    for phase in ("yudian", "play"):
        m = Match(S4, 5, 1)
        while m.phase != phase:
            m.apply(m.legal_actions()[0])
        before = [list(m.observation(s).events) for s in range(6)]
        for bad in (-1, 6):
            with pytest.raises(PositionError, match="0-5"):
                m.observation(bad)
        assert [list(m.observation(s).events) for s in range(6)] == before
