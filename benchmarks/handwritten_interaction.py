"""Hand-written Python implementation of "Interaction" (3 or 4 players).

Baseline for the speed benchmark: plain lists and tuples, no engine. Rules:
/work/shared/rules/interaction.md and games/interaction.cardgame.

Model: cards are (rank, suit), rank 1..13, suit 0..3, and the joker JOKER. Players are
seats 0..n-1; the player to the left of p is (p + 1) % n. Piles are lists whose last
element is the top card: the stock, the center pile, each player's field pile.

Moves (tuples):
    ("open", p, c)             first turn, simultaneous: player p opens with card c
    ("play_field", c)          the current player plays c onto their field
    ("play_center", c)         the current player plays c onto the center
    ("pay_and_play", f, c)     pay 1 chip: f onto the field, c onto the center

In the first turn every player who has not opened yet may move; the openings are
revealed together when the last player has chosen. The lowest scorer then starts (ties
at random). The game ends the moment a refill would draw the joker.
"""

from __future__ import annotations

import random
import time

Move = tuple
Card = tuple[int, int]

JOKER: Card = (0, 4)


def rank_chips(a: Card, b: Card) -> int:
    d = abs(a[0] - b[0])
    d = min(d, 13 - d)  # ranks are circular: K and A are adjacent
    if d == 0:
        return 3
    if d == 1:
        return 2
    if d == 2:
        return 1
    return 0


def chips_for(a: Card, b: Card) -> int:
    return (1 if a[1] == b[1] else 0) + rank_chips(a, b)


class Game:
    def __init__(self, seed: int, players: int = 4) -> None:
        if players not in (3, 4):
            raise ValueError("Interaction is for 3 or 4 players")
        self.rng = random.Random(seed)
        self.players = players
        deck = [(rank, suit) for suit in range(4) for rank in range(1, 14)]
        self.rng.shuffle(deck)
        # The joker is shuffled into 10 cards: these 11 are the bottom of the stock.
        bottom = deck[:10] + [JOKER]
        del deck[:10]
        self.rng.shuffle(bottom)
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        for i in range(6 * players):
            self.hands[i % players].append(deck.pop())
        self.stock: list[Card] = bottom + deck  # the top is the end
        self.center: list[Card] = [self.stock.pop()]
        self.fields: list[list[Card]] = [[] for _ in range(players)]
        self.chips = [0] * players
        self.opened: list[Card | None] = [None] * players  # first turn: secret choices
        self.first_turn_over = False
        self.current = 0
        self.over = False

    def legal_moves(self) -> list[Move]:
        moves: list[Move] = []
        if self.over:
            return moves
        if not self.first_turn_over:
            for p in range(self.players):
                if self.opened[p] is None:
                    for c in self.hands[p]:
                        moves.append(("open", p, c))
            return moves
        hand = self.hands[self.current]
        for c in hand:
            moves.append(("play_field", c))
        for c in hand:
            moves.append(("play_center", c))
        if self.chips[self.current] >= 1:
            for f in hand:
                for c in hand:
                    if f != c:
                        moves.append(("pay_and_play", f, c))
        return moves

    def score_everyone(self) -> None:
        center = self.center[-1]
        for p in range(self.players):
            self.chips[p] += chips_for(self.fields[p][-1], center)

    def apply(self, move: Move) -> None:
        kind = move[0]
        if kind == "open":
            self.opened[move[1]] = move[2]
            if None in self.opened:
                return
            for p in range(self.players):  # all chosen: reveal together
                card = self.opened[p]
                assert card is not None
                self.hands[p].remove(card)
                self.fields[p].append(card)
            self.score_everyone()
            lowest = min(self.chips)
            self.current = self.rng.choice([p for p in range(self.players)
                                            if self.chips[p] == lowest])
            self.first_turn_over = True
            return
        me = self.current
        hand = self.hands[me]
        if kind == "play_field":
            hand.remove(move[1])
            self.fields[me].append(move[1])
        elif kind == "play_center":
            hand.remove(move[1])
            self.center.append(move[1])
        elif kind == "pay_and_play":
            self.chips[me] -= 1
            hand.remove(move[1])
            self.fields[me].append(move[1])
            hand.remove(move[2])
            self.center.append(move[2])
        else:
            raise ValueError(f"unknown move {move!r}")
        self.score_everyone()
        while len(hand) < 5:  # refill; the joker ends the game at once
            if self.stock[-1] == JOKER:
                self.over = True
                return
            hand.append(self.stock.pop())
        self.current = (me + 1) % self.players

    def is_over(self) -> bool:
        return self.over

    def scores(self) -> list[int]:
        return list(self.chips)

    def results(self) -> list[str]:
        """'win', 'draw' (a shared first place) or 'loss' for each player."""
        best = max(self.chips)
        winners = self.chips.count(best)
        return [("win" if winners == 1 else "draw") if c == best else "loss"
                for c in self.chips]

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
    for players in (3, 4):
        chooser = random.Random(12345)
        total_moves = 0
        total_chips = 0
        start = time.perf_counter()
        for seed in range(games):
            game = Game(seed, players)
            total_moves += game.play_random(chooser)
            assert game.is_over()
            cards = (len(game.stock) + len(game.center) + sum(map(len, game.hands))
                     + sum(map(len, game.fields)))
            assert cards == 53, cards
            assert JOKER in game.stock and JOKER not in game.center
            total_chips += sum(game.chips)
        elapsed = time.perf_counter() - start
        print(
            f"interaction {players}p: {games} games in {elapsed:.3f}s = "
            f"{games / elapsed:.1f} games/s, avg moves {total_moves / games:.1f}, "
            f"avg chips per player {total_chips / games / players:.2f}"
        )


if __name__ == "__main__":
    _self_check()
