"""A room: one match under any variant, six seats of people and agents, refereed by the engine.

The room holds the game.  A seat is told only what :meth:`Match.observation` gives that seat (the
engine's own account of what a seat may see: its hand, the table, the events the texts make public
or show it), in the same JSON a bot receives (``docs/bot-protocol.md``, ``type: act``), and acts only
for itself, with the secret of its own link.  Every action goes through the engine's ``verify``: a
refused frame is one :class:`RoomRefused` with a Chinese reason, and the game is unchanged.

``seq`` counts the decisions made in the room.  A person's frame names the ``seq`` of the view it
answers, so a frame replayed from an old view, or sent twice from two tabs, is refused as stale
rather than applied to a later decision.

托管: a person silent for ``takeover`` seconds on their own decision is played by the seat's agent
until they act again; the view says so, and the moves so made are listed in :attr:`Room.takeovers`
(the records carry them as ``takeover``).  Time comes from ``clock`` so a test or a server chooses it.

Transport-free: :mod:`gouji_rules.web.room_app` serves a room over WebSockets; a test or a bot
drives it directly.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from ..errors import GoujiError
from ..game.actions import Action
from ..game.legal import Legal
from ..play.agents import Agent, make_agent
from ..play.match import Match
from ..play.observe import Observation, as_seen
from ..tournament.bots import BotFault, observation_json, reply_action
from ..variant import Variant

SEATS = 6
SPECTATOR = -1
"""Not a seat: whoever watches the room, witness of no private event."""
PERSON = "person"
"""A seat played by a person through its link (as opposed to an agent's name)."""


PLAY_WORDS = {"lead": "出牌", "follow": "跟牌", "burn": "烧牌", "kou": "扣牌", "consent": "同意接风吗", "over": "结束"}
"""The decisions of play in the words a player reads (the phases' kinds carry their own, ``DecisionKind.zh``)."""


def mode_words(mode: str) -> str:
    """The decision asked, in Chinese: a play decision's word, else the phase's kind's own (预点, 进贡 …)."""
    if mode in PLAY_WORDS:
        return PLAY_WORDS[mode]
    from ..parts.catalogue import decision_kinds

    return next((k.zh for k in decision_kinds() if k.name == mode), mode)


WORDS = {"with_head": "有头", "no_head": "无头", "waive": "免贡", "agree": "同意", "refuse": "不同意"}
"""Words of the phases that are no decision kind's name, as a player says them."""


def action_label(text: str, mode: str) -> str:
    """A legal action's text as a player reads it: 出 KKK2+SJ, 烧 AA+BJ, 过牌, 同意; a phase's word by its
    kind's Chinese name where it has one (``yudian`` → 预点), else as written."""
    from ..game.actions import Choose, parse_action
    from ..review.words import action_words

    try:
        action = parse_action(text)
    except GoujiError:
        return text
    if text in WORDS:
        return WORDS[text]
    if text.startswith("last") and text[4:].isdigit():  # name a seat the last place (商定大落)
        return f"{int(text[4:]) + 1} 号座当大落"
    if isinstance(action, Choose):
        return mode_words(action.what)
    words = action_words(action, "zh", mode)
    if words != str(action):
        return words
    word, _, cards = text.partition(" ")  # a word with its cards: ``give 2`` is 进贡 2
    return f"{mode_words(word)} {cards}".strip()


class RoomRefused(GoujiError):
    """A frame the room will not apply: who sent it, or what it asks, is not allowed now.  ``zh`` is
    the reason as the seat reads it; ``code`` names it for a program (``secret``, ``turn``, ``stale``,
    ``illegal``, ``malformed``, ``over``)."""

    def __init__(self, code: str, zh: str, en: str) -> None:
        super().__init__(en)
        self.code = code
        self.zh = zh


@dataclass
class Seat:
    """One of the six seats: who plays it, its secret, and when its person was last asked."""

    who: str
    """``person``, or an agent's name (``greedy``, ``learned`` …)"""
    secret: str = field(default_factory=lambda: secrets.token_urlsafe(16), repr=False)
    agent: Agent | None = None
    """the agent that plays it (for a person's seat: the one that takes over when they go silent)"""
    asked_at: float = 0.0
    taken_over: bool = False


class Room:
    """One match of ``hands`` hands under ``variant``; ``seats`` names who plays each seat (``person`` or
    an agent's name).  ``takeover``: seconds a person may stay silent before the agent plays for them
    (None: never).  ``helper``: the agent that takes over a person's seat."""

    def __init__(
        self,
        variant: Variant,
        seats: Sequence[str],
        *,
        hands: int | None = None,
        seed: int = 0,
        takeover: float | None = 30.0,
        helper: str = "greedy",
        show_hands_after: bool = False,
        advice: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if len(seats) != SEATS:
            raise GoujiError(f"a room has six seats, not {len(seats)}")
        self.variant = variant
        self.code = secrets.token_urlsafe(6)
        self.clock = clock
        self.takeover = takeover
        self.show_hands_after = show_hands_after
        self.advice = advice
        """whether a seat may ask the learned agent's advice (AI建议): a friendly room's, never an event's"""
        self.seats = [Seat(who) for who in seats]
        for seat in self.seats:
            seat.agent = make_agent(helper if seat.who == PERSON else seat.who)
        self.match = Match(variant, seed, hands)
        self.seq = 0
        self.takeovers: list[tuple[int, int]] = []
        """(seq, seat) of every decision the agent made for a silent person"""
        self._takeover_hand: dict[int, int] = {}  # seq of a 托管 decision -> the hand it fell in (1, 2 …)
        self._started = -1
        self.replaying = False
        """True while :meth:`replay` makes a journal's decisions again"""
        self._tell_agents()
        self._ask()

    # -- what a seat sees ----------------------------------------------------------------------

    def seat_of(self, secret: str) -> int:
        """The seat whose link carries ``secret``; RoomRefused for any other string."""
        for i, seat in enumerate(self.seats):
            if isinstance(secret, str) and secrets.compare_digest(seat.secret, secret):
                return i
        raise RoomRefused("secret", "这个链接不是本房间的座位链接。", "not a seat's link of this room")

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` is shown now: its own observation (the bot protocol's ``act`` request, its legal
        actions only when it decides), the match's scores, whose turn, and whether the agent plays for it."""
        m = self.match
        turn = m.turn
        mine = turn == seat and not m.is_over
        legal = m.legal_actions() if mine else None
        obs = m.observation(seat)
        body = observation_json(obs, legal if legal is not None else type(m.legal_actions())())
        listed = body.get("legal") or []
        return self._framed("view", body, str(obs.mode)) | {
            "seat": seat,
            "turn": turn,
            "yours": mine and not self.seats[seat].taken_over,
            "labels": [action_label(a, str(obs.mode)) for a in listed],
            "advice": self.advice,
        }

    def spectator_view(self) -> dict[str, Any]:
        """What a spectator is shown now: the table as every seat sees it, and no seat's hand.

        Built from seat 0's observation with everything only seat 0 may see taken out: its hand, its
        legal actions, its own card count unless the table knows it (as seat 1 knows it: 报牌 or 亮牌), and
        the events only their witnesses see (a 点 call's card, an unshown tribute), redacted as for a seat
        that did not witness them.  The dealt hands come after a hand only in a friendly room."""
        m = self.match
        obs = m.observation(0)
        body = observation_json(obs, type(m.legal_actions())())
        body["type"] = "watch"
        body["seat"] = None
        body["hand"] = ""
        body["cards_left"][0] = m.observation(1).cards_left[0]
        body["events"] = [as_seen(m.rules, SPECTATOR, e).to_json() for e in obs.events]
        return self._framed("watch", body, str(obs.mode)) | {"turn": None if m.is_over else m.turn}

    def _framed(self, kind: str, body: dict[str, Any], mode: str) -> dict[str, Any]:
        """What every frame of the table carries, a seat's or a spectator's: the room, the match's progress,
        who plays each seat, and the observation ``body``."""
        m = self.match
        return {
            "type": kind,
            "room": self.code,
            "seq": self.seq,
            "over": m.is_over,
            "hand_number": self.hand_number,
            "hands": m.n_hands,
            "scores": list(m.scores),
            "who": [s.who for s in self.seats],
            "taken_over": [s.taken_over for s in self.seats],
            "observation": body,
            "mode_zh": mode_words(mode),
            "last_hands": self._shown_hands(),
        }

    @property
    def hand_number(self) -> int:
        """The hand being played (1, 2 …; the last once the match is over), counted from before its deal."""
        return min(len(self.match.summaries) + 1, self.match.n_hands)

    def _shown_hands(self) -> list[str] | None:
        """Every seat's cards as dealt in the last finished hand, in a friendly room only."""
        if not self.show_hands_after or not self.match.summaries:
            return None
        record = self.match.summaries[-1].record
        dealt = record.get("dealt") or record.get("deal")
        return [str(h) for h in dealt] if isinstance(dealt, list) else None

    # -- acting ----------------------------------------------------------------------------------

    def act(self, secret: str, frame: Any) -> None:
        """Apply a person's frame ``{"seq": N, "action": "..."}`` (or ``"index": K``) for the seat whose
        secret it carries.  RoomRefused, the game unchanged, for a wrong secret, another seat's turn, a
        stale ``seq``, a malformed frame or an action the rules do not allow now."""
        seat = self.seat_of(secret)
        if not isinstance(frame, dict):
            raise RoomRefused("malformed", "看不懂这条消息。", "a frame is a JSON object")
        if self.match.is_over:
            raise RoomRefused("over", "这一场已经打完了。", "the match is over")
        seq = frame.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq != self.seq:
            raise RoomRefused(
                "stale", "这一步已经过去了，请看最新的牌面。", f"seq {seq!r} is not the current {self.seq}"
            )
        if self.match.turn != seat:
            raise RoomRefused("turn", "还没轮到你。", f"seat {seat} acted on seat {self.match.turn}'s turn")
        legal = self.match.legal_actions()
        try:
            action = reply_action(frame, legal, seq, str(self.match.observation(seat).mode))
        except BotFault as e:
            raise RoomRefused("illegal", "这一步不合规则，请换一手。", str(e)) from None
        self._apply(action)
        s = self.seats[seat]
        s.taken_over = False

    def _apply(self, action: Action) -> None:
        if self.replaying:
            self._make(action)
            return
        took = bool(self.takeovers) and self.takeovers[-1][0] == self.seq
        with self.journal(self.seq, action, took):
            self._make(action)

    def _make(self, action: Action) -> None:
        self.match.apply(action)
        self.seq += 1
        self._tell_agents()
        self._ask()

    def journal(self, seq: int, action: Action, took: bool) -> AbstractContextManager[None]:
        """Around each decision made (not replayed): a room kept in a file writes it there first, so a
        decision the file refuses is never made in memory either (``took``: 托管 made it).  Nothing here."""
        return contextlib.nullcontext()

    def _tell_agents(self) -> None:
        m = self.match
        if m.hand is not None and m.hand_number != self._started:
            self._started = m.hand_number
            for i, seat in enumerate(self.seats):
                assert seat.agent is not None
                seat.agent.start_hand(m.hand.seed or 0, i)

    def _ask(self) -> None:
        if not self.match.is_over:
            self.seats[self.match.turn].asked_at = self.clock()

    def agent_due(self) -> bool:
        """Must an agent decide now: an agent's seat, or a person silent past ``takeover`` seconds?"""
        m = self.match
        if m.is_over:
            return False
        seat = self.seats[m.turn]
        if seat.who != PERSON or seat.taken_over:
            return True
        return self.takeover is not None and self.clock() - seat.asked_at >= self.takeover

    def agent_question(self) -> tuple[int, Agent, Observation, Legal] | None:
        """The decision an agent is due to make now (:meth:`agent_due`): the room's ``seq``, the agent, and
        what it is shown; None when no agent is due.  Asking and answering (:meth:`agent_answer`) are apart
        so a server lets the agent think off its event loop: a bot program may take seconds."""
        if not self.agent_due():
            return None
        m = self.match
        agent = self.seats[m.turn].agent
        assert agent is not None
        return self.seq, agent, m.observation(m.turn), m.legal_actions()

    def agent_answer(self, seq: int, action: Action) -> bool:
        """Apply an agent's answer to the question asked at ``seq``; False, the room unchanged, when the
        room has moved on since (the person came back and played) or no agent is due any more."""
        if seq != self.seq or not self.agent_due():
            return False
        m = self.match
        turn = m.turn
        seat = self.seats[turn]
        if seat.who == PERSON:
            seat.taken_over = True
            self.takeovers.append((self.seq, turn))
            self._takeover_hand[self.seq] = len(m.summaries) + 1  # hand_number starts at play, after 进贡
        self._apply(action)
        return True

    def step_agent(self) -> bool:
        """Let the agent make the decision now asked, if :meth:`agent_due`; True when it did."""
        question = self.agent_question()
        if question is None:
            return False
        seq, agent, obs, legal = question
        return self.agent_answer(seq, agent.act(obs, legal))

    def replay(self, moves: Iterable[tuple[int, str, int]], damaged: Callable[[str], GoujiError]) -> int:
        """Make a journal's decisions again (``(seq, action text, whether 托管 made it)``, in order), each
        checked legal by the engine, with the 托管 marks they had; a decision out of place or not legal
        raises ``damaged(why)``.  While it runs, :attr:`replaying` is True, so a room that journals its
        decisions (a store, an event file) does not write them again.  How many there were."""
        n = 0
        self.replaying = True
        try:
            for seq, text, took in moves:
                m = self.match
                if seq != self.seq or m.is_over:
                    raise damaged(f"the journal is damaged at decision {seq}")
                turn = m.turn
                try:
                    action = reply_action({"action": text}, m.legal_actions(), seq, str(m.observation(turn).mode))
                except BotFault as e:
                    raise damaged(f"decision {seq} does not replay ({e}); were the rules changed?") from None
                seat = self.seats[turn]
                if took:
                    seat.taken_over = True
                    self.takeovers.append((self.seq, turn))
                    self._takeover_hand[self.seq] = len(m.summaries) + 1
                elif seat.who == PERSON:
                    seat.taken_over = False
                self._apply(action)
                n += 1
        finally:
            self.replaying = False
        self._ask()
        return n

    def run_agents(self, limit: int = 100_000) -> int:
        """Let agents decide until a person must (or the match ends); how many decisions they made."""
        n = 0
        while n < limit and self.step_agent():
            n += 1
        return n

    def records(self) -> list[dict[str, Any]]:
        """The finished hands' records (``docs/records.md``), each with the 托管 decisions made in that
        hand (and no other) as ``takeover``: the room's ``seq`` of each and its seat."""
        out = []
        for number, summary in enumerate(self.match.summaries, start=1):
            rec = dict(summary.record)
            rec["takeover"] = [{"seq": q, "seat": s} for q, s in self.takeovers if self._takeover_hand[q] == number]
            out.append(rec)
        return out
