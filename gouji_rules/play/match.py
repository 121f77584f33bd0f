"""A match: hands in sequence, with everything that happens between them.

The phases around each hand are registered classes, one module each, in
:mod:`gouji_rules.phases` (yudian → deal → kang → xuandian → geming → buy → tribute →
buy_check → chongdian → mingdian → play → choose_last); each is on only where the variant has
it, so both texts' orders come out of one list.

Every choice (a declaration, buying a 4, 革命, 冲点 and its sets, 有头/无头, waiving a teammate's
tribute, the card handed back in 还贡 and its refusal) is a decision of the player who makes it,
through the same ``legal_actions`` / ``apply`` pair as play.  Choices a rational player never
declines (扛贡, paying the largest tribute card, buying the 3 one must have) are applied by the
rules.  Every rule question goes to :class:`~gouji_rules.rules.Rules`.

The flow is one generator that yields each decision and receives the chosen action, so the
order reads top to bottom.  A generator cannot be copied, so :meth:`Match.copy` rebuilds the
match and replays its decisions (cost: linear in the decisions so far; everything random comes
from the seed, so the replay is exact).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ..errors import GoujiError, IllegalAction, PositionError
from ..game.actions import PASS, Action, Forfeit
from ..game.cards import ACE, FOUR, NRANKS, SJ, TWO, CardSet, card, card_rank, card_suit, counts_of, format_hand
from ..game.events import Event
from ..game.legal import Legal
from ..game.rng import SplitMix64, check_seed, derive
from ..parts.registry import TRIBUTE_KINDS
from ..phases import Decision, DecisionKind, HandPrep, SetupDraft, phases_of
from ..rules import HEAD_FOREVER, Rules, as_rules
from ..rules.settlement import Debt, HandResult, Settlement, settle
from .engine import (
    Hand,
    HandSetup,
    Point,
    check_setup,
    check_start,
    counts_of_cards,
    deal_cards,
    verify_wrong_play,
)
from .observe import Observation, TableView, cards_left

if TYPE_CHECKING:
    from ..variant import Variant
    from .agents import Agent

MAX_REDEALS = 50


@dataclass
class HandSummary:
    """One finished hand of a match, small enough to keep for every hand."""

    index: int
    seed: int
    leader: int
    places: list[int]
    scores: tuple[int, int]
    sweep: int | None
    debts: list[Debt]
    record: dict[str, Any] = field(default_factory=dict)
    tribute_places: list[int] = field(default_factory=list)
    """the places after anyone renamed the last place (choose_last): what tribute and the next lead use"""


@dataclass
class Before:
    """What a match hand starts from, known only from the hand before it in the same match."""

    debts: list[Debt] = field(default_factory=list)
    last_places: list[int] | None = None
    last_sweep: int | None = None
    sweeps: int = 0
    """串三户 in a row (S4 第十四条(七))"""
    redeal: bool = False
    """the streak reached the variant's limit: the hand starts with a ``redeal`` event and owes nothing"""
    leader: int | None = None
    """the seat the hand before leaves the lead to; None: 开牌 (and 上班) choose it"""
    fresh: bool = True
    """the match's first hand: nobody has drawn for 开牌 yet"""


def after(
    rules: Rules, before: Before, places: list[int], debts: Sequence[Debt], sweep: int | None, next_leader: int
) -> Before:
    """What the next hand starts from, once the hand that started from ``before`` was settled: its
    ``places`` (as tribute uses them, after ``choose_last``), the ``debts`` it left, its 串三户
    (``sweep``) and who it leaves the lead to.  The match and ``gouji verify``'s replay of a record's
    events (records/preplay.py) both ask it."""
    sweeps, redeal = rules.sweep_streak(before.sweeps, sweep, before.last_sweep)
    leader = rules.carried_leader(next_leader, sweep)
    if redeal:
        debts, leader = [], None
    return Before(list(debts), places, sweep, sweeps, redeal, leader, fresh=False)


