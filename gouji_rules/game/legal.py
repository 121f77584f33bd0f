"""The legal actions of one decision, as a lazy sequence.

A player who leads may hold several hundred legal sets (every count of every
rank, times every choice of attached 2s and jokers).  Leads are therefore kept
as *boxes*: a core rank with a range for each count, so ``len`` is a product,
``actions[i]`` decodes a mixed-radix index, and ``x in actions`` is a range
check.  Following sets are few and are listed.  A uniform random agent costs
one ``len`` and one index, whatever the hand.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from .actions import Action, Burn, Play, burn_of, play_of
from .cards import CardSet, cardset

# (rank, k_lo, k_hi, a_hi, s_lo, s_hi, b_lo, b_hi, y_lo, y_hi)
Box = tuple[int, int, int, int, int, int, int, int, int, int]


def box_size(b: Box) -> int:
    """How many sets a box holds."""
    return (b[2] - b[1] + 1) * (b[3] + 1) * (b[5] - b[4] + 1) * (b[7] - b[6] + 1) * (b[9] - b[8] + 1)


def box_get(b: Box, i: int) -> CardSet:
    """The ``i``-th set of a box (mixed-radix decoding)."""
    # // and % rather than divmod: the compiled core does them natively
    n = b[9] - b[8] + 1
    i, y = i // n, i % n
    n = b[7] - b[6] + 1
    i, bj = i // n, i % n
    n = b[5] - b[4] + 1
    i, s = i // n, i % n
    n = b[3] + 1
    k, a = i // n, i % n
    return cardset(b[0], b[1] + k, a, b[4] + s, b[6] + bj, b[8] + y)


def box_has(b: Box, cs: CardSet) -> bool:
    """Is ``cs`` in the box?"""
    return (
        b[0] == cs.rank
        and b[1] <= cs.count <= b[2]
        and cs.twos <= b[3]
        and b[4] <= cs.sj <= b[5]
        and b[6] <= cs.bj <= b[7]
        and b[8] <= cs.top <= b[9]
    )


class Legal(Sequence[Action]):
    """Legal actions: sets (boxes or a list), as Play or Burn, then the other actions."""

    __slots__ = ("boxes", "burn", "extras", "last", "n_sets", "sets", "sizes")

    def __init__(
        self,
        *,
        boxes: list[Box] | None = None,
        sets: list[CardSet] | None = None,
        burn: bool = False,
        extras: tuple[Action, ...] = (),
        sizes: list[int] | None = None,
    ) -> None:
        self.boxes = boxes or []
        if sizes is None or len(sizes) != len(self.boxes):
            sizes = [box_size(b) for b in boxes] if boxes else []
        self.sizes = sizes
        """``box_size`` of each box (the engine, which knows them, passes them in)"""
        self.sets = sets or []
        self.burn = burn
        self.extras = extras
        self.n_sets = (sum(self.sizes) if boxes else 0) + len(self.sets)
        self.last: Action | None = None
        """the action ``self[i]`` returned last: a generated action, so ``in`` and ``Hand.verify``
        take it without a search"""

    def __len__(self) -> int:
        return self.n_sets + len(self.extras)

    def set_at(self, i: int) -> CardSet:
        """The ``i``-th legal set."""
        boxes, sizes = self.boxes, self.sizes
        for j in range(len(boxes)):
            n = sizes[j]
            if i < n:
                return box_get(boxes[j], i)
            i -= n
        return self.sets[i]

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | Sequence[Action]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n_sets = self.n_sets
        if i < 0:
            i += n_sets + len(self.extras)
        if not 0 <= i < n_sets + len(self.extras):
            raise IndexError(i)
        if i < n_sets:
            cs = self.set_at(i)
            a: Action = burn_of(cs) if self.burn else play_of(cs)
        else:
            a = self.extras[i - n_sets]
        self.last = a
        return a

    def __iter__(self) -> Iterator[Action]:
        for i in range(len(self)):
            yield self[i]

    def iter_sets(self) -> Iterator[CardSet]:
        """The legal sets without wrapping them in actions."""
        for b, n in zip(self.boxes, self.sizes, strict=True):
            for i in range(n):
                yield box_get(b, i)
        yield from self.sets

    def has_set(self, cs: CardSet) -> bool:
        """Is ``cs`` one of the legal sets?"""
        for b in self.boxes:
            if box_has(b, cs):
                return True
        return cs in self.sets

    def __contains__(self, a: object) -> bool:
        if a is self.last and a is not None:
            return True
        if isinstance(a, Play):
            return not self.burn and self.has_set(a.cards)
        if isinstance(a, Burn):
            return self.burn and self.has_set(a.cards)
        return a in self.extras
