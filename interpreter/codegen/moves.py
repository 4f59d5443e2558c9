"""Moves: each move's effect `eff_<id>`, and its legal-move generator.

A generator loops over the move's parameters, outermost first, and tests each conjunct of
the `when` at the first loop level where all the parameters it reads are bound. That is
the language's meaning, not an optimisation: `and` evaluates left to right, so a conjunct
that may fail (an empty zone, a bad index...) stays behind the conjuncts before it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import attrs

from ..lang import ast as A
from ..lang import elem
from .context import walk
from .optimize import new_hoist, unrolled_levels
from .stmts import Stmts
from .writer import CodeWriter, Frame, Local


@attrs.define
class MoveCode:
    """A move's effect function, and its legal-move generator as lines indented from 0
    (each decision that offers the move inlines them into its legal_<node>)."""

    effect: list[str]
    generator: list[str]
    param_types: list[str]


class Moves:
    def __init__(self, stmts: Stmts) -> None:
        self.stmts = stmts
        self.x = stmts.x
        self.cx = stmts.cx

    def lower(self, name: str, md: A.MoveDecl) -> MoveCode:
        cx = self.cx
        x = self.x
        mid = cx.layout.move_ids[name]
        rule = f"move {name}"
        fr = Frame({"me": Local("me")}, rule)
        params = []
        ptypes = []
        for p in md.params:
            var = f"u_{p.name}"
            st = cx.type_of(p.source)
            origin = x.expr(p.source, fr) if st == "zone" else None
            lo, hi = cx.const_range(p.source)
            fr.env[p.name] = Local(var, origin, lo, hi)
            params.append(var)
            ptypes.append("card" if st == "zone" else elem(st))
        w = CodeWriter("    ")
        self.stmts.block(md.body, fr, w)
        body = w.lines
        effect = [f"def eff_{mid}(s, m):"]
        # `me` is read by the body, or by the zone a card parameter is taken from
        if not cx.optimize or any(isinstance(n, A.Me) for n in walk(
                (md.body, tuple(p.source for p in md.params)))):
            effect.append("    me = m[0]")
        for i, prm in enumerate(params):
            effect.append(f"    {prm} = m[{i + 2}]")
        effect += body
        effect.append("")
        return MoveCode(effect, self.generator(md, mid, rule), ptypes)

    def generator(self, md: A.MoveDecl, mid: int, rule: str) -> list[str]:
        """The legal-move generator of one move, as a block of lines (indented from 0)
        that appends `(me, mid, args...)` to `out` for every legal combination."""
        cx = self.cx
        x = self.x
        conj = conjuncts(md.when) if md.when is not None else []
        pnames = [p.name for p in md.params]
        # each conjunct is tested at the first loop level where all its parameters are bound
        levels: list[list[A.Expr]] = [[] for _ in range(len(pnames) + 1)]
        floor = 0  # `and` evaluates left to right: what may fail stays behind its guards
        for c in conj:
            used = names_in(c) & set(pnames)
            lvl = max((pnames.index(n) + 1 for n in used), default=0)
            if self.may_raise(c):
                lvl = max(lvl, floor)
            floor = max(floor, lvl)
            levels[lvl].append(c)
        h = new_hoist(cx, md)
        fr = Frame({"me": Local("me")}, rule, hoist=h,
                   # tables for defs of a constant-range parameter, filled before the loops
                   tables={} if cx.optimize else None,
                   range_params=frozenset(p.name for p in md.params
                                          if None not in cx.const_range(p.source)))
        conds: list[list[str]] = []
        fors: list[str] = []
        for lvl in range(len(pnames) + 1):
            if lvl > 0:
                p = md.params[lvl - 1]
                var = f"u_{p.name}"
                st = cx.type_of(p.source)
                if h is not None:
                    h.cur = lvl - 1
                src = x.expr(p.source, fr)
                origin = None
                if st == "zone":
                    origin = src
                    src = f"s[{src}]"
                lo, hi = cx.const_range(p.source)
                fr.env[p.name] = Local(var, origin, lo, hi)
                fors.append(f"for {var} in {src}:")
            if h is not None:
                h.cur = lvl
            level_conds = []
            for c in levels[lvl]:
                level_conds.append(x.expr(c, fr))
                if (h is not None and isinstance(c, A.IsEmpty) and c.negated
                        and cx.type_of(c.operand) == "zone"):
                    h.guards[f"s[{x.expr(c.operand, fr)}]"] = lvl
            conds.append(level_conds)
        tables = [code for _, code in (fr.tables or {}).values()]
        hoisted = h.hoisted if h is not None else {}
        args = "".join(f", u_{p}" for p in pnames)
        unroll = unrolled_levels(cx, md)

        def loops(lvl: int, ind: str) -> list[str]:
            if lvl > len(pnames):
                return [f"{ind}out.append((me, {mid}{args}))"]
            p = md.params[lvl - 1]
            if lvl in unroll:
                lo, hi = cx.const_range(p.source)
                assert lo is not None and hi is not None
                body = level_lines(conds[lvl], hoisted.get(lvl, []), ind,
                                   lambda i: loops(lvl + 1, i))
                name = re.compile(rf"\bu_{p.name}\b")
                return [name.sub(str(v), ln) for v in range(lo, hi + 1) for ln in body]
            body = level_lines(conds[lvl], hoisted.get(lvl, []), ind + "    ",
                               lambda i: loops(lvl + 1, i))
            return [ind + fors[lvl - 1]] + body

        lines: list[str] = []
        ind = ""
        if conds[0]:
            lines.append(f"if {' and '.join(conds[0])}:")
            ind = "    "
        lines += [ind + t for t in tables]
        lines += [f"{ind}{v} = {c}" for v, c in hoisted.get(0, [])]
        lines += loops(1, ind)
        return lines

    def may_raise(self, e: A.Expr, seen: frozenset[str] = frozenset()) -> bool:
        """Could evaluating e fail (an empty zone, a bad index, division by zero...)?"""
        cx = self.cx
        if isinstance(e, (A.TopN, A.Index)):
            return True
        if isinstance(e, A.Unary) and e.op in ("top", "bottom", "players_from"):
            return True
        if isinstance(e, A.Binary) and e.op in ("/", "%"):
            return True
        if isinstance(e, A.Quant) and e.kind in ("min", "max", "random"):
            return True
        if isinstance(e, A.Call):
            d = cx.def_of(e.func)
            if d is not None and e.func not in seen:
                if self.may_raise(d.body, seen | {e.func}):
                    return True
            elif d is None and e.func not in ("size", "count", "cards", "abs", "sum", "rest",
                                              "reverse", "sorted"):
                return True
        if isinstance(e, A.Name) and e.name in cx.g.defs and e.name not in seen:
            return self.may_raise(cx.g.defs[e.name].body, seen | {e.name})
        if isinstance(e, A.Attr) and self.x.card_may_be_none(e.obj, Frame({}, "")):
            return True
        for f in attrs.fields(type(e)):
            v = getattr(e, f.name)
            if isinstance(v, A.Expr) and self.may_raise(v, seen):
                return True
            if isinstance(v, tuple) and any(isinstance(x, A.Expr) and self.may_raise(x, seen)
                                            for x in v):
                return True
        return False


def level_lines(conds: list[str], hoisted: list[tuple[str, str]], ind: str,
                inner: Callable[[str], list[str]]) -> list[str]:
    """One parameter's level: its conditions, what is computed there, then the next."""
    out: list[str] = []
    if conds:
        out.append(f"{ind}if {' and '.join(conds)}:")
        ind += "    "
    out += [f"{ind}{v} = {c}" for v, c in hoisted]
    lines: list[str] = inner(ind)
    return out + lines


def conjuncts(e: A.Expr) -> list[A.Expr]:
    if isinstance(e, A.Binary) and e.op == "and":
        return conjuncts(e.left) + conjuncts(e.right)
    return [e]


def names_in(e: Any) -> set[str]:
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, A.Name):
            found.add(x.name)
        if isinstance(x, (A.Expr, A.Stmt)):
            for f in attrs.fields(type(x)):
                walk(getattr(x, f.name))
        elif isinstance(x, tuple):
            for y in x:
                walk(y)

    walk(e)
    return found
