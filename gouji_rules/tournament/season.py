"""A season: one club's nights (events) ranked together, by averages and by a partnership rating.

Why it looks like this:

* A club night is one event file; a season is several of them, given oldest first.  The
  *window* keeps the last N nights, so the ranking shows current form and an old season
  falls out by itself; every figure (averages and rating) comes from the nights in the window.
* A player is ranked only with at least M nights in the window (the club's minimum
  attendance): one good night is not a season.  Players below it are listed apart, unranked.
* Players are matched across nights by name, NFKC-normalised and trimmed, so ``Ｌｉ`` typed
  on a phone and ``Li`` typed on a laptop are one player; the name shown is the latest night's.
* The rating is OpenSkill's Plackett-Luce model, with its parameters fixed here (not left to
  the library's defaults), so an upgrade of ``openskill`` cannot move a club's ranking without
  a change in this file.  Each hand is one game between the two sides of three, won by the side
  with more points: that is what Gouji scores (a player's own place counts only through the
  side's points), and a hand gives the rating eight times the evidence a match does.  The rank
  uses the conservative ordinal μ − 3σ, so a player with few hands is not ranked on luck.
* A season is one club's rules: hand points under 4/2/0 and 2/1/0 scoring are not the same
  unit, so events whose rules differ are refused unless the caller allows a mix.
* Event files are opened read-only through :class:`~gouji_rules.tournament.event.Tournament`
  (the WAL included) and nothing is written to them; the same files in the same order give
  the same output, byte for byte.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import sqlite3
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..game.seats import side_seats
from ..outputs import spreadsheet_cell
from . import standings
from .errors import EventError
from .event import Tournament

SCHEMA_VERSION = 1
MU, SIGMA, BETA, KAPPA, TAU = 25.0, 25.0 / 3.0, 25.0 / 6.0, 0.0001, 25.0 / 300.0
"""OpenSkill's Plackett-Luce parameters: the library's documented defaults, pinned here."""
MODEL: dict[str, Any] = {"name": "PlackettLuce", "mu": MU, "sigma": SIGMA, "beta": BETA, "kappa": KAPPA, "tau": TAU}
Z = 3.0
"""The ordinal is μ − Z·σ: the skill a player has at least, with about 99.7% confidence."""


class SeasonError(EventError):
    """Nights that cannot make one season: the same event twice, different rules, a name that is two players.

    ``zh`` is the same refusal in Chinese, for the club (``gouji event season`` speaks Chinese first)."""

    def __init__(self, message: str, zh: str = "") -> None:
        super().__init__(message)
        self.zh = zh


class MissingExtra(SeasonError):
    """The season's rating needs a package the install left out: the refusal names the install command."""

    INSTALL = "pip install 'gouji_rules[season]'"

    def __init__(self, package: str) -> None:
        super().__init__(
            f"the season's rating needs the {package} package, which is not installed: {self.INSTALL}",
            f"需要安装 {package}（赛季评分用的软件包）：{self.INSTALL}",
        )
        self.package = package


def zh_refusal(e: EventError) -> str:
    """A refusal of the season in Chinese: its own words, or, for a night that cannot be read, what went
    wrong in a sentence with the file's own message after it."""
    zh = getattr(e, "zh", "")
    return zh or f"这个比赛文件读不了，不能算进赛季（{e}）"


def player_key(name: str) -> str:
    """The name a player is matched by across nights: NFKC-normalised, trimmed."""
    return unicodedata.normalize("NFKC", name).strip()


@dataclass(frozen=True)
class NightLine:
    """One player's night: hands played, the side's hand points summed, match points and place."""

    name: str
    hands: int
    hand_points: int
    match_points: int
    rank: int


@dataclass(frozen=True)
class Game:
    """One hand as a two-team game: the players of side 0 and side 1 (keys) and each side's points."""

    sides: tuple[tuple[str, ...], tuple[str, ...]]
    scores: tuple[int, int]


