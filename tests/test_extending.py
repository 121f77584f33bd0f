"""Issue 10 item 2: a beat strategy and a tribute kind registered from outside the package (this
module) are played, offered by the schema, and priced by settlement, with no other file touched.

The two classes below are the ones docs/extending.md walks through."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from gouji_rules.agents import RandomAgent
from gouji_rules.beat import register_beat, same_size_followers
from gouji_rules.cards import CardSet
from gouji_rules.catalog import dagang
from gouji_rules.compare import compare, hand_metrics
from gouji_rules.dsl.schema import generate
from gouji_rules.match import play_match
from gouji_rules.registry import BEAT_STRATEGIES, TRIBUTE_KINDS
from gouji_rules.rules import Rules
from gouji_rules.settlement import Debt, HandResult, settle
from gouji_rules.sim import simulate
from gouji_rules.tributes import TributeKind, register_tribute
from gouji_rules.variant import SetsRules, TributeRules


class TopCard:
    """高者胜: same size; the set whose highest card is higher wins (jokers count by their own rank)."""

    name = "top_card"
    zh = "比最大的一张：张数相同，最大的一张牌更大者胜"
    en = "top card: same size, the set whose highest card is higher wins"
    reads: tuple[str, ...] = ()

    def __init__(self, rules: Rules, sets: SetsRules) -> None:
        self.rules = rules

    @staticmethod
    def top(cs: CardSet) -> int:
        return max(r for r, n in cs.card_counts().items() if n)

    def dead(self, t: CardSet) -> bool:
        return self.top(t) >= max(r for r, here in enumerate(self.rules.ranks_present) if here)

    def beats(self, b: CardSet, t: CardSet) -> bool:
        return b.size == t.size and b.rank > t.rank and self.top(b) > self.top(t)

    def followers(self, hand: Sequence[int], t: CardSet) -> list[CardSet]:
        return [] if self.dead(t) else same_size_followers(self.rules, hand, t, self.beats)


class LastToFirst(TributeKind):
    """末游贡: last place pays first place one more card, whatever else is owed."""

    name = "last_to_first"
    zh = "末游贡：大落再给头科一张"
    en = "last to first: last place pays first place one more card"
    value = 9
    reads = ()

    def __init__(self, rules: Rules, tribute: TributeRules) -> None:
        super().__init__(rules, tribute)

    def debts(self, rules: Rules, result: HandResult) -> list[Debt]:
        places = list(result.places)
        return [self.debt(places.index(6), places.index(1), 1)]


@pytest.fixture
def registered() -> Iterator[None]:
    register_beat(TopCard)
    register_tribute(LastToFirst)
    yield
    BEAT_STRATEGIES.unregister("top_card")
    TRIBUTE_KINDS.unregister("last_to_first")


def test_a_registered_beat_strategy_plays_200_hands(registered: None) -> None:
    v = dagang().replace(name="top", sets={"beat": "top_card"})
    assert type(v.rules.beat) is TopCard
    out = simulate(v, 200, 5, "random")
    assert out["hands"] == 200 and out["events"]["play"] > 0


def test_a_registered_tribute_kind_is_paid_over_200_hands(registered: None) -> None:
    order = ["point", "burn", "men", "place", "last_to_first"]
    v = dagang().replace(name="ltf", tribute={"order": order, "waivable": []})
    result = HandResult(places=[1, 2, 3, 4, 5, 6], opened=[True] * 6)
    assert Debt("last_to_first", 5, 0, 1) in settle(v, result).debts
    agents = [RandomAgent() for _ in range(6)]
    matches = [play_match(v, seed, 8, agents) for seed in range(25)]
    assert sum(len(m.summaries) for m in matches) == 200
    paid = [e for m in matches for e in m.all_events if e.type == "tribute" and e.value == LastToFirst.value]
    assert paid  # the new kind's cards change hands, tagged with its own event value


def test_a_registered_tribute_kind_is_a_compare_metric(registered: None) -> None:
    """docs/extending.md: compare's ``owed_<kind>`` metrics come from the registry when a comparison runs,
    so a kind registered after gouji_rules.compare was imported is measured, and counts what it demands."""
    order = ["point", "burn", "men", "place", "last_to_first"]
    v = dagang().replace(name="ltf", tribute={"order": order, "waivable": []})
    doc = compare([dagang(), v], 4, seed=1)
    assert "owed_last_to_first" in [m["id"] for m in doc["metrics"]]
    owed = [r["metrics"]["owed_last_to_first"]["mean"] for r in doc["results"]]
    assert owed == [1, 1]  # every hand owes one such card (a kind the order does not name comes last)
    TRIBUTE_KINDS.unregister("last_to_first")
    assert "owed_last_to_first" not in [m.id for m in hand_metrics()]
    register_tribute(LastToFirst)


def test_registered_entries_are_schema_choices_at_once(registered: None) -> None:
    props = generate()["properties"]
    assert "top_card" in props["sets"]["properties"]["beat"]["enum"]
    assert "last_to_first" in props["tribute"]["properties"]["order"]["items"]["enum"]


def test_an_unknown_strategy_names_the_nearest() -> None:
    from gouji_rules.errors import VariantError

    with pytest.raises(VariantError, match="did you mean 'kill_table'"):
        dagang().replace(name="x", sets={"beat": "kill_tabel"}).rules  # noqa: B018
