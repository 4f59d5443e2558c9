"""Branch coverage in `simulate`: the arms of `if` statements that never ran, in any
configuration, named with their file and line (docs/analysis.md, "Rule coverage")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cardgame.interpreter.analysis import simulate, simulation_json
from cardgame.interpreter.cli import main

GAME = str(Path(__file__).resolve().parent / "data" / "branches.cardgame")
WHERE = "tests/data/branches.cardgame"


def test_simulate_reports_exactly_the_dead_arm(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", GAME, "--games", "20"]) == 0
    out = capsys.readouterr().out
    tail = out[out.index("  coverage"):]
    assert tail == ("  coverage       1 move, 1 choice, 6 branches, over this run's 20 games\n"
                    "    never fired:\n"
                    f"      branch `if n > 0` ({WHERE}:18): else arm\n")


def test_the_json_lists_every_arm() -> None:
    data = json.loads(json.dumps(simulation_json(simulate(GAME, 10, 1))))
    arms = [(r["text"], r["where"], r["arm"], r["fired_in"])
            for r in data["coverage"]["rules"] if r["kind"] == "branch"]
    assert arms == [("if n > 0", f"{WHERE}:18", "then", [0]),
                    ("if n > 0", f"{WHERE}:18", "else", []),
                    ("if n % 2 == 0", f"{WHERE}:23", "then", [0]),
                    ("if n % 2 == 0", f"{WHERE}:23", "else", [0]),
                    ("if n < 2", f"{WHERE}:32", "then", [0]),
                    ("if n < 2", f"{WHERE}:32", "else", [0])]


def test_an_arm_that_runs_in_another_configuration_is_not_dead(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Arsène: the dummy's branches run with 3 players only; a 4-player run with the
    coverage sweep says so instead of calling them dead."""
    assert main(["simulate", "arsene", "--players", "4", "--games", "30",
                 "--coverage-games", "30"]) == 0
    out = capsys.readouterr().out
    cov = out[out.index("  coverage"):]
    never = cov[:cov.index("not with")]
    assert "games/arsene.cardgame:62" not in never
    assert "branch `if has_dummy` (games/arsene.cardgame:62): then arm: with 3" in out


ELSE_IF = """\
game "Else If"
players 1
deck standard
var n = 0
setup {
  if n == 0 { n = 1 } else if n == 5 { n = 2 } else { n = 3 }
}
move step "step" { n += 1 }
flow { repeat 2 times { for p in players { p chooses step } } }
score = n
"""


def test_else_if_arms_are_named_by_their_condition(tmp_path: Path) -> None:
    path = tmp_path / "else_if.cardgame"
    path.write_text(ELSE_IF, encoding="utf-8")
    rules = simulation_json(simulate(path, 5, 1))["coverage"]["rules"]
    arms = [(r["text"], r["where"].rsplit(":", 1)[1], r["arm"], r["fired_in"])
            for r in rules if r["kind"] == "branch"]
    assert arms == [("if n == 0", "6", "then", [0]), ("else if n == 5", "6", "elif", []),
                    ("if n == 0", "6", "else", [])]
