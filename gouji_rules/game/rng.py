"""A small PRNG of our own, so that a seed gives the same deal on every Python version.

SplitMix64 (Steele, Lea and Flood, 2014): a 64-bit counter advanced by the golden
gamma and finalised by two xor-shift-multiply rounds.  Bounded integers use
Lemire's multiply-shift with rejection, so they are exactly uniform.  The full
algorithm is written out in ``docs/rng.md``; ``tests/test_rng.py`` pins the first
outputs so any change shows.

>>> r = SplitMix64(0)
>>> hex(r.next_u64())
'0xe220a8397b1dcdaf'
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

from ..errors import SeedError

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
T = TypeVar("T")


class SplitMix64:
    """The documented PRNG (SplitMix64) behind every shuffle and bot choice: the same seed gives the same deal on every
    Python version and platform."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK

    def __reduce__(self) -> tuple[type[SplitMix64], tuple[int]]:
        return (SplitMix64, (self.state,))

    def next_u64(self) -> int:
        """The next 64-bit output; the only step, so any implementation in any language can reproduce a deal."""
        self.state = z = (self.state + GAMMA) & MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        m = self.next_u64() * n
        low = m & MASK
        if low < n:
            threshold = ((1 << 64) - n) % n
            while low < threshold:
                m = self.next_u64() * n
                low = m & MASK
        return m >> 64

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates, from the last position down."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def check_seed(seed: object, what: str = "seed") -> int:
    """``seed`` as an int from 0 to 2**64 - 1 (a numpy integer too); raises SeedError otherwise.

    Deals, matches and environments check their seed with it: ``-1`` and ``2**64 - 1`` are the same
    64 bits, and would deal the same cards without a word.  (``derive`` keeps taking any integer,
    as the signed 64-bit seeds an event or ``--seed`` may hold are mapped to distinct streams.)"""
    index = getattr(type(seed), "__index__", None)  # int, numpy integers; not float, str, bool
    if index is None or isinstance(seed, bool):
        raise SeedError(f"{what} must be an integer from 0 to 2**64 - 1, not {type(seed).__name__} {_short(seed)}")
    value = int(index(seed))
    if not 0 <= value <= MASK:
        shown = str(value) if value.bit_length() <= 256 else f"a number of {value.bit_length():,} bits"
        raise SeedError(f"{what} must be an integer from 0 to 2**64 - 1 ({MASK}), not {shown}")
    return value


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "…"


def derive(seed: int, *path: int) -> int:
    """A child seed for a sub-stream (hand ``i`` of a run, seat ``s``'s agent, …)."""
    r = SplitMix64(seed)
    x = r.next_u64()
    for p in path:
        r = SplitMix64(x ^ ((p * GAMMA) & MASK))
        x = r.next_u64()
    return x
