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
var mark[player]: int = none
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
invariant total "points of at most 60 in all": (sum p in players: points[p]) <= 60
invariant someone "someone holds 3 cards or more": any p in players: size(hand[p]) >= 3
invariant all_low "every player's points under 25": all p in players: points[p] < 25
invariant marked "a mark may be none": any p in players: mark[p] == none
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
    for name, bound in (("even", "<"), ("even2", "<"), ("rows", "<")):
        f = _invariant(src, name)
        assert re.search(r"if (_m\d+) is \.\.\.:\n", f), name
        assert re.search(rf"if (_m\d+) is None or _b\d+ {bound} \1: \1 = _b\d+", f), name
    # (a game's variable and a card's rank may be none: `var mark: int = none`, a joker;
    # the nested loops stop at the first false pair before comparing a none, the bound
    # would not: the review's finding, test_all_pairs_is_not_used_where_a_side_may_be_none)
    for name in ("close", "above"):
        assert "is ...:" not in _invariant(src, name), name
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


def test_all_pairs_keeps_the_pairs_where_a_size_may_fail(tmp_path: Path) -> None:
    """A size of a zone variable (none until set: `size` of none fails) or of an array's
    zone at a player that is no loop's keeps the nested loops, which stop at the first
    false pair before they reach it; sizes of zones named, at the loops' players, take
    the bound."""
    path = tmp_path / "pairs.cardgame"
    path.write_text(PAIRS.replace(
        "var mark[player]: int = none",
        "var mark[player]: int = none\nvar aim: zone = none\nvar lead: player = 1").replace(
        'invariant rows', 'invariant aim "a zone variable": all p in players: all q in players: '
        'size(hand[p]) <= size(hand[q]) + size(aim) + 1\n'
        'invariant lead "a player variable": all p in players: all q in players: '
        'size(hand[p]) <= size(hand[q]) + size(pile[lead]) + 1\n'
        'invariant named "zones named": all p in players: all q in players: '
        'size(hand[p]) <= size(hand[q]) + size(trick) + 1\n'
        'invariant rows'), encoding="utf-8")
    src = _source(path)
    for name in ("aim", "lead"):
        assert "is ...:" not in _invariant(src, name), name
    assert "is ...:" in _invariant(src, "named")


TRI = """\
game "Tri"
players 2
deck standard
zone tri[row in 1..3][col in 1..row] "tri": face up
  covered by tri[row + 1][col], tri[row + 1][col + 1]
zone cols[6] "cols": face up, fanned
zone wide[40] "wide": face up, squared
zone stock: face down, squared
zone waste: face up, squared
var who: player = 1
setup {
  shuffle deck
  for place in tri {
    move top of deck to place
  }
  for c in cols {
    move top of deck to c
  }
  move all of deck to stock
}
def free = each place in tri where place is not empty and place is not covered: top of place
# the top of a column where it has one card or more: a checked top (no fact from `size`)
def tops = each c in cols where size(c) >= 1: top of c
def far = each w in wide where w is not empty: top of w
move take(c in free) "take {c}" when c.rank != 7 { move c to waste }
move lift(c in tops) "lift {c}" { move c to waste }
move farm(c in far) "far {c}" { move c to waste }
move feed(w in cols) "feed {w}" when stock is not empty { move top of stock to w }
move spread(w in wide) "spread to {w}" when stock is not empty and (any v in cols: size(v) > 2) {
  move top of stock to w
}
move skip "skip" when not (all v in cols: v is not empty) or (any p in tri: p is empty) { }
flow {
  repeat 60 times {
    who chooses take | lift | farm | feed | spread | skip
    who = left of who
  }
}
score = size(waste)
result highest score
invariant places "at most one card a place": all place in tri: size(place) <= 1
invariant free_first "free first": all place in tri: place is not empty or not (place is covered)
invariant short_cols "columns of at most 4 cards": all v in cols: size(v) <= 4
invariant wide_few "wide zones of at most 1 card": all w in wide: size(w) <= 1
invariant ranked "a top that may fail, in order": all v in cols: v is empty or (top of v).rank >= 1
invariant faces "a face: the loop": all v in cols: v is empty or (top of v).face_up
"""


