"""Stage 5: checked game -> Python source -> the module the engine executes.

Every rule becomes straight Python over the flat state (layout.py): procedures and move
effects become functions (stmts.py, moves.py), a move's `when` becomes a legal-move
generator that tests each conjunct in the outermost parameter loop it depends on
(moves.py), and the flow becomes node functions returning the next node (flow.py), so that
a game can stop at any decision and resume from the state alone. Nothing from the game
file reaches the generated code except through names we mangle and literals we `repr`;
the code runs with no builtins beyond the few it needs (runtime.py).

`generate(checked, optimize=False)` emits the plain code, the reference that the
optimised code is tested against (tests/test_optimize.py). Plain code:
- calls each `def` as a function `d_<name>` (no inlining);
- does no hoisting, no guard elision after `Z is not empty`, no def tables and no
  unrolling in legal-move generators (optimize.py);
- keeps every flow node, the jump-only and unreachable ones too (no jump threading);
- guards every number it keeps (no interval proofs, bounds.py);
- binds `me` in every effect, and takes no shortcut for a constant decider or a single
  decision node (step.py).
What the language means is the same in both, and so it is not optional: conjunct
placement (moves.py), the checks that turn a slip into a rule error, the 64-bit guard,
and folding of constants the checker folds (a constant index, range or divisor).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import attrs
else:  # the same declarations, built cheaply (lang/nodes.py): start-up time
    from ..lang import nodes as attrs

from ..cards import SUITS
from ..lang import Checked
from ..lang import ast as A
from .context import Ctx
from .exprs import Exprs
from .flow import Decision, FlowGraph, FlowLowering
from .layout import ZoneSlot
from .moves import Moves
from .optimize import Optimizing, Sharing
from .runtime import DRAWS, STEPS
from .step import step_code
from .stmts import Stmts
from .writer import Arm, CodeWriter, Frame, Local


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
    graph: FlowGraph | None = None
    arms: list[Arm] = attrs.Factory(list)  # coverage mode: arm id -> the arm of an `if`
    faces_slot: int | None = None  # the cards turned from their zone's face (layout.py)
    # player variables that the rules keep a player, read without a check in optimised
    # code (exprs `player_vars`): a value from outside the rules is checked where it
    # comes in (engine positions `check_player_value`)
    player_vars: frozenset[str] = frozenset()
    # some legal moves are listed lazily (runtime.SetMoves: every set of cards of a move)
    lazy_moves: bool = False
    optimized: bool = True  # (the optimiser's code, or the plain code: codegen.legality)
    # the quiet steps (`generate(..., quiet=True)` only: step.py `specialised_steps`), to
    # be compiled into the game's own namespace (`Machine.quiet_steps`)
    quiet_source: str = ""


def generate(g: Checked, optimize: bool = True, coverage: bool = False,
             quiet: bool = False) -> Generated:
    """`coverage=True`: each arm of each `if` statement sets its slot of the module's
    `_COV` list when it runs (`Generated.arms` says which arm each slot is); with
    `coverage=False` the code is exactly the uninstrumented one. `quiet=True`: the same
    source, and the quiet steps' code beside it (`quiet_source`: the decisions' own steps
    without the listing after them, written with the game's names)."""
    cx = Ctx(g, optimize, coverage)
    x = Optimizing(cx) if optimize else Exprs(cx)
    stmts = Stmts(x)
    out = tables(cx)
    for pname, p in g.procs.items():
        if pname in g.blocking_procs:
            continue  # lowered into the flow's nodes
        w = CodeWriter("    ")
        players = x.player_params(p)  # (a player: no check where it indexes)
        stmts.block(p.body, Frame({prm.name: Local(f"u_{prm.name}", None,
                                                   *((1, g.players) if prm.name in players
                                                     else (None, None)))
                                   for prm in p.params}, f"proc {pname}"), w)
        out.append(f"def p_{pname}(s{''.join(', u_' + prm.name for prm in p.params)}):")
        out += w.lines
        out.append("")
    moves = Moves(stmts)
    generators: dict[int, list[str]] = {}
    param_types = []
    effects: dict[int, list[str]] = {}
    draws: set[int] = set()  # moves whose effect may draw from the step budget
    gen_draws: set[int] = set()  # ...whose legal-move generator may
    for name, md in g.moves.items():
        code = moves.lower(name, md)
        if code.effect_draws:
            draws.add(cx.layout.move_ids[name])
        if code.generator_draws:
            gen_draws.add(cx.layout.move_ids[name])
        out += code.effect
        effects[cx.layout.move_ids[name]] = code.effect[1:]  # the body, indented once
        generators[cx.layout.move_ids[name]] = code.generator
        param_types.append(code.param_types)
    for name, ad in g.autos.items():
        out += moves.auto(name, g.moves[name], ad)
    out.append("AUTO = {" + "".join(f"{cx.layout.move_ids[n]}: auto_{cx.layout.move_ids[n]}, "
                                    for n in g.autos) + "}")
    out += setup(stmts)
    graph = FlowLowering(stmts).lower()
    if optimize:
        graph.thread_jumps()
        graph.drop_unreachable()
    out += graph.functions()
    by_node = decision_generators(cx, graph, moves, generators)
    out += legal_functions(cx, graph, by_node)
    out += results(x)
    quiet_lines: list[str] | None = [] if quiet else None
    out += step_code(x, graph, effects,
                     {d.node: legal_body(cx, d, by_node[d.node])
                      for d in graph.decisions.values()},
                     draws, gen_draws, quiet_lines)
    out += def_functions(x)
    out += getattr(x, "module_lines", [])  # the optimiser's tables of the deck
    if coverage:
        out.append(f"_COV = [0] * {len(cx.names.arms)}")
    lay = cx.layout
    return Generated(
        source="\n".join(out) + "\n", nslots=lay.nslots, zone_slots=lay.zone_slots,
        zone_base=lay.zone_base, var_base=lay.var_base, move_names=list(g.moves),
        move_param_types=param_types, decisions=graph.decisions,
        node_phase={i: n.phase for i, n in enumerate(graph.nodes)},
        node_span={i: n.span for i, n in enumerate(graph.nodes)}, entry=graph.entry,
        end_node=len(graph.nodes), spans=cx.names.spans,
        card_text=[card_name(g, c.id) for c in g.cards], edges=graph.edges(), graph=graph,
        arms=list(cx.names.arms), faces_slot=lay.faces, player_vars=x.player_vars(),
        lazy_moves=cx.names.lazy_moves, optimized=optimize,
        quiet_source="\n".join(quiet_lines) + "\n" if quiet_lines else "",
    )


