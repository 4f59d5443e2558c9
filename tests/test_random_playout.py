"""`random_playout` runs the deal, the flow to the first decision and its legal moves as
plain calls (no error wrapper per call); a rule that fails there still gets the error of
the step API: the same message, rule and line. And a playout plays the moves the public
step loop plays with the same random numbers."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from cardgame.interpreter.codegen import runtime
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.errors import RuleError
from conftest import assert_playout_is_the_api

HEAD = 'game "Broken"\ndeck standard\nzone a: face up\nzone b: face up\n'


def _game(tmp_path: Path, body: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "broken.cardgame"
    path.write_text(HEAD + body, encoding="utf-8")
    return compile_game(path)


@pytest.mark.parametrize("body, rule, line", [
    # the deal fails: a move from an empty zone
    ('setup {\n  move top of a to b\n}\nmove m "m" { }\nflow { end "done" }\n',
     "setup", 6),
    # the flow fails before the first decision
    ('move m "m" { }\nflow {\n  move top of a to b\n  end "done"\n}\n', "flow", 7),
])
def test_a_failing_start_names_the_rule_as_the_api_does(tmp_path: Path, body: str,
                                                        rule: str, line: int) -> None:
    g = _game(tmp_path, body)
    with pytest.raises(RuleError) as api:
        g.new_state(3)
    with pytest.raises(RuleError) as fast:
        g.random_playout(3, random.Random(1))
    assert str(fast.value) == str(api.value)
    assert fast.value.span.line == line and rule in fast.value.rule


def test_a_failing_move_names_the_move(tmp_path: Path) -> None:
    g = _game(tmp_path, 'move m "m" {\n  move top of a to b\n}\n'
                        'flow {\n  for p in players {\n    p chooses m\n  }\n  end "done"\n}\n')
    with pytest.raises(RuleError) as fast:
        g.random_playout(3, random.Random(1))
    assert fast.value.rule == "move m" and fast.value.span.line == 6
    assert "nothing there" in str(fast.value)


def _boom(seed: object) -> random.Random:
    raise ZeroDivisionError("a slip the checks could not see")


@pytest.mark.parametrize("body, rule", [
    ('setup {\n  shuffle deck\n}\nmove m "m" { }\nflow { end "done" }\n', "setup"),
    ('move m "m" { }\nflow {\n  shuffle deck\n  end "done"\n}\n', "flow"),
])
def test_a_python_error_at_the_start_becomes_the_apis_rule_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str, rule: str) -> None:
    """An exception that is not ours (a slip in generated code: here the shuffle's
    generator fails) is played again part by part, and named as the API names it."""
    g = _game(tmp_path, body)
    monkeypatch.setattr(runtime, "_seeded", _boom)
    with pytest.raises(RuleError) as api:
        g.new_state(3)
    with pytest.raises(RuleError) as fast:
        g.random_playout(3, random.Random(1))
    assert str(fast.value) == str(api.value)
    assert fast.value.rule == rule and "ZeroDivisionError" in str(fast.value)


def test_a_python_error_in_a_move_names_the_move(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    g = _game(tmp_path, 'move m "m" {\n  shuffle deck\n}\n'
                        'flow {\n  for p in players {\n    p chooses m\n  }\n  end "done"\n}\n')
    monkeypatch.setattr(runtime, "_seeded", _boom)
    with pytest.raises(RuleError) as fast:
        g.random_playout(3, random.Random(1))
    assert fast.value.rule == "move m or the flow after it"
    assert "ZeroDivisionError" in str(fast.value)


@pytest.mark.parametrize("name, players", [("crazy-eights", 2), ("crazy-eights", 4),
                                           ("blackjack", 3), ("hearts", 4)])
def test_a_playout_plays_what_the_step_api_plays(name: str, players: int) -> None:
    """The same seed and the same random numbers: the fast path (its move draw written
    out) and `legal_moves` + `apply` with `randrange` reach the same end."""
    g = compile_game(name, players=players)
    for seed in range(6):
        assert_playout_is_the_api(g, seed, seed + 100)


class _Subclass(random.Random):
    """A generator the fast path does not write out (it calls its `_randbelow`)."""


def test_the_written_out_draw_plays_as_the_generators_own() -> None:
    g = compile_game("crazy-eights", players=3)
    for seed in range(5):
        a, n = g.random_playout(seed, random.Random(seed))
        b, k = g.random_playout(seed, _Subclass(seed))
        assert n == k and g.final_state(a) == g.final_state(b)


ROUND = ('players 3\nzone hand[player]: owner\nsetup {\n  deal 2 from deck to hand\n}\n'
         'move pick(c in hand[me]) "pick {c}" {\n  move c to a\n}\n'
         'flow {\n  simultaneously players choose pick\n  FAIL\n  end "done"\n}\n')


@pytest.mark.parametrize("fail, python", [("move top of b to a", False),
                                          ("shuffle deck", True)])
def test_a_failing_end_of_a_simultaneous_round_names_the_rule_as_the_api_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fail: str, python: bool) -> None:
    """The last choice of a simultaneous round is played by the generated SIMSTEP (the
    choices' effects and the flow after them, in one call); a rule that fails there (ours,
    or a Python error played again part by part) gets the step API's error."""
    g = _game(tmp_path, ROUND.replace("FAIL", fail))
    assert g._simsteps  # (the generated end of the round is there to be used)
    if python:
        monkeypatch.setattr(runtime, "_seeded", _boom)
    st = g.new_state(3)
    legal = g.legal_moves(st)
    with pytest.raises(RuleError) as api:
        while legal:
            st = g.apply(st, legal[0])
            legal = g.legal_moves(st)
    with pytest.raises(RuleError) as fast:
        g.random_playout(3, random.Random(1))
    assert str(fast.value) == str(api.value)
    assert fast.value.rule == "flow"  # (not "move pick or the flow after it")
    assert ("ZeroDivisionError" if python else "nothing there") in str(fast.value)


@pytest.mark.parametrize("name, players", [("interaction", 3), ("interaction", 4),
                                           ("arsene", 3)])
def test_a_playout_with_simultaneous_rounds_plays_what_the_step_api_plays(
        name: str, players: int) -> None:
    """Rounds of simultaneous choices in the fast path (the others' moves kept while the
    round goes on, its end played by SIMSTEP) reach the API's end."""
    g = compile_game(name, players=players)
    for seed in range(4):
        assert_playout_is_the_api(g, seed, seed + 100)