def deal_from(hands: Sequence[str | Sequence[int]]) -> list[list[int]]:
    """Dealt cards from six hands, each in notation (suits s h c d in turn within a rank) or as card ids."""
    out: list[list[int]] = []
    for h in hands:
        if isinstance(h, str):
            counts = counts_of(h)
            out.append([card(r, i % 4) for r in range(NRANKS) for i in range(counts[r])])
        else:
            out.append(list(h))
    return out


def hand_result(
    hand: Hand, declarations: Sequence[tuple[str, int]], geming: Iterable[int], places: Sequence[int]
) -> HandResult:
    """What :func:`settle` prices from a finished ``hand``: its 开点 states, burns and 闷s, with the
    match's declarations and 革命 seats, and ``places`` as the after-play phases left them (商定大落).

    The match settles each hand with it, and ``gouji verify`` recomputes a record's ``debts_next``
    with it, so the two cannot drift apart.
    """
    return HandResult(
        places=list(places),
        opened=[p == Point.OPEN for p in hand.point],
        burns=list(hand.burns),
        men=list(hand.men_seats),
        declarations=list(declarations),
        geming=sorted(geming),
    )


def dealer_rng(hseed: int) -> SplitMix64:
    """The draws of a hand's dealer (开牌, 上班 without a pair of 4s, the 大王 call), from the hand's seed."""
    return SplitMix64(derive(hseed, 77))


def setup_of(rules: Rules, prep: HandPrep) -> HandSetup:
    """The setup play starts from, as the phases before play left it; under 会五 the team that lost
    the last hand's 串三户 (``prep.last_sweep``) takes the 五s."""
    huiwu = prep.last_sweep if (rules.huiwu and prep.last_sweep is not None) else None
    return prep.setup.freeze(None if huiwu is None else 1 - huiwu)


def before_first(
    rules: Rules, leader: int | None, debts: Sequence[Debt] | None, last_places: Sequence[int] | None
) -> Before:
    """What a match's first hand starts from.  With ``last_places`` (each seat's place in a hand played
    before the match, after any 商定大落) it starts as that hand's next hand: the 冲点 tie rule reads them
    (S0 十、冲点 「按照上一局名次」), the last place leads (S0 opening 「下一局游戏拉客先摸牌出牌」, S4 第二条(三)),
    a 串三户 counts toward the streak and reopens the lead, and, unless ``debts`` are given, the tribute
    those places alone decide is owed (落贡 / 拉贡, 串三户's; 点贡, 烧贡 and 闷贡 need the facts, so give
    them as ``debts``).  ``leader`` still overrides who leads."""
    if last_places is None:
        return Before(list(debts or ()), leader=leader)
    places = list(last_places)
    s = settle(rules, HandResult(places=places, opened=[True] * 6))  # every seat opened: no 点贡 without facts
    start = after(rules, Before(), places, s.debts if debts is None else list(debts), s.sweep, s.next_leader)
    if leader is not None:
        start.leader = leader
    return start


def _verify_seat(d: Decision, seat: int | None) -> None:
    """Raise IllegalAction unless ``seat`` (if named) is the one ``d`` asks (a decision between hands)."""
    if seat is not None and seat != d.seat:
        raise IllegalAction(f"it is seat {d.seat}'s decision, not seat {seat}'s", rule="turn_order")


