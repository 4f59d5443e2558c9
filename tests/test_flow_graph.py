"""The flow graph as data: jump threading, unreachable nodes, and the DOT picture read from
the graph (not from the generated source)."""

from __future__ import annotations

from pathlib import Path

from cardgame.interpreter.codegen import flow_dot, generate
from cardgame.interpreter.engine import compile_game


def test_calculation_is_one_decision_and_nothing_else() -> None:
    g = compile_game("calculation")
    dot = flow_dot(g.name, g.gen)
    assert dot.splitlines()[3:] == [
        '  n4 [shape=box, style=bold, label="choice: draw | build | discard | lift\\n"];',
        '  start [shape=point]; end [shape=doublecircle, label="end"];',
        "  start -> n4;",
        '  n4 -> n4 [label="move"];',
        "}",
    ]
    # the nodes that only jumped on, and the end after a flow that never ends, are gone
    assert list(g.gen.edges) == [4]
    assert "def n_0(" not in g.gen.source and "def n_3(" not in g.gen.source
    plain = generate(g.checked, optimize=False)
    assert sorted(plain.edges) == list(range(6))  # plain code keeps every node


def test_every_way_to_end_is_drawn(tmp_path: Path) -> None:
    p = tmp_path / "ends.cardgame"
    p.write_text('game "Ends"\nplayers 1\ndeck standard\nzone pile: face up\nvar n = 0\n'
                 'proc stop_if_done() { if n > 3 { end "done" } }\n'
                 "move m { n += 1 }\n"
                 "flow {\n"
                 "  repeat 5 times {\n"
                 "    1 chooses m\n"
                 "    stop_if_done()\n"  # may end inside a node's code
                 "    if n == 2 { 1 chooses m\n end \"two\" }\n"  # an end node
                 "  }\n"
                 "}\n", encoding="utf-8")
    g = compile_game(p)
    dot = flow_dot(g.name, g.gen)
    ends = [ln for ln in dot.splitlines() if ln.endswith("-> end;")]
    graph = g.gen.graph
    assert graph is not None
    finish = [n for n in g.gen.edges if type(graph.nodes[n].exit).__name__ == "Finish"]
    may_end = [n for n in g.gen.edges if graph.nodes[n].ends]
    assert len(finish) == 2 and len(may_end) == 1  # `end "two"`, falling off; the procedure
    assert sorted(ends) == sorted(f"  n{n} -> end;" for n in finish + may_end)
