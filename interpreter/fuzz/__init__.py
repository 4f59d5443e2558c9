"""Rule holes: properties checked over searched playthroughs (`cardgame fuzz`).

- `command`: `fuzz(...)`, the Python API, and `run_fuzz(args)`, the command;
- `search`: the Hypothesis driver, its budgets and shrinking;
- `story`: the search for a shorter failure of the same property on other deals;
- `report`: `FuzzReport`, its text and JSON, and the counterexample's replay file;
- `playthrough`: one checked playthrough and the properties;
- `told`: the leak check of what a step tells a seat (log lines, variables).
"""

from .command import fuzz, run_fuzz
from .playthrough import PROPERTIES, Playthrough, PropertyFailure
from .report import FuzzReport, format_report, report_json

__all__ = ["PROPERTIES", "FuzzReport", "Playthrough", "PropertyFailure", "format_report",
           "fuzz", "report_json", "run_fuzz"]
