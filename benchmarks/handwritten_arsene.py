"""Hand-written Python implementation of "Arsène", new edition (3 or 4 players).

Baseline for the speed benchmark: plain lists and tuples, no engine. Rules:
/work/shared/rules/arsene.md and games/arsene.cardgame (the settled interpretations:
the order of robbing, the deal that does not count, `max_deals`).

Model: cards are (rank, suit), rank 1..13 (A = 1, highest in tricks), suit 0..3 in the
order spades, hearts, diamonds, clubs. Players are seats 0..n-1, clockwise; the player
to the left of p is (p + 1) % n. With 3 players a dummy takes a secret trick each deal.
`advanced` is the contest mode; the game also ends after `max_deals` deals.

Moves (tuples):
    ("lay_trump", c)     the taker lays non-court diamond c face up: diamonds are trumps
    ("show", c)          the taker (without one) shows c: no trumps
    ("give_dummy", p, c) 3 players, simultaneous: player p gives c to the dummy's trick
    ("play", c)          the player to move plays c to the trick
    ("keep",)            the trick's winner takes it
    ("push",)            the trick's winner pushes it to the one eligible receiver
"""

from __future__ import annotations

import random
import time

Move = tuple
Card = tuple[int, int]

DIAMONDS = 2
STORE_GROUPS = [[1, 1, 1], [1, 2, 3], [1, 3, 5], [1, 2, 3], [1, 1, 1]]


def power(card: Card) -> int:
    return 14 if card[0] == 1 else card[0]


def non_court_diamond(card: Card) -> bool:
    return card[1] == DIAMONDS and 6 <= card[0] <= 10


