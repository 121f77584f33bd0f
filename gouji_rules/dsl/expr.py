"""Hook expressions: parse (``grammar/expr.lark``, LALR), type-check, compile to closures.

An expression is checked against its hook's declared context
(``hooks.HOOKS``: the names it may use with their types, and the result type)
and becomes a plain Python closure ``fn(ctx) -> value``.  User text is never
handed to ``eval``, ``exec`` or ``compile``: the closures are built from a
fixed set of operations, and the only names are the context's.

Types: ``int``, ``bool``, ``rank`` (a card rank; literals are quoted symbols
such as ``'K'`` or ``"2"``) and lists of them (``list[int]`` …).

>>> from gouji_rules.parts.hooks import HOOKS
>>> fn = compile_hook("team_score", "max(0, sum(points))", HOOKS["team_score"])
>>> fn({"points": [4, -2, -4], "places": [1, 5, 6], "sweep": False})
0
>>> compile_expression("rank >= 'K' and count >= 2", {"rank": "rank", "count": "int"}, "bool")({"rank": 11, "count": 2})
True
"""

from __future__ import annotations

import operator
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..errors import NotationError, VariantError
from ..game.cards import SYMBOLS, rank_of
from ..parts.hooks import HookSpec
from .coldstart import expr_parser
from .errors import did_you_mean
from .parsetree import ParseError, Token, Tree

Fn = Callable[[Mapping[str, Any]], Any]

MAX_LENGTH = 2000
MAX_DEPTH = 60
FUNCTIONS = ("abs", "count", "len", "max", "min", "sum")
SCALARS = ("int", "bool", "rank")

_TOKEN_NAMES = {  # terminals that are not fixed text; the others are named by their text
    "INT": "a number",
    "RANK": "a quoted rank",
    "NAME": "a name",
    "$END": "the end of the expression",
}