@dataclass(frozen=True)
class Night:
    """One club night as a season reads it: its players' lines and games under one set of rules (``rules`` is what
    makes two nights comparable)."""

    file: str
    name: str
    variant: str
    rules: str  # the event's resolved rules, canonical JSON: what "the same rules" means
    hands: int
    players: dict[str, NightLine]
    games: list[Game]
    identity: tuple[int, int]
    fingerprint: str
    takeover: dict[str, int] = field(default_factory=dict)  # a player's 托管 decisions this night


def _night(path: str, event: Tournament) -> Night:
    v = event.variant
    rules = json.dumps(v.to_dict(), ensure_ascii=False, sort_keys=True, default=str)
    by_id: dict[int, str] = {}
    seen: dict[str, str] = {}
    for e in event.entrants.values():
        k = player_key(e.name)
        if k in seen:
            raise SeasonError(
                f"{path}: players {seen[k]!r} and {e.name!r} are one name once normalised (NFKC); "
                "a season could not tell them apart, so rename one in the event",
                f"{path}：选手「{seen[k]}」和「{e.name}」写法不同但算同一个名字，赛季分不清他们；请在比赛里给其中一人改名",
            )
        seen[k] = e.name
        by_id[e.id] = k
    lines = standings.compute(event)
    line_of: dict[str, standings.Line] = {}
    for line in lines:
        for member in line.members:
            line_of[player_key(member)] = line
    hands: dict[str, int] = {}
    points: dict[str, int] = {}
    games: list[Game] = []
    seating = event.db.seating()
    rows = event.db.hands()
    for row in rows:
        seats = seating.get((row.round, row.tbl))
        if seats is None:
            raise EventError(f"{path}: damaged event file (hand {row.round}/{row.tbl}/{row.hand} has no seating)")
        sides = (
            tuple(by_id[seats[s]] for s in side_seats(0)),
            tuple(by_id[seats[s]] for s in side_seats(1)),
        )
        for side in (0, 1):
            for k in sides[side]:
                hands[k] = hands.get(k, 0) + 1
                points[k] = points.get(k, 0) + row.scores[side]
        games.append(Game(sides, (row.scores[0], row.scores[1])))
    players = {k: NightLine(seen[k], n, points[k], line_of[k].match_points, line_of[k].rank) for k, n in hands.items()}
    digest = hashlib.sha256()
    digest.update(json.dumps(event.meta, ensure_ascii=False, sort_keys=True, default=str).encode())
    digest.update(json.dumps(sorted(seen), ensure_ascii=False).encode())
    for row in rows:
        digest.update(json.dumps([row.round, row.tbl, row.hand, row.rotation, row.places, row.scores]).encode())
    return Night(
        file=path,
        name=event.name,
        variant=str(event.meta["variant"].get("filename") or v.name),
        rules=rules,
        hands=len(rows),
        players=players,
        games=games,
        identity=event.db.identity,
        fingerprint=digest.hexdigest(),
        takeover=standings.takeover_steps(event),
    )


def read_night(path: str) -> Night:
    """One event file, opened read-only; a damaged one is one :class:`EventError`, never a traceback."""
    try:
        event = Tournament.open(path, write=False)
    except sqlite3.DatabaseError as e:
        raise EventError(f"{path}: the event file is damaged or cannot be used ({e})") from None
    try:
        return _night(path, event)
    except EventError:
        raise
    except sqlite3.DatabaseError as e:
        raise EventError(f"{path}: the event file is damaged or cannot be used ({e})") from None
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise EventError(f"{path}: damaged event file ({type(e).__name__}: {e})") from None
    finally:
        event.close()


