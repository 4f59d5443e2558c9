"""`ismcts-max`: ISMCTS whose iterations score a one-player world by the best of a few
rollouts. Legal, seeded, blind to hidden cards, its budget counted in rollouts, and far
better than random at Calculation (properties with wide margins, not timings)."""

from __future__ import annotations

import random

import pytest
from cardgame.interpreter.bots import BOTS, IsmctsMaxBot, best_bot_for, make_bot
from cardgame.interpreter.engine import Game, State, compile_game
from cardgame.interpreter.observe import Record, Sampler, determinize, view
from conftest import choice_positions as positions


def hard(game: Game, k: int, seed: int = 3) -> list[State]:
    """k Calculation positions where a turned card must be placed (several waste piles)."""
    return [s for s in positions(game, 60, seed)
            if sum(1 for m in game.legal_moves(s) if "discard" in game.move_text(m)) > 1][:k]


def test_registered_with_a_budget() -> None:
    assert "ismcts-max" in BOTS and "ismcts-max:200" in BOTS and "ismcts-max:1.5s" in BOTS
    bot = make_bot("ismcts-max:200", 1)
    assert isinstance(bot, IsmctsMaxBot) and bot.name == "ismcts-max"
    with pytest.raises(ValueError, match="budget"):
        make_bot("ismcts-max:0", 1)


@pytest.mark.parametrize(("name", "players"), [("calculation", None), ("golf", None),
                                               ("interaction", 3)])
def test_legal_and_the_same_seed_gives_the_same_choice(name: str, players: int | None) -> None:
    game = compile_game(name, players=players)
    for s in positions(game, 3):
        player = game.to_move(s)[0]
        a = make_bot("ismcts-max:40", 11).choose(game, s, player)
        b = make_bot("ismcts-max:40", 11).choose(game, s, player)
        assert a == b
        assert a in game.legal_moves(s, player)


def test_the_same_view_with_another_stock_gives_the_same_choice() -> None:
    """No peeking: Calculation's stock dealt again (a world the seat cannot tell from the
    real one) gets the same choice from the same seed."""
    game = compile_game("calculation")
    checked = 0
    for i, s in enumerate(hard(game, 4, seed=7)):
        other = determinize(game, s, 1, random.Random(100 + i))
        assert view(game, other, 1) == view(game, s, 1)
        if other == s:
            continue
        checked += 1
        assert (make_bot("ismcts-max:60", 5).ranked(game, s, 1)
                == make_bot("ismcts-max:60", 5).ranked(game, other, 1))
    assert checked == 4  # the stock really differed every time


def test_the_budget_counts_rollouts_and_each_iteration_plays_four() -> None:
    """`ismcts-max:N` plays at most N rollouts, in iterations of BEST_OF: the root's
    visits are the iterations, a quarter of the rollouts counted."""
    game = compile_game("calculation")
    s = hard(game, 1)[0]
    bot = make_bot("ismcts-max:80", 2)
    assert isinstance(bot, IsmctsMaxBot)
    bot.choose(game, s, 1)
    root = bot._root
    assert root is not None
    iterations = sum(c.n for c in root.children.values())
    assert bot.last["iterations"] <= 80
    assert iterations * bot.best_of == bot.last["iterations"]
    one = make_bot("ismcts:80", 2)
    one.choose(game, s, 1)
    assert one._root is not None
    assert sum(c.n for c in one._root.children.values()) == one.last["iterations"]


def test_the_best_of_the_rollouts_is_worth_more_than_one() -> None:
    """An iteration's reward is the best of its rollouts: the root moves' mean rewards,
    on the same worlds, are higher than with one rollout each (scores 4-52)."""
    game = compile_game("calculation")
    s = hard(game, 1)[0]
    means = {}
    for name in ("ismcts", "ismcts-max"):
        bot = make_bot(f"{name}:200", 4)
        bot.choose(game, s, 1)
        assert bot._root is not None
        kids = [c for c in bot._root.children.values() if c.n]
        means[name] = sum(c.w for c in kids) / sum(c.n for c in kids)
    assert means["ismcts-max"] > means["ismcts"] + 1.0, means


def test_it_plays_calculation_far_better_than_random() -> None:
    """On the same 4 deals, `ismcts-max:24` (a small budget) puts far more cards on the
    foundations than random play (random play ends near 20 a deal, the search near 40)."""
    game = compile_game("calculation")
    totals = {}
    for name in ("random", "ismcts-max:24"):
        total = 0
        for deal in range(1, 5):
            bot = make_bot(name, deal)
            s = game.new_state(deal)
            while not game.is_terminal(s):
                s = game.apply(s, bot.choose(game, s, 1))
            total += game.scores(s)[0]
        totals[name] = total
    assert totals["ismcts-max:24"] >= totals["random"] + 40, totals


def test_the_hint_of_a_one_player_game_with_hidden_cards_uses_it() -> None:
    assert best_bot_for(compile_game("calculation")) == "ismcts-max"
    assert best_bot_for(compile_game("interaction", players=3)) == "ismcts-lead"
    assert best_bot_for(compile_game("besieged-castle")) == "mcts"


def test_the_same_history_with_another_stock_gives_the_same_choice() -> None:
    """No peeking, from the history: a Calculation deal with the same observation history
    and another stock (drawn by `observe.Sampler`), each given its own record, gets the
    same ranking of the moves from the same seed."""
    game = compile_game("calculation")
    rng = random.Random(6)
    s = game.new_state(21)
    moves = []
    while len(moves) < 30 or sum(1 for m in game.legal_moves(s)
                                 if "discard" in game.move_text(m)) < 2:
        m = rng.choice(game.legal_moves(s))
        moves.append(m)
        s = game.apply(s, m)
    real = Record(21, tuple(moves))
    other = Sampler(game, real, 1).sample(random.Random(4))
    assert other is not None
    assert other.state != s and view(game, other.state, 1) == view(game, s, 1)
    a, b = make_bot("ismcts-max:60", 5), make_bot("ismcts-max:60", 5)
    ra = a.ranked(game, s, 1, real)
    rb = b.ranked(game, other.state, 1, other.record(21))
    assert a.last["worlds"] == b.last["worlds"] == "history"
    assert ra == rb
