"""Issue 33 item 6 (复盘): a seat's decisions reviewed against the learned agent.

The pair of records in :mod:`blunder` differ in one decision of seat 0: passing where the big joker
takes the lead, or playing it.  Worlds are kept tiny (four a decision); nothing here is timed.
"""

from __future__ import annotations

import pytest

from gouji_rules.game.rng import SplitMix64, derive
from gouji_rules.review import (
    DISPUTED,
    DISPUTED_AT,
    FINE,
    MISTAKE,
    MISTAKE_AT,
    UNJUDGED,
    Budget,
    Choice,
    Decision,
    HandReview,
    Interval,
    Review,
    Reviewer,
    review_hand,
    verdict_of,
)
from gouji_rules.review.core import seat_decisions
from gouji_rules.review.values import interval, paired_values
from gouji_rules.tournament.errors import InputError

from .conftest import Pair

TINY = Budget(worlds=4, candidates=2, seed=0)


def test_passing_the_winning_joker_is_a_mistake_and_playing_it_is_not(pair: Pair) -> None:
    v, bad, good, at, first = pair
    rv = Reviewer(TINY)
    [sound, blunder] = review_hand(v, bad, 0, reviewer=rv, steps={at, first}).decisions
    assert (blunder.step, blunder.played.action, blunder.best.action) == (at, "pass", "BJ")
    assert blunder.verdict == MISTAKE and blunder.diff.low is not None and blunder.diff.low >= MISTAKE_AT
    assert blunder.played.zh == "过牌" and blunder.best.zh == "出 BJ"
    assert sound.verdict != MISTAKE  # greedy's own first move
    [kept] = review_hand(v, good, 0, reviewer=rv, steps={at}).decisions
    assert kept.played.action == "BJ" and kept.agreed and kept.verdict == FINE


def test_the_interval_is_of_the_differences_world_by_world(pair: Pair) -> None:
    """The same worlds for every candidate: the interval is the t-interval of the per-world
    differences, not of two separate means."""
    v, bad, _, _, first = pair
    rv = Reviewer(TINY)
    step, obs, legal, played = next(x for x in seat_decisions(v, bad, 0) if x[0] == first)
    d = rv.decide(obs, legal, played, 1, step)
    ranked = [a for a, _ in rv.ranked(obs, legal)][: TINY.candidates]
    cands = ranked + ([played] if played not in ranked else [])
    seed = derive(TINY.seed, 1, step)
    rows = paired_values(obs, legal, cands, rv.players, SplitMix64(seed), TINY.worlds, seed)
    b = [str(a) for a in cands].index(d.best.action)
    p = cands.index(played)
    assert len(rows) == d.diff.n == TINY.worlds
    assert d.diff == interval([r[b] - r[p] for r in rows])


def test_interval_uses_t_for_few_worlds() -> None:
    i = interval([0.0, 2.0])
    assert (i.mean, i.n) == (1.0, 2)
    assert i.low == pytest.approx(1 - 12.706) and i.high == pytest.approx(1 + 12.706)
    assert interval([1.0]).low is None and interval([]).n == 0


def test_marks_sit_on_the_low_end_of_the_interval() -> None:
    def at(low: float, n: int = 8) -> str:
        return verdict_of(Interval(low + 1, low, low + 2, n))

    assert at(MISTAKE_AT) == MISTAKE and at(0.49) == DISPUTED
    assert at(DISPUTED_AT) == DISPUTED and at(0.19) == FINE and at(-3) == FINE
    assert verdict_of(Interval(2.0, 2.0, 2.0, 3)) == UNJUDGED  # three worlds that agree prove nothing
    assert verdict_of(Interval(2.0, None, None, 1)) == UNJUDGED


def _decision(played: str, best: str, low: float) -> Decision:
    c = Choice(played, played, played, 0.0, 0.0)
    b = Choice(best, best, best, low + 0.1, 0.0)
    iv = Interval(low + 0.1, low, low + 0.2, 8)
    return Decision(1, 1, "follow", 2, c, b, iv, verdict_of(iv), (b, c))


def test_agreement_counts_the_moves_that_were_the_agents_top_choice() -> None:
    ds = (_decision("pass", "pass", 0.0), _decision("K", "K", 0.0), _decision("pass", "BJ", 0.6))
    r = Review("dagang", 2, TINY, (HandReview(1, ds[:2], 5, 1), HandReview(2, ds[2:], 0, 2)))
    assert r.agreement == pytest.approx(2 / 3)
    assert r.count(MISTAKE) == 1
    assert Review("dagang", 2, TINY, (HandReview(1, (), 3, 0),)).agreement is None
    j = r.to_json()
    assert (j["agreement"], j["forced"], j["between_hands"], j["seat"]) == (pytest.approx(2 / 3), 5, 3, 2)


