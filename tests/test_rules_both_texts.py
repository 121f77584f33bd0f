"""Rules of S0 and S4 played together in one club file, where neither text speaks of their meeting
(docs/rules.md records the engine's reading)."""

from gouji_rules.catalog import resolve
from gouji_rules.play.agents import GreedyAgent
from gouji_rules.play.match import Match
from gouji_rules.records.verify import verify_record


def test_geming_and_chongdian_in_one_hand_take_distinct_places(tmp_path) -> None:
    """S4 第二十一条 places a 革命 seat 四科 and S0 十、冲点 a 冲点 player 四客: in one hand the 革命 seat keeps
    四科 and the 冲点 player takes the next place down (the match used to stop at that hand)."""
    f = tmp_path / "both.yaml"
    f.write_text("extends: dagang\nname: both\nchongdian:\n  enabled: true\n", encoding="utf-8")
    variant = resolve(str(f))
    m = Match(variant, 0, hands=8)
    agents = [GreedyAgent() for _ in range(6)]
    while not m.is_over:
        m.apply(agents[m.turn].act(m.observation(m.turn), m.legal_actions()))
    setup = m.summaries[6].record["setup"]
    assert setup["geming"] == [3] and setup["placed"] == {"3": 4, "2": 5}
    assert m.summaries[6].places[3] == 4 and m.summaries[6].places[2] == 5
    assert verify_record(variant, m.summaries[6].record) is None
