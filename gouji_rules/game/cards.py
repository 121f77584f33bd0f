"""Ranks, dealt cards, sets and hands, and their text notation.

A hand is a vector of rank counts (no play rule reads suits), and a set is a
small immutable value: a core rank, how many core-rank cards, and how many 2s
and jokers are attached.  Everything the engine does is arithmetic on counts,
never a search over card subsets.

Notation (documented in ``docs/notation.md``)::

    ranks  3 4 5 6 7 8 9 T J Q K A 2 SJ BJ Y     (``10`` is read as ``T``)
    set    core cards, attached 2s, then ``+`` and attached jokers: ``KKK2+SJ``
    hand   every card in rank order, no separators: ``33TTJ2SJBJ``

>>> format_set(parse_set("KKK2+SJ"))
'KKK2+SJ'
>>> parse_set("SJ+K2KK")
CardSet(rank=10, count=3, twos=1, sj=1, bj=0, top=0)
>>> format_hand(parse_hand("2 10 3 SJ 3"))
'33T2SJ'
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import Final, NamedTuple

from ..errors import NotationError


class Rank(IntEnum):
    """Card ranks in playing order, lowest first (3 < 4 < … < A < 2 < 小王 < 大王 < 鹰)."""

    THREE = 0
    FOUR = 1
    FIVE = 2
    SIX = 3
    SEVEN = 4
    EIGHT = 5
    NINE = 6
    TEN = 7
    JACK = 8
    QUEEN = 9
    KING = 10
    ACE = 11
    TWO = 12
    SJ = 13
    BJ = 14
    TOP = 15

    @property
    def symbol(self) -> str:
        """The rank's notation (``T``, ``SJ`` …)."""
        return SYMBOLS[self]


NRANKS: Final = 16
SYMBOLS: tuple[str, ...] = (
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "T",
    "J",
    "Q",
    "K",
    "A",
    "2",
    "SJ",
    "BJ",
    "Y",
)
# The ranks the engine names, as literal Finals: the compiled core folds them into its loops (a
# plain module global is a dict lookup there).  They are Rank's values (asserted below).
TWO: Final = 12
SJ: Final = 13
BJ: Final = 14
TOP: Final = 15
THREE: Final = 0
FOUR: Final = 1
FIVE: Final = 2
ACE: Final = 11
assert (
    Rank.TWO,
    Rank.SJ,
    Rank.BJ,
    Rank.TOP,
    Rank.THREE,
    Rank.FOUR,
    Rank.FIVE,
    Rank.ACE,
    len(Rank),
) == (TWO, SJ, BJ, TOP, THREE, FOUR, FIVE, ACE, NRANKS)
JOKERS = (SJ, BJ, TOP)

_TOKENS: dict[str, int] = {s: i for i, s in enumerate(SYMBOLS)}
_TOKENS["10"] = int(Rank.TEN)
_TOKENS["t"] = int(Rank.TEN)
for _s, _i in list(_TOKENS.items()):
    _TOKENS.setdefault(_s.lower(), _i)
_TOKENS["y"] = TOP


def rank_of(symbol: str) -> int:
    """The rank index of a symbol (``"K"``, ``"10"``, ``"SJ"``); raises NotationError."""
    try:
        return _TOKENS[symbol.strip()]
    except KeyError:
        raise NotationError(
            f"unknown rank {symbol!r}; expected one of {' '.join(SYMBOLS)}",
            text=symbol,
            column=1,
        ) from None


class CardSet(NamedTuple):
    """One set (一套牌): ``count`` cards of the core ``rank`` plus attachments.

    For a set of jokers only, the core is the lowest joker and higher jokers are
    attachments; a 2 attached to a set counts as one more core card (贴2).
    """

    rank: int
    count: int  # type: ignore[assignment]  # the field shadows tuple.count on purpose
    twos: int = 0
    sj: int = 0
    bj: int = 0
    top: int = 0

    @property
    def size(self) -> int:
        """Cards in the set, attachments included."""
        return self.count + self.twos + self.sj + self.bj + self.top

    @property
    def jokers(self) -> int:
        """Joker cards in the set, core jokers included."""
        core = self.count if self.rank >= SJ else 0
        return core + self.sj + self.bj + self.top

    @property
    def attached(self) -> int:
        """Does the set carry 2s or jokers?"""
        return self.twos + self.sj + self.bj + self.top

    def card_counts(self) -> dict[int, int]:
        """Cards of the set by rank."""
        out = {self.rank: self.count}
        for r, n in ((TWO, self.twos), (SJ, self.sj), (BJ, self.bj), (TOP, self.top)):
            if n:
                out[r] = out.get(r, 0) + n
        return out

    def __str__(self) -> str:
        return format_set(self)


_SHARED: Final[dict[int, CardSet]] = {}
SHARED_MAX: Final = 1 << 16
"""At most this many shared values per kind (sets here, Play and Burn in actions.py)."""


