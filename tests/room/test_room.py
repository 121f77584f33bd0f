"""A room (issue 33): the server holds the game, each seat sees only its own observation and acts only for
itself; refused frames change nothing; 托管 plays for a silent person and is marked in the records."""

from __future__ import annotations

import pytest

from gouji_rules.catalog import dagang, dianshaomenla
from gouji_rules.records.verify import verify_record
from gouji_rules.room import PERSON, Room, RoomRefused
from gouji_rules.room.scan import view_leaks


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _play_as_person(room: Room, seat: int) -> None:
    """The person at ``seat`` always takes the first legal action shown to them."""
    while not room.match.is_over:
        room.run_agents()
        if room.match.is_over:
            break
        v = room.view(seat)
        assert v["yours"]
        room.act(room.seats[seat].secret, {"seq": v["seq"], "index": 0})


@pytest.mark.parametrize("variant", [dagang, dianshaomenla])
def test_one_person_and_five_agents_play_a_match_whose_every_hand_verifies(variant) -> None:
    room = Room(variant(), [PERSON] + ["greedy"] * 5, hands=2, seed=5, takeover=None)
    _play_as_person(room, 0)
    records = room.records()
    assert len(records) == 2 and room.view(0)["over"]
    assert all(verify_record(room.variant, r) is None for r in records)


def test_each_seat_is_shown_only_its_own_observation_and_no_other_hand() -> None:
    """The leak scan: at every decision of a match, each seat's view is the engine's observation of that
    seat, and no other seat's whole hand (of 8 cards or more) appears anywhere in it."""
    room = Room(dagang(), ["greedy"] * 6, hands=2, seed=11, takeover=None)
    frames = 0
    while not room.match.is_over:
        for s in range(6):
            assert view_leaks(room, s) == [], s
            frames += 1
        room.step_agent()
    assert frames > 1000


def test_refused_frames_leave_the_game_unchanged() -> None:
    room = Room(dagang(), [PERSON, PERSON] + ["greedy"] * 4, hands=1, seed=3, takeover=None)
    room.run_agents()
    turn = room.match.turn
    other = 1 - turn if turn in (0, 1) else 0
    me, them = room.seats[turn].secret, room.seats[other].secret
    before = (room.seq, len(room.match.log))
    attacks = [
        ("not-a-secret", {"seq": room.seq, "index": 0}, "secret"),
        (them, {"seq": room.seq, "index": 0}, "turn"),  # a seat acting on another's turn
        (me, {"seq": room.seq - 1, "index": 0}, "stale"),  # a frame replayed from an older view
        (me, {"index": 0}, "stale"),
        (me, {"seq": True, "index": 0}, "stale"),
        (me, [room.seq, 0], "malformed"),
        (me, {"seq": room.seq, "index": 10**9}, "illegal"),
        (me, {"seq": room.seq, "action": "BJBJBJBJBJ"}, "illegal"),
        (me, {"seq": room.seq, "action": "not cards"}, "illegal"),
    ]
    for secret, frame, code in attacks:
        with pytest.raises(RoomRefused) as e:
            room.act(secret, frame)
        assert e.value.code == code and e.value.zh
        assert (room.seq, len(room.match.log)) == before
    seq = room.seq
    room.act(me, {"seq": seq, "index": 0})
    with pytest.raises(RoomRefused, match="not the current"):  # the same frame from a second tab
        room.act(me, {"seq": seq, "index": 0})


def test_a_silent_person_is_played_by_the_agent_until_they_act_and_the_records_say_so() -> None:
    clock = Clock()
    room = Room(dagang(), [PERSON] + ["greedy"] * 5, hands=1, seed=7, takeover=30, clock=clock)
    room.run_agents()
    assert room.match.turn == 0 and not room.agent_due()
    clock.now += 29.9
    assert room.run_agents() == 0
    clock.now += 0.2
    assert room.step_agent()  # 30 s silent: the agent plays seat 0
    assert room.view(0)["taken_over"][0] and room.takeovers == [(room.seq - 1, 0)]
    room.run_agents()  # it keeps playing for seat 0 while the person is away
    assert room.match.is_over or room.match.turn != 0 or room.view(0)["taken_over"][0]
    assert room.records() == [] or room.records()[0]["takeover"][0]["seat"] == 0


def test_the_person_coming_back_takes_their_seat_again() -> None:
    clock = Clock()
    room = Room(dagang(), [PERSON] + ["greedy"] * 5, hands=1, seed=7, takeover=30, clock=clock)
    room.run_agents()
    clock.now += 31
    room.step_agent()
    while not room.match.is_over and room.match.turn != 0:
        room.step_agent()
    if room.match.is_over:
        pytest.skip("the hand ended before seat 0 was asked again")
    room.seats[0].taken_over = True
    v = room.view(0)
    assert not v["yours"]  # while taken over, the agent decides
    room.seats[0].taken_over = False
    room.act(room.seats[0].secret, {"seq": room.seq, "index": 0})
    assert not room.view(0)["taken_over"][0]


def test_a_view_is_the_same_however_often_it_is_asked() -> None:
    """A phone that drops and comes back is sent the view again: the same as one that never dropped."""
    room = Room(dagang(), [PERSON] + ["greedy"] * 5, hands=1, seed=2, takeover=None)
    room.run_agents()
    assert room.view(0) == room.view(0) and room.view(3) == room.view(3)


def test_a_friendly_room_shows_every_hand_after_the_hand_and_an_event_room_does_not() -> None:
    friendly = Room(dagang(), ["greedy"] * 6, hands=2, seed=4, takeover=None, show_hands_after=True)
    plain = Room(dagang(), ["greedy"] * 6, hands=2, seed=4, takeover=None)
    for room in (friendly, plain):
        while not room.match.summaries:
            room.step_agent()
    shown = friendly.view(0)["last_hands"]
    assert isinstance(shown, list) and len(shown) == 6 and plain.view(0)["last_hands"] is None


def test_a_room_has_six_seats() -> None:
    from gouji_rules.errors import GoujiError

    with pytest.raises(GoujiError, match="six seats"):
        Room(dagang(), [PERSON] * 5)


def test_a_hands_record_lists_only_the_takeovers_made_in_that_hand() -> None:
    """托管 marks belong to the hand they were made in: a record of hand 2 does not claim hand 1's."""
    clock = Clock()
    room = Room(dagang(), [PERSON] + ["greedy"] * 5, hands=2, seed=7, takeover=0, clock=clock)
    while len(room.match.summaries) < 1:
        room.step_agent()
    first = len(room.takeovers)
    room.run_agents()
    records = room.records()
    assert len(records) == 2 and first > 0 and len(room.takeovers) > first
    assert [len(r["takeover"]) for r in records] == [first, len(room.takeovers) - first]
    assert all(t["seat"] == 0 for r in records for t in r["takeover"])


def test_the_actions_offered_read_as_a_player_says_them() -> None:
    from gouji_rules.room.core import action_label

    said = {
        ("yudian", "yudian"): "预点",
        ("pass", "follow"): "过牌",
        ("pass", "burn"): "不烧",
        ("KKK2+SJ", "follow"): "出 KKK2+SJ",
        ("geming", "geming"): "革命",
        ("with_head", "head"): "有头",
        ("last3", "choose_last"): "4 号座当大落",
    }
    assert {k: action_label(*k) for k in said} == said
    room = Room(dagang(), [PERSON] + ["greedy"] * 5, hands=1, seed=3, takeover=None)
    room.run_agents()
    v = room.view(0)
    assert v["mode_zh"] == "预点" and v["labels"] == ["预点", "过牌"]
