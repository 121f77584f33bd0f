"""What the environments and the seeded library calls refuse, each with a typed error that says why.

Actions are taken as gymnasium's ``Discrete.contains`` takes them; seeds are 64 bits, and a seed
beyond them is refused rather than dealing the same cards as another.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from gymnasium import spaces

from gouji_rules.catalog import dagang
from gouji_rules.env import GoujiEnv, SeatEnv
from gouji_rules.env.aec import EnvError
from gouji_rules.errors import GoujiError, IllegalAction, SeedError
from gouji_rules.game.rng import check_seed
from gouji_rules.play.engine import Hand
from gouji_rules.play.match import Match

NOT_ACTIONS = [6800.7, 6800.0, "6800", np.float64(6800), np.float32(1), np.array([1]), [1], b"1"]


@pytest.mark.parametrize("action", NOT_ACTIONS, ids=repr)
def test_an_action_discrete_refuses_is_refused_by_the_aec_env(action: object) -> None:
    env = GoujiEnv("dagang", observation="rich")
    env.reset(seed=1)
    space = env.action_space(env.agent_selection)
    assert isinstance(space, spaces.Discrete) and not space.contains(action)
    before = env.observe(env.agent_selection)["legal_actions"].tolist()
    with pytest.raises(EnvError, match=r"an action is an integer index 0\.\.\d+ \(Discrete\(\d+\)\)"):
        env.step(action)  # type: ignore[arg-type]
    assert env.observe(env.agent_selection)["legal_actions"].tolist() == before  # nothing happened


@pytest.mark.parametrize("action", NOT_ACTIONS, ids=repr)
def test_an_action_discrete_refuses_is_refused_by_the_seat_env(action: object) -> None:
    """Even under ``illegal="terminate"``: a float or a string is a program's mistake, not a move."""
    env = SeatEnv("dagang", seat=0)
    env.reset(seed=1)
    assert not env.action_space.contains(action)
    with pytest.raises(EnvError):
        env.step(action)  # type: ignore[arg-type]


def test_integer_actions_discrete_takes_are_taken() -> None:
    env = GoujiEnv("dagang", observation="rich")
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    first = obs["legal_actions"][0]
    for action in (int(first), np.int64(first), np.uint16(first), np.array(first)):
        e = GoujiEnv("dagang")
        e.reset(seed=1)
        assert e.action_space(e.agent_selection).contains(action)
        e.step(action)  # type: ignore[arg-type]


def play_out(env: GoujiEnv) -> None:
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(obs["legal_actions"][0]))


def test_the_aec_env_after_its_episode_says_so() -> None:
    env = GoujiEnv("dagang", observation="rich")
    env.reset(seed=2)
    play_out(env)
    assert not env.agents
    with pytest.raises(EnvError, match="the episode is over"):
        env.step(0)  # was KeyError: 'seat_1'
    env.reset(seed=2)  # and it plays again
    play_out(env)


def test_the_seat_env_before_reset_says_so() -> None:
    with pytest.raises(EnvError, match=r"call reset\(\) before step\(\)"):
        SeatEnv("dagang").step(0)  # was an AssertionError
    with pytest.raises(EnvError, match=r"call reset\(\)"):
        GoujiEnv("dagang").step(0)
    with pytest.raises(EnvError, match=r"call reset\(\)"):
        GoujiEnv("dagang").observe("seat_0")


@pytest.mark.parametrize("hands", ["3", 2.0, True, 0, -1])
def test_hands_that_are_not_a_count_are_refused(hands: object) -> None:
    with pytest.raises(EnvError, match="hands must be"):
        GoujiEnv("dagang", match=True, hands=hands)  # type: ignore[arg-type]
    with pytest.raises(EnvError, match="hands must be"):
        SeatEnv("dagang", match=True, hands=hands)  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", ["0", 6, -1, 1.0, True])
def test_a_seat_that_is_not_one_is_refused(seat: object) -> None:
    with pytest.raises(EnvError, match=r"seat must be 0\.\.5"):
        SeatEnv("dagang", seat=seat)  # type: ignore[arg-type]


