"""Helpers shared by the rule, perft and property tests."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from gouji_rules.catalog import dagang, dianshaomenla
from gouji_rules.errors import IllegalAction
from gouji_rules.game.actions import Action, parse_action
from gouji_rules.game.events import Event
from gouji_rules.play.engine import Hand
from gouji_rules.variant import Variant

S0 = dianshaomenla()
S4 = dagang()

VARIANTS = {"dagang": S4, "dianshaomenla": S0}


def variant_named(name: str, beat: str | None = None) -> Variant:
    v = VARIANTS[name]
    return v.replace(sets={"beat": beat}) if beat else v


def pos(variant: Variant, hands: Sequence[str], leader: int = 0, **kw: Any) -> Hand:
    """``Hand.position`` with the hands given in seat order."""
    assert len(hands) == 6
    return Hand.position(variant, list(hands), leader, **kw)


def legal(h: Hand) -> set[str]:
    """The legal actions of the seat to act, as text."""
    return {str(a) for a in h.legal_actions()}


def act(h: Hand, *texts: str) -> None:
    """Apply actions given in text notation, each by the seat to act."""
    for t in texts:
        h.apply(parse_action(t))


def snapshot(h: Hand) -> tuple[Any, ...]:
    return (h.record(), h.turn, h.mode, h.table, h.owner, list(h.point), list(h.passed), h.burning, list(h.queue))


def illegal(h: Hand, action: str | Action, rule: str | None = None, seat: int | None = None) -> IllegalAction:
    """Assert that ``action`` raises IllegalAction (naming ``rule``) and leaves the hand unchanged."""
    a = parse_action(action) if isinstance(action, str) else action
    before = snapshot(h)
    with pytest.raises(IllegalAction) as info:
        h.apply(a, seat)
    if rule is not None:
        assert info.value.rule == rule, str(info.value)
    assert snapshot(h) == before
    return info.value


def events(h: Hand, *types: str) -> list[Event]:
    return [e for e in h.events if e.type in types]


def types(h: Hand) -> list[str]:
    """Event types after the deal."""
    return [e.type for e in h.events[1:]]


def pass_until_lead(h: Hand) -> None:
    """Everyone asked passes (or concedes) until a seat leads."""
    while h.mode != 0 and not h.is_over:
        acts = h.legal_actions()
        kou = [a for a in acts if str(a) == "kou"]
        act(h, "kou" if kou else "pass")


def swap_hidden(hand: Hand, me: int) -> Hand:
    """The same position as ``me`` sees it with one card of two other seats' hands exchanged (their counts kept)."""
    other = hand.copy()
    seats = [s for s in range(6) if s != me and sum(other.hands[s]) > 0]
    a, b = seats[0], seats[1]
    ra = next(r for r in range(16) if other.hands[a][r] and other.hands[a][r] > other.hands[b][r])
    rb = next(r for r in range(16) if other.hands[b][r] and r != ra)
    other.hands[a][ra] -= 1
    other.hands[b][ra] += 1
    other.hands[b][rb] -= 1
    other.hands[a][rb] += 1
    other._follow.clear()
    other._legal = None
    return other


def play_on(game: Any, agents: Sequence[Any], seed: int, decisions: int | None = None) -> None:
    """Start ``agents`` (in seat order) with ``seed`` and let them play ``game``, a Hand or a Match, for
    ``decisions`` decisions, or to its end."""
    for s, a in enumerate(agents):
        a.start_hand(seed, s)
    if decisions is None:
        while not game.is_over:
            game.apply(agents[game.turn].act(game.observation(), game.legal_actions()))
        return
    for _ in range(decisions):
        game.apply(agents[game.turn].act(game.observation(), game.legal_actions()))


SESSION7 = {
    "dagang": Path(__file__).parent / "learn" / "data" / "dagang-session7.npz",
    "dianshaomenla": Path(__file__).parent / "learn" / "data" / "dianshaomenla-session7.npz",
}
"""The weights shipped from session 7 (format 2, play decisions only, no rule block), for dagang until
session 14 and for dianshaomenla until session 15: the tests that pin what those weights did (their
conversion, their decisions) keep them here."""


@pytest.fixture
def session7_weights(monkeypatch: pytest.MonkeyPatch) -> None:
    """``LearnedAgent()`` and ``shipped_fit`` read the session-7 weights while the test runs (each
    variant the file of the one it is nearest, as a club played before one file played them all), and the
    strength table gives the figure measured for them."""
    from gouji_rules.game import strength
    from gouji_rules.learn import agent

    shipped = agent.shipped_path
    monkeypatch.setattr(agent, "shipped_path", lambda name=agent.WEIGHTS: SESSION7.get(name) or shipped(name))
    monkeypatch.setattr(agent, "weights_of", lambda variant: agent.nearest(variant, list(SESSION7)))
    monkeypatch.setattr(agent, "_CACHE", {})
    then = {
        v: strength.Strength("learned", v, *figures, 200, strength._LEARNED.format(v=v, how="ismcts distilled"))
        for v, figures in (("dagang", (2.10, 1.67, 2.54)), ("dianshaomenla", (1.15, 0.85, 1.44)))
    }
    table = tuple(then[s.variant] if s.agent == "learned" and s.variant in then else s for s in strength.STRENGTHS)
    monkeypatch.setattr(strength, "STRENGTHS", table)
