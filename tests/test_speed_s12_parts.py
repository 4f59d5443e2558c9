"""The invariants tested by parts (issue 12, twelfth session): an invariant that is an `and`
of conjuncts, one of them `all v in T: body` over a constant tuple T (a zone array, the
suits, the players), is also generated as parts (`INV_PARTS`: the body a function of the
state and v; codegen/module.py), and the fuzzer's walks test again only the parts where a
slot they read changed (`walk.invariant_parts`, `Walker._checker`): a step that changes
one column of Klondike tests that column's `runs`, not the seven.

Proven here: each part reads only the slots its reads say (on the states walks of every
bundled game reach); the parts hold together iff the invariant holds; a step that breaks
the invariant through its quantifier's value (a card put on a pile) or through a slot the
body reads besides (the cap lowered) is seen, at the same move as without the parts; a
body that draws from the step budget leaves the invariant whole; and the parts are what
the walk evaluates (one part for the one pile a step changed, which fails without them).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from cardgame.interpreter.codegen import reads as readers
from cardgame.interpreter.codegen.reads import invariant_parts
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.engine.walk import Walker
from test_fuzz_incremental import Reading, states, where

SPLIT = ["arsene", "freecell", "golf", "hearts", "interaction", "klondike", "oh-hell",
         "pyramid", "scopa"]

PILES = """\
game "Piles"
players 1
deck standard
zone pile[3] "pile": face up
zone stock "stock": face down, squared
var cap = 4

setup {
  move all of deck to stock
}

move put(i in 1..3) "put a card on pile {i}"
  when stock is not empty
{
  move top of stock to pile[i]
}

move tighten "one card fewer a pile"
  when cap > 0
{
  cap -= 1
}

end done when stock is empty "done"
score = size(pile[1])
invariant small "no pile over the cap": size(stock) >= 0 and (all p in pile: size(p) <= cap)
invariant drawn "a body that draws is left whole":
  all p in pile: size(p) <= (sum x in 1..cap + 60: 1)