def check_match_start(
    rules: Rules,
    deal: Sequence[str | Sequence[int]] | None,
    leader: int | None,
    debts: Sequence[Debt],
    setup: HandSetup | None,
    last_places: Sequence[int] | None = None,
) -> None:
    """Raise PositionError unless a match could start from this deal, leader, debts, setup and last places."""
    if leader is not None and not 0 <= leader < 6:
        raise PositionError(f"the leader must be a seat 0-5, not {leader}")
    if last_places is not None and sorted(last_places) != [1, 2, 3, 4, 5, 6]:
        raise PositionError(f"last_places gives each of the six seats its place 1-6, once; got {list(last_places)}")
    if deal is not None:
        cards = deal_from(deal)
        if any(not 0 <= c < NRANKS * 4 for h in cards for c in h):
            raise PositionError("a dealt card id is outside the deck's ranks and suits")
        check_start(rules, [counts_of_cards(h) for h in cards], leader or 0, setup, dealt=True)
    elif setup is not None:
        check_setup(setup)
    for d in debts:
        if not (0 <= d.giver < 6 and 0 <= d.receiver < 6) or d.giver == d.receiver or d.count < 0:
            raise PositionError(f"{d}: a debt is owed by one seat 0-5 to another, a count of 0 or more")
        if d.kind not in TRIBUTE_KINDS:
            raise PositionError(f"{d}: unknown tribute kind {d.kind!r} (known: {', '.join(TRIBUTE_KINDS)})")


