"""Card notation: parsing and formatting are inverse (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gouji_rules.errors import NotationError
from gouji_rules.game.actions import Burn, Play, parse_action
from gouji_rules.game.cards import (
    BJ,
    NRANKS,
    SJ,
    SYMBOLS,
    TOP,
    TWO,
    CardSet,
    card,
    format_card,
    format_hand,
    format_set,
    parse_card,
    parse_hand,
    parse_set,
)


@st.composite
def card_sets(draw: st.DrawFn) -> CardSet:
    """Well-formed sets: a core rank, and only attachments higher than the core."""
    rank = draw(st.integers(0, NRANKS - 1))
    count = draw(st.integers(1, 8))
    twos = draw(st.integers(0, 4)) if rank < TWO else 0
    sj = draw(st.integers(0, 4)) if rank < SJ else 0
    bj = draw(st.integers(0, 4)) if rank < BJ else 0
    top = draw(st.integers(0, 3)) if rank < TOP else 0
    return CardSet(rank, count, twos, sj, bj, top)


hands = st.lists(st.integers(0, 9), min_size=NRANKS, max_size=NRANKS).map(tuple)


@given(card_sets())
def test_parse_format_set_identity(cs: CardSet) -> None:
    assert parse_set(format_set(cs)) == cs


@given(card_sets())
def test_format_parse_set_identity(cs: CardSet) -> None:
    text = format_set(cs)
    assert format_set(parse_set(text)) == text
    assert parse_set(text).size == cs.size


@given(hands)
def test_parse_format_hand_identity(counts: tuple[int, ...]) -> None:
    assert parse_hand(format_hand(counts)) == counts
    assert format_hand(parse_hand(format_hand(counts))) == format_hand(counts)


@given(hands, st.randoms(use_true_random=False))
def test_hand_parse_ignores_order_and_separators(counts: tuple[int, ...], rnd: object) -> None:
    tokens = [SYMBOLS[r] if r != 7 else "10" for r in range(NRANKS) for _ in range(counts[r])]
    rnd.shuffle(tokens)  # type: ignore[attr-defined]
    assert parse_hand(" ".join(tokens)) == counts
    assert parse_hand(",".join(tokens)) == counts


@given(card_sets())
def test_set_card_counts_add_up(cs: CardSet) -> None:
    assert sum(cs.card_counts().values()) == cs.size
    assert parse_hand(format_set(cs)) == tuple(cs.card_counts().get(r, 0) for r in range(NRANKS))


@given(st.integers(0, NRANKS - 1), st.integers(0, 3))
def test_parse_format_card_identity(rank: int, suit: int) -> None:
    c = card(rank, 0 if rank >= SJ else suit)
    assert parse_card(format_card(c)) == c


@given(card_sets(), st.booleans())
def test_action_notation_identity(cs: CardSet, burn: bool) -> None:
    a = Burn(cs) if burn else Play(cs)
    assert parse_action(str(a)) == a


def test_set_with_two_core_ranks_is_rejected() -> None:
    """S4 第四条(四): 所发（顺）牌必须是同一点数，不同点数牌不可混合发出，花、钱例外。"""
    with pytest.raises(NotationError):
        parse_set("KKQ")
    assert parse_set("KK2+SJBJ") == CardSet(10, 2, 1, 1, 1, 0)


@pytest.mark.parametrize("text", ["", "X", "KK+Z"])
def test_bad_notation_raises(text: str) -> None:
    with pytest.raises(NotationError):
        parse_set(text)
