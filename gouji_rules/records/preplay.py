"""Replaying a match hand's events before play (``pre_play``), so a record cannot invent them.

A match hand record states what happened between the deal and the first lead: declarations,
tribute and its return, waives, buying, 革命, 冲点 and their 有头/无头 choices.  ``gouji verify``
settles ``debts_next`` again from those events, so an event the hand never had (a 宣点 it never
made, a tribute card it never paid) could move the debts unless the events themselves are checked.

They are checked by running the real phases (:mod:`gouji_rules.phases`) on the cards the record
says were dealt, from the debts the hand before left, answering every decision a phase asks with
what the record says was chosen (the phase that declared the decision's kind reads it from the
events: ``Phase.answer``); the events the phases emit must then be the recorded ones, one for one,
and the cards, discards, setup and leader they leave must be the ones play started from.

The hand's own dealer is replayed from the record's seed as the match drew it: 开牌, the deal's card
order that decides 上班, and the card a 大王 call (``point_call``) draws unseen.  Who first drew for 开牌
is drawn once a match, so after a void deal or in a later hand any of the six is tried.  A deal voided
by 革命 or 冲点 is not in the record (only the deal that was played is), so the events of a void deal
are only checked to be one void deal each; a record without a seed has its dealer's events copied.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from ..errors import GoujiError
from ..game.actions import PASS, Action, Pass
from ..game.cards import NRANKS, format_hand, parse_hand
from ..game.events import Event
from ..game.rng import SplitMix64
from ..game.seats import sweep_of
from ..phases import Decision, HandPrep, SetupDraft, phases_of
from ..phases.base import answering, recorded_by
from ..play.engine import Hand, HandSetup, counts_of_cards, deal_cards
from ..play.match import Before, Match, after, dealer_rng, setup_of
from ..rules import Rules
from ..rules.settlement import Debt
from ..variant import Variant

T = TypeVar("T")

VOID_DEALS = (1, 2)
"""``redeal`` values of a deal voided before play (革命, 冲点); 3 is the sweep streak's redeal between hands"""


def tribute_places(places: Sequence[int], pre_play: Sequence[dict[str, Any]]) -> list[int]:
    """The places tribute and the next lead use (``HandSummary.tribute_places``): ``places`` as a
    ``choose_last`` event of ``pre_play`` swapped them (the last place named another seat of its side)."""
    out = [int(p) for p in places]
    for e in pre_play:
        if e.get("type") == "choose_last":
            out[e["seat"]], out[e["other"]] = out[e["other"]], out[e["seat"]]
    return out


def after_record(rules: Rules, record: dict[str, Any], before: Before) -> Before:
    """What the next hand of the match starts from, once ``record`` (started from ``before``) verified."""
    places = tribute_places(record["places"], record.get("pre_play", []))
    debts = [Debt(**d) for d in record.get("debts_next", [])]
    return after(rules, before, places, debts, sweep_of(places), rules.next_leader(places))


class _Replay(Match):
    """A match that plays no hand of its own: one recorded hand's phases are driven through it."""

    def __init__(
        self, rules: Rules, script: list[dict[str, Any]], done: list[dict[str, Any]], rng: SplitMix64 | None
    ) -> None:
        super().__init__(rules, seed=0, hands=0)
        self.script = script
        self.segment = script
        self.done = done  # events already settled (copied or flushed), ahead of self.events
        self.exact = rng is not None
        if rng is not None:
            self._rng = rng

    def next_event(self, ahead: int = 0) -> dict[str, Any]:
        """The recorded event the replay reaches next, or ``ahead`` after it ({} past the end)."""
        k = len(self.done) + len(self.events) + ahead
        return self.script[k] if k < len(self.script) else {}

    def random_card(self, s: int) -> int:
        """The card the 大王 call draws: the hand's own draw when its dealer is replayed, else the one the
        record says, when seat ``s`` held it."""
        if self.exact:
            return super().random_card(s)
        e = self.next_event()
        r = int(e.get("value", 0)) - 1 if e.get("type") == "point_call" else -1
        if 0 <= r < NRANKS and self.hands_now[s][r] > 0:
            return r
        return super().random_card(s)


