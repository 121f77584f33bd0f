"""Known blunders, counted: how often each agent makes the mistakes a club player would point out.

Every seat plays the same agent, matches of 8 hands; at each decision the observation, the legal
actions and the choice go to three detectors that read the engine's state (never strings):

- ``fours_before_open``: 4s led before opening (开点) while a pure 够级 set in hand could open
  (the variant opens the point, the seat's point is ``none``, the deadline has not passed);
- ``jokerless_burn``: a burn (烧牌) started with no joker in hand, unless all that follows the
  burning set is the last 3s;
- ``lone_big_joker``: a 大王 played as a single while a legal set could carry it (挂王).

Each reports, per agent and variant: the chances (decisions where the blunder was possible),
the blunders, and blunders per 100 hands.  Beside them, from the hands' records, per hand:
``point_closed`` (a seat's own 开点 closed: the next hand's 点贡), ``burns`` and ``burn_fails``
(烧牌 started, and failed: 烧贡).  A table on stdout, or ``--json``; progress on stderr.
``--weights FILE`` plays ``learned`` with a weights file (a training run's ``best.npz``) instead of
the shipped ones, every kind of decision its meta says it learned.  ``unguarded`` is ``learned`` without
its file's guards (``meta["guards"]``): the network's own choices at every decision.

    python benchmarks/habits.py --variants dagang,dianshaomenla --agents greedy,simple,learned --hands 96
    python benchmarks/habits.py --agents ismcts --worlds 2 --hands 48     # search: about half a second a hand
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field

from gouji_rules import catalog
from gouji_rules.errors import GoujiError
from gouji_rules.game.actions import Action
from gouji_rules.game.legal import Legal
from gouji_rules.game.rng import derive
from gouji_rules.play.agents import Agent, make_agent
from gouji_rules.play.blunders import BLUNDERS
from gouji_rules.play.match import play_match
from gouji_rules.play.observe import Observation

DETECTORS = BLUNDERS
"""The detectors, by name (``gouji_rules.play.blunders``: the learned agent's guards name the same)."""


@dataclass
class Tally:
    """Chances and blunders per detector."""

    chances: dict[str, int] = field(default_factory=lambda: dict.fromkeys(DETECTORS, 0))
    blunders: dict[str, int] = field(default_factory=lambda: dict.fromkeys(DETECTORS, 0))

    def see(self, obs: Observation, legal: Legal, action: Action) -> None:
        for name, detect in DETECTORS.items():
            v = detect(obs, legal, action)
            if v is not None:
                self.chances[name] += 1
                self.blunders[name] += v


class Watched:
    """An agent that reports each of its decisions to a tally and otherwise plays as ``inner``."""

    def __init__(self, inner: Agent, tally: Tally) -> None:
        self.inner, self.tally, self.name = inner, tally, inner.name

    def start_hand(self, seed: int, seat: int) -> None:
        self.inner.start_hand(seed, seat)

    def act(self, obs: Observation, legal: Legal) -> Action:
        action = self.inner.act(obs, legal)
        self.tally.see(obs, legal, action)
        return action


COUNTED = ("point_closed", "burn", "burn_fail")
"""Events counted per hand from the records (their ids in docs/events.md)."""

WEIGHTS: list[str] = []
"""``--weights FILE``: the weights ``learned`` plays with (empty: the shipped ones)."""


def player(agent: str, worlds: int) -> Agent:
    """A new agent by name; ``ismcts`` searches ``worlds`` worlds (a small budget keeps a run to minutes)."""
    if agent == "ismcts":
        from gouji_rules.search import SearchAgent

        return SearchAgent(worlds=worlds)
    if agent == "unguarded" and not WEIGHTS:
        from gouji_rules.learn.agent import LearnedAgent

        return LearnedAgent(guards=())
    if agent in ("learned", "unguarded") and WEIGHTS:
        from gouji_rules.learn.agent import LearnedAgent
        from gouji_rules.learn.checkpoint import fit_columns, load_weights
        from gouji_rules.learn.features import ACT_COLUMNS, OBS_COLUMNS

        net, meta, _ = load_weights(WEIGHTS[0])
        net = fit_columns(net, meta, OBS_COLUMNS, ACT_COLUMNS)[0]
        return LearnedAgent.from_meta(net, meta, None if agent == "learned" else ())
    return make_agent(agent)


def habits(variant: str, agent: str, hands: int, seed: int, match_hands: int = 8, worlds: int = 2) -> dict[str, object]:
    """Play ``hands`` hands (matches of ``match_hands``) with ``agent`` in every seat; the tally as JSON."""
    rules = catalog.resolve(variant)
    tally = Tally()
    played = 0
    counted = dict.fromkeys(COUNTED, 0)
    while played < hands:
        n = min(match_hands, hands - played)
        agents = [Watched(player(agent, worlds), tally) for _ in range(6)]
        m = play_match(rules, seed=derive(seed, played), hands=n, agents=agents)
        for summary in m.summaries:
            for e in summary.record.get("events", ()):
                if e.get("type") in counted:
                    counted[e["type"]] += 1
        played += n
    return {
        "variant": variant,
        "agent": agent,
        "hands": played,
        "seed": seed,
        "worlds": worlds if agent == "ismcts" else None,
        "habits": {
            k: {
                "chances": tally.chances[k],
                "blunders": tally.blunders[k],
                "per_100_hands": round(100 * tally.blunders[k] / played, 2),
            }
            for k in DETECTORS
        },
        "per_hand": {k: round(n / played, 3) for k, n in counted.items()},
    }


def table(rows: list[dict[str, object]]) -> str:
    """One line per variant and agent: blunders / chances and per 100 hands for each detector."""
    head = f"{'variant':<15}{'agent':<9}{'hands':>6}  " + "  ".join(f"{k:>26}" for k in (*DETECTORS, *COUNTED))
    lines = [head]
    for row in rows:
        hb = row["habits"]
        assert isinstance(hb, dict)
        cells = [f"{hb[k]['blunders']:>5}/{hb[k]['chances']:<6} {hb[k]['per_100_hands']:>7.2f}/100h" for k in DETECTORS]
        per = row["per_hand"]
        assert isinstance(per, dict)
        cells += [f"{per[k]:>8.2f}/h {k}" for k in COUNTED]
        lines.append(
            f"{row['variant']!s:<15}{row['agent']!s:<9}{row['hands']!s:>6}  " + "  ".join(f"{c:>26}" for c in cells)
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="dagang,dianshaomenla")
    ap.add_argument("--agents", default="greedy,simple,learned", help="comma-separated; ismcts is slow")
    ap.add_argument("--hands", type=int, default=96)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--worlds", type=int, default=2, help="ismcts's worlds per decision (its default is 6)")
    ap.add_argument("--json", action="store_true", help="one JSON document instead of the table")
    ap.add_argument("--weights", default=None, help="the weights file learned plays with (default: the shipped)")
    args = ap.parse_args()
    if args.weights:
        WEIGHTS.append(args.weights)
    if args.hands < 1 or args.worlds < 1:
        ap.error("--hands and --worlds must be at least 1")
    variants = [v for v in args.variants.split(",") if v.strip()]
    agents = [a for a in args.agents.split(",") if a.strip()]
    if not variants or not agents:
        ap.error("--variants and --agents each name at least one")
    try:  # every name checked before the first hand is played
        for v in variants:
            catalog.resolve(v)
        for a in agents:
            player(a, args.worlds)
    except (GoujiError, ValueError, OSError) as e:
        print(f"habits: {str(e).splitlines()[0]}", file=sys.stderr)
        raise SystemExit(1) from None
    rows = []
    for v in variants:
        for a in agents:
            print(f"{v} {a}: {args.hands} hands", file=sys.stderr, flush=True)
            rows.append(habits(v, a, args.hands, args.seed, worlds=args.worlds))
    print(json.dumps(rows, ensure_ascii=False, indent=1) if args.json else table(rows))


if __name__ == "__main__":
    main()
