"""Expressions: resolve every name and infer every type.

One method per node type. The statement checker and the declarations pass call
`expr`/`want` as a service (as mypy's TypeChecker calls its ExpressionChecker); the
three share the `Symbols` table and the `Reporter` and nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import did_you_mean, span_text
from . import ast as A
from .builtins import FUNCTIONS, NAMES, CallSite
from .consts import const_int
from .deck import ORDER_ATTR
from .program import Ref, ZoneInfo
from .symbols import Ctx, Reporter, Scope, Symbols
from .types import (
    SCALAR_TYPES,
    comparable,
    compatible,
    elem,
    is_list,
    iterated,
    list_of,
    parse_type,
    shown,
    unify,
)
from .words import KEYWORDS

ORDER_HINT = ("declare it after the deck, 'deck order ace high' or 'deck order 2 3 4 5 6 7 8 9 "
              "10 J Q K A' (low to high), or compare ranks: a.rank < b.rank")
_CARD_TYPES = {"suit": "suit", "color": "color", "joker": "bool", "face_up": "bool"}
_CONDITION_OPS = frozenset({"and", "or", "==", "!=", "<", "<=", ">", ">=", "in", "notin"})
_PURE_CHANCE = "'random' is a chance event: not allowed in a condition or function"
_LOG_CHANCE = "'random' is a chance event: not allowed in a log line"
_LOG_CHANCE_HINT = ("a log line only tells what happened (unwatched play skips it): draw "
                    "in the rule first, let d = random x in hand[me], and log d")

_Visit = Callable[[Any, Scope, Ctx], str]


class ExprChecker:
    def __init__(self, syms: Symbols, report: Reporter) -> None:
        self.syms = syms
        self.report = report
        self.err = report.err
        self.types = syms.types
        self.refs = syms.refs
        # the hot paths write the tables directly: table.record(e, v), without the call
        self._typed = syms.types.writer()
        self._named = syms.refs.writer()
        self._globals: dict[str, Ref] = {}  # the Ref of each declared name, made once
        self.def_types: dict[str, str] = {}  # the type of each def, once inferred
        self.def_stack: list[str] = []  # the defs being inferred (recursion)
        # optional ints (`var bid[player]: int = none`): the ones known not none here
        # (by their key, `bid[p]`), and the reads that need no test (`bid[p] == none`)
        self.narrowed: frozenset[str] = frozenset()
        self.free_reads: set[int] = set()
        self._visit: dict[type, _Visit] = {
            A.Int: lambda e, s, c: "int",
            A.Bool: lambda e, s, c: "bool",
            A.NoneLit: lambda e, s, c: "none",
            A.Me: self._me,
            A.Players: lambda e, s, c: "list:player",
            A.Name: self.name,
            A.ListLit: self._list,
            A.Attr: self._attr,
            A.Index: self._index,
            A.Call: self._call,
            A.Unary: self._unary,
            A.TopN: self._top_n,
            A.PositionOf: self._position_of,
            A.Subsets: self._subsets,
            A.Binary: self._binary,
            A.IsEmpty: self._is_empty,
            A.IfExpr: self._if,
            A.Let: self._let,
            A.Quant: self._quant,
        }

    # ----------------------------------------------------------- entry points
    def expr(self, e: A.Expr, scope: Scope, ctx: Ctx, zone: bool = False) -> str:
        """The type of e, recorded. `zone`: e stands where a zone is expected, so an
        unknown name in it is reported as an unknown zone."""
        if zone and isinstance(e, A.Name):
            t = self.name(e, scope, ctx, zone=True)
        elif zone and isinstance(e, A.Index):
            t = self._index(e, scope, ctx, zone=True)
        else:
            visit = self._visit.get(type(e))
            if visit is None:  # pragma: no cover - every node type has a method
                self.err("unsupported expression", e.span)
                t = "any"
            else:
                t = visit(e, scope, ctx)
        self._typed[id(e)] = (e, t)
        return t

    def want(self, t: str, e: A.Expr, scope: Scope, ctx: Ctx) -> None:
        got = self.expr(e, scope, ctx, zone=t == "zone")
        if not compatible(t, got):
            self.err(f"expected {t}, found {got}", e.span)

    def iter_type(self, t: str, span: A.Span, hint: str = "") -> str:
        it = iterated(t)
        if it is None:
            self.err(f"cannot go through {t}: expected a list, range or zone", span, hint)
            return "any"
        return it

    def _extent_hint(self, e: A.Quant) -> str:
        """A quantifier's list that is a condition (`any d in hand == c or ...`): the
        quantifier ran to the end of the expression, so say where its list should end."""
        first = e.source
        while isinstance(first, A.Binary) and first.op in _CONDITION_OPS:
            first = first.left
        if first is e.source:
            return ""
        text = span_text(self.report.sources.get(first.span.file), first.span)
        if not text:
            return ""
        return (f"'{e.kind} {e.var} in' takes the rest of the expression as its list: put "
                f"the quantifier in parentheses, '({e.kind} {e.var} in {text}"
                f"{'' if e.kind in ('first', 'random') else ': ...'})'")

    def type_name(self, t: str, span: A.Span) -> str:
        parsed = parse_type(t)
        if parsed is not None:
            return parsed
        self.err(f"unknown type '{shown(t)}'", span, did_you_mean(t, SCALAR_TYPES + ("list",))
                 or "types: " + ", ".join(SCALAR_TYPES) + ", list of T")
        return "any"

    def local_name(self, name: str, span: A.Span, what: str = "a variable") -> None:
        if name in KEYWORDS:
            self.err(f"'{name}' is a word of the language and cannot name {what}", span,
                     f"call it '{name}_' or 'my_{name}'")

    def def_type(self, name: str) -> str:
        """The type of a def's value, inferred on first use (any while it is inferred:
        a recursive call is reported where it is made)."""
        if name in self.def_types:
            return self.def_types[name]
        d = self.syms.defs[name]
        if name in self.def_stack:
            return "any"
        self.def_stack.append(name)
        scope = Scope()
        for p in d.params:
            scope.bind("def_param", p.name, self.type_name(p.type, p.span), p)
        t = self.expr(d.body, scope, Ctx("pure", rule=f"def {name}"))
        self.def_stack.pop()
        self.def_types[name] = t
        return t

    def args(self, fname: str, params: tuple[A.Param, ...], args: tuple[A.Expr, ...],
             span: A.Span, scope: Scope, ctx: Ctx) -> None:
        """The arguments of a call of a def or a proc, against its parameters."""
        if len(args) != len(params):
            self.err(f"'{fname}' takes {len(params)} argument{'s' if len(params) != 1 else ''}, "
                     f"given {len(args)}", span,
                     f"{fname}({', '.join(p.name + ': ' + p.type for p in params)})")
        for p, a in zip(params, args, strict=False):
            t = self.expr(a, scope, ctx)
            want = self.type_name(p.type, p.span)
            if not compatible(want, t):
                self.err(f"argument '{p.name}' of '{fname}' must be {want}, not {t}", a.span)
        for a in args[len(params):]:
            self.expr(a, scope, ctx)

    def known_global(self, obj: A.Name, scope: Scope, ctx: Ctx) -> Ref:
        """Record the Ref of a name known to be a declared zone or variable."""
        ref = self.global_ref(obj, scope, ctx)
        assert ref is not None
        self.refs.record(obj, ref)
        return ref

    def var_array(self, obj: A.Name, scope: Scope, ctx: Ctx) -> None:
        """Record an indexed array variable: its Ref, and its type as a list."""
        ref = self.known_global(obj, scope, ctx)
        self.types.record(obj, list_of(ref.type))

    def index_check(self, dim: tuple[str, int], idx: A.Expr, scope: Scope, ctx: Ctx,
                    name: str = "") -> None:
        t = self.expr(idx, scope, ctx)
        if not compatible(dim[0], t):
            self.err(f"index must be {dim[0]}, found {t}", idx.span)
        self.const_index_check(dim, idx, name)

    def _grid_column_check(self, e: A.Index, scope: Scope) -> None:
        """`pyramid[1][2]` with both indices constant: the column must be in that row."""
        obj = e.obj
        if not (isinstance(obj, A.Index) and isinstance(obj.obj, A.Name)
                and scope.lookup(obj.obj.name) is None and obj.obj.name in self.syms.zones):
            return
        z = self.syms.zones[obj.obj.name]
        r, c = const_int(obj.index, self.syms.consts), const_int(e.index, self.syms.consts)
        if z.grid is None or r is None or c is None or not 1 <= r <= len(z.grid):
            return
        if not 1 <= c <= z.grid[r - 1]:
            self.err(f"column {c} is out of range 1..{z.grid[r - 1]} in row {r} of "
                     f"'{z.name}'", e.index.span,
                     f"row {r} has {z.grid[r - 1]} places: {z.name}[{r}][1] to "
                     f"{z.name}[{r}][{z.grid[r - 1]}]")

    def const_index_check(self, dim: tuple[str, int], idx: A.Expr, name: str = "",
                          what: str = "") -> None:
        v = const_int(idx, self.syms.consts)
        if v is not None and dim[0] in ("int", "player") and not 1 <= v <= dim[1]:
            self.err(f"index {v} is out of range 1..{dim[1]}", idx.span,
                     _range_hint(dim, name, what))

    # ----------------------------------------------------------- optional ints
    def is_optional(self, e: A.Expr) -> bool:
        """Is e a read of an optional int variable (`bid[p]`, `bid`)?"""
        name = e.obj if isinstance(e, A.Index) else e
        if not isinstance(name, A.Name):
            return False
        v = self.syms.vars.get(name.name)
        if name in self.refs and self.refs[name].kind not in ("var", "var_array"):
            return False  # a local of the same name
        return v is not None and v.optional and (v.dim is None) == isinstance(e, A.Name)

    def optional_read(self, e: A.Expr) -> None:
        """An optional int read as an int: only where a test showed it is not none."""
        if id(e) in self.free_reads:
            return
        key = optional_key(e)
        if key is not None and key in self.narrowed:
            return
        shown_ = key or "it"
        self.err(f"'{shown_}' may be none here: test it before using it as a number",
                 e.span, f"write 'if {shown_} != none {{ ... }}', '{shown_} != none and ...', "
                 f"or 'if {shown_} == none then 0 else {shown_}'")

    def knowing(self, cond: A.Expr | None, holds: bool) -> _Knowing:
        """`with self.knowing(cond, True):` what is checked inside may rely on cond."""
        return _Knowing(self, facts(cond, holds) if cond is not None else frozenset())

    def forget(self, e: A.Expr) -> None:
        """An assignment to an optional int: what was known of it no longer holds."""
        key = optional_key(e)
        if key is not None:
            self.narrowed = self.narrowed - {key}

    # ----------------------------------------------------------- names
    def name(self, e: A.Name, scope: Scope, ctx: Ctx, zone: bool = False) -> str:
        """The type of a name used as a value; its Ref recorded."""
        ref = scope.lookup(e.name)
        if ref is None:
            ref = self.global_ref(e, scope, ctx, zone)
            if ref is None:
                return "any"
            if ref.kind == "var_array":
                self.err(f"'{e.name}' is an array: use {e.name}[...]", e.span)
                return "any"
            if ref.kind == "var" and ref.decl.optional:
                self.optional_read(e)
        self._named[id(e)] = (e, ref)
        return ref.type

    def global_ref(self, e: A.Name, scope: Scope, ctx: Ctx, zone: bool = False) -> Ref | None:
        """What a name that is not local refers to, or None (reported). The order is the
        language's: zones, variables, constants, constant defs, built-in names."""
        n = e.name
        ref = self._globals.get(n)
        if ref is not None:
            return ref
        syms = self.syms
        if n in syms.zones:
            z = syms.zones[n]
            ref = (Ref("zone", n, "zone", z) if z.dim is None
                   else Ref("zone_array", n, "list:zone", z))
        elif n in syms.vars:
            v = syms.vars[n]
            ref = Ref("var" if v.dim is None else "var_array", n, v.type, v)
        elif n in syms.constants:
            t, value = syms.constants[n]
            # an option (its declaration), or a suit, colour, symbol, rank, player_count
            ref = Ref("constant", n, t, syms.option_decls.get(n), value)
        if ref is not None:
            self._globals[n] = ref  # declared before any use: it cannot change
            return ref
        defs = syms.defs
        if n in defs and defs[n].is_const:
            if n in self.def_stack:
                self.err(f"'{n}' refers to itself (recursion is not allowed)", e.span)
                return None
            return Ref("def", n, self.def_type(n), defs[n])
        b = NAMES.get(n)
        if b is not None and not (b.def_shadows and n in defs):
            # not kept: a variable declared later may take the name
            if b.end_only and (ctx.kind != "pure" or not (
                    ctx.rule == "end" or ctx.rule.startswith(("invariant", "expect")))):
                self.err(f"'{n}' is known only in 'end when', 'invariant' and 'expect'",
                         e.span)
            return Ref("builtin", n, b.type, b)
        if n in defs:
            self.err(f"'{n}' is a function: call it, {n}(...)", e.span)
        elif n in syms.roles:
            self.err(f"'{n}' is a role ({syms.roles[n]}), not a seat or a value: it never "
                     "chooses, and its play is written as statements", e.span,
                     f"write what {n} does in the flow (while ... {{ move top of stock to "
                     f"{n}_hand }}) and name its zones ({n}_hand)")
        elif zone:
            self.err(f"unknown zone '{n}'", e.span, indexed_hint(n, syms.zones)
                     or did_you_mean(n, syms.zones) or "zones: " + ", ".join(syms.zones))
        else:
            candidates = (list(scope.all_names()) + list(syms.zones) + list(syms.vars)
                          + list(syms.constants) + list(defs)
                          + ["suits", "colors", "players", "ended"])
            # (in an example, p1 to pN are named: a pN there is a seat the game has not)
            seat = None if ctx.rule.startswith("example ") else _SEAT.fullmatch(n)
            self.err(f"unknown name '{n}'", e.span,
                     f"outside an example a seat is its number: write {seat.group(1)} "
                     "(p1, p2... name the seats only in examples and at the prompt)"
                     if seat else indexed_hint(n, syms.zones) or did_you_mean(n, candidates))
        return None

    # ----------------------------------------------------------- one method per node
    def _me(self, e: A.Me, scope: Scope, ctx: Ctx) -> str:
        if not ctx.me:
            self.err("'me' (the player making the move) is not known here", e.span,
                     "pass the player as a parameter")
        return "player"

    def _list(self, e: A.ListLit, scope: Scope, ctx: Ctx) -> str:
        t = "any"
        for x in e.items:
            xt = self.expr(x, scope, ctx)
            if not compatible(t, xt):
                self.err(f"a list mixes {t} and {xt}", x.span)
            t = unify(t, xt)
        return list_of(t)

    def _attr(self, e: A.Attr, scope: Scope, ctx: Ctx) -> str:
        ot = self.expr(e.obj, scope, ctx)
        where = e.name_span if e.name_span.line else e.span
        if ot in ("card", "any"):
            known = ("rank", "suit", "color", "joker", "face_up") + self.syms.card_attrs
            if e.name not in known:
                self.err(f"cards have no attribute '{e.name}'", where,
                         did_you_mean(e.name, known) or "attributes: " + ", ".join(known))
                return "any"
            if e.name in self.syms.bool_attrs:
                return "bool"
            return _CARD_TYPES.get(e.name, "int")
        hint = ""
        if ot == "zone":
            hint = (f"'top of Z.{e.name}' reads as 'top of (Z.{e.name})': "
                    f"write '(top of Z).{e.name}'")
        self.err(f"{ot} has no attribute '{e.name}'", where, hint)
        return "any"

    def _index(self, e: A.Index, scope: Scope, ctx: Ctx, zone: bool = False) -> str:
        obj = e.obj
        if isinstance(obj, A.Name) and scope.lookup(obj.name) is None:
            nm = obj.name
            if nm in self.syms.zones:
                z = self.syms.zones[nm]
                self.known_global(obj, scope, ctx)
                if z.dim is None:
                    # a single zone indexed: the card at a position
                    self.types.record(obj, "zone")
                    self.want("int", e.index, scope, ctx)
                    return "card"
                self.types.record(obj, "list:zone")
                if z.grid is not None:  # pyramid[r]: the places of row r (then [c]: one)
                    self.want("int", e.index, scope, ctx)
                    self.const_index_check(("int", len(z.grid)), e.index, nm, "rows")
                    return "list:zone"
                it = self.expr(e.index, scope, ctx)
                if is_list(it) and compatible(z.dim[0], elem(it)):
                    return "list:zone"  # hand[players from p]: several zones
                if not compatible(z.dim[0], it):
                    self.err(f"index must be {z.dim[0]}, found {it}", e.index.span)
                self.const_index_check(z.dim, e.index, nm, "zones")
                return "zone"
            if nm in self.syms.vars:
                v = self.syms.vars[nm]
                if v.dim is not None:
                    self.var_array(obj, scope, ctx)
                    self.index_check(v.dim, e.index, scope, ctx, nm)
                    if v.optional:
                        self.optional_read(e)
                    return v.type
        ot = self.expr(e.obj, scope, ctx, zone=zone)
        it = self.expr(e.index, scope, ctx)
        if not compatible("int", it) and it != "player":
            self.err(f"position must be int, found {it}", e.index.span)
        self._grid_column_check(e, scope)
        if ot == "zone":
            return "card"
        if is_list(ot):
            return elem(ot)
        if ot != "any":
            self.err(f"cannot index {ot}", e.span)
        return "any"

    def _call(self, e: A.Call, scope: Scope, ctx: Ctx) -> str:
        f = e.func
        defs = self.syms.defs
        if f in defs:
            d = defs[f]
            if f in self.def_stack:
                self.err(f"'{f}' calls itself: recursion is not allowed (every rule must end)",
                         e.span, "use a quantifier (sum, count, each ...) or a loop in a proc")
                for a in e.args:
                    self.expr(a, scope, ctx)
                return "any"
            if d.is_const:
                self.err(f"'{f}' is a constant, not a function", e.span)
                return self.def_type(f)
            self.args(f, d.params, e.args, e.span, scope, ctx)
            t = self.def_type(f)
            self.refs.record(e, Ref("def", f, t, d))
            return t
        if f in self.syms.procs:
            self.err(f"'{f}' is a procedure: call it as a statement", e.span)
            return "any"
        ts = [self.expr(a, scope, ctx) for a in e.args]
        b = FUNCTIONS.get(f)
        if b is None:
            known = list(defs) + sorted(FUNCTIONS)
            # (the caret under the name, not the whole call with its arguments)
            name = A.Span(e.span.file, e.span.line, e.span.column, e.span.line,
                          e.span.column + len(f))
            self.err(f"unknown function '{f}'", name, did_you_mean(f, known))
            return "any"
        if b.chance and ctx.kind == "pure":
            self.err(_PURE_CHANCE, e.span)
        elif b.chance and ctx.kind == "log":
            self.err(_LOG_CHANCE, e.span, _LOG_CHANCE_HINT)
        assert b.rule is not None and b.arity is not None
        self.refs.record(e, Ref("builtin", f, "", b))
        t = b.rule(CallSite(e, ts, b.arity, self.err))
        if f in ("min", "max") and t == "card" and ORDER_ATTR not in self.syms.card_attrs:
            self.err(f"'{f}' of cards needs the deck's rank order", e.span, ORDER_HINT)
        return t

    def _unary(self, e: A.Unary, scope: Scope, ctx: Ctx) -> str:
        op = e.op
        zone = op in ("top", "bottom", "all") and isinstance(e.operand, A.Name)
        ot = self.expr(e.operand, scope, ctx, zone=zone)
        if op == "-":
            if not compatible("int", ot):
                self.err(f"cannot negate {ot}", e.span)
            return "int"
        if op == "not":
            if not compatible("bool", ot):
                self.err(f"'not' needs a condition, found {ot}", e.operand.span)
            return "bool"
        if op in ("top", "bottom"):
            if ot == "list:card":
                return "card"
            if not compatible("zone", ot):
                self.err(f"'{op} of' needs a zone, found {ot}", e.operand.span)
            return "card"
        if op == "all":
            if ot == "list:zone":
                return "list:card"
            if not compatible("zone", ot):
                self.err(f"'all of' needs a zone, found {ot}", e.operand.span)
            return "list:card"
        # left, right, players_from
        if not compatible("player", ot):
            self.err(f"expected a player, found {ot}", e.operand.span)
        return "list:player" if op == "players_from" else "player"

    def _top_n(self, e: A.TopN, scope: Scope, ctx: Ctx) -> str:
        self.want("int", e.count, scope, ctx)
        self.want("zone", e.zone, scope, ctx)
        return "list:card"

    def _position_of(self, e: A.PositionOf, scope: Scope, ctx: Ctx) -> str:
        ct = self.expr(e.card, scope, ctx)
        if ct not in ("card", "any"):
            self.err(f"'position of' takes a card, found {ct}", e.card.span,
                     "write 'position of C in Z': where the card C lies in the zone Z")
        self.want("zone", e.zone, scope, ctx)
        return "int"
    def _subsets(self, e: A.Subsets, scope: Scope, ctx: Ctx) -> str:
        if e.count is not None:
            ct = self.expr(e.count, scope, ctx)
            if not compatible("int", ct):
                self.err(f"the number of cards to choose must be a number, found {shown(ct)}",
                         e.count.span, "the number comes first: 'cards in 3 of hand[me]', "
                         "'subsets 2 of table'")
        zt = self.expr(e.zone, scope, ctx, zone=True)
        if zt != "zone" and not compatible("list:card", zt):
            self.err(f"sets of cards are taken from a zone or a list of cards, found {shown(zt)}",
                     e.zone.span, "write 'subsets of hand[me]', or 'c in 3 of hand[me]' "
                     "for a move that chooses 3 cards")
        elif e.values is not None and e.target is not None:
            self.expr(e.values, scope, ctx)
            self.expr(e.target, scope, ctx)
        return "list:list:card"

    def _is_empty(self, e: A.IsEmpty, scope: Scope, ctx: Ctx) -> str:
        ot = self.expr(e.operand, scope, ctx)
        if ot != "zone" and not is_list(ot) and ot != "any":
            self.err(f"'is empty' needs a zone or a list, found {ot}", e.operand.span)
        return "bool"

    def _if(self, e: A.IfExpr, scope: Scope, ctx: Ctx) -> str:
        self.want("bool", e.cond, scope, ctx)
        with self.knowing(e.cond, True):
            a = self.expr(e.then, scope, ctx)
        with self.knowing(e.cond, False):
            b = self.expr(e.else_, scope, ctx)
        if not compatible(a, b):
            self.err(f"the two branches differ: {a} and {b}", e.span)
        return unify(a, b)

    def _let(self, e: A.Let, scope: Scope, ctx: Ctx) -> str:
        vt = self.expr(e.value, scope, ctx)
        inner = Scope(scope)
        inner.bind("let", e.name, vt, e)
        return self.expr(e.body, inner, ctx)

    def _binary(self, e: A.Binary, scope: Scope, ctx: Ctx) -> str:
        op = e.op
        if op in ("==", "!="):  # `bid[p] == none` is the test itself
            for tested, other in ((e.left, e.right), (e.right, e.left)):
                if isinstance(other, A.NoneLit) and optional_key(tested) is not None:
                    self.free_reads.add(id(tested))
        if op in ("and", "or"):  # the right side knows what the left side tested
            a = self.expr(e.left, scope, ctx)
            with self.knowing(e.left, op == "and"):
                b = self.expr(e.right, scope, ctx)
        else:
            a = self.expr(e.left, scope, ctx)
            b = self.expr(e.right, scope, ctx)
        if op in ("==", "!=") and "none" in (a, b) and "int" in (a, b):
            side = e.left if b == "none" else e.right
            key = optional_key(side)
            if key is not None and self.is_optional(side):
                return "bool"
        if op == "+" and is_list(a):
            if not compatible(a, b):
                self.err(f"cannot join {a} and {b}", e.span)
            return unify(a, b)
        if op in ("+", "-", "*", "/", "%"):
            if a == "int" and b == "int":
                const_int(e, self.syms.consts)  # a constant too large is an error here
            for x, sub in ((a, e.left), (b, e.right)):
                if not compatible("int", x):
                    hint = ""
                    if x == "card":
                        hint = "a card is not a number: use its rank, e.g. c.rank"
                    elif x == "zone" or x == "list:zone":
                        hint = "count its cards with size(...)"
                    elif x == "bool":
                        hint = "write 'if ... then 1 else 0' to count a condition"
                    self.err(f"'{op}' needs numbers, found {x}", sub.span, hint)
            return "int"
        if op in ("and", "or"):
            for x, sub in ((a, e.left), (b, e.right)):
                if not compatible("bool", x):
                    self.err(f"'{op}' needs conditions, found {x}", sub.span)
            return "bool"
        if op in ("==", "!="):
            if not comparable(a, b):
                self.err(f"cannot compare {a} with {b}", e.span)
            return "bool"
        if op in ("<", "<=", ">", ">=") and "card" in (a, b) and {a, b} <= {"card", "any"}:
            if ORDER_ATTR not in self.syms.card_attrs:
                self.err(f"'{op}' between cards needs the deck's rank order", e.span,
                         ORDER_HINT)
            return "bool"
        if op in ("<", "<=", ">", ">="):
            for x, sub in ((a, e.left), (b, e.right)):
                if not compatible("int", x):
                    self.err(f"'{op}' compares numbers, found {x}", sub.span)
            return "bool"
        if op in ("in", "notin"):
            if b == "zone":
                if not compatible("card", a):
                    self.err(f"only cards can be in a zone, found {a}", e.left.span)
            elif is_list(b):
                if not compatible(elem(b), a):
                    self.err(f"{a} cannot be in {b}", e.span)
            elif b != "any":
                self.err(f"'in' needs a list or a zone on the right, found {b}", e.right.span)
            return "bool"
        if op == "..":
            for x, sub in ((a, e.left), (b, e.right)):
                if not compatible("int", x):
                    self.err(f"a range needs numbers, found {x}", sub.span)
            return "list:int"
        self.err(f"unknown operator {op}", e.span)  # pragma: no cover
        return "any"

    def _quant(self, e: A.Quant, scope: Scope, ctx: Ctx) -> str:
        self.local_name(e.var, e.span)
        k = e.kind
        if k == "random" and ctx.kind == "log":
            self.err(_LOG_CHANCE, e.span, _LOG_CHANCE_HINT)
        if k == "random" and ctx.kind == "pure":
            # first: the errors inside a refused `random` follow from writing it here
            # (it runs to the end of the condition: its list is the rest of it)
            self.err(_PURE_CHANCE, e.span, "draw it in a move's body (let d = random x in "
                     "hand[me]), where a chance event is allowed")
        st = self.expr(e.source, scope, ctx)
        et = self.iter_type(st, e.source.span, self._extent_hint(e) if st == "bool" else "")
        inner = Scope(scope)
        inner.bind("quant", e.var, et, e)
        if e.where is not None:
            self.want("bool", e.where, inner, ctx)
        with self.knowing(e.where, True):
            bt = self.expr(e.body, inner, ctx) if e.body is not None else None
        if k in ("any", "all"):
            if bt is None and e.where is None:
                self.err(f"'{k}' needs a condition: '{k} x in L: cond'", e.span)
            if bt is not None and not compatible("bool", bt):
                self.err(f"'{k}' needs a condition, found {bt}", e.body.span if e.body else e.span)
            return "bool"
        if k == "count":
            if bt is not None and not compatible("bool", bt):
                self.err(f"'count' counts where a condition holds, found {bt}",
                         e.body.span if e.body else e.span)
            return "int"
        if k in ("sum", "min", "max"):
            if bt is None:
                bt = et
            if not compatible("int", bt):
                self.err(f"'{k}' needs numbers, found {bt}", e.span)
            return "int"
        if k in ("first", "random"):
            if e.body is not None:
                self.err(f"'{k}' takes 'where', not ':'", e.body.span)
            return et
        if k == "each":
            return list_of(bt if bt is not None else et)
        return "any"  # pragma: no cover


