"""Mixed tables for ``gouji compare --agents A,B``: which rules reward the better player more.

Side A sits in team 0's seats (0, 2, 4) and side B in team 1's, in both seatings of a
deal; the second seating moves every hand one seat on, so each side plays both halves
of every deal and the luck of the cards cancels.  The ``skill_gap`` metric is side A's
score minus side B's per hand; its paired difference between variants says under which
rules the stronger side gains more.  With one agent for every seat it is the plain
duplicate score difference (0 on every deal for a seat-blind agent such as greedy).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager

from ..agents import AGENTS, Agent, make_agent
from ..errors import GoujiError


def parse_agents(spec: str) -> tuple[str, str]:
    """``"greedy"`` → (greedy, greedy); ``"ismcts,greedy"`` → side A, side B.

    A side is a shipped agent or an external bot, ``cmd:COMMAND`` (docs/bot-protocol.md),
    either optionally named ``NAME=…``.  A comma inside a bot's command stays in it when what
    follows the comma does not begin a side.

    >>> parse_agents("ismcts,greedy")
    ('ismcts', 'greedy')
    >>> parse_agents("mine=cmd:python3 examples/bot.py,greedy")
    ('mine=cmd:python3 examples/bot.py', 'greedy')
    """
    parts: list[str] = []
    for token in spec.split(","):
        if parts and _body(parts[-1]).startswith("cmd:") and not _starts_side(token):
            parts[-1] += "," + token  # a comma in the bot's command
        else:
            parts.append(token.strip())
    if len(parts) == 1:
        parts *= 2
    if len(parts) != 2:
        raise GoujiError(f"--agents takes one agent or two (side A,side B), got {spec!r}")
    for p in parts:
        _check_side(p)
    return parts[0], parts[1]


def _named(side: str) -> bool:
    """Whether a side begins ``NAME=`` (a name of letters, digits, ``_ - .``)."""
    head, eq, _ = side.partition("=")
    return bool(eq) and bool(head) and all(c.isalnum() or c in "_-." for c in head)


def _body(side: str) -> str:
    return side.partition("=")[2] if _named(side) else side


def _starts_side(token: str) -> bool:
    body = _body(token.strip())
    return body in AGENTS or body.startswith("cmd:")


def _check_side(side: str) -> None:
    body = _body(side)
    if body.startswith("cmd:"):
        try:
            argv = shlex.split(body[4:])
        except ValueError as e:
            raise GoujiError(f"cannot split the command of {side!r}: {e}") from None
        if not argv:
            raise GoujiError(f"{side!r} names no command (cmd:COMMAND, e.g. cmd:python3 examples/bot.py)")
        return
    if body not in AGENTS:
        raise GoujiError(f"unknown agents {body!r}; known: {', '.join(sorted(AGENTS))}, or cmd:COMMAND for a bot")


def table_agents(spec: str) -> list[Agent]:
    """Six agents, one per seat: side A in the even seats, side B in the odd ones.

    A bot side starts one process per seat at its first decision; :func:`closing_agents`
    stops them.
    """
    a, b = parse_agents(spec)
    return [side_agent(a if s % 2 == 0 else b) for s in range(6)]


def side_agent(side: str) -> Agent:
    """The agent of one side: a shipped agent, or a bot (:class:`~gouji_rules.tournament.bot_agent.BotAgent`)."""
    body = _body(side)
    if not body.startswith("cmd:"):
        return make_agent(body)
    from ..tournament.bot_agent import BotAgent  # imported late: plain runs never load the event code

    return BotAgent(body[4:], side.partition("=")[0] if _named(side) else "")


@contextmanager
def closing_agents(agents: Sequence[Agent]) -> Iterator[list[Agent]]:
    """``agents``, with every one that holds something (a bot's process) closed on the way out,
    an error or Ctrl-C included; each is closed whatever the others do."""
    with ExitStack() as stack:
        for agent in agents:
            close = getattr(agent, "close", None)
            if callable(close):
                stack.callback(close)
        for agent in agents:
            hang_up = getattr(agent, "hang_up", None)
            if callable(hang_up):
                stack.callback(hang_up)  # callbacks run last in, first out: every bot is told before any is waited for
        yield list(agents)
