"""Moves: each move's effect `eff_<id>`, and its legal-move generator.

A generator loops over the move's parameters, outermost first, and tests each conjunct of
the `when` at the first loop level where all the parameters it reads are bound. That is
the language's meaning, not an optimisation: `and` evaluates left to right, so a conjunct
that may fail (an empty zone, a bad index...) stays behind the conjuncts before it.
"""

from __future__ import annotations

import re
from math import prod
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import attrs
else:  # the same declarations, built cheaply (lang/nodes.py): start-up time
    from ..lang import nodes as attrs

from ..lang import BUILTINS, elem
from ..lang import ast as A
from .context import Ctx
from .exprs import summed_conjunct
from .optimize import Optimizing, Sharing, new_hoist, unrolled_levels, value_key
from .stmts import Stmts, assigns
from .writer import INDENT, CodeWriter, Frame, Local


@attrs.define
class MoveCode:
    """A move's effect function, and its legal-move generator as lines indented from 0
    (each decision that offers the move inlines them into its legal_<node>)."""

    effect: list[str]
    generator: list[str]
    param_types: list[str]
    # whether the effect, the generator may draw from the step budget (Names.draws)
    effect_draws: bool = True
    generator_draws: bool = True


class Moves:
    def __init__(self, stmts: Stmts) -> None:
        self.stmts = stmts
        self.x = stmts.x
        self.cx = stmts.cx
        self.me = Local("me")  # `me` in the generator being written (see `generator`)
        self.share: Sharing | None = None  # ...and what it shares with its decision's

    def lower(self, name: str, md: A.MoveDecl) -> MoveCode:
        cx = self.cx
        mid = cx.layout.move_ids[name]
        rule = f"move {name}"
        fr = Frame({"me": Local("me")}, rule, move=md)
        params = []
        ptypes = []
        for p in md.params:
            var = f"u_{p.name}"
            st = cx.type_of(p.source)
            origin = self.origin(p, fr)
            lo, hi = cx.value_range(p.source)
            if assigns(cx, md.body, p):
                lo = hi = None  # the body changes it: its range no longer holds
            fr.env[p.name] = Local(var, origin, lo, hi)
            params.append(var)
            ptypes.append("card" if st == "zone" else elem(st))
        w = CodeWriter("    ")
        draws = cx.names.draws
        self.stmts.block(md.body, fr, w)
        effect_draws = cx.names.draws != draws
        body = w.lines
        effect = [f"def eff_{mid}(s, m):"]
        # `me` is read by the body, or by the zone a card parameter is taken from
        if not cx.optimize or any(isinstance(n, A.Me) for n in A.walk(
                (md.body, tuple(p.source for p in md.params)))):
            effect.append("    me = m[0]")
        for i, prm in enumerate(params):
            effect.append(f"    {prm} = m[{i + 2}]")
        effect += body
        effect.append("")
        draws = cx.names.draws
        generator = self.generator(md, mid, rule)
        return MoveCode(effect, generator, ptypes, effect_draws, cx.names.draws != draws)

    def origin(self, p: A.MoveParam, fr: Frame) -> str | None:
        """The code of the zone a parameter's value comes from, where there is one: its
        source when that is a zone; with optimisation, the zone a set of cards is chosen
        from (a hint where the effect takes them from: `_take_many` looks elsewhere for a
        card that has moved)."""
        if self.cx.optimize and isinstance(p.source, A.Subsets):
            return self.x.expr(p.source.zone, fr)
        return self.x.expr(p.source, fr) if self.cx.type_of(p.source) == "zone" else None

    def auto(self, name: str, md: A.MoveDecl, ad: A.AutoDecl) -> list[str]:
        """`auto_<mid>(s, m)`: whether the condition of `auto move NAME when ...` holds
        for the legal move m (its parameters bound as in the effect, before it runs)."""
        cx = self.cx
        x = self.x
        mid = cx.layout.move_ids[name]
        fr = Frame({"me": Local("me")}, f"auto move {name}")
        lines = [f"def auto_{mid}(s, m):", "    me = m[0]"]
        for i, p in enumerate(md.params):
            var = f"u_{p.name}"
            origin = self.origin(p, fr)
            lo, hi = cx.value_range(p.source)
            fr.env[p.name] = Local(var, origin, lo, hi)
            lines.append(f"    {var} = m[{i + 2}]")
        lines.append(f"    return bool({x.expr(ad.cond, fr)})")
        lines.append("")
        return lines

    def generator(self, md: A.MoveDecl, mid: int, rule: str, me: int | None = None,
                  share: Sharing | None = None) -> list[str]:
        """The legal-move generator of one move, as a block of lines (indented from 0)
        that appends `(me, mid, args...)` to `out` for every legal combination. `me`: the
        decider where a decision knows it when compiling (optimised code: then the moves
        listed are constants, `(1, 2, 3)`, not tuples built for each decision). `share`:
        the values of the state it shares with the other generators of its decision
        (`optimize.Sharing`)."""
        conj: list[_Conj] = list(A.conjuncts(md.when)) if md.when is not None else []
        if self.cx.optimize:
            for p in md.params:  # `taken in subsets of table where (sum ...) == c.rank`
                known = summed_conjunct(p.source, p.name, p.where)
                # (the sets sum to it: no test; one that might fail stays, since it keeps
                # the tests after it that might fail inside its loop)
                if known is not None and not self.may_raise(known):
                    k = next((i for i, c in enumerate(conj) if c == known), None)
                    if k is not None:
                        del conj[k]
        self.me = Local("me") if me is None else Local(str(me), None, me, me)
        self.share = share
        try:
            lines = self.unswitched(md, mid, rule, conj, ())
            return self.answers_any(md, lines) if share is not None else lines
        finally:
            self.me = Local("me")
            self.share = None

    def legality(self, md: A.MoveDecl, rule: str) -> list[str]:
        """One move's legality test: the lines (indented from 0) of a block that returns
        whether the move `m` (a tuple; its decider `me`, bound and known to decide) is one
        the generator lists, without listing the others. Each parameter's value is taken
        from `m`, tested in its source (`in`: equality, as `m in legal` compares), and the
        `when` conjuncts are tested at the level the language places them (`unswitched`'s
        plain placement), so that the test evaluates only what a listing evaluates for
        that one combination: where the listing raises no error the test raises none and
        answers as `m in legal` does. (A listing that fails on another combination is
        not seen here.) Plain expressions, no hoisting nor def tables: one combination."""
        cx = self.cx
        x = self.x
        params = md.params
        conj: list[_Conj] = list(A.conjuncts(md.when)) if md.when is not None else []
        levels = self.placed(md, conj)
        fr = Frame({"me": Local("me")}, rule, move=md)
        lines = [f"if len(m) != {2 + len(params)}: return False"]
        for lvl in range(len(params) + 1):
            for c in levels[lvl]:
                assert isinstance(c, A.Expr)  # (the `when`'s own conjuncts, as written)
                lines.append(f"if not {x.expr(c, fr)}: return False")
            if lvl == len(params):
                break
            p = params[lvl]
            src = x.param_source(p.source, fr)
            origin = None
            if cx.type_of(p.source) == "zone":
                origin = src
                src = f"s[{src}]"
            vlo, vhi = cx.value_range(p.source)
            lines.append(f"u_{p.name} = m[{lvl + 2}]")
            lines.append(f"if u_{p.name} not in {src}: return False")
            fr.env[p.name] = Local(f"u_{p.name}", origin, vlo, vhi)
        lines.append("return True")
        return lines

    def answers_any(self, md: A.MoveDecl, lines: list[str]) -> list[str]:
        """A move of one parameter `p in S` whose conditions are W lists a move for each
        value of S where W holds: it has listed one or more exactly when `any p in S: W`
        holds (Crazy Eights' `play(c in hand[me]) when matches(c)` and `can_play(me)`,
        `any c in hand[p]: matches(c)`, which its `draw` and `pass_turn` test). Where the
        decision's other generators compute that quantifier (`optimize.Sharing`), its
        shared variable is set after this generator's loop from the number of moves it
        listed, so that the others need not loop again. Sound: the generators of a
        decision run one after the other on the same state, so the quantifier's value
        is the same wherever it is computed; this generator evaluated W on every value
        of S without an error (else it raised, as the plain code raises here), so the
        quantifier, which stops at its first true W, would raise none either."""
        share = self.share
        assert share is not None
        if len(md.params) != 1 or md.when is None:
            return lines
        p = md.params[0]
        # (a zone's cards only: `top 3 of Z` lists fewer cards where Z is short, where the
        # quantifier fails, and subsets may drop a conjunct they are known to hold; and
        # W one conjunct, or none that may fail: the generator may test a conjunct that
        # reads no parameter first, where `any` would fail on an earlier one: the review)
        if not isinstance(p.source, (A.Name, A.Index)):
            return lines
        conj = A.conjuncts(md.when)
        if len(conj) > 1 and any(self.may_raise(c) for c in conj):
            return lines
        q = A.Quant(kind="any", var=p.name, source=p.source, where=None, body=md.when,
                    span=md.span)
        try:
            key = ("quant", value_key(self.cx, q, {"me": attrs.evolve(self.me, level=0),
                                                   p.name: Local(p.name)}))
        except KeyError:
            return lines
        if share.keys is None:  # (counting: this generator computes it too)
            share.seen[key] = share.seen.get(key, 0) + 1
            return lines
        if key not in share.keys:
            return lines
        var = share.names.get(key)
        if var is None:
            var = share.names[key] = self.cx.names.tmp("v")
        share.used.add(var)
        n = self.cx.names.tmp("n")
        return [f"{n} = len(out)"] + lines + [f"{var} = len(out) > {n}"]

    def unswitched(self, md: A.MoveDecl, mid: int, rule: str, conj: list[_Conj],
                   guards: tuple[A.Expr, ...], depth: int = 0,
                   opened: tuple[A.Expr, ...] = (),
                   facts: tuple[tuple[object, bool], ...] = ()) -> list[str]:
        """Loop unswitching: a conjunct `a or b` whose first disjunct reads no parameter,
        cannot fail and changes nothing (`trick is empty or c.suit == led ...`) is tested
        once, before the loops: when it holds the conjunct is dropped, else it becomes
        `b` (and when `a` is `Z is empty`, b knows that Z is not). Evaluating `a` earlier
        than it stood cannot change a result, an error or the state.

        What a test said holds in its arm (`facts`): a later conjunct whose first disjunct
        is the same test (or its negation: `trick is not empty or ...` after `trick is
        empty`) is decided without a test of its own, and does not count as a level."""
        cx = self.cx
        later: list[tuple[int, list[A.Expr]]] = []
        for i, c in enumerate(conj if cx.optimize and depth < UNSWITCH_DEPTH else ()):
            if isinstance(c, _Arm):
                continue
            branch = self.branch(c, md)
            if branch is not None:
                lines = self.unswitch_if(md, mid, rule, conj, i, branch, guards, depth,
                                         opened, facts)
                if lines is not None:
                    return lines
                continue
            ds = disjuncts(c) if isinstance(c, A.Expr) else list(c.items)
            seen_through = False
            if len(ds) == 1 and isinstance(c, A.Call) and not any(c is o for o in opened):
                # a def called as the whole conjunct (`follows_suit(c, me)`, a prelude's):
                # the first disjunct of its body, when it reads none of its parameters
                ds, seen_through = self.def_disjuncts(c), True
            first = ds[0]
            if len(ds) < 2:
                continue
            if params_in(cx, first) or self.may_raise(first):
                if not seen_through:
                    later.append((i, ds))  # (tried once no first disjunct is unswitched)
                continue
            fact = self.fact(first)
            known_truth = dict(facts).get(fact[0]) if fact is not None else None
            if fact is not None and known_truth is not None:
                # decided by an earlier test: dropped when `a` holds, else `b`
                if known_truth == fact[1]:
                    rest_conj = conj[:i] + conj[i + 1:]
                elif seen_through:
                    continue  # (the call stays as it is: nothing to gain)
                else:
                    rest = ds[1:]
                    rest_conj = conj[:i] + [rest[0] if len(rest) == 1
                                            else _AnyOf(tuple(rest))] + conj[i + 1:]
                return self.unswitched(md, mid, rule, rest_conj, guards, depth, opened,
                                       facts)
            names = cx.names
            unsafe, impure = names.unsafe, names.impure
            test = self.test_code(first, rule, guards)
            if names.unsafe != unsafe or names.impure != impure:
                continue
            rest = ds[1:]
            known = guards
            yes_guards = guards
            if isinstance(first, A.IsEmpty) and cx.type_of(first.operand) == "zone":
                if first.negated:  # `Z is not empty or ...`: where it holds
                    yes_guards = guards + (first.operand,)
                else:  # `Z is empty or ...`: where it does not
                    known = guards + (first.operand,)
            yes_facts = no_facts = facts
            if fact is not None:
                yes_facts = facts + ((fact[0], fact[1]),)
                no_facts = facts + ((fact[0], not fact[1]),)
            yes = self.unswitched(md, mid, rule, conj[:i] + conj[i + 1:], yes_guards,
                                  depth + 1, opened, yes_facts)
            # seen through a def: the call stays (its first disjunct is false there, so it
            # is the rest), and what the test said is known inside it
            stays: _Conj = c if seen_through else (
                rest[0] if len(rest) == 1 else _AnyOf(tuple(rest)))
            now_open = (c,) if seen_through and isinstance(c, A.Expr) else ()
            no = self.unswitched(md, mid, rule, conj[:i] + [stays] + conj[i + 1:], known,
                                 depth + 1, opened + now_open, no_facts)
            return _if_else(test, yes, no)
        for i, ds in later:
            lines = self.unswitch_later(md, mid, rule, conj, i, ds, guards, depth, opened,
                                        facts)
            if lines is not None:
                return lines
        levels = self.placed(md, conj)
        # tables for defs of a constant-range parameter, filled before the loops
        fr = Frame({"me": attrs.evolve(self.me, level=0)}, rule,
                   hoist=new_hoist(cx, self.share),
                   tables={} if cx.optimize else None)
        gen = _Generator(self, md, mid, levels, unrolled_levels(cx, md), guards)
        w = CodeWriter()
        w.line(f"# move {md.name}")  # for a rule error's place (engine/playout.py)
        gen.level(0, fr, w)
        return w.lines

    def placed(self, md: A.MoveDecl, conj: list[_Conj]) -> list[list[_Conj]]:
        """The conjuncts by loop level: each at the first level where all its parameters
        are bound; `and` evaluates left to right, so what may fail stays behind its guards
        (at or below the level of the conjuncts before it). The listing and the one-move
        test (`legality`) place them alike, so the test evaluates what a listing does."""
        cx = self.cx
        pnames = [p.name for p in md.params]
        floor = 0
        levels: list[list[_Conj]] = [[] for _ in range(len(pnames) + 1)]
        for c in conj:
            parts = (list(c.items) if isinstance(c, _AnyOf)
                     else [c.call] if isinstance(c, _Arm) else [c])
            used = set().union(*(params_in(cx, d) for d in parts))
            lvl = max((pnames.index(n) + 1 for n in used), default=0)
            if any(self.may_raise(d) for d in parts):
                lvl = max(lvl, floor)
            floor = max(floor, lvl)
            levels[lvl].append(c)
        return levels

    def unswitch_later(self, md: A.MoveDecl, mid: int, rule: str, conj: list[_Conj], i: int,
                       ds: list[A.Expr], guards: tuple[A.Expr, ...], depth: int,
                       opened: tuple[A.Expr, ...], facts: tuple[tuple[object, bool], ...]
                       ) -> list[str] | None:
        """Loop unswitching of a later disjunct: in `a or b` (`c.suit == led or not
        can_follow`), when a reads a parameter but cannot fail (given the zones an earlier
        test said are not empty) and b reads none, cannot fail and changes nothing, b is
        tested once, before the loops: where it holds the conjunct is dropped (a, which
        cannot fail, no longer matters), else it is a alone. As for a first disjunct
        (`unswitched`), evaluating b earlier than it stood changes no result, error or
        state: a hand-written "can follow suit", once per decision, not a test per card."""
        cx = self.cx
        for k in range(1, len(ds)):
            if any(self.may_raise(d, guards=guards) for d in ds[:k]):
                return None
            b = ds[k]
            if params_in(cx, b) or self.may_raise(b, guards=guards):
                continue
            names = cx.names
            impure, draws = names.impure, names.draws
            test = self.test_code(b, rule, guards)
            # its code may call a helper that raises (`(trick or _E(..))[0]`: the
            # bottom of the trick), but only on what may_raise said cannot happen here
            if (names.impure != impure or names.draws != draws
                    or not set(re.findall(r"\b(_\w+)\(", test)) <= _CHECKS):
                continue
            rest = ds[:k] + ds[k + 1:]
            stays: _Conj = rest[0] if len(rest) == 1 else _AnyOf(tuple(rest))
            yes = self.unswitched(md, mid, rule, conj[:i] + conj[i + 1:], guards, depth + 1,
                                  opened, facts)
            no = self.unswitched(md, mid, rule, conj[:i] + [stays] + conj[i + 1:], guards,
                                 depth + 1, opened, facts)
            return _if_else(test, yes, no)
        return None

    def test_code(self, e: A.Expr, rule: str, guards: tuple[A.Expr, ...]) -> str:
        """The code of a test made once before a generator's loops (unswitched). Where
        earlier tests said zones are not empty (`guards`: the `else` of `trick is empty`),
        it reads their top or bottom card unchecked, as the generator's own conditions do
        (`Optimizing.top_card`): compiled with a hoisting state at level 0, where nothing
        moves (no loop), and compiled again without one should anything have been hoisted
        all the same (its line would have nowhere to go)."""
        cx = self.cx
        names = cx.names
        plain = Frame({"me": self.me}, rule)
        h = new_hoist(cx) if guards else None
        if h is None:
            return self.x.expr(e, plain)
        counts = names.unsafe, names.impure, names.draws, names.walrus
        h.enter(0)
        fr = Frame({"me": self.me}, rule, hoist=h)
        for z in guards:
            h.guards[value_key(cx, z, fr.env)] = 0
        code = self.x.expr(e, fr)
        if not h.levels[0].lines and not h.levels[0].fills and not h.levels[0].blocks:
            return code
        names.unsafe, names.impure, names.draws, names.walrus = counts
        return self.x.expr(e, plain)

    def branch(self, c: _Conj, md: A.MoveDecl
               ) -> tuple[A.Expr, A.Expr | _Arm, A.Expr | _Arm] | None:
        """A conjunct that is an `if T then A else B`, or a def called as the whole
        conjunct whose body is one (`fits_work(c)`), T reading no parameter (of the move,
        nor of the def): (T, what the conjunct is where T holds, where it does not).
        None when T may fail, or when the call is one the optimiser makes a table of
        (a def of one parameter over constants: `table_call`)."""
        cx = self.cx
        if isinstance(c, A.IfExpr):
            test, yes, no = c.cond, c.then, c.else_
            arms: tuple[A.Expr | _Arm, A.Expr | _Arm] = (yes, no)
        elif isinstance(c, A.Call):
            d = cx.callee(c)
            if d is None or not isinstance(d.body, A.IfExpr):
                return None
            test = d.body.cond
            if any(isinstance(n, A.Name) and cx.ref(n).kind == "def_param"
                   for n in A.walk(test)):
                return None
            if self.tabulated(c, md):
                return None
            arms = (_Arm(c, d.body.then), _Arm(c, d.body.else_))
        else:
            return None
        if params_in(cx, test) or self.may_raise(test):
            return None
        return test, arms[0], arms[1]

    def tabulated(self, call: A.Call, md: A.MoveDecl) -> bool:
        """Is `call` one that `Optimizing.table_call` may make a table of: its arguments
        integers and one move parameter over constants?"""
        cx = self.cx
        ps = {p.name: p for p in md.params}
        named = {a.name for a in call.args if isinstance(a, A.Name)}
        if any(not isinstance(a, (A.Int, A.Name)) for a in call.args) or len(named) != 1:
            return False
        (n,) = named
        if n not in ps or cx.ref(next(a for a in call.args if isinstance(a, A.Name))).kind != "move_param":
            return False
        lo, hi = cx.const_range(ps[n].source)
        return lo is not None and hi is not None

    def unswitch_if(self, md: A.MoveDecl, mid: int, rule: str, conj: list[_Conj],
                    i: int, branch: tuple[A.Expr, A.Expr | _Arm, A.Expr | _Arm],
                    guards: tuple[A.Expr, ...], depth: int, opened: tuple[A.Expr, ...],
                    facts: tuple[tuple[object, bool], ...]) -> list[str] | None:
        """Loop unswitching of an `if T then A else B` conjunct (see `branch`): T is tested
        once, before the loops, and the conjunct is A where it holds, B where not (when T
        is `Z is empty`, B knows that Z is not; when `Z is not empty`, A does). Evaluating
        T earlier than it stood cannot change a result, an error or the state. Where an
        earlier test decided T, the conjunct is the arm it chose, without a test."""
        cx = self.cx
        first, yes_c, no_c = branch
        fact = self.fact(first)
        known_truth = dict(facts).get(fact[0]) if fact is not None else None
        if fact is not None and known_truth is not None:
            arm = yes_c if known_truth == fact[1] else no_c
            return self.unswitched(md, mid, rule, conj[:i] + [arm] + conj[i + 1:], guards,
                                   depth, opened, facts)
        names = cx.names
        unsafe, impure = names.unsafe, names.impure
        test = self.test_code(first, rule, guards)
        if names.unsafe != unsafe or names.impure != impure:
            return None  # its code may fail after all: the conjunct stays as it is
        yes_guards = no_guards = guards
        if isinstance(first, A.IsEmpty) and cx.type_of(first.operand) == "zone":
            if first.negated:  # `if Z is not empty then A else B`: A knows
                yes_guards = guards + (first.operand,)
            else:  # `if Z is empty then A else B`: B knows
                no_guards = guards + (first.operand,)
        yes_facts = no_facts = facts
        if fact is not None:
            yes_facts = facts + ((fact[0], fact[1]),)
            no_facts = facts + ((fact[0], not fact[1]),)
        yes = self.unswitched(md, mid, rule, conj[:i] + [yes_c] + conj[i + 1:], yes_guards,
                              depth + 1, opened, yes_facts)
        no = self.unswitched(md, mid, rule, conj[:i] + [no_c] + conj[i + 1:], no_guards,
                             depth + 1, opened, no_facts)
        return _if_else(test, yes, no)

    def fact(self, e: A.Expr) -> tuple[object, bool] | None:
        """What a test says, as (what it is about, its truth): `Z is not empty` and
        `not (Z is empty)` say the same as `Z is empty` false. None: no key for it."""
        truth = True
        while isinstance(e, A.Unary) and e.op == "not":
            e, truth = e.operand, not truth
        if isinstance(e, A.IsEmpty):
            if e.negated:
                truth = not truth
            e = attrs.evolve(e, negated=False)
        try:
            return value_key(self.cx, e, {"me": self.me}), truth
        except KeyError:  # a name bound inside it
            return None

    def def_disjuncts(self, call: A.Call) -> list[A.Expr]:
        """The disjuncts of a def's body, when the first reads none of the def's
        parameters (so it means the same at the call); else the call alone."""
        ref = self.cx.ref(call)
        if ref.kind != "def" or not isinstance(ref.decl, A.DefDecl):
            return [call]
        ds = disjuncts(ref.decl.body)
        if any(isinstance(n, A.Name) and self.cx.ref(n).kind == "def_param"
               for n in A.walk(ds[0])):
            return [call]
        return ds

    def safe_index(self, e: A.Index) -> bool:
        """An element of an array of zones or variables whose index is certainly in
        range (`hand[me]`): it cannot fail (its index's own evaluation aside)."""
        cx = self.cx
        if not isinstance(e.obj, A.Name):
            return False
        ref = cx.ref(e.obj)
        if ref.kind not in ("zone_array", "var_array") or getattr(ref.decl, "grid", None):
            return False
        kind, size = cx.dim(ref)
        try:
            return self.x.safe_index(e.index, kind, size, Frame({"me": self.me}, ""))
        except KeyError:  # a local of a def being looked into: not known here
            return False

    def may_raise(self, e: A.Expr, seen: frozenset[str] = frozenset(),
                  guards: tuple[A.Expr, ...] | None = None) -> bool:
        """Could evaluating e fail (an empty zone, a bad index, division by zero...)?
        With `guards` (zones known not to be empty), a closer look: the top or bottom of
        one of those zones, and an array's element at an index certainly in range
        (`hand[me]`), do not fail. (Without, every index and top may: where conjuncts
        are tested stays as it was.)"""
        cx = self.cx
        if isinstance(e, (A.TopN, A.Subsets)):
            return True
        if isinstance(e, A.Index) and (guards is None or not self.safe_index(e)):
            return True
        if isinstance(e, A.Unary) and e.op in ("top", "bottom"):
            z = e.operand
            if guards is None or not (
                    isinstance(z, A.Name) and cx.ref(z).kind == "zone" and any(
                        isinstance(g, A.Name) and g.name == z.name and cx.ref(g).kind == "zone"
                        for g in guards)):
                return True
        if isinstance(e, A.Unary) and e.op == "players_from":
            return True
        if isinstance(e, A.Binary) and e.op in ("/", "%"):
            return True
        if isinstance(e, A.Quant) and e.kind in ("min", "max", "random"):
            return True
        if isinstance(e, (A.Call, A.Name)):  # a def may fail where its body may
            ref = cx.ref(e)
            if ref.kind == "def" and ref.name not in seen:
                if self.may_raise(ref.decl.body, seen | {ref.name}, guards):
                    return True
            elif ref.kind == "builtin" and BUILTINS[ref.name].may_fail:
                return True
        if isinstance(e, A.Attr) and self.x.card_may_be_none(e.obj, Frame({}, "")):
            return True
        return any(isinstance(c, A.Expr) and self.may_raise(c, seen, guards)
                   for c in A.children(e))


