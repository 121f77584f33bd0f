"""The observation of one seat as a fixed-length vector, built from ``observation(seat)`` only.

Nothing here reads the engine: every number comes from the Observation the engine
gives that seat, so what a seat may know is decided in one place (the rules), and
a variant that hides the cards left of other seats hides them here too.

Seats are relative: column block 0 is the observing seat, 1 the next in order of
play, 3 the opposite.  Layout (OBS_SIZE numbers, float32)::

    hand                 16   cards held by rank
    mode                 len(MODES) + 1, one-hot (last: a mode this list does not know); the
                              modes of play, then every registered decision kind by its
                              ``listed`` number (the catalogue's :func:`observed_kinds`)
    table                16 + 1   cards of the set on the table by rank, and "a set is on the table"
    table owner          6    one-hot, relative
    cards left           6 + 6    count per seat, and 1 where the observation gives it (-1: unknown)
    active               6
    finish               6    place in the finish order so far / 6, 0 while playing
    point                24   开点 state one-hot (none, pending, open, closed) per seat
    no head              6
    burning              6    one-hot, relative
    free for all         1
    played               96   cards each seat has played this hand, by rank (from the events the
                              seat is given: in a match also the 冲点 sets and answers put down
                              before play, and after play the whole hand)
    shown                96   each seat's hand where it is shown to the table (亮牌), by rank
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..game.cards import NRANKS, CardSet
from ..parts.catalogue import PLAY_MODES, observed_kinds
from ..play.observe import Observation

MODES: tuple[str, ...] = PLAY_MODES + observed_kinds()
"""the modes of play, then the decision kinds registered when this module is imported (the shipped
phases', and those of modules imported before): derived, not pinned, because a trained model reads its
columns by name (:data:`COLUMNS`), so a kind added between two others moves no weight it learned.  A
kind registered later reads as the last column, ``mode.other``."""
POINT_STATES = ("none", "pending", "open", "closed")
PLAY_EVENTS = frozenset({"play", "burn", "counter_burn", "huiwu"})

_M = len(MODES) + 1
HAND_AT = 0
MODE_AT = HAND_AT + NRANKS
TABLE_AT = MODE_AT + _M
OWNER_AT = TABLE_AT + NRANKS + 1
LEFT_AT = OWNER_AT + 6
ACTIVE_AT = LEFT_AT + 12
FINISH_AT = ACTIVE_AT + 6
POINT_AT = FINISH_AT + 6
NOHEAD_AT = POINT_AT + 24
BURNING_AT = NOHEAD_AT + 6
FFA_AT = BURNING_AT + 6
PLAYED_AT = FFA_AT + 1
SHOWN_AT = PLAYED_AT + 6 * NRANKS
OBS_SIZE = SHOWN_AT + 6 * NRANKS

FloatArray = npt.NDArray[np.float32]
MODE_COLUMN = {m: i for i, m in enumerate(MODES)}
POINT_COLUMN = {p: i for i, p in enumerate(POINT_STATES)}
RANKS = ("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "SJ", "BJ", "Y")
"""the ranks' names in column names (``cards.SYMBOLS``; written out so a name never depends on a display table)"""


def columns(modes: Sequence[str] = MODES) -> tuple[str, ...]:
    """The name of every column of the observation under the mode list ``modes``, in column order.

    Why names: weights and digests read the vector by name, so a decision kind added to the catalogue
    adds a column (``mode.<kind>``) without moving what anything learned.  Seats are relative (``1`` is
    the next seat in order of play); ranks by their symbols (``hand.T``, ``played.3.BJ``)."""
    seats = range(6)
    out = [f"hand.{r}" for r in RANKS]
    out += [f"mode.{m}" for m in modes] + ["mode.other"]
    out += [f"table.{r}" for r in RANKS] + ["table.any"]
    out += [f"owner.{k}" for k in seats]
    out += [f"left.{k}" for k in seats] + [f"left_known.{k}" for k in seats]
    out += [f"active.{k}" for k in seats] + [f"finish.{k}" for k in seats]
    out += [f"point.{k}.{p}" for k in seats for p in POINT_STATES]
    out += [f"no_head.{k}" for k in seats] + [f"burning.{k}" for k in seats] + ["free_for_all"]
    out += [f"played.{k}.{r}" for k in seats for r in RANKS] + [f"shown.{k}.{r}" for k in seats for r in RANKS]
    return tuple(out)


COLUMNS = columns()
"""The observation's column names (``len(COLUMNS) == OBS_SIZE``): what docs, digests and weights name."""
ROTATION = [[(me + k) % 6 for k in range(6)] for me in range(6)]


def _add_set(row: FloatArray, cs: CardSet) -> None:
    for r, n in cs.card_counts().items():
        row[r] += n


class ObservationEncoder:
    """Turns Observations into vectors; keeps a running count of played cards per observer.

    The played-card count is updated from the new events only, as long as the event log it
    sees grows (the same events in the same order, from the same first event); any other log,
    a new hand's included, is counted afresh.
    """

    def __init__(self) -> None:
        self._played: dict[int, tuple[Any, Any, int, FloatArray]] = {}

    def reset(self) -> None:
        """Forget the played-card counts (a new hand): the next observation is counted from its first event."""
        self._played.clear()

    def played(self, obs: Observation, upto: int | None = None) -> FloatArray:
        """Cards played by each absolute seat this hand (6 x 16), from the observer's events (the first
        ``upto`` of them: the engine's event log grows after the observation was taken)."""
        events: Sequence[Any] = obs.events
        n = len(events) if upto is None else min(upto, len(events))
        hit = self._played.get(obs.seat)
        if hit is not None and 0 < hit[2] <= n and events[0] is hit[0] and events[hit[2] - 1] is hit[1]:
            start, table = hit[2], hit[3]
        else:  # another hand (its first event is another object), or another log
            start, table = 0, np.zeros((6, NRANKS), dtype=np.float32)
        for e in events[start:n]:
            if e.type in PLAY_EVENTS and e.cards is not None and 0 <= e.seat < 6:
                _add_set(table[e.seat], e.cards)
        self._played[obs.seat] = (events[0] if n else None, events[n - 1] if n else None, n, table)
        return table

    def encode(self, obs: Observation, upto: int | None = None) -> FloatArray:
        """The vector of ``obs``, counting its first ``upto`` events (default: all).

        The numbers before the played cards are set in a Python list and go into the array in one
        assignment, the played cards in one gather: item by item, numpy's cost per call was most of it."""
        me = obs.seat
        rel = ROTATION[me] if 0 <= me < 6 else [(me + k) % 6 for k in range(6)]  # block k: seat rel[k]
        head = [0.0] * PLAYED_AT
        hand = obs.hand[:NRANKS]
        head[HAND_AT : HAND_AT + len(hand)] = hand
        head[MODE_AT + MODE_COLUMN.get(obs.mode, len(MODES))] = 1.0
        if obs.table is not None:
            for r, n in obs.table.card_counts().items():
                head[TABLE_AT + r] += n
            head[TABLE_AT + NRANKS] = 1.0
        if 0 <= obs.table_owner < 6:
            head[OWNER_AT + (obs.table_owner - me) % 6] = 1.0
        left = obs.cards_left
        place: dict[int, int] = {}
        for i, s in enumerate(obs.finish):
            place.setdefault(s, i + 1)
        for k, s in enumerate(rel):
            if s < len(left) and left[s] >= 0:
                head[LEFT_AT + k] = left[s]
                head[LEFT_AT + 6 + k] = 1.0
            head[ACTIVE_AT + k] = float(obs.active[s])
            if s in place:
                head[FINISH_AT + k] = place[s] / 6.0
            p = POINT_COLUMN.get(obs.point[s])
            if p is not None:
                head[POINT_AT + 4 * k + p] = 1.0
            head[NOHEAD_AT + k] = float(obs.no_head[s])
        if 0 <= obs.burning < 6:
            head[BURNING_AT + (obs.burning - me) % 6] = 1.0
        head[FFA_AT] = float(obs.free_for_all)
        v = np.zeros(OBS_SIZE, dtype=np.float32)
        v[:PLAYED_AT] = head
        v[PLAYED_AT:SHOWN_AT] = self.played(obs, upto)[rel].ravel()
        shown = obs.shown
        for k, s in enumerate(rel):
            if s < len(shown) and shown[s]:
                v[SHOWN_AT + NRANKS * k : SHOWN_AT + NRANKS * (k + 1)] = shown[s][:NRANKS]
        return v
