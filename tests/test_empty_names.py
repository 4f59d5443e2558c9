"""Rule errors name what was empty (user test ut15, item 11): `top of`, `first`, `last`,
`min`, `max` of an empty zone or list say which, by the expression's source text
(`nothing there: hand[me] is empty`, `the maximum of nothing: trick is empty`), not
"the zone or list is empty". Golden files in tests/golden/examples (`cardgame test`
output: each rule error with its place, the deal's with its source line and caret)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cardgame.interpreter.cli import main
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.errors import RuleError

GOLDEN = Path(__file__).resolve().parent / "golden" / "examples"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"


@pytest.mark.parametrize("name", ["empty_names", "empty_deal"])
def test_golden_rule_errors_name_what_was_empty(name: str,
                                               capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(GOLDEN)
    assert main(["test", f"{name}.cardgame"]) == 1
    out = capsys.readouterr().out
    expected = GOLDEN / f"{name}.expected"
    if UPDATE:
        expected.write_text(out, encoding="utf-8")
    assert out == expected.read_text(encoding="utf-8")
    assert "the zone or list is empty" not in out


@pytest.mark.parametrize("optimize", [True, False])
def test_every_empty_read_names_its_expression(optimize: bool) -> None:
    """The optimised and the plain code give the same messages."""
    g = compile_game(str(GOLDEN / "empty_names.cardgame"), optimize=optimize)
    got = {}
    for name in ("take", "peek", "high", "low", "lead"):
        st = g.new_state(1)
        # (the stock emptied by keeping its three cards)
        for _ in range(3):
            st = g.apply(st, next(m for m in g.legal_moves(st) if g.move_text(m) == "keep"))
        move = next(m for m in g.legal_moves(st) if g.move_text(m) == name)
        with pytest.raises(RuleError) as e:
            g.apply(st, move)
        got[name] = e.value.message
    assert got == {
        "take": "nothing there: stock is empty",
        "peek": "nothing there: stock is empty",
        "high": "the maximum of nothing: trick is empty",
        "low": "the minimum of nothing: kept is empty, or no element of it passes the test",
        "lead": "nothing there: trick is empty",
    }


PICKS = """game "Picks"
players 1
deck {
  for r in 1..3 {
    card(rank: r)
  }
}
zone stock "stock": face down, squared
zone kept "kept": face up
zone trick "trick": face up
var best = 0
setup {
  shuffle deck
  move all of deck to kept
}
move draw "draw from the trick" { move random c in trick to stock }
move high "a high card kept" { move random c in kept where c.rank > 5 to stock }
move fn "a card of the trick" { best = (random(trick)).rank }
end when best > 100 "never"
score = size(kept)
"""


@pytest.mark.parametrize("optimize", [True, False])
def test_a_random_pick_from_nothing_names_its_list(tmp_path: Path, optimize: bool) -> None:
    # (logerr15's leftover: "a random pick from nothing" said from what)
    path = tmp_path / "picks.cardgame"
    path.write_text(PICKS)
    g = compile_game(str(path), optimize=optimize)
    got = {}
    for name in ("draw", "high", "fn"):
        st = g.new_state(1)
        move = next(m for m in g.legal_moves(st) if g.move_text(m) == name)
        with pytest.raises(RuleError) as e:
            g.apply(st, move)
        got[name] = e.value.message
    assert got == {
        "draw": "a random pick from nothing: trick is empty",
        "high": "a random pick from nothing: kept is empty, or no element of it passes "
                "the test",
        "fn": "a random pick from nothing: trick is empty",
    }
