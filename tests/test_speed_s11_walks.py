"""The fast walks' bookkeeping, eleventh session: a walk reuses the state test of the walk
before it (`Walker._last`) only while the game's invariants and score are the ones it was
written for, and the walks' CPU time is read once per batch of walks with a time budget
(`Search.balance`, `FastWalks.play_one(cpu=False)`), still counted in the coverage.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.engine.walk import Walker
from cardgame.interpreter.fuzz import fuzz


def never(s: list[Any], legal: Any) -> bool:
    return False


def test_a_walk_tests_the_invariants_and_score_the_game_has_now(
        monkeypatch: pytest.MonkeyPatch) -> None:
    g = compile_game("calculation")
    w = Walker(g, 400, True)
    assert w.walk(1, random.Random(1)).found is None  # (its test written and kept)
    kept = w._last[3]
    assert w.walk(2, random.Random(2)).found is None
    assert w._last[3] is kept  # the next walk reuses it
    own = list(g.ns["INVARIANTS"])
    # another list of invariants
    monkeypatch.setitem(g.ns, "INVARIANTS", [*own, ("never", never)])
    got = w.walk(1, random.Random(1))
    assert (got.found, got.message) == ("invariant", "never")
    # the same list, changed in place: a test that reused the last one would miss it
    changed = list(own)
    monkeypatch.setitem(g.ns, "INVARIANTS", changed)
    assert w.walk(1, random.Random(1)).found is None
    changed.append(("never", never))
    got = w.walk(1, random.Random(1))
    assert (got.found, got.message) == ("invariant", "never")
    changed.pop()
    assert w.walk(1, random.Random(1)).found is None
    # another score function

    def score(s: list[Any], p: int) -> int:
        raise ZeroDivisionError("a score that fails")

    monkeypatch.setitem(g.ns, "score", score)
    got = w.walk(1, random.Random(1))
    assert got.found == "rule-error" and "a score that fails" in got.message


def test_the_walks_cpu_time_is_counted_with_a_time_budget() -> None:
    # (balance plays the walks with play_one(cpu=False) and adds their CPU time at once)
    r = fuzz(compile_game("golf"), seconds=0.5, seed=1, database=None, write_replay=False)
    c = r.coverage
    assert c.fast_games > 0
    assert c.fast_cpu > 0.0
