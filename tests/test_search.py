"""The search agent (ismcts): it sees only its own observation, samples worlds that agree
with it, repeats exactly under a seed, and is registered as an agent name."""

from gouji_rules.catalog import dagang, dianshaomenla
from gouji_rules.game.actions import PASS
from gouji_rules.game.rng import SplitMix64
from gouji_rules.play.agents import GreedyAgent, make_agent
from gouji_rules.play.engine import Hand
from gouji_rules.search import SearchAgent, rebuild, sample_world, unseen_cards
from gouji_rules.sim import play_hand


def _position(variant_factory, seed: int, decisions: int) -> Hand:
    """A hand played by greedy players for a number of decisions."""
    hand = Hand.deal(variant_factory(), seed)
    players = [GreedyAgent() for _ in range(6)]
    for s, p in enumerate(players):
        p.start_hand(seed, s)
    while decisions > 0 and not hand.is_over:
        s = hand.turn
        hand.apply(players[s].act(hand.observation(s), hand.legal_actions()))
        decisions -= 1
    return hand


def _swap_hidden(hand: Hand, me: int) -> Hand:
    """The same position with one card of two other seats' hands exchanged (their counts kept)."""
    other = hand.copy()
    seats = [s for s in range(6) if s != me and sum(other.hands[s]) > 0]
    a, b = seats[0], seats[1]
    ra = next(r for r in range(16) if other.hands[a][r] and other.hands[a][r] > other.hands[b][r])
    rb = next(r for r in range(16) if other.hands[b][r] and r != ra)
    other.hands[a][ra] -= 1
    other.hands[b][ra] += 1
    other.hands[b][rb] -= 1
    other.hands[a][rb] += 1
    other._follow.clear()
    other._legal = None
    return other


def test_search_agent_choice_is_unaffected_by_hidden_cards_of_other_seats() -> None:
    checked = 0
    for seed in range(40):
        hand = _position(dagang, seed, 30)
        if hand.is_over or hand.observation().mode not in ("lead", "follow"):
            continue
        me = hand.turn
        swapped = _swap_hidden(hand, me)
        assert swapped.hands != hand.hands and swapped.hands[me] == hand.hands[me]
        choices = []
        for h in (hand, swapped):
            agent = SearchAgent(worlds=3, candidates=4)
            agent.start_hand(seed, me)
            choices.append((agent.act(h.observation(me), h.legal_actions()), agent.searched))
        assert choices[0] == choices[1]
        checked += choices[0][1]
        if checked >= 3:
            break
    assert checked >= 3, "the search ran on at least three positions"


def test_sampled_worlds_agree_with_the_seats_observation() -> None:
    rng = SplitMix64(5)
    rebuilt = 0
    for factory in (dagang, dianshaomenla):
        for seed, decisions in ((1, 12), (2, 60), (3, 140)):
            hand = _position(factory, seed, decisions)
            if hand.is_over:
                continue
            obs = hand.observation()
            _pool, played = unseen_cards(obs)
            for _ in range(3):
                deal = sample_world(obs, rng)
                assert deal is not None
                assert [deal[obs.seat][r] - played[obs.seat][r] for r in range(16)] == list(obs.hand)
                for s in range(6):
                    assert sum(deal[s]) - sum(played[s]) == hand.cards_left()[s]
                world = rebuild(obs, deal)
                if world is None:
                    continue
                rebuilt += 1
                seen = world.observation(obs.seat)
                assert (seen.hand, seen.table, seen.mode, seen.cards_left) == (
                    obs.hand,
                    obs.table,
                    obs.mode,
                    obs.cards_left,
                )
                assert list(world.legal_actions()) == list(hand.legal_actions())
    assert rebuilt >= 10


def test_search_agent_repeats_a_hand_exactly_under_its_seed() -> None:
    records = []
    for _ in range(2):
        agents = [SearchAgent(worlds=2, candidates=3)] + [GreedyAgent() for _ in range(5)]
        records.append(play_hand(dianshaomenla(), 9, agents).record()["actions"])
    assert records[0] == records[1]


def test_ismcts_is_an_agent_name() -> None:
    agent = make_agent("ismcts")
    assert isinstance(agent, SearchAgent) and agent.name == "ismcts"


def test_every_sampled_world_rebuilds_when_burns_are_declined_out_of_seat_order() -> None:
    """S0's burn priority is the order of play: offers come 2, 3, 5, 0 after seat 1's set, so a
    world that does not offer seat 2 must still keep seat 0's offer (and a 闷 seat keeps its 3s)."""
    from gouji_rules.game.rng import derive

    seed = derive(77, 0)
    hand = Hand.deal(dianshaomenla(), seed)
    players = [SearchAgent(worlds=2, candidates=3)] + [GreedyAgent() for _ in range(5)]
    for s, p in enumerate(players):
        p.start_hand(seed, s)
    rng = SplitMix64(3)
    tried = rebuilt = declines = 0
    while not hand.is_over:
        s = hand.turn
        obs = hand.observation(s)
        if obs.mode in ("lead", "follow", "burn"):
            tried += 1
            deal = sample_world(obs, rng)
            rebuilt += deal is not None and rebuild(obs, deal) is not None
        action = players[s].act(obs, hand.legal_actions())
        declines += obs.mode == "burn" and action == PASS  # a decline leaves no public event
        hand.apply(action)
    assert declines > 0
    assert rebuilt == tried
