"""What a hand decided, checked against the rules without the cards: the facts a club enters.

At a real table nobody records the play, only its outcome: the finishing order and the
events that move points or tribute (烧, 诈烧, 闷/清, 开点, 革命, 冲点, 宣点/明点/预点, a waived
tribute).  :func:`verify_outcome` accepts every outcome the engine can produce and refuses,
with the rule id and the seed clause (:class:`~gouji_rules.errors.IllegalAction`), what it
cannot.  Every test asks a :class:`~gouji_rules.rules.Rules` predicate, so a variant decides
here exactly what it decides in play; nothing in ``tournament/`` judges a rule.

Like pokerkit's ``verify_x`` / ``can_x``: :func:`verify_outcome` raises, :func:`can_outcome`
answers yes or no, and :func:`settle_outcome` verifies before it scores.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..errors import IllegalAction
from ..game.seats import opposite
from ..rules import Rules
from ..rules.settlement import Debt, HandResult, Settlement, settle

BURN = "S4 第六条; S0 五、烧牌"
MEN = "S4 第十五条; S0 六、闷与被闷"
OPEN = "S4 第八条; S0 四、开点"
GEMING = "S4 第二十一条"
CHONG = "S0 十、冲点"
DECLARE = "S4 第二十二条(三); S0 四、开点"
WAIVE = "S4 第十四条(五); S0 八、进贡"
PLACES = "S4 第三条; S0 opening"
NO_THREE = "S4 第九条 (买三)"


@dataclass(frozen=True)
class Outcome:
    """One hand's facts, by seat number (0-5).

    ``opened`` are the seats that opened the point by play; a successful 冲点 opens its
    player and a failed one its opposite, and :meth:`opened_seats` adds them
    (:func:`opened_in_play` takes them out again).
    """

    places: Sequence[int]  # each seat's place, 1..6, after any choice of the last place
    opened: Sequence[int] = ()
    burns: Sequence[tuple[int, int]] = ()  # successful burns: (burner, victim)
    burn_fails: Sequence[int] = ()  # 诈烧 / 烧牌失败: the seats whose burn failed
    men: Sequence[tuple[int, int]] = ()  # (victim, by)
    geming: Sequence[int] = ()
    chongdian: Sequence[tuple[int, bool]] = ()  # (seat, succeeded), in the order they declared
    declarations: Sequence[tuple[str, int]] = ()  # (xuandian | mingdian | yudian, seat)
    waived: Sequence[tuple[int, int]] = field(default_factory=tuple)  # (giver, receiver)
    no_three: Sequence[int] = ()  # seats left without a 3 after buying, placed 大落 before play (S4 第九条)
    choices: Mapping[str, Sequence[tuple[int, int]]] = field(default_factory=dict)
    """the choices of registered phases entered at the table, by the phase's ``ClubEntry.name``"""

    def opened_seats(self, rules: Rules) -> list[bool]:
        """Each seat's point at the end: opened in play, or by a 冲点."""
        out = [s in self.opened for s in range(6)]
        for s, ok in self.chongdian:
            out[rules.chongdian_opens(s, ok)] = True
        return out

    def placed_before_play(self) -> set[int]:
        """The seats 革命, 冲点 and a missing 3 took out of the hand before play: they do not play it."""
        return set(self.geming) | {s for s, _ in self.chongdian} | set(self.no_three)

    def hand_result(self, rules: Rules) -> HandResult:
        """The result settlement reads, from what a table reported: club-entered and simulated hands settle by one
        path."""
        return HandResult(
            places=list(self.places),
            opened=self.opened_seats(rules),
            burns=list(self.burns),
            men=list(self.men),
            declarations=list(self.declarations),
            geming=list(self.geming),
        )


def _illegal(message: str, rule: str, clause: str) -> IllegalAction:
    return IllegalAction(message, rule=rule, clause=clause)


@contextmanager
def _refused(what: str, clause: str) -> Iterator[None]:
    """A refusal of :class:`Rules` restated for the outcome entered: ``what`` it refuses, the outcome's clause."""
    try:
        yield
    except IllegalAction as e:
        raise _illegal(f"{what}: {e.message}", e.rule, clause) from None


