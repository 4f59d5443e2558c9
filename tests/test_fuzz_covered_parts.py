"""An invariant part that reads the places covering one (`covered`, generated as
`any(map(s.__getitem__, COVER[_k]))`) is a part whose reads are the place and those that
cover it (codegen/reads.py `_state_indexes`, `_numbers`), and the walk's check tests the
parts of an invariant under one test that a slot any of them reads changed (thirteenth
session; docs/fuzz.md, "The shadow's listing, the walk's own")."""

from __future__ import annotations

from typing import Any

import pytest
from cardgame.interpreter.codegen import reads as readers
from cardgame.interpreter.codegen.reads import invariant_parts
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.engine.walk import Walker
from test_fuzz_incremental import states, where


def _pyramid() -> tuple[Any, Walker, list[Any], Any]:
    """Pyramid, a walker, a dealt state (as a walk checks it) and its legal moves."""
    g = compile_game("pyramid")
    s, legal, prev = states(g, 1)[0]
    assert prev is None
    return g, Walker(g, 400, True), s, legal


def test_a_part_reads_the_place_and_the_places_covering_it() -> None:
    g, w, _, _ = _pyramid()
    names = {v: k for k, v in w.slot_names().items()}
    split = {g.invariants[i][0]: parts
             for i, parts in invariant_parts(g, g.invariants).items()}
    assert "free_first" in split  # (whole before: `s.__getitem__` was a use not known)
    ((_, at, reads),) = split["free_first"]
    apex = names["pyramid1-1"]
    below = {names["pyramid2-1"], names["pyramid2-2"]}
    assert reads[at.index(apex)] == {apex} | below
    bottom = names["pyramid7-1"]
    assert reads[at.index(bottom)] == {bottom}  # (covered by nothing)


def test_a_place_covered_again_breaks_the_invariant_and_is_seen() -> None:
    # a place of row 6 emptied with the two below it (their cards put in the stock:
    # all the cards are still there once) holds; a card put back on one of those covers
    # the empty place: only a slot that its part reads besides its own place changed
    g, w, s, legal = _pyramid()
    check = w._checker(g.invariants, g._score)
    place, left, right = (where(w, f"pyramid{r}-{c}") for r, c in ((6, 1), (7, 1), (7, 2)))
    stock = where(w, "stock")
    t = s.copy()
    t[stock] = t[stock] + t[place] + t[left] + t[right]
    t[place] = t[left] = t[right] = ()
    assert check(t, legal) == 0 == check(t, legal, s)
    u = t.copy()
    u[left], u[stock] = u[stock][-1:], u[stock][:-1]
    assert check(u, legal, t) == 2 == check(u, legal)


def test_a_step_that_changes_no_place_tests_no_part(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []

    def spied(g: Any, invariants: Any) -> Any:
        def spy(fn: Any) -> Any:
            def part(s: list[Any], v: Any) -> Any:
                calls.append(v)
                return fn(s, v)
            return part
        return {i: [(spy(fn), at, r) for fn, at, r in parts]
                for i, parts in invariant_parts(g, invariants).items()}

    monkeypatch.setattr(readers, "invariant_parts", spied)
    g, w, _, _ = _pyramid()
    check = w._checker(g.invariants, g._score)
    places = [where(w, f"pyramid{r}-{c}") for r in range(1, 8) for c in range(1, r + 1)]
    steps = [(s, legal, prev) for s, legal, prev in states(g, 3) if prev is not None]
    draws = [x for x in steps if all(x[0][k] is x[2][k] for k in places)]
    pairs = [x for x in steps if any(x[0][k] is not x[2][k] for k in places)]
    assert draws and pairs
    for s, legal, prev in draws:  # (the top of the stock onto the waste)
        calls.clear()
        assert check(s, legal, prev) == 0
        assert calls == []
    for s, legal, prev in pairs:  # (a pair or a king removed: those places' parts)
        calls.clear()
        assert check(s, legal, prev) == 0
        changed = {k for k in places if s[k] is not prev[k]}
        assert changed <= set(calls) and len(set(calls)) <= 3 * len(changed)
    # (the parts of an invariant under one test: `places`' 28 tests, `free_first`'s
    # skipped by one test of the flags of the 28 places)
    gate = "        if " + " or ".join(f"c{k}" for k in places) + ":"
    assert w.last_source.count(gate + "\n") == 3  # (and the score's, which reads them)