@dataclass
class SeasonLine:
    """A player's season: nights attended in the window, totals, averages and rating."""

    key: str
    name: str
    nights: int = 0
    hands: int = 0
    hand_points: int = 0
    match_points: int = 0
    rank_sum: int = 0
    mu: float = MU
    sigma: float = SIGMA
    rank: int = 0
    places: tuple[int, int] = (0, 0)  # the places the rating cannot tell apart (best, worst); see SURE

    @property
    def ordinal(self) -> float:
        """The rating a player is ranked by: mu less Z sigmas, so a player seen in few games is not ranked on luck."""
        return self.mu - Z * self.sigma

    @property
    def points_per_hand(self) -> float:
        """Hand points per hand played, so nights of different lengths compare."""
        return self.hand_points / self.hands if self.hands else 0.0

    @property
    def match_points_per_night(self) -> float:
        """Match points per night attended, so attendance alone does not rank a player."""
        return self.match_points / self.nights if self.nights else 0.0

    @property
    def average_rank(self) -> float:
        """The player's average place on the nights attended."""
        return self.rank_sum / self.nights if self.nights else 0.0


@dataclass
class Season:
    """A season's standings over a window of nights: who is ranked (attended enough) and who is not yet."""

    nights: list[Night]  # the window, oldest first
    given: int  # nights given in all
    window: int | None
    min_nights: int
    mixed: bool
    ranked: list[SeasonLine] = field(default_factory=list)
    unranked: list[SeasonLine] = field(default_factory=list)


def _check_nights(nights: Sequence[Night], mixed: bool) -> None:
    for i, n in enumerate(nights):
        for m in nights[:i]:
            if n.identity == m.identity:
                raise SeasonError(
                    f"{n.file}: is the same event file as {m.file}; give each night once",
                    f"{n.file} 和 {m.file} 是同一个比赛文件；每一晚只给一次",
                )
            if n.hands and n.fingerprint == m.fingerprint:
                raise SeasonError(
                    f"{n.file}: is a copy of {m.file} (the same event); give each night once",
                    f"{n.file} 是 {m.file} 的副本（同一晚的比赛）；每一晚只给一次",
                )
    if not mixed:
        first = nights[0]
        for n in nights[1:]:
            if n.rules != first.rules:
                raise SeasonError(
                    f"{n.file}: is played under other rules ({n.variant}) than {first.file} ({first.variant}); "
                    "a season is one club's rules, so its points add up; give --mixed to rank them together anyway",
                    f"{n.file} 用的规则（{n.variant}）和 {first.file}（{first.variant}）不一样；一个赛季用同一套规则，"
                    "分数才能相加。一定要放在一起排名，请加 --mixed",
                )


def _rate(nights: Sequence[Night], lines: dict[str, SeasonLine]) -> None:
    """Every hand of the window, in order, as a Plackett-Luce game between the two sides."""
    try:
        from openskill.models import PlackettLuce, PlackettLuceRating
    except ImportError:
        raise MissingExtra("openskill") from None
    model = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, kappa=KAPPA, tau=TAU)
    ratings: dict[str, PlackettLuceRating] = {}
    for night in nights:
        for g in night.games:
            teams = [[ratings.get(k) or model.rating(name=k) for k in side] for side in g.sides]
            a, b = g.scores
            ranks = [1.0, 1.0] if a == b else [1.0, 2.0] if a > b else [2.0, 1.0]
            for side, team in zip(g.sides, model.rate(teams, ranks=ranks), strict=True):
                for k, r in zip(side, team, strict=True):
                    ratings[k] = r
    for k, r in ratings.items():
        lines[k].mu, lines[k].sigma = float(r.mu), float(r.sigma)


MIN_NIGHTS = 2
"""The default attendance to be ranked: two nights.  One night is one evening's luck (the issue's
one-night player placed 11th ranked 8th, above a regular); from two nights on the rating's
uncertainty, shown as a range of places, tells how sure a rank is.  In a season of one night the
one night is everyone's, so the minimum is never more than the nights in the window."""

SURE = 2.0
"""How many σ wide a player's skill is taken to be when the page says which places he may hold
(about 95%): two players whose μ ± 2σ overlap may be in either order."""


