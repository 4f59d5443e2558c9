"""Stage 5: checked game -> Python source -> compiled functions over a flat state.

The state is a flat list of slots while a step runs (a tuple between steps):

    0 PC       current node of the flow graph (a decision node, or the end node)
    1 RNG      the random generator's seed for the next chance event
    2 MOVES    moves applied so far
    3 PENDING  simultaneous choices made so far (a tuple of moves), or None
    4 ENDED    None while the game runs, else why it ended
    5 WHO      who decides at the current node (a player, or a tuple for a simultaneous choice)
    6...       zones (each a tuple of card ids, bottom first), variables, flow variables

Every rule becomes straight Python: `def`s are inlined, a move's `when` is split into
conjuncts that are tested in the outermost parameter loop they depend on, and the flow is
lowered to node functions returning the next node, so that a game can stop at any
decision and resume from the state alone. Nothing from the game file reaches the
generated code except through names we mangle and literals we `repr`; the code runs with
no builtins beyond the few it needs.

`generate(checked, optimize=False)` emits the plain code, the reference the optimised code
is tested against (tests/test_optimize.py): defs are called as functions, not inlined; no
hoisting, no def tables, no unrolling, no jump threading, no shortcut for a constant
decider or a single decision node.
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from ..cards import SUIT_SYMBOLS, SUITS
from ..errors import Diagnostic
from ..lang import Checked, elem, walk_stmts
from ..lang import ast as A

PC, RNG, MOVES, PENDING, ENDED, WHO = range(6)
FIRST_SLOT = 6
STOP = -1
LOOP_LIMIT = 100_000  # automatic steps or loop rounds before a rule counts as runaway

_JUMP = re.compile(r"^    return (\d+)$")
_RETURN = re.compile(r"return (\d+)$")
MAX_RANGE = LOOP_LIMIT_RANGE = 100_000  # the most values a range or repeat may run over
_SIMPLE = re.compile(r"^(?:[A-Za-z_][A-Za-z_0-9]*|-?\d+|s\[\d+\]|None|True|False)$")


@attrs.define
class ZoneSlot:
    name: str
    text: str  # how the zone is written in moves: column3, hand-p2
    slot: int
    decl: str  # the declared zone
    owner: int  # the owning player for per-player zones, else 0


@attrs.define
class Decision:
    node: int
    alts: tuple[int, ...]
    optional: bool
    simultaneous: bool
    succ: int
    span: A.Span


@attrs.define
class Local:
    code: str
    origin: str | None = None  # for a card: the zone (slot code) it was taken from
    lo: int | None = None  # known integer range, to skip index checks
    hi: int | None = None


@attrs.define
class Generated:
    source: str
    nslots: int
    zone_slots: list[ZoneSlot]
    zone_base: dict[str, int]
    var_base: dict[str, int]
    move_names: list[str]
    move_param_types: list[list[str]]
    decisions: dict[int, Decision]
    node_phase: dict[int, str]
    node_span: dict[int, A.Span]
    entry: int
    end_node: int
    spans: list[tuple[A.Span, str]]
    card_text: list[str]
    edges: dict[int, list[int]]


class _Loop:
    def __init__(self, exit_node: int | None) -> None:
        self.exit_node = exit_node


_RAISING_CALL = re.compile(r"\b_(?:E|ix|at|nn|div|mod|pick|topn|min|max|player|rng)\(")
_RAISING = re.compile(r"\b_(?:E|ix|at|nn|div|mod|pick|topn|min|max|take\w*|player|cat|rng)\(|"
                      r"\b_[laqifT]\d+\b")


class _Hoist:
    """Loop-invariant code motion inside one legal-move generator.

    A `def` argument that depends only on parameters of outer loops is computed once at
    that loop level, not in every inner iteration; `top of Z` needs no empty check where
    an earlier conjunct (`Z is not empty`) has guarded it."""

    def __init__(self, param_level: dict[str, int]) -> None:
        self.param_level = param_level
        self.cur = 0
        self.hoisted: dict[int, list[tuple[str, str]]] = {}
        self.by_code: dict[tuple[int, str], str] = {}
        self.level_of: dict[str, int] = {}  # hoisted variable -> its loop level
        self.guards: dict[str, int] = {}
        self.guard_used = -1


class Gen:
    def __init__(self, g: Checked, optimize: bool = True) -> None:
        self.g = g
        self.optimize = optimize
        self.T = g.types
        self.n = g.players
        self.out: list[str] = []
        self.spans: list[tuple[A.Span, str]] = []
        self.tmp_n = 0
        # ---- layout
        slot = FIRST_SLOT
        self.zone_base: dict[str, int] = {}
        self.zone_slots: list[ZoneSlot] = []
        for z in g.zones.values():
            self.zone_base[z.name] = slot
            if z.dim is None:
                self.zone_slots.append(ZoneSlot(z.name, z.name, slot, z.name, 0))
                slot += 1
            else:
                kind, size = z.dim
                for i in range(1, size + 1):
                    if kind == "suit":
                        text = f"{z.name}-{SUITS[i - 1]}"
                    elif kind == "player":
                        text = f"{z.name}-p{i}"
                    else:
                        text = f"{z.name}{i}"
                    owner = i if kind == "player" else 0
                    self.zone_slots.append(ZoneSlot(z.name, text, slot, z.name, owner))
                    slot += 1
        self.var_base: dict[str, int] = {}
        for v in g.vars.values():
            self.var_base[v.name] = slot
            slot += 1 if v.dim is None else v.dim[1]
        self.flow_slot0 = slot
        self.nslots = slot
        self.move_ids = {name: i for i, name in enumerate(g.moves)}
        self.pass_id = len(g.moves)
        self.def_funcs: set[str] = set()
        self.inline_depth = 0
        self.tables: dict[Any, tuple[str, str]] | None = None
        self.range_params: set[str] = set()
        self.hoist: _Hoist | None = None
        self.inline_budget = 400_000

    # ------------------------------------------------------------ utilities
    def tmp(self, base: str = "t") -> str:
        self.tmp_n += 1
        return f"_{base}{self.tmp_n}"

    def span_id(self, span: A.Span, rule: str) -> int:
        self.spans.append((span, rule))
        return len(self.spans) - 1

    def new_slot(self) -> int:
        s = self.nslots
        self.nslots += 1
        return s

    def t(self, e: A.Expr) -> str:
        return self.T.get(id(e), "any")

    # ------------------------------------------------------------ expressions
    def expr(self, e: A.Expr, env: dict[str, Local], rule: str) -> str:
        if isinstance(e, A.Int):
            return str(e.value)
        if isinstance(e, A.Bool):
            return "True" if e.value else "False"
        if isinstance(e, A.NoneLit):
            return "None"
        if isinstance(e, A.Me):
            return env["me"].code
        if isinstance(e, A.Players):
            return "PLAYERS"
        if isinstance(e, A.Name):
            return self.name(e, env, rule)
        if isinstance(e, A.ListLit):
            items = [self.as_tuple(x, env, rule) for x in e.items]
            return "(" + "".join(i + ", " for i in items) + ")"
        if isinstance(e, A.Attr):
            obj = self.expr(e.obj, env, rule)
            table = {"rank": "RANK", "suit": "SUIT", "color": "COLOR", "joker": "JOKER"}.get(
                e.name, f"X_{e.name}")
            h = self.hoist
            if h is not None and obj in h.level_of:  # invariant where the card is
                level = h.level_of[obj]
                key = (level, f"{table}[{obj}]")
                if key not in h.by_code:
                    var = self.tmp("h")
                    h.by_code[key] = var
                    h.level_of[var] = level
                    h.hoisted.setdefault(level, []).append((var, key[1]))
                return h.by_code[key]
            if self.t(e.obj) == "card" and self.card_may_be_none(e.obj):
                sid = self.span_id(e.obj.span, rule)
                return f"{table}[_nn({obj}, {sid})]"
            return f"{table}[{obj}]"
        if isinstance(e, A.Index):
            return self.index(e, env, rule)
        if isinstance(e, A.Call):
            return self.call(e, env, rule)
        if isinstance(e, A.Unary):
            return self.unary(e, env, rule)
        if isinstance(e, A.TopN):
            z = self.expr(e.zone, env, rule)
            n = self.expr(e.count, env, rule)
            sid = self.span_id(e.span, rule)
            return f"_topn(s[{z}], {n}, {sid})"
        if isinstance(e, A.Binary):
            return self.binary(e, env, rule)
        if isinstance(e, A.IsEmpty):
            ot = self.t(e.operand)
            code = (f"s[{self.expr(e.operand, env, rule)}]" if ot == "zone"
                    else self.expr(e.operand, env, rule))
            if ot == "list:zone":
                code = f"_cat(s, {code})"
            return f"(len({code}) > 0)" if e.negated else f"(not {code})"
        if isinstance(e, A.IfExpr):
            c = self.expr(e.cond, env, rule)
            a = self.as_tuple(e.then, env, rule)
            b = self.as_tuple(e.else_, env, rule)
            return f"({a} if {c} else {b})"
        if isinstance(e, A.Let):
            v = self.expr(e.value, env, rule)
            var = self.tmp("l")
            inner = dict(env)
            inner[e.name] = Local(var, self.origin(e.value, env, rule))
            body = self.expr(e.body, inner, rule)
            return f"({body} if (({var} := {v}) or True) else None)"
        if isinstance(e, A.Quant):
            return self.quant(e, env, rule)
        raise Diagnostic("internal: cannot compile expression", e.span)  # pragma: no cover

    def as_tuple(self, e: A.Expr, env: dict[str, Local], rule: str) -> str:
        code = self.expr(e, env, rule)
        if isinstance(e, A.Binary) and e.op == "..":
            return f"tuple({code})"
        return code

    def card_may_be_none(self, e: A.Expr) -> bool:
        if isinstance(e, A.Quant) and e.kind == "first":
            return True
        if isinstance(e, A.Name) and e.name in self.g.vars:
            return True
        return isinstance(e, A.NoneLit)

    def name(self, e: A.Name, env: dict[str, Local], rule: str) -> str:
        n = e.name
        if n in env:
            return env[n].code
        g = self.g
        if n in g.zones:
            z = g.zones[n]
            if z.dim is None:
                return str(self.zone_base[n])
            return f"Z_{n}"
        if n in g.vars:
            return f"s[{self.var_base[n]}]"
        if n in g.constants:
            return repr(g.constants[n][1])
        if n in g.defs:
            return self.inline_def(g.defs[n], [], env, rule, e.span)
        if n == "suits":
            return "(1, 2, 3, 4)"
        if n == "colors":
            return "(1, 2)"
        if n == "no_moves":
            return "(not _legal)"
        if n == "legal_count":
            return "len(_legal)"
        if n == "moves_played":
            return "s[2]"
        if n == "ended":
            return "(s[4] is not None)"
        raise Diagnostic(f"internal: unresolved name {n}", e.span)  # pragma: no cover


    def index_code(self, idx: A.Expr, dim: tuple[str, int], env: dict[str, Local],
                   rule: str) -> str:
        code = self.expr(idx, env, rule)
        kind, size = dim
        if self.safe_index(idx, kind, size, env):
            return code
        sid = self.span_id(idx.span, rule)
        return f"_ix({code}, {size}, {sid})"

    def safe_index(self, idx: A.Expr, kind: str, size: int, env: dict[str, Local]) -> bool:
        if isinstance(idx, A.Int):
            return 1 <= idx.value <= size
        if isinstance(idx, A.Name) and idx.name in env:
            loc = env[idx.name]
            return loc.lo is not None and loc.hi is not None and 1 <= loc.lo and loc.hi <= size
        if isinstance(idx, A.Name) and idx.name in self.g.constants:
            v = self.g.constants[idx.name][1]
            return isinstance(v, int) and 1 <= v <= size
        if kind == "player" and isinstance(idx, A.Me):
            return True
        if kind == "player" and isinstance(idx, A.Unary) and idx.op in ("left", "right"):
            return True
        if kind == "suit" and isinstance(idx, A.Attr) and idx.name == "suit":
            return not self.g.has_suitless and not self.card_may_be_none(idx.obj)
        return False

    def index(self, e: A.Index, env: dict[str, Local], rule: str) -> str:
        g = self.g
        if isinstance(e.obj, A.Name) and e.obj.name not in env:
            nm = e.obj.name
            if nm in g.zones and g.zones[nm].dim is not None:
                dim = g.zones[nm].dim
                assert dim is not None
                if self.t(e.index).startswith("list:"):
                    lst = self.expr(e.index, env, rule)
                    sid = self.span_id(e.index.span, rule)
                    return (f"tuple({self.zone_base[nm] - 1} + _ix(_i, {dim[1]}, {sid}) "
                            f"for _i in {lst})")
                i = self.index_code(e.index, dim, env, rule)
                base = self.zone_base[nm] - 1
                if i.isdigit():
                    return str(base + int(i))
                return f"({base} + {i})"
            if nm in g.vars and g.vars[nm].dim is not None:
                dim = g.vars[nm].dim
                assert dim is not None
                i = self.index_code(e.index, dim, env, rule)
                base = self.var_base[nm] - 1
                if i.isdigit():
                    return f"s[{base + int(i)}]"
                return f"s[{base} + {i}]"
        ot = self.t(e.obj)
        obj = self.expr(e.obj, env, rule)
        i = self.expr(e.index, env, rule)
        sid = self.span_id(e.span, rule)
        if ot == "zone":
            return f"_at(s[{obj}], {i}, {sid})"
        return f"_at({obj}, {i}, {sid})"

    def table_call(self, e: A.Call, env: dict[str, Local], rule: str) -> str | None:
        """In a legal-move generator, a def called with one move parameter that ranges over
        constants (and otherwise constants) is evaluated once per value, before the loops,
        instead of once per iteration of the inner loops: `wanted(k)` -> `_T3[u_k - 1]`."""
        tables = self.tables
        if tables is None:
            return None
        var = None
        for a in e.args:
            if (isinstance(a, A.Name) and a.name in env and a.name in self.range_params
                    and env[a.name].code == f"u_{a.name}"):
                if var is not None and var != a.name:
                    return None
                var = a.name
            elif not isinstance(a, A.Int):
                return None
        if var is None:
            return None
        lo, hi = env[var].lo, env[var].hi
        if lo is None or hi is None or hi - lo > 64:
            return None
        key = (e.func, lo, hi,
               tuple(a.name if isinstance(a, A.Name) else a.value for a in e.args))  # type: ignore[attr-defined]
        if key not in tables:
            saved, self.tables = self.tables, None
            saved_h, self.hoist = self.hoist, None
            try:
                if 0 <= lo and hi - lo < 8:
                    # a few values: one expression each, the parameter a literal that Python
                    # folds (`s[8 + 1]` -> `s[9]`), and no comprehension to call
                    items = []
                    for i in range(lo, hi + 1):
                        inner = dict(env)
                        inner[var] = Local(str(i), None, i, i)
                        args = [self.as_tuple(a, inner, rule) for a in e.args]
                        items.append(self.inline_def(self.g.defs[e.func], args, inner, rule,
                                                     e.span, e.args))
                    table = "(" + "None, " * lo + "".join(f"{x}, " for x in items) + ")"
                else:
                    it = self.tmp("i")
                    inner = dict(env)
                    inner[var] = Local(it, None, lo, hi)
                    args = [self.as_tuple(a, inner, rule) for a in e.args]
                    body = self.inline_def(self.g.defs[e.func], args, inner, rule, e.span,
                                           e.args)
                    pad = f"(None,) * {lo} + " if lo > 0 else ""
                    table = f"{pad}tuple([{body} for {it} in range({lo}, {hi + 1})])"
                    items = [body]
            finally:
                self.tables, self.hoist = saved, saved_h
            if any(_RAISING_CALL.search(x) for x in items):
                return None  # evaluated ahead of its guards it could fail: keep it in place
            name = self.tmp("T")
            tables[key] = (name, f"{name} = {table}")
        name = tables[key][0]
        if lo >= 0:
            return f"{name}[{env[var].code}]"
        return f"{name}[{env[var].code} - {lo}]"

    def inline_def(self, d: A.DefDecl, args: list[str], env: dict[str, Local], rule: str,
                   span: A.Span, arg_exprs: tuple[A.Expr, ...] = (),
                   guard_levels: list[int] | None = None) -> str:
        inner: dict[str, Local] = {}
        binds: list[tuple[str, str]] = []
        h = self.hoist
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
                            var = self.tmp("h")
                            h.by_code[key] = var
                            h.level_of[var] = level
                            h.hoisted.setdefault(level, []).append((var, a))
                        inner[p.name] = Local(h.by_code[key], self.origin(ae, env, rule))
                        continue
            origin = self.origin(ae, env, rule) if ae is not None else None
            lo = hi = None
            if isinstance(ae, A.Name) and ae.name in env:
                lo, hi = env[ae.name].lo, env[ae.name].hi
            elif isinstance(ae, A.Int):
                lo = hi = ae.value
            if _SIMPLE.match(a):
                inner[p.name] = Local(a, origin, lo, hi)
            else:
                var = self.tmp("a")
                binds.append((var, a))
                inner[p.name] = Local(var, origin, lo, hi)
        self.inline_depth += 1
        if not self.optimize or self.inline_depth > 12 or self.inline_budget <= 0:
            self.inline_depth -= 1
            self.def_funcs.add(d.name)
            return f"d_{d.name}(s{''.join(', ' + a for a in args)})"
        body = self.expr(d.body, inner, f"def {d.name}")
        self.inline_depth -= 1
        self.inline_budget -= len(body)  # a def used many times in many defs: call it
        for var, a in reversed(binds):
            body = f"({body} if (({var} := {a}) or True) else None)"
        return body

    def call(self, e: A.Call, env: dict[str, Local], rule: str) -> str:
        f = e.func
        g = self.g
        if f in g.defs:
            table = self.table_call(e, env, rule)
            if table is not None:
                return table
            args = []
            guard_levels = []
            for a in e.args:
                if self.hoist is not None:
                    saved_used, self.hoist.guard_used = self.hoist.guard_used, -1
                args.append(self.as_tuple(a, env, rule))
                if self.hoist is not None:
                    guard_levels.append(self.hoist.guard_used)
                    self.hoist.guard_used = max(saved_used, self.hoist.guard_used)
            return self.inline_def(g.defs[f], args, env, rule, e.span, e.args, guard_levels)
        ts = [self.t(a) for a in e.args]
        args = [self.as_tuple(a, env, rule) for a in e.args]
        sid = self.span_id(e.span, rule)
        if f in ("size", "count"):
            if ts[0] == "zone":
                return f"len(s[{args[0]}])"
            if ts[0] == "list:zone":
                return self.zones_size(e.args[0], args[0])
            return f"len({args[0]})"
        if f == "cards":
            return f"s[{args[0]}]"
        if f in ("min", "max"):
            if len(args) == 1:
                return f"_{f}({args[0]}, {sid})"
            return f"{f}({', '.join(args)})"
        if f == "abs":
            return f"abs({args[0]})"
        if f == "sum":
            return f"sum({args[0]})"
        if f in ("first", "last"):
            src = f"s[{args[0]}]" if ts[0] == "zone" else args[0]
            return f"({src} or _E({sid}))[{0 if f == 'first' else -1}]"
        if f == "random":
            src = f"s[{args[0]}]" if ts[0] == "zone" else args[0]
            return f"_pick(s, {src}, {sid})"
        if f in ("rest", "reverse", "sorted"):
            src = f"s[{args[0]}]" if ts[0] == "zone" else args[0]
            return {"rest": f"{src}[1:]", "reverse": f"{src}[::-1]",
                    "sorted": f"tuple(sorted({src}))"}[f]
        if f == "distance":
            return f"_dist({args[0]}, {args[1]}, {args[2]})"
        raise Diagnostic(f"internal: unknown function {f}", e.span)  # pragma: no cover

    def zones_size(self, e: A.Expr, code: str) -> str:
        if isinstance(e, A.Name) and e.name in self.g.zones:
            base = self.zone_base[e.name]
            dim = self.g.zones[e.name].dim
            assert dim is not None
            return "(" + " + ".join(f"len(s[{base + i}])" for i in range(dim[1])) + ")"
        return f"sum(len(s[_z]) for _z in {code})"

    def unary(self, e: A.Unary, env: dict[str, Local], rule: str) -> str:
        op = e.op
        ot = self.t(e.operand)
        if op == "-":
            return f"(-{self.expr(e.operand, env, rule)})"
        if op == "not":
            return f"(not {self.expr(e.operand, env, rule)})"
        if op in ("top", "bottom"):
            x = self.expr(e.operand, env, rule)
            src = x if ot.startswith("list:") else f"s[{x}]"
            h = self.hoist
            if h is not None and src in h.guards:
                h.guard_used = max(h.guard_used, h.guards[src])
                return f"{src}[{-1 if op == 'top' else 0}]"
            sid = self.span_id(e.span, rule)
            return f"({src} or _E({sid}))[{-1 if op == 'top' else 0}]"
        if op == "all":
            x = self.expr(e.operand, env, rule)
            return f"_cat(s, {x})" if ot == "list:zone" else f"s[{x}]"
        p = self.expr(e.operand, env, rule)
        if isinstance(e.operand, A.Name) and e.operand.name in self.g.vars:
            # a player variable may be none: say where, not a Python TypeError
            p = f"_player({p}, {self.span_id(e.operand.span, rule)})"
        if op == "left":
            return f"({p} % {self.n} + 1)"
        if op == "right":
            return f"(({p} - 2) % {self.n} + 1)"
        if op == "players_from":
            sid = self.span_id(e.operand.span, rule)
            return f"ORDER[_player({p}, {sid})]"
        raise Diagnostic(f"internal: unknown operator {op}", e.span)  # pragma: no cover

    def binary(self, e: A.Binary, env: dict[str, Local], rule: str) -> str:
        op = e.op
        if op == "..":
            a = self.expr(e.left, env, rule)
            b = self.expr(e.right, env, rule)
            if (a.lstrip("-").isdigit() and b.lstrip("-").isdigit()
                    and int(b) - int(a) < MAX_RANGE):
                return f"range({a}, {int(b) + 1})"
            sid = self.span_id(e.span, rule)
            return f"_rng({a}, {b}, {sid})"
        if op in ("and", "or") or (op in ("+", "-", "*") and self.t(e) == "int"):
            return self.chain(e, env, rule)
        if op in ("in", "notin"):
            a = self.expr(e.left, env, rule)
            b = self.expr(e.right, env, rule)
            if self.t(e.right) == "zone":
                b = f"s[{b}]"
            return f"({a} {'in' if op == 'in' else 'not in'} {b})"
        if op == "+" and self.t(e).startswith("list:"):
            return f"({self.as_tuple(e.left, env, rule)} + {self.as_tuple(e.right, env, rule)})"
        a = self.expr(e.left, env, rule)
        b = self.expr(e.right, env, rule)
        if op in ("/", "%"):
            if b.isdigit() and int(b) != 0:
                return f"({a} {'//' if op == '/' else '%'} {b})"
            sid = self.span_id(e.span, rule)
            return f"_{'div' if op == '/' else 'mod'}({a}, {b}, {sid})"
        return f"({a} {op} {b})"

    def chain(self, e: A.Binary, env: dict[str, Local], rule: str) -> str:
        """A left-deep chain `a + b - c` (or of `and`, `or`, `*`) as one flat Python
        expression, walked without recursion: long sums stay within Python's limits."""
        group = {"+": ("+", "-"), "-": ("+", "-"), "*": ("*",), "and": ("and",),
                 "or": ("or",)}[e.op]
        rights: list[tuple[str, A.Expr]] = []
        node: A.Expr = e
        while isinstance(node, A.Binary) and node.op in group and (
                node.op in ("and", "or") or self.t(node) == "int"):
            rights.append((node.op, node.right))
            node = node.left
        parts = [self.expr(node, env, rule)]
        for op, right in reversed(rights):
            parts.append(op)
            parts.append(self.expr(right, env, rule))
        return "(" + " ".join(parts) + ")"

    def quant(self, e: A.Quant, env: dict[str, Local], rule: str) -> str:
        code = self._quant(e, env, rule)
        if self._pending_source is not None:
            var, src = self._pending_source
            self._pending_source = None
            # an assignment expression may not stand in a comprehension's iterable
            return f"({code} if (({var} := {src}) or True) else None)"
        return code

    _pending_source: tuple[str, str] | None = None

    def _quant(self, e: A.Quant, env: dict[str, Local], rule: str) -> str:
        st = self.t(e.source)
        src = self.expr(e.source, env, rule)
        if st == "zone":
            src = f"s[{src}]"
        if ":=" in src:
            bound = self.tmp("s")
            self._pending_source = (bound, src)
            src = bound
        var = self.tmp("q")
        inner = dict(env)
        origin = self.expr(e.source, env, rule) if st == "zone" else None
        lo = hi = None
        if isinstance(e.source, A.Binary) and e.source.op == "..":
            if isinstance(e.source.left, A.Int) and isinstance(e.source.right, A.Int):
                lo, hi = e.source.left.value, e.source.right.value
        inner[e.var] = Local(var, origin, lo, hi)
        where = self.expr(e.where, inner, rule) if e.where is not None else None
        body = self.as_tuple(e.body, inner, rule) if e.body is not None else None
        cond = f" if {where}" if where else ""
        k = e.kind
        sid = self.span_id(e.span, rule)
        if k == "any":
            return f"any({body or 'True'} for {var} in {src}{cond})"
        if k == "all":
            if body is None:
                return f"all({where} for {var} in {src})"
            return f"all({body} for {var} in {src}{cond})"
        if k == "count":
            if body is not None and where is not None:
                return f"sum(1 for {var} in {src} if {where} and {body})"
            c = body or where
            return f"sum(1 for {var} in {src} if {c})" if c else f"len({src})"
        if k == "sum":
            return f"sum({body or var} for {var} in {src}{cond})"
        if k in ("min", "max"):
            return f"_{k}([{body or var} for {var} in {src}{cond}], {sid})"
        if k == "first":
            return f"next(({var} for {var} in {src}{cond}), None)"
        if k == "each":
            return f"tuple([{body or var} for {var} in {src}{cond}])"
        if k == "random":
            return f"_pick(s, tuple([{var} for {var} in {src}{cond}]), {sid})"
        raise Diagnostic(f"internal: unknown quantifier {k}", e.span)  # pragma: no cover

    def origin(self, e: A.Expr | None, env: dict[str, Local], rule: str) -> str | None:
        """The zone (slot code) a card expression certainly comes from, if known."""
        if e is None:
            return None
        if isinstance(e, A.Name) and e.name in env:
            return env[e.name].origin
        if isinstance(e, A.Quant) and e.kind in ("first", "random") and self.t(e.source) == "zone":
            return self.expr(e.source, env, rule)
        return None

    # ------------------------------------------------------------ statements
    def block(self, stmts: tuple[A.Stmt, ...], env: dict[str, Local], rule: str,
              ind: str) -> list[str]:
        env = dict(env)
        lines: list[str] = []
        for st in stmts:
            lines += self.stmt(st, env, rule, ind)
        return lines or [ind + "pass"]

    def stmt(self, st: A.Stmt, env: dict[str, Local], rule: str, ind: str) -> list[str]:
        if isinstance(st, A.Assign):
            value = self.as_tuple(st.value, env, rule)
            target = self.lvalue(st.target, env, rule)
            if " * " in value and self.t(st.target) == "int":
                # numbers that multiply can grow without bound: keep them to 64 bits
                sid = self.span_id(st.span, rule)
                if st.op == "=":
                    return [f"{ind}{target} = _big({value}, {sid})"]
                return [f"{ind}{target} = _big({target} {st.op[0]} {value}, {sid})"]
            if st.op == "=":
                return [f"{ind}{target} = {value}"]
            if self.t(st.target).startswith("list:"):
                return [f"{ind}{target} = {target} + tuple({value})"]
            return [f"{ind}{target} {st.op} {value}"]
        if isinstance(st, A.CallStmt):
            args = [self.as_tuple(a, env, rule) for a in st.args]
            return [f"{ind}p_{st.func}(s{''.join(', ' + a for a in args)})"]
        if isinstance(st, A.LetStmt):
            var = self.tmp("v")
            code = self.as_tuple(st.value, env, rule)
            env[st.name] = Local(var, self.origin(st.value, env, rule))
            return [f"{ind}{var} = {code}"]
        if isinstance(st, A.If):
            lines = []
            for i, (cond, body) in enumerate(st.branches):
                kw = "if" if i == 0 else "elif"
                lines.append(f"{ind}{kw} {self.expr(cond, env, rule)}:")
                lines += self.block(body, env, rule, ind + "    ")
            if st.else_:
                lines.append(f"{ind}else:")
                lines += self.block(st.else_, env, rule, ind + "    ")
            return lines
        if isinstance(st, A.For):
            var = self.tmp("f")
            st_t = self.t(st.source)
            src = self.expr(st.source, env, rule)
            origin = None
            if st_t == "zone":
                origin = src
                src = f"s[{src}]"
            inner = dict(env)
            lo = hi = None
            if isinstance(st.source, A.Binary) and st.source.op == "..":
                if isinstance(st.source.left, A.Int) and isinstance(st.source.right, A.Int):
                    lo, hi = st.source.left.value, st.source.right.value
            inner[st.var] = Local(var, origin, lo, hi)
            return [f"{ind}for {var} in {src}:"] + self.block(st.body, inner, rule, ind + "    ")
        if isinstance(st, A.While):
            cnt = self.tmp("w")
            sid = self.span_id(st.span, rule)
            return ([f"{ind}{cnt} = 0", f"{ind}while {self.expr(st.cond, env, rule)}:",
                     f"{ind}    {cnt} += 1",
                     f"{ind}    if {cnt} > {LOOP_LIMIT}: _loop({sid})"]
                    + self.block(st.body, env, rule, ind + "    "))
        if isinstance(st, A.Repeat):
            assert st.count is not None
            sid = self.span_id(st.count.span, rule)
            return ([f"{ind}for _ in _rep({self.expr(st.count, env, rule)}, {sid}):"]
                    + self.block(st.body, env, rule, ind + "    "))
        if isinstance(st, A.Phase):
            return self.block(st.body, env, rule, ind)
        if isinstance(st, A.MoveCards):
            return self.move_cards(st, env, rule, ind)
        if isinstance(st, A.Shuffle):
            z = self.expr(st.zone, env, rule)
            return [f"{ind}s[{z}] = _shuffle(s, s[{z}])"]
        if isinstance(st, A.Deal):
            src = self.expr(st.source, env, rule)
            dests = self.expr(st.dests, env, rule)
            if self.t(st.dests) == "zone":
                dests = f"({dests},)"
            n = "None" if st.count is None else self.expr(st.count, env, rule)
            sid = self.span_id(st.span, rule)
            return [f"{ind}_deal(s, {src}, {dests}, {n}, {sid})"]
        if isinstance(st, A.End):
            return [f"{ind}s[4] = {self.end_text(st, env, rule)}", f"{ind}raise _GameOver"]
        if isinstance(st, A.Break):
            return [f"{ind}break"]
        if isinstance(st, A.Log):
            return [f"{ind}if LOG is not None: LOG.append({self.log_text(st, env, rule)})"]
        if isinstance(st, A.Choose):  # pragma: no cover - the checker keeps these in the flow
            raise Diagnostic("a choice cannot be made here", st.span)
        raise Diagnostic(f"internal: cannot compile {type(st).__name__}", st.span)  # pragma: no cover

    def end_text(self, st: A.End, env: dict[str, Local], rule: str) -> str:
        if not st.reason:
            return "'ended'"
        return self.log_text(A.Log(st.reason, st.parts), env, rule)

    def log_text(self, st: A.Log, env: dict[str, Local], rule: str) -> str:
        parts = []
        for p in st.parts:
            if isinstance(p, str):
                parts.append(repr(p))
            else:
                parts.append(f"_fmt({self.as_tuple(p, env, rule)}, {self.t(p)!r})")
        return " + ".join(parts) if parts else "''"

    def lvalue(self, e: A.Expr, env: dict[str, Local], rule: str) -> str:
        if isinstance(e, A.Name):
            if e.name in env:
                return env[e.name].code
            return f"s[{self.var_base[e.name]}]"
        assert isinstance(e, A.Index)
        return self.index(e, env, rule)

    def move_cards(self, st: A.MoveCards, env: dict[str, Local], rule: str,
                   ind: str) -> list[str]:
        ct = self.t(st.cards)
        dest = self.expr(st.dest, env, rule)
        d = self.tmp("d")
        lines = [f"{ind}{d} = {dest}"]
        put = (f"{ind}s[{d}] = ({{c}},) + s[{d}]" if st.bottom else f"{ind}s[{d}] = s[{d}] + ({{c}},)")
        putmany = (f"{ind}s[{d}] = {{cs}} + s[{d}]" if st.bottom else f"{ind}s[{d}] = s[{d}] + {{cs}}")
        c = st.cards
        sid = self.span_id(st.span, rule)
        if isinstance(c, A.Unary) and c.op in ("top", "bottom") and self.t(c.operand) == "zone":
            z = self.tmp("z")
            t = self.tmp("t")
            lines += [f"{ind}{z} = {self.expr(c.operand, env, rule)}",
                      f"{ind}{t} = s[{z}]",
                      f"{ind}if not {t}: _E({sid})"]
            if c.op == "top":
                lines += [f"{ind}s[{z}] = {t}[:-1]", put.format(c=f"{t}[-1]")]
            else:
                lines += [f"{ind}s[{z}] = {t}[1:]", put.format(c=f"{t}[0]")]
            return lines
        if ct == "zone" or (isinstance(c, A.Unary) and c.op == "all" and self.t(c.operand) == "zone"):
            src_e = c.operand if isinstance(c, A.Unary) else c
            z = self.tmp("z")
            lines += [f"{ind}{z} = {self.expr(src_e, env, rule)}",
                      f"{ind}if {z} != {d}:",
                      putmany.format(cs=f"s[{z}]").replace(ind, ind + "    ", 1),
                      f"{ind}    s[{z}] = ()"]
            return lines
        if isinstance(c, A.TopN):
            z = self.tmp("z")
            n = self.tmp("n")
            t = self.tmp("t")
            lines += [f"{ind}{z} = {self.expr(c.zone, env, rule)}",
                      f"{ind}{n} = {self.expr(c.count, env, rule)}",
                      f"{ind}{t} = _topn(s[{z}], {n}, {sid})",
                      f"{ind}s[{z}] = s[{z}][:len(s[{z}]) - len({t})]",
                      putmany.format(cs=t)]
            return lines
        if ct == "card":
            origin = self.origin(c, env, rule)
            card = self.tmp("c")
            lines.append(f"{ind}{card} = {self.expr(c, env, rule)}")
            if origin is not None:
                lines.append(f"{ind}_take(s, {origin}, {card}, {sid})")
            else:
                lines.append(f"{ind}_take_any(s, {card}, {sid})")
            lines.append(put.format(c=card))
            return lines
        # a list of cards: each leaves wherever it is, and they arrive in list order
        cs = self.tmp("cs")
        lines.append(f"{ind}{cs} = tuple({self.expr(c, env, rule)})")
        origin = None
        if isinstance(c, A.Quant) and self.t(c.source) == "zone":
            origin = self.expr(c.source, env, rule)
        if origin is not None:
            lines.append(f"{ind}_take_many(s, {origin}, {cs}, {sid})")
        else:
            lines.append(f"{ind}for _c in {cs}: _take_any(s, _c, {sid})")
        lines.append(putmany.format(cs=cs))
        return lines

    # ------------------------------------------------------------ moves
    def gen_moves(self) -> None:
        g = self.g
        self.move_param_types: list[list[str]] = []
        self.gen_blocks: dict[int, list[str]] = {}
        for name, md in g.moves.items():
            mid = self.move_ids[name]
            rule = f"move {name}"
            env: dict[str, Local] = {"me": Local("me")}
            params = []
            ptypes = []
            for p in md.params:
                var = f"u_{p.name}"
                st = self.t(p.source)
                origin = self.expr(p.source, env, rule) if st == "zone" else None
                lo, hi = self.const_range(p.source)
                env[p.name] = Local(var, origin, lo, hi)
                params.append(var)
                ptypes.append("card" if st == "zone" else elem(st))
            self.move_param_types.append(ptypes)
            # the effect
            body = self.block(md.body, env, rule, "    ")
            self.out.append(f"def eff_{mid}(s, m):")
            if not self.optimize or any(re.search(r"\bme\b", ln) for ln in body):
                self.out.append("    me = m[0]")
            for i, prm in enumerate(params):
                self.out.append(f"    {prm} = m[{i + 2}]")
            self.out += body
            self.out.append("")
            # the generator of legal moves, inlined into each decision's legal_N
            self.gen_blocks[mid] = self.gen_loops(md, mid, rule)

    def may_raise(self, e: A.Expr, seen: frozenset[str] = frozenset()) -> bool:
        """Could evaluating e fail (an empty zone, a bad index, division by zero...)?"""
        if isinstance(e, (A.TopN, A.Index)):
            return True
        if isinstance(e, A.Unary) and e.op in ("top", "bottom", "players_from"):
            return True
        if isinstance(e, A.Binary) and e.op in ("/", "%"):
            return True
        if isinstance(e, A.Quant) and e.kind in ("min", "max", "random"):
            return True
        if isinstance(e, A.Call):
            if e.func in self.g.defs and e.func not in seen:
                if self.may_raise(self.g.defs[e.func].body, seen | {e.func}):
                    return True
            elif e.func not in ("size", "count", "cards", "abs", "sum", "rest", "reverse",
                                "sorted"):
                return True
        if isinstance(e, A.Name) and e.name in self.g.defs and e.name not in seen:
            return self.may_raise(self.g.defs[e.name].body, seen | {e.name})
        if isinstance(e, A.Attr) and self.card_may_be_none(e.obj):
            return True
        for f in attrs.fields(type(e)):
            v = getattr(e, f.name)
            if isinstance(v, A.Expr) and self.may_raise(v, seen):
                return True
            if isinstance(v, tuple) and any(isinstance(x, A.Expr) and self.may_raise(x, seen)
                                            for x in v):
                return True
        return False

    def const_range(self, e: A.Expr) -> tuple[int | None, int | None]:
        if isinstance(e, A.Binary) and e.op == "..":
            a = self.const_of(e.left)
            b = self.const_of(e.right)
            return a, b
        return None, None

    def const_of(self, e: A.Expr) -> int | None:
        return self.g.const_int(e)  # one constant folder: the checker's

    def gen_loops(self, md: A.MoveDecl, mid: int, rule: str) -> list[str]:
        """The legal-move generator of one move, as a block of lines (indented from 0)
        that appends `(me, mid, args...)` to `out` for every legal combination."""
        conj = _conjuncts(md.when) if md.when is not None else []
        pnames = [p.name for p in md.params]
        # each conjunct is tested at the first loop level where all its parameters are bound
        levels: list[list[A.Expr]] = [[] for _ in range(len(pnames) + 1)]
        floor = 0  # `and` evaluates left to right: what may fail stays behind its guards
        for c in conj:
            used = _names_in(c) & set(pnames)
            lvl = max((pnames.index(n) + 1 for n in used), default=0)
            if self.may_raise(c):
                lvl = max(lvl, floor)
            floor = max(floor, lvl)
            levels[lvl].append(c)
        env: dict[str, Local] = {"me": Local("me")}
        h = _Hoist({n: i + 1 for i, n in enumerate(pnames)})
        self.hoist = h if self.optimize else None
        # tables for defs of a constant-range parameter, filled before the loops
        self.tables = {} if self.optimize else None
        self.range_params = {p.name for p in md.params if None not in self.const_range(p.source)}
        conds: list[list[str]] = []
        fors: list[str] = []
        for lvl in range(len(pnames) + 1):
            if lvl > 0:
                p = md.params[lvl - 1]
                var = f"u_{p.name}"
                st = self.t(p.source)
                h.cur = lvl - 1
                src = self.expr(p.source, env, rule)
                origin = None
                if st == "zone":
                    origin = src
                    src = f"s[{src}]"
                lo, hi = self.const_range(p.source)
                env[p.name] = Local(var, origin, lo, hi)
                fors.append(f"for {var} in {src}:")
            h.cur = lvl
            level_conds = []
            for c in levels[lvl]:
                level_conds.append(self.expr(c, env, rule))
                if isinstance(c, A.IsEmpty) and c.negated and self.t(c.operand) == "zone":
                    h.guards[f"s[{self.expr(c.operand, env, rule)}]"] = lvl
            conds.append(level_conds)
        tables = [code for _, code in (self.tables or {}).values()]
        self.tables = None
        self.range_params = set()
        self.hoist = None
        args = "".join(f", u_{p}" for p in pnames)
        # Parameters over a few constants are unrolled (the parameter becomes a literal and
        # Python folds `s[8 + 1]`), while the copies stay few.
        unroll: set[int] = set()
        copies = 1
        for lvl, p in enumerate(md.params, 1):
            lo, hi = self.const_range(p.source)
            if self.optimize and lo is not None and hi is not None and 0 < hi - lo + 1 <= 8 and (
                    copies * (hi - lo + 1) <= 64):
                unroll.add(lvl)
                copies *= hi - lo + 1

        def loops(lvl: int, ind: str) -> list[str]:
            if lvl > len(pnames):
                return [f"{ind}out.append((me, {mid}{args}))"]
            p = md.params[lvl - 1]
            if lvl in unroll:
                lo, hi = self.const_range(p.source)
                assert lo is not None and hi is not None
                body = _level_lines(conds[lvl], h.hoisted.get(lvl, []), ind,
                                    lambda i: loops(lvl + 1, i))
                name = re.compile(rf"\bu_{p.name}\b")
                return [name.sub(str(v), ln) for v in range(lo, hi + 1) for ln in body]
            body = _level_lines(conds[lvl], h.hoisted.get(lvl, []), ind + "    ",
                                lambda i: loops(lvl + 1, i))
            return [ind + fors[lvl - 1]] + body

        lines: list[str] = []
        ind = ""
        if conds[0]:
            lines.append(f"if {' and '.join(conds[0])}:")
            ind = "    "
        lines += [ind + t for t in tables]
        lines += [f"{ind}{v} = {c}" for v, c in h.hoisted.get(0, [])]
        lines += loops(1, ind)
        return lines

    # ------------------------------------------------------------ flow
    def gen_flow(self) -> None:
        g = self.g
        self.nodes: list[list[str]] = []
        self.node_phase: dict[int, str] = {}
        self.node_span: dict[int, A.Span] = {}
        self.decisions: dict[int, Decision] = {}
        self.phase = ""
        flow = g.flow
        if flow is None:
            who = A.Int(1)
            self.T[id(who)] = "player"
            flow = (A.Repeat(None, (A.Choose(who, tuple(g.moves)),)),)
        self.entry = self.new_node(A.NOSPAN)
        self.end_node = -2
        env: dict[str, Local] = {}
        last = self.emit(flow, self.entry, env, [], "flow")
        # falling off the end of the flow ends the game
        self.nodes[last].append("    s[4] = 'ended'")
        self.nodes[last].append("    return -1")
        self.thread_jumps()
        for i, body in enumerate(self.nodes):
            self.out.append(f"def n_{i}(s):")
            self.out += body if body else ["    return -1"]
            self.out.append("")
        self.out.append("NODES = (" + "".join(f"n_{i}, " for i in range(len(self.nodes))) + ")")
        self.end_node = len(self.nodes)

    def thread_jumps(self) -> None:
        """Bypass nodes that only jump on, so a step runs as few node functions as possible."""
        alias: dict[int, int] = {}
        for i, body in enumerate(self.nodes):
            m = _JUMP.match(body[0]) if len(body) == 1 and self.optimize else None
            if m and i not in self.decisions:
                alias[i] = int(m.group(1))

        def final(k: int) -> int:
            seen = set()
            while k in alias and k not in seen:
                seen.add(k)
                k = alias[k]
            return k

        for body in self.nodes:
            for j, line in enumerate(body):
                body[j] = _RETURN.sub(lambda m: f"return {final(int(m.group(1)))}", line)
        for d in self.decisions.values():
            d.succ = final(d.succ)
        self.entry = final(self.entry)
        self.edges = {i: sorted({int(x) for ln in body for x in _RETURN.findall(ln)})
                      for i, body in enumerate(self.nodes) if i not in alias}

    def new_node(self, span: A.Span) -> int:
        self.nodes.append([])
        n = len(self.nodes) - 1
        self.node_phase[n] = self.phase
        self.node_span[n] = span
        return n

    def close(self, node: int, target: int) -> None:
        self.nodes[node].append(f"    return {target}")

    def blocks(self, st: A.Stmt) -> bool:
        """Must this flow statement be lowered to nodes? Yes when it contains a decision,
        loops for ever, or breaks out of an enclosing flow loop."""
        for s in walk_stmts((st,)):
            if isinstance(s, A.Choose):
                return True
            if isinstance(s, A.CallStmt) and s.func in self.g.blocking_procs:
                return True
            if isinstance(s, A.Repeat) and s.count is None:
                return True
        return _escaping_break(st)

    def emit(self, stmts: tuple[A.Stmt, ...], node: int, env: dict[str, Local],
             loops: list[_Loop], rule: str) -> int:
        """Append stmts to `node`; return the node where control continues."""
        for st in stmts:
            node = self.emit_one(st, node, env, loops, rule)
        return node

    def emit_one(self, st: A.Stmt, node: int, env: dict[str, Local], loops: list[_Loop],
                 rule: str) -> int:
        g = self.g
        if isinstance(st, A.LetStmt):
            slot = self.new_slot()
            code = self.as_tuple(st.value, env, rule)
            self.nodes[node].append(f"    s[{slot}] = {code}")
            env[st.name] = Local(f"s[{slot}]", None)
            return node
        if isinstance(st, A.End):
            self.nodes[node] += [f"    s[4] = {self.end_text(st, env, rule)}", "    return -1"]
            return self.new_node(st.span)
        if isinstance(st, A.Break) and loops and loops[-1].exit_node is not None:
            self.close(node, loops[-1].exit_node)
            return self.new_node(st.span)
        if not self.blocks(st):
            # a loop without a decision runs as a plain Python loop inside this node
            lines = self.stmt(st, dict(env) if isinstance(st, (A.For, A.While, A.Repeat))
                              else env, rule, "    ")
            self.nodes[node] += ["    try:"] + ["    " + ln for ln in lines] + [
                "    except _GameOver:", "        return -1"] if any(
                    "_GameOver" in ln for ln in lines) or isinstance(st, A.CallStmt) else lines
            return node
        if isinstance(st, A.Choose):
            d = self.new_node(st.span)
            self.close(node, d)
            who = self.expr(st.who, env, rule)
            if st.simultaneous:
                sid = self.span_id(st.who.span, rule)
                self.nodes[d] += [f"    s[5] = _players({who}, {sid})",
                                  "    if not s[5]:", "        return {SKIP}",
                                  "    s[3] = ()", "    return -1"]
            else:
                if who.isdigit() and 1 <= int(who) <= self.n:
                    self.nodes[d] += [f"    s[5] = {who}", "    return -1"]
                else:
                    sid = self.span_id(st.who.span, rule)
                    self.nodes[d] += [f"    s[5] = _player({who}, {sid})", "    return -1"]
            cont = self.new_node(st.span)
            self.nodes[d] = [ln.replace("{SKIP}", str(cont)) for ln in self.nodes[d]]
            alts = tuple(self.move_ids[m] for m in st.moves)
            self.decisions[d] = Decision(d, alts, st.optional, st.simultaneous, cont, st.span)
            return cont
        if isinstance(st, A.Phase):
            saved = self.phase
            self.phase = st.name
            start = self.new_node(st.span)
            self.close(node, start)
            end = self.emit(st.body, start, dict(env), loops, rule)
            self.phase = saved
            after = self.new_node(st.span)
            self.close(end, after)
            return after
        if isinstance(st, A.If):
            join = self.new_node(st.span)
            heads = []
            for cond, branch in st.branches:
                h = self.new_node(st.span)
                heads.append((self.expr(cond, env, rule), h))
                end = self.emit(branch, h, dict(env), loops, rule)
                self.close(end, join)
            else_target = join
            if st.else_:
                eh = self.new_node(st.span)
                end = self.emit(st.else_, eh, dict(env), loops, rule)
                self.close(end, join)
                else_target = eh
            for cond_code, head_n in heads:
                self.nodes[node].append(f"    if {cond_code}: return {head_n}")
            self.close(node, else_target)
            return join
        if isinstance(st, A.While):
            head = self.new_node(st.span)
            body_n = self.new_node(st.span)
            exit_ = self.new_node(st.span)
            self.close(node, head)
            self.nodes[head].append(f"    if not {self.expr(st.cond, env, rule)}: return {exit_}")
            self.close(head, body_n)
            loops.append(_Loop(exit_))
            end = self.emit(st.body, body_n, dict(env), loops, rule)
            loops.pop()
            self.close(end, head)
            return exit_
        if isinstance(st, A.Repeat):
            head = self.new_node(st.span)
            body_n = self.new_node(st.span)
            exit_ = self.new_node(st.span)
            if st.count is not None:
                ctr = self.new_slot()
                self.nodes[node].append(f"    s[{ctr}] = {self.expr(st.count, env, rule)}")
                self.close(node, head)
                self.nodes[head] += [f"    if s[{ctr}] <= 0: return {exit_}",
                                     f"    s[{ctr}] -= 1"]
            else:
                self.close(node, head)
            self.close(head, body_n)
            loops.append(_Loop(exit_))
            end = self.emit(st.body, body_n, dict(env), loops, rule)
            loops.pop()
            self.close(end, head)
            return exit_
        if isinstance(st, A.For):
            lst = self.new_slot()
            pos = self.new_slot()
            var = self.new_slot()
            st_t = self.t(st.source)
            src = self.expr(st.source, env, rule)
            if st_t == "zone":
                src = f"s[{src}]"
            self.nodes[node] += [f"    s[{lst}] = tuple({src})", f"    s[{pos}] = 0"]
            head = self.new_node(st.span)
            body_n = self.new_node(st.span)
            exit_ = self.new_node(st.span)
            self.close(node, head)
            self.nodes[head] += [f"    if s[{pos}] >= len(s[{lst}]): return {exit_}",
                                 f"    s[{var}] = s[{lst}][s[{pos}]]", f"    s[{pos}] += 1"]
            self.close(head, body_n)
            loop_env = dict(env)
            lo, hi = self.const_range(st.source)
            loop_env[st.var] = Local(f"s[{var}]", None, lo, hi)
            loops.append(_Loop(exit_))
            end = self.emit(st.body, body_n, loop_env, loops, rule)
            loops.pop()
            self.close(end, head)
            return exit_
        if isinstance(st, A.CallStmt) and st.func in g.blocking_procs:
            p = g.procs[st.func]
            inner: dict[str, Local] = {}
            for prm, a in zip(p.params, st.args, strict=False):
                slot = self.new_slot()
                self.nodes[node].append(f"    s[{slot}] = {self.as_tuple(a, env, rule)}")
                inner[prm.name] = Local(f"s[{slot}]", None)
            return self.emit(p.body, node, inner, loops, f"proc {p.name}")
        raise Diagnostic("internal: cannot lower this statement", st.span)  # pragma: no cover

    def step_code(self) -> list[str]:
        """The hot path of a step, generated into every game so that it runs on fast
        globals: apply the move, run the flow to the next decision, then the limit and the
        end conditions, and return the new legal moves. Simultaneous choices (rare) go
        through the engine's general path."""
        g = self.g
        lines = []
        # a decision whose decider is a constant is entered without calling its node
        const_who = {}
        for d in self.decisions if self.optimize else ():
            body = self.nodes[d]
            if len(body) == 2 and body[1] == "    return -1" and re.fullmatch(
                    r"    s\[5\] = \d+", body[0]):
                const_who[d] = int(body[0].split("=")[1])
        lines.append(f"CONST_WHO = {const_who!r}")
        lines.append(f"LIMIT = {g.limit.count if g.limit else 0}")
        reasons = tuple(e.reason or e.name or "end condition" for e in g.ends)
        lines.append(f"END_REASONS = {reasons!r}")
        lines.append(f"LIMIT_REASON = {((g.limit.reason if g.limit else '') or 'move limit reached')!r}")
        lines.append("def settle(s):")
        lines.append("    if s[4] is not None: return []")
        if self.decisions and any(d.simultaneous for d in self.decisions.values()):
            # in the middle of a simultaneous round, only the others' choices remain
            lines.append("    if s[3]: return LEGAL[s[0]](s)")
        if g.limit:
            lines.append("    if s[2] >= LIMIT:")
            lines.append("        s[4] = LIMIT_REASON")
            lines.append("        return []")
        if len(self.decisions) == 1 and self.optimize:
            (d,) = self.decisions
            lines.append(f"    _legal = legal_{d}(s)")
        else:
            lines.append("    _legal = LEGAL[s[0]](s)")
        for i, e in enumerate(g.ends):  # inline, not a call to ends(): this runs every step
            lines.append(f"    if {self.expr(e.cond, {}, 'end')}:")
            lines.append(f"        s[4] = END_REASONS[{i}]")
            lines.append("        return []")
        lines.append("    return _legal")
        lines.append("")
        lines += [
            "def run(s, pc):",
            "    n = 0",
            "    while True:",
            "        try:",
            "            nxt = NODES[pc](s)",
            "        except _GameOver:  # `end` in a procedure the flow called",
            "            nxt = -1",
            "        if nxt < 0:",
            "            s[0] = pc",
            "            return",
            "        pc = nxt",
            "        n += 1",
            f"        if n > {LOOP_LIMIT}:",
            "            s[0] = pc",
            "            _flow_loop(pc)",
            "",
            "def step_settle(s, m):",
            "    pc = s[0]",
            "    s[2] += 1",
            "    try:",
            "        EFF[m[1]](s, m)",
            "    except _GameOver:",
            "        return []",
            "    pc = SUCC[pc]",
        ]
        if const_who:
            lines += ["    w = CONST_WHO.get(pc)",
                      "    if w is None:",
                      "        run(s, pc)",
                      "    else:",
                      "        s[0] = pc",
                      "        s[5] = w"]
        else:
            lines.append("    run(s, pc)")
        lines += ["    return settle(s)", ""]
        return lines

    # ------------------------------------------------------------ the whole module
    def generate(self) -> Generated:
        g = self.g
        out = self.out
        cards = g.cards
        out.append(f"RANK = {tuple(c.rank for c in cards)!r}")
        # a card without a suit (a joker) has suit and color none
        out.append(f"SUIT = {tuple(c.suit or None for c in cards)!r}")
        out.append("COLOR = "
                   f"{tuple((1 if c.suit in (2, 3) else 2) if c.suit else None for c in cards)!r}")
        out.append(f"JOKER = {tuple(c.joker for c in cards)!r}")
        for a in g.card_attrs:
            values: tuple[int | bool, ...] = tuple(c.extra.get(a, 0) for c in cards)
            if a in g.bool_attrs:
                values = tuple(bool(v) for v in values)
            out.append(f"X_{a} = {values!r}")
        out.append(f"PLAYERS = {tuple(range(1, self.n + 1))!r}")
        order = {p: tuple((p - 1 + k) % self.n + 1 for k in range(self.n))
                 for p in range(1, self.n + 1)}
        out.append(f"ORDER = {(None,) + tuple(order[p] for p in range(1, self.n + 1))!r}")
        for z in g.zones.values():
            if z.dim is not None:
                base = self.zone_base[z.name]
                out.append(f"Z_{z.name} = {tuple(range(base, base + z.dim[1]))!r}")
        out.append("")
        # defs as functions (used when inlining would go too deep)
        def_lines: list[str] = []
        # procs
        for pname, p in g.procs.items():
            if pname in g.blocking_procs:
                continue
            env = {prm.name: Local(f"u_{prm.name}") for prm in p.params}
            out.append(f"def p_{pname}(s{''.join(', u_' + prm.name for prm in p.params)}):")
            out.extend(self.block(p.body, env, f"proc {pname}", "    "))
            out.append("")
        self.gen_moves()
        # setup and initial values
        out.append("def setup(s):")
        for v in g.vars.values():
            code = self.as_tuple(v.init, {}, f"var {v.name}")
            base = self.var_base[v.name]
            if v.dim is None:
                out.append(f"    s[{base}] = {code}")
            else:
                out.append(f"    for _i in range({v.dim[1]}): s[{base} + _i] = {code}")
        out.extend(self.block(g.setup, {}, "setup", "    "))
        out.append("")
        self.gen_flow()
        # legal moves of each decision node
        for d in self.decisions.values():
            out.append(f"def legal_{d.node}(s):")
            out.append("    out = []")
            if d.simultaneous:
                out.append("    done = {m[0] for m in s[3]}")
                out.append("    for me in s[5]:")
                out.append("        if me in done: continue")
                ind = "        "
            else:
                out.append("    me = s[5]")
                ind = "    "
            for alt in d.alts:
                out.extend(ind + ln for ln in self.gen_blocks[alt])
            if d.optional:
                out.append(f"{ind}out.append((me, {self.pass_id}))")
            out.append("    return out")
            out.append("")
        out.append("LEGAL = {" + ", ".join(f"{d}: legal_{d}" for d in self.decisions) + "}")
        out.append("SUCC = {" + ", ".join(f"{d.node}: {d.succ}" for d in self.decisions.values())
                   + "}")
        out.append("SIMULTANEOUS = frozenset(("
                   + "".join(f"{d.node}, " for d in self.decisions.values() if d.simultaneous)
                   + "))")
        out.append("EFF = (" + "".join(f"eff_{i}, " for i in range(len(g.moves)))
                   + "_pass_effect, )")
        # end conditions
        out.append("def ends(s, _legal):")
        for i, e in enumerate(g.ends):
            out.append(f"    if {self.expr(e.cond, {}, 'end')}: return {i}")
        out.append("    return -1")
        out.append("")
        out.append("def score(s, me):")
        if g.score is not None:
            out.append(f"    return {self.expr(g.score, {'me': Local('me')}, 'score')}")
        else:
            out.append("    return 0")
        out.append("")
        out.append("def won(s, me):")
        if g.result is not None and g.result.cond is not None:
            out.append(f"    return bool({self.expr(g.result.cond, {'me': Local('me')}, 'result')})")
        else:
            out.append("    return False")
        out.append("")
        inv_names = []
        for inv in g.invariants:
            out.append(f"def inv_{inv.name}(s, _legal):")
            out.append(f"    return bool({self.expr(inv.cond, {}, f'invariant {inv.name}')})")
            out.append("")
            inv_names.append(inv.name)
        out.append("INVARIANTS = (" + "".join(f"({n!r}, inv_{n}), " for n in inv_names) + ")")
        out.extend(self.step_code())
        done: set[str] = set()
        while self.def_funcs - done:  # compiling one may call for another
            name = sorted(self.def_funcs - done)[0]
            done.add(name)
            dd = g.defs[name]
            env = {p.name: Local(f"u_{p.name}") for p in dd.params}
            self.inline_depth = 0
            def_lines.append(f"def d_{name}(s{''.join(', u_' + p.name for p in dd.params)}):")
            def_lines.append(f"    return {self.expr(dd.body, env, f'def {name}')}")
            def_lines.append("")
        out.extend(def_lines)
        card_text = [card_name(g, c.id) for c in cards]
        return Generated(
            source="\n".join(out) + "\n", nslots=self.nslots, zone_slots=self.zone_slots,
            zone_base=self.zone_base, var_base=self.var_base, move_names=list(g.moves),
            move_param_types=self.move_param_types, decisions=self.decisions,
            node_phase=self.node_phase, node_span=self.node_span, entry=self.entry,
            end_node=self.end_node, spans=self.spans, card_text=card_text, edges=self.edges,
        )


