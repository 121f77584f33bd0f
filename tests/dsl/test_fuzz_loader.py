"""Random and mutated expressions and YAML: only the package's own errors come out, and fast."""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gouji_rules import dsl
from gouji_rules.dsl.expr import ExprError, compile_hook
from gouji_rules.errors import VariantError
from gouji_rules.parts.hooks import HOOKS

ATOMS = ["count", "rank", "twos", "jokers", "threshold", "'K'", '"2"', "1", "0", "true", "points", "sweep", "x"]
OPS = [" + ", " - ", " * ", " // ", " % ", " == ", " < ", " >= ", " and ", " or ", " in ", " if ", " else "]
PIECES = [*ATOMS, *OPS, "(", ")", "[", "]", ",", "not ", "min(", "max(", "sum(", "len(", "count(", ".", "'"]

expressions = st.one_of(
    st.text(max_size=60),
    st.lists(st.sampled_from(PIECES), max_size=25).map("".join),
)

SEED = (
    "# yaml-language-server: $schema=../gouji_rules/data/schema.json\n"
    "extends: dagang\nname: club\nburn:\n  enabled: true\n  teammate: false\n"
    'sets:\n  bare: ["3", "4"]\ngouji:\n  thresholds: {"2": 1, "T": 5}\n'
    "hooks:\n  team_score: max(0, sum(points))\n"
)
YAML_NOISE = [
    ":",
    " ",
    "\n",
    "  ",
    "- ",
    "[",
    "]",
    "{",
    "}",
    "&a ",
    "*a",
    "!!str ",
    "'",
    '"',
    "#",
    "yes",
    "010",
    "1:30",
    "<<",
]


@st.composite
def mutated_yaml(draw: st.DrawFn) -> str:
    text = SEED
    for _ in range(draw(st.integers(0, 6))):
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        piece = draw(st.sampled_from(YAML_NOISE) | st.text(max_size=4))
        if op == "insert":
            text = text[:i] + piece + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + draw(st.integers(1, 8)) :]
        else:
            text = text[:i] + piece + text[i + len(piece) :]
    return text


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(HOOKS)), text=expressions)
def test_random_expressions_raise_only_expr_errors(name: str, text: str) -> None:
    start = time.process_time()  # this process's CPU: other processes' load does not count
    try:
        hook = compile_hook(name, text, HOOKS[name])
    except ExprError as e:
        assert 0 <= e.offset <= len(text)
    else:
        assert hook.result == HOOKS[name].result
    assert time.process_time() - start < 1.0


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=mutated_yaml())
def test_mutated_yaml_raises_only_variant_errors(text: str) -> None:
    start = time.process_time()  # this process's CPU: other processes' load does not count
    try:
        result = dsl.check_text(text, "fuzz.yaml")
    except VariantError:  # pragma: no cover - check_text reports, it does not raise
        raise AssertionError("check_text raised") from None
    for e in result.errors:
        assert e.file.endswith("fuzz.yaml") or e.file.endswith(".yaml")
        assert e.line >= 1 and e.column >= 1
        e.format()
    assert time.process_time() - start < 2.0


@settings(max_examples=200, deadline=None)
@given(expr=expressions)
def test_expression_inside_a_yaml_file_maps_errors_into_the_file(expr: str) -> None:
    quoted = "'" + expr.replace("'", "''") + "'"
    text = f"extends: dagang\nhooks:\n  is_gouji: {quoted}\n"
    try:
        result = dsl.check_text(text, "h.yaml")
    except VariantError:  # pragma: no cover
        raise AssertionError("check_text raised") from None
    for e in result.errors:
        assert 1 <= e.line <= text.count("\n") + 1
