"""Issue 10 item 2, issue 24 items 2 and 6: a beat strategy, a tribute kind with its own option and
a declaration registered from outside the package (this module) are played, offered by the schema,
shown on the rule sheet and priced by settlement, with no other file touched; a tribute kind is
paid only where the variant names it.

The classes below are the ones docs/extending.md walks through."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from gouji_rules import dsl
from gouji_rules.catalog import dagang
from gouji_rules.compare import compare, hand_metrics
from gouji_rules.dsl.explain import explain
from gouji_rules.dsl.schema import generate
from gouji_rules.game.cards import CardSet
from gouji_rules.parts.options import Option
from gouji_rules.parts.registry import BEAT_STRATEGIES, DECLARATIONS, TRIBUTE_KINDS
from gouji_rules.play.agents import RandomAgent
from gouji_rules.play.match import play_match
from gouji_rules.rules import Rules
from gouji_rules.rules.beat import register_beat, same_size_followers
from gouji_rules.rules.declarations import Declaration, register_declaration
from gouji_rules.rules.settlement import Debt, HandResult, settle
from gouji_rules.rules.tributes import TributeKind, register_tribute
from gouji_rules.sim import simulate, simulate_matches
from gouji_rules.variant import SetsRules, TributeRules, make_variant, with_legacy


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
    """末游贡: last place pays first place, whatever else is owed; how many cards is its own option."""

    name = "last_to_first"
    zh = "末游贡：大落再给头科"
    en = "last to first: last place pays first place"
    value = 9
    reads = ()
    options = (
        Option("count", int, 1, "末游贡张数", "cards last place pays first place", legacy=1, minimum=0, maximum=4),
    )

    def __init__(self, rules: Rules, tribute: TributeRules) -> None:
        super().__init__(rules, tribute)
        self.count = rules.extension_options(self)["count"]

    def debts(self, rules: Rules, result: HandResult) -> list[Debt]:
        places = list(result.places)
        return [self.debt(places.index(6), places.index(1), self.count)]


class Baodian(Declaration):
    """报点: after the deal, bet that one's opposite will not open, at a stake of the variant's choosing."""

    name = "baodian"
    zh = "报点：出牌前宣称对门本局不开点"
    en = "报点: before play, bet that your opposite will not open"
    phase = "xuandian"  # asked with 宣点 / 和点, after the deal
    options = (Option("stake", int, 3, "报点输赢的点贡张数", "点贡 cards at stake", legacy=3, minimum=0),)


@pytest.fixture
def registered() -> Iterator[None]:
    register_beat(TopCard)
    register_tribute(LastToFirst)
    register_declaration(Baodian)
    yield
    BEAT_STRATEGIES.unregister("top_card")
    TRIBUTE_KINDS.unregister("last_to_first")
    DECLARATIONS.unregister("baodian")


ORDER = ["point", "burn", "men", "place", "last_to_first"]


def test_a_registered_beat_strategy_plays_200_hands(registered: None) -> None:
    v = dagang().replace(name="top", sets={"beat": "top_card"})
    assert type(v.rules.beat) is TopCard
    out = simulate(v, 200, 5, "random")
    assert out["hands"] == 200 and out["events"]["play"] > 0


def test_a_registered_tribute_kind_is_paid_only_where_the_order_names_it(registered: None) -> None:
    result = HandResult(places=[1, 2, 3, 4, 5, 6], opened=[True] * 6)
    assert [d.kind for d in settle(dagang(), result).debts] == ["place", "place"]  # dagang owes it nothing
    v = dagang().replace(name="ltf", tribute={"order": ORDER})
    assert settle(v, result).debts[-1] == Debt("last_to_first", 5, 0, 1)
    two = v.replace(tribute={"kinds": {"last_to_first": {"count": 2}}})
    assert settle(two, result).debts[-1] == Debt("last_to_first", 5, 0, 2)  # its own option


def test_a_registered_tribute_kind_is_paid_over_200_hands(registered: None) -> None:
    v = dagang().replace(name="ltf", tribute={"order": ORDER, "waivable": []})
    agents = [RandomAgent() for _ in range(6)]
    matches = [play_match(v, seed, 8, agents) for seed in range(25)]
    assert sum(len(m.summaries) for m in matches) == 200
    paid = [e for m in matches for e in m.all_events if e.type == "tribute" and e.value == LastToFirst.value]
    assert paid  # the new kind's cards change hands, tagged with its own event value


def test_a_registered_tribute_kind_is_a_compare_metric(registered: None) -> None:
    """docs/extending.md: compare's ``owed_<kind>`` metrics come from the registry when a comparison runs,
    so a kind registered after gouji_rules.compare was imported is measured, and counts what it demands."""
    v = dagang().replace(name="ltf", tribute={"order": ORDER, "waivable": []})
    doc = compare([dagang(), v], 4, seed=1)
    assert "owed_last_to_first" in [m["id"] for m in doc["metrics"]]
    owed = [r["metrics"]["owed_last_to_first"]["mean"] for r in doc["results"]]
    assert owed == [0, 1]  # every hand of ltf owes one such card; dagang does not name the kind
    TRIBUTE_KINDS.unregister("last_to_first")
    assert "owed_last_to_first" not in [m.id for m in hand_metrics()]
    register_tribute(LastToFirst)


def test_registered_entries_are_schema_choices_at_once(registered: None) -> None:
    props = generate()["properties"]
    assert "top_card" in props["sets"]["properties"]["beat"]["enum"]
    assert "last_to_first" in props["tribute"]["properties"]["order"]["items"]["enum"]
    count = props["tribute"]["properties"]["kinds"]["properties"]["last_to_first"]["properties"]["count"]
    assert (count["type"], count["default"], count["minimum"], count["maximum"]) == ("integer", 1, 0, 4)
    assert "末游贡张数" in count["description"]
    stake = props["declare"]["properties"]["kinds"]["properties"]["baodian"]["properties"]["stake"]
    assert stake["default"] == 3


CLUB = """\
extends: dagang
name: ltf
tribute:
  order: [point, burn, men, place, last_to_first]
  kinds:
    last_to_first: {count: 3}
