"""A match: hands in sequence, with everything that happens between them.

Before each hand the phases run in one fixed order; each phase is on only where
the variant has it, so both texts' orders come out of it (S0 第十节: 摸牌 →
扛贡 → 宣点/和点 → 买3买4 → 进贡 → 冲点 → 正常游戏; S4: 预点 before 开牌, 买4
before 进贡 (第十条), 明点 after 进贡 and before the first lead (第二十二条(三))):

    yudian → deal → kang → xuandian → geming → buy → tribute → chongdian → mingdian → play

Every choice (a declaration, buying a 4, 革命, 冲点 and its sets, 有头/无头,
waiving a teammate's tribute, the card handed back in 还贡 and its refusal) is
a decision of the player who makes it, through the same ``legal_actions`` /
``apply`` pair as play.  Choices a rational player never declines (扛贡, paying
the largest tribute card, buying the 3 one must have) are applied by the rules.

The flow is written as one generator that yields each decision and receives
the chosen action, so the order of the phases reads top to bottom.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import AGREE, PASS, REFUSE, Action, Choose, Consent, Declare, Forfeit, Give, Head, Pass, Play
from .cards import BJ, FOUR, NRANKS, SJ, THREE, TOP, TWO, CardSet, card_rank, card_suit, format_hand, rank_of
from .engine import Hand, HandSetup, Observation, counts_of_cards, deal_cards
from .errors import GoujiError, IllegalAction
from .events import Event
from .legal import Legal
from .rng import SplitMix64, derive
from .settle import Debt, HandResult, Settlement, settle
from .variant import Variant

HEAD_FOREVER = 1 << 20
MAX_REDEALS = 50
TRIBUTE_KINDS = ("point", "burn", "men", "place", "sweep")
"""``value`` of a tribute event: 1 点贡, 2 烧贡, 3 闷贡/清贡, 4 落贡/拉贡, 5 串三户"""


@dataclass(frozen=True)
class Decision:
    seat: int
    kind: str
    legal: Legal
    table: CardSet | None = None


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


class Match:
    """Hands in sequence under one variant, from the first deal to the last score.

    >>> from gouji_rules.variant import dagang
    >>> m = Match(dagang(), seed=3, hands=1)
    >>> m.phase in ("yudian", "mingdian", "play", "buy", "geming")
    True
    """

    def __init__(self, variant: Variant, seed: int, hands: int | None = None, rotate: int = 0) -> None:
        self.variant = variant
        self.rules = variant.rules
        self.seed = seed
        self.rotate = rotate
        self.n_hands = hands if hands is not None else variant.match.hands
        self.scores = [0, 0]
        self.summaries: list[HandSummary] = []
        self.events: list[Event] = []  # events of the phases of the current hand
        self.all_events: list[Event] = []  # phase events of every hand, for statistics
        self.hand: Hand | None = None
        self.hands_now: list[list[int]] = [[0] * NRANKS for _ in range(6)]
        self.kept: list[list[int]] = [[0] * NRANKS for _ in range(6)]
        self.discards: list[int] = [0] * NRANKS
        self.decisions = 0
        self._carry: list[Event] = []  # events to show at the start of the next hand
        self._opener = -1  # the first 开牌人 (S4 第二条)
        self._rng = SplitMix64(seed)
        self.phase = "start"
        self._decision: Decision | None = None
        self._gen = self._run()
        self._step(None)

    # -- the decision interface ---------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self._decision is None

    @property
    def turn(self) -> int:
        return self._decision.seat if self._decision else -1

    def legal_actions(self) -> Legal:
        if self._decision is None:
            return Legal()
        if self._decision.kind == "play":
            assert self.hand is not None
            return self.hand.legal_actions()
        return self._decision.legal

    def apply(self, action: Action, seat: int | None = None) -> None:
        d = self._decision
        if d is None:
            raise IllegalAction("the match is over", rule="match_over")
        if isinstance(action, Forfeit):
            self.forfeit(seat, action.reason)
            return
        if d.kind == "play":
            assert self.hand is not None
            self.hand.verify(action, seat)
        else:
            if seat is not None and seat != d.seat:
                raise IllegalAction(f"it is seat {d.seat}'s decision, not seat {seat}'s", rule="turn_order")
            if action not in d.legal:
                raise IllegalAction(f"{action} is not a choice in the {d.kind} phase now", rule=d.kind)
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
        if d.kind == "play":
            assert self.hand is not None
            self.hand.verify_forfeit(seat)
            self.decisions += 1
            self._step(Forfeit(reason))
            return
        if seat is not None and seat != d.seat:
            raise IllegalAction(f"it is seat {d.seat}'s decision, not seat {seat}'s", rule="turn_order")
        if self.variant.play.wrong_play != "lose_turn":
            raise IllegalAction(
                f"under {self.rules.name} a wrong play is refused, not a lost turn (play.wrong_play: refuse)",
                rule="wrong_play",
                clause="S4 第四条(一) 错牌不出",
            )
        legal = d.legal
        default = PASS if PASS in legal else legal[0]
        self._event(Event("wrong_play", d.seat))
        self.decisions += 1
        self._step(default)

    def observation(self, seat: int | None = None) -> Observation:
        d = self._decision
        if d is not None and d.kind == "play" and self.hand is not None:
            return self.hand.observation(seat)
        from .observe import cards_left, redact

        s = d.seat if (d is not None and seat is None) else (seat or 0)
        hand = self.hands_now[s]
        nobody = [False] * 6
        return Observation(
            seat=s,
            mode=d.kind if d else "over",
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
            events=redact(self.rules, s, self.events),
            rules=self.rules,
        )

    def _step(self, action: Action | None) -> None:
        try:
            self._decision = self._gen.send(action) if action is not None else next(self._gen)
        except StopIteration:
            self._decision = None
            self.phase = "over"

    def _ask(self, seat: int, kind: str, options: Sequence[Action], table: CardSet | None = None) -> Decision:
        self.phase = kind
        return Decision(seat, kind, Legal(extras=tuple(options)), table)

    # -- the match ------------------------------------------------------------------------

    def _run(self) -> Generator[Decision, Action, None]:
        v = self.variant
        leader: int | None = None
        debts: list[Debt] = []
        sweeps = 0
        last_places: list[int] | None = None
        last_sweep: int | None = None
        for index in range(self.n_hands):
            attempt = 0
            while True:
                hseed = derive(self.seed, index, attempt)
                if attempt == 0:
                    self.events = list(self._carry)
                    self._carry = []
                outcome = yield from self._hand(index, hseed, leader, debts, last_places, last_sweep)
                if outcome is not None:
                    break
                attempt += 1
                if attempt >= MAX_REDEALS:
                    raise GoujiError(f"hand {index} was redealt {attempt} times (革命 or 冲点 void every deal)")
            summary, settlement = outcome
            self.summaries.append(summary)
            self.scores[0] += settlement.scores[0]
            self.scores[1] += settlement.scores[1]
            debts = settlement.debts
            last_places = summary.tribute_places
            # S4 第十四条(七) 连续三次串三户: how a streak is counted is the variant's (tribute.sweep_streak)
            new_team = v.tribute.sweep_streak == "same_team" and settlement.sweep != last_sweep
            sweeps = (1 if new_team else sweeps + 1) if settlement.sweep is not None else 0
            last_sweep = settlement.sweep
            leader = settlement.next_leader
            if settlement.sweep is not None and v.match.reopen_after_sweep:
                leader = None  # 大纲第二条(二): 出现串三户…应重新开牌, and 上班 again
            limit = v.tribute.sweep_redeal
            if limit and sweeps >= limit:
                # S4 第十四条(七): 连续三次串三户一般不进贡，应重新开牌
                debts, leader, sweeps = [], None, 0
                e = Event("redeal", value=3)
                self.all_events.append(e)
                self._carry.append(e)
            target = v.match.target
            if target is not None and max(self.scores) >= target:
                break

    def _event(self, e: Event) -> None:
        self.events.append(e)
        self.all_events.append(e)

    def _hand(
        self,
        index: int,
        hseed: int,
        leader: int | None,
        debts: list[Debt],
        last_places: list[int] | None,
        last_sweep: int | None,
    ) -> Generator[Decision, Action, tuple[HandSummary, Settlement] | None]:
        v = self.variant
        rng = SplitMix64(derive(hseed, 77))
        self.kept = [[0] * NRANKS for _ in range(6)]
        self.discards = [0] * NRANKS
        first = leader if leader is not None else self._kaipai(rng)
        self._rng = rng
        declarations: list[tuple[str, int]] = []
        # 预点 (S4 第二十二条(三)): before 开牌, on no cards
        if v.declare.yudian:
            for k in range(6):
                s = (first + k) % 6
                a = yield self._ask(s, "yudian", (Declare("yudian"), PASS))
                if isinstance(a, Declare):
                    declarations.append(("yudian", s))
                    self._event(Event("yudian", s, other=(s + 3) % 6))
        # a leader carried from the last hand is a real seat already: rotate only the cards
        drawer = (first - self.rotate) % 6 if leader is not None else first
        cards, first = deal_cards(v, hseed, drawer, self.rotate)
        self.hands_now = [counts_of_cards(c) for c in cards]
        dealt = [format_hand(h) for h in self.hands_now]
        lead = first if leader is not None else self._shangban(cards, first, rng)
        self._event(Event("deal", lead))
        debts = list(debts)
        # 扛贡 (S0 第八节, S4 第十四条(七)): 四小扛自己，四大扛全场
        if v.kang.enabled and debts:
            debts = self._kang(debts)
        setup: dict[str, Any] = {
            "placed": {},
            "geming": set(),
            "opened": set(),
            "closed": set(),
            "no_head": set(),
            "head_rights": {},
            "open_by_rights": set(),
        }
        # 宣点 / 和点 (S0 第四节)
        if v.declare.xuandian or v.declare.hedian:
            votes: dict[int, str] = {}
            for k in range(6):
                s = (lead + k) % 6
                opts: list[Action] = []
                if v.declare.xuandian:
                    opts.append(Declare("xuandian"))
                if v.declare.hedian:
                    opts.append(Declare("hedian"))
                a = yield self._ask(s, "xuandian", (*opts, PASS))
                if isinstance(a, Declare):
                    votes[s] = a.kind
            for s in range(3):
                o = s + 3
                if votes.get(s) == "hedian" and votes.get(o) == "hedian":
                    setup["opened"] |= {s, o}
                    self._event(Event("hedian", s, other=o))
            for s, kind in sorted(votes.items()):
                if kind == "xuandian":
                    declarations.append(("xuandian", s))
                    self._event(Event("xuandian", s, other=(s + 3) % 6))
        # 革命 (S4 第二十一条)
        if v.geming.enabled:
            rev = []
            for k in range(6):
                s = (lead + k) % 6
                if self._geming_eligible(s) or self._cannot_pay(s, debts):
                    a = yield self._ask(s, "geming", (Choose("geming"), PASS))
                    if isinstance(a, Choose):
                        rev.append(s)
            if len(rev) >= v.geming.void_at:
                self._event(Event("redeal", value=1))
                return None
            for s in rev:
                self._event(Event("geming", s))
                setup["placed"][s] = v.geming.place
                setup["geming"].add(s)
                setup["closed"].add(s)
                self._discard(s)
                debts = [d for d in debts if d.giver != s]
                o = (s + 3) % 6
                a = yield self._ask(o, "head", (Head(True), Head(False)))
                if isinstance(a, Head) and a.keep:
                    setup["head_rights"][o] = v.geming.opposite_rights
                    if v.open_point.dadian:
                        setup["open_by_rights"].add(o)
                    self._event(Event("with_head", o, other=s))
                else:
                    setup["no_head"].add(o)
        # 买3买4 (S0 第七节; S4 第九条 买三, 第十条 买四)
        if v.buy.enabled:
            yield from self._buy(lead, setup)
        # 进贡 / 还贡 (S0 第八节, S4 第十四–十八条)
        if v.tribute.enabled and debts:
            yield from self._tribute(debts, setup)
        self._check_threes_and_fours(lead, setup)
        # 冲点 (S0 第十节)
        if v.chongdian.enabled:
            ok = yield from self._chongdian(lead, setup, last_places)
            if not ok:
                self._event(Event("redeal", value=2))
                return None
        # 明点 (S4 第二十二条(三)): after tribute, before the first lead
        if v.declare.mingdian:
            done = {s for _, s in declarations}
            for k in range(6):
                s = (lead + k) % 6
                if s in done or s in setup["placed"] or (s + 3) % 6 in setup["placed"]:
                    continue
                a = yield self._ask(s, "mingdian", (Declare("mingdian"), PASS))
                if isinstance(a, Declare):
                    declarations.append(("mingdian", s))
                    self._event(Event("mingdian", s, other=(s + 3) % 6))
        huiwu = last_sweep if (v.match.huiwu and last_sweep is not None) else None
        hs = HandSetup(
            placed=dict(setup["placed"]),
            geming=frozenset(setup["geming"]),
            opened=frozenset(setup["opened"]),
            closed=frozenset(setup["closed"]),
            no_head=frozenset(setup["no_head"]),
            head_rights=dict(setup["head_rights"]),
            open_by_rights=frozenset(setup["open_by_rights"]),
            huiwu_team=None if huiwu is None else 1 - huiwu,
        )
        hand = Hand(v, [list(h) for h in self.hands_now], lead, seed=hseed, setup=hs)
        self.hand = hand
        self.phase = "play"
        while not hand.is_over:
            a = yield Decision(hand.turn, "play", Legal())
            hand.apply(a)
        result = HandResult(
            places=list(hand.places),
            opened=[p == 2 for p in hand.point],
            burns=list(hand.burns),
            men=list(hand.men_seats),
            declarations=declarations,
            geming=sorted(setup["geming"]),
        )
        places = yield from self._choose_last(list(hand.places))
        if places != list(hand.places):
            result = HandResult(
                places=places,
                opened=result.opened,
                burns=result.burns,
                men=result.men,
                declarations=result.declarations,
                geming=result.geming,
            )
        settlement = settle(v, result)
        if settlement.sweep is not None:
            self._event(Event("sweep", value=settlement.sweep + 1))
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

    # -- phases -------------------------------------------------------------------------------

    def _choose_last(self, places: list[int]) -> Generator[Decision, Action, list[int]]:
        """Who counts as last place for tribute and the next lead.

        S4 第十四条(六): 大落、二落为同一方人员时，可在开牌前自行商定谁为大落.
        S0: 被串三户的一方下一局游戏开始之前决定谁是拉客.
        """
        how = self.variant.match.choose_last
        last = places.index(6)
        if how == "losing_pair":
            second = places.index(5)
            if (last - second) % 2:
                return places
            candidates = [second]
        elif how == "swept_team":
            from .rules import sweep_of

            team = sweep_of(places)
            if team is None or last % 2 == team:
                return places
            candidates = [s for s in range(6) if s % 2 == last % 2 and s != last]
        else:
            return places
        opts: list[Action] = [Choose(f"last{s}") for s in candidates]
        a = yield self._ask(last, "choose_last", (*opts, PASS))
        if isinstance(a, Choose):
            other = int(a.what[4:])
            places[last], places[other] = places[other], places[last]
            self._event(Event("choose_last", other, other=last))
        return places

    def _kaipai(self, rng: SplitMix64) -> int:
        """开牌 (S4 第二条(一)(二)): the 开牌人 draws a card and counts its value counter-clockwise
        from himself; a joker passes the draw to his 下家.  重新开牌 is done by the first 开牌人's 下家."""
        if self.variant.match.kaipai != "count":
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
            value = {11: 1, 12: 2}.get(r, r + 3)  # A counts 1, 2 counts 2, J Q K 11 12 13
            first = (opener + value - 1) % 6
            self._event(Event("kaipai", first, CardSet(r, 1), other=opener, value=value))
            return first

    def _shangban(self, cards: list[list[int]], first: int, rng: SplitMix64) -> int:
        """上班 (S4 第三条): the first to hold two 4s of one suit leads; more of one suit takes over."""
        if self.variant.match.first_leader != "shangban":
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
        self._event(Event("first_leader", leader, value=best))
        return leader

    def _kang(self, debts: list[Debt]) -> list[Debt]:
        v, hooks = self.variant, self.rules.hooks
        exempt: set[int] = set()
        for s in range(6):
            h = self.hands_now[s]
            ctx = {"sj": h[SJ], "bj": h[BJ]}
            team = hooks["kang_team"](ctx) if "kang_team" in hooks else h[BJ] >= v.kang.big
            alone = hooks["kang_self"](ctx) if "kang_self" in hooks else h[SJ] >= v.kang.small
            owes = {d.giver for d in debts}
            if team:
                seats = {s, (s + 2) % 6, (s + 4) % 6}
                if seats & owes:
                    exempt |= seats
                    self._event(Event("kang", s, value=2))
            elif (alone or h[BJ] >= v.kang.small) and s in owes:
                exempt.add(s)
                self._event(Event("kang", s, value=1))
        return [d for d in debts if d.giver not in exempt]

    def _geming_eligible(self, s: int) -> bool:
        h = self.hands_now[s]
        hook = self.rules.hooks.get("geming_eligible")
        if hook is not None:
            ctx = {"twos": h[TWO], "sj": h[SJ], "bj": h[BJ], "top": h[TOP], "aces": h[11], "cards": sum(h)}
            return bool(hook(ctx))
        return h[TWO] + h[SJ] + h[BJ] + h[TOP] == 0

    def _cannot_pay(self, s: int, debts: list[Debt]) -> bool:
        """进贡不起 (S4 第十四条(二)): seat ``s`` owes more tribute cards than it holds (geming.cannot_pay)."""
        if not self.variant.geming.cannot_pay:
            return False
        owed = sum(d.count for d in debts if d.giver == s)
        h = self.hands_now[s]
        return owed > sum(h[rank_of(x)] for x in self.variant.tribute.cards)

    def _discard(self, s: int) -> None:
        h = self.hands_now[s]
        for r in range(NRANKS):
            self.discards[r] += h[r]
            h[r] = 0

    def _move(self, giver: int, receiver: int, r: int, kept: bool = True) -> None:
        self.hands_now[giver][r] -= 1
        self.hands_now[receiver][r] += 1
        if self.kept[giver][r] > self.hands_now[giver][r]:
            self.kept[giver][r] = self.hands_now[giver][r]
        if kept:
            self.kept[receiver][r] += 1

    def _buy(self, lead: int, setup: dict[str, Any]) -> Generator[Decision, Action, None]:
        """买3买4: sellers serve in the variant's order of groups, so every seller serves its own
        opposite before anyone else (S0 七: 如果对门缺3,4则必须先卖给对门)."""
        b = self.variant.buy
        order = [(lead + k) % 6 for k in range(6) if (lead + k) % 6 not in setup["placed"]]
        asked: set[int] = set()
        for rank, kind in ((THREE, "buy3"), (FOUR, "buy4")):
            for group in b.sellers:
                for s in order:
                    if self.hands_now[s][rank]:
                        continue
                    seat = self._seller(s, rank, group, setup)
                    if seat is None:
                        continue
                    if rank == FOUR:
                        if b.four != "optional" or s in asked:
                            continue
                        asked.add(s)
                        a = yield self._ask(s, "buy4", (Choose("buy4"), PASS))
                        if not isinstance(a, Choose):
                            continue
                    paid = -1
                    if group != "team":
                        for sym in b.price:
                            r = rank_of(sym)
                            if self.hands_now[s][r]:
                                self._move(s, seat, r)
                                paid = r
                                break
                    self._move(seat, s, rank)
                    self._event(Event(kind, s, CardSet(rank, 1), other=seat, value=paid + 1))

    def _check_threes_and_fours(self, lead: int, setup: dict[str, Any]) -> None:
        """After every card has moved: S4 第九条 牌中没有3者，算做大落; 第十条 没有4者，算做没有开点."""
        b = self.variant.buy
        if not b.enabled:
            return
        bottom = 6
        for k in range(6):
            s = (lead + k) % 6
            if s in setup["placed"]:
                continue
            h = self.hands_now[s]
            if b.no_three == "last" and not h[THREE]:
                while bottom in setup["placed"].values():
                    bottom -= 1
                setup["placed"][s] = bottom
                setup["closed"].add(s)
                self._event(Event("no_three", s, value=bottom))
            elif b.no_four_closes_point and not h[FOUR]:
                setup["closed"].add(s)

    def _seller(self, s: int, rank: int, group: str, setup: dict[str, Any]) -> int | None:
        b = self.variant.buy
        seats = {
            "opposite": [(s + 3) % 6],
            "team": [(s + 2) % 6, (s + 4) % 6],
            "opposite_team": [(s + 1) % 6, (s + 5) % 6],
        }.get(group, [])
        for p in seats:
            if p not in setup["placed"] and self.hands_now[p][rank] > b.keep:
                return p
        return None

    def _random_card(self, s: int) -> int:
        """The rank of one card of seat ``s`` drawn unseen (each card equally likely)."""
        h = self.hands_now[s]
        pick = self._rng.below(sum(h))
        for r in range(NRANKS):
            pick -= h[r]
            if pick < 0:
                return r
        return NRANKS - 1

    def _free(self, s: int, r: int) -> bool:
        """Does seat ``s`` hold a card of rank ``r`` it did not just receive (吃了不吐)?"""
        return self.hands_now[s][r] - self.kept[s][r] > 0

    def _tribute_rank(self, s: int) -> int:
        h, kept = self.hands_now[s], self.kept[s]
        hook = self.rules.hooks.get("tribute_card")
        if hook is not None:
            r = int(hook({"counts": list(h), "kept": list(kept)}))
            return r if 0 <= r < NRANKS and h[r] > 0 else -1
        t = self.variant.tribute
        allowed = sorted((rank_of(x) for x in t.cards), reverse=True)
        for r in allowed:
            free = h[r] - (kept[r] if t.kept_excluded else 0)
            if free > 0:
                return r
        return -1

    def _tribute(self, debts: list[Debt], setup: dict[str, Any]) -> Generator[Decision, Action, None]:
        t = self.variant.tribute
        for d in debts:
            if d.giver in setup["geming"] or d.receiver in setup["geming"]:
                continue  # a 革命 player has left the hand: he neither pays nor takes tribute
            if (d.giver - d.receiver) % 2 == 0 and d.kind in t.waivable:
                a = yield self._ask(d.receiver, "waive", (Choose("waive"), PASS))
                if isinstance(a, Choose):
                    self._event(Event("waive", d.receiver, other=d.giver))
                    continue
            paid = 0
            if d.kind == "point" and t.point_call and self._free(d.giver, BJ):
                a = yield self._ask(d.giver, "point_call", (Choose("call"), PASS))
                if isinstance(a, Choose) and any(self.hands_now[d.receiver]):
                    # 亮出大王，叫停对门要摸的这张牌作为还贡收入自己的牌里，进贡时将大王进上 (S0 第八节)
                    r = self._random_card(d.receiver)
                    self._move(d.receiver, d.giver, r)
                    self._move(d.giver, d.receiver, BJ)
                    self._event(Event("point_call", d.giver, CardSet(BJ, 1), other=d.receiver, value=r + 1))
                    self._event(Event("tribute", d.giver, CardSet(BJ, 1), other=d.receiver, value=1))
                    paid = 1
            for _ in range(d.count - paid):
                r = self._tribute_rank(d.giver)
                if r < 0:
                    break
                self._move(d.giver, d.receiver, r)
                paid += 1
                self._event(
                    Event("tribute", d.giver, CardSet(r, 1), other=d.receiver, value=TRIBUTE_KINDS.index(d.kind) + 1)
                )
            if not d.returned:
                continue
            for _ in range(paid):
                refused: set[int] = set()
                while True:
                    h = self.hands_now[d.receiver]
                    opts = [Give(r) for r in range(NRANKS) if h[r] and r not in refused]
                    if not opts:
                        break
                    a = yield self._ask(d.receiver, "give", opts)
                    assert isinstance(a, Give)
                    if t.return_refusable and not self.hands_now[d.giver][a.rank] and len(opts) > 1:
                        c = yield self._ask(d.giver, "accept", (AGREE, REFUSE), CardSet(a.rank, 1))
                        if isinstance(c, Consent) and not c.agree:
                            refused.add(a.rank)
                            continue
                    self._move(d.receiver, d.giver, a.rank, kept=False)
                    self._event(Event("return_tribute", d.receiver, CardSet(a.rank, 1), other=d.giver))
                    break

    def _pure_sets(self, s: int) -> list[CardSet]:
        h, rules = self.hands_now[s], self.rules
        out = []
        for r in range(NRANKS):
            m = rules.pure_minimum(r)
            if m:
                out += [CardSet(r, k) for k in range(m, h[r] + 1) if rules.is_pure_gouji(CardSet(r, k))]
        return out

    def _chongdian_eligible(self, s: int) -> bool:
        h = self.hands_now[s]
        c = self.variant.chongdian
        top = max((r for r in range(NRANKS) if h[r]), default=0)
        pure = self.rules.pure_sets(h)
        hook = self.rules.hooks.get("chongdian_eligible")
        if hook is not None:
            jokers = h[SJ] + h[BJ] + h[TOP]
            return bool(hook({"max_rank": top, "pure_sets": pure, "twos": h[TWO], "jokers": jokers}))
        return top <= rank_of(c.max_rank) and pure >= c.sets

    def _chongdian(
        self, lead: int, setup: dict[str, Any], last_places: list[int] | None
    ) -> Generator[Decision, Action, bool]:
        c = self.variant.chongdian
        players = []
        for k in range(6):
            s = (lead + k) % 6
            if s not in setup["placed"] and self._chongdian_eligible(s):
                a = yield self._ask(s, "chongdian", (Choose("chongdian"), PASS))
                if isinstance(a, Choose):
                    players.append(s)
        if not players:
            return True
        if len(players) >= c.redeal_at:
            return False  # 若3人或3人以上冲点则重新洗牌摸牌，贡数不变
        results: dict[int, bool] = {}
        for s in players:
            o = (s + 3) % 6
            success = False
            for _ in range(c.sets):
                sets = self._pure_sets(s)
                if not sets:
                    break
                a = yield Decision(s, "chong_set", Legal(sets=sets))
                assert isinstance(a, Play)
                self._take(s, a.cards)
                self._event(Event("play", s, a.cards, other=o))
                if o in setup["placed"] or o in players:
                    success = True
                    break
                answers = self.rules.beat.followers(self.hands_now[o], a.cards)
                b = yield Decision(o, "chong_answer", Legal(sets=answers, extras=(PASS,)), a.cards)
                if isinstance(b, Pass):
                    self._event(Event("pass", o))
                    success = True
                    break
                assert isinstance(b, Play)
                self._take(o, b.cards)
                self._event(Event("play", o, b.cards, other=s))
            results[s] = success
            self._event(Event("chongdian", s, other=o, value=1 if success else 2))
            self._discard(s)
            if success:
                setup["opened"].add(s)
            else:
                setup["closed"].add(s)
                setup["opened"].add(o)
                self.discards[FOUR] += self.hands_now[o][FOUR]
                self.hands_now[o][FOUR] = 0
        # places: one 冲点 player is 四客; of two, the successful one (else last hand's better) 四客
        if len(players) == 1:
            setup["placed"][players[0]] = c.place
        else:
            p1, p2 = players[0], players[1]
            if results[p1] != results[p2]:
                good, bad = (p1, p2) if results[p1] else (p2, p1)
            else:
                lp = last_places or [0] * 6
                good, bad = (p1, p2) if lp[p1] <= lp[p2] else (p2, p1)
            setup["placed"][good] = c.place
            setup["placed"][bad] = c.second_place
        for s in players:
            o = (s + 3) % 6
            if o in setup["placed"]:
                continue
            a2 = yield self._ask(o, "head", (Head(True), Head(False)))
            if isinstance(a2, Head) and a2.keep:
                setup["head_rights"][o] = HEAD_FOREVER
                self._event(Event("with_head", o, other=s))
            else:
                setup["no_head"].add(o)
                if results[s]:
                    setup["closed"].add(o)  # 选择无头若对门冲点成功则不能开点
                    setup["opened"].discard(o)
        return True

    def _take(self, s: int, cs: CardSet) -> None:
        for r, n in cs.card_counts().items():
            self.hands_now[s][r] -= n
            self.discards[r] += n


def play_match(variant: Variant, seed: int, hands: int | None, agents: Sequence[Any], rotate: int = 0) -> Match:
    """Let six agents play a whole match; returns the finished Match."""
    m = Match(variant, seed, hands, rotate)
    started: set[int] = set()
    while not m.is_over:
        if m.hand is not None and id(m.hand) not in started:
            started.add(id(m.hand))
            for seat, agent in enumerate(agents):
                agent.start_hand(m.hand.seed or 0, seat)
        seat = m.turn
        legal = m.legal_actions()
        m.apply(agents[seat].act(m.observation(seat), legal))
    return m


__all__ = ["Decision", "HandSummary", "Match", "play_match", "settle"]
