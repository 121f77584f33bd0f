"""The ``python_gouji`` OpenSpiel game passes OpenSpiel's own checker, deals as the engine deals, shows a
seat only what it may see, and is reached by OpenSpiel's MCTS and by Shimmy."""

from collections import Counter

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from gouji_rules.catalog import dagang  # noqa: E402
from gouji_rules.env import openspiel as gouji_openspiel  # noqa: E402
from gouji_rules.env.features import OBS_SIZE, ObservationEncoder  # noqa: E402
from gouji_rules.game.cards import NRANKS  # noqa: E402
from gouji_rules.play.engine import Hand  # noqa: E402


def deal(state: "pyspiel.State", rng: np.random.RandomState) -> None:
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))


@pytest.mark.parametrize("variant", ["dagang", "dianshaomenla"])
def test_random_sim_test_passes(variant: str) -> None:
    game = pyspiel.load_game(gouji_openspiel.SHORT_NAME, {"variant": variant})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_the_game_is_the_variants_encoding_and_scoring() -> None:
    game = pyspiel.load_game("python_gouji")
    rules = dagang().rules
    assert game.num_players() == 6
    assert game.num_distinct_actions() == gouji_openspiel.ActionEncoding(rules).size
    # dagang: 4/2/0 a place ... at most 头科+二科+三科 against nothing, doubled for 串三户 (S4 第十四条)
    assert game.max_utility() == gouji_openspiel.utility_bound(rules) == -game.min_utility()
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


def test_the_deal_gives_every_seat_its_share_of_the_deck_and_a_legal_hand() -> None:
    game = pyspiel.load_game("python_gouji", {"variant": "dianshaomenla"})
    state = game.new_initial_state()
    deal(state, np.random.RandomState(5))
    h = state.hand
    rules = game.rules
    assert h is not None and not state.is_chance_node()
    # hand_sizes count from the first drawer on, as the engine deals (engine.deal_cards)
    assert [sum(x) for x in h.initial] == [rules.hand_sizes[(s - state.leader) % 6] for s in range(6)]
    dealt = Counter(c for cards in state.dealt for c in cards)
    assert dealt == Counter(rules.deck)  # every card of the deck, once per copy
    assert state.current_player() == h.turn
    assert state.legal_actions() == sorted(int(i) for i in game.encoding.legal_indices(h.legal_actions()))


def test_chance_probabilities_follow_the_cards_left() -> None:
    game = pyspiel.load_game("python_gouji")
    state = game.new_initial_state()
    outcomes = dict(state.chance_outcomes())
    if game.rules.random_first_drawer:
        assert outcomes == {s: pytest.approx(1 / 6) for s in range(6)}
        state.apply_action(0)
        outcomes = dict(state.chance_outcomes())
    deck = Counter(game.rules.deck)
    assert sum(outcomes.values()) == pytest.approx(1.0)
    assert all(outcomes[c] == pytest.approx(n / len(game.rules.deck)) for c, n in deck.items())
    card = max(deck)
    state.apply_action(card)
    after = dict(state.chance_outcomes())
    left = len(game.rules.deck) - 1
    assert after[card] == pytest.approx((deck[card] - 1) / left)


def test_a_seats_tensor_is_its_own_observation_only() -> None:
    """What OpenSpiel shows seat k is the engine's ``Hand.observation(k)``: another seat's cards
    change nothing in it (docs/research.md, the encoder reads the observation only)."""
    game = pyspiel.load_game("python_gouji")
    state = game.new_initial_state()
    deal(state, np.random.RandomState(9))
    h = state.hand
    assert h is not None
    seat = 1
    tensor = np.asarray(state.observation_tensor(seat), dtype=np.float32)
    assert tensor.shape == (OBS_SIZE,)
    assert np.array_equal(tensor, ObservationEncoder().encode(h.observation(seat)))
    info = np.asarray(state.information_state_tensor(seat), dtype=np.float32)
    assert np.array_equal(info[OBS_SIZE:], np.asarray(h.initial[seat][:NRANKS], dtype=np.float32))
    # the same seat's view with another seat's hand changed: equal tensors
    hands = [list(x) for x in h.hands]
    other = (seat + 1) % 6
    donor = next(r for r in range(NRANKS) if hands[other][r])
    taker = next(r for r in range(NRANKS) if r != donor)
    hands[other][donor] -= 1
    hands[other][taker] += 1
    twin = Hand(game.rules, hands, h.turn)
    assert np.array_equal(ObservationEncoder().encode(twin.observation(seat)), tensor)


