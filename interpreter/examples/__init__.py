"""Executable examples of a game's rules: `example "NAME" { ... }` blocks, run.

Above observe (what a seat sees), below the tools: `fuzz` runs a game's examples before
searching, `cardgame test` prints them, and a mutation run counts the mutants they kill.

    outcomes = run_examples("calculation")   # a bundled name, a path, or a Game
    [o.name for o in outcomes if not o.ok]
"""

from .report import json_report, text_report
from .runner import ExampleOutcome, run_example, run_examples

__all__ = ["ExampleOutcome", "json_report", "run_example", "run_examples", "text_report"]
