"""FreeCell (games/freecell.cardgame): every rule of docs/games/freecell.md, from the real
deals and from built positions."""

from __future__ import annotations

import random

import pytest
from cardgame.interpreter.engine import Game, Position, compile_game
from cardgame.interpreter.errors import IllegalMove
from cardgame.interpreter.observe import view
from conftest import random_walk

COLUMNS = [f"column{i}" for i in range(1, 9)]
CELLS = [f"cell{i}" for i in range(1, 5)]


@pytest.fixture(scope="module")
def freecell() -> Game:
    return compile_game("freecell")


def position(g: Game, **zones: str) -> Position:
    pos = Position(g, seed=0, rest="column8")
    for name, cards in zones.items():
        pos.zone(name.replace("_", "-"), cards)
    return pos


@pytest.mark.parametrize("seed", [0, 3])
def test_the_deal_is_eight_columns_face_up_the_first_four_with_7(freecell, seed):
    g = freecell
    st = g.new_state(seed)
    assert [len(g.zone_ids(st, z)) for z in COLUMNS] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert all(len(g.zone_ids(st, z)) == 0 for z in CELLS)
    v = view(g, st, 1)["zones"]
    assert all(v[z] == g.zone_cards(st, z) for z in COLUMNS)  # nothing hidden
    assert not g.uses_faces  # no rule turns a card: the state keeps no faces
    assert g.check_invariants(st) == []


def test_build_down_in_alternating_colours_one_card_at_a_time(freecell):
    g = freecell
    st = position(g, column1="8♠", column2="9♦ 7♥", column3="7♣").state()
    assert "shift column2 column1" in g.legal_texts(st)
    with pytest.raises(IllegalMove, match="one rank higher of the other colour"):
        g.apply_text(st, "shift column3 column1")
    st = g.apply_text(st, "shift column2 column1")
    assert g.zone_cards(st, "column1") == ["8♠", "7♥"]
    assert g.zone_cards(st, "column2") == ["9♦"]


def test_any_card_goes_on_an_empty_column(freecell):
    g = freecell
    st = position(g, column1="", column2="5♦").state()
    st = g.apply_text(st, "shift column2 column1")
    assert g.zone_cards(st, "column1") == ["5♦"]


def test_park_fills_the_first_empty_cell_and_four_is_the_most(freecell):
    g = freecell
    st = position(g, cell1="2♠", cell2="", cell3="3♠", cell4="", column1="9♥ 8♣").state()
    st = g.apply_text(st, "park column1")
    assert g.zone_cards(st, "cell2") == ["8♣"]
    st = g.apply_text(st, "park column1")
    assert g.zone_cards(st, "cell4") == ["9♥"]
    assert not any(t.startswith("park") for t in g.legal_texts(st))
    with pytest.raises(IllegalMove, match="every free cell holds a card"):
        g.apply_text(st, "park column2")


def test_a_cell_card_goes_to_a_column_or_home(freecell):
    g = freecell
    st = position(g, cell1="6♥", cell2="3♠", column1="7♣", foundation_spades="A♠ 2♠").state()
    assert "unpark cell1 column1" in g.legal_texts(st)
    st = g.apply_text(st, "home_cell cell2")
    assert g.zone_cards(st, "foundation-spades") == ["A♠", "2♠", "3♠"]
    assert g.zone_cards(st, "cell2") == []


def test_foundations_take_their_suit_from_the_ace_and_keep_their_cards(freecell):
    g = freecell
    st = position(g, foundation_hearts="A♥", column1="2♥", column2="3♥").state()
    with pytest.raises(IllegalMove, match="does not take 3♥ next"):
        g.apply_text(st, "home column2")
    st = g.apply_text(st, "home column1")
    assert "home column2" in g.legal_texts(st)
    assert not any(t.startswith(("shift foundation", "unpark foundation"))
                   for t in g.legal_texts(st))


def test_random_games_keep_the_invariants(freecell):
    g = freecell
    for seed in range(3):
        random_walk(g, seed, random.Random(seed), 150)
