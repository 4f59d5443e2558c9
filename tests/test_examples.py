"""Executable examples (`example "NAME" { ... }`, docs/testing.md) and `cardgame test`.

tests/golden/examples/NAME.cardgame holds examples; NAME.expected is the exact output of
`cardgame test NAME.cardgame` run in that folder. `kinds_pass` has every kind of line,
each holding; `kinds_fail` has every kind of expectation, each failing. Malformed
examples are golden files of `cardgame check` in tests/golden (example_*.cardgame, run by
test_errors.py). Run with UPDATE_GOLDEN=1 to rewrite the .expected files, then read the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cardgame.interpreter.cli import main
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.examples import ExampleOutcome, run_examples
from cardgame.interpreter.lang import bundled_names

ROOT = Path(__file__).resolve().parent
GOLDEN = ROOT / "golden" / "examples"
MUTANTS = ROOT / "mutants"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
CASES = sorted(p.stem for p in GOLDEN.glob("kinds_*.cardgame"))


# ---------------------------------------------------------------------- golden output
@pytest.mark.parametrize("name", CASES)
def test_golden_output(name: str, capsys: pytest.CaptureFixture[str],
                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(GOLDEN)
    code = main(["test", f"{name}.cardgame"])
    out = capsys.readouterr().out
    expected = GOLDEN / f"{name}.expected"
    if UPDATE:
        expected.write_text(out, encoding="utf-8")
    assert out == expected.read_text(encoding="utf-8")
    assert code == (1 if name.endswith("_fail") else 0)


def test_every_kind_of_expectation_fails_in_the_failing_file() -> None:
    outcomes = run_examples(GOLDEN / "kinds_fail.cardgame")
    assert outcomes and not any(o.ok for o in outcomes)
    text = "\n".join(f for o in outcomes for f in o.failures)
    for words in ("expected pot == 2, got pot is 0",  # a value
                  "expected hand[p1] to hold K♦",  # a zone holds
                  "not to hold 2♥",  # a zone lacks
                  "expected p2 to move, got p1 to move",  # whose turn
                  'expected p1 can play "raise", got refused: raise: raise only',  # legal
                  'expected p1 cannot play "pass", got a legal move',  # refused
                  'refused because "you have no chip left", got',  # the reason
                  "expected p1 cannot see hand[p1], got p1 sees",  # visibility
                  "expected p2 can see hand[p1], got only its size",
                  "expected the game over, got p1 to move",  # the end
                  "expected the game still going, got the game over",
                  'because "the stock is empty", got: both hands are played out',
                  "expected p1 loses, got p1 draws",  # the result
                  "expected p1 scores 11, got 10",  # the score
                  "(the rest of the example is not run)",
                  "got an error:"):
        assert words in text, words


def test_each_failure_names_the_file_and_line_of_its_expectation() -> None:
    source = (GOLDEN / "kinds_fail.cardgame").read_text(encoding="utf-8").splitlines()
    for o in run_examples(GOLDEN / "kinds_fail.cardgame"):
        for f in o.failures:
            where, _, _ = f.partition(": ")
            file, _, line = where.partition(":")
            assert file == "kinds_fail.cardgame"
            assert source[int(line) - 1].strip().split()[0] in (
                "expect", "p1", "p2", "hand[p2]"), f


def test_the_outcome_interface() -> None:
    outcomes = run_examples(GOLDEN / "kinds_pass.cardgame")
    assert [type(o) for o in outcomes] == [ExampleOutcome] * len(outcomes)
    first = outcomes[0]
    assert first.name == "a position, a move played, values and zones"
    assert first.span.line == 4 and first.span.file.endswith("kinds_pass.cardgame")
    assert first.failures == [] and first.ok
    # a compiled Game works as well as a path
    again = run_examples(compile_game(GOLDEN / "kinds_pass.cardgame"))
    assert [o.name for o in again] == [o.name for o in outcomes]


def test_json_output(capsys: pytest.CaptureFixture[str],
                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(GOLDEN)
    assert main(["test", "kinds_fail.cardgame", "--json"]) == 1
    r = json.loads(capsys.readouterr().out)
    assert r["passed"] == 0 and r["failed"] == len(r["examples"]) == 8
    first = r["examples"][0]
    assert first["name"] == "values and zones" and first["line"] == 5 and not first["ok"]
    assert first["failures"][0] == "kinds_fail.cardgame:8: expected pot == 2, got pot is 0"


def test_json_output_of_a_file_that_does_not_compile(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    # (a user test: `test --json` printed the compiler's text, not JSON)
    bad = tmp_path / "bad.cardgame"
    bad.write_text('game "T"\nplayers 1\ndeck standard\nzone pile\nvar n: int = 0\n'
                   'move m { n = none }\n', encoding="utf-8")
    good = GOLDEN / "kinds_pass.cardgame"
    assert main(["test", str(bad), str(good), "--json"]) == 1
    r = json.loads(capsys.readouterr().out)
    assert r["failed"] == 0 and r["passed"] == len(r["examples"]) > 0  # the other file ran
    [e] = r["errors"]
    assert e["game"] == str(bad) and (e["line"], e["column"]) == (6, 14)
    assert e["message"] == "cannot assign none to int" and "var n: int = none" in e["hint"]
    assert main(["test", str(good), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["errors"] == []


# ---------------------------------------------------------------------- the position
def test_a_position_keeps_every_card_exactly_once() -> None:
    g = compile_game(GOLDEN / "kinds_pass.cardgame")
    # the examples pass, and among them one says the 52 cards are where they should be
    assert all(o.ok for o in run_examples(g))
    text = (GOLDEN / "kinds_pass.cardgame").read_text(encoding="utf-8")
    assert "expect size(stock) + size(hand[p1]) + size(hand[p2]) == 52" in text


def test_a_zone_keeps_its_size_when_cards_are_named_in_it(tmp_path: Path) -> None:
    f = tmp_path / "g.cardgame"
    f.write_text('extends "calculation"\n'
                 'example "swap" {\n'
                 '  top of stock is K♦\n'
                 '  waste[1] is 5♥ 6♦\n'
                 '  expect size(stock) == 46 and size(waste[1]) == 2\n'
                 '  expect size(stock) + size(turned) + size(foundation) + size(waste) == 52\n'
                 '}\n', encoding="utf-8")
    swap = next(o for o in run_examples(f) if o.name == "swap")
    assert swap.failures == []


# ---------------------------------------------------------------------- the bundled games
@pytest.mark.parametrize("game", bundled_names())
def test_every_bundled_game_has_examples_and_they_pass(game: str) -> None:
    outcomes = run_examples(game)
    assert len(outcomes) >= 9, f"{game}: {len(outcomes)} examples"
    failures = [f for o in outcomes for f in o.failures]
    assert failures == []


@pytest.mark.parametrize("path", sorted((ROOT.parent / "docs" / "examples").glob("*.cardgame")),
                         ids=lambda p: p.name)
def test_the_docs_example_games_pass_their_examples(path: Path) -> None:
    # the tutorial's variant inherits Besieged Castle's examples and removes the two that
    # describe the base game only
    outcomes = run_examples(path)
    assert [f for o in outcomes for f in o.failures] == []


def test_cardgame_test_on_every_bundled_game(capsys: pytest.CaptureFixture[str]) -> None:
    games = bundled_names()
    assert main(["test", *games]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1].endswith("passed") and "failed" not in out


def test_the_examples_catch_mutants_no_invariant_sees() -> None:
    # a build rule off by one (calc-bad-build) and a foundation that takes anything
    for mutant, line in (("calc-bad-build.cardgame", "pile k builds up by k"),):
        outcomes = run_examples(MUTANTS / mutant)
        assert any(line in o.name and not o.ok for o in outcomes), mutant


# ---------------------------------------------------------------------- the tools
def test_fuzz_runs_the_examples_first(capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch,
                                      tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    code = main(["fuzz", str(MUTANTS / "calc-bad-build.cardgame"), "--examples", "2",
                 "--seed", "1"])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAILED" in out and "calculation.cardgame:" in out
    code = main(["fuzz", str(GOLDEN / "kinds_pass.cardgame"), "--examples", "2", "--seed",
                 "1", "--json"])
    r = json.loads(capsys.readouterr().out)
    assert r["examples"]["failed"] == 0 and r["examples"]["passed"] == 5


def test_a_game_without_examples_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["test", str(MUTANTS / "duel.cardgame")]) == 1
    assert "no examples" in capsys.readouterr().out


def test_an_inherited_example_that_does_not_fit_a_variant_fails_in_test_only(
        tmp_path: Path) -> None:
    f = tmp_path / "three.cardgame"
    f.write_text('game "three waste piles"\nextends "calculation"\n'
                 'zone waste[3] "waste": face up, fanned\n'
                 'move discard(w in 1..3) "discard" when turned is not empty '
                 '{ move top of turned to waste[w] }\n'
                 'move lift(w in 1..3, k in 1..4) "lift" when turned is empty and '
                 'waste[w] is not empty and fits(top of waste[w], k) '
                 '{ move top of waste[w] to foundation[k] }\n', encoding="utf-8")
    compile_game(f)  # check passes
    bad = {o.name: o.failures for o in run_examples(f) if not o.ok}
    name = "a card that fits may still go to a waste pile (interpretation 3)"
    assert "does not fit the game" in bad[name][0]
    assert "index 4 is out of range 1..3" in bad[name][0]


def test_the_example_words_stay_names_outside_examples(tmp_path: Path) -> None:
    f = tmp_path / "g.cardgame"
    words = ("has", "plays", "scores", "wins", "draws", "loses", "can", "cannot", "see",
             "expect", "set", "no", "over", "because")
    f.write_text('game "G"\nplayers 2\ndeck standard\nzone hand[player]: owner\n'
                 + "".join(f"var {w}[player] = 0\n" for w in words)
                 + 'move m "m" {\n  move top of hand[me] to hand[me]\n'
                 + "".join(f"  {w}[me] += 1\n" for w in words)
                 + '}\nflow { repeat { 1 chooses m } }\n', encoding="utf-8")
    g = compile_game(f)
    assert g.name == "G"


STEP_AFTER_A_NUMBER = """\
game "After a number"
players 1
deck standard
zone table: face up
option target: 1..9 default 5
var n = 0
move take "take" { move top of deck to table }
flow { repeat target times { for p in players { p chooses take } } }
example "steps after a number" {
  option target = 2
  table is "K♠"
  set n = 3
  deck has 7♣
}
"""


def test_a_step_after_a_number_may_start_with_deck_or_table(tmp_path: Path) -> None:
    """After `option target = 2` or `set n = 3`, the parser's state is shared with the
    declarations, where `table` and `deck` are keywords: the step `table is ...` was a
    syntax error ("unexpected 'table'"). Both steps parse and run."""
    path = tmp_path / "after.cardgame"
    path.write_text(STEP_AFTER_A_NUMBER, encoding="utf-8")
    [outcome] = run_examples(compile_game(path))
    assert outcome.ok, outcome.failures


# ---------------------------------------------------------------------- a deal that fails
def test_a_deal_that_fails_names_the_example_and_shows_the_rule(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A `when` that fails on the first state fails the deal: the example is named and
    the rule error is shown with its source line and caret (golden), not a bare error."""
    monkeypatch.chdir(GOLDEN)
    code = main(["test", "deal_fails.cardgame"])
    out, err = capsys.readouterr()
    assert out == (GOLDEN / "deal_fails.expected").read_text(encoding="utf-8")
    assert err == "" and code == 1
    assert main(["test", "deal_fails.cardgame", "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["failed"] == 1 and doc["examples"][0]["name"] == "keep"
    assert "division by zero" in doc["examples"][0]["failures"][0]


def test_fuzz_reports_the_hole_of_a_deal_that_fails_with_examples(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = tmp_path / "deal_fails.cardgame"
    game.write_text((GOLDEN / "deal_fails.cardgame").read_text(encoding="utf-8"),
                    encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["fuzz", "deal_fails.cardgame", "--examples", "10", "--seed", "1"]) == 1
    out = capsys.readouterr().out
    assert 'FAILED deal_fails.cardgame: example "keep"' in out
    assert "FAILED: rule-error" in out and "the deal fails:" in out
    # its replay fails at the deal as the game did: it replays exactly (no warning)
    assert "replay: .cardgame/counterexample-deal_fails.json" in out
    assert "does not replay exactly" not in out
    assert main(["fuzz", "deal_fails.cardgame", "--examples", "10", "--seed", "1",
                 "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["examples"]["failed"] == 1 and not doc["ok"]