class _Generator:
    """One move's legal-move generator, written level by level: level 0 before the loops,
    level i inside the loop over the i-th parameter (or, unrolled, once per value)."""

    def __init__(self, moves: Moves, md: A.MoveDecl, mid: int,
                 conds: list[list[_Conj]], unroll: set[int],
                 guards: tuple[A.Expr, ...] = ()) -> None:
        self.guards = guards  # zones known not to be empty (an unswitched test said so)
        self.moves = moves
        self.x = moves.x
        self.cx = moves.cx
        self.md = md
        self.mid = mid
        self.conds = conds
        self.unroll = unroll
        # the row of the move table the innermost loop indexes (`_m = MV3[me]` before it:
        # one subscript per move listed, not one per parameter and `me`), or None
        self.row: str | None = None
        # the look-up of `join`'s index, tested first at the level around its loop
        self.pre: str | None = None

    def level(self, lvl: int, fr: Frame, w: CodeWriter) -> None:
        """One instance of a level: its conditions, what is computed there (hoisted
        values, and before the loops the def tables), then the next level."""
        cx = self.cx
        x = self.x
        h = fr.hoist
        if h is not None:
            h.enter(lvl)
            h.cur = lvl
            if lvl == 0:
                for z in self.guards:
                    h.guards[value_key(cx, z, fr.env)] = 0
        conds: list[str] = []
        outer = h.conditional if h is not None else 0
        for c in self.conds[lvl]:
            if h is not None and conds:
                h.conditional = outer + 1  # tested only if the conditions before it hold
            if isinstance(c, _AnyOf):
                items = []
                for d in c.items:
                    items.append(x.expr(d, fr))
                    if h is not None:
                        h.conditional += 1  # the next only if this one is false
                conds.append("(" + " or ".join(items) + ")")
                continue
            if isinstance(c, _Arm):  # (optimised code: the optimiser inlines the arm)
                conds.append(x.arm_call(c.call, c.arm, fr))  # type: ignore[attr-defined]
                continue
            conds.append(x.expr(c, fr))
            if (h is not None and isinstance(c, A.IsEmpty) and c.negated
                    and cx.type_of(c.operand) == "zone"):
                h.guards[value_key(cx, c.operand, fr.env)] = lvl  # later conjuncts may rely on it
        if h is not None:
            h.conditional = outer
        inner = CodeWriter(w.ind + INDENT if conds else w.ind)
        params = self.md.params
        me = fr.env["me"].code
        if lvl == len(params):
            codes = [fr.env[p.name].code for p in params]
            # (a move of constants, unrolled, is a constant tuple: no table)
            table = None if all(c.isdigit() for c in codes) else self.move_table()
            if table is not None and self.row is not None:  # (the row read before the loop)
                inner.line(f"out.append({self.row}[{codes[-1]}])")
            elif table is not None:  # (me, mid, a, ...) made once for every player and value
                inner.line(f"out.append({table}[{me}]{''.join(f'[{c}]' for c in codes)})")
            else:
                inner.line(f"out.append(({me}, {self.mid}{''.join(', ' + c for c in codes)}))")
        else:
            p = params[lvl]
            lo, hi = cx.const_range(p.source)
            rng = (p.name, lo, hi) if lo is not None and hi is not None else None
            if lvl + 1 in self.unroll:
                assert lo is not None and hi is not None
                for v in range(lo, hi + 1):
                    one = fr.scope()
                    one.env[p.name] = Local(str(v), None, v, v, level=lvl + 1, param=rng)
                    self.level(lvl + 1, one, inner)
            elif (lvl + 1 == len(params) and not self.conds[lvl + 1]
                    and isinstance(p.source, A.Subsets)):
                # a set of cards, last, with nothing to test: every set is a move (a hand
                # of 13 has 286 sets of 3), listed lazily (runtime.SetMoves): counted, and
                # built only when the engine lists them or a playout draws one
                args = "".join(f", {fr.env[q.name].code}" for q in params[:-1])
                cx.names.lazy_moves = True
                inner.line(f"out = {cx.helper('_msets')}(out, ({me}, {self.mid}{args}), "
                           f"{x.subsets_args(p.source, fr)})")
            else:
                src = x.param_source(p.source, fr)
                origin = None
                if cx.type_of(p.source) == "zone":
                    origin = src
                    src = f"s[{src}]"
                row = self.move_table() if lvl + 1 == len(params) else None
                if row is not None:  # the innermost loop: its row of the table, read once
                    self.row = cx.names.tmp("m")
                    inner.line(f"{self.row} = {row}[{me}]"
                               + "".join(f"[{fr.env[q.name].code}]" for q in params[:-1]))
                self.loop(lvl, p, src, origin, rng, fr, inner)
                self.row = None
                if self.pre is not None:
                    if not conds:  # (the level's code, written unconditional: now under it)
                        inner.lines = [INDENT + ln for ln in inner.lines]
                        inner.ind += INDENT
                    conds.insert(0, self.pre)
                    self.pre = None
        self.close(lvl, conds, fr, w, inner)

    def move_table(self) -> str | None:
        """Optimised code, a move of one or two parameters, each with a small range of int
        values (a card taken from a zone: the deck's card ids; a zone of an array: its
        slot; a constant range of numbers from 0 up): the name of the table of its moves
        `(me, mid, a)` or `(me, mid, a, b)` for every player (seat) and value, made when
        the module loads (at most MOVE_TABLE_MAX moves), so that listing a move reads it
        (indexing is cheaper than building a tuple) and equal moves are one object."""
        cx = self.cx
        params = self.md.params
        if not cx.optimize or not 1 <= len(params) <= 2 or not hasattr(self.x, "module_lines"):
            return None
        sizes: list[int] = []
        for p in params:
            t = cx.type_of(p.source)
            if t == "zone":  # a card of the zone: the deck's card ids
                sizes.append(len(cx.g.cards))
            elif t == "list:zone":  # a zone of the array: a zone's slot
                sizes.append(cx.layout.zone_slots[-1].slot + 1)
            else:
                lo, hi = cx.const_range(p.source)
                if lo is None or hi is None or lo < 0:
                    return None
                sizes.append(hi + 1)
        if (cx.n + 1) * prod(sizes) > MOVE_TABLE_MAX:
            return None
        name = f"MV{self.mid}"
        lines: list[str] = self.x.module_lines
        inner = f"(p, {self.mid}, c) for c in range({sizes[0]})"
        if len(sizes) == 2:
            inner = (f"tuple((p, {self.mid}, c, d) for d in range({sizes[1]})) "
                     f"for c in range({sizes[0]})")
        fill = f"{name} = tuple(tuple({inner}) for p in range({cx.n + 1}))"
        if fill not in lines:
            lines.append(fill)
        return name

    def loop(self, lvl: int, p: A.MoveParam, src: str, origin: str | None,
             rng: tuple[str, int, int] | None, fr: Frame, inner: CodeWriter) -> None:
        """The loop over parameter p's values, and the next level inside it."""
        loop = fr.scope()
        vlo, vhi = self.cx.value_range(p.source)
        domain = None
        if isinstance(p.source, A.Name) and self.cx.ref(p.source).kind == "zone_array":
            domain = src  # (a constant tuple of slots: optimize.py's tables of zone tops)
        loop.env[p.name] = Local(f"u_{p.name}", origin, vlo, vhi, level=lvl + 1, param=rng,
                                 domain=domain)
        if domain is not None and lvl > 0 and lvl + 1 == len(self.md.params):
            joined = self.join(lvl, p, src, fr, loop.env[p.name])
            if joined is not None:
                # the few zones the index gives: their tops read in place, not a table of
                # every zone's top filled for them (`zone_top_table`)
                src = joined
                loop.env[p.name] = attrs.evolve(loop.env[p.name], domain=None)
        inner.line(f"for u_{p.name} in {src}:")
        with inner.indented():
            self.level(lvl + 1, loop, inner)

    def join(self, lvl: int, p: A.MoveParam, src: str, fr: Frame, b: Local) -> str | None:
        """The innermost loop, over the zones of an array (`b in column`), where one of its
        conditions holds only if a value X of the outer parameters equals a value K(b) of b
        alone (`fits_column(c, b)`: `if b is empty then c.rank == K else c.rank == (top of
        b).rank - 1 and ...`: X = c.rank, K(b) = 13 or the top's rank less one): the
        zones by K, listed before the loops (`index_var`: once a decision where its
        generators build the same one), and the loop over those whose K is X, in the
        array's order (Klondike's `shift`: 7 columns for each face-up card, now the one or
        two whose top takes it). `L or R` (FreeCell's `dest is empty or ...`), L of b
        alone that cannot fail, R such a condition: the zones where L holds are in every
        key's list. Every condition is still tested on them; the zones left out are those
        where that condition is false, and the conditions before it, which cannot fail,
        are not tested there (a def they call as a function draws a step from the budget:
        skipped, it leaves the budget higher, never lower, as hoisting does). X cannot
        fail, nor draw; K draws nothing and binds no variable, and where it fails for a
        zone (the top of a zone that an earlier condition found empty) the loop goes over
        every zone, as written. A def's argument that is not a parameter and reads no b
        (Klondike's `down`: `top of f`) is computed once at its level, as inlining does.
        Where X reads the outer loop's values alone and that level's conditions cannot
        fail, the look-up is that level's first condition (`self.pre`): a value of the
        outer loop that no zone takes computes nothing more (Klondike's face-up cards
        whose rank no column takes). The zones the index gives read their tops in place
        (`loop`: no table of every zone's top, `zone_top_table`)."""
        cx = self.cx
        x = self.x
        conds = [c for c in self.conds[lvl + 1] if isinstance(c, A.Expr)]
        if (not cx.optimize or not isinstance(x, Optimizing)
                or len(conds) != len(self.conds[lvl + 1])):
            return None
        names = cx.names
        for i, c in enumerate(conds):
            if any(self.moves.may_raise(d) or x.loops(d) for d in conds[:i]):
                return None
            roles: dict[str, str] = {}
            body: A.Expr = c
            call_env: dict[str, Local] = {}
            # a def's arguments other than the parameters (Klondike's `down`: `top of f`),
            # each reading no b: computed once at their level, as inlining hoists them
            outer: dict[str, A.Expr] = {}
            if isinstance(c, A.Call) and cx.callee(c) is not None:
                d = cx.callee(c)
                assert d is not None
                if len(c.args) != len(d.params) or not all(
                        (isinstance(a, A.Name) and cx.ref(a).kind == "move_param")
                        or p.name not in params_in(cx, a) for a in c.args):
                    continue
                for q, a in zip(d.params, c.args, strict=True):
                    if not (isinstance(a, A.Name) and cx.ref(a).kind == "move_param"):
                        roles[q.name] = "o"
                        outer[q.name] = a
                        continue
                    roles[q.name] = "b" if a.name == p.name else "o"
                    call_env[q.name] = b if a.name == p.name else fr.env[a.name]
                body = d.body
            found = self._eq_key(body, roles, p.name)
            if found is None:
                continue
            x_node, key = found
            if cx.type_of(x_node) not in ("int", "bool", "suit", "color", "player", "card"):
                continue
            before = (names.unsafe, names.draws, names.impure, names.walrus)
            fx = fr.scope()
            fx.env.update({k: v for k, v in call_env.items() if roles[k] == "o"})
            h = fr.hoist
            assert h is not None
            # (lowered as in b's loop: what it reads of the outer loops is computed at
            # their level, once, as the condition's own copy is: `_h = RANK[u_c]`)
            cur = h.cur
            h.enter(lvl + 1)
            h.cur = lvl + 1
            for q_name, a in outer.items():
                saved, h.needs = h.needs, -1
                a_code = x.as_tuple(a, fx)
                level, h.needs = max(h.needs, 0), max(saved, h.needs)
                if (names.unsafe, names.draws, names.impure, names.walrus) != before \
                        or level > lvl:
                    h.cur = cur
                    return None
                var = h.hoist(level, ("arg", value_key(cx, a, fr.env)), a_code, names)
                fx.env[q_name] = Local(var, x.origin(a, fr), level=level, hoisted=True)
            x_code = x.expr(x_node, fx)
            h.cur = cur
            if (names.unsafe, names.draws, names.impure, names.walrus) != before:
                return None  # (its helpers: counted, not moved; the loop as written)
            qv = names.tmp("q")
            kenv = {"me": fr.env["me"]}
            kb = attrs.evolve(b, code=qv, level=None)
            kenv.update({k: kb for k, v in call_env.items() if roles[k] == "b"})
            if not call_env:
                kenv[p.name] = kb
            kf = Frame(kenv, fr.rule, move=fr.move)
            drew = (names.draws, names.impure, names.walrus)
            any_code = None  # (`L or ...`: the zones where L holds are in every key's list)
            if key[0] == "or":
                any_code = x.expr(key[1], kf)
                key = key[2]
            k_code = self._key_code(key, kf)
            if (names.draws, names.impure, names.walrus) != drew:
                return None
            ix = self.index_var(h, k_code, qv, src, any_code)
            own = self.conds[lvl]
            if not outer and all(isinstance(c, A.Expr) and not self.moves.may_raise(c)
                                 and not x.loops(c) for c in own):
                # the zones looked up first, at the outer level, before its conditions:
                # where none has the key, nothing more is computed for that value (those
                # conditions cannot fail; skipped, a def they call leaves the budget
                # higher, as above)
                now = (names.unsafe, names.draws, names.impure, names.walrus)
                plain = x.expr(x_node, attrs.evolve(fx, hoist=None))  # (reads loop values)
                if (names.unsafe, names.draws, names.impure, names.walrus) == now:
                    j = names.tmp("j")
                    names.walrus += 1
                    self.pre = f"({j} := {self.lookup(ix, plain, any_code)})"
                    return j
            return self.lookup(ix, x_code, any_code)
        return None

    @staticmethod
    def lookup(ix: str, x_code: str, any_code: str | None) -> str:
        """The zones of index `ix` whose key is X (with `L or ...`, those where L holds when
        no zone has that key: they are under the key `...`, which no rule's value is)."""
        return f"{ix}.get({x_code}, ())" if any_code is None else \
            f"({ix}.get({x_code}) or {ix}[...])"

    def index_var(self, h: Any, k_code: str, qv: str, src: str,
                  any_code: str | None = None) -> str:
        """The variable of `join`'s index, built before the loops: the zones of `src` by
        their key, each key's zones in their order, read by `.get(X, ())`; where a key
        fails for a zone (a rule error, `None - 1`, a key not hashable) every key's zones
        are all the zones (`_every`), the loop as written. The decision's generators
        share one where two or more build the same (`Sharing`: Klondike's `shift` and
        `down` index the columns by the rank their top takes): the same key over the
        same zones, the same index (a failing key's message, the only difference its
        span's id, is never read)."""
        names = self.cx.names
        share = h.share
        def norm(code: str) -> str:  # (the zone's name and the spans' ids made alike)
            return re.sub(r"_E\(\d+(?:, \d+)?\)", "_E()", re.sub(rf"\b{qv}\b", "_q", code))

        key = ("join", norm(k_code), src, any_code and norm(any_code))
        lv = h.levels[0]
        if ("index",) + key in lv.by_key:
            h.read(0)
            return lv.by_key[("index",) + key]
        var = None
        if share is not None and share.keys is None:
            share.seen[key] = share.seen.get(key, 0) + 1
        elif share is not None and key in share.keys:
            var = share.names.get(key)
            if var is None:
                var = share.names[key] = names.tmp("v")
            share.used.add(var)
        k = names.tmp("k")
        ix = var or names.tmp("x")
        if any_code is None:
            block = [f"{ix} = {{}}", "try:", f"{INDENT}for {qv} in {src}:",
                     f"{INDENT * 2}{k} = {k_code}",
                     f"{INDENT * 2}if {k} in {ix}: {ix}[{k}].append({qv})",
                     f"{INDENT * 2}else: {ix}[{k}] = [{qv}]"]
        else:  # (a zone where L holds: in every list so far, and in each list made later)
            a, lst = names.tmp("a"), names.tmp("l")
            block = [f"{ix} = {{...: []}}", f"{a} = {ix}[...]", "try:",
                     f"{INDENT}for {qv} in {src}:",
                     f"{INDENT * 2}if {any_code}:",
                     f"{INDENT * 3}for {lst} in {ix}.values(): {lst}.append({qv})",
                     f"{INDENT * 2}else:",
                     f"{INDENT * 3}{k} = {k_code}",
                     f"{INDENT * 3}if {k} in {ix}: {ix}[{k}].append({qv})",
                     f"{INDENT * 3}else: {ix}[{k}] = {a} + [{qv}]"]
        block += ["except Exception:", f"{INDENT}{ix} = {self.cx.helper('_every')}({src})"]
        if var is not None:  # (built by the decision's first generator that needs it)
            block = [f"if {var} is ...:"] + [INDENT + ln for ln in block]
        lv.blocks += block
        lv.by_key[("index",) + key] = ix
        h.read(0)
        return ix

    def _eq_key(self, e: A.Expr, roles: dict[str, str], b: str) -> tuple[A.Expr, Any] | None:
        """(X, K) where e holds only if X == K: X reads no `b`, K reads only `b` (roles:
        a def's parameters bound to b "b", to outer parameters "o"). K is ("v", expr) or
        ("if", test, K1, K2) for `if test then ... else ...` with the same X in both arms.
        In `l and r` with K from r, l is evaluated first for every zone: it may not fail."""
        cx = self.cx

        def reads(x: A.Expr) -> set[str]:
            out = set()
            for n in A.walk(x):
                if isinstance(n, A.Name):
                    ref = cx.ref(n)
                    if ref.kind == "def_param" and n.name in roles:
                        out.add(roles[n.name])
                    elif ref.kind == "move_param":
                        out.add("b" if n.name == b else "o")
                    elif ref.kind == "def_param" or ref.is_local and ref.kind != "quant":
                        out.add("?")  # (a name bound elsewhere: not known here)
            return out

        if isinstance(e, A.Binary) and e.op == "==":
            for x, k in ((e.left, e.right), (e.right, e.left)):
                rx, rk = reads(x), reads(k)
                if "b" not in rx and "?" not in rx and rk <= {"b"}:
                    return x, ("v", k)
            return None
        if isinstance(e, A.Binary) and e.op == "and":
            left = self._eq_key(e.left, roles, b)
            if left is not None:
                return left
            opt = self.x
            if (self.moves.may_raise(e.left) or not isinstance(opt, Optimizing)
                    or opt.loops(e.left)):
                return None
            return self._eq_key(e.right, roles, b)
        if isinstance(e, A.Binary) and e.op == "or" and reads(e.left) <= {"b"}:
            # `L or R` (FreeCell's `dest is empty or ...`): R's X and K, the zones where L
            # holds taken for every X; L, evaluated first for every zone, may not fail
            opt = self.x
            right = self._eq_key(e.right, roles, b)
            if (right is not None and right[1][0] != "or" and not self.moves.may_raise(e.left)
                    and isinstance(opt, Optimizing) and not opt.loops(e.left)):
                return right[0], ("or", e.left, right[1])
            return None
        if isinstance(e, A.IfExpr) and reads(e.cond) <= {"b"}:
            yes, no = self._eq_key(e.then, roles, b), self._eq_key(e.else_, roles, b)
            # (an arm's `L or ...` is not a key: its zones would be in every key's list
            # only where the arm is taken, which the index, one list a key, cannot say)
            if yes is not None and no is not None and yes[0] == no[0] \
                    and yes[1][0] != "or" != no[1][0]:
                return yes[0], ("if", e.cond, yes[1], no[1])
        return None

    def _key_code(self, key: Any, kf: Frame) -> str:
        if key[0] == "v":
            return self.x.expr(key[1], kf)
        _, test, yes, no = key
        return f"({self._key_code(yes, kf)} if {self.x.expr(test, kf)} else {self._key_code(no, kf)})"

    def close(self, lvl: int, conds: list[str], fr: Frame, w: CodeWriter,
              inner: CodeWriter) -> None:
        """The level's test, what it computes before its loop, and the loop."""
        h = fr.hoist
        if conds:
            w.line(f"if {' and '.join(conds)}:")
        hoisted = h.levels[lvl].lines if h is not None else []
        tables = [code for _, code in fr.tables.values()] if lvl == 0 and fr.tables else []
        w.lines += [inner.ind + t for t in tables]
        if h is not None:  # (`join`'s indexes: they read the state and constants alone)
            w.lines += [inner.ind + ln for ln in h.levels[lvl].blocks]
        w.lines += [f"{inner.ind}{v} = {c}" for v, c in hoisted]
        if h is not None:
            w.lines += [inner.ind + ln for ln in self.fill_lines(h.levels[lvl].fills)]
        w.lines += inner.lines

    def fill_lines(self, fills: dict[tuple[str, int], dict[str, str]]) -> list[str]:
        """The lists of attributes of the top (or bottom) card of each zone of an array
        (optimize.py's `zone_top_table`): one list per attribute, indexed by slot, and one
        loop over the array's zones that fills them from each non-empty zone."""
        out: list[str] = []
        slots = self.cx.layout.zone_slots[-1].slot + 1
        names = self.cx.names
        for (domain, idx), by_table in fills.items():
            z, c = names.tmp("z"), names.tmp("c")
            out += [f"{var} = [None] * {slots}" for var in by_table.values()]
            out += [f"for {z} in {domain}:", f"{INDENT}if s[{z}]:",
                    f"{INDENT * 2}{c} = s[{z}][{idx}]"]
            out += [f"{INDENT * 2}{var}[{z}] = {table}[{c}]" for table, var in by_table.items()]
        return out


