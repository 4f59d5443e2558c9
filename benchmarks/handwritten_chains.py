"""Hand-written Python implementation of the solitaire "Chains".

Baseline for the speed benchmark: plain lists, no engine. Rules:
/work/shared/rules/chains.md and games/chains.cardgame (beginner mode: 5 holding
slots) / games/chains-advanced.cardgame (advanced mode: 4).

Model: cards are ranks 1..10 (the Pairs deck: one 1, two 2s, ..., ten 10s; 55 cards).
One card of each rank is a terminal card; the other 45 form the stock (its top is the
end of the list). Drawing and placing are two moves, as in the game file: a drawn card
waits in `drawn` until it goes to the work area or a slot.

Moves (tuples, in this order in legal_moves):
    ("draw",)            turn the top stock card (only when no card is waiting)
    ("to_work",)         put the drawn card on the work area
    ("to_slot", i)       put the drawn card on slot i (0-based)
    ("from_slot", i)     put the top of slot i on the work area
    ("close", r)         close the run with terminal card r, discard the work area

The game is over when no move is legal (then the stock is empty: while it has cards
a draw, or placing the drawn card on a slot, is always possible).
"""

from __future__ import annotations

import random
import time

Move = tuple


class Game:
    def __init__(self, seed: int, slots: int = 5) -> None:
        if slots not in (4, 5):
            raise ValueError("slots must be 5 (beginner) or 4 (advanced)")
        rng = random.Random(seed)
        self.terminals: list[int] = list(range(1, 11))
        stock = [rank for rank in range(1, 11) for _ in range(rank - 1)]
        rng.shuffle(stock)
        self.stock: list[int] = stock
        self.drawn: int | None = None
        self.work: list[int] = []
        self.slots: list[list[int]] = [[] for _ in range(slots)]
        self.discard: list[int] = []
        self.closed: list[int] = []  # the terminal ranks of the runs closed so far

    def fits_work(self, rank: int) -> bool:
        if not self.work:
            return rank == 10
        return rank == self.work[-1] - 1

    def legal_moves(self) -> list[Move]:
        moves: list[Move] = []
        if self.drawn is not None:
            if self.fits_work(self.drawn):
                moves.append(("to_work",))
            for i in range(len(self.slots)):
                moves.append(("to_slot", i))
            return moves
        if self.stock:
            moves.append(("draw",))
        for i, slot in enumerate(self.slots):
            if slot and self.fits_work(slot[-1]):
                moves.append(("from_slot", i))
        for rank in self.terminals:
            if self.fits_work(rank):
                moves.append(("close", rank))
        return moves

    def apply(self, move: Move) -> None:
        kind = move[0]
        if kind == "draw":
            self.drawn = self.stock.pop()
        elif kind == "to_work":
            self.work.append(self.drawn)  # type: ignore[arg-type]
            self.drawn = None
        elif kind == "to_slot":
            self.slots[move[1]].append(self.drawn)
            self.drawn = None
        elif kind == "from_slot":
            self.work.append(self.slots[move[1]].pop())
        elif kind == "close":
            rank = move[1]
            self.terminals.remove(rank)
            self.work.append(rank)
            self.closed.append(rank)
            self.discard.extend(self.work)
            self.work = []
        else:
            raise ValueError(f"unknown move {move!r}")

    def is_over(self) -> bool:
        return not self.legal_moves()

    def score(self) -> int:
        """0 for a win, else minus one for each terminal card left."""
        return -len(self.terminals)

    def won(self) -> bool:
        return len(self.discard) == 55

    def play_random(self, rng: random.Random) -> int:
        """Play uniformly random legal moves to the end; return the number of moves."""
        n = 0
        moves = self.legal_moves()
        while moves:
            self.apply(moves[rng.randrange(len(moves))])
            n += 1
            moves = self.legal_moves()
        return n


def _self_check(games: int = 500) -> None:
    for slots in (5, 4):
        chooser = random.Random(12345)
        total_moves = 0
        wins = 0
        total_score = 0
        start = time.perf_counter()
        for seed in range(games):
            game = Game(seed, slots=slots)
            total_moves += game.play_random(chooser)
            cards = (len(game.terminals) + len(game.stock) + len(game.work)
                     + sum(len(s) for s in game.slots) + len(game.discard))
            assert cards == 55 and game.drawn is None and not game.stock, cards
            assert len(game.discard) == sum(11 - r for r in game.closed)
            wins += game.won()
            total_score += game.score()
        elapsed = time.perf_counter() - start
        print(
            f"chains slots={slots}: {games} games in {elapsed:.3f}s = "
            f"{games / elapsed:.1f} games/s, avg moves {total_moves / games:.1f}, "
            f"win rate {wins / games:.1%}, avg score {total_score / games:.2f}"
        )


if __name__ == "__main__":
    _self_check()
