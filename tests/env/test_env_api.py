"""The environment passes PettingZoo's and Gymnasium's own checkers, and repeats under a seed."""

import warnings

import pytest

pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from gouji_rules.env import GoujiEnv, SeatEnv


@pytest.mark.parametrize("variant", ["dagang", "dianshaomenla"])
def test_pettingzoo_api_test_passes(variant: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(GoujiEnv(variant), num_cycles=300)


def test_pettingzoo_api_test_passes_for_a_whole_match() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(GoujiEnv("dagang", match=True, hands=2), num_cycles=300)


def test_pettingzoo_seed_test_passes() -> None:
    seed_test(lambda: GoujiEnv("dagang"), num_cycles=100)


def test_gymnasium_check_env_passes_for_one_seat() -> None:
    check_env(SeatEnv("dianshaomenla", seat=1))


@pytest.mark.parametrize("variant", ["dagang", "dianshaomenla"])
def test_pettingzoo_api_test_gives_no_warning_for_the_vector_observation(variant: str) -> None:
    """``observation="vector"``: a Box observation and the legal actions and mask in the acting seat's
    info, the shape PettingZoo's tools expect (issue 23 item 2)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        api_test(GoujiEnv(variant, observation="vector"), num_cycles=300)


def test_the_vector_observation_carries_the_legal_actions_in_info() -> None:
    import numpy as np

    env = GoujiEnv("dagang", observation="vector")
    twin = GoujiEnv("dagang")
    env.reset(seed=4)
    twin.reset(seed=4)
    for _ in range(40):
        obs, _, term, _, info = env.last()
        d, *_ = twin.last()
        if term:
            break
        assert np.array_equal(obs, d["observation"])
        assert np.array_equal(info["legal_actions"], d["legal_actions"])
        assert np.array_equal(info["action_mask"], d["action_mask"])
        others = [a for a in env.agents if a != env.agent_selection]
        assert all(env.infos[a] == {} for a in others)
        env.step(int(info["legal_actions"][-1]))
        twin.step(int(d["legal_actions"][-1]))
