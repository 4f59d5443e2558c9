"""Optimiser rules for the parameter loops of the classic solitaires (issue 12, target 4:
the fuzzer's fast walks of FreeCell and Klondike): each rule's shape in the generated code,
and the game played alike with and without optimisation (`test_optimize.play_both`)."""

from __future__ import annotations

import random
import re
from pathlib import Path

from cardgame.interpreter.codegen.runtime import namespace
from cardgame.interpreter.engine import compile_game
from test_optimize import play_both

TOPS = """\
game "Tops"
players 1
deck standard
zone column[5] "column": face up, fanned
setup {
  shuffle deck
  deal all from deck to column
}
move shift(a in column, b in column) "move the top of {a} onto {b}"
  when a != b "a column cannot move onto itself"
  when a is not empty "{a} is empty"
  when b is not empty "{b} is empty"
  when (bottom of b).suit == (top of a).suit or (top of b).rank > (top of a).rank
    "{top of a} goes on a column of its suit or under a higher top"
{
  move top of a to b
}
move clear(a in column, b in column) "move the top of {a} onto {b}"
  when a != b "a column cannot move onto itself"
  when a is not empty "{a} is empty"
  when b is empty or (top of b).color != (top of a).color "same colour"
{
  move top of a to b
}
move one(b in column) "take the top of {b}"
  when b is not empty and (top of b).rank == 13 "{b} has no K on top"
{
  move top of b to column[1]
}
end stuck when no_moves "no legal move is left"
limit 300 moves "the game went round in circles"
score = size(column[1])
"""


def _legal(src: str) -> str:
    return src[src.index("def legal_"):src.index("LEGAL =")]


def _fills(src: str) -> list[tuple[str, str, str]]:
    """The loops filling a list of an attribute of each zone's top (or bottom) card, each
    list made before its loop: (list, zones, attribute table) for each list."""
    out = []
    for lists, z, zones, c, body in re.findall(
            r"((?:_h\d+ = \[None\] \* \d+\n\s+)+)for (_z\d+) in (Z_\w+):\n\s+if s\[\2\]:\n"
            r"\s+(_c\d+) = s\[\2\]\[(?:-1|0)\]\n((?:\s+_h\d+\[\2\] = \w+\[\4\]\n)+)", src):
        made = re.findall(r"(_h\d+) = \[None\]", lists)
        for var, table in re.findall(rf"(_h\d+)\[{z}\] = (\w+)\[{c}\]", body):
            assert var in made
            out.append((var, zones, table))
    return out


def test_the_top_of_the_inner_zone_is_read_from_a_list_filled_before_the_loops(
        tmp_path: Path) -> None:
    """`(top of b).rank` of the innermost of two parameter loops, b over a zone array,
    behind a test that b is not empty (`b is empty or ...`, `b is not empty and ...`):
    the attributes of each non-empty zone's top (and bottom) card are filled into lists
    by one loop before the loops, and the inner loop reads `_h[u_b]`, not
    `RANK[s[u_b][-1]]` once per outer value. A single loop reads the top in place. Plain
    code has no such list; both play alike (a game of tops and bottoms, FreeCell,
    Klondike: since the thirteenth session these two loop over the few columns their
    index gives, and read those tops in place, test_optimize_s13)."""
    path = tmp_path / "tops.cardgame"
    path.write_text(TOPS, encoding="utf-8")
    fast = compile_game(path)
    plain = compile_game(path, optimize=False)
    legal = _legal(fast.gen.source)
    tables = {(zones, attr) for _, zones, attr in _fills(legal)}
    assert {("Z_column", "SUIT"), ("Z_column", "RANK"), ("Z_column", "COLOR")} <= tables
    assert re.search(r"= s\[_z\d+\]\[0\]", legal)  # the bottom card
    inner = re.findall(r"for u_b in Z_column:\n\s+if (.*)", legal[:legal.index("# move one")])
    assert len(inner) == 2 and all("s[u_b][" not in t for t in inner), inner
    assert all(re.search(r"_h\d+\[u_b\]", t) for t in inner)
    one = legal[legal.index("# move one"):]
    assert "RANK[s[u_b][-1]] == 13" in one  # one loop: in place
    assert not _fills(_legal(plain.gen.source))
    play_both(fast, plain, seeds=tuple(range(12)))
    for game in ("freecell", "klondike"):
        fast, plain = compile_game(game), compile_game(game, optimize=False)
        legal = _legal(fast.gen.source)
        attrs = sorted(f[2] for f in _fills(legal))
        shift = legal.split("# move shift")[1].split("# move ")[0]
        # (since the thirteenth session their column loops go over the few columns an
        # index by rank gives, whose tops are read in place, no list of every column's:
        # test_optimize_s13; the game above keeps the lists)
        assert not attrs and "RANK[s[u_b][-1]]" in shift, (game, attrs)
        play_both(fast, plain, seeds=tuple(range(4)))


