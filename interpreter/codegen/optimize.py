"""The optimiser: def inlining, hoisting, def tables and unrolling.

None of this changes what a game does (tests/test_optimize.py plays every game with and
without it). Every decision is taken on the AST, on the locals in scope, or on facts the
lowering records as it emits (`Names.unsafe`, `Names.walrus`, `Hoist.needs`), never by
reading the emitted text.

`Optimizing` lowers expressions like `Exprs` but inlines defs. Inside a legal-move
generator (a frame with a `Hoist`) it also:
- computes a def argument once at the outermost loop level whose values it reads, when
  it can neither fail nor change the state;
- computes a card attribute of such a hoisted card with it;
- drops the empty check of `top of Z` where an earlier conjunct checked `Z is not empty`;
- turns a def called with a move parameter over a few constants into a table filled
  before the loops, when no entry can fail;
- computes a quantifier that reads no parameter of the loop it is in once, at the
  outermost loop level whose values it reads (`not (any d in hand[me]: d.suit == led)`
  in a test of each card c: once per decision, not once per card). One that cannot fail
  is computed before the inner loops; one that may fail (an empty zone...) is computed
  where it stands the first time it is reached, and remembered for the rest of that
  level (`_h if _h is not ... else (_h := ...)`): the same error at the same point. A
  quantifier that runs only on a condition (after an `and`/`or` operand, in an `if` arm,
  behind an earlier condition of its level) is computed that way too, even if it cannot
  fail: once at most, and not at all when no card needs it.
moves.py unrolls the loops of parameters over a few constants (`unrolled_levels`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import attrs
else:  # the same declarations, built cheaply (lang/nodes.py): start-up time
    from ..lang import nodes as attrs

from ..lang import ast as A
from .context import Ctx
from .exprs import _ATTR_TABLES, Exprs, where_left
from .writer import INDENT, INNER, CodeWriter, Frame, Hoist, Local

# the built-in functions of zones and values that read nothing but their arguments (and,
# for `covered`, the places that cover one): `zone_reads`
_ZONE_FUNCS = frozenset(("size", "count", "cards", "min", "max", "abs", "sum", "first",
                         "last", "rest", "reverse", "sorted", "distance", "covered"))
INLINE_DEPTH = 12  # deeper than this, a def is called
INLINE_BUDGET = 50_000  # expressions inlined in all, after which defs are called
UNROLL_VALUES = 8  # a parameter over at most this many constants is unrolled...
UNROLL_COPIES = 64  # ...while a generator has at most this many copies of its innermost level
TABLE_SPAN = 64  # the widest constant range a def table covers
TABLE_LITERALS = 8  # up to this many entries, a table is written out entry by entry
TABLE_CELLS = 10_000  # the most entries of a table of a def of several cards (53 x 53 fit)


@attrs.frozen
class _Arg:
    """What lowering one def argument read and emitted."""

    level: int  # the deepest loop level it reads (-1: none)
    unsafe: bool  # it calls a helper that may raise or change the state
    walrus: int  # assignment expressions in it


class Optimizing(Exprs):
    """Expression lowering that inlines defs, hoists and tabulates."""

    def __init__(self, cx: Ctx) -> None:
        super().__init__(cx)
        self.budget = INLINE_BUDGET  # for the whole module: a def used in many defs is called
        self._flat_defs: dict[str, bool] = {}
        self._folding: set[str] = set()  # defs being unfolded by const_truth
        # tables of a value of a card over the deck (card_table): key -> name, and the
        # module-level lines that fill them (module.py appends them after the functions)
        self._card_tables: dict[Any, str] = {}
        self.module_lines: list[str] = []
        self._tabulating = False  # lowering a table's entry: no tables inside it
        # argmax (`arg_best`): the id of a `max`/`min` a `let` binds -> the `first` whose
        # answer its loop computes too; and, once it has, the `first`'s id -> that answer
        self._argbest: dict[int, A.Quant] = {}
        self._argbest_done: dict[int, str] = {}
        self._memos = 0  # shared values remembered across calls (`remembered`)

    def local_code(self, loc: Local, fr: Frame) -> str:
        h = fr.hoist
        if h is not None:
            if loc.level is None and isinstance(h, _Hoist):
                # bound inside an expression: a quantifier that holds the binding may still
                # move; one that reads it from outside may not
                for att in h.attempts:
                    if loc.code in att.outside:
                        att.blocked = True
            h.read(loc.level)
        return loc.code

    def quant(self, e: A.Quant, fr: Frame) -> str:
        h = fr.hoist
        if (not isinstance(h, _Hoist) or (h.cur == 0 and h.share is None)
                or e.kind == "random"):
            return self.deck_quant(e, fr) or super().quant(e, fr)
        # (at level 0, a generator's quantifier outside any loop: shared with the other
        # generators of its decision that compute it, `Sharing`: Crazy Eights' `draw`
        # and `pass_turn` test `not can_play(me)` once a decision)
        try:  # equal quantifiers at one level share one variable
            key: Any = ("quant", value_key(self.cx, e, {**fr.env, e.var: Local(e.var)}))
        except KeyError:  # a name bound inside it (a nested quantifier, a let): no sharing
            key = ("quant", self.cx.names.tmp("k"))
        return self.hoisted(h, fr, key, lambda: self.deck_quant(e, fr)
                            or super(Optimizing, self).quant(e, fr), True, expr=e)

    # ------------------------------------------------------------ values of a card
    def card_pure(self, e: A.Expr, names: frozenset[str],
                  seen: frozenset[str] = frozenset()) -> bool:
        """Is e a value of the cards named `names` alone, the same whatever the state: their
        attributes (not `face_up`), constants and options, arithmetic without division,
        comparisons of numbers, `and`/`or`/`not`/`if`, lets and defs of such? Such a value
        of one card can be computed for every card of the deck once (card_table). It cannot
        fail for a card, and it changes nothing."""
        cx = self.cx
        if isinstance(e, (A.Int, A.Bool)):
            return True
        if isinstance(e, A.Name):
            ref = cx.ref(e)
            if ref.kind == "constant":
                return isinstance(ref.value, (bool, int))
            return e.name in names and (ref.is_local or ref.kind == "def_param")
        if isinstance(e, A.Attr):
            return (e.name != "face_up" and isinstance(e.obj, A.Name)
                    and cx.type_of(e.obj) == "card" and self.card_pure(e.obj, names, seen))
        if isinstance(e, A.Unary):
            return e.op in ("not", "-") and self.card_pure(e.operand, names, seen)
        if isinstance(e, A.Binary):
            if e.op in ("and", "or", "+", "-", "*"):
                pass
            elif e.op in ("==", "!=", "<", "<=", ">", ">="):
                lt, rt = cx.type_of(e.left), cx.type_of(e.right)
                if lt != rt or (e.op not in ("==", "!=") and lt != "int") or lt in (
                        "card", "zone", "any") or lt.startswith("list"):
                    return False  # (numbers; suits, colours... by equality)
            else:
                return False
            return self.card_pure(e.left, names, seen) and self.card_pure(e.right, names, seen)
        if isinstance(e, A.IfExpr):
            return all(self.card_pure(x, names, seen) for x in (e.cond, e.then, e.else_))
        if isinstance(e, A.Let):
            return (self.card_pure(e.value, names, seen)
                    and self.card_pure(e.body, names | {e.name}, seen))
        if isinstance(e, A.Call):
            d = cx.callee(e)
            if d is None and e.func in ("abs", "distance") and cx.ref(e).kind == "builtin":
                # |x|, and the steps around a cycle of a positive constant: cannot fail
                n = cx.const_int(e.args[2]) if e.func == "distance" else 1
                return (n is not None and n > 0
                        and all(self.card_pure(a, names, seen) for a in e.args))
            if d is None or d.name in seen or not all(self.card_pure(a, names, seen)
                                                     for a in e.args):
                return False
            return self.card_pure(d.body, frozenset(p.name for p in d.params), seen | {d.name})
        return False

    def card_table(self, e: A.Expr, var: str, fr: Frame, kind: str = "values") -> str | None:
        """The name of a table, filled when the module is loaded, of e (a value of the card
        `var` alone: card_pure) for every card of the deck: `kind` "values" (a tuple
        indexed by the card), "true" or "false" (the frozenset of the cards for which e is
        true, false). None where e is not such a value, or its code might fail or draw."""
        cx = self.cx
        if self._tabulating or not self.card_pure(e, frozenset((var,))):
            return None
        env = {n: loc for n, loc in fr.env.items() if n != var}
        try:
            key = (kind, value_key(cx, e, {**env, var: Local("_i")}))
        except KeyError:
            return None
        if key in self._card_tables:
            return self._card_tables[key]
        code = self.table_code(e, {var: Local("_i")}, fr.rule)
        if code is None:
            return None
        n = len(cx.g.cards)
        name = cx.names.tmp("P")
        if kind == "values":
            fill = f"tuple([{code} for _i in range({n})])"
        else:
            fill = (f"frozenset([_i for _i in range({n}) if "
                    f"{'' if kind == 'true' else 'not '}{code}])")
        self.module_lines.append(f"{name} = {fill}")
        self._card_tables[key] = name
        return name

    def table_code(self, e: A.Expr, env: dict[str, Local], rule: str) -> str | None:
        """The code of e for a table filled when the module loads (its names bound by
        `env`), or None where that code might fail, change anything or draw (the counts
        of such calls are left as they were)."""
        names = self.cx.names
        unsafe, impure, draws, walrus = names.unsafe, names.impure, names.draws, names.walrus
        self._tabulating = True
        try:
            code = self.expr(e, Frame(env, rule))
        finally:
            self._tabulating = False
        failing = (names.unsafe, names.impure, names.draws) != (unsafe, impure, draws)
        names.unsafe, names.impure, names.draws, names.walrus = unsafe, impure, draws, walrus
        return None if failing else code

    def deck_quant(self, e: A.Quant, fr: Frame) -> str | None:
        """A quantifier over a zone whose test and value read only its card (card_pure):
        `any c in hand[p]: two_of_clubs(c)` as `not S.isdisjoint(s[Z])`, S the cards for
        which the test holds (computed once for the deck); `all` as the cards for which it
        fails are disjoint from Z; `first` as the first card of Z in S; `count`, `sum` as
        the sum of a table over Z. The same values (the test cannot fail, nor change
        anything, so neither stopping early nor not does); the same charge to the step
        budget as the generator."""
        cx = self.cx
        k = e.kind
        if k not in ("any", "all", "first", "count", "sum") or cx.type_of(e.source) != "zone":
            return None
        where, body = e.where, e.body
        if k == "all" and body is None:  # `all x in Z where P`: P is the test
            where, body = None, where
        test: A.Expr | None
        if k in ("any", "count"):  # the cards for which the where and the body hold
            test = (A.Binary(op="and", left=where, right=body, span=e.span)
                    if where is not None and body is not None else where or body)
        elif k == "all":  # (`all x in Z where W: B` is left as it is)
            test = body if where is None else None
        elif k == "first":
            test = where if body is None else None
        else:  # sum
            test = body if where is None and cx.type_of(e) == "int" else None
        if test is None:
            return None
        kind = {"any": "true", "all": "false", "first": "true"}.get(k, "values")
        table = self.card_table(test, e.var, fr, kind)
        if table is None:
            return None
        walrus = cx.names.walrus
        src = f"s[{self.expr(e.source, fr)}]"
        src = self.charge(src, e.source, (e.where, e.body), e.span, fr)
        if k == "first" and cx.names.walrus != walrus:
            # (an assignment expression may not stand in a comprehension's iterable)
            pending = cx.names.tmp("s")
            var = cx.names.tmp("q")
            return self.bind(pending, src, f"next(({var} for {var} in {pending} "
                                           f"if {var} in {table}), None)")
        if k == "any":
            return f"(not {table}.isdisjoint({src}))"
        if k == "all":
            return f"{table}.isdisjoint({src})"
        if k == "first":
            var = self.cx.names.tmp("q")
            return f"next(({var} for {var} in {src} if {var} in {table}), None)"
        return f"sum(map({table}.__getitem__, {src}))"

    def invariant(self, h: _Hoist, fr: Frame, kind: str, e: A.Expr,
                  lower: Callable[[Any, Frame], str]) -> str:
        """`e`, a value that reads no value of the loop being compiled: computed once,
        before the loop, when it cannot fail; in place when a name bound inside it stops
        it being keyed (`lower` is the plain compilation of `e`)."""
        try:
            key: Any = (kind, value_key(self.cx, e, fr.env))
        except KeyError:  # a name bound inside the expression: in place
            return lower(e, fr)
        return self.hoisted(h, fr, key, lambda: lower(e, fr), lazy=False)

    def hoisted(self, h: _Hoist, fr: Frame, key: Any, lower: Callable[[], str],
                costly: bool = False, lazy: bool = True, expr: A.Expr | None = None) -> str:
        """The code of `lower()` (a quantifier, a def without parameters), computed once
        at the outermost loop level whose values it reads when that is outside the loop
        being compiled, and in place when it reads this loop's values or changes the state.
        A costly one (a loop over values) that runs only on a condition (after `or`, in an
        `if`'s arm: `not first_trick or (all d in hand[me]: ...)`) is computed the first
        time it is reached, as one that may fail is: not at all when never needed."""
        names = self.cx.names
        att = _Attempt({loc.code for loc in fr.env.values() if loc.level is None})
        unsafe, impure, walrus = names.unsafe, names.impure, names.walrus
        draws, memos = names.draws, self._memos
        h.attempts.append(att)
        try:
            code = lower()
        finally:
            h.attempts.pop()
        level = max(att.level, 0)
        share = h.share if isinstance(h, _Hoist) else None
        if (share is not None and costly and level == 0 and not att.blocked
                and names.impure == impure and not code.isidentifier()):
            # a value of the state alone that loops: shared by the decision's generators
            if share.keys is None:
                share.seen[key] = share.seen.get(key, 0) + 1
            elif key in share.keys:
                var = share.names.get(key)
                if var is None:
                    var = share.names[key] = names.tmp("v")
                share.used.add(var)
                if expr is not None and names.draws == draws and self._memos == memos:
                    code = self.remembered(var, expr, code)
                once = f"({var} if {var} is not ... else ({var} := {code}))"
                if h.cur > 0 and names.unsafe == unsafe and not (costly and h.conditional):
                    names.walrus = walrus  # (a statement before the loops)
                    return h.hoist(0, ("shared",) + key, once, names)
                names.walrus += 1
                return once
        if att.blocked or level >= h.cur or names.impure != impure or code.isidentifier():
            # it reads this loop's parameter, or changes the state: in place; or it is a
            # name already (a variable hoisted inside it: `led` of `(bottom of trick).suit`)
            return code
        if names.unsafe == unsafe and not (costly and h.conditional):
            names.walrus = walrus  # its code is no longer in place
            return h.hoist(level, key, code, names)
        if not lazy:  # a cheap value that may fail: in place, not remembered
            return code
        # it may fail: evaluated where it stands, the first time only
        var = h.hoist(level, ("once",) + key, "...", names)
        names.walrus += 1
        return f"({var} if {var} is not ... else ({var} := {code}))"

    def remembered(self, var: str, e: A.Expr, code: str) -> str:
        """A decision's shared value (`Sharing`: Pyramid's `free` cards) that is a value of
        some zones alone (`zone_reads`), computed without a draw from the step budget:
        remembered with those zones' tuples, module-wide (the last one computed, in a
        cell `M{var}` replaced whole, so threads see one pair or the other), and given
        again while they hold the same cards. The walks' shadow world and the walk's own
        next step list the legal moves of states whose pyramid is the same; a random
        playout's step that draws from the stock leaves it alone. Equal zones give an
        equal value (it reads nothing else, and changes nothing); one that fails is not
        remembered, so it fails again where it stood; and no budget is skipped. A value
        computed inside one remembered is not remembered again (the outer is, once). Not
        a value of one zone (Scopa's ranks of the table's cards): the key's test costs
        about what the value does, and its zone changes at most moves (measured: no
        faster)."""
        slots = self.zone_reads(e, frozenset())
        if slots is None or len(slots) < 2:
            return code
        cx = self.cx
        names = cx.names
        runs: list[str] = []
        ordered = sorted(slots)
        i = 0
        while i < len(ordered):  # contiguous slots as one slice (a zone array)
            j = i
            while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
                j += 1
            runs.append(f"s[{ordered[i]}:{ordered[j] + 1}]" if j > i else f"s[{ordered[i]}]")
            i = j + 1
        key = runs[0] if len(runs) == 1 and ":" in runs[0] else "(" + ", ".join(runs) + ",)"
        cell = f"M{var}"
        line = f"{cell} = [(None, None)]"
        if line not in self.module_lines:
            self.module_lines.append(line)
        was, now = names.tmp("e"), names.tmp("k")
        names.walrus += 2
        self._memos += 1
        return (f"({was}[1] if ({was} := {cell}[0])[0] == ({now} := {key}) "
                f"else {cx.helper('_remember')}({cell}, {now}, {code}))")

    def zone_reads(self, e: A.Expr | None, bound: frozenset[str],
                   seen: frozenset[str] = frozenset()) -> set[int] | None:
        """The zone slots e reads, where its value is one of those zones' cards alone: it
        names zones (an array: all its zones), constants, the cards' attributes but
        `face_up`, `covered` (every place that covers one), names bound inside it, and
        defs of such (their parameters bound to such). None where it reads anything else
        (a variable, `me`, a parameter, the faces, the moves, chance) or has a form this
        does not know: then the same zones may give another value."""
        cx = self.cx
        out: set[int] = set()

        def zone_slots(name: str) -> range:
            z = cx.g.zones[name]
            base = cx.layout.zone_base[name]
            return range(base, base + (1 if z.dim is None else z.dim[1]))

        def ok(n: A.Expr | None, bound: frozenset[str], seen: frozenset[str]) -> bool:
            if n is None or isinstance(n, (A.Int, A.Bool, A.NoneLit, A.Players)):
                return True
            if isinstance(n, A.Name):
                if n.name in bound:
                    return True
                ref = cx.ref(n)
                if ref.kind == "constant" or (ref.kind == "builtin"
                                              and n.name in ("suits", "colors")):
                    return True
                if ref.kind in ("zone", "zone_array") and not ref.is_local:
                    out.update(zone_slots(ref.name))
                    return True
                if ref.kind == "def" and ref.decl.name not in seen and not ref.decl.params:
                    return ok(ref.decl.body, frozenset(), seen | {ref.decl.name})
                return False
            if isinstance(n, A.Attr):
                return (n.name != "face_up" and cx.type_of(n.obj) == "card"
                        and ok(n.obj, bound, seen))
            if isinstance(n, (A.Unary, A.IsEmpty)):
                return ok(n.operand, bound, seen)
            if isinstance(n, A.Binary):
                return ok(n.left, bound, seen) and ok(n.right, bound, seen)
            if isinstance(n, A.IfExpr):
                return all(ok(x, bound, seen) for x in (n.cond, n.then, n.else_))
            if isinstance(n, A.Let):
                return ok(n.value, bound, seen) and ok(n.body, bound | {n.name}, seen)
            if isinstance(n, A.Quant):
                inner = bound | {n.var}
                return (n.kind != "random" and ok(n.source, bound, seen)
                        and ok(n.where, inner, seen) and ok(n.body, inner, seen))
            if isinstance(n, A.ListLit):
                return all(ok(x, bound, seen) for x in n.items)
            if isinstance(n, A.Index):
                return ok(n.obj, bound, seen) and ok(n.index, bound, seen)
            if isinstance(n, A.TopN):
                return ok(n.count, bound, seen) and ok(n.zone, bound, seen)
            if isinstance(n, A.Call):
                if not all(ok(a, bound, seen) for a in n.args):
                    return False
                d = cx.callee(n)
                if d is not None:
                    return d.name not in seen and ok(
                        d.body, frozenset(p.name for p in d.params), seen | {d.name})
                if cx.ref(n).kind != "builtin" or n.func not in _ZONE_FUNCS:
                    return False
                if n.func == "covered":  # (the places that cover any place)
                    out.update(c for cover in cx.layout.covers for c in cover)
                return True
            return False

        return out if ok(e, bound, seen) else None

    def turned(self, faces: int, fr: Frame) -> str:
        """In a loop (a legal-move generator's parameter loops, a quantifier's loop of
        statements), the cards turned as a set made once before the outermost loop:
        the state cannot change there, and each card's face is then one lookup, not a
        search of the tuple (Klondike: every face-up card of every column, each step)."""
        h = fr.hoist
        if not isinstance(h, _Hoist) or h.cur == 0:
            return super().turned(faces, fr)
        while h.outer is not None:
            h = h.outer
        return h.hoist(0, ("turned",), f"{self.cx.helper('_turned')}(s[{faces}])",
                       self.cx.names)

    def index(self, e: A.Index, fr: Frame) -> str:
        h = fr.hoist
        if (isinstance(h, _Hoist) and h.cur > 0 and isinstance(e.obj, A.Name)
                and self.cx.ref(e.obj).kind == "var_array"
                and self.cx.ref(e.obj).decl.type != "zone"):  # (zone_read: in place)
            kind, size = self.cx.dim(self.cx.ref(e.obj))
            if not self.safe_index(e.index, kind, size, fr):
                # an element read through a checked index (`tricks[w]`): like a
                # quantifier, computed once at the level whose values it reads
                try:
                    key: Any = ("index", value_key(self.cx, e, fr.env))
                except KeyError:  # a name bound inside the expression: in place
                    return self.first_of_checked_zone(e, fr)
                return self.hoisted(h, fr, key, lambda: super(Optimizing, self).index(e, fr))
        return self.first_of_checked_zone(e, fr)

    def def_call(self, d: A.DefDecl, arg_exprs: tuple[A.Expr, ...], fr: Frame,
                 call: A.Call | None = None) -> str:
        h = fr.hoist
        if not arg_exprs and isinstance(h, _Hoist) and (h.cur > 0 or h.share is not None):
            # a def without parameters (Arsène's `led`) is a value of the state: like a
            # quantifier, computed once at the level whose values it reads
            return self.hoisted(h, fr, ("def", d.name),
                                lambda: self.lower_call(d, arg_exprs, fr, call),
                                self.loops(d.body), expr=d.body)
        return self.lower_call(d, arg_exprs, fr, call)

    def lower_call(self, d: A.DefDecl, arg_exprs: tuple[A.Expr, ...], fr: Frame,
                   call: A.Call | None = None) -> str:
        if call is not None:
            table = self.table_call(call, fr)
            if table is not None:
                return table
            card = (self.of_one_card(call, fr) or self.of_cards(call, fr)
                    or self.of_a_rank(call, fr))
            if card is not None:
                return card
        names = self.cx.names
        h = fr.hoist
        args = []
        facts = []
        for a in arg_exprs:
            saved = h.needs if h is not None else -1
            if h is not None:
                h.needs = -1
            unsafe, walrus = names.unsafe, names.walrus
            args.append(self.as_tuple(a, fr))
            level = h.needs if h is not None else INNER
            facts.append(_Arg(level, names.unsafe != unsafe, names.walrus - walrus))
            if h is not None:
                h.needs = max(saved, h.needs)
        return self.inline_def(d, args, fr, arg_exprs, facts)

    def arm_call(self, call: A.Call, arm: A.Expr, fr: Frame) -> str:
        """A call of a def whose body is `if T then A else B`, where unswitching tested T
        before the loops (moves.py): the def inlined with `arm` (A or B) as its body."""
        d = self.cx.callee(call)
        assert d is not None and isinstance(d.body, A.IfExpr)
        return self.lower_call(attrs.evolve(d, body=arm), call.args, fr)

    def of_one_card(self, call: A.Call, fr: Frame) -> str | None:
        """`point_card(c)`, c a card that is certainly one (a quantifier's or a loop's
        variable over a zone, a move parameter) and the def a value of its card alone
        (card_pure; more than one comparison or test): a table of the deck, read at c."""
        cx = self.cx
        args = [a for a in call.args if isinstance(a, A.Name) and cx.type_of(a) == "card"]
        if len(args) != 1:
            return None
        loc = cx.local(args[0], fr.env)
        if loc is None or loc.origin is None:
            return None
        d = cx.callee(call)
        if d is None or sum(isinstance(n, (A.Binary, A.IfExpr, A.Call))
                            for n in A.walk(d.body)) < 2:
            return None  # (a single test reads its table as fast as ours)
        table = self.card_table(call, args[0].name, fr)
        if table is None:
            return None
        return f"{table}[{self.local_code(loc, fr)}]"

    def of_cards(self, call: A.Expr, fr: Frame) -> str | None:
        """`chips_for(top of field[p], top of center)`: a def of two or more cards whose
        value is one of their attributes alone (card_pure; more than one comparison or
        test), called with cards that are certainly cards (a loop's card, the top or
        bottom of a zone, which fails when it is empty): a table of every combination of
        the deck's cards (at most TABLE_CELLS entries), filled when the module is loaded,
        read at the arguments. They are evaluated left to right, as a def's arguments
        are, and the body can neither fail nor change anything."""
        cx = self.cx
        if self._tabulating or not isinstance(call, A.Call):
            return None
        d = cx.callee(call)
        k = len(call.args)
        n = len(cx.g.cards)
        if d is None or k < 2 or len(d.params) != k or n ** k > TABLE_CELLS:
            return None
        if not all(cx.type_of(a) == "card" and self.certain_card(a, fr) for a in call.args):
            return None
        if sum(isinstance(x, (A.Binary, A.IfExpr, A.Call)) for x in A.walk(d.body)) < 2:
            return None
        if not self.card_pure(d.body, frozenset(p.name for p in d.params)):
            return None
        key = ("cells", d.name)
        name = self._card_tables.get(key)
        if name is None:
            code = self.table_code(
                d.body, {p.name: Local(f"_i{j}") for j, p in enumerate(d.params)},
                f"def {d.name}")
            if code is None:
                return None
            name = cx.names.tmp("P")
            loops = " ".join(f"for _i{j} in range({n})" for j in range(k))
            self.module_lines.append(f"{name} = tuple([{code} {loops}])")
            self._card_tables[key] = name
        at = self.expr(call.args[0], fr)
        for a in call.args[1:]:
            at = f"({at}) * {n} + {self.expr(a, fr)}"
        return f"{name}[{at}]"

    def of_a_rank(self, call: A.Call, fr: Frame) -> str | None:
        """`below((top of b).rank)`: a def of one number whose value is that number's alone
        (card_pure: constants, arithmetic without division, comparisons, `if`; more than
        one comparison or test), called with the rank of a card that is certainly one (a
        loop's card, the top or bottom of a zone, which fails when it is empty): a table
        of the def at every card's rank, filled when the module is loaded, read at the
        card. The card is evaluated where the call stood; the body can neither fail nor
        change anything."""
        cx = self.cx
        if self._tabulating or len(call.args) != 1:
            return None
        (a,) = call.args
        d = cx.callee(call)
        if (d is None or len(d.params) != 1 or not isinstance(a, A.Attr) or a.name != "rank"
                or not self.certain_card(a.obj, fr)):
            return None
        if sum(isinstance(x, (A.Binary, A.IfExpr, A.Call)) for x in A.walk(d.body)) < 2:
            return None  # (a single test or sum reads the rank as fast as a table)
        if not self.card_pure(d.body, frozenset((d.params[0].name,))):
            return None
        key = ("rank", d.name)
        name = self._card_tables.get(key)
        if name is None:
            code = self.table_code(d.body, {d.params[0].name: Local("RANK[_i]")},
                                   f"def {d.name}")
            if code is None:
                return None
            name = cx.names.tmp("P")
            self.module_lines.append(
                f"{name} = tuple([{code} for _i in range({len(cx.g.cards)})])")
            self._card_tables[key] = name
        return f"{name}[{self.expr(a.obj, fr)}]"

    def certain_card(self, e: A.Expr, fr: Frame) -> bool:
        """Is e's value certainly a card of the deck (else its evaluation fails)? A loop's
        or a move parameter's card (taken from a zone), the top or bottom of a zone."""
        cx = self.cx
        if isinstance(e, A.Name):
            loc = cx.local(e, fr.env)
            return loc is not None and loc.origin is not None
        return (isinstance(e, A.Unary) and e.op in ("top", "bottom")
                and cx.type_of(e.operand) == "zone")

    def inline_def(self, d: A.DefDecl, args: list[str], fr: Frame,
                   arg_exprs: tuple[A.Expr, ...] = (), facts: list[_Arg] | None = None) -> str:
        if fr.depth + 1 > INLINE_DEPTH or self.budget <= 0:
            return self.call_function(d, args)  # too deep, or too much inlined already
        inner: dict[str, Local] = {}
        binds: list[tuple[str, str]] = []
        h = fr.hoist
        names = self.cx.names
        for i, (p, a, ae) in enumerate(zip(d.params, args, arg_exprs, strict=False)):
            simple = self.simple(ae, fr)
            if h is not None and facts is not None and not simple:
                f = facts[i]
                level = max(f.level, 0)
                if not f.unsafe and level < h.cur:
                    # loop-invariant where it is used: compute it once, at its level
                    var = h.hoist(level, ("arg", value_key(self.cx, ae, fr.env)), a, names)
                    names.walrus -= f.walrus  # its code is no longer in place
                    inner[p.name] = Local(var, self.origin(ae, fr), level=level, hoisted=True)
                    continue
            origin = self.origin(ae, fr)
            loc = self.cx.local(ae, fr.env)
            lo = hi = None
            if loc is not None:
                lo, hi = loc.lo, loc.hi
            elif isinstance(ae, A.Int):
                lo = hi = ae.value
            if isinstance(ae, A.Me) and lo is None:  # a player (as `me` indexes unchecked)
                lo, hi = 1, self.cx.n
            if lo is None and self.certain_player(ae, fr):  # (`trick_winner`, `left of p`)
                lo, hi = 1, self.cx.n
            if simple:
                # a name or a literal is used as it is; a local keeps its level
                inner[p.name] = Local(a, origin, lo, hi, level=loc.level if loc else 0,
                                      hoisted=loc.hoisted if loc else False,
                                      param=loc.param if loc else None,
                                      domain=loc.domain if loc else None)
            elif len(d.params) == 1 and _arithmetic_of_once(d.body, p.name):
                # used once, first: the argument's code in place of a bound variable
                inner[p.name] = Local(f"({a})", origin, lo, hi)
            else:
                var = names.tmp("a")
                binds.append((var, a))
                inner[p.name] = Local(var, origin, lo, hi)
        nodes = names.nodes
        body = self.expr(d.body, attrs.evolve(fr, env=inner, rule=f"def {d.name}",
                                              depth=fr.depth + 1))
        self.budget -= names.nodes - nodes
        for var, a in reversed(binds):
            body = self.bind(var, a, body)
        return body

    # ------------------------------------------------------------ statement position
    def into(self, e: A.Expr, fr: Frame, w: CodeWriter, keep: bool = True) -> str:
        """e where a statement evaluates it, outside the legal-move generators: a quantifier
        (any, all, count, sum, first, min, max) becomes a loop of statements written to w
        (no generator or list to build, `any`/`all`/`first` stop at the answer), a `let`
        an assignment, an inlined def's arguments assignments; an index or a comparison
        whose operand needs statements computes its operands first, in their order. The
        loops draw from the step budget as the expressions do (`charge`). Returns the
        code of the value."""
        h = fr.hoist
        if h is not None and not (isinstance(h, _Hoist) and h.statements and isinstance(
                e, A.Quant) and any(isinstance(n, A.Name) and n.name in fr.env
                                    and fr.env[n.name].level != 0 for n in A.walk(e))):
            # a legal-move generator: expressions; the body of a quantifier's loop: a loop
            # for a quantifier that reads what the loop binds (`all k in 1..size(a): ...`
            # in `all a in column: ...`), else the expression, hoisted out of the loop
            # when it reads nothing of it (`min q in players: ...`)
            return self.as_tuple(e, fr) if keep else self.expr(e, fr)
        if fr.tables is not None or not self.flat(e):
            return self.as_tuple(e, fr) if keep else self.expr(e, fr)
        cx = self.cx
        names = cx.names
        if isinstance(e, A.Let):
            first = self.arg_best(e)
            if first is not None:
                self._argbest[id(e.value)] = first
            v = self.into(e.value, fr, w, keep=False)
            if first is not None:
                self._argbest.pop(id(e.value), None)
                at = self._argbest_done.pop(id(first), None)
                if at is not None:  # the max's loop found the first index too: the let's
                    # body reads it where it would loop again
                    self._pre[id(first)] = at
                    try:
                        return self._let_body(e, v, fr, w, keep)
                    finally:
                        self._pre.pop(id(first), None)
            return self._let_body(e, v, fr, w, keep)
        if isinstance(e, A.Quant):
            pre = self._pre.get(id(e))
            if pre is not None:  # (a `first` an argmax loop answered)
                return pre
            code = self.loop_quant(e, fr, w)
            if code is not None:
                return code
            return self.expr(e, fr)
        d, args = self.callee_of(e)
        if d is not None:
            table = self.of_cards(e, fr)
            if table is not None:
                return table
            if fr.depth + 1 > INLINE_DEPTH or self.budget <= 0:
                return self.as_tuple(e, fr) if keep else self.expr(e, fr)
            env: dict[str, Local] = {}
            for p, ae in zip(d.params, args, strict=False):
                a = self.into(ae, fr, w)
                origin = self.origin(ae, fr)
                if self.simple(ae, fr):
                    loc = cx.local(ae, fr.env)
                    lo = hi = None
                    if loc is not None:
                        lo, hi = loc.lo, loc.hi
                    elif isinstance(ae, A.Int):
                        lo = hi = ae.value
                    if isinstance(ae, A.Me) and lo is None:  # a player, as in inline_def
                        lo, hi = 1, cx.n
                    if lo is None and self.certain_player(ae, fr):
                        lo, hi = 1, cx.n
                    env[p.name] = Local(a, origin, lo, hi, level=loc.level if loc else 0,
                                          hoisted=loc.hoisted if loc else False,
                                          param=loc.param if loc else None,
                                          domain=loc.domain if loc else None)
                else:
                    var = names.tmp("a")
                    w.line(f"{var} = {a}")
                    player = self.certain_player(ae, fr)  # (its value, once computed)
                    env[p.name] = Local(var, origin, 1 if player else None,
                                        cx.n if player else None)
            nodes = names.nodes
            code = self.into(d.body, attrs.evolve(fr, env=env, rule=f"def {d.name}",
                                                  depth=fr.depth + 1), w, keep)
            self.budget -= names.nodes - nodes
            return code
        if isinstance(e, A.Binary) and e.op in ("and", "or"):
            # `a or b`: b's statements run only when a is false, as `or` evaluates it
            if self.const_truth(e.left) is not None:  # `false or b`, `true and b`: b
                return self.into(e.right, fr, w, keep=False)
            r = names.tmp("c")
            w.line(f"{r} = {self.into(e.left, fr, w, keep=False)}")
            w.line(f"if {'not ' if e.op == 'or' else ''}{r}:")
            with w.indented():
                w.line(f"{r} = {self.into(e.right, fr, w, keep=False)}")
            return r
        ops = _operands(cx, e)
        last = max(i for i, o in enumerate(ops) if self.flat(o))
        bound = []
        for o in ops[:last + 1]:
            code = self.into(o, fr, w, keep=False)
            if not code.isidentifier() and not code.lstrip("-").isdigit():
                var = names.tmp("o")
                w.line(f"{var} = {code}")
                code = var
            self._pre[id(o)] = code
            bound.append(id(o))
        try:
            return self.as_tuple(e, fr) if keep else self.expr(e, fr)
        finally:
            for k in bound:
                del self._pre[k]

    def _let_body(self, e: A.Let, v: str, fr: Frame, w: CodeWriter, keep: bool) -> str:
        """A `let`'s body, its name bound to the code `v` of its value (`into`)."""
        cx = self.cx
        if v.startswith("_") and v.isidentifier():
            var = v  # a temporary the statements just computed: the let's name for it
        else:
            var = cx.names.tmp("l")
            w.line(f"{var} = {v}")
        if cx.type_of(e.value) == "int":
            self._let_ranges[var] = self.range_of(e.value, fr)  # for `fits` in its body
        inner = fr.scope()
        inner.env[e.name] = Local(var, self.origin(e.value, fr))
        return self.into(e.body, inner, w, keep)

    def arg_best(self, e: A.Let) -> A.Quant | None:
        """Argmax: in `let best = (max c in Z where W: F) in ...[first i in 1..size(Z)
        where W' and F' == best]` (W', F': W, F of Z[i]; `where W` optional; `min` alike),
        the `first` the max's own loop can answer, counting its cards: the first index whose
        card passes W and whose F is the maximum is the one where the loop's strict `>`
        last raised it (F a number: equal is neither more nor less). The `first` must stand
        in the let's body outside any other binding (so its names mean what the max's do),
        F and W read neither `i` nor `best`, and the max must be the loop of a short
        source with a leaf body (`loop_quant`: no quantifier, so no random draw, inside).
        None: no such `first`."""
        q = e.value
        cx = self.cx
        if not (isinstance(q, A.Quant) and q.kind in ("max", "min") and q.body is not None
                and cx.type_of(q.source) == "zone" and cx.type_of(q.body) == "int"):
            return None
        inner = tuple(n for n in A.walk((q.where, q.body)))
        if any(isinstance(n, A.Let) for n in inner):
            return None  # (no binding to rename around: Z[i] put in place of c stays itself)
        read = {n.name for n in A.walk((q.source, q.where, q.body)) if isinstance(n, A.Name)}
        for cand in _unbound_quants(e.body):
            src = cand.source
            if (cand.kind != "first" or cand.body is not None or cand.where is None
                    or cand.var in read or e.name in read or cand.var == q.var
                    or not (isinstance(src, A.Binary) and src.op == ".."
                            and src.left == A.Int(1) and isinstance(src.right, A.Call)
                            and src.right.func == "size" and src.right.args == (q.source,)
                            and cx.callee(src.right) is None)):
                continue
            at = A.Index(q.source, A.Name(cand.var))
            f = _subst(q.body, q.var, at)
            best = A.Name(e.name)
            for test in (A.Binary("==", f, best), A.Binary("==", best, f)):
                want = test if q.where is None else A.Binary(
                    "and", _subst(q.where, q.var, at), test)
                if cand.where == want:
                    return cand
        return None

    def callee_of(self, e: A.Expr) -> tuple[A.DefDecl | None, tuple[A.Expr, ...]]:
        """The def a name or a call calls, and its arguments."""
        if isinstance(e, A.Name) and self.cx.ref(e).kind == "def":
            return self.cx.ref(e).decl, ()
        if isinstance(e, A.Call):
            d = self.cx.callee(e)
            if d is not None:
                return d, e.args
        return None, ()

    def flat(self, e: A.Expr) -> bool:
        """Would `into` write statements for e? (A `let`, a quantifier it loops, reached
        through defs, indexes, comparisons, `not` and `-`.)"""
        if isinstance(e, A.Let):
            return True
        if isinstance(e, A.Quant):
            return e.kind in _LOOPED
        d, args = self.callee_of(e)
        if d is not None:
            if d.name not in self._flat_defs:
                self._flat_defs[d.name] = False  # defs do not recurse; this is a guard
                self._flat_defs[d.name] = self.flat(d.body)
            return self._flat_defs[d.name] or any(self.flat(a) for a in args)
        if isinstance(e, A.Binary) and e.op in ("and", "or"):
            return self.const_truth(e) is None and (self.flat(e.left) or self.flat(e.right))
        return any(self.flat(o) for o in _operands(self.cx, e))

    def binary(self, e: A.Binary, fr: Frame) -> str:
        if e.op in ("and", "or") or e.op in _COMPARE:
            v = self.const_truth(e)
            if v is not None:  # `has_dummy and ...` with 4 players: False
                return "True" if v else "False"
        if e.op in ("and", "or") and self.const_truth(e.left) == (e.op == "and"):
            # `queen_breaks and is_queen(c)` with the option on: the right operand, the
            # value `and`/`or` gives then
            return self.expr(e.right, fr)
        h = fr.hoist
        if (isinstance(h, _Hoist) and h.cur > 0 and e.op in ("+", "-", "*")
                and self.cx.type_of(e) == "int" and self.cx.const_int(e) is None):
            # arithmetic that reads no value of this loop (`(top of work).rank - 1`)
            return self.invariant(h, fr, "arith", e, super().binary)
        return super().binary(e, fr)

    def const_truth(self, e: A.Expr) -> bool | None:
        """The truth of a test known when compiling (constants, defs of constants, and
        `and`/`or` whose first operand decides), else None."""
        cx = self.cx
        if isinstance(e, A.Bool):
            return e.value
        if isinstance(e, A.Name):  # an option or a constant that is a truth value
            ref = cx.ref(e)
            if ref.kind == "constant" and isinstance(ref.value, bool):
                return ref.value
        d, args = self.callee_of(e)
        if d is not None:
            if d.name in self._folding or not all(self.simple(a, None) for a in args):
                # (an argument that may fail is evaluated first: no folding it away)
                return None
            self._folding.add(d.name)
            try:
                return self.const_truth(d.body)
            finally:
                self._folding.discard(d.name)
        if isinstance(e, A.Unary) and e.op == "not":
            v = self.const_truth(e.operand)
            return None if v is None else not v
        if isinstance(e, A.Binary):
            if e.op in ("and", "or"):
                t = self.const_truth(e.left)
                if t is None or t == (e.op == "or"):
                    return t
                return self.const_truth(e.right)
            if e.op in _COMPARE and cx.type_of(e.left) == "int" == cx.type_of(e.right):
                a, b = cx.const_int(e.left), cx.const_int(e.right)
                if a is None or b is None:
                    return None
                return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b,
                        ">=": a >= b}[e.op]
        return None

    def loop_quant(self, e: A.Quant, fr: Frame, w: CodeWriter) -> str | None:
        """A quantifier as a loop of statements (None: not this one). Its values are
        charged to the step budget as the expression charges them; `min`/`max` only
        over a short list with a leaf body (the expression's helper charges the values
        again, which a loop over at most SHORT values need not)."""
        cx = self.cx
        k = e.kind
        if k not in _LOOPED or (k in ("first", "random") and e.body is not None):
            return None
        if k == "random" and e.where is None:  # nothing to hoist: the expression's list
            return None
        deck = self.deck_quant(e, fr)  # a test of its card alone: a set, no loop
        if deck is not None:
            return deck
        if k == "all" and fr.hoist is None:
            bound = self.all_pairs(e, fr, w)
            if bound is not None:
                return bound
        if k in ("any", "all", "sum") and fr.hoist is None:  # (a few zones, players: a term each)
            probe = fr.scope()
            probe.env[e.var] = Local("_", None, *cx.loop_range(e.source), certain=True)
            written = self.zones_written_out(
                e, self.short(e.source, fr) and self.leaf((e.where, e.body)), probe)
            if written is not None:
                return written
        if k == "count" and e.where is None and e.body is None:
            return None
        if k == "sum" and cx.type_of(e) != "int":
            return None
        if k in ("min", "max") and not (self.short(e.source, fr) and self.leaf((e.where, e.body))):
            return None
        names = cx.names
        # argmax: the `first` index this max also finds (arg_best), counted in `pos`
        first = self._argbest.pop(id(e), None) if k in ("min", "max") else None
        pos = at = None
        if first is not None:
            pos, at = names.tmp("n"), names.tmp("i")
        st = cx.type_of(e.source)
        src = self.expr(e.source, fr)
        origin = None
        if st == "zone":
            origin = src
            src = f"s[{src}]"
        var = names.tmp("q")
        # The loop body is lowered as a legal-move generator's inner level is: what it
        # computes that reads neither the loop's variable nor anything bound inside it is
        # hoisted before the loop (at once if it cannot fail, else the first time it is
        # reached: `tricks[w]` in `first q in ... where tricks[q] == tricks[w]`). The
        # names bound by statements around it hold still while it runs: level 0.
        h = _Hoist(statements=True)  # (a quantifier in its body: a loop in this one)
        if isinstance(fr.hoist, _Hoist) and fr.hoist.statements:
            h.outer = fr.hoist
        h.enter(0)
        h.enter(1)
        h.cur = 1
        env = {n: attrs.evolve(loc, level=0) if loc.level is None else loc
               for n, loc in fr.env.items()}
        inner = attrs.evolve(fr, env=env, hoist=h)
        lo, hi = cx.loop_range(e.source)
        inner.env[e.var] = Local(var, origin, lo, hi, level=1,
                                 positions=self.positions(e.source, fr), certain=True)
        src = self.charge(src, e.source, (e.where, e.body), e.span, fr)
        r = names.tmp("r")
        where, body = e.where, e.body
        if k == "all" and body is None:  # `all x in L where P`: P is the test
            where, body = None, where
        out = w
        w = CodeWriter(out.ind + INDENT)
        if pos is not None:
            w.line(f"{pos} += 1")
        if where is not None:
            for test in where_left(e, True):  # (less a conjunct the sets' sum guarantees)
                w.line(f"if not {self.into(test, inner, w, keep=False)}: continue")
        drew = (names.draws, names.impure)
        b = self.into(body, inner, w) if body is not None else None
        if (k in ("any", "all") and e.where is None and b is not None and not w.lines
                and not h.levels[0].lines and (names.draws, names.impure) == drew
                and not re.search(rf"\b{var}\b", b)):
            return None  # a test that reads nothing of the value: the expression's, once
        if k == "any":
            w.line(f"if {b}:" if b is not None else "if True:")
            w.line(f"    {r} = True")
            w.line("    break")
        elif k == "all":
            w.line(f"if not {b}:")
            w.line(f"    {r} = False")
            w.line("    break")
        elif k == "count":
            w.line(f"if {b}: {r} += 1" if b is not None else f"{r} += 1")
        elif k == "sum":
            w.line(f"{r} += {b if b is not None else var}")
        elif k == "first":
            w.line(f"{r} = {var}")
            w.line("break")
        elif k == "random":  # the values kept, then one drawn (after the loop: it draws)
            w.line(f"{r}.append({var})")
        else:
            v = b if b is not None else var
            if not v.isidentifier():
                t = names.tmp("b")
                w.line(f"{t} = {v}")
                v = t
            more = f"if {r} is None or {v} {'>' if k == 'max' else '<'} {r}: {r} = {v}"
            w.line(more if at is None else f"{more}; {at} = {pos}")
        body_lines = w.lines
        w = out
        for v, c in h.levels[0].lines:
            w.line(f"{v} = {c}")
        w.line(f"{r} = {_INIT[k]}")
        if first is not None:
            w.line(f"{pos} = 0")
            w.line(f"{at} = None")
            self._argbest_done[id(first)] = str(at)
        w.line(f"for {var} in {src}:")
        w.lines += body_lines
        if k in ("min", "max"):  # over nothing: the expression's error
            w.line(f"if {r} is None: {cx.helper('_' + k)}((), {self.sid(e.span, fr)}, "
                   f"{self.sid(e.source.span, fr)}, {e.where is not None})")
        if k == "random":
            w.line(f"{r} = {cx.helper('_pick')}(s, {r}, {self.sid(e.span, fr)}, "
                   f"{self.sid(e.source.span, fr)}, {e.where is not None})")
        return r

    def all_pairs(self, e: A.Quant, fr: Frame, w: CodeWriter) -> str | None:
        """`all p in X: all q in Y: A op B` (op one of < <= > >=, numbers), A reading
        q nowhere, B reading p nowhere, Y not reading p (Hearts' and Oh Hell's even
        hands: `size(hand[p]) <= size(hand[q]) + 1`): A op B for every pair is A op the
        least B (greatest, for > and >=) for every p, so one loop finds that bound, the
        first time a p needs it, and another tests each p against it: 2n values, not n².
        Y empty: every inner `all` holds, so the whole does. Only where A and B can
        neither fail nor change anything nor draw (so which of them are evaluated, and
        in what order, changes no result or error); X and Y are evaluated, and charged
        to the step budget, in their order, X first and Y when the first p needs it,
        as the nested loops do (Y once, not once per p: a charge less, as hoisting
        makes). None: not such a quantifier (no statements written)."""
        cx = self.cx
        inner = _all_test(e)
        if not isinstance(inner, A.Quant) or inner.var == e.var:
            return None
        test = _all_test(inner)
        if not (isinstance(test, A.Binary) and test.op in ("<", "<=", ">", ">=")
                and cx.type_of(test.left) == "int" == cx.type_of(test.right)):
            return None

        def binds(x: A.Expr) -> bool:
            return any((isinstance(n, A.Quant) and n.var in (e.var, inner.var))
                       or (isinstance(n, A.Let) and n.name in (e.var, inner.var))
                       for n in A.walk(x))

        if binds(test) or binds(inner.source) or A.reads_name(inner.source, e.var):
            return None
        loops = ((e.var, e.source), (inner.var, inner.source))
        counted = {v for v, src in loops if isinstance(src, A.Binary) and src.op == ".."}
        seats = {v for v, src in loops if isinstance(src, A.Players)}
        zones = set(cx.g.zones)
        if not all(_never_none(x, counted, seats, zones) for x in (test.left, test.right)):
            # (a none compared fails in the loops; the least B found over all of Y
            # would fail, or skip a none, where the loops stop earlier: the review's
            # `first i in 1..4 where ...` on one side)
            return None
        p_side, q_side, op = test.left, test.right, test.op
        if A.reads_name(p_side, inner.var) or A.reads_name(q_side, e.var):
            p_side, q_side = q_side, p_side
            op = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
            if A.reads_name(p_side, inner.var) or A.reads_name(q_side, e.var):
                return None
        names = cx.names
        saved = (names.unsafe, names.impure, names.draws, names.walrus)
        pv, qv = names.tmp("q"), names.tmp("q")
        # (X and Y: evaluated once each, as the nested loops evaluate them once for X and
        # once for each p for Y, a value of the state that cannot change meanwhile: they
        # may fail, where the loops fail, but neither draw nor change anything)
        ps, qs = cx.type_of(e.source), cx.type_of(inner.source)
        env_p, env_q = dict(fr.env), dict(fr.env)
        p_origin = q_origin = None
        x_src, y_src = self.expr(e.source, fr), self.expr(inner.source, fr)
        if ps == "zone":
            p_origin, x_src = x_src, f"s[{x_src}]"
        if qs == "zone":
            q_origin, y_src = y_src, f"s[{y_src}]"
        lo, hi = cx.loop_range(e.source)
        env_p[e.var] = Local(pv, p_origin, lo, hi, positions=self.positions(e.source, fr),
                             certain=True)
        lo, hi = cx.loop_range(inner.source)
        env_q[inner.var] = Local(qv, q_origin, lo, hi,
                                 positions=self.positions(inner.source, fr), certain=True)
        checked = (names.unsafe, names.impure, names.draws)
        a = self.expr(p_side, attrs.evolve(fr, env=env_p))
        b = self.expr(q_side, attrs.evolve(fr, env=env_q))
        if ((names.unsafe, names.impure, names.draws) != checked
                or (names.impure, names.draws) != saved[1:3]):
            names.unsafe, names.impure, names.draws, names.walrus = saved
            return None
        x_src = self.charge(x_src, e.source, (e.where, e.body), e.span, fr)
        y_src = self.charge(y_src, inner.source, (inner.where, inner.body), inner.span, fr)
        r, m, v = names.tmp("r"), names.tmp("m"), names.tmp("b")
        better = "<" if op in ("<", "<=") else ">"
        w.line(f"{r} = True")
        w.line(f"{m} = ...")
        w.line(f"for {pv} in {x_src}:")
        with w.indented():
            w.line(f"if {m} is ...:")
            with w.indented():
                w.line(f"{m} = None")
                w.line(f"for {qv} in {y_src}:")
                w.line(f"    {v} = {b}")
                w.line(f"    if {m} is None or {v} {better} {m}: {m} = {v}")
                w.line(f"if {m} is None: break")
            w.line(f"if not ({a} {op} {m}):")
            w.line(f"    {r} = False")
            w.line("    break")
        return r

    def simple(self, e: A.Expr, fr: Frame | None) -> bool:
        """Is e's code a name or a literal, cheap and safe to repeat wherever it is used?"""
        if isinstance(e, (A.Int, A.Bool, A.NoneLit, A.Me, A.Players)):
            return True
        if isinstance(e, A.Name):
            ref = self.cx.ref(e)
            if ref.is_local or ref.kind in ("zone", "zone_array", "var"):
                return True  # a local is always bound to a name or a literal
            if ref.kind == "constant":
                return ref.value is None or isinstance(ref.value, (bool, int))
            return ref.kind == "builtin" and e.name == "moves_played"
        return False

    def table_call(self, e: A.Call, fr: Frame) -> str | None:
        """In a legal-move generator, a def called with one move parameter that ranges over
        constants (and otherwise constants) is evaluated once per value, before the loops,
        instead of once per iteration of the inner loops: `wanted(k)` -> `_T3[u_k]`."""
        tables = fr.tables
        if tables is None:
            return None
        loc = None
        for a in e.args:
            if isinstance(a, A.Int):
                continue
            arg = self.cx.local(a, fr.env)
            if arg is None or arg.param is None or (loc is not None and loc.param != arg.param):
                return None
            loc = arg
        if loc is None or loc.param is None:
            return None
        pname, lo, hi = loc.param
        if hi - lo > TABLE_SPAN:
            return None
        key = (e.func, lo, hi, tuple(a.value if isinstance(a, A.Int) else pname
                                     for a in e.args))
        d = self.cx.callee(e)
        assert d is not None
        if key not in tables:
            names = self.cx.names
            unsafe, walrus = names.unsafe, names.walrus
            plain = attrs.evolve(fr, tables=None, hoist=None)
            if 0 <= lo and hi - lo < TABLE_LITERALS:
                # a few values: one expression each, the parameter a literal that Python
                # folds (`s[8 + 1]` -> `s[9]`), and no comprehension to call
                items = []
                for i in range(lo, hi + 1):
                    items.append(self._table_entry(d, e, plain, Local(str(i), None, i, i)))
                table = "(" + "None, " * lo + "".join(f"{x}, " for x in items) + ")"
            else:
                it = names.tmp("i")
                body = self._table_entry(d, e, plain, Local(it, None, lo, hi))
                pad = f"(None,) * {lo} + " if lo > 0 else ""
                table = f"{pad}tuple([{body} for {it} in range({lo}, {hi + 1})])"
            failing = names.unsafe != unsafe
            names.unsafe, names.walrus = unsafe, walrus  # the entries are not in place
            if failing:
                return None  # evaluated ahead of its guards it could fail: keep it in place
            name = names.tmp("T")
            tables[key] = (name, f"{name} = {table}")
        name = tables[key][0]
        index = self.local_code(loc, fr)
        return f"{name}[{index}]" if lo >= 0 else f"{name}[{index} - {lo}]"

    def _table_entry(self, d: A.DefDecl, e: A.Call, fr: Frame, value: Local) -> str:
        inner = fr.scope()
        for a in e.args:
            if isinstance(a, A.Name):
                inner.env[a.name] = value
        args = [self.as_tuple(a, inner) for a in e.args]
        return self.inline_def(d, args, inner, e.args)

    def attr(self, e: A.Attr, fr: Frame) -> str:
        h = fr.hoist
        if (isinstance(h, _Hoist) and h.cur > 0 and e.name != "face_up"
                and isinstance(e.obj, A.Unary) and e.obj.op in ("top", "bottom")):
            by_zone = self.zone_top_table(e, e.obj, h, fr)
            if by_zone is not None:
                return by_zone
            # an attribute of the top of a zone that reads no value of this loop (`(top of
            # work).rank` where an unswitched test said work is not empty)
            return self.invariant(h, fr, "attr", e, super().attr)
        return super().attr(e, fr)

    def zone_top_table(self, e: A.Attr, top: A.Unary, h: _Hoist, fr: Frame) -> str | None:
        """`(top of b).rank` where b is the parameter of the innermost of two or more
        loops, over the zones of a zone array, and an earlier test of this evaluation said
        b is not empty (`b is empty or (top of b).rank == ...`): the attribute of the top
        card of each non-empty zone of the array, in a list indexed by the zone's slot,
        filled by one loop before the loops (`moves.fill_lines`), read here (`_h[u_b]`),
        rather than `RANK[s[u_b][-1]]` once for each value of the outer loops (FreeCell's
        and Klondike's `shift`: every pair of columns, every step). An attribute of a card
        cannot fail and the state cannot change while the moves are listed; the list
        holds the top of each zone the test allows reading, and is read only where the
        top itself would have been."""
        loc = self.cx.local(top.operand, fr.env)
        if (loc is None or loc.domain is None or loc.level is None or loc.level != h.cur
                or h.cur < 2 or h.statements or h.outer is not None
                or self.cx.type_of(top.operand) != "zone"):
            return None
        guard = h.guards.get(value_key(self.cx, top.operand, fr.env))
        if guard is None:
            return None
        table = _ATTR_TABLES.get(e.name, f"X_{e.name}")
        h.read(guard)
        code = self.local_code(loc, fr)
        fill = h.levels[0].fills.setdefault((loc.domain, -1 if top.op == "top" else 0), {})
        if table not in fill:
            fill[table] = self.cx.names.tmp("h")
        h.read(0)
        return f"{fill[table]}[{code}]"

    def card_attr(self, e: A.Attr, table: str, obj: str, fr: Frame) -> str:
        h = fr.hoist
        loc = self.cx.local(e.obj, fr.env)
        if h is not None and loc is not None and loc.hoisted and loc.level is not None:
            # the card is hoisted: so is its attribute
            return h.hoist(loc.level, ("attr", table, loc.code), f"{table}[{obj}]",
                           self.cx.names)
        if (isinstance(h, _Hoist) and loc is not None and loc.level is not None
                and 0 < loc.level < h.cur and not h.statements and h.outer is None
                and self.cx.type_of(e.obj) == "card"
                and not self.card_may_be_none(e.obj, fr)):
            # a card bound by an outer loop (Klondike's `c in a` of `shift(a, c, b)`): its
            # attribute computed once per card, at the card's level, not for every b
            return h.hoist(loc.level, ("attr", table, loc.code), f"{table}[{obj}]",
                           self.cx.names)
        return super().card_attr(e, table, obj, fr)

    def loops(self, e: A.Expr, seen: frozenset[str] = frozenset()) -> bool:
        """Does evaluating e loop over values (a quantifier, here or in a def it calls)?"""
        for n in A.walk(e):
            if isinstance(n, A.Quant):
                return True
            if isinstance(n, (A.Call, A.Name)):
                d, _ = self.callee_of(n)
                if d is not None and d.name not in seen and self.loops(d.body, seen | {d.name}):
                    return True
        return False

    def chain_start(self, fr: Frame) -> Any:
        h = fr.hoist
        return (dict(h.guards), h.conditional) if h is not None else None

    def chain_fact(self, e: A.Expr, op: str, fr: Frame) -> None:
        """`Z is empty or ...`, `Z is not empty and ...`: after it, Z is not empty. A fact
        inside one evaluation of an expression: what relies on it never moves out of the
        expression (INNER), though the expression, its test included, may (Pyramid's
        `if waste is empty then free else free + [top of waste]`: `_Hoist.read`)."""
        h = fr.hoist
        if h is not None:
            h.conditional += 1  # what follows runs only if e allows it
        if (h is not None and isinstance(e, A.IsEmpty) and e.negated == (op == "and")
                and self.cx.type_of(e.operand) == "zone"):
            try:
                # known already (an unswitched test before the loops): that fact stands
                h.guards.setdefault(value_key(self.cx, e.operand, fr.env),
                                    INNER + len(getattr(h, "attempts", ())))
            except KeyError:  # a name bound inside the expression: no fact
                pass

    def chain_end(self, fr: Frame, saved: Any) -> None:
        if fr.hoist is not None and saved is not None:
            fr.hoist.guards, fr.hoist.conditional = saved

    def top_card(self, e: A.Unary, src: str, fr: Frame) -> str:
        h = fr.hoist
        if h is not None and self.cx.type_of(e.operand) == "zone":
            level = h.guards.get(value_key(self.cx, e.operand, fr.env))
            if level is not None:  # an earlier conjunct checked that it is not empty
                h.read(level)
                return f"{src}[{-1 if e.op == 'top' else 0}]"
        return super().top_card(e, src, fr)

    def positions(self, source: A.Expr, fr: Frame) -> Any:
        """`a..size(Z)` or `a..size(Z) - b` (a >= 1, b >= 0 numbers), Z a zone: (Z's value
        key, a, b). An expression moves no card, so while a quantifier runs each of its
        values i is a position of Z, and so is i + c for -(a - 1) <= c <= b."""
        cx = self.cx
        if not (isinstance(source, A.Binary) and source.op == ".."
                and isinstance(source.left, A.Int) and source.left.value >= 1):
            return None
        hi: A.Expr = source.right
        b = 0
        if isinstance(hi, A.Binary) and hi.op == "-":
            less = hi.right
            if isinstance(less, A.Int) and less.value >= 0:
                hi, b = hi.left, less.value
        if (isinstance(hi, A.Call) and hi.func == "size" and cx.callee(hi) is None
                and len(hi.args) == 1 and cx.type_of(hi.args[0]) == "zone"):
            try:
                return value_key(cx, hi.args[0], fr.env), source.left.value, b
            except KeyError:  # a name bound inside the expression
                return None
        return None

    def card_at_position(self, e: A.Index, fr: Frame) -> str | None:
        """`Z[i]` or `Z[i + c]`, i a quantifier's variable over positions of Z that keep
        i + c one (`positions`): the card there, unchecked."""
        if self.cx.type_of(e.obj) != "zone":
            return None
        idx: A.Expr = e.index
        c = 0
        if isinstance(idx, A.Binary) and idx.op in ("+", "-"):
            by, plus = idx.right, idx.op == "+"
            if isinstance(by, A.Int):
                idx, c = idx.left, by.value if plus else -by.value
        if not isinstance(idx, A.Name):
            return None
        loc = self.cx.local(idx, fr.env)
        if loc is None or loc.positions is None:
            return None
        key, a, b = loc.positions
        if not -(a - 1) <= c <= b:
            return None
        try:
            if value_key(self.cx, e.obj, fr.env) != key:
                return None
        except KeyError:
            return None
        off = f" + {c - 1}" if c > 1 else f" - {1 - c}" if c < 1 else ""
        return f"s[{self.expr(e.obj, fr)}][{self.local_code(loc, fr)}{off}]"

    def first_of_checked_zone(self, e: A.Index, fr: Frame) -> str:
        """`Z[1]` of a zone that an earlier conjunct found not empty (`trick[1]` after
        `trick is empty or ...`): its first card, unchecked, as `top_card` does."""
        at = self.card_at_position(e, fr)
        if at is not None:
            return at
        h = fr.hoist
        if (h is not None and isinstance(e.index, A.Int) and e.index.value == 1
                and self.cx.type_of(e.obj) == "zone"):
            try:
                level = h.guards.get(value_key(self.cx, e.obj, fr.env))
            except KeyError:  # a name bound inside the expression: no fact
                level = None
            if level is not None:
                h.read(level)
                return f"s[{self.expr(e.obj, fr)}][0]"
        return super().index(e, fr)