def tables(cx: Ctx) -> list[str]:
    """The card tables, the players and their orders, and each zone array's slots."""
    g = cx.g
    cards = g.cards
    out = [f"RANK = {tuple(c.rank for c in cards)!r}",
           # a card without a suit (a joker) has suit and color none
           f"SUIT = {tuple(c.suit or None for c in cards)!r}",
           # the French suits' colours (hearts and diamonds red); other suits have none
           "COLOR = " + repr(tuple((1 if c.suit in (2, 3) else 2)
                                   if c.suit and g.suit_names == SUITS else None
                                   for c in cards)),
           f"JOKER = {tuple(c.joker for c in cards)!r}"]
    for a in g.card_attrs:
        values: tuple[int | bool, ...] = tuple(c.extra.get(a, 0) for c in cards)
        if a in g.bool_attrs:
            values = tuple(bool(v) for v in values)
        out.append(f"X_{a} = {values!r}")
    n = cx.n
    out.append(f"PLAYERS = {tuple(range(1, n + 1))!r}")
    order = {p: tuple((p - 1 + k) % n + 1 for k in range(n)) for p in range(1, n + 1)}
    out.append(f"ORDER = {(None,) + tuple(order[p] for p in range(1, n + 1))!r}")
    for z in g.zones.values():
        if z.dim is not None:
            base = cx.layout.zone_base[z.name]
            out.append(f"Z_{z.name} = {tuple(range(base, base + z.dim[1]))!r}")
        if z.grid is not None:  # a grid's rows: the slots of each
            base = cx.layout.zone_base[z.name]
            rows, at = [], base
            for n_ in z.grid:
                rows.append(tuple(range(at, at + n_)))
                at += n_
            out.append(f"R_{z.name} = {tuple(rows)!r}")
    # `covered by`: for each zone's slot, the slots that cover it (`covered(z)`)
    out.append(f"COVER = {tuple(cx.layout.covers[:cx.layout.zone_slots[-1].slot + 1])!r}")
    # per-card faces: the slot of the turned cards (None: no rule turns a card) and, by
    # zone slot, whether the zone is face up
    out.append(f"FACES = {cx.layout.faces!r}")
    pub = [False] * (max((z.slot for z in cx.layout.zone_slots), default=0) + 1)
    for zs in cx.layout.zone_slots:
        pub[zs.slot] = g.zones[zs.decl].visibility == "public"
    out.append(f"PUB = {tuple(pub)!r}")
    out.append("")
    return out


