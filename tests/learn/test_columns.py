"""The learned agent's input read by column name (issue 31, item 3): the session-7 weights (shipped until
session 14, dagang's kept in ``tests/learn/data``), converted to format 2, play as they played; a column
added since a file was trained gets zero weights, exact on every position it was trained on; a kind the
weights never learned goes to the kind's default chooser."""

import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from gouji_rules.catalog import dagang, resolve
from gouji_rules.env.features import MODES
from gouji_rules.game.actions import PASS, Action, Choose
from gouji_rules.game.legal import Legal
from gouji_rules.learn.agent import LearnedAgent, shipped_fit, shipped_path
from gouji_rules.learn.checkpoint import columns_of, fit_columns, load_weights
from gouji_rules.learn.features import ACT_COLUMNS, OBS_COLUMNS, PLAY_MODES, Featurizer
from gouji_rules.learn.net import WeightsError
from gouji_rules.learn.rulecols import RULE_COLUMNS
from gouji_rules.phases.base import Decision, DecisionKind, HandPrep, register_phase, unregister_phase
from gouji_rules.play.match import Match
from gouji_rules.play.observe import Observation
from gouji_rules.sim import play_hand

ROOT = Path(__file__).resolve().parents[2]
BEFORE = {  # taken with the session-7 files in format 1 and the hand-kept layout, before the conversion
    "dagang": ("cef1bf08cd749cff", "7c36aec00745d15d", 2233),
    "dianshaomenla": ("0cedb42e17eaaf9c", "8e70b23e7cb7161d", 1988),
}


def hands_digest(variant: str, seeds: range = range(6)) -> str:
    """Every event of single hands the shipped weights play in all six seats."""
    h = hashlib.sha256()
    for seed in seeds:
        hand = play_hand(resolve(variant), seed, [LearnedAgent() for _ in range(6)])
        h.update(repr([str(e) for e in hand.events]).encode())
    return h.hexdigest()[:16]


def matches_digest(variant: str, matches: int = 3, hands: int = 3) -> tuple[str, int]:
    """Every decision of matches (between hands too) the shipped weights play in all six seats."""
    h = hashlib.sha256()
    n = 0
    for seed in range(matches):
        agents = [LearnedAgent() for _ in range(6)]
        m = Match(resolve(variant), seed=seed, hands=hands)
        while not m.is_over:
            obs, legal = m.observation(), m.legal_actions()
            a = agents[obs.seat].act(obs, legal)
            h.update(f"{obs.seat} {obs.mode} {a}\n".encode())
            n += 1
            m.apply(a)
    return h.hexdigest()[:16], n


def session7(variant: str) -> Path:
    """The session-7 weights file of a shipped variant (``session7_weights`` in tests/conftest.py plays them)."""
    return ROOT / "tests" / "learn" / "data" / f"{variant}-session7.npz"


@pytest.mark.parametrize("variant", sorted(BEFORE))
def test_the_converted_shipped_weights_make_the_decisions_they_made_before(
    variant: str, session7_weights: None
) -> None:
    hands, match, n = BEFORE[variant]
    assert hands_digest(variant) == hands
    assert matches_digest(variant) == (match, n)


@pytest.mark.parametrize("variant", sorted(BEFORE))
def test_the_shipped_weights_name_every_column_and_the_kinds_they_learned(variant: str, session7_weights: None) -> None:
    _net, meta, _ = load_weights(session7(variant))
    assert meta["net"]["format"] == 2
    # trained before the rule block: they name format 1's columns (the shipped parts'), the block reads 0
    # weights, and so does each column of a part added since (a kind's mode, a word): checked by name, so
    # adding a part to the package edits nothing here (docs/extending.md)
    obs, act = columns_of(meta)
    assert (list(obs), list(act)) == _script().format1_columns()  # type: ignore[attr-defined]
    assert set(meta["learned_kinds"]) == PLAY_MODES
    fit = shipped_fit(variant)[2]
    assert fit.gone == () and tuple(c for c in fit.new if c.startswith("rule.")) == RULE_COLUMNS
    assert all(c.startswith(("rule.", "mode.", "word.")) for c in fit.new)
    assert [c for c in OBS_COLUMNS if c in obs] == list(obs) and [c for c in ACT_COLUMNS if c in act] == list(act)


