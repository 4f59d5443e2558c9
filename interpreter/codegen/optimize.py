"""The optimiser: def inlining, hoisting, def tables and unrolling.

None of this changes what a game does (tests/test_optimize.py plays every game with and
without it). `Optimizing` lowers expressions like `Exprs` but inlines defs; inside a
legal-move generator (a frame with a `Hoist`) it also computes loop-invariant def
arguments and card attributes once at the outermost loop level they depend on, drops the
empty check of `top of Z` where an earlier conjunct guarded `Z is not empty`, and turns a
def called with a parameter over a few constants into a table filled before the loops.
Small constant-range parameters are unrolled (moves.py asks `unrolled_levels`).
"""

from __future__ import annotations

import re

import attrs

from ..lang import ast as A
from .context import Ctx
from .exprs import Exprs
from .writer import Frame, Hoist, Local

INLINE_DEPTH = 12  # deeper than this, a def is called
UNROLL_VALUES = 8  # a parameter over at most this many constants is unrolled...
UNROLL_COPIES = 64  # ...while a generator has at most this many copies of its innermost level
TABLE_SPAN = 64  # the widest constant range a def table covers

_RAISING_CALL = re.compile(r"\b_(?:E|ix|at|nn|div|mod|pick|topn|min|max|player|rng)\(")
_RAISING = re.compile(r"\b_(?:E|ix|at|nn|div|mod|pick|topn|min|max|take\w*|player|cat|rng)\(|"
                      r"\b_[laqifT]\d+\b")
_SIMPLE = re.compile(r"^(?:[A-Za-z_][A-Za-z_0-9]*|-?\d+|s\[\d+\]|None|True|False)$")