def setup(stmts: Stmts) -> list[str]:
    """The initial values of the variables, then the setup block.

    Optimised code (without coverage) splits it where the setup first may draw from the
    random generator (`draws_chance`): `setup_fixed`, the variables and the statements
    before that point, reads nothing of the state but the slots before setup (the seed
    least of all), so the engine runs it once per compiled game and copies its slots for
    each deal (playout.Machine._dealt); `setup_drawn` runs the rest. `setup` runs both."""
    cx = stmts.cx
    g = cx.g
    w = CodeWriter("    ")
    if cx.layout.faces is not None:
        w.line(f"s[{cx.layout.faces}] = ()  # no card turned yet")
    for v in g.vars.values():
        fr = Frame({}, f"var {v.name}")
        code = stmts.x.as_tuple(v.init, fr)
        base = cx.layout.var_base[v.name]
        if v.dim is None:
            w.line(f"s[{base}] = {code}")
            stmts.bind_int(f"s[{base}]", v.init, v.init.span, fr, w)  # a number: within 64 bits
            continue
        guard = CodeWriter()
        stmts.bind_int(f"s[{base} + _i]", v.init, v.init.span, fr, guard)
        if not guard.lines:
            w.line(f"for _i in range({v.dim[1]}): s[{base} + _i] = {code}")
            continue
        w.line(f"for _i in range({v.dim[1]}):")
        with w.indented():
            w.line(f"s[{base} + _i] = {code}")
            w.lines += [w.ind + ln for ln in guard.lines]
    budget = f"    _B[0] = {STEPS}  # each entry point starts a budget"
    if not cx.optimize or cx.coverage or draws_chance(g, tuple(v.init for v in g.vars.values())):
        stmts.block(g.setup, Frame({}, "setup"), w)
        return ["def setup(s):", budget] + w.lines + [""]
    k = 0  # the statements before the first that may draw (or binds a name the rest reads)
    while k < len(g.setup) and not isinstance(g.setup[k], A.LetStmt) and not draws_chance(
            g, g.setup[k]):
        k += 1
    stmts.block(g.setup[:k], Frame({}, "setup"), w)
    rest = CodeWriter("    ")
    stmts.block(g.setup[k:], Frame({}, "setup"), rest)
    return (["def setup(s):", budget, "    setup_fixed(s)", "    setup_drawn(s)", "",
             "def setup_fixed(s):  # the same for every seed: run once, its slots copied"]
            + w.lines + ["", "def setup_drawn(s):"] + rest.lines + [""])


def draws_chance(g: Checked, root: object) -> bool:
    """May running `root` (statements or expressions) draw from the random generator: a
    `shuffle`, a random pick (`random x in L`, `random(L)`), in it or in a def or a
    procedure it calls? (Conservative: a name that may be a def's counts as a call.)"""
    seen: set[str] = set()
    todo = [root]
    while todo:
        for n in A.walk(todo.pop()):
            if (isinstance(n, A.Shuffle) or (isinstance(n, A.Quant) and n.kind == "random")
                    or (isinstance(n, A.Call) and n.func == "random")):
                return True
            name = (n.func if isinstance(n, (A.Call, A.CallStmt))
                    else n.name if isinstance(n, A.Name) else None)
            if name is not None and name not in seen:
                seen.add(name)
                if name in g.defs:
                    todo.append(g.defs[name].body)
                if name in g.procs:
                    todo.append(g.procs[name].body)
    return False


