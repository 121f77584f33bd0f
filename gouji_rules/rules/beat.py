"""Beat relations: when does set B beat set T (管住), and which sets in a hand do.

Three strategies are registered (:data:`~gouji_rules.parts.registry.BEAT_STRATEGIES`); ``sets.beat``
in the variant names one, and a club or a test may register more (docs/extending.md):

``cover`` (S0 挂 examples, S4 第四条(三))
    Same number of cards; B's core rank strictly higher; every joker of T
    covered one-for-one by a strictly higher joker of B (大花 covers 小花: "大花不得少于
    小花数量"); a set holding a rank listed in ``sets.dead`` (大王) is dead.
``card_by_card``
    Same number of cards; sort both (attached 2s count as the core rank) and
    each card of B is strictly higher than the card of T in the same position.
    Only a set holding the deck's highest rank is unbeatable.
``kill_table`` (二杀一 / 三杀一)
    Each joker of T is killed by one of the ways ``sets.kill`` lists (one
    higher joker, two of the same, three of the next lower); each other card of
    T is covered by one card of B higher than T's core (B's own core, or a
    spare joker); B has no card left over.  So B may be longer than T.  With
    ``sets.kill_joker_only: lowest_joker`` a set of jokers only must also have a
    lowest joker higher than that of the joker-only set it beats (RLG).

Generation works from rank counts: for each core rank and each choice of
attachments it computes the one core count that fits, never enumerating card
subsets.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from ..game.cards import BJ, NRANKS, SJ, TOP, TWO, CardSet, cardset, rank_of
from ..parts.registry import BEAT_STRATEGIES

if TYPE_CHECKING:
    from ..parts.sections import SetsRules

T = TypeVar("T", bound=Any)


class RankTables:
    """The deck's tables a beat strategy reads, and whether a set is well formed: the part of the
    compiled rules that sits below the strategies (:class:`gouji_rules.rules.Rules` extends it and
    fills the tables), so a strategy names it without importing the rules, which build the strategy.
    A class, not a Protocol, so that the compiled engine reads these tables directly."""

    bare: list[bool]
    """Ranks whose sets take no attachment."""
    attach_jokers: list[bool]
    """Jokers that may be attached (by joker rank)."""
    attach_twos: bool
    """May a 2 be attached to a lower rank?"""
    ranks_present: list[bool]
    """Ranks the deck holds."""
    deck: list[int]
    """The deck's cards."""
    deck_counts: list[int]
    """How many cards of each rank the deck holds."""
    hand_sizes: list[int]
    """The cards each seat is dealt."""
    hooks: Mapping[str, Callable[..., Any]]
    """Compiled expression hooks by name (``beats``, ``is_gouji`` …)."""

    def could_hold(self, cs: CardSet) -> bool:
        """Is the set well formed under this variant (ignoring whose hand it is)?"""
        r = cs.rank
        if cs.count < 1 or not self.ranks_present[r]:
            return False
        if self.bare[r] and cs.attached:
            return False
        if cs.twos and (not self.attach_twos or r >= TWO):
            return False
        for jr, n in ((SJ, cs.sj), (BJ, cs.bj), (TOP, cs.top)):
            if n and (not self.attach_jokers[jr] or jr <= r):
                return False
        return True


Jokers = tuple[int, int, int]


def joker_counts(cs: CardSet) -> Jokers:
    """Small jokers, big jokers and top cards in a set, core included."""
    s, b, y = cs.sj, cs.bj, cs.top
    if cs.rank == SJ:
        s += cs.count
    elif cs.rank == BJ:
        b += cs.count
    elif cs.rank == TOP:
        y += cs.count
    return s, b, y


def plain_count(cs: CardSet) -> int:
    """Cards of a set that are not jokers (core cards and attached 2s)."""
    return cs.count + cs.twos if cs.rank < SJ else 0