class Optimizing(Exprs):
    """Expression lowering that inlines defs, hoists and tabulates."""

    def def_call(self, d: A.DefDecl, arg_exprs: tuple[A.Expr, ...], fr: Frame, span: A.Span,
                 call: A.Call | None = None) -> str:
        if call is not None:
            table = self.table_call(call, fr)
            if table is not None:
                return table
        args = []
        guard_levels = []
        h = fr.hoist
        for a in arg_exprs:
            if h is not None:
                saved_used, h.guard_used = h.guard_used, -1
            args.append(self.as_tuple(a, fr))
            if h is not None:
                guard_levels.append(h.guard_used)
                h.guard_used = max(saved_used, h.guard_used)
        return self.inline_def(d, args, fr, span, arg_exprs, guard_levels)

    def inline_def(self, d: A.DefDecl, args: list[str], fr: Frame, span: A.Span,
                   arg_exprs: tuple[A.Expr, ...] = (),
                   guard_levels: list[int] | None = None) -> str:
        inner: dict[str, Local] = {}
        binds: list[tuple[str, str]] = []
        h = fr.hoist
        env = fr.env
        names = self.cx.names
        for i, (p, a, ae) in enumerate(zip(d.params, args, arg_exprs or (None,) * len(args),
                                           strict=False)):
            if h is not None and ae is not None and not _SIMPLE.match(a) and not _RAISING.search(a):
                # what the argument depends on, read from the code it compiled to
                deps = set(re.findall(r"\bu_(\w+)", a)) & set(h.param_level)
                if not re.search(r"\b_h\d+\b", a) and all(
                        n in env and env[n].code == f"u_{n}" for n in deps):
                    level = max([h.param_level[n] for n in deps]
                                + [guard_levels[i] if guard_levels else -1, 0])
                    if level < h.cur:
                        key = (level, a)
                        if key not in h.by_code:
                            var = names.tmp("h")
                            h.by_code[key] = var
                            h.level_of[var] = level
                            h.hoisted.setdefault(level, []).append((var, a))
                        inner[p.name] = Local(h.by_code[key], self.origin(ae, fr))
                        continue
            origin = self.origin(ae, fr) if ae is not None else None
            lo = hi = None
            if isinstance(ae, A.Name) and ae.name in env:
                lo, hi = env[ae.name].lo, env[ae.name].hi
            elif isinstance(ae, A.Int):
                lo = hi = ae.value
            if _SIMPLE.match(a):
                inner[p.name] = Local(a, origin, lo, hi)
            else:
                var = names.tmp("a")
                binds.append((var, a))
                inner[p.name] = Local(var, origin, lo, hi)
        if fr.depth + 1 > INLINE_DEPTH or self.cx.inline_budget <= 0:
            return self.call_function(d, args)
        body = self.expr(d.body, attrs.evolve(fr, env=inner, rule=f"def {d.name}",
                                              depth=fr.depth + 1))
        self.cx.inline_budget -= len(body)  # a def used many times in many defs: call it
        for var, a in reversed(binds):
            body = self.bind(var, a, body)
        return body

    def table_call(self, e: A.Call, fr: Frame) -> str | None:
        """In a legal-move generator, a def called with one move parameter that ranges over
        constants (and otherwise constants) is evaluated once per value, before the loops,
        instead of once per iteration of the inner loops: `wanted(k)` -> `_T3[u_k - 1]`."""
        tables = fr.tables
        if tables is None:
            return None
        env = fr.env
        var = None
        for a in e.args:
            if (isinstance(a, A.Name) and a.name in env and a.name in fr.range_params
                    and env[a.name].code == f"u_{a.name}"):
                if var is not None and var != a.name:
                    return None
                var = a.name
            elif not isinstance(a, A.Int):
                return None
        if var is None:
            return None
        lo, hi = env[var].lo, env[var].hi
        if lo is None or hi is None or hi - lo > TABLE_SPAN:
            return None
        key = (e.func, lo, hi,
               tuple(a.name if isinstance(a, A.Name) else a.value for a in e.args))  # type: ignore[attr-defined]
        d = self.cx.def_of(e.func)
        assert d is not None
        if key not in tables:
            plain = attrs.evolve(fr, tables=None, hoist=None)
            if 0 <= lo and hi - lo < 8:
                # a few values: one expression each, the parameter a literal that Python
                # folds (`s[8 + 1]` -> `s[9]`), and no comprehension to call
                items = []
                for i in range(lo, hi + 1):
                    inner = plain.scope()
                    inner.env[var] = Local(str(i), None, i, i)
                    args = [self.as_tuple(a, inner) for a in e.args]
                    items.append(self.inline_def(d, args, inner, e.span, e.args))
                table = "(" + "None, " * lo + "".join(f"{x}, " for x in items) + ")"
            else:
                it = self.cx.names.tmp("i")
                inner = plain.scope()
                inner.env[var] = Local(it, None, lo, hi)
                args = [self.as_tuple(a, inner) for a in e.args]
                body = self.inline_def(d, args, inner, e.span, e.args)
                pad = f"(None,) * {lo} + " if lo > 0 else ""
                table = f"{pad}tuple([{body} for {it} in range({lo}, {hi + 1})])"
                items = [body]
            if any(_RAISING_CALL.search(x) for x in items):
                return None  # evaluated ahead of its guards it could fail: keep it in place
            name = self.cx.names.tmp("T")
            tables[key] = (name, f"{name} = {table}")
        name = tables[key][0]
        if lo >= 0:
            return f"{name}[{env[var].code}]"
        return f"{name}[{env[var].code} - {lo}]"

    def card_attr(self, e: A.Attr, table: str, obj: str, fr: Frame) -> str:
        h = fr.hoist
        if h is not None and obj in h.level_of:  # invariant where the card is
            level = h.level_of[obj]
            key = (level, f"{table}[{obj}]")
            if key not in h.by_code:
                var = self.cx.names.tmp("h")
                h.by_code[key] = var
                h.level_of[var] = level
                h.hoisted.setdefault(level, []).append((var, key[1]))
            return h.by_code[key]
        return super().card_attr(e, table, obj, fr)

    def top_card(self, e: A.Unary, src: str, fr: Frame) -> str:
        h = fr.hoist
        if h is not None and src in h.guards:
            h.guard_used = max(h.guard_used, h.guards[src])
            return f"{src}[{-1 if e.op == 'top' else 0}]"
        return super().top_card(e, src, fr)


def new_hoist(cx: Ctx, md: A.MoveDecl) -> Hoist | None:
    """The hoisting state of a move's legal-move generator (None in plain code)."""
    if not cx.optimize:
        return None
    return Hoist({p.name: i + 1 for i, p in enumerate(md.params)})


def unrolled_levels(cx: Ctx, md: A.MoveDecl) -> set[int]:
    """Parameters over a few constants are unrolled (the parameter becomes a literal and
    Python folds `s[8 + 1]`), while the copies stay few."""
    unroll: set[int] = set()
    if not cx.optimize:
        return unroll
    copies = 1
    for lvl, p in enumerate(md.params, 1):
        lo, hi = cx.const_range(p.source)
        if lo is not None and hi is not None and 0 < hi - lo + 1 <= UNROLL_VALUES and (
                copies * (hi - lo + 1) <= UNROLL_COPIES):
            unroll.add(lvl)
            copies *= hi - lo + 1
    return unroll
