"""Interval analysis of integer expressions, to leave out 64-bit guards that cannot fire.

Every integer the game keeps (a variable, a list element in a variable, a `let`, a flow
slot) is held within -2**63..2**63: a binding whose value is not proven to stay there is
guarded (stmts.py), and the guard raises "a number grew beyond 64 bits". Under that
invariant a variable reads as the full 64-bit range, so `x += 1` is always guarded while
`x = size(hand) + 1` or `x = k` for a parameter over 1..4 is not. Plain code proves
nothing and guards every integer binding; the guards fire on exactly the same values.
"""

from __future__ import annotations

from typing import Any

from ..lang import ast as A
from .context import Ctx
from .runtime import BIG

Range = tuple[int, int] | None  # lo..hi, or None: not known to be bounded
FULL = (-BIG, BIG)  # what a kept integer may be
_BOOL = (0, 1)


def fits(r: Range) -> bool:
    """Is every value in r within 64 bits?"""
    return r is not None and -BIG <= r[0] and r[1] <= BIG


def _union(a: Range, b: Range) -> Range:
    if a is None or b is None:
        return None
    return (min(a[0], b[0]), max(a[1], b[1]))


def arith(op: str, a: Range, b: Range) -> Range:
    # The analysis's own numbers stay small: past 2**128 a range is unknown (it proves
    # nothing anyway), so squares of squares of a def chain never build a huge integer.
    r = _arith(op, a, b)
    if r is not None and not (-CAP <= r[0] and r[1] <= CAP):
        return None
    return r


CAP = 2**128


def _arith(op: str, a: Range, b: Range) -> Range:
    if op == "/" and a is not None:  # a // b for b != 0 (0 raises): never larger than a
        m = max(abs(a[0]), abs(a[1]))
        return (-m, m)
    if op == "%" and b is not None:  # a % b lies between 0 and b
        m = max(abs(b[0]), abs(b[1]))
        return (-m, m)
    if a is None or b is None:
        return None
    if op == "+":
        return (a[0] + b[0], a[1] + b[1])
    if op == "-":
        return (a[0] - b[1], a[1] - b[0])
    if op == "*":
        ends = [x * y for x in a for y in b]
        return (min(ends), max(ends))
    return None