def _before_choice(rules: Rules, places: Sequence[int]) -> Iterator[list[int]]:
    """The places as play left them: as given, or before the last place was traded after the hand."""
    yield list(places)
    last = list(places).index(6)
    for s in rules.last_place_swaps(places):
        p = list(places)
        p[last], p[s] = p[s], p[last]
        yield p


def verify_outcome(rules: Rules, o: Outcome) -> None:
    """Raise :class:`IllegalAction` (rule id and clause) unless the engine could have produced ``o``."""
    if sorted(o.places) != [1, 2, 3, 4, 5, 6]:
        raise _illegal("the places must be 1 to 6, each once", "places", PLACES)
    _verify_placed_before_play(rules, o)
    placed = o.placed_before_play()
    if o.opened and not rules.has_open_point():
        raise _illegal(f"{rules.name} has no 开点", "open_point", OPEN)
    for s in o.opened:
        if s in o.geming:
            raise _illegal(f"opened {s}: a 革命 seat leaves the hand and cannot open", "geming_out", GEMING)
        if s in o.no_three:
            raise _illegal(f"opened {s}: a seat without a 3 leaves the hand and cannot open", "no_three", NO_THREE)
    opened = o.opened_seats(rules)
    burners: set[int] = set()
    for burner, victim in o.burns:
        what = f"burn {burner}:{victim}"
        if not rules.has_burn():
            raise _illegal(f"{what}: {rules.name} has no 烧牌", "burn", BURN)
        if burner in placed or victim in placed:
            raise _illegal(
                f"{what}: a seat placed before play (革命, 冲点, no 3) does not play the hand", "burn_who", BURN
            )
        if not rules.may_burn(burner, victim):
            whom = "oneself" if burner == victim else "the opposite" if victim == opposite(burner) else "a teammate"
            raise _illegal(f"{what}: {rules.name} does not let a seat burn {whom}", "burn_who", BURN)
        if burner in burners:
            raise _illegal(f"{what}: a burn succeeds when the burner goes out, once a hand", "burn_once", BURN)
        with _refused(what, BURN):
            rules.verify_burn(burner, victim, opened=opened[burner])  # what is left: the 开点 a burn may need
        burners.add(burner)
    for s in o.burn_fails:
        if not rules.has_burn():
            raise _illegal(f"burn fail {s}: {rules.name} has no 烧牌", "burn", BURN)
        if s in burners or s in placed or list(o.burn_fails).count(s) > 1:
            raise _illegal(
                f"burn fail {s}: a seat whose burn failed neither burned, nor was placed before play, and fails once",
                "burn_fail",
                BURN,
            )
    victims: set[int] = set()
    for victim, by in o.men:
        what = f"men {victim}:{by}"
        with _refused(what, MEN):
            rules.verify_men(victim, by)
        if victim in placed or by in placed:
            raise _illegal(f"{what}: a seat placed before play (革命, 冲点, no 3) does not play the hand", "men", MEN)
        if victim in victims:
            raise _illegal(f"{what}: a seat is 闷 once a hand", "men", MEN)
        if victim in o.burn_fails:
            raise _illegal(f"{what}: a failed burner left play before its last 3s", "men", MEN)
        if victim in burners and rules.men_bottom_severity() is not None:
            raise _illegal(
                f"{what}: a seat placed at the bottom by 闷 / 清 takes no place by going out, so its burn cannot succeed",
                "men_burn",
                MEN,
            )
        victims.add(victim)
    _verify_bottom(rules, o)
    _verify_burners_went_out(rules, o, burners)
    declared: set[int] = set()
    for kind, s in o.declarations:
        if not rules.may_declare(kind):
            raise _illegal(f"declare {kind}:{s}: {rules.name} has no {kind}", "declare", DECLARE)
        with _refused(f"declare {kind}:{s}", DECLARE):
            rules.verify_declaring(kind, s, placed, declared)
        declared.add(s)