def _positions(n: int = 40) -> Iterator[tuple[Observation, Legal]]:
    hand = play_hand(dagang(), 2, [LearnedAgent() for _ in range(6)])
    replay = type(hand).deal(dagang(), 2)
    for e in hand.events:
        if replay.is_over or n == 0:
            return
        legal = replay.legal_actions()
        if len(legal) > 1:
            yield replay.observation(replay.turn), legal
            n -= 1
        replay.apply(LearnedAgent().act(replay.observation(replay.turn), legal))
        del e


def test_the_weights_trained_over_the_match_name_the_rule_block_and_learned_every_kind() -> None:
    """The file shipped (one for every variant since session 17, distilled from the files shipped in
    sessions 14 and 15, which were trained with the rules as input) names every ``rule.*`` column, so a
    club's options reach its network, and makes every kind of decision."""
    _net, meta, _ = load_weights(shipped_path())
    obs, _act = columns_of(meta)
    assert [c for c in obs if c.startswith("rule.")] == list(RULE_COLUMNS)
    assert set(meta["learned_kinds"]) == set(MODES) > PLAY_MODES  # tribute (give), 还贡 (accept), 冲点, 革命 …
    assert meta["objective"] == "match" and meta["trained_over"]["variants"] == ["dagang", "dianshaomenla"]
    assert not shipped_fit()[2].gone


def test_a_column_added_since_training_gets_zero_weights_and_changes_no_q(session7_weights: None) -> None:
    """Sound: a new column is 0 in every position the weights were trained on (a new kind's mode, a new
    word's flag), so a zero row leaves every such Q as it was.  A column the file has and the layout
    lacks (a part not registered here) is dropped: here it is 0 too."""
    net, meta, _ = load_weights(session7("dagang"))
    base, act = columns_of(meta)  # the columns the session-7 file names (it predates the rule block)
    obs_cols = (*base[:25], "mode.added", *base[25:])
    act_cols = (*act[:40], "word.added", *act[40:])
    at_obs = [OBS_COLUMNS.index(c) for c in base]  # this layout's rows read by the file's names
    at_act = [ACT_COLUMNS.index(c) for c in act]
    fitted, fit = fit_columns(net, meta, obs_cols, act_cols)
    assert fit.new == ("mode.added", "word.added") and fit.gone == ()
    assert not fitted.p["w_obs"][25].any() and not fitted.p["w_act"][40].any()
    feat = Featurizer(dagang().rules)
    seen = 0
    for obs, legal in _positions():
        x, rows = feat.base_row(obs)[at_obs], feat.action_rows(obs, legal, None)[:, at_act]
        wide_x, wide_rows = np.insert(x, 25, 0.0), np.insert(rows, 40, 0.0, axis=1)
        np.testing.assert_allclose(fitted.q(wide_x, wide_rows), net.q(x, rows), rtol=1e-5, atol=1e-5)
        seen += 1
    assert seen >= 20
    back, fit = fit_columns(fitted, {"net": {"obs_columns": obs_cols, "act_columns": act_cols}}, base, act)
    assert fit.gone == ("mode.added", "word.added") and np.array_equal(back.p["w_obs"], net.p["w_obs"])


PICK = DecisionKind(
    "columns_pick", "试选", "a test's decision: pick or pass", listed=900, chooser=lambda obs, legal: legal[-1]
)


class Pick:
    """A phase before play whose decision declares its default chooser (the last legal action)."""

    name = "columns_pick"
    zh = "试选"
    en = "a test's phase"
    stage = "before_play"
    order = 57
    decisions = (PICK,)
    words = (Choose("columns_pick"),)
    events = ()
    entry = None
    asked = 0

    def enabled(self, rules: object) -> bool:
        return True

    def run(self, m: Match, prep: HandPrep):  # type: ignore[no-untyped-def]
        a = yield m.ask(0, PICK, (PASS, Choose("columns_pick")))
        Pick.asked += 1
        Pick.chosen = a
        return True

    def answer(self, rec: object, d: Decision) -> Action | None:
        return PASS


@pytest.fixture
def pick() -> Iterator[None]:
    register_phase(Pick)
    try:
        yield
    finally:
        unregister_phase("columns_pick")


