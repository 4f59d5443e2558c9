"""Static limits: what `check` can bound before a game runs, and refuses beyond the limits
(docs/limits.md).

- the depth of calls between defs and between procs, and the calls a def makes in all
  (a def that calls another twice, 60 deep, is 2^60 calls);
- the combinations of a move's parameters (52 x 52 x 52 x 52 is too many to list);
- loops and quantifiers over constant counts, nested (their product);
- move texts: two moves that could be written alike, or a move named like a command.

The run-time step budget bounds what cannot be known here; these limits give a located
message at `check` instead of a rule error during play.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..cards import SUITS
from . import ast as A
from .consts import Constants, const_int
from .program import MissingEntry, ZoneInfo
from .symbols import Reporter, Symbols

MAX_CALL_DEPTH = 50  # defs (or procs) each calling the next
MAX_DEF_CALLS = 1_000_000  # def calls one call of a def makes, counted through every call
MAX_MOVE_COMBINATIONS = 1_000_000  # the product of a move's parameter domains
MAX_LOOP = 100_000  # rounds of one loop over a constant count (as at run time)
MAX_EXAMPLES = 500  # `example` blocks in one game
MAX_EXAMPLE_STEPS = 1_000  # lines of one example (each move it plays runs the step budget)
MAX_EXAMPLE_CARDS = 128  # cards named on one line of an example
MAX_EXAMPLE_TEXT = 1_000  # characters of a move text or reason in an example
MAX_NESTED_LOOPS = 1_000_000  # = codegen STEPS (the run-time budget): rounds of nested loops over constant counts, multiplied

# The game prompt's commands (repl/commands.py: COMMANDS and ALIASES; the replay's own
# commands take no move), and `pass`, the move of an optional choice. A move without
# parameters may not be named like any of them; a move with parameters not like a command
# that takes words after it (`save 2` would be ambiguous, `show Q♠` is not).
ARG_COMMANDS = frozenset({"help", "undo", "redo", "save", "load", "new", "set"})
WORD_COMMANDS = frozenset({"rules", "moves", "show", "hint", "log", "concede", "quit",
                           "restart", "exit", "q", "table", "h", "pass"})


def _product(factors: list[int]) -> str:
    return " x ".join(f"{f:,}" for f in factors)


# --------------------------------------------------------------- calls
def _callees(body: A.Expr | tuple[A.Stmt, ...], defs: dict[str, A.DefDecl],
             procs: dict[str, A.ProcDecl]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for node in A.walk(body):
        if isinstance(node, A.Call) and node.func in defs:
            out.append(("def", node.func))
        elif isinstance(node, A.Name) and node.name in defs and defs[node.name].is_const:
            out.append(("def", node.name))
        elif isinstance(node, A.CallStmt) and node.func in procs:
            out.append(("proc", node.func))
    return out


def check_calls(defs: dict[str, A.DefDecl], procs: dict[str, A.ProcDecl],
                report: Reporter) -> bool:
    """Report defs or procs that call too deep, or a def whose calls multiply beyond the
    limit. True if so: the later passes recurse along the calls and must not run."""
    graph: dict[tuple[str, str], list[tuple[str, str]]] = {}
    spans: dict[tuple[str, str], A.Span] = {}
    for n, d in defs.items():
        graph["def", n] = _callees(d.body, defs, procs)
        spans["def", n] = d.span
    for n, p in procs.items():
        graph["proc", n] = _callees(p.body, defs, procs)
        spans["proc", n] = p.span
    depth: dict[tuple[str, str], int] = {}
    calls: dict[tuple[str, str], int] = {}
    for root in graph:
        if root in depth:
            continue
        # depth first, without recursion: a chain may be thousands long
        stack: list[tuple[tuple[str, str], int]] = [(root, 0)]
        on_path: set[tuple[str, str]] = set()
        while stack:
            node, i = stack.pop()
            if i == 0:
                on_path.add(node)
            succ = graph[node]
            if i < len(succ):
                stack.append((node, i + 1))
                nxt = succ[i]
                if nxt not in depth and nxt not in on_path:  # a cycle is reported elsewhere
                    stack.append((nxt, 0))
                continue
            on_path.discard(node)
            depth[node] = 1 + max((depth.get(s, 0) for s in succ), default=0)
            total = 1 + sum(calls.get(s, 0) for s in succ if s[0] == "def")
            calls[node] = min(total, MAX_DEF_CALLS + 1)
    bad = False
    deepest = max(depth, key=lambda k: depth[k], default=None)
    if deepest is not None and depth[deepest] > MAX_CALL_DEPTH:
        kind, name = deepest
        report.err(f"the calls from {kind} '{name}' go {depth[deepest]:,} {kind}s deep, over "
                   f"the limit of {MAX_CALL_DEPTH}", spans[deepest],
                   "compute in fewer steps: a quantifier or a loop instead of a chain of calls")
        bad = True
    for key, count in calls.items():
        if key[0] == "def" and count > MAX_DEF_CALLS:
            report.err(f"one call of '{key[1]}' makes more than {MAX_DEF_CALLS:,} def calls "
                       "(a def calling others more than once, nested)", spans[key],
                       "compute the shared part once, with a 'let'")
            bad = True
            break
    return bad


# --------------------------------------------------------------- loops
class _Loops:
    """Walk the rules, multiplying the constant counts of the loops around each loop."""

    def __init__(self, syms: Symbols, report: Reporter) -> None:
        self.consts: Constants = syms.consts
        self.players = syms.players
        self.report = report

    def count(self, source: A.Expr) -> int | None:
        if isinstance(source, A.Binary) and source.op == "..":
            lo, hi = const_int(source.left, self.consts), const_int(source.right, self.consts)
            if lo is not None and hi is not None:
                return max(0, hi - lo + 1)
        if isinstance(source, A.ListLit):
            return len(source.items)
        if isinstance(source, A.Players):
            return self.players
        return None

    def run(self, root: object) -> None:
        stack: list[tuple[object, list[int]]] = [(root, [])]
        while stack:
            node, factors = stack.pop()
            inner = factors
            n: int | None = None
            source: A.Expr | None = None
            if isinstance(node, A.For):
                source = node.source
                n = self.count(node.source)
            elif isinstance(node, A.Quant):
                source = node.source
                n = self.count(node.source)
            elif isinstance(node, A.Repeat) and node.count is not None:
                source = node.count
                n = const_int(node.count, self.consts)
            if n is not None and n > 1 and source is not None:
                inner = [*factors, n]
                if n > MAX_LOOP:
                    self.report.err(f"this loop runs {n:,} times, over the limit of "
                                    f"{MAX_LOOP:,}", source.span)
                    continue
                total = 1
                for f in inner:
                    total *= f
                if total > MAX_NESTED_LOOPS:
                    self.report.err(f"these nested loops run {_product(inner)} = {total:,} "
                                    f"times, over the limit of {MAX_NESTED_LOOPS:,}",
                                    source.span, "loop over fewer values, or not inside "
                                    "another loop")
                    continue
            if isinstance(node, (A.Expr, A.Stmt)):
                children: Iterator[object] = A.children(node)
            elif isinstance(node, tuple):
                children = iter(node)
            else:
                children = iter(())
            for c in children:
                stack.append((c, inner))


def check_loops(decls: tuple[A.Decl, ...], syms: Symbols, report: Reporter) -> None:
    walker = _Loops(syms, report)
    for d in decls:
        for body in _bodies(d):
            walker.run(body)


def _bodies(d: A.Decl) -> Iterator[object]:
    if isinstance(d, (A.SetupDecl, A.FlowDecl, A.ProcDecl)):
        yield d.body
    elif isinstance(d, A.MoveDecl):
        yield d.when
        yield d.body
    elif isinstance(d, A.DefDecl):
        yield d.body
    elif isinstance(d, (A.EndDecl, A.InvariantDecl, A.ExpectDecl)):
        yield d.cond
    elif isinstance(d, A.ScoreDecl):
        yield d.expr
    elif isinstance(d, A.ResultDecl):
        yield d.cond


# --------------------------------------------------------------- moves
def check_move_params(moves: dict[str, A.MoveDecl], syms: Symbols, deck_size: int,
                      report: Reporter) -> None:
    """The combinations of each move's parameters, where each domain can be bounded: a
    constant range, a list, the players, the suits, cards (at most the deck), zones."""
    loops = _Loops(syms, report)
    zone_count = sum(z.dim[1] if z.dim else 1 for z in syms.zones.values())
    for md in moves.values():
        factors: list[int] = []
        for mp in md.params:
            n = loops.count(mp.source)
            if n is None:
                try:
                    t = syms.types[mp.source]
                except MissingEntry:
                    t = ""
                n = {"zone": deck_size, "list:card": deck_size, "list:player": syms.players,
                     "list:suit": 4, "list:zone": zone_count, "list:bool": 2}.get(t)
            if n is not None:
                factors.append(n)
        total = 1
        for f in factors:
            total *= f
        if total > MAX_MOVE_COMBINATIONS:
            report.err(f"move {md.name} has {_product(factors)} parameter combinations, over "
                       f"the limit of {MAX_MOVE_COMBINATIONS:,}", md.span,
                       "use fewer parameters, or narrow them (a 'when' does not: every "
                       "combination is tried)")


def zone_texts(zones: dict[str, ZoneInfo],
               suits: tuple[str, ...] = SUITS) -> Iterator[tuple[str, ZoneInfo]]:
    """The text of every zone as a move writes it (as codegen/layout.py forms it)."""
    for z in zones.values():
        if z.dim is None:
            yield z.name, z
            continue
        kind, size = z.dim
        for i in range(1, size + 1):
            if kind == "suit":
                yield f"{z.name}-{suits[i - 1]}", z
            elif kind == "player":
                yield f"{z.name}-p{i}", z
            else:
                yield f"{z.name}{i}", z


def check_move_texts(moves: dict[str, A.MoveDecl], zones: dict[str, ZoneInfo],
                     report: Reporter, suits: tuple[str, ...] = SUITS) -> None:
    """No two moves may be written alike: a text names one move, in play and in a save.
    Texts compare without case (as the REPL reads them)."""
    seen: dict[str, A.MoveDecl] = {}
    for md in moves.values():
        key = md.name.lower()
        if key in ARG_COMMANDS or (key in WORD_COMMANDS and not md.params):
            report.err(f"a move may not be named '{md.name}': it would be typed like the "
                       f"command '{key}' of the game prompt", md.span,
                       f"call it '{md.name}_move' or 'do_{md.name}'")
        elif key in seen:
            report.err(f"move '{md.name}' is written like move '{seen[key].name}' (case "
                       "does not count)", md.span, "give the moves different names")
        seen.setdefault(key, md)
    texts: dict[str, str] = {}
    reported: set[tuple[str, str]] = set()
    for text, z in zone_texts(zones, suits):
        key = text.lower()
        first = texts.get(key)
        if first is not None and first != z.name and (first, z.name) not in reported:
            reported.add((first, z.name))
            report.err(f"zone '{z.name}' gives a zone written '{text}', like one of zone "
                       f"'{first}': a move naming it would be ambiguous", z.span,
                       "rename one of them (a zone array 'pile[3]' is written pile1..pile3)")
            continue
        texts[key] = z.name
