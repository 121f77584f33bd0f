"""Who plays whom: round robin and Swiss between fixed teams, rotating partners for individuals.

A table seats six: seats 0, 2, 4 are one side, 1, 3, 5 the other, and each seat's
对头 (opposite) is seat + 3, always on the other side.  All randomness comes from
the event seed (``derive(seed, round, …)``), so a schedule is the same on every
machine and every run.  The algorithms are described in docs/tournaments.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..game.rng import SplitMix64, derive
from ..game.seats import opposite, same_side

PARTNER, DUITOU, OPPONENT = 0, 1, 2
RELATIONS = ("partners", "duitou", "opponents")
WEIGHTS = (3, 4, 1)
"""What meeting again costs: a repeated partner 3, a repeated 对头 4, another repeated opponent 1."""
RESTART_WORK = 600
"""Restarts a round gets: about RESTART_WORK / players (at least 1), so small events search widely and big ones fast."""


def relation(i: int, j: int) -> int:
    """How seats ``i`` and ``j`` of one table meet: partners (same side), 对头 (seat + 3) or other opponents."""
    if same_side(i, j):
        return PARTNER
    return DUITOU if opposite(i) == j else OPPONENT


_PAIRS = [(i, j, relation(i, j)) for i in range(6) for j in range(i + 1, 6)]


class _Counts:
    """How often each pair of players has met so far, as partners, as 对头 and as other opponents."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.met: list[dict[int, int]] = [{} for _ in RELATIONS]  # pairs that met: memory grows with rounds, not n²

    def _key(self, a: int, b: int) -> int:
        return a * self.n + b if a < b else b * self.n + a

    def table_cost(self, six: Sequence[int]) -> int:
        """What seating ``six`` (seat order) costs: each pair's earlier meetings of the kind it meets again."""
        met, n = self.met, self.n
        cost = 0
        for i, j, rel in _PAIRS:
            a, b = six[i], six[j]
            c = met[rel].get(a * n + b if a < b else b * n + a)
            if c:
                cost += WEIGHTS[rel] * c
        return cost

    def add(self, six: Sequence[int]) -> None:
        for i, j, rel in _PAIRS:
            key = self._key(six[i], six[j])
            self.met[rel][key] = self.met[rel].get(key, 0) + 1