class Match:
    """Hands in sequence under one variant, from the first deal to the last score.

    A match may start from a chosen position: ``deal`` (the first hand's six hands, in notation
    or as card ids, see docs/notation.md), ``leader`` (who leads it: no 开牌 or 上班), ``debts``
    (tribute owed from an earlier hand), ``setup`` (what the first hand's phases start from: placed
    seats, head rights …) and ``last_places`` (the places of the hand before it: see
    :func:`before_first`).

    >>> from gouji_rules.catalog import dagang
    >>> m = Match(dagang(), seed=3, hands=1)
    >>> m.phase in ("yudian", "mingdian", "play", "buy4", "geming")
    True
    >>> m.copy().legal_actions() == m.legal_actions() or True
    True
    """

    def __init__(
        self,
        variant: Rules | Variant,
        seed: int,
        hands: int | None = None,
        rotate: int = 0,
        *,
        deal: Sequence[str | Sequence[int]] | None = None,
        leader: int | None = None,
        debts: Sequence[Debt] | None = None,
        setup: HandSetup | None = None,
        last_places: Sequence[int] | None = None,
    ) -> None:
        self.rules: Rules = as_rules(variant)
        check_match_start(self.rules, deal, leader, debts or (), setup, last_places)
        self.seed = check_seed(seed)
        self.rotate = rotate
        self.n_hands = hands if hands is not None else self.rules.match_hands
        self._start = (deal_from(deal) if deal is not None else None, leader, debts, setup)
        self._last_places = None if last_places is None else list(last_places)
        self.scores = [0, 0]
        self.summaries: list[HandSummary] = []
        self.events: list[Event] = []  # events of the phases of the current hand
        self.all_events: list[Event] = []  # phase events of every hand, for statistics
        self._table = TableView(self.rules)  # each seat's events of the current hand (Match.observation)
        self.hand: Hand | None = None
        self.hand_number = 0
        """how many hands have been started (a Hand object's id may be reused once it is freed)"""
        self.hands_now: list[list[int]] = [[0] * NRANKS for _ in range(6)]
        self.kept: list[list[int]] = [[0] * NRANKS for _ in range(6)]
        self.discards: list[int] = [0] * NRANKS
        self.decisions = 0
        self.log: list[tuple[int, Action]] = []
        """every decision applied, in order (``copy`` replays it)"""
        self._carry: list[Event] = []  # events to show at the start of the next hand
        self._opener = -1  # the first 开牌人 (S4 第二条)
        self._rng = SplitMix64(seed)
        self.phase = DecisionKind.START
        self._decision: Decision | None = None
        self._gen = self._run()
        self._step(None)

    @property
    def variant(self) -> Variant:
        """The Variant the rules were compiled from (for display and records)."""
        return cast("Variant", self.rules.variant)  # Rules names it by a Protocol: it sits below the Variant

    # -- the decision interface ---------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Has the last hand been settled?"""
        return self._decision is None

    @property
    def turn(self) -> int:
        """The seat to decide (-1 when the match is over)."""
        return self._decision.seat if self._decision else -1

    def legal_actions(self) -> Legal:
        """The legal actions of the decision now asked (play or a phase)."""
        if self._decision is None:
            return Legal()
        if self._decision.kind == DecisionKind.PLAY:
            assert self.hand is not None
            return self.hand.legal_actions()
        return self._decision.legal

    def verify(self, action: Action, seat: int | None = None) -> None:
        """Raise IllegalAction (naming the rule) unless ``action`` is legal now."""
        d = self._decision
        if d is None:
            raise IllegalAction("the match is over", rule="match_over")
        if d.kind == DecisionKind.PLAY:
            assert self.hand is not None
            self.hand.verify(action, seat)
            return
        _verify_seat(d, seat)
        if action not in d.legal:
            raise IllegalAction(f"{action} is not a choice in the {d.kind} phase now", rule=d.kind)

    def can_apply(self, action: Action, seat: int | None = None) -> bool:
        """:meth:`verify` as a yes or no."""
        try:
            self.verify(action, seat)
        except IllegalAction:
            return False
        return True

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Make the decision now asked; an illegal action raises and changes nothing."""
        if isinstance(action, Forfeit):
            self.forfeit(seat, action.reason)
            return
        self.verify(action, seat)
        self.log.append((self.turn, action))
        self.decisions += 1
        self._step(action)

    def forfeit(self, seat: int | None = None, reason: str = "") -> None:
        """错牌不出 (S4 第四条(一), ``play.wrong_play: lose_turn``): the seat to decide loses its turn.

        In play see ``Hand.forfeit``.  Between hands the default choice is taken (PASS where it is
        offered, else the first choice listed) and the event ``wrong_play`` is emitted.  Under
        ``refuse`` this raises IllegalAction naming the rule, and nothing changes.
        """
        d = self._decision
        if d is None:
            raise IllegalAction("the match is over", rule="match_over")
        if d.kind == DecisionKind.PLAY:
            assert self.hand is not None
            self.hand.verify_forfeit(seat)
            lost = Forfeit(reason)
            self.log.append((d.seat, lost))
            self.decisions += 1
            self._step(lost)
            return
        _verify_seat(d, seat)
        verify_wrong_play(self.rules)
        legal = d.legal
        default = PASS if PASS in legal else legal[0]
        self.event(Event("wrong_play", d.seat))
        self.log.append((d.seat, Forfeit(reason)))
        self.decisions += 1
        self._step(default)

    def copy(self) -> Match:
        """An independent copy, rebuilt by replaying this match's decisions (linear in them)."""
        return _replayed(*self._replay())

    def _replay(self) -> tuple[Any, ...]:
        deal, leader, debts, setup = self._start
        return (
            self.rules,
            self.seed,
            self.n_hands,
            self.rotate,
            deal,
            leader,
            debts,
            setup,
            self.log,
            self._last_places,
        )

    def __copy__(self) -> Match:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        return self.copy()

    def __reduce__(self) -> tuple[Callable[..., Match], tuple[Any, ...]]:
        """Pickled as its start and its decisions (its phases run in a generator, which cannot
        be pickled); loading replays them, as :meth:`copy` does."""
        return (_replayed, self._replay())

    def observation(self, seat: int | None = None) -> Observation:
        """What a seat may see now (during play, the hand's observation); its events are the table's
        since the hand began, as the seat saw them (:class:`~gouji_rules.play.observe.TableView`)."""
        d = self._decision
        if d is not None and d.kind == DecisionKind.PLAY and self.hand is not None:
            s = d.seat if seat is None else seat
            return self.hand.observation_of(s, self._table.events(s, self.events, self.hand.events))
        s = d.seat if (d is not None and seat is None) else (seat or 0)
        played = self.hand.events if (self._table.play_at >= 0 and self.hand is not None) else ()
        events = self._table.events(s, self.events, played)
        hand = self.hands_now[s]
        nobody = [False] * 6
        return Observation(
            seat=s,
            mode=d.kind if d else DecisionKind.OVER,
            hand=tuple(hand),
            table=d.table if d else None,
            table_owner=-1,
            cards_left=cards_left(self.rules, s, [sum(h) for h in self.hands_now], nobody, False),
            active=tuple(True for _ in range(6)),
            finish=(),
            point=tuple("none" for _ in range(6)),
            no_head=tuple(False for _ in range(6)),
            burning=-1,
            free_for_all=False,
            events=events,
            rules=self.rules,
        )

    def _step(self, action: Action | None) -> None:
        try:
            self._decision = self._gen.send(action) if action is not None else next(self._gen)
        except StopIteration:
            self._decision = None
        self.phase = self._decision.kind if self._decision is not None else DecisionKind.OVER

    # -- what the phases use --------------------------------------------------------------

    def ask(
        self,
        seat: int,
        kind: DecisionKind,
        options: Sequence[Action],
        table: CardSet | None = None,
        subject: Any = None,
    ) -> Decision:
        """A decision among ``options`` (``kind`` becomes ``Match.phase``), about ``subject`` where a seat
        can be asked it about several things (which debt)."""
        return Decision(seat, kind, Legal(extras=tuple(options)), table, subject)

    def ask_sets(self, seat: int, kind: DecisionKind, legal: Legal, table: CardSet | None = None) -> Decision:
        """A decision among sets (冲点)."""
        return Decision(seat, kind, legal, table)

    def event(self, e: Event) -> None:
        """Record a phase event (this hand's and the whole match's)."""
        self.events.append(e)
        self.all_events.append(e)

    def discard(self, s: int) -> None:
        """Seat ``s`` leaves the hand: its cards go out of play (革命, 冲点)."""
        h = self.hands_now[s]
        for r in range(NRANKS):
            self.discards[r] += h[r]
            h[r] = 0

    def move(self, giver: int, receiver: int, r: int, kept: bool = True) -> None:
        """One card of rank ``r`` changes hands (``kept``: the receiver may not pay it on, 吃了不吐)."""
        self.hands_now[giver][r] -= 1
        self.hands_now[receiver][r] += 1
        if self.kept[giver][r] > self.hands_now[giver][r]:
            self.kept[giver][r] = self.hands_now[giver][r]
        if kept:
            self.kept[receiver][r] += 1

    def take(self, s: int, cs: CardSet) -> None:
        """A set seat ``s`` puts down before play (冲点) leaves the game."""
        for r, n in cs.card_counts().items():
            self.hands_now[s][r] -= n
            self.discards[r] += n

    def random_card(self, s: int) -> int:
        """The rank of one card of seat ``s`` drawn unseen (each card equally likely)."""
        h = self.hands_now[s]
        pick = self._rng.below(sum(h))
        for r in range(NRANKS):
            pick -= h[r]
            if pick < 0:
                return r
        return NRANKS - 1

    def free(self, s: int, r: int) -> bool:
        """Does seat ``s`` hold a card of rank ``r`` it did not just receive (吃了不吐)?"""
        return self.hands_now[s][r] - self.kept[s][r] > 0

    # -- the match ------------------------------------------------------------------------

    def _run(self) -> Generator[Decision, Action, None]:
        rules = self.rules
        deal, leader, debts, setup = self._start
        start = before_first(rules, leader, debts, self._last_places)
        for index in range(self.n_hands):
            attempt = 0
            while True:
                hseed = derive(self.seed, index, attempt)
                if attempt == 0:
                    self.events = list(self._carry)
                    self._carry = []
                    self._table = TableView(rules)
                chosen = deal if index == 0 and attempt == 0 else None
                outcome = yield from self._hand(index, hseed, start, chosen, setup if index == 0 else None)
                if outcome is not None:
                    break
                attempt += 1
                if attempt >= MAX_REDEALS:
                    raise GoujiError(f"hand {index} was redealt {attempt} times (革命 or 冲点 void every deal)")
            summary, settlement = outcome
            self.summaries.append(summary)
            self.scores[0] += settlement.scores[0]
            self.scores[1] += settlement.scores[1]
            places = summary.tribute_places
            start = after(rules, start, places, settlement.debts, settlement.sweep, settlement.next_leader)
            if start.redeal:
                e = Event("redeal", value=3)
                self.all_events.append(e)
                self._carry.append(e)
            target = rules.match_target
            if target is not None and max(self.scores) >= target:
                break

    def _hand(
        self,
        index: int,
        hseed: int,
        start: Before,
        chosen: list[list[int]] | None,
        setup: HandSetup | None,
    ) -> Generator[Decision, Action, tuple[HandSummary, Settlement] | None]:
        rules = self.rules
        leader = start.leader
        rng = dealer_rng(hseed)
        self.kept = [[0] * NRANKS for _ in range(6)]
        self.discards = [0] * NRANKS
        first = leader if leader is not None else self._kaipai(rng)
        self._rng = rng
        prep = HandPrep(
            index=index,
            seed=hseed,
            first=first,
            carried_leader=leader is not None,
            debts=list(start.debts),
            setup=SetupDraft.from_setup(setup),
            last_places=start.last_places,
            last_sweep=start.last_sweep,
        )
        for phase in phases_of(rules, "before_deal"):
            if not (yield from phase.run(self, prep)):
                return None
        if chosen is not None:
            cards = [list(c) for c in chosen]
        else:
            # a leader carried from the last hand is a real seat already: rotate only the cards
            drawer = (first - self.rotate) % 6 if leader is not None else first
            cards, first = deal_cards(rules, hseed, drawer, self.rotate)
        self.hands_now = [counts_of_cards(c) for c in cards]
        dealt = [format_hand(h) for h in self.hands_now]
        lead = first if leader is not None else self._shangban(cards, first, rng)
        if not (yield from self.before_play(prep, lead)):
            return None
        hs = setup_of(rules, prep)
        lead = prep.lead  # a phase before play may have changed who leads
        hand = Hand(rules, [list(h) for h in self.hands_now], lead, seed=hseed, setup=hs)
        self.hand = hand
        self._table.play_at = len(self.events)
        self.hand_number += 1
        while not hand.is_over:
            a = yield Decision(hand.turn, DecisionKind.PLAY, Legal())
            hand.apply(a)
        result, settlement = yield from self.after_play(hand, prep)
        record = hand.record()
        record["dealt"] = dealt
        record["pre_play"] = [e.to_json() for e in self.events]
        record["discards"] = format_hand(self.discards)
        record["debts_next"] = [d.__dict__ for d in settlement.debts]
        summary = HandSummary(
            index=index,
            seed=hseed,
            leader=lead,
            places=list(hand.places),
            scores=settlement.scores,
            sweep=settlement.sweep,
            debts=settlement.debts,
            record=record,
            tribute_places=list(result.places),
        )
        return summary, settlement

    def before_play(self, prep: HandPrep, lead: int) -> Generator[Decision, Action, bool]:
        """The deal's event and the phases between it and the first lead (tribute, 革命, 冲点…);
        False when one voids the deal.  Play starts from what they leave in ``prep`` (``prep.lead``
        leads: ``lead`` unless a phase changed it, ``prep.setup``) and the match's cards.
        ``gouji verify`` runs it too (records/preplay.py)."""
        prep.lead = lead
        self.event(Event("deal", lead))
        for phase in phases_of(self.rules, "before_play"):
            if not (yield from phase.run(self, prep)):
                return False
        return True

    def after_play(self, hand: Hand, prep: HandPrep) -> Generator[Decision, Action, tuple[HandResult, Settlement]]:
        """The finished ``hand``'s after-play phases (商定大落), its settlement and its 串三户 event.

        ``gouji verify`` runs it too (records/preplay.py)."""
        prep.places = list(hand.places)
        for phase in phases_of(self.rules, "after_play"):
            yield from phase.run(self, prep)
        result = hand_result(hand, prep.declarations, hand.setup.geming, prep.places)
        settlement = settle(self.rules, result)
        if settlement.sweep is not None:
            self.event(Event("sweep", value=settlement.sweep + 1))
        return result, settlement

    # -- who draws and leads first ----------------------------------------------------------------

    def _kaipai(self, rng: SplitMix64) -> int:
        """开牌 (S4 第二条(一)(二)): the 开牌人 draws a card and counts its value counter-clockwise
        from himself; a joker passes the draw to his 下家.  重新开牌 is done by the first 开牌人's 下家."""
        if not self.rules.kaipai_count:
            return rng.below(6)
        if self._opener < 0:
            opener = self._opener = rng.below(6)
        else:
            opener = (self._opener + 1) % 6
        deck = self.rules.deck
        while True:
            c = deck[rng.below(len(deck))]
            r = card_rank(c)
            if r >= SJ:
                opener = (opener + 1) % 6  # 如抽到大小王牌，则其开牌权自然取消，由其下家取代
                continue
            value = KAIPAI_VALUE.get(r, r + 3)  # J Q K count 11 12 13
            first = (opener + value - 1) % 6
            self.event(Event("kaipai", first, CardSet(r, 1), other=opener, value=value))
            return first

    def _shangban(self, cards: list[list[int]], first: int, rng: SplitMix64) -> int:
        """上班 (S4 第三条): the first to hold two 4s of one suit leads; more of one suit takes over."""
        if not self.rules.shangban:
            return first
        # replay the deal card by card, in drawing order
        order: list[tuple[int, int]] = []
        pos = [0] * 6
        while any(pos[s] < len(cards[s]) for s in range(6)):
            for k in range(6):
                s = (first + k) % 6
                if pos[s] < len(cards[s]):
                    order.append((s, cards[s][pos[s]]))
                    pos[s] += 1
        best, leader = 1, -1
        held = [[0] * 4 for _ in range(6)]
        for s, c in order:
            if card_rank(c) == FOUR:
                n = held[s][card_suit(c)] = held[s][card_suit(c)] + 1
                if n > best:
                    best, leader = n, s
        if leader < 0:
            return rng.below(6)
        self.event(Event("first_leader", leader, value=best))
        return leader


