"""Helpers shared by the rule, perft and property tests."""

from __future__ import annotations

from collections.abc import Sequence
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