def _answer(m: _Replay, d: Decision) -> Action:
    """What the record says seat ``d.seat`` chose: the phase that declared the decision's kind reads
    it (``Phase.answer``); a choice the record cannot explain is answered with the first one offered,
    so the events differ where the record does."""
    e, s = m.next_event(), d.seat
    options = list(d.legal)
    if recorded_by(e, "wrong_play", s) and m.rules.wrong_play_loses_turn:
        # 错牌不出 between hands (Match.forfeit): the event, then the default choice is taken
        m.event(Event("wrong_play", s))
        return PASS if PASS in options else options[0]
    phase = answering(d.kind)
    want = phase.answer(m, d) if phase is not None else None
    if want is not None and want in options:
        return want
    return next((a for a in options if not isinstance(a, Pass)), options[0])


def _drive(m: _Replay, gen: Generator[Decision, Action, T]) -> T:
    """Run one phase (or the match's after-play), answering from the record; what it returns
    (a phase: its verdict, False when the deal is void)."""
    try:
        d = next(gen)
        while True:
            d = gen.send(_answer(m, d))
    except StopIteration as stop:
        return cast(T, stop.value)


def _void_deals_problem(rules: Rules, prefix: list[dict[str, Any]], start: int) -> str | None:
    """Each void deal's events end in its one ``deal`` and its ``redeal`` (by 革命 or 冲点, where the variant
    has it), and hold nothing that outlives the deal."""
    voids: dict[Any, bool] = {1: rules.geming, 2: bool(rules.chongdian)}
    deals = 0
    for k, e in enumerate(prefix, start=start + 1):
        kind = e.get("type")
        if kind in ("sweep", "choose_last") or (kind == "redeal" and not voids.get(e.get("value"), False)):
            return f"pre_play event {k} is {_text(e)} inside a void deal"
        if kind == "deal":
            deals += 1
        elif kind == "redeal":
            if deals != 1:
                return f"pre_play event {k} ends a void deal that has {deals} deal events, not 1"
            deals = 0
    return None


def _text(e: dict[str, Any] | None) -> str:
    return "no event" if e is None else json.dumps(e, ensure_ascii=False)


@dataclass
class _Outcome:
    events: list[dict[str, Any]]
    hands: list[list[int]]
    discards: list[int]
    setup: HandSetup
    lead: int


def _replay_deal(
    rules: Rules,
    record: dict[str, Any],
    hand: Hand,
    before: Before,
    segment: list[dict[str, Any]],
    opener: int | None,
    first: int,
) -> _Outcome:
    """The events, cards and setup the phases make of the deal that was played.

    ``opener`` is the match's first 开牌人 before this deal (-1: none yet), and the hand's own dealer
    (开牌, the deal's order, 上班, the 大王 call's draw) is replayed from its seed; None when the record
    has no seed: the recorded ``kaipai`` and ``first_leader`` are copied, ``first`` is the drawer.
    """
    done: list[dict[str, Any]] = []
    seed = int(record["seed"]) if record.get("seed") is not None else 0
    rng = dealer_rng(seed) if (record.get("seed") is not None and opener is not None) else None
    m = _Replay(rules, segment, done, rng)
    m.events = []
    if before.leader is not None:
        first = before.leader
    elif rng is not None and opener is not None:
        m._opener = opener  # ignored where the variant has no 开牌 count: the first seat is then drawn
        first = m._kaipai(rng)
    elif segment and segment[0].get("type") == "kaipai":
        done.append(segment[0])  # no seed: drawn by a dealer that cannot be replayed
    prep = HandPrep(
        index=int(record.get("hand", 0)),
        seed=seed,
        first=first,
        carried_leader=before.leader is not None,
        debts=list(before.debts),
        setup=SetupDraft(),
        last_places=before.last_places,
        last_sweep=before.last_sweep,
    )
    for phase in phases_of(rules, "before_deal"):
        _drive(m, phase.run(m, prep))
    dealt = [list(parse_hand(h)) for h in record["dealt"]]
    if before.leader is not None:
        lead = before.leader
    elif rng is not None:
        # the deal's card order decides 上班; the record keeps the counts, the seed the order
        deals = ((d, deal_cards(rules, seed, d)[0]) for d in range(6))
        drawer, cards = next((d, cs) for d, cs in deals if [counts_of_cards(c) for c in cs] == dealt)
        lead = m._shangban(cards, drawer, rng)
    else:
        lead = int(record["leader"])
        done += [e.to_json() for e in m.events]
        m.events = []
        if m.next_event().get("type") == "first_leader":
            done.append(m.next_event())
    m.hands_now = [list(h) for h in dealt]
    m.kept = [[0] * NRANKS for _ in range(6)]
    m.discards = [0] * NRANKS
    _drive(m, m.before_play(prep, lead))
    hands = [list(h) for h in m.hands_now]
    discards = list(m.discards)
    setup = setup_of(rules, prep)
    play_lead = prep.lead
    _drive(m, m.after_play(hand, prep))
    return _Outcome(done + [e.to_json() for e in m.events], hands, discards, setup, play_lead)