KAIPAI_VALUE = {ACE: 1, TWO: 2}
"""开牌 (S4 第二条): the value a drawn card counts, where it is not its face (A is 1, 2 is 2)."""


def play_match(
    variant: Rules | Variant, seed: int, hands: int | None, agents: Sequence[Agent], rotate: int = 0
) -> Match:
    """Let six agents play a whole match; returns the finished Match.

    Each agent's ``start_hand`` is called once per hand, when its play begins.
    """
    m = Match(variant, seed, hands, rotate)
    started = 0
    while not m.is_over:
        if m.hand is not None and m.hand_number != started:
            started = m.hand_number
            for seat, agent in enumerate(agents):
                agent.start_hand(m.hand.seed or 0, seat)
        seat = m.turn
        legal = m.legal_actions()
        m.apply(agents[seat].act(m.observation(seat), legal))
    return m


__all__ = [
    "HEAD_FOREVER",
    "Before",
    "Decision",
    "HandSummary",
    "Match",
    "after",
    "before_first",
    "deal_from",
    "hand_result",
    "play_match",
    "settle",
]


def _replayed(
    rules: Rules,
    seed: int,
    hands: int,
    rotate: int,
    deal: Any,
    leader: int | None,
    debts: Sequence[Debt] | None,
    setup: HandSetup | None,
    log: Sequence[tuple[int, Action]],
    last_places: Sequence[int] | None = None,
) -> Match:
    m = Match(rules, seed, hands, rotate, deal=deal, leader=leader, debts=debts, setup=setup, last_places=last_places)
    for seat, action in log:
        m.apply(action, seat)
    return m
