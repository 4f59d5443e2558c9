"""The compile cache: a game compiled again in another working folder names its file as
that folder sees it (the spans of its rule errors are in the compiled code)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cardgame.interpreter.engine import compile_game

GAME = """game "T"
players 2
deck standard
zone pile: face up
var x = 0
move m "m" { x = 1 }
flow { 1 chooses m }
score = x
result highest score
"""


def test_a_compile_in_another_folder_names_the_file_as_seen_from_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "g").mkdir()
    path = tmp_path / "g" / "t.cardgame"
    path.write_text(GAME)
    monkeypatch.chdir(tmp_path / "g")
    here = compile_game(path)
    monkeypatch.chdir(tmp_path.parent)
    there = compile_game(path)
    # (found by a test run whose order compiled a mutant in a temporary folder first:
    # the plain and the optimised code then named the file differently)
    assert here.checked.sources.keys() != there.checked.sources.keys()
    assert set(there.checked.sources) == {str(Path(tmp_path.name) / "g" / "t.cardgame")}
