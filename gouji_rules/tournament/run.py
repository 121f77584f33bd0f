"""Bot events: play every scheduled match, one transaction per finished match, resumable.

A *unit* is one match: round ``r``, table ``t``, rotation ``k`` (``k = 1`` is the
duplicate of the same deals with the sides' cards swapped, ``Match(rotate=1)``).
Its seed is ``derive(event seed, r, t)``, the same for both rotations, and
nothing else is random (built-in bots are created afresh for every match and
seeded per hand), so a unit plays the same whether it runs first, last, or
after a restart.  A unit's hands and faults are written in one transaction when
the match ends; a kill before that loses only the unfinished match, which the
next ``gouji event run`` plays again from its start.  Units already stored are
skipped, and the table's primary key refuses a second copy of any hand.

A run always ends (docs/tournaments.md, "A run always ends"): each decision,
message to a bot included, is bounded by the time limit (a restarted bot's start by the
hello's limit, two failed starts in a row retiring the seat for the match); under ``play.wrong_play:
lose_turn``, once every seat still in the hand has lost its lead in turn with no card
played, the next wrong lead is decided by the fallback (as under ``refuse``) instead
of handing the lead on again; a hand that runs past :data:`HAND_DECISIONS_MAX`
decisions is finished by the fallback at every seat; and a ``budget`` stops the run
between decisions, the unfinished match left to the next run.  The first two are
logged as faults (``lead_round``, ``hand_limit``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import IllegalAction, VariantError
from ..game.actions import Burn, Play
from ..game.rng import derive
from ..play.agents import GreedyAgent
from ..play.match import Match
from . import standings
from .bots import STDERR_KEEP, BotFault, ExternalPlayer, Player, make_player
from .errors import EventError
from .event import Tournament
from .storage import EventDB, Fault, HandRow

END_STANDING = ("rank", "played", "won", "drawn", "lost", "byes", "match_points", "hand_points", "firsts", "lasts")
"""The fields of the bot's standings line that its ``end`` message carries (docs/tournaments.md names them)."""

DEFAULT_TIME_LIMIT = 2.0
HAND_DECISIONS_MAX = 5000
"""Decisions in one hand after which the fallback plays every seat to the end of the hand.  No hand
comes near it (random play over the shipped variants, 40 deals each: 442 at most); it bounds a hand
whatever the bots do."""
DETAIL_MAX = 1000 + STDERR_KEEP + 200  # characters of a fault's detail stored: the message and the bot's stderr


@dataclass
class RunReport:
    """What a bot event's run did: matches played and skipped, faults, and whether the time budget ran out, so the
    command can say where it stopped."""

    played: list[tuple[int, int, int]] = field(default_factory=list)
    skipped: int = 0
    faults: int = 0
    not_played: int = 0  # matches left when the budget ran out (the one under way included)
    out_of_time: bool = False


class _OutOfTime(Exception):
    """The run's budget ran out during a match: the match is left unstored, to be played again."""


def units(event: Tournament) -> list[tuple[int, int, int]]:
    """Every match of the event in the order it is played: round, table, rotation."""
    out = []
    for rnd, tbl in sorted(event.db.seating()):
        for rot in event.rotations:
            out.append((rnd, tbl, rot))
    return out


class _Pool:
    """External bot processes live for the whole run; built-in bots are made fresh per match."""

    def __init__(self, event: Tournament, time_limit: float) -> None:
        self.event = event
        self.time_limit = time_limit
        self.external: dict[int, ExternalPlayer] = {}

    def player(self, eid: int) -> Player:
        e = self.event.entrants[eid]
        spec = e.bot or "greedy"
        if spec.startswith("cmd:"):
            if eid not in self.external:
                p = make_player(e.name, spec, self.time_limit)
                assert isinstance(p, ExternalPlayer)
                self.external[eid] = p
            return self.external[eid]
        return make_player(e.name, spec, self.time_limit)

    def handshake(self, eids: set[int]) -> None:
        """Start every external bot the run needs and wait for its hello, before any hand is played."""
        for eid in sorted(eids):
            p = self.player(eid)
            if not isinstance(p, ExternalPlayer):
                continue
            try:
                p.handshake()
            except BotFault as f:
                command = self.event.entrants[eid].bot or ""
                raise EventError(
                    f"bot {p.name!r} ({command}) cannot play: {f.detail}; no hand was played "
                    "(docs/bot-protocol.md: a bot answers hello when it starts)"
                ) from None

    def end(self, complete: bool) -> None:
        """Send ``end`` to each external bot that asked for it (docs/bot-protocol.md, Ending): the event,
        whether every match is stored, and the bot's line of the standings."""
        wanting = [(eid, p) for eid, p in self.external.items() if p.wants_end]
        if not wanting:
            return
        lines = standings.compute(self.event)
        for eid, p in wanting:
            name = self.event.entrants[eid].name
            line = next((ln for ln in lines if ln.name == name or name in ln.members), None)
            mine = None if line is None else {k: getattr(line, k) for k in END_STANDING}
            p.end({"event": self.event.name, "complete": complete, "entrants": len(lines), "standing": mine})

    def close(self) -> None:
        for p in self.external.values():
            p.close()