"""


def _split(g: Any) -> dict[str, Any]:
    return {g.invariants[i][0]: parts
            for i, parts in invariant_parts(g, g.invariants).items()}


def test_the_bundled_games_with_parts() -> None:
    # (the list the tests below run on: a game whose parts are lost fails here)
    from cardgame.interpreter.lang.loader import bundled_names

    assert [n for n in bundled_names() if _split(compile_game(n))] == SPLIT
    g = compile_game("klondike")
    assert sorted(_split(g)) == ["homes", "runs", "tops", "under"]
    # (Hearts' `even_hands` compares each hand with every other: a part reads every
    # hand, so it stays whole; `taken_tricks` is split)
    assert sorted(_split(compile_game("hearts"))) == ["taken_tricks"]


@pytest.mark.parametrize("name", SPLIT)
def test_each_part_reads_only_the_slots_its_reads_say(name: str) -> None:
    g = compile_game(name)
    split = _split(g)
    tried = 0
    for s, legal, _ in states(g, 3)[::2]:
        for parts in split.values():
            for fn, at, reads in parts:
                for v, r in zip(at or (None,), reads, strict=True):
                    t = Reading(s)
                    try:
                        fn(t, legal if at is None else v)
                    except Exception:
                        pass
                    assert t.read <= r, (fn.__name__, v, sorted(t.read - r))
                    tried += 1
    assert tried


@pytest.mark.parametrize("name", SPLIT)
def test_the_parts_hold_iff_the_invariant_holds(name: str) -> None:
    # on the states walks reach, and on those states with one zone's cards reversed,
    # cut, or another zone's cards added, or a number they read moved by 50 (which
    # breaks many of them)
    g = compile_game(name)
    whole = dict(g.invariants)
    rng = random.Random(2)
    broke = 0
    numbers = sorted(frozenset().union(*(r for parts in _split(g).values()
                                         for _, _, rs in parts for r in rs))
                     - set(g._zone_slots))

    def holds(fn: Any, *args: Any) -> bool:
        try:
            return bool(fn(*args))
        except Exception:
            return False

    for s, legal, _ in states(g, 3)[::2]:
        ts = [s]
        for k in range(3):
            t = s.copy()
            z, y = rng.sample(list(g._zone_slots), 2)
            t[z] = (t[z][::-1], t[z][1:], t[z] + t[y])[k]
            ts.append(t)
        for k in rng.sample(numbers, min(2, len(numbers))):  # (a variable they read)
            for d in (50, -50):
                t = s.copy()
                if type(t[k]) is int:
                    t[k] += d
                    ts.append(t)
        for t in ts:
            for name_, parts in _split(g).items():
                want = holds(whole[name_], t, legal)
                got = all(holds(fn, t, legal if at is None else v)
                          for fn, at, _ in parts for v in (at or (None,)))
                assert got == want, (name_, t)
                broke += not want
    assert broke


def _piles(tmp_path: Any) -> Any:
    path = tmp_path / "piles.cardgame"
    path.write_text(PILES)
    return compile_game(str(path))


def _dealt(g: Any) -> tuple[list[Any], Any]:
    """The state after the deal (every card in the stock, the cap 4), as a walk checks
    it, and its legal moves; the slots as the tests name them: piles 7, 8, 9, the stock
    10, the cap 11 (asserted by name)."""
    w = Walker(g, 400, True)
    assert [where(w, z) for z in ("pile1", "pile2", "pile3", "stock", "cap")] == [
        7, 8, 9, 10, 11]
    s, legal, prev = states(g, 1)[0]
    assert prev is None and len(s[10]) == 52 and s[11] == 4
    return s, legal


def test_a_body_that_draws_leaves_the_invariant_whole(tmp_path: Any) -> None:
    g = _piles(tmp_path)
    assert list(_split(g)) == ["small"]
    (p0, p1), = _split(g).values()
    assert p0[1] is None and p1[1] == (7, 8, 9)  # (size(stock) >= 0; each pile)
    assert p0[2] == [frozenset({10})]  # the stock
    assert p1[2] == [frozenset({7, 11}), frozenset({8, 11}), frozenset({9, 11})]  # + cap


def test_a_break_is_seen_through_the_value_or_another_slot(tmp_path: Any) -> None:
    g = _piles(tmp_path)
    w = Walker(g, 400, True)
    check = w._checker(g.invariants, g._score)
    s, legal = _dealt(g)
    assert check(s, legal) == 0
    s[7] = s[10][-4:]  # pile 1: 4 cards, the cap 4: holds
    s[10] = s[10][:-4]
    assert check(s, legal) == 0
    t = s.copy()  # a card put on pile 2: its part evaluated, holds
    t[8], t[10] = t[10][-1:], t[10][:-1]
    assert check(t, legal, s) == 0 == check(t, legal)
    t = s.copy()  # a fifth card on pile 1: the part of pile 1
    t[7], t[10] = t[7] + t[10][-1:], t[10][:-1]
    assert check(t, legal, s) == 2 == check(t, legal)
    assert w._what(t, legal, g.invariants, g._score) == ("invariant", "small")
    t = s.copy()  # the cap lowered to 3: no pile changed, pile 1's part reads the cap
    t[11] = 3
    assert check(t, legal, s) == 2 == check(t, legal)
    assert check(s.copy(), legal, s) == 0


def test_the_walk_evaluates_the_part_of_the_pile_that_changed(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    g = _piles(tmp_path)
    calls: list[Any] = []

    def spy(fn: Any) -> Any:
        def part(s: list[Any], v: Any) -> Any:
            calls.append(v if type(v) is int else "rest")
            return fn(s, v)
        return part

    def spied(g: Any, invariants: Any) -> Any:
        return {i: [(spy(fn), at, r) for fn, at, r in parts]
                for i, parts in invariant_parts(g, invariants).items()}

    monkeypatch.setattr(readers, "invariant_parts", spied)
    w = Walker(g, 400, True)
    check = w._checker(g.invariants, g._score)
    assert "INV0_1(s, 8)" in w.last_source
    s, legal = _dealt(g)
    t = s.copy()
    t[8], t[10] = t[10][-1:], t[10][:-1]  # a card from the stock to pile 2
    calls.clear()
    assert check(t, legal, s) == 0
    assert calls == ["rest", 8]  # (the stock's conjunct, pile 2's; not piles 1 and 3)
    u = t.copy()
    u[11] = 2  # the cap: every pile's part
    calls.clear()
    assert check(u, legal, t) == 0
    assert calls == [7, 8, 9]


def test_the_walks_find_what_they_found_without_the_parts(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # the same walks, with the parts and with the whole invariants only: the same break
    # (or none) at the same move
    found = []
    for whole in (False, True):
        g = _piles(tmp_path)
        if whole:
            monkeypatch.setattr(readers, "invariant_parts", lambda g, inv: {})
        w = Walker(g, 400, True)
        rng = random.Random(4)
        found.append([(x.found, x.message, x.moves)
                      for x in (w.walk(rng.getrandbits(32), rng) for _ in range(60))])
    assert found[0] == found[1]
    assert sum(f == "invariant" for f, _, _ in found[0]) > 20