def decision_generators(cx: Ctx, graph: FlowGraph, moves: Moves,
                        generators: dict[int, list[str]]) -> dict[int, dict[int, list[str]]]:
    """The legal-move generator of each move each decision offers, by decision node. In
    optimised code, where the decider is known when compiling (a constant player, or the
    only one), each move's generator is written again for that player: its moves are
    constants. In a decision that is not simultaneous, the values of the state that two
    generators or more compute are computed once for the decision (`optimize.Sharing`):
    the generators are written once counting them, then again sharing them."""
    g = cx.g
    names = list(g.moves)
    written: dict[tuple[int, int | None], tuple[list[str], dict[Any, int]]] = {}
    shared: dict[tuple[int, int | None, frozenset[Any]], tuple[list[str], set[str]]] = {}
    share_names: dict[Any, str] = {}  # the variable of each shared value
    out: dict[int, dict[int, list[str]]] = {}
    for d in graph.decisions.values():
        me = d.who if d.who is not None else 1 if cx.n == 1 else None
        if not cx.optimize or cx.coverage or d.simultaneous:
            out[d.node] = generators
            continue
        gens = dict(generators)
        alts = [alt for alt in d.alts if alt < len(names)]  # (not the pass of a choice)
        count: dict[Any, int] = {}
        for alt in alts:
            if (alt, me) not in written:
                counting = Sharing(None, share_names)
                written[alt, me] = (moves.generator(g.moves[names[alt]], alt,
                                                    f"move {names[alt]}", me, counting),
                                    counting.seen)
            if me is not None:  # (else the generator as it was written for any player)
                gens[alt] = written[alt, me][0]
            for key in written[alt, me][1]:
                count[key] = count.get(key, 0) + 1
        # the values of the state that two generators or more compute: computed once for
        # the decision (in one generator, the unswitched arms that compute it exclude
        # each other, and its own hoisting keeps it out of the loops)
        keys = frozenset(k for k, n in count.items() if n > 1)
        used: set[str] = set()
        for alt in alts if keys else ():
            if keys.isdisjoint(written[alt, me][1]):
                continue
            if (alt, me, keys) not in shared:
                sharing = Sharing(keys, share_names)
                shared[alt, me, keys] = (moves.generator(g.moves[names[alt]], alt,
                                                         f"move {names[alt]}", me, sharing),
                                         sharing.used)
            gens[alt], vars_ = shared[alt, me, keys]
            used |= vars_
        if used:
            gens[alts[0]] = [f"{v} = ..." for v in sorted(used)] + gens[alts[0]]
        out[d.node] = gens
    return out


def legal_functions(cx: Ctx, graph: FlowGraph, by_node: dict[int, dict[int, list[str]]]
                    ) -> list[str]:
    """The legal moves at each decision node, and the tables the step reads."""
    out = []
    decisions = graph.decisions
    for d in decisions.values():
        out.append(f"def legal_{d.node}(s):")
        out += ["    " + ln for ln in legal_body(cx, d, by_node[d.node])]
        out.append("")
    out.append("LEGAL = {" + ", ".join(f"{d}: legal_{d}" for d in decisions) + "}")
    out.append("SUCC = {" + ", ".join(f"{d.node}: {d.succ}" for d in decisions.values()) + "}")
    out.append("SIMULTANEOUS = frozenset(("
               + "".join(f"{d.node}, " for d in decisions.values() if d.simultaneous) + "))")
    out.append("EFF = (" + "".join(f"eff_{i}, " for i in range(len(cx.g.moves)))
               + "_pass_effect, )")
    return out


def legal_body(cx: Ctx, d: Decision, generators: dict[int, list[str]]) -> list[str]:
    """The body of `legal_<d>(s)` (indented from 0), ending with `return out`."""
    out = ["out = []"]
    if d.simultaneous:
        # (the round's first listing: nobody has chosen yet, no set to make)
        out.append("done = {m[0] for m in s[3]}" + (" if s[3] else ()" if cx.optimize else ""))
        out.append("for me in s[5]:")
        out.append("    if me in done: continue")
        ind = "    "
    else:
        out.append("me = s[5]")
        ind = ""
    for alt in d.alts:
        out.extend(ind + ln for ln in generators[alt])
    if d.optional:
        out.append(f"{ind}out.append((me, {cx.layout.pass_id}))")
    out.append("return out")
    return out