def literal_player(want: str, e: A.Expr) -> bool:
    """A number literal may name a player (`var dealer: player = 1`)."""
    return want == "player" and isinstance(e, A.Int)


class _Knowing:
    def __init__(self, checker: ExprChecker, known: frozenset[str]) -> None:
        self.checker = checker
        self.known = known
        self.saved: frozenset[str] = frozenset()

    def __enter__(self) -> None:
        self.saved = self.checker.narrowed
        self.checker.narrowed = self.saved | self.known

    def __exit__(self, *exc: object) -> None:
        self.checker.narrowed = self.saved


def optional_key(e: A.Expr) -> str | None:
    """A name for the value of `bid[p]` or `bid` to be known not none: the variable, and
    an index that is a name, `me` or a number (None: nothing can be known of it)."""
    if isinstance(e, A.Name):
        return e.name
    if isinstance(e, A.Index) and isinstance(e.obj, A.Name):
        i = e.index
        if isinstance(i, A.Name):
            return f"{e.obj.name}[{i.name}]"
        if isinstance(i, A.Me):
            return f"{e.obj.name}[me]"
        if isinstance(i, A.Int):
            return f"{e.obj.name}[{i.value}]"
    return None


def facts(cond: A.Expr, holds: bool) -> frozenset[str]:
    """The optional ints known not none when cond is true (holds) or false."""
    if isinstance(cond, A.Binary):
        if cond.op in ("==", "!="):
            for x, y in ((cond.left, cond.right), (cond.right, cond.left)):
                if isinstance(y, A.NoneLit):
                    key = optional_key(x)
                    if key is not None and holds == (cond.op == "!="):
                        return frozenset((key,))
            return frozenset()
        if cond.op == "and" and holds:
            return facts(cond.left, True) | facts(cond.right, True)
        if cond.op == "or" and not holds:
            return facts(cond.left, False) | facts(cond.right, False)
    if isinstance(cond, A.Unary) and cond.op == "not":
        return facts(cond.operand, not holds)
    return frozenset()


