"""The fast walk's leak check compares a seat's legal moves and looks a move up without
listing sets of cards (codegen's SetMoves, `in` and `parts_of`): the same answers as the
listed moves give, on Hearts' pass (286 sets of 3 a hand) and on Scopa's sets found by a
sum."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from cardgame.interpreter.codegen import ENDED, PC, PENDING, WHO
from cardgame.interpreter.codegen.runtime import SetMoves
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.engine.walk import Walker, _stepper
from cardgame.interpreter.observe import hidden_zones


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


def play(g: Any, seed: int, moves: int) -> tuple[list[Any], Any]:
    """The state (slots) after `moves` random moves of the fast path, and its moves."""
    advance = _stepper(g)
    s = g._init_slots(seed)
    g._gen_run(s, s[0])
    legal = g._gen_settle(s)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = advance(s, s[0], legal[rng.randrange(len(legal))], legal)
    return s, legal


def test_in_and_parts_on_hearts_pass() -> None:
    """Hearts' pass: each seat's 286 sets of 3 cards unlisted. `in` answers as the list;
    two settles of one state have the same parts (the same moves); hands that differ
    have other parts, and the listed comparison decides."""
    g = compile_game("hearts")
    states = [play(g, seed, 0) for seed in range(3)]
    for s, legal in states:
        assert type(legal) is SetMoves and any(type(p) is tuple for p in legal.parts)
        assert_in_as_listed(legal)
        again = g._gen_settle(list(s))
        for p in range(1, g.players + 1):
            assert legal.parts_of(p) == again.parts_of(p)
            assert [m for m in legal if m[0] == p] == [m for m in again if m[0] == p]
            assert sum(1 for m in legal if m[0] == p) == 286
    for (_, a), (_, b) in itertools.combinations(states, 2):
        for p in range(1, 5):
            if a.parts_of(p) == b.parts_of(p):
                assert [m for m in a if m[0] == p] == [m for m in b if m[0] == p]
            else:  # (the deals differ: so do the hands)
                assert [m for m in a if m[0] == p] != [m for m in b if m[0] == p]
    # the players who passed drop out of the round: the parts of the others stay
    s, legal = states[0]
    rest = legal.without(1)
    assert rest.parts_of(1) == [] and rest.parts_of(2) == legal.parts_of(2)


def test_in_on_scopa_sets_found_by_a_sum() -> None:
    """Scopa's take: the sets of table cards that sum to the card played, as a block of
    the sets found (k == -1, as `_msets` keeps them), one a card, between listed moves:
    `in` answers as the list, for every move offered and the moves near them; the parts
    of the player list its moves."""
    g = compile_game("scopa")
    take = g.move_names.index("take")
    blocks = 0
    for seed in range(10):
        for n in range(0, 24, 3):
            s, legal = play(g, seed, n)
            if s[ENDED] is not None:
                break
            listed = list(legal)
            moves = SetMoves([])
            for prefix, group in itertools.groupby(listed, key=lambda m: m[:-1]):
                ms = list(group)
                if prefix[1] == take:
                    sets = tuple(m[-1] for m in ms)
                    moves.parts.append((len(sets), prefix, sets, -1))
                    moves.n += len(sets)
                    blocks += 1
                else:
                    moves += ms
            assert list(moves) == listed
            assert_in_as_listed(moves)
            p = s[WHO]
            assert [m for m in moves if m[0] == p] == [
                m for part in moves.parts_of(p) for m in
                (part if type(part) is list else [part[1] + (t,) for t in part[2]])]
            assert moves.parts_of(p + 1) == []
    assert blocks >= 20


@pytest.mark.parametrize("name", ["hearts", "scopa"])
def test_the_leak_check_compares_as_the_listed_moves(name: str) -> None:
    """Told.moves_differ (parts compared before listing) answers as the listed moves do
    on the legal moves of the walk and of other deals, for every seat deciding."""
    g = compile_game(name)
    leak = {p: hidden_zones(g, p) for p in range(1, g.players + 1)}
    w = Walker(g, 2000, True, sorted({z for zs in leak.values() for z in zs}), None, leak)
    assert w.leak
    told = next(iter(w.leak.values()))
    pairs = 0
    for seed in range(4):
        for n in (0, 1, 2, 5):
            s, a = play(g, seed, n)
            for other in range(3):
                _, b = play(g, other, n)
                for t in (a, b, g._gen_settle(list(s))):
                    mine = [m for m in a if m[0] == told.seat]
                    theirs = [m for m in t if m[0] == told.seat]
                    want = None if (a == t or mine == theirs) else "differ"
                    deciding = (told.seat in s[WHO] if s[PC] in g._sim
                                else s[WHO] == told.seat)
                    if not deciding or any(m[0] == told.seat for m in s[PENDING] or ()):
                        want = None
                    got = told.moves_differ(s, a, t)
                    assert (got is None) == (want is None)
                    pairs += 1
    assert pairs