def results(x: Exprs) -> list[str]:
    """score, won and the invariants."""
    g = x.cx.g
    me = {"me": Local("me")}
    reset = f"    _B[0] = {STEPS}"
    out = ["def score(s, me):"]
    if g.score is not None:
        fr = Frame(dict(me), "score")
        code = x.expr(g.score, fr)
        if not x.fits(g.score, fr):  # a score leaves the game: averages, JSON, the screen
            code = f"{x.cx.helper('_big')}({code}, {x.sid(g.score.span, fr)})"
        out += [reset, f"    return {code}"]
    else:
        out.append("    return 0")
    out.append("")
    out.append("def won(s, me):")
    if g.result is not None and g.result.cond is not None:
        out.append(reset)
        out += _returned(x, g.result.cond, Frame(dict(me), "result"), "bool({})")
    else:
        out.append("    return False")
    out.append("")
    out.append("def pushed(s, me):")  # `result against ROLE: ..., push when COND`
    if g.result is not None and g.result.push is not None:
        out.append(reset)
        out += _returned(x, g.result.push, Frame(dict(me), "result"), "bool({})")
    else:
        out.append("    return False")
    out.append("")
    names = []
    wholes: dict[str, str] = {}  # each invariant's function body
    for inv in g.invariants:
        out.append(f"def inv_{inv.name}(s, _legal):")
        out.append(reset)
        test = "not " if inv.negated else ""  # `expect never COND`
        whole = _returned(x, inv.cond, Frame({}, f"invariant {inv.name}"),
                          test + "bool({})")
        wholes[inv.name] = "\n".join(whole)
        out += whole
        out.append("")
        names.append(inv.name)
    out.append("INVARIANTS = (" + "".join(f"({n!r}, inv_{n}), " for n in names) + ")")
    if x.cx.optimize:
        out += invariant_parts(x, wholes)
    # `expect sometimes COND`: (its title, a test of a state), for fuzz's reachability
    for k, xp in enumerate(g.expects):
        out.append(f"def exp_{k}(s, _legal):")
        out.append(reset)
        out += _returned(x, xp.cond, Frame({}, f"expect {k}"), "bool({})")
        out.append("")
    out.append("EXPECTS = (" + "".join(f"({xp.title!r}, exp_{k}), "
                                       for k, xp in enumerate(g.expects)) + ")")
    return out


# a budget draw (runtime.DRAWS, and the moves' `_msets`) or a def or procedure function's
# call in generated code: the list is runtime's, so a new drawing helper is seen here too
_DRAWN = re.compile(r"\b(?:" + "|".join(sorted(DRAWS | {"_msets"})) + r"|[dp]_\w+)\(|\b_B\[")
# a quantifier's source whose value is a constant tuple: a zone array's slots, the players,
# or a tuple of numbers written out (the suits; a range `1..3` is `range(1, 4)`, not one)
_CONST_SOURCE = re.compile(r"Z_\w+|PLAYERS|\((?:-?\d+, )*(?:-?\d+)?\)")
# the rest of a draw `_n(T, sid)` over such a tuple
_DRAWN_T = re.compile(rf"(?:{_CONST_SOURCE.pattern}), \d+\)")


