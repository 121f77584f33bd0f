"""An event: creating it from players, teams or bots, and reading it back as one object.

``Tournament`` is the view every command works through: the stored settings, the
entrants, the seating of a round, and the Variant rebuilt from the event's own
copy of the rules (see variant_copy.py).
"""

from __future__ import annotations

import csv
import io
import itertools
import math
import re
import shlex
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import GoujiError, VariantError
from ..inputs import MIB, InputFileError, read_text
from ..play.agents import AGENTS, LEARNED_FILE, learned_file, make_agent
from ..variant import Variant
from . import schedule, storage, tiebreaks
from .errors import EventError, InputError, ScoreTooBig
from .storage import BUSY_TIMEOUT, INT64_MAX, INT64_MIN, MAX_EVENT_NAME, Entrant, EventDB, NewEvent
from .variant_copy import rebuild, snapshot

CSV_LIMIT = 4 * MIB
"""Bytes read at most from a players, teams or results CSV (some 100,000 rows)."""
# the bounds live with the file, which checks them again each time it is opened
MAX_ROUNDS = storage.MAX_ROUNDS
MAX_HANDS = storage.MAX_HANDS
MAX_ENTRANTS = storage.MAX_ENTRANTS
NAME_RE = re.compile(r"^[^\s:,]+$")


@dataclass(frozen=True)
class Settings:
    """What ``event new`` was asked for, before anything is written."""

    name: str
    variant: str
    fmt: str | None = None
    rounds: int | None = None
    hands: int | None = None
    seed: int = 0
    duplicate: bool | None = None
    tiebreaks: tuple[str, ...] = ()  # after match points; () is tiebreaks.DEFAULT


