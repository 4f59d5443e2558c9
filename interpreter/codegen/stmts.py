"""Statement lowering: effects, procedures, setup and the flow's straight-line parts.

Each statement writes its lines to a `CodeWriter`; names it binds (`let`) go into the
frame's scope, which the caller gives a fresh copy per block.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import Diagnostic
from ..lang import ast as A
from .bounds import FULL, Bounds, arith, fits
from .context import Ctx
from .exprs import Exprs
from .layout import BARE_END
from .runtime import BIG
from .writer import CodeWriter, Frame, Local

LOOP_LIMIT = 100_000  # automatic steps or loop rounds before a rule counts as runaway


class Stmts:
    def __init__(self, x: Exprs) -> None:
        self.x = x
        self.cx = x.cx
        # proofs that a number stays within 64 bits, to leave its guard out (not in plain code)
        self.bounds = Bounds(x.cx) if x.cx.optimize else None
        self._lower: dict[type, Callable[[A.Stmt, Frame, CodeWriter], None]] = {
            A.Assign: self.assign,  # type: ignore[dict-item]
            A.CallStmt: self.call,  # type: ignore[dict-item]
            A.LetStmt: self.let,  # type: ignore[dict-item]
            A.If: self.if_,  # type: ignore[dict-item]
            A.For: self.for_,  # type: ignore[dict-item]
            A.While: self.while_,  # type: ignore[dict-item]
            A.Repeat: self.repeat,  # type: ignore[dict-item]
            A.Phase: lambda st, fr, w: self.block(st.body, fr, w),  # type: ignore[attr-defined]
            A.MoveCards: self.move_cards,  # type: ignore[dict-item]
            A.Turn: self.turn,  # type: ignore[dict-item]
            A.Shuffle: self.shuffle,  # type: ignore[dict-item]
            A.Deal: self.deal,  # type: ignore[dict-item]
            A.End: self.end,  # type: ignore[dict-item]
            A.Break: lambda st, fr, w: w.line("break"),
            A.Log: self.log,  # type: ignore[dict-item]
        }

    def sid(self, span: A.Span, fr: Frame) -> int:
        return self.cx.names.span_id(span, fr.rule)

    def fixed_zone(self, code: str, fr: Frame) -> bool:
        """Whether a zone's code holds a zone wherever a move's effect evaluates it: a slot
        number, or a zone parameter of the move that its body never assigns (a
        parameter may be set to `none`)."""
        if code.isdigit():
            return True
        md = fr.move
        return md is not None and any(
            f"u_{p.name}" == code and self.cx.type_of(p.source) != "zone"
            and not assigns(self.cx, md.body, p) for p in md.params)

    def block(self, stmts: tuple[A.Stmt, ...], fr: Frame, w: CodeWriter) -> None:
        """Statements in a scope of their own (`pass` if there are none)."""
        fr = fr.scope()
        n = len(w.lines)
        for st in stmts:
            self.stmt(st, fr, w)
        if len(w.lines) == n:
            w.line("pass")

    def stmt(self, st: A.Stmt, fr: Frame, w: CodeWriter) -> None:
        lower = self._lower.get(type(st))
        if lower is None:
            if isinstance(st, A.Choose):  # pragma: no cover - the checker keeps these in the flow
                raise Diagnostic("a choice cannot be made here", st.span)
            raise Diagnostic(f"internal: cannot compile {type(st).__name__}", st.span)  # pragma: no cover
        lower(st, fr, w)

    # ------------------------------------------------------------ values
    def assign(self, st: A.Assign, fr: Frame, w: CodeWriter) -> None:
        x = self.x
        cx = self.cx
        if st.op == "=" or isinstance(st.target, A.Name):
            value = x.into(st.value, fr, w)  # the value before the target, as Python does
        else:
            value = x.as_tuple(st.value, fr)  # `s[i] += v`: the slot first
        ttype = cx.type_of(st.target)
        compound = st.op != "="
        tg = st.target
        if (compound and isinstance(tg, A.Index) and ttype in ("int", "list:int")
                and x.int_value(tg.index, fr) is None and not self.kept(st, fr)):
            # the slot is computed once, as `s[i] += v` does, then read again by the guard
            t = cx.names.tmp("t")
            w.line(f"{t} = {x.var_slot(tg, fr)}")
            target = f"s[{t}]"
        else:
            target = self.lvalue(tg, fr)
        if ttype == "int" and not self.kept(st, fr):
            sid = self.sid(st.span, fr)
            if cx.type_of(st.value) != "int":  # a value of unknown type: _big lets others by
                big = cx.helper("_big")
                w.line(f"{target} = {big}({target} {st.op[0]} {value}, {sid})" if compound
                       else f"{target} = {big}({value}, {sid})")
            elif compound and cx.optimize:
                # the new value guarded as computed, not read back from its slot
                v = cx.names.tmp("v")
                w.line(f"{v} = {target} {st.op[0]} {value}")
                w.line(f"{target} = {v}")
                w.line(self.check(v, sid, computed=True, grows=self.grows(st, fr)))
            elif compound:
                w.line(f"{target} {st.op} {value}")
                w.line(self.check(target, sid, computed=True, grows=self.grows(st, fr)))
            else:
                v = cx.names.tmp("v")
                w.line(self.check(f"({v} := {value})", sid, v))
                w.line(f"{target} = {v}")
            return
        if ttype == "list:int" and not self.kept(st, fr):
            sid = self.sid(st.span, fr)
            v = cx.names.tmp("v")
            new = f"{target} + tuple({value})" if compound else value
            w.line(f"{cx.helper('_big_items')}(({v} := {cx.helper('_grow')}({new}, {sid})), "
                   f"{sid})")
            w.line(f"{target} = {v}")
            return
        if ttype.startswith("list:"):
            # a list that doubles each round: bounded in length, and each element a step
            new = f"{target} + tuple({value})" if compound else value
            w.line(f"{target} = {cx.helper('_grow')}({new}, {self.sid(st.span, fr)})")
        elif st.op == "=":
            w.line(f"{target} = {value}")
        else:
            w.line(f"{target} {st.op} {value}")

    def kept(self, st: A.Assign, fr: Frame) -> bool:
        """Is the number (or each number of the list) this assignment keeps proven to stay
        within 64 bits? Plain code proves nothing."""
        b = self.bounds
        if b is None:
            return False
        sc = b.scope(fr.env)
        ttype = self.cx.type_of(st.target)
        if ttype == "list:int":
            return fits(b.elems(st.value, sc))
        value = b.of(st.value, sc)
        if st.op == "=":
            return fits(value)
        return fits(arith(st.op[0], b.of(st.target, sc), value))

    def grows(self, st: A.Assign, fr: Frame) -> str:
        """Which way `x += v` / `x -= v` can move x, from the range of v: "up" (v is never
        negative in `+=`), "down", or "" (either, or not known). A kept number is within 64
        bits before it (every binding of one is guarded), so only the bound it moves towards
        can be crossed."""
        b = self.bounds
        if b is None:
            return ""
        r = b.of(st.value, b.scope(fr.env))
        if r is None:
            return ""
        lo, hi = r
        if st.op == "-=":
            lo, hi = -hi, -lo
        return "up" if lo >= 0 else "down" if hi <= 0 else ""

    def check(self, code: str, sid: int, name: str | None = None, computed: bool = False,
              grows: str = "") -> str:
        """A guard: the number must stay within 64 bits. The test `_big` makes, inline (this
        runs at every assignment of a number that is not proven small); like `_big`, it
        lets `none` by (`first` of nothing), unless the value was just computed by + or -.
        A number that only grew (`grows` "up") can only have crossed the upper bound, one
        that only shrank the lower one."""
        test = f"not {-BIG} <= {name or code} <= {BIG}"
        if computed and grows == "up":
            test = f"{name or code} > {BIG}"
        elif computed and grows == "down":
            test = f"{name or code} < {-BIG}"
        if not computed:
            test = f"{code} is not None and {test}"
        return f"if {test}: {self.cx.helper('_big')}({name or code}, {sid})"

    def bind_int(self, var: str, e: A.Expr, span: A.Span, fr: Frame, w: CodeWriter) -> bool:
        """After `var = <e>` has been written: guard it if it is a number not proven to
        stay within 64 bits. Whether the bound name holds a number."""
        if self.cx.type_of(e) != "int":
            return False
        b = self.bounds
        if b is None or not fits(b.of(e, b.scope(fr.env))):
            w.line(self.check(var, self.sid(span, fr)))
        return True

    def lvalue(self, e: A.Expr, fr: Frame) -> str:
        if isinstance(e, A.Name):
            ref = self.cx.ref(e)
            if ref.is_local:
                return fr.env[e.name].code
            return f"s[{self.cx.slot(ref)}]"
        assert isinstance(e, A.Index)
        return self.x.index(e, fr)

    def let(self, st: A.LetStmt, fr: Frame, w: CodeWriter) -> None:
        var = self.cx.names.tmp("v")
        code = self.x.into(st.value, fr, w)
        origin = self.x.origin(st.value, fr)
        w.line(f"{var} = {code}")
        kept = self.bind_int(var, st.value, st.span, fr, w)
        fr.env[st.name] = Local(var, origin, *(self.int_range(st, fr) if kept
                                               else self.player_range(st, fr)))

    def int_range(self, st: A.LetStmt, fr: Frame) -> tuple[int, int]:
        """A `let` of a number: within 64 bits (it is guarded), or, never assigned, the
        values its expression may take where those are known (`let gain = chips_for(...)`:
        0..4, so `chips[p] += gain` can only cross the upper bound)."""
        b = self.bounds
        r = b.of(st.value, b.scope(fr.env)) if b is not None else None
        if r is None or not fits(r) or self.assigned(st):
            return FULL
        return r

    def assigned(self, st: A.LetStmt) -> bool:
        """Is the local a `let` binds assigned later?"""
        cx = self.cx
        return any(isinstance(n, A.Assign) and isinstance(n.target, A.Name)
                   and cx.ref(n.target).is_local and cx.ref(n.target).decl is st
                   for n in cx.g.nodes())

    def player_range(self, st: A.LetStmt, fr: Frame) -> tuple[int | None, int | None]:
        """A `let` of a value that is certainly a player, and never assigned: 1..n (its
        uses as an index or a decider need no check)."""
        cx = self.cx
        if not self.x.certain_player(st.value, fr):
            return None, None
        for n in cx.g.nodes():
            if (isinstance(n, A.Assign) and isinstance(n.target, A.Name)
                    and cx.ref(n.target).is_local and cx.ref(n.target).decl is st):
                return None, None
        return 1, cx.n

    def call(self, st: A.CallStmt, fr: Frame, w: CodeWriter) -> None:
        args = [self.x.as_tuple(a, fr) for a in st.args]
        self.cx.names.draws += 1  # the procedure may draw from the step budget
        w.line(f"p_{self.cx.ref(st).name}(s{''.join(', ' + a for a in args)})")

    # ------------------------------------------------------------ control
    def if_(self, st: A.If, fr: Frame, w: CodeWriter) -> None:
        for i, (cond, body) in enumerate(st.branches):
            kw = "if" if i == 0 else "elif"
            # the first test is a statement's value; the others run only when it fails
            test = self.x.into(cond, fr, w, keep=False) if i == 0 else self.x.expr(cond, fr)
            w.line(f"{kw} {test}:")
            with w.indented():
                self.covered(st, i, fr, w)
                self.block(body, fr, w)
        cov = self.cx.cover(st, len(st.branches), fr.rule)
        if st.else_ or cov:
            w.line("else:")
            with w.indented():
                if cov:
                    w.line(cov)
                self.block(st.else_, fr, w)

    def covered(self, st: A.If, i: int, fr: Frame, w: CodeWriter) -> None:
        cov = self.cx.cover(st, i, fr.rule)
        if cov:
            w.line(cov)

    def for_(self, st: A.For, fr: Frame, w: CodeWriter) -> None:
        var = self.cx.names.tmp("f")
        src_t = self.cx.type_of(st.source)
        src = self.x.expr(st.source, fr)
        origin = None
        if src_t == "zone":
            origin = src
            src = f"s[{src}]"
        inner = fr.scope()
        lo, hi = self.cx.loop_range(st.source)
        if assigns(self.cx, st.body, st):
            lo = hi = None  # its values are the range's only until the body assigns it
        inner.env[st.var] = Local(var, origin, lo, hi)
        # the loop draws its number of rounds from the step budget when it starts
        w.line(f"for {var} in {self.x.charge(src, st.source, st.body, st.span, fr)}:")
        with w.indented():
            self.block(st.body, inner, w)

    def while_(self, st: A.While, fr: Frame, w: CodeWriter) -> None:
        cnt = self.cx.names.tmp("w")
        sid = self.sid(st.span, fr)
        w.line(f"{cnt} = 0")
        w.line(f"while {self.x.expr(st.cond, fr)}:")
        with w.indented():
            w.line(f"{cnt} += 1")
            w.line(f"if {cnt} > {LOOP_LIMIT}: {self.cx.helper('_loop')}({sid})")
            self.block(st.body, fr, w)
        # its rounds are drawn from the step budget when it stops (at most LOOP_LIMIT late)
        w.line(f"{self.cx.helper('_B')}[0] -= {cnt}")
        w.line(f"if _B[0] < 0: {self.cx.helper('_over')}({sid})")

    def repeat(self, st: A.Repeat, fr: Frame, w: CodeWriter) -> None:
        assert st.count is not None
        sid = self.sid(st.count.span, fr)
        w.line(f"for _ in {self.cx.helper('_rep')}({self.x.expr(st.count, fr)}, {sid}):")
        with w.indented():
            self.block(st.body, fr, w)

    def end(self, st: A.End, fr: Frame, w: CodeWriter) -> None:
        w.line(f"s[4] = {self.end_text(st, fr)}")
        w.line("raise _GameOver")

    def end_text(self, st: A.End, fr: Frame) -> str:
        if not st.reason:
            # not FLOW_END: a bare `end` is the designer's, not the flow running out
            return repr(BARE_END)
        return self.log_text(st.parts, fr)

    def log(self, st: A.Log, fr: Frame, w: CodeWriter) -> None:
        # the pieces stay apart, so that each seat's text can mask the cards it cannot see.
        # A log line is narration: a piece whose expression fails becomes a visible marker
        # (`_logfail`) and play goes on, whoever evaluates it (an observing call, the
        # fuzzer, which reports it as a rule hole); unobserved play skips the line.
        w.line("if REC is not None or LOGCHECK is not None:")
        with w.indented():
            # the line's steps are given back after it: narration costs the rules
            # nothing, as in unobserved play (a runaway part would else spend the
            # budget of the rule's later statements)
            spent = self.cx.names.tmp("lgb")
            w.line(f"{spent} = {self.cx.helper('_LB')}[0]")
            parts = []
            for p in st.parts:
                if isinstance(p, str):
                    parts.append(repr(p))
                    continue
                v = self.cx.names.tmp("lg")
                w.line("try:")
                with w.indented():
                    w.line(f"{v} = ({self.x.as_tuple(p, fr)}, {self.cx.type_of(p)!r})")
                w.line(f"except {self.cx.helper('_RuleError')} as _le:")
                with w.indented():
                    w.line(f"{v} = {self.cx.helper('_logfail')}(_le)")
                parts.append(v)
            w.line(f"{self.cx.helper('_LB')}[0] = {spent}")
            w.line(f"{self.cx.helper('_log')}(s{''.join(', ' + p for p in parts)})")

    def log_text(self, parts_in: tuple[str | A.Expr, ...], fr: Frame) -> str:
        parts = []
        for p in parts_in:
            if isinstance(p, str):
                parts.append(repr(p))
            else:
                parts.append(f"{self.cx.helper('_fmt')}({self.x.as_tuple(p, fr)}, "
                             f"{self.cx.type_of(p)!r})")
        return " + ".join(parts) if parts else "''"

    # ------------------------------------------------------------ cards
    def shuffle(self, st: A.Shuffle, fr: Frame, w: CodeWriter) -> None:
        z = self.x.expr(st.zone, fr)
        if not z.isidentifier() and not z.isdigit():
            zt = self.cx.names.tmp("z")
            w.line(f"{zt} = {z}")
            z = zt
        w.line(f"s[{z}] = {self.cx.helper('_shuffle')}(s, s[{z}])")
        f = self.cx.layout.faces
        if f is not None:  # a shuffled pile is squared: its cards take its face
            w.line(f"if s[{f}]: {self.cx.helper('_unturn')}(s, {f}, s[{z}])")
        w.line(f"if REC is not None: REC.shuffle(s, {z})")

    def deal(self, st: A.Deal, fr: Frame, w: CodeWriter) -> None:
        src = self.x.expr(st.source, fr)
        dests = self.x.expr(st.dests, fr)
        if self.cx.type_of(st.dests) == "zone":
            dests = f"({dests},)"
        n = "None" if st.count is None else self.x.expr(st.count, fr)
        sid = self.sid(st.span, fr)
        f = self.cx.layout.faces
        if f is None:
            w.line(f"{self.cx.helper('_deal')}(s, {src}, {dests}, {n}, {sid}, REC)")
            return
        # the dealt cards take the face of the zones they reach
        srcv, before = self.cx.names.tmp("z"), self.cx.names.tmp("t")
        w.line(f"{srcv} = {src}")
        w.line(f"{before} = s[{srcv}]")
        w.line(f"{self.cx.helper('_deal')}(s, {srcv}, {dests}, {n}, {sid}, REC)")
        w.line(f"if s[{f}]: {self.cx.helper('_unturn')}(s, {f}, {before}[len(s[{srcv}]):])")

    def turn(self, st: A.Turn, fr: Frame, w: CodeWriter) -> None:
        f = self.cx.layout.faces
        assert f is not None  # a `turn` statement makes the game keep faces
        cs = self.cx.names.tmp("c")
        w.line(f"{cs} = {self.x.expr(st.cards, fr)}")
        w.line(f"if REC is not None: REC.turn(s, {cs}, {st.up})")
        sid = self.sid(st.span, fr)
        w.line(f"{self.cx.helper('_turn')}(s, {f}, PUB, {cs}, {st.up}, {sid})")

    def move_cards(self, st: A.MoveCards, fr: Frame, w: CodeWriter) -> None:
        x = self.x
        cx = self.cx
        tmp = cx.names.tmp
        ct = cx.type_of(st.cards)
        dest = x.expr(st.dest, fr)
        if dest.isdigit() and cx.optimize:
            d = dest  # a zone's slot: nothing to compute first
        else:
            d = tmp("d")
            w.line(f"{d} = {dest}")

        face = "" if not st.face else f", {st.face == 'up'}"

        def tell(cs: str) -> None:  # before the cards leave: the recorder finds where they are
            w.line(f"if REC is not None: REC.move(s, {cs}, {d}, {st.bottom}{face})")

        f = cx.layout.faces

        def faced(cs: str) -> None:  # once they arrived: they take d's face, or the one said
            if f is None:
                return
            w.line(f"if s[{f}]: {cx.helper('_unturn')}(s, {f}, {cs})")
            if st.face:
                w.line(f"{cx.helper('_turnto')}(s, {f}, {cs}, {st.face == 'up'} != PUB[{d}])")

        def put(c: str) -> None:
            w.line(f"s[{d}] = ({c},) + s[{d}]" if st.bottom else f"s[{d}] = s[{d}] + ({c},)")

        def put_many(cs: str) -> None:
            w.line(f"s[{d}] = {cs} + s[{d}]" if st.bottom else f"s[{d}] = s[{d}] + {cs}")

        c = st.cards
        sid = self.sid(st.span, fr)
        if st.above:  # the card and every card on it, in their order
            card, z, cs = tmp("c"), tmp("z"), tmp("cs")
            w.line(f"{card} = {x.expr(c, fr)}")
            origin = x.origin(c, fr) if cx.optimize else None
            if origin is not None and self.fixed_zone(origin, fr):
                # a card whose zone is known (a parameter `c in a`): there if it has not
                # moved since, found by one search of that zone, not of every zone
                t = tmp("t")
                w.line(f"{t} = s[{origin}]")
                w.line(f"if {card} in {t}: {z}, {cs} = {origin}, {t}[{t}.index({card}):]")
                w.line(f"else: {z}, {cs} = {cx.helper('_above')}(s, {card}, {sid})")
            else:
                w.line(f"{z}, {cs} = {cx.helper('_above')}(s, {card}, {sid})")
            tell(cs)
            w.line(f"s[{z}] = s[{z}][:len(s[{z}]) - len({cs})]")
            put_many(cs)
            faced(cs)
            return
        if isinstance(c, A.Unary) and c.op in ("top", "bottom") and cx.type_of(c.operand) == "zone":
            z = tmp("z")
            t = tmp("t")
            w.line(f"{z} = {x.expr(c.operand, fr)}")
            w.line(f"{t} = s[{z}]")
            w.line(f"if not {t}: {cx.helper('_E')}({sid}, {self.sid(c.operand.span, fr)})")
            tell(f"{t}[-1]" if c.op == "top" else f"{t}[0]")
            if c.op == "top":
                w.line(f"s[{z}] = {t}[:-1]")
                put(f"{t}[-1]")
                faced(f"{t}[-1]")
            else:
                w.line(f"s[{z}] = {t}[1:]")
                put(f"{t}[0]")
                faced(f"{t}[0]")
            return
        if ct == "zone" or (isinstance(c, A.Unary) and c.op == "all"
                            and cx.type_of(c.operand) == "zone"):
            src_e = c.operand if isinstance(c, A.Unary) else c
            z = tmp("z")
            w.line(f"{z} = {x.expr(src_e, fr)}")
            w.line(f"if {z} != {d}:")
            with w.indented():
                moved = f"s[{z}][::-1]" if st.over else f"s[{z}]"
                tell(moved)
                put_many(moved)
                faced(f"s[{z}]")
                w.line(f"s[{z}] = ()")
            return
        if isinstance(c, A.TopN):
            z = tmp("z")
            n = tmp("n")
            t = tmp("t")
            w.line(f"{z} = {x.expr(c.zone, fr)}")
            w.line(f"{n} = {x.expr(c.count, fr)}")
            w.line(f"{t} = {cx.helper('_topn')}(s[{z}], {n}, {sid})")
            if st.over:
                w.line(f"{t} = {t}[::-1]")
            tell(t)
            w.line(f"s[{z}] = s[{z}][:len(s[{z}]) - len({t})]")
            put_many(t)
            faced(t)
            return
        if ct == "card":
            origin = x.origin(c, fr)
            code = x.expr(c, fr)
            if code.isidentifier() and cx.optimize:
                card = code  # a local (a parameter, a loop's card): read where it stands
            else:
                card = tmp("c")
                w.line(f"{card} = {code}")
            w.line(f"if REC is not None and {card} is not None: REC.move(s, {card}, {d}, {st.bottom}{face})")
            if origin is not None and cx.optimize:
                # `_take` written out: the card leaves its zone, found by one scan (or,
                # moved since it was chosen, wherever it is now). The zone's cards are
                # copied to a list, the card removed from it (its first place, as
                # `index` finds it) and the list made a tuple: two new objects, not the
                # three of two slices and their sum (15-25% cheaper at 1 to 52 cards)
                z, t = tmp("z"), tmp("l")
                if origin.isdigit():
                    z = origin
                else:
                    w.line(f"{z} = {origin}")
                w.line(f"{t} = [*s[{z}]]")
                w.line("try:")
                w.line(f"    {t}.remove({card})")
                w.line("except ValueError:")
                w.line(f"    {cx.helper('_take_any')}(s, {card}, {sid})")
                w.line("else:")
                w.line(f"    s[{z}] = tuple({t})")
            elif origin is not None:
                w.line(f"{cx.helper('_take')}(s, {origin}, {card}, {sid})")
            else:
                w.line(f"{cx.helper('_take_any')}(s, {card}, {sid})")
            put(card)
            faced(card)
            return
        # a list of cards: each leaves wherever it is, and they arrive in list order
        cs = tmp("cs")
        w.line(f"{cs} = tuple({x.expr(c, fr)})" + ("[::-1]" if st.over else ""))
        tell(cs)
        origin = None
        if isinstance(c, A.Quant) and cx.type_of(c.source) == "zone":
            origin = x.expr(c.source, fr)
        elif isinstance(c, A.Name):  # a set of cards chosen from a zone (a move parameter)
            origin = x.origin(c, fr)
        if origin is not None:
            w.line(f"{cx.helper('_take_many')}(s, {origin}, {cs}, {sid})")
        else:
            w.line(f"for _c in {cs}: {cx.helper('_take_any')}(s, _c, {sid})")
        put_many(cs)
        faced(cs)


def assigns(cx: Ctx, stmts: tuple[A.Stmt, ...], decl: A.For | A.MoveParam) -> bool:
    """Do these statements assign to the variable `decl` binds (a loop's, a move
    parameter)? Then its known range does not hold."""
    return any(isinstance(n, A.Assign) and isinstance(n.target, A.Name)
               and cx.ref(n.target).decl is decl for n in A.walk(stmts))