def build(
    paths: Sequence[str], *, window: int | None = None, min_nights: int | None = None, mixed: bool = False
) -> Season:
    """The season of the event files ``paths`` (oldest first): the last ``window`` nights, ranked.

    ``min_nights`` None is :data:`MIN_NIGHTS`, at most the nights in the window."""
    if not paths:
        raise SeasonError("give at least one event file", "请至少给一个比赛文件")
    nights = [read_night(p) for p in paths]
    _check_nights(nights, mixed)
    chosen = nights[-window:] if window else nights
    if min_nights is None:
        min_nights = min(MIN_NIGHTS, len(chosen))
    lines: dict[str, SeasonLine] = {}
    for night in chosen:
        for k, nl in night.players.items():
            line = lines.setdefault(k, SeasonLine(k, nl.name))
            line.name = nl.name  # the latest night's spelling
            line.nights += 1
            line.hands += nl.hands
            line.hand_points += nl.hand_points
            line.match_points += nl.match_points
            line.rank_sum += nl.rank
    _rate(chosen, lines)
    season = Season(chosen, len(nights), window, min_nights, mixed)

    def order(x: SeasonLine) -> tuple[float, float, float, str]:
        return (-x.ordinal, -x.mu, -x.points_per_hand, x.key)

    everyone = sorted(lines.values(), key=order)
    season.ranked = [x for x in everyone if x.nights >= min_nights]
    season.unranked = [x for x in everyone if x.nights < min_nights]
    prev: SeasonLine | None = None
    for i, x in enumerate(season.ranked, start=1):
        x.rank = prev.rank if prev is not None and (prev.ordinal, prev.mu) == (x.ordinal, x.mu) else i
        prev = x
    for x in season.ranked:
        low, high = x.mu - SURE * x.sigma, x.mu + SURE * x.sigma
        above = sum(1 for y in season.ranked if y is not x and y.mu - SURE * y.sigma > high)
        below = sum(1 for y in season.ranked if y is not x and y.mu + SURE * y.sigma < low)
        x.places = (above + 1, len(season.ranked) - below)
    return season


def sureness(x: SeasonLine, season: Season, lang: str = "zh") -> str:
    """How sure a player's rank is, in words: the places he may hold, or how many nights he still needs."""
    zh = lang == "zh"
    if x.nights < season.min_nights:
        n = season.min_nights - x.nights
        return f"还需要 {n} 晚才能排定" if zh else f"{n} more night(s) to be ranked"
    best, worst = x.places
    if best == worst:
        return "名次已定" if zh else "settled"
    return f"可能第 {best}–{worst} 名" if zh else f"places {best}–{worst}"


# -- output --------------------------------------------------------------------------------

COLUMNS = [
    ("rank", "名次", "#"),
    ("name", "选手", "player"),
    ("ordinal", "保守分", "ordinal"),
    ("rating", "等级分 μ±σ", "rating μ±σ"),
    ("nights", "出勤", "nights"),
    ("hands", "局数", "hands"),
    ("points_per_hand", "局均分", "pts/hand"),
    ("match_points_per_night", "晚均赛分", "MP/night"),
    ("average_rank", "平均名次", "avg place"),
]
"""The season's columns (id, Chinese, English): what decides the rank first, so a phone shows it unscrolled."""


def cells(x: SeasonLine, ranked: bool) -> list[str]:
    """A player's line as printed, in the order of :data:`COLUMNS`."""
    shown = {
        "rank": str(x.rank) if ranked else "-",
        "name": x.name,
        "ordinal": f"{x.ordinal:.1f}",
        "rating": f"{x.mu:.1f}±{x.sigma:.1f}",
        "nights": str(x.nights),
        "hands": str(x.hands),
        "points_per_hand": f"{x.points_per_hand:.2f}",
        "match_points_per_night": f"{x.match_points_per_night:.2f}",
        "average_rank": f"{x.average_rank:.2f}",
    }
    return [shown[c] for c, _, _ in COLUMNS]


