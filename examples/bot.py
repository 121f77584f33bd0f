#!/usr/bin/env python3
"""An example 够级 bot for `gouji event run`: plain Python, standard library only.

Copy it and make it smarter.  The protocol (docs/bot-protocol.md): read one JSON
object per line on stdin.  Answer "hello" at once with {"type": "hello", "id": ID,
"protocol": 3}: in protocol 3 the hand's seed and every other integer that can pass
2^53 - 1 come as decimal strings (a runner whose hello does not list 3 in "protocols"
speaks 2).  For each request with "type": "act", print one line {"id": ID, "action":
"..."} with the request's id and one of the strings in "legal", and flush.  ("legal"
lists every legal action when there are at most 256, else 256 of them; "legal_compact"
holds them all, and a reply {"id": ID, "index": K} picks by number: see
examples/feature_bot.py.)  Other messages ("start_hand") need no reply.  Exit when
stdin ends.

Use it in an event:

    gouji event new cup.sqlite --name cup --bots "me=cmd:python3 examples/bot.py,b=greedy,c=random,d=greedy,e=random,f=greedy"
    gouji event run cup.sqlite

Its play: pass on a partner's set, otherwise play the smallest legal set (the
fewest cards, the lowest rank, no jokers or 2s attached if it can help it), and
never break up the 3s it must keep for last.  Decisions before play take the
first choice offered, except that it never declares (宣点/明点/预点 stake cards).
"""

from __future__ import annotations

import json
import sys

ORDER = "3456789TJQKA2"  # plain ranks, low to high; jokers (SJ, BJ) come after


def rank_value(text: str) -> int:
    """A set's strength for choosing the cheapest: its core rank, then what is attached."""
    core = text.split("+")[0]
    if core.startswith(("SJ", "BJ")):
        return 100
    if not core:
        return 99
    base = ORDER.index(core[0]) if core[0] in ORDER else 50
    attached = len(text) - len(core)
    return base * 10 + attached


def choose(req: dict[str, object]) -> str:
    legal = [str(a) for a in req["legal"]]  # type: ignore[attr-defined]
    mode = str(req.get("mode"))
    seat = int(req.get("seat", 0))  # type: ignore[call-overload]
    owner = int(req.get("table_owner", -1))  # type: ignore[call-overload]
    words = {"pass", "yield", "kou", "jiefeng", "agree", "refuse"}
    if mode in ("yudian", "xuandian", "mingdian") and "pass" in legal:
        return "pass"  # declaring stakes cards; leave it to smarter bots
    if mode == "follow" and owner >= 0 and (owner - seat) % 2 == 0 and "pass" in legal:
        return "pass"  # a partner's set
    if mode == "burn" and "pass" in legal:
        return "pass"
    sets = [a for a in legal if a not in words and not a.startswith(("give", "burn"))]
    if sets and mode in ("lead", "follow"):
        return min(sets, key=lambda a: (rank_value(a), a))
    return legal[0]


def version(hello: dict[str, object]) -> int:
    """Protocol 3 where the runner offers it; 2 with a runner from before versions were agreed."""
    offered = hello.get("protocols")
    return 3 if isinstance(offered, list) and 3 in offered else 2


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        if req.get("type") == "hello":
            print(json.dumps({"type": "hello", "id": req["id"], "protocol": version(req)}), flush=True)
        elif req.get("type") == "act":
            print(json.dumps({"id": req["id"], "action": choose(req)}), flush=True)


if __name__ == "__main__":
    main()
