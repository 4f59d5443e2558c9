"""Per-card faces (docs/language.md "Face up and face down, card by card") and sequences
("Sequences"): the statements' effects, what each seat sees, and the fuzzer's leak check
following each card. Klondike's own rules are in test_klondike.py."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from cardgame.interpreter import fuzz as F
from cardgame.interpreter.engine import Game, compile_game
from cardgame.interpreter.observe import BACK, determinize, history, view, visible_cards

PEEK = '''
game "Peek"
players 2
deck standard
zone hand[player]: owner, fanned
zone row[3]: face up, fanned
zone stock: face down, squared
setup {
  shuffle deck
  for k in 1..3 {
    move top of deck to row[k] face down
    move top of deck to row[k]
  }
  deal 2 from deck to hand
  move all of deck to stock
}
move reveal "show your first card" when (bottom of hand[me]).face_up == false {
  turn bottom of hand[me] face up
}
move flip(k in 1..3) "turn up row {k}" when row[k] is not empty and not (bottom of row[k]).face_up {
  turn bottom of row[k] face up
}
move lift(k in 1..3) "lift row {k}" when size(row[k]) >= 1 {
  log "lifting {bottom of row[k]} at position {position of bottom of row[k] in row[k]}"
  move bottom of row[k] and above to stock
}
move deal_up "deal the stock's top face up onto the stock" when stock is not empty {
  move top of stock to stock face up
}
move wait "wait" {
}
flow {
  repeat {
    for p in players {
      p chooses reveal | flip | lift | deal_up | wait
    }
  }
}
end when size(stock) >= 50
limit 30 moves
'''

LEAKY = PEEK.replace('''move wait "wait" {''', '''move guess "guess a high card" when (bottom of row[1]).rank >= 10 {
}
move wait "wait" {''').replace("deal_up | wait", "deal_up | guess | wait")


def compile_text(text: str, tmp_path: Path, name: str = "peek") -> Game:
    path = tmp_path / f"{name}.cardgame"
    path.write_text(text, encoding="utf-8")
    return compile_game(str(path))


@pytest.fixture
def peek(tmp_path: Path) -> Game:
    return compile_text(PEEK, tmp_path)


def test_face_down_cards_in_a_face_up_zone_are_hidden_from_everyone(peek):
    g = peek
    st = g.new_state(1)
    for seat in (1, 2, None):
        rows = [view(g, st, seat)["zones"][f"row{k}"] for k in (1, 2, 3)]
        assert [r[0] for r in rows] == [BACK] * 3
        assert all(r[1] != BACK for r in rows)
    assert not any(g.face_up(st, g.zone_ids(st, f"row{k}")[0]) for k in (1, 2, 3))


def test_turning_a_card_up_shows_it_to_every_seat(peek):
    g = peek
    seed = 2
    st = g.new_state(seed)
    card = g.zone_ids(st, "row2")[0]
    move = g.parse_move(st, "flip 2")
    st2 = g.apply(st, move)
    assert all(card in visible_cards(g, st2, seat) for seat in (1, 2, None))
    for seat in (1, 2):
        h = history(g, seed, [move], seat)
        turns = [o for o in h if o.kind == "turn"]
        assert [(o.card, o.src, o.turned) for o in turns] == [(g.card_text[card], "row2", False)]


def test_a_card_turned_up_in_an_owner_hand_is_seen_by_the_other_player(peek):
    g = peek
    st = g.new_state(3)
    mine = g.zone_ids(st, "hand-p1")[0]
    assert mine not in visible_cards(g, st, 2)
    st = g.apply_text(st, "reveal")
    assert mine in visible_cards(g, st, 2)
    assert view(g, st, 2)["zones"]["hand-p1"][0] == g.card_text[mine]
    assert view(g, st, 2)["zones"]["hand-p1"][1] == BACK


def test_a_card_moved_face_up_into_a_face_down_zone_is_seen_then_squared_by_a_shuffle(peek):
    g = peek
    st = g.new_state(4)
    top = g.zone_ids(st, "stock")[-1]
    st = g.apply_text(st, "deal_up")
    assert g.face_up(st, top) and top in visible_cards(g, st, 1)
    assert view(g, st, 1)["zones"]["stock"][-1] == g.card_text[top]


def test_and_above_moves_the_run_and_the_cards_take_the_new_zone_s_face(peek):
    g = peek
    st = g.new_state(5)
    row = g.zone_ids(st, "row1")
    stock = g.zone_ids(st, "stock")
    after, events = g.apply_observed(st, g.parse_move(st, "lift 1"))
    assert g.zone_ids(after, "row1") == ()
    assert g.zone_ids(after, "stock") == stock + row  # in order, on top
    assert not g.turned(after) & set(row)  # face down like the stock, no longer turned
    log = next(e for e in events if e.kind == "log")
    assert "at position 1" in g.log_text(log)
    # the face-down card is not named in p1's log line, nor in the move's events
    seen = [o for o in history(g, 5, [g.parse_move(st, "lift 1")], 1) if o.kind == "log"]
    assert BACK in seen[-1].text


def test_a_redeal_keeps_each_place_s_face(peek):
    g = peek
    st = g.new_state(6)
    before = view(g, st, 1)
    for i in range(5):
        w = determinize(g, st, 1, random.Random(i))
        assert view(g, w, 1) == before
        assert len(g.turned(w)) == len(g.turned(st))


def test_games_that_never_turn_a_card_keep_no_faces():
    for name in ("calculation", "besieged-castle", "freecell"):
        g = compile_game(name)
        assert not g.uses_faces and g.turned(g.new_state(0)) == frozenset()


def test_the_leak_check_follows_the_card(tmp_path):
    # sound: turning a card up, lifting it, the log naming it only when seen
    r = F.fuzz(compile_text(PEEK, tmp_path), seed=0, examples=40, database=None,
               shrink_seconds=1, write_replay=False)
    assert r.ok, F.format_report(r)
    # a move that is legal only when a face-down card is high tells that card
    r = F.fuzz(compile_text(LEAKY, tmp_path, "leaky"), seed=0, examples=200, database=None,
               shrink_seconds=1, write_replay=False)
    assert not r.ok and r.failure is not None
    assert r.failure.property == "leak", F.format_report(r)


SEQ = '''
game "Sequences"
players 1
deck standard
zone a: face up, fanned
zone b: face up, fanned
zone pile: face down, squared
var at = 0
var missing = 0
setup {
  move top 5 of deck to a face down
  move top 3 of a to b turned over
  at = position of top of b in b
  missing = position of top of deck in b
  shuffle b
}
move redeal "deal b's cards to the pile" when b is not empty {
  deal 1 from b to [pile]
}
move stack "turn two of a face up and put them on the pile" when size(a) >= 2 {
  turn top 2 of a face up
  move top 2 of a to pile
}
end when b is empty and size(a) < 2
'''


def test_turned_over_reverses_position_of_counts_and_a_shuffle_squares(tmp_path):
    g = compile_text(SEQ, tmp_path, "seq")
    st = g.new_state(0)
    deck = list(range(52))  # the deck's declared order: the top is the last
    a_cards = deck[-5:]
    assert g.zone_ids(st, "a") == tuple(a_cards[:2])
    assert sorted(g.zone_ids(st, "b")) == sorted(a_cards[2:])  # shuffled afterwards
    assert g.var(st, "at") == 3 and g.var(st, "missing") == 0
    # the shuffle squared b (its cards lie face up like the zone); a's two stay face down
    assert all(g.face_up(st, c) for c in g.zone_ids(st, "b"))
    assert not any(g.face_up(st, c) for c in g.zone_ids(st, "a"))
    assert g.turned(st) == frozenset(a_cards[:2])


def test_a_deal_and_a_move_square_the_cards_with_their_new_zone(tmp_path):
    g = compile_text(SEQ, tmp_path, "seq")
    st = g.new_state(0)
    st = g.apply_text(st, "stack")  # turned face up in a, then squared face down on the pile
    assert g.turned(st) == frozenset()
    assert all(not g.face_up(st, c) for c in g.zone_ids(st, "pile"))
    st = g.apply_text(st, "redeal")
    assert len(g.zone_ids(st, "pile")) == 3 and g.turned(st) == frozenset()