def invariant_parts(x: Exprs, wholes: dict[str, str]) -> list[str]:
    """The parts of the invariants that are an `and` of conjuncts one of which is
    `all v in T: body` (T a constant tuple: a zone array, the suits, the players): each
    conjunct a function of its own, the quantifier's body one of the state and the value
    (`inve_<name>_<j>(s, _k)`), the others of the state and the legal moves
    (`invp_<name>_<j>`). `INV_PARTS` maps the invariant's name to (T's values or None,
    the function) a conjunct, in order. The invariant holds iff every body holds for
    every value of T and every other conjunct holds: the fuzzer's walks (engine/walk.py)
    test again only the parts whose reads changed since a state where all held (a step
    that changes one column of Klondike tests that column's runs, not the seven).
    Only where no part draws from the step budget, and the whole invariant's function
    draws only by those quantifiers over T (`_n(T, sid)`, once each: a constant, so the
    whole cannot run out of steps, and each part's value depends on the state alone),
    and none reads the legal moves; else the invariant is left whole."""
    g = x.cx.g
    reset = f"    _B[0] = {STEPS}"
    out: list[str] = []
    table: list[str] = []
    for inv in g.invariants:
        if inv.negated:
            continue
        parts = A.conjuncts(inv.cond)
        each = [isinstance(p, A.Quant) and p.kind == "all" and p.where is None
                and p.body is not None and isinstance(p.source, (A.Name, A.Players))
                and x.cx.type_of(p.source) != "zone"
                and _CONST_SOURCE.fullmatch(x.expr(p.source, Frame({}, ""))) is not None
                for p in parts]
        drawn = _DRAWN.findall(wholes[inv.name])
        if not any(each) or len(drawn) > sum(each) or any(d != "_n(" for d in drawn) \
                or any(not _DRAWN_T.match(wholes[inv.name], m.end())
                       for m in _DRAWN.finditer(wholes[inv.name])):
            continue
        rule = f"invariant {inv.name}"
        lines: list[str] = []
        entries: list[str] = []
        for j, (part, is_each) in enumerate(zip(parts, each, strict=True)):
            fr = Frame({}, rule)
            if is_each:
                assert isinstance(part, A.Quant) and part.body is not None
                src = x.expr(part.source, fr)
                inner = fr.scope()
                lo, hi = x.cx.loop_range(part.source)
                # (over an array's zones: their tuple, whose zones share a face)
                inner.env[part.var] = Local("_k", None, lo, hi,
                                            positions=x.positions(part.source, fr),
                                            certain=True,
                                            domain=src if src.startswith("Z_") else None)
                name = f"inve_{inv.name}_{j}"
                body = _returned(x, part.body, inner, "bool({})")
                entries.append(f"({src}, {name})")
                head = f"def {name}(s, _k):"
            else:
                name = f"invp_{inv.name}_{j}"
                body = _returned(x, part, fr, "bool({})")
                entries.append(f"(None, {name})")
                head = f"def {name}(s, _legal):"
            text = "\n".join(body)
            if _DRAWN.search(text) or re.search(r"\b_legal\b", text):
                break
            lines += [head, reset, *body, ""]
        else:
            out += lines
            table.append(f"{inv.name!r}: ({''.join(e + ', ' for e in entries)}), ")
    out.append("INV_PARTS = {" + "".join(table) + "}")
    return out


def _returned(x: Exprs, e: A.Expr, fr: Frame, wrap: str) -> list[str]:
    """The lines of a function body that returns `wrap` of e's value, lowered as a
    statement's (optimised, `Optimizing.into`: a quantifier is a loop of statements that
    stops at the answer, an invariant's `all place in pyramid: ...`, not a generator that
    `all` drains; plain code writes no statement)."""
    w = CodeWriter("    ")
    code = x.into(e, fr, w, keep=False)
    w.line(f"return {wrap.format(code)}")
    return w.lines


def def_functions(x: Exprs) -> list[str]:
    """d_<name> for each def that is called rather than inlined (compiling one may call
    for another)."""
    cx = x.cx
    out: list[str] = []
    done: set[str] = set()
    while cx.def_funcs - done:
        name = sorted(cx.def_funcs - done)[0]
        done.add(name)
        d = cx.g.defs[name]
        fr = Frame({p.name: Local(f"u_{p.name}") for p in d.params}, f"def {name}")
        out.append(f"def d_{name}(s{''.join(', u_' + p.name for p in d.params)}):")
        # a call is a step: defs that each call the next twice run out of budget, not time
        out.append("    _B[0] -= 1")
        out.append(f"    if _B[0] < 0: {cx.helper('_over')}({x.sid(d.body.span, fr)})")
        out.append(f"    return {x.expr(d.body, fr)}")
        out.append("")
    return out


def card_name(g: Checked, cid: int) -> str:
    c = g.cards[cid]
    if c.joker:
        return "JK"
    names = g.rank_names
    rank = names[c.rank - 1] if names and 1 <= c.rank <= len(names) else str(c.rank)
    return rank + (g.suit_symbols[c.suit - 1] if c.suit else "")
