"""An independent referee: clauses of S0 and S4 checked on every action of random hands.

The clause tests build one situation each; this replays whole hands (random and greedy agents
mixed, 2 × 150 deals) and checks, on every action, what a referee at the table would check,
using only the variant's predicates (``is_gouji``, ``is_pure_gouji``) and the text:

* 憋3 (S0 “3必须最后出”, S4 第九条, 第二十三条): a set of 3s is the player's whole last set, bare;
* 点牌 (S4 第八条 “4为点牌，出牌时不挂花、不贴钱”);
* 够级 (S0 五 “够级牌正常情况下只能对门互相打”, S4 第五条): a plain answer to a 够级 set comes from the
  opposite, a 无头 seat (or against a 无头 seat), the burner, or in 四人乱缠;
* 过牌 (S0 “过牌之后再不能要”, S4 第五条 “过牌者除对头牌外，这一轮再无权发牌”), and no burn after a pass (S0 五);
* 烧牌 (S0 五 “每一套牌都能挂王（除最后一张3）”, S4 第六条): the burner's sets carry a joker; S4 “没有开点的，
  不能够烧牌”;
* 死牌 (S4 第四条(三), 第七条): a 大花 set is conceded by the opposite before anything else;
* 闷 / 清 (S0 六, S4 第十五条): exactly the seats whose set before their last 3s was taken;
* 开点 (S0 四 “当纯够级牌站住时，下一张打出4则为开点”; S4 第八条 “纯够级牌开点”);
* who leads (S0 接风 “由走的人下家直接出牌”): the winner of a round, or the next seat in play;
* 名次 (S0 opening, 六; S4 第六条): places follow the order of going out, 诈烧 below 闷 in S0.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import pytest

from gouji_rules import make_agent, play_match
from gouji_rules.game.actions import Action, Burn, Play
from gouji_rules.game.cards import BJ, NRANKS, SJ, THREE, CardSet, counts_of, parse_set
from gouji_rules.game.rng import derive
from gouji_rules.play.agents import GreedyAgent, RandomAgent
from gouji_rules.play.engine import FOLLOW, KOU_MODE, LEAD, Hand, Point
from gouji_rules.variant import Variant

from .conftest import S0, S4

HANDS = 150
FOUR_RANK = 1


def opposite(s: int) -> int:
    return (s + 3) % 6


def has_joker(c: CardSet) -> bool:
    return bool(c.sj or c.bj or c.top or c.rank >= SJ)


@dataclass
class Referee:
    """What a referee remembers during a hand."""

    variant: Variant
    faults: list[tuple[object, ...]] = field(default_factory=list)
    passed: set[int] = field(default_factory=set)
    last: tuple[CardSet, int] | None = None  # the last set put down and its owner
    active_after: list[bool] = field(default_factory=lambda: [True] * 6)

    @property
    def s0(self) -> bool:
        return self.variant.name == "dianshaomenla"

    def before_lead(self, h: Hand, s: int) -> bool:
        """Check who leads; return whether ``s``'s pure 够级 set just stood."""
        self.passed = set()
        if self.last is None:
            return False
        cards, owner = self.last
        if self.active_after[owner]:
            if s != owner:
                self.faults.append(("leader_not_owner", s, owner))
        elif self.s0:
            nxt = next((owner + k) % 6 for k in range(1, 7) if h.active[(owner + k) % 6])
            if s != nxt:
                self.faults.append(("jiefeng_seat", s, owner, nxt))
        return owner == s and h.rules.is_pure_gouji(cards)

    def check_set(self, h: Hand, s: int, a: Action, c: CardSet, before: dict[str, object]) -> None:
        hand = list(before["hand"])  # type: ignore[call-overload]
        for rank, n in c.card_counts().items():
            hand[rank] -= n
        if c.rank == THREE and (sum(hand) or c.twos or has_joker(c)):
            self.faults.append(("bie3", s, str(a)))
        if c.rank == FOUR_RANK and not self.s0 and (c.twos or has_joker(c)):
            self.faults.append(("four_bare", s, str(a)))
        burning = before["burning"]
        if burning == s and c.rank != THREE and not has_joker(c):
            self.faults.append(("burn_joker", s, str(a)))
        table, owner, ffa = before["table"], before["owner"], before["ffa"]
        no_head: list[bool] = before["no_head"]  # type: ignore[assignment]
        mode = before["mode"]
        if isinstance(a, Play) and mode == FOLLOW and isinstance(table, CardSet) and isinstance(owner, int):
            bound = h.rules.is_gouji(table) and not ffa and not h.setup.head_rights
            free = s == opposite(owner) or no_head[s] or no_head[owner] or burning == s
            if bound and not free:
                self.faults.append(("gouji_answer", s, owner, str(table), str(a)))
            if s in self.passed and not ffa and (self.s0 or owner != opposite(s)):
                self.faults.append(("pass_reentry", s, owner, str(a)))
        dead = not self.s0 and (c.bj or c.rank == SJ + 1) and h.active[s] and h.active[opposite(s)] and not h.is_over
        if dead and not (h.mode == KOU_MODE and h.turn == opposite(s)):
            self.faults.append(("dead_without_kou", s, str(a)))

    def check_events(self, h: Hand, new: list[object], before: dict[str, object]) -> None:
        point: list[Point] = before["point"]  # type: ignore[assignment]
        for e in new:
            t, seat = e.type, e.seat  # type: ignore[attr-defined]
            if t in ("burn", "counter_burn"):
                if self.s0 and seat in self.passed and not before["ffa"]:
                    self.faults.append(("burn_after_pass", seat))
                if h.rules.burn_needs_open_point and point[seat] != Point.OPEN:
                    self.faults.append(("burn_not_open", seat))
            if t == "men":
                left = h.hands[seat]
                if not (sum(left) and sum(left) == left[THREE]):
                    self.faults.append(("men_wrong", seat))
            if t == "open_point" and (e.cards is None or e.cards.rank != FOUR_RANK):  # type: ignore[attr-defined]
                self.faults.append(("open_not_4", seat))

    def check_men_missing(self, h: Hand, s: int, before: dict[str, object]) -> None:
        owner = before["owner"]
        active: list[bool] = before["active"]  # type: ignore[assignment]
        if isinstance(owner, int) and owner >= 0 and owner != s and active[owner]:
            left = h.hands[owner]
            if (
                sum(left)
                and sum(left) == left[THREE]
                and not any(e.type == "men" and e.seat == owner for e in h.events)
            ):
                self.faults.append(("men_missing", owner, s))

    def check_places(self, h: Hand) -> None:
        if sorted(h.places) != [1, 2, 3, 4, 5, 6]:
            self.faults.append(("places", h.places))
        finish = [e.seat for e in h.events if e.type == "finish"]
        low = {e.seat for e in h.events if e.type in ("men", "burn_fail")}
        top = [x for x in finish if x not in low]
        if [h.places[x] for x in top] != list(range(1, len(top) + 1)):
            self.faults.append(("finish_order", finish, h.places))
        if self.s0:
            fails = [e.seat for e in h.events if e.type == "burn_fail"]
            men = [e.seat for e in h.events if e.type == "men"]
            expect = list(range(6, 6 - len(fails) - len(men), -1))
            if [h.places[x] for x in fails + men] != expect:
                self.faults.append(("bottom_order", fails, men, h.places))


