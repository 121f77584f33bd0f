"""复盘: a seat's decisions of a hand record reviewed against the learned agent, with intervals.

:mod:`.core` goes through the decisions, :mod:`.values` plays the candidates out over paired worlds
from the seat's own view, :mod:`.words` says actions as players do, :mod:`.read` reads a records
file's hands for one variant, :mod:`.page` writes the phone page.  No transport: the room calls
:func:`review_hand` after each hand, ``gouji review`` the whole file.
"""

from __future__ import annotations

from .core import (
    DISPUTED,
    DISPUTED_AT,
    FINE,
    MISTAKE,
    MISTAKE_AT,
    UNJUDGED,
    Budget,
    Choice,
    Decision,
    HandReview,
    Review,
    Reviewer,
    review,
    review_hand,
    verdict_of,
)
from .values import Interval
from .words import action_words

__all__ = [
    "DISPUTED",
    "DISPUTED_AT",
    "FINE",
    "MISTAKE",
    "MISTAKE_AT",
    "UNJUDGED",
    "Budget",
    "Choice",
    "Decision",
    "HandReview",
    "Interval",
    "Review",
    "Reviewer",
    "action_words",
    "review",
    "review_hand",
    "verdict_of",
]