_ARITH = ("+", "-", "*", "==", "!=", "<", "<=", ">", ">=")
_LOOPED = ("any", "all", "count", "sum", "first", "min", "max", "random")  # `into` loops
_INIT = {"any": "False", "all": "True", "count": "0", "sum": "0", "first": "None", "random": "[]",
         "min": "None", "max": "None"}
_COMPARE = ("==", "!=", "<", "<=", ">", ">=")


def _never_none(x: A.Expr, counted: set[str], seats: set[str], zones: set[str]) -> bool:
    """Is `x` a number that is never none, nor fails: a literal, a variable of a loop
    over a range (`counted`: `i in 1..n`), the size of a zone named or of one of a zone
    array at a player of a loop over the players (`seats`), `me` or a number
    (`size(hand[q])`), and sums and differences of those? Conservative: a game's
    variable (`var mark: int = none`, a zone variable), a def, a card's attribute (a
    joker's rank), a quantifier (`first`, `min`, `max`: none where nothing is found)
    may be none."""
    if isinstance(x, A.Int):
        return True
    if isinstance(x, A.Name):
        return x.name in counted
    if isinstance(x, A.Binary) and x.op in ("+", "-"):
        return all(_never_none(y, counted, seats, zones) for y in (x.left, x.right))
    if isinstance(x, A.Call) and x.func == "size" and len(x.args) == 1:
        z = x.args[0]
        if isinstance(z, A.Index):
            i = z.index
            if not (isinstance(i, (A.Me, A.Int)) or (isinstance(i, A.Name)
                                                     and i.name in seats)):
                return False
            z = z.obj
        return isinstance(z, A.Name) and z.name in zones
    return False


