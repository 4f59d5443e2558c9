"""Optimiser rules of the thirteenth session (issue 12, target 4: Klondike's fuzz walks):
each rule's shape in the generated code, positions where it matters, and the game played
alike with and without optimisation (`test_optimize.play_both`)."""

from __future__ import annotations

import re
from pathlib import Path

from cardgame.interpreter.codegen import generate
from cardgame.interpreter.engine import Game, Position, compile_game
from cardgame.interpreter.lang import check, load
from test_optimize import _both, play_both

DATA = Path(__file__).resolve().parent / "data" / "s13"
FACES = DATA / "faces.cardgame"  # a face-up and a face-down array, cards turned
JOIN = DATA / "join2.cardgame"  # Klondike's `shift` and `down`, a key that fails


def _source(path: Path | str, optimize: bool = True) -> str:
    return generate(check(load(path), None, {}), optimize=optimize).source


def _section(src: str, move: str) -> str:
    """The lines of the first legal-move generator of `move` (to the next one)."""
    legal = src[src.index("def legal_"):]
    part = legal[legal.index(f"# move {move}\n"):]
    end = part.find("# move ", 1)
    return part[:end] if end > 0 else part[:part.index("return out")]


def test_the_face_of_an_arrays_zone_is_known_when_compiling() -> None:
    """`c.face_up` of a card of `a in up` (a face-up array) is `c not in turned`, of `a in
    down` (face down) `c in turned`: every zone of an array shares its declaration, so
    its face (`PUB[u_a]` not read, nor compared). So in an invariant's part over an
    array. Plain code reads `PUB`; both play alike (cards turned both ways)."""
    src = _source(FACES)
    flip, peek = _section(src, "flip"), _section(src, "peek")
    lift, drop = _section(src, "lift"), _section(src, "drop")
    assert re.search(r"if \(u_c not in _h\d+\) and \(RANK\[u_c\] > 5\):", flip), flip
    assert re.search(r"if \(not \(u_c in _h\d+\)\) and \(RANK\[u_c\] < 8\):", peek), peek
    assert re.search(r"if \(not \(u_c not in _h\d+\)\):", lift), lift
    assert re.search(r"if \(u_c in _h\d+\):", drop), drop
    legal = src[src.index("def legal_"):src.index("LEGAL =")]
    assert "PUB[" not in legal
    part = src[src.index("def inve_ups_0"):src.index("INV_PARTS")]
    assert "PUB[" not in part and "not in s[" in part
    plain = _source(FACES, optimize=False)
    assert "PUB[u_a] != (u_c in s[" in plain
    fast, slow = _both(FACES, 0, {})
    play_both(fast, slow, seeds=tuple(range(16)))


def _legal(g: Game, **zones: str) -> list[object]:
    pos = Position(g, g.new_state(4))
    for name, cards in zones.items():
        pos.zone(name, cards)
    return g.legal_moves(pos.state())


def test_the_zones_index_is_built_once_before_the_loops_and_looked_up_first() -> None:
    """The index of `join` (the columns by the rank their top takes, Klondike's
    `fits_column`): built before the loops, once for the decision where two generators
    build the same (`shift` and `back`: one variable, set to `...` before the first and
    built by the first that finds it so: `if _v is ...: _v = {}`, the zones by their
    key, or `_every` where a key fails); `shift` looks a card's rank up first,
    at the card's level, and computes the card's other values (its colour) only where a
    column takes that rank; `back` indexes by `top of f`, a def's argument that is not a
    parameter (computed once per cell, as inlining hoists it); the few columns given
    read their tops in place (no list of every column's top). A key that fails for a
    column (`12 / size(b)` of an empty one) gives every column. Plain code has no index;
    both list and play alike."""
    src = _source(JOIN)
    legal = src[src.index("def legal_"):src.index("LEGAL =")]
    assert len(re.findall(r"^    (_v\d+) = \.\.\.$", legal, re.M)) == 2  # (and open_fit's)
    shift, back, split = (_section(src, m) for m in ("shift", "back", "split"))
    shared = re.search(r"^    if (_v\d+) is \.\.\.:\n        \1 = \{\}\n", shift, re.M)
    assert shared is not None, shift
    v = shared.group(1)
    for sec in (shift, back):
        made = re.search(rf"^    if {v} is \.\.\.:\n        {v} = {{}}\n        try:\n {{12}}for "
                         r"(_q\d+) in Z_column:\n {16}_k\d+ = \(13 if \(not s\[\1\]\) else ",
                         sec, re.M)
        assert made, sec
        assert "[None] *" not in sec and "RANK[s[u_b][-1]]" in sec
    j = re.search(rf"if \((_j\d+) := {v}\.get\(RANK\[u_c\], \(\)\)\) and "
                  r"\(RANK\[u_c\] > 1\):\n\s+_h\d+ = RANK\[u_c\]\n\s+_h\d+ = COLOR\[u_c\]\n"
                  r"\s+for u_b in (_j\d+):", shift)
    assert j is not None and j.group(1) == j.group(2), shift
    assert re.search(r"_h(\d+) = s\[u_f\]\[-1\]\n\s+(_h\d+) = RANK\[_h\1\]\n(?:.*\n)*?"
                     rf"\s+for u_b in {v}\.get\(\2, \(\)\):", back), back
    assert re.search(r"^        for (_q\d+) in Z_column:\n {12}_k\d+ = _div\(12, len\(s\[\1\]\)",
                     split, re.M) and "_every(Z_column)" in split
    assert "_every(" not in _source(JOIN, optimize=False)
    # `dest is empty or ...` (FreeCell's): the empty columns under `...`, in every list
    spread, lay = _section(src, "spread"), _section(src, "lay")
    (w,) = {x for x in re.findall(r"^    if (_v\d+) is \.\.\.:\n        \1 = \{\.\.\.: \[\]\}",
                                   spread + lay, re.M)}
    assert w != v and f"for u_b in ({w}.get(_h" in spread and f"for u_b in ({w}.get(_h" in lay
    assert re.search(r"if \(not s\[(_q\d+)\]\):\n\s+for (_l\d+) in _v\d+\.values\(\): \2\.append"
                     r"\(\1\)", spread)
    fast, slow = _both(JOIN, 0, {})
    # a K in a cell and two empty columns (the K goes to either; 12 / 0 for the split's
    # key: every column); a 7 that two 8s of the other colour take; cards face up that
    # no column takes
    for zones in ({"cell1": "Kh", "cell2": "6c", "column2": "", "column4": ""},
                  {"cell1": "7h", "column1": "8s", "column2": "", "column3": "8c",
                   "column4": "", "column5": "9d 7c"},
                  {"cell1": "7h", "cell2": "Qs", "column1": "", "column5": ""},
                  {"cell1": "7h", "column1": "8s", "column3": "8c", "column5": "Qd 8d"},
                  {"cell1": "2h", "cell2": "Ad", "column1": "3c 9h 8s 7d", "column2": "10c"},
                  {}):
        assert _legal(fast, **zones) == _legal(slow, **zones), zones
    def texts(g: Game, start: str, **zones: str) -> list[str]:
        return [t for t in map(g.move_text, _legal(g, **zones)) if t.startswith(start)]

    assert texts(fast, "back cell1", cell1="7h", column1="8s", column3="8c") == [
        "back cell1 column1", "back cell1 column3"]
    # the empty columns and those whose top takes the 7, in the columns' order
    assert texts(fast, "spread cell1", cell1="7h", column1="8s", column2="", column3="8c",
                 column4="", column5="9d 7c") == [f"spread cell1 column{k}" for k in (1, 2, 3, 4)]
    play_both(fast, slow, seeds=tuple(range(30)))