class BeatStrategy(Protocol):
    """What a beat strategy does once compiled for a variant.

    A strategy class is registered in :data:`~gouji_rules.parts.registry.BEAT_STRATEGIES` with
    :func:`register_beat`; it has ``name`` (the value of ``sets.beat``), ``zh`` / ``en`` (what the
    rule sheet and the schema say), ``reads`` (the fields of ``sets`` it uses, so a variant that
    sets one its strategy ignores gets a warning), and is built as ``cls(rules, sets)``.
    """

    name: str

    def beats(self, b: CardSet, t: CardSet) -> bool:
        """Does set ``b`` beat the table set ``t``?"""
        ...

    def dead(self, t: CardSet) -> bool:
        """Is ``t`` a set nothing can beat (死牌)?"""
        ...

    def followers(self, hand: Sequence[int], t: CardSet) -> list[CardSet]:
        """Every set in ``hand`` (rank counts) that beats ``t``."""
        ...


def register_beat(cls: type[T]) -> type[T]:
    """Class decorator: make ``cls`` a value of ``sets.beat`` (see docs/extending.md)."""
    BEAT_STRATEGIES.register(cls)
    return cls


def make_strategy(rules: RankTables, sets: SetsRules) -> BeatStrategy:
    """The strategy ``sets.beat`` names, compiled for ``rules``; with a ``beats`` hook, the hook
    decides (:class:`HookBeat`) and the strategy's answer is its ``default``."""
    cls = BEAT_STRATEGIES.find(sets.beat)
    strategy: BeatStrategy = cls(rules, sets)
    hook = rules.hooks.get("beats")
    if hook is not None:
        return HookBeat(rules, strategy, hook)
    return strategy


def unused_sets_fields(name: str) -> list[tuple[str, list[str]]]:
    """Fields of ``sets`` that other registered strategies read and strategy ``name`` does not,
    each with the strategies that read it (a variant file setting one gets a warning)."""
    mine = set(getattr(BEAT_STRATEGIES[name], "reads", ())) if name in BEAT_STRATEGIES else set()
    users: dict[str, list[str]] = {}
    for other in BEAT_STRATEGIES:
        for f in getattr(BEAT_STRATEGIES[other], "reads", ()):
            if f not in mine:
                users.setdefault(f, []).append(other)
    return list(users.items())


def attach_ranges(rules: RankTables, hand: Sequence[int], rb: int) -> tuple[int, int, int, int]:
    """Most 2s, 小王, 大王 and top cards that may be attached to core ``rb`` from ``hand``."""
    if rules.bare[rb]:
        return 0, 0, 0, 0
    attachable = rules.attach_jokers
    a = hand[TWO] if (rules.attach_twos and rb < TWO) else 0
    s = hand[SJ] if (attachable[SJ] and rb < SJ) else 0
    b = hand[BJ] if (attachable[BJ] and rb < BJ) else 0
    y = hand[TOP] if (attachable[TOP] and rb < TOP) else 0
    return a, s, b, y


def same_size_followers(
    rules: RankTables, hand: Sequence[int], t: CardSet, beats: Callable[[CardSet, CardSet], bool]
) -> list[CardSet]:
    """Every set of ``t``'s size in ``hand`` with a core above ``t``'s that ``beats`` accepts.

    For strategies where a beating set has as many cards as the table set (cover, card by
    card): each core rank and each choice of attachments fixes the core count.
    """
    n = t.size
    out: list[CardSet] = []
    for rb in range(t.rank + 1, NRANKS):
        hb = hand[rb]
        if not hb:
            continue
        ma, ms, mb, my = attach_ranges(rules, hand, rb)
        for y in range(min(my, n - 1) + 1):
            for b in range(min(mb, n - 1 - y) + 1):
                for s in range(min(ms, n - 1 - y - b) + 1):
                    rest = n - y - b - s
                    for a in range(min(ma, rest - 1) + 1):
                        k = rest - a
                        if k <= hb:
                            cs = cardset(rb, k, a, s, b, y)
                            if beats(cs, t):
                                out.append(cs)
    return out