def play_unit(
    event: Tournament,
    pool: _Pool,
    rnd: int,
    tbl: int,
    rotation: int,
    *,
    deadline: float | None = None,
) -> tuple[list[HandRow], list[Fault]]:
    """Play one match with the seated bots; a fault hands that one decision to the fallback (greedy).

    Raises _OutOfTime when ``deadline`` (``time.monotonic()``) passes before the match ends."""
    variant = event.variant
    seats = event.db.seating(rnd)[(rnd, tbl)]
    names = event.seat_names(seats)
    players = [pool.player(eid) for eid in seats]
    for p in players:
        if isinstance(p, ExternalPlayer):
            p.deadline = deadline  # a restart's wait for hello ends with the budget
    fallback = [GreedyAgent() for _ in range(6)]
    seed = derive(event.seed, rnd, tbl)
    m = Match(variant, seed, event.hands_per_match, rotate=rotation)
    faults: list[Fault] = []
    retired: set[int] = set()
    started = -1
    lost_leads = 0  # leads lost to wrong plays in a row, no card played since
    first_decision = 0
    while not m.is_over:
        if deadline is not None and time.monotonic() >= deadline:
            raise _OutOfTime
        index = len(m.summaries)
        if index != started:
            started = index
            lost_leads = 0
            first_decision = m.decisions
            hseed = derive(seed, index)
            info: dict[str, Any] = {
                "variant": variant.name,
                "event": event.name,
                "round": rnd,
                "table": tbl,
                "hand": index + 1,
                "rotation": rotation,
                "players": names,
            }
            for s in range(6):
                players[s].start_hand(hseed, s, info)
                fallback[s].start_hand(hseed, s)
        seat = m.turn
        legal = m.legal_actions()
        obs = m.observation(seat)
        decision = m.decisions
        if decision - first_decision == HAND_DECISIONS_MAX:
            faults.append(
                Fault(
                    rnd, tbl, index + 1, rotation, decision, seat, seats[seat], "hand_limit",
                    f"{HAND_DECISIONS_MAX:,} decisions in this hand; the fallback plays every seat to its end",
                )
            )  # fmt: skip
        if decision - first_decision >= HAND_DECISIONS_MAX:
            m.apply(fallback[seat].act(obs, legal), seat)
            continue
        try:
            action = players[seat].decide(obs, legal)
            for kind, detail in players[seat].notes():
                faults.append(
                    Fault(rnd, tbl, index + 1, rotation, decision, seat, seats[seat], kind, detail[:DETAIL_MAX])
                )
            m.apply(action, seat)
            if isinstance(action, (Play, Burn)):
                lost_leads = 0
            continue
        except BotFault as f:
            kind, detail = f.kind, f.detail
        except IllegalAction as e:
            kind, detail = "illegal", str(e)
        for k, d in players[seat].notes():
            faults.append(Fault(rnd, tbl, index + 1, rotation, decision, seat, seats[seat], k, d[:DETAIL_MAX]))
        if not (kind == "retired" and seat in retired):
            faults.append(Fault(rnd, tbl, index + 1, rotation, decision, seat, seats[seat], kind, detail[:DETAIL_MAX]))
        if kind == "retired":
            retired.add(seat)
        leading = obs.mode == "lead"
        if kind == "illegal" and leading and lost_leads >= sum(obs.active):
            # the lead went round every seat still in the hand, each losing it: handing it on again
            # could go on for ever (two bots that only answer "pass"), so the fallback leads this once
            faults.append(
                Fault(
                    rnd, tbl, index + 1, rotation, decision, seat, seats[seat], "lead_round",
                    f"the lead was lost by all {sum(obs.active)} seats still in the hand in turn, no card played; "
                    "the fallback leads for this seat",
                )
            )  # fmt: skip
        elif kind == "illegal":
            # 错牌不出 (S4 第四条(一)): the wrong play loses the turn, and the record shows it
            try:
                m.forfeit(seat, detail[:200])
                if leading:
                    lost_leads += 1
                continue
            except IllegalAction:
                pass  # the variant refuses wrong plays (play.wrong_play), or the decision cannot be forfeited
        action = fallback[seat].act(obs, legal)
        m.apply(action, seat)
        if isinstance(action, (Play, Burn)):
            lost_leads = 0
    for p in players:
        p.end_match()
    rows = []
    for i, summ in enumerate(m.summaries):
        record = dict(summ.record)
        record.update(
            {"event": event.name, "round": rnd, "table": tbl, "hand": i + 1, "rotation": rotation, "players": names}
        )
        result = {
            "seed": summ.seed,
            "leader": summ.leader,
            "sweep": summ.sweep,
            "debts": [d.__dict__ for d in summ.debts],
        }
        rows.append(HandRow(rnd, tbl, i + 1, rotation, list(summ.places), summ.scores, result, record))
    return rows, faults


