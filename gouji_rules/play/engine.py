"""A hand of 够级 as a pure state machine: ``legal_actions()``, ``apply()``, ``is_over``.

Every decision, whoever makes it, goes through the same pair.  The engine
never hard-codes a rule: each question goes to ``self.rules`` (the compiled
Variant).  Randomness enters only through the seed of the deal.

How a round (一轮) runs
-----------------------
The leader plays any legal set.  What happens next depends on the set:

* a **bound 够级 set** (够级 under the variant, its owner still has his
  opposite, and 四人乱缠 has not begun) may be answered only by the owner's
  opposite and by 无头 players (S4 第五条, S0 无头).  Before them, every
  player allowed to burn it is asked, in the variant's priority order
  (S4 第六条: the owner's own team first, then order of play);
* a **dead set** (S4 第四条(三): 大王 hung) is conceded by the owner's
  opposite with 扣牌 (S4 第七条) and the owner leads again; with
  ``sets.kou`` off (S0 has no 扣牌) the round simply ends on it;
* any other set is answered in order of play (步步高, S4 第四条(五)(六)); a
  player who passed stays out of the round (S0 “过牌之后再不能要”, S4 第五条 过牌) unless the
  variant lets him back in (his opposite's set, or 四人乱缠).

The round ends when nobody left in the queue beats the table set; its owner
leads, or, if he has gone out, the lead passes by the variant's 接风 rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Final, cast

from ..errors import IllegalAction, PositionError
from ..game.actions import (
    AGREE,
    JIEFENG,
    KOU,
    PASS,
    REFUSE,
    YIELD,
    Action,
    Burn,
    Consent,
    Forfeit,
    Jiefeng,
    Kou,
    Pass,
    Play,
    Yield,
)
from ..game.cards import BJ, FIVE, FOUR, NRANKS, SJ, SYMBOLS, THREE, TOP, TWO, CardSet, card_rank, format_hand
from ..game.events import Event, play_event
from ..game.hand_setup import HandSetup as HandSetup  # its home is hand_setup; engine.HandSetup stays public
from ..game.legal import Box, Legal
from ..game.rng import SplitMix64, check_seed
from ..game.seats import opposite, same_side, side, side_seats, sweep_of
from ..rules import HandState, Rules, as_rules
from .observe import Observation, hand_observation

if TYPE_CHECKING:
    from ..variant import Variant


class Mode(IntEnum):
    """What the seat to act is being asked (``Observation.mode`` is its lower-case name)."""

    LEAD = 0
    FOLLOW = 1
    BURN = 2
    KOU = 3
    CONSENT = 4
    OVER = 5

    @property
    def label(self) -> str:
        """The name agents and records see: ``lead``, ``follow``, ``burn``, ``kou``, ``consent``, ``over``."""
        return MODE_NAMES[self]


class Point(IntEnum):
    """A seat's 开点 state: not yet, pending (its pure 够级 set stood; its next lead decides), opened, closed."""

    NONE = 0
    PENDING = 1
    OPEN = 2
    CLOSED = 3

    @property
    def label(self) -> str:
        """``none``, ``pending``, ``open`` or ``closed`` (as in observations and records)."""
        return POINT_NAMES[self]


# Final: the compiled core reads them as static variables, not through the module's dict
LEAD: Final = Mode.LEAD
FOLLOW: Final = Mode.FOLLOW
BURN: Final = Mode.BURN
KOU_MODE: Final = Mode.KOU
CONSENT: Final = Mode.CONSENT
OVER: Final = Mode.OVER
MODE_NAMES: Final = ("lead", "follow", "burn", "kou", "consent", "over")
POINT_NONE: Final = Point.NONE
POINT_PENDING: Final = Point.PENDING
POINT_OPEN: Final = Point.OPEN
POINT_CLOSED: Final = Point.CLOSED
POINT_NAMES: Final = ("none", "pending", "open", "closed")


def deal_cards(
    rules: Rules | Variant, seed: int, leader: int | None = None, rotate: int = 0
) -> tuple[list[list[int]], int]:
    """The dealt cards of each seat and the first drawer (docs/rng.md)."""
    rules = as_rules(rules)
    rng = SplitMix64(check_seed(seed))
    if leader is None:
        leader = rng.below(6) if rules.random_first_drawer else 0
    deck = list(rules.deck)
    rng.shuffle(deck)
    cards: list[list[int]] = [[] for _ in range(6)]
    remaining = list(rules.hand_sizes)
    i = 0
    while i < len(deck) and any(remaining):
        for k in range(6):
            if remaining[k] and i < len(deck):
                cards[(leader + k) % 6].append(deck[i])
                remaining[k] -= 1
                i += 1
    if rotate:
        cards = [cards[(s - rotate) % 6] for s in range(6)]
        leader = (leader + rotate) % 6
    return cards, leader


def check_start(
    rules: Rules, hands: Sequence[Sequence[int]], leader: int, setup: HandSetup | None, *, dealt: bool = False
) -> None:
    """Raise PositionError unless six hands (rank counts), a leader and a setup could start a hand.

    A position for analysis may hold cards no deal gives (more 3s than S0's deck); with ``dealt``
    the hands must also fit in the deck (a match's chosen deal)."""
    if len(hands) != 6:
        raise PositionError(f"a hand is dealt to 6 seats, not {len(hands)}")
    if not 0 <= leader < 6:
        raise PositionError(f"the leader must be a seat 0-5, not {leader}")
    total = [0] * NRANKS
    for s, h in enumerate(hands):
        if len(h) > NRANKS or any(n < 0 for n in h):
            raise PositionError(f"seat {s}: a hand is {NRANKS} non-negative rank counts")
        for r, n in enumerate(h):
            total[r] += n
    over = [SYMBOLS[r] for r in range(NRANKS) if total[r] > rules.deck_counts[r]]
    if dealt and over:
        raise PositionError(f"more cards of {', '.join(over)} than the {rules.name} deck holds")
    if setup is not None:
        check_setup(setup)


def check_setup(setup: HandSetup) -> None:
    """Raise PositionError unless ``setup`` names seats 0-5 and gives placed seats distinct places 1-6."""
    seats = [*setup.placed, *setup.geming, *setup.opened, *setup.closed, *setup.no_head, *setup.head_rights]
    if any(not 0 <= x < 6 for x in seats):
        raise PositionError("setup names a seat outside 0-5")
    if any(not 1 <= p <= 6 for p in setup.placed.values()) or len(set(setup.placed.values())) < len(setup.placed):
        raise PositionError("setup.placed gives each placed seat its own place 1-6")


