"""The search bots `mcts` and `ismcts`: legal, seeded, blind to hidden cards, and better
than random (properties with wide margins, not timings)."""

from __future__ import annotations

import random

import pytest
from cardgame.interpreter.bots import BOTS, make_bot
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.observe import determinize, view
from conftest import choice_positions as positions

GAMES = [("calculation", None), ("besieged-castle", None), ("chains", None),
         ("interaction", 3), ("arsene", 4)]


def test_the_search_bots_are_registered_with_budgets() -> None:
    assert {"mcts", "ismcts"} <= set(BOTS)
    assert "ismcts:2000" in BOTS and "mcts:1.5s" in BOTS
    with pytest.raises(ValueError, match="budget"):
        make_bot("mcts:-3", 1)


@pytest.mark.parametrize(("name", "players"), GAMES, ids=[g for g, _ in GAMES])
@pytest.mark.parametrize("bot", ["mcts:25", "ismcts:25"])
def test_legal_and_the_same_seed_gives_the_same_choice(name: str, players: int | None,
                                                       bot: str) -> None:
    game = compile_game(name, players=players)
    for s in positions(game, 3):
        player = game.to_move(s)[0]
        a = make_bot(bot, 11).choose(game, s, player)
        b = make_bot(bot, 11).choose(game, s, player)
        assert a == b
        assert a in game.legal_moves(s, player)


@pytest.mark.parametrize(("name", "players"), [("arsene", 4), ("interaction", 3),
                                               ("calculation", None)])
def test_the_same_view_with_other_hidden_cards_gives_the_same_choice(
        name: str, players: int | None) -> None:
    """No peeking: a world the seat cannot tell from the real one (its hidden cards dealt
    again) gets the same choice from the same seed."""
    game = compile_game(name, players=players)
    checked = 0
    for i, s in enumerate(positions(game, 4, seed=7)):
        seat = game.to_move(s)[0]
        other = determinize(game, s, seat, random.Random(100 + i))
        assert view(game, other, seat) == view(game, s, seat)
        if other == s:
            continue
        checked += 1
        assert (make_bot("ismcts:30", 5).choose(game, s, seat)
                == make_bot("ismcts:30", 5).choose(game, other, seat))
    assert checked  # the hidden cards really differed somewhere


def test_ismcts_beats_random_at_interaction() -> None:
    """One ismcts seat against two random seats, rotating: far above the fair third."""
    game = compile_game("interaction", players=3)
    wins = games = 0
    for g in range(12):
        seat = g % 3 + 1
        bots = {p: make_bot("ismcts:300" if p == seat else "random", 100 + g * 3 + p)
                for p in range(1, 4)}
        s = game.new_state(500 + g)
        while not game.is_terminal(s):
            p = game.to_move(s)[0]
            s = game.apply(s, bots[p].choose(game, s, p))
        games += 1
        wins += game.results(s)[seat - 1] == "win"
    assert wins >= 8, f"ismcts won {wins} of {games}"  # a fair share is 4


@pytest.mark.parametrize(("name", "players", "bot"), [
    ("arsene", 4, "ismcts"), ("interaction", 3, "ismcts-lead"),
    ("calculation", None, "ismcts-max"),
    ("besieged-castle", None, "mcts")])
def test_the_hint_names_its_bot_and_never_reads_hidden_cards(
        name: str, players: int | None, bot: str) -> None:
    """The REPL's hint searches with the strongest bot that fits the game and says which;
    a world its seat cannot tell from the real one (hidden cards dealt again) gets the
    same hint from the same seed."""
    from cardgame.repl.session import hint_moves

    game = compile_game(name, players=players)
    differed = 0
    for i, s in enumerate(positions(game, 3, seed=11)):
        seat = game.to_move(s)[0]
        label, order = hint_moves(game, s, seat, 9, iterations=40)
        assert label == f"{bot}, 40 iterations"
        assert sorted(order) == sorted(game.legal_moves(s, seat))
        other = determinize(game, s, seat, random.Random(200 + i))
        assert view(game, other, seat) == view(game, s, seat)
        differed += other != s
        assert hint_moves(game, other, seat, 9, iterations=40) == (label, order)
    assert differed == 3  # hidden cards (or, without any, the random seed) really differed


def test_the_race_drops_clearly_worse_and_alike_moves_only() -> None:
    """Paired rounds (one world, every root move): a move always 1 behind the leader
    leaves, a move alike to the leader in every round leaves, a move sometimes ahead and
    sometimes behind stays."""
    from cardgame.interpreter.bots.mcts import MctsBot

    lead, worse, alike, close = (1, 0), (1, 1), (1, 2), (1, 3)
    rounds = [{lead: 5.0 + i % 3, worse: 4.0 + i % 3, alike: 5.0 + i % 3,
               close: 5.0 + i % 3 + (1 if i % 2 else -1)} for i in range(12)]
    assert MctsBot(1)._race([lead, worse, alike, close], rounds) == [lead, close]


def test_a_clear_choice_ends_the_search_early() -> None:
    """Calculation, seed 2: where one move is clearly best (a build, a lift) the race
    settles long before the budget, and the search spends it only where it is not."""
    game = compile_game("calculation")
    spent = []
    for s in positions(game, 8, seed=2)[5:8]:
        bot = make_bot("ismcts:600", 3)
        assert bot.choose(game, s, 1) in game.legal_moves(s)
        spent.append(bot.last["iterations"])
    assert max(spent) == 600 and min(spent) <= 60, spent


def test_halving_keeps_the_better_half_by_the_paired_means() -> None:
    """Sequential halving at the root: the moves with the best summed reward over the
    paired rounds stay (half of them, rounded up), in the rules' order; the budget of a
    phase is shared over the phases left (ceil(log2 k)), at least one round each."""
    from cardgame.interpreter.bots.mcts import MctsBot, _phase_len

    a, b, c, d, e = ((1, i) for i in range(5))
    rounds = [{a: 0.1, b: 0.9, c: 0.5, d: 0.4, e: 0.6}, {a: 0.2, b: 0.8, c: 0.5, d: 0.4,
                                                       e: 0.3}]
    assert MctsBot(1)._halve([a, b, c, d, e], rounds) == [b, c, e]
    assert _phase_len(200, 30) == 1 and _phase_len(200, 4) == 25 and _phase_len(10, 2) == 5
    assert _phase_len(3, 30) == 1 and _phase_len(50, 1) == 50


def test_halving_spends_the_budget_on_the_better_moves() -> None:
    """Interaction 4p (every play scores for every player, about 30 moves a turn): the
    search of several players halves its root moves, spends at most its budget, ends
    with one move left in the race, and its choice is that move."""
    game = compile_game("interaction", players=4)
    checked = 0
    for s in positions(game, 12, seed=4):
        p = game.to_move(s)[0]
        legal = game.legal_moves(s, p)
        if len(legal) < 16:
            continue
        bot = make_bot("ismcts:200", 5)
        ranked = bot.ranked(game, s, p)
        assert bot.last["iterations"] <= 200
        assert len(bot._raced) == 1 and ranked[0] == bot._raced[0]
        # the survivor was played far more often than a move halved away at once
        assert bot._root is not None
        root_n = sorted(c.n for c in bot._root.children.values())
        assert root_n[-1] >= 10 * root_n[0], root_n
        checked += 1
    assert checked >= 3