def to_text(season: Season, lang: str = "zh") -> str:
    """The season as plain text for a terminal or a notice board, Chinese first unless ``lang`` is English."""
    zh = lang == "zh"
    n, m = len(season.nights), season.min_nights
    if zh:
        head = f"赛季：最近 {n} 晚（共 {season.given} 晚），出勤至少 {m} 晚才排名\n"
    else:
        head = f"Season: the last {n} night(s) of {season.given}; ranked from {m} night(s) attended\n"
    head += "".join(f"  {i}. {night.name} ({night.file}, {night.hands} {'局' if zh else 'hand(s)'})\n"
                    for i, night in enumerate(season.nights, start=1))  # fmt: skip
    headers = [zh_h if zh else en_h for _, zh_h, en_h in COLUMNS]
    numeric = {i for i, (c, _, _) in enumerate(COLUMNS) if c != "name"}
    out = head + "\n"
    if season.ranked:
        out += standings.table(headers, [cells(x, True) for x in season.ranked], numeric)
    else:
        out += "还没有人达到出勤要求\n" if zh else "nobody has attended enough nights yet\n"
    if season.unranked:
        out += f"\n出勤不足 {m} 晚，不排名：\n" if zh else f"\nFewer than {m} night(s), not ranked:\n"
        out += standings.table(headers, [cells(x, False) for x in season.unranked], numeric)
    mixed = "（规则不同的赛事一并计算：--mixed）" if zh else " (events under different rules mixed: --mixed)"
    if zh:
        foot = (
            "\n等级分：OpenSkill Plackett-Luce，每局是两方（各三人）的一场对局，本局得分多的一方胜；"
            f"按保守分 μ − {Z:g}σ 排名。选手按姓名（NFKC 规范化）跨晚匹配。"
        )
    else:
        foot = (
            "\nRating: OpenSkill Plackett-Luce, each hand a game between the two sides of three, won by the side "
            f"with more points; ranked by the ordinal μ − {Z:g}σ. Players are matched across nights by name (NFKC)."
        )
    steps: dict[str, int] = {}
    for night in season.nights:
        for name, k in night.takeover.items():
            steps[name] = steps.get(name, 0) + k
    note = standings.takeover_note(steps, lang)
    return out + ("\n" + note if note else "") + foot + (mixed if season.mixed else "") + "\n"


def _row(x: SeasonLine, ranked: bool) -> dict[str, Any]:
    return {
        "rank": x.rank if ranked else None,
        "name": x.name,
        "nights": x.nights,
        "hands": x.hands,
        "hand_points": x.hand_points,
        "points_per_hand": round(x.points_per_hand, 6),
        "match_points": x.match_points,
        "match_points_per_night": round(x.match_points_per_night, 6),
        "average_rank": round(x.average_rank, 6),
        "mu": round(x.mu, 6),
        "sigma": round(x.sigma, 6),
        "ordinal": round(x.ordinal, 6),
    }


def to_json(season: Season) -> str:
    """The season as one JSON document with its schema version, for other programs."""
    doc = {
        "schema_version": SCHEMA_VERSION,
        "nights": [{"file": n.file, "name": n.name, "variant": n.variant, "hands": n.hands} for n in season.nights],
        "nights_given": season.given,
        "window": season.window,
        "min_nights": season.min_nights,
        "mixed": season.mixed,
        "rating": {**MODEL, "game": "hand, two sides of three", "ordinal": f"mu - {Z:g} * sigma"},
        "ranked": [_row(x, True) for x in season.ranked],
        "unranked": [_row(x, False) for x in season.unranked],
    }
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


CSV_COLUMNS = list(_row(SeasonLine("", ""), True))


def to_csv(season: Season) -> str:
    """The season as CSV for a spreadsheet; every cell made safe, since names come from players' own files."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for ranked, group in ((True, season.ranked), (False, season.unranked)):
        for x in group:
            row = _row(x, ranked)
            w.writerow([spreadsheet_cell("" if row[c] is None else row[c]) for c in CSV_COLUMNS])
    return out.getvalue()


__all__ = [
    "MIN_NIGHTS",
    "MODEL",
    "MissingExtra",
    "Season",
    "SeasonError",
    "SeasonLine",
    "build",
    "cells",
    "player_key",
    "read_night",
    "sureness",
    "to_csv",
    "to_json",
    "to_text",
]
