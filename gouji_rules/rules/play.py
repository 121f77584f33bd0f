"""Chapter 出牌: what a seat may put down, answer, yield or ask, and when 四人乱缠 begins.

S4 第四条 (出牌, 错牌不出, 让牌), 第九条 (憋3), 第十一条 (四人乱缠), 第十三条 (接风), S0 过牌 and 让牌;
RLG's 4 的约束 (``sets.whole``).  The engine's ``Hand.refusal`` and its move generator ask these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from ..errors import IllegalAction
from ..game.cards import BJ, NRANKS, SJ, SYMBOLS, THREE, TOP, TWO, CardSet
from ..game.seats import opposite
from .beat import BeatStrategy
from .sets import SetsChapter

if TYPE_CHECKING:
    from ..parts.sections import Sections


class HandState:
    """The state of the round that the 让牌 and 接风 questions read: :class:`gouji_rules.play.engine.Hand`
    extends it.  Declared here because the engine asks these rules and is never imported back; a
    class, not a Protocol, so the compiled engine's questions read it directly at every decision.
    Only values: whether a 够级 set binds is the rules' answer (:meth:`PlayChapter.bound`)."""

    ffa: bool
    """Is the hand in 四人乱缠?"""
    yielded: list[bool]
    """Seats that yielded this round."""
    passed: list[bool]
    """Seats that passed this round."""
    active: list[bool]
    """Seats still in play."""
    no_head: list[bool]
    """Seats that are 无头: 够级 no longer binds them."""
    head_rights: dict[int, int]
    """够死级 rights left, by seat: sets whose 够级 still binds after the opposite left."""
    owner: int
    """The seat whose set is on the table (-1: none)."""
    table: CardSet | None
    """The set on the table."""
    requester: int
    """The seat that asked 接风 (-1: none, -2: refused on this set)."""


class PlayChapter(SetsChapter):
    """The play questions: legality of a set, who follows, 让牌, 接风, 报牌."""

    beat: BeatStrategy
    """What beats what (``sets.beat``), built last, once every chapter is compiled."""

    def __init__(self, variant: Sections) -> None:
        super().__init__(variant)
        v = variant
        self.kou = v.sets.kou
        self.bie3 = v.play.bie3
        self.allow_yield = v.play.allow_yield
        self.yield_lapses = v.play.yield_lapses
        """a 让牌 turns into a pass once anyone plays after it (RLG)"""
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

    def may_reenter(self, passed_seat: int, owner: int, ffa: bool) -> bool:
        """May a seat that passed in this round play on ``owner``'s set (S0 过牌, S4 第五条, 第十一条)?"""
        if ffa and self.free_for_all_passers_return:
            return True
        return self.reenter_opposite_set and owner == opposite(passed_seat)

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

    def bound(self, hand: HandState, owner: int, cs: CardSet) -> bool:
        """Is ``cs`` played by ``owner`` in ``hand`` a 够级 set that only some may answer (S4 第五条;
        无头 and 够死级 rights, S0)?"""
        if hand.ffa or hand.no_head[owner]:
            return False
        has_head = (
            hand.active[opposite(owner)]
            or hand.head_rights.get(owner, 0) > 0
            or not self.no_head
            or (self.no_head_when != 0 and owner not in hand.head_rights)  # gone without making him 无头
        )
        return has_head and self.is_gouji(cs)

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
        if self.bound(hand, o, table):
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

    def announced(self, free_for_all: bool) -> bool:
        """Are hand sizes told now (报牌, ``play.announce``)?"""
        return self.announce == "always" or (self.announce == "free_for_all" and free_for_all)


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
