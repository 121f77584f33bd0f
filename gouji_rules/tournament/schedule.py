"""Who plays whom: round robin and Swiss between fixed teams, rotating partners for individuals.

A table seats six: seats 0, 2, 4 are one side, 1, 3, 5 the other, and each seat's
对头 (opposite) is seat + 3, always on the other side.  All randomness comes from
the event seed (``derive(seed, round, …)``), so a schedule is the same on every
machine and every run.  The algorithms are described in docs/tournaments.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rng import SplitMix64, derive

PARTNER_WEIGHT = 3  # a repeated partner costs three times a repeated opponent
OPPONENT_WEIGHT = 1
RESTARTS = 12


class _Counts:
    """How often each pair of players has been partners and opponents so far."""

    def __init__(self, n: int) -> None:
        self.partner = [[0] * n for _ in range(n)]
        self.opponent = [[0] * n for _ in range(n)]

    def table_cost(self, six: Sequence[int]) -> int:
        """What seating ``six`` (seat order) adds to Σ 3·partners² + opponents² over all pairs."""
        cost = 0
        for i in range(6):
            a = six[i]
            for j in range(i + 1, 6):
                b = six[j]
                if (i - j) % 2 == 0:
                    cost += PARTNER_WEIGHT * (2 * self.partner[a][b] + 1)
                else:
                    cost += OPPONENT_WEIGHT * (2 * self.opponent[a][b] + 1)
        return cost

    def add(self, six: Sequence[int]) -> None:
        for i in range(6):
            for j in range(i + 1, 6):
                a, b = six[i], six[j]
                m = self.partner if (i - j) % 2 == 0 else self.opponent
                m[a][b] += 1
                m[b][a] += 1


def _climb(perm: list[int], counts: _Counts) -> int:
    """First-improvement hill climbing over swaps of two players; returns the final cost."""
    n = len(perm)
    tables = n // 6

    def cost_of(t: int) -> int:
        return counts.table_cost(perm[6 * t : 6 * t + 6])

    costs = [cost_of(t) for t in range(tables)]
    improved = True
    while improved:
        improved = False
        for a in range(n):
            for b in range(a + 1, n):
                ta, tb = a // 6, b // 6
                if ta == tb and (a - b) % 2 == 0:
                    continue  # same side of the same table: nothing changes
                before = costs[ta] + (costs[tb] if tb != ta else 0)
                perm[a], perm[b] = perm[b], perm[a]
                ca = cost_of(ta)
                cb = cost_of(tb) if tb != ta else 0
                if ca + cb < before:
                    costs[ta] = ca
                    if tb != ta:
                        costs[tb] = cb
                    improved = True
                else:
                    perm[a], perm[b] = perm[b], perm[a]
    return sum(costs)


def rotating(n: int, rounds: int, seed: int) -> list[list[list[int]]]:
    """Individuals with rotating partners: per round, per table, the player index in seats 0..5.

    Round by round, greedy: from several seeded random seatings, hill-climb by
    swapping two players while that lowers the growth of Σ 3·partners² +
    opponents² over all pairs, and keep the best.  Squares make a third meeting
    cost more than two first meetings, so meetings spread out.
    """
    if n < 6 or n % 6:
        raise ValueError(f"rotating partners need a multiple of 6 players, not {n}")
    counts = _Counts(n)
    out: list[list[list[int]]] = []
    for r in range(rounds):
        best: list[int] | None = None
        best_cost = 0
        for k in range(RESTARTS):
            perm = list(range(n))
            SplitMix64(derive(seed, 101, r, k)).shuffle(perm)
            cost = _climb(perm, counts)
            if best is None or cost < best_cost:
                best, best_cost = perm, cost
        assert best is not None
        tables = [best[6 * t : 6 * t + 6] for t in range(n // 6)]
        for six in tables:
            counts.add(six)
        out.append(tables)
    return out


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
    """One Swiss round between teams: pair neighbours in the standings, avoiding rematches.

    ``ranked`` is the standings order (best first).  With an odd count the
    lowest-ranked team that has not had a bye gets one.  Pairing walks down the
    order and takes, for each team, the best-ranked opponent it has not met,
    backtracking when that leaves the rest unpairable; only when no pairing
    without a rematch exists are neighbours paired as they stand.
    """
    order = list(ranked)
    byes: list[str] = []
    if len(order) % 2:
        pick = next((t for t in reversed(order) if t not in had_bye), order[-1])
        order.remove(pick)
        byes.append(pick)

    def pair(rest: list[str]) -> list[tuple[str, str]] | None:
        if not rest:
            return []
        a = rest[0]
        for b in rest[1:]:
            if frozenset((a, b)) in played:
                continue
            sub = pair([x for x in rest[1:] if x != b])
            if sub is not None:
                return [(a, b), *sub]
        return None

    pairs = pair(order)
    if pairs is None:
        pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    return pairs, byes


def swiss_first_order(teams: Sequence[str], seed: int) -> list[str]:
    """Round 1 of a Swiss event: the teams in a seeded random order."""
    order = list(teams)
    SplitMix64(derive(seed, 202)).shuffle(order)
    return order
