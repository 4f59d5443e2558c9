"""The hot path of a step, generated into every game so that it runs on fast globals:
`settle` (the move limit, the end conditions and the new legal moves), `run` (the flow
from a node to the next decision) and `step_settle` (apply a move, run, settle)."""

from __future__ import annotations

from .exprs import Exprs
from .flow import FlowGraph
from .runtime import STEPS
from .stmts import LOOP_LIMIT
from .writer import Frame


def step_code(x: Exprs, graph: FlowGraph) -> list[str]:
    """Simultaneous choices (rare) go through the engine's general path."""
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
        lines.append(f"    if {x.expr(e.cond, Frame({}, 'end'))}:")
        lines.append(f"        s[4] = END_REASONS[{i}]")
        lines.append("        return []")
    lines.append("    return _legal")
    lines.append("")
    lines += [
        "def run(s, pc):",
        f"    _B[0] = {STEPS}  # the flow from one decision to the next: one budget",
        "    n = 0",
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
        "",
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