class Cover:
    """cover: same size, core strictly higher, each joker covered by a higher one; ``sets.dead`` ranks make a set dead."""

    name: ClassVar[str] = "cover"
    zh: ClassVar[str] = (
        "大花盖小花：张数相同、核心点数更大，挂的王要用更大的王盖住；挂了死牌点数（sets.dead）的谁也管不住"
    )
    en: ClassVar[str] = (
        "cover: same size, core rank strictly higher, each joker covered by a higher one; sets.dead ranks make a set dead"
    )
    reads: ClassVar[tuple[str, ...]] = ("dead",)

    def __init__(self, rules: RankTables, sets: SetsRules) -> None:
        self.rules = rules
        self.dead_ranks = frozenset(rank_of(r) for r in sets.dead)
        self._table: tuple[CardSet | None, int, int, int, int, bool] = (None, 0, 0, 0, 0, True)
        """the table set :meth:`followers` was last asked about, with its rank, size, 小王 and
        大王 (core included), and whether nothing beats it: every seat is asked about the same set
        in a round.  One attribute, replaced whole, so threads sharing the rules never see a mix."""

    def dead(self, t: CardSet) -> bool:
        """Is ``t`` a set nothing can beat (死牌)?"""
        d = self.dead_ranks
        if not d:
            return False
        if t.rank in d:
            return True
        return bool((t.sj and SJ in d) or (t.bj and BJ in d) or (t.top and TOP in d) or (t.twos and TWO in d))

    def may_beat(self, t: CardSet, size: int, rank: int) -> bool:
        """Could a set of ``size`` cards with core ``rank`` (-1: any) beat ``t``?  (False: none can;
        what a ``beats`` hook may assume of ``default`` before it tries a set.)"""
        return size == t.size and rank > t.rank if rank >= 0 else size == t.size

    def beats(self, b: CardSet, t: CardSet) -> bool:
        """Does ``b`` beat the table set ``t``?"""
        if b.size != t.size or b.rank <= t.rank or self.dead(t):
            return False
        ts, tb, ty = joker_counts(t)
        if not (ts or tb or ty):
            return True
        _, bb, by = joker_counts(b)
        return ty == 0 and by >= tb and bb + by >= ts + tb

    def followers(self, hand: Sequence[int], t: CardSet) -> list[CardSet]:
        """Every set in ``hand`` (rank counts) that beats ``t``.

        :func:`same_size_followers` with :meth:`beats` folded in (this runs at almost every
        decision and yields about one set a call, so the cost is the call itself): the core
        is higher and the size equal by construction, so only the jokers are checked, and
        only when ``t`` has some.  Same sets, same order.
        """
        m = self._table
        if m[0] is not t:
            ts, tb, ty = joker_counts(t)
            m = self._table = (t, t.rank, t.size, ts, tb, ty > 0 or self.dead(t))  # nothing covers a top card
        _, rank, n, ts, tb, unbeatable = m
        if unbeatable:
            return []
        covered = ts + tb
        h: list[int] = hand if isinstance(hand, list) else list(hand)
        rules = self.rules
        bare, attachable = rules.bare, rules.attach_jokers
        twos = h[TWO] if rules.attach_twos else 0
        sjs = h[SJ] if attachable[SJ] else 0
        bjs = h[BJ] if attachable[BJ] else 0
        tops = h[TOP] if attachable[TOP] else 0
        out: list[CardSet] = []
        for rb in range(rank + 1, NRANKS):
            hb = h[rb]
            if not hb:
                continue
            if bare[rb]:
                ma = ms = mb = my = 0
            else:  # attach_ranges, inlined
                ma = twos if rb < TWO else 0
                ms = sjs if rb < SJ else 0
                mb = bjs if rb < BJ else 0
                my = tops if rb < TOP else 0
            if n == 1 or not (ma or ms or mb or my):
                # nothing to attach (a single, or bare): one set, the whole size of core cards
                if n <= hb:
                    by = n if rb == TOP else 0
                    bb = n if rb == BJ else 0
                    if not covered or (by >= tb and bb + by >= covered):
                        out.append(cardset(rb, n))
                continue
            for y in range(min(my, n - 1) + 1):
                for b in range(min(mb, n - 1 - y) + 1):
                    for s in range(min(ms, n - 1 - y - b) + 1):
                        rest = n - y - b - s
                        for a in range(min(ma, rest - 1) + 1):
                            k = rest - a
                            if k <= hb:
                                if covered:
                                    by = y + k if rb == TOP else y
                                    bb = b + k if rb == BJ else b
                                    if by < tb or bb + by < covered:
                                        continue
                                out.append(cardset(rb, k, a, s, b, y))
        return out