class ExprError(VariantError):
    """An error inside an expression; ``offset`` is the 0-based character index in the expression text."""

    def __init__(self, message: str, offset: int = 0, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.hint = hint


HOOK_INT_MAX = 10**9
"""The largest magnitude a hook may give as a number (a score, a multiplier).  An expression can make
any integer (``points[0] * 99999 * 99999 * …``); beyond this it would overflow the 64-bit integers the
event file stores once multiplied by a sweep multiplier, so it is refused where it is made."""


class HookValueError(VariantError):
    """A hook gave a number outside ``-HOOK_INT_MAX .. HOOK_INT_MAX`` when it ran; names the hook and
    where it is written (``where``: file:line:col, or ``<hook>`` when unknown)."""

    def __init__(self, hook: str, where: str, value: int, source: str) -> None:
        digits = len(str(abs(value))) if value.bit_length() < 4000 else int(value.bit_length() * 0.30103)
        shown = f"{value:,}" if digits <= 24 else f"a number of {digits:,} digits"
        super().__init__(
            f"{where}: hook {hook} gave {shown}, outside -{HOOK_INT_MAX:,} .. {HOOK_INT_MAX:,} "
            f"(the expression {source[:120]!r})"
        )
        self.hook = hook
        self.where = where
        self.value = value


def parse(text: str) -> Tree:
    """The parse tree of an expression; raises ExprError with the column of a syntax error."""
    if len(text) > MAX_LENGTH:
        raise ExprError(f"expression is too long ({len(text)} characters; at most {MAX_LENGTH})", 0)
    if not text.strip():
        raise ExprError("empty expression", 0, "write a condition or a formula, for example: count >= threshold")
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
            if depth > MAX_DEPTH:
                raise ExprError(f"expression nests too deeply (more than {MAX_DEPTH} brackets)", i)
        elif ch in ")]":
            depth -= 1
    try:
        tree: Tree = expr_parser.parser().parse(text)
    except ParseError as e:
        raise _syntax_error(text, e) from None
    _check_depth(tree)
    return tree


def _syntax_error(text: str, e: ParseError) -> ExprError:
    pos = e.pos_in_stream
    if e.kind == "characters":
        ch = text[pos] if pos < len(text) else ""
        if ch == ".":
            return ExprError("attribute access ('.') is not part of the expression language", pos)
        if ch == "/":
            return ExprError("unexpected '/'", pos, "integer division is written //")
        if ch == "=":
            nxt = text[pos + 1 : pos + 2]
            if nxt in "<>" and nxt:
                return ExprError(f"'={nxt}' is not an operator", pos, f"write {nxt}= ({_COMPARE_WORDS[nxt + '=']})")
            return ExprError("unexpected '='", pos, "comparison is written ==")
        if ch in "&|!":
            return ExprError(f"unexpected {ch!r}", pos, "write and, or, not")
        if ch in "'\"":
            return ExprError("unterminated quoted rank", pos)
        ascii_ch = unicodedata.normalize("NFKC", ch) if ch not in "“”‘’" else ("'" if ch in "‘’" else '"')
        if ascii_ch != ch and ascii_ch.isascii():
            return ExprError(f"full-width {ch!r}", pos, f"write the ASCII {ascii_ch!r}")
        return ExprError(f"unexpected character {ch!r}", pos)
    tok = e.token
    assert tok is not None
    hint = _expected(e.expected, expr_parser.parser().literals)
    if tok.type == "$END":
        return ExprError("the expression ends too early", len(text.rstrip()), hint)
    value = str(tok)
    if value in ("&&", "||"):
        hint = "write and, or"
    return ExprError(f"unexpected {value!r}", tok.start_pos, hint)


def _expected(expected: Iterable[str], literals: Mapping[str, str]) -> str:
    names = {
        _TOKEN_NAMES.get(t) or (repr(literals[t]) if t in literals else repr(t.lower()) if t.isupper() else t)
        for t in expected
    }
    if not names or len(names) > 8:
        return ""
    return "expected " + ", ".join(sorted(names))


def _check_depth(tree: Tree) -> None:
    stack: list[tuple[Tree | Token | None, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ExprError(f"expression nests too deeply (more than {MAX_DEPTH} levels)", _pos(node))
        if isinstance(node, Tree):
            stack.extend((c, depth + 1) for c in node.children)


def _pos(node: Tree | Token | None) -> int:
    if isinstance(node, Token):
        return node.start_pos
    if isinstance(node, Tree) and node.meta.start_pos is not None:
        return node.meta.start_pos
    return 0


def names_used(tree: Tree) -> set[str]:
    """Context names an expression reads."""
    return {str(t.children[0]) for t in tree.subtrees() if t.data == "name"}


# -- type checking and compiling --------------------------------------------------------------


def _elem(t: str) -> str | None:
    return t[5:-1] if t.startswith("list[") and t.endswith("]") else None


def _default(t: str) -> Any:
    return False if t == "bool" else ([] if _elem(t) else 0)


def _floordiv(a: int, b: int) -> int:
    return a // b if b else 0


def _mod(a: int, b: int) -> int:
    return a % b if b else 0


_ARITH: dict[str, Callable[[Any, Any], Any]] = {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
    "floordiv": _floordiv,
    "mod": _mod,
}
_ARITH_SYMBOL = {"add": "+", "sub": "-", "mul": "*", "floordiv": "//", "mod": "%"}
_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "eq": operator.eq,
    "ne": operator.ne,
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
}
_COMPARE_WORDS = {">=": "at least", "<=": "at most"}
_COMPARE_SYMBOL = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


class _Compiler:
    def __init__(self, names: Mapping[str, str]) -> None:
        self.names = names

    def type_error(self, node: Tree | Token | None, message: str, hint: str = "") -> ExprError:
        return ExprError(message, _pos(node), hint)

    def expect(self, node: Tree, want: str, what: str) -> Fn:
        t, fn = self.compile(node)
        if t != want:
            hint = ""
            if want == "rank" and t == "int":
                hint = "write a rank in quotes, for example 'K'"
            elif want == "bool" and t == "int":
                hint = "compare it, for example: x > 0"
            raise self.type_error(node, f"{what} must be {_a(want)}, not {_a(t)}", hint)
        return fn

    def compile(self, node: Tree | Token) -> tuple[str, Fn]:
        if isinstance(node, Token):  # pragma: no cover - every token sits under a named rule
            raise ExprError(f"unexpected {str(node)!r}", node.start_pos)
        kind = str(node.data)
        ch = node.children
        method = getattr(self, "c_" + kind, None)
        if method is not None:
            result: tuple[str, Fn] = method(node, ch)
            return result
        if kind in _ARITH:
            return self.arith(node, kind)
        if kind in _COMPARE:
            return self.compare(node, kind)
        raise ExprError(f"unsupported construct {kind!r}", _pos(node))  # pragma: no cover

    # atoms
    def c_int(self, node: Tree, ch: list[Any]) -> tuple[str, Fn]:
        text = str(ch[0])
        if len(text) > 18:
            raise self.type_error(node, "number is too large")
        value = int(text)
        return "int", lambda ctx: value

    def c_true(self, node: Tree, ch: list[Any]) -> tuple[str, Fn]:
        return "bool", lambda ctx: True

    def c_false(self, node: Tree, ch: list[Any]) -> tuple[str, Fn]:
        return "bool", lambda ctx: False

    def c_rank(self, node: Tree, ch: list[Any]) -> tuple[str, Fn]:
        symbol = str(ch[0])[1:-1]
        try:
            value = rank_of(symbol)
        except NotationError:
            hint = did_you_mean(symbol.upper(), SYMBOLS) or "ranks are " + " ".join(SYMBOLS)
            raise self.type_error(node, f"unknown rank {symbol!r}", hint) from None
        if symbol != symbol.strip():
            raise self.type_error(node, f"unknown rank {symbol!r}", "no spaces inside the quotes")
        return "rank", lambda ctx: value

    def c_name(self, node: Tree, ch: list[Any]) -> tuple[str, Fn]:
        name = str(ch[0])
        t = self.names.get(name)
        if t is None:
            if name in FUNCTIONS:
                raise self.type_error(node, f"{name} is a function", f"call it: {name}(…)")
            if name in SYMBOLS or (name.upper() in SYMBOLS and not did_you_mean(name, self.names)):
                rank = name.upper()
                raise self.type_error(node, f"unknown name {name!r}", f"a rank is written in quotes: '{rank}'")
            hint = did_you_mean(name, self.names) or "this hook's names: " + ", ".join(sorted(self.names))
            raise self.type_error(node, f"unknown name {name!r}", hint)
        if t not in SCALARS and _elem(t) not in SCALARS:
            raise self.type_error(node, f"name {name!r} has type {t!r}, which expressions cannot use")
        return t, operator.itemgetter(name)

    def c_list(self, node: Tree, ch: list[Any]) -> tuple[str, Fn]:
        items = ch[0].children if ch[0] is not None else []
        if not items:
            raise self.type_error(node, "an empty list literal has no type", "leave it out or write its items")
        compiled = [self.compile(c) for c in items]
        t0 = compiled[0][0]
        if _elem(t0):
            raise self.type_error(items[0], "lists of lists are not supported")
        for c, (t, _) in zip(items, compiled, strict=True):
            if t != t0:
                raise self.type_error(c, f"list items must all have one type: {_a(t0)} and {_a(t)}")
        fns = [fn for _, fn in compiled]
        return f"list[{t0}]", lambda ctx: [f(ctx) for f in fns]

    # operators
    def c_neg(self, node: Tree, ch: list[Any]) -> tuple[str, Fn]:
        fn = self.expect(ch[0], "int", "the operand of unary -")
        return "int", lambda ctx: -fn(ctx)

    def arith(self, node: Tree, kind: str) -> tuple[str, Fn]:
        sym = _ARITH_SYMBOL[kind]
        a = self.expect(node.children[0], "int", f"the left side of {sym}")
        b = self.expect(node.children[1], "int", f"the right side of {sym}")
        op = _ARITH[kind]
        return "int", lambda ctx: op(a(ctx), b(ctx))

    def compare(self, node: Tree, kind: str) -> tuple[str, Fn]:
        left, right = node.children
        ta, a = self.compile(left)
        tb, b = self.compile(right)
        sym = _COMPARE_SYMBOL[kind]
        if ta != tb:
            hint = ""
            if {ta, tb} == {"int", "rank"}:
                number = left if ta == "int" else right
                hint = f"a rank is written in quotes: {_quoted_rank(number)}"
            raise self.type_error(right, f"cannot compare {_a(ta)} with {_a(tb)} using {sym}", hint)
        if kind not in ("eq", "ne") and ta not in ("int", "rank"):
            raise self.type_error(left, f"{sym} compares numbers or ranks, not {_a(ta)}")
        op = _COMPARE[kind]
        return "bool", lambda ctx: op(a(ctx), b(ctx))

    def c_in_(self, node: Tree, ch: list[Any]) -> tuple[str, Fn]:
        ta, a = self.compile(ch[0])
        tb, b = self.compile(ch[1])
        if _elem(tb) != ta:
            raise self.type_error(ch[1], f"'in' needs a list of {ta} on its right, not {_a(tb)}")
        return "bool", lambda ctx: a(ctx) in b(ctx)

    def c_not_in(self, node: Tree, ch: list[Any]) -> tuple[str, Fn]:
        _, fn = self.c_in_(node, ch)
        return "bool", lambda ctx: not fn(ctx)

    def c_not_(self, node: Tree, ch: list[Any]) -> tuple[str, Fn]:
        fn = self.expect(ch[0], "bool", "the operand of not")
        return "bool", lambda ctx: not fn(ctx)

    def c_and_(self, node: Tree, ch: list[Any]) -> tuple[str, Fn]:
        fns = tuple(self.expect(c, "bool", "each side of and") for c in ch)
        return "bool", lambda ctx: all(f(ctx) for f in fns)

    def c_or_(self, node: Tree, ch: list[Any]) -> tuple[str, Fn]:
        fns = tuple(self.expect(c, "bool", "each side of or") for c in ch)
        return "bool", lambda ctx: any(f(ctx) for f in fns)

    def c_ifelse(self, node: Tree, ch: list[Any]) -> tuple[str, Fn]:
        ta, a = self.compile(ch[0])
        cond = self.expect(ch[1], "bool", "the condition after if")
        tb, b = self.compile(ch[2])
        if ta != tb:
            raise self.type_error(ch[2], f"both branches of if/else must have one type: {_a(ta)} and {_a(tb)}")
        return ta, lambda ctx: a(ctx) if cond(ctx) else b(ctx)

    def c_index(self, node: Tree, ch: list[Any]) -> tuple[str, Fn]:
        tl, lst = self.compile(ch[0])
        elem = _elem(tl)
        if elem is None:
            raise self.type_error(ch[0], f"only a list can be indexed, not {_a(tl)}")
        ti, idx = self.compile(ch[1])
        if ti not in ("int", "rank"):  # a rank indexes a list by rank (counts['2'])
            raise self.type_error(ch[1], f"a list index must be a number or a rank, not {_a(ti)}")
        default = _default(elem)

        def fn(ctx: Mapping[str, Any]) -> Any:
            xs = lst(ctx)
            i = idx(ctx)
            return xs[i] if -len(xs) <= i < len(xs) else default

        return elem, fn

    def c_call(self, node: Tree, ch: list[Any]) -> tuple[str, Fn]:
        name = str(ch[0])
        args: list[Tree] = ch[1].children if ch[1] is not None else []
        if name not in FUNCTIONS:
            if name in self.names:
                raise self.type_error(ch[0], f"{name!r} is not a function")
            hint = did_you_mean(name, FUNCTIONS) or "functions: " + ", ".join(FUNCTIONS)
            raise self.type_error(ch[0], f"unknown function {name!r}", hint)
        compiled = [self.compile(a) for a in args]
        types = [t for t, _ in compiled]
        fns = [f for _, f in compiled]

        def arity(n: int) -> None:
            if len(args) != n:
                raise self.type_error(ch[0], f"{name}() takes {n} argument{'s' if n != 1 else ''}, got {len(args)}")

        if name in ("min", "max"):
            pick: Callable[..., Any] = min if name == "min" else max
            if len(args) == 1:
                elem = _elem(types[0])
                if elem not in ("int", "rank"):
                    raise self.type_error(args[0], f"{name}() of one argument needs a list of numbers or ranks")
                f0 = fns[0]
                return elem, lambda ctx: pick(f0(ctx), default=0)
            if len(args) < 2:
                raise self.type_error(ch[0], f"{name}() needs a list or at least two values")
            for a, t in zip(args, types, strict=True):
                if t != types[0] or t not in ("int", "rank"):
                    raise self.type_error(a, f"{name}() compares numbers or ranks of one type, not {_a(t)}")
            return types[0], lambda ctx: pick(f(ctx) for f in fns)
        if name == "sum":
            arity(1)
            if types[0] != "list[int]":
                raise self.type_error(args[0], f"sum() needs a list of numbers, not {_a(types[0])}")
            f0 = fns[0]
            return "int", lambda ctx: sum(f0(ctx))
        if name == "len":
            arity(1)
            if _elem(types[0]) is None:
                raise self.type_error(args[0], f"len() needs a list, not {_a(types[0])}")
            f0 = fns[0]
            return "int", lambda ctx: len(f0(ctx))
        if name == "abs":
            arity(1)
            if types[0] != "int":
                raise self.type_error(args[0], f"abs() needs a number, not {_a(types[0])}")
            f0 = fns[0]
            return "int", lambda ctx: abs(f0(ctx))
        arity(2)  # count(list, value)
        if _elem(types[0]) is None:
            raise self.type_error(args[0], f"count() needs a list first, not {_a(types[0])}")
        if _elem(types[0]) != types[1]:
            raise self.type_error(args[1], f"count() looks for {_a(_elem(types[0]) or '')}, not {_a(types[1])}")
        f0, f1 = fns
        return "int", lambda ctx: f0(ctx).count(f1(ctx))


def _quoted_rank(node: Tree | Token) -> str:
    """``'5'`` for the number 5 written where a rank was meant (``'T'`` for 10); ``'K'`` for anything else."""
    if isinstance(node, Tree) and node.data == "int":
        n = str(node.children[0])
        if n in SYMBOLS:
            return f"'{n}'"
        if n == "10":
            return "'T'"
    return "for example 'K'"


def _a(t: str) -> str:
    words = {"int": "a number (int)", "bool": "true/false (bool)", "rank": "a rank"}
    if t in words:
        return words[t]
    elem = _elem(t)
    return f"a list of {elem}" if elem else t


class Residual:
    """What is left of an expression once some of its names are known (:meth:`CompiledHook.residual`).

    ``value`` is the expression's value when the known names decide it whatever the others are,
    else None (no expression gives None).  ``residual(ctx)`` goes on with more names known.  The
    engine asks this of a ``beats`` hook with the table set known, then each size, then each rank,
    so that it never tries a set the expression turns down on those alone."""

    __slots__ = ("value",)

    def __init__(self, value: Any = None) -> None:
        self.value = value

    def residual(self, ctx: Mapping[str, Any]) -> Residual:
        """A residual is already as far as the known names take it: itself."""
        return self


class _Leaf(Residual):
    """A part the residual does not look into (a comparison, a sum …): known once all its names are."""

    __slots__ = ("fn", "uses")

    def __init__(self, fn: Fn, uses: frozenset[str]) -> None:
        super().__init__()
        self.fn = fn
        self.uses = uses

    def residual(self, ctx: Mapping[str, Any]) -> Residual:
        for n in self.uses:
            if n not in ctx:
                return self
        return Residual(self.fn(ctx))


class _AndOr(Residual):
    __slots__ = ("parts", "stop")

    def __init__(self, parts: list[Residual], stop: bool) -> None:
        super().__init__()
        self.parts = parts
        self.stop = stop  # the value that decides: False for and, True for or

    def residual(self, ctx: Mapping[str, Any]) -> Residual:
        left: list[Residual] = []
        for p in self.parts:
            r = p.residual(ctx)
            if r.value is None:
                left.append(r)
            elif r.value == self.stop:
                return Residual(self.stop)
        if not left:
            return Residual(not self.stop)
        return left[0] if len(left) == 1 else _AndOr(left, self.stop)


class _Not(Residual):
    __slots__ = ("part",)

    def __init__(self, part: Residual) -> None:
        super().__init__()
        self.part = part

    def residual(self, ctx: Mapping[str, Any]) -> Residual:
        r = self.part.residual(ctx)
        return _Not(r) if r.value is None else Residual(not r.value)


class _IfElse(Residual):
    __slots__ = ("cond", "no", "yes")

    def __init__(self, yes: Residual, cond: Residual, no: Residual) -> None:
        super().__init__()
        self.yes, self.cond, self.no = yes, cond, no

    def residual(self, ctx: Mapping[str, Any]) -> Residual:
        c = self.cond.residual(ctx)
        if c.value is not None:
            return (self.yes if c.value else self.no).residual(ctx)
        yes, no = self.yes.residual(ctx), self.no.residual(ctx)
        if yes.value is not None and yes.value == no.value:
            return yes
        return _IfElse(yes, c, no)


def _plan(compiler: _Compiler, node: Tree) -> Residual:
    """The residual of the whole expression with nothing known: and, or, not and if/else looked into."""
    kind = str(node.data)
    ch = node.children
    if kind in ("and_", "or_"):
        return _AndOr([_plan(compiler, c) for c in ch], kind == "or_")
    if kind == "not_":
        return _Not(_plan(compiler, ch[0]))
    if kind == "ifelse":
        return _IfElse(_plan(compiler, ch[0]), _plan(compiler, ch[1]), _plan(compiler, ch[2]))
    return _Leaf(compiler.compile(node)[1], frozenset(names_used(node)))


class CompiledHook:
    """A hook compiled from an expression: call it with the context dict; ``source`` is the text."""

    __slots__ = ("bounded", "fn", "name", "names", "plan", "result", "source", "uses", "where")

    def __init__(
        self,
        name: str,
        source: str,
        fn: Fn,
        result: str,
        uses: frozenset[str],
        names: Mapping[str, str] | None = None,
        where: str = "<hook>",
    ) -> None:
        self.name = name
        self.source = source
        self.fn = fn
        self.result = result
        self.uses = uses
        self.names = names
        self.plan: Residual | None = None
        self.where = where
        self.bounded = result == "int"

    def __call__(self, ctx: Mapping[str, Any]) -> Any:
        value = self.fn(ctx)
        if self.bounded and not -HOOK_INT_MAX <= value <= HOOK_INT_MAX:
            raise HookValueError(self.name, self.where, value, self.source)
        return value

    def residual(self, ctx: Mapping[str, Any]) -> Residual:
        """What is left of the expression with the names in ``ctx`` known (``.value`` once decided)."""
        plan = self.plan
        if plan is None:
            if self.names is None:
                return Residual()
            plan = self.plan = _plan(_Compiler(self.names), parse(self.source))  # built when first asked
        return plan.residual(ctx)

    def __repr__(self) -> str:
        return f"CompiledHook({self.name}: {self.source!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CompiledHook) and (other.name, other.source) == (self.name, self.source)

    def __hash__(self) -> int:
        return hash((self.name, self.source))

    def __reduce__(self) -> tuple[Callable[[str, str, str], CompiledHook], tuple[str, str, str]]:
        """Pickled as its text (a compiled function cannot be), compiled again when loaded."""
        return (_recompile, (self.name, self.source, self.where))


def compile_expression(text: str, names: Mapping[str, str], result: str) -> Fn:
    """Compile an expression over ``names`` (name -> type) that must give ``result``."""
    tree = parse(text)
    return _Compiler(names).expect(tree, result, "the expression")


def compile_hook(name: str, text: str, spec: HookSpec, where: str = "<hook>") -> CompiledHook:
    """Compile the expression for hook ``name``; raises ExprError (with the offset of the problem).

    ``where`` (file:line:col of the expression) goes into the error if the hook, run, gives a number
    out of range."""
    tree = parse(text)
    compiler = _Compiler(spec.names)
    t, fn = compiler.compile(tree)
    if t != spec.result:
        hint = "compare it, for example: ... > 0" if spec.result == "bool" and t == "int" else ""
        raise ExprError(f"hook {name} must give {_a(spec.result)}, but this expression gives {_a(t)}", 0, hint)
    return CompiledHook(name, text, fn, t, frozenset(names_used(tree)), spec.names, where)


def _recompile(name: str, text: str, where: str = "<hook>") -> CompiledHook:
    from ..parts.hooks import HOOKS

    return compile_hook(name, text, HOOKS[name], where)