def _all_test(e: A.Quant) -> A.Expr | None:
    """The test of `all x in L: T` (or `all x in L where T`, the same), None where e is
    no `all` or has both a where and a body."""
    if e.kind != "all" or (e.where is not None and e.body is not None):
        return None
    return e.body if e.body is not None else e.where


def _unbound_quants(e: A.Expr) -> Iterator[A.Quant]:
    """The quantifiers in e that no `let` or quantifier of e binds names around (a
    `let`'s value is in e's scope, its body is not; a quantifier's own parts are not
    searched)."""
    if isinstance(e, A.Quant):
        yield e
        return
    if isinstance(e, A.Let):
        yield from _unbound_quants(e.value)
        return
    for c in A.children(e):
        if isinstance(c, A.Expr):
            yield from _unbound_quants(c)


def _subst(e: A.Expr, name: str, by: A.Expr) -> A.Expr:
    """e with each `name` replaced by `by` (e binds no names: arg_best checks)."""
    if isinstance(e, A.Name) and e.name == name:
        return by
    changes: dict[str, Any] = {}
    for f in attrs.fields(type(e)):
        v = getattr(e, f.name)
        if isinstance(v, A.Expr):
            nv = _subst(v, name, by)
            if nv is not v:
                changes[f.name] = nv
        elif isinstance(v, tuple) and any(isinstance(x, A.Expr) for x in v):
            nt = tuple(_subst(x, name, by) if isinstance(x, A.Expr) else x for x in v)
            if any(a is not b for a, b in zip(nt, v, strict=True)):
                changes[f.name] = nt
    return attrs.evolve(e, **changes) if changes else e