_NAME_AND_NUMBER = re.compile(r"([A-Za-z_][A-Za-z0-9_]*?)_?([0-9]+)")


# an example's name of a seat (`p1`), written in a rule
_SEAT = re.compile(r"p([1-9][0-9]*)")


def indexed_hint(name: str, zones: Mapping[str, ZoneInfo]) -> str:
    """`column1` where `zone column[8]` is declared: one of an array's zones written as
    its name and a number, which did-you-mean would answer with the bare array."""
    m = _NAME_AND_NUMBER.fullmatch(name)
    if m is None:
        return ""
    base, k = m.group(1), int(m.group(2))
    z = zones.get(base)
    if z is None or z.dim is None or z.grid is not None or z.dim[0] not in ("int", "player"):
        return ""
    kind, size = z.dim
    index = f"p{k}" if kind == "player" else str(k)
    if 1 <= k <= size:
        return f"did you mean '{base}[{index}]'?"
    first, last = ("p1", f"p{size}") if kind == "player" else ("1", str(size))
    return f"'{base}' is an array of zones, {base}[{first}] to {base}[{last}]"


def _range_hint(dim: tuple[str, int], name: str, what: str = "") -> str:
    """Where an array's indices run: they start at 1 (a player's, at p1)."""
    if not name:
        return "indices start at 1"
    kind, size = dim
    if kind == "player":
        return f"'{name}' has one entry per player: {name}[p1] to {name}[p{size}]"
    things = what or "entries"
    return f"'{name}' has {size} {things}, numbered from 1: {name}[1] to {name}[{size}]"
