"""CandidateEnv: one seat with k candidate actions and Box spaces, so the learning libraries people
already use (SB3, sb3-contrib) train on 够级 unchanged (issue 23)."""

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env

from gouji_rules.env import CandidateEnv, SeatEnv
from gouji_rules.env.encoding import KIND_WORD, ActionEncoding
from gouji_rules.errors import IllegalAction

from .conftest import doc_examples


def test_gymnasium_check_env_passes() -> None:
    check_env(CandidateEnv("dianshaomenla", k=16, seat=1))


def test_every_space_is_a_box_or_discrete() -> None:
    env = CandidateEnv("dagang", k=8)
    assert {type(s).__name__ for s in env.observation_space.spaces.values()} == {"Box"}
    assert env.action_space.n == 8


def test_candidates_are_legal_actions_and_the_words_come_first() -> None:
    env = CandidateEnv("dagang", k=12)
    obs, _ = env.reset(seed=11)
    enc = ActionEncoding(env.seat_env.aec.rules)
    for _ in range(60):
        table = env.seat_env.table
        assert table is not None
        if table.is_over:
            break
        legal = set(int(i) for i in enc.legal_indices(table.legal_actions()))
        n = int(obs["candidate_mask"].sum())
        assert n == min(12, len(legal)) and obs["candidate_mask"][:n].all() and not obs["candidate_mask"][n:].any()
        assert set(env.candidate_indices.tolist()) <= legal
        words = obs["candidates"][:n, KIND_WORD] > 0
        assert list(words) == sorted(words, reverse=True)  # every word row before any set row
        assert np.array_equal(env.action_masks(), obs["candidate_mask"].astype(bool))
        obs, _, terminated, _, _ = env.step(n - 1)
        if terminated:
            break


def test_the_same_seed_offers_the_same_candidates() -> None:
    a, b = CandidateEnv("dagang", k=8), CandidateEnv("dagang", k=8)
    for seed in (1, 2):
        oa, _ = a.reset(seed=seed)
        ob, _ = b.reset(seed=seed)
        assert all(np.array_equal(oa[x], ob[x]) for x in oa)
        assert np.array_equal(a.candidate_indices, b.candidate_indices)


def test_a_padding_row_plays_a_legal_move_and_never_ends_the_hand() -> None:
    """No reward for quitting: an unmasked client's padding row wraps onto a candidate (issue 23 item 3)."""
    env = CandidateEnv("dagang", k=64)
    env.reset(seed=5)
    steps = 0
    terminated = False
    while not terminated and steps < 400:
        _, _, terminated, _, info = env.step(63)
        assert "illegal" not in info
        steps += 1
    assert terminated
    table = env.seat_env.table
    assert table is not None and table.is_over  # the hand was played to its end


def test_raise_refuses_a_padding_row_with_the_rule_named() -> None:
    env = CandidateEnv("dagang", k=64, invalid="raise")
    obs, _ = env.reset(seed=5)
    n = int(obs["candidate_mask"].sum())
    if n == 64:
        pytest.skip("this decision fills every row")
    with pytest.raises(IllegalAction) as e:
        env.step(63)
    assert e.value.rule == "candidate_padding"


@pytest.mark.parametrize("bad", [6.7, "3", -1, 64, True, None])
def test_what_discrete_refuses_is_refused(bad: object) -> None:
    env = CandidateEnv("dagang", k=64)
    env.reset(seed=1)
    with pytest.raises(ValueError):
        env.step(bad)


def test_step_before_reset_says_so() -> None:
    from gouji_rules.errors import GoujiError

    with pytest.raises(GoujiError, match="reset"):
        CandidateEnv("dagang").step(0)


def test_sb3_contrib_maskable_ppo_trains_unchanged() -> None:
    sb3_contrib = pytest.importorskip("sb3_contrib")
    model = sb3_contrib.MaskablePPO(
        "MultiInputPolicy", CandidateEnv("dianshaomenla", k=16), n_steps=64, batch_size=32, n_epochs=1, seed=0
    )
    model.learn(total_timesteps=192)
    env = CandidateEnv("dianshaomenla", k=16)
    obs, _ = env.reset(seed=2)
    action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)]


def test_plain_sb3_ppo_trains_unchanged() -> None:
    sb3 = pytest.importorskip("stable_baselines3")
    model = sb3.PPO(
        "MultiInputPolicy", CandidateEnv("dianshaomenla", k=16), n_steps=64, batch_size=32, n_epochs=1, seed=0
    )
    model.learn(total_timesteps=128)


def test_seat_env_is_unchanged_beneath() -> None:
    env = CandidateEnv("dagang", k=4)
    assert isinstance(env.seat_env, SeatEnv)


@pytest.mark.parametrize("variant", ["dagang", "dianshaomenla"])
def test_quitting_never_pays_better_than_a_legal_outcome(variant: str) -> None:
    """SeatEnv's default for an illegal index is the worst outcome the variant's scoring allows over
    every finishing order, so no hand played out legally ends below it (issue 23 item 3)."""
    from gouji_rules.env.aec import utility_bound

    env = SeatEnv(variant, seat=0, others="random")
    assert env.illegal_reward == -utility_bound(env.aec.rules) < 0
    rng = np.random.default_rng(0)
    for seed in range(8):
        obs, _ = env.reset(seed=seed)
        total, terminated = 0.0, False
        while not terminated:
            obs, reward, terminated, _, _ = env.step(int(rng.choice(obs["legal_actions"])))
            total += reward
        assert total >= env.illegal_reward
    match = SeatEnv(variant, seat=0, match=True, hands=3)
    assert match.illegal_reward == 3 * env.illegal_reward


def test_the_sb3_page_examples_run() -> None:
    pytest.importorskip("sb3_contrib")
    result = doc_examples("sb3.md")
    assert result.attempted >= 6
    assert result.failed == 0
