"""Bots: programs that choose moves for a seat.

Every bot answers one question, `choose(game, state, player) -> move`, for a state in
which `player` must decide. The REPL plays the seats no person plays with a bot; the
simulator and the search bots (`mcts`, `ismcts`) are found by name in `BOTS`
(`registry.py`), a registry of name -> factory taking a seed:

    bot = make_bot("greedy", seed=7)
    move = bot.choose(game, state, player)

Bots are deterministic for a seed: the same seed, game and sequence of questions give
the same answers. A bot chooses from what its seat may know: it looks ahead only in a
world that `observe.determinize` deals again, never in the true state (whose hidden
cards and random seed would tell it what it cannot know).
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from ..engine import Game, Move, State
from ..errors import IllegalMove, RuleError
from ..observe import determinize


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
    """One-step look-ahead on the game's own score, in a world its seat cannot tell from
    the real one.

    Each legal move is tried in that world (`observe.determinize`: the cards the seat
    cannot see dealt again, others' secret choices made again, a new random seed); the
    bot keeps those that leave the best value for its player: the player's score in a
    one-player game, else the score minus the best opponent's score. Ties are broken by
    the seeded rng. At a simultaneous choice whose effects wait for other players, every
    move looks the same and the choice is random.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        # worlds come from a stream of their own, so that ties break as the seed says
        self.worlds = random.Random(None if seed is None else f"worlds:{seed}")

    def value(self, game: Game, state: State, player: int) -> int:
        scores = game.scores(state)
        mine = scores[player - 1]
        if len(scores) == 1:
            return mine
        return mine - max(s for i, s in enumerate(scores) if i != player - 1)

    def ranked(self, game: Game, state: State, player: int) -> list[tuple[int, Move]]:
        """(value after the move, move) for every legal move, best first (stable), as the
        bot sees it: in one world dealt again from what its seat sees."""
        moves = _moves(game, state, player)
        world = determinize(game, state, player, self.worlds)
        out = [(self.value_after(game, world, m, player), m) for m in moves]
        out.sort(key=lambda vm: -vm[0])
        return out

    def value_after(self, game: Game, world: State, move: Move, player: int) -> int:
        try:
            return self.value(game, game.apply(world, move), player)
        except IllegalMove:  # only in a game whose legal moves tell hidden cards
            return self.value(game, world, player)
        except RuleError:  # a world the rules cannot play (a card dealt where the setup
            return self.value(game, world, player)  # never puts it): the move tells nothing

    def pick(self, ranked: list[tuple[int, Move]]) -> Move:
        """One of the best moves of a ranking, the seeded rng breaking ties."""
        best = ranked[0][0]
        top = [m for v, m in ranked if v == best]
        return top[self.rng.randrange(len(top))]

    def choose(self, game: Game, state: State, player: int) -> Move:
        return self.pick(self.ranked(game, state, player))
