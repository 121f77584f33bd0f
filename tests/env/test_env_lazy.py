"""Observations built when read (issue 23 item 5) give what the eager ones gave, in both builds.

The digests below were taken from the environment as it was before observations became lazy
(every entry built at every step); the suite runs against the pure and the compiled build, so both
must give them.  Since issue 30 that dict is the ``observation="rich"`` form, and the digests are
unchanged; the default, classic form is pinned beside them.  An observation read steps after it was
given must show its own step.

The vectors are hashed by column name (the pins re-taken so in issue 31, on code whose old pins held) (:func:`named`): only the columns that are non-zero somewhere in
the array, each with its name, so a decision kind or a word added to the catalogue (a column that is 0
in every position these runs reach) leaves the digests as they are.
"""

from __future__ import annotations

import copy
import hashlib
import pickle

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from gouji_rules.env import GoujiEnv, SeatEnv
from gouji_rules.env.encoding import FEATURE_NAMES
from gouji_rules.env.features import COLUMNS
from gouji_rules.game.rng import SplitMix64

ENTRIES = ("observation", "legal_actions", "action_features")
NAMES = {"observation": COLUMNS, "action_features": FEATURE_NAMES}


def named(key: str, value: object) -> bytes:
    """An entry as hashed: a vector or feature rows by the names of their non-zero columns, anything
    else (the legal indices: a new word is appended after every index in use) as its bytes."""
    a = np.ascontiguousarray(value)
    names = NAMES.get(key)
    if names is None:
        return a.tobytes()
    rows = a.reshape(-1, len(names))
    used = np.flatnonzero(rows.any(axis=0))
    return "|".join(names[i] for i in used).encode() + np.ascontiguousarray(rows[:, used]).tobytes()


def aec_digest(variant: str, steps: int, match: bool = False) -> str:
    """Every entry of every observation, reward and termination of ``steps`` random decisions."""
    h = hashlib.sha256()
    env = GoujiEnv(variant, match=match, hands=2 if match else None, observation="rich")
    rng = SplitMix64(7)
    env.reset(seed=11)
    n = 0
    while n < steps:
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            for k in ENTRIES:
                h.update(k.encode())
                h.update(named(k, obs[k]))
            h.update(np.flatnonzero(obs["action_mask"]).tobytes())
            h.update(repr((agent, reward, term)).encode())
            if term or trunc:
                env.step(None)
                continue
            legal = obs["legal_actions"]
            env.step(int(legal[rng.below(len(legal))]))
            n += 1
            if n >= steps:
                break
        else:
            env.reset()
    return h.hexdigest()[:16]


def seat_digest(variant: str, steps: int, others: str) -> str:
    """The same through SeatEnv, one decision in 37 an illegal index (which ends the episode)."""
    h = hashlib.sha256()
    env = SeatEnv(variant, seat=1, others=others)
    rng = SplitMix64(9)
    obs, _ = env.reset(seed=5)
    for n in range(steps):
        for k in ENTRIES:
            h.update(named(k, obs[k]))
        h.update(np.flatnonzero(obs["action_mask"]).tobytes())
        legal = obs["legal_actions"]
        obs, reward, term, _, info = env.step(int(legal[rng.below(len(legal))]) if n % 37 else 3)
        h.update(repr((reward, term, info)).encode())
        if term:
            obs, _ = env.reset()
    return h.hexdigest()[:16]


@pytest.mark.parametrize(
    ("variant", "match", "expected"),
    [
        ("dagang", False, "84034009c2cb5ed4"),
        ("dianshaomenla", False, "ca928368b5140f32"),
        ("sha21", False, "ab86a3d1e228ef9c"),
        ("dagang_jifen", True, "8e0969a6e0957edf"),
    ],
)
def test_aec_observations_are_those_of_the_eager_environment(variant: str, match: bool, expected: str) -> None:
    assert aec_digest(variant, 400, match) == expected


def classic_digest(variant: str, steps: int, match: bool = False) -> str:
    """``aec_digest``'s run through the default (classic) form, checked step by step against the rich
    form: the same vector, a mask marking the rich form's legal indices, those indices and their feature
    rows in the acting seat's info, the same rewards."""
    h = hashlib.sha256()
    env = GoujiEnv(variant, match=match, hands=2 if match else None)
    rich = GoujiEnv(variant, match=match, hands=2 if match else None, observation="rich")
    rng = SplitMix64(7)
    env.reset(seed=11)
    rich.reset(seed=11)
    n = 0
    while n < steps:
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            twin, twin_reward, *_ = rich.last()
            assert agent == rich.agent_selection and reward == twin_reward
            assert list(obs) == ["observation", "action_mask"]
            assert np.array_equal(obs["observation"], twin["observation"])
            assert np.array_equal(obs["action_mask"], twin["action_mask"])
            h.update(named("observation", obs["observation"]))
            h.update(np.flatnonzero(obs["action_mask"]).tobytes())
            h.update(repr((agent, reward, term)).encode())
            if term or trunc:
                assert info == {}
                env.step(None)
                rich.step(None)
                continue
            assert np.array_equal(info["legal_actions"], twin["legal_actions"])
            assert np.array_equal(info["action_features"], twin["action_features"])
            legal = info["legal_actions"]
            action = int(legal[rng.below(len(legal))])
            env.step(action)
            rich.step(action)
            n += 1
            if n >= steps:
                break
        else:
            env.reset()
            rich.reset()
    return h.hexdigest()[:16]


