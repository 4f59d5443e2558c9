"""The tests go through the public API: no test reads where things live in a state.

Only codegen and the engine know slot numbers and the names of generated functions; the
speed work will change both. Tests build positions with `Position` (zones and variables
by name) and read them with `Game.zone_cards`, `Game.var` and `observe`.
"""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent

FORBIDDEN = {
    r"\.slots\b": "a state's slots",
    r"\.ns\b": "the generated module's namespace",
    r"\.gen\b": "the generated code's layout",
    r"\b(var_base|zone_base|zone_slots?)\b": "slot numbers",
    r"\._(eff|step|settle|run|sim|succ|step_settle|init_slots)\b": "the engine's insides",
    r"\bcodegen import .*\b(PC|RNG|MOVES|PENDING|ENDED|WHO)\b": "header slot numbers",
}


# Tests OF the code generator, which must look at what it generates: the flow graph and
# its DOT picture, which integer bindings carry a 64-bit guard, and the optimised and
# plain code compared slot for slot. Scenario tests never belong here.
# (test_quiet_steps.py: the quiet steps compared slot for slot with the game's own steps,
# and what each decision's generated listing reads)
CODEGEN_WHITE_BOX = {"test_flow_graph.py", "test_overflow.py", "test_optimize.py",
                     "test_optimize_classics.py", "test_optimize_playouts.py",
                     "test_optimize_tables.py", "test_optimize_arsene.py",
                     "test_optimize_s11.py", "test_quiet_steps.py"}


def violations(paths: list[Path], root: Path) -> list[str]:
    """Every line of these files that reads where things live in a state."""
    bad = []
    for path in paths:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for pattern, what in FORBIDDEN.items():
                if re.search(pattern, line):
                    bad.append(f"{path.relative_to(root)}:{n}: {what}: {line.strip()}")
    return bad


def test_no_test_reads_slots_or_generated_names() -> None:
    paths = [p for p in sorted(TESTS.rglob("*.py"))
             if p != Path(__file__).resolve() and p.name not in CODEGEN_WHITE_BOX]
    bad = violations(paths, TESTS)
    assert not bad, "\n".join(bad)


def test_no_layer_above_the_engine_reads_slots_or_generated_names() -> None:
    """The same rule for the code: only codegen and the engine know the layout."""
    root = TESTS.parent
    paths = [p for top in ("interpreter", "repl") for p in sorted((root / top).rglob("*.py"))
             if p.parent.name not in ("codegen", "engine")]
    bad = violations(paths, root)
    assert not bad, "\n".join(bad)