register_beat(Cover)


class KillTable:
    """kill_table (二杀一 / 三杀一): each joker killed in one of the ways ``sets.kill`` lists."""

    name: ClassVar[str] = "kill_table"
    zh: ClassVar[str] = "二杀一/三杀一：每张王按 sets.kill 列的办法杀掉，其余的牌用更大的牌盖住"
    en: ClassVar[str] = (
        "二杀一 / 三杀一: each joker killed by a way sets.kill lists, the other cards covered by higher ones"
    )
    reads: ClassVar[tuple[str, ...]] = ("kill", "kill_joker_only")

    def __init__(self, rules: RankTables, sets: SetsRules) -> None:
        self.rules = rules
        self.lowest_joker = sets.kill_joker_only == "lowest_joker"
        """two sets of jokers only: the beater's lowest joker must be higher (RLG), besides the kill ways"""
        table = sets.kill
        self.ways: dict[int, list[tuple[int, int]]] = {SJ: [], BJ: [], TOP: []}
        for sym, options in table.items():
            r = rank_of(sym)
            self.ways[r] = [(rank_of(str(o[0])), int(str(o[1]))) for o in options]
        self._memo: dict[tuple[Jokers, Jokers], frozenset[Jokers]] = {}

    def leftovers(self, tj: Jokers, bj: Jokers) -> frozenset[Jokers]:
        """Every way B's jokers ``bj`` can kill T's jokers ``tj``: the jokers B has left over."""
        key = (tj, bj)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        ts, tb, ty = tj
        if ty:
            victim, rest = TOP, (ts, tb, ty - 1)
        elif tb:
            victim, rest = BJ, (ts, tb - 1, ty)
        elif ts:
            victim, rest = SJ, (ts - 1, tb, ty)
        else:
            self._memo[key] = out = frozenset([bj])
            return out
        found: set[Jokers] = set()
        idx = {SJ: 0, BJ: 1, TOP: 2}
        for r, n in self.ways.get(victim, []):
            i = idx.get(r)
            if i is None or bj[i] < n:
                continue
            spent = list(bj)
            spent[i] -= n
            found |= self.leftovers(rest, (spent[0], spent[1], spent[2]))
        self._memo[key] = out = frozenset(found)
        return out

    def dead(self, t: CardSet) -> bool:
        """Is ``t`` a set nothing can beat (死牌)?"""
        ts, tb, ty = joker_counts(t)
        return bool((ts and not self.ways[SJ]) or (tb and not self.ways[BJ]) or (ty and not self.ways[TOP]))

    def may_beat(self, t: CardSet, size: int, rank: int) -> bool:
        """Could a set of ``size`` cards with core ``rank`` (-1: any) beat ``t``?  Its plain cards
        need a core above ``t``'s (or it is jokers only), and its size is ``t``'s plain cards plus
        the jokers spent on killing ``t``'s jokers."""
        if 0 <= rank < SJ and rank <= t.rank:
            return False
        most = max((n for ways in self.ways.values() for _, n in ways), default=0)
        ct = plain_count(t)
        return ct <= size <= ct + most * sum(joker_counts(t))

    def beats(self, b: CardSet, t: CardSet) -> bool:
        """Does ``b`` beat the table set ``t``?"""
        ct, pb = plain_count(t), plain_count(b)
        if pb and (ct == 0 or b.rank <= t.rank):
            return False
        if self.lowest_joker and not pb and not ct and b.rank <= t.rank:
            return False  # a joker-only set's rank is its lowest joker
        need = ct - pb
        if need < 0:
            return False
        return any(sum(left) == need for left in self.leftovers(joker_counts(t), joker_counts(b)))

    def followers(self, hand: Sequence[int], t: CardSet) -> list[CardSet]:
        """Every set in ``hand`` (rank counts) that beats ``t``."""
        ct = plain_count(t)
        tj = joker_counts(t)
        out: list[CardSet] = []
        hs, hb, hy = hand[SJ], hand[BJ], hand[TOP]
        for s in range(hs + 1):
            for b in range(hb + 1):
                for y in range(hy + 1):
                    lefts = self.leftovers(tj, (s, b, y))
                    if not lefts:
                        continue
                    sizes = {sum(left) for left in lefts}
                    # a set of jokers only
                    if ct in sizes and (s or b or y):
                        cs = _joker_set(s, b, y)
                        if self.rules.could_hold(cs) and not (self.lowest_joker and not ct and cs.rank <= t.rank):
                            out.append(cs)
                    if ct == 0:
                        continue
                    for left in sizes:
                        pb = ct - left
                        if pb < 1:
                            continue
                        for rb in range(t.rank + 1, SJ):
                            have = hand[rb]
                            if not have:
                                continue
                            ma, ms, mb, my = attach_ranges(self.rules, hand, rb)
                            if s > ms or b > mb or y > my:
                                continue
                            for a in range(min(ma, pb - 1) + 1):
                                k = pb - a
                                if 1 <= k <= have:
                                    out.append(cardset(rb, k, a, s, b, y))
        return out


