"""The fast walk's leak check compares a seat's legal moves and looks a move up without
listing sets of cards (codegen's SetMoves, `in` and `parts_of`): the same answers as the
listed moves give, on Hearts' pass (286 sets of 3 a hand) and on Scopa's sets found by a
sum."""

from __future__ import annotations

import itertools
import random
from typing import Any

from cardgame.interpreter.codegen.runtime import SetMoves
from cardgame.interpreter.engine import compile_game


def near(m: Any) -> list[Any]:
    """Moves that differ a little from m (and m itself): its set of cards in another
    order, with a card less, more or changed, as a list; another player, another move."""
    out: list[Any] = [m, list(m), m[:-1], (*m, ())]
    if m:
        out.append((m[0] + 1, *m[1:]))
    if len(m) > 1:
        out.append((m[0], m[1] + 1, *m[2:]))
    last = m[-1] if m else None
    if isinstance(last, tuple):
        head = m[:-1]
        out += [(*head, tuple(reversed(last))), (*head, last[1:]), (*head, last[:-1]),
                (*head, (*last, 51)), (*head, (0, *last)), (*head, list(last)),
                (*head, (*last, last[-1]) if last else (7,))]
        out += [(*head, (*last[:i], c, *last[i + 1:])) for i in range(len(last))
                for c in (0, 13, 26, 51, last[i] + 1)]
    return out


def assert_in_as_listed(moves: SetMoves) -> None:
    listed = list(moves)
    for m in listed:
        assert m in moves
        for x in near(m):
            assert (x in moves) == (x in listed), x
    for x in [(), 5, None, "x", (1,), (1, 0), (2, 0, (1, 2, 3))]:
        assert (x in moves) == (x in listed), x


def test_in_is_the_listed_moves_answer_for_blocks_of_every_kind() -> None:
    """`m in moves` without listing: a block of k of the cards, of any size, of sets
    found by a search (k == -1), beside listed moves; cards repeated in a block's ids
    (a subsequence of them all the same)."""
    ids = (3, 8, 9, 20, 31, 40)
    moves = SetMoves([(1, 0, 5)])
    for part in [(20, (1, 1), ids, 3), (64, (1, 2), ids, None),
                 (3, (1, 3), ((3,), (8, 9), (20, 31, 40)), -1), (0, (1, 4), ids[:2], 3),
                 (4, (2, 5), (8, 8, 9), 2)]:
        moves.parts.append(part)
        moves.n += part[0]
        moves.append((1, 6, part[0]))
    assert_in_as_listed(moves)
    assert (1, 0, 5) in moves and (1, 1, (3, 9, 40)) in moves and (1, 2, ()) in moves
    assert (1, 1, (9, 3, 40)) not in moves and (1, 3, (8,)) not in moves
    assert (2, 5, (8, 8)) in moves and (2, 5, (9, 8)) not in moves


def blocks(listed: list[Any], move: int, k: int | None) -> SetMoves:
    """The listed moves as the fast path keeps them: each run of `move` with one prefix
    (player, move, ... every parameter but the set) a block, the others listed; k: a
    block of the sets of k of the cards met (in card order, as `_msets` keeps them), or
    -1: of the sets themselves (sets found by a sum)."""
    moves = SetMoves([])
    for prefix, group in itertools.groupby(listed, key=lambda m: m[:-1]):
        ms = list(group)
        if prefix[1] != move:
            moves += ms
        elif k == -1:
            sets = tuple(m[-1] for m in ms)
            moves.parts.append((len(sets), prefix, sets, -1))
            moves.n += len(sets)
        else:
            ids = tuple(sorted({c for m in ms for c in m[-1]}))
            count = len(list(itertools.combinations(ids, k)))
            moves.parts.append((count, prefix, ids, k))
            moves.n += count
    assert list(moves) == listed  # (the blocks list the moves the API lists)
    return moves


def test_in_and_parts_on_hearts_pass() -> None:
    """Hearts' pass: each seat's 286 sets of 3 cards a block. `in` answers as the list;
    the parts of a seat are equal where its hand is (the same moves), and differ where
    the hands differ."""
    g = compile_game("hearts")
    pass_ = g.move_names.index("pass")
    states = [g.new_state(seed) for seed in range(3)]
    sets = [blocks(g.legal_moves(st), pass_, 3) for st in states]
    for moves in sets:
        assert len(moves) == 4 * 286 and len(moves.parts) == 4
        assert_in_as_listed(moves)
        again = blocks(list(moves), pass_, 3)
        for p in range(1, 5):
            assert moves.parts_of(p) == again.parts_of(p)
            assert [m for m in moves if m[0] == p] == [m for m in again if m[0] == p]
    for a, b in itertools.combinations(sets, 2):
        for p in range(1, 5):
            if a.parts_of(p) == b.parts_of(p):
                assert [m for m in a if m[0] == p] == [m for m in b if m[0] == p]
            else:  # (the deals differ: so do the hands)
                assert [m for m in a if m[0] == p] != [m for m in b if m[0] == p]
    # a player who passed drops out of the round: the parts of the others stay
    rest = sets[0].without(1)
    assert rest.parts_of(1) == [] and rest.parts_of(2) == sets[0].parts_of(2)
    # after the pass: listed moves (a trick), as parts a list
    st = states[0]
    while g.legal_moves(st)[0][1] == pass_:
        st = g.apply(st, g.legal_moves(st)[0])
    listed = g.legal_moves(st)
    trick = SetMoves(list(listed))
    p = listed[0][0]
    assert trick.parts_of(p) == [listed] and trick.parts_of(p % 4 + 1) == []
    assert_in_as_listed(trick)


def test_in_on_scopa_sets_found_by_a_sum() -> None:
    """Scopa's take: the sets of table cards that sum to the card played, as a block of
    the sets found (k == -1, as `_msets` keeps them), one a card, between listed moves:
    `in` answers as the list, for every move offered and the moves near them; the parts
    of the player list its moves."""
    g = compile_game("scopa")
    take = g.move_names.index("take")
    found = 0
    for seed in range(10):
        st = g.new_state(seed)
        rng = random.Random(seed)
        while not g.is_terminal(st) and found < 400:
            listed = g.legal_moves(st)
            moves = blocks(listed, take, -1)
            found += sum(type(q) is tuple for q in moves.parts)
            assert_in_as_listed(moves)
            p = listed[0][0]
            assert [m for m in moves if m[0] == p] == [
                m for part in moves.parts_of(p) for m in
                (part if type(part) is list else [part[1] + (t,) for t in part[2]])]
            assert moves.parts_of(p % g.players + 1) == []
            st = g.apply(st, listed[rng.randrange(len(listed))])
    assert found >= 100
