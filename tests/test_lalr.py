"""The shipped LALR driver (``gouji_rules.dsl.coldstart.lalr``) parses every text exactly as lark does.

``gouji validate`` parses hook expressions with tables lark built, without importing lark; these
tests hold it to lark itself: the same trees (names, children, tokens, positions) and the same
errors (kind, offset, line, column, expected terminals, the token), on every expression the
repository holds and on thousands of generated and mutated ones, and to lark's answer whenever
the tables were built from another grammar or another lark.
"""

from __future__ import annotations

import ast
import functools
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from lark import Lark
from lark import Token as LarkToken
from lark.exceptions import UnexpectedCharacters, UnexpectedToken

from gouji_rules.dsl import expr, parsetree
from gouji_rules.dsl.coldstart import expr_parser, lalr

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def lark_parser() -> Lark:
    return Lark(expr_parser.grammar_text(), **expr_parser.LARK_OPTIONS)


@pytest.fixture(scope="module")
def driver() -> lalr.Parser:
    saved = json.loads((ROOT / "gouji_rules" / "data" / "expr_parser.json").read_text("utf-8"))
    return lalr.Parser(saved["tables"])


# -- what a parse gives, in one comparable shape for both parsers -----------------------------------


def _node(root: Any) -> list[Any]:
    """A tree or token as a flat list, in preorder, each node with its number of children."""
    out: list[Any] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n is None:
            out.append(None)
        elif isinstance(n, str):  # lark's Token and lalr's Token are both str
            out.append(("token", n.type, str(n), n.start_pos, n.line, n.column, n.end_line, n.end_column, n.end_pos))
        else:
            m = n.meta
            span = None if m.empty else (m.line, m.column, m.start_pos, m.end_line, m.end_column, m.end_pos)
            out.append((str(n.data), span, len(n.children)))
            stack.extend(reversed(n.children))
    return out


def _lark_outcome(p: Lark, text: str) -> Any:
    try:
        return _node(p.parse(text))
    except UnexpectedCharacters as e:
        return ("characters", e.pos_in_stream, e.line, e.column, sorted(e.allowed), _node(None))
    except UnexpectedToken as e:
        assert isinstance(e.token, LarkToken)
        return ("token", e.pos_in_stream, e.line, e.column, sorted(e.expected), _node(e.token))


def _outcome(p: Any, text: str) -> Any:
    try:
        return _node(p.parse(text))
    except parsetree.ParseError as e:
        return (e.kind, e.pos_in_stream, e.line, e.column, sorted(e.expected), _node(e.token))


def _message(text: str) -> Any:
    try:
        expr.parse(text)
    except expr.ExprError as e:
        return e.message, e.offset, e.hint
    return None


# -- the corpus -------------------------------------------------------------------------------------


def _hooks(data: Any, seen: set[int] | None = None) -> list[str]:
    """The hook expressions in a YAML document (each shared node once: tests/invalid has an alias bomb)."""
    seen = set() if seen is None else seen
    if id(data) in seen:
        return []
    seen.add(id(data))
    out: list[str] = []
    if isinstance(data, dict):
        for k, v in data.items():
            if k == "hooks" and isinstance(v, dict):
                out += [str(x) for x in v.values()]
            out += _hooks(v, seen)
    elif isinstance(data, list):
        for v in data:
            out += _hooks(v, seen)
    return out


