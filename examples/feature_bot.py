#!/usr/bin/env python3
"""An example 够级 bot that scores actions with the feature encoding of ``gouji_rules.env``.

It rebuilds the legal actions from the compact form of each ``act`` request
(``legal_compact``: lead boxes as ranges, following sets and other actions as
text; docs/bot-protocol.md), asks :class:`gouji_rules.env.ActionEncoding` for
one feature row per legal action (cards spent by rank, play / burn / word flags,
a one-hot over the word actions), and answers ``{"id": ID, "index": K}`` with
the action whose linear score ``WEIGHTS · row`` is highest.  The weights below
are a hand-written start: shed low cards, keep 2s and jokers, prefer playing to
passing on a lead; a learner would replace them.

Needs the ``rl`` extra (numpy).  Use it in an event:

    gouji event new cup.sqlite --name cup --bots "me=cmd:python3 examples/feature_bot.py,b=greedy,c=random,d=greedy,e=random,f=greedy"
    gouji event run cup.sqlite
"""

from __future__ import annotations

import json
import sys
from typing import Any

import numpy as np

from gouji_rules import catalog
from gouji_rules.catalog import dagang
from gouji_rules.env import ActionEncoding
from gouji_rules.env.encoding import FEATURES, KIND_BURN, KIND_PLAY, KIND_WORD
from gouji_rules.errors import GoujiError
from gouji_rules.game.actions import parse_action
from gouji_rules.game.cards import NRANKS, SYMBOLS, parse_set
from gouji_rules.game.legal import Box, Legal


def weights() -> np.ndarray[Any, np.dtype[np.float32]]:
    """Score per feature: each card of a low rank spent is worth more than a high one; words cost."""
    w = np.zeros(FEATURES, dtype=np.float32)
    for r in range(NRANKS):
        w[r] = 1.0 - r / NRANKS  # 3s are cheapest to spend, jokers dearest
    w[KIND_PLAY] = 0.5
    w[KIND_BURN] = -0.5  # burning gives cards away: only when nothing else is offered
    w[KIND_WORD] = -0.2  # pass / yield / kou …: when no set scores better
    return w


def legal_from(compact: dict[str, Any]) -> Legal:
    """The lazy legal sequence, rebuilt from ``legal_compact`` in the runner's order."""
    boxes: list[Box] = []
    for b in compact["boxes"]:
        rank = SYMBOLS.index(b["rank"])
        boxes.append((rank, *b["count"], b["twos"][1], *b["sj"], *b["bj"], *b["top"]))
    sets = [parse_set(t) for t in compact["sets"]]
    extras = tuple(parse_action(t) for t in compact["extras"])
    return Legal(boxes=boxes, sets=sets, burn=compact["kind"] == "burn", extras=extras)


def encoding_for(variant: str) -> ActionEncoding:
    """The variant's action encoding (the features do not depend on the deck; the indices do)."""
    try:
        return ActionEncoding(catalog.resolve(variant).rules)
    except (GoujiError, OSError):
        return ActionEncoding(dagang().rules)


def main() -> None:
    w = weights()
    enc = encoding_for("dagang")
    for line in sys.stdin:
        req = json.loads(line)
        kind = req.get("type")
        if kind == "hello":  # protocol 3 where offered: 64-bit values as strings (docs/bot-protocol.md, Versions)
            offered = req.get("protocols")
            version = 3 if isinstance(offered, list) and 3 in offered else 2
            print(json.dumps({"type": "hello", "id": req["id"], "protocol": version}), flush=True)
        elif kind == "start_hand":
            enc = encoding_for(str(req.get("variant", "dagang")))
        elif kind == "act":
            legal = legal_from(req["legal_compact"])
            scores = enc.action_features(legal) @ w
            print(json.dumps({"id": req["id"], "index": int(np.argmax(scores))}), flush=True)


if __name__ == "__main__":
    main()
