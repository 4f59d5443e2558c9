"""Hand-written Python implementation of the patience "Calculation".

Baseline for the speed benchmark: plain lists and tuples, no engine.

Model: cards are ranks 1..13 (suits play no part, four cards of each rank).
Four foundations start with 1, 2, 3, 4; pile k (1..4) of size n takes next the
rank ((n + 1) * k) mod 13, with 13 written for 0; a pile of 13 takes nothing.
The other 48 cards form the shuffled stock (its top is the end of the list).
A card turned from the stock waits in the "turned" slot until it is placed.

Moves (tuples, in this order in legal_moves):
    ("draw",)          turn the top stock card (only when no card is waiting)
    ("build", k)       put the turned card on foundation k (0..3)
    ("discard", w)     put the turned card on waste pile w (0..3)
    ("waste", w, k)    move the top of waste pile w onto foundation k
"""

from __future__ import annotations

import random
import time

Move = tuple


class Game:
    def __init__(self, seed: int) -> None:
        rng = random.Random(seed)
        self.foundations: list[list[int]] = [[1], [2], [3], [4]]
        stock = [rank for rank in range(1, 14) for _ in range(4)]
        for rank in (1, 2, 3, 4):
            stock.remove(rank)
        rng.shuffle(stock)
        self.stock: list[int] = stock
        self.wastes: list[list[int]] = [[], [], [], []]
        self.turned: int | None = None

    def next_rank(self, k: int) -> int | None:
        """The rank foundation k (0..3) takes next, or None when it is complete."""
        n = len(self.foundations[k])
        if n == 13:
            return None
        rank = ((n + 1) * (k + 1)) % 13
        return rank if rank else 13

    def legal_moves(self) -> list[Move]:
        moves: list[Move] = []
        needs = [self.next_rank(k) for k in range(4)]
        if self.turned is None:
            if self.stock:
                moves.append(("draw",))
        else:
            for k in range(4):
                if needs[k] == self.turned:
                    moves.append(("build", k))
            for w in range(4):
                moves.append(("discard", w))
        if self.turned is not None:
            return moves  # the turned card must be placed before anything else
        for w in range(4):
            pile = self.wastes[w]
            if pile:
                top = pile[-1]
                for k in range(4):
                    if needs[k] == top:
                        moves.append(("waste", w, k))
        return moves

    def apply(self, move: Move) -> None:
        kind = move[0]
        if kind == "draw":
            self.turned = self.stock.pop()
        elif kind == "build":
            self.foundations[move[1]].append(self.turned)
            self.turned = None
        elif kind == "discard":
            self.wastes[move[1]].append(self.turned)
            self.turned = None
        elif kind == "waste":
            self.foundations[move[2]].append(self.wastes[move[1]].pop())
        else:
            raise ValueError(f"unknown move {move!r}")

    def is_over(self) -> bool:
        if self.stock or self.turned is not None:
            return False
        needs = [self.next_rank(k) for k in range(4)]
        for pile in self.wastes:
            if pile and pile[-1] in needs:
                return False
        return True

    def score(self) -> int:
        return sum(len(pile) for pile in self.foundations)

    def won(self) -> bool:
        return self.score() == 52

    def play_random(self, rng: random.Random) -> int:
        """Play uniformly random legal moves to the end; return the number of moves.
        (No legal move is left exactly when the game is over.)"""
        n = 0
        moves = self.legal_moves()
        while moves:
            self.apply(moves[rng.randrange(len(moves))])
            n += 1
            moves = self.legal_moves()
        return n


def _self_check(games: int = 200) -> None:
    chooser = random.Random(12345)
    total_moves = 0
    wins = 0
    total_score = 0
    start = time.perf_counter()
    for seed in range(games):
        game = Game(seed)
        total_moves += game.play_random(chooser)
        assert game.is_over()
        cards = (
            len(game.stock)
            + (game.turned is not None)
            + sum(len(p) for p in game.wastes)
            + game.score()
        )
        assert cards == 52, cards
        wins += game.won()
        total_score += game.score()
    elapsed = time.perf_counter() - start
    print(
        f"calculation: {games} games in {elapsed:.3f}s = {games / elapsed:.1f} games/s, "
        f"avg moves {total_moves / games:.1f}, win rate {wins / games:.1%}, "
        f"avg score {total_score / games:.2f}"
    )


if __name__ == "__main__":
    _self_check()