@functools.cache
def _repository_texts() -> list[str]:
    """Every hook in a YAML file of the repository, every string constant of the tests, every code span of the docs."""
    texts: list[str] = []
    for path in sorted(
        [*ROOT.glob("variants/*.yaml"), *ROOT.glob("tests/**/*.yaml"), *ROOT.glob("examples/**/*.yaml")]
    ):
        try:
            texts += _hooks(yaml.load(path.read_text("utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
        except (yaml.YAMLError, UnicodeDecodeError):
            continue
    for path in sorted(ROOT.glob("tests/**/*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) <= 400:
                texts.append(node.value)
    for path in sorted(ROOT.glob("docs/*.md")):
        text = path.read_text("utf-8")
        texts += [part for part in text.split("`")[1::2] if len(part) <= 400]
    texts += [v for _, v in sorted(expr_hooks().items())]
    return texts


def expr_hooks() -> dict[str, str]:
    from gouji_rules.dsl import bench

    return dict(bench.EQUIVALENT_HOOKS)


NAMES = [
    "a",
    "b",
    "count",
    "rank",
    "points",
    "x_1",
    "_",
    "andy",
    "order",
    "iff",
    "notable",
    "inx",
    "true1",
    "elsewhere",
]
SPACES = ["", " ", " ", "  ", "\n", "\t", "\r\n", "\f", "\r"]


def _expr(rnd: random.Random, depth: int) -> str:
    def sp() -> str:
        return rnd.choice(SPACES)

    if depth <= 0 or rnd.random() < 0.25:
        pick = rnd.randrange(9)
        if pick == 0:
            return rnd.choice(["0", "7", "10", "123", "9" * rnd.randint(18, 60)])
        if pick == 1:
            return rnd.choice(["true", "false"])
        if pick == 2:
            return rnd.choice(["'K'", '"2"', "''", "'SJ'", "' T '", '"BJ"', "'10'"])
        return rnd.choice(NAMES)
    d = depth - 1
    form = rnd.randrange(14)
    if form == 0:
        return f"{_expr(rnd, d)}{sp()} if {sp()}{_expr(rnd, d)} else {sp()}{_expr(rnd, d)}"
    if form == 1:
        return f" {rnd.choice(['or', 'and'])} ".join(_expr(rnd, d) for _ in range(rnd.randint(2, 4)))
    if form == 2:
        return f"not {_expr(rnd, d)}"
    if form == 3:
        op = rnd.choice(["==", "!=", "<", "<=", ">", ">=", "in", "not in"])
        return f"{_expr(rnd, d)}{sp()}{op}{sp() or ' '}{_expr(rnd, d)}"
    if form in (4, 5):
        op = rnd.choice(["+", "-", "*", "//", "%"])
        return f"{_expr(rnd, d)}{sp()}{op}{sp()}{_expr(rnd, d)}"
    if form == 6:
        return f"-{sp()}{_expr(rnd, d)}"
    if form == 7:
        return f"{_expr(rnd, d)}[{sp()}{_expr(rnd, d)}{sp()}]"
    if form == 8:
        args = f",{sp()}".join(_expr(rnd, d) for _ in range(rnd.randint(0, 3)))
        return f"{rnd.choice(['max', 'min', 'sum', 'len', 'count', 'abs', 'f', 'andf'])}({args})"
    if form == 9:
        return "[" + f",{sp()}".join(_expr(rnd, d) for _ in range(rnd.randint(0, 3))) + "]"
    return f"({sp()}{_expr(rnd, d)}{sp()})"


PIECES = list("()[],+-*/%<>=!&|.'\"\\#:;?@$^~`{} \n\t\r\f\v0123456789azKTJ_")
PIECES += ["（", "）", "【", "】", "，", "＋", "－", "＝", "＞", "“", "”", "‘", "’", "。", "、", "\u3000", "０", "ａ"]
PIECES += ["é", "中", "😀", "\x00", "\x01", "\x1b", "\x7f", "\x85", "\u200b", "\u2028", "\ufeff", "ß", "İ", "ﬁ"]
PIECES += [" and ", " or ", "not", " in ", " if ", " else ", "true", "false", "//", "==", "=>", "&&", "||", "**"]


def _mutant(rnd: random.Random, s: str) -> str:
    for _ in range(rnd.randint(1, 3)):
        k = rnd.randrange(len(s) + 1)
        s = s[:k] + rnd.choice(PIECES) + s[k + rnd.choice([0, 0, 1, 2]) :]
    return s


@functools.cache
def _corpus() -> list[str]:
    rnd = random.Random(13)
    valid = [_expr(rnd, rnd.randint(0, 6)) for _ in range(4000)]
    nested = []
    for n in (1, 2, 30, 59, 60, 61, 120, 300):
        nested += [
            "(" * n + "a" + ")" * n,
            "[" * n + "1" + "]" * n,
            "not " * n + "a",
            "-" * n + "1",
            "a[0]" + "[1]" * n,
        ]
        nested += ["(" * n + "a", "a" + ")" * n, "-" * n, "x" + " + x" * n, " or ".join(["a"] * n)]
    edge = ["", " ", "\n", "\t\r\n", "\x00", "a", "1", "-", "()", "[]", "f()", "a[]", "[,]", "f(,)", "a b", "1 2"]
    edge += ["andx", "a andx b", "a orb", "a iff b else c", "notin", "a not  in b", "a not\nin b", "a\n\n+\n1"]
    edge += ["9" * 4000, "'" + "x" * 500 + "'", "'K\n'", "'K", '"K', "'K'K'", "a.b", "a = b", "a =< b", "a => b"]
    seeds = _repository_texts() + valid[:500] + edge
    mutants = [_mutant(rnd, rnd.choice(seeds)) for _ in range(6000)]
    return list(dict.fromkeys(_repository_texts() + valid + nested + edge + mutants))


def test_the_driver_gives_lark_s_trees_and_errors_on_every_text(lark_parser: Lark, driver: lalr.Parser) -> None:
    corpus = _corpus()
    kinds = {"tree": 0, "characters": 0, "token": 0, "token seen by the lexer": 0}
    for text in corpus:
        want = _lark_outcome(lark_parser, text)
        assert _outcome(driver, text) == want, repr(text)
        kind = want[0] if want[0] in ("characters", "token") else "tree"
        kinds[kind] += 1
        if kind == "token":
            try:
                lark_parser.parse(text)
            except UnexpectedToken as e:  # lark's contextual lexer found a terminal another state takes
                kinds["token seen by the lexer"] += bool(e.token_history)
    # every answer is exercised many times: trees, unknown characters, tokens out of place
    assert min(kinds.values()) > 500, kinds


def test_a_text_parsed_by_lark_itself_comes_back_as_the_driver_s_tree(lark_parser: Lark, driver: lalr.Parser) -> None:
    fallback = expr_parser._LarkParser(expr_parser.grammar_text())
    rnd = random.Random(5)
    for _ in range(1500):
        text = _expr(rnd, 5)
        text = _mutant(rnd, text) if rnd.random() < 0.5 else text
        assert _outcome(fallback, text) == _outcome(driver, text), repr(text)


def test_gouji_s_messages_are_the_same_from_the_driver_and_from_lark(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _corpus()[::3]
    from_driver = [_message(t) for t in texts]
    monkeypatch.setattr(expr_parser, "parser", lambda: expr_parser._LarkParser(expr_parser.grammar_text()))
    fallback = expr_parser._LarkParser(expr_parser.grammar_text())
    monkeypatch.setattr(expr_parser, "parser", lambda: fallback)
    assert [_message(t) for t in texts] == from_driver
    assert sum(m is not None for m in from_driver) > 1000


def test_an_operator_in_a_hint_is_named_by_its_text() -> None:
    assert _message("a not b") == ("unexpected 'b'", 6, "expected 'in'")
    message = _message("(a == b")
    assert message is not None and "')'" in message[2] and "'=='" not in message[2] and "'//'" not in message[2]


# -- the shipped table: current, and never used when it is not ---------------------------------------


def test_the_shipped_table_is_the_one_lark_builds_from_this_grammar_now(lark_parser: Lark) -> None:
    saved = json.loads((ROOT / "gouji_rules" / "data" / "expr_parser.json").read_text("utf-8"))
    stale = "stale table: run python -c 'from gouji_rules.dsl.coldstart.expr_parser import write_table; write_table()'"
    assert saved["built_from"] == expr_parser.table_key(expr_parser.grammar_text()), stale
    assert saved["tables"] == json.loads(json.dumps(lalr.export(lark_parser))), stale


def test_lark_s_version_is_read_without_importing_lark(monkeypatch: pytest.MonkeyPatch) -> None:
    import lark

    monkeypatch.delitem(sys.modules, "lark")
    assert expr_parser.lark_version() == lark.__version__
    assert "lark" not in sys.modules


def test_the_parser_is_the_driver_while_the_table_is_current() -> None:
    expr_parser.parser.cache_clear()
    try:
        assert isinstance(expr_parser.parser(), lalr.Parser)
    finally:
        expr_parser.parser.cache_clear()


@pytest.mark.parametrize("change", ["grammar", "lark", "damaged", "missing"])
def test_an_edited_grammar_or_another_lark_is_parsed_by_lark_never_by_the_stale_table(
    change: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    edited = expr_parser.grammar_text().replace('| sum "!=" sum                   -> ne', '| sum "<>" sum -> ne')
    real = expr_parser._data_text
    if change == "grammar":
        monkeypatch.setattr(expr_parser, "grammar_text", lambda: edited)
    elif change == "lark":
        monkeypatch.setattr(expr_parser, "lark_version", lambda: "0.0.1")
    elif change == "damaged":
        monkeypatch.setattr(
            expr_parser, "_data_text", lambda p, n: '{"built_from": 1' if n.endswith(".json") else real(p, n)
        )
    else:
        monkeypatch.setattr(
            expr_parser, "_data_text", lambda p, n: real(p, "no_such_file.json") if n.endswith(".json") else real(p, n)
        )
    expr_parser.parser.cache_clear()
    try:
        assert isinstance(expr_parser.parser(), expr_parser._LarkParser)
        if change == "grammar":
            assert expr.parse("a <> b").data == "ne"
            with pytest.raises(expr.ExprError, match="unexpected '!'"):
                expr.parse("a != b")
        else:
            assert expr.parse("a != b").data == "ne"
    finally:
        expr_parser.parser.cache_clear()


# -- what parsing costs a cold start ---------------------------------------------------------------

CLUB = "extends: dagang\nname: club\nhooks:\n  may_answer: free_for_all or owner_no_head or is_opposite\n"
BAD_CLUB = "extends: dagang\nname: club\nhooks:\n  may_answer: free_for_all or (owner_no_head\n"


@pytest.mark.parametrize("text", [CLUB, BAD_CLUB], ids=["valid", "invalid"])
def test_validating_a_club_file_with_a_hook_never_imports_lark(text: str, tmp_path: Path) -> None:
    club = tmp_path / "club.yaml"
    club.write_text(text, encoding="utf-8")
    code = (
        "import sys\nfrom gouji_rules.cli import main\n"
        "try:\n    main(['validate', '-q', sys.argv[1]])\nexcept SystemExit as e:\n    print(e.code)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'lark'))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code, str(club)], capture_output=True, text=True, timeout=60)
    assert proc.stdout.splitlines() == ["0" if text == CLUB else "1", "[]"], proc.stderr


def test_parsing_an_expression_imports_nothing_but_the_driver() -> None:
    code = (
        "import sys, json, re\nfrom gouji_rules.dsl import expr\nbefore = set(sys.modules)\n"
        "expr.parse('a or b and not c[1] >= 2')\n"
        "try:\n    expr.parse('a or (')\nexcept expr.ExprError:\n    pass\n"
        "print(sorted(set(sys.modules) - before))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.splitlines() == ["['gouji_rules.data.grammar']"], proc.stderr