def test_klondike_indexes_its_columns_once_for_shift_and_down() -> None:
    """Klondike: `shift` and `down` share one index of the columns; no list of the
    columns' tops is filled; the columns' face is known (no `PUB[`)."""
    src = _source("games/klondike.cardgame")
    legal = src[src.index("def legal_"):src.index("LEGAL =")]
    assert len(re.findall(r"^    _v\d+ = \.\.\.$", legal, re.M)) == 1
    assert legal.count(" = _every(Z_column)") == 2
    assert "[None] *" not in legal and "PUB[" not in legal
    fast = compile_game("klondike")
    slow = compile_game("klondike", optimize=False)
    play_both(fast, slow, seeds=tuple(range(6)))


ABOVE = DATA / "above.cardgame"


def test_a_card_and_above_is_looked_for_first_where_it_was_chosen() -> None:
    """`move c and above to b` of a parameter `c in a`: c is looked for in a alone (one
    search of that zone, not of every zone: Klondike's `shift`), and where it is not
    there any more (`hop`: the top of a left first, c with it) every zone is searched,
    as before; a parameter the body assigns (`swap`: `a = b`; it may be set to `none`)
    is not trusted: the zones are searched. Plain code searches; both play alike."""
    src = _source(ABOVE)
    effs = {n: src[src.index(f"def eff_{n}("):src.index(f"def eff_{n + 1}(")]
            for n in range(3)}
    for n in (0, 1):
        assert re.search(r"(_t\d+) = s\[u_a\]\n\s+if (_c\d+) in \1: (_z\d+), (_cs\d+) = u_a, "
                         r"\1\[\1\.index\(\2\):\]\n\s+else: \3, \4 = _above\(s, \2, \d+\)",
                         effs[n]), effs[n]
    assert "in s[" not in effs[2] and "if _c" not in effs[2] and "_above(s" in effs[2]
    assert "= u_a, " not in _source(ABOVE, optimize=False)
    fast, slow = _both(ABOVE, 0, {})
    play_both(fast, slow, seeds=tuple(range(30)))
    # a hop whose card is the column's top (it goes by the stock), and one under the top
    pos = Position(fast, fast.new_state(2)).zone("column1", "9c 2h").zone("column2", "Kd 2s 7c")
    pos2 = Position(slow, slow.new_state(2)).zone("column1", "9c 2h").zone("column2", "Kd 2s 7c")
    a, b = pos.state(), pos2.state()
    for m in [m for m in fast.legal_moves(a) if m[1] == 1]:
        assert fast.zone_cards(fast.apply(a, m), "column3") == \
            slow.zone_cards(slow.apply(b, m), "column3"), m


def test_an_or_in_an_arm_of_an_if_is_not_a_key() -> None:
    """`if dest is empty then (any_on_empty or c.rank == K) else ...`: the zones where the
    arm's `or` holds would be in every key's list only where that arm is taken, which an
    index of one list a key cannot say, so the loop goes over every zone as written (the
    review found the compiler raising on it). It compiles, and plays alike, with the
    option on and off."""
    path = DATA / "join-if-or.cardgame"
    src = _source(path)
    assert "for u_b in Z_column:" in _section(src, "shift")  # (every zone: no index)
    for on in ("false", "true"):
        fast = compile_game(path, None, {"any_on_empty": on})
        slow = compile_game(path, None, {"any_on_empty": on}, optimize=False)
        play_both(fast, slow, seeds=tuple(range(20)))
