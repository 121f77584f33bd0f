"""The compiled Variant: integer tables, the beat strategy and hook closures.

Built once per Variant (``variant.rules``).  The engine asks this object every
rule question; answers that depend only on a set are cached here, so an
expression hook costs one dict lookup after its first call.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Final, Protocol

from .beat import BeatStrategy, RankTables, make_strategy
from .cards import ACE, BJ, FOUR, JOKERS, NRANKS, SJ, SYMBOLS, THREE, TOP, TWO, CardSet, card, rank_of
from .errors import IllegalAction, VariantError
from .registry import DECLARATIONS, TRIBUTE_KINDS
from .seats import opposite, same_side, side, side_seats, sweep_of, teammates

if TYPE_CHECKING:
    from .hand_setup import Debt, HandResult
    from .parts.sections import Sections, TributeRules

NEVER = 1 << 30


class KangScope(IntEnum):
    """Whom 扛贡 exempts: nobody, the holder (四小扛自己) or his whole team (四大扛全场); the
    ``value`` of a ``kang`` event."""

    NONE = 0
    SELF = 1
    TEAM = 2


HEAD_FOREVER: Final = 1 << 20
"""Head rights that last the whole hand (more 够死级 sets than a hand holds)."""


RENAMED: Final[dict[str, tuple[str, str]]] = {
    "answer_anyone": ("gouji.answer", "== 'anyone'"),
    "reenter_opposite_set": ("play.pass_reentry", "== 'opposite_set'"),
    "random_first_drawer": ("play.first_leader", "== 'random'"),
    "wrong_play_loses_turn": ("play.wrong_play", "== 'lose_turn'"),
    "ffa_immediately": ("free_for_all.starts", "== 'immediately'"),
    "burn_own_team_first": ("burn.priority", "== 'own_team_first'"),
    "four_any_time": ("open_point.four_when", "== 'any_time'"),
    "dadian_any_gouji": ("open_point.dadian_lived", "== 'gouji_won'"),
    "men_ranks_last": ("men.penalty", "== 'place_bottom'"),
    "men_plays_on_at_bottom": ("men.penalty", "== 'bottom_plays_on'"),
    "buy_four_optional": ("buy.four", "== 'optional'"),
    "no_three_last": ("buy.no_three", "== 'last'"),
    "tribute_ranks": ("tribute.cards", "as rank indices, the highest first"),
    "sweep_streak_same_team": ("tribute.sweep_streak", "== 'same_team'"),
    "kaipai_count": ("match.kaipai", "== 'count'"),
    "shangban": ("match.first_leader", "== 'shangban'"),
    "next_leader_place": ("match.next_leader", "as a place: 6 for 'last_place', else 1"),
}
"""The attributes of :class:`Rules` not named after the option they are read from, each with its
``section.field`` and what it holds of it: a choice of words turned once into the bool the engine
asks (or a table), so no rule compares words in play.  Every other option is read as
``rules.<section>_<field>``, ``rules.<field>`` or, for ``<section>.enabled``, ``rules.<section>``
(tests/test_rules_fields.py holds ``Rules.__init__`` to that)."""


class HandState:
    """The state of the round that the 让牌 and 接风 questions read: :class:`gouji_rules.engine.Hand`
    extends it.  Declared here because the engine asks these rules and is never imported back; a
    class, not a Protocol, so the compiled engine's questions read it directly at every decision."""

    ffa: bool
    """Is the hand in 四人乱缠?"""
    yielded: list[bool]
    """Seats that yielded this round."""
    passed: list[bool]
    """Seats that passed this round."""
    active: list[bool]
    """Seats still in play."""
    owner: int
    """The seat whose set is on the table (-1: none)."""
    table: CardSet | None
    """The set on the table."""
    requester: int
    """The seat that asked 接风 (-1: none, -2: refused on this set)."""

    def bound(self, owner: int, cs: CardSet) -> bool:
        """Is ``cs`` played by ``owner`` a 够级 set that only some may answer?  The hand answers."""
        raise NotImplementedError


class Compiles(Protocol):
    """What compiles to :class:`Rules`: a :class:`~gouji_rules.variant.Variant` (``variant.rules``).
    Named here so that this module never imports the Variant, which imports it."""

    @property
    def rules(self) -> Rules:
        """The compiled rules, built on first use and kept."""
        ...


def as_rules(x: Rules | Compiles) -> Rules:
    """The compiled rules of a Variant (compiled once and cached), or ``x`` itself if it is Rules."""
    return x if isinstance(x, Rules) else x.rules