def referee_hand(variant: Variant, seed: int, mix: int) -> tuple[Hand, list[tuple[object, ...]]]:
    ref = Referee(variant)
    h = Hand.deal(variant, seed)
    agents = [RandomAgent() if (mix + k) % 2 else GreedyAgent() for k in range(6)]
    for s, ag in enumerate(agents):
        ag.start_hand(seed, s)
    while not h.is_over:
        s = h.turn
        before: dict[str, object] = {
            "mode": h.mode,
            "table": h.table,
            "owner": h.owner,
            "ffa": h.ffa,
            "no_head": list(h.no_head),
            "burning": h.burning,
            "active": list(h.active),
            "hand": list(h.hands[s]),
            "point": list(h.point),
        }
        stood = ref.before_lead(h, s) if h.mode == LEAD else False
        point_before = h.point[s]
        a = agents[s].act(h.observation(s), h.legal_actions())
        n = len(h.events)
        h.apply(a)
        new = h.events[n:]
        if str(a) == "pass" and before["mode"] == FOLLOW:
            ref.passed.add(s)
        if isinstance(a, (Play, Burn)):
            ref.check_set(h, s, a, a.cards, before)
            ref.last = (a.cards, s)
            if before["mode"] != LEAD:
                ref.check_men_missing(h, s, before)
        ref.active_after = list(h.active)
        ref.check_events(h, new, before)
        if before["mode"] == LEAD and isinstance(a, Play):
            opened = any(e.type == "open_point" and e.seat == s for e in new)
            if ref.s0 and opened != (a.cards.rank == FOUR_RANK and stood and point_before == Point.PENDING):
                ref.faults.append(("s0_open", s, str(a), stood, point_before, opened))
    ref.check_places(h)
    return h, ref.faults


@pytest.mark.parametrize("variant", [S0, S4], ids=["dianshaomenla", "dagang"])
def test_s0_s4_referee_finds_no_fault_in_random_hands(variant: Variant) -> None:
    """150 deals per variant: every action obeys the clauses listed in the module docstring."""
    faults = []
    seen: set[str] = set()
    for i in range(HANDS):
        h, bad = referee_hand(variant, derive(777, i), i)
        faults += [(i, *b) for b in bad]
        seen.update(e.type for e in h.events)
    assert faults == []
    # the hands reach the clauses checked
    assert {"burn", "men", "open_point", "no_head", "free_for_all", "jiefeng"} <= seen