def test_a_kind_the_weights_never_learned_is_made_by_its_default_chooser(pick: None) -> None:
    """A phase registered after the weights were trained: its kind is not among the kinds their meta says
    they learned, so it goes to the chooser its DecisionKind declares, never to the network, and the
    match plays on."""
    Pick.asked = 0
    agents = [LearnedAgent() for _ in range(6)]
    m = Match(dagang(), seed=1, hands=2)
    while not m.is_over:
        obs, legal = m.observation(), m.legal_actions()
        m.apply(agents[obs.seat].act(obs, legal))
    assert Pick.asked >= 1 and Pick.chosen == Choose("columns_pick")  # the chooser's, not greedy's first


def _script() -> object:
    sys.path.insert(0, str(ROOT / "training"))
    try:
        import name_columns
    finally:
        sys.path.pop(0)
    return name_columns


def test_the_conversion_names_a_format_1_file_and_changes_no_number(tmp_path: Path) -> None:
    """training/name_columns.py on a format-1 file (the session-7 file as it was: no names, format 1)."""
    script = _script()
    with np.load(session7("dagang")) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays["meta"]))
    meta["net"] = {k: v for k, v in meta["net"].items() if not k.endswith("_columns")} | {"format": 1}
    del meta["learned_kinds"]
    np.savez(tmp_path / "old.npz", **{**arrays, "meta": np.array(json.dumps(meta))})
    assert script.main([str(tmp_path / "old.npz"), str(tmp_path / "new.npz")]) == 0  # type: ignore[attr-defined]
    net, meta, _ = load_weights(tmp_path / "new.npz")
    assert columns_of(meta) == columns_of(load_weights(session7("dagang"))[1])
    assert set(meta["learned_kinds"]) == PLAY_MODES
    assert all(np.array_equal(net.p[k], arrays[k]) for k in net.p)
    assert script.main([str(tmp_path / "new.npz"), str(tmp_path / "again.npz")]) == 1  # type: ignore[attr-defined]
    meta["net"] = {**meta["net"], "format": 1, "obs_size": 312}
    np.savez(tmp_path / "odd.npz", **{**arrays, "meta": np.array(json.dumps(meta))})
    assert script.main([str(tmp_path / "odd.npz"), str(tmp_path / "x.npz")]) == 1  # type: ignore[attr-defined]
    assert not (tmp_path / "again.npz").exists() and not (tmp_path / "x.npz").exists()


def test_columns_in_another_order_are_read_by_name_and_a_file_of_no_known_column_is_refused() -> None:
    net, meta, _ = load_weights(shipped_path())
    base, act = columns_of(meta)
    order = np.random.default_rng(3).permutation(len(base))
    shuffled = net.copy()
    shuffled.p["w_obs"] = net.p["w_obs"][order]
    names = {"net": {"obs_columns": [base[i] for i in order], "act_columns": list(act)}}
    back, fit = fit_columns(shuffled, names, base, act)
    assert fit == type(fit)((), ()) and np.array_equal(back.p["w_obs"], net.p["w_obs"])
    other = {
        "net": {
            "obs_columns": [f"x{i}" for i in range(len(OBS_COLUMNS))],
            "act_columns": [f"y{i}" for i in range(len(ACT_COLUMNS))],
        }
    }
    with pytest.raises(WeightsError, match="name none of the columns"):
        fit_columns(net, other, OBS_COLUMNS, ACT_COLUMNS)


def test_a_network_that_learned_no_kind_of_this_hand_plays_every_decision_by_default() -> None:
    """``learned_kinds`` decides what the network makes: with none of play's, the hand is greedy's."""
    from gouji_rules.play.agents import GreedyAgent

    net = shipped_fit()[0]
    for seed in (0, 1):
        by_default = play_hand(dagang(), seed, [LearnedAgent(net, learned_kinds=("buy4",)) for _ in range(6)])
        greedy = play_hand(dagang(), seed, [GreedyAgent() for _ in range(6)])
        assert [str(e) for e in by_default.events] == [str(e) for e in greedy.events]
    learned = play_hand(dagang(), 1, [LearnedAgent(net, learned_kinds=sorted(PLAY_MODES)) for _ in range(6)])
    assert [str(e) for e in learned.events] != [str(e) for e in by_default.events]  # seed 1, both