def _agreeing(got: list[dict[str, Any]], recorded: list[dict[str, Any]]) -> int:
    """How many events, from the first, the replay and the record agree on."""
    return next(
        (k for k, (a, b) in enumerate(zip(got, recorded, strict=False)) if a != b), min(len(got), len(recorded))
    )


def _first_difference(got: list[dict[str, Any]], recorded: list[dict[str, Any]], offset: int) -> str | None:
    k = _agreeing(got, recorded)
    if k == len(got) == len(recorded):
        return None
    a = got[k] if k < len(got) else None
    b = recorded[k] if k < len(recorded) else None
    return f"pre_play event {offset + k + 1} is {_text(a)}, the record has {_text(b)}"


def pre_play_problem(variant: Variant, record: dict[str, Any], hand: Hand, before: Before) -> str | None:
    """None when the phases, run on the record's deal from ``before``, make its ``pre_play`` and the
    cards, discards and setup its play starts from; otherwise the first difference, on one line.

    ``hand`` is the record's play, replayed (its places decide 商定大落 and 串三户 after play).
    """
    rules = variant.rules
    recorded = list(record.get("pre_play", []))
    carry = [{"type": "redeal", "value": 3}] if before.redeal else []
    if recorded[: len(carry)] != carry:
        return _first_difference(carry, recorded[: len(carry)], 0)
    start = len(carry)
    for k in range(len(recorded) - 1, len(carry) - 1, -1):
        e = recorded[k]
        if e.get("type") == "redeal" and e.get("value") in VOID_DEALS:
            start = k + 1
            break
    problem = _void_deals_problem(rules, recorded[len(carry) : start], len(carry))
    if problem:
        return problem
    segment = recorded[start:]
    lead = int(record["leader"])
    candidates: list[tuple[int | None, int]]
    if record.get("seed") is None:
        kaipai = segment[0].get("seat") if segment and segment[0].get("type") == "kaipai" else None
        firsts = [f for f in (kaipai, lead, *range(6)) if isinstance(f, int) and 0 <= f < 6]
        candidates = [(None, f) for f in dict.fromkeys(firsts)]
    elif before.leader is None and rules.kaipai_count:
        # the first 开牌人 is drawn once a match, on its first deal: after it, a void deal or an earlier
        # hand (重新开牌 after 串三户) has drawn him, and the record does not say who he was
        known = before.fresh and start == len(carry)
        candidates = [(-1, lead)] if known else [(o, lead) for o in range(6)]
    else:
        candidates = [(-1, lead)]
    try:
        tries: list[_Outcome] = []
        for opener, first in candidates:
            o = _replay_deal(rules, record, hand, before, segment, opener, first)
            if o.events == segment:
                tries = [o]
                break
            tries.append(o)
    except (GoujiError, KeyError, TypeError, ValueError, IndexError, StopIteration) as e:
        return f"cannot replay the events before play: {e}"
    out = max(tries, key=lambda o: _agreeing(o.events, segment))  # the first of those that agree longest
    problem = _first_difference(out.events, segment, start)
    if problem:
        return problem
    deal = [list(parse_hand(h)) for h in record["deal"]]
    for s in range(6):
        if out.hands[s] != deal[s]:
            return (
                f"the events before play leave seat {s} {format_hand(out.hands[s])}, "
                f"the record's deal has {format_hand(deal[s])}"
            )
    if out.discards != list(parse_hand(str(record.get("discards", "")))):
        return f"the events before play discard {format_hand(out.discards)}, the record has {record.get('discards')!r}"
    if out.setup != hand.setup:
        return f"the events before play leave the setup {out.setup}, the record has {hand.setup}"
    if out.lead != lead:
        return f"the events before play leave seat {out.lead} to lead, the record has seat {lead}"
    return None


__all__ = ["Before", "after_record", "pre_play_problem", "tribute_places"]