class Rules(RankTables):
    """The only door to the rules: every question the engine, the match phases, settlement,
    result entry and statistics ask is an attribute or a method here.

    Parameters are copied out of the Variant's sections once, as plain ints, bools and tables
    (that is also what makes them fast); every hook is dispatched by a method of this class, so
    a club's expression and the variant's parameter are one answer.  Legality questions come
    in pokerkit's triple: ``verify_x`` raises :class:`IllegalAction` naming the rule and the
    clause, ``can_x`` answers ``verify_x`` as a bool, and both use one check.

    >>> from gouji_rules.catalog import dagang, dianshaomenla
    >>> dagang().rules.can_burn(0, 2)  # a teammate's 够级 set may be burned (S4 第六条)
    True
    >>> dianshaomenla().rules.can_burn(0, 3)  # never the opposite's: he answers it
    False
    """

    def __init__(self, variant: Sections) -> None:
        self.variant = v = variant
        self.name = v.name
        self.thresholds = [NEVER] * NRANKS
        for sym, n in v.gouji.thresholds.items():
            self.thresholds[rank_of(sym)] = n
        self.attach_twos = v.sets.attach_twos
        self.attach_jokers = [False] * NRANKS
        for sym in v.sets.attach_jokers:
            self.attach_jokers[rank_of(sym)] = True
        self.bare = [False] * NRANKS
        for sym in v.sets.bare:
            self.bare[rank_of(sym)] = True
        self.burn_exempt = [False] * NRANKS
        for sym in v.burn.exempt:
            self.burn_exempt[rank_of(sym)] = True
        self.whole = [False] * NRANKS
        """sets.whole: ranks a seat plays all at once, in one set"""
        for sym in v.sets.whole:
            self.whole[rank_of(sym)] = True
        self.any_whole = any(self.whole)
        self.deck = build_deck(v)
        self.deck_counts = [0] * NRANKS
        """how many cards of each rank the deck holds"""
        for c in self.deck:
            self.deck_counts[c >> 2] += 1
        self.ranks_present = [n > 0 for n in self.deck_counts]
        self.hand_sizes = deal_sizes(v, len(self.deck))
        self.places_names = list(v.places.names)
        if len(self.places_names) != 6:
            raise VariantError("places.names must name exactly 6 places")
        if len(v.scoring.points) != 6:
            raise VariantError("scoring.points must give exactly 6 numbers")
        self.hooks = v.hooks
        self._fingerprint: str | None = None
        self._gouji: dict[CardSet, bool] = {}
        self._pure: dict[CardSet, bool] = {}
        self._pure_min: list[int] | None = None
        self._answer: dict[tuple[bool, bool, bool, bool, bool], bool] = {}
        # -- sets and play
        self.joker_sets = v.gouji.joker_sets
        self.twos_count = v.gouji.twos_count
        self.pure_twos = v.gouji.pure_twos
        self.answer_anyone = v.gouji.answer == "anyone"
        self.kou = v.sets.kou
        self.bie3 = v.play.bie3
        self.allow_yield = v.play.allow_yield
        self.yield_lapses = v.play.yield_lapses
        """a 让牌 turns into a pass once anyone plays after it (RLG)"""
        self.no_head = v.play.no_head
        """无头 applies: once a seat's opposite is out, 够级 no longer binds it"""
        self.no_head_when = ("left_play", "went_out", "first_out").index(v.play.no_head_when)
        """which departures of the opposite make a seat 无头 (``play.no_head_when``): 0 any, 1 going out, 2 头科's"""
        self.reenter_opposite_set = v.play.pass_reentry == "opposite_set"
        self.random_first_drawer = v.play.first_leader == "random"
        self.free_for_all = v.free_for_all.enabled
        self.free_for_all_after_out = v.free_for_all.after_out
        self.ffa_immediately = v.free_for_all.starts == "immediately"
        self.free_for_all_passers_return = v.free_for_all.passers_return
        self.jiefeng_policy = v.jiefeng.policy
        self.wrong_play_loses_turn = v.play.wrong_play == "lose_turn"
        """错牌不出 (S4 第四条(一)): a wrong play loses the turn; else it is refused and the seat acts again"""
        self.announce = v.play.announce
        """报牌: when other seats' hand sizes are told (never, free_for_all, always)"""
        # -- burn
        b = v.burn
        self.burn = b.enabled
        self.burn_needs_open_point = b.needs_open_point
        self.burn_teammate = b.teammate
        self.burn_after_pass = b.after_pass
        self.burn_own_team_first = b.priority == "own_team_first"
        self.burn_counter = b.counter
        self.break_burn = b.break_burn
        self.burn_fail_severity = b.fail_severity
        # -- 开点, 闷
        op = v.open_point
        self.open_point = op.enabled
        self.open_point_deadline_out = op.deadline_out
        self.last_set_exception = op.last_set_exception
        self.natural_point = op.natural_point
        self.dadian = op.dadian
        self.four_any_time = op.four_when == "any_time"
        """S4 第八条: the 4s that open may come any time after the pure set stood (S0: the very next lead)"""
        self.dadian_any_gouji = op.dadian_lived == "gouji_won"
        """S4 第二十二条(一): any 够级 set that won the lead spares its seat from 打点 (else a pure set that stood)"""
        self.men = v.men.enabled
        self.men_ranks_last = v.men.penalty == "place_bottom"
        self.men_severity = v.men.severity
        self.men_plays_on_at_bottom = v.men.penalty == "bottom_plays_on"
        """先清为落 (S4 第十五条): placed from the bottom at once, but plays on"""
        self.men_show_hand = v.men.show_hand
        # -- between hands
        k = v.kang
        self.kang_enabled, self.kang_small, self.kang_big = k.enabled, k.small, k.big
        self.declarations = {name: DECLARATIONS.find(name)(self, v.declare) for name in DECLARATIONS}
        self.declare_win_needs_own_point = v.declare.win_needs_own_point
        self.fanche_multiplier = v.declare.fanche_multiplier
        bu = v.buy
        self.buy = bu.enabled
        self.buy_four_optional = bu.four == "optional"
        self.buy_price = [rank_of(x) for x in bu.price]
        self.buy_sellers = list(bu.sellers)
        self.buy_keep = bu.keep
        self.buy_price_opposite_team = (
            self.buy_price if bu.price_opposite_team is None else [rank_of(x) for x in bu.price_opposite_team]
        )
        self.buy_free = bu.free
        self.no_three_last = bu.no_three == "last"
        self.no_four_closes_point = bu.no_four_closes_point
        t = v.tribute
        self.tribute = t.enabled
        self.tribute_ranks = sorted((rank_of(x) for x in t.cards), reverse=True)
        self.kept_excluded = t.kept_excluded
        self.return_refusable = t.return_refusable
        self.point_call = t.point_call
        self.sweep_redeal = t.sweep_redeal
        self.sweep_streak_same_team = t.sweep_streak == "same_team"
        self.tribute_shown = t.shown
        """tribute and returned cards are shown to the whole table (S0 八、进贡: 明置)"""
        self.tribute_kinds = tribute_kinds(self, t)
        g = v.geming
        self.geming = g.enabled
        self.geming_void_at = g.void_at
        self.geming_place = g.place
        self.geming_place_if_team_top = g.place_if_team_top
        self.geming_opposite_rights = g.opposite_rights
        self.geming_cannot_pay = g.cannot_pay
        ch = v.chongdian
        self.chongdian = ch.enabled
        self.chongdian_max_rank = rank_of(ch.max_rank)
        self.chongdian_sets = ch.sets
        self.chongdian_place = ch.place
        self.chongdian_second_place = ch.second_place
        self.chongdian_redeal_at = ch.redeal_at
        self.chongdian_fail_drops_fours = ch.fail_drops_fours
        self.chongdian_no_head_closes = ch.no_head_closes
        self.chongdian_opposite_rights = HEAD_FOREVER if ch.opposite_rights is None else ch.opposite_rights
        """够死级 rights of a 冲点 player's opposite who keeps 有头 (S0 十、冲点: the whole hand)"""
        m = v.match
        self.kaipai_count = m.kaipai == "count"
        self.shangban = m.first_leader == "shangban"
        self.next_leader_place = 6 if m.next_leader == "last_place" else 1
        self.match_hands = m.hands
        self.match_target = m.target
        self.huiwu = m.huiwu
        self.reopen_after_sweep = m.reopen_after_sweep
        self.choose_last = m.choose_last
        self.points = list(v.scoring.points)
        self.positive_only = v.scoring.positive_only
        self.scoring = v.scoring.enabled
        """hands are scored (S4 第十九条); off: tribute without scoring"""
        self.scoring_sweep_multiplier = v.scoring.sweep_multiplier
        self.beat: BeatStrategy = make_strategy(self, v.sets)

    @property
    def fingerprint(self) -> str:
        """The variant's fingerprint (:meth:`Variant.fingerprint`), worked out when first asked for
        (a hand record asks; checking a variant file does not)."""
        if self._fingerprint is None:
            self._fingerprint = self.variant.fingerprint()
        return self._fingerprint

    # -- a value: equal, pickled and copied as the variant it was compiled from ---------

    def __eq__(self, other: object) -> bool:
        return other is self or (isinstance(other, Rules) and other.variant == self.variant)

    def __hash__(self) -> int:
        return hash(self.name)

    def __reduce__(self) -> tuple[Callable[..., Rules], tuple[Sections]]:
        return (as_rules, (self.variant,))

    def __copy__(self) -> Rules:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        return self

    # -- sets ---------------------------------------------------------------------------

    def set_context(self, cs: CardSet) -> dict[str, Any]:
        """The names an ``is_gouji`` / ``is_pure_gouji`` expression sees for one set."""
        return {
            "rank": cs.rank,
            "count": cs.count,
            "twos": cs.twos,
            "sj": cs.sj,
            "bj": cs.bj,
            "top": cs.top,
            "size": cs.size,
            "jokers": cs.jokers,
            "threshold": 0 if self.thresholds[cs.rank] >= NEVER else self.thresholds[cs.rank],
        }

    def is_gouji(self, cs: CardSet) -> bool:
        """够级牌 (S4 第五条): enough cards of a rank, or (where the variant says so) any joker."""
        hit = self._gouji.get(cs)
        if hit is None:
            hook = self.hooks.get("is_gouji")
            if hook is not None:
                hit = bool(hook(self.set_context(cs)))
            elif cs.jokers and cs.rank < SJ:
                hit = self.joker_sets
            elif cs.rank >= SJ:
                hit = self.joker_sets or cs.count >= self.thresholds[cs.rank]
            else:
                n = cs.count + (cs.twos if self.twos_count else 0)
                hit = n >= self.thresholds[cs.rank]
            self._gouji[cs] = hit
        return hit

    def is_pure_gouji(self, cs: CardSet) -> bool:
        """纯够级牌 (S0 四、开点, S4 第八条): 够级 with no joker, no attached 2, not a single."""
        hit = self._pure.get(cs)
        if hit is None:
            gouji = self.is_gouji(cs)
            hook = self.hooks.get("is_pure_gouji")
            if hook is not None:
                hit = bool(hook({**self.set_context(cs), "gouji": gouji}))
            else:
                hit = gouji and cs.jokers == 0 and cs.twos == 0 and cs.size > 1
                if cs.rank == TWO and not self.pure_twos:
                    hit = False
            self._pure[cs] = hit
        return hit

    def pure_minimum(self, r: int) -> int:
        """The fewest cards of rank ``r`` that make a pure 够级 set (0: none can)."""
        mins = self._pure_min
        if mins is None:
            pure = self.is_pure_gouji
            mins = [
                next((k for k in range(2, n + 1) if pure(CardSet(x, k))), 0) for x, n in enumerate(self.deck_counts)
            ]
            self._pure_min = mins
        return int(mins[r])

    def pure_sets(self, hand: Sequence[int]) -> int:
        """How many pure 够级 sets a hand can make at most (冲点 needs three; 自然点 needs none)."""
        return sum(hand[r] // m for r in range(NRANKS) if (m := self.pure_minimum(r)))

    def pure_choices(self, hand: Sequence[int]) -> list[CardSet]:
        """Every pure 够级 set a hand can put down (the sets a 冲点 player chooses from)."""
        out = []
        for r in range(NRANKS):
            m = self.pure_minimum(r)
            if m:
                out += [CardSet(r, k) for k in range(m, hand[r] + 1) if self.is_pure_gouji(CardSet(r, k))]
        return out

    def may_answer(self, is_opposite: bool, is_teammate: bool, no_head: bool, owner_no_head: bool, ffa: bool) -> bool:
        """May a seat answer a 够级 set without burning (S4 第五条, S0 无头)."""
        key = (is_opposite, is_teammate, no_head, owner_no_head, ffa)
        hit = self._answer.get(key)
        if hit is None:
            hook = self.hooks.get("may_answer")
            if hook is not None:
                hit = bool(
                    hook(
                        {
                            "is_opposite": is_opposite,
                            "is_teammate": is_teammate,
                            "no_head": no_head,
                            "owner_no_head": owner_no_head,
                            "free_for_all": ffa,
                        }
                    )
                )
            elif self.answer_anyone or ffa or owner_no_head:
                hit = True
            else:
                hit = is_opposite or (no_head and self.no_head)
            self._answer[key] = hit
        return hit

    def makes_no_head(self, went_out: bool, first: bool) -> bool:
        """Does a seat become 无头 when its opposite leaves play: ``went_out`` (出完牌, not 闷, a failed
        burn or a place given before play), as ``first`` (头科)?  S4 第十条 「头科产生后，其对头的够级对象不复存在」
        names only 头科's opposite; S0 opening 「若一个人对门走后」 any seat whose opposite went out
        (``play.no_head_when``).  A seat whose opposite left otherwise stays bound: see ``Hand.bound``."""
        if not self.no_head:
            return False
        when = self.no_head_when
        return when == 0 or (went_out and (when == 1 or first))

    # -- play: who may do what ------------------------------------------------------------

    def may_reenter(self, passed_seat: int, owner: int, ffa: bool) -> bool:
        """May a seat that passed in this round play on ``owner``'s set (S0 过牌, S4 第五条, 第十一条)?"""
        if ffa and self.free_for_all_passers_return:
            return True
        return self.reenter_opposite_set and owner == opposite(passed_seat)

    def burn_order(self, owner: int) -> list[int]:
        """The seats asked whether they burn ``owner``'s 够级 set, in priority order (S4 第六条, S0 五、烧牌)."""
        ks = (2, 4, 1, 5) if self.burn_own_team_first else (1, 2, 4, 5)
        return [(owner + k) % 6 for k in ks]

    def _burn_refusal(
        self, burner: int, victim: int, opened: bool, passed: bool, burning: int, burn_victim: int
    ) -> IllegalAction | None:
        if not self.burn:
            return IllegalAction(f"{self.name} has no 烧牌", rule="burn_enabled")
        if burner == victim:
            return IllegalAction("nobody burns his own set", rule="burn_self")
        if victim == opposite(burner):
            return IllegalAction("the opposite answers a 够级 set; he does not burn it", rule="burn_opposite")
        if victim == burning:
            if self.burn_counter == "none":
                return IllegalAction("反烧 is not allowed", rule="counter_burn")
            if self.burn_counter == "victim" and burner != burn_victim:
                return IllegalAction("only the burned seat may counter-burn (反烧)", rule="counter_burn")
        if not self.burn_teammate and same_side(burner, victim):
            return IllegalAction("a teammate's 够级 set may not be burned", rule="burn_teammate")
        if self.burn_needs_open_point and not opened:
            return IllegalAction(
                "only a player who has opened (开点) may burn", rule="burn_open_point", clause="S4 第六条"
            )
        if not self.burn_after_pass and passed:
            return IllegalAction(
                "a player who passed in this round may not burn", rule="burn_after_pass", clause="S0 五、烧牌"
            )
        return None

    def verify_burn(
        self,
        burner: int,
        victim: int,
        *,
        opened: bool = True,
        passed: bool = False,
        burning: int = -1,
        burn_victim: int = -1,
    ) -> None:
        """Raise IllegalAction unless ``burner`` may burn ``victim``'s 够级 set.

        ``opened``: the burner has opened (开点); ``passed``: he passed in this round;
        ``burning`` / ``burn_victim``: the seat burning now and whom it burned (for 反烧).
        """
        refusal = self._burn_refusal(burner, victim, opened, passed, burning, burn_victim)
        if refusal is not None:
            raise refusal

    def can_burn(
        self,
        burner: int,
        victim: int,
        *,
        opened: bool = True,
        passed: bool = False,
        burning: int = -1,
        burn_victim: int = -1,
    ) -> bool:
        """:meth:`verify_burn` as a yes or no."""
        return self._burn_refusal(burner, victim, opened, passed, burning, burn_victim) is None

    def has_burn(self) -> bool:
        """烧牌 is played at all (S4 第六条, S0 五、烧牌)."""
        return bool(self.burn)

    def may_burn(self, burner: int, victim: int) -> bool:
        """May ``burner`` ever burn a 够级 set of ``victim`` (what a result may say): :meth:`can_burn` with a
        burner who has opened, has not passed and burns no counter-burn (反烧)."""
        return self._burn_refusal(burner, victim, True, False, -1, -1) is None

    def may_open_now(self, out: int, trick_out: int) -> bool:
        """May a seat still open (S4 第八条: not once 头科 and 二科 are out, but for the round of the
        deadline player's last set)?  ``out``: players out now; ``trick_out``: out when the round began."""
        d = self.open_point_deadline_out
        if d is None or out < d:
            return True
        return self.last_set_exception and trick_out < d

    def point_deadline_passed(self, out: int) -> bool:
        """Has the 开点 deadline passed once ``out`` players are out (S4 第八条)?"""
        return self.open_point and self.open_point_deadline_out is not None and out >= self.open_point_deadline_out

    def ffa_starts(self, out: int) -> bool:
        """Does 四人乱缠 begin once ``out`` players are out (S4 第十一条, S0 “走2个人后不存在够级”)?"""
        return self.free_for_all and out >= self.free_for_all_after_out

    def jiefeng_leader(self, owner: int, active: Sequence[bool]) -> int | None:
        """Who leads after ``owner`` went out and nobody answered his last set; None when the
        lead goes by request and consent (S4 第十三条)."""
        if self.jiefeng_policy == "by_consent":
            return None
        nxt = next(((owner + k) % 6 for k in range(1, 7) if active[(owner + k) % 6]), owner)
        if self.jiefeng_policy == "next_teammate":
            for k in (2, 4):
                if active[(owner + k) % 6]:
                    return (owner + k) % 6
        return nxt

    # -- a hand's legality: the questions Hand.refusal and the move generator ask ----------

    def set_refusal(self, cs: CardSet, hand: Sequence[int], seat: int) -> IllegalAction | None:
        """Why ``seat``, holding ``hand`` (rank counts), may not put ``cs`` down whatever it is asked:
        cards it does not hold, a set the variant does not know, 3s before the last set (憋3), part
        of a rank that goes out whole (``sets.whole``).  None: it may, where a set is asked for."""
        r, n = cs.rank, cs.count
        if not 0 <= r < NRANKS or min(cs) < 0 or n < 1 or cs.size > len(self.deck):
            return IllegalAction(  # named by its numbers: its text could not be written, or would be huge
                f"CardSet{tuple(cs)} is not a set: a rank 0-{NRANKS - 1}, at least one card of it, no count"
                f" below 0, no more cards than the deck's {len(self.deck)}",
                rule="set_form",
                clause="S4 第四条(四)",
            )
        if n > hand[r] or (cs.attached and not self._holds_attached(cs, hand)):
            return IllegalAction(f"seat {seat} does not hold {cs}", rule="cards_in_hand", clause="S4 第四条(一)")
        if not self.could_hold(cs):
            return IllegalAction(
                f"{cs} is not a set under {self.name}: one rank, and only the attachments the variant allows",
                rule="set_form",
                clause="S4 第四条(三)(四), 第二十三条",
            )
        if r == THREE and self.bie3 and (n != hand[THREE] or cs.attached or sum(hand) != n):
            return IllegalAction(
                "3s go last, all together and with nothing attached (憋3)",
                rule="bie3",
                clause="S4 第九条, 第二十三条; S0 “3必须最后出”",
            )
        if self.whole[r] and n != hand[r]:
            return IllegalAction(
                f"the {SYMBOLS[r]}s go out all at once, in one set: all {hand[r]} of them (sets.whole)",
                rule="whole",
                clause="RLG 4 的约束: 玩家持有的所有 4 必须一次出完",
            )
        return None

    @staticmethod
    def _holds_attached(cs: CardSet, hand: Sequence[int]) -> bool:
        r, n = cs.rank, cs.count
        for jr, k in ((TWO, cs.twos), (SJ, cs.sj), (BJ, cs.bj), (TOP, cs.top)):
            if k > hand[jr] - (n if jr == r else 0):
                return False
        return True

    def may_follow_with(self, cs: CardSet, hand: Sequence[int]) -> bool:
        """Among the sets of ``hand`` that beat the table set, may this one answer it (``sets.whole``:
        all of a rank at once; 憋3: the 3s only as the last set)?  The generator's filter of
        :meth:`set_refusal`, for a set already known to be held and well formed."""
        r = cs.rank
        if self.whole[r] and cs.count != hand[r]:
            return False
        return not (r == THREE and self.bie3 and (cs.count != hand[THREE] or cs.attached or sum(hand) != cs.count))

    def followers(self, hand: list[int], table: CardSet) -> list[CardSet]:
        """The sets of ``hand`` that may answer ``table``: those the beat strategy finds, less what
        :meth:`may_follow_with` turns down (the checks run only where they can turn one down)."""
        hit = self.beat.followers(hand, table)
        if self.any_whole:
            return [cs for cs in hit if self.may_follow_with(cs, hand)]
        if self.bie3 and hand[THREE]:
            for cs in hit:
                if cs.rank == THREE:  # the shipped strategies never let a 3 answer; a beats hook may
                    return [x for x in hit if self.may_follow_with(x, hand)]
        return hit

    def burner_needs_joker(self, cs: CardSet) -> bool:
        """Would a burner break S4 第六条 (每次所发牌中必须挂一小花或大花, 最后一次发3可除外) with ``cs``?"""
        return not cs.jokers and not self.burn_exempt[cs.rank]

    def burner_sets(self, sets: list[CardSet]) -> list[CardSet]:
        """The sets of ``sets`` a burner may play: each carries a joker, the exempt ranks aside."""
        ex = self.burn_exempt
        return [cs for cs in sets if cs.jokers or ex[cs.rank]]

    def burner_can_lead(self, hand: Sequence[int]) -> bool:
        """Can a burner asked to lead with ``hand`` keep S4 第六条: a joker left to attach, or only
        exempt ranks (the last 3s)?  If not, the burn has failed (诈烧, S0 五、烧牌)."""
        if hand[SJ] or hand[BJ] or hand[TOP]:
            return True
        ex = self.burn_exempt
        return all(not hand[r] or ex[r] for r in range(NRANKS))

    def yield_problem(self, hand: HandState, seat: int) -> str:
        """Why ``seat``, facing a set in ``hand``, may not 让牌, as a key of :data:`YIELD_REFUSALS`
        ("" if it may): only on the opposite's set, not a 够级 set only he may answer, once the two
        seats after the opposite have passed (or are out), once a round, never in 四人乱缠."""
        if not self.allow_yield:
            return "off"
        if hand.ffa:
            return "ffa"
        if hand.yielded[seat]:
            return "again"
        o, table = hand.owner, hand.table
        if table is None or o != opposite(seat):
            return "not_opposite"
        if hand.bound(o, table):
            return "bound"
        passed, active = hand.passed, hand.active
        up1, up2 = (o + 1) % 6, (o + 2) % 6
        if not ((passed[up1] or not active[up1]) and (passed[up2] or not active[up2])):
            return "not_passed"
        return ""

    def jiefeng_problem(self, hand: HandState, seat: int) -> str:
        """Why ``seat``, facing a set in ``hand``, may not ask 接风 (S4 第十三条), as a key of
        :data:`JIEFENG_REFUSALS` ("" if it may): only under ``jiefeng.policy: by_consent``, on the
        last set of a player who went out, by the next seat in play after him, once a set."""
        if self.jiefeng_policy != "by_consent":
            return "off"
        requester = hand.requester
        if requester >= 0:
            return "pending"
        o, active = hand.owner, hand.active
        if o < 0 or active[o]:
            return "not_out"
        if next(((o + k) % 6 for k in range(1, 7) if active[(o + k) % 6]), o) != seat:
            return "not_next"
        if requester == -2:
            return "refused"
        return ""

    def yield_refusal(self, problem: str) -> IllegalAction:
        """The refusal of a 让牌 for :meth:`yield_problem`'s ``problem``."""
        text, clause = YIELD_REFUSALS[problem]
        return IllegalAction(text.format(name=self.name), rule="yield", clause=clause)

    def jiefeng_refusal(self, problem: str) -> IllegalAction:
        """The refusal of a 接风 request for :meth:`jiefeng_problem`'s ``problem``."""
        text, clause = JIEFENG_REFUSALS[problem]
        return IllegalAction(text.format(name=self.name, policy=self.jiefeng_policy), rule="jiefeng", clause=clause)

    # -- places forced by the rules ---------------------------------------------------------

    def geming_final_place(self, teammates_top: bool) -> int:
        """The place of a 革命 player (S4 第二十一条): 四科, or 三科 when his two teammates took 头科 and 二科."""
        return self.geming_place_if_team_top if teammates_top else self.geming_place

    def geming_place_at(self, seat: int, places: Sequence[int]) -> int:
        """The place of the 革命 player at ``seat`` given where the others finished (``places``, by seat)."""
        mates = sorted(places[s] for s in teammates(seat))
        return self.geming_final_place(mates == [1, 2])

    def geming_opposite_opens_by_rights(self) -> bool:
        """Does a 革命 player's opposite who keeps 有头 count as opened once his 够死级 sets have stood
        (S4 第二十二条: 够死级三把方算开点)?  Where 打点 is played (``open_point.dadian``)."""
        return bool(self.dadian)

    def geming_voids(self, declarers: int) -> bool:
        """This many 革命 at once void the hand (S4 第二十一条)."""
        return declarers >= self.geming_void_at

    def chongdian_places(self, players: int) -> tuple[int, ...]:
        """The places of the 冲点 players, the better first (S0 十、冲点: one is 四客; of two, the other 小拉)."""
        if players <= 1:
            return (self.chongdian_place,)
        return (self.chongdian_place, self.chongdian_second_place)

    def chongdian_placings(
        self, results: Sequence[tuple[int, bool]], last_places: Sequence[int] | None = None
    ) -> list[dict[int, int]]:
        """Where the 冲点 players (``(seat, succeeded)`` in the order they declared) are placed, as
        every placing the rules allow (S0 十、冲点): one is 四客; of two, the one that succeeded takes
        the better place, and when both succeeded or both failed, the better of last hand
        (``last_places``; the first to declare when they tied or there was no last hand).  Without
        ``last_places`` (a hand entered at a table) a tie allows either order."""
        places = self.chongdian_places(len(results))
        if len(results) == 1:
            return [{results[0][0]: places[0]}]
        (a, ok_a), (b, ok_b) = results[0], results[1]
        if ok_a != ok_b:
            good, bad = (a, b) if ok_a else (b, a)
            return [{good: places[0], bad: places[1]}]
        if last_places is None:
            return [{a: places[0], b: places[1]}, {b: places[0], a: places[1]}]
        good, bad = (a, b) if last_places[a] <= last_places[b] else (b, a)
        return [{good: places[0], bad: places[1]}]

    def chongdian_redeals(self, players: int) -> bool:
        """This many 冲点 players cause a redeal (S0 十、冲点)."""
        return players >= self.chongdian_redeal_at

    def chongdian_opens(self, seat: int, succeeded: bool) -> int:
        """The seat a 冲点 opens: its player when it succeeds, the opposite when it fails (S0 十、冲点)."""
        return seat if succeeded else opposite(seat)

    def chongdian_outcome(self, seat: int, success: bool) -> tuple[frozenset[int], frozenset[int]]:
        """Who counts as opened and who may no longer open after ``seat``'s 冲点 (S0 十、冲点):
        success opens it; failure closes it and opens its opposite."""
        opened = frozenset({self.chongdian_opens(seat, success)})
        return opened, (frozenset() if success else frozenset({seat}))

    def chongdian_dropped(self, succeeded: bool) -> tuple[int, ...]:
        """The ranks a 冲点 player's opposite throws away after it (S0 十、冲点「对门被视为开点并且扔掉4继续游戏」
        when it fails; ``chongdian.fail_drops_fours``)."""
        return (FOUR,) if not succeeded and self.chongdian_fail_drops_fours else ()

    def chongdian_no_head_closed(self, succeeded: bool) -> bool:
        """Does an opposite who chose 无头 lose the right to open (S0 十、冲点「选择无头若对门冲点成功则不能开点」;
        ``chongdian.no_head_closes``)?"""
        return succeeded and self.chongdian_no_head_closes

    def bottom_severity(self, kind: str) -> int | None:
        """How far down a seat is placed at once, counted from last place, by ``kind``: ``burn_fail``
        (诈烧, S0 五、烧牌, S4 第六条) or ``men`` (闷 under S0 六、闷与被闷); None when the seat plays on (S4's 清).
        Of two seats placed so, the higher severity is lower."""
        if kind == "burn_fail":
            return self.burn_fail_severity
        if kind == "men":
            # a 清 seat that plays on is placed later, not at once (men_bottom_severity says where)
            return None if (self.men_plays_on_at_bottom or not self.men) else self.men_bottom_severity()
        raise VariantError(f"no place is forced by {kind!r} (burn_fail or men)")

    def _men_refusal(self, victim: int, by: int) -> IllegalAction | None:
        if not self.men:
            return IllegalAction(f"{self.name} has no 闷 / 清", rule="men_enabled")
        if victim == by:
            return IllegalAction("a seat cannot 闷 itself", rule="men_self", clause="S0 六、闷与被闷, S4 第十五条")
        return None

    def verify_men(self, victim: int, by: int) -> None:
        """Raise IllegalAction unless ``by`` beating ``victim``'s set before his last 3s can be 闷 / 清."""
        refusal = self._men_refusal(victim, by)
        if refusal is not None:
            raise refusal

    def has_men(self) -> bool:
        """闷 / 清 applies (S0 六、闷与被闷, S4 第十五条)."""
        return bool(self.men)

    def men_bottom_severity(self) -> int | None:
        """How far down a 闷 victim is placed at once (S0; S4 先清为落, who plays on but keeps the place),
        or None where 闷 only costs 清贡."""
        if self.men_ranks_last or self.men_plays_on_at_bottom:
            return int(self.men_severity)
        return None

    # -- between hands (hooks dispatched here) ----------------------------------------------------

    def kang(self, hand: Sequence[int]) -> KangScope:
        """扛贡 (S0 八、进贡, S4 第十四条(七)): whom the holder of ``hand`` exempts from tribute."""
        if not self.kang_enabled:
            return KangScope.NONE
        ctx = {"sj": hand[SJ], "bj": hand[BJ]}
        hook = self.hooks.get("kang_team")
        team = bool(hook(ctx)) if hook is not None else hand[BJ] >= self.kang_big
        if team:
            return KangScope.TEAM
        hook = self.hooks.get("kang_self")
        alone = bool(hook(ctx)) if hook is not None else hand[SJ] >= self.kang_small
        return KangScope.SELF if (alone or hand[BJ] >= self.kang_small) else KangScope.NONE

    def kang_seats(self, seat: int, scope: KangScope) -> frozenset[int]:
        """The seats a 扛贡 of ``scope`` by ``seat`` exempts from paying: his whole side (大王扛贡) or himself."""
        if scope is KangScope.TEAM:
            return frozenset(side_seats(side(seat)))
        return frozenset({seat}) if scope is KangScope.SELF else frozenset()

    def geming_eligible(self, hand: Sequence[int]) -> bool:
        """May a player holding ``hand`` declare 革命 (S4 第二十一条: no 2 and no joker)?"""
        if not self.geming:
            return False
        hook = self.hooks.get("geming_eligible")
        if hook is not None:
            ctx = {
                "twos": hand[TWO],
                "sj": hand[SJ],
                "bj": hand[BJ],
                "top": hand[TOP],
                "aces": hand[ACE],
                "cards": sum(hand),
            }
            return bool(hook(ctx))
        return hand[TWO] + hand[SJ] + hand[BJ] + hand[TOP] == 0

    def has_geming(self) -> bool:
        """革命 may be declared (S4 第二十一条)."""
        return bool(self.geming)

    def cannot_pay(self, hand: Sequence[int], owed: int) -> bool:
        """进贡不起 (S4 第十四条(二), ``geming.cannot_pay``): does a seat holding ``hand`` owe more tribute
        cards than it holds, so that it may declare 革命?"""
        if not (self.geming and self.geming_cannot_pay):
            return False
        return owed > sum(hand[r] for r in set(self.tribute_ranks))

    def no_three_places_last(self) -> bool:
        """A seat left without a 3 is placed last before play (S4 第九条)."""
        return bool(self.buy and self.no_three_last)

    def no_three_place(self, taken: Collection[int]) -> int:
        """The place of a seat left without a 3 (S4 第九条): the lowest place not ``taken`` by a seat
        placed before play."""
        place = 6
        while place in taken:
            place -= 1
        return place

    def announced(self, free_for_all: bool) -> bool:
        """Are hand sizes told now (报牌, ``play.announce``)?"""
        return self.announce == "always" or (self.announce == "free_for_all" and free_for_all)

    def chongdian_eligible(self, hand: Sequence[int]) -> bool:
        """May a player holding ``hand`` 冲点 (S0 十、冲点: nothing above A, three pure 够级 sets)?"""
        if not self.chongdian:
            return False
        top = max((r for r in range(NRANKS) if hand[r]), default=0)
        pure = self.pure_sets(hand)
        hook = self.hooks.get("chongdian_eligible")
        if hook is not None:
            jokers = hand[SJ] + hand[BJ] + hand[TOP]
            return bool(hook({"max_rank": top, "pure_sets": pure, "twos": hand[TWO], "jokers": jokers}))
        return top <= self.chongdian_max_rank and pure >= self.chongdian_sets

    def has_chongdian(self) -> bool:
        """冲点 may be declared (S0 十、冲点)."""
        return bool(self.chongdian)

    def buy_payment(self, group: str, hand: Sequence[int]) -> int | None:
        """The rank a buyer holding ``hand`` pays a seller of ``group`` for one 3 or 4: -1 when the card
        is given (a teammate, or S0's 直接白送), None when he cannot buy from that group (S4 第九条:
        「可以用2向对头的联邦买」 — the opposite's team sells only for a 2)."""
        if group == "team":
            return -1
        prices = self.buy_price_opposite_team if group == "opposite_team" else self.buy_price
        for r in prices:
            if hand[r]:
                return r
        return -1 if self.buy_free else None

    def tribute_rank(self, hand: Sequence[int], kept: Sequence[int]) -> int:
        """The rank a payer hands over as one tribute card, or -1 (the ``tribute_card`` hook, else the
        largest of ``tribute.cards`` not gained this hand when 吃了不吐 applies)."""
        hook = self.hooks.get("tribute_card")
        if hook is not None:
            r = int(hook({"counts": list(hand), "kept": list(kept)}))
            return r if 0 <= r < NRANKS and hand[r] > 0 else -1
        for r in self.tribute_ranks:
            if hand[r] - (kept[r] if self.kept_excluded else 0) > 0:
                return r
        return -1

    def tribute_kind(self, name: str) -> Any:
        """The compiled tribute kind called ``name`` (point, burn, men, place, sweep …)."""
        for k in self.tribute_kinds:
            if k.name == name:
                return k
        return TRIBUTE_KINDS.find(name)(self, self.variant.tribute)

    def extension_options(self, entry: Any) -> dict[str, Any]:
        """The options ``entry`` (a registered strategy, tribute kind, declaration or phase, or an
        instance of one) declares, each at the value this variant writes or its default
        (:mod:`gouji_rules.options`)."""
        from .options import values

        return values(self.variant, entry)

    def names_extension(self, entry: Any) -> bool:
        """Does this variant switch ``entry`` on by naming it (``sets.beat``, ``tribute.order``, its key
        under ``declare.kinds`` or ``phases``: :func:`gouji_rules.options.switched_on`)?"""
        from .options import registry_of, switched_on

        return switched_on(self.variant, registry_of(entry), entry.name)

    def may_call_point(self, kind: str) -> bool:
        """May the payer of a debt of ``kind`` show a 大王 and call the card he is owed back (S0 八、进贡
        「需要进贡的一方摸到一张大王，可以即刻亮出大王…进贡时将大王进上」: the 点贡 only; ``tribute.point_call``)?"""
        return self.point_call and kind == "point"

    def may_waive(self, kind: str, giver: int, receiver: int) -> bool:
        """May ``receiver`` waive this debt (a teammate's, of a waivable kind)?"""
        return giver != receiver and same_side(giver, receiver) and bool(self.tribute_kind(kind).waivable)

    def may_refuse_return(self, payer_hand: Sequence[int], rank: int, other_ranks: int) -> bool:
        """May the payer refuse a returned card of ``rank`` (``tribute.return_refusable``; S4 第十四条(四)
        「若进贡一方没有与还贡牌点数相同的牌，可拒绝此张还贡牌，请吃贡方换」)?  Only when he holds no card of
        that rank and the receiver has ``other_ranks`` (> 0) still to offer."""
        return self.return_refusable and not payer_hand[rank] and other_ranks > 0

    def declaration(self, name: str) -> Any:
        """The compiled declaration called ``name``; unknown names raise VariantError."""
        hit = self.declarations.get(name)
        if hit is None:
            DECLARATIONS.find(name)
            raise VariantError(f"{self.name} has no {name}")
        return hit

    def verify_declaration(self, name: str) -> None:
        """Raise IllegalAction unless this variant has the declaration ``name`` (宣点, 明点, 预点 …)."""
        if not self.can_declare(name):
            on = [k for k, x in self.declarations.items() if x.enabled and x.stake is not None] or ["none"]
            raise IllegalAction(f"{self.name} has no {name} (it has: {', '.join(on)})", rule="declaration")

    def can_declare(self, name: str) -> bool:
        """:meth:`verify_declaration` as a yes or no."""
        d = self.declarations.get(name)
        return d is not None and bool(d.enabled)

    def has_open_point(self) -> bool:
        """开点 is played (S0 四、开点, S4 第八条)."""
        return bool(self.open_point)

    def staked_declarations(self) -> list[str]:
        """The declarations a result may record: those with a stake (宣点 S0 四、开点; 明点 / 预点 S4
        第二十二条(三)); 和点 only opens both opposites and is entered as 开点."""
        return [k for k, d in self.declarations.items() if d.stake is not None]

    def may_declare(self, kind: str) -> bool:
        """A staked declaration this variant has (:meth:`can_declare`)."""
        return kind in self.staked_declarations() and self.can_declare(kind)

    def declaration_barred(self, kind: str, seat: int, placed: Collection[int]) -> bool:
        """明点 is declared after 革命 and 冲点: not by a seat placed before play (``placed``), nor on one."""
        return kind == "mingdian" and (seat in placed or opposite(seat) in placed)

    def verify_declaring(self, kind: str, seat: int, placed: Collection[int], declared: Collection[int]) -> None:
        """Raise IllegalAction unless ``seat`` may declare ``kind`` now, having ``declared`` before: a seat
        declares once a hand (预点, 宣点/和点 or 明点: ⚑ chosen, docs/rules.md §24), and 明点 not by or
        on a seat placed before play.  Every declaring phase and club entry ask it."""
        if seat in declared:
            raise IllegalAction("a seat declares once a hand", rule="declare", clause="S4 第二十二条(三); S0 四、开点")
        if self.declaration_barred(kind, seat, placed):
            raise IllegalAction(
                "declared after 革命 and 冲点, not by or on a seat placed before play",
                rule="declare",
                clause="S4 第二十二条(三); S0 四、开点",
            )

    def can_declare_now(self, kind: str, seat: int, placed: Collection[int], declared: Collection[int]) -> bool:
        """:meth:`verify_declaring` as a yes or no."""
        try:
            self.verify_declaring(kind, seat, placed, declared)
        except IllegalAction:
            return False
        return True

    # -- scoring --------------------------------------------------------------------------

    def place_points(self, place: int) -> int:
        """The points of one place (1..6) before the team formula."""
        return int(self.points[place - 1])

    def team_scores(self, places: Sequence[int]) -> tuple[int, int]:
        """Scores of team 0 (seats 0, 2, 4) and team 1 from each seat's place (1..6)."""
        if not self.scoring:
            return 0, 0  # tribute without scoring (scoring.enabled, S4 第十四条 vs 第十九条)
        sweep_team = sweep_of(places)
        out = []
        hook = self.hooks.get("team_score")
        for team in (0, 1):
            seats = side_seats(team)
            pts = [self.place_points(places[s]) for s in seats]
            sweep = sweep_team == team
            if hook is not None:
                score = int(hook({"points": pts, "places": [places[s] for s in seats], "sweep": sweep}))
            else:
                score = sum(pts)
                if self.positive_only:
                    score = max(0, score)
            out.append(score * self.sweep_multiplier(sweep))
        return out[0], out[1]

    def sweep_multiplier(self, sweep: bool) -> int:
        """The score multiplier of a team (``sweep``: it took places 1-3, 串三户)."""
        hook = self.hooks.get("sweep_multiplier")
        if hook is not None:
            return int(hook({"sweep": sweep}))
        return self.scoring_sweep_multiplier if sweep else 1

    def debts(self, result: HandResult) -> list[Debt]:
        """What the hand's result leaves owed for the next hand, in the variant's tribute order."""
        if not self.tribute:
            return []
        out: list[Debt] = []
        for kind in self.tribute_kinds:
            out += kind.debts(self, result)
        out = [d for d in out if d.count > 0]
        rank = {k.name: i for i, k in enumerate(self.tribute_kinds)}
        out.sort(key=lambda d: rank.get(d.kind, len(rank)))
        return out

    def next_leader(self, places: Sequence[int]) -> int:
        """Who leads the next hand: last hand's last place (S4 第二条, S0) or its first."""
        return next((s for s, p in enumerate(places) if p == self.next_leader_place), 0)

    def carried_leader(self, next_leader: int, sweep: int | None) -> int | None:
        """The seat that leads the next hand, or None when 开牌 (and 上班) choose again: after a
        串三户 where ``match.reopen_after_sweep`` (大纲第二条(二): 出现串三户…应重新开牌)."""
        return None if sweep is not None and self.reopen_after_sweep else next_leader

    def sweep_streak(self, streak: int, sweep: int | None, last_sweep: int | None) -> tuple[int, bool]:
        """串三户 in a row once a hand swept for team ``sweep`` (None: no sweep) after ``streak`` of them
        (the last by ``last_sweep``), counted as ``tribute.sweep_streak`` says; and whether the streak
        redeals with no tribute (S4 第十四条(七) 连续三次串三户一般不进贡，应重新开牌), the count then
        starting again."""
        if sweep is None:
            return 0, False
        streak = 1 if self.sweep_streak_same_team and sweep != last_sweep else streak + 1
        if self.sweep_redeal and streak >= self.sweep_redeal:
            return 0, True
        return streak, False

    def last_place_swaps(self, places: Sequence[int]) -> list[int]:
        """Seats the last place may trade places with after the hand (谁为大落可以商定: S4 第十四条(六),
        S0 串三户)."""
        how = self.choose_last
        last = list(places).index(6)
        if how == "losing_pair":
            second = list(places).index(5)
            return [second] if same_side(last, second) else []
        if how == "swept_team":
            team = sweep_of(list(places))
            if team is None or side(last) == team:
                return []
            return teammates(last)
        return []


def tribute_kinds(rules: Rules, tribute: TributeRules) -> list[Any]:
    """The kinds the variant names in ``tribute.order`` (a kind it names, or the kind it sorts as:
    the sweep kind under ``place``), compiled, in that order; a registered kind the order does not
    name is not paid under this variant.  Found through the registry by name: the kinds' module
    builds on this one."""
    for name in (*tribute.order, *tribute.returned, *tribute.waivable):
        TRIBUTE_KINDS.find(name)  # an unknown kind is an error, with the nearest name
    order = list(tribute.order)

    def key(name: str) -> str:
        return TRIBUTE_KINDS[name].sorts_as or name

    named = [name for name in TRIBUTE_KINDS if name in order or key(name) in order]
    named.sort(key=lambda name: order.index(name if name in order else key(name)))
    return [TRIBUTE_KINDS[name](rules, tribute) for name in named]


YIELD_REFUSALS: Final = {
    "off": ("{name} has no 让牌 (play.allow_yield)", "S4 第四条 让牌, S0 让牌"),
    "ffa": ("no 让牌 in 四人乱缠: 够级, 过牌 and 让牌 no longer apply", "S4 第十一条"),
    "again": ("you yielded on this set already: now play on it or pass", "S4 第四条 让牌 (再由持牌人确定上牌或扣牌)"),
    "not_opposite": ("让牌 is only on your opposite's set (唯有对头才有让牌权)", "S4 第四条 让牌, S0 让牌"),
    "bound": ("only you may answer this 够级 set: there is nobody to yield to", "S4 第四条 让牌, 第五条"),
    "not_passed": (
        "让牌 only once the two players before you have passed on your opposite's set",
        "S4 第四条 让牌 (持牌人对上两家过牌的对头牌), S0 让牌",
    ),
}
"""Why a 让牌 is refused, by :meth:`Rules.yield_problem`'s key: the message and the clause."""

JIEFENG_REFUSALS: Final = {
    "off": ("under {name} nobody asks 接风: the lead passes by itself (jiefeng.policy: {policy})", "S4 第十三条"),
    "pending": ("a 接风 request is being answered", "S4 第十三条"),
    "not_out": ("接风 is asked on the last set of a player who went out; this set's owner plays on", "S4 第十三条"),
    "not_next": ("only the next player after the one who went out may ask 接风 (持牌人对上家的底牌)", "S4 第十三条"),
    "refused": ("接风 was refused on this set: answer it or pass", "S4 第十三条 (如其余持牌人均同意)"),
}
"""Why a 接风 request is refused, by :meth:`Rules.jiefeng_problem`'s key: the message and the clause."""


def build_deck(v: Sections) -> list[int]:
    """Every card of the deck in a fixed order (rank, suit, pack), before shuffling."""
    suited: dict[int, list[int]] = {r: [] for r in range(NRANKS)}
    for _ in range(v.deck.packs):
        for r in range(TWO + 1):
            for s in range(4):
                suited[r].append(card(r, s))
        suited[SJ].append(card(SJ, 0))
        suited[BJ].append(card(BJ, 0))
    for sym, n in v.deck.remove.items():
        r = rank_of(sym)
        if n > len(suited[r]):
            raise VariantError(f"deck.remove takes {n} cards of {sym} but the deck has {len(suited[r])}")
        # remove evenly across suits so the suits that remain stay balanced
        keep = len(suited[r]) - n
        suited[r] = _balanced(suited[r], keep)
    for sym, n in v.deck.extra.items():
        r = rank_of(sym)
        suited[r].extend(card(r, 0 if r in JOKERS else i % 4) for i in range(n))
    out: list[int] = []
    for r in range(NRANKS):
        out.extend(sorted(suited[r]))
    return out


def _balanced(cards: list[int], keep: int) -> list[int]:
    by_suit: dict[int, list[int]] = {}
    for c in cards:
        by_suit.setdefault(c & 3, []).append(c)
    out: list[int] = []
    i = 0
    while len(out) < keep:
        for s in sorted(by_suit):
            if len(out) < keep and i < len(by_suit[s]):
                out.append(by_suit[s][i])
        i += 1
    return out


def deal_sizes(v: Sections, total: int) -> list[int]:
    """Cards per seat in deal order (first drawer first)."""
    if v.deck.hand_size is not None:
        if v.deck.hand_size * 6 > total:
            raise VariantError(f"deck.hand_size {v.deck.hand_size} × 6 is more than the {total} cards in the deck")
        return [v.deck.hand_size] * 6
    base, extra = divmod(total, 6)
    if extra and v.deck.uneven == "error":
        raise VariantError(f"{total} cards do not divide among 6 players (deck.uneven is 'error')")
    return [base + (1 if i < extra else 0) for i in range(6)]
