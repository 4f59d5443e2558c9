"""The greedy opponent model of the search's worlds (`sampling.greedy_misfits`,
`MctsBot.model_draws`): a world drawn from the seat's history in which the other seats'
moves are what the `greedy` bot would have played with the cards the world deals them.
The real game of greedy players is such a world; others are not; the model keeps the
bot deterministic and blind to the hidden cards."""

from __future__ import annotations

import random

from cardgame.interpreter.bots import make_bot
from cardgame.interpreter.bots.ismcts import IsmctsLeadBot
from cardgame.interpreter.bots.sampling import Worlds, greedy_misfits
from cardgame.interpreter.engine import Game, Move, State, compile_game
from cardgame.interpreter.observe import Record, Sampler, World, view
from conftest import random_history


def greedy_game(game: Game, deal: int, moves: int) -> tuple[State, list[Move]]:
    """`moves` moves of a game of greedy seats (fewer if it ends)."""
    bots = [make_bot("greedy", deal * 31 + i) for i in range(game.players)]
    s = game.new_state(deal)
    hist: list[Move] = []
    while len(hist) < moves and not game.is_terminal(s):
        p = game.to_move(s)[0]
        m = bots[p - 1].choose(game, s, p)
        s = game.apply(s, m)
        hist.append(m)
    return s, hist


def test_the_real_game_of_greedy_players_has_no_misfit_and_other_worlds_have() -> None:
    game = compile_game("interaction", players=4)
    seen_misfit = 0
    for deal in (1, 2, 3):
        s, hist = greedy_game(game, deal, 15)
        for seat in range(1, 5):
            real = World((), tuple(hist), s)
            assert greedy_misfits(game, real, deal, seat) == 0
        seat = game.to_move(s)[0]
        sampler = Sampler(game, Record(deal, tuple(hist)), seat)
        rng = random.Random(deal)
        for _ in range(10):
            w = sampler.sample(rng)
            assert w is not None
            seen_misfit += greedy_misfits(game, w, deal, seat) > 0
    assert seen_misfit >= 10  # most re-dealt worlds are not what greedy players did


def test_a_random_players_game_has_misfits() -> None:
    """Random moves are seldom the greedy one: the count sees them."""
    game = compile_game("interaction", players=4)
    s, hist = random_history(game, 9, random.Random(3), 14)
    assert greedy_misfits(game, World((), tuple(hist), s), 9, game.to_move(s)[0]) >= 3


def test_the_model_keeps_the_worlds_with_fewest_misfits() -> None:
    game = compile_game("interaction", players=4)
    s, hist = greedy_game(game, 2, 15)
    seat = game.to_move(s)[0]
    rec = Record(2, tuple(hist))
    w = Worlds(game, s, seat, random.Random(1), rec, pool=4, draws=16)
    assert len(w.pool) == 4 and w.misfits == sorted(w.misfits)
    every = Worlds(game, s, seat, random.Random(1), rec, pool=16)
    counts = sorted(greedy_misfits(game, x, 2, seat) for x in every.pool)
    assert w.misfits == counts[:4]  # the same 16 draws, the best 4 kept


class Modelled(IsmctsLeadBot):
    model_draws = 16


def same_choice_with_other_hidden_cards(bot: type[IsmctsLeadBot], deal: int,
                                        worlds: str) -> None:
    """No peeking: an Interaction 4p game of greedy players with the same observation
    history for the seat and other hidden cards, each given its own record, gets the
    same ranking from the same seed (`worlds`: where the bot says its worlds came from);
    the same seed gives the same ranking; the choice is legal."""
    game = compile_game("interaction", players=4)
    s, hist = greedy_game(game, deal, 14)
    seat = game.to_move(s)[0]
    real = Record(deal, tuple(hist))
    other = Sampler(game, real, seat).sample(random.Random(4))
    assert other is not None
    assert other.state != s and view(game, other.state, seat) == view(game, s, seat)
    budget = make_bot("ismcts-lead:60", 5).budget  # type: ignore[attr-defined]
    a, b = bot(5, budget=budget), bot(5, budget=budget)
    ra = a.ranked(game, s, seat, real)
    rb = b.ranked(game, other.state, seat, other.record(deal))
    assert a.last["worlds"] == b.last["worlds"] == worlds
    assert ra == rb
    assert bot(5, budget=budget).ranked(game, s, seat, real) == ra
    assert ra[0] in game.legal_moves(s, seat)


def test_with_the_model_the_same_history_with_other_hidden_cards_gives_the_same_choice(
        ) -> None:
    same_choice_with_other_hidden_cards(Modelled, 5, "history")