def _verify_placed_before_play(rules: Rules, o: Outcome) -> None:
    """革命 and 冲点 seats leave the hand before play, at the places the variant gives them."""
    if o.geming:
        if not rules.has_geming():
            raise _illegal(f"geming: {rules.name} has no 革命", "geming", GEMING)
        if len(set(o.geming)) != len(o.geming):
            raise _illegal("geming: a seat declares 革命 once", "geming", GEMING)
        if rules.geming_voids(len(o.geming)):
            raise _illegal(f"geming: {len(o.geming)} 革命 void the hand; it is dealt again", "geming_void", GEMING)
    chong = [s for s, _ in o.chongdian]
    if chong:
        if not rules.has_chongdian():
            raise _illegal(f"chongdian: {rules.name} has no 冲点", "chongdian", CHONG)
        if len(set(chong)) != len(chong) or set(chong) & set(o.geming):
            raise _illegal("chongdian: a seat rushes the point once, and not after 革命", "chongdian", CHONG)
        if rules.chongdian_redeals(len(chong)):
            raise _illegal(f"chongdian: {len(chong)} 冲点 players mean a redeal", "chongdian_redeal", CHONG)
    _verify_no_three(rules, o)
    if not o.geming and not chong:
        return
    for places in _before_choice(rules, o.places):
        if _placed_as_rules_say(rules, o, places):
            return
    want = []
    for s in o.geming:
        want.append(f"革命 seat {s} at {rules.geming_final_place(False)} (or {rules.geming_final_place(True)})")
    if chong:
        want.append(f"冲点 at {' and '.join(map(str, rules.chongdian_places(len(chong))))}")
    rule = "geming_place" if o.geming else "chongdian_place"
    raise _illegal(f"places: {'; '.join(want)}", rule, GEMING if o.geming else CHONG)


def _verify_no_three(rules: Rules, o: Outcome) -> None:
    """S4 第九条 (买三) 「牌中没有3者，算做大落」: a seat still without a 3 after buying is placed before play
    at the lowest place a 革命 or 冲点 seat does not hold (6, then 5 …), as the buy_check phase places it."""
    if not o.no_three:
        return
    if not rules.no_three_places_last():
        raise _illegal(f"no_three: {rules.name} places nobody for a missing 3", "no_three", NO_THREE)
    others = set(o.geming) | {s for s, _ in o.chongdian}
    if len(set(o.no_three)) != len(o.no_three) or set(o.no_three) & others:
        raise _illegal("no_three: a seat is without a 3 once, and not after 革命 or 冲点", "no_three", NO_THREE)
    k = len(o.no_three)
    for places in _before_choice(rules, o.places):
        lowest = sorted((places[s] for s in range(6) if s not in others), reverse=True)[:k]
        if sorted((places[s] for s in o.no_three), reverse=True) == lowest:
            return
    raise _illegal(
        f"places: {', '.join(f'seat {s}' for s in o.no_three)} had no 3 and take the last places (算做大落)",
        "no_three_place",
        NO_THREE,
    )


def _placed_as_rules_say(rules: Rules, o: Outcome, places: Sequence[int]) -> bool:
    for s in o.geming:
        if places[s] != rules.geming_place_at(s, places):
            return False
    if o.chongdian:  # the seats the rules place (two, where a variant lets three 冲点 play on)
        placings = rules.chongdian_placings(o.chongdian)
        return any(all(places[s] == p for s, p in placing.items()) for placing in placings)
    return True


def _verify_bottom(rules: Rules, o: Outcome) -> None:
    """Failed burners and (where 闷 places at once) 闷 victims leave play and are placed from the bottom,
    a higher severity lower (S0: 诈烧 below 被闷; S4 第六条: 再有其他失败者依次记为二落…), below every seat
    still in play but above the seats placed before play (革命, 冲点, and S4 第九条's seat without a 3,
    entered as ``no_three``: its 大落 was decided before play, 先清为落 during it)."""
    removed = _placed_from_bottom(rules, o)
    if not removed:
        return
    fixed = o.placed_before_play()
    out = {s for _, s in removed}
    for places in _before_choice(rules, o.places):
        free = sorted((places[s] for s in range(6) if s not in fixed), reverse=True)
        if sorted((places[s] for s in out), reverse=True) != free[: len(out)]:
            continue
        if all(places[a] > places[b] for sa, a in removed for sb, b in removed if sa > sb):
            return
    names = ", ".join(f"seat {s}" for _, s in sorted(removed, reverse=True))
    raise _illegal(
        f"places: {names} left play (诈烧 or 闷) and take the last places, the more severe lower",
        "placed_bottom",
        BURN if o.burn_fails else MEN,
    )