def run_event(
    event: Tournament,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    progress: Callable[[str], None] | None = None,
    limit: int | None = None,
    budget: float | None = None,
) -> RunReport:
    """Play every match not stored yet, storing each as it finishes; ``limit`` stops after that many.

    ``budget`` is the run's wall-clock allowance in seconds: when it runs out the run stops between two
    decisions, keeps every match stored, and counts the rest (the match under way included) in
    ``not_played``; the next run plays them."""
    if event.mode != "bots":
        raise EventError("this is a club event: its hands are entered with 'gouji event record', not played by bots")
    event.variant  # noqa: B018 - fail before any bot starts if the stored rules cannot be rebuilt
    deadline = None if budget is None else time.monotonic() + budget
    report = RunReport()
    todo = units(event)
    done = event.db.stored_units()
    pool = _Pool(event, time_limit)
    try:
        needed = {eid for unit in todo if unit not in done for eid in event.db.seating(unit[0])[unit[:2]]}
        pool.handshake(needed)
        for unit in todo:
            if unit in done:
                report.skipped += 1
                continue
            if limit is not None and len(report.played) >= limit:
                break
            rnd, tbl, rot = unit
            try:
                if deadline is not None and time.monotonic() >= deadline:
                    raise _OutOfTime
                rows, faults = play_unit(event, pool, rnd, tbl, rot, deadline=deadline)
            except _OutOfTime:
                report.out_of_time = True
                report.not_played = sum(1 for u in todo if u not in done) - len(report.played)
                break
            except VariantError as e:  # the rules themselves failed (a hook's number out of range)
                dup = f" rotation {rot}" if len(event.rotations) > 1 else ""
                raise EventError(
                    f"round {rnd} table {tbl}{dup}: {e}; the run stops: this match is not stored, the "
                    f"{len(done) + len(report.played)} stored before it are kept"
                ) from None
            with event.db.transaction() as con:
                if unit in event.db.stored_units():
                    continue  # another process stored it meanwhile; the key would refuse it anyway
                for row in rows:
                    EventDB.put_hand(con, row)
                for f in faults:
                    EventDB.put_fault(con, f)
            report.played.append(unit)
            report.faults += len(faults)
            if progress is not None:
                a = sum(r.scores[0] for r in rows)
                b = sum(r.scores[1] for r in rows)
                dup = f", rotation {rot}" if len(event.rotations) > 1 else ""
                extra = f", {len(faults)} fault(s)" if faults else ""
                progress(
                    f"round {rnd} table {tbl}{dup}: {len(rows)} hands, seats 0 2 4 {a} : {b} seats 1 3 5{extra} "
                    f"[{len(done) + len(report.played)}/{len(todo)}]"
                )
        pool.end(complete=set(todo) <= event.db.stored_units())
    finally:
        pool.close()
    return report