# the helpers that raise only where `Moves.may_raise` says an expression may fail (an
# empty zone's top, an index, a position, a player, a card that is none)
_CHECKS = frozenset(("_E", "_ix", "_at", "_player", "_nn"))
UNSWITCH_DEPTH = 2  # tests unswitched per generator, nested (each doubles its code)
MOVE_TABLE_MAX = 20_000  # the most moves in one move's table (Interaction 4p: 5 x 53 x 53)


@attrs.frozen
class _Arm:
    """What remains of a call of a def whose body is `if T then A else B` once T was
    unswitched: the call, its def's body taken as `arm` (A or B)."""

    call: A.Call
    arm: A.Expr


@attrs.frozen
class _AnyOf:
    """What remains of an `or` once its first disjunct was unswitched: the others, in order."""

    items: tuple[A.Expr, ...]


_Conj = A.Expr | _AnyOf | _Arm  # a conjunct of a move's `when`, as unswitching left it


def _if_else(test: str, yes: list[str], no: list[str]) -> list[str]:
    """An unswitched test: the generator's lines where it holds, and where it does not."""
    return [f"if {test}:"] + [INDENT + ln for ln in yes] + ["else:"] + [INDENT + ln for ln in no]


def disjuncts(e: A.Expr) -> list[A.Expr]:
    if isinstance(e, A.Binary) and e.op == "or":
        return disjuncts(e.left) + disjuncts(e.right)
    return [e]


def params_in(cx: Ctx, e: A.Expr) -> set[str]:
    """The move parameters a conjunct reads: its names that refer to one. (A quantifier's
    or a let's variable of the same name is not the parameter.)"""
    return {n.name for n in A.walk(e)
            if isinstance(n, A.Name) and cx.ref(n).kind == "move_param"}
