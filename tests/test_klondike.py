"""Klondike (games/klondike.cardgame): every rule of docs/games/klondike.md, from the real
deals and from built positions; and what the player may see of the face-down cards."""

from __future__ import annotations

import json
import random

import pytest
from cardgame.interpreter.engine import Game, Position, compile_game
from cardgame.interpreter.errors import IllegalMove
from cardgame.interpreter.observe import (
    BACK,
    determinize,
    history,
    observe_step,
    view,
    visible_cards,
)
from conftest import random_walk

COLUMNS = [f"column{i}" for i in range(1, 8)]


@pytest.fixture(scope="module")
def klondike() -> Game:
    return compile_game("klondike")


def face_down(g: Game, st, zone: str) -> list[str]:
    return [g.card_text[c] for c in g.zone_ids(st, zone) if not g.face_up(st, c)]


def position(g: Game, seed: int = 0, rest: str = "stock", **zones: str) -> Position:
    pos = Position(g, seed=seed, rest=rest)
    for name, cards in zones.items():
        pos.zone(name.replace("_", "-"), cards)
    return pos


# ---------------------------------------------------------------------- the deal
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_the_deal_has_k_cards_in_column_k_only_the_top_face_up(klondike, seed):
    g = klondike
    st = g.new_state(seed)
    for k, z in enumerate(COLUMNS, start=1):
        ids = g.zone_ids(st, z)
        assert len(ids) == k
        assert [g.face_up(st, c) for c in ids] == [False] * (k - 1) + [True]
    assert len(g.zone_ids(st, "stock")) == 24
    assert g.check_invariants(st) == []


def test_the_view_shows_face_down_cards_as_backs(klondike):
    g = klondike
    st = g.new_state(3)
    v = view(g, st, 1)["zones"]
    for k, z in enumerate(COLUMNS, start=1):
        assert v[z][:-1] == [BACK] * (k - 1)
        assert v[z][-1] == g.zone_cards(st, z)[-1]
    seen = visible_cards(g, st, 1)
    assert len(seen) == 7  # the seven tops; the stock and 21 column cards are hidden


def test_the_state_is_a_value_with_its_faces(klondike):
    g = klondike
    st = g.new_state(5)
    again = g.from_json(g.to_json(st))
    assert again == st and hash(again) == hash(st)
    assert json.loads(g.to_json(st))  # plain JSON
    assert g.turned(again) == g.turned(st) and len(g.turned(st)) == 21


# ---------------------------------------------------------------------- turning up
def test_a_column_turns_its_new_top_face_up_and_every_seat_sees_it(klondike):
    g = klondike
    st = position(g, column1="8♠", column2="4♠ 8♣ 7♥").face_down("column2", 2).state()
    assert view(g, st, 1)["zones"]["column2"] == [BACK, BACK, "7♥"]
    after, events = g.apply_observed(st, g.parse_move(st, "shift column2 7♥ column1"))
    assert view(g, after, 1)["zones"]["column2"] == [BACK, "8♣"]
    turns = [e for e in events if e.kind == "turn"]
    assert [g.card_text[e.card] for e in turns] == ["8♣"] and turns[0].src == "column2"
    seen = [o for o in observe_step(g, events, 1) if o.kind == "turn"]
    assert [(o.card, o.src, o.src_index, o.turned) for o in seen] == [("8♣", "column2", 1, False)]
    assert g.check_invariants(after) == []


def test_the_history_names_a_card_only_once_it_is_turned_up(klondike):
    g = klondike
    seed = 2
    st = g.new_state(seed)
    h = history(g, seed, [], 1)
    dealt = [o for o in h if o.kind == "move" and o.dst.startswith("column")]
    assert sum(o.card == BACK for o in dealt) == 21
    assert sum(o.card != BACK for o in dealt) == 7
    assert {o.card for o in dealt if o.card != BACK} == {
        g.zone_cards(st, z)[-1] for z in COLUMNS}


def test_a_redeal_of_what_the_player_sees_keeps_every_face_up_card(klondike):
    g = klondike
    st = g.new_state(4)
    for i in range(5):
        w = determinize(g, st, 1, random.Random(i))
        assert view(g, w, 1) == view(g, st, 1)
        assert g.turned(w) and len(g.turned(w)) == len(g.turned(st))
        assert g.check_invariants(w) == []
    worlds = {tuple(g.zone_ids(determinize(g, st, 1, random.Random(i)), "column7"))
              for i in range(10)}
    assert len(worlds) > 1  # the face-down cards are dealt again


