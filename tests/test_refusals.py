"""Refusals that name the clause they come from, in the situations that used to get only the
generic ``not_legal`` or a reason rebuilt after the fact (issue 24 item 4)."""

from __future__ import annotations

from gouji_rules import dsl
from gouji_rules.game.actions import Choose, Declare, Forfeit
from gouji_rules.play.engine import CONSENT, FOLLOW, KOU_MODE

from .conftest import S4, act, illegal, legal, pos

LOW = "4"
OUT = ""
ALL_OPEN = {s: "open" for s in range(6)}


def test_s4_art7_kou_is_the_only_answer_to_a_dead_set() -> None:
    """第七条 “对死牌必须作“扣牌”处理，对头互为法定扣牌人”: the opposite may not pass on a dead set."""
    h = pos(S4, ["55", LOW, LOW, "66", LOW, LOW], table="2+BJ", owner=0)
    assert (h.turn, h.mode) == (3, KOU_MODE)
    e = illegal(h, "pass", "kou")
    assert e.clause == "S4 第七条" and "kou" in e.message
    assert illegal(h, "agree", "consent").clause == "S4 第十三条"


def test_s4_art13_a_request_is_answered_by_agree_or_refuse() -> None:
    """第十三条 “如其余持牌人均同意”: a seat asked about a 接风 request agrees or refuses, nothing else."""
    h = pos(S4, ["55", "6677", "88", "99", "TT", "JJ"])
    act(h, "55", "jiefeng")
    assert (h.turn, h.mode) == (2, CONSENT)
    assert legal(h) == {"agree", "refuse"}
    for word in ("pass", "88", "kou"):
        e = illegal(h, word)
        assert e.rule in ("consent", "kou") and e.clause.startswith("S4 第"), str(e)
    assert illegal(h, "88", "consent").clause == "S4 第十三条"


def test_s4_art13_jiefeng_is_asked_once_per_set() -> None:
    """“如其余持牌人均同意” — once refused, the requester answers the set; he does not ask again."""
    h = pos(S4, ["55", "6677", "88", "99", "TT", "JJ"])
    act(h, "55", "jiefeng", "agree", "refuse")
    assert (h.turn, h.mode) == (1, FOLLOW)
    assert "refused" in illegal(h, "jiefeng", "jiefeng").message


def test_s4_art4_yield_only_on_the_opposites_set() -> None:
    """第四条 让牌 “对让牌人顺的牌，唯有对头才有让牌权”: the seat after the owner may not yield."""
    h = pos(S4, ["55JJ", "66", "66", "77", "44", "44"])
    act(h, "55")
    e = illegal(h, "yield", "yield")
    assert "opposite" in e.message and "第四条 让牌" in e.clause


def test_s4_art11_no_yield_in_free_for_all() -> None:
    """第十一条 “其余四人不再按够级、过牌、让牌、烧牌等规则进行”."""
    h = pos(S4, ["5566", OUT, "997", "TJ", OUT, "88"], out=[1, 4])
    act(h, "55", "pass")
    assert h.turn == 3 and h.ffa
    assert illegal(h, "yield", "yield").clause == "S4 第十一条"


def test_s4_art5_a_choice_between_hands_is_not_an_answer() -> None:
    """第五条 过牌 “上家发牌后，下家有顺牌或不顺牌的权利”: facing a set, a seat plays or passes; a
    declaration or a purchase is a choice between hands."""
    h = pos(S4, ["55JJ", "66", "66", "77", "44", "44"])
    act(h, "55")
    for a in (Declare("xuandian"), Choose("buy4")):
        e = illegal(h, a, "decision_kind")
        assert e.clause == "S4 第五条 过牌" and "pass" in e.message


def test_s4_art4_1_a_wrong_play_is_never_chosen() -> None:
    """第四条(一) 错牌不出: a lost turn is what ``Hand.forfeit`` records, never a choice of the seat."""
    h = pos(S4, ["55JJ", "66", "66", "77", "44", "44"])
    e = h.refusal(Forfeit())
    assert e is not None and (e.rule, e.clause) == ("wrong_play", "S4 第四条(一)")
    assert not h.can_apply(Forfeit())


def test_s4_art9_threes_answer_only_as_the_last_set_under_a_beats_hook() -> None:
    """第九条 “每个玩家出的最后一手牌的牌点必须都是3，不是最后一手牌时不许出3”: a club's ``beats`` hook that
    lets a 3 beat a single does not lift 憋3; the generator and the refusal agree."""
    club = dsl.load_text(
        "extends: dagang\nname: threes_beat\nhooks:\n  beats: \"default or (rank == '3' and size == table_size)\"\n",
        "<threes_beat>",
    )
    h = pos(club, ["55", "36", LOW, LOW, LOW, LOW])
    act(h, "5")
    assert h.turn == 1 and legal(h) == {"6", "pass"}
    assert "最后" in illegal(h, "3", "bie3").clause
    h = pos(club, ["55", "3", LOW, LOW, LOW, LOW])
    act(h, "5")
    assert h.turn == 1 and legal(h) == {"3", "pass"}
    assert h.refusal(h.legal_actions()[0]) is None
