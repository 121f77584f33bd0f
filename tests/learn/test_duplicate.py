"""Strength on duplicate deals (issue 32 deliver 5): single hands, and matches of K hands."""

from gouji_rules.catalog import dagang
from gouji_rules.learn.duplicate import duplicate, play_pair
from gouji_rules.play.agents import GreedyAgent, SimpleAgent


class Counting(GreedyAgent):
    hands_started = 0

    def start_hand(self, seed: int, seat: int) -> None:
        Counting.hands_started += 1
        super().start_hand(seed, seat)


def test_a_deal_pair_of_one_agent_against_itself_cancels_exactly() -> None:
    assert all(play_pair(dagang(), seed, GreedyAgent, GreedyAgent) == 0.0 for seed in range(8))


def test_a_match_pair_plays_both_seatings_of_a_whole_match_and_counts_per_hand() -> None:
    Counting.hands_started = 0
    value = play_pair(dagang(), 4, Counting, GreedyAgent, match_hands=8)
    assert Counting.hands_started == 2 * 8 * 3  # three seats of team A, eight hands, two seatings
    assert abs(value) <= 4.0 * 2  # a hand's team difference is at most twice the 头科 score


def test_match_pairs_measure_a_stronger_team_in_points_per_hand() -> None:
    s = duplicate(dagang(), 24, 2026, SimpleAgent, GreedyAgent, match_hands=4)
    assert s.pairs == 24 and s.low < s.mean < s.high
    assert s.mean > 0  # simple beats greedy by about 1.8 a hand in single hands
