"""gouji_rules.play.blunders: each blunder on a built position, where it happens and where not."""

from __future__ import annotations

from gouji_rules.catalog import dagang
from gouji_rules.game.actions import Burn, Play
from gouji_rules.game.cards import parse_hand, parse_set
from gouji_rules.game.legal import Legal
from gouji_rules.play.blunders import fours_before_open, jokerless_burn, lone_big_joker
from gouji_rules.play.observe import Observation

RULES = dagang().rules


def obs(mode: str, hand: str, point: str = "none", table: str | None = None) -> Observation:
    return Observation(
        seat=0,
        mode=mode,
        hand=parse_hand(hand),
        table=parse_set(table) if table else None,
        table_owner=1 if table else -1,
        cards_left=(-1,) * 6,
        active=(True,) * 6,
        finish=(),
        point=(point, "none", "none", "none", "none", "none"),
        no_head=(False,) * 6,
        burning=-1,
        free_for_all=False,
        events=(),
        rules=RULES,
    )


def legal(*sets: str, burn: bool = False) -> Legal:
    return Legal(sets=[parse_set(s) for s in sets], burn=burn)


PURE = "44JJJJJ7"  # JJJJJ: a pure 够级 set under dagang (J needs 5)


def test_fours_led_before_opening_with_a_pure_set_in_hand() -> None:
    o = obs("lead", PURE)
    assert fours_before_open(o, legal("44", "JJJJJ", "7"), Play(parse_set("44"))) is True
    assert fours_before_open(o, legal("44", "JJJJJ", "7"), Play(parse_set("JJJJJ"))) is False


def test_fours_are_no_blunder_without_a_pure_set_or_once_pending() -> None:
    assert fours_before_open(obs("lead", "44JJ7"), legal("44"), Play(parse_set("44"))) is None
    assert fours_before_open(obs("lead", PURE, "pending"), legal("44"), Play(parse_set("44"))) is None


def test_burn_without_a_joker() -> None:
    o = obs("burn", "22229TT", table="TTTT")
    assert jokerless_burn(o, legal("2222", burn=True), Burn(parse_set("2222"))) is True


def test_burn_with_a_joker_or_only_the_last_3s_after() -> None:
    with_joker = obs("burn", "22229BJ", table="TTTT")
    assert jokerless_burn(with_joker, legal("2222", burn=True), Burn(parse_set("2222"))) is False
    last_threes = obs("burn", "222233", table="TTTT")
    assert jokerless_burn(last_threes, legal("2222", burn=True), Burn(parse_set("2222"))) is False
    assert jokerless_burn(with_joker, legal("2222", burn=True), Play(parse_set("2222"))) is None


def test_lone_big_joker_while_a_set_could_carry_it() -> None:
    o = obs("lead", "99BJ")
    assert lone_big_joker(o, legal("BJ", "99+BJ", "99"), Play(parse_set("BJ"))) is True
    assert lone_big_joker(o, legal("BJ", "99+BJ", "99"), Play(parse_set("99+BJ"))) is None


def test_lone_big_joker_when_nothing_could_carry_it() -> None:
    o = obs("follow", "9BJ", table="A")
    assert lone_big_joker(o, legal("BJ"), Play(parse_set("BJ"))) is False
