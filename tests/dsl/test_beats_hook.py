"""The ``beats`` hook (issue 25, item 4): a club's own beat relation as an expression.

The gouji-online relation (``examples/gouji_online.yaml``) against pairs worked out by hand from
its rules; a hook written to equal ``cover`` held to ``cover`` itself; the sets the engine offers
held to the sets the hook accepts; errors, ``explain``, ``validate`` and the schema.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gouji_rules import dsl
from gouji_rules.catalog import dagang
from gouji_rules.cli import main
from gouji_rules.dsl.expr import ExprError, compile_hook
from gouji_rules.dsl.schema import generate
from gouji_rules.dsl.words import BEATS_WORDS, in_words
from gouji_rules.game.cards import BJ, NRANKS, SJ, TOP, TWO, CardSet, parse_set
from gouji_rules.parts.hooks import BEAT_CONTEXT, HOOKS
from gouji_rules.play.agents import RandomAgent
from gouji_rules.play.engine import Hand
from gouji_rules.rules import Rules
from gouji_rules.rules.beat import Cover, HookBeat, set_context

ROOT = Path(__file__).resolve().parents[2]
GOUJI_ONLINE = ROOT / "examples" / "gouji_online.yaml"

COVER = (
    "size == table_size and rank > table_rank and table_all_bj == 0 and (table_jokers == 0"
    " or (table_all_top == 0 and all_top >= table_all_bj and all_bj + all_top >= table_all_sj + table_all_bj))"
)
"""dagang's ``cover`` (sets.dead: 大王) written out as a ``beats`` expression, without ``default``."""