def _operands(cx: Ctx, e: A.Expr) -> tuple[A.Expr, ...]:
    """The operands of e that its lowering evaluates each once, in this order, before
    anything else it evaluates, and always (not an `and`'s or an `if`'s): those `into`
    may compute ahead. (A comparison's; a sum's or a product's; an index's; `not`'s and
    `-`'s.)"""
    if isinstance(e, A.Binary) and e.op in _COMPARE:
        return (e.left, e.right)
    if isinstance(e, A.Binary) and e.op in ("+", "-", "*") and cx.type_of(e) == "int":
        # a chain `a + b - c` is lowered flat (Exprs.chain): its operands are a, b, c
        group = ("*",) if e.op == "*" else ("+", "-")
        rights = []
        node: A.Expr = e
        while isinstance(node, A.Binary) and node.op in group and cx.type_of(node) == "int":
            rights.append(node.right)
            node = node.left
        return (node, *reversed(rights))
    if isinstance(e, A.Index):
        if isinstance(e.obj, A.Name):
            return (e.index,)  # a zone array, a variable array, a grid: read in place
        return (e.obj, e.index)
    if isinstance(e, A.Unary) and e.op in ("not", "-"):
        return (e.operand,)
    return ()


def _arithmetic_of_once(body: A.Expr, param: str) -> bool:
    """Is the body arithmetic and comparisons of literals and one use of `param`
    (`below(r) = r - 1`)? Then the argument may stand in its place: it is evaluated once,
    before anything that could fail, as when it is bound first."""
    uses = 0
    for n in A.walk(body):
        if isinstance(n, A.Name):
            if n.name != param:
                return False
            uses += 1
        elif isinstance(n, A.Binary):
            if n.op not in _ARITH:
                return False
        elif isinstance(n, A.Unary):
            if n.op not in ("-", "not"):
                return False
        elif not isinstance(n, (A.Int, A.Bool)):
            return False
    return uses == 1