def verify_wrong_play(rules: Rules) -> None:
    """Raise IllegalAction unless a wrong play loses the turn under ``rules`` (错牌不出, ``play.wrong_play``);
    a hand in play and a match between hands both ask it."""
    if not rules.wrong_play_loses_turn:
        raise IllegalAction(
            f"under {rules.name} a wrong play is refused, not a lost turn (play.wrong_play: refuse)",
            rule="wrong_play",
            clause="S4 第四条(一) 错牌不出",
        )


FOLLOWS: Final = tuple((s, FOLLOW) for s in range(6))
"""Each seat's entry in a queue of answers, made once."""
PASS_EVENTS: Final = tuple(Event("pass", s) for s in range(6))
"""Each seat's ``pass`` event, made once (an Event is a NamedTuple: a Python-level constructor)."""

KIND_REFUSALS: Final = (
    ("lead", "the leader plays a set (nothing is on the table to pass on)", "S4 第四条(五), 第五条"),
    ("decision_kind", "play a set that beats the table set, or pass", "S4 第五条 过牌"),
    ("decision_kind", "burn the 够级 set (burn SET), or pass", "S4 第六条"),
    ("kou", "the opposite of a dead set concedes it: kou", "S4 第七条"),
    ("consent", "answer the 接风 request: agree or refuse", "S4 第十三条"),
)
"""By Mode (LEAD to CONSENT): the rule a decision of the wrong kind breaks, what is asked instead, the clause."""

_BLANK: list[list[int]] = []
"""The ``hands`` that make ``Hand(...)`` return an empty shell for :meth:`Hand.copy` to fill (a
compiled class has no ``__new__`` without ``__init__``)."""


def counts_of_cards(cards: Sequence[int]) -> list[int]:
    """Rank counts of dealt cards."""
    h = [0] * NRANKS
    for c in cards:
        h[card_rank(c)] += 1
    return h


