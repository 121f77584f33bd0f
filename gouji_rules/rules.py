"""The compiled Variant: integer tables, the beat strategy and hook closures.

Built once per Variant (``variant.rules``).  The engine asks this object every
rule question; answers that depend only on a set are cached here, so an
expression hook costs one dict lookup after its first call.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .beat import BeatStrategy, make_strategy
from .cards import BJ, JOKERS, NRANKS, SJ, SYMBOLS, TOP, TWO, CardSet, card, rank_of
from .errors import VariantError

if TYPE_CHECKING:
    from .variant import Variant

NEVER = 1 << 30


@dataclass(frozen=True)
class HookSpec:
    """What an expression hook may use and must return.

    ``names`` maps each name in the hook's context to its type: ``int``,
    ``bool``, ``rank`` (an int rank index; expressions write rank literals) or
    ``list[int]``.
    """

    names: Mapping[str, str]
    result: str
    zh: str
    en: str


SET_CONTEXT = {
    "rank": "rank",
    "count": "int",
    "twos": "int",
    "sj": "int",
    "bj": "int",
    "top": "int",
    "size": "int",
    "jokers": "int",
    "threshold": "int",
}

HOOKS: dict[str, HookSpec] = {
    "is_gouji": HookSpec(
        SET_CONTEXT,
        "bool",
        "这套牌是不是够级牌",
        "is this set 够级 (threshold is 0 when the rank has none)",
    ),
    "is_pure_gouji": HookSpec(
        {**SET_CONTEXT, "gouji": "bool"},
        "bool",
        "这套牌是不是纯够级牌（能开点）",
        "is this set pure 够级 (may open the point)",
    ),
    "may_answer": HookSpec(
        {
            "is_opposite": "bool",
            "is_teammate": "bool",
            "no_head": "bool",
            "owner_no_head": "bool",
            "free_for_all": "bool",
        },
        "bool",
        "这个人能不能不烧牌直接管这套够级牌",
        "may this seat answer a 够级 set without burning",
    ),
    "team_score": HookSpec(
        {"points": "list[int]", "places": "list[int]", "sweep": "bool"},
        "int",
        "一方的本局得分（points 为三人的名次分，places 为三人的名次）",
        "a team's score for the hand from its players' place points and places",
    ),
    "geming_eligible": HookSpec(
        {"twos": "int", "sj": "int", "bj": "int", "top": "int", "aces": "int", "cards": "int"},
        "bool",
        "能不能革命（大纲第二十一条：没有大花、小花、钱）",
        "may this player declare 革命 (counts are of the dealt hand)",
    ),
    "chongdian_eligible": HookSpec(
        {"max_rank": "rank", "pure_sets": "int", "twos": "int", "jokers": "int"},
        "bool",
        "能不能冲点（点烧闷拉第十节：没有大于A的牌，至少3套纯够级牌）",
        "may this player 冲点",
    ),
    "kang_self": HookSpec(
        {"sj": "int", "bj": "int"},
        "bool",
        "能不能扛自己的贡（四小扛自己）",
        "is this player exempt from paying tribute",
    ),
    "kang_team": HookSpec(
        {"sj": "int", "bj": "int"}, "bool", "能不能扛全队的贡（四大扛全场）", "is this player's whole team exempt"
    ),
    "tribute_card": HookSpec(
        {"counts": "list[int]", "kept": "list[int]"},
        "rank",
        "进贡交哪张牌（counts 为各点数张数，kept 为不能进的张数）；返回点数，-1 表示没有可进的牌",
        "which rank to pay as tribute from the payer's counts by rank; -1 when nothing qualifies",
    ),
    "sweep_multiplier": HookSpec(
        {"sweep": "bool"}, "int", "串三户时的得分倍数", "the score multiplier (sweep is true for 串三户)"
    ),
}


class Rules:
    """What the engine reads.  Attributes are plain ints, lists and closures."""

    def __init__(self, variant: Variant) -> None:
        self.variant = v = variant
        self.name = v.name
        self.thresholds = [NEVER] * NRANKS
        for sym, n in v.gouji.thresholds.items():
            self.thresholds[rank_of(sym)] = n
        self.attach_twos = v.sets.attach_twos
        self.attachable = [False] * NRANKS
        for sym in v.sets.attach_jokers:
            self.attachable[rank_of(sym)] = True
        self.bare = [False] * NRANKS
        for sym in v.sets.bare:
            self.bare[rank_of(sym)] = True
        self.burn_exempt = [False] * NRANKS
        for sym in v.burn.exempt:
            self.burn_exempt[rank_of(sym)] = True
        self.deck = build_deck(v)
        self.ranks_present = [False] * NRANKS
        for c in self.deck:
            self.ranks_present[c >> 2] = True
        self.beat: BeatStrategy = make_strategy(v, self)
        self.seats = 6
        self.hand_sizes = deal_sizes(v, len(self.deck))
        self.place_names = list(v.places.names)
        if len(self.place_names) != 6:
            raise VariantError("places.names must name exactly 6 places")
        if len(v.scoring.points) != 6:
            raise VariantError("scoring.points must give exactly 6 numbers")
        self.hooks: Mapping[str, Callable[..., Any]] = v.hooks
        self.fingerprint = v.fingerprint()
        self._gouji: dict[CardSet, bool] = {}
        self._pure: dict[CardSet, bool] = {}
        self._answer: dict[tuple[bool, bool, bool, bool, bool], bool] = {}

    # -- sets ---------------------------------------------------------------------------

    def set_context(self, cs: CardSet) -> dict[str, Any]:
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
                hit = self.variant.gouji.joker_sets
            elif cs.rank >= SJ:
                hit = self.variant.gouji.joker_sets or cs.count >= self.thresholds[cs.rank]
            else:
                n = cs.count + (cs.twos if self.variant.gouji.twos_count else 0)
                hit = n >= self.thresholds[cs.rank]
            self._gouji[cs] = hit
        return hit

    def is_pure_gouji(self, cs: CardSet) -> bool:
        """纯够级牌 (S0 第四节, S4 第八条): 够级 with no joker, no attached 2, not a single."""
        hit = self._pure.get(cs)
        if hit is None:
            gouji = self.is_gouji(cs)
            hook = self.hooks.get("is_pure_gouji")
            if hook is not None:
                hit = bool(hook({**self.set_context(cs), "gouji": gouji}))
            else:
                hit = gouji and cs.jokers == 0 and cs.twos == 0 and cs.size > 1
                if cs.rank == TWO and not self.variant.gouji.pure_twos:
                    hit = False
            self._pure[cs] = hit
        return hit

    def pure_minimum(self, r: int) -> int:
        """The fewest cards of rank ``r`` that make a pure 够级 set (0: none can)."""
        mins = self.__dict__.get("_pure_min")
        if mins is None:
            in_deck = [0] * NRANKS
            for c in self.deck:
                in_deck[c >> 2] += 1
            pure = self.is_pure_gouji
            mins = [next((k for k in range(2, n + 1) if pure(CardSet(x, k))), 0) for x, n in enumerate(in_deck)]
            self._pure_min = mins
        return int(mins[r])

    def pure_sets(self, hand: Sequence[int]) -> int:
        """How many pure 够级 sets a hand can make at most (冲点 needs three; 自然点 needs none)."""
        return sum(hand[r] // m for r in range(NRANKS) if (m := self.pure_minimum(r)))

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
            elif self.variant.gouji.answer == "anyone" or ffa or owner_no_head:
                hit = True
            else:
                hit = is_opposite or (no_head and self.variant.play.no_head)
            self._answer[key] = hit
        return hit

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
            if n and (not self.attachable[jr] or jr <= r):
                return False
        return True

    # -- scoring --------------------------------------------------------------------------

    def place_points(self, place: int) -> int:
        return int(self.variant.scoring.points[place - 1])

    def team_scores(self, places: list[int]) -> tuple[int, int]:
        """Scores of team 0 (seats 0, 2, 4) and team 1 from each seat's place (1..6)."""
        if not self.variant.scoring.enabled:
            return 0, 0  # tribute without scoring (scoring.enabled, S4 第十四条 vs 第十九条)
        sweep_team = sweep_of(places)
        out = []
        for team in (0, 1):
            seats = [s for s in range(6) if s % 2 == team]
            pts = [self.place_points(places[s]) for s in seats]
            sweep = sweep_team == team
            hook = self.hooks.get("team_score")
            if hook is not None:
                score = int(hook({"points": pts, "places": [places[s] for s in seats], "sweep": sweep}))
            else:
                score = sum(pts)
                if self.variant.scoring.positive_only:
                    score = max(0, score)
            out.append(score * self.sweep_multiplier(sweep))
        return out[0], out[1]

    def sweep_multiplier(self, sweep: bool) -> int:
        hook = self.hooks.get("sweep_multiplier")
        if hook is not None:
            return int(hook({"sweep": sweep}))
        return self.variant.scoring.sweep_multiplier if sweep else 1


def sweep_of(places: list[int]) -> int | None:
    """The team that took places 1, 2 and 3 (串三户), or None."""
    for team in (0, 1):
        if sorted(places[s] for s in range(6) if s % 2 == team) == [1, 2, 3]:
            return team
    return None


def build_deck(v: Variant) -> list[int]:
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


def deal_sizes(v: Variant, total: int) -> list[int]:
    """Cards per seat in deal order (first drawer first)."""
    if v.deck.hand_size is not None:
        if v.deck.hand_size * 6 > total:
            raise VariantError(f"deck.hand_size {v.deck.hand_size} × 6 is more than the {total} cards in the deck")
        return [v.deck.hand_size] * 6
    base, extra = divmod(total, 6)
    if extra and v.deck.uneven == "error":
        raise VariantError(f"{total} cards do not divide among 6 players (deck.uneven is 'error')")
    return [base + (1 if i < extra else 0) for i in range(6)]


def rank_symbol(r: int) -> str:
    return SYMBOLS[r]