def value_key(cx: Ctx, e: Any, env: dict[str, Local]) -> Any:
    """A key equal for two expressions that certainly have the same value here: the same
    tree, with each name bound to the same local (or to the same global); where they
    stand in the source (their spans: no part of the tree's equality) does not count."""
    if isinstance(e, (A.Name, A.Me)):
        loc = cx.local(e, env)
        return ("local", loc.code) if loc is not None else ("name", getattr(e, "name", "me"))
    if isinstance(e, (A.Expr, A.Stmt)):
        return (type(e).__name__,) + tuple(value_key(cx, getattr(e, f.name), env)
                                           for f in attrs.fields(type(e)) if f.eq)
    if isinstance(e, tuple):
        return tuple(value_key(cx, x, env) for x in e)
    return e


@attrs.define
class _Attempt:
    """A quantifier being lowered in the hope of moving it out of the parameter loops:
    the locals bound outside it inside an expression (reading one keeps it in place), the
    deepest loop level it reads, and whether it read such a local."""

    outside: set[str]
    level: int = -1
    blocked: bool = False


@attrs.define
class Sharing:
    """The values of the state the legal-move generators of one decision share (a def
    without parameters, a quantifier, reading no parameter, that loops over values:
    Pyramid's `free` cards, which its `pair` and `king` moves both range over). The generators of a decision run one
    after the other on the same state, so such a value is the same in each: it is
    computed the first time one of them needs it (where it stood: an error it raises is
    raised alike) and kept in a variable of the decision, set to `...` before the first
    generator. `keys` None: only count the values each generator computes (`seen`), to
    find those that two or more generators compute; else share those. `names`: the
    variable of each shared value (one table for the module); `used`: those the
    generator read."""

    keys: frozenset[Any] | None
    names: dict[Any, str]
    seen: dict[Any, int] = attrs.Factory(dict)
    used: set[str] = attrs.Factory(set)


@attrs.define
class _Hoist(Hoist):
    """Hoist, with the quantifiers being lowered that might move (innermost last)."""

    attempts: list[_Attempt] = attrs.Factory(list)
    share: Sharing | None = None
    # the body of a quantifier lowered to a loop of statements (`loop_quant`): what it
    # evaluates may be statements too (a quantifier in it a loop inside the loop)
    statements: bool = False
    outer: _Hoist | None = None  # (that loop's, in the body of another such loop)

    def read(self, level: int | None) -> None:
        Hoist.read(self, level)  # (not super(): its class cell would leave it to attrs)
        if level is not None:
            # a fact of an expression (INNER + d: stated while d quantifiers or defs were
            # being lowered) is inside those d: they may still move, with the test that
            # states it; what began inside the fact's arm may not
            inside = level - INNER if level >= INNER else 0
            for att in self.attempts[inside:]:
                att.level = max(att.level, level)


def new_hoist(cx: Ctx, share: Sharing | None = None) -> Hoist | None:
    """The hoisting state of a legal-move generator (None in plain code)."""
    return _Hoist(share=share) if cx.optimize else None


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