def test_a_few_zones_are_written_out_one_term_each(tmp_path: Path) -> None:
    """`each`/`any`/`all` over a zone array of at most WRITE_ZONES zones (a grid's places
    too), its tests and values reading the zone alone: one term a zone, its slot a
    constant (`covered` reads its covers' slots: Pyramid's free cards), in legal moves
    and in invariants; the body knows the where (an unchecked top) or checks as it did,
    in the generator's order (a top that may fail). Forty zones, and a face read (the
    loop's set of the turned cards), keep the loop. Both codes play alike, invariants
    failing at times."""
    path = tmp_path / "tri.cardgame"
    path.write_text(TRI, encoding="utf-8")
    src = _source(path)
    (legal,) = _function(src, "# move take")
    # the six places of the grid, the three of its bottom row covered by nothing
    assert re.search(r"\*\(\(s\[(\d+)\]\[-1\],\) if \(\(not not s\[\1\]\) and "
                     r"\(not \(not not \(s\[\d+\] or s\[\d+\]\)\)\)\) else \(\)\)", legal)
    assert "COVER[" not in legal and "for _q" not in legal.split("# move lift")[0]
    assert re.search(r"\*\(\(\(s\[(\d+)\] or _E\(\d+, \d+\)\)\[-1\],\) if \(len\(s\[\1\]\) >= 1\)",
                     legal)
    assert re.search(r"for _q\d+ in Z_wide if", legal)  # (40 zones: the comprehension)
    assert re.search(r"\(not not \(\(\(len\(s\[\d+\]\) > 2\)\) or ", legal)
    assert re.search(r"\(not not \(\(\(not not s\[\d+\]\)\) and ", legal)
    for name in ("places", "free_first", "short_cols", "ranked"):
        assert re.search(r"return bool\(\(not not \(\(", _invariant(src, name)), name
    for name in ("wide_few", "faces"):
        assert "for _q" in _invariant(src, name), name
    plain = generate(check(load(path), None, {}), optimize=False).source
    assert "*((" not in plain and "COVER[" in plain
    fast = compile_game(path)
    slow = compile_game(path, optimize=False)
    play_both(fast, slow, seeds=tuple(range(12)))


def test_the_players_are_written_out_one_term_each(tmp_path: Path) -> None:
    """`any`/`all`/`sum` over the players (their number known when compiling): one term
    a player, the player a constant (`s[17] + s[18] + s[19]`, an `and` or `or` that stops
    where the loop stops), in invariants and in the flow; an optional variable too (it
    may be none: read in the same order). Both codes say alike (the invariants fail at
    times)."""
    path = tmp_path / "pairs.cardgame"
    path.write_text(PAIRS, encoding="utf-8")
    src = _source(path)
    assert re.search(r"= \(\(s\[\d+\]\) \+ \(s\[\d+\]\) \+ \(s\[\d+\]\)\)\n",
                     _invariant(src, "total"))
    assert re.search(r"\(not not \(\(\(len\(s\[\d+\]\) >= 3\)\) or \(\(len",
                     _invariant(src, "someone"))
    assert re.search(r"\(not not \(\(\(s\[\d+\] < 25\)\) and \(\(s", _invariant(src, "all_low"))
    for name in ("total", "someone", "all_low"):
        assert "for _q" not in _invariant(src, name), name
    assert re.search(r"\(not not \(\(\(s\[\d+\] == None\)\) or ", _invariant(src, "marked"))
    for game in ("interaction", "hearts"):  # Interaction's chips, Hearts' end of the game
        assert re.search(r"\(not not \(\(\(s\[\d+\] >= \d+\)\) (and|or) ",
                         _source(f"games/{game}.cardgame")), game
    fast = compile_game(path)
    slow = compile_game(path, optimize=False)
    play_both(fast, slow, seeds=tuple(range(12)))


ORDER = """\
game "Order"
players 2
deck standard
zone cols[4] "cols": face up, fanned
zone waste: face up, squared
var who: player = 1
setup {
  shuffle deck
  for c in cols {
    move top of deck to c
  }
  move all of deck to waste
}
move lift(v in cols) "lift {v}" when v is not empty { move top of v to waste }
# the top of an empty column fails: at the first empty one, as the loop fails
move check_all "check" when all v in cols: (top of v).rank >= 1 { }
move refill(v in cols) "refill {v}" when waste is not empty { move top of waste to v }
flow {
  repeat 40 times {
    who chooses refill | lift | check_all
    who = left of who
  }
}
score = size(waste)
result highest score
"""