def test_returns_are_the_team_difference_of_the_engines_scores() -> None:
    game = pyspiel.load_game("python_gouji")
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    deal(state, rng)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    a, b = state.hand.scores()
    assert state.returns() == [a - b, b - a] * 3
    assert sum(state.returns()) == 0


def test_a_clone_plays_on_alone() -> None:
    game = pyspiel.load_game("python_gouji")
    state = game.new_initial_state()
    rng = np.random.RandomState(4)
    deal(state, rng)
    twin = state.clone()
    twin.apply_action(twin.legal_actions()[0])
    assert state.history() != twin.history()
    assert state.hand.decisions == 0 and twin.hand.decisions == 1


def test_openspiel_mcts_plays_a_hand() -> None:
    mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
    game = pyspiel.load_game("python_gouji", {"variant": "dianshaomenla"})
    rng = np.random.RandomState(3)
    bot = mcts.MCTSBot(
        game, uct_c=2.0, max_simulations=2, evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng
    )
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            deal(state, rng)
        else:
            state.apply_action(bot.step(state))
    assert sorted(state.hand.places) == [1, 2, 3, 4, 5, 6]


def test_shimmy_reaches_the_game_as_a_pettingzoo_env() -> None:
    shimmy = pytest.importorskip("shimmy")
    env = shimmy.OpenSpielCompatibilityV0(game_name="python_gouji", config={"variant": "dianshaomenla"})
    env.reset(seed=1)
    steps = 0
    for agent in env.agent_iter():
        _, _, term, trunc, info = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(info["action_mask"])[0]))
        steps += 1
        assert agent.startswith("player_")
    assert steps > 6


def test_the_chance_nodes_deal_in_the_engines_order() -> None:
    """The cards of the engine's seeded deal, given as chance outcomes in its dealing order, start
    the same hand that ``Hand.deal`` does."""
    from gouji_rules.play.engine import deal_cards

    game = pyspiel.load_game("python_gouji")
    cards, leader = deal_cards(game.rules, 17)
    state = game.new_initial_state()
    if state.leader is None:
        state.apply_action(leader)
    queues = [list(c) for c in cards]
    for seat in state._deal_order(leader):
        state.apply_action(queues[seat].pop(0))
    assert state.hand is not None
    assert state.hand.initial == Hand.deal(game.rules, 17).initial
    assert state.current_player() == Hand.deal(game.rules, 17).turn


def test_the_openspiel_page_examples_run() -> None:
    pytest.importorskip("shimmy")
    import doctest
    from pathlib import Path

    page = Path(__file__).resolve().parents[2] / "docs" / "openspiel.md"
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10
    assert result.failed == 0


NOT_INDICES = [True, False, np.bool_(True), 1.0, np.float32(1), np.float32(1.7), "1", None, -1, 2**70, 10**5000]


@pytest.mark.parametrize("action", NOT_INDICES, ids=lambda a: type(a).__name__ if isinstance(a, int) else repr(a))
def test_an_action_that_is_not_an_index_is_refused_as_the_environments_refuse_it(action: object) -> None:
    """pyspiel read True and np.float32(1.7) as index 1 and played it (issue 30 item 4): the game checks
    what Python gives it as GoujiEnv does, at a chance node and at a seat's decision, and changes nothing."""
    from gouji_rules.env.aec import EnvError

    game = pyspiel.load_game("python_gouji")
    state = game.new_initial_state()
    for at_chance in (True, False):
        if not at_chance:
            deal(state, np.random.RandomState(1))
        history = state.history()
        for apply in (state.apply_action, state.apply_action_with_legality_check, state.child):
            with pytest.raises(EnvError, match=r"an action is an integer index 0\.\.\d+ \(Discrete\(\d+\)\)"):
                apply(action)
            assert state.history() == history
    legal = np.int64(state.legal_actions()[0])  # a numpy integer is an index
    assert state.child(legal).history() == [*history, int(legal)]
    state.apply_action(legal)
    assert state.history() == [*history, int(legal)]
