"""The environment passes PettingZoo's and Gymnasium's own checkers, and repeats under a seed."""

import importlib
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from gymnasium import spaces
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from gouji_rules.env import OBS_SIZE, GoujiEnv, SeatEnv
from gouji_rules.env.aec import EnvError

# api_test's module (pettingzoo.test's api_test is the function): its lists of PettingZoo's own games
API_TEST = importlib.import_module("pettingzoo.test.api_test")
# what api_test warns of every environment with a dict observation that is not on those lists
NOT_LISTED = ("Observation is not a NumPy array", "Observation space for each agent probably should be")


@pytest.mark.parametrize("variant", ["dagang", "dianshaomenla"])
@pytest.mark.parametrize("form", ["classic", "rich"])
def test_pettingzoo_api_test_passes(variant: str, form: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(GoujiEnv(variant, observation=form), num_cycles=300)


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
    env = GoujiEnv("dagang", observation="vector")
    twin = GoujiEnv("dagang", observation="rich")
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


def test_the_default_observation_is_pettingzoos_classic_form() -> None:
    """A dict of exactly a float32 vector and an int8 mask, as pettingzoo.classic gives (issue 30 item 4);
    the acting seat's info names the same legal indices the mask marks."""
    env = GoujiEnv("dagang")
    space = env.observation_space("seat_0")
    assert isinstance(space, spaces.Dict) and sorted(space.spaces) == ["action_mask", "observation"]
    vector, mask_space = space["observation"], space["action_mask"]
    assert isinstance(vector, spaces.Box) and vector.shape == (OBS_SIZE,) and vector.dtype == np.float32
    n = env.action_space("seat_0").n
    assert isinstance(mask_space, spaces.Box) and mask_space.shape == (n,) and mask_space.dtype == np.int8
    env.reset(seed=3)
    for _ in range(30):
        obs, _, term, _, info = env.last()
        if term:
            break
        assert sorted(obs) == ["action_mask", "observation"] and space.contains(obs)
        assert all(isinstance(v, np.ndarray) for v in obs.values())
        assert np.flatnonzero(obs["action_mask"]).tolist() == sorted(info["legal_actions"].tolist())
        env.step(int(env.action_space(env.agent_selection).sample(obs["action_mask"])))


@pytest.mark.parametrize("variant", ["dagang", "dianshaomenla"])
@pytest.mark.parametrize("match", [False, True])
def test_pettingzoo_api_test_warns_the_default_of_nothing_it_would_not_warn_its_own_games_of(
    variant: str, match: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """api_test on the default observation: no warning at all once api_test treats gouji_v0 as one of
    its own dict-observation games (connect_four_v3, leduc_holdem_v4, …); unlisted, only the two warnings
    it gives every dict observation by name, whatever the dict holds (the old default gave the same
    two, 341 times in 300 cycles, with the rich dict)."""

    def run() -> list[str]:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            api_test(GoujiEnv(variant, match=match, hands=2 if match else None), num_cycles=300)
        return [str(w.message) for w in caught]

    assert sorted(GoujiEnv(variant).observation_space("seat_0").spaces) == ["action_mask", "observation"]
    assert all(m.startswith(NOT_LISTED) for m in run())
    name = GoujiEnv.metadata["name"]
    monkeypatch.setattr(API_TEST, "env_obs_dicts", [*API_TEST.env_obs_dicts, name])
    monkeypatch.setattr(API_TEST, "env_obs_space", [*API_TEST.env_obs_space, name])
    assert run() == []


def test_reading_a_rich_entry_from_the_classic_observation_names_where_it_is() -> None:
    env = GoujiEnv("dagang")
    env.reset(seed=1)
    obs, *_ = env.last()
    with pytest.raises(KeyError, match='observation="rich"'):
        obs["legal_actions"]
    assert obs.get("legal_actions") is None and "legal_actions" not in obs


def test_the_rich_dict_is_an_option_under_its_old_name_too() -> None:
    for name in ("rich", "dict"):
        env = GoujiEnv("dagang", observation=name)
        env.reset(seed=1)
        obs, _, _, _, info = env.last()
        assert list(obs) == ["observation", "legal_actions", "action_features", "action_mask"] and info == {}


@pytest.mark.parametrize("bad", ["Rich", "", None, 3, b"rich", ["rich"], np.array(["rich", "vector"])], ids=repr)
def test_an_observation_form_that_is_not_one_is_refused(bad: object) -> None:
    with pytest.raises(EnvError, match="observation must be one of classic, rich, vector"):
        GoujiEnv("dagang", observation=bad)  # type: ignore[arg-type]


def test_the_classic_form_without_its_mask_is_refused_with_the_way_out() -> None:
    with pytest.raises(EnvError, match=r'dense_mask=False .* observation="rich"'):
        GoujiEnv("dagang", dense_mask=False)