def test_written_out_terms_fail_where_the_loop_fails(tmp_path: Path) -> None:
    """A written-out `all` whose terms may fail (the top of an empty column) raises the
    error the loop raises (the same place, the same column first): both codes end alike,
    with the same rule error at the same step."""
    path = tmp_path / "order.cardgame"
    path.write_text(ORDER, encoding="utf-8")
    (legal,) = _function(_source(path), "# move check_all")
    assert re.search(r"\(not not \(\(\(RANK\[\(s\[\d+\] or _E\(\d+, \d+\)\)\[-1\]\] >= 1\)\) and ",
                     legal)
    fast = compile_game(path)
    slow = compile_game(path, optimize=False)
    play_both(fast, slow, seeds=tuple(range(16)))


# ---------------------------------------------------------------- the review's cases
def _review_game(move: str, skip: str, deal: str = "") -> str:
    return f"""\
game "Review"
players 2
deck standard
zone stock: face down, squared
zone pile: face up, squared
zone hand[player]: owner
var current: player = 1
setup {{
  move all of deck to stock
{deal}}}
{move}
{skip}
flow {{
  repeat 60 times {{
    current chooses take | skip
    current = left of current
  }}
}}
score = size(hand[me])
result highest score
"""


def test_a_move_over_the_top_cards_does_not_answer_the_any(tmp_path: Path) -> None:
    """`take(c in top 3 of stock)` lists fewer cards where the stock is short, where
    `any c in top 3 of stock: ...` fails: the skip's quantifier must be its own, and both
    codes fail alike at the end of the stock (the review: the optimised code went on)."""
    path = tmp_path / "topn.cardgame"
    path.write_text(_review_game(
        'move take(c in top 3 of stock) "take {c}" when c.rank > 0 { move c to hand[me] }',
        'move skip "skip" when not (any c in top 3 of stock: c.rank > 0) '
        '{ current = current }'))
    assert not _function(_source(path), "len(out) >")
    fast, plain = compile_game(str(path)), compile_game(str(path), optimize=False)
    play_both(fast, plain, seeds=tuple(range(4)))


def test_a_move_whose_conditions_may_fail_does_not_answer_the_any(tmp_path: Path) -> None:
    """`when 100 / (c.rank - 5) > 0 and size(stock) > 100`: the generator tests the
    second conjunct first (it reads no parameter) and lists nothing, where the quantifier
    divides by zero first: the skip's `any` must be computed (the review: the optimised
    code listed the skip, the plain code failed)."""
    path = tmp_path / "order.cardgame"
    cond = "100 / (c.rank - 5) > 0 and size(stock) > 100"
    path.write_text(_review_game(
        f'move take(c in hand[me]) "take {{c}}" when {cond} {{ move c to pile }}',
        f'move skip "skip" when not (any c in hand[me]: {cond}) '
        '{ move top of stock to hand[me] }',
        deal="  deal 5 from stock to hand\n"))
    assert not _function(_source(path), "len(out) >")
    fast, plain = compile_game(str(path)), compile_game(str(path), optimize=False)
    play_both(fast, plain, seeds=tuple(range(6)))


def test_all_pairs_is_not_used_where_a_side_may_be_none(tmp_path: Path) -> None:
    """`size(hand[p]) < (first i in 1..4 where i > 7 - size(hand[q]))`: a `first` is
    none where nothing is found, and the loops stop at the first false pair before
    comparing it; the least B over all of Y compared it (the review: the optimised code
    failed, the plain code did not)."""
    path = tmp_path / "pairs.cardgame"
    path.write_text("""\
game "Pairs"
players 2
deck standard
zone stock: face down, squared
zone hand[player]: owner
var current: player = 1
var flag = 0
setup {
  move all of deck to stock
  deal 3 from stock to hand
}
move draw "draw" {
  move top of stock to hand[me]
  if all p in players: all q in players: size(hand[p]) < (first i in 1..4 where i > 7 - size(hand[q])) {
    flag = 1
  }
}
flow {
  repeat 6 times {
    current chooses draw
    current = left of current
  }
}
score = size(hand[me])
result highest score
""")
    assert "is ..." not in _source(path)
    fast, plain = compile_game(str(path)), compile_game(str(path), optimize=False)
    play_both(fast, plain, seeds=tuple(range(4)))
