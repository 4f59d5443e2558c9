"""The compiled flow as a Graphviz digraph (`cardgame check --graph`), read from the
FlowGraph: decisions as boxes, steps as ellipses, one cluster per phase."""

from __future__ import annotations

from .flow import Finish
from .module import Generated


def flow_dot(name: str, gen: Generated) -> str:
    graph = gen.graph
    assert graph is not None
    lines = [f'digraph "{_escape(name)}" {{', "  rankdir=TB;", '  node [fontname="Helvetica"];']
    edges = graph.edges()
    by_phase: dict[str, list[int]] = {}
    for n in edges:
        by_phase.setdefault(graph.nodes[n].phase, []).append(n)
    for i, (phase, nodes) in enumerate(sorted(by_phase.items())):
        ind = "  "
        if phase:
            lines.append(f'  subgraph cluster_{i} {{ label="{_escape(phase)}";')
            ind = "    "
        for n in nodes:
            span = graph.nodes[n].span
            where = f"line {span.line}" if span.line else ""
            d = graph.decisions.get(n)
            if d is not None:
                alts = (" | ".join(gen.move_names[a] for a in d.alts)
                        + (" | pass" if d.optional else ""))
                kind = "simultaneous choice" if d.simultaneous else "choice"
                label = f"{kind}: {alts}\\n{where}"
                lines.append(f'{ind}n{n} [shape=box, style=bold, label="{_escape(label)}"];')
            else:
                label = f"step {n}\\n{where}" if where else f"step {n}"
                lines.append(f'{ind}n{n} [shape=ellipse, label="{label}"];')
        if phase:
            lines.append("  }")
    lines.append('  start [shape=point]; end [shape=doublecircle, label="end"];')
    lines.append(f"  start -> n{graph.entry};")
    for n, targets in edges.items():
        d = graph.decisions.get(n)
        if d is not None:
            lines.append(f'  n{n} -> n{d.succ} [label="move"];')
            continue
        for t in targets:
            lines.append(f"  n{n} -> n{t};")
        node = graph.nodes[n]
        if isinstance(node.exit, Finish) or node.ends:
            lines.append(f"  n{n} -> end;")
    lines.append("}")
    return "\n".join(lines)


def _escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"').replace("\\\\n", "\\n")
