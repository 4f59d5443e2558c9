"""Optimiser rules of the tenth session (issue 12, targets 2 and 4: the games whose fuzz
walks were just under target): each rule's shape in the generated code, and the game
played alike with and without optimisation (`test_optimize.play_both`, which compares
states, legal moves, scores, results, invariants and errors step by step)."""

from __future__ import annotations

import re
from pathlib import Path

from cardgame.interpreter.codegen import generate
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.lang import check, load
from test_optimize import play_both


def _source(path: Path | str) -> str:
    """The optimised generated code of a game file."""
    return generate(check(load(path), None, {}), optimize=True).source


def _function(src: str, marker: str) -> list[str]:
    """The bodies of the generated `legal_<node>` functions that contain `marker`."""
    funcs = re.findall(r"^def legal_\d+\(s\):\n(?:    .*\n|\n)*", src, re.M)
    return [f for f in funcs if marker in f]


ANSWER = """\
game "Answer"
players 3
deck standard
zone stock: face down, squared
zone pile: face up, squared
zone hand[player]: owner, fanned
var current: player = 1
var passes = 0
def matches(c: card) = c.rank == 8 or c.suit == (top of pile).suit or c.rank == (top of pile).rank
def can_play(p: player) = any c in hand[p]: matches(c)
setup {
  shuffle deck
  deal 4 from deck to hand
  move top of deck to pile
  move all of deck to stock
}
move play(c in hand[me]) "play {c}" when matches(c) { move c to pile }
move draw "draw" when not can_play(me) and stock is not empty { move top of stock to hand[me] }
move pass_turn "pass" when not can_play(me) and stock is empty { passes += 1 }
# an empty pile: `matches` fails on every card (the top of an empty zone)
move clear "clear" when size(pile) > 5 and size(stock) < 12 { move all of pile to stock }
# its conditions are more than `matches(c)`: it says nothing of `can_play`
move play_late(c in hand[me]) "late {c}" when matches(c) and size(stock) > 30 { move c to pile }
move skip "skip" { passes += 0 }
flow {
  repeat 30 times {
    current chooses play | draw | pass_turn | clear
    current chooses draw | pass_turn | play
    current chooses play_late | draw | skip
    current chooses draw | pass_turn | skip
    current = left of current
  }
}
score = size(hand[me])
result lowest score
"""


def test_a_card_move_answers_the_any_of_its_condition(tmp_path: Path) -> None:
    """`play(c in hand[me]) when matches(c)` lists a move exactly when `any c in
    hand[me]: matches(c)` (`can_play(me)`) holds: at a decision whose other generators
    test that quantifier, its shared variable is set from the moves `play` listed, and
    they loop no more (Crazy Eights' `draw` and `pass_turn`); where `play` comes after
    them, it sets the variable they computed to the same value. A move whose conditions
    are more than the quantifier's body answers nothing. Both codes play alike, errors
    too (an empty pile: `matches` fails)."""
    path = tmp_path / "answer.cardgame"
    path.write_text(ANSWER, encoding="utf-8")
    src = _source(path)
    answers = re.findall(r"(_v\d+) = len\(out\) > (_n\d+)", src)
    first = _function(src, "# move clear")
    assert first and all(re.search(r"_v\d+ = len\(out\) > _n\d+", f) for f in first)
    later = _function(src, "# move skip")
    assert later and not any("len(out) >" in f for f in later)
    assert answers
    plain = generate(check(load(path), None, {}), optimize=False).source
    assert "len(out) >" not in plain
    fast = compile_game(path)
    slow = compile_game(path, optimize=False)
    play_both(fast, slow, seeds=tuple(range(16)))


def test_crazy_eights_tests_can_play_from_the_play_moves() -> None:
    """Crazy Eights: the decision of `play | draw | pass_turn` loops over the hand once
    (`play`'s generator), not three times."""
    for f in _function(_source("games/crazy-eights.cardgame"), "# move pass_turn"):
        (var,) = re.findall(r"(_v\d+) = len\(out\) > _n\d+", f)
        tests = re.findall(r"any\(", f)
        assert tests and len(re.findall(rf"\({var} if {var} is not \.\.\. else "
                                        rf"\({var} := any\(", f)) == len(tests)


