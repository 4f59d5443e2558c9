"""`cardgame test`'s output: pytest's shape, a dot per example that passes and an F per
one that fails (or a line per example with `verbose`), each failure with its `file:line`,
expected against actual, and a summary line."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..terminal import counted
from .runner import ExampleOutcome


def text_report(runs: Sequence[tuple[str, Sequence[ExampleOutcome]]],
                verbose: bool = False) -> str:
    """The report of one or more games' runs: (the game as named, its outcomes)."""
    lines: list[str] = []
    failed: list[tuple[str, ExampleOutcome]] = []
    total = 0
    for game, outcomes in runs:
        total += len(outcomes)
        if not outcomes:
            lines.append(f"{game}: no examples")
            continue
        if verbose:
            lines.append(f"{game}:")
            for o in outcomes:
                lines.append(f"  {'PASS' if o.ok else 'FAIL'} {o.name} "
                             f"({Path(o.span.file).name}:{o.span.line})")
        else:
            lines.append(f"{game} " + "".join("." if o.ok else "F" for o in outcomes))
        failed += [(game, o) for o in outcomes if not o.ok]
    for game, o in failed:
        lines.append("")
        lines.append(f"FAILED {game}: example \"{o.name}\" "
                     f"({Path(o.span.file).name}:{o.span.line})")
        # a failure of several lines (a rule error with its source line) stays indented
        lines += [f"  {ln}" for f in o.failures for ln in f.split("\n")]
    passed = total - len(failed)
    summary = f"{passed} passed" + (f", {len(failed)} failed" if failed else "")
    lines.append("")
    lines.append(f"{counted(total, 'example')}: {summary}")
    return "\n".join(lines)


def json_report(runs: Sequence[tuple[str, Sequence[ExampleOutcome]]]) -> dict[str, Any]:
    examples = [{"game": game, "name": o.name, "file": o.span.file, "line": o.span.line,
                 "ok": o.ok, "failures": list(o.failures)}
                for game, outcomes in runs for o in outcomes]
    failed = sum(1 for e in examples if not e["ok"])
    return {"examples": examples, "passed": len(examples) - failed, "failed": failed}
