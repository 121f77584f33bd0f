"""`gouji verify` replays a match hand's events before play (``pre_play``): a record that invents a
declaration, changes a tribute card, invents a waive or drops a return of tribute is refused, even when
its deal, play and ``debts_next`` were made consistent with the forgery."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gouji_rules import catalog
from gouji_rules.game.cards import NRANKS, format_hand, parse_hand
from gouji_rules.play.agents import make_agent
from gouji_rules.play.engine import Hand
from gouji_rules.play.match import hand_result
from gouji_rules.records import verify_record
from gouji_rules.rules.settlement import settle

from .conftest import gouji

V = catalog.resolve("dagang")
SHIPPED = ["dagang", "dagang_jifen", "dianshaomenla", "liufu_ying", "sha21"]


def simulate(
    tmp_path: Path, name: str = "dagang", agents: str = "random", seed: int = 3, hands: int = 16
) -> list[dict[str, Any]]:
    out = tmp_path / f"{name}-{agents}-{seed}.jsonl"
    argv = ["--hands", str(hands), "--match-hands", "8", "--agents", agents, "--seed", str(seed), "--quiet"]
    r = gouji("simulate", "--variant", name, "--records", str(out), *argv)
    assert r.exit_code == 0, r.output
    return [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]


def write(path: Path, recs: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs), encoding="utf-8")
    return path


def settled_debts(rec: dict[str, Any], hand: Hand) -> list[dict[str, Any]]:
    """The debts the record's events and ``hand`` leave, as the forger would state them."""
    rules = V.rules
    places = list(hand.places)
    declarations = []
    for e in rec["pre_play"]:
        if e["type"] == "choose_last":
            places[e["seat"]], places[e["other"]] = places[e["other"]], places[e["seat"]]
        elif e["type"] in rules.staked_declarations():
            declarations.append((e["type"], e["seat"]))
    result = hand_result(hand, declarations, rec["setup"]["geming"], places)
    return [d.__dict__ for d in settle(rules, result).debts]


def replayed(rec: dict[str, Any]) -> Hand:
    hand = Hand.from_record(V, rec)
    hand.replay(rec["actions"])
    return hand


def played_again(rec: dict[str, Any]) -> dict[str, Any]:
    """The record with its hand played again by greedy bots from its (forged) deal: play, end and debts agree."""
    hand = Hand.from_record(V, rec)
    agents = [make_agent("greedy") for _ in range(6)]
    for s, a in enumerate(agents):
        a.start_hand(0, s)
    while not hand.is_over:
        s = hand.turn
        hand.apply(agents[s].act(hand.observation(s), hand.legal_actions()), s)
    fresh = hand.record()
    keys = ("actions", "events", "finish", "places", "opened", "scores", "end")
    out = {**rec, **{k: fresh[k] for k in keys}}
    out["debts_next"] = settled_debts(out, hand)
    return out


def refused(tmp_path: Path, recs: list[dict[str, Any]], k: int, forged: dict[str, Any]) -> str:
    """Verify the file with record ``k`` forged: the one line ``gouji verify`` prints about it."""
    assert verify_record(V, forged) is None  # consistent enough to pass every check but the events before play
    path = write(tmp_path / "forged.jsonl", [*recs[:k], forged, *recs[k + 1 :]])
    r = gouji("verify", str(path))
    assert r.exit_code == 1
    (line,) = r.stdout.splitlines()
    assert line.startswith(f"{path}:{k + 1}: hand {k}: pre_play event ")
    return line