def _placed_from_bottom(rules: Rules, o: Outcome) -> list[tuple[int, int]]:
    """(severity, seat) of each seat that left play and is placed from the bottom: failed burners and,
    where 闷 places at once, 闷 victims."""
    removed = [(rules.burn_fail_severity, s) for s in o.burn_fails]
    men_sev = rules.men_bottom_severity()
    if men_sev is not None:
        removed += [(men_sev, v) for v, _ in o.men]
    return removed


def _verify_burners_went_out(rules: Rules, o: Outcome, burners: set[int]) -> None:
    """A burn succeeds when the burner goes out (S0 五 「并且最后走了则称为烧牌成功」, S4 第十六条 「成功用王出完牌」):
    so he is not the one seat left in play when the hand ends, who takes the lowest place not given
    before play (革命, 冲点) nor from the bottom (诈烧, 闷 / 清)."""
    if not burners or (o.men and rules.men_plays_on_at_bottom):
        return  # S4 先清为落: a 清 seat plays on, and may be the one left while every other seat went out
    fixed = o.placed_before_play() | {s for _, s in _placed_from_bottom(rules, o)}
    for places in _before_choice(rules, o.places):
        left = max((places[s] for s in range(6) if s not in fixed), default=0)
        if all(places[b] != left for b in burners):
            return
    raise _illegal(
        "places: a successful burner went out, so he is not the last seat left in play", "burn_went_out", BURN
    )


def opened_in_play(rules: Rules, opened: Sequence[int], chongdian: Sequence[tuple[int, bool]]) -> list[int]:
    """The seats of ``opened`` that a 冲点 did not decide: what a scorer enters as ``opened``."""
    by_chong = {s for s, _ in chongdian} | {rules.chongdian_opens(s, ok) for s, ok in chongdian}
    return [s for s in opened if s not in by_chong]


def can_outcome(rules: Rules, o: Outcome) -> bool:
    """Is ``o`` a result these rules allow? :func:`verify_outcome` as a bool, for forms that only need to know."""
    try:
        verify_outcome(rules, o)
    except IllegalAction:
        return False
    return True


def settle_outcome(rules: Rules, o: Outcome) -> tuple[Settlement, list[Debt]]:
    """Verify, score with :func:`settle`, and take the waived tributes out of what is owed next hand.

    Returns the settlement and the debts still owed.
    """
    verify_outcome(rules, o)
    settlement = settle(rules, o.hand_result(rules))
    debts = list(settlement.debts)
    for giver, receiver in o.waived:
        hit = next(
            (
                d
                for d in debts
                if (d.giver, d.receiver) == (giver, receiver) and rules.may_waive(d.kind, giver, receiver)
            ),
            None,
        )
        if hit is None:
            raise _illegal(
                f"waive {giver}:{receiver}: no tribute from seat {giver} to its partner seat {receiver} "
                "that may be waived",
                "waive",
                WAIVE,
            )
        debts.remove(hit)
    return settlement, _settle_choices(rules, o, debts)


def _settle_choices(rules: Rules, o: Outcome, debts: list[Debt]) -> list[Debt]:
    """The debts still owed once each registered phase settled the choices entered for it
    (``ClubEntry.settle``); a phase the variant does not play takes none."""
    from ..phases.base import club_entries

    entries = club_entries()
    for name, pairs in o.choices.items():
        if not pairs:
            continue
        phase = entries.get(name)
        if phase is None or phase.entry is None:
            raise _illegal(f"{name}: no phase takes this choice (known: {', '.join(entries) or 'none'})", name, "")
        if not phase.enabled(rules):
            raise _illegal(f"{name}: {rules.name} has no {phase.zh} ({phase.en})", name, "")
        debts = phase.entry.settle(rules, list(debts), list(pairs))
    return debts


__all__ = ["Outcome", "can_outcome", "opened_in_play", "settle_outcome", "verify_outcome"]
