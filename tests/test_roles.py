"""Roles that are not seats (issue 16, item 7): `role NAME` and `result against NAME:
win when ..., push when ...`. The checker's messages are golden files
(tests/golden/role_*.cardgame, result_against_*.cardgame); here: what the engine, the
examples, the simulator and the leak check make of them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter.analysis import simulate, simulation_text
from cardgame.interpreter.analysis.compare import Side, compare, comparison_text
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.errors import Diagnostic
from cardgame.interpreter.examples import run_examples

# High card against the house: each player and the house take one card; a higher rank
# wins, an equal rank pushes. The house's card is drawn by the flow, never chosen.
HOUSE = '''game "High card against the house"
players 1..3 default 2
deck standard
role house "the house"
zone stock: face down
zone hand[player]: face up
zone house_card "the house's card": face up
setup {
  shuffle deck
  move all of deck to stock
}
move draw "draw" { move top of stock to hand[me] }
flow {
  for p in players { p chooses draw }
  move top of stock to house_card
  end "all drew"
}
def mine(p: player) = if hand[p] is empty then 0 else (top of hand[p]).rank
def theirs = if house_card is empty then 0 else (top of house_card).rank
result against house: win when mine(me) > theirs, push when mine(me) == theirs
score = if ended then (if mine(me) > theirs then 1 else if mine(me) == theirs then 0 else -1)
        else 0
'''


def compile_text(tmp_path: Path, text: str, **kw: Any) -> Any:
    p = tmp_path / "house.cardgame"
    p.write_text(text, encoding="utf-8")
    return compile_game(p, **kw)


def rank(card: str) -> int:
    face = card[:-1]
    return {"A": 1, "J": 11, "Q": 12, "K": 13}.get(face) or int(face)


def finish(g: Any, seed: int) -> Any:
    st = g.new_state(seed)
    while not g.is_terminal(st):
        st = g.apply(st, g.legal_moves(st)[0])
    return st


def test_the_role_is_not_a_seat(tmp_path: Path) -> None:
    g = compile_text(tmp_path, HOUSE)
    assert g.players == 2  # `players` counts the seats only
    assert g.checked.roles == {"house": "the house"}
    st = g.new_state(1)
    seen = set()
    while not g.is_terminal(st):
        seen |= set(g.to_move(st))
        st = g.apply(st, g.legal_moves(st)[0])
    assert seen == {1, 2}  # the house never decides


def test_each_player_wins_pushes_or_loses_against_the_role(tmp_path: Path) -> None:
    g = compile_text(tmp_path, HOUSE)
    got = set()
    for seed in range(200):
        st = finish(g, seed)
        house = g.zone_cards(st, "house_card")[0]
        for p, res in enumerate(g.results(st), 1):
            mine = g.zone_cards(st, f"hand-p{p}")[0]
            a, b = rank(mine), rank(house)
            assert res == ("win" if a > b else "push" if a == b else "loss"), (seed, p)
            assert g.scores(st)[p - 1] == (1 if a > b else 0 if a == b else -1)
            got.add(res)
    assert got == {"win", "push", "loss"}


def test_without_push_when_a_tie_loses(tmp_path: Path) -> None:
    g = compile_text(tmp_path, HOUSE.replace(", push when mine(me) == theirs", ""))
    ties = 0
    for seed in range(200):
        st = finish(g, seed)
        house = rank(g.zone_cards(st, "house_card")[0])
        for p, res in enumerate(g.results(st), 1):
            if rank(g.zone_cards(st, f"hand-p{p}")[0]) == house:
                ties += 1
                assert res == "loss"
    assert ties > 0


def test_a_player_who_concedes_loses_against_the_role(tmp_path: Path) -> None:
    g = compile_text(tmp_path, HOUSE)
    st = g.apply(g.new_state(3), g.legal_moves(g.new_state(3))[0])  # p1 draws
    st = g.concede(st, 2)
    assert g.results(st)[1] == "loss"


def test_role_and_against_are_words_of_the_language(tmp_path: Path) -> None:
    p = tmp_path / "house.cardgame"
    p.write_text(HOUSE.replace("zone stock: face down", "zone stock: face down\nvar role = 1"),
                 encoding="utf-8")
    with pytest.raises(Diagnostic) as ei:
        compile_game(p)
    assert "'role' is a word of the language and cannot name a var" in str(ei.value)


def test_simulate_reports_win_push_loss_with_intervals(tmp_path: Path) -> None:
    p = tmp_path / "house.cardgame"
    p.write_text(HOUSE, encoding="utf-8")
    sim = simulate(p, 400, 1)
    text = simulation_text(sim)
    assert "against the house:" in text
    row = next(ln for ln in text.splitlines() if ln.startswith("  p1 "))
    cells = row.split()
    # win, push and loss, each a share with its interval, then the score
    assert cells[1].endswith("%") and cells[2].startswith("[")
    shares = [float(c.rstrip("%")) for c in cells if c.endswith("%") and not c.endswith("]")]
    assert len(shares) == 3 and abs(sum(shares) - 100) < 0.5
    # about 6/13 win, 1/13 push (same rank), 6/13 lose
    assert 3 < shares[1] < 13
    assert "lead changes" not in text and "win share" not in text


def test_compare_reports_pushes(tmp_path: Path) -> None:
    p = tmp_path / "house.cardgame"
    p.write_text(HOUSE, encoding="utf-8")
    c = compare(Side(str(p)), Side(str(p)), games=200, seed=1)
    text = comparison_text(c)
    assert "p1 pushes against the house" in text and "p2 loses against the house" in text


def test_an_example_expects_a_push(tmp_path: Path) -> None:
    text = HOUSE + '''
example "equal ranks push" {
  top of stock is 7♦
  p1 plays "draw"
  top of stock is 9♣
  p2 plays "draw"
  house_card is 7♥
  expect p1 pushes
  expect p2 wins
}
example "a wrong push is reported" {
  top of stock is 7♦
  p1 plays "draw"
  top of stock is 3♦
  p2 plays "draw"
  house_card is 3♥
  expect p1 pushes
}
'''
    p = tmp_path / "house.cardgame"
    p.write_text(text, encoding="utf-8")
    out = {o.name: o for o in run_examples(p)}
    assert out["equal ranks push"].ok, out["equal ranks push"].failures
    bad = out["a wrong push is reported"]
    assert not bad.ok and "expected p1 pushes, got p1 wins" in bad.failures[0]


@pytest.mark.parametrize("seed", range(3))
def test_blackjack_results_match_the_totals(seed: int) -> None:
    g = compile_game("blackjack", players=3)
    st = g.new_state(seed)
    while not g.is_terminal(st):
        st = g.apply(st, g.legal_moves(st)[-1])
    assert all(r in ("win", "push", "loss") for r in g.results(st))


def test_a_step_that_ends_in_one_world_only_tells_nothing_else() -> None:
    # The dealer's peek: in one world the hand ends (the hole card turned), in the other
    # a line is logged and the hand goes on. What came before the end in that step is
    # explained by the end, as the end itself is.
    from cardgame.interpreter.engine import events as E
    from cardgame.interpreter.observe.history import Observation
    from cardgame.interpreter.observe.worlds import explained
    ends = (Observation(E.MOVE, card="A♠", src="hole", dst="dealer_hand"),
            Observation(E.PUBLIC, ended="the dealer has blackjack"))
    goes_on = (Observation(E.LOG, text="p1 has blackjack"),
               Observation(E.PUBLIC, to_move=(2,)))
    assert explained(ends, goes_on) is True
    assert explained(goes_on, ends) is True
    # the same two steps when neither ends: a leak (the log line tells the hole card)
    other = (Observation(E.MOVE, card="A♠", src="hole", dst="dealer_hand"),
             Observation(E.PUBLIC, to_move=(2,)))
    assert explained(other, goes_on) is False


def test_the_repl_says_a_push_is_a_push() -> None:
    from cardgame.repl.render import plain, turn_line
    from cardgame.repl.session import Session

    g = compile_game("blackjack")
    for seed in range(200):  # a hand that ends at once: a push of two naturals
        st = g.new_state(seed)
        if g.is_terminal(st) and g.results(st) == ["push"]:
            break
    else:
        raise AssertionError("no push of naturals in 200 deals")
    sess = Session(g, "blackjack", seed)
    assert sess.game.results(sess.state) == ["push"]
    line = plain(turn_line(sess.table()))
    assert "a push: you neither won nor lost" in line and "you lost" not in line


def test_mcts_values_each_seat_against_the_role_on_its_own() -> None:
    from cardgame.interpreter.bots.mcts import MctsBot

    g = compile_game("blackjack", players=2)
    bot = MctsBot.__new__(MctsBot)
    for seed in range(100):
        st = g.new_state(seed)
        while not g.is_terminal(st):
            st = g.apply(st, g.legal_moves(st)[1])  # stand
        res = g.results(st)
        want = [{"win": 1.0, "push": 0.5}.get(r, 0.0) for r in res]
        assert bot.reward(g, st, single=False) == want


def test_check_names_the_role(capsys: pytest.CaptureFixture[str]) -> None:
    from cardgame.interpreter.cli import main

    assert main(["check", "blackjack", "--players", "3"]) == 0
    assert "(Blackjack, 3 players and the dealer, 52 cards," in capsys.readouterr().out