NAME_MAX = 64
"""Characters a player name may have (it is printed on seating sheets and standings)."""
HIDDEN_CATEGORIES = {
    "Cc": "a control character",
    "Cf": "an invisible format character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}


def check_name(name: str, file: str = "", line: int = 0) -> str:
    """A player name must be one token with no ':' or ',' and not a seat number, so results can name it.

    Names are NFC-normalised, so a name typed with combining marks is the same player as its
    precomposed look-alike, and a name carrying invisible characters (zero-width space, an RTL
    override, a control character) is refused with the position of the first one: two such names
    look alike on paper yet would be different players.
    """
    name = unicodedata.normalize("NFC", name.strip())
    if not name:
        raise InputError("empty player name", file=file, line=line)
    for i, ch in enumerate(name, start=1):
        what = HIDDEN_CATEGORIES.get(unicodedata.category(ch))
        if what is not None:
            raise InputError(
                f"player name {name!r}: character {i} is {what} (U+{ord(ch):04X}); type the name without it",
                file=file,
                line=line,
            )
    if len(name) > NAME_MAX:
        raise InputError(f"player name {name[:20]!r}…: at most {NAME_MAX} characters", file=file, line=line)
    if not NAME_RE.match(name) or name.isdigit():
        raise InputError(
            f"player name {name!r} cannot be used: names are one word, without ':' or ',', and not a number",
            file=file,
            line=line,
        )
    return name


def _rows(path: str, encoding: str | None = None) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    """A CSV file's lower-cased header and its non-blank rows with their line numbers.

    Read through :func:`gouji_rules.inputs.read_text`: a regular file of bounded size, UTF-8
    (a BOM allowed) unless ``encoding`` names another, so a GBK or UTF-16 file saved by a
    spreadsheet is named with the fix instead of failing half way.
    """
    try:
        text = read_text(path, limit=CSV_LIMIT, encoding=encoding)
    except InputFileError as e:
        raise InputError(e.message, file=path) from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = [h.strip().lower() for h in next(reader)]
    except StopIteration:
        raise InputError("empty file; expected a header line", file=path, line=1) from None
    except csv.Error as e:
        raise InputError(f"bad CSV: {e}", file=path, line=reader.line_num) from None
    rows: list[tuple[int, dict[str, str]]] = []
    try:
        for row in reader:
            if not any(c.strip() for c in row):
                continue
            if len(row) > len(header):
                raise InputError(
                    f"{len(row)} fields, but the header has {len(header)}", file=path, line=reader.line_num
                )
            rows.append((reader.line_num, {h: (row[i].strip() if i < len(row) else "") for i, h in enumerate(header)}))
    except csv.Error as e:
        raise InputError(f"bad CSV: {e}", file=path, line=reader.line_num) from None
    return header, rows


def read_players(path: str, encoding: str | None = None) -> list[str]:
    """players.csv: a header with a ``name`` column, one player a row (other columns are ignored)."""
    header, rows = _rows(path, encoding)
    if "name" not in header:
        raise InputError("the header needs a 'name' column", file=path, line=1)
    seen: dict[str, int] = {}
    out = []
    for line, row in rows:
        name = check_name(row["name"], path, line)
        if name in seen:
            raise InputError(f"player {name!r} is already on line {seen[name]}", file=path, line=line)
        seen[name] = line
        out.append(name)
    return out


def read_teams(path: str, encoding: str | None = None) -> dict[str, list[str]]:
    """teams.csv: a header with ``team`` and ``name`` columns, one player a row, three players a team."""
    header, rows = _rows(path, encoding)
    for col in ("team", "name"):
        if col not in header:
            raise InputError(f"the header needs a {col!r} column (team,name: one player a row)", file=path, line=1)
    teams: dict[str, list[str]] = {}
    seen: dict[str, int] = {}
    for line, row in rows:
        team = check_name(row["team"], path, line) if row["team"].strip() else ""
        if not team:
            raise InputError("empty team name", file=path, line=line)
        name = check_name(row["name"], path, line)
        if name in seen:
            raise InputError(f"player {name!r} is already on line {seen[name]}", file=path, line=line)
        seen[name] = line
        members = teams.setdefault(team, [])
        if len(members) == 3:
            raise InputError(f"team {team!r} already has three players", file=path, line=line)
        members.append(name)
    short = [t for t, m in teams.items() if len(m) != 3]
    if short:
        raise InputError(f"team {short[0]!r} has {len(teams[short[0]])} players; a team has three", file=path)
    if len(teams) < 2:
        raise InputError("an event needs at least two teams", file=path)
    return teams


BOT_SPLIT = re.compile(r",(?=\s*[^,=\s]+=)")


def parse_bots(specs: Sequence[str]) -> list[tuple[str, str]]:
    """``name=random,name2=greedy,name3=cmd:python examples/bot.py`` (the option may repeat)."""
    out: list[tuple[str, str]] = []
    names: set[str] = set()
    for spec in specs:
        for part in BOT_SPLIT.split(spec):
            name, eq, kind = part.strip().partition("=")
            if not eq:
                raise InputError(f"bot {part.strip()!r}: write NAME=random, NAME=greedy or NAME=cmd:COMMAND")
            name = check_name(name)
            kind = kind.strip()
            if not kind.startswith("cmd:") and "," in kind:
                stray = kind.split(",", 1)[1].strip()
                raise InputError(f"bot {stray!r}: write NAME=random, NAME=greedy or NAME=cmd:COMMAND")
            if name in names:
                raise InputError(f"bot name {name!r} is used twice")
            names.add(name)
            if kind.startswith("cmd:"):
                try:
                    argv = shlex.split(kind[4:])
                except ValueError as e:
                    raise InputError(f"bot {name!r}: cannot split the command: {e}") from None
                if not argv:
                    raise InputError(f"bot {name!r}: empty command after 'cmd:'")
            elif (weights := learned_file(kind)) is not None:
                kind = LEARNED_FILE + str(Path(weights).resolve())  # the event may run elsewhere
                try:
                    make_agent(kind)  # reads the file now: no event starts with a bot that cannot play
                except GoujiError as e:
                    raise InputError(f"bot {name!r}: {e}") from None
            elif kind not in AGENTS:
                raise InputError(
                    f"bot {name!r}: unknown agent {kind!r}; use {', '.join(sorted(AGENTS))}, learned:FILE or cmd:COMMAND"
                )
            out.append((name, kind))
    return out


def check_scores(variant: Variant) -> None:
    """Refuse rules whose points for some finish cannot be stored, before the event exists.

    A hand's points are ``Rules.team_scores(places)``, a function of the finishing order alone
    (the hooks ``team_score`` and ``sweep_multiplier`` see only places, points and the sweep),
    so trying the 720 finishes tries every hand the event could ever store: a finish whose hook
    number is out of range (``HookValueError``) or whose points pass 64 bits is named here, and
    no table is left with a hand that cannot be entered.
    """
    for order in itertools.permutations(range(6)):
        places = [0] * 6
        for place, seat in enumerate(order, start=1):
            places[seat] = place
        finish = " ".join(map(str, order))
        try:
            scores = variant.rules.team_scores(places)
        except VariantError as e:
            raise EventError(
                f"the rules cannot score every hand, so no event was created: for the finish {finish} "
                f"(seats in finishing order): {e}"
            ) from None
        for score in scores:
            if not INT64_MIN <= score <= INT64_MAX:
                why = str(ScoreTooBig(score)).split("; ")[0]
                raise EventError(
                    f"the rules cannot score every hand, so no event was created: for the finish {finish} "
                    f"(seats in finishing order) {why}"
                )


def create(
    path: str | Path,
    settings: Settings,
    *,
    players: Sequence[str] | None = None,
    teams: dict[str, list[str]] | None = None,
    bots: Sequence[tuple[str, str]] | None = None,
) -> EventDB:
    """Build a new event file: entrants, the settings, the rules' copy and the seating known in advance."""
    if not 1 <= len(settings.name) <= MAX_EVENT_NAME:
        raise EventError(f"an event's name has 1 to {MAX_EVENT_NAME} characters, not {len(settings.name)}")
    variant, copy = snapshot(settings.variant)
    check_scores(variant)
    given = [x is not None for x in (players, teams, bots)]
    if sum(given) != 1:
        raise EventError("give exactly one of players, teams or bots")
    hands = settings.hands or variant.match.hands
    if not 1 <= hands <= MAX_HANDS:
        raise EventError(f"a match has 1 to {MAX_HANDS} hands, not {hands}")
    if settings.rounds is not None and not 1 <= settings.rounds <= MAX_ROUNDS:
        raise EventError(f"an event has 1 to {MAX_ROUNDS} rounds, not {settings.rounds}")
    count = len(players or ()) + sum(len(m) for m in (teams or {}).values()) + len(bots or ())
    if count > MAX_ENTRANTS:
        raise EventError(f"an event has at most {MAX_ENTRANTS} entrants ({MAX_ENTRANTS // 6} tables), not {count}")
    entrants: list[Entrant] = []
    new = NewEvent(meta={}, entrants=entrants)
    if teams is not None:
        fmt = settings.fmt or "round_robin"
        if fmt not in ("round_robin", "swiss"):
            raise EventError(f"fixed teams play 'round_robin' or 'swiss', not {fmt!r}")
        for team, members in teams.items():
            for m in members:
                entrants.append(Entrant(len(entrants) + 1, m, team, None))
        ids = {t: [e.id for e in entrants if e.team == t] for t in teams}
        names = list(teams)
        if fmt == "round_robin":
            if settings.rounds is None and len(names) - 1 > MAX_ROUNDS:
                raise EventError(
                    f"a full round robin of {len(names)} teams takes {len(names) - 1} rounds, more than "
                    f"{MAX_ROUNDS}; give --rounds or play swiss"
                )
            plan = schedule.round_robin(names, settings.rounds)
            rounds = len(plan)
            for r, (pairs, byes) in enumerate(plan, start=1):
                for t, (a, b) in enumerate(pairs, start=1):
                    new.seats[(r, t)] = team_seats(ids[a], ids[b])
                new.byes += [(r, x) for x in byes]
        else:
            rounds = settings.rounds or max(1, math.ceil(math.log2(len(names))))
            pairs, byes = schedule.swiss(schedule.swiss_first_order(names, settings.seed), set(), set())
            for t, (a, b) in enumerate(pairs, start=1):
                new.seats[(1, t)] = team_seats(ids[a], ids[b])
            new.byes += [(1, x) for x in byes]
        mode = "club"
        tables = len(teams) // 2
    else:
        fmt = settings.fmt or "rotating"
        if fmt != "rotating":
            raise EventError(f"individual players play with 'rotating' partners, not {fmt!r}")
        if players is not None:
            mode = "club"
            for p in players:
                entrants.append(Entrant(len(entrants) + 1, p, None, None))
        else:
            assert bots is not None
            mode = "bots"
            for name, kind in bots:
                entrants.append(Entrant(len(entrants) + 1, name, None, kind))
        n = len(entrants)
        if n < 6 or n % 6:
            what = "bots" if mode == "bots" else "players"
            raise EventError(f"rotating partners seat six at a table: {n} {what} is not a multiple of 6")
        rounds = settings.rounds or 3
        if rounds < 1:
            raise EventError("an event has at least one round")
        plan6 = schedule.rotating(n, rounds, settings.seed)
        for r, tables_ in enumerate(plan6, start=1):
            for t, six in enumerate(tables_, start=1):
                new.seats[(r, t)] = [entrants[i].id for i in six]
        tables = n // 6
    duplicate = settings.duplicate if settings.duplicate is not None else mode == "bots"
    if duplicate and mode != "bots":
        raise EventError("duplicate deals need bots (at a real table nobody can deal the same cards twice)")
    new.meta = {
        "name": settings.name,
        "mode": mode,
        "format": fmt,
        "rounds": rounds,
        "tables": tables,
        "hands": hands,
        "seed": settings.seed,
        "duplicate": duplicate,
        "tiebreaks": list(tiebreaks.parse(settings.tiebreaks) if settings.tiebreaks else tiebreaks.DEFAULT),
        "variant": copy,
    }
    return EventDB.create(path, new)


def team_seats(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """Team ``a`` in seats 0, 2, 4 and team ``b`` in 1, 3, 5, each in the order they were listed."""
    return [a[0], b[0], a[1], b[1], a[2], b[2]]


class Tournament:
    """An open event: settings, entrants, seating and the rules it is scored under."""

    def __init__(self, db: EventDB, variant: Variant | None = None) -> None:
        """``variant``: the rules already rebuilt from this event's copy (a second connection to the same file)."""
        self.db = db
        self.meta = db.meta
        self._variant: Variant | None = variant
        self.entrants = {e.id: e for e in db.entrants()}
        self.by_name = {e.name: e for e in self.entrants.values()}

    @classmethod
    def open(
        cls, path: str | Path, *, write: bool = True, timeout: float = BUSY_TIMEOUT, weak_secret: bool = False
    ) -> Tournament:
        """Open an event; ``write=False`` opens it read-only (see :class:`EventDB`)."""
        return cls(EventDB(path, write=write, timeout=timeout, weak_secret=weak_secret))

    def close(self) -> None:
        """Close the event's file, so another process may write it."""
        self.db.close()

    def __enter__(self) -> Tournament:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def variant(self) -> Variant:
        """The rules the event is played under, rebuilt from the copy stored with it (not from today's shipped file),
        so its results never change meaning."""
        if self._variant is None:
            self._variant = rebuild(self.meta["variant"])
        return self._variant

    @property
    def name(self) -> str:
        """The event's name, as the director gave it."""
        return str(self.meta["name"])

    @property
    def mode(self) -> str:
        """How hands are played (bots, a club's tables), stored so every command treats the event alike."""
        return str(self.meta["mode"])

    @property
    def fmt(self) -> str:
        """The schedule's format (swiss, round robin …), stored with the event."""
        return str(self.meta["format"])

    @property
    def rounds(self) -> int:
        """How many rounds the event plays."""
        return int(self.meta["rounds"])

    @property
    def hands_per_match(self) -> int:
        """How many hands make one match at a table."""
        return int(self.meta["hands"])

    @property
    def seed(self) -> int:
        """The event's seed: the deals and the draw follow from it, so a bot event can be replayed."""
        return int(self.meta["seed"])

    @property
    def tiebreaks(self) -> tuple[str, ...]:
        """The order after match points (events made before tiebreaks could be chosen use the default)."""
        return tuple(self.meta.get("tiebreaks") or tiebreaks.DEFAULT)

    @property
    def rotations(self) -> list[int]:
        """The rotations each deal is played in: two in a duplicate event (each side plays each hand), else one."""
        return [0, 1] if self.meta["duplicate"] else [0]

    @property
    def by_team(self) -> bool:
        """Does the event rank teams (any entrant names one) rather than single players?"""
        return any(e.team for e in self.entrants.values())

    def seat_names(self, seats: Sequence[int]) -> list[str]:
        """The names of the entrants in ``seats``, for tables and score slips."""
        return [self.entrants[e].name for e in seats]

    def scheduled_hands(self) -> int:
        """How many hands the whole event has once every round is seated."""
        per_round = int(self.meta["tables"]) * self.hands_per_match * len(self.rotations)
        return per_round * self.rounds

    def describe(self) -> dict[str, Any]:
        """The event's settings as plain data, for ``gouji event show --json`` and the public pages."""
        copy = self.meta["variant"]
        return {
            "name": self.name,
            "mode": self.mode,
            "format": self.fmt,
            "rounds": self.rounds,
            "tables": self.meta["tables"],
            "hands_per_match": self.hands_per_match,
            "duplicate": bool(self.meta["duplicate"]),
            "seed": self.seed,
            "variant": copy.get("filename") or copy["name"],
        }
