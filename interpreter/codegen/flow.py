"""The flow, lowered to a graph held as data, and that graph as node functions.

A game stops at every decision and resumes from the state alone, so the flow becomes a
graph of nodes: each node runs straight-line code, then either jumps on (`Goto`, or a
`Branch` taken on a condition), waits for a decision (`Stop`), or ends the game
(`Finish`). `n_<i>(s)` returns the next node, or -1 to stop. Statements without a decision
inside run as plain Python within one node. Jump threading, the DOT picture and the
emitted functions all read the graph, never the emitted text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import attrs
else:  # the same declarations, built cheaply (lang/nodes.py): start-up time
    from ..lang import nodes as attrs

from ..errors import Diagnostic
from ..lang import ast as A
from ..lang import walk_stmts
from .bounds import FULL
from .layout import FLOW_END
from .stmts import Stmts, assigns
from .writer import CodeWriter, Frame, Local


@attrs.define
class Decision:
    node: int
    alts: tuple[int, ...]
    optional: bool
    simultaneous: bool
    succ: int
    span: A.Span
    who: int | None = None  # the decider, when it is a constant player


@attrs.define
class Branch:
    """`if cond: return target`, in the middle of a node."""

    cond: str
    target: int


@attrs.define
class Goto:
    target: int


@attrs.define
class Finish:
    """The game ends: `s[4] = reason`."""

    reason: str


@attrs.define
class Stop:
    """The flow waits for the decision this node set up."""


Exit = Goto | Finish | Stop


@attrs.define
class Node:
    phase: str
    span: A.Span
    body: list[str | Branch] = attrs.Factory(list)  # code lines (indented from 0) and branches
    exit: Exit | None = None  # None: stop (the node was never closed)
    ends: bool = False  # its code may end the game (`end`, or a procedure that ends)

    def targets(self) -> list[int]:
        out = [b.target for b in self.body if isinstance(b, Branch)]
        if isinstance(self.exit, Goto):
            out.append(self.exit.target)
        return out


@attrs.define
class FlowGraph:
    nodes: list[Node]
    entry: int
    decisions: dict[int, Decision]
    alias: dict[int, int] = attrs.Factory(dict)  # threaded jump nodes -> where they led
    kept: set[int] | None = None  # the nodes emitted (None: all)

    def is_kept(self, i: int) -> bool:
        return i not in self.alias if self.kept is None else i in self.kept

    def edges(self) -> dict[int, list[int]]:
        """Each kept node and the nodes it may jump to."""
        return {i: sorted(set(n.targets())) for i, n in enumerate(self.nodes)
                if self.is_kept(i)}

    def successors(self, i: int) -> list[int]:
        """Where control may go from node i: its jumps, or after a decision its successor."""
        d = self.decisions.get(i)
        return self.nodes[i].targets() + ([d.succ] if d is not None else [])

    def drop_unreachable(self) -> None:
        """Keep only the nodes a game can reach from the entry (after jump threading, the
        nodes that only jumped on are among those left behind)."""
        seen = {self.entry}
        todo = [self.entry]
        while todo:
            for t in self.successors(todo.pop()):
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
        self.kept = seen

    def _jumps(self) -> tuple[dict[int, int], Callable[[int], int]]:
        """The nodes that only jump on (not decisions), and where a jump to a node ends up
        once those are bypassed (a cycle of such nodes stays: it is a runaway loop)."""
        alias = {i: n.exit.target for i, n in enumerate(self.nodes)
                 if not n.body and isinstance(n.exit, Goto) and i not in self.decisions}

        def final(k: int) -> int:
            seen = set()
            while k in alias and k not in seen:
                seen.add(k)
                k = alias[k]
            return k

        return alias, final

    def bypassed(self) -> set[int]:
        """The nodes jump threading bypasses: no step ever runs them once threaded."""
        alias, final = self._jumps()
        return set(alias) - {final(i) for i in alias}

    def thread_jumps(self) -> None:
        """Bypass nodes that only jump on, so a step runs as few node functions as possible."""
        alias, final = self._jumps()
        for n in self.nodes:
            for b in n.body:
                if isinstance(b, Branch):
                    b.target = final(b.target)
            if isinstance(n.exit, Goto):
                n.exit.target = final(n.exit.target)
        for d in self.decisions.values():
            d.succ = final(d.succ)
        self.entry = final(self.entry)
        self.alias = alias

    def functions(self) -> list[str]:
        """The node functions and the NODES table."""
        out = []
        for i, n in enumerate(self.nodes):
            if self.kept is not None and i not in self.kept:
                continue
            out.append(f"def n_{i}(s):")
            for b in n.body:
                out.append(f"    if {b.cond}: return {b.target}" if isinstance(b, Branch)
                           else f"    {b}")
            if isinstance(n.exit, Goto):
                out.append(f"    return {n.exit.target}")
            elif isinstance(n.exit, Finish):
                out += [f"    s[4] = {n.exit.reason}", "    return -1"]
            else:
                out.append("    return -1")
            out.append("")
        out.append("NODES = (" + "".join(f"n_{i}, " if self.kept is None or i in self.kept
                                         else "None, " for i in range(len(self.nodes))) + ")")
        return out


class FlowLowering:
    """The flow's statements -> a FlowGraph."""

    def __init__(self, stmts: Stmts) -> None:
        self.stmts = stmts
        self.x = stmts.x
        self.cx = stmts.cx
        self.nodes: list[Node] = []
        self.decisions: dict[int, Decision] = {}

    def lower(self) -> FlowGraph:
        g = self.cx.g
        fr = Frame({}, "flow")
        entry = self.new_node(A.NOSPAN, fr)
        # the declared flow or, without one, the implicit one the checker built and typed
        last = self.emit(g.game_flow, entry, fr)
        # falling off the end of the flow ends the game
        self.nodes[last].exit = Finish(repr(FLOW_END))
        return FlowGraph(self.nodes, entry, self.decisions)

    def new_node(self, span: A.Span, fr: Frame) -> int:
        self.nodes.append(Node(fr.phase, span))
        return len(self.nodes) - 1

    def close(self, node: int, target: int) -> None:
        self.nodes[node].exit = Goto(target)

    def blocks(self, st: A.Stmt) -> bool:
        """Must this flow statement be lowered to nodes? Yes when it contains a decision,
        loops for ever, or breaks out of an enclosing flow loop."""
        for s in walk_stmts((st,)):
            if isinstance(s, A.Choose):
                return True
            if isinstance(s, A.CallStmt) and self.cx.ref(s).name in self.cx.g.blocking_procs:
                return True
            if isinstance(s, A.Repeat) and s.count is None:
                return True
        return _escaping_break(st)

    def may_end(self, stmts: tuple[A.Stmt, ...], seen: frozenset[str] = frozenset()) -> bool:
        """Does running these statements possibly end the game?"""
        for s in walk_stmts(stmts):
            if isinstance(s, A.End):
                return True
            if isinstance(s, A.CallStmt):
                p = self.cx.ref(s).decl
                if p.name not in seen and self.may_end(p.body, seen | {p.name}):
                    return True
        return False

    def emit(self, stmts: tuple[A.Stmt, ...], node: int, fr: Frame) -> int:
        """Append stmts to `node`; return the node where control continues."""
        for st in stmts:
            node = self.emit_one(st, node, fr)
        return node

    def code(self, node: int, line: str) -> None:
        self.nodes[node].body.append(line)

    def cover(self, node: int, st: A.If, i: int, fr: Frame) -> None:
        cov = self.cx.cover(st, i, fr.rule)
        if cov:
            self.code(node, cov)

    def emit_one(self, st: A.Stmt, node: int, fr: Frame) -> int:
        cx = self.cx
        x = self.x
        if isinstance(st, A.LetStmt):
            slot = cx.layout.new_slot()
            loc = self.keep(node, slot, st.value, st.span, fr)
            lo, hi = self.stmts.player_range(st, fr)
            fr.env[st.name] = attrs.evolve(loc, lo=lo, hi=hi) if lo is not None else loc
            return node
        if isinstance(st, A.End):
            self.nodes[node].exit = Finish(self.stmts.end_text(st, fr))
            return self.new_node(st.span, fr)
        if isinstance(st, A.Break) and fr.loops:
            self.close(node, fr.loops[-1])
            return self.new_node(st.span, fr)
        if not self.blocks(st):
            # a loop without a decision runs as a plain Python loop inside this node
            # (an `end` in it raises _GameOver, which `run` catches: the game stops here)
            w = CodeWriter()
            self.stmts.stmt(st, fr.scope() if isinstance(st, (A.For, A.While, A.Repeat))
                            else fr, w)
            self.nodes[node].body += w.lines
            self.nodes[node].ends |= self.may_end((st,))
            return node
        if isinstance(st, A.Choose):
            return self.choose(st, node, fr)
        if isinstance(st, A.Phase):
            inner = attrs.evolve(fr.scope(), phase=st.name)
            start = self.new_node(st.span, inner)
            self.close(node, start)
            end = self.emit(st.body, start, inner)
            after = self.new_node(st.span, fr)
            self.close(end, after)
            return after
        if isinstance(st, A.If):
            join = self.new_node(st.span, fr)
            heads = []
            first = CodeWriter()  # what the first test computes ahead (Exprs.into)
            for i, (cond, branch) in enumerate(st.branches):
                h = self.new_node(st.span, fr)
                heads.append((x.into(cond, fr, first, keep=False) if i == 0
                              else x.expr(cond, fr), h))
                self.cover(h, st, i, fr)
                end = self.emit(branch, h, fr.scope())
                self.close(end, join)
            else_target = join
            # in coverage mode an arm records in its own node that it ran (so that jump
            # threading cannot bypass it); the implicit else arm, after the branches, where
            # control falls through when none is taken (no node is added: the nodes keep
            # their numbers, and states agree with the uninstrumented code)
            if st.else_:
                eh = self.new_node(st.span, fr)
                self.cover(eh, st, len(st.branches), fr)
                end = self.emit(st.else_, eh, fr.scope())
                self.close(end, join)
                else_target = eh
            self.nodes[node].body += first.lines
            for cond_code, head_n in heads:
                self.nodes[node].body.append(Branch(cond_code, head_n))
            if not st.else_:
                self.cover(node, st, len(st.branches), fr)
            self.close(node, else_target)
            return join
        if isinstance(st, (A.While, A.Repeat, A.For)):
            return self.loop(st, node, fr)
        if isinstance(st, A.CallStmt) and cx.ref(st).name in cx.g.blocking_procs:
            p = cx.ref(st).decl
            inner = Frame({}, f"proc {p.name}", phase=fr.phase, loops=fr.loops)
            for prm, a in zip(p.params, st.args, strict=False):
                inner.env[prm.name] = self.keep(node, cx.layout.new_slot(), a, a.span, fr)
            return self.emit(p.body, node, inner)
        raise Diagnostic("internal: cannot lower this statement", st.span)  # pragma: no cover

    def keep(self, node: int, slot: int, e: A.Expr, span: A.Span, fr: Frame,
             lower: Callable[[A.Expr, Frame], str] | None = None) -> Local:
        """`s[slot] = <e>` in a node (a number guarded to 64 bits): the flow's variable."""
        w = CodeWriter()
        # (a statement evaluates it: the optimiser may compute it with statements first,
        # a quantifier as a loop that stops at its answer, with what the loop body reads
        # of the state outside the loop computed once before it)
        code = lower(e, fr) if lower is not None else self.x.into(e, fr, w)
        w.line(f"s[{slot}] = {code}")
        kept = self.stmts.bind_int(f"s[{slot}]", e, span, fr, w)
        self.nodes[node].body += w.lines
        return Local(f"s[{slot}]", None, *(FULL if kept else (None, None)))

    def choose(self, st: A.Choose, node: int, fr: Frame) -> int:
        cx = self.cx
        d = self.new_node(st.span, fr)
        self.close(node, d)
        who = self.x.expr(st.who, fr)
        dn = self.nodes[d]
        who_const = None
        skip = None
        if st.simultaneous and cx.optimize and isinstance(st.who, A.Players):
            # every player, once each: nothing to check, and never nobody
            dn.body += [f"s[5] = {who}", "s[3] = ()"]
        elif st.simultaneous:
            sid = cx.names.span_id(st.who.span, fr.rule)
            dn.body.append(f"s[5] = {cx.helper('_players')}({who}, {sid})")
            skip = len(dn.body)  # with nobody to choose, go straight on
            dn.body += ["s[3] = ()"]
        else:
            const = cx.const_int(st.who)
            if const is not None and 1 <= const <= cx.n:
                dn.body.append(f"s[5] = {const}")
                who_const = const
            elif self.is_player(st.who, fr):
                dn.body.append(f"s[5] = {who}")  # a loop over the players: no check
            else:
                sid = cx.names.span_id(st.who.span, fr.rule)
                dn.body.append(f"s[5] = {cx.helper('_player')}({who}, {sid})")
        dn.exit = Stop()
        cont = self.new_node(st.span, fr)
        if skip is not None:
            dn.body.insert(skip, Branch("not s[5]", cont))
        alts = tuple(cx.layout.move_ids[m] for m in st.moves)
        self.decisions[d] = Decision(d, alts, st.optional, st.simultaneous, cont, st.span,
                                     who_const)
        return cont

    def is_player(self, e: A.Expr, fr: Frame) -> bool:
        """Is e a local known to hold a player (a loop over the players that does not
        assign its variable)?"""
        loc = self.cx.local(e, fr.env)
        if loc is None:  # (`left of p`...: a player, or its evaluation fails)
            return self.x.certain_player(e, fr)
        return (self.cx.optimize and loc.lo is not None
                and loc.hi is not None and 1 <= loc.lo and loc.hi <= self.cx.n)

    def loop(self, st: A.While | A.Repeat | A.For, node: int, fr: Frame) -> int:
        cx = self.cx
        x = self.x
        head = self.new_node(st.span, fr)
        body_n = self.new_node(st.span, fr)
        exit_ = self.new_node(st.span, fr)
        inner = fr.scope()
        if isinstance(st, A.While):
            self.close(node, head)
            self.nodes[head].body.append(Branch(f"not {x.expr(st.cond, fr)}", exit_))
        elif isinstance(st, A.Repeat):
            if st.count is not None:
                ctr = cx.layout.new_slot()
                self.keep(node, ctr, st.count, st.count.span, fr, x.expr)
                self.nodes[head].body += [Branch(f"s[{ctr}] <= 0", exit_), f"s[{ctr}] -= 1"]
            self.close(node, head)
        else:
            lst = cx.layout.new_slot()
            pos = cx.layout.new_slot()
            var = cx.layout.new_slot()
            src = x.expr(st.source, fr)
            if cx.type_of(st.source) == "zone":
                src = f"s[{src}]"
            if not (cx.optimize and (isinstance(st.source, A.Players) or (
                    isinstance(st.source, A.Unary) and st.source.op == "players_from"))):
                src = f"tuple({src})"  # (the players, from one: a tuple of the tables)
            self.nodes[node].body += [f"s[{lst}] = {src}", f"s[{pos}] = 0"]
            self.close(node, head)
            self.nodes[head].body += [Branch(f"s[{pos}] >= len(s[{lst}])", exit_),
                                      f"s[{var}] = s[{lst}][s[{pos}]]", f"s[{pos}] += 1"]
            lo, hi = cx.value_range(st.source)
            if assigns(cx, st.body, st):
                lo = hi = None  # the body changes it: its range no longer holds
            inner.env[st.var] = Local(f"s[{var}]", None, lo, hi)
        self.close(head, body_n)
        end = self.emit(st.body, body_n, attrs.evolve(inner, loops=fr.loops + (exit_,)))
        self.close(end, head)
        return exit_


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