class Bounds:
    def __init__(self, cx: Ctx) -> None:
        self.cx = cx
        g = cx.g
        cards = g.cards
        self.attrs: dict[str, Range] = {"suit": (1, len(cx.g.suit_names)), "color": (1, 2),
                                        "joker": _BOOL}
        if cards:
            self.attrs["rank"] = (min(c.rank for c in cards), max(c.rank for c in cards))
            for a in g.card_attrs:
                vals = [int(c.extra.get(a, 0)) for c in cards]
                self.attrs[a] = (min(vals), max(vals))
        self.cards: Range = (0, max(len(cards) - 1, 0))  # card ids
        self.many: Range = (0, len(cards))  # how many cards a zone (or all of them) holds
        self._defs: dict[tuple[str, tuple[Range, ...]], Range] = {}

    def scope(self, env: dict[str, Any]) -> dict[str, Range]:
        """The known ranges of the locals in scope (`Local.lo`/`hi`)."""
        out: dict[str, Range] = {}
        for name, loc in env.items():
            out[name] = (loc.lo, loc.hi) if loc.lo is not None and loc.hi is not None else None
        return out

    # ------------------------------------------------------------ integers
    def of(self, e: A.Expr, sc: dict[str, Range]) -> Range:
        """The values an integer expression may take."""
        cx = self.cx
        if isinstance(e, A.Int):
            return (e.value, e.value)
        if isinstance(e, (A.Bool, A.IsEmpty)):
            return _BOOL
        if isinstance(e, A.Name):
            ref = cx.ref(e)
            if ref.is_local:
                return sc.get(e.name)
            if ref.kind in ("var", "var_array"):
                return FULL  # what a variable holds is guarded
            if ref.kind == "constant":
                v = ref.value
                return (int(v), int(v)) if isinstance(v, (bool, int)) else None
            if ref.kind == "def":
                return self.call(ref.decl, ())
            if ref.kind == "builtin" and e.name in ("moves_played", "legal_count"):
                return (0, BIG)
            return None
        if isinstance(e, A.Attr):
            return self.attrs.get(e.name)
        if isinstance(e, A.Call):
            return self.builtin(e, sc)
        if isinstance(e, A.Unary):
            if e.op == "-":
                r = self.of(e.operand, sc)
                return None if r is None else (-r[1], -r[0])
            if e.op == "not":
                return _BOOL
            if e.op in ("left", "right"):
                return (1, cx.n)
            if e.op in ("top", "bottom"):
                return self.elems(e.operand, sc)
            return None
        if isinstance(e, A.Binary):
            if e.op in ("+", "-", "*", "/", "%"):
                return arith(e.op, self.of(e.left, sc), self.of(e.right, sc))
            if e.op in ("and", "or", "in", "notin", "==", "!=", "<", "<=", ">", ">="):
                return _BOOL
            return None
        if isinstance(e, A.IfExpr):
            return _union(self.of(e.then, sc), self.of(e.else_, sc))
        if isinstance(e, A.Let):
            return self.of(e.body, {**sc, e.name: self.of(e.value, sc)})
        if isinstance(e, A.Index):
            if isinstance(e.obj, A.Name) and cx.ref(e.obj).kind == "var_array":
                return FULL
            return self.elems(e.obj, sc)
        if isinstance(e, A.Quant):
            inner = {**sc, e.var: self.elems(e.source, sc)}
            if e.kind in ("any", "all"):
                return _BOOL
            if e.kind == "count":
                return self.many if self.cx.type_of(e.source) == "zone" else (0, BIG)
            if e.kind in ("min", "max"):
                return self.of(e.body, inner) if e.body is not None else inner[e.var]
            if e.kind in ("first", "random"):
                return inner[e.var]
            return None  # a sum of many values
        return None

    def builtin(self, e: A.Call, sc: dict[str, Range]) -> Range:
        d = self.cx.callee(e)
        if d is not None:
            return self.call(d, tuple(self.of(a, sc) for a in e.args))
        f = e.func
        if f in ("size", "count"):
            # a zone holds each card at most once; a list may be as long as memory allows
            t = self.cx.type_of(e.args[0])
            cards = t == "zone" or (t == "list:zone" and f == "size")  # count(L): its items
            return self.many if cards else (0, BIG)
        if f == "abs":
            r = self.of(e.args[0], sc)
            return None if r is None else (0, max(abs(r[0]), abs(r[1])))
        if f in ("min", "max"):
            if len(e.args) == 1:
                return self.elems(e.args[0], sc)
            out: Range = self.of(e.args[0], sc)
            for a in e.args[1:]:
                out = _union(out, self.of(a, sc))
            return out
        if f in ("first", "last", "random"):
            return self.elems(e.args[0], sc)
        if f == "distance":
            n = self.of(e.args[2], sc)
            return None if n is None else (0, max(abs(n[0]), abs(n[1])))
        return None

    def call(self, d: A.DefDecl, args: tuple[Range, ...]) -> Range:
        """A def's value for arguments in these ranges (defs do not recurse)."""
        key = (d.name, args)
        if key not in self._defs:
            self._defs[key] = None  # a guard against a cycle the checker should have refused
            self._defs[key] = self.of(d.body, {p.name: r for p, r in zip(d.params, args,
                                                                          strict=False)})
        return self._defs[key]

    # ------------------------------------------------------------ lists
    def elems(self, e: A.Expr, sc: dict[str, Range]) -> Range:
        """The values the elements of a list may take (cards: their ids)."""
        cx = self.cx
        t = cx.type_of(e)
        if t == "zone" or t == "list:zone" or t == "list:card":
            return self.cards
        if isinstance(e, A.ListLit):
            out: Range = (0, 0)
            for item in e.items:
                out = _union(out, self.of(item, sc))
            return out
        if isinstance(e, A.Binary):
            if e.op == "..":
                lo, hi = self.of(e.left, sc), self.of(e.right, sc)
                return None if lo is None or hi is None else (lo[0], hi[1])
            if e.op == "+":
                return _union(self.elems(e.left, sc), self.elems(e.right, sc))
            return None
        if isinstance(e, A.Players) or (isinstance(e, A.Unary) and e.op == "players_from"):
            return (1, cx.n)
        if isinstance(e, A.Name):
            ref = cx.ref(e)
            if ref.is_local:
                return None
            if ref.kind in ("var", "var_array"):
                return FULL  # a list variable's elements are guarded
            if ref.kind == "constant" and isinstance(ref.value, tuple):
                vals = [int(v) for v in ref.value if isinstance(v, (bool, int))]
                return (min(vals), max(vals)) if len(vals) == len(ref.value) and vals else None
            if ref.kind == "builtin":
                return {"suits": (1, len(self.cx.g.suit_names)), "colors": (1, 2)}.get(e.name)
            return None
        if isinstance(e, A.Index):
            if isinstance(e.obj, A.Name) and cx.ref(e.obj).kind == "var_array":
                return FULL
            return None
        if isinstance(e, A.Call) and e.func in ("rest", "reverse", "sorted"):
            return self.elems(e.args[0], sc)
        if isinstance(e, A.Quant) and e.kind == "each":
            src = self.elems(e.source, sc)
            return self.of(e.body, {**sc, e.var: src}) if e.body is not None else src
        if isinstance(e, A.IfExpr):
            return _union(self.elems(e.then, sc), self.elems(e.else_, sc))
        if isinstance(e, A.Let):
            return self.elems(e.body, {**sc, e.name: self.of(e.value, sc)})
        return None