def test_a_quantifier_outside_the_loops_is_shared_by_a_decisions_generators(
        tmp_path: Path) -> None:
    """`not can_play(me)` in two moves without parameters (`draw`, `pass_turn`) at one
    decision: computed the first time one needs it, kept in a variable of the decision."""
    path = tmp_path / "answer.cardgame"
    path.write_text(ANSWER, encoding="utf-8")
    (f,) = [f for f in _function(_source(path), "# move skip") if "# move play_late" not in f]
    assert "len(out) >" not in f
    walrus = re.findall(r"\((_v\d+) if \1 is not \.\.\. else \(\1 := any\(", f)
    assert len(walrus) == 2 and len(set(walrus)) == 1
    assert len(re.findall(r"any\(", f)) == 2


PAIRS = """\
game "Pairs"
players 3
deck standard
zone hand[player]: owner, fanned
zone trick: face up, row
zone pile[player]: face up, squared
var points[player] = 0
setup {
  shuffle deck
  deal 6 from deck to hand
}
move play(c in hand[me]) "play {c}" { move c to trick  points[me] += c.rank }
move take "take" when trick is not empty { move all of trick to pile[me] }
move wait "wait" { points[me] += 0 }
flow {
  repeat 30 times {
    for p in players { p chooses play | take | wait }
  }
}
score = points[me]
result highest score
invariant even "hands within one": all p in players: all q in players: size(hand[p]) <= size(hand[q]) + 1
invariant even2 "written the other way": all p in players: all q in players: size(hand[q]) + 2 >= size(hand[p])
invariant close "points within 12": all p in players: all q in players where points[p] < points[q] + 12
invariant above "an empty trick: true": all p in players: all c in trick: size(hand[p]) + 9 > c.rank
invariant rows "a product of two ranges": all i in 1..size(trick): all j in 1..size(pile[1]): i - 3 < j + size(hand[2])
"""


def _invariant(src: str, name: str) -> str:
    (f,) = re.findall(rf"^def inv_{name}\(s, _legal\):\n(?:    .*\n)*", src, re.M)
    return f


def test_all_pairs_compared_is_one_bound(tmp_path: Path) -> None:
    """`all p in X: all q in Y: A op B` (A reading only p, B only q, op < <= > >=) is a
    loop finding the least (greatest) B, then one testing each A against it, not a loop
    per pair (Hearts' and Oh Hell's even hands); the sides written either way, Y empty
    (true), a `where` as the inner test. Invariants that fail at times (uneven hands,
    points apart) and hold at others: both codes say alike at every step."""
    path = tmp_path / "pairs.cardgame"
    path.write_text(PAIRS, encoding="utf-8")
    src = _source(path)
    for name, bound in (("even", "<"), ("even2", "<"), ("close", "<"), ("above", ">"),
                        ("rows", "<")):
        f = _invariant(src, name)
        assert re.search(rf"if (_m\d+) is \.\.\.:\n", f), name
        assert re.search(rf"if \1 is None or _b\d+ {bound} (_m\d+): \1 = _b\d+"
                         .replace(r"\1", r"(_m\d+)", 1), f), name
    plain = generate(check(load(path), None, {}), optimize=False).source
    assert "is ...:" not in _invariant(plain, "even")
    fast = compile_game(path)
    slow = compile_game(path, optimize=False)
    play_both(fast, slow, seeds=tuple(range(12)))
    for game in ("hearts", "oh-hell"):
        src = _source(f"games/{game}.cardgame")
        f = _invariant(src, "even_hands" if game == "hearts" else "hands_even")
        assert re.search(r"if _m\d+ is \.\.\.:", f), game


def test_all_pairs_keeps_the_pairs_where_a_side_may_fail(tmp_path: Path) -> None:
    """A side that may fail (the top of an empty hand) or reads both variables keeps
    the nested loops: which pairs are evaluated, and in what order, decides the error."""
    path = tmp_path / "pairs.cardgame"
    path.write_text(PAIRS.replace(
        'invariant rows', 'invariant tops "fails": all p in players: all q in players: '
        'size(hand[p]) <= (top of hand[q]).rank + 13\n'
        'invariant both "both": all p in players: all q in players: points[p] + points[q] <= 600 + size(hand[q])\n'
        'invariant rows'), encoding="utf-8")
    src = _source(path)
    for name in ("tops", "both"):
        assert "is ...:" not in _invariant(src, name), name