def test_env_errors_are_the_packages_and_value_errors() -> None:
    assert issubclass(EnvError, GoujiError) and issubclass(EnvError, ValueError)


# -- seeds ------------------------------------------------------------------------------------------

OUT_OF_RANGE = [-1, 2**64, -(2**63), 2**64 + 5, 10**30]


@pytest.mark.parametrize("seed", OUT_OF_RANGE)
def test_a_seed_beyond_64_bits_is_refused_by_a_deal(seed: int) -> None:
    with pytest.raises(SeedError, match=r"seed must be an integer from 0 to 2\*\*64 - 1"):
        Hand.deal(dagang(), seed)


@pytest.mark.parametrize("seed", OUT_OF_RANGE)
def test_a_seed_beyond_64_bits_is_refused_by_a_match(seed: int) -> None:
    with pytest.raises(SeedError):
        Match(dagang(), seed, 1)


@pytest.mark.parametrize("seed", OUT_OF_RANGE)
def test_a_seed_beyond_64_bits_is_refused_by_the_environments(seed: int) -> None:
    with pytest.raises(SeedError, match=r"reset\(seed=…\) must be"):
        GoujiEnv("dagang").reset(seed=seed)
    with pytest.raises(SeedError, match=r"reset\(seed=…\) must be"):
        SeatEnv("dagang").reset(seed=seed)


def test_the_ends_of_the_range_deal_different_cards() -> None:
    """-1 and 2**64 - 1 are the same 64 bits: one is refused, so they never deal the same cards silently;
    0 and 2**64 - 1 are both seeds, and deal differently."""
    top = Hand.deal(dagang(), 2**64 - 1)
    assert Hand.deal(dagang(), 0).hands != top.hands
    with pytest.raises(SeedError):
        Hand.deal(dagang(), -1)
    assert Hand.deal(dagang(), 2**64 - 1).hands == top.hands


@pytest.mark.parametrize("seed", [1.0, "3", True, None, b"3", [3]], ids=repr)
def test_a_seed_that_is_not_an_integer_is_refused(seed: object) -> None:
    with pytest.raises(SeedError, match="must be an integer"):
        check_seed(seed)
    if seed is not None:
        with pytest.raises(SeedError):
            GoujiEnv("dagang").reset(seed=seed)  # type: ignore[arg-type]


def test_numpy_integer_seeds_are_seeds() -> None:
    assert check_seed(np.uint64(2**64 - 1)) == 2**64 - 1 and type(check_seed(np.int32(7))) is int
    env = GoujiEnv("dagang")
    env.reset(seed=np.int64(5))  # type: ignore[arg-type]
    again = GoujiEnv("dagang")
    again.reset(seed=5)
    assert (
        env.observe(env.agent_selection)["observation"].tolist()
        == again.observe(again.agent_selection)["observation"].tolist()
    )


# -- one refusal for everything that is not an index, in every environment (issue 30 item 4) --------------


class Unprintable:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


# True played index 1 in SeatEnv (a bool is an int), though CandidateEnv refused it; a number outside
# the space ended SeatEnv's episode as an illegal move, where the AEC env raised a bare ValueError
NOT_INDICES = [
    True,
    False,
    np.bool_(True),
    np.array(True),
    1.0,
    np.float32(1),
    "1",
    None,
    -1,
    np.int64(-1),
    2**70,
    np.uint64(2**64 - 1),
    10**5000,
    Unprintable(),
]
REFUSED = r"an action is an integer index 0\.\.\d+ \(Discrete\(\d+\)\)"


def _ids(value: object) -> str:
    return (
        type(value).__name__ if isinstance(value, (int, Unprintable)) and not isinstance(value, bool) else repr(value)
    )