def cardset(rank: int, count: int, twos: int = 0, sj: int = 0, bj: int = 0, top: int = 0) -> CardSet:
    """``CardSet(rank, count, twos, sj, bj, top)``, one shared instance per value.

    The engine makes a set at every decision (the legal sets, the chosen lead); a NamedTuple is
    built by a Python-level ``__new__`` even in the compiled core, so a dict keyed by the counts
    packed in one int is several times cheaper.  The values are immutable, so sharing is safe.
    """
    if (count | twos | sj | bj | top) >> 8 or not 0 <= rank < NRANKS:  # beyond any deck: no key
        return CardSet(rank, count, twos, sj, bj, top)
    key = rank | count << 4 | twos << 12 | sj << 20 | bj << 28 | top << 36
    cs = _SHARED.get(key)
    if cs is None:
        cs = CardSet(rank, count, twos, sj, bj, top)
        if len(_SHARED) < SHARED_MAX:  # play keeps to a few thousand; made-up positions may not
            _SHARED[key] = cs
    return cs


def tokenize(text: str) -> list[tuple[int, int]]:
    """Split notation into (rank, column) pairs; ``+``, spaces and commas are separators."""
    out: list[tuple[int, int]] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in " +,\t":
            i += 1
            continue
        two = text[i : i + 2]
        if len(two) == 2 and two.upper() in ("SJ", "BJ", "10"):
            out.append((_TOKENS[two.upper()], i + 1))
            i += 2
            continue
        r = _TOKENS.get(ch)
        if r is None:
            raise NotationError(
                f"unexpected {ch!r} in card notation; ranks are {' '.join(SYMBOLS)}",
                text=text,
                column=i + 1,
            )
        out.append((r, i + 1))
        i += 1
    return out


def counts_of(text: str) -> list[int]:
    """Rank counts of a hand in notation."""
    counts = [0] * NRANKS
    for r, _ in tokenize(text):
        counts[r] += 1
    return counts


def parse_set(text: str) -> CardSet:
    """Parse one set, e.g. ``KKK2+SJ`` (three K, a 2 and a 小王 attached)."""
    tokens = tokenize(text)
    if not tokens:
        raise NotationError("empty set", text=text, column=1)
    counts = [0] * NRANKS
    for r, _ in tokens:
        counts[r] += 1
    plain = [r for r in range(TWO) if counts[r]]
    if len(plain) > 1:
        col = next(c for r, c in tokens if r == plain[1])
        raise NotationError(
            "a set has one core rank (only 2s and jokers may be attached)",
            text=text,
            column=col,
        )
    if plain:
        core = plain[0]
        return CardSet(core, counts[core], counts[TWO], counts[SJ], counts[BJ], counts[TOP])
    if counts[TWO]:
        return CardSet(TWO, counts[TWO], 0, counts[SJ], counts[BJ], counts[TOP])
    if counts[SJ]:
        return CardSet(SJ, counts[SJ], 0, 0, counts[BJ], counts[TOP])
    if counts[BJ]:
        return CardSet(BJ, counts[BJ], 0, 0, 0, counts[TOP])
    return CardSet(TOP, counts[TOP])


def format_set(cs: CardSet) -> str:
    """A set in notation (``KKK2+SJ``)."""
    core = SYMBOLS[cs.rank] * cs.count + "2" * cs.twos
    jokers = "SJ" * cs.sj + "BJ" * cs.bj + "Y" * cs.top
    return core + "+" + jokers if jokers else core


def parse_hand(text: str) -> tuple[int, ...]:
    """Parse a hand: every card by rank, any order (``2 10 3 SJ 3``)."""
    return tuple(counts_of(text))


def format_hand(counts: Sequence[int]) -> str:
    """Rank counts in notation (``33TTJ2SJ``)."""
    return "".join(SYMBOLS[r] * counts[r] for r in range(NRANKS))


SUITS = "shcd"  # spades, hearts, clubs, diamonds; jokers carry suit 0


def card(rank: int, suit: int) -> int:
    """A dealt card: rank and suit packed in one int (suits matter only for 上班 and 抽签)."""
    return rank * 4 + suit


def card_rank(c: int) -> int:
    """The rank of a card id."""
    return c >> 2


def card_suit(c: int) -> int:
    """The suit (0-3) of a card id."""
    return c & 3


def format_card(c: int) -> str:
    """One card in notation."""
    r = c >> 2
    return SYMBOLS[r] if r >= SJ else SYMBOLS[r] + SUITS[c & 3]


def parse_card(text: str) -> int:
    """One card from notation."""
    t = text.strip()
    if t.upper() in ("SJ", "BJ", "Y"):
        return card(_TOKENS[t.upper()], 0)
    if len(t) < 2 or t[-1] not in SUITS:
        raise NotationError(f"a dealt card is a rank and a suit (s h c d), got {text!r}", text=text, column=1)
    return card(rank_of(t[:-1]), SUITS.index(t[-1]))
