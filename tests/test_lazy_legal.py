"""`Game.apply` keeps sets of cards unlisted (codegen's SetMoves) until the legal moves are
asked for: the fuzzer's lookahead applies every legal move of a state and checks each
state reached (who decides, the invariants), but plays on from one of them only. In
Hearts' pass (3 cards of 13, 286 moves a seat, chosen at once) the listing was three
quarters of a full playthrough's time."""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from typing import Any

import pytest
from cardgame.interpreter.codegen.runtime import SetMoves
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.errors import IllegalMove
from cardgame.interpreter.fuzz import Playthrough


@pytest.fixture
def listings(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the SetMoves listed (iterated whole or in part)."""
    count = [0]
    plain = SetMoves.__iter__

    def counted(self: SetMoves) -> Iterator[Any]:
        count[0] += 1
        return plain(self)

    monkeypatch.setattr(SetMoves, "__iter__", counted)
    return count


def test_a_pass_applied_lists_nothing_until_asked(listings: list[int]) -> None:
    g = compile_game("hearts")
    st = g.new_state(1)
    pass_ = g.move_names.index("pass")
    legal = g.legal_moves(st)
    assert legal[0][1] == pass_ and len(legal) == 4 * 286
    listings[0] = 0
    nxt = g.apply(st, legal[0])  # p1 has passed; p2, p3, p4 still choose
    # what the lookahead asks of every state it reaches lists no set
    assert g.deciding(nxt) == {2, 3, 4}
    assert g.check_invariants(nxt) == []
    assert not g.is_terminal(nxt)
    assert tuple(g.to_move(nxt)) == (2, 3, 4)
    assert listings[0] == 0
    # asked, the moves are the ones the same state lists when built afresh
    fresh = g.from_json(g.to_json(nxt))
    assert g.legal_moves(nxt) == g.legal_moves(fresh) and len(g.legal_moves(nxt)) == 3 * 286
    assert type(g.legal_moves(nxt)) is list
    assert g.legal_moves(nxt, 3) == g.legal_moves(fresh, 3)
    assert listings[0] >= 1


def test_an_unlisted_state_applies_pickles_and_refuses_as_a_listed_one() -> None:
    g = compile_game("hearts")
    st = g.new_state(2)
    for _ in range(3):  # three of the four passes: the last state's moves unlisted
        st = g.apply(st, g.legal_moves(st)[-1])
    fresh = g.from_json(g.to_json(st))
    back = pickle.loads(pickle.dumps(st))
    assert back == st and g.legal_moves(back) == g.legal_moves(fresh)
    last = g.legal_moves(fresh)[5]
    assert g.apply(st, last) == g.apply(fresh, last)
    # a move of a seat that has passed is refused with the same reason
    other = g.legal_moves(g.new_state(2))[-1]
    assert other[0] not in g.to_move(st)
    with pytest.raises(IllegalMove) as a:
        g.apply(st, other)
    with pytest.raises(IllegalMove) as b:
        g.apply(fresh, other)
    assert str(a.value) == str(b.value)


def test_the_lookahead_of_a_pass_lists_none_of_the_states_it_reaches(
        listings: list[int]) -> None:
    # every one of the 4 x 286 passes applied, and each state reached checked (who
    # decides, the invariants, the dead end): not one of them lists its 3 x 286 moves
    g = compile_game("hearts")
    st = g.new_state(5)
    legal = g.legal_moves(st)
    listings[0] = 0
    reached = Playthrough(g).lookahead(st, legal, 5, [])
    assert len(reached) == 4 * 286
    assert listings[0] == 0
