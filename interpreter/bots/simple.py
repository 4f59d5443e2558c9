"""Bots: programs that choose moves for a seat.

Every bot answers one question, `choose(game, state, player) -> move`, for a state in
which `player` must decide. The REPL plays the seats no person plays with a bot; the
simulator and stronger bots (search, learned policies) can join through `BOTS`, a
registry of name -> factory taking a seed:

    bot = make_bot("greedy", seed=7)
    move = bot.choose(game, state, player)

Bots are deterministic for a seed: the same seed, game and sequence of questions give
the same answers.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from ..engine.game import Game, Move, State


@runtime_checkable
class Bot(Protocol):
    """Chooses a legal move for `player` in `state` (where `player` must decide)."""

    name: str

    def choose(self, game: Game, state: State, player: int) -> Move: ...


class NoMoveError(ValueError):
    """The bot was asked for a move where its player has none."""


def _moves(game: Game, state: State, player: int) -> list[Move]:
    moves = game.legal_moves(state, player)
    if not moves:
        raise NoMoveError(f"p{player} has no legal move in this state")
    return moves


class RandomBot:
    """Any legal move, uniformly at random (a seeded rng)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, state: State, player: int) -> Move:
        moves = _moves(game, state, player)
        return moves[self.rng.randrange(len(moves))]


class GreedyBot:
    """One-step look-ahead on the game's own score.

    Each legal move is tried; the bot keeps those that leave the best value for its
    player: the player's score in a one-player game, else the score minus the best
    opponent's score. Ties are broken by the seeded rng. At a simultaneous choice whose
    effects wait for other players, every move looks the same and the choice is random.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def value(self, game: Game, state: State, player: int) -> int:
        scores = game.scores(state)
        mine = scores[player - 1]
        if len(scores) == 1:
            return mine
        return mine - max(s for i, s in enumerate(scores) if i != player - 1)

    def ranked(self, game: Game, state: State, player: int) -> list[tuple[int, Move]]:
        """(value after the move, move) for every legal move, best first (stable)."""
        out = [(self.value(game, game.apply(state, m), player), m)
               for m in _moves(game, state, player)]
        out.sort(key=lambda vm: -vm[0])
        return out

    def choose(self, game: Game, state: State, player: int) -> Move:
        ranked = self.ranked(game, state, player)
        best = ranked[0][0]
        top = [m for v, m in ranked if v == best]
        return top[self.rng.randrange(len(top))]


BotFactory = Callable[[int | None], Bot]

#: Every bot by name; `cardgame play --bots NAME` and the simulator pick from here.
BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


def make_bot(name: str, seed: int | None = None) -> Bot:
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot '{name}' (known: {', '.join(sorted(BOTS))})") from None
    return factory(seed)
