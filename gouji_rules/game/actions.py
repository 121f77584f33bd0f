"""Actions: every decision a seated player makes, as a frozen value.

Text notation (used in hand records and by external bots)::

    KK+SJ          play a set           burn AA+BJ     burn with a set
    pass           过牌 (or decline a burn)
    yield          让牌                  kou            扣牌 a dead set
    jiefeng        ask to lead (接风)    agree / refuse answer a 接风 request
    wrong_play     a turn lost to a wrong play (错牌不出; only under play.wrong_play: lose_turn)

Each value with a field says how it is pickled (``__reduce__``): the compiled build (setup.py)
cannot set a frozen field after construction, so its twin must be rebuilt by its constructor.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, cast

from ..errors import NotationError
from ..parts.registry import DECLARATIONS, phase_words
from .cards import SHARED_MAX, CardSet, format_set, parse_set


@dataclass(frozen=True, slots=True)
class Play:
    """出牌: put down a set."""

    cards: CardSet

    def __str__(self) -> str:
        return format_set(self.cards)

    def __reduce__(self) -> tuple[type[Play], tuple[CardSet]]:
        return (Play, (self.cards,))


@dataclass(frozen=True, slots=True)
class Burn:
    """烧牌: beat a 够级 set that is not your opposite's, out of turn."""

    cards: CardSet

    def __str__(self) -> str:
        return "burn " + format_set(self.cards)

    def __reduce__(self) -> tuple[type[Burn], tuple[CardSet]]:
        return (Burn, (self.cards,))


@dataclass(frozen=True, slots=True)
class Pass:
    """过牌: decline (also: decline a burn, a choice)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Yield:
    """让牌: let the next two players decide first on your opposite's set."""

    def __str__(self) -> str:
        return "yield"


@dataclass(frozen=True, slots=True)
class Kou:
    """扣牌: the opposite's formal concession of a dead set (S4 第七条)."""

    def __str__(self) -> str:
        return "kou"


@dataclass(frozen=True, slots=True)
class Jiefeng:
    """申请接风: ask to lead instead of answering the previous player's last set (S4 接风)."""

    def __str__(self) -> str:
        return "jiefeng"


@dataclass(frozen=True, slots=True)
class Consent:
    """Answer to a 接风 request or an offered 还贡 card: agree or refuse."""

    agree: bool

    def __str__(self) -> str:
        return "agree" if self.agree else "refuse"

    def __reduce__(self) -> tuple[type[Consent], tuple[bool]]:
        return (Consent, (self.agree,))


@dataclass(frozen=True, slots=True)
class Declare:
    """宣点 / 和点 / 明点 / 预点: ``kind`` names a registered declaration (:mod:`gouji_rules.rules.declarations`)."""

    kind: str

    def __str__(self) -> str:
        return self.kind

    def __reduce__(self) -> tuple[type[Declare], tuple[str]]:
        return (Declare, (self.kind,))


@dataclass(frozen=True, slots=True)
class Choose:
    """A yes to a between-hands choice: ``buy4``, ``geming``, ``chongdian``, ``waive``, or
    ``lastN`` (name seat N as last place, S4 第十四条(六) / S0 串三户)."""

    what: str

    def __str__(self) -> str:
        return self.what

    def __reduce__(self) -> tuple[type[Choose], tuple[str]]:
        return (Choose, (self.what,))


@dataclass(frozen=True, slots=True)
class Head:
    """After an opposite's 冲点 or 革命: keep the 够级 binding (有头) or go 无头."""

    keep: bool

    def __str__(self) -> str:
        return "with_head" if self.keep else "no_head"

    def __reduce__(self) -> tuple[type[Head], tuple[bool]]:
        return (Head, (self.keep,))


@dataclass(frozen=True, slots=True)
class Give:
    """还贡: the card (by rank) a tribute receiver hands back."""

    rank: int

    def __str__(self) -> str:
        from .cards import SYMBOLS

        return "give " + SYMBOLS[self.rank]

    def __reduce__(self) -> tuple[type[Give], tuple[int]]:
        return (Give, (self.rank,))


@dataclass(frozen=True, slots=True)
class Forfeit:
    """错牌不出 (S4 第四条(一)): the seat to act loses its turn after a wrong play (``play.wrong_play:
    lose_turn``).  Never among the legal actions; ``Hand.forfeit`` / ``Match.forfeit`` make it, and a
    record replays it from its text ``wrong_play``.  ``reason`` (what was wrong) is not part of the text."""

    reason: str = ""

    def __str__(self) -> str:
        return "wrong_play"

    def __reduce__(self) -> tuple[type[Forfeit], tuple[str]]:
        return (Forfeit, (self.reason,))


Action = Play | Burn | Pass | Yield | Kou | Jiefeng | Consent | Declare | Choose | Head | Give | Forfeit

PASS: Final = Pass()
YIELD: Final = Yield()
KOU: Final = Kou()
JIEFENG: Final = Jiefeng()
AGREE: Final = Consent(True)
REFUSE: Final = Consent(False)

_PLAYS: Final[dict[CardSet, Play]] = {}
_BURNS: Final[dict[CardSet, Burn]] = {}


def play_of(cs: CardSet) -> Play:
    """``Play(cs)``, one shared instance per set: the legal actions hand one out at every decision,
    and a frozen dataclass is built through ``object.__setattr__`` (in the compiled core too)."""
    a = _PLAYS.get(cs)
    if a is None:
        a = Play(cs)
        if len(_PLAYS) < SHARED_MAX:
            _PLAYS[cs] = a
    return a


def burn_of(cs: CardSet) -> Burn:
    """``Burn(cs)``, one shared instance per set (see :func:`play_of`)."""
    a = _BURNS.get(cs)
    if a is None:
        a = Burn(cs)
        if len(_BURNS) < SHARED_MAX:
            _BURNS[cs] = a
    return a


_WORDS: dict[str, Action] = {
    "pass": PASS,
    "yield": YIELD,
    "kou": KOU,
    "jiefeng": JIEFENG,
    "agree": AGREE,
    "refuse": REFUSE,
    "wrong_play": Forfeit(),
}


def parse_action(text: str) -> Action:
    """Parse an action from its text notation: the play words above, the declarations, the words the
    registered phases offer (``buy4``, ``last2``, ``with_head``: ``Phase.words``), a card to hand back
    (``give 7``), a burn or a set.

    >>> parse_action("burn AA+BJ")
    Burn(cards=CardSet(rank=11, count=2, twos=0, sj=0, bj=1, top=0))
    """
    t = text.strip()
    word = _WORDS.get(t.lower())
    if word is not None:
        return word
    low = t.lower()
    if low in DECLARATIONS:
        return Declare(low)
    offered = phase_words().get(low)
    if offered is not None:
        return cast(Action, offered)
    if low.startswith("give "):
        from .cards import rank_of

        return Give(rank_of(t[5:]))
    if t.lower().startswith("burn "):
        return Burn(parse_set(t[5:]))
    if not t:
        raise NotationError("empty action", text=text, column=1)
    return Play(parse_set(t))