def with_events(rec: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    return {**rec, "pre_play": events}


def rank(text: str) -> int:
    return parse_hand(text).index(1)


def one(r: int) -> str:
    return format_hand(tuple(1 if i == r else 0 for i in range(NRANKS)))


@pytest.mark.parametrize("agents", ["greedy", "random"])
@pytest.mark.parametrize("name", SHIPPED)
def test_verify_replays_the_events_before_play_of_every_shipped_variant(tmp_path: Path, name: str, agents: str) -> None:
    recs = simulate(tmp_path, name, agents)
    r = gouji("verify", str(tmp_path / f"{name}-{agents}-3.jsonl"))
    assert r.exit_code == 0, r.output
    assert "16 record(s) read, 16 verified, 0 problem(s)" in r.stderr and "note:" not in r.stderr
    # the phases did something to replay (dagang_jifen has no tribute, but buying and 革命)
    assert any(e["type"] not in ("kaipai", "first_leader", "deal") for x in recs[1:] for e in x["pre_play"])


def forged_declarations(recs: list[dict[str, Any]], where: str) -> Any:
    """Each hand with a 明点 added for a seat that made none, ``where`` the rules never ask it ("before":
    right after the deal, ahead of tribute) or in its turn ("last": after every other event before play),
    with the debts it moves stated consistently."""
    for k, rec in enumerate(recs[1:], start=1):
        hand = replayed(rec)
        declared = {e["seat"] for e in rec["pre_play"] if e["type"] in ("yudian", "mingdian")}
        for s in sorted(set(range(6)) - declared - set(rec["setup"]["geming"])):
            e = {"type": "mingdian", "seat": s, "other": (s + 3) % 6}
            events = [x for x in rec["pre_play"] if x["type"] != "sweep"]
            at = events.index({"type": "deal", "seat": rec["leader"]}) + 1 if where == "before" else len(events)
            events.insert(at, e)
            events += [x for x in rec["pre_play"] if x["type"] == "sweep"]
            forged = with_events(rec, events)
            forged["debts_next"] = settled_debts(forged, hand)
            if forged["debts_next"] != rec["debts_next"]:  # a declaration that moves nothing is no attack
                yield k, forged, at, e


def test_verify_refuses_a_forged_declaration_before_play(tmp_path: Path) -> None:
    recs = simulate(tmp_path)
    for k, forged, at, e in forged_declarations(recs, "before"):
        if forged["pre_play"][at + 1]["type"] != "tribute":
            continue  # 明点 comes after tribute (S4 第二十二条(三)): a 明点 ahead of it is one never asked
        line = refused(tmp_path, recs, k, forged)
        assert line.endswith(f"the record has {json.dumps(e, ensure_ascii=False)}")
        assert f"pre_play event {at + 1} is " + '{"type": "tribute"' in line
        return
    pytest.fail("no hand to forge a declaration in")


def test_verify_refuses_the_hand_after_a_declaration_added_in_turn(tmp_path: Path) -> None:
    """A 明点 added in its turn is a choice the player could have made: that hand cannot tell it from a real
    one, but the next hand of the match starts from the debts it stated, and its tribute is not the one paid."""
    recs = simulate(tmp_path)
    for k, forged, _, _ in forged_declarations(recs, "last"):
        if k + 1 >= len(recs) or recs[k + 1]["hand"] != recs[k]["hand"] + 1:
            continue
        assert verify_record(V, forged) is None
        path = write(tmp_path / "forged.jsonl", [*recs[:k], forged, *recs[k + 1 :]])
        r = gouji("verify", str(path))
        if r.exit_code == 0:
            continue  # the moved debt was never paid (扛贡, 革命): nothing to catch
        (line,) = r.stdout.splitlines()
        assert line.startswith(f"{path}:{k + 2}: hand {k + 1}: pre_play event ")
        return
    pytest.fail("no hand to forge a declaration in")


def test_verify_refuses_a_changed_tribute_card(tmp_path: Path) -> None:
    """The payer says he paid a smaller card than the rules make him pay (he keeps his best one); the deal,
    the play and the debts are all made to agree with it."""
    recs = simulate(tmp_path)
    for k, rec in enumerate(recs[1:], start=1):
        for j, e in enumerate(rec["pre_play"]):
            if e["type"] != "tribute":
                continue
            giver, receiver, paid = e["seat"], e["other"], rank(e["cards"])
            held = list(parse_hand(rec["deal"][giver]))
            smaller = next((r for r in range(paid) if held[r]), None)
            if smaller is None:
                continue
            deal = list(rec["deal"])
            mine, theirs = held, list(parse_hand(deal[receiver]))
            if not theirs[paid]:
                continue  # the card paid moved on before play: keep the forgery simple
            mine[smaller], mine[paid] = mine[smaller] - 1, mine[paid] + 1
            theirs[smaller], theirs[paid] = theirs[smaller] + 1, theirs[paid] - 1
            deal[giver], deal[receiver] = format_hand(mine), format_hand(theirs)
            events = [dict(x) for x in rec["pre_play"]]
            events[j]["cards"] = one(smaller)
            forged = played_again({**with_events(rec, events), "deal": deal})
            line = refused(tmp_path, recs, k, forged)
            assert line.endswith(f"the record has {json.dumps(events[j], ensure_ascii=False)}")
            assert f'"cards": "{e["cards"]}"' in line
            return
    pytest.fail("no tribute to forge")


def test_verify_refuses_an_invented_waive(tmp_path: Path) -> None:
    """A tribute card turned into a waive (让贡) the rules did not offer or the receiver did not make: the payer
    keeps his card in the deal, and the hand is played again from it."""
    recs = simulate(tmp_path)
    for k, rec in enumerate(recs[1:], start=1):
        for j, e in enumerate(rec["pre_play"]):
            if e["type"] != "tribute":
                continue
            giver, receiver, paid = e["seat"], e["other"], rank(e["cards"])
            deal = [list(parse_hand(h)) for h in rec["deal"]]
            if not deal[receiver][paid]:
                continue
            deal[receiver][paid] -= 1
            deal[giver][paid] += 1
            waive = {"type": "waive", "seat": receiver, "other": giver}
            events = [*rec["pre_play"][:j], waive, *rec["pre_play"][j + 1 :]]
            forged = played_again({**with_events(rec, events), "deal": [format_hand(h) for h in deal]})
            line = refused(tmp_path, recs, k, forged)
            assert f"pre_play event {j + 1} is " in line
            return
    pytest.fail("no tribute to turn into a waive")


def test_verify_refuses_a_removed_return_of_tribute(tmp_path: Path) -> None:
    recs = simulate(tmp_path)
    k, rec = next(
        (i, x) for i, x in enumerate(recs[1:], start=1) for e in x["pre_play"] if e["type"] == "return_tribute"
    )
    j = next(i for i, e in enumerate(rec["pre_play"]) if e["type"] == "return_tribute")
    events = [e for i, e in enumerate(rec["pre_play"]) if i != j]
    line = refused(tmp_path, recs, k, with_events(rec, events))
    e = rec["pre_play"][j]
    assert f'pre_play event {j + 1} is {{"type": "return_tribute", "seat": {e["seat"]}, ' in line


def test_verify_says_once_when_a_hand_starts_from_unknown_debts(tmp_path: Path) -> None:
    """A file that starts inside a match cannot say what its first hand owed: that one check is skipped, once
    said, and nothing is refused."""
    head, *recs = simulate(tmp_path)
    path = write(tmp_path / "cut.jsonl", [head, *recs[2:]])
    r = gouji("verify", str(path))
    assert r.exit_code == 0, r.output
    assert r.stderr.count("note:") == 1
    assert f"note: {path}:2: the debts hand 1 started with are unknown" in r.stderr


def test_verify_refuses_a_changed_draw_of_the_big_joker_call(tmp_path: Path) -> None:
    """S0 八、进贡 (叫停 with the 大王): the card drawn from the opposite is the hand's own unseen draw, replayed
    from its seed, not one the record may pick."""
    recs = simulate(tmp_path, "dianshaomenla", "random", seed=1, hands=64)
    for k, rec in enumerate(recs[1:], start=1):
        j = next((i for i, e in enumerate(rec["pre_play"]) if e["type"] == "point_call"), None)
        if j is None:
            continue
        events = [dict(e) for e in rec["pre_play"]]
        events[j]["value"] = events[j]["value"] % NRANKS + 1
        path = write(tmp_path / "forged.jsonl", [*recs[:k], with_events(rec, events), *recs[k + 1 :]])
        r = gouji("verify", str(path))
        assert r.exit_code == 1
        (line,) = r.stdout.splitlines()
        assert line.startswith(f"{path}:{k + 1}: hand {k}: pre_play event {j + 1} is ")
        assert line.endswith(f"the record has {json.dumps(events[j], ensure_ascii=False)}")
        return
    pytest.fail("no 大王 call to forge")


def test_verify_replays_the_events_before_play_of_records_without_a_seed(tmp_path: Path) -> None:
    """Without a seed the dealer's draws (开牌, 上班) are taken from the record; everything else is replayed."""
    head, *recs = simulate(tmp_path, "sha21", "random")
    bare = [{k: v for k, v in r.items() if k != "seed"} for r in recs]
    path = write(tmp_path / "bare.jsonl", [head, *bare])
    r = gouji("verify", str(path))
    assert r.exit_code == 0, r.output
    k, rec = next((i, x) for i, x in enumerate(bare) if any(e["type"] == "mingdian" for e in x["pre_play"]))
    events = [e for e in rec["pre_play"] if e["type"] != "mingdian"]
    r = gouji("verify", str(write(path, [head, *bare[:k], with_events(rec, events), *bare[k + 1 :]])))
    assert r.exit_code == 1 and f":{k + 2}: hand {k + 1}: " in r.stdout
