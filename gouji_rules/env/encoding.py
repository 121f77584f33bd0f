"""A fixed action encoding per variant: every decision of 够级 as one integer, and as features.

Why fixed: a learning agent needs the same index to mean the same action in every
position of a variant.  Why not only an index: under ``dagang`` the space has
164,087 actions, an opening lead may have a thousand legal ones, and most of the
space is never legal, so each observation also gives the legal indices and one
feature row per legal action (DouZero's way), and an agent never has to build a
dense mask.

Layout (``docs/research.md`` has the worked numbers)::

    [0, S)          Play of a set          S = number of sets the deck can form
    [S, 2S)         Burn with a set
    [2S, 2S + W)    the word actions, in WORDS order

A set's index inside a block is ``offset[rank]`` plus a mixed-radix number
``((((count - 1) * T + twos) * J1 + sj) * J2 + bj) * J3 + top`` whose radices are
one more than the deck's number of 2s, 小王, 大王 and 鹰 (a radix is 1 where the
attachment cannot exist for that core: no 2 attached to a 2, no 小王 to a 小王
core, …).  Within a lead box that order is the order of ``Legal``, so the legal
indices come out in the order of ``legal_actions()``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..game.actions import (
    AGREE,
    JIEFENG,
    KOU,
    PASS,
    REFUSE,
    YIELD,
    Action,
    Burn,
    Declare,
    Play,
)
from ..game.cards import BJ, NRANKS, SJ, TOP, TWO, CardSet
from ..game.legal import Box, Legal
from ..parts.registry import DECLARATIONS, phase_words
from ..rules import Rules
from .features import RANKS

ENGINE_WORDS: tuple[Action, ...] = (PASS, YIELD, KOU, JIEFENG, AGREE, REFUSE)
"""The words of play itself (the engine's, not a part's)."""
FIRST_ORDER = [
    "pass",
    "yield",
    "kou",
    "jiefeng",
    "agree",
    "refuse",
    "xuandian",
    "hedian",
    "mingdian",
    "yudian",
    "buy4",
    "geming",
    "chongdian",
    "waive",
    "call",
    "last0",
    "last1",
    "last2",
    "last3",
    "last4",
    "last5",
    "with_head",
    "no_head",
] + [f"give {r}" for r in RANKS]
"""The order of the words when the table was still kept by hand (format 1 of the weights, the env's
indices since): a history, never edited.  A word it does not hold comes after them all."""


def words() -> tuple[Action, ...]:
    """Every word action registered now: the engine's, one ``Declare`` per declaration, then every word a
    phase declares (``Phase.words``), the words of :data:`FIRST_ORDER` in its order, then the others in
    the order they were registered, so a new phase's word is appended and no index before it moves."""
    found: dict[str, Action] = {str(w): w for w in ENGINE_WORDS}
    for name in DECLARATIONS:
        found.setdefault(str(Declare(name)), Declare(name))
    for text, w in phase_words().items():
        found.setdefault(text, w)
    first = {t: i for i, t in enumerate(FIRST_ORDER)}
    ordered = sorted(enumerate(found), key=lambda it: (first.get(it[1], len(first)), it[0]))
    return tuple(found[t] for _, t in ordered)


WORDS: tuple[Action, ...] = words()
"""Every action that is not a set, in the order of their indices after the two set blocks (derived
when the env is imported: :func:`words`)."""

# feature columns of one action: the cards it spends by rank, play/burn/word, then the word one-hot
KIND_PLAY, KIND_BURN, KIND_WORD = NRANKS, NRANKS + 1, NRANKS + 2
FEATURES = NRANKS + 3 + len(WORDS)
FEATURE_NAMES: tuple[str, ...] = (
    *(f"spend.{r}" for r in RANKS),
    "kind.play",
    "kind.burn",
    "kind.word",
    *(f"word.{w}" for w in WORDS),
)
"""The names of an action's feature columns (what weights read them by)."""
BOX_CACHE = 4096  # distinct lead boxes kept with their indices and features
DECODE_CACHE = 1 << 16  # decoded indices kept (an action is a value: the same index, the same action)

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float32]
SHARED_BOXES: dict[tuple[int, ...], dict[Box, tuple[IntArray, FloatArray]]] = {}
"""Per deck: each lead box's play indices and feature rows (``ActionEncoding._box``)."""
SHARED_BOX_INDICES: dict[tuple[int, ...], dict[Box, IntArray]] = {}
"""Per deck: each lead box's play indices (``ActionEncoding.box_indices``)."""