register_beat(KillTable)


class CardByCard:
    """card_by_card: both sets sorted, each card of the beater strictly higher than its counterpart."""

    name: ClassVar[str] = "card_by_card"
    zh: ClassVar[str] = "逐张比大：张数相同，两套牌从小到大排好，每张都比对应的那张大"
    en: ClassVar[str] = "card by card: same size; sorted, each card strictly higher than the card in the same position"
    reads: ClassVar[tuple[str, ...]] = ()

    def __init__(self, rules: RankTables, sets: SetsRules) -> None:
        self.rules = rules
        self.top_rank = max((r for r in range(NRANKS) if rules.ranks_present[r]), default=BJ)

    @staticmethod
    def _sorted(cs: CardSet) -> list[int]:
        core = [cs.rank] * (cs.count + cs.twos)
        return sorted(core + [SJ] * cs.sj + [BJ] * cs.bj + [TOP] * cs.top)

    def dead(self, t: CardSet) -> bool:
        """Is ``t`` a set nothing can beat (死牌)?"""
        return self._sorted(t)[-1] >= self.top_rank

    def may_beat(self, t: CardSet, size: int, rank: int) -> bool:
        """Could a set of ``size`` cards with core ``rank`` (-1: any) beat ``t``?  Its lowest card is
        its core, which must be above ``t``'s lowest, ``t``'s core."""
        return size == t.size and rank > t.rank if rank >= 0 else size == t.size

    def beats(self, b: CardSet, t: CardSet) -> bool:
        """Does ``b`` beat the table set ``t``?"""
        if b.size != t.size:
            return False
        return all(x > y for x, y in zip(self._sorted(b), self._sorted(t), strict=True))

    def followers(self, hand: Sequence[int], t: CardSet) -> list[CardSet]:
        """Every set in ``hand`` (rank counts) that beats ``t``."""
        if self.dead(t):
            return []
        return same_size_followers(self.rules, hand, t, self.beats)


register_beat(CardByCard)
# registered by a call, not the decorator: a decorated class is not a native class in the compiled core


def _joker_set(s: int, b: int, y: int) -> CardSet:
    if s:
        return CardSet(SJ, s, 0, 0, b, y)
    if b:
        return CardSet(BJ, b, 0, 0, 0, y)
    return CardSet(TOP, y)


def set_context(cs: CardSet, prefix: str = "") -> dict[str, Any]:
    """What a ``beats`` expression knows of one set (``hooks.BEAT_CONTEXT``), names after ``prefix``."""
    s, b, y = joker_counts(cs)
    return {
        prefix + "rank": cs.rank,
        prefix + "count": cs.count,
        prefix + "twos": cs.twos,
        prefix + "sj": cs.sj,
        prefix + "bj": cs.bj,
        prefix + "top": cs.top,
        prefix + "size": cs.size,
        prefix + "jokers": cs.jokers,
        prefix + "all_twos": cs.twos + (cs.count if cs.rank == TWO else 0),
        prefix + "all_sj": s,
        prefix + "all_bj": b,
        prefix + "all_top": y,
        prefix + "plain": plain_count(cs),
    }


