"""The compiled rules' foundation: the deck, the places and the hooks, copied once from a Variant.

What the deck holds and how many cards each seat is dealt (docs/rules.md's deck table: S4 第二条
「从洗好的4付牌中」, 第二十一条 「在摸取的36张牌中」) and the names of the six places (S4 第三条,
S0 opening).  Every chapter of :class:`gouji_rules.rules.Rules` builds on this
class; the chain (base → sets → play → burn → points → declare → tribute → scoring → ``Rules``)
is single inheritance, so that mypyc compiles every chapter as one native class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Protocol

from ..errors import VariantError
from ..game.cards import BJ, JOKERS, NRANKS, SJ, TWO, card, rank_of
from .beat import RankTables

if TYPE_CHECKING:
    from ..parts.sections import Sections
    from . import Rules

NEVER = 1 << 30

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


class Compiles(Protocol):
    """What compiles to :class:`Rules`: a :class:`~gouji_rules.variant.Variant` (``variant.rules``).
    Named here so that this module never imports the Variant, which imports it."""

    @property
    def rules(self) -> Rules:
        """The compiled rules, built on first use and kept."""
        ...


class RulesBase(RankTables):
    """What every chapter reads: the variant, its deck's tables and its hooks.  Not asked by
    itself: :class:`gouji_rules.rules.Rules` is the class the engine holds."""

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

    @property
    def fingerprint(self) -> str:
        """The variant's fingerprint (:meth:`Variant.fingerprint`), worked out when first asked for
        (a hand record asks; checking a variant file does not)."""
        if self._fingerprint is None:
            self._fingerprint = self.variant.fingerprint()
        return self._fingerprint

    def extension_options(self, entry: Any) -> dict[str, Any]:
        """The options ``entry`` (a registered strategy, tribute kind, declaration or phase, or an
        instance of one) declares, each at the value this variant writes or its default
        (:mod:`gouji_rules.parts.options`)."""
        from ..parts.options import values

        return values(self.variant, entry)

    def names_extension(self, entry: Any) -> bool:
        """Does this variant switch ``entry`` on by naming it (``sets.beat``, ``tribute.order``, its key
        under ``declare.kinds`` or ``phases``: :func:`gouji_rules.parts.options.switched_on`)?"""
        from ..parts.options import registry_of, switched_on

        return switched_on(self.variant, registry_of(entry), entry.name)


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