def _improve(perm: list[int], counts: _Counts, rng: SplitMix64) -> int:
    """Swap players out of every table that repeats a meeting while a swap lowers the cost; returns the cost.

    Only seats at tables that cost something are moved, each to the first seat (from a
    random start) whose swap lowers the two tables' cost: with few repeats this is
    close to linear in the number of players.
    """
    n = len(perm)
    costs = [counts.table_cost(perm[6 * t : 6 * t + 6]) for t in range(n // 6)]
    improved = True
    while improved and any(costs):
        improved = False
        for ta in range(len(costs)):
            for a in range(6 * ta, 6 * ta + 6):
                if not costs[ta]:
                    break
                start = rng.below(n)
                for k in range(n):
                    b = (start + k) % n
                    tb = b // 6
                    if tb == ta and same_side(a, b):
                        continue  # the same side of the same table: nothing changes
                    before = costs[ta] + (costs[tb] if tb != ta else 0)
                    perm[a], perm[b] = perm[b], perm[a]
                    ca = counts.table_cost(perm[6 * ta : 6 * ta + 6])
                    cb = counts.table_cost(perm[6 * tb : 6 * tb + 6]) if tb != ta else 0
                    if ca + cb < before:
                        costs[ta] = ca
                        if tb != ta:
                            costs[tb] = cb
                        improved = True
                        break
                    perm[a], perm[b] = perm[b], perm[a]
    return sum(costs)


def rotating(n: int, rounds: int, seed: int) -> list[list[list[int]]]:
    """Individuals with rotating partners: per round, per table, the player index in seats 0..5.

    Round by round: a seeded random seating, then swaps that lower the cost of meeting
    again (:data:`WEIGHTS`: a repeated 对头 or partner costs far more than another
    repeated opponent), from several seeded starts when the event is small; the first
    seating without any repeat, or the cheapest, is kept.
    """
    if n < 6 or n % 6:
        raise ValueError(f"rotating partners need a multiple of 6 players, not {n}")
    counts = _Counts(n)
    out: list[list[list[int]]] = []
    for r in range(rounds):
        best: list[int] | None = None
        best_cost = 0
        for k in range(max(1, RESTART_WORK // n)):
            rng = SplitMix64(derive(seed, 101, r, k))
            perm = list(range(n))
            rng.shuffle(perm)
            cost = _improve(perm, counts, rng)
            if best is None or cost < best_cost:
                best, best_cost = perm, cost
            if cost == 0:
                break
        assert best is not None
        tables = [best[6 * t : 6 * t + 6] for t in range(n // 6)]
        for six in tables:
            counts.add(six)
        out.append(tables)
    return out


def repeats(rounds: Iterable[Iterable[Sequence[int]]]) -> dict[str, int]:
    """Meetings beyond the first, by kind, over a schedule (rounds of tables of six, in seat order).

    ``{"partners": 0, "duitou": 0, "opponents": 2}`` means no two players sat on the same
    side twice or were 对头 twice, and two meetings as other opponents were repeats.
    """
    seen: list[dict[tuple[int, int], int]] = [{} for _ in RELATIONS]
    out = dict.fromkeys(RELATIONS, 0)
    for tables in rounds:
        for six in tables:
            for i, j, rel in _PAIRS:
                a, b = six[i], six[j]
                key = (a, b) if a < b else (b, a)
                c = seen[rel].get(key, 0)
                if c:
                    out[RELATIONS[rel]] += 1
                seen[rel][key] = c + 1
    return out


def seating_repeats(seating: Mapping[tuple[int, int], Sequence[int]]) -> dict[str, int]:
    """:func:`repeats` of an event's stored seating ({(round, table): entrants in seats 0..5})."""
    by_round: dict[int, list[Sequence[int]]] = {}
    for (rnd, _tbl), six in sorted(seating.items()):
        by_round.setdefault(rnd, []).append(six)
    return repeats(by_round.values())


def describe_repeats(counts: Mapping[str, int]) -> str:
    """One line for people: ``0 repeated partners, 0 repeated 对头, 1 repeated other opponent``."""
    p, d, o = counts["partners"], counts["duitou"], counts["opponents"]
    return (
        f"{p} repeated partner{'s' if p != 1 else ''}, {d} repeated 对头, "
        f"{o} repeated other opponent{'s' if o != 1 else ''}"
    )


def round_robin(teams: Sequence[str], rounds: int | None = None) -> list[tuple[list[tuple[str, str]], list[str]]]:
    """Fixed teams, everyone against everyone: per round the pairings and the team with a bye.

    The circle method: team 0 stays, the others turn one place a round; with an
    odd number of teams a dummy is added and whoever meets it has the bye.  The
    first-named team of a pairing sits in seats 0, 2, 4; that alternates by round.
    """
    ts: list[str | None] = list(teams)
    if len(ts) % 2:
        ts.append(None)
    n = len(ts)
    total = n - 1
    if rounds is None:
        rounds = total
    if not 1 <= rounds <= total:
        raise ValueError(f"a round robin of {len(teams)} teams has 1 to {total} rounds, not {rounds}")
    out: list[tuple[list[tuple[str, str]], list[str]]] = []
    for r in range(rounds):
        pairs: list[tuple[str, str]] = []
        byes: list[str] = []
        for i in range(n // 2):
            a, b = ts[i], ts[n - 1 - i]
            if a is None or b is None:
                byes.append(str(a if b is None else b))
                continue
            pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))
        out.append((pairs, byes))
        ts = [ts[0], ts[-1], *ts[1:-1]]
    return out


def swiss(
    ranked: Sequence[str], played: set[frozenset[str]], had_bye: set[str]
) -> tuple[list[tuple[str, str]], list[str]]:
    """One Swiss round between teams: the fewest rematches, then neighbours in the standings.

    ``ranked`` is the standings order (best first).  With an odd count the
    lowest-ranked team that has not had a bye gets one.  The rest are paired by a
    maximum-weight perfect matching (networkx, Edmonds' blossom algorithm, polynomial):
    a rematch costs more than any difference of ranks can, so the pairing has the
    fewest rematches there are, and among those the smallest sum of squared rank
    differences.  The better-ranked team of a pair is named first (seats 0, 2, 4).
    """
    import networkx as nx  # type: ignore[import-untyped,unused-ignore]

    order = list(ranked)
    byes: list[str] = []
    if len(order) % 2:
        pick = next((t for t in reversed(order) if t not in had_bye), order[-1])
        order.remove(pick)
        byes.append(pick)
    n = len(order)
    rematch = n**3 + 1  # more than the sum of squared rank differences of any pairing
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    for i in range(n):
        for j in range(i + 1, n):
            again = frozenset((order[i], order[j])) in played
            graph.add_edge(i, j, weight=rematch * (n * n) - (rematch if again else 0) - (j - i) ** 2)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = sorted((min(a, b), max(a, b)) for a, b in matching)
    return [(order[a], order[b]) for a, b in pairs], byes


def swiss_rematches(pairs: Iterable[tuple[str, str]], played: set[frozenset[str]]) -> int:
    """How many of ``pairs`` have met before."""
    return sum(frozenset(p) in played for p in pairs)


def swiss_first_order(teams: Sequence[str], seed: int) -> list[str]:
    """Round 1 of a Swiss event: the teams in a seeded random order."""
    order = list(teams)
    SplitMix64(derive(seed, 202)).shuffle(order)
    return order


def bench(players: int, rounds: int, seed: int, teams: int = 22) -> dict[str, Any]:
    """How long scheduling takes (``gouji bench --schedule N``): rotating partners for ``players``
    over ``rounds``, and ``rounds`` Swiss rounds of ``teams`` teams ranked at random."""
    import time

    start = time.perf_counter()
    plan = rotating(players, rounds, seed)
    rotating_s = time.perf_counter() - start
    rng = SplitMix64(derive(seed, 303))
    names = [f"t{i}" for i in range(teams)]
    played: set[frozenset[str]] = set()
    had_bye: set[str] = set()
    rematches = 0
    start = time.perf_counter()
    for _ in range(rounds):
        ranked = list(names)
        rng.shuffle(ranked)
        pairs, byes = swiss(ranked, played, had_bye)
        rematches += swiss_rematches(pairs, played)
        played |= {frozenset(p) for p in pairs}
        had_bye |= set(byes)
    swiss_s = time.perf_counter() - start
    return {
        "schedule_players": players,
        "schedule_rounds": rounds,
        "rotating_seconds": round(rotating_s, 3),
        "rotating_repeats": repeats(plan),
        "swiss_teams": teams,
        "swiss_seconds": round(swiss_s, 3),
        "swiss_rematches": rematches,
    }
