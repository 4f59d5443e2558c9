"""Why a move is refused: a second, plain module, generated only when a refusal is explained.

The legal-move generators (moves.py) answer "which moves are legal" as fast as they can
and say nothing about why one is not. This module answers the other question, off the hot
path: for each move, one small function per test of its `when`, in the order the language
evaluates them, each taking the state and the move tuple:

- `t_<move>_<i>(s, m)`: test i (a `when` clause with a reason is one test; a clause
  without one is one test per conjunct, so the first failing conjunct is named);
- `r_<move>_<i>(s, m)`: the reason's text with its `{...}` filled in, when it has one;
- `s_<move>_<i>(s, m)`: what parameter i ranges over (a zone's slot, a range, a list),
  to say "J♠ is not in your hand" or "there is no pile 5";
- `w_<move>_<i>_<j>(s, m)`: for a `not (any x in S: P)` inside test i, the first x that
  makes P hold (the witness that made the test fail: "you hold 8♣").

`explainer(g)` returns the module's source, its span table (its rule errors name their
source line, as the main module's do) and, per move, what the engine needs to word the
answer: the tests' spans, and each witness's variable and source. The code is plain (no
optimiser): it runs once per refusal.
"""

from __future__ import annotations

import attrs

from ..lang import Checked, elem
from ..lang import ast as A
from .context import Ctx
from .exprs import Exprs
from .module import def_functions, tables
from .stmts import Stmts
from .writer import Frame, Local


@attrs.frozen
class Witness:
    """A `not any` inside a test: its function, and whether it ranges over a zone."""

    func: str
    zone: bool  # over a zone: the function returns (card, zone); else (value, type)
    span: A.Span


@attrs.frozen
class Test:
    """One test of a move's condition, in the order they are evaluated."""

    func: str
    span: A.Span  # the conjunct, or the whole clause when it has a reason
    reason: str | None  # the function writing the clause's reason, if it has one
    witnesses: tuple[Witness, ...]


@attrs.define
class Explainer:
    source: str
    spans: list[tuple[A.Span, str]]
    tests: dict[str, list[Test]]  # by move name
    # by move name, for each parameter: the function giving what it ranges over (a zone,
    # a range, a list) for the move's player and the parameters before it
    sources: dict[str, list[str]] = attrs.Factory(dict)


def explainer(g: Checked) -> Explainer:
    cx = Ctx(g, optimize=False)
    x = Exprs(cx)
    stmts = Stmts(x)
    out = tables(cx)
    tests: dict[str, list[Test]] = {}
    sources: dict[str, list[str]] = {}
    for name, md in g.moves.items():
        mid = cx.layout.move_ids[name]
        tests[name] = _move_tests(stmts, md, mid, out)
        fr, head = _frame(stmts, md)
        sources[name] = []
        for i, p in enumerate(md.params):
            func = f"s_{mid}_{i}"
            out += [f"def {func}(s, m):", *head, f"    return {x.param_source(p.source, fr)}", ""]
            sources[name].append(func)
    out += def_functions(x)
    return Explainer("\n".join(out) + "\n", cx.names.spans, tests, sources)


def _frame(stmts: Stmts, md: A.MoveDecl) -> tuple[Frame, list[str]]:
    """The move's scope (`me` and its parameters), and the lines that bind them."""
    cx = stmts.cx
    fr = Frame({"me": Local("me")}, f"move {md.name}", move=md)
    head = ["    me = m[0]"]
    for i, p in enumerate(md.params):
        origin = stmts.x.expr(p.source, fr) if cx.type_of(p.source) == "zone" else None
        fr.env[p.name] = Local(f"u_{p.name}", origin)
        head.append(f"    u_{p.name} = m[{i + 2}]")
    return fr, head


def _move_tests(stmts: Stmts, md: A.MoveDecl, mid: int, out: list[str]) -> list[Test]:
    x = stmts.x
    fr, head = _frame(stmts, md)
    clauses = md.clauses or ((A.WhenClause(md.when, span=md.when.span),)
                             if md.when is not None else ())
    tests: list[Test] = []
    for cl in clauses:
        parts = [cl.cond] if cl.reason else A.conjuncts(cl.cond)
        for k, c in enumerate(parts):
            i = len(tests)
            func = f"t_{mid}_{i}"
            out += [f"def {func}(s, m):", *head, f"    return {x.expr(c, fr)}", ""]
            reason = None
            if cl.reason and k == 0:
                reason = f"r_{mid}_{i}"
                out += [f"def {reason}(s, m):", *head,
                        f"    return {stmts.log_text(cl.parts, fr)}", ""]
            witnesses = []
            for j, q in enumerate(_negated_any(c)):
                w = _witness(x, q, fr, f"w_{mid}_{i}_{j}", head)
                if w is not None:
                    out += w[1]
                    witnesses.append(w[0])
            tests.append(Test(func, cl.span if cl.reason else c.span, reason,
                              tuple(witnesses)))
    return tests


def _negated_any(e: A.Expr) -> list[A.Quant]:
    """The `any` quantifiers under a `not` in e (not inside another quantifier)."""
    found = []
    stack = [e]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Unary) and n.op == "not" and isinstance(n.operand, A.Quant) \
                and n.operand.kind == "any":
            found.append(n.operand)
        elif not isinstance(n, A.Quant):
            stack.extend(c for c in A.children(n) if isinstance(c, A.Expr))
    return found[::-1]


def _witness(x: Exprs, q: A.Quant, fr: Frame, func: str, head: list[str]
             ) -> tuple[Witness, list[str]] | None:
    """The function returning the first element that makes `any` hold, or None."""
    cx = x.cx
    st = cx.type_of(q.source)
    try:
        src = x.expr(q.source, fr)
        var = cx.names.tmp("q")
        inner = fr.scope()
        inner.env[q.var] = Local(var, src if st == "zone" else None)
        tests = [x.expr(p, inner) for p in (q.where, q.body) if p is not None]
    except KeyError:  # it reads a name bound inside the test (a let, an outer quantifier)
        return None
    cond = f" if {' and '.join(tests)}" if tests else ""
    if st == "zone":
        ret = f"(next(({var} for {var} in s[{src}]{cond}), None), {src})"
    else:
        ret = f"(next(({var} for {var} in {src}{cond}), None), {elem(st)!r})"
    lines = [f"def {func}(s, m):", *head, f"    return {ret}", ""]
    return Witness(func, st == "zone", q.span), lines
