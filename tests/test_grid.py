"""Grid zones and covering (issue 16, item 4): `zone board[3][3]`,
`zone pyramid[row in 1..7][col in 1..row] covered by ...`, `z is covered`; their places'
names, views, the table's drawing, and the checker's errors (golden files in
tests/golden: grid_*, covered_*, hint_zone_three_indices)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter.engine import Position, compile_game
from cardgame.interpreter.errors import Diagnostic, Diagnostics, RuleError
from cardgame.interpreter.observe import view
from cardgame.repl.render import plain, render_table
from cardgame.repl.session import Session

HEAD = 'game "T"\nplayers 1\ndeck standard\n'


def compile_text(tmp_path: Path, text: str, **kw: Any) -> Any:
    p = tmp_path / "t.cardgame"
    p.write_text(HEAD + text, encoding="utf-8")
    return compile_game(p, **kw)


def errors_of(tmp_path: Path, text: str) -> list[str]:
    with pytest.raises((Diagnostic, Diagnostics)) as ei:
        compile_text(tmp_path, text)
    e = ei.value
    return [d.message for d in (e.items if isinstance(e, Diagnostics) else [e])]


BOARD = '''
zone board[3][3] "board": face up
zone rest: face up
var seen = 0
setup {
  shuffle deck
  for r in 1..3 {
    for c in 1..3 {
      if r != c { move top of deck to board[r][c] }
    }
  }
  move all of deck to rest
}
# the number of cards in row r, read by place
def in_row(r: int) = count(each z in board[r] where z is not empty: z)
move note(r in 1..3, c in 1..3) "note {r} {c}"
  when board[r][c] is not empty and seen < 3
{
  seen += in_row(r) * 10 + c
  move top of board[r][c] to rest
}
end when seen >= 3
score = seen
'''


# ---------------------------------------------------------------------- a rectangular grid
@pytest.mark.parametrize("optimize", [True, False])
def test_a_rectangular_grid_indexes_by_row_and_column(tmp_path: Path, optimize: bool) -> None:
    g = compile_text(tmp_path, BOARD, optimize=optimize)
    st = g.new_state(1)
    names = [z for z in g.zone_names() if z.startswith("board")]
    assert names == [f"board{r}-{c}" for r in range(1, 4) for c in range(1, 4)]
    for r in range(1, 4):
        for c in range(1, 4):
            assert len(g.zone_cards(st, f"board{r}-{c}")) == (0 if r == c else 1)
    # the moves read `board[r][c]` for parameters r and c: exactly the six filled places
    assert sorted(g.legal_texts(st)) == sorted(f"note {r} {c}" for r in range(1, 4)
                                               for c in range(1, 4) if r != c)
    st = g.apply_text(st, "note 2 3")
    assert g.zone_cards(st, "board2-3") == []
    assert g.scores(st) == [2 * 10 + 3]  # row 2 held two cards (the quantifier over a row)


def test_iteration_is_row_by_row_and_quantifiers_see_every_place(tmp_path: Path) -> None:
    g = compile_text(tmp_path, '''
zone board[2][3]: face up
var order: list of int = []
setup {
  shuffle deck
  for z in board { move top of deck to z }
  let k = 0
  for z in board { order = order + [size(z)] }
}
move take(z in board) "take" when z is not empty and count(board) == 6
  and (all r in 1..2: count(board[r]) == 3) and size(board) == 6
{
  move top of z to deck
}
end when size(board) < 6
''')
    st = g.new_state(2)
    assert len(g.legal_texts(st)) == 6
    st = g.apply(st, g.legal_moves(st)[0])
    assert g.is_terminal(st)
    assert g.zone_cards(st, "board1-1") == []  # the first place is row 1, column 1


def test_a_column_outside_a_triangular_row_is_a_rule_error(tmp_path: Path) -> None:
    g = compile_text(tmp_path, '''
zone tri[row in 1..3][col in 1..row]: face up
var k = 2
move bad "bad" { move top of deck to tri[1][k] }
end when size(tri) > 0
''')
    st = g.new_state(1)
    with pytest.raises(RuleError, match="position 2 is out of range 1..1"):
        g.apply_text(st, "bad")


def test_places_by_name_and_in_views() -> None:
    g = compile_game("pyramid")
    st = Position(g, seed=1).zone("pyramid7-3", ["K♠"]).state()
    assert g.zone_cards(st, "pyramid7-3") == ["K♠"]
    zones = view(g, st, 1)["zones"]
    assert zones["pyramid7-3"] == ["K♠"] and "pyramid1-1" in zones


# ---------------------------------------------------------------------- covering
def test_covered_by_in_a_pyramid(tmp_path: Path) -> None:
    g = compile_text(tmp_path, '''
zone tri[row in 1..3][col in 1..row]: face up
  covered by tri[row + 1][col], tri[row + 1][col + 1]
zone out: face up
setup { for z in tri { move top of deck to z } }
move take(z in tri) "take" when z is not empty and z is not covered { move top of z to out }
end when size(tri) == 0
''')
    st = g.new_state(1)

    def takeable(st: Any) -> set[str]:
        free = set()
        for m in g.legal_moves(st):
            before = {z: g.zone_cards(st, z) for z in g.zone_names() if z.startswith("tri")}
            after = g.apply(st, m)
            free |= {z for z in before if before[z] and not g.zone_cards(after, z)}
        return free

    assert takeable(st) == {"tri3-1", "tri3-2", "tri3-3"}
    st = Position(g, st).zone("tri3-1", []).state()
    assert takeable(st) == {"tri3-2", "tri3-3"}  # tri2-1 is still covered by tri3-2
    st = Position(g, st).zone("tri3-2", []).state()
    assert takeable(st) == {"tri2-1", "tri3-3"}
    st = Position(g, st).zone("tri2-1", []).zone("tri3-3", []).state()
    assert takeable(st) == {"tri2-2"}
    st = Position(g, st).zone("tri2-2", []).state()
    assert takeable(st) == {"tri1-1"}


def test_covered_by_on_an_array_and_a_single_zone(tmp_path: Path) -> None:
    """A row of piles, each covered by the next; a single zone covered by another; a zone
    with no `covered by` is never covered. The score is a bit per covered place."""
    g = compile_text(tmp_path, '''
zone pile[i in 1..4]: face up
  covered by pile[i + 1]
zone under: face up covered by lid
zone lid: face up
zone plain: face up
def bit(b: bool, k: int) = if b then k else 0
move m "m" { move top of deck to lid }
end when lid is not empty
score = bit(pile[1] is covered, 1) + bit(pile[2] is covered, 2) + bit(pile[3] is covered, 4)
  + bit(pile[4] is covered, 8) + bit(under is covered, 16) + bit(plain is covered, 32)
''')
    st = g.new_state(1)
    assert g.scores(st) == [0]
    st = Position(g, st).zone("pile4", ["A♠"]).zone("plain", ["2♠"]).state()
    assert g.scores(st) == [4]  # pile[4] covers pile[3]; nothing covers pile[4]
    st = Position(g, st).zone("pile2", ["3♠"]).state()
    assert g.scores(st) == [1 + 4]
    st = g.apply_text(st, "m")
    assert g.scores(st) == [1 + 4 + 16]


# ---------------------------------------------------------------------- the checker
@pytest.mark.parametrize(("text", "message"), [
    ("zone g[row in 1..3][col in 2..row]: face up\n", "count from 1"),
    ("zone g[i in 0..3]: face up covered by g[i + 1]\n", "count from 1"),
    ("zone g[i in 1..2000]: face up\n", "array size 2000 is out of range 1..1000"),
    ("zone g[3][player]: face up\n", "size of a grid's index"),
    ("zone g[40][40]: face up\n", "a grid has at most 1,000 places, as any zone array; this one has 1,600"),
    ("zone g[3][3]: face up covered by g[1]\n", "takes 2 indices, given 1"),
    ("zone g[3][3]: face up covered by h[1][1]\n", "'h' is not a zone"),
    ("var n = 1\nzone g[3][3]: face up covered by g[n][1]\n", "not known when the game is compiled"),
    ("zone g[3][3]: face up\nmove m \"m\" when g[4][1] is empty { }\n", "index 4 is out of range 1..3"),
    ("zone g[r in 1..3][c in 1..r]: face up\nmove m \"m\" when g[1][2] is empty { }\n",
     "column 2 is out of range 1..1 in row 1 of 'g'"),
    ("zone g[3][3]: face up\nmove m(c in all of deck) \"m\" when c is covered { }\n",
     "place of a zone, not a card"),
])
def test_grid_errors(tmp_path: Path, text: str, message: str) -> None:
    msgs = errors_of(tmp_path, text + "end when deck is empty\n")
    assert any(message in m for m in msgs), msgs


def test_existing_one_index_arrays_are_unchanged(tmp_path: Path) -> None:
    g = compile_game("calculation")
    assert [z for z in g.zone_names() if z.startswith("waste")] == [f"waste{i}" for i in range(1, 5)]


# ---------------------------------------------------------------------- the table
def table_text(game: str, seed: int) -> str:
    sess = Session(compile_game(game), game, seed)
    return plain(render_table(sess.table()))


def test_the_table_draws_a_triangle_as_a_pyramid() -> None:
    text = table_text("pyramid", 3)
    lines = text.splitlines()
    head = lines.index("pyramid")
    rows = lines[head + 1:head + 8]
    card = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")
    assert [len(card.findall(r)) for r in rows] == list(range(1, 8))
    indents = [len(r) - len(r.lstrip()) for r in rows]
    assert indents == sorted(indents, reverse=True) and indents[-1] == 0
    # each card sits between the two that cover it: row r starts half a cell right of row r+1
    assert len({a - b for a, b in zip(indents, indents[1:], strict=False)}) == 1


def test_the_table_draws_a_rectangle_as_a_grid(tmp_path: Path) -> None:
    p = tmp_path / "t.cardgame"
    p.write_text(HEAD + BOARD, encoding="utf-8")
    sess = Session(compile_game(p), str(p), 1)
    lines = plain(render_table(sess.table())).splitlines()
    head = lines.index("board")
    rows = lines[head + 1:head + 4]
    assert rows[0].startswith("·") and rows[1].split()[1] == "·" and rows[2].split()[2] == "·"
    assert all(len(r.split()) == 3 for r in rows)


def test_card_names_typed_in_the_repl_still_work() -> None:
    """A pyramid's moves name cards, typed with suit letters or symbols, in any case."""
    sess = Session(compile_game("pyramid"), "pyramid", 3)
    texts = [t for t, _ in sess.my_move_texts()]
    assert "pair 4♣ 9♣" in texts  # seed 3: both on the bottom row
    assert sess.parse("pair 4c 9c") == sess.parse("pair 4♣ 9♣") == sess.parse("PAIR 4C 9C")
    sess.play(sess.parse("pair 4c 9c"))
    assert sess.game.zone_cards(sess.state, "pyramid7-3") == []


def test_the_solver_never_takes_grid_or_covered_places_as_interchangeable(tmp_path: Path) -> None:
    """A move over `z in g` alone would make g's places interchangeable to the solver's
    symmetry; but where a place lies matters once it covers or is covered."""
    from cardgame.interpreter.solve.symmetry import interchangeable

    body = '''
zone out: face up
setup {{ for z in g {{ move top of deck to z }} }}
move take(z in g) "take" when size(g) > 0 {covered} {{ move all of z to out }}
end when size(g) == 0
'''
    plain = compile_text(tmp_path, "zone g[4]: face up\n" + body.format(covered=""))
    assert interchangeable(plain) == ["g"]  # the control: the same game without covering
    for decl, cond in [("zone g[i in 1..4]: face up covered by g[i + 1]\n", "and z is not covered"),
                       ("zone g[2][2]: face up\n", ""),
                       ("zone g[4]: face up\nzone h: face up covered by g[1]\n", "")]:
        g = compile_text(tmp_path, decl + body.format(covered=cond))
        assert interchangeable(g) == [], decl
