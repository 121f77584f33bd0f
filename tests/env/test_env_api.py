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
