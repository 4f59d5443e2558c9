"""The bot interface: RandomBot, GreedyBot, the registry."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from cardgame.interpreter.bots import BOTS, Bot, GreedyBot, NoMoveError, RandomBot, make_bot
from cardgame.interpreter.engine import Game, Move, Position, compile_game
from cardgame.interpreter.observe import determinize, view

TWO_HANDS = str(Path(__file__).parent / "data" / "two_hands.cardgame")
PEEK = str(Path(__file__).parent / "data" / "peek.cardgame")


def play_out(game: Game, seed: int, bots: dict[int, Bot], limit: int = 2000) -> list[Move]:
    state = game.new_state(seed)
    moves: list[Move] = []
    while not game.is_terminal(state) and len(moves) < limit:
        player = game.to_move(state)[0]
        move = bots[player].choose(game, state, player)
        assert move in game.legal_moves(state, player)
        moves.append(move)
        state = game.apply(state, move)
    return moves


@pytest.mark.parametrize("name", sorted(BOTS))
def test_registry_bots_follow_the_protocol(name: str) -> None:
    bot = make_bot(name, seed=1)
    assert isinstance(bot, Bot)
    assert bot.name == name


def test_unknown_bot_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown bot 'clever'.*greedy"):
        make_bot("clever")


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_are_deterministic_for_a_seed(name: str) -> None:
    # a search bot with a small budget: the same seed replays the same game whatever the
    # budget (the default's 2 x 45 s of full Calculation games tested nothing more)
    spec = f"{name}:40" if name in ("mcts", "ismcts", "ismcts-max", "ismcts-lead") else name
    game = compile_game("calculation")
    a = play_out(game, 3, {1: make_bot(spec, 11)})
    b = play_out(game, 3, {1: make_bot(spec, 11)})
    assert a == b and game.is_terminal(game.replay(3, a))


def test_random_bot_draws_uniformly_from_the_legal_moves() -> None:
    game = compile_game("calculation")
    state = game.make_state({"turned": ["9♣"]}, seed=1)  # a discard to any of 4 piles
    legal = game.legal_texts(state)
    draws = 2000
    counts = Counter(game.move_text(RandomBot(s).choose(game, state, 1)) for s in range(draws))
    assert set(counts) == set(legal) and len(legal) >= 4
    expected = draws / len(legal)
    assert all(abs(n - expected) < 0.15 * expected for n in counts.values()), counts
    # one bot's choices follow its own seeded stream: whole games differ by seed
    assert play_out(game, 3, {1: RandomBot(1)}) != play_out(game, 3, {1: RandomBot(2)})


def test_a_bot_without_a_move_says_so() -> None:
    game = compile_game(TWO_HANDS)
    state = game.new_state(1)
    # both players choose at the opening; after p2 has chosen, p2 has no move
    state = game.apply(state, game.legal_moves(state, 2)[0])
    for bot in (RandomBot(0), GreedyBot(0)):
        with pytest.raises(NoMoveError, match="p2 has no legal move"):
            bot.choose(game, state, 2)


def test_greedy_takes_the_move_that_scores() -> None:
    game = compile_game("calculation")
    # pile 1 holds its A and takes a 2 next: the turned 2 scores there, a discard does not
    state = game.make_state({"turned": ["2♥"], "stock": ["9♣"]}, seed=1)
    moves = {game.move_text(m) for m in game.legal_moves(state)}
    assert "build 1" in moves and "discard 1" in moves
    for seed in range(5):
        assert game.move_text(GreedyBot(seed).choose(game, state, 1)) == "build 1"


def test_greedy_breaks_ties_with_its_rng() -> None:
    game = compile_game("calculation")
    state = game.make_state({"turned": ["9♣"]}, seed=1)  # fits nowhere: 4 equal discards
    chosen = {game.move_text(GreedyBot(s).choose(game, state, 1)) for s in range(20)}
    assert len(chosen) > 1 and all(t.startswith("discard") for t in chosen)


def test_greedy_in_a_multiplayer_game_maximises_its_lead() -> None:
    game = compile_game(TWO_HANDS)
    state = game.new_state(4)
    state = game.apply(state, game.legal_moves(state, 1)[0])
    state = game.apply(state, game.legal_moves(state, 2)[0])  # the opening resolves
    player = game.to_move(state)[0]
    ranks = {c: game.checked.cards[game.card_id(c)].rank
             for c in game.zone_cards(state, f"hand-p{player}")}
    move = GreedyBot(0).choose(game, state, player)  # points += rank: the highest card
    assert ranks[game.move_text(move).split()[1]] == max(ranks.values())


def test_greedy_value_is_the_score_difference_to_the_best_opponent() -> None:
    game = compile_game(TWO_HANDS)
    state = game.make_state(vars={"points": [7, 12]}, seed=2)
    assert GreedyBot().value(game, state, 1) == -5
    assert GreedyBot().value(game, state, 2) == 5


def test_bots_play_whole_multiplayer_games_and_greedy_beats_random() -> None:
    game = compile_game("interaction", 3)
    totals = [0, 0, 0]
    for seed in range(12):
        bots: dict[int, Bot] = {1: GreedyBot(seed), 2: RandomBot(seed), 3: GreedyBot(seed + 1)}
        moves = play_out(game, seed, bots, limit=1000)  # each move legal for its player
        final = game.replay(seed, moves)
        assert game.is_terminal(final)
        assert sorted(game.results(final)) in (["loss", "loss", "win"],
                                               ["draw", "draw", "loss"], ["draw"] * 3)
        totals = [a + b for a, b in zip(totals, game.scores(final), strict=True)]
    # one move of look-ahead on the score is worth a lot against random play
    assert totals[1] < 0.75 * min(totals[0], totals[2]), totals


# ---------------------------------------------------------------------- what a seat knows
def test_greedy_chooses_from_what_its_seat_sees() -> None:
    """States that look the same to the seat, with other hidden cards and another random
    seed, get the same choice from bots of the same seed: in Peek, a bot that looked at
    the true state would know the top card of the stock and what a random pick gives."""
    game = compile_game(PEEK)
    choices = set()
    for seed in range(40):
        real = game.new_state(seed)
        for k in range(3):
            other = determinize(game, real, 1, random.Random(f"{seed}:{k}"))
            assert view(game, other, 1) == view(game, real, 1)
            assert game.zone_ids(other, "stock") != game.zone_ids(real, "stock")
            # the same cards, in the same order, and another random seed
            reseeded = Position(game, seed=seed + 1000).zone(
                "stock", game.zone_ids(real, "stock")).state()
            chosen = {game.move_text(GreedyBot(seed).choose(game, st, 1))
                      for st in (real, other, reseeded)}
            assert len(chosen) == 1, (seed, k, chosen)
            choices |= chosen
    assert choices == {"draw", "lucky", "safe"}  # bots of other seeds draw other worlds