@pytest.mark.parametrize(
    ("variant", "match", "expected"),
    [
        ("dagang", False, "94794bee853ae6e9"),
        ("dianshaomenla", False, "8b1324582c9f163d"),
        ("dagang_jifen", True, "db381cf31fb14542"),
    ],
)
def test_the_classic_observation_is_the_rich_ones_vector_and_mask(variant: str, match: bool, expected: str) -> None:
    assert classic_digest(variant, 400, match) == expected


@pytest.mark.parametrize(
    ("variant", "others", "expected"),
    [
        ("dagang", "random", "452dde33f07d095e"),
        ("dagang", "greedy", "e655060a64e87efb"),
        ("dianshaomenla", "random", "d814b1f83f72b91f"),
    ],
)
def test_seat_env_observations_are_those_of_the_eager_environment(variant: str, others: str, expected: str) -> None:
    assert seat_digest(variant, 300, others) == expected


def test_an_observation_read_later_shows_its_own_step() -> None:
    env = GoujiEnv("dagang", observation="rich")
    env.reset(seed=2)
    kept = env.observe(env.agent_selection)
    now = {k: np.copy(v) for k, v in env.observe(env.agent_selection).items()}
    for _ in range(60):
        obs, _, term, _, _ = env.last()
        if term:
            break
        env.step(int(obs["legal_actions"][-1]))
    for k, v in now.items():
        assert np.array_equal(kept[k], v), k


def test_the_observation_is_a_dict_with_every_entry() -> None:
    env = GoujiEnv("dagang", observation="rich")
    env.reset(seed=2)
    obs = env.observe(env.agent_selection)
    assert isinstance(obs, dict) and len(obs) == 4 and "action_mask" in obs and "x" not in obs
    assert list(obs) == ["observation", "legal_actions", "action_features", "action_mask"]
    assert env.observation_space(env.agent_selection).contains(env.observe(env.agent_selection))
    for twin in (copy.deepcopy(obs), pickle.loads(pickle.dumps(obs)), obs.copy(), dict(obs)):
        assert list(twin) == list(obs)
        assert all(np.array_equal(twin[k], obs[k]) for k in obs)
    assert (
        GoujiEnv("dagang", dense_mask=False, observation="rich")
        .observation_space("seat_0")
        .contains(_first(GoujiEnv("dagang", dense_mask=False, observation="rich")))
    )


def _first(env: GoujiEnv) -> object:
    env.reset(seed=2)
    return env.observe(env.agent_selection)


def test_an_entry_the_caller_removed_or_replaced_stays_so() -> None:
    env = GoujiEnv("dagang", observation="rich")
    env.reset(seed=2)
    obs = env.observe(env.agent_selection)
    obs["action_mask"] = None
    assert obs["action_mask"] is None
    del obs["action_features"]
    assert "action_features" not in obs and len(obs) == 3
    with pytest.raises(KeyError):
        obs["action_features"]
    assert obs.get("action_features", 5) == 5
    assert obs.pop("legal_actions").dtype == np.int64 and len(obs) == 2


def test_the_entries_are_the_callers_own() -> None:
    """Writing into one observation's array changes no other observation (none is shared)."""
    env = GoujiEnv("dagang", observation="rich")
    env.reset(seed=2)
    a = env.observe(env.agent_selection)
    b = env.observe(env.agent_selection)
    for k in ENTRIES:
        a[k][...] = 0
        assert b[k].any(), k


def test_a_copied_or_pickled_state_never_carries_the_shared_box_tables() -> None:
    """The lead boxes' arrays are shared by every encoding of a deck, process-wide: a deep copy of a
    game state (OpenSpiel's ``clone``, ``random_sim_test``) shares the encoding rather than copying
    every table cached so far, and a pickle carries the deck alone (it once copied gigabytes)."""
    import copy
    import pickle

    from gouji_rules.catalog import dagang
    from gouji_rules.env.encoding import SHARED_BOXES, ActionEncoding
    from gouji_rules.play.engine import Hand

    enc = ActionEncoding(dagang().rules)
    for seed in range(20):
        enc.encode_legal(Hand.deal(dagang(), seed=seed).legal_actions())  # fills the shared tables
    assert SHARED_BOXES[enc.deck]
    assert copy.deepcopy(enc) is enc and copy.copy(enc) is enc
    assert copy.deepcopy({"state": [enc]})["state"][0] is enc
    raw = pickle.dumps(enc)
    assert len(raw) < 1_000
    back = pickle.loads(raw)
    h = Hand.deal(dagang(), seed=7)
    assert back.size == enc.size and (back.indices(h.legal_actions()) == enc.indices(h.legal_actions())).all()
