"""Hand-written Python implementation of "Besieged Castle" (Beleaguered Castle).

Baseline for the speed benchmark: plain lists and tuples, no engine.

Model: cards are (rank, suit), rank 1..13, suit 0..3. Eight columns, each a
list whose last element is its top card; four foundations indexed by suit.

    spice=0  basic game: Aces on the foundations, 48 cards dealt into 8 columns.
    spice=1  all 52 cards dealt (the first four columns get 7); foundations
             start empty and are started by their suit's Ace.
    spice=2  Spice 1 plus: a foundation may be started by any rank of its suit
             and wraps 13 -> 1; a K may also go onto an A in the columns.

Moves (tuples; in legal_moves by source column, then targets in column order,
then the foundation):
    ("col", src, dst)   move the top of column src onto column dst
    ("found", src)      move the top of column src onto its suit's foundation

A game is also over after MOVE_LIMIT moves, since cards can go back and forth.
"""

from __future__ import annotations

import random
import time

Move = tuple
Card = tuple[int, int]

MOVE_LIMIT = 1000


class Game:
    def __init__(self, seed: int, spice: int = 0) -> None:
        if spice not in (0, 1, 2):
            raise ValueError("spice must be 0, 1 or 2")
        rng = random.Random(seed)
        self.spice = spice
        if spice == 0:
            self.foundations: list[list[Card]] = [[(1, suit)] for suit in range(4)]
            deck = [(rank, suit) for suit in range(4) for rank in range(2, 14)]
        else:
            self.foundations = [[] for _ in range(4)]
            deck = [(rank, suit) for suit in range(4) for rank in range(1, 14)]
        rng.shuffle(deck)
        self.columns: list[list[Card]] = [[] for _ in range(8)]
        for i, card in enumerate(deck):
            self.columns[i % 8].append(card)
        self.moves_made = 0

    def fits_foundation(self, card: Card) -> bool:
        rank, suit = card
        pile = self.foundations[suit]
        if not pile:
            return self.spice == 2 or rank == 1
        if len(pile) == 13:
            return False
        top = pile[-1][0]
        if self.spice == 2:
            return rank == top % 13 + 1
        return rank == top + 1

    def fits_column(self, card: Card, dst: list[Card]) -> bool:
        if not dst:
            return True
        below = dst[-1][0]
        rank = card[0]
        if below == rank + 1:
            return True
        return self.spice == 2 and below == 1 and rank == 13

    def legal_moves(self) -> list[Move]:
        moves: list[Move] = []
        if self.moves_made >= MOVE_LIMIT:
            return moves
        columns = self.columns
        for src in range(8):
            if not columns[src]:
                continue
            card = columns[src][-1]
            for dst in range(8):
                if dst != src and self.fits_column(card, columns[dst]):
                    moves.append(("col", src, dst))
            if self.fits_foundation(card):
                moves.append(("found", src))
        return moves

    def apply(self, move: Move) -> None:
        if move[0] == "col":
            self.columns[move[2]].append(self.columns[move[1]].pop())
        elif move[0] == "found":
            card = self.columns[move[1]].pop()
            self.foundations[card[1]].append(card)
        else:
            raise ValueError(f"unknown move {move!r}")
        self.moves_made += 1

    def has_move(self) -> bool:
        """Whether any legal move exists (stops at the first one found)."""
        if self.moves_made >= MOVE_LIMIT:
            return False
        columns = self.columns
        for src in range(8):
            if not columns[src]:
                continue
            card = columns[src][-1]
            if self.fits_foundation(card):
                return True
            for dst in range(8):
                if dst != src and self.fits_column(card, columns[dst]):
                    return True
        return False

    def is_over(self) -> bool:
        return self.won() or not self.has_move()

    def score(self) -> int:
        return sum(len(pile) for pile in self.foundations)

    def won(self) -> bool:
        return self.score() == 52


def _self_check(games: int = 200) -> None:
    for spice in (0, 1, 2):
        chooser = random.Random(12345)
        total_moves = 0
        wins = 0
        total_score = 0
        start = time.perf_counter()
        for seed in range(games):
            game = Game(seed, spice=spice)
            while not game.is_over():
                moves = game.legal_moves()
                game.apply(chooser.choice(moves))
                total_moves += 1
            cards = sum(len(c) for c in game.columns) + game.score()
            assert cards == 52, cards
            wins += game.won()
            total_score += game.score()
        elapsed = time.perf_counter() - start
        print(
            f"besieged castle spice={spice}: {games} games in {elapsed:.3f}s = "
            f"{games / elapsed:.1f} games/s, avg moves {total_moves / games:.1f}, "
            f"win rate {wins / games:.1%}, avg score {total_score / games:.2f}"
        )


if __name__ == "__main__":
    _self_check()
