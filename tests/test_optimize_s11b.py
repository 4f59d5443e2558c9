"""Optimiser rules of the eleventh session (issue 12, target 4: the fuzz walks of Pyramid,
Klondike and Scopa): each rule's shape in the generated code, a state where the rule
matters, and the game played alike with and without optimisation
(`test_optimize.play_both`)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from cardgame.interpreter.codegen import generate
from cardgame.interpreter.engine import Game, Position, compile_game
from cardgame.interpreter.lang import check, load
from test_optimize import _both, play_both


def _source(path: Path | str) -> str:
    """The optimised generated code of a game file."""
    return generate(check(load(path), None, {}), optimize=True).source


def _section(src: str, move: str) -> str:
    """The lines of the first legal-move generator of `move` (to the next one)."""
    legal = src[src.index("def legal_"):]
    part = legal[legal.index(f"# move {move}\n"):]
    return part[:part.index("# move ", 1)]


MEMO = """\
game "Memo"
players 2
deck standard
zone row[6] "row": face up, squared
zone stock: face down, squared
zone waste: face up, squared
var counter = 0
var who: player = 1
setup {
  shuffle deck
  for place in row {
    move top of deck to place
  }
  move all of deck to stock
}
# the row's cards alone: remembered with the row's zones
def tops = each place in row where place is not empty: top of place
# with the top of the waste: a list grown (a draw from the step budget), not remembered
def avail = if waste is empty then tops else tops + [top of waste]
# a variable read: not remembered (`tick` changes it alone)
def low = each place in row where place is not empty and counter % 3 != 1: top of place
# a face read: not remembered (`flip` turns a card: the zones stay the same)
def ups = each place in row where place is not empty and (top of place).face_up: top of place
move take(c in avail) "take {c}" when c.rank != 7 { move c to waste }
move keep(c in avail) "keep {c}" when c.rank == 7 { move c to waste }
move low1(c in low) "low {c}" when c.rank < 4 { move c to stock }
move low2(c in low) "high {c}" when c.rank > 10 { counter += 2 }
move up1(c in ups) "up {c}" when c.rank < 3 { move c to stock }
move up2(c in ups) "over {c}" when c.rank > 11 { counter += 3 }
move flip(z in row) "flip {z}" when z is not empty { turn top of z face down }
move refill(z in row) "refill {z}" when z is empty and stock is not empty { move top of stock to z }
move tick "tick" { counter += 1 }
flow {
  repeat 80 times {
    who chooses take | keep | low1 | low2 | up1 | up2 | flip | refill | tick
    who = left of who
  }
}
score = size(waste)
result highest score
"""


def _legal(g: Game, counter: int, turned: int) -> list[Any]:
    """The legal moves of the deal of seed 3 with this counter, the tops of the first
    `turned` places of the row turned face down (the same row)."""
    pos = Position(g, g.new_state(3))
    tops = [pos.ids(f"row{k}")[-1] for k in range(1, turned + 1)]
    return g.legal_moves(pos.var("counter", counter).faces(tops).state())


def test_a_shared_value_of_zones_alone_is_remembered(tmp_path: Path) -> None:
    """A decision's shared value that reads zones alone (`tops`: Pyramid's `free`) is
    remembered with the zones' tuples (one slice of the row's slots) and given again
    while they are equal; one that reads a variable (`low`) or a face (`ups`) is not,
    nor one that draws from the step budget (`avail`'s list grown, around `tops`). A
    state with the same row but another counter, or a card turned: the listing is the
    plain code's. Both codes play alike."""
    path = tmp_path / "memo.cardgame"
    path.write_text(MEMO, encoding="utf-8")
    src = _source(path)
    cells = re.findall(r"^(M_v\d+) = \[\(None, None\)\]$", src, re.M)
    assert len(cells) == 1
    (cell,) = cells
    take = _section(src, "take")
    assert re.search(rf"\(_e\d+ := {cell}\[0\]\)\[0\] == \((_k\d+) := s\[7:13\]\) "
                     rf"else _remember\({cell}, \1, ", take)
    assert "_grow(" in take and take.index("_grow(") > take.index("_remember(")
    for move in ("low1", "low2", "up1", "up2"):
        assert "_remember" not in _section(src, move), move
    plain = generate(check(load(path), None, {}), optimize=False).source
    assert "_remember" not in plain
    fast, slow = _both(path, 0, {})
    assert _legal(fast, 0, 0) == _legal(slow, 0, 0)
    # the same row, another counter (`low` lists nothing at 1), a card turned (`ups`
    # leaves it out): each listed as the plain code lists it, after the first
    for k in range(4):
        assert _legal(fast, k, k) == _legal(slow, k, k), k
    assert _legal(fast, 0, 0) != _legal(fast, 3, 3)
    play_both(fast, slow, seeds=tuple(range(12)))


def test_pyramid_remembers_its_free_cards() -> None:
    """Pyramid: the free cards (28 places, one slice) are remembered; `available`, which
    grows the list with the waste's top, is not. Scopa's ranks of the table's cards (one
    zone: the key's test costs what the value does) are not."""
    assert "_remember" not in _source("games/scopa.cardgame")
    src = _source("games/pyramid.cardgame")
    assert len(re.findall(r"^M_v\d+ = ", src, re.M)) == 1
    assert re.search(r"_remember\(M_v\d+, _k\d+, \(\*\(\(s\[7\]\[-1\],\)", src)
    assert "s[7:35]" in src


JOIN = """\
game "Join"
players 1
deck standard
zone stock: face down, squared
zone column[5] "column": face up, fanned
setup {
  shuffle deck
  for k in 1..5 {
    repeat k times {
      move top of deck to column[k]
    }
  }
  move all of deck to stock
}
def fits(c: card, dest: zone) =
  if dest is empty then c.rank == K
  else c.rank == (top of dest).rank - 1 and c.color != (top of dest).color
move shift(a in column, c in a, b in column) "shift {c} from {a} to {b}"
  when a != b
  when fits(c, b)
{
  move c and above to b
}
# the key of an empty column fails (12 / 0): the index is given up, every column looped
move halve(a in column, c in a, b in column) "halve {c} by {b}"
  when b is not empty
  when c.rank == 12 / size(b)
{
  move c to stock
}
# a condition before the equality that may fail (the top of an empty column): no index
move peek(a in column, c in a, b in column) "peek {c} at {b}"
  when (top of b).rank > 0
  when c.rank == size(b)
{
  move c to stock
}
move serve(b in column) "serve {b}" when stock is not empty { move top of stock to b }
score = size(stock)
"""


def test_the_innermost_loop_over_zones_goes_by_an_index_of_its_key(tmp_path: Path) -> None:
    """`shift(a in column, c in a, b in column) when a != b when fits(c, b)` (Klondike's):
    `fits` holds only if c.rank equals 13 (b empty) or the rank of b's top less one, a
    value of b alone: the columns by that value, listed once a decision, and the loop
    over those whose value is c.rank. Where that value fails for a column (`12 /
    size(b)` of an empty one) the index is given up and every column looped, as
    written; after a condition that may fail (the top of an empty column) there is no
    index. Both codes play alike, errors too."""
    path = tmp_path / "join.cardgame"
    path.write_text(JOIN, encoding="utf-8")
    src = _source(path)
    shift = _section(src, "shift")
    # (the index built before the loops, looked up once per card, the card's other
    # values computed only where some column has its key: the thirteenth session's shape)
    built = re.search(r"^    (_x\d+) = \{\}\n    try:\n        for (_q\d+) in Z_column:\n"
                      r" {12}_k\d+ = \(13 if \(not s\[\2\]\) else ", shift, re.M)
    assert built is not None
    ix = built.group(1)
    (j,) = re.findall(rf"if \((_j\d+) := {ix}\.get\(RANK\[u_c\], \(\)\)\):", shift)
    assert f"for u_b in {j}:" in shift
    # c.rank in the condition: computed once per card, as the condition's own copy
    assert re.search(r"\b_h\d+ = RANK\[u_c\]\n", shift)
    assert "_every(Z_column)" in _section(src, "halve")  # (its index, written out)
    assert "_every(" not in _section(src, "peek")
    plain = generate(check(load(path), None, {}), optimize=False).source
    assert "_every(" not in plain
    fast, slow = _both(path, 0, {})
    play_both(fast, slow, seeds=tuple(range(24)))


def test_klondike_shifts_by_the_columns_index() -> None:
    """Klondike: `shift` loops over the columns whose top takes the card (by rank), and
    so does `down` (the thirteenth session: one index, built by whichever comes first)."""
    src = _source("games/klondike.cardgame")
    assert len(re.findall(r"if (_v\d+) is \.\.\.:\n\s+\1 = \{\}\n\s+try:\n\s+for _q\d+ in "
                          r"Z_column:\n\s+_k\d+ = \(13 if \(not s\[_q\d+\]\) else \(RANK\[", src)
               ) == 4  # (shift and down, in legal_4 and step_4)


def test_the_turned_cards_set_is_made_again_only_for_other_faces() -> None:
    """Klondike's face tests read the cards turned as a set (`_turned`), made again only
    when the faces' tuple differs from the last one made: as many cards turned, other
    ones (the 8 under the 3 of column 2 face down, or the 3 on it: the 8 goes onto the 9
    of column 1 in one of them only), in turn and back, and a whole column face down (its
    invariants broken): each time the plain code's moves and broken invariants."""
    src = _source("games/klondike.cardgame")
    assert "frozenset(s[" not in src
    assert re.search(r"_h\d+ = _turned\(s\[\d+\]\)", _section(src, "shift"))
    fast = compile_game("games/klondike.cardgame")
    slow = compile_game("games/klondike.cardgame", optimize=False)

    def state(g: Game, down: str) -> Any:
        pos = Position(g, g.new_state(5)).zone("column1", "5c 9h").zone("column2", "8s 3d")
        mine = set(pos.ids("column1") + pos.ids("column2"))
        turned = (pos.turned() - mine) | set(pos.ids("column2")[:1] if down == "8"
                                             else pos.ids("column2")[1:] if down == "3"
                                             else pos.ids("column2"))
        return pos.faces(turned).state()

    order = ("8", "3", "8", "both", "3", "3", "8")
    built = [(state(fast, down), state(slow, down)) for down in order]  # (dealt first)
    seen = []
    for down, (a, b) in zip(order, built, strict=True):
        seen.append(fast.legal_moves(a))
        assert seen[-1] == slow.legal_moves(b), down
        assert fast.check_invariants(a) == slow.check_invariants(b), down
    assert seen[0] != seen[1]