def _club(tmp_path: Path, hook: str, name: str = "club.yaml") -> Path:
    path = tmp_path / name
    path.write_text(f'extends: dagang\nhooks:\n  beats: "{hook}"\n', encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def online() -> Rules:
    return dsl.load_file(GOUJI_ONLINE).rules


@pytest.fixture(scope="module")
def cover_hook() -> Rules:
    return dsl.load_text(f'extends: dagang\nname: cover_hook\nhooks:\n  beats: "{COVER}"\n', "<cover>").rules


# (played, table, beats?, why) — each worked out from gouji-online's rules as the issue states them
ONLINE_PAIRS = [
    ("88", "77", True, "same size, higher core"),
    ("77", "88", False, "lower core"),
    ("888", "77BJ", True, "the higher core wins whatever jokers the table set carries"),
    ("8SJ", "7BJ", True, "the higher core wins though the lower one carries a 大王"),
    ("7BJ", "8SJ", False, "a 大王 does not lift a lower core"),
    ("7777", "7772", True, "same core: more core cards win, an attached 2 counts for less"),
    ("7772", "7777", False, "same core: fewer core cards lose"),
    ("777BJ", "777SJ", True, "same core, same core cards: more 大王"),
    ("777SJ", "7772", True, "same core, same core cards, no 大王 on either: more 小王"),
    ("7772", "777SJ", False, "same core, same core cards: a 2 is below a 小王"),
    ("7772", "7772", False, "an equal set does not beat"),
    ("22", "AA", True, "a set of only 2s beats a plain set of the same size"),
    ("222", "AABJ", True, "a set of only 2s beats a plain set of its size even with a 大王 on it"),
    ("AABJ", "222", False, "a plain set never beats a set of only 2s and jokers"),
    ("2", "A", True, "a lone 2 is a set of only 2s"),
    ("A", "2", False, "a plain single never beats a 2"),
    ("SJ", "2", True, "only 2s and jokers on both sides: more 小王"),
    ("2", "SJ", False, "only 2s and jokers on both sides: fewer 小王"),
    ("BJ", "SJ", True, "only 2s and jokers on both sides: more 大王"),
    ("2BJ", "SJSJ", True, "大王 are counted first, whatever the rest"),
    ("SJSJ", "2BJ", False, "大王 are counted first: none against one"),
    ("2SJ", "22", True, "no 大王 on either: more 小王"),
    ("BJBJ", "22", True, "only 2s and jokers on both sides: more 大王"),
    ("BJBJ", "SJBJ", True, "more 大王"),
    ("BJBJ", "BJ", True, "one 大王 falls to exactly two 大王"),
    ("BJBJBJ", "BJ", False, "three 大王 are not exactly two, and the sizes differ"),
    ("SJSJ", "BJ", False, "two cards beat one only when they are two 大王"),
    ("BJBJ", "SJ", False, "two 大王 beat one card only when it is one 大王"),
    ("BJ", "BJ", False, "an equal set does not beat"),
    ("88", "777", False, "sizes differ"),
    ("99", "8", False, "sizes differ"),
]


@pytest.mark.parametrize(("played", "table", "expected", "why"), ONLINE_PAIRS)
def test_gouji_online_relation_by_hand(online: Rules, played: str, table: str, expected: bool, why: str) -> None:
    assert online.beat.beats(parse_set(played), parse_set(table)) is expected, why


def test_gouji_online_differs_from_cover_where_its_rules_say(online: Rules) -> None:
    cover = Cover(online, dagang().sets)
    for played, table in (("7777", "7772"), ("888", "77BJ"), ("BJBJ", "BJ")):
        b, t = parse_set(played), parse_set(table)
        assert online.beat.beats(b, t) and not cover.beats(b, t), (played, table)


def test_gouji_online_example_validates_without_errors() -> None:
    result = dsl.check_file(GOUJI_ONLINE)
    assert result.errors == [] and result.variant is not None
    assert isinstance(result.variant.rules.beat, HookBeat)
    assert len(result.variant.rules.deck) == 324


def test_gouji_online_plays_whole_hands_and_its_records_verify(tmp_path: Path) -> None:
    records = tmp_path / "online.jsonl"
    runner = CliRunner()
    done = runner.invoke(
        main,
        ["simulate", "--variant", str(GOUJI_ONLINE), "--hands", "4", "--agents", "random", "--records", str(records)],
    )
    assert done.exit_code == 0, done.stderr
    lines = records.read_text("utf-8").splitlines()
    assert json.loads(lines[0])["kind"] == "rules" and len(lines) == 1 + 4  # the rules, then each hand
    checked = runner.invoke(main, ["verify", str(records), "--variant", str(GOUJI_ONLINE)])
    assert checked.exit_code == 0, checked.stdout + checked.stderr


def test_every_follow_the_engine_offers_is_one_the_hook_accepts_and_the_engine_takes() -> None:
    variant = dsl.load_file(GOUJI_ONLINE)
    rules = variant.rules
    offered = 0
    for seed in range(3):
        hand = Hand.deal(variant, seed)
        agents = [RandomAgent() for _ in range(6)]
        for s, a in enumerate(agents):
            a.start_hand(seed, s)
        while not hand.is_over:
            legal = hand.legal_actions()
            if hand.table is not None:
                for cs in legal.sets:
                    assert rules.beat.beats(cs, hand.table), (cs, hand.table)
                offered += len(legal.sets)
            hand.apply(agents[hand.turn].act(hand.observation(), legal))
        assert len(set(hand.places)) == 6
    assert offered > 0


def _every_set(rules: Rules, hand: Sequence[int]) -> Iterator[CardSet]:
    """Every set a hand can make, straight from ``could_hold`` (independent of the generator)."""
    for r in range(NRANKS):
        for k in range(1, hand[r] + 1):
            for a in range(hand[TWO] + 1 if r < TWO else 1):
                for s in range(hand[SJ] + 1):
                    for b in range(hand[BJ] + 1):
                        for y in range(hand[TOP] + 1):
                            cs = CardSet(r, k, a, s, b, y)
                            if rules.could_hold(cs):
                                yield cs


def _random_hand(rules: Rules, rng: random.Random, size: int) -> list[int]:
    counts = [0] * NRANKS
    for c in rng.sample(rules.deck, size):
        counts[c >> 2] += 1
    return counts


def _random_set(rules: Rules, rng: random.Random) -> CardSet:
    while True:
        hand = _random_hand(rules, rng, rng.randint(1, 14))
        sets = list(_every_set(rules, hand))
        if sets:
            return rng.choice(sets)


def test_followers_are_exactly_the_sets_the_hook_accepts(online: Rules) -> None:
    """Legality generated = legality checked: no set the hook accepts is missing, none is extra."""
    rng = random.Random(25)
    strategy = online.beat
    for _ in range(150):
        t = _random_set(online, rng)
        hand = _random_hand(online, rng, rng.randint(1, 24))
        want = [b for b in _every_set(online, hand) if strategy.beats(b, t)]
        got = strategy.followers(hand, t)
        assert len(got) == len(set(got)), (hand, t)
        assert sorted(got) == sorted(want), (hand, t)


def test_a_set_nothing_in_the_deck_beats_is_dead(online: Rules) -> None:
    strategy = online.beat
    assert strategy.dead(parse_set("BJBJBJBJBJBJ"))  # size 6: nothing holds more than the six 大王
    assert not strategy.dead(parse_set("BJ"))  # two 大王
    assert not strategy.dead(parse_set("AAAAAA+BJ"))  # a set of only 2s and jokers of size 7
    assert not strategy.followers(online.deck_counts, parse_set("BJBJBJBJBJBJ"))


def test_a_hook_written_as_cover_is_cover_over_random_pairs(cover_hook: Rules) -> None:
    """Held to the built-in: the same answer for every pair, the same followers in the same order."""
    rng = random.Random(4)
    cover = Cover(cover_hook, dagang().sets)
    hooked = cover_hook.beat
    assert isinstance(hooked, HookBeat)
    differing = 0
    for _ in range(400):
        t = _random_set(cover_hook, rng)
        hand = _random_hand(cover_hook, rng, rng.randint(1, 36))
        for b in _every_set(cover_hook, hand):
            assert hooked.beats(b, t) == cover.beats(b, t), (b, t)
        assert hooked.followers(hand, t) == cover.followers(hand, t), (hand, t)
        if t.size <= 6:
            assert hooked.dead(t) == cover.dead(t), t
        differing += hooked.dead(t) != cover.dead(t)
    assert differing == 0


@pytest.mark.parametrize(
    ("extends", "beat"), [("dagang", "cover"), ("liufu_ying", "kill_table"), ("dagang", "card_by_card")]
)
def test_default_alone_is_the_strategy_itself(extends: str, beat: str) -> None:
    """``beats: default`` offers exactly the built-in's answers: what the generator skips on a size
    and a core before trying a set (each strategy's ``may_beat``) is never a set it accepts."""
    club = f"extends: {extends}\nname: d\nsets:\n  beat: {beat}\nhooks:\n  beats: default\n"
    rules = dsl.load_text(club, "<default>").rules
    builtin = type(rules.beat.inner)(rules, rules.variant.sets)  # type: ignore[attr-defined]
    rng = random.Random(beat)
    for _ in range(150):
        t = _random_set(rules, rng)
        hand = _random_hand(rules, rng, rng.randint(1, 30))
        assert sorted(rules.beat.followers(hand, t)) == sorted(builtin.followers(hand, t)), (hand, t)


def test_default_is_the_strategy_sets_beat_names(tmp_path: Path) -> None:
    rules = dsl.load_file(_club(tmp_path, "default or (rank == table_rank and count > table_count)")).rules
    assert rules.beat.beats(parse_set("88"), parse_set("77"))  # cover's answer
    assert rules.beat.beats(parse_set("7777"), parse_set("7772"))  # the club's addition
    assert not rules.beat.beats(parse_set("7772"), parse_set("7777"))
    assert not rules.beat.beats(parse_set("9BJ"), parse_set("8BJ"))  # cover: a 大王 makes the set dead


def test_residual_agrees_with_the_expression_wherever_it_decides() -> None:
    """What the generator skips on the table set, a size and a rank alone is never a set the hook accepts."""
    text = GOUJI_ONLINE.read_text("utf-8").split("beats: >-\n", 1)[1]
    hooks = [
        compile_hook("beats", " ".join(text.split()), HOOKS["beats"]),
        compile_hook("beats", COVER, HOOKS["beats"]),
    ]
    hooks.append(
        compile_hook("beats", "not (rank < table_rank) and (count if size > 2 else twos) >= 1", HOOKS["beats"])
    )
    rng = random.Random(7)
    rules = dagang().rules
    for _ in range(3000):
        b, t = _random_set(rules, rng), _random_set(rules, rng)
        ctx = {**set_context(b), **set_context(t, "table_"), "default": rng.random() < 0.5}
        for hook in hooks:
            full = hook(ctx)
            for known in (("table_",), ("table_", "size"), ("table_", "size", "rank")):
                part = {k: v for k, v in ctx.items() if k.startswith(known[0]) or k in known[1:]}
                decided = hook.residual(part)
                assert decided.value is None or decided.value == full
                assert decided.residual(ctx).value == full


@pytest.mark.parametrize(
    ("hook", "offset", "message", "hint"),
    [
        ("rank > table_rnak", 7, "unknown name 'table_rnak'", "did you mean 'table_rank'"),
        ("size > table_size + 'K'", 20, "the right side of + must be a number (int), not a rank", ""),
        ("rank > 5", 7, "cannot compare a rank with a number (int) using >", "a rank is written in quotes: '5'"),
        ("size + table_size", 0, "hook beats must give true/false (bool)", "compare it"),
        ("all_bj > table_all_bj or dafault", 25, "unknown name 'dafault'", "did you mean 'default'"),
        ("table_rank > 'Z'", 13, "unknown rank 'Z'", ""),
        ("size == table_size and", 22, "the expression ends too early", ""),
    ],
)
def test_a_wrong_hook_is_reported_at_its_line_and_column(
    tmp_path: Path, hook: str, offset: int, message: str, hint: str
) -> None:
    path = _club(tmp_path, hook)
    errors = dsl.check_file(path).errors
    assert len(errors) == 1
    e = errors[0]
    column = len('  beats: "') + 1 + offset  # the offset of the problem in the expression
    assert (e.line, e.column) == (3, column), e
    assert message in e.message and hint in e.hint


def test_validate_prints_the_error_with_a_caret_and_exits_1(tmp_path: Path) -> None:
    path = _club(tmp_path, "rank > table_rnak")
    zh = CliRunner().invoke(main, ["validate", str(path)])
    assert zh.stderr.splitlines()[0] == f"{path}:3:18: 错误: hooks.beats 的表达式里：没有这个名字 'table_rnak'"
    done = CliRunner().invoke(main, ["validate", str(path), "--lang", "en"])
    assert done.exit_code == zh.exit_code == 1 and "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert lines[0] == f"{path}:3:18: error: in hooks.beats: unknown name 'table_rnak'"
    caret = next(line for line in lines if line.strip() == "^")
    source = next(line for line in lines if "table_rnak" in line and "error" not in line)
    assert source[caret.index("^") :].startswith("table_rnak")
    assert "hint: did you mean 'table_rank'?" in done.stderr


def test_explain_reads_the_hook_in_words_chinese_first_english_on_request() -> None:
    runner = CliRunner()
    zh = runner.invoke(main, ["explain", str(GOUJI_ONLINE)])
    en = runner.invoke(main, ["explain", str(GOUJI_ONLINE), "--lang", "en"])
    assert zh.exit_code == en.exit_code == 0
    assert "（hooks.beats）" in zh.stdout
    assert "即：（桌上那套的张数等于1，并且桌上那套的大王的张数等于1，并且出的牌的张数等于2" in zh.stdout
    # the hook's item number in the sheet moves as sections gain options: any number, the same words
    assert re.search(r"管牌方式：什么牌能管住什么牌：由表达式决定（见第\d+条），此参数不起作用。", zh.stdout)
    assert "That is: (the table set's size equals 1, and the table set's number of 大王 equals 1" in en.stdout
    assert "the played set's core rank is more than the table set's core rank" in en.stdout


def test_explain_says_sets_beat_still_acts_through_default(tmp_path: Path) -> None:
    done = CliRunner().invoke(main, ["explain", str(_club(tmp_path, "default and size < 3"))])
    assert "此参数仍经由表达式中的 default 起作用" in done.stdout
    assert "并且出的牌的张数小于3" in done.stdout


def test_validate_warns_that_sets_beat_is_dead_unless_the_hook_reads_default(tmp_path: Path) -> None:
    without = dsl.check_file(_club(tmp_path, "rank > table_rank and size == table_size", "a.yaml")).warnings
    with_default = dsl.check_file(_club(tmp_path, "default and size < 3", "b.yaml")).warnings
    assert any("sets.beat has no effect: hooks.beats decides instead" in w.message for w in without)
    assert not any("sets.beat" in w.message for w in with_default)


def test_the_schema_knows_the_hook_and_its_names() -> None:
    hooks = generate()["properties"]["hooks"]["properties"]
    assert "beats" in hooks and "table_rank" in hooks["beats"]["description"]
    shipped = json.loads((ROOT / "gouji_rules" / "data" / "schema.json").read_text("utf-8"))
    assert shipped["properties"]["hooks"]["properties"]["beats"] == hooks["beats"]
    assert set(BEAT_CONTEXT) >= {"rank", "table_rank", "all_bj", "table_all_sj", "default"}


_PIECES = [
    *sorted(BEAT_CONTEXT),
    *["'7'", "'2'", "'SJ'", "0", "1", "2", "true"],
    *[" == ", " != ", " < ", " > ", " >= ", " + ", " - ", " and ", " or ", " if ", " else ", " in "],
    *["not ", "(", ")", "[", "]", ", ", "max(", "min("],
]


@st.composite
def beats_hooks(draw: st.DrawFn) -> str:
    """Expressions of the beats names that compile (most random texts do not; those are redrawn)."""
    for _ in range(50):
        text = "".join(draw(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=15)))
        try:
            compile_hook("beats", text, HOOKS["beats"])
        except ExprError:
            continue
        return text
    return "size == table_size"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(text=beats_hooks(), seed=st.integers(0, 10_000))
def test_any_beats_expression_offers_exactly_what_it_accepts_and_reads_out_in_words(text: str, seed: int) -> None:
    """Whatever a club writes: the generator's sets are the expression's, and explain can say it."""
    rules = dsl.load_text(f"extends: dagang\nname: r\nhooks:\n  beats: {json.dumps(text)}\n", "<r>").rules
    rng = random.Random(seed)
    for _ in range(3):
        t = _random_set(rules, rng)
        hand = _random_hand(rules, rng, rng.randint(1, 10))
        want = [b for b in _every_set(rules, hand) if rules.beat.beats(b, t)]
        assert sorted(rules.beat.followers(hand, t)) == sorted(want), (text, hand, t)
    assert in_words(text, BEATS_WORDS, "zh") and in_words(text, BEATS_WORDS, "en")
