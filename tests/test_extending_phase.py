"""A phase added from outside the package: 赦贡, a receiver may forgive a debt owed to him.

Everything the phase needs is in this module (docs/extending.md walks through the same code): its
decision, its word, its event, how a club enters it at a real table, and how ``gouji verify``'s
replay reads its choice back from a record.  It is registered only while a test runs (the
``shegong`` fixture), and it plays only where :data:`FORGIVING` names the variant: it declares no
option of its own (``options = (Option(...),)``, docs/extending.md, is how a phase that needs one does).
"""

from __future__ import annotations

import json
from collections.abc import Generator, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from gouji_rules.catalog import dagang
from gouji_rules.errors import IllegalAction
from gouji_rules.game.actions import PASS, Action, Choose, parse_action
from gouji_rules.game.events import Event, EventKind, event_ids
from gouji_rules.phases.base import (
    ClubEntry,
    Decision,
    DecisionKind,
    HandPrep,
    Recorded,
    recorded_by,
    register_phase,
    unregister_phase,
)
from gouji_rules.play.agents import RandomAgent
from gouji_rules.play.match import Match, play_match
from gouji_rules.rules import Rules
from gouji_rules.rules.settlement import Debt

from .tournament.conftest import gouji

FORGIVING = {"dagang"}
"""the variants that play 赦贡"""

FORGIVE = DecisionKind("forgive", "赦贡", "forgive a debt owed to you, or pass", listed=150)


def forgiven(rules: Rules, debts: list[Debt], pairs: Sequence[tuple[int, int]]) -> list[Debt]:
    """At a real table: each GIVER:RECEIVER pair takes one debt the giver owes the receiver out of
    what is owed next hand; a pair with no such debt is refused."""
    for giver, receiver in pairs:
        hit = next((d for d in debts if (d.giver, d.receiver) == (giver, receiver) and d.count > 0), None)
        if hit is None:
            raise IllegalAction(
                f"forgive {giver}:{receiver}: seat {giver} owes seat {receiver} no tribute to forgive",
                rule="forgive",
                clause="赦贡 (a town's rule, tests/test_extending_phase.py)",
            )
        debts.remove(hit)
    return debts


class Shegong:
    """Before tribute is paid, each receiver is asked about each debt owed to him: ``forgive`` it
    (it is not paid, nor handed back) or ``pass``."""

    name = "shegong"
    zh = "赦贡：收贡的人可以免掉一笔贡"
    en = "赦贡: a receiver may forgive a debt owed to him"
    stage = "before_play"
    order = 55  # after buying (50), before tribute (60)
    decisions = (FORGIVE,)
    words = (Choose("forgive"),)
    events = (EventKind("forgive", 155, "赦贡", "a receiver forgave a debt: seat, other the giver, value its number"),)
    entry = ClubEntry(
        "forgive",
        "GIVER:RECEIVER (a debt the receiver forgave, 赦贡)",
        "赦贡（进贡者 → 收贡者）",
        "Forgiven tribute (giver → receiver)",
        forgiven,
    )

    def enabled(self, rules: Rules) -> bool:
        """Is this phase played under these rules?"""
        return rules.name in FORGIVING and rules.tribute

    def run(self, m: Match, prep: HandPrep) -> Generator[Decision, Action, bool]:
        """Ask each receiver about each debt, in the order they are owed."""
        kept = []
        for d in prep.debts:
            if d.count > 0 and not ({d.giver, d.receiver} & prep.setup.geming):
                number = prep.debt_number(d)
                a = yield m.ask(d.receiver, FORGIVE, (Choose("forgive"), PASS), subject=number)
                if isinstance(a, Choose):
                    m.event(Event("forgive", d.receiver, other=d.giver, value=number))
                    continue
            kept.append(d)
        prep.debts = kept
        return True

    def answer(self, rec: Recorded, d: Decision) -> Action | None:
        """``forgive`` where the next recorded event forgives this very debt: its ``value`` is the
        debt's number (``HandPrep.debt_number``), the decision's subject."""
        e = rec.next_event()
        return Choose("forgive") if recorded_by(e, "forgive", d.seat) and e.get("value") == d.subject else PASS