"""


def test_a_file_sets_a_kinds_option_and_the_sheet_shows_it(registered: None) -> None:
    v = dsl.load_text(CLUB, "ltf.yaml")
    assert v.rules.tribute_kind("last_to_first").count == 3
    assert "末游贡张数：3" in explain(v) and "cards last place pays first place: 3" in explain(v, "en")
    assert "末游贡" not in explain(dagang())


def test_a_bad_option_value_or_name_is_an_error_at_its_place(registered: None) -> None:
    checked = dsl.check_text(CLUB.replace("count: 3", "count: 9"), "ltf.yaml")
    assert [(e.line, "maximum" in e.message or "4" in e.message) for e in checked.errors] == [(6, True)]
    checked = dsl.check_text(CLUB.replace("count: 3", "cuont: 3"), "ltf.yaml")
    (error,) = checked.errors
    assert error.line == 6 and "count" in str(error)


def test_options_of_a_kind_the_order_does_not_name_warn_they_have_no_effect(registered: None) -> None:
    checked = dsl.check_text(CLUB.replace("place, last_to_first]", "place]"), "ltf.yaml")
    assert not checked.errors
    assert any("tribute.kinds.last_to_first has no effect" in w.message for w in checked.warnings)


def test_the_rules_data_carries_the_options_of_the_kinds_it_names(registered: None) -> None:
    assert "kinds" not in dagang().to_dict()["tribute"]  # a variant naming no extension: the data it always had
    v = dagang().replace(name="ltf", tribute={"order": ORDER})
    data = v.to_dict()
    assert data["tribute"]["kinds"] == {"last_to_first": {"count": 1}}  # the default, written out
    assert make_variant(data).fingerprint() == v.fingerprint()
    assert v.fingerprint() != v.replace(tribute={"kinds": {"last_to_first": {"count": 2}}}).fingerprint()
    del data["tribute"]["kinds"]["last_to_first"]["count"]  # a copy written before the option existed
    assert with_legacy(data)["tribute"]["kinds"]["last_to_first"] == {"count": LastToFirst.options[0].legacy}


def test_a_registered_declaration_is_asked_where_the_variant_names_it(registered: None) -> None:
    assert not dagang().rules.can_declare("baodian")
    v = dagang().replace(name="bao", declare={"kinds": {"baodian": {"stake": 5}}})
    assert v.rules.can_declare("baodian") and v.rules.declaration("baodian").stake == 5
    result = HandResult(places=[1, 2, 3, 4, 5, 6], opened=[False] * 6, declarations=[("baodian", 0)])
    assert Debt("point", 3, 0, 5) in settle(v, result).debts  # the opposite did not open: he pays the stake
    agents = [RandomAgent() for _ in range(6)]
    matches = [play_match(v, seed, 4, agents) for seed in range(10)]
    declared = [e for m in matches for e in m.all_events if e.type == "baodian"]
    assert declared and all(e.other == (e.seat + 3) % 6 for e in declared)
    out = simulate_matches(v, 40, 4, 3, "random")
    assert out["events"].get("baodian", 0) > 0  # simulate counts an extension's own events too


def test_an_unknown_strategy_names_the_nearest() -> None:
    from gouji_rules.errors import VariantError

    with pytest.raises(VariantError, match="did you mean 'kill_table'"):
        dagang().replace(name="x", sets={"beat": "kill_tabel"}).rules  # noqa: B018


def test_gouji_diff_and_compare_show_a_kinds_option_that_differs(registered: None) -> None:
    from gouji_rules.compare.rulediff import rule_differences
    from gouji_rules.dsl.diff import format_diff

    one = dagang().replace(name="one", tribute={"order": ORDER})
    two = one.replace(name="two", tribute={"kinds": {"last_to_first": {"count": 2}}})
    assert "tribute.kinds.last_to_first.count" in format_diff(one, two, "en")
    assert "末游贡张数" in format_diff(one, two)
    (row,) = [r for r in rule_differences([one, two]) if r["path"].startswith("tribute.kinds")]
    assert row["values"] == [1, 2] and row["governs"]["between_hands"]
    assert [r["values"] for r in rule_differences([dagang(), one]) if r["path"].startswith("tribute.kinds")] == [
        [None, 1]
    ]


def test_a_built_in_kind_the_order_leaves_out_is_not_paid_and_a_file_is_warned() -> None:
    """S4 第十四条(一) 「进贡顺序为点贡、烧贡、清贡、落贡」 names the kinds paid; a club order that leaves 烧贡
    out pays none of it (before issue 24 it was paid last), and ``gouji validate`` says so."""
    result = HandResult(places=[1, 2, 3, 4, 5, 6], opened=[True] * 6, burns=[(0, 1)])
    assert "burn" in [d.kind for d in settle(dagang(), result).debts]
    short = dagang().replace(name="short", tribute={"order": ["point", "men", "place"]})
    assert [d.kind for d in settle(short, result).debts] == ["place", "place"]
    checked = dsl.check_text("extends: dagang\nname: short\ntribute: {order: [point, men, place]}\n", "short.yaml")
    assert [w.message for w in checked.warnings if "leaves out burn" in w.message]


def test_with_legacy_leaves_the_copy_it_was_given_as_it_was(registered: None) -> None:
    data = dagang().replace(name="ltf", tribute={"order": ORDER}).to_dict()
    del data["tribute"]["kinds"]["last_to_first"]["count"]
    with_legacy(data)
    assert data["tribute"]["kinds"] == {"last_to_first": {}}
