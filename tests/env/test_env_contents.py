"""What the environment gives: indices that decode to the engine's legal actions, features
that describe them, observations built only from the seat's own view, zero-sum rewards."""

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from gouji_rules.catalog import dagang, dianshaomenla
from gouji_rules.env import FEATURES, WORDS, ActionEncoding, GoujiEnv, ObservationEncoder, SeatEnv
from gouji_rules.env.encoding import KIND_BURN, KIND_PLAY, KIND_WORD
from gouji_rules.errors import IllegalAction
from gouji_rules.game.actions import PASS, parse_action
from gouji_rules.play.agents import RandomAgent
from gouji_rules.play.engine import Hand

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("factory", [dagang, dianshaomenla])
def test_legal_indices_decode_to_the_engines_legal_actions_in_order(factory) -> None:
    variant = factory()
    enc = ActionEncoding(variant.rules)
    agent = RandomAgent()
    for seed in range(4):
        hand = Hand.deal(variant, seed)
        agent.start_hand(seed, 0)
        while not hand.is_over:
            legal = hand.legal_actions()
            idx, feats = enc.encode_legal(legal)
            assert len(idx) == len(legal) == len(feats) and len(set(idx.tolist())) == len(idx)
            for i in {0, len(legal) // 2, len(legal) - 1}:
                a = legal[i]
                assert enc.decode(int(idx[i])) == a and enc.encode(a) == idx[i]
                row = feats[i]
                if row[KIND_WORD]:
                    assert row[KIND_WORD + 1 + WORDS.index(a)] == 1
                else:
                    assert row[:16].sum() == a.cards.size  # type: ignore[union-attr]
                    assert row[KIND_BURN if legal.burn else KIND_PLAY] == 1
            hand.apply(agent.act(hand.observation(), legal))


def test_every_index_of_the_space_decodes_and_encodes_back() -> None:
    enc = ActionEncoding(dagang().rules)
    for i in [*list(range(0, enc.size, 997)), enc.n_sets - 1, enc.n_sets, enc.size - 1]:
        assert enc.encode(enc.decode(i)) == i
    assert enc.decode(2 * enc.n_sets) == PASS
    with pytest.raises(ValueError, match="outside"):
        enc.decode(enc.size)
    with pytest.raises(ValueError, match="cannot be formed"):
        enc.encode(parse_action("3" * 17))


def test_observation_vector_does_not_change_when_other_seats_hidden_cards_do() -> None:
    hand = Hand.deal(dagang(), 4)
    agent = RandomAgent()
    agent.start_hand(4, 0)
    for _ in range(40):
        hand.apply(agent.act(hand.observation(), hand.legal_actions()))
    me = hand.turn
    other = hand.copy()
    a, b = [s for s in range(6) if s != me][:2]
    ra = next(r for r in range(16) if other.hands[a][r] > other.hands[b][r])
    rb = next(r for r in range(16) if other.hands[b][r] > other.hands[a][r])
    other.hands[a][ra] -= 1
    other.hands[b][ra] += 1
    other.hands[b][rb] -= 1
    other.hands[a][rb] += 1
    v1 = ObservationEncoder().encode(hand.observation(me))
    v2 = ObservationEncoder().encode(other.observation(me))
    assert np.array_equal(v1, v2)
    # the seat's own cards do show
    assert not np.array_equal(v1, ObservationEncoder().encode(other.observation(a)))


def _play_out(env: GoujiEnv, seed: int) -> dict[str, float]:
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        env.step(None if terminated or truncated else int(obs["legal_actions"][-1]))
    return totals


def test_rewards_are_the_team_score_difference_and_sum_to_zero() -> None:
    env = GoujiEnv("dagang", observation="rich")
    totals = _play_out(env, 7)
    assert env.table is not None and env.table.is_over
    s0, s1 = env.table.scores()
    assert totals["seat_0"] == totals["seat_2"] == totals["seat_4"] == s0 - s1
    assert totals["seat_1"] == -totals["seat_0"]


def test_a_variant_file_and_a_whole_match_work() -> None:
    env = GoujiEnv(ROOT / "variants" / "dianshaomenla.yaml", match=True, hands=2, observation="rich")
    totals = _play_out(env, 3)
    assert env.table is not None and env.table.is_over
    m0, m1 = env.table.scores()
    assert totals["seat_1"] == m1 - m0


def test_without_the_dense_mask_the_observation_and_its_space_leave_it_out() -> None:
    env = GoujiEnv("dagang", dense_mask=False, observation="rich")
    env.reset(seed=1)
    obs, *_ = env.last()
    assert "action_mask" not in obs and "action_mask" not in env.observation_space("seat_0").spaces
    assert obs["action_features"].shape == (len(obs["legal_actions"]), FEATURES)


def test_an_illegal_index_raises_in_the_aec_env_and_ends_the_seat_episode() -> None:
    env = GoujiEnv("dagang", observation="rich")
    env.reset(seed=2)
    obs, *_ = env.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction):
        env.step(bad)
    seat = SeatEnv("dagang", seat=0)
    obs, _ = seat.reset(seed=2)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = seat.step(bad)
    # quitting never pays: the worst outcome a dagang hand can have (4/2/0, doubled for 串三户)
    assert terminated and reward == -12.0 and info == {"illegal": True}
    with pytest.raises(IllegalAction):
        seat.step(int(obs["legal_actions"][0]))
    strict = SeatEnv("dagang", seat=0, illegal="raise")
    strict.reset(seed=2)
    with pytest.raises(IllegalAction):
        strict.step(bad)


def test_same_seed_same_deals_and_a_new_episode_gets_a_new_deal() -> None:
    a, b = GoujiEnv("dagang"), GoujiEnv("dagang")
    a.reset(seed=11)
    b.reset(seed=11)
    assert np.array_equal(a.last()[0]["observation"], b.last()[0]["observation"])
    first = a.table.game.initial  # type: ignore[union-attr]
    a.reset()
    assert a.table.game.initial != first  # type: ignore[union-attr]


def test_misuse_gets_a_typed_error_with_a_reason() -> None:
    from gouji_rules.errors import GoujiError, UnknownVariant

    with pytest.raises(UnknownVariant, match="did you mean"):
        GoujiEnv("dagng")
    with pytest.raises(GoujiError, match="reset"):
        GoujiEnv("dagang").step(3)
    env = GoujiEnv("dagang")
    env.reset(seed=1)
    with pytest.raises(IllegalAction, match="must act"):
        env.step(None)
    with pytest.raises(ValueError, match="outside"):
        env.step(-1)
    with pytest.raises(ValueError, match="at least 1"):
        GoujiEnv("dagang", match=True, hands=0)
    with pytest.raises(ValueError, match="5 agents"):
        SeatEnv("dagang", others=[])