class Game:
    def __init__(self, seed: int, players: int = 4, advanced: bool = False,
                 max_deals: int = 200) -> None:
        if players not in (3, 4):
            raise ValueError("Arsène is for 3 or 4 players")
        self.rng = random.Random(seed)
        self.players = players
        self.advanced = advanced
        self.max_deals = max_deals
        self.has_dummy = players == 3
        self.tricks_per_deal = 10 if self.has_dummy else 11
        # The diamond A..5 are the stores; with 3 players diamond 6, 7 and the 2, 3, 4 of
        # the other suits leave the game. The rest (47 or 36 cards) go round each deal.
        self.cards: list[Card] = []
        for suit in range(4):
            for rank in range(1, 14):
                if suit == DIAMONDS and rank <= 5:
                    continue
                if self.has_dummy and (rank in (6, 7) if suit == DIAMONDS else rank in (2, 3, 4)):
                    continue
                self.cards.append((rank, suit))
        self.store: list[list[int]] = [list(groups) for groups in STORE_GROUPS]
        self.chips = [0] * players
        self.tokens = [0] * players
        self.exempt = [False] * players
        self.supply = 8
        self.confiscated = 0
        self.store_has_emptied = False
        self.deals = 0
        self.dealer = self.rng.randrange(players)
        self.over = False
        self.new_deal()

    # ------------------------------------------------------------------ a deal
    def new_deal(self) -> None:
        n = self.players
        self.deals += 1
        self.contest = self.advanced and self.store_has_emptied
        self.tricks = [0] * n
        self.taken: list[list[Card]] = [[] for _ in range(n)]
        self.dummy: list[Card] = []
        self.dummy_tricks = 0
        self.trumps = False
        self.trump_card: Card | None = None
        self.shown: Card | None = None
        self.trick: list[Card] = []
        self.tricks_played = 0
        deck = list(self.cards)
        self.rng.shuffle(deck)
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        for i in range(11 * n):
            self.hands[(self.dealer + 1 + i) % n].append(deck.pop())
        self.widow = deck
        # The player left of the dealer takes one widow card, blind, and chooses trumps.
        self.taker = (self.dealer + 1) % n
        self.hands[self.taker].append(self.widow.pop(self.rng.randrange(len(self.widow))))
        self.phase = "trump"
        self.to_play = self.taker
        self.given: list[Card | None] = [None] * n

    # ------------------------------------------------------------------ moves
    def legal_moves(self) -> list[Move]:
        moves: list[Move] = []
        phase = self.phase
        if self.over:
            return moves
        if phase == "play":
            hand = self.hands[self.to_play]
            if not self.trick:
                for c in hand:
                    moves.append(("play", c))
                return moves
            led = self.trick[0][1]
            can_follow = False
            for c in hand:
                if c[1] == led:
                    can_follow = True
                    break
            for c in hand:
                if c[1] == led or not can_follow:
                    moves.append(("play", c))
            return moves
        if phase == "push":
            return [("keep",), ("push",)]
        if phase == "trump":
            hand = self.hands[self.taker]
            for c in hand:
                if non_court_diamond(c):
                    moves.append(("lay_trump", c))
            if not moves:
                for c in hand:
                    moves.append(("show", c))
            return moves
        if phase == "dummy":
            for p in range(self.players):
                if self.given[p] is None:
                    for c in self.hands[p]:
                        moves.append(("give_dummy", p, c))
            return moves
        raise AssertionError(phase)

    def apply(self, move: Move) -> None:
        kind = move[0]
        if kind == "play":
            self.hands[self.to_play].remove(move[1])
            self.trick.append(move[1])
            if len(self.trick) < self.players:
                self.to_play = (self.to_play + 1) % self.players
            else:
                self.end_trick()
        elif kind == "keep":
            self.take_trick(self.to_play)
            self.after_trick()
        elif kind == "push":
            self.push(self.to_play)
            self.after_trick()
        elif kind == "lay_trump" or kind == "show":
            self.hands[self.taker].remove(move[1])
            if kind == "lay_trump":
                self.trump_card = move[1]
                self.trumps = True
            else:
                self.shown = move[1]
            if self.has_dummy:
                self.phase = "dummy"
            else:
                self.start_tricks()
        elif kind == "give_dummy":
            self.given[move[1]] = move[2]
            if None in self.given:
                return
            for p in range(self.players):  # all chosen: one trick for the dummy
                card = self.given[p]
                assert card is not None
                self.hands[p].remove(card)
                self.dummy.append(card)
            self.dummy_tricks = 1
            self.start_tricks()
        else:
            raise ValueError(f"unknown move {move!r}")

    # ------------------------------------------------------------------ tricks
    def start_tricks(self) -> None:
        self.phase = "play"
        self.leader = (self.dealer + 1) % self.players
        self.to_play = self.leader

    def strength(self, card: Card, led: int) -> int:
        if self.trumps and card[1] == DIAMONDS:
            return 100 + power(card)
        if card[1] == led:
            return 50 + power(card)
        return 0

    def end_trick(self) -> None:
        led = self.trick[0][1]
        best = 0
        winner = self.leader
        for i, card in enumerate(self.trick):
            s = self.strength(card, led)
            if s > best:
                best = s
                winner = (self.leader + i) % self.players
        if self.dummy_can_take(winner) or self.receiver(winner) is not None:
            self.phase = "push"
            self.to_play = winner
        else:
            self.take_trick(winner)
            self.after_trick()

    def dummy_can_take(self, w: int) -> bool:
        return self.has_dummy and self.dummy_tricks == self.tricks[w] and self.tricks[w] > 0

    def receiver(self, w: int) -> int | None:
        """The first player clockwise from w with as many tricks as w (not 0)."""
        if self.tricks[w] == 0:
            return None
        for i in range(1, self.players):
            q = (w + i) % self.players
            if self.tricks[q] == self.tricks[w]:
                return q
        return None

    def take_trick(self, p: int) -> None:
        self.taken[p].extend(self.trick)
        self.trick = []
        self.tricks[p] += 1
        self.leader = p

    def push(self, w: int) -> None:
        if self.dummy_can_take(w):
            self.dummy.extend(self.trick)
            self.trick = []
            self.dummy_tricks += 1
            self.leader = (w + 1) % self.players
        else:
            r = self.receiver(w)
            assert r is not None
            self.take_trick(r)

    def after_trick(self) -> None:
        self.tricks_played += 1
        if self.tricks_played < self.tricks_per_deal:
            self.phase = "play"
            self.to_play = self.leader
            return
        self.rob_stores()
        if any(self.lost) or all(not s for s in self.store) or self.deals >= self.max_deals:
            self.over = True
            return
        self.dealer = (self.dealer + 1) % self.players
        self.new_deal()

    # ------------------------------------------------------------------ robbing
    def batting_with(self, p: int, t: int) -> bool:
        for q in range(self.players):
            if q != p and self.tricks[q] == t:
                return True
        return self.has_dummy and self.dummy_tricks == t

    def rob_stores(self) -> None:
        n = self.players
        tricks = self.tricks
        # 1. The police: a count naming an empty store is caught.
        self.caught = [1 <= tricks[p] <= 5 and not self.store[tricks[p] - 1] for p in range(n)]
        self.lost = [False] * n
        # Every player would lose their chips: the deal does not count (nothing changed yet).
        if all(self.caught[p] and self.tokens[p] < 2 for p in range(n)):
            return
        # 2. The others rob alone, or bat (a token; in contest mode, an exchange).
        for p in range(n):
            t = tricks[p]
            if self.caught[p] or not 1 <= t <= 5:
                continue
            if not self.batting_with(p, t):
                self.chips[p] += self.store[t - 1].pop(0)
            elif (not self.contest and not self.exempt[p] and self.tokens[p] < 2
                  and self.supply > 0):
                self.tokens[p] += 1
                self.supply -= 1
        if self.contest:
            for t in range(6):
                group = [p for p in range(n) if not self.caught[p] and tricks[p] == t]
                if len(group) >= 2:
                    # each passes their chips to the next of the group clockwise
                    held = [self.chips[p] for p in group]
                    for i in range(len(group)):
                        self.chips[group[(i + 1) % len(group)]] = held[i]
        # 3. The caught escape with two tokens (once a game), or lose all their chips.
        for p in range(n):
            if self.caught[p]:
                if self.tokens[p] == 2:
                    self.tokens[p] = 0
                    self.supply += 2
                    self.exempt[p] = True
                else:
                    self.confiscated += self.chips[p]
                    self.chips[p] = 0
                    self.lost[p] = True
        if any(not s for s in self.store):
            self.store_has_emptied = True

    # ------------------------------------------------------------------ the end
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


def _self_check(games: int = 100) -> None:
    for players, advanced in ((4, False), (4, True), (3, False), (3, True)):
        chooser = random.Random(12345)
        total_moves = 0
        total_deals = 0
        start = time.perf_counter()
        for seed in range(games):
            game = Game(seed, players, advanced)
            total_moves += game.play_random(chooser)
            assert game.is_over()
            stores = sum(sum(s) for s in game.store)
            assert stores + sum(game.chips) + game.confiscated == 27
            assert game.supply + sum(game.tokens) == 8 and max(game.tokens) <= 2
            total_deals += game.deals
        elapsed = time.perf_counter() - start
        print(
            f"arsene {players}p{' advanced' if advanced else ''}: {games} games in "
            f"{elapsed:.3f}s = {games / elapsed:.1f} games/s, avg moves "
            f"{total_moves / games:.1f}, avg deals {total_deals / games:.2f}"
        )


if __name__ == "__main__":
    _self_check()
