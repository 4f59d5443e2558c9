"""The hot path of a step, generated into every game so that it runs on fast globals:
`settle` (the move limit, the end conditions and the new legal moves), `run` (the flow
from a node to the next decision) and `step_settle` (apply a move, run, settle)."""

from __future__ import annotations

from collections import deque

from ..lang import ast as A
from .exprs import Exprs
from .flow import Decision, Finish, FlowGraph, Goto
from .runtime import STEPS
from .stmts import LOOP_LIMIT
from .writer import CodeWriter, Frame


def end_test(x: Exprs, cond: A.Expr) -> tuple[list[str], str]:
    """An end condition's test: the statements that compute it (optimised, a quantifier is
    a loop of statements that stops at the answer: `Optimizing.into`; plain code, none),
    and the code of its truth value."""
    w = CodeWriter()
    code = x.into(cond, Frame({}, "end"), w, keep=False)
    return w.lines, code


def step_code(x: Exprs, graph: FlowGraph, effects: dict[int, list[str]] | None = None,
              legal: dict[int, list[str]] | None = None, draws: set[int] | None = None,
              gen_draws: set[int] | None = None, quiet: list[str] | None = None
              ) -> list[str]:
    """Simultaneous choices (rare) go through the engine's general path. `draws`,
    `gen_draws`: the moves whose effect, whose legal-move generator may draw from the
    step budget (None: any may). `quiet`: a list that receives the quiet steps' code
    (`specialised_steps`), where the decisions have steps of their own."""
    cx = x.cx
    g = cx.g
    decisions = graph.decisions
    lines = []
    # a decision whose decider is a constant is entered without calling its node
    const_who = {d.node: d.who for d in decisions.values()
                 if d.who is not None and cx.optimize}
    lines.append(f"CONST_WHO = {const_who!r}")
    lines.append(f"LIMIT = {g.limit.count if g.limit else 0}")
    reasons = tuple(e.reason or e.name or "end condition" for e in g.ends)
    lines.append(f"END_REASONS = {reasons!r}")
    lines.append(f"LIMIT_REASON = {((g.limit.reason if g.limit else '') or 'move limit reached')!r}")
    lines.append("def settle(s):")
    lines.append("    if s[4] is not None: return []")
    lines.append(f"    _B[0] = {STEPS}  # the legal moves and end conditions: one budget")
    if decisions and any(d.simultaneous for d in decisions.values()):
        # in the middle of a simultaneous round, only the others' choices remain
        lines.append("    if s[3]: return LEGAL[s[0]](s)")
    if g.limit:
        lines.append("    if s[2] >= LIMIT:")
        lines.append("        s[4] = LIMIT_REASON")
        lines.append("        return []")
    if len(decisions) == 1 and cx.optimize:
        (d,) = decisions
        lines.append(f"    _legal = legal_{d}(s)")
    else:
        lines.append("    _legal = LEGAL[s[0]](s)")
    for i, e in enumerate(g.ends):  # inline: this runs every step
        pre, cond = end_test(x, e.cond)
        lines += ["    " + ln for ln in pre]
        lines.append(f"    if {cond}:")
        lines.append(f"        s[4] = END_REASONS[{i}]")
        lines.append("        return []")
    lines.append("    return _legal")
    lines.append("")
    lines += [
        "def run(s, pc, n=0):",
        f"    _B[0] = {STEPS}  # the flow from one decision to the next: one budget",
        "    while True:",
        "        try:",
        "            nxt = NODES[pc](s)",
        "        except _GameOver:  # `end` in a procedure the flow called",
        "            nxt = -1",
        "        if nxt < 0:",
        "            s[0] = pc",
        "            return",
    ]
    if cx.optimize:
        lines += ["        pc = nxt",
                  "        n += 1",
                  f"        if n > {LOOP_LIMIT}:"]
    else:
        # The runaway limit counts the nodes that do something: those jump threading would
        # bypass do not count, so plain code stops a runaway flow where optimised code does.
        lines.insert(0, f"BYPASSED = frozenset({sorted(graph.bypassed())!r})")
        lines += ["        if pc not in BYPASSED:",
                  "            n += 1",
                  "        pc = nxt",
                  f"        if n > {LOOP_LIMIT} and pc not in BYPASSED:"]
    lines += [
        "            s[0] = pc",
        "            _flow_loop(pc)",
        ""]
    if cx.optimize and not cx.coverage:
        # every decision that is not simultaneous has its own step (specialised_steps;
        # not in coverage mode, where each arm of an `if` has one store that records it)
        lines += ["def step_settle(s, m):", "    return STEP[s[0]](s, m)", ""]
        lines += specialised_steps(x, graph, effects or {}, legal or {}, draws, gen_draws)
        if quiet is not None:
            quiet += specialised_steps(x, graph, effects or {}, legal or {}, draws,
                                       gen_draws, quiet=True)
        return lines
    lines += [
        "def step_settle(s, m):",
        "    pc = s[0]",
        "    s[2] += 1",
        f"    _B[0] = {STEPS}  # the move's effect: one budget",
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


# How many node bodies one specialised step may copy in (a branch copies what follows it
# into each arm, so the count bounds the code a step function can grow to).
INLINE_NODES = 32
INLINE_REPEATS = 2  # times a node may be copied on one path (a loop: once round it again)


def framed(effect: list[str], body: list[str], quiet: bool = False) -> list[str]:
    """A step's code after its budget line: the effect (a move's, or a round's choices),
    whose `end` ends the step, then the flow copied in to the next decision, with a fresh
    budget; an `end` in a procedure the flow calls settles the state (`quiet`: leaves it
    as the `end` left it, over)."""
    return (["    try:"] + effect + [
        "    except _GameOver:",
        "        return" if quiet else "        return []",
        f"    _B[0] = {STEPS}  # the flow from one decision to the next: one budget",
        "    try:"] + body + [
        "    except _GameOver:  # `end` in a procedure the flow called",
        "        return" if quiet else "        return settle(s)",
        ""])


def chosen_effect(alts: tuple[int, ...], optional: bool,
                  effects: dict[int, list[str]]) -> list[str]:
    """The effect of the move played at a decision that offers several (`keep | push`):
    each move's effect copied in under a test of the move's id, in the order of the
    alternatives (the last one untested, where every move is one of them; an optional
    choice's pass goes through EFF), not a call through EFF."""
    out = ["        _mid = m[1]"]
    for i, a in enumerate(alts):
        last = i == len(alts) - 1 and not optional
        out.append("        else:" if last and i > 0 else
                   f"        {'if' if i == 0 else 'elif'} _mid == {a}:")
        body = ["        " + ln for ln in effects[a] if ln.strip()]
        out += body or ["            pass"]
    if optional:
        out += ["        else:", "            EFF[_mid](s, m)"]
    return out


def specialised_steps(x: Exprs, graph: FlowGraph, effects: dict[int, list[str]],
                      legal: dict[int, list[str]], draws: set[int] | None = None,
                      gen_draws: set[int] | None = None, quiet: bool = False) -> list[str]:
    """`STEP[d](s, m)`: `step_settle` specialised for the decision node d. The flow from
    d's successor to the next decision is copied in as straight-line code (a jump becomes
    the code of its target, a branch an `if` holding the code of its target), and the
    decision reached is settled by calling its own legal-move generator: no node dispatch,
    no `try` per node. The copy follows the graph until it meets a node it already copied
    twice on the path (a loop), a node it cannot copy or the size bound; there it hands on to
    the general `run`, with the number of nodes run so far, so that a runaway flow stops
    at the same node as it does in `run`. A node that may `end` the game first records
    itself as the current node, which is what `run` records when `end` stops it.

    The legal-move generator of the decision reached is copied in too, and so is the
    effect of the one move a decision offers (not optional: every legal move there is
    that move): one Python call per step, the step's own.

    Each of the three parts (the effect; the flow; the legal moves and end conditions)
    has a budget of its own. A part whose code draws nothing from it (no loop that
    charges, no def or procedure call: `Names.draws`) needs no fresh one, and its reset
    is left out: the budget it leaves is the one it found.

    `quiet=True`: `QUIET[d](s, m)` instead, the same step without its settle (the move
    limit, the end conditions and the listing of the legal moves after it: the fuzzer's
    shadow worlds, where nobody reads the listing, ask `ending(s)` and test the next move
    alone: engine/walk.py `Told.quiet`). It leaves the node reached in `s[0]`, and
    returns nothing; an `end` leaves the state over, as in the step. Not in the game's
    module: `Machine.quiet_steps` compiles it when first asked for."""
    cx = x.cx
    g = cx.g
    decisions = graph.decisions
    before = cx.names.draws
    ends = [end_test(x, e.cond) for e in g.ends]
    ends_draw = cx.names.draws != before

    def drawing(moves: set[int] | None, alts: tuple[int, ...]) -> bool:
        return moves is None or any(a in moves for a in alts)

    def settle_at(k: int, ind: str) -> list[str]:
        d = decisions[k]
        out = [f"{ind}s[0] = {k}"]
        if quiet:
            return out + [f"{ind}return"]
        if d.simultaneous:
            return out + [f"{ind}return settle(s)"]
        out.append(f"{ind}if s[4] is not None: return []")
        if ends_draw or drawing(gen_draws, d.alts):
            out.append(f"{ind}_B[0] = {STEPS}")
        if g.limit:
            out += [f"{ind}if s[2] >= LIMIT:", f"{ind}    s[4] = LIMIT_REASON",
                    f"{ind}    return []"]
        body = legal.get(k)
        if body is not None and body[-1] == "return out":
            out += [ind + ln for ln in body[:-1]] + [f"{ind}_legal = out"]
        else:
            out.append(f"{ind}_legal = legal_{k}(s)")
        for i, (pre, cond) in enumerate(ends):
            out += [ind + ln for ln in pre]
            out += [f"{ind}if {cond}:", f"{ind}    s[4] = END_REASONS[{i}]",
                    f"{ind}    return []"]
        out.append(f"{ind}return _legal")
        return out

    def copyable(k: int) -> bool:
        n = graph.nodes[k]
        return all(not isinstance(b, str) or not b.lstrip().startswith(("return", "yield"))
                   for b in n.body)

    def arms(k: int) -> list[tuple[int, int]]:
        """Where node k goes on: (arm, target) for each branch, then its exit's jump."""
        n = graph.nodes[k]
        out = [(i, b.target) for i, b in enumerate(n.body) if not isinstance(b, str)]
        if isinstance(n.exit, Goto):
            out.append((-1, n.exit.target))
        return out

    def plan(start: int) -> set[tuple[int, ...]]:
        """The copies to make, each named by the arms taken to reach it: breadth first,
        nearest the decision first, so that the bound goes to the short paths (the middle
        of a trick) before the long ones (the end of a hand, then the next deal)."""
        picked: set[tuple[int, ...]] = set()
        queue: deque[tuple[int, tuple[int, ...], tuple[int, ...]]] = deque([(start, (), ())])
        while queue and len(picked) < INLINE_NODES:
            k, path, key = queue.popleft()
            if path.count(k) >= INLINE_REPEATS or not copyable(k):
                continue
            picked.add(key)
            for arm, target in arms(k):
                queue.append((target, path + (k,), key + (arm,)))
        return picked

    chosen: set[tuple[int, ...]] = set()

    def flow(k: int, count: int, key: tuple[int, ...], ind: str) -> list[str]:
        """Code that runs node k (reached after `count` jumps, by the arms `key`) and on
        to a decision."""
        if key not in chosen:
            return [f"{ind}run(s, {k}, {count})", f"{ind}return" if quiet
                    else f"{ind}return settle(s)"]
        n = graph.nodes[k]
        out = []
        if n.ends:
            out.append(f"{ind}s[0] = {k}")
        for i, b in enumerate(n.body):
            if isinstance(b, str):
                out.append(ind + b)
            else:
                out.append(f"{ind}if {b.cond}:")
                out += flow(b.target, count + 1, key + (i,), ind + "    ")
        exit_ = n.exit
        if isinstance(exit_, Goto):
            out += flow(exit_.target, count + 1, key + (-1,), ind)
        elif isinstance(exit_, Finish):
            out += [f"{ind}s[4] = {exit_.reason}", f"{ind}s[0] = {k}",
                    f"{ind}return" if quiet else f"{ind}return []"]
        else:  # Stop: a decision (or a node never closed, which stops as run does)
            if k in decisions:
                out += settle_at(k, ind)
            else:
                out += [f"{ind}s[0] = {k}", f"{ind}return" if quiet
                        else f"{ind}return settle(s)"]
        return out

    def played_effect(d: Decision) -> list[str]:
        """The effect of the move `m` played at decision d, at the step's indentation:
        its one move's effect copied in, or each move's under a test of its id
        (`chosen_effect`), or a call through EFF."""
        if len(d.alts) == 1 and not d.optional and d.alts[0] in effects:
            return ["    " + ln for ln in effects[d.alts[0]] if ln.strip()]
        if all(a in effects for a in d.alts):
            return chosen_effect(d.alts, d.optional, effects)
        return ["        EFF[m[1]](s, m)"]

    lines: list[str] = []
    table = []
    for d in decisions.values():
        if d.simultaneous:
            continue
        chosen = plan(d.succ)
        body = flow(d.succ, 0, (), "        ")
        effect = played_effect(d)
        name = f"quiet_{d.node}" if quiet else f"step_{d.node}"
        lines += [f"def {name}(s, m):", "    s[2] += 1"]
        if drawing(draws, d.alts):
            lines.append(f"    _B[0] = {STEPS}  # the move's effect: one budget")
        lines += framed(effect or ["        pass"], body, quiet)
        table.append(f"{d.node}: {name}")
    lines.append(("QUIET = {" if quiet else "STEP = {") + ", ".join(table) + "}")
    lines.append("")
    if quiet:
        return lines
    # The end of a simultaneous round: `SIMSTEP[d](s, todo)` carries out the choices
    # `todo` (in the players' order, as the engine sorts them) and runs the flow on to
    # the next decision, copied in as above. The engine keeps the round's choices and
    # counts the moves; it plays the last choice through here (engine/playout.py).
    sims = []
    for d in decisions.values():
        if not d.simultaneous:
            continue
        chosen = plan(d.succ)
        body = flow(d.succ, 0, (), "        ")
        lines += [f"def simstep_{d.node}(s, todo):",
                  f"    _B[0] = {STEPS}  # the effects of a round of choices: one budget"]
        # each choice's effect copied into the loop, as a step's is (not a call
        # through EFF per choice: Arsène 3p's dummy round, three a deal)
        effect = ["    " + ln for ln in played_effect(d)]
        lines += framed(["        for m in todo:"] + (effect or ["            pass"]), body)
        sims.append(f"{d.node}: simstep_{d.node}")
    lines.append("SIMSTEP = {" + ", ".join(sims) + "}")
    lines.append("")
    return lines
