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
from typing import Any

from ..errors import GoujiError
from ..game.seats import SEATS, side_seats
from ..game.strength import measured_variants, strength
from ..play.agents import AGENTS, LEARNED_FILE, Agent, agent_kind, is_agent, learned_file, make_agent
from ..variant import Variant


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
    return is_agent(body) or body == QUICK_ISMCTS or body.startswith("cmd:")


QUICK_ISMCTS = "ismcts-quick"
"""``ismcts`` at the cross-check's budget (compare/cross.py): one world, two candidates a decision."""
QUICK_BUDGET = {"worlds": 1, "candidates": 2}


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
    if body == LEARNED_FILE:
        raise GoujiError(f"{side!r} names no weights file (learned:FILE, e.g. learned:club.npz)")
    if not is_agent(body) and body != QUICK_ISMCTS:
        raise GoujiError(
            f"unknown agents {body!r}; known: {', '.join(sorted(AGENTS))}, learned:FILE for a weights file "
            "of your own, or cmd:COMMAND for a bot"
        )


def table_agents(spec: str) -> list[Agent]:
    """Six agents, one per seat: side A in the even seats, side B in the odd ones.

    A bot side starts one process per seat at its first decision; :func:`closing_agents`
    stops them.
    """
    a, b = parse_agents(spec)
    return [side_agent(b if s in side_seats(1) else a) for s in range(SEATS)]


def sides(spec: str, variants: Sequence[Variant], labels: Sequence[str]) -> list[dict[str, Any]]:
    """Who played, per side, and how strong each agent measured (``gouji_rules.game.strength``).

    For each variant of the comparison the figure is the one measured under that variant when it
    has the rules of a measured shipped variant, else under the measured variant nearest to it
    (fewest rule differences), marked ``exact: false``; ``edge: null`` when never measured.
    """
    a, b = parse_agents(spec)
    nearest = [_nearest_measured(v) for v in variants]
    out = []
    for side, agent, seats in (("A", a, side_seats(0)), ("B", b, side_seats(1))):
        rows = []
        for label, variant, (under, apart, unit) in zip(labels, variants, nearest, strict=True):
            s = strength(agent, under) if under else None
            rows.append(
                {
                    "variant": label,
                    "measured_under": under if s else None,
                    "exact": apart == 0 if s else None,
                    "rules_apart": apart if s else None,
                    "edge": s.edge if s else None,
                    "low": s.low if s else None,
                    "high": s.high if s else None,
                    "edge_in_units": round(s.edge / unit, 6) if s and unit else None,
                    "pairs": s.pairs if s else None,
                    "source": s.source if s else None,
                    "never_saw": never_saw(agent, variant),
                    "cannot_read": cannot_read(agent, variant),
                    **training_of(agent, variant),
                }
            )
        out.append({"side": side, "seats": seats, "agent": agent, "strength": rows})
    return out


def never_saw(agent: str, variant: Variant) -> list[dict[str, Any]]:
    """The parts played under ``variant`` that ``agent`` never learned: for ``learned``, the phases whose
    decision kinds or words its weights have no column for (they were added since it was trained; their
    kinds are made by each kind's default chooser).  Other agents read no weights: none."""
    if agent_kind(_body(agent)) != "learned":
        return []
    from ..learn.agent import unseen_parts  # numpy's agent, only where it plays

    return unseen_parts(variant, weights_file(agent))


def weights_file(agent: str) -> str | None:
    """The weights file a ``learned:FILE`` side plays; None for the shipped weights or another agent."""
    return learned_file(_body(agent))


def cannot_read(agent: str, variant: Variant) -> list[str]:
    """What ``variant`` sets that ``agent`` cannot read: for ``learned``, the expression hooks and the
    options with no input column (``learn.rulecols.unseen_rules``: ``hooks.team_score``, ``sets.kill``);
    it plays by the options it reads.  Other agents read no rule columns: none."""
    if agent_kind(_body(agent)) != "learned":
        return []
    from ..learn.rulecols import unseen_rules

    return unseen_rules(variant)


def training_of(agent: str, variant: Variant) -> dict[str, Any]:
    """What the weights ``agent`` plays ``variant`` with were trained over (their meta's ``trained_over``;
    a file written before that key was trained over its own variant alone), and whether ``variant`` lies
    outside it, and the blunders it is guarded against (``meta["guards"]``: where its network would make
    one, it plays its best choice that is none); all three null for an agent with no weights."""
    if agent_kind(_body(agent)) != "learned":
        return {"trained_over": None, "outside_training": None, "guards": None}
    from ..learn.agent import weights_fit

    _, meta, _ = weights_fit(weights_file(agent), variant)
    over = meta.get("trained_over") or {"variants": [str(meta.get("variant", variant.name))], "clubs": None}
    return {
        "trained_over": over,
        "outside_training": not _inside(variant, over),
        "guards": list(meta.get("guards", [])),
    }


def _inside(variant: Variant, over: dict[str, Any]) -> bool:
    """Whether ``variant`` has the rules of a variant trained over, or of a club that could have been drawn
    (a base it names, changed only in options of the ranges, to values in them)."""
    from ..catalog import names, resolve, trained_variants
    from ..dsl.diff import differences

    shipped = set(names())  # a name in a weights file is text to compare, never a path to open
    mine = variant.fingerprint()
    if any(v.fingerprint() == mine for v in trained_variants(over.get("variants", ()), variant)):
        return True
    clubs = over.get("clubs") or {}
    ranges = clubs.get("ranges") or {}
    for base in clubs.get("bases") or ():
        if base not in shipped:
            continue
        diffs = differences(resolve(base), variant)
        if all(d.path in ranges and _plain(d.b) in ranges[d.path] for d in diffs):
            return True
    return False


def _plain(value: Any) -> Any:
    """A rule's value as JSON reads it back (tuples as lists); a value JSON cannot hold matches no range."""
    import json

    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError):
        return object()


def score_unit(variant: Variant) -> int:
    """Points per unit of the variant's own scoring: its 头科 score (the largest place score in
    magnitude when 头科 scores nothing), 0 when the variant keeps no score.  Scores divided by it
    compare across scorings: 2/1/0 and 4/2/0 give the same scores in units.

    >>> from gouji_rules.catalog import dagang, dianshaomenla
    >>> score_unit(dagang()), score_unit(dianshaomenla())
    (4, 2)
    """
    scoring = variant.scoring
    if not scoring.enabled:
        return 0
    points = list(scoring.points)
    return points[0] if points and points[0] > 0 else max((abs(p) for p in points), default=0)


def _nearest_measured(variant: Variant) -> tuple[str | None, int, int]:
    """The measured shipped variant with the fewest rule differences to ``variant``, how many, and
    its score unit (its 头科 score: an edge divided by it is in 头科 points)."""
    from ..catalog import resolve
    from ..dsl.diff import differences

    best: tuple[str | None, int, int] = (None, 0, 0)
    for name in measured_variants():
        shipped = resolve(name)
        apart = len(differences(shipped, variant))
        if best[0] is None or apart < best[1]:
            best = (name, apart, score_unit(shipped))
    return best


def side_agent(side: str) -> Agent:
    """The agent of one side: a shipped agent, or a bot (:class:`~gouji_rules.tournament.bot_agent.BotAgent`)."""
    body = _body(side)
    if body == QUICK_ISMCTS:
        from ..search import SearchAgent

        return SearchAgent(worlds=QUICK_BUDGET["worlds"], candidates=QUICK_BUDGET["candidates"])
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
