"""After a hand: scores, 串三户, and what is owed next hand (进贡).

A pure function of the hand's result, so a club event that records hands
played with real cards gets exactly the same points and tribute as a
simulated one.  Clauses: S0 第八节 and 计分; S4 第十四–十九条, 第二十二条.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .rules import sweep_of
from .variant import Variant


@dataclass(frozen=True)
class Debt:
    """Cards one seat owes another at the start of the next hand."""

    kind: str  # point, burn, men, place, sweep
    giver: int
    receiver: int
    count: int
    returned: bool = False  # the receiver hands back as many cards (还贡)


@dataclass(frozen=True)
class HandResult:
    """What a hand decided, whether it was simulated or played at a real table."""

    places: Sequence[int]  # each seat's place, 1..6
    opened: Sequence[bool]  # each seat opened (开点) this hand
    burns: Sequence[tuple[int, int]] = ()  # successful burns: (burner, victim)
    men: Sequence[tuple[int, int]] = ()  # 闷 / 清: (victim, the seat that beat the set)
    declarations: Sequence[tuple[str, int]] = ()  # (宣点/明点/预点 kind, declaring seat)
    geming: Sequence[int] = ()  # seats that declared 革命


@dataclass(frozen=True)
class Settlement:
    scores: tuple[int, int]  # team 0 (seats 0 2 4), team 1
    sweep: int | None  # the team that took places 1-3 (串三户)
    debts: list[Debt] = field(default_factory=list)
    next_leader: int = 0
    winner: int | None = None  # team with the higher score this hand, None for a draw


def settle(variant: Variant, result: HandResult) -> Settlement:
    rules = variant.rules
    places = list(result.places)
    by_place = {p: s for s, p in enumerate(places)}
    sweep = sweep_of(places)
    scores = rules.team_scores(places)
    winner = None if scores[0] == scores[1] else (0 if scores[0] > scores[1] else 1)
    t = variant.tribute
    debts: list[Debt] = []
    if t.enabled:
        debts += _point_debts(variant, result)
        debts += [Debt("burn", victim, burner, t.burn_count, "burn" in t.returned) for burner, victim in result.burns]
        debts += [Debt("men", victim, by, t.men_count, "men" in t.returned) for victim, by in result.men if by >= 0]
        if sweep is not None and t.sweep == "opposite":
            for s in range(6):
                if s % 2 != sweep:
                    debts.append(Debt("sweep", s, (s + 3) % 6, 1, "sweep" in t.returned))
        else:
            for pay, recv, n in t.place:
                if pay in by_place and recv in by_place:
                    debts.append(Debt("place", by_place[pay], by_place[recv], n, "place" in t.returned))
        order: dict[str, int] = {k: i for i, k in enumerate(t.order)}
        debts = [d for d in debts if d.count > 0]
        debts.sort(key=lambda d: order.get(d.kind if d.kind != "sweep" else "place", len(order)))
    nxt = by_place.get(6 if variant.match.next_leader == "last_place" else 1, 0)
    return Settlement(scores=scores, sweep=sweep, debts=debts, next_leader=nxt, winner=winner)


def _point_debts(variant: Variant, result: HandResult) -> list[Debt]:
    """点贡 (S0 第八节 点贡, S4 第十七条, 第二十二条 明点/预点)."""
    t, d = variant.tribute, variant.declare
    if not variant.open_point.enabled:
        return []
    opened = list(result.opened)
    for s in result.geming:
        opened[s] = False  # 革命 算自动认点
    stakes = {"xuandian": d.xuandian_stake, "mingdian": d.mingdian_stake, "yudian": d.yudian_stake}
    out: list[Debt] = []
    declared_pairs: set[int] = set()
    for kind, s in result.declarations:
        o = (s + 3) % 6
        declared_pairs.add(min(s, o))
        stake = stakes.get(kind, 0)
        if not opened[o]:
            if d.win_needs_own_point and not opened[s]:
                continue
            out.append(Debt("point", o, s, stake))
        else:
            out.append(Debt("point", s, o, stake * d.fanche_multiplier))
    for s in range(3):
        if s in declared_pairs:
            continue
        o = s + 3
        if opened[s] and not opened[o]:
            out.append(Debt("point", o, s, t.point_count))
        elif opened[o] and not opened[s]:
            out.append(Debt("point", s, o, t.point_count))
        elif not opened[s] and not opened[o] and t.point_when_neither == "both":
            out.append(Debt("point", s, o, t.point_count))
            out.append(Debt("point", o, s, t.point_count))
    return [x for x in out if x.count > 0]