def test_json_keys(pair: Pair) -> None:
    v, bad, _, at, _ = pair
    hr = review_hand(v, bad, 0, TINY, steps={at})
    j = Review(v.name, 0, TINY, (hr,)).to_json()
    assert set(j) == {
        "variant", "seat", "worlds", "candidates", "seed", "mistake_at", "disputed_at", "unit", "decisions",
        "agreement", "mistakes", "disputed", "forced", "between_hands", "hands",
    }  # fmt: skip
    [d] = j["hands"][0]["decisions"]
    assert set(d) == {
        "hand", "step", "mode", "options", "played", "best", "diff", "low", "high", "worlds", "verdict",
        "verdict_zh", "agreed", "hint",
    }  # fmt: skip
    assert d["verdict_zh"] == "失误" and len(d["hint"]) == 2 and d["hint"][0]["zh"] == "出 BJ"
    assert set(d["played"]) == {"action", "zh", "en", "value", "q"}


def test_forced_decisions_are_skipped_and_the_review_is_the_same_under_its_seed(pair: Pair) -> None:
    v, bad, _, _, first = pair
    all_mine = list(seat_decisions(v, bad, 0))
    forced = sum(len(legal) <= 1 for _, _, legal, _ in all_mine)
    hr = review_hand(v, bad, 0, TINY, steps={first})
    assert hr.forced == forced > 0
    again = review_hand(v, bad, 0, TINY, steps={first})
    assert hr == again


def test_the_hint_is_the_agents_first_three_in_words(pair: Pair) -> None:
    v, bad, _, _, first = pair
    _, obs, legal, _ = next(x for x in seat_decisions(v, bad, 0) if x[0] == first)
    hint = Reviewer(TINY).hint(obs, legal)
    assert len(hint) == 3 and all(c.zh.startswith(("出 ", "过牌", "烧 ", "让牌")) for c in hint)
    assert [c.q for c in hint] == sorted((c.q for c in hint), reverse=True)


def test_a_bad_seat_and_a_damaged_record_are_refused(pair: Pair) -> None:
    v, bad, _, _, _ = pair
    with pytest.raises(InputError, match="seats are 0 to 5"):
        review_hand(v, bad, 6, TINY)
    broken = {**bad, "actions": [*bad["actions"][:5], "3:BJBJBJBJ", *bad["actions"][6:]]}
    with pytest.raises(InputError, match="action 6"):
        review_hand(v, broken, 0, TINY, steps=set())
    with pytest.raises(InputError, match="worlds"):
        Budget(worlds=0)


def test_choices_between_hands_are_counted_not_valued() -> None:
    """还贡 and 明点 are the seat's choices; paying tribute and the deal are not; another seat's are not its."""
    from gouji_rules.review.core import between_decisions

    pre = [
        {"type": "deal", "seat": 1},
        {"type": "tribute", "seat": 1, "cards": "2", "other": 4},
        {"type": "return_tribute", "seat": 1, "cards": "5", "other": 4},
        {"type": "mingdian", "seat": 1},
        {"type": "buy4", "seat": 3},
    ]
    assert [between_decisions({"pre_play": pre}, s) for s in range(6)] == [0, 2, 0, 1, 0, 0]
    assert between_decisions({}, 1) == 0


def test_worlds_are_drawn_after_a_seat_went_out_in_a_hand_after_tribute() -> None:
    """After tribute a seat's deal size is not the variant's; a seat that went out must hold nothing
    in the worlds, or none replays its last set (seat 2 of this hand, step 200 on, had none)."""
    from gouji_rules.catalog import dagang
    from gouji_rules.play.agents import make_agent
    from gouji_rules.play.match import play_match

    m = play_match(dagang(), derive(7, 0), 2, [make_agent("greedy") for _ in range(6)])
    record = m.summaries[1].record
    assert record.get("pre_play")  # tribute moved cards before this hand
    hr = review_hand(dagang(), record, 1, Budget(worlds=1, candidates=1))
    assert [d.step for d in hr.decisions if d.diff.n == 0] == []
    assert max(d.step for d in hr.decisions) >= 200


def test_the_page_leads_to_the_mistakes_and_escapes_what_it_shows() -> None:
    from gouji_rules.review.page import render_page

    ds = (_decision("pass", "BJ", 0.6), _decision("K", "K", 0.0))
    page = render_page(Review("<script>x</script>", 0, TINY, (HandReview(3, ds, 0, 0),)))
    assert '<a href="#d1-1">第1手第1步 失误</a>' in page and 'id="d1-1"' in page
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert 'name="viewport" content="width=device-width' in page
