"""Match.phase and Decision.kind are a typed DecisionKind whose values stay the strings records use."""

import json

from gouji_rules.catalog import dagang
from gouji_rules.phases import DecisionKind
from gouji_rules.play.match import Match


def test_decision_kind_values_are_the_record_strings() -> None:
    assert DecisionKind.CHONG_SET == "chong_set"
    assert json.dumps([DecisionKind.BUY4, DecisionKind.YUDIAN]) == '["buy4", "yudian"]'
    assert f"{DecisionKind.PLAY}" == "play"
    assert DecisionKind("mingdian") is DecisionKind.MINGDIAN


def test_match_phase_is_a_decision_kind_until_over() -> None:
    m = Match(dagang(), seed=3, hands=1)
    seen = set()
    while m.phase != DecisionKind.OVER:
        assert isinstance(m.phase, DecisionKind)
        seen.add(m.phase)
        m.apply(next(iter(m.legal_actions())))
    assert isinstance(m.phase, DecisionKind)
    assert DecisionKind.PLAY in seen
