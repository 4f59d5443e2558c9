"""Statements: what each rule may do where it is (the context), assignments, and the
facts about procedures (recursion, which ones ask a player, which ones can end the game).
Expressions are typed by the `ExprChecker`, shared with the other passes."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..errors import did_you_mean, span_text
from . import ast as A
from .builtins import FUNCTIONS
from .check_expr import ExprChecker, facts, literal_player
from .consts import const_bool, const_int
from .program import Ref
from .symbols import Ctx, Reporter, Scope
from .types import compatible, is_list, parse_type, shown

_Visit = Callable[[Any, Scope, Ctx], None]
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
# what a description may name besides its parameters: `{me}` (you / p3), `{my}` (your / p3's)
DESCRIPTION_WORDS = ("me", "my")


class StmtChecker:
    def __init__(self, exprs: ExprChecker) -> None:
        self.exprs = exprs
        self.syms = exprs.syms
        self.err = exprs.err
        self.expr = exprs.expr
        self.want = exprs.want
        self._visit: dict[type, _Visit] = {
            A.Assign: self._assign,
            A.CallStmt: self._call,
            A.Choose: self._choose,
            A.LetStmt: self._let,
            A.If: self._if,
            A.For: self._for,
            A.While: self._while,
            A.Repeat: self._repeat,
            A.Phase: lambda s, scope, ctx: self.block(s.body, scope, ctx),
            A.MoveCards: self._move_cards,
            A.Turn: self._turn,
            A.Shuffle: self._shuffle,
            A.Deal: self._deal,
            A.End: self._end,
            A.Break: self._break,
            A.Log: self._log,
        }

    # ----------------------------------------------------------- rules
    def proc(self, pd: A.ProcDecl) -> None:
        scope = Scope()
        self.params_unique(pd.params, pd.name)
        for prm in pd.params:
            scope.bind("proc_param", prm.name, self.exprs.type_name(prm.type, prm.span), prm)
        self.block(pd.body, scope, Ctx("proc", rule=f"proc {pd.name}"))

    def move(self, md: A.MoveDecl) -> Scope:
        """A move: its parameters (each ranges over what the ones before allow), its
        condition, its effect. Returns the scope of its parameters (for `auto move`)."""
        scope = Scope()
        self.params_unique(md.params, md.name)
        for mp in md.params:
            if isinstance(mp.source, A.Binary) and mp.source.op == "..":
                consts = self.syms.consts
                lo, hi = const_int(mp.source.left, consts), const_int(mp.source.right, consts)
                if lo is not None and hi is not None and hi - lo >= 10_000:
                    self.err(f"a move parameter ranges over at most 10000 values, not "
                             f"{hi - lo + 1}", mp.source.span)
            st = self.expr(mp.source, scope, Ctx("pure", me=True))
            et = self.exprs.iter_type(st, mp.source.span)
            scope = Scope(scope)
            scope.bind("move_param", mp.name, et, mp)
            if et == "list:card" and mp is not md.params[-1]:
                self.err(f"the set of cards '{mp.name}' must be the move's last parameter",
                         mp.span, "its cards are typed last, in any order: move it after "
                         "the others")
        rule = f"move {md.name}"
        if md.when is not None:
            self.want("bool", md.when, scope, Ctx("pure", me=True, rule=rule))
        for cl in md.clauses:  # a reason's {...} read what its condition may read
            for part in cl.parts:
                if isinstance(part, A.Expr):
                    self.exprs.free_reads.add(id(part))
                    self.expr(part, scope, Ctx("pure", me=True, rule=rule))
        self.description(md)
        with self.exprs.knowing(md.when, True):  # the body starts where `when` held
            self.block(md.body, Scope(scope), Ctx("move", me=True, rule=rule))
        return scope

    def description(self, md: A.MoveDecl) -> None:
        """A description's `{...}` name a parameter, `me` or `my`, nothing else: it is
        written for every legal move on every screen, from the move alone."""
        known = [p.name for p in md.params] + list(DESCRIPTION_WORDS)
        sp = md.doc_span
        for m in _PLACEHOLDER.finditer(md.doc):
            word = m.group(1).strip()
            if word in known:
                continue
            before = md.doc[:m.start()]
            line = sp.line + before.count("\n")
            col = (sp.column + 1 if "\n" not in before else 0) + len(before.rsplit("\n", 1)[-1])
            where = A.Span(sp.file, line, col, line, col + len(m.group(0)))
            if word.isidentifier():
                hint = did_you_mean(word, known) or (
                    "a description may name only " + ", ".join(known))
                self.err(f"unknown name '{word}' in the description of move '{md.name}'",
                         where, hint)
            else:
                self.err(f"a move description names only its parameters, me and my, "
                         f"not '{m.group(0)}'", where,
                         "a computed value belongs in a log line or a when clause's reason")

    def params_unique(self, params: tuple[A.Param, ...] | tuple[A.MoveParam, ...],
                      owner: str) -> None:
        seen: set[str] = set()
        for p in params:
            self.exprs.local_name(p.name, p.span, "a parameter")
            if p.name in seen:
                self.err(f"'{owner}' has two parameters named '{p.name}'", p.span)
            seen.add(p.name)

    def block(self, stmts: tuple[A.Stmt, ...], scope: Scope, ctx: Ctx) -> None:
        scope = Scope(scope)
        for s in stmts:
            self._visit[type(s)](s, scope, ctx)

    def _text(self, e: A.Expr) -> str:
        """An expression as written, for a hint: one line, short, else a placeholder."""
        sp = e.span
        text = span_text(self.exprs.report.sources.get(sp.file), sp)
        return text if sp.line == sp.end_line and 0 < len(text) <= 40 else "..."

    # ----------------------------------------------------------- one method per node
    def _assign(self, s: A.Assign, scope: Scope, ctx: Ctx) -> None:
        tt = self.lvalue(s.target, scope, ctx)
        optional = self.exprs.is_optional(s.target)
        if optional and s.op != "=":
            self.exprs.optional_read(s.target)  # `bid[p] += 1` reads it
        if optional and s.op == "=" and self.exprs.is_optional(s.value):
            self.exprs.free_reads.add(id(s.value))  # copied as it is, none or not
        vt = self.expr(s.value, scope, ctx)
        if optional and s.op == "=":
            self.exprs.forget(s.target)
            if vt == "none":
                return
        if s.op == "=":
            if not compatible(tt, vt) and not literal_player(tt, s.value):
                self.err(f"cannot assign {vt} to {tt}", s.value.span,
                         _assign_hint(s.target, tt, vt, self._text(s.value)))
        elif is_list(tt):
            if s.op == "-=":
                self.err("'-=' does not remove from a list", s.span,
                         "keep the others instead: x = each v in x where v != ...")
            elif not compatible(tt, vt):
                self.err(f"cannot add {vt} to {tt}", s.value.span)
        elif tt != "any" and tt != "int":
            verb = "adds to" if s.op == "+=" else "subtracts from"
            target = self._text(s.target)
            self.err(f"'{s.op}' {verb} a number: '{target}' holds {shown(tt)} values",
                     s.target.span, f"set it instead: {target} = true" if tt == "bool" else "")
        elif tt != "any" and not compatible("int", vt):
            verb = "adds" if s.op == "+=" else "subtracts"
            value = self._text(s.value)
            if vt == "bool":
                hint = (f"to count it, {verb[:-1]} 1 where it holds: if {value} {{ "
                        f"{self._text(s.target)} {s.op} 1 }}")
            elif vt in ("card", "zone") or is_list(vt):
                hint = _assign_hint(s.target, "int", vt, value).replace("assign", verb[:-1])
            else:
                hint = ""
            what = "none" if vt == "none" else _a(shown(vt))
            self.err(f"'{s.op}' {verb} numbers: the right side is {what}",
                     s.value.span, hint)

    def _call(self, s: A.CallStmt, scope: Scope, ctx: Ctx) -> None:
        procs = self.syms.procs
        if s.func not in procs:
            hint = did_you_mean(s.func, list(procs))
            b = FUNCTIONS.get(s.func)
            if s.func in self.syms.defs or (b is not None and not b.chance):
                hint = f"'{s.func}' is a function: use its value, e.g. in 'let x = {s.func}(...)'"
            self.err(f"unknown procedure '{s.func}'", s.span, hint)
            for a in s.args:
                self.expr(a, scope, ctx)
            return
        p = procs[s.func]
        self.exprs.refs.record(s, Ref("proc", s.func, "", p))
        if s.func in self.syms.blocking and ctx.kind != "flow":
            self.err(f"'{s.func}' asks a player to choose, so only the flow may call it", s.span)
        self.exprs.args(s.func, p.params, s.args, s.span, scope, ctx)

    def _choose(self, s: A.Choose, scope: Scope, ctx: Ctx) -> None:
        if ctx.kind not in ("flow", "proc"):
            self.err("only the flow decides who chooses (a choice cannot be made here)", s.span)
        wt = self.expr(s.who, scope, ctx)
        n = self.syms.players
        named = s.who.items if isinstance(s.who, A.ListLit) else (s.who,)
        for w in named:
            if isinstance(w, A.Int) and not 1 <= w.value <= n:
                self.err(f"there is no player {w.value} in a game of {n}", w.span,
                         f"players are numbered 1 to {n}")
        want = "list:player" if s.simultaneous else "player"
        if not compatible(want, wt):
            self.err(f"expected a {'list of players' if s.simultaneous else 'player'}, "
                     f"found {wt}", s.who.span)
        moves = self.syms.moves
        for i, m in enumerate(s.moves):
            if m not in moves:
                where = s.move_spans[i] if i < len(s.move_spans) else s.span
                self.err(f"unknown move '{m}'", where, did_you_mean(m, moves)
                         or "moves: " + ", ".join(moves))

    def _let(self, s: A.LetStmt, scope: Scope, ctx: Ctx) -> None:
        self.exprs.local_name(s.name, s.span)
        t = self.expr(s.value, scope, ctx)
        if t in ("none", "any"):
            t = "any"
        scope.bind("let", s.name, t, s)

    def _if(self, s: A.If, scope: Scope, ctx: Ctx) -> None:
        saved = self.exprs.narrowed
        for cond, body in s.branches:
            ct = self.expr(cond, scope, ctx)
            if not compatible("bool", ct):
                self.err(f"'if' needs a condition (true or false), found {ct}", cond.span,
                         "compare it, e.g. 'if taken > 0'" if ct == "int" else "")
            with self.exprs.knowing(cond, True):
                self.block(body, scope, ctx)
            # a later branch runs only where this condition failed
            self.exprs.narrowed = self.exprs.narrowed | facts(cond, False)
        self.block(s.else_, scope, ctx)
        self.exprs.narrowed = saved

    def _for(self, s: A.For, scope: Scope, ctx: Ctx) -> None:
        self.exprs.local_name(s.var, s.span, "a loop variable")
        st = self.expr(s.source, scope, ctx)
        inner = Scope(scope)
        inner.bind("loop", s.var, self.exprs.iter_type(st, s.source.span), s)
        self.block(s.body, inner, _in_loop(ctx))

    def _while(self, s: A.While, scope: Scope, ctx: Ctx) -> None:
        ct = self.expr(s.cond, scope, ctx)
        if not compatible("bool", ct):
            self.err(f"'while' needs a condition (true or false), found {ct}", s.cond.span,
                     "compare it, e.g. 'while taken > 0'" if ct == "int" else "")
        elif const_bool(s.cond, self.syms.consts) is True and not self._way_out(s.body):
            # An error, not a warning: `end when` and the limit are judged only at a
            # decision, so a loop that neither decides, breaks nor ends turns until the
            # run-time cap stops the game with a rule error; no game can need that.
            self.err("this 'while' never ends: its condition is always true, and nothing "
                     "inside it breaks out, ends the game or asks a player to choose",
                     s.cond.span, "give it a condition that turns false (while stock is not "
                     "empty), or a way out inside it (if ... { break })")
        self.block(s.body, scope, _in_loop(ctx))

    def _way_out(self, body: tuple[A.Stmt, ...], nested: bool = False) -> bool:
        """Can this loop body leave the loop or reach a decision: a `break` of its own
        (not one of a loop nested in it), an `end`, a choice, or a call of a proc that
        ends the game or asks a choice?"""
        procs = self.syms.procs
        for st in body:
            if isinstance(st, A.Break) and not nested:
                return True
            if isinstance(st, (A.End, A.Choose)):
                return True
            if isinstance(st, A.CallStmt) and st.func in procs and (
                    proc_ends(procs, st.func, set()) or proc_blocks(procs, st.func, set())):
                return True
            if isinstance(st, A.If):
                if any(self._way_out(b, nested) for _, b in st.branches) or self._way_out(
                        st.else_, nested):
                    return True
            elif isinstance(st, A.Phase):
                if self._way_out(st.body, nested):
                    return True
            elif isinstance(st, (A.For, A.While, A.Repeat)) and self._way_out(st.body, True):
                return True
        return False

    def _repeat(self, s: A.Repeat, scope: Scope, ctx: Ctx) -> None:
        if s.count is not None:
            self.want("int", s.count, scope, ctx)
        elif ctx.kind != "flow":
            self.err("'repeat' for ever belongs in the flow; use 'repeat N times' or 'while'",
                     s.span)
        elif not self._way_out(s.body):
            # as a `while true` with no way out (see _while): it turns until the run-time
            # cap stops the game, since `end when` and the limit wait for a decision
            self.err("this 'repeat' never ends: nothing inside it breaks out, ends the game "
                     "or asks a player to choose", s.span,
                     "a flow's 'repeat' asks for moves (p chooses play), or write "
                     "'repeat N times'")
        self.block(s.body, scope, _in_loop(ctx))

    def _move_cards(self, s: A.MoveCards, scope: Scope, ctx: Ctx) -> None:
        ct = self.expr(s.cards, scope, ctx)
        if s.above:
            if ct not in ("card", "any"):
                self.err(f"'and above' follows one card (it moves that card and every card "
                         f"on it), found {ct}", s.cards.span,
                         "to move the top cards of a zone write 'move top N of Z to ...'"
                         if ct in ("zone", "list:card") else "")
        elif ct not in ("card", "list:card", "zone", "any"):
            self.err(f"expected a card, cards or a zone to move, found {ct}", s.cards.span)
        self.want("zone", s.dest, scope, ctx)

    def _turn(self, s: A.Turn, scope: Scope, ctx: Ctx) -> None:
        ct = self.expr(s.cards, scope, ctx)
        if ct == "zone":
            self.err("'turn' turns a card (or a list of cards) where it lies, not a zone",
                     s.cards.span, "write 'turn top of Z face up', or 'turn all of Z face "
                     "down'; to turn a pile over onto another zone, 'move all of Z to Y "
                     "turned over'")
        elif ct not in ("card", "list:card", "any"):
            self.err(f"expected a card or cards to turn, found {ct}", s.cards.span)

    def _shuffle(self, s: A.Shuffle, scope: Scope, ctx: Ctx) -> None:
        if ctx.kind == "pure":
            self.err("shuffling is not allowed here", s.span)
        self.want("zone", s.zone, scope, ctx)

    def _deal(self, s: A.Deal, scope: Scope, ctx: Ctx) -> None:
        if s.count is not None:
            self.want("int", s.count, scope, ctx)
        self.want("zone", s.source, scope, ctx)
        dt = self.expr(s.dests, scope, ctx)
        if dt not in ("list:zone", "zone", "any"):
            self.err(f"deal to a list of zones (e.g. 'hand' or 'column'), found {dt}",
                     s.dests.span)

    def _end(self, s: A.End, scope: Scope, ctx: Ctx) -> None:
        if ctx.kind == "setup":
            self.err("the game cannot end during setup", s.span)
        self._log(s, scope, ctx)  # the values in its text

    def _break(self, s: A.Break, scope: Scope, ctx: Ctx) -> None:
        if ctx.loop == 0:
            self.err("'break' outside a loop", s.span)

    def _log(self, s: A.Log | A.End, scope: Scope, ctx: Ctx) -> None:
        if isinstance(s, A.Log):
            # narration, built only where someone watches: a chance event in it would
            # make watched and unwatched play differ
            ctx = Ctx("log", ctx.me, ctx.loop, ctx.rule)
        for part in s.parts:
            if isinstance(part, A.Expr):
                self.exprs.free_reads.add(id(part))  # an optional int is written "none"
                self.expr(part, scope, ctx)

    # ----------------------------------------------------------- assignment targets
    def lvalue(self, e: A.Expr, scope: Scope, ctx: Ctx) -> str:
        types = self.exprs.types
        syms = self.syms
        if isinstance(e, A.Name):
            local = scope.lookup(e.name)
            if local is not None:
                self.exprs.refs.record(e, local)
                types.record(e, local.type)
                return local.type
            if e.name in syms.vars:
                v = syms.vars[e.name]
                if v.dim is not None:
                    self.err(f"'{e.name}' is an array: assign to one element, {e.name}[...]",
                             e.span)
                self.exprs.known_global(e, scope, ctx)
                types.record(e, v.type)
                return v.type
            if ctx.kind == "pure":
                self.err("assignment is not allowed here", e.span)
            if e.name in syms.zones:
                self.err(f"cannot assign to '{e.name}': it is a zone", e.span,
                         f"cards go into a zone with 'move ... to {e.name}'")
                return "any"
            if e.name in syms.constants or e.name in syms.defs:
                self.err(f"cannot assign to '{e.name}': it is a constant", e.span,
                         "declare a variable with 'var' to change it during play")
                return "any"
            hint = did_you_mean(e.name, list(syms.vars) + list(scope.all_names()))
            self.err(f"cannot assign to '{e.name}' (not a variable)", e.span,
                     hint or f"declare it first: var {e.name} = 0")
            return "any"
        if isinstance(e, A.Index) and isinstance(e.obj, A.Name) and e.obj.name in syms.vars:
            v = syms.vars[e.obj.name]
            if v.dim is None:
                self.err(f"'{e.obj.name}' is not an array", e.obj.span)
                return "any"
            self.exprs.var_array(e.obj, scope, ctx)
            self.exprs.index_check(v.dim, e.index, scope, ctx, e.obj.name)
            types.record(e, v.type)
            return v.type
        self.err("only a variable, an element of a variable array, or a 'let' can be assigned",
                 e.span)
        return "any"


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def _in_loop(ctx: Ctx) -> Ctx:
    return Ctx(ctx.kind, ctx.me, ctx.loop + 1, ctx.rule)


# --------------------------------------------------------------- procedures
def _calls(procs: dict[str, A.ProcDecl], name: str) -> list[A.CallStmt]:
    return [st for st in A.walk_stmts(procs[name].body)
            if isinstance(st, A.CallStmt) and st.func in procs]


def check_recursion(procs: dict[str, A.ProcDecl], report: Reporter) -> None:
    """Procedures may call each other but never (even indirectly) themselves."""
    calls = {n: _calls(procs, n) for n in procs}
    state: dict[str, int] = {}

    def visit(n: str) -> None:
        state[n] = 1
        for st in calls[n]:
            if state.get(st.func) == 1:
                report.err(f"'{st.func}' calls itself (through '{n}'): recursion is not "
                           "allowed (every rule must end)", st.span,
                           "repeat with a loop ('for', 'repeat N times') instead")
            elif st.func not in state:
                visit(st.func)
        state[n] = 2

    for n in procs:
        if n not in state:
            visit(n)


def proc_reaches(procs: dict[str, A.ProcDecl], name: str, kind: type[A.Stmt],
                 seen: set[str]) -> bool:
    """Does calling the proc run a statement of this kind (`End`: can it end the game;
    `Choose`: does it ask a player to choose), itself or through the procs it calls?"""
    if name in seen:
        return False
    seen.add(name)
    for st in A.walk_stmts(procs[name].body):
        if isinstance(st, kind):
            return True
        if (isinstance(st, A.CallStmt) and st.func in procs
                and proc_reaches(procs, st.func, kind, seen)):
            return True
    return False


def proc_ends(procs: dict[str, A.ProcDecl], name: str, seen: set[str]) -> bool:
    return proc_reaches(procs, name, A.End, seen)


def proc_blocks(procs: dict[str, A.ProcDecl], name: str, seen: set[str]) -> bool:
    return proc_reaches(procs, name, A.Choose, seen)


def _assign_hint(target: A.Expr, tt: str, vt: str, value: str) -> str:
    """What to write instead of a value of the wrong type: the common mix-ups (a card
    where a number is kept, a zone where a number is kept) get the usual reading."""
    obj = target.obj if isinstance(target, A.Index) else target
    name = obj.name if isinstance(obj, A.Name) else "the variable"
    if tt == "int" and vt == "card":
        return f"a card is not a number: assign one of its numbers, e.g. ({value}).rank"
    if tt == "int" and vt == "zone":
        return f"a zone is not a number: assign how many cards it holds, size({value})"
    if tt == "int" and vt.startswith("list:"):
        return "a list is not a number: assign its length, size(...)"
    if vt == "none":  # (a variable may also hold none where its initial value is none)
        return (f"'{name}' holds {tt} values: assign one, or let it hold none as well by "
                f"declaring it with none (var {name}: {shown(tt)} = none)")
    if parse_type(vt) is None:  # (no declaration names this type)
        return f"'{name}' holds {tt} values: assign one"
    return (f"'{name}' holds {tt} values: assign one, or declare it for this value "
            f"(var {name}: {shown(vt)})")