class ActionEncoding:
    """The index of every action under one variant's deck.

    >>> from gouji_rules.catalog import dagang
    >>> enc = ActionEncoding(dagang().rules)
    >>> enc.size
    164087
    >>> from gouji_rules.game.actions import parse_action
    >>> a = parse_action("burn KK2+SJ")
    >>> enc.decode(enc.encode(a)) == a
    True
    """

    def __init__(self, rules: Rules) -> None:
        self._layout(tuple(rules.deck_counts))

    def __deepcopy__(self, memo: dict[int, object]) -> ActionEncoding:
        """The encoding itself: a layout fixed by the deck, and caches of values shared by every
        encoding of that deck (a copied game state, as OpenSpiel's ``clone``, never copies them)."""
        return self

    def __copy__(self) -> ActionEncoding:
        return self

    def __reduce__(self) -> tuple[Any, tuple[tuple[int, ...]]]:
        """Pickled as its deck: the caches are rebuilt (and shared) where it is loaded."""
        return (_encoding_of_deck, (self.deck,))

    def _layout(self, deck: tuple[int, ...]) -> None:
        self.deck = deck
        self.word_index = {a: i for i, a in enumerate(WORDS)}
        # per core rank: the radices (count, twos, sj, bj, top) and where its block starts
        self.radix: list[tuple[int, int, int, int, int]] = []
        self.offsets: list[int] = []
        start = 0
        for r in range(NRANKS):
            rad = (
                deck[r],
                deck[TWO] + 1 if r < TWO else 1,
                deck[SJ] + 1 if r < SJ else 1,
                deck[BJ] + 1 if r < BJ else 1,
                deck[TOP] + 1 if r < TOP else 1,
            )
            self.radix.append(rad)
            self.offsets.append(start)
            start += rad[0] * rad[1] * rad[2] * rad[3] * rad[4]
        self.n_sets = start
        self.size = 2 * start + len(WORDS)
        self._radix_arr = np.asarray(self.radix, dtype=np.int64)
        self._offsets_arr = np.asarray(self.offsets, dtype=np.int64)
        # a box's arrays depend on the deck alone (read-only): every encoding of a deck shares them, so
        # a new environment (one per worker, one per evaluation) does not compute them again
        self._boxes: dict[Box, tuple[IntArray, FloatArray]] = SHARED_BOXES.setdefault(deck, {})
        self._box_indices: dict[Box, IntArray] = SHARED_BOX_INDICES.setdefault(deck, {})
        self._last: tuple[Legal, IntArray, FloatArray] | None = None
        self.decoded: dict[int, Action] = {}
        """the actions of the indices decoded so far (an action is a value; cleared when full)"""
        self._set_at: dict[CardSet, int] = {}  # set_index of the sets seen (a set is a value)
        self._word_at = {a: 2 * start + i for a, i in self.word_index.items()}
        self._words_at: dict[tuple[Action, ...], tuple[int, ...]] = {}
        self._word_arrays: dict[tuple[Action, ...], IntArray] = {}

    # -- one action ----------------------------------------------------------------------------

    def set_index(self, cs: CardSet) -> int:
        """The index of ``cs`` inside a set block; ValueError if the deck cannot form it."""
        n, t, j1, j2, j3 = self.radix[cs.rank]
        if not (1 <= cs.count <= n and cs.twos < t and cs.sj < j1 and cs.bj < j2 and cs.top < j3):
            raise ValueError(f"{cs} cannot be formed from this variant's deck")
        return self.offsets[cs.rank] + (((((cs.count - 1) * t + cs.twos) * j1 + cs.sj) * j2 + cs.bj) * j3 + cs.top)

    def encode(self, action: Action) -> int:
        """The index of ``action`` in this variant's action space, the number an env's policy outputs (its inverse is :meth:`decode`)."""
        if isinstance(action, Play):
            return self.set_index(action.cards)
        if isinstance(action, Burn):
            return self.n_sets + self.set_index(action.cards)
        try:
            return 2 * self.n_sets + self.word_index[action]
        except KeyError:
            raise ValueError(f"{action} has no index in this encoding") from None

    def decode(self, index: int) -> Action:
        """The action of an index; ValueError outside ``[0, size)``."""
        i = int(index)
        hit = self.decoded.get(i)
        if hit is not None:
            return hit
        if not 0 <= i < self.size:
            raise ValueError(f"action index {i} is outside [0, {self.size})")
        if len(self.decoded) >= DECODE_CACHE:
            self.decoded.clear()
        a = self.decoded[i] = self._decode(i)
        return a

    def _decode(self, i: int) -> Action:
        if i >= 2 * self.n_sets:
            return WORDS[i - 2 * self.n_sets]
        burn = i >= self.n_sets
        if burn:
            i -= self.n_sets
        r = bisect_right(self.offsets, i) - 1
        i -= self.offsets[r]
        _, t, j1, j2, j3 = self.radix[r]
        i, y = divmod(i, j3)
        i, b = divmod(i, j2)
        i, s = divmod(i, j1)
        k, a = divmod(i, t)
        cs = CardSet(r, k + 1, a, s, b, y)
        return Burn(cs) if burn else Play(cs)

    # -- all legal actions of a decision, vectorised --------------------------------------------

    def _set_rows(self, c: IntArray, burn: bool) -> tuple[IntArray, FloatArray]:
        """Indices and feature rows of sets given as rows (rank, count, twos, sj, bj, top)."""
        r = c[:, 0]
        rad, off = self._radix_arr[r], self._offsets_arr[r]
        idx = off + (((((c[:, 1] - 1) * rad[:, 1] + c[:, 2]) * rad[:, 2] + c[:, 3]) * rad[:, 3] + c[:, 4]) * rad[:, 4])
        idx += c[:, 5]
        n = len(c)
        f = np.zeros((n, FEATURES), dtype=np.float32)
        rows = np.arange(n)
        f[rows, r] = c[:, 1]
        f[rows, TWO] += c[:, 2]
        f[rows, SJ] += c[:, 3]
        f[rows, BJ] += c[:, 4]
        f[rows, TOP] += c[:, 5]
        if burn:
            idx += self.n_sets
            f[:, KIND_BURN] = 1.0
        else:
            f[:, KIND_PLAY] = 1.0
        return idx, f

    def _box(self, b: Box) -> tuple[IntArray, FloatArray]:
        """A lead box's play indices and features, computed once per distinct box."""
        hit = self._boxes.get(b)
        if hit is None:
            grids = np.meshgrid(
                np.arange(b[1], b[2] + 1),
                np.arange(0, b[3] + 1),
                np.arange(b[4], b[5] + 1),
                np.arange(b[6], b[7] + 1),
                np.arange(b[8], b[9] + 1),
                indexing="ij",
            )
            cols = [np.full(grids[0].size, b[0], dtype=np.int64)] + [g.ravel().astype(np.int64) for g in grids]
            hit = self._set_rows(np.stack(cols, axis=1), burn=False)
            for arr in hit:
                arr.flags.writeable = False  # shared by every observation with this box
            if len(self._boxes) >= BOX_CACHE:
                self._boxes.clear()
            self._boxes[b] = hit
        return hit

    def box_indices(self, b: Box) -> IntArray:
        """A lead box's play indices (those of ``_box``, without its feature rows), computed once per
        distinct box: a box is a block of the mixed-radix numbering, so its indices are a sum of
        broadcast ranges, raveled in the order of ``Legal``."""
        hit = self._box_indices.get(b)
        if hit is None:
            _, t, j1, j2, j3 = self.radix[b[0]]
            k = np.arange(b[1] - 1, b[2], dtype=np.int64)[:, None] * t + np.arange(0, b[3] + 1, dtype=np.int64)
            k = k[:, :, None] * j1 + np.arange(b[4], b[5] + 1, dtype=np.int64)
            k = k[:, :, :, None] * j2 + np.arange(b[6], b[7] + 1, dtype=np.int64)
            k = k[:, :, :, :, None] * j3 + np.arange(b[8], b[9] + 1, dtype=np.int64)
            hit = k.ravel() + self.offsets[b[0]]
            hit.flags.writeable = False  # shared by every observation with this box
            if len(self._box_indices) >= BOX_CACHE:
                self._box_indices.clear()
            self._box_indices[b] = hit
        return hit

    def encode_legal(self, legal: Legal) -> tuple[IntArray, FloatArray]:
        """The index and the feature row of every legal action, in the order of ``legal``
        (``legal[i]`` is ``decode(indices[i])``).  Feature columns: the cards the action
        spends by rank (16), then play / burn / word flags, then a one-hot over WORDS."""
        last = self._last
        if last is not None and last[0] is legal:
            return last[1].copy(), last[2].copy()  # callers keep what they get: never hand out a shared array
        idx: list[IntArray] = []
        feats: list[FloatArray] = []
        for b in legal.boxes:
            i, f = self._box(b)
            if legal.burn:  # the engine leads with boxes only; kept general all the same
                i, f = i + self.n_sets, f.copy()
                f[:, KIND_PLAY], f[:, KIND_BURN] = 0.0, 1.0
            idx.append(i)
            feats.append(f)
        if legal.sets:
            i, f = self._set_rows(np.asarray(legal.sets, dtype=np.int64).reshape(-1, 6), legal.burn)
            idx.append(i)
            feats.append(f)
        if legal.extras:
            n = len(legal.extras)
            idx.append(np.fromiter((self.encode(x) for x in legal.extras), dtype=np.int64, count=n))
            f = np.zeros((n, FEATURES), dtype=np.float32)
            f[:, KIND_WORD] = 1.0
            for k, x in enumerate(legal.extras):
                f[k, KIND_WORD + 1 + self.word_index[x]] = 1.0
            feats.append(f)
        if not idx:
            out = (np.zeros(0, dtype=np.int64), np.zeros((0, FEATURES), dtype=np.float32))
        elif len(idx) == 1:
            out = (idx[0].copy(), feats[0].copy())
        else:
            out = (np.concatenate(idx), np.concatenate(feats))
        self._last = (legal, out[0], out[1])
        return out[0].copy(), out[1].copy()

    def indices(self, legal: Legal) -> IntArray:
        """The index of every legal action, in the order of ``legal``, without the feature rows.

        Why not ``encode_legal``: a follow or an answer has a handful of legal actions, for which
        numpy's per-call cost is most of the work; here the listed sets and the words are one loop of
        look-ups (each set's index is computed once) and one array, and a lead's boxes come from the
        per-box table."""
        sets, boxes = legal.sets, legal.boxes
        if not sets and not boxes:  # a pass or an answer: most decisions
            return self._word_array(legal.extras).copy()  # the caller's own, never the table's
        base = self.n_sets if legal.burn else 0
        flat: list[int] = []
        known = self._set_at
        for cs in sets:
            i = known.get(cs)
            if i is None:
                if len(known) >= DECODE_CACHE:
                    known.clear()
                i = known[cs] = self.set_index(cs)
            flat.append(base + i)
        if legal.extras:
            flat.extend(self._word_indices(legal.extras))
        if not boxes:
            return np.array(flat, dtype=np.int64)
        got = self._box_indices.get
        parts = [hit if (hit := got(b)) is not None else self.box_indices(b) for b in boxes]
        if flat:
            parts.append(np.array(flat, dtype=np.int64) - base)  # base is added to the whole below
        out = np.concatenate(parts) if len(parts) > 1 else parts[0].copy()  # the caller's own, never the table's
        if base:
            out += base
        return out

    def _word_indices(self, extras: tuple[Action, ...]) -> tuple[int, ...]:
        """The indices of a decision's words, kept per distinct tuple: a word is a frozen dataclass,
        whose hash is a Python call, and the engine offers a handful of such tuples at every step."""
        hit = self._words_at.get(extras)
        if hit is None:
            word_at = self._word_at
            hit = tuple(word_at[x] if x in word_at else self.encode(x) for x in extras)
            if len(self._words_at) >= BOX_CACHE:
                self._words_at.clear()
            self._words_at[extras] = hit
        return hit

    def _word_array(self, extras: tuple[Action, ...]) -> IntArray:
        """``_word_indices`` as a read-only array (copied for each caller)."""
        hit = self._word_arrays.get(extras)
        if hit is None:
            hit = np.array(self._word_indices(extras), dtype=np.int64)
            hit.flags.writeable = False
            if len(self._word_arrays) >= BOX_CACHE:
                self._word_arrays.clear()
            self._word_arrays[extras] = hit
        return hit

    def legal_indices(self, legal: Legal) -> IntArray:
        """The index of every legal action, in the order of ``legal``."""
        return self.indices(legal)

    def action_features(self, legal: Legal) -> FloatArray:
        """One row of FEATURES numbers per legal action, in the order of ``legal`` (the columns of
        ``encode_legal``).  As in ``indices``: listed sets and words row by row in Python, one array."""
        kind = KIND_BURN if legal.burn else KIND_PLAY
        at: list[int] = []  # flat positions (row * FEATURES + column) of the non-zero numbers
        value: list[int] = []
        row = 0
        for cs in legal.sets:
            for r, n in cs.card_counts().items():
                at.append(row + r)
                value.append(n)
            at.append(row + kind)
            value.append(1)
            row += FEATURES
        word_index = self.word_index
        for x in legal.extras:
            at.append(row + KIND_WORD)
            at.append(row + KIND_WORD + 1 + word_index[x])
            value.append(1)
            value.append(1)
            row += FEATURES
        flat = np.zeros(row, dtype=np.float32)
        flat[at] = value
        listed = flat.reshape(-1, FEATURES)
        if not legal.boxes:
            return listed
        parts = []
        for b in legal.boxes:
            f = self._box(b)[1].copy()
            if legal.burn:
                f[:, KIND_PLAY], f[:, KIND_BURN] = 0.0, 1.0
            parts.append(f)
        if row:
            parts.append(listed)
        return np.concatenate(parts) if len(parts) > 1 else parts[0]

    def dense_mask(self, indices: Sequence[int] | IntArray) -> npt.NDArray[np.int8]:
        """A 0/1 mask over the whole space (only for APIs that insist on one)."""
        mask = np.zeros(self.size, dtype=np.int8)
        mask[np.asarray(indices, dtype=np.int64)] = 1
        return mask


def _encoding_of_deck(deck: tuple[int, ...]) -> ActionEncoding:
    """An encoding from its deck's counts alone (how a pickled one is loaded)."""
    enc = ActionEncoding.__new__(ActionEncoding)
    enc._layout(tuple(deck))
    return enc
