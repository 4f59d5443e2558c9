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

The game is over when no move is legal: when won, when stuck, or after MOVE_LIMIT
moves (cards can go back and forth for ever).
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
        self.wrap = spice == 2
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

    def fits_foundation(self, rank: int, suit: int) -> bool:
        pile = self.foundations[suit]
        if not pile:
            return self.wrap or rank == 1
        if len(pile) == 13:
            return False
        top = pile[-1][0]
        if self.wrap:
            return rank == top % 13 + 1
        return rank == top + 1

    def legal_moves(self) -> list[Move]:
        moves: list[Move] = []
        if self.moves_made >= MOVE_LIMIT:
            return moves
        columns = self.columns
        wrap = self.wrap
        for src in range(8):
            if not columns[src]:
                continue
            rank, suit = columns[src][-1]
            for dst in range(8):
                if dst == src:
                    continue
                dest = columns[dst]
                # onto an empty column, or onto a card one rank higher (Spice 2: K onto A)
                if not dest or dest[-1][0] == rank + 1 or (wrap and rank == 13 and dest[-1][0] == 1):
                    moves.append(("col", src, dst))
            if self.fits_foundation(rank, suit):
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

    def is_over(self) -> bool:
        return not self.legal_moves()

    def score(self) -> int:
        return sum(len(pile) for pile in self.foundations)

    def won(self) -> bool:
        return self.score() == 52

    def play_random(self, rng: random.Random) -> int:
        """Play uniformly random legal moves to the end; return the number of moves."""
        n = 0
        moves = self.legal_moves()
        while moves:
            self.apply(moves[rng.randrange(len(moves))])
            n += 1
            moves = self.legal_moves()
        return n


def _self_check(games: int = 200) -> None:
    for spice in (0, 1, 2):
        chooser = random.Random(12345)
        total_moves = 0
        wins = 0
        total_score = 0
        start = time.perf_counter()
        for seed in range(games):
            game = Game(seed, spice=spice)
            total_moves += game.play_random(chooser)
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
