"""The checked program (lang/): what the checker decides, recorded once as data."""

from __future__ import annotations

from pathlib import Path

import pytest
from cardgame.interpreter.errors import Diagnostic
from cardgame.interpreter.lang import Program, check, load

HEAD = 'game "T"\nplayers 1\ndeck standard\nzone pile\nzone waste[4]\n'


def program(tmp_path: Path, text: str) -> Program:
    p = tmp_path / "t.cardgame"
    p.write_text(HEAD + text, encoding="utf-8")
    return check(load(p))


def error(tmp_path: Path, text: str) -> str:
    with pytest.raises(Diagnostic) as e:
        program(tmp_path, text)
    return e.value.message


# ------------------------------------------------------------------ fixed on the way
def test_a_start_value_may_use_a_def(tmp_path: Path) -> None:
    """It crashed (the checker's def state was set up only after the variables)."""
    p = program(tmp_path, "def f(k: int) = k + 1\ndef c = 3\nvar x = f(1)\nvar y = c\n"
                          "move m when x > 0 { x = x - 1 }\n")
    assert p.vars["x"].type == "int" and p.vars["y"].type == "int"


def test_an_unknown_name_inside_a_zone_expression_is_a_name(tmp_path: Path) -> None:
    """Only the zone itself is reported as an unknown zone, not a name in its index
    (a mode flag on the checker used to leak into the index)."""
    assert error(tmp_path, "move m { move top of pile to waste[wx] }\n") == "unknown name 'wx'"
    assert error(tmp_path, "move m { move top of pile to wase[1] }\n") == "unknown zone 'wase'"
    assert error(tmp_path, "move m { move top of pil to waste[1] }\n") == "unknown zone 'pil'"
    assert error(tmp_path, "move m { shuffle pil }\n") == "unknown zone 'pil'"