MEMO_MAX = 1 << 20
"""At most this many answers kept, and table sets, per variant (made-up positions may ask more; the
ones beyond are worked out again when asked)."""


class _Table:
    """What :class:`HookBeat` knows of one table set: its context, the answers asked so far (keyed as
    :func:`~gouji_rules.game.cards.cardset` packs a set), and which sizes and core ranks can beat it."""

    def __init__(self, t: CardSet, ctx: dict[str, Any]) -> None:
        self.t = t
        self.ctx = ctx
        self.memo: dict[int, bool] = {}
        self.planned: tuple[int, list[tuple[int, list[int]]]] = (0, [])
        """the sizes looked at (1 to this), and the (size, core ranks) among them that the expression
        does not turn down on those alone, sizes ascending; one attribute, replaced whole, so
        threads sharing the rules never see a mix"""
        self.top: Any = None
        """the expression's residual with this set known (None for a hook without residuals)"""
        self.dead = -1
        """1: nothing the deck can make beats it, 0: something does, -1: not asked yet"""


class HookBeat:
    """``hooks.beats``: the expression decides what beats what, the strategy ``sets.beat`` names gives
    its ``default``.

    Compiled to tables per variant, lazily: each table set's answers are kept as they are asked
    (the sets met in play are few), and before any set is tried, the expression is asked with only
    the table set known, then each size, then each core rank (:meth:`CompiledHook.residual`), so
    the generator never looks at a size or a core the expression turns down on those alone.
    :meth:`followers` tries every other set the hand can make and keeps what :meth:`beats` says,
    so the sets offered are exactly the sets accepted.  A set is dead when nothing the deck can
    make beats it.
    """

    def __init__(self, rules: RankTables, inner: BeatStrategy, hook: Callable[[dict[str, Any]], Any]) -> None:
        self.name = "hooks.beats"
        self.rules = rules
        self.inner = inner
        self.hook = hook
        self.residual: Any = getattr(hook, "residual", None)
        uses = getattr(hook, "uses", None)
        self.uses_default = uses is None or "default" in uses
        self.may_beat: Any = getattr(inner, "may_beat", None)
        """a necessary condition of ``default`` by size and core, where the strategy has one"""
        self.largest = len(rules.deck)
        self._tables: dict[CardSet, _Table] = {}
        self._kept = 0
        """answers kept in the tables, all together"""
        self._last: _Table = _Table(cardset(0, 0), {})
        """the table set last asked about (every seat is asked about the same set in a round)"""

    def _table(self, t: CardSet) -> _Table:
        last = self._last
        if last.t is t:
            return last
        tab = self._tables.get(t)
        if tab is None:
            tab = _Table(t, set_context(t, "table_"))
            if self.residual is not None:
                tab.top = self.residual(tab.ctx)
            if len(self._tables) < MEMO_MAX:
                self._tables[t] = tab
        self._last = tab
        return tab

    def _plan_to(self, tab: _Table, upto: int) -> list[tuple[int, list[int]]]:
        """``tab.planned`` extended to the sizes up to ``upto`` (a hand asks only up to its own size)."""
        done, plan = tab.planned
        plan = plan + self._plan(tab, range(done + 1, upto + 1))
        tab.planned = (upto, plan)
        return plan

    def _plan(self, tab: _Table, sizes: range) -> list[tuple[int, list[int]]]:
        t = tab.t
        ranks = [r for r in range(NRANKS) if self.rules.ranks_present[r]]
        top = tab.top
        if top is None or top.value is True:  # a hook without residuals, or one that accepts anything
            return [(n, ranks) for n in sizes]
        out: list[tuple[int, list[int]]] = []
        if top.value is not None:
            return out
        may_beat = self.may_beat if self.uses_default else None
        ctx = dict(tab.ctx)
        for n in sizes:
            ctx["size"] = n
            ctx.pop("rank", None)
            ctx.pop("default", None)
            if may_beat is not None and not may_beat(t, n, -1):
                ctx["default"] = False
            by_size = top.residual(ctx)
            if by_size.value is not None:
                if by_size.value:
                    out.append((n, ranks))
                continue
            kept = []
            for r in ranks:
                ctx["rank"] = r
                if may_beat is not None and "default" not in ctx and not may_beat(t, n, r):
                    if by_size.residual({**ctx, "default": False}).value is False:
                        continue
                elif by_size.residual(ctx).value is False:
                    continue
                kept.append(r)
            if kept:
                out.append((n, kept))
        return out

    def _ask(self, b: CardSet, t: CardSet, tab: _Table) -> bool:
        ctx = set_context(b)
        ctx.update(tab.ctx)
        if self.uses_default:
            ctx["default"] = self.inner.beats(b, t)
        hit = bool(self.hook(ctx))
        if self._kept < MEMO_MAX:
            self._kept += 1
            tab.memo[_key(b)] = hit
        return hit

    def beats(self, b: CardSet, t: CardSet) -> bool:
        """Does ``b`` beat the table set ``t``?"""
        tab = self._table(t)
        hit = tab.memo.get(_key(b))
        if hit is None:
            hit = self._ask(b, t, tab)
        return hit

    def dead(self, t: CardSet) -> bool:
        """Is ``t`` a set nothing can beat (死牌): no set the deck can make beats it?"""
        tab = self._table(t)
        if tab.dead < 0:
            counts = self.rules.deck_counts
            # a set the size of a deal first: what beats a set in play is seldom larger
            found = self._sets(counts, t, tab, True, max(self.rules.hand_sizes))
            tab.dead = 0 if found or self._sets(counts, t, tab, True, self.largest) else 1
        return tab.dead == 1

    def followers(self, hand: Sequence[int], t: CardSet) -> list[CardSet]:
        """Every set in ``hand`` (rank counts) that beats ``t``."""
        return self._sets(hand, t, self._table(t), False, self.largest)

    def _sets(self, hand: Sequence[int], t: CardSet, tab: _Table, first: bool, most: int) -> list[CardSet]:
        """The sets of at most ``most`` cards ``hand`` can make that beat ``t``, in size, core, 鹰, 大王,
        小王, 2s order (only the first one when ``first``)."""
        h: list[int] = hand if isinstance(hand, list) else list(hand)
        total = min(sum(h), most)
        done, plan = tab.planned
        if done < total:
            plan = self._plan_to(tab, total)
        memo = tab.memo
        rules = self.rules
        bare, attachable = rules.bare, rules.attach_jokers
        twos = h[TWO] if rules.attach_twos else 0
        sjs = h[SJ] if attachable[SJ] else 0
        bjs = h[BJ] if attachable[BJ] else 0
        tops = h[TOP] if attachable[TOP] else 0
        out: list[CardSet] = []
        for n, ranks in plan:
            if n > total:
                break
            for rb in ranks:
                hb = h[rb]
                if not hb:
                    continue
                if bare[rb]:
                    ma = ms = mb = my = 0
                else:  # attach_ranges, inlined
                    ma = twos if rb < TWO else 0
                    ms = sjs if rb < SJ else 0
                    mb = bjs if rb < BJ else 0
                    my = tops if rb < TOP else 0
                for y in range(min(my, n - 1) + 1):
                    for b in range(min(mb, n - 1 - y) + 1):
                        for s in range(min(ms, n - 1 - y - b) + 1):
                            rest = n - y - b - s
                            for a in range(min(ma, rest - 1) + 1):
                                k = rest - a
                                if k > hb:
                                    continue
                                hit = memo.get(rb | k << 4 | a << 12 | s << 20 | b << 28 | y << 36)
                                if hit is None:
                                    hit = self._ask(cardset(rb, k, a, s, b, y), t, tab)
                                if hit:
                                    out.append(cardset(rb, k, a, s, b, y))
                                    if first:
                                        return out
        return out


def _key(cs: CardSet) -> int:
    """A set packed in one int, as :func:`~gouji_rules.game.cards.cardset` packs it."""
    return cs.rank | cs.count << 4 | cs.twos << 12 | cs.sj << 20 | cs.bj << 28 | cs.top << 36