def test_referee_catches_a_wrong_place() -> None:
    """The referee is not blind: a hand whose places are tampered with is faulted."""
    h, bad = referee_hand(S0, derive(777, 1), 1)
    assert bad == []
    first = h.places.index(1)
    second = h.places.index(2)
    h.places[first], h.places[second] = 2, 1
    ref = Referee(S0)
    ref.check_places(h)
    assert ref.faults and ref.faults[0][0] in ("finish_order", "bottom_order")


# -- between hands: 进贡 ---------------------------------------------------------------------------

KINDS = ["point", "burn", "men", "place", "sweep"]


def _rank(text: str) -> int:
    return parse_set(text).rank


def tribute_faults(variant: Variant, seed: int) -> list[tuple[object, ...]]:
    """Replay the cards moved before play from a match's records and check each 进贡 against the texts:
    S0 八 “进贡进的牌一定是当前手牌最大的牌 … 吃了的贡就是点数最大也不能进”, “进贡按照点、烧、闷、拉的顺序”;
    S4 第十四条(一) “按牌点大小取大者进贡，进贡顺序为点贡、烧贡、清贡、落贡”; and no more than is owed."""
    rules = variant.rules
    done = play_match(variant, seed=seed, hands=3, agents=[make_agent("greedy") for _ in range(6)])
    faults: list[tuple[object, ...]] = []
    owed_by_last: list[dict[str, object]] | None = None
    for summary in done.summaries:
        record = summary.record
        pre = record["pre_play"]
        redeals = [i for i, e in enumerate(pre) if e["type"] == "redeal"]
        pre = pre[redeals[-1] + 1 :] if redeals else pre
        hands = [list(counts_of(h)) for h in record["dealt"]]
        kept = [[0] * NRANKS for _ in range(6)]
        paid: Counter[tuple[str, int, int]] = Counter()
        last_kind = 0
        for e in pre:
            t = e["type"]
            if t in ("buy3", "buy4"):
                buyer, seller, c = e["seat"], e["other"], _rank(e["cards"])
                hands[seller][c] -= 1
                hands[buyer][c] += 1
                kept[buyer][c] += 1
                if e.get("value"):
                    price = e["value"] - 1
                    hands[buyer][price] -= 1
                    hands[seller][price] += 1
                    kept[seller][price] += 1
            elif t == "point_call":
                giver, other, c = e["seat"], e["other"], e["value"] - 1
                hands[other][c] -= 1
                hands[giver][c] += 1
                kept[giver][c] += 1
            elif t in ("tribute", "return_tribute"):
                giver, receiver, c = e["seat"], e["other"], _rank(e["cards"])
                if t == "tribute":
                    free = [
                        r
                        for r in rules.tribute_ranks
                        if hands[giver][r] - (kept[giver][r] if rules.kept_excluded else 0)
                    ]
                    called = any(x["type"] == "point_call" and x["seat"] == giver for x in pre)
                    if not free or (c != max(free) and not (called and c == BJ)):
                        faults.append(("not_the_largest", seed, summary.index, giver, e["cards"], free))
                    if e["value"] < last_kind:
                        faults.append(("order", seed, summary.index, e))
                    last_kind = e["value"]
                    kept[receiver][c] += 1
                    paid[(KINDS[e["value"] - 1], giver, receiver)] += 1
                hands[giver][c] -= 1
                hands[receiver][c] += 1
            if any(n < 0 for h in hands for n in h):
                faults.append(("card_not_held", seed, summary.index, e))
                break
        if owed_by_last is not None:
            owed: Counter[tuple[str, int, int]] = Counter()
            for d in owed_by_last:
                owed[(str(d["kind"]), int(d["giver"]), int(d["receiver"]))] += int(d["count"])  # type: ignore[call-overload]
            faults += [("overpaid", seed, summary.index, k, n, owed[k]) for k, n in paid.items() if n > owed[k]]
        owed_by_last = record["debts_next"]
    return faults


@pytest.mark.parametrize("variant", [S0, S4], ids=["dianshaomenla", "dagang"])
def test_s0_sec8_s4_art14_referee_finds_no_fault_in_tribute(variant: Variant) -> None:
    """40 matches of 3 hands per variant: every 进贡 card is the payer's largest he may pay, in the order
    of the kinds, and never more than the last hand left owing."""
    faults = []
    for i in range(40):
        faults += tribute_faults(variant, 5000 + i)
    assert faults == []
