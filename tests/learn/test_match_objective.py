"""The match objective (issue 32, deliver 1 and 2): a decision is valued by its hand's score plus what
the hand carries into the next (``learn.carry``), and the decisions between hands are learned too."""

import numpy as np
import pytest

from gouji_rules.catalog import dagang
from gouji_rules.env import features as ef
from gouji_rules.game.hand_setup import Debt
from gouji_rules.learn.carry import LEADER, CarryValue, features, fit_carry
from gouji_rules.learn.features import ACT_SIZE, OBS_SIZE, PLAY_MODES
from gouji_rules.learn.net import QNet
from gouji_rules.learn.selfplay import SelfPlayUnit, _match_return, match_start, run_selfplay
from gouji_rules.learn.train import TrainConfig, Trainer
from gouji_rules.play.agents import GreedyAgent
from gouji_rules.play.match import HandSummary, Match, play_match

TINY = (16, 8, 8)


def _summary(debts: list[Debt], places: list[int]) -> HandSummary:
    return HandSummary(0, 1, 0, places, (0, 0), None, debts)


def test_carried_debts_count_for_the_receiving_team_and_teammates_debts_not_at_all() -> None:
    rules = dagang().rules
    places = [1, 4, 2, 5, 3, 6]  # team 0 (seats 0 2 4) took 1-3: its 串三户
    debts = [Debt("point", 1, 0, 2), Debt("place", 5, 0, 1, returned=True), Debt("burn", 0, 2, 3)]
    f = features(rules, _summary(debts, places))
    assert f["point"] == 2.0 and f["place.returned"] == 1.0 and "burn" not in f  # seat 0 → 2: one team
    f1 = features(rules, _summary([Debt("point", 0, 1, 2)], places))
    assert f1["point"] == -2.0  # team 0 gives: the value is team 1's
    assert f[LEADER] in (-1.0, 0.0, 1.0)


def test_the_match_return_adds_the_carry_value_for_the_deciding_team() -> None:
    m = play_match(dagang(), 11, 1, [GreedyAgent() for _ in range(6)])
    s = m.summaries[-1]
    fs = features(m.rules, s)
    price = CarryValue({k: 0.5 for k in fs})
    plain = _match_return(m, 0, CarryValue(), 4.0)
    assert plain == (m.scores[0] - m.scores[1]) / 4.0
    extra = sum(0.5 * x for x in fs.values())
    assert _match_return(m, 0, price, 4.0) == pytest.approx(plain + extra)
    assert _match_return(m, 1, price, 4.0) == pytest.approx(-plain - extra)


def test_fitted_prices_are_finite_and_name_what_they_were_fitted_on() -> None:
    c = fit_carry([dagang()], 8, 3)
    meta = c.to_meta()
    assert meta["hands"] == 8 * 7 and meta["fitted_over"] == ["dagang"] and meta["agents"] == "greedy"
    assert all(np.isfinite(v) for v in meta["prices"].values())
    assert CarryValue.from_meta(meta).prices == pytest.approx(c.prices, abs=1e-5)
    assert CarryValue.from_meta({"prices": {"point": float("nan")}}).prices == {}  # a damaged meta prices nothing


def test_match_units_start_after_a_drawn_hand_so_the_tribute_is_played() -> None:
    starts = [match_start(seed) for seed in range(64)]
    fresh = sum(s is None for s in starts)
    assert 2 <= fresh <= 20  # about one in eight is a match's first hand
    assert all(sorted(s) == [1, 2, 3, 4, 5, 6] for s in starts if s is not None)
    m = Match(dagang(), 5, hands=1, last_places=starts[1] or [1, 2, 3, 4, 5, 6])
    assert m.phase != "play" or m.hand is not None


def test_match_units_branch_at_decisions_between_hands_and_learn_their_kinds() -> None:
    net = QNet(OBS_SIZE, ACT_SIZE, TINY)
    unit = SelfPlayUnit(0, 5, "dagang", 3, net.p, net.hidden, 0.0, True, 3, 0.05, True, between_rate=1.0)
    unit = SelfPlayUnit(**{**unit.__dict__, "carry": {"point": 0.2, "place": 0.1}})
    s = run_selfplay(unit)
    cols = {m: ef.MODE_AT + ef.MODE_COLUMN[m] for m in ef.MODES if m in ef.MODE_COLUMN}
    kinds = {m for m, c in cols.items() if (s.obs[:, c] > 0).any()}
    assert kinds & PLAY_MODES and kinds - PLAY_MODES  # play and the phases before it both branch
    assert run_selfplay(unit).target.tolist() == s.target.tolist()  # seeded


def test_a_match_run_keeps_its_prices_learns_every_kind_and_resumes_only_as_one(tmp_path) -> None:
    out = str(tmp_path / "run")
    cfg = TrainConfig("dagang", out, hands_per_unit=1, batch=32, hidden=TINY, eval_every=10**6, objective="match")
    cfg.carry_matches = 10
    t = Trainer(cfg)
    prices = dict(t.cfg.carry or {})
    assert prices["hands"] == 10 * 7
    t.run(max_decisions=400)
    meta = t.meta()
    assert meta["objective"] == "match" and set(meta["learned_kinds"]) == set(ef.MODES)
    again = Trainer(TrainConfig("dagang", out, hidden=TINY, objective="match", carry_matches=99))
    assert again.resumed and again.cfg.carry == prices  # the run's own prices, not fitted anew
    with pytest.raises(Exception, match="objective match, not hand"):
        Trainer(TrainConfig("dagang", out, hidden=TINY))


def test_a_hand_the_engine_stops_leaves_no_samples_and_the_unit_goes_on(monkeypatch) -> None:
    """Under some club files every deal is void (two seats that cannot pay declare 革命 each time) and the
    match stops after 50 redeals with a GoujiError: that hand gives nothing, the rest of the unit plays."""
    import gouji_rules.learn.selfplay as sp
    from gouji_rules.errors import GoujiError

    net = QNet(OBS_SIZE, ACT_SIZE, TINY)
    one = SelfPlayUnit(0, 5, "dagang", 1, net.p, net.hidden, 0.0, True, 3, 0.05, True, carry={"point": 0.2})
    two = SelfPlayUnit(**{**one.__dict__, "hands": 2})
    alone = run_selfplay(one)
    stopped = sp.unit_seed(5, 0, 1, 2)

    class Stops(Match):
        def apply(self, action, seat=None):  # type: ignore[no-untyped-def]
            if self.seed == stopped and self.decisions > 30:
                raise GoujiError("hand 1 was redealt 50 times")
            super().apply(action, seat)

    monkeypatch.setattr(sp, "Match", Stops)
    both = run_selfplay(two)
    assert both.target.tolist() == alone.target.tolist() and both.hands == 2


def test_a_bad_scheduler_address_is_a_usage_error_and_leaves_no_run_folder(tmp_path) -> None:
    """`gouji train --scheduler '!!!'` printed a traceback and left an empty run folder."""
    from click.testing import CliRunner

    from gouji_rules.cli import main

    out = tmp_path / "run"
    r = CliRunner().invoke(main, ["train", "--out", str(out), "--scheduler", "!!!", "--decisions", "10"])
    assert r.exit_code == 2 and "not a scheduler address" in r.output and "Traceback" not in r.output
    assert not out.exists()