# ---------------------------------------------------------------------- moves
def test_a_face_down_card_cannot_move_and_a_typed_refusal_says_so(klondike):
    g = klondike
    st = position(g, column2="4♠ 8♣ 7♥", column1="8♠").face_down("column2", 2).state()
    assert not g.face_up(st, g.zone_ids(st, "column2")[1])
    with pytest.raises(IllegalMove, match="8♣ lies face down"):
        g.apply_text(st, "shift column2 8♣ column1")
    st = g.apply_text(st, "shift column2 7♥ column1")
    # the card under it is turned up at once
    assert g.zone_cards(st, "column2") == ["4♠", "8♣"]
    assert g.face_up(st, g.zone_ids(st, "column2")[-1])
    assert not g.face_up(st, g.zone_ids(st, "column2")[0])


def test_a_run_moves_with_the_card_and_keeps_its_order(klondike):
    g = klondike
    st = position(g, column1="10♣", column2="K♠ 9♥ 8♠ 7♦").face_down("column2", 1).state()
    st = g.apply_text(st, "shift column2 9♥ column1")
    assert g.zone_cards(st, "column1") == ["10♣", "9♥", "8♠", "7♦"]
    assert g.zone_cards(st, "column2") == ["K♠"]
    assert g.face_up(st, g.zone_ids(st, "column2")[0])


def test_only_a_k_goes_on_an_empty_column_with_its_cards(klondike):
    g = klondike
    st = position(g, column1="", column2="5♦ K♥ Q♣", column3="Q♦").face_down("column2", 1).state()
    assert "shift column3 Q♦ column1" not in g.legal_texts(st)
    st = g.apply_text(st, "shift column2 K♥ column1")
    assert g.zone_cards(st, "column1") == ["K♥", "Q♣"]


def test_draw_three_and_the_redeal_turns_the_waste_over(klondike):
    g = compile_game("klondike", settings={"draw": "3"})
    st = position(g, rest="column7", stock="2♣ 5♠ 9♥ J♦", waste="").state()
    st = g.apply_text(st, "draw")
    assert g.zone_cards(st, "waste") == ["J♦", "9♥", "5♠"]
    st = g.apply_text(st, "draw")
    assert g.zone_cards(st, "waste") == ["J♦", "9♥", "5♠", "2♣"]
    st = g.apply_text(st, "redeal")
    assert g.zone_cards(st, "stock") == ["2♣", "5♠", "9♥", "J♦"]  # as it was dealt
    assert g.var(st, "passes") == 1


def test_limited_redeals_stop_after_the_limit(klondike):
    g = compile_game("klondike", settings={"limited": "true", "redeals": "0"})
    st = position(g, rest="column7", stock="", waste="3♦").state()
    assert "redeal" not in g.legal_texts(st)
    g2 = compile_game("klondike")
    st = position(g2, rest="column7", stock="", waste="3♦").state()
    for _ in range(5):  # unlimited: as often as you like
        st = g2.apply_text(g2.apply_text(st, "redeal"), "draw")
    assert g2.var(st, "passes") == 5


def test_a_foundation_card_comes_back_down(klondike):
    g = klondike
    st = position(g, foundation_hearts="A♥ 2♥ 3♥", column1="4♠").state()
    st = g.apply_text(st, "down foundation-hearts column1")
    assert g.zone_cards(st, "column1") == ["4♠", "3♥"]


def test_random_games_keep_the_invariants(klondike):
    g = klondike
    for seed in range(3):
        random_walk(g, seed, random.Random(seed), 150)


def test_the_repl_refuses_a_face_down_card_without_telling_where_it_lies(klondike):
    from cardgame.repl.session import Session

    g = klondike
    sess = Session(g, "klondike", 3)
    st = sess.state
    hidden = [c for z in COLUMNS for c in g.zone_ids(st, z)[:-1]]
    elsewhere = g.zone_ids(st, "stock")[0]  # face down in the stock, not in column 7
    messages = []
    for c in (hidden[-1], elsewhere):
        with pytest.raises(IllegalMove) as e:
            sess.parse(f"shift column7 {g.card_text[c]} column1")
        messages.append(str(e.value).replace(g.card_text[c], "CARD"))
    assert messages[0] == messages[1]  # the same words, wherever the card lies
    assert "you cannot see CARD" in messages[0]