def kind_value(d: Debt) -> int:
    return int(dagang().rules.tribute_kind(d.kind).value)


@pytest.fixture
def shegong() -> Iterator[None]:
    register_phase(Shegong)
    yield
    unregister_phase("shegong")


def play_records(path: Path, matches: int = 40, hands: int = 4, seed: int = 5) -> list[dict[str, Any]]:
    """Random agents play ``matches`` matches of dagang; their hand records, one JSON a line in ``path``."""
    r = gouji(
        "simulate", "--variant", "dagang", "--agents", "random", "--hands", str(matches * hands),
        "--match-hands", str(hands), "--seed", str(seed), "--records", str(path), "--quiet",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [x for x in lines if x.get("kind") != "rules"]


def write(path: Path, like: Path, records: list[dict[str, Any]]) -> None:
    """``records`` in place of the hand records of the file ``like`` (its rules lines kept)."""
    rules = [line for line in like.read_text(encoding="utf-8").splitlines() if '"kind": "rules"' in line]
    path.write_text(
        "".join(x + "\n" for x in rules) + "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in records),
        encoding="utf-8",
    )


def forgives(rec: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in rec.get("pre_play", []) if e["type"] == "forgive"]


def test_shegong_is_a_decision_a_word_and_an_event_only_while_registered(shegong: None) -> None:
    assert parse_action("forgive") == Choose("forgive")
    assert DecisionKind("forgive") is FORGIVE and DecisionKind.FORGIVE is FORGIVE
    assert "forgive" in event_ids()
    unregister_phase("shegong")
    assert "forgive" not in event_ids()
    with pytest.raises(Exception, match="forgive"):
        parse_action("forgive")
    register_phase(Shegong)


def test_shegong_forgiven_debts_are_not_paid_over_many_matches(shegong: None) -> None:
    """Random players forgive now and then; a forgiven debt's cards are not paid (a receiver may be
    owed two equal debts, 预点 and 开点's 点贡: forgiving one leaves the other to pay)."""
    agents = [RandomAgent() for _ in range(6)]
    asked = forgave = 0
    for seed in range(30):
        m = play_match(dagang(), seed, 4, agents)
        owed: list[Debt] = []
        for summary in m.summaries:
            pre = summary.record["pre_play"]
            for e in (e for e in pre if e["type"] == "forgive"):
                forgave += 1
                d = owed[e["value"] - 1]
                assert (d.receiver, d.giver) == (e["seat"], e["other"])
                value = kind_value(d)
                paid = [
                    t
                    for t in pre
                    if t["type"] == "tribute" and (t["seat"], t["other"], t["value"]) == (d.giver, d.receiver, value)
                ]
                alike = [
                    x for x in owed if x is not d and (x.giver, x.receiver, x.kind) == (d.giver, d.receiver, d.kind)
                ]
                assert len(paid) <= sum(x.count for x in alike), (e, owed, paid)
            owed = summary.debts
        asked += sum(1 for _, a in m.log if a == Choose("forgive"))
    assert forgave > 20 and asked == forgave


def test_shegong_records_verify_and_name_which_debt(shegong: None, tmp_path: Path) -> None:
    """Records written with the phase verify; the replay tells apart two debts owed to one receiver."""
    path = tmp_path / "shegong.jsonl"
    records = play_records(path)
    assert sum(len(forgives(r)) for r in records) > 20
    r = gouji("verify", str(path))
    assert r.exit_code == 0, r.output
    assert f"{len(records)} verified, 0 problem(s)" in r.stderr
    # a receiver owed two debts or more forgave one: the record names which (its number)
    two = [
        (k, e, others)
        for k, rec in enumerate(records)
        for e in forgives(rec)
        if (
            others := [
                n for n, d in enumerate(owed_by(records, k), 1) if d["receiver"] == e["seat"] and n != e["value"]
            ]
        )
    ]
    assert two, "no receiver owed two debts forgave one: play more matches"
    k, e, others = two[0]
    tampered = json.loads(json.dumps(records))
    hit = next(x for x in tampered[k]["pre_play"] if x == e)
    hit["value"] = others[0]
    bad = tmp_path / "which.jsonl"
    write(bad, path, tampered)
    r = gouji("verify", str(bad))
    assert r.exit_code == 1
    assert "pre_play event" in r.output and '"type": "forgive"' in r.output
    assert "1 problem(s)" in r.stderr


def owed_by(records: list[dict[str, Any]], k: int) -> list[dict[str, Any]]:
    """The debts record ``k`` started from: the hand before's ``debts_next`` (none for a match's first)."""
    first = k == 0 or records[k]["seed"] is None or records[k - 1]["hand"] + 1 != records[k]["hand"]
    return [] if first else list(records[k - 1]["debts_next"])


def test_shegong_tampered_records_fail_with_a_reason(shegong: None, tmp_path: Path) -> None:
    path = tmp_path / "shegong.jsonl"
    records = play_records(path, matches=12)
    k = next(k for k, rec in enumerate(records) if forgives(rec))
    # a forgiveness the hand never had: the debt was paid
    dropped = json.loads(json.dumps(records))
    dropped[k]["pre_play"] = [e for e in dropped[k]["pre_play"] if e["type"] != "forgive"]
    # a forgiveness by the giver instead of the receiver
    swapped = json.loads(json.dumps(records))
    e = forgives(swapped[k])[0]
    e["seat"], e["other"] = e["other"], e["seat"]
    for name, tampered in (("dropped", dropped), ("swapped", swapped)):
        bad = tmp_path / f"{name}.jsonl"
        write(bad, path, tampered)
        r = gouji("verify", str(bad))
        assert r.exit_code == 1, name
        assert "pre_play event" in r.output, (name, r.output)


def test_shegong_without_its_phase_the_records_do_not_verify(shegong: None, tmp_path: Path) -> None:
    """The records need the phase that wrote them: replayed without it, a forgive event is unexplained."""
    path = tmp_path / "shegong.jsonl"
    play_records(path, matches=12)
    unregister_phase("shegong")
    try:
        r = gouji("verify", str(path))
        assert r.exit_code == 1 and "forgive" in r.output
    finally:
        register_phase(Shegong)


@pytest.fixture
def players_csv(tmp_path: Path) -> Path:
    p = tmp_path / "players.csv"
    p.write_text("name\n" + "".join(f"{n}\n" for n in "张李王赵钱孙"), encoding="utf-8")
    return p


def club_event(tmp_path: Path, players_csv: Path) -> Path:
    ev = tmp_path / "club.sqlite"
    r = gouji(
        "event", "new", str(ev), "--name", "赦贡夜", "--variant", "dagang", "--players", str(players_csv),
        "--rounds", "1", "--hands", "2", "--seed", "3",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert gouji("event", "seat", str(ev), "--round", "1").exit_code == 0
    return ev


def test_shegong_entered_at_a_real_table(shegong: None, tmp_path: Path, players_csv: Path) -> None:
    """``gouji event record --forgive GIVER:RECEIVER`` takes that debt out of what is owed next hand;
    a debt that is not owed is refused, and nothing is stored."""
    ev = club_event(tmp_path, players_csv)
    hand = ["event", "record", str(ev), "--round", "1", "--table", "1"]
    r = gouji(*hand, "--hand", "1", "--finish", "0 1 2 3 4 5", "--json")
    assert r.exit_code == 0, r.output
    owed = {(d["giver"], d["receiver"]) for d in json.loads(r.stdout)["hands"][0]["tribute"]}
    assert (5, 0) in owed
    r = gouji(*hand, "--hand", "2", "--finish", "0 1 2 3 4 5", "--forgive", "0:5", "--json")
    assert r.exit_code == 1 and "seat 0 owes seat 5 no tribute" in r.stderr
    r = gouji(*hand, "--hand", "2", "--finish", "0 1 2 3 4 5", "--forgive", "5:0", "--json")
    assert r.exit_code == 0, r.output
    h = json.loads(r.stdout)["hands"][0]
    assert (5, 0) not in {(d["giver"], d["receiver"]) for d in h["tribute"]}
    assert h["result"]["choices"] == {"forgive": [[5, 0]]}


def test_shegong_entry_is_refused_where_the_variant_has_no_shegong(
    shegong: None, tmp_path: Path, players_csv: Path
) -> None:
    ev = tmp_path / "other.sqlite"
    r = gouji(
        "event", "new", str(ev), "--name", "x", "--variant", "dianshaomenla", "--players", str(players_csv),
        "--rounds", "1", "--hands", "1",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert gouji("event", "seat", str(ev), "--round", "1").exit_code == 0
    r = gouji("event", "record", str(ev), "--round", "1", "--table", "1", "--hand", "1",
              "--finish", "0 1 2 3 4 5", "--forgive", "5:0")  # fmt: skip
    assert r.exit_code == 1 and "has no 赦贡" in r.stderr


class Rangxian:
    """A before-play phase that changes who leads: the leader's 下家 leads instead (a made-up rule)."""

    name = "rangxian"
    zh = "让先"
    en = "the leader lets the next seat lead"
    stage = "before_play"
    order = 95
    decisions: tuple[DecisionKind, ...] = ()
    words: tuple[Action, ...] = ()
    events: tuple[EventKind, ...] = ()
    entry = None

    def enabled(self, rules: Rules) -> bool:
        return rules.name in FORGIVING

    def run(self, m: Match, prep: HandPrep) -> Generator[Decision, Action, bool]:
        prep.lead = (prep.lead + 1) % 6
        return True
        yield  # a generator that asks nothing

    def answer(self, rec: Recorded, d: Decision) -> Action | None:
        return None


def test_a_phase_before_play_sets_who_leads(tmp_path: Path) -> None:
    before = Match(dagang(), seed=9, hands=1)
    while before.hand is None:
        before.apply(before.legal_actions()[0])
    register_phase(Rangxian)
    try:
        m = Match(dagang(), seed=9, hands=1)
        while m.hand is None:
            m.apply(m.legal_actions()[0])
        assert m.hand.record()["leader"] == (before.hand.record()["leader"] + 1) % 6 == m.turn
        path = tmp_path / "lead.jsonl"
        play_records(path, matches=3, hands=2)
        assert gouji("verify", str(path)).exit_code == 0
    finally:
        unregister_phase("rangxian")
    r = gouji("verify", str(path))
    assert r.exit_code == 1 and "to lead" in r.output


def test_shegong_entered_on_the_web_form(shegong: None, tmp_path: Path) -> None:
    """The hand form offers the phase's choice under its own label; what the table picks is checked by
    the phase and stored with the hand; a pair the form never offered is a forged request."""
    from starlette.testclient import TestClient

    from gouji_rules.tournament.event import Tournament
    from gouji_rules.web.app import Config, create_app

    from .web.conftest import make_event
    from .web.test_app import Club

    event = make_event(tmp_path / "web.sqlite")
    with TestClient(create_app(Config(event_path=event, log=lambda msg: None)), raise_server_exceptions=False) as c:
        club = Club(c, event)
        form = c.get(f"{club.link(1, 1, 0)}/hand/1").text
        assert 'name="choice_forgive"' in form and "赦贡（进贡者 → 收贡者）" in form
        in_order = {f"p{k + 1}": str(k) for k in range(6)}  # seat 0 头科 … seat 5 大落
        assert club.enter(1, 0, **in_order, choice_forgive="0:0").status_code == 400
        refused = club.enter(1, 0, **in_order, choice_forgive="0:5")  # seat 0 came first: he owes seat 5 nothing
        assert refused.status_code == 422 and "赦贡" in refused.text and club.stored() == 0
        assert club.enter(1, 0, **in_order, choice_forgive="5:0").status_code == 303  # 大落 owes 头科 落贡
        assert "赦贡（进贡者 → 收贡者）：" in c.get(club.link(1, 1, 1)).text  # the confirming side reads it
        club.post(f"{club.link(1, 1, 1)}/hand/1/confirm", {"csrf": club.csrf(), "audit": club.pending_audit(1, 1)})
    with Tournament.open(event) as ev:
        row = ev.db.hand(1, 1, 1)
        assert row is not None and row.result["choices"] == {"forgive": [[5, 0]]}


def test_the_env_layout_stays_while_shegong_is_registered(shegong: None) -> None:
    """The observation's layout is fixed when the env is imported: 赦贡, registered after, is the column
    of a mode the layout does not know (``mode.other``), and the learned agent makes it by its default
    chooser (inside the package it would be a column of its own: tests/test_catalogue.py)."""
    from gouji_rules.env.features import MODE_AT, MODES, ObservationEncoder

    assert "forgive" not in MODES
    agent = RandomAgent()
    for seed in range(40):
        m = Match(dagang(), seed=seed, hands=2)
        while not m.is_over and m.phase != FORGIVE:
            m.apply(agent.act(m.observation(), m.legal_actions()))
        if m.phase == FORGIVE:
            v = ObservationEncoder().encode(m.observation())
            assert v[MODE_AT + len(MODES)] == 1.0 and v[MODE_AT : MODE_AT + len(MODES)].sum() == 0
            return
    pytest.fail("no match asked 赦贡 in its second hand")


def test_the_env_encodes_every_word_and_kind_the_shipped_phases_declare() -> None:
    """The action encoding's words (derived from the registries, docs/research.md) hold exactly what the
    shipped phases declare, and the observation's modes only kinds they ask."""
    from gouji_rules.env.encoding import WORDS
    from gouji_rules.env.features import MODES, PLAY_MODES
    from gouji_rules.parts.registry import DECISION_KINDS, DECLARATIONS, PHASES
    from gouji_rules.phases.base import ANSWERED_BY, answering

    answering("")
    shipped = [PHASES[n] for n in PHASES if type(PHASES[n]).__module__.startswith("gouji_rules.")]
    words = {w for p in shipped for w in p.words}
    engine = {parse_action(w) for w in ("pass", "yield", "kou", "jiefeng", "agree", "refuse")}
    declared = {parse_action(k) for k in DECLARATIONS}  # a declaration added to the package is a word too
    assert set(WORDS) == words | engine | declared
    kinds = {k for k in DECISION_KINDS if type(ANSWERED_BY[k]).__module__.startswith("gouji_rules.")}
    # every mode column is a kind a shipped phase asks (a kind registered after the env's import reads
    # as mode.other; trained weights read the columns by name, so one added inside the package moves none)
    assert set(MODES) - set(PLAY_MODES) <= kinds


def test_a_phase_taking_a_shipped_kind_or_event_name_is_refused_and_registers_nothing() -> None:
    from gouji_rules.errors import VariantError
    from gouji_rules.parts.registry import PHASES

    class Clash(Rangxian):
        name = "clash"
        decisions = (DecisionKind("buy4", "买4", "another buy4"),)

    class ClashEvent(Rangxian):
        name = "clash"
        events = (EventKind("tribute", 1),)

    for cls in (Clash, ClashEvent):
        with pytest.raises(VariantError, match="already another"):
            register_phase(cls)
        assert "clash" not in PHASES
    assert DecisionKind("buy4").zh == "买4" and DecisionKind("buy4") is not Clash.decisions[0]


def test_shegong_an_option_less_phase_is_on_the_rule_sheet_where_it_plays(shegong: None) -> None:
    """The rule sheet a club prints says that 赦贡 is played, though the phase declares no option of
    its own; under a variant it does not play in, the sheet does not mention it."""
    r = gouji("explain", "dagang")
    assert r.exit_code == 0, r.output
    assert "另加的阶段：赦贡：收贡的人可以免掉一笔贡。" in r.output
    r = gouji("explain", "dagang", "--lang", "en")
    assert "An added phase: 赦贡: a receiver may forgive a debt owed to him." in r.output
    r = gouji("explain", "dianshaomenla")
    assert r.exit_code == 0 and "赦贡" not in r.output
