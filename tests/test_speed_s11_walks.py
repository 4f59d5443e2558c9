"""The fast walks' bookkeeping, eleventh session: a walk reuses the state test of the walk
before it (`Walker._last`) only while the game's invariants and score are the ones it was
written for, and the walks' CPU time is read once per batch of walks with a time budget
(`Search.balance`, `FastWalks.play_one(cpu=False)`), still counted in the coverage.
"""

from __future__ import annotations

import random
from pathlib import Path

from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.engine.walk import Walker
from cardgame.interpreter.fuzz import fuzz

GOLF = Path(__file__).resolve().parent.parent / "games" / "golf.cardgame"


def test_a_walk_tests_the_invariants_the_game_has_now(tmp_path: Path) -> None:
    # the same rules and slots, one invariant more: a walker moved to the other game
    # (another set of invariants) must test them, not reuse the last walk's test
    text = GOLF.read_text(encoding="utf-8")
    (tmp_path / "plain.cardgame").write_text(text, encoding="utf-8")
    (tmp_path / "never.cardgame").write_text(
        text + '\ninvariant never "never holds": 1 == 2\n', encoding="utf-8")
    plain = compile_game(str(tmp_path / "plain.cardgame"))
    never = compile_game(str(tmp_path / "never.cardgame"))
    w = Walker(plain, 400, True)
    assert w.walk(1, random.Random(1)).found is None
    kept = w._last[2]
    assert w.walk(2, random.Random(2)).found is None
    assert w._last[2] is kept  # (the next walk reuses it)
    w.g = never
    got = w.walk(1, random.Random(1))
    assert (got.found, got.message) == ("invariant", "never")
    w.g = plain
    assert w.walk(1, random.Random(1)).found is None


def test_the_walks_cpu_time_is_counted_with_a_time_budget() -> None:
    # (balance plays the walks with play_one(cpu=False) and adds their CPU time at once)
    r = fuzz(compile_game("golf"), seconds=0.5, seed=1, database=None, write_replay=False)
    c = r.coverage
    assert c.fast_games > 0
    assert c.fast_cpu > 0.0