def test_an_attribute_of_an_outer_card_parameter_is_computed_at_its_level() -> None:
    """Klondike's `shift(a in column, c in a, b in column)`: `c.rank` and `c.color` are
    computed once per card c, before the loop over b, not once per (c, b). Both play
    alike."""
    fast = compile_game("klondike")
    legal = _legal(fast.gen.source)
    shift = legal[legal.index("# move shift"):legal.index("# move up")]
    # (the loop over b: the columns, or those the index by rank gives: test_optimize_s11b)
    assert re.search(r"for u_c in s\[u_a\]:\n\s+if .*:\n\s+(_h\d+) = RANK\[u_c\]\n"
                     r"\s+(_h\d+) = COLOR\[u_c\]\n\s+for u_b in (?:Z_column|\(Z_column if .*"
                     r"\.get\(\1, \(\)\)\)|_j\d+):", shift), shift
    inner = shift[shift.index("for u_b"):]
    assert "RANK[u_c]" not in inner and "COLOR[u_c]" not in inner
    play_both(fast, compile_game("klondike", optimize=False), seeds=tuple(range(4)))


class _NoIter(tuple):  # type: ignore[type-arg]
    """Turned cards that fail when Python code iterates over them."""

    def __iter__(self):  # type: ignore[no-untyped-def]
        raise AssertionError("the turned cards were iterated")


def test_a_card_turned_back_leaves_the_turned_cards_by_its_index() -> None:
    """`_unturn` (a card moved takes its new zone's face; Klondike, every move): one card
    leaves the tuple of turned cards by its index, not by a generator over the tuple;
    cards none of which is turned leave it as it is. The same tuples as the filter."""
    g = compile_game("klondike")
    ns = namespace(g.checked, g.gen.spans, [z.slot for z in g.gen.zone_slots], g.zone_text,
                   g.card_text)
    unturn = ns["_unturn"]
    rng = random.Random(3)
    for _ in range(300):
        turned = tuple(sorted(rng.sample(range(52), rng.randint(0, 20))))
        c = rng.randrange(52)
        s: list[tuple[int, ...]] = [_NoIter(turned)]
        unturn(s, 0, c)
        assert s[0] == tuple(x for x in turned if x != c)
        ids = set(rng.sample(range(52), rng.randint(0, 5)))
        s = [turned]
        unturn(s, 0, tuple(ids))
        assert s[0] == tuple(x for x in turned if x not in ids)
        assert type(s[0]) is tuple


COUNTS = """\
game "Counts"
players 1
deck standard
zone cell[4] "cell": face up, row
zone column[3] "column": face up, fanned
zone pile[9] "pile": face up, squared
setup {
  shuffle deck
  deal 3 from deck to column
  deal 2 from deck to cell
}
def free_cells = count f in cell where f is empty
move park(a in column) "park {a}"
  when a is not empty "{a} is empty"
  when free_cells > 0 and (count c in column where c is not empty) >= 1 "no free cell"
{
  move top of a to first f in cell where f is empty
}
move back(f in cell) "back {f}"
  when f is not empty "{f} is empty"
  when (count p in pile where p is empty) > 3 "no pile"
{
  move top of f to column[1]
}
end stuck when no_moves "no legal move is left"
limit 40 moves "long"
score = count f in cell where f is not empty
"""


def test_a_count_of_the_zones_of_a_short_array_is_written_out(tmp_path: Path) -> None:
    """`count f in cell where f is empty` over an array of at most COUNT_ZONES zones, a
    test of the zone alone: one `(1 if W else 0)` per zone, W for its slot, not a
    generator summed (FreeCell's `free_cells`, each step). Over more zones (pile[9]): the
    generator. Plain code keeps the generator; both play alike."""
    path = tmp_path / "counts.cardgame"
    path.write_text(COUNTS, encoding="utf-8")
    fast = compile_game(path)
    plain = compile_game(path, optimize=False)
    legal = _legal(fast.gen.source)
    assert re.search(r"\(\(1 if \(not s\[\d+\]\) else 0\)( \+ \(1 if \(not s\[\d+\]\) else 0\)){3}\)",
                     legal)
    assert re.search(r"\(\(1 if \(not not s\[\d+\]\) else 0\)( \+ \(1 if .*? else 0\)){2}\)",
                     legal)
    assert "sum(1 for _q" in legal.split("# move back")[1]  # nine piles: the generator
    assert "sum(1 for _q" not in legal.split("# move back")[0]
    assert "(1 if" not in _legal(plain.gen.source)
    play_both(fast, plain, seeds=tuple(range(10)))
    free = _legal(compile_game("freecell").gen.source).split("# move park")[1]
    assert free.lstrip().startswith("if (((1 if (not s[")
