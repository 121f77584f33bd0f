"""Tiebreaks: how entrants level on match points are ordered, chosen per event.

Match points always rank first.  After them an event applies its own list of
tiebreaks in order (``gouji event new --tiebreaks buchholz,hand_points``), stored
with the event so its standings never change order because a default changed.
Each tiebreak is a number computed from an entrant's standings line; larger is
better except where the name says fewest.

*Buchholz* is the strength of the opposition: the match points of every opponent
met in a finished match, summed (a team's opponents are the other team; an
individual's are the three players on the other side of the table).  *Head-to-head*
counts the match points won in matches against the entrants still tied on every
key before it, so where it stands in the list decides who counts as tied.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from ..errors import near_miss
from .errors import EventError


class Line(Protocol):
    """What a tiebreak reads and sets of an entrant's standings line.

    Declared here rather than imported from :mod:`.standings` (whose ``Line`` satisfies it), since
    storage keeps the tiebreak names and standings ranks with them: tiebreaks sit below both."""

    name: str
    won: int
    match_points: int
    hand_points: int
    head_to_head: int
    firsts: int
    lasts: int
    buchholz: int
    rank: int
    results: list[tuple[int, frozenset[str]]]


L = TypeVar("L", bound=Line)

TIEBREAKS: dict[str, str] = {
    "hand_points": "hand points: each hand's points of the entrant's side",
    "head_to_head": "head-to-head: match points won against the entrants still tied",
    "buchholz": "Buchholz: the match points of every opponent met, summed",
    "fewest_lasts": "fewest last places (大落 / 拉客)",
    "most_firsts": "most first places (头科 / 头客)",
    "wins": "most matches won",
}
"""Every tiebreak an event may choose, by name, with what it counts."""

DEFAULT: tuple[str, ...] = ("hand_points", "head_to_head", "fewest_lasts", "most_firsts")
"""The order of an event that chose none (and of every event made before tiebreaks could be chosen)."""


def parse(text: str | Sequence[str]) -> tuple[str, ...]:
    """``"buchholz,hand_points"`` (or a list of names) as a checked tuple of tiebreak names."""
    items = text.replace(" ", ",").split(",") if isinstance(text, str) else list(text)
    names = tuple(x.strip() for x in items if x.strip())
    if not names:
        raise EventError(f"give at least one tiebreak: {', '.join(TIEBREAKS)}")
    for name in names:
        if name not in TIEBREAKS:
            close = near_miss(name, TIEBREAKS)
            hint = f"; did you mean {close!r}?" if close else f"; tiebreaks: {', '.join(TIEBREAKS)}"
            raise EventError(f"unknown tiebreak {name!r}{hint}")
    dup = next((n for i, n in enumerate(names) if n in names[:i]), None)
    if dup is not None:
        raise EventError(f"tiebreak {dup!r} is named twice")
    return names


def buchholz(lines: Sequence[Line]) -> None:
    """Set each line's ``buchholz``: its opponents' match points, summed over its finished matches."""
    points = {line.name: line.match_points for line in lines}
    for line in lines:
        line.buchholz = sum(points.get(k, 0) for _mp, opponents in line.results for k in opponents)


def _value(line: Line, name: str) -> int:
    """The tiebreak as a number where smaller ranks higher (a sort key)."""
    if name == "fewest_lasts":
        return line.lasts
    if name == "most_firsts":
        return -line.firsts
    if name == "wins":
        return -line.won
    if name == "hand_points":
        return -line.hand_points
    if name == "buchholz":
        return -line.buchholz
    return -line.head_to_head


def rank(lines: Sequence[L], order: Sequence[str]) -> list[L]:
    """The lines in ranking order (match points, then ``order``), each with its shared ``rank`` set."""
    buchholz(lines)
    keys: dict[str, list[int]] = {line.name: [-line.match_points] for line in lines}
    for name in order:
        if name == "head_to_head":
            groups: dict[tuple[int, ...], list[L]] = {}
            for line in lines:
                groups.setdefault(tuple(keys[line.name]), []).append(line)
            for group in groups.values():
                tied = {x.name for x in group}
                for line in group:
                    line.head_to_head = (
                        sum(mp for mp, opp in line.results if (opp & tied) - {line.name}) if len(group) > 1 else 0
                    )
        for line in lines:
            keys[line.name].append(_value(line, name))
    ordered = sorted(lines, key=lambda x: (keys[x.name], x.name))
    for i, line in enumerate(ordered):
        same = i and keys[ordered[i - 1].name] == keys[line.name]
        line.rank = ordered[i - 1].rank if same else i + 1
    return ordered


NAMES: dict[str, tuple[str, str]] = {
    "match_points": ("赛分（胜2 平1 负0）", "match points"),
    "hand_points": ("局分", "hand points"),
    "head_to_head": ("相互战绩", "head-to-head"),
    "buchholz": ("对手分（Buchholz）", "Buchholz"),
    "fewest_lasts": ("大落少者", "fewest last places"),
    "most_firsts": ("头科多者", "most first places"),
    "wins": ("胜场多者", "most wins"),
}
"""Each ranking key as a club reads it, Chinese and English."""


def names(order: Sequence[str], lang: str = "en") -> list[str]:
    """The ranking order for readers: match points first, then each tiebreak, in ``lang`` ("zh" or "en")."""
    return [NAMES[n][0 if lang == "zh" else 1] for n in ("match_points", *order)]


def describe(order: Sequence[str], lang: str = "en") -> str:
    """``match points, hand points, Buchholz …``: the line printed with the standings."""
    return ("，" if lang == "zh" else ", ").join(names(order, lang))


__all__ = ["DEFAULT", "NAMES", "TIEBREAKS", "buchholz", "describe", "names", "parse", "rank"]
