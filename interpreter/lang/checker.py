"""Stage 4: checks. Resolve every name, infer and check types and arity, evaluate options.

The result, `Checked`, is everything code generation needs: the deck as a list of
cards, the zones and variables with their index domains, the declarations by name,
and the type of every expression (keyed by node identity).

Types are strings: int bool card player suit color sym zone none any, and
`list:T` for lists (`list:card`, `list:zone`, ...).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs

from ..cards import COLORS, STANDARD_RANKS, SUIT_SYMBOLS, SUITS  # noqa: F401
from ..errors import Diagnostic, Diagnostics, did_you_mean
from . import ast as A
from .ast import walk_stmts
from .builtins import PURE_BUILTINS
from .loader import Loaded
from .program import Card, Checked, VarInfo, ZoneInfo
from .types import SCALAR_TYPES, compatible, elem, unify

MAX_DECK = 10_000
# Words of the grammar: a declared name may not be one of them.
KEYWORDS = {
    "game", "about", "extends", "players", "option", "default", "bool", "true", "false",
    "deck", "standard", "with", "ranks", "for", "in", "card", "times", "zone", "var", "def",
    "proc", "move", "when", "setup", "flow", "end", "score", "result", "won", "invariant",
    "limit", "remove", "chooses", "may", "choose", "simultaneously", "let", "if", "else",
    "while", "repeat", "phase", "to", "shuffle", "deal", "from", "all", "break", "log",
    "then", "where", "any", "count", "sum", "min", "max", "first", "each", "random", "or",
    "and", "not", "is", "empty", "top", "bottom", "of", "left", "right", "none", "me",
    "highest", "lowest",
}
ZONE_PROPS = {
    "face down": "hidden", "face up": "public", "owner": "owner", "owner only": "owner",
    "hidden": "hidden", "public": "public",
    "fanned": "fanned", "squared": "squared", "row": "row",
}


class _Scope:
    """Local names: params, lets, loop and quantifier variables."""

    def __init__(self, parent: _Scope | None = None) -> None:
        self.parent = parent
        self.names: dict[str, str] = {}

    def lookup(self, name: str) -> str | None:
        s: _Scope | None = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def all_names(self) -> Iterator[str]:
        s: _Scope | None = self
        while s is not None:
            yield from s.names
            s = s.parent


@attrs.define
class _Ctx:
    kind: str  # pure, setup, move, proc, flow
    me: bool = False
    loop: int = 0
    rule: str = ""


def check(loaded: Loaded, players: int | None = None,
          settings: dict[str, str] | None = None) -> Checked:
    return _Checker(loaded).run(players, settings or {})


class _Checker:
    def __init__(self, loaded: Loaded) -> None:
        self.loaded = loaded
        self.errors: list[Diagnostic] = []
        self.types: dict[int, str] = {}
        self.expecting = ""
        self.const_defs: dict[str, A.DefDecl] = {}
        self.const_stack: list[str] = []
        self.bool_attrs: set[str] = set()
        self.int_attrs: set[str] = set()

    # ----------------------------------------------------------- errors
    def err(self, msg: str, span: A.Span, hint: str = "") -> None:
        if any(e.span == span and e.message == msg for e in self.errors):
            return
        self.errors.append(Diagnostic(msg, span, hint, self.loaded.sources.get(span.file)))

    def fail(self) -> None:
        if self.errors:
            if len(self.errors) == 1:
                raise self.errors[0]
            raise Diagnostics(self.errors)

    # ----------------------------------------------------------- top level
    def run(self, players: int | None, settings: dict[str, str]) -> Checked:
        decls = self.loaded.decls
        name = ""
        about = ""
        pdecl = A.PlayersDecl(1, 1, 1)
        deck: A.DeckDecl | None = None
        opts: dict[str, A.OptionDecl] = {}
        zones_d: list[A.ZoneDecl] = []
        vars_d: list[A.VarDecl] = []
        defs: dict[str, A.DefDecl] = {}
        procs: dict[str, A.ProcDecl] = {}
        moves: dict[str, A.MoveDecl] = {}
        setup: tuple[A.Stmt, ...] = ()
        flow = None
        ends: list[A.EndDecl] = []
        score = None
        result = None
        invariants: list[A.InvariantDecl] = []
        limit = None
        for d in decls:
            if isinstance(d, A.GameDecl):
                name = d.name
            elif isinstance(d, A.About):
                about = d.text
            elif isinstance(d, A.PlayersDecl):
                pdecl = d
            elif isinstance(d, A.DeckDecl):
                deck = d
            elif isinstance(d, A.OptionDecl):
                opts[d.name] = d
            elif isinstance(d, A.ZoneDecl):
                zones_d.append(d)
            elif isinstance(d, A.VarDecl):
                vars_d.append(d)
            elif isinstance(d, A.DefDecl):
                defs[d.name] = d
            elif isinstance(d, A.ProcDecl):
                procs[d.name] = d
            elif isinstance(d, A.MoveDecl):
                moves[d.name] = d
            elif isinstance(d, A.SetupDecl):
                setup = d.body
            elif isinstance(d, A.FlowDecl):
                flow = d.body
            elif isinstance(d, A.EndDecl):
                ends.append(d)
            elif isinstance(d, A.ScoreDecl):
                score = d.expr
            elif isinstance(d, A.ResultDecl):
                result = d
            elif isinstance(d, A.InvariantDecl):
                invariants.append(d)
            elif isinstance(d, A.LimitDecl):
                limit = d
        if not name:
            self.err("the game has no name", A.Span(self.loaded.path, 1, 1, 1, 2),
                     'start the file with: game "Name"')
        # players and options -------------------------------------------------
        n = pdecl.default if players is None else players
        if not pdecl.low <= n <= pdecl.high:
            if pdecl.low == pdecl.high:
                rng = f"{pdecl.low} player{'s' if pdecl.low > 1 else ''} only"
                hint = "leave out --players" if pdecl.low == 1 else f"use --players {pdecl.low}"
            else:
                rng = f"{pdecl.low} to {pdecl.high} players"
                hint = f"use --players with a value from {pdecl.low} to {pdecl.high}"
            raise Diagnostic(f"this game is for {rng}, not {n}", pdecl.span, hint,
                             self.loaded.sources.get(pdecl.span.file))
        self.n = n
        self.options: dict[str, Any] = {}
        for oname, od in opts.items():
            self.options[oname] = od.default
        for key, raw in settings.items():
            if key == "players":
                continue
            if key not in opts:
                raise Diagnostic(f"unknown option '{key}'", hint=did_you_mean(key, opts) or (
                    "options: " + ", ".join(opts) if opts else "this game has no options"))
            try:
                self.options[key] = parse_option_value(opts[key], raw)
            except Diagnostic as d:
                od = opts[key]
                if od.kind == "int":
                    hint = f"use --set {key}=N with N from {od.low} to {od.high}"
                elif od.kind == "bool":
                    hint = f"use --set {key}=true or --set {key}=false"
                else:
                    hint = "use one of: " + ", ".join(f"--set {key}={c}" for c in od.choices)
                raise Diagnostic(f"--set {key}={raw}: {d.message}", od.span, d.hint or hint,
                                 self.loaded.sources.get(od.span.file)) from None
        # constants ------------------------------------------------------------
        self.constants: dict[str, tuple[str, Any]] = {}
        for i, s in enumerate(SUITS):
            self.constants[s] = ("suit", i + 1)
        for i, c in enumerate(COLORS):
            self.constants[c] = ("color", i + 1)
        self.constants["player_count"] = ("int", n)
        for oname, od in opts.items():
            v = self.options[oname]
            t = "bool" if od.kind == "bool" else ("sym" if isinstance(v, str) else "int")
            self.constants[oname] = (t, v)
            if od.kind == "choice":
                for ch in od.choices:
                    if isinstance(ch, str):
                        self.constants.setdefault(ch, ("sym", ch))
        # deck -------------------------------------------------------------------
        if deck is None:
            self.err("the game has no deck", A.Span(self.loaded.path, 1, 1, 1, 2),
                     "add 'deck standard' or a custom 'deck { ... }'")
            deck = A.DeckDecl(standard=True)
        self.cards, rank_names, self.card_attrs = self.build_deck(deck)
        for i, rn in enumerate(rank_names):
            if not rn.isdigit():
                self.constants.setdefault(rn, ("int", i + 1))
        has_suitless = any(c.suit == 0 for c in self.cards)
        self.const_defs = {k: d for k, d in defs.items() if d.is_const}
        # zones and vars ------------------------------------------------------------
        self.zones: dict[str, ZoneInfo] = {
            "deck": ZoneInfo("deck", "deck", None, "hidden", "squared", A.NOSPAN)}
        for decl in decls:
            nm = getattr(decl, "name", "")
            if isinstance(decl, (A.ZoneDecl, A.VarDecl, A.DefDecl, A.ProcDecl, A.MoveDecl,
                                 A.OptionDecl)) and nm in KEYWORDS:
                what = type(decl).__name__[:-4].lower()
                self.err(f"'{nm}' is a word of the language and cannot name "
                         f"{'an' if what[0] in 'aeiou' else 'a'} {what}",
                         decl.span, f"call it '{nm}_' or 'my_{nm}'")
            elif isinstance(decl, (A.ZoneDecl, A.VarDecl, A.DefDecl)) and nm in (
                    "suits", "colors", "player_count"):
                self.err(f"'{nm}' is a built-in name", decl.span, f"call it 'my_{nm}'")
        for z in zones_d:
            if z.name in self.zones or z.name in self.constants:
                self.err(f"'{z.name}' is already defined", z.span)
                continue
            dim = self.dim(z.index) if z.index is not None else None
            vis, layout = "public", "squared"
            for p in z.props:
                kind = ZONE_PROPS.get(p)
                if kind is None:
                    self.err(f"unknown zone property '{p}'", z.span,
                             did_you_mean(p, ZONE_PROPS) or "known: " + ", ".join(ZONE_PROPS))
                elif kind in ("hidden", "public", "owner"):
                    vis = kind
                else:
                    layout = kind
            if vis == "owner" and (dim is None or dim[0] != "player"):
                self.err(f"zone '{z.name}' is seen by its owner only, so it must be one per player",
                         z.span, f"declare it as 'zone {z.name}[player]'")
            self.zones[z.name] = ZoneInfo(z.name, z.label or z.name, dim, vis, layout, z.span)
        self.vars: dict[str, VarInfo] = {}
        self.defs, self.procs, self.moves = defs, procs, moves
        for v in vars_d:
            if v.name in self.zones or v.name in self.vars or v.name in self.constants:
                self.err(f"'{v.name}' is already defined", v.span)
                continue
            dim = self.dim(v.index) if v.index is not None else None
            t = self.expr(v.init, _Scope(), _Ctx("pure"))
            if v.type is not None:
                want = self.type_name(v.type, v.span)
                if want != "any":
                    if not compatible(want, t) and not _literal_player(want, v.init):
                        self.err(f"'{v.name}' is declared {v.type.replace(':', ' of ')} "
                                 f"but starts as {t}", v.init.span)
                    t = want
            elif t in ("none", "any"):
                self.err(f"give '{v.name}' a type: its start value does not say one", v.span,
                         f"write 'var {v.name}: player = none' (or card, suit, int...)")
            elif t == "list:any":
                t = "list:int"
            self.vars[v.name] = VarInfo(v.name, t, dim, v.init, v.span)
        for dname, dd in defs.items():
            if dname in self.zones or dname in self.vars or dname in self.constants:
                self.err(f"'{dname}' is already defined", dd.span)
        # bodies ----------------------------------------------------------------------
        self.def_types: dict[str, str] = {}
        self.def_stack: list[str] = []
        for dname in defs:
            self.def_type(dname)
        self.blocking = {p for p in procs if self.proc_blocks(p, set())}
        self.proc_recursion(procs)
        for pname, pd in procs.items():
            scope = _Scope()
            self.params_unique(pd.params, pname)
            for prm in pd.params:
                scope.names[prm.name] = self.type_name(prm.type, prm.span)
            self.block(pd.body, scope, _Ctx("proc", rule=f"proc {pname}"))
        for dname, dd in defs.items():
            self.params_unique(dd.params, dname)
        for mname, md in moves.items():
            scope = _Scope()
            ctx = _Ctx("move", me=True, rule=f"move {mname}")
            self.params_unique(md.params, mname)
            for mp in md.params:
                if isinstance(mp.source, A.Binary) and mp.source.op == "..":
                    lo, hi = self.const_int(mp.source.left), self.const_int(mp.source.right)
                    if lo is not None and hi is not None and hi - lo >= 10_000:
                        self.err(f"a move parameter ranges over at most 10000 values, not "
                                 f"{hi - lo + 1}", mp.source.span)
                st = self.expr(mp.source, scope, _Ctx("pure", me=True))
                et = self.iter_type(st, mp.source.span)
                scope = _Scope(scope)
                scope.names[mp.name] = et
            if md.when is not None:
                self.want("bool", md.when, scope, _Ctx("pure", me=True, rule=f"move {mname}"))
            self.block(md.body, _Scope(scope), ctx)
        self.block(setup, _Scope(), _Ctx("setup", rule="setup"))
        for call in walk_stmts(setup):
            if isinstance(call, A.CallStmt) and call.func in procs and self.proc_ends(
                    call.func, set()):
                self.err(f"'{call.func}' can end the game, and the game cannot end during "
                         "setup", call.span)
        if flow is not None:
            self.block(flow, _Scope(), _Ctx("flow", rule="flow"))
        elif n > 1:
            self.err("a game for several players needs a 'flow' that says who chooses when",
                     A.Span(self.loaded.path, 1, 1, 1, 2))
        elif not moves:
            self.err("the game has no moves", A.Span(self.loaded.path, 1, 1, 1, 2))
        self.uses_no_moves = False
        for e in ends:
            self.want("bool", e.cond, _Scope(), _Ctx("pure", rule="end"))
        if score is not None:
            self.want("int", score, _Scope(), _Ctx("pure", me=True, rule="score"))
        if result is not None and result.cond is not None:
            self.want("bool", result.cond, _Scope(), _Ctx("pure", me=True, rule="result"))
        if result is not None and result.kind in ("highest", "lowest") and score is None:
            self.err(f"'result {result.kind} score' needs a 'score = ...'", result.span)
        for inv in invariants:
            self.want("bool", inv.cond, _Scope(), _Ctx("pure", rule=f"invariant {inv.name}"))
        self.fail()
        return Checked(
            name=name, about=about, path=self.loaded.path, sources=self.loaded.sources,
            players=n, player_range=(pdecl.low, pdecl.high), options=self.options,
            option_decls=opts, cards=self.cards, rank_names=rank_names,
            card_attrs=self.card_attrs, has_suitless=has_suitless, zones=self.zones,
            vars=self.vars, defs=defs, procs=procs, moves=moves, setup=setup, flow=flow,
            ends=ends, score=score, result=result, invariants=invariants, limit=limit,
            types=self.types, blocking_procs=self.blocking, constants=self.constants,
            uses_no_moves=self.uses_no_moves, bool_attrs=frozenset(self.bool_attrs),
            const_int=self.const_int,
        )

    # ----------------------------------------------------------- helpers
    def type_name(self, t: str, span: A.Span) -> str:
        if t in SCALAR_TYPES:
            return t
        if t == "list":
            return "list:int"
        if t.startswith("list:") and t[5:] in SCALAR_TYPES:
            return t
        shown = t.replace(":", " of ")
        self.err(f"unknown type '{shown}'", span, did_you_mean(t, SCALAR_TYPES + ("list",))
                 or "types: " + ", ".join(SCALAR_TYPES) + ", list of T")
        return "any"

    def const_int(self, e: A.Expr) -> int | None:
        """Evaluate a constant integer expression (numbers, options, arithmetic)."""
        if isinstance(e, A.Int):
            return e.value
        if isinstance(e, A.Name) and e.name in self.constants:
            t, v = self.constants[e.name]
            if t == "int":
                return int(v)
        if isinstance(e, A.Name) and e.name in self.const_defs:
            d = self.const_defs[e.name]
            if e.name in self.const_stack:
                return None
            self.const_stack.append(e.name)
            try:
                return self.const_int(d.body)
            finally:
                self.const_stack.pop()
        if isinstance(e, A.Binary) and e.op in "+-*/%":
            a, b = self.const_int(e.left), self.const_int(e.right)
            if a is None or b is None:
                return None
            if e.op in "/%" and b == 0:
                return None
            return {"+": a + b, "-": a - b, "*": a * b, "/": a // b if b else 0,
                    "%": a % b if b else 0}[e.op]
        if isinstance(e, A.Unary) and e.op == "-":
            a = self.const_int(e.operand)
            return None if a is None else -a
        if isinstance(e, A.IfExpr):
            c = self.const_bool(e.cond)
            if c is None:
                return None
            return self.const_int(e.then if c else e.else_)
        return None

    def const_bool(self, e: A.Expr) -> bool | None:
        if isinstance(e, A.Bool):
            return e.value
        if isinstance(e, A.Name) and e.name in self.constants:
            t, v = self.constants[e.name]
            return bool(v) if t == "bool" else None
        if isinstance(e, A.Binary) and e.op in ("==", "!="):
            a = self.const_value(e.left)
            b = self.const_value(e.right)
            if a is None or b is None:
                return None
            return (a == b) == (e.op == "==")
        return None

    def const_value(self, e: A.Expr) -> Any:
        if isinstance(e, A.Name) and e.name in self.constants:
            return self.constants[e.name][1]
        return self.const_int(e)

    def dim(self, e: A.Expr) -> tuple[str, int]:
        if isinstance(e, A.Name) and e.name == "player":
            return ("player", self.n)
        if isinstance(e, A.Name) and e.name == "suit":
            return ("suit", 4)
        v = self.const_int(e)
        if v is None:
            self.err("the size of an array must be a number, an option, 'player' or 'suit'",
                     e.span)
            return ("int", 1)
        if not 1 <= v <= 1000:
            self.err(f"array size {v} is out of range 1..1000", e.span)
            return ("int", 1)
        return ("int", v)

    def build_deck(self, d: A.DeckDecl) -> tuple[list[Card], tuple[str, ...], tuple[str, ...]]:
        cards: list[Card] = []
        if d.standard:
            for s in range(1, 5):
                for r in range(1, 14):
                    cards.append(Card(len(cards), r, s, False, {}))
            for _ in range(d.jokers):
                cards.append(Card(len(cards), 0, 0, True, {}))
            return cards, STANDARD_RANKS, ()
        names = d.rank_names
        extra: set[str] = set()
        for i, rn in enumerate(names):
            if not rn.isdigit():
                self.constants.setdefault(rn, ("int", i + 1))

        def walk(items: tuple[A.DeckCard | A.DeckFor, ...], env: dict[str, Any]) -> None:
            for it in items:
                if len(cards) >= MAX_DECK:
                    self.err(f"a deck has at most {MAX_DECK} cards", it.span)
                    return
                if isinstance(it, A.DeckFor):
                    values = self.deck_values(it.source, env)
                    for v in values:
                        walk(it.body, {**env, it.var: v})
                    continue
                times = 1
                if it.times is not None:
                    t = self.deck_eval(it.times, env)
                    if not isinstance(t, int) or isinstance(t, bool) or t < 0:
                        self.err("'times' needs a whole number", it.times.span)
                        continue
                    if len(cards) + t > MAX_DECK:
                        self.err(f"a deck has at most {MAX_DECK} cards", it.times.span)
                        return
                    times = t
                rank, suit, joker = 0, 0, False
                ex: dict[str, int] = {}
                for key, ve in it.attrs_:
                    val = self.deck_eval(ve, env)
                    if key == "rank":
                        rank = int(val)
                    elif key == "suit":
                        if not isinstance(val, tuple) or val[0] != "suit":
                            self.err("suit must be one of " + ", ".join(SUITS), ve.span)
                        else:
                            suit = val[1]
                    elif key == "joker":
                        joker = bool(val)
                    else:
                        if isinstance(val, tuple):
                            val = val[1]
                        if isinstance(val, bool):
                            self.bool_attrs.add(key)
                        else:
                            self.int_attrs.add(key)
                        if key in self.bool_attrs and key in self.int_attrs:
                            self.err(f"card attribute '{key}' is a flag on some cards and a "
                                     "number on others", ve.span,
                                     f"give every card a number: {key}: 1")
                        ex[key] = int(val)
                        extra.add(key)
                for _ in range(times):
                    cards.append(Card(len(cards), rank, suit, joker, dict(ex)))

        walk(d.items, {})
        if not cards and not self.errors:
            self.err("the deck has no cards", d.span)
        return cards, names, tuple(sorted(extra))

    def deck_values(self, e: A.Expr, env: dict[str, Any]) -> list[Any]:
        if isinstance(e, A.Binary) and e.op == "..":
            a, b = self.deck_eval(e.left, env), self.deck_eval(e.right, env)
            if isinstance(a, int) and isinstance(b, int):
                if b - a >= MAX_DECK:
                    self.err(f"a deck loop over {a}..{b} is too long (a deck has at most "
                             f"{MAX_DECK} cards)", e.span)
                    return []
                return list(range(a, b + 1))
        if isinstance(e, A.Name) and e.name == "suits":
            return [("suit", i + 1) for i in range(4)]
        if isinstance(e, A.ListLit):
            return [self.deck_eval(x, env) for x in e.items]
        self.err("a deck loop runs over a range (1..10), a list, or 'suits'", e.span)
        return []

    def deck_eval(self, e: A.Expr, env: dict[str, Any]) -> Any:
        if isinstance(e, A.Name) and e.name in env:
            return env[e.name]
        if isinstance(e, A.Name) and e.name in self.constants:
            t, v = self.constants[e.name]
            return ("suit", v) if t == "suit" else v
        if isinstance(e, A.Int):
            return e.value
        if isinstance(e, A.Bool):
            return e.value
        if isinstance(e, A.Binary) and e.op in "+-*/%":
            a, b = self.deck_eval(e.left, env), self.deck_eval(e.right, env)
            if isinstance(a, int) and isinstance(b, int):
                if e.op in "/%" and b == 0:
                    self.err("division by zero", e.span)
                    return 0
                return {"+": a + b, "-": a - b, "*": a * b, "/": a // b if b else 0,
                        "%": a % b if b else 0}[e.op]
        self.err("a deck is built from numbers, suits and loop variables only", e.span)
        return 0

    # ----------------------------------------------------------- defs and procs
    def def_type(self, name: str) -> str:
        if name in self.def_types:
            return self.def_types[name]
        d = self.defs[name]
        if name in self.def_stack:
            return "any"  # reported at the call
        self.def_stack.append(name)
        scope = _Scope()
        for p in d.params:
            scope.names[p.name] = self.type_name(p.type, p.span)
        t = self.expr(d.body, scope, _Ctx("pure", rule=f"def {name}"))
        self.def_stack.pop()
        self.def_types[name] = t
        return t

    def local_name(self, name: str, span: A.Span) -> None:
        if name in KEYWORDS:
            self.err(f"'{name}' is a word of the language and cannot name a variable", span,
                     f"call it '{name}_' or 'my_{name}'")

    def params_unique(self, params: Any, owner: str) -> None:
        seen: set[str] = set()
        for p in params:
            self.local_name(p.name, p.span)
            if p.name in seen:
                self.err(f"'{owner}' has two parameters named '{p.name}'", p.span)
            seen.add(p.name)

    def proc_recursion(self, procs: dict[str, A.ProcDecl]) -> None:
        """Procedures may call each other but never (even indirectly) themselves."""
        calls = {n: [st for st in walk_stmts(p.body)
                     if isinstance(st, A.CallStmt) and st.func in procs]
                 for n, p in procs.items()}
        state: dict[str, int] = {}

        def visit(n: str) -> None:
            state[n] = 1
            for st in calls[n]:
                if state.get(st.func) == 1:
                    self.err(f"'{st.func}' calls itself (through '{n}'): recursion is not "
                             "allowed (every rule must end)", st.span,
                             "repeat with a loop ('for', 'repeat N times') instead")
                elif st.func not in state:
                    visit(st.func)
            state[n] = 2

        for n in procs:
            if n not in state:
                visit(n)

    def proc_ends(self, name: str, seen: set[str]) -> bool:
        if name in seen:
            return False
        seen.add(name)
        for st in walk_stmts(self.procs[name].body):
            if isinstance(st, A.End):
                return True
            if isinstance(st, A.CallStmt) and st.func in self.procs and self.proc_ends(
                    st.func, seen):
                return True
        return False

    def proc_blocks(self, name: str, seen: set[str]) -> bool:
        if name in seen:
            return False
        seen.add(name)
        return any(self._stmt_blocks(s, seen) for s in walk_stmts(self.procs[name].body))

    def _stmt_blocks(self, s: A.Stmt, seen: set[str]) -> bool:
        if isinstance(s, A.Choose):
            return True
        if isinstance(s, A.CallStmt) and s.func in self.procs:
            return self.proc_blocks(s.func, seen)
        return False

    # ----------------------------------------------------------- statements
    def block(self, stmts: tuple[A.Stmt, ...], scope: _Scope, ctx: _Ctx) -> None:
        scope = _Scope(scope)
        for s in stmts:
            self.stmt(s, scope, ctx)

    def stmt(self, s: A.Stmt, scope: _Scope, ctx: _Ctx) -> None:
        if isinstance(s, A.Assign):
            tt = self.lvalue(s.target, scope, ctx)
            vt = self.expr(s.value, scope, ctx)
            if s.op == "=":
                if not compatible(tt, vt) and not _literal_player(tt, s.value):
                    self.err(f"cannot assign {vt} to {tt}", s.value.span)
            elif tt.startswith("list:"):
                if s.op == "-=":
                    self.err("'-=' does not remove from a list", s.span,
                             "keep the others instead: x = each v in x where v != ...")
                elif not compatible(tt, vt):
                    self.err(f"cannot add {vt} to {tt}", s.value.span)
            elif tt != "any" and (tt != "int" or not compatible("int", vt)):
                self.err(f"'{s.op}' needs numbers, not {tt} and {vt}", s.span)
        elif isinstance(s, A.CallStmt):
            if s.func not in self.procs:
                hint = did_you_mean(s.func, list(self.procs))
                if s.func in self.defs or s.func in PURE_BUILTINS:
                    hint = f"'{s.func}' is a function: use its value, e.g. in 'let x = {s.func}(...)'"
                self.err(f"unknown procedure '{s.func}'", s.span, hint)
                for a in s.args:
                    self.expr(a, scope, ctx)
                return
            p = self.procs[s.func]
            if s.func in self.blocking and ctx.kind != "flow":
                self.err(f"'{s.func}' asks a player to choose, so only the flow may call it",
                         s.span)
            self.args(s.func, p.params, s.args, s.span, scope, ctx)
        elif isinstance(s, A.Choose):
            if ctx.kind not in ("flow", "proc"):
                self.err("only the flow decides who chooses (a choice cannot be made here)",
                         s.span)
            wt = self.expr(s.who, scope, ctx)
            named = s.who.items if isinstance(s.who, A.ListLit) else (s.who,)
            for w in named:
                if isinstance(w, A.Int) and not 1 <= w.value <= self.n:
                    self.err(f"there is no player {w.value} in a game of {self.n}", w.span,
                             f"players are numbered 1 to {self.n}")
            want = "list:player" if s.simultaneous else "player"
            if not compatible(want, wt):
                self.err(f"expected a {'list of players' if s.simultaneous else 'player'}, "
                         f"found {wt}", s.who.span)
            for i, m in enumerate(s.moves):
                if m not in self.moves:
                    where = s.move_spans[i] if i < len(s.move_spans) else s.span
                    self.err(f"unknown move '{m}'", where, did_you_mean(m, self.moves)
                             or "moves: " + ", ".join(self.moves))
        elif isinstance(s, A.LetStmt):
            self.local_name(s.name, s.span)
            t = self.expr(s.value, scope, ctx)
            if t in ("none", "any"):
                t = "any"
            scope.names[s.name] = t
        elif isinstance(s, A.If):
            for cond, body in s.branches:
                ct = self.expr(cond, scope, ctx)
                if not compatible("bool", ct):
                    self.err(f"'if' needs a condition (true or false), found {ct}", cond.span,
                             "compare it, e.g. 'if taken > 0'" if ct == "int" else "")
                self.block(body, scope, ctx)
            self.block(s.else_, scope, ctx)
        elif isinstance(s, A.For):
            self.local_name(s.var, s.span)
            st = self.expr(s.source, scope, ctx)
            inner = _Scope(scope)
            inner.names[s.var] = self.iter_type(st, s.source.span)
            self.block(s.body, inner, attrs.evolve(ctx, loop=ctx.loop + 1))
        elif isinstance(s, A.While):
            ct = self.expr(s.cond, scope, ctx)
            if not compatible("bool", ct):
                self.err(f"'while' needs a condition (true or false), found {ct}", s.cond.span,
                         "compare it, e.g. 'while taken > 0'" if ct == "int" else "")
            self.block(s.body, scope, attrs.evolve(ctx, loop=ctx.loop + 1))
        elif isinstance(s, A.Repeat):
            if s.count is not None:
                self.want("int", s.count, scope, ctx)
            elif ctx.kind != "flow":
                self.err("'repeat' for ever belongs in the flow; use 'repeat N times' or 'while'",
                         s.span)
            self.block(s.body, scope, attrs.evolve(ctx, loop=ctx.loop + 1))
        elif isinstance(s, A.Phase):
            self.block(s.body, scope, ctx)
        elif isinstance(s, A.MoveCards):
            ct = self.expr(s.cards, scope, ctx)
            if ct not in ("card", "list:card", "zone", "any"):
                self.err(f"expected a card, cards or a zone to move, found {ct}", s.cards.span)
            self.want("zone", s.dest, scope, ctx)
        elif isinstance(s, A.Shuffle):
            if ctx.kind == "pure":
                self.err("shuffling is not allowed here", s.span)
            self.want("zone", s.zone, scope, ctx)
        elif isinstance(s, A.Deal):
            if s.count is not None:
                self.want("int", s.count, scope, ctx)
            self.want("zone", s.source, scope, ctx)
            dt = self.expr(s.dests, scope, ctx)
            if dt not in ("list:zone", "zone", "any"):
                self.err(f"deal to a list of zones (e.g. 'hand' or 'column'), found {dt}",
                         s.dests.span)
        elif isinstance(s, A.End):
            if ctx.kind == "setup":
                self.err("the game cannot end during setup", s.span)
        elif isinstance(s, A.Break):
            if ctx.loop == 0:
                self.err("'break' outside a loop", s.span)
        elif isinstance(s, A.Log):
            for part in s.parts:
                if isinstance(part, A.Expr):
                    self.expr(part, scope, ctx)

    def args(self, fname: str, params: tuple[A.Param, ...], args: tuple[A.Expr, ...],
             span: A.Span, scope: _Scope, ctx: _Ctx) -> None:
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

    def lvalue(self, e: A.Expr, scope: _Scope, ctx: _Ctx) -> str:
        if isinstance(e, A.Name):
            local = scope.lookup(e.name)
            if local is not None:
                self.types[id(e)] = local
                return local
            if e.name in self.vars:
                v = self.vars[e.name]
                if v.dim is not None:
                    self.err(f"'{e.name}' is an array: assign to one element, {e.name}[...]",
                             e.span)
                self.types[id(e)] = v.type
                return v.type
            if ctx.kind == "pure":
                self.err("assignment is not allowed here", e.span)
            if e.name in self.zones:
                self.err(f"cannot assign to '{e.name}': it is a zone", e.span,
                         f"cards go into a zone with 'move ... to {e.name}'")
                return "any"
            if e.name in self.constants or e.name in self.defs:
                self.err(f"cannot assign to '{e.name}': it is a constant", e.span,
                         "declare a variable with 'var' to change it during play")
                return "any"
            hint = did_you_mean(e.name, list(self.vars) + list(scope.all_names()))
            self.err(f"cannot assign to '{e.name}' (not a variable)", e.span,
                     hint or f"declare it first: var {e.name} = 0")
            return "any"
        if isinstance(e, A.Index) and isinstance(e.obj, A.Name) and e.obj.name in self.vars:
            v = self.vars[e.obj.name]
            if v.dim is None:
                self.err(f"'{e.obj.name}' is not an array", e.obj.span)
                return "any"
            self.index_check(v.dim, e.index, scope, ctx)
            self.types[id(e)] = v.type
            return v.type
        self.err("only a variable, an element of a variable array, or a 'let' can be assigned",
                 e.span)
        return "any"

    def index_check(self, dim: tuple[str, int], idx: A.Expr, scope: _Scope, ctx: _Ctx) -> None:
        t = self.expr(idx, scope, ctx)
        want = {"int": "int", "suit": "suit", "player": "player"}[dim[0]]
        if not compatible(want, t) and not (want == "player" and t == "int"):
            self.err(f"index must be {want}, found {t}", idx.span)
        self.const_index_check(dim, idx)

    def const_index_check(self, dim: tuple[str, int], idx: A.Expr) -> None:
        v = self.const_int(idx)
        if v is not None and dim[0] in ("int", "player") and not 1 <= v <= dim[1]:
            self.err(f"index {v} is out of range 1..{dim[1]}", idx.span)

    # ----------------------------------------------------------- expressions
    def want(self, t: str, e: A.Expr, scope: _Scope, ctx: _Ctx) -> None:
        if t == "zone":
            self.expecting = "zone"
        got = self.expr(e, scope, ctx)
        self.expecting = ""
        if not compatible(t, got):
            self.err(f"expected {t}, found {got}", e.span)

    def iter_type(self, t: str, span: A.Span) -> str:
        if t == "zone":
            return "card"
        if t.startswith("list:"):
            return elem(t)
        if t != "any":
            self.err(f"cannot go through {t}: expected a list, range or zone", span)
        return "any"

    def expr(self, e: A.Expr, scope: _Scope, ctx: _Ctx) -> str:
        t = self._expr(e, scope, ctx)
        self.types[id(e)] = t
        return t

    def _expr(self, e: A.Expr, scope: _Scope, ctx: _Ctx) -> str:
        if isinstance(e, A.Int):
            return "int"
        if isinstance(e, A.Bool):
            return "bool"
        if isinstance(e, A.NoneLit):
            return "none"
        if isinstance(e, A.Me):
            if not ctx.me:
                self.err("'me' (the player making the move) is not known here", e.span,
                         "pass the player as a parameter")
            return "player"
        if isinstance(e, A.Players):
            return "list:player"
        if isinstance(e, A.Name):
            return self.name(e, scope, ctx)
        if isinstance(e, A.ListLit):
            t = "any"
            for x in e.items:
                xt = self.expr(x, scope, ctx)
                if not compatible(t, xt):
                    self.err(f"a list mixes {t} and {xt}", x.span)
                t = unify(t, xt)
            return "list:" + t
        if isinstance(e, A.Attr):
            ot = self.expr(e.obj, scope, ctx)
            if ot in ("card", "any"):
                known = ("rank", "suit", "color", "joker") + self.card_attrs
                if e.name not in known:
                    where = e.name_span if e.name_span.line else e.span
                    self.err(f"cards have no attribute '{e.name}'", where,
                             did_you_mean(e.name, known) or "attributes: " + ", ".join(known))
                    return "any"
                if e.name in self.bool_attrs:
                    return "bool"
                return {"suit": "suit", "color": "color", "joker": "bool"}.get(e.name, "int")
            hint = ""
            if ot == "zone":
                hint = (f"'top of Z.{e.name}' reads as 'top of (Z.{e.name})': "
                        f"write '(top of Z).{e.name}'")
            self.err(f"{ot} has no attribute '{e.name}'",
                     e.name_span if e.name_span.line else e.span, hint)
            return "any"
        if isinstance(e, A.Index):
            if isinstance(e.obj, A.Name) and scope.lookup(e.obj.name) is None:
                nm = e.obj.name
                if nm in self.zones:
                    z = self.zones[nm]
                    if z.dim is None:
                        # a single zone indexed: the card at a position
                        self.types[id(e.obj)] = "zone"
                        self.want("int", e.index, scope, ctx)
                        return "card"
                    self.types[id(e.obj)] = "list:zone"
                    it = self.expr(e.index, scope, ctx)
                    want = {"int": "int", "suit": "suit", "player": "player"}[z.dim[0]]
                    if it.startswith("list:") and compatible(want, elem(it)):
                        return "list:zone"  # hand[players from p]: several zones
                    if not compatible(want, it) and not (want == "player" and it == "int"):
                        self.err(f"index must be {want}, found {it}", e.index.span)
                    self.const_index_check(z.dim, e.index)
                    return "zone"
                if nm in self.vars:
                    v = self.vars[nm]
                    if v.dim is not None:
                        self.index_check(v.dim, e.index, scope, ctx)
                        return v.type
            ot = self.expr(e.obj, scope, ctx)
            it = self.expr(e.index, scope, ctx)
            if not compatible("int", it) and it != "player":
                self.err(f"position must be int, found {it}", e.index.span)
            if ot == "zone":
                return "card"
            if ot.startswith("list:"):
                return elem(ot)
            if ot != "any":
                self.err(f"cannot index {ot}", e.span)
            return "any"
        if isinstance(e, A.Call):
            return self.call(e, scope, ctx)
        if isinstance(e, A.Unary):
            if e.op in ("top", "bottom", "all") and isinstance(e.operand, A.Name):
                self.expecting = "zone"
            ot = self.expr(e.operand, scope, ctx)
            self.expecting = ""
            if e.op == "-":
                if not compatible("int", ot):
                    self.err(f"cannot negate {ot}", e.span)
                return "int"
            if e.op == "not":
                if not compatible("bool", ot):
                    self.err(f"'not' needs a condition, found {ot}", e.operand.span)
                return "bool"
            if e.op in ("top", "bottom"):
                if ot == "list:card":
                    return "card"
                if not compatible("zone", ot):
                    self.err(f"'{e.op} of' needs a zone, found {ot}", e.operand.span)
                return "card"
            if e.op == "all":
                if ot == "list:zone":
                    return "list:card"
                if not compatible("zone", ot):
                    self.err(f"'all of' needs a zone, found {ot}", e.operand.span)
                return "list:card"
            if e.op in ("left", "right", "players_from"):
                if not compatible("player", ot):
                    self.err(f"expected a player, found {ot}", e.operand.span)
                return "list:player" if e.op == "players_from" else "player"
        if isinstance(e, A.TopN):
            self.want("int", e.count, scope, ctx)
            self.want("zone", e.zone, scope, ctx)
            return "list:card"
        if isinstance(e, A.Binary):
            return self.binary(e, scope, ctx)
        if isinstance(e, A.IsEmpty):
            ot = self.expr(e.operand, scope, ctx)
            if ot != "zone" and not ot.startswith("list:") and ot != "any":
                self.err(f"'is empty' needs a zone or a list, found {ot}", e.operand.span)
            return "bool"
        if isinstance(e, A.IfExpr):
            self.want("bool", e.cond, scope, ctx)
            a = self.expr(e.then, scope, ctx)
            b = self.expr(e.else_, scope, ctx)
            if not compatible(a, b):
                self.err(f"the two branches differ: {a} and {b}", e.span)
            return unify(a, b)
        if isinstance(e, A.Let):
            vt = self.expr(e.value, scope, ctx)
            inner = _Scope(scope)
            inner.names[e.name] = vt
            return self.expr(e.body, inner, ctx)
        if isinstance(e, A.Quant):
            return self.quant(e, scope, ctx)
        self.err("unsupported expression", e.span)  # pragma: no cover
        return "any"

    def name(self, e: A.Name, scope: _Scope, ctx: _Ctx) -> str:
        local = scope.lookup(e.name)
        if local is not None:
            return local
        n = e.name
        if n in self.zones:
            return "list:zone" if self.zones[n].dim is not None else "zone"
        if n in self.vars:
            v = self.vars[n]
            if v.dim is not None:
                self.err(f"'{n}' is an array: use {n}[...]", e.span)
                return "any"
            return v.type
        if n in self.constants:
            return self.constants[n][0]
        if n in self.defs and self.defs[n].is_const:
            if n in self.def_stack:
                self.err(f"'{n}' refers to itself (recursion is not allowed)", e.span)
                return "any"
            return self.def_type(n)
        if n == "suits":
            return "list:suit"
        if n == "colors":
            return "list:color"
        if n in ("no_moves", "legal_count"):
            self.uses_no_moves = True
            if ctx.kind != "pure" or not (ctx.rule == "end" or ctx.rule.startswith("invariant")):
                self.err(f"'{n}' is known only in 'end when' and 'invariant'", e.span)
            return "bool" if n == "no_moves" else "int"
        if n in self.defs:
            self.err(f"'{n}' is a function: call it, {n}(...)", e.span)
            return "any"
        if n == "moves_played":
            return "int"
        if n == "ended":
            return "bool"
        candidates = (list(scope.all_names()) + list(self.zones) + list(self.vars)
                      + list(self.constants) + list(self.defs) + ["suits", "colors", "players", "ended"])
        if self.expecting == "zone":
            self.err(f"unknown zone '{n}'", e.span, did_you_mean(n, self.zones)
                     or "zones: " + ", ".join(self.zones))
        else:
            self.err(f"unknown name '{n}'", e.span, did_you_mean(n, candidates))
        return "any"

    def call(self, e: A.Call, scope: _Scope, ctx: _Ctx) -> str:
        f = e.func
        if f in self.defs:
            d = self.defs[f]
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
            return self.def_type(f)
        if f in self.procs:
            self.err(f"'{f}' is a procedure: call it as a statement", e.span)
            return "any"
        ts = [self.expr(a, scope, ctx) for a in e.args]

        def arity(*ns: int) -> bool:
            if len(ts) not in ns:
                want = " or ".join(str(x) for x in ns)
                self.err(f"'{f}' takes {want} argument{'s' if ns != (1,) else ''}, "
                         f"given {len(ts)}", e.span)
                return False
            return True

        def want(i: int, t: str) -> None:
            if i < len(ts) and not compatible(t, ts[i]):
                self.err(f"argument {i + 1} of '{f}' must be {t}, not {ts[i]}", e.args[i].span)

        if f in ("size", "count"):
            if arity(1) and not (ts[0] in ("zone", "any") or ts[0].startswith("list:")):
                self.err(f"'{f}' needs a zone or a list, found {ts[0]}", e.args[0].span)
            return "int"
        if f in ("top", "bottom"):
            if arity(1):
                want(0, "zone")
            return "card"
        if f == "cards":
            if arity(1):
                want(0, "zone")
            return "list:card"
        if f in ("min", "max"):
            if len(ts) == 1:
                want(0, "list:int")
            elif len(ts) >= 2:
                for i in range(len(ts)):
                    want(i, "int")
            else:
                arity(1, 2)
            return "int"
        if f == "abs":
            if arity(1):
                want(0, "int")
            return "int"
        if f == "sum":
            if arity(1):
                want(0, "list:int")
            return "int"
        if f in ("first", "last", "random"):
            if f == "random" and ctx.kind == "pure":
                self.err("'random' is a chance event: not allowed in a condition or function",
                         e.span)
            if arity(1):
                if ts[0] == "zone":
                    return "card"
                if not ts[0].startswith("list:") and ts[0] != "any":
                    self.err(f"'{f}' needs a list, found {ts[0]}", e.args[0].span)
                return elem(ts[0])
            return "any"
        if f in ("rest", "reverse", "sorted"):
            if arity(1):
                if ts[0] == "zone":
                    return "list:card"
                if not ts[0].startswith("list:") and ts[0] != "any":
                    self.err(f"'{f}' needs a list, found {ts[0]}", e.args[0].span)
                return ts[0]
            return "any"
        if f == "distance":
            if arity(3):
                for i in range(3):
                    want(i, "int")
            return "int"
        known = list(self.defs) + sorted(PURE_BUILTINS | {"random"})
        self.err(f"unknown function '{f}'", e.span, did_you_mean(f, known))
        return "any"

    def binary(self, e: A.Binary, scope: _Scope, ctx: _Ctx) -> str:
        a = self.expr(e.left, scope, ctx)
        b = self.expr(e.right, scope, ctx)
        op = e.op
        if op in ("+", "-") and a.startswith("list:") and op == "+":
            if not compatible(a, b):
                self.err(f"cannot join {a} and {b}", e.span)
            return unify(a, b)
        if op in ("+", "-", "*", "/", "%"):
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
            if not compatible(a, b) and not ({a, b} <= {"int", "player"}):
                self.err(f"cannot compare {a} with {b}", e.span)
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
            elif b.startswith("list:"):
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

    def quant(self, e: A.Quant, scope: _Scope, ctx: _Ctx) -> str:
        self.local_name(e.var, e.span)
        st = self.expr(e.source, scope, ctx)
        et = self.iter_type(st, e.source.span)
        inner = _Scope(scope)
        inner.names[e.var] = et
        if e.where is not None:
            self.want("bool", e.where, inner, ctx)
        bt = self.expr(e.body, inner, ctx) if e.body is not None else None
        k = e.kind
        if k == "random" and ctx.kind == "pure":
            self.err("'random' is a chance event: not allowed in a condition or function", e.span)
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
            return "list:" + (bt if bt is not None else et)
        return "any"  # pragma: no cover


def _literal_player(want: str, e: A.Expr) -> bool:
    """A number literal may name a player (`var dealer: player = 1`)."""
    return want == "player" and isinstance(e, A.Int)


def parse_option_value(od: A.OptionDecl, raw: str) -> Any:
    if od.kind == "bool":
        low = raw.lower()
        if low in ("true", "yes", "on", "1"):
            return True
        if low in ("false", "no", "off", "0"):
            return False
        raise Diagnostic(f"option '{od.name}' is true or false, not '{raw}'")
    if od.kind == "int":
        try:
            v = int(raw)
        except ValueError:
            raise Diagnostic(f"option '{od.name}' takes a number, not '{raw}'") from None
        if not od.low <= v <= od.high:
            raise Diagnostic(f"option '{od.name}' is {od.low}..{od.high}, not {v}")
        return v
    for ch in od.choices:
        if str(ch) == raw:
            return ch
    raise Diagnostic(f"option '{od.name}' is one of {', '.join(str(c) for c in od.choices)}, "
                     f"not '{raw}'", hint=did_you_mean(raw, [str(c) for c in od.choices]))
