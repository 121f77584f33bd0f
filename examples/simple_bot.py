#!/usr/bin/env python3
"""The ``simple`` agent as a protocol-3 bot: lead the lowest set, never play over a partner.

It rebuilds what the seat may see (``gouji_rules.play.observe.Observation``) and the legal actions
(``gouji_rules.game.legal.Legal``, from ``legal_compact``) from each ``act`` request, asks
:class:`gouji_rules.play.agents.SimpleAgent`, and answers with the action's text.  So it plays as
``--bots me=simple`` does, except that it sees no events (the agent does not read them).
The protocol: docs/bot-protocol.md.  Needs the package installed (no numpy).

    gouji event new cup.sqlite --name cup --bots "me=cmd:python3 examples/simple_bot.py,b=greedy,c=simple,d=greedy,e=simple,f=greedy"
    gouji event run cup.sqlite
"""

from __future__ import annotations

import json
import sys
from typing import Any

from gouji_rules import catalog
from gouji_rules.errors import GoujiError
from gouji_rules.game.actions import parse_action
from gouji_rules.game.cards import SYMBOLS, parse_hand, parse_set
from gouji_rules.game.legal import Box, Legal
from gouji_rules.play.agents import SimpleAgent
from gouji_rules.play.observe import Observation
from gouji_rules.rules import Rules


def legal_from(compact: dict[str, Any]) -> Legal:
    """The legal actions, rebuilt from ``legal_compact`` in the runner's order."""
    boxes: list[Box] = []
    for b in compact["boxes"]:
        boxes.append((SYMBOLS.index(b["rank"]), *b["count"], b["twos"][1], *b["sj"], *b["bj"], *b["top"]))
    sets = [parse_set(t) for t in compact["sets"]]
    extras = tuple(parse_action(t) for t in compact["extras"])
    return Legal(boxes=boxes, sets=sets, burn=compact["kind"] == "burn", extras=extras)


def observation(req: dict[str, Any], rules: Rules) -> Observation:
    """What the seat may see, from an ``act`` request (events left out: the agent does not read them)."""
    table = req.get("table")
    return Observation(
        seat=int(req["seat"]),
        mode=str(req["mode"]),
        hand=parse_hand(req["hand"]),
        table=parse_set(table) if table else None,
        table_owner=int(req["table_owner"]),
        cards_left=tuple(req["cards_left"]),
        active=tuple(req["active"]),
        finish=tuple(req["finish"]),
        point=tuple(req["point"]),
        no_head=tuple(req["no_head"]),
        burning=int(req["burning"]),
        free_for_all=bool(req["free_for_all"]),
        events=(),
        rules=rules,
    )


def rules_for(variant: str) -> Rules:
    """The variant's rules; a variant this install does not know is played as dagang."""
    try:
        return catalog.resolve(variant).rules
    except (GoujiError, OSError):
        return catalog.dagang().rules


def main() -> None:
    agent = SimpleAgent()
    rules = rules_for("dagang")
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        kind = req.get("type")
        if kind == "hello":
            offered = req.get("protocols")
            version = 3 if isinstance(offered, list) and 3 in offered else 2
            print(json.dumps({"type": "hello", "id": req["id"], "protocol": version}), flush=True)
        elif kind == "start_hand":
            rules = rules_for(str(req.get("variant", "dagang")))
            agent.start_hand(int(req["seed"]), int(req["seat"]))  # a decimal string in protocol 3
        elif kind == "act":
            action = agent.act(observation(req, rules), legal_from(req["legal_compact"]))
            print(json.dumps({"id": req["id"], "action": str(action)}), flush=True)


if __name__ == "__main__":
    main()