class Hand(HandState):
    """One hand of 够级 from the deal to the last place.

    >>> from gouji_rules.catalog import dagang
    >>> h = Hand.deal(dagang(), seed=7)
    >>> sum(h.cards_left()), h.turn in range(6)
    (216, True)
    """

    def __init__(
        self,
        variant: Rules | Variant,
        hands: Sequence[Sequence[int]],
        leader: int,
        *,
        seed: int | None = None,
        deal: list[list[int]] | None = None,
        setup: HandSetup | None = None,
    ) -> None:
        if hands is _BLANK:  # Hand.copy fills every attribute itself
            return
        self.setup = setup = setup or HandSetup()
        self.rules: Rules = as_rules(variant)
        check_start(self.rules, hands, leader, setup)
        self.seed = seed
        self.deal_cards = deal
        self.hands: list[list[int]] = [list(h) + [0] * (NRANKS - len(h)) for h in hands]
        self.initial: list[tuple[int, ...]] = [tuple(h) for h in self.hands]
        self.active = [sum(h) > 0 for h in self.hands]
        self.finish: list[int] = []
        self.bottom: list[tuple[int, int, int]] = []  # (severity, order, seat)
        self.places: list[int] = [0] * 6
        self.point = [POINT_NONE] * 6
        self.no_head = [False] * 6
        self.lived = [False] * 6  # 打点 (S4 第二十二条): a 够级 set of the seat won the lead
        self.men_watch = [False] * 6
        self.men_seats: list[tuple[int, int]] = []  # (seat, by)
        self.shown: set[int] = set()  # 亮牌 (S4 第十五条): seats whose hands every seat sees
        self.fallen: set[int] = set()  # 先清为落 (men.penalty bottom_plays_on): placed from the bottom, still playing
        self.burns: list[tuple[int, int]] = []  # successful burns: (burner, victim)
        self.burning = -1
        self.burn_victim = -1
        self.ffa = False
        self.ffa_pending = False
        self.events: list[Event] = []
        self.actions: list[tuple[int, Action]] = []
        self.decisions = 0
        self.wrong_plays: list[tuple[int, str]] = []  # 错牌不出: (seat, reason) of each lost turn
        self.table = None
        self.owner = -1
        self.turn = leader
        self.mode: Mode = LEAD
        self.queue: list[tuple[int, Mode]] = []
        self.passed = [False] * 6
        self.yielded = [False] * 6
        self.yield_open = [False] * 6  # play.yield_lapses: a 让牌 not yet followed by the yielder's own decision
        self.trick_out = 0
        self.requester = -1
        self._defer_end = False
        self.saved_queue: list[tuple[int, Mode]] = []
        self._legal: Legal | None = None
        self._follow: dict[int, list[CardSet]] = {}
        self.head_rights = dict(setup.head_rights)
        self.events.append(Event("deal", leader))
        for s in range(6):
            if s in setup.placed:
                self.active[s] = False
            elif not self.active[s]:
                self._leave_silently(s)
        for s in setup.opened:
            self.point[s] = POINT_OPEN
        for s in setup.closed:
            self.point[s] = POINT_CLOSED
        for s in range(6):
            o = opposite(s)
            if self.active[s] and (
                s in setup.no_head or (not self.active[o] and s not in self.head_rights and self._gone_unheads(o))
            ):
                self.no_head[s] = True
                self.events.append(Event("no_head", s, other=o))
        if not self.active[leader]:
            leader = self._next_active(leader)
        if setup.huiwu_team is not None and self._huiwu(setup.huiwu_team, leader):
            return
        self._start_round(leader)

    def _gone_unheads(self, o: int) -> bool:
        """Before the first lead: does the absence of seat ``o`` make its opposite 无头?  A seat placed
        before play (革命, 冲点, no 3) did not go out; one dealt no cards (a position) went out already."""
        rules = self.rules
        if rules.no_head_when == 0:
            return True  # play.no_head_when: left_play, as the constructor read it before the option
        return rules.makes_no_head(o in self.finish, bool(self.finish) and self.finish[0] == o)

    def _unhead_again(self) -> None:
        """:meth:`position` put its ``out`` seats first in ``finish``: who is 无头 follows from that order
        (the constructor read the seats that left silently in seat order)."""
        head_rights, chosen = self.head_rights, self.setup.no_head
        for s in range(6):
            o = opposite(s)
            if self.active[s] and s not in chosen and s not in head_rights:
                self.no_head[s] = not self.active[o] and self._gone_unheads(o)
        self.events = [e for e in self.events if e.type != "no_head"]
        for s in range(6):
            if self.active[s] and self.no_head[s]:
                self.events.append(Event("no_head", s, other=opposite(s)))

    def _huiwu(self, team: int, leader: int) -> bool:
        """会五 (S0): the swept side's 5s go out together; the other side may answer them."""
        five = FIVE
        seats = [s for s in side_seats(team) if self.active[s]]
        total = sum(self.hands[s][five] for s in seats)
        if not total:
            return False
        for s in seats:
            self.hands[s][five] = 0
        owner = leader if leader in seats else seats[0]
        cs = CardSet(five, total)
        self.events.append(Event("huiwu", owner, cs, value=team + 1))
        self.table, self.owner = cs, owner
        self.trick_out = 0
        self._ask_huiwu_answers(team)
        return True

    def _ask_huiwu_answers(self, team: int) -> None:
        """The other team, in turn from the 5s' owner, may answer 会五's 5s (seats out skipped)."""
        self.queue = [(p, FOLLOW) for p in self._response_queue_seats(self.owner) if side(p) != team]
        self._advance()

    def _response_queue_seats(self, owner: int) -> list[int]:
        return [(owner + k) % 6 for k in range(1, 6) if self.active[(owner + k) % 6]]

    # -- construction ------------------------------------------------------------------

    @classmethod
    def deal(cls, variant: Rules | Variant, seed: int, leader: int | None = None, rotate: int = 0) -> Hand:
        """Shuffle with the seeded PRNG and deal one card at a time from the first drawer.

        ``rotate`` moves every dealt hand (and the first leader) ``rotate`` seats on, so the same
        deal can be replayed with the teams' cards swapped (duplicate deals: ``rotate=1``).
        """
        cards, leader = deal_cards(variant, seed, leader, rotate)
        return cls(variant, [counts_of_cards(c) for c in cards], leader, seed=seed, deal=cards)

    @classmethod
    def position(
        cls,
        variant: Rules | Variant,
        hands: Sequence[str],
        leader: int = 0,
        *,
        table: str | None = None,
        owner: int | None = None,
        passed: Sequence[int] = (),
        point: dict[int, str] | None = None,
        out: Sequence[int] = (),
        burning: int = -1,
        burn_victim: int = -1,
        setup: HandSetup | None = None,
    ) -> Hand:
        """A position for tests and perft files: hands in notation, optionally a set on the table.

        ``table`` is a set already played by ``owner`` (its cards are not in any hand); the
        seat to act is then the first one the rules ask about that set.  Seats in ``out``
        have gone out, in that order; ``passed`` seats have passed in this round.  ``setup``
        is what the match phases decided (placed seats, 革命, head rights, 无头 …).

        >>> from gouji_rules.catalog import dagang
        >>> h = Hand.position(dagang(), ["KK 4", "AA 5", "", "", "", ""], table="QQ", owner=0)
        >>> h.turn, h.mode.label
        (1, 'follow')
        """
        from ..game.cards import parse_hand, parse_set

        rules = as_rules(variant)
        parsed = [list(parse_hand(h)) for h in hands]
        hand = cls(rules, parsed, leader, setup=setup)
        for p, name in (point or {}).items():
            hand.point[p] = Point(POINT_NAMES.index(name))
        for s in out:
            hand.active[s] = False
        hand.finish = list(out) + [s for s in hand.finish if s not in out]
        if rules.no_head_when == 0:
            for s in out:
                o = opposite(s)
                if hand.active[o] and rules.no_head:
                    hand.no_head[o] = True
        else:
            hand._unhead_again()
        if rules.ffa_starts(len(hand.finish)):
            hand.ffa = True
        hand.burning, hand.burn_victim = burning, burn_victim
        if table is not None:
            cs = parse_set(table)
            who = leader if owner is None else owner
            hand.table, hand.owner = cs, who
            for p in passed:
                hand.passed[p] = True
            hand._follow.clear()
            hand.queue = hand._response_queue(who, cs)
            hand._advance()
        elif hand.table is not None and setup is not None and setup.huiwu_team is not None:
            # 会五 (S0) already put the swept team's 5s on the table: ask again, now the seats in ``out`` are out
            hand._ask_huiwu_answers(setup.huiwu_team)
        else:
            hand._start_round(leader)
        hand._legal = None
        return hand

    def copy(self) -> Hand:
        """An independent copy of the position (search agents, analysis): no ``deepcopy``.

        Lists of the state are copied one level deep; the events, the legal-action cache, the
        setup and the compiled rules are immutable values and are shared.  Every attribute is
        named (no ``__dict__``), so the class also compiles with mypyc.  ``gouji bench``
        reports how many copies a second this makes of a mid-hand position.
        """
        new = Hand(self.rules, _BLANK, 0)
        new.setup = self.setup
        new.rules = self.rules
        new.seed = self.seed
        new.deal_cards = self.deal_cards
        new.initial = self.initial
        new.burning = self.burning
        new.burn_victim = self.burn_victim
        new.ffa = self.ffa
        new.ffa_pending = self.ffa_pending
        new.decisions = self.decisions
        new.table = self.table
        new.owner = self.owner
        new.turn = self.turn
        new.mode = self.mode
        new.trick_out = self.trick_out
        new.requester = self.requester
        new._defer_end = self._defer_end
        new._legal = self._legal
        new.hands = [h[:] for h in self.hands]
        new.active = self.active[:]
        new.finish = self.finish[:]
        new.bottom = self.bottom[:]
        new.places = self.places[:]
        new.point = self.point[:]
        new.no_head = self.no_head[:]
        new.lived = self.lived[:]
        new.men_watch = self.men_watch[:]
        new.men_seats = self.men_seats[:]
        new.burns = self.burns[:]
        new.events = self.events[:]
        new.actions = self.actions[:]
        new.queue = self.queue[:]
        new.passed = self.passed[:]
        new.yielded = self.yielded[:]
        new.yield_open = self.yield_open[:]
        new.saved_queue = self.saved_queue[:]
        new.wrong_plays = self.wrong_plays[:]
        new.head_rights = dict(self.head_rights)
        new._follow = dict(self._follow)
        new.shown = set(self.shown)
        new.fallen = set(self.fallen)
        return new

    def __copy__(self) -> Hand:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Hand:
        return self.copy()

    def __reduce__(self) -> tuple[Callable[[Rules, dict[str, Any]], Hand], tuple[Rules, dict[str, Any]]]:
        """Pickled as the rules and the attributes (``__getstate__``: the instance dict when pure,
        mypyc's named attributes when compiled), set again on an empty shell when loaded."""
        return (_unpickle_hand, (self.rules, dict(self.__getstate__())))  # type: ignore[call-overload]

    # -- queries -----------------------------------------------------------------------

    @property
    def variant(self) -> Variant:
        """The Variant these rules were compiled from (for records and display, not for rule questions)."""
        return cast("Variant", self.rules.variant)  # Rules names it by a Protocol: it sits below the Variant

    @property
    def is_over(self) -> bool:
        """Has every place been decided?"""
        return self.mode == OVER

    def cards_left(self) -> list[int]:
        """How many cards each seat holds."""
        return [sum(h) for h in self.hands]

    @staticmethod
    def opposite(seat: int) -> int:
        """The seat across (对头): :func:`gouji_rules.game.seats.opposite`."""
        return opposite(seat)

    def observation(self, seat: int | None = None) -> Observation:
        """What ``seat`` (default: the seat to act) may know (gouji_rules/play/observe.py): other hand sizes
        only where announced."""
        return self.observation_of(self.turn if seat is None else seat, self.events)

    def observation_of(self, s: int, events: Sequence[Event]) -> Observation:
        """``observation(s)`` with ``events`` in place of the hand's own: a match gives each seat the
        table's events before play as well (``Match.observation``, gouji_rules/play/observe.py)."""
        left, shown = hand_observation(self.rules, s, self.hands, self.shown, self.ffa)
        # positional: this runs at every simulated decision (the order is Observation's fields)
        return Observation(
            s,
            MODE_NAMES[self.mode],
            tuple(self.hands[s]),
            self.table,
            self.owner,
            left,
            tuple(self.active),
            tuple(self.finish),
            tuple([POINT_NAMES[p] for p in self.point]),
            tuple(self.no_head),
            self.burning,
            self.ffa,
            events,
            self.rules,
            shown,
        )

    def bound(self, owner: int, cs: CardSet) -> bool:
        """Is ``cs`` played by ``owner`` a 够级 set that only some may answer?  The rules answer
        (:meth:`gouji_rules.rules.Rules.bound`), from this hand's round."""
        return self.rules.bound(self, owner, cs)

    # -- legal actions -------------------------------------------------------------------

    def legal_actions(self) -> Legal:
        """The legal actions of the seat to act (computed once per decision)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> Legal:
        mode = self.mode
        s = self.turn
        if mode == FOLLOW:
            sets = self._followers(s)
            if s == self.burning:
                sets = self.rules.burner_sets(sets)
            extras: tuple[Action, ...] = (PASS,)
            rules = self.rules
            if not rules.yield_problem(self, s):
                extras = (PASS, YIELD)
            if not rules.jiefeng_problem(self, s):
                extras = (*extras, JIEFENG)
            return Legal(sets=sets, extras=extras)
        if mode == LEAD:
            sizes: list[int] = []
            return Legal(boxes=self._lead_boxes(s, sizes), sizes=sizes)
        if mode == BURN:
            sets = self._followers(s)
            if s == self.burning:
                sets = self.rules.burner_sets(sets)
            return Legal(sets=sets, burn=True, extras=(PASS,))
        if mode == KOU_MODE:
            return Legal(extras=(KOU,))
        if mode == CONSENT:
            return Legal(extras=(AGREE, REFUSE))
        return Legal()

    def _followers(self, s: int) -> list[CardSet]:
        hit = self._follow.get(s)
        if hit is None:
            assert self.table is not None
            hit = self.rules.followers(self.hands[s], self.table)
            self._follow[s] = hit
        return hit

    def _lead_boxes(self, s: int, sizes: list[int]) -> list[Box]:
        """Seat ``s``'s leads as boxes; ``sizes`` receives each box's ``box_size``."""
        h = self.hands[s]
        rules = self.rules
        bie3 = rules.bie3
        only3 = bie3 and sum(h) == h[THREE]
        need_joker = self.burning == s
        bare, attachable, exempt, whole = rules.bare, rules.attach_jokers, rules.burn_exempt, rules.whole
        twos = h[TWO] if rules.attach_twos else 0
        sjs = h[SJ] if attachable[SJ] else 0
        bjs = h[BJ] if attachable[BJ] else 0
        tops = h[TOP] if attachable[TOP] else 0
        boxes: list[Box] = []
        for r in range(NRANKS):
            n = h[r]
            if not n:
                continue
            if r == THREE and bie3:
                if only3:
                    boxes.append((r, n, n, 0, 0, 0, 0, 0, 0, 0))
                    sizes.append(1)
                continue
            if bare[r]:  # attach_ranges, inlined
                a = sj = bj = y = 0
            else:
                a = twos if r < TWO else 0
                sj = sjs if r < SJ else 0
                bj = bjs if r < BJ else 0
                y = tops if r < TOP else 0
            lo, k = (n, 1) if whole[r] else (1, n)  # sets.whole: every card of the rank in one set
            if need_joker and r < SJ and not exempt[r]:
                if y:
                    boxes.append((r, lo, n, a, 0, sj, 0, bj, 1, y))
                    sizes.append(k * (a + 1) * (sj + 1) * (bj + 1) * y)
                if bj:
                    boxes.append((r, lo, n, a, 0, sj, 1, bj, 0, 0))
                    sizes.append(k * (a + 1) * (sj + 1) * bj)
                if sj:
                    boxes.append((r, lo, n, a, 1, sj, 0, 0, 0, 0))
                    sizes.append(k * (a + 1) * sj)
            else:
                boxes.append((r, lo, n, a, 0, sj, 0, bj, 0, y))
                sizes.append(k * (a + 1) * (sj + 1) * (bj + 1) * (y + 1))
        return boxes

    # -- apply -----------------------------------------------------------------------------

    def can_apply(self, action: Action, seat: int | None = None) -> bool:
        """:meth:`verify` as a yes or no."""
        try:
            self.verify(action, seat)
        except IllegalAction:
            return False
        return True

    def verify(self, action: Action, seat: int | None = None) -> None:
        """Raise the IllegalAction :meth:`refusal` gives (naming the rule and the clause), if any.

        The action the move generator handed out last (``legal_actions()[i]``, what an agent
        returns) is taken as it is: the property test holds that :meth:`refusal` gives None for
        every generated action, and asking again would cost every simulated decision."""
        legal = self._legal
        if legal is not None and action is legal.last and (seat is None or seat == self.turn):
            return
        why = self.refusal(action, seat)
        if why is not None:
            raise why

    def refusal(self, action: Action, seat: int | None = None) -> IllegalAction | None:
        """Why ``action`` (by ``seat``, default the seat to act) may not be made now, or None.

        The one source of legality: :meth:`verify` raises what it gives, :meth:`can_apply` tests
        it, :meth:`apply` verifies first.  It decides from the rules, not from the move
        generator's list; ``tests/test_legality_property.py`` holds the two to each other
        (``a in legal_actions()`` exactly when this gives None), and every refusal names its
        rule and clause.
        """
        mode = self.mode
        if mode == OVER:
            return IllegalAction("the hand is over", rule="hand_over", clause="S4 第二十条 (每局结束后)")
        if seat is not None and seat != self.turn:
            return IllegalAction(
                f"it is seat {self.turn}'s turn, not seat {seat}'s", rule="turn_order", clause="S4 第四条(五)"
            )
        s = self.turn
        if isinstance(action, (Play, Burn)):
            return self._set_refusal(s, mode, action)
        if isinstance(action, Pass):
            if mode in (FOLLOW, BURN):
                return None
            return self._kind_refusal(mode, action)
        if isinstance(action, Yield):
            if mode != FOLLOW:
                return self._kind_refusal(mode, action)
            problem = self.rules.yield_problem(self, s)
            return self.rules.yield_refusal(problem) if problem else None
        if isinstance(action, Jiefeng):
            if mode != FOLLOW:
                return self._kind_refusal(mode, action)
            problem = self.rules.jiefeng_problem(self, s)
            return self.rules.jiefeng_refusal(problem) if problem else None
        if isinstance(action, Kou):
            return None if mode == KOU_MODE else self._kind_refusal(mode, action)
        if isinstance(action, Consent):
            return None if mode == CONSENT else self._kind_refusal(mode, action)
        return self._kind_refusal(mode, action)

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Make the decision of the seat to act.  Illegal actions raise and change nothing."""
        if isinstance(action, Forfeit):
            self.forfeit(seat, action.reason)
            return
        self.verify(action, seat)
        s = self.turn
        self.actions.append((s, action))
        self.decisions += 1
        self._legal = None
        if isinstance(action, Pass):
            self._do_pass(s)
        elif isinstance(action, Play):
            self._do_play(s, action.cards, burn=False)
        elif isinstance(action, Burn):
            self._do_play(s, action.cards, burn=True)
        elif isinstance(action, Yield):
            self.yielded[s] = True
            if self.rules.yield_lapses:
                self.yield_open[s] = True
            self.events.append(Event("yield", s, other=self.owner))
            self.queue.append((s, FOLLOW))
            self._advance()
        elif isinstance(action, Kou):
            self._do_kou(s)
        elif isinstance(action, Jiefeng):
            self._request_jiefeng(s)
        elif isinstance(action, Consent):
            self._consent(s, action.agree)

    # -- 错牌不出 (S4 第四条(一)) -------------------------------------------------------------

    def verify_forfeit(self, seat: int | None = None) -> None:
        """Raise IllegalAction unless the seat to act may lose its turn to a wrong play now."""
        if self.mode == OVER:
            raise IllegalAction("the hand is over", rule="hand_over")
        if seat is not None and seat != self.turn:
            raise IllegalAction(
                f"it is seat {self.turn}'s turn, not seat {seat}'s", rule="turn_order", clause="S4 第四条(五)"
            )
        verify_wrong_play(self.rules)

    def forfeit(self, seat: int | None = None, reason: str = "") -> None:
        """错牌不出: the seat to act loses its turn (「其顺牌权自动取消，由其下家行使顺牌权」).

        Facing a set it counts as a 过牌 for this round; a burn offer is declined; asked to lead,
        the next active seat leads a new round; 扣牌 (the only choice) is made; a 接风 request is
        agreed to.  Event ``wrong_play``; the action list records ``wrong_play``, so a record replays it.
        """
        self.verify_forfeit(seat)
        s, mode = self.turn, self.mode
        self.actions.append((s, Forfeit(reason)))
        self.wrong_plays.append((s, reason))
        self.decisions += 1
        self._legal = None
        if mode != BURN:  # a lost burn offer is a silent decline (see _do_pass)
            self.events.append(Event("wrong_play", s, value=mode + 1))
        if mode == FOLLOW:
            self.passed[s] = True
            self._advance()
        elif mode == BURN:
            self._advance()
        elif mode == LEAD:
            self._start_round(self._next_active(s))
        elif mode == KOU_MODE:
            self._do_kou(s)
        elif mode == CONSENT:
            self._consent(s, True)

    # -- the moves -------------------------------------------------------------------------

    def _do_pass(self, s: int) -> None:
        if self.mode == FOLLOW:
            self.passed[s] = True
            self.events.append(PASS_EVENTS[s])
        # declining a burn is not a pass of the round, and no event: only seats that can burn are
        # asked, so a public "declined" would tell the table what the seat holds (S0: 每个人看每个人
        # 自己的牌); the action list keeps it for replay
        self._advance()

    def _do_kou(self, s: int) -> None:
        """扣牌: the dead set is let stand and the round ends."""
        self.events.append(Event("kou", s, self.table, self.owner))
        self._end_round()

    def _do_play(self, s: int, cs: CardSet, *, burn: bool) -> None:
        prev_owner, lead = self.owner, self.table is None
        rules = self.rules
        h = self.hands[s]
        rank, count, twos, sj, bj, top = cs
        h[rank] -= count
        if twos:
            h[TWO] -= twos
        if sj:
            h[SJ] -= sj
        if bj:
            h[BJ] -= bj
        if top:
            h[TOP] -= top
        if self.requester == -2:
            self.requester = -1  # a refused 接风 blocks only the set it was asked on
        ev = self.events
        if burn:
            if prev_owner == self.burning:
                ev.append(Event("counter_burn", s, cs, prev_owner))
            else:
                ev.append(Event("burn", s, cs, prev_owner))
            self.burning, self.burn_victim = s, prev_owner
        else:
            ev.append(play_event(s, cs))
            if not lead and prev_owner == self.burning and rules.break_burn:
                ev.append(Event("break_burn", s, cs, prev_owner))
                self.burning = -1
        if rules.yield_lapses:
            self._lapse_yields(s)
        if lead:
            self._point_on_lead(s, cs)
        elif cs.rank == FOUR and self.point[s] == POINT_NONE and rules.open_point:
            self.point[s] = POINT_CLOSED
            ev.append(Event("point_closed", s))
        elif cs.rank == FOUR and self.point[s] == POINT_PENDING and rules.four_any_time:
            # S4 第八条 开点方可发4: 4s played as an answer also open a seat whose pure set stood
            self.point[s] = POINT_OPEN
            ev.append(Event("open_point", s, cs))
        self.table, self.owner = cs, s
        # a 闷 and the beater going out happen in the same play: settle both before the hand may end
        self._defer_end = True
        if not lead and self.men_watch[prev_owner]:
            self._men(prev_owner, s)
        self._follow.clear()
        left = sum(h)
        if left == 0:
            self._go_out(s)
        elif rules.men and left == h[THREE]:
            self.men_watch[s] = True
        self._defer_end = False
        if self.mode != OVER and sum(self.active) <= 1:
            self._end_hand()
        if self.mode == OVER:
            return
        self.queue = self._response_queue(s, cs)
        self._advance()

    def _lapse_yields(self, s: int) -> None:
        """``play.yield_lapses`` (RLG: 任何人出新牌后，所有让牌的玩家自动变为过牌): seat ``s`` played, so every
        让牌 still waiting for its yielder's decision becomes a pass of the round (event ``pass``,
        ``other`` = the seat whose play made it one)."""
        waiting = self.yield_open
        waiting[s] = False
        for p in range(6):
            if waiting[p]:
                waiting[p] = False
                if not self.passed[p]:
                    self.passed[p] = True
                    self.events.append(Event("pass", p, other=s))

    def _point_on_lead(self, s: int, cs: CardSet) -> None:
        """开点 (S0 四、开点, S4 第八条): a 4 led right after one's pure 够级 set stood."""
        if not self.rules.open_point:
            return
        p = self.point[s]
        if cs.rank == FOUR:
            if p == POINT_PENDING:
                self.point[s] = POINT_OPEN
                self.events.append(Event("open_point", s, cs))
            elif p == POINT_NONE:
                if self.rules.natural_point and self._may_open_now() and not self._has_pure(s, cs):
                    self.point[s] = POINT_OPEN
                    self.events.append(Event("natural_point", s, cs))
                else:
                    self.point[s] = POINT_CLOSED
                    self.events.append(Event("point_closed", s))
        elif p == POINT_PENDING and not self.rules.four_any_time:
            self.point[s] = POINT_NONE  # S0 四、开点: 下一张打出4则为开点 (open_point.four_when)

    def _has_pure(self, s: int, led: CardSet) -> bool:
        """Could seat ``s`` (before leading ``led``) form a pure 够级 set?"""
        h = list(self.hands[s])
        h[led.rank] += led.count
        return self.rules.pure_sets(h) > 0

    def _may_open_now(self) -> bool:
        return self.rules.may_open_now(len(self.finish), self.trick_out)

    def _men(self, victim: int, by: int) -> None:
        """闷 / 清 (S0 六、闷与被闷, S4 第十五条): the set before one's final 3s was beaten."""
        self.men_watch[victim] = False
        self.men_seats.append((victim, by))
        self.events.append(Event("men", victim, other=by))
        rules = self.rules
        if rules.men_show_hand and self.active[victim]:
            self.shown.add(victim)  # 应当时亮牌
        severity = rules.men_bottom_severity()
        if severity is None or not self.active[victim]:
            return
        if rules.men_ranks_last:
            self._remove(victim, severity)
        elif victim not in self.fallen:
            # 先清为落 (S4 第十五条): placed from the bottom now; he plays on, but going out will not lift him
            self.fallen.add(victim)
            self.bottom.append((severity, len(self.bottom), victim))

    def _go_out(self, s: int) -> None:
        if s in self.fallen:
            # 即使后来接风走脱，也算 (S4 第十五条): his place stays at the bottom; he takes no 科
            self.active[s] = False
            self.men_watch[s] = False
            self._left_play(s, True, False)
            return
        self.active[s] = False
        self.finish.append(s)
        self.men_watch[s] = False
        place = len(self.finish)
        self.events.append(Event("finish", s, value=place))
        if self.burning == s:
            self.burns.append((s, self.burn_victim))
            self.events.append(Event("burn_success", s, other=self.burn_victim))
            self.burning = -1
        rules = self.rules
        if rules.dadian and place == 1:
            # 打点 (S4 第二十二条(一) 其够级牌一次未活): a seat whose pure set stood (pending) has not “never lived”
            for x in (s, opposite(s)):
                if self.point[x] == POINT_NONE and not self.lived[x]:
                    self.point[x] = POINT_CLOSED
                    self.events.append(Event("point_closed", x))
        self._left_play(s, True, self.finish[0] == s)
        if self.mode == OVER:
            return
        if not self.ffa and not self.ffa_pending and rules.ffa_starts(place):
            if rules.ffa_immediately:
                self._start_ffa()
            else:
                self.ffa_pending = True

    def _remove(self, s: int, severity: int) -> None:
        """Take a player out of play, placed from the bottom (闷 in S0, a failed burn)."""
        self.active[s] = False
        self.men_watch[s] = False
        self.bottom.append((severity, len(self.bottom), s))
        if self.burning == s:
            self.burning = -1
        self._left_play(s, False, False)

    def _leave_silently(self, s: int) -> None:
        self.active[s] = False
        self.finish.append(s)

    def _left_play(self, s: int, went_out: bool, first: bool) -> None:
        """Seat ``s`` left play: by going out (``first``: as 头科), or removed (闷, a failed burn)."""
        o = opposite(s)
        if self.active[o] and not self.no_head[o] and self.rules.makes_no_head(went_out, first):
            self.no_head[o] = True
            self.events.append(Event("no_head", o, other=s))
        if sum(self.active) <= 1 and not self._defer_end:
            self._end_hand()

    def _start_ffa(self) -> None:
        self.ffa = True
        self.ffa_pending = False
        self.burning = -1
        self.events.append(Event("free_for_all", value=len(self.finish)))

    # -- who acts next ----------------------------------------------------------------------

    def _locked(self, p: int, owner: int) -> bool:
        if not self.passed[p]:
            return False
        return not self.rules.may_reenter(p, owner, self.ffa)

    def _response_queue(self, owner: int, cs: CardSet) -> list[tuple[int, Mode]]:
        rules = self.rules
        active = self.active
        opp = opposite(owner)
        if rules.beat.dead(cs):
            if rules.kou and active[opp]:
                return [(opp, KOU_MODE)]
            return []
        if not self.bound(owner, cs):  # the common case, once a play: _locked inlined
            passed, ffa = self.passed, self.ffa
            out = []
            for k in range(1, 6):
                p = (owner + k) % 6
                if active[p] and not (passed[p] and not rules.may_reenter(p, owner, ffa)):
                    out.append(FOLLOWS[p])
            return out
        order = [(owner + k) % 6 for k in range(1, 6)]
        queue = [(p, BURN) for p in self._burners(owner, cs)]
        no_head = self.no_head
        for p in order:
            if not active[p] or self._locked(p, owner):
                continue
            if rules.may_answer(p == opp, same_side(p, owner), no_head[p], False, False):
                queue.append((p, FOLLOW))
        return queue

    def _burners(self, owner: int, cs: CardSet) -> list[int]:
        """Who may burn (烧牌) ``owner``'s 够级 set, in priority order (S4 第六条, S0 五、烧牌)."""
        rules = self.rules
        if not rules.burn:
            return []
        out = []
        for p in rules.burn_order(owner):
            if not self.active[p] or self.no_head[p]:
                continue
            if not rules.can_burn(
                p,
                owner,
                opened=self.point[p] == POINT_OPEN,
                passed=self.passed[p],
                burning=self.burning,
                burn_victim=self.burn_victim,
            ):
                continue
            if self._followers(p):
                out.append(p)
        return out

    def _advance(self) -> None:
        if self.mode == OVER:
            return
        if self.queue:
            self.turn, self.mode = self.queue.pop(0)
            self._legal = None
        else:
            self._end_round()

    def _end_round(self) -> None:
        """Nobody beats the table set: its owner wins the round."""
        owner, cs = self.owner, self.table
        self.men_watch[owner] = False
        if (
            cs is not None
            and self.rules.open_point
            and self.point[owner] == POINT_NONE
            and self.rules.is_pure_gouji(cs)
            and self._may_open_now()
        ):
            # 开点 (S0 四、开点): the pure 够级 set stood; the owner's next lead decides
            self.point[owner] = POINT_PENDING
        if cs is not None and self.rules.dadian_any_gouji and self.rules.is_gouji(cs):
            self.lived[owner] = True
        if cs is not None and self.head_rights.get(owner, 0) > 0 and self.bound(owner, cs):
            self._use_head_right(owner)
        if self.active[owner]:
            self._start_round(owner)
            return
        nxt = self.rules.jiefeng_leader(owner, self.active)
        if nxt is None:
            nxt = self._next_active(owner)
        else:
            self.events.append(Event("jiefeng", nxt, other=owner))
        self._start_round(nxt)

    def _use_head_right(self, s: int) -> None:
        """革命's opposite (S4 第二十一条): one of his 三次够死级 has stood."""
        left = self.head_rights[s] - 1
        self.head_rights[s] = left
        if left > 0:
            return
        if (
            s in self.setup.open_by_rights
            and self.active[s]
            and self.point[s] in (POINT_NONE, POINT_PENDING)
            and self._may_open_now()
        ):
            self.point[s] = POINT_OPEN
            self.events.append(Event("open_point", s))
        if self.rules.no_head and self.active[s] and not self.no_head[s]:
            self.no_head[s] = True
            self.events.append(Event("no_head", s, other=opposite(s)))

    def _next_active(self, s: int) -> int:
        for k in range(1, 7):
            p = (s + k) % 6
            if self.active[p]:
                return p
        return s

    def _start_round(self, leader: int) -> None:
        if self.mode == OVER:
            return
        if self.ffa_pending:
            self._start_ffa()
        self.table, self.owner = None, -1
        self.passed = [False] * 6
        self.yielded = [False] * 6
        if self.rules.yield_lapses:
            self.yield_open = [False] * 6
        self.queue = []
        self.requester = -1
        self._follow.clear()
        self.trick_out = len(self.finish)
        if self.rules.point_deadline_passed(self.trick_out):
            # no 开点 once the deadline has passed (S4 第八条: 头科二科出来后不可开点)
            for s in range(6):
                if self.active[s] and self.point[s] == POINT_NONE:
                    self.point[s] = POINT_CLOSED
                    self.events.append(Event("point_closed", s))
        if not self.active[leader]:
            leader = self._next_active(leader)
        if self.burning == leader and not self.rules.burner_can_lead(self.hands[leader]):
            # 诈烧 / 烧牌失败 (S0 五、烧牌, S4 第六条): no joker left to attach
            self.events.append(Event("burn_fail", leader, other=self.burn_victim))
            self._remove(leader, self.rules.burn_fail_severity)
            if self.is_over:  # (not self.mode: mypy would keep it narrowed from the check above)
                return
            leader = self._next_active(leader)
        self.turn, self.mode = leader, LEAD
        self._legal = None

    # -- 接风 by request (S4) -------------------------------------------------------------

    def _request_jiefeng(self, s: int) -> None:
        self.requester = s
        self.saved_queue = list(self.queue)
        self.events.append(Event("jiefeng_request", s, other=self.owner))
        self.queue = [((s + k) % 6, CONSENT) for k in range(1, 6) if self.active[(s + k) % 6]]
        self._advance_consent()

    def _advance_consent(self) -> None:
        if self.queue:
            self.turn, self.mode = self.queue.pop(0)
            self._legal = None
            return
        s = self.requester
        self.events.append(Event("jiefeng", s, other=self.owner))
        self.men_watch[self.owner] = False
        self._start_round(s)

    def _consent(self, s: int, agree: bool) -> None:
        self.events.append(Event("consent", s, value=1 if agree else 0))
        if agree:
            self._advance_consent()
            return
        s0 = self.requester
        self.requester = -2  # refused: no second request on this set
        self.queue = self.saved_queue
        self.turn, self.mode = s0, FOLLOW
        self._legal = None

    # -- end of hand --------------------------------------------------------------------------

    def _end_hand(self) -> None:
        fixed = dict(self.setup.placed)
        bottom = [s for _, _, s in sorted(self.bottom, key=lambda b: (b[0], -b[1]))]
        order = [s for s in self.finish if s not in fixed]
        order += [s for s in range(6) if self.active[s] and s not in order and s not in fixed and s not in bottom]
        order += [s for s in range(6) if s not in order and s not in fixed and s not in bottom]
        order += bottom
        free = [p for p in range(1, 7) if p not in fixed.values()]
        for s, p in zip(order, free, strict=False):
            self.places[s] = p
        for s, p in fixed.items():
            self.places[s] = p
        self._geming_places()
        for s in range(6):
            self.active[s] = False
        self.mode = OVER
        self.turn = -1
        self.queue = []
        self._legal = Legal()
        team = sweep_of(self.places)
        if team is not None:
            self.events.append(Event("sweep", value=team + 1))
        self.events.append(Event("hand_end"))

    def _geming_places(self) -> None:
        """S4 第二十一条: a 革命 player whose two teammates took 头科 and 二科 is 三科 (a sweep)."""
        for s in self.setup.geming:
            place = self.rules.geming_place_at(s, self.places)
            if self.places[s] != place:
                other = self.places.index(place)
                self.places[other], self.places[s] = self.places[s], place

    def finish_order(self) -> list[int]:
        """Seats from first place to last."""
        return sorted(range(6), key=lambda s: self.places[s])

    def scores(self) -> tuple[int, int]:
        """Team scores of the finished hand (team 0: seats 0 2 4)."""
        return self.rules.team_scores(self.places)

    # -- refusals: what :meth:`refusal` says of a set and of a decision of the wrong kind ----

    def _set_refusal(self, s: int, mode: Mode, action: Play | Burn) -> IllegalAction | None:
        """Why seat ``s``, asked ``mode``, may not play or burn with the set of ``action``, or None."""
        cs, burn = action.cards, isinstance(action, Burn)
        rules = self.rules
        why = rules.set_refusal(cs, self.hands[s], s)
        if why is not None:
            return why
        if burn and mode == LEAD:
            return IllegalAction(
                "a burn beats a 够级 set; nothing is on the table", rule="burn_when", clause="S4 第六条"
            )
        if self.burning == s and rules.burner_needs_joker(cs):
            return IllegalAction(
                "a burner must attach a joker to every set but the last 3s",
                rule="burn_joker",
                clause="S4 第六条, S0 五、烧牌",
            )
        if burn and mode == FOLLOW:
            return IllegalAction(
                "you may answer this set directly; a burn is declared on a 够级 set that is not yours to answer",
                rule="burn_when",
                clause="S4 第六条",
            )
        if not burn and mode == BURN:
            return IllegalAction(
                "only the opposite may answer a 够级 set; others must declare a burn",
                rule="gouji_opposite_only",
                clause="S4 第五条",
            )
        table = self.table
        if table is not None and not rules.beat.beats(cs, table):
            return IllegalAction(
                f"{cs} does not beat {table} ({rules.beat.name})", rule="beat", clause="S4 第四条(六), S0 挂"
            )
        if mode in (KOU_MODE, CONSENT):
            return self._kind_refusal(mode, action)
        return None

    def _kind_refusal(self, mode: Mode, action: Action) -> IllegalAction:
        """The refusal of an action that is not among the kinds ``mode`` asks for, naming what it asks."""
        rule, asked, clause = KIND_REFUSALS[mode]
        if isinstance(action, Yield):
            rule, clause = "yield", "S4 第四条 让牌, S0 让牌"
        elif isinstance(action, Jiefeng):
            rule, clause = "jiefeng", "S4 第十三条"
        elif isinstance(action, Kou):
            rule, clause = "kou", "S4 第七条"
        elif isinstance(action, Consent):
            rule, clause = "consent", "S4 第十三条"
        elif isinstance(action, Forfeit):
            return IllegalAction(
                "a lost turn (错牌不出) is never chosen: Hand.forfeit makes it",
                rule="wrong_play",
                clause="S4 第四条(一)",
            )
        elif not isinstance(action, (Play, Burn, Pass)):
            # a choice between hands (a declaration, buying, 革命 …) or not an action: named by its class
            what = type(action).__name__
            return IllegalAction(
                f"{what} is not a decision in play; this {MODE_NAMES[mode]} decision asks: {asked}",
                rule="decision_kind",
                clause=clause,
            )
        return IllegalAction(f"{action} is not a {MODE_NAMES[mode]} decision: {asked}", rule=rule, clause=clause)

    # -- records ------------------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The hand as a JSON-ready record (see docs/records.md)."""
        return {
            "variant": self.rules.name,
            "variant_hash": self.rules.fingerprint,
            "seed": self.seed,
            "leader": self.events[0].seat,
            "deal": [format_hand(h) for h in self.initial],
            "actions": [f"{s}:{a}" for s, a in self.actions],
            "events": [e.to_json() for e in self.events],
            "finish": self.finish_order(),
            "places": list(self.places),
            "opened": [POINT_NAMES[p] for p in self.point],
            "scores": list(self.scores()),
            "end": [format_hand(h) for h in self.hands],
            "setup": {
                "placed": {str(k): v for k, v in self.setup.placed.items()},
                "geming": sorted(self.setup.geming),
                "opened": sorted(self.setup.opened),
                "closed": sorted(self.setup.closed),
                "no_head": sorted(self.setup.no_head),
                "head_rights": {str(k): v for k, v in self.setup.head_rights.items()},
                "open_by_rights": sorted(self.setup.open_by_rights),
                "huiwu_team": self.setup.huiwu_team,
            },
        }

    @classmethod
    def from_record(cls, variant: Rules | Variant, record: Mapping[str, Any]) -> Hand:
        """The hand as it stood before its first action, rebuilt from a hand record."""
        from ..game.cards import parse_hand

        st = record.get("setup") or {}
        setup = HandSetup(
            placed={int(k): int(v) for k, v in (st.get("placed") or {}).items()},
            geming=frozenset(st.get("geming") or ()),
            opened=frozenset(st.get("opened") or ()),
            closed=frozenset(st.get("closed") or ()),
            no_head=frozenset(st.get("no_head") or ()),
            head_rights={int(k): int(v) for k, v in (st.get("head_rights") or {}).items()},
            open_by_rights=frozenset(st.get("open_by_rights") or ()),
            huiwu_team=st.get("huiwu_team"),
        )
        hands = [list(parse_hand(h)) for h in record["deal"]]
        return cls(variant, hands, int(record["leader"]), seed=record.get("seed"), setup=setup)

    def replay(self, actions: Sequence[str]) -> None:
        """Apply ``seat:action`` strings in order; the first illegal one raises IllegalAction
        with ``index`` set to its position."""
        from ..game.actions import parse_action

        for i, text in enumerate(actions):
            seat_text, _, act = text.partition(":")
            try:
                self.apply(parse_action(act), int(seat_text))
            except IllegalAction as e:
                e.index = i
                raise


def _unpickle_hand(rules: Rules, state: dict[str, Any]) -> Hand:
    hand = Hand(rules, _BLANK, 0)
    for name, value in state.items():
        setattr(hand, name, value)
    return hand