@pytest.mark.parametrize("form", ["classic", "rich", "vector"])
@pytest.mark.parametrize("action", NOT_INDICES, ids=_ids)
def test_the_aec_env_refuses_what_is_not_an_index_and_changes_nothing(form: str, action: object) -> None:
    env = GoujiEnv("dagang", observation=form)
    env.reset(seed=1)
    before = (env.agent_selection, env.table.game.decisions)  # type: ignore[union-attr]
    if action is None:  # PettingZoo's "no action", for a finished seat only
        with pytest.raises(IllegalAction, match="must act"):
            env.step(action)
    else:
        with pytest.raises(EnvError, match=REFUSED):
            env.step(action)  # type: ignore[arg-type]
    assert (env.agent_selection, env.table.game.decisions) == before  # type: ignore[union-attr]


def test_a_finished_seat_may_give_none_only() -> None:
    env = GoujiEnv("dagang")
    env.reset(seed=3)
    for _agent in env.agent_iter():
        _, _, terminated, _, info = env.last()
        if terminated:
            break
        env.step(int(info["legal_actions"][0]))
    for action in (True, 0, np.int64(0)):
        with pytest.raises(EnvError, match=r"seat_\d is done: the only action it may give is None"):
            env.step(action)  # type: ignore[arg-type]
    for _agent in env.agent_iter():  # every seat is done: None takes each out
        env.step(None)
    assert not env.agents


@pytest.mark.parametrize("illegal", ["raise", "terminate"])
@pytest.mark.parametrize("action", NOT_INDICES, ids=_ids)
def test_the_seat_env_refuses_what_is_not_an_index_under_either_rule(illegal: str, action: object) -> None:
    """Neither plays index 1 for True, nor ends the episode as if a move had been made."""
    env = SeatEnv("dagang", seat=0, illegal=illegal)
    obs, _ = env.reset(seed=1)
    assert env.table is not None
    decisions = env.table.game.decisions  # type: ignore[union-attr]
    with pytest.raises(EnvError, match=REFUSED):
        env.step(action)  # type: ignore[arg-type]
    assert env.table.game.decisions == decisions  # type: ignore[union-attr]
    _, _, terminated, _, _ = env.step(np.int64(obs["legal_actions"][0]))  # and it plays on
    assert env.table.game.decisions > decisions or terminated  # type: ignore[union-attr]


@pytest.mark.parametrize("invalid", ["wrap", "raise"])
@pytest.mark.parametrize("action", [*NOT_INDICES, 8], ids=_ids)
def test_the_candidate_env_refuses_what_is_not_a_row_in_the_same_words(invalid: str, action: object) -> None:
    from gouji_rules.env import CandidateEnv

    env = CandidateEnv("dagang", k=8, invalid=invalid)
    env.reset(seed=1)
    offered = env.candidate_indices.copy()
    with pytest.raises(EnvError, match=REFUSED):
        env.step(action)
    assert np.array_equal(env.candidate_indices, offered)
    env.step(np.int64(0))


@pytest.mark.parametrize("bad", ["Raise", None, 1, np.array(["raise", "terminate"]), Unprintable()], ids=_ids)
def test_a_choice_that_is_not_one_is_refused_by_name(bad: object) -> None:
    """Every string option of the environments: an EnvError naming the choices, never numpy's
    truth-value error for an array or a hostile repr's own exception."""
    from gouji_rules.env import CandidateEnv

    with pytest.raises(EnvError, match="illegal must be one of raise, terminate"):
        SeatEnv("dagang", illegal=bad)  # type: ignore[arg-type]
    with pytest.raises(EnvError, match="invalid must be one of wrap, raise"):
        CandidateEnv("dagang", invalid=bad)  # type: ignore[arg-type]
    with pytest.raises(EnvError, match="observation must be one of classic, rich, vector"):
        GoujiEnv("dagang", observation=bad)  # type: ignore[arg-type]
    if bad is not None:
        with pytest.raises(EnvError, match="render_mode must be one of ansi"):
            GoujiEnv("dagang", render_mode=bad)  # type: ignore[arg-type]
    if not isinstance(bad, int):  # seat 1 is a seat
        with pytest.raises(EnvError, match=r"seat must be 0\.\.5"):
            SeatEnv("dagang", seat=bad)  # type: ignore[arg-type]
