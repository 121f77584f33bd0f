"""A compare names the guards of the weights its learned agent plays with (schema 6): a finding about
4s or burns then speaks partly for the guard, and the reader is told so in every format."""

from gouji_rules.catalog import resolve
from gouji_rules.compare import compare
from gouji_rules.compare.html import render_html
from gouji_rules.compare.report import render_text
from gouji_rules.learn.agent import shipped_weights, weights_of


def test_each_strength_row_names_the_guards_of_the_weights_played() -> None:
    doc = compare(["dagang", "dianshaomenla"], 2, seed=1, agents="learned,greedy")
    learned, greedy = doc["sides"]
    for row in learned["strength"]:
        meta = shipped_weights(weights_of(resolve(row["variant"])))[1]
        assert row["guards"] == list(meta.get("guards", []))
    assert all(row["guards"] is None for row in greedy["strength"])


def test_the_text_and_the_page_say_what_a_guard_does() -> None:
    doc = compare(["dagang", "dianshaomenla"], 2, seed=1, agents="learned,greedy")
    for row in doc["sides"][0]["strength"]:
        row["guards"] = ["fours_before_open", "jokerless_burn"]
    text, page = render_text(doc), render_html(doc)
    said = " ".join(text.split())
    assert "learned is guarded against fours_before_open, jokerless_burn: where its network would make one" in said
    zh = "learned 有防错：它的网络要没开点先出4、手里没王就烧牌时，改出它认为最好的另一手。"
    assert "".join(zh.split()) in "".join(text.split())  # the summary wraps Chinese between any two characters
    assert '<p class="guards">' in page and "没开点先出4" in page
    for row in doc["sides"][0]["strength"]:
        row["guards"] = []
    assert "guarded" not in render_text(doc) and "防错" not in render_html(doc)