def card_name(g: Checked, cid: int) -> str:
    c = g.cards[cid]
    if c.joker:
        return "JK"
    names = g.rank_names
    rank = names[c.rank - 1] if names and 1 <= c.rank <= len(names) else str(c.rank)
    return rank + (SUIT_SYMBOLS[c.suit - 1] if c.suit else "")


def _level_lines(conds: list[str], hoisted: list[tuple[str, str]], ind: str,
                 inner: Any) -> list[str]:
    """One parameter's level: its conditions, what is computed there, then the next."""
    out: list[str] = []
    if conds:
        out.append(f"{ind}if {' and '.join(conds)}:")
        ind += "    "
    out += [f"{ind}{v} = {c}" for v, c in hoisted]
    lines: list[str] = inner(ind)
    return out + lines


def _escaping_break(st: A.Stmt) -> bool:
    """Does a `break` in st leave a loop outside st?"""
    if isinstance(st, A.Break):
        return True
    if isinstance(st, (A.For, A.While, A.Repeat)):
        return False
    if isinstance(st, A.If):
        return any(_escaping_break(x) for _, body in st.branches for x in body) or any(
            _escaping_break(x) for x in st.else_)
    if isinstance(st, A.Phase):
        return any(_escaping_break(x) for x in st.body)
    return False


def _conjuncts(e: A.Expr) -> list[A.Expr]:
    if isinstance(e, A.Binary) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _names_in(e: Any) -> set[str]:
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


def generate(g: Checked, optimize: bool = True) -> Generated:
    return Gen(g, optimize).generate()
