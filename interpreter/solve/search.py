"""Search for a win from one state of a one-player game: best first or depth first.

The search walks the compiled game through its public API only (`legal_moves`, `apply`,
`is_terminal`, `results`, `scores`, `position_key`). Children are tried best first by a
generic rule: a move that wins at once, then the moves that raise the player's score
most (the score after the move, read with `Game.scores`), then those that leave more
legal moves (mobility); remaining ties keep the game's order.

Best first expands the open position with the highest score (then the most legal moves,
then the fewest moves played); depth first tries the children in the order above.

A transposition table remembers every position entered, under its key (the position key,
or its canonical form when a symmetry applies, see `symmetry.py`). A position is entered
at most once per search: the positions entered by a search that finds no win are closed
under moves (each one's children were all entered), so none of them reaches a win; that
is what makes `unsolvable` a proof. Positions on the current path are in the table too,
which is the cycle detection. A game with a move limit (`limit N moves`) ends a game
at move N whatever the position, so the table also records how many moves were left
when a position was entered and enters it again when it is reached with more moves left.

Bounds: `nodes` (positions entered), `seconds`, `entries` (the table's size); the first
one reached stops the search with the verdict `undecided` and says which.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Hashable
from typing import Any

import attrs

from ..engine import Game, Move, State

SOLVED = "solved"
UNSOLVABLE = "unsolvable"
UNDECIDED = "undecided"

NO_LIMIT = 1 << 60  # the moves left in a game without a move limit


@attrs.frozen
class Bounds:
    nodes: int = 500_000  # positions entered
    seconds: float = 60.0
    entries: int = 4_000_000  # transposition table entries


@attrs.frozen
class Result:
    verdict: str  # solved, unsolvable or undecided
    moves: tuple[Move, ...] = ()  # the solution, when solved
    nodes: int = 0  # positions entered
    seconds: float = 0.0
    stopped_by: str = ""  # undecided: "nodes", "seconds" or "entries"
    entries: int = 0  # positions in the table at the end

    def as_dict(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "moves": len(self.moves), "nodes": self.nodes,
                "seconds": round(self.seconds, 4), "stopped_by": self.stopped_by or None,
                "entries": self.entries}


KeyFn = Callable[[State], Hashable]


def won(game: Game, state: State) -> bool:
    return game.results(state)[0] == "win"


def solve(game: Game, start: State, bounds: Bounds = Bounds(), key: KeyFn | None = None,
          order: str = "best") -> Result:
    """Search for a sequence of moves from `start` that ends in a win for player 1:
    best first (the default, which finds more wins within a budget on Besieged Castle)
    or depth first (`order="depth"`, which holds only the current path in memory)."""
    if order == "best":
        return best_first(game, start, bounds, key)
    if order == "depth":
        return depth_first(game, start, bounds, key)
    raise ValueError(f"unknown search order {order!r}")


SEEN = "seen"  # Table.enter: the position was entered already with as many moves left


class Table:
    """What both search orders share: the clock, the key, the transposition table and the
    bounds. `enter` is the one place a position is admitted or a bound stops the search."""

    def __init__(self, game: Game, bounds: Bounds, key: KeyFn | None) -> None:
        self.game = game
        self.bounds = bounds
        self.t0 = time.perf_counter()
        self.deadline = self.t0 + bounds.seconds
        self.key: KeyFn = key or game.position_key
        self.limit = game.limit or 0
        self.seen: dict[Hashable, int] = {}
        self.nodes = 1

    def left(self, state: State) -> int:
        return self.limit - self.game.moves_played(state) if self.limit else NO_LIMIT

    def start(self, state: State) -> Result | None:
        """The verdict when the search starts at the end of a game, else None (and the
        start position is entered)."""
        if self.game.is_terminal(state):
            verdict = SOLVED if won(self.game, state) else UNSOLVABLE
            return Result(verdict, seconds=time.perf_counter() - self.t0)
        self.seen[self.key(state)] = self.left(state)
        return None

    def enter(self, state: State) -> str:
        """"" when the position is new (it is now in the table), SEEN when it was entered
        with as many moves left, else the bound that stops the search."""
        k = self.key(state)
        rest = self.left(state)
        was = self.seen.get(k)
        if was is not None and was >= rest:
            return SEEN
        b = self.bounds
        if self.nodes >= b.nodes:
            return "nodes"
        if len(self.seen) >= b.entries:
            return "entries"
        if not self.nodes & 255 and time.perf_counter() > self.deadline:
            return "seconds"
        self.seen[k] = rest
        self.nodes += 1
        return ""

    def result(self, verdict: str, moves: tuple[Move, ...] = (), stopped: str = "") -> Result:
        return Result(verdict, moves, self.nodes, time.perf_counter() - self.t0, stopped,
                      len(self.seen))


def depth_first(game: Game, start: State, bounds: Bounds = Bounds(),
                key: KeyFn | None = None) -> Result:
    """Depth first: the most promising child first, one path in memory."""
    t = Table(game, bounds, key)
    done = t.start(start)
    if done is not None:
        return done
    # the path: each frame is (the children still to try, the move that led here)
    path: list[tuple[list[tuple[Move, State]], Move | None]] = [(_children(game, start), None)]
    while path:
        todo = path[-1][0]
        if not todo:
            path.pop()
            continue
        move, child = todo.pop()
        if game.is_terminal(child):
            if won(game, child):
                moves = tuple(m for _, m in path[1:] if m is not None) + (move,)
                return t.result(SOLVED, moves)
            continue
        entered = t.enter(child)
        if entered == SEEN:
            continue  # entered already (on the path, or explored) with as many moves left
        if entered:
            return t.result(UNDECIDED, stopped=entered)
        path.append((_children(game, child), move))
    return t.result(UNSOLVABLE)


def best_first(game: Game, start: State, bounds: Bounds = Bounds(),
               key: KeyFn | None = None) -> Result:
    """The same search in best-first order: the open position with the highest score,
    then the most legal moves, then the fewest moves played, is expanded next. The same
    table and the same proof of `unsolvable` (every position entered was expanded)."""
    t = Table(game, bounds, key)
    done = t.start(start)
    if done is not None:
        return done
    # (priority, tie, state, the path to it as a linked list (move, rest) or None)
    heap: list[tuple[tuple[int, int, int], int, State, Any]] = [((0, 0, 0), 0, start, None)]
    tie = 1
    while heap:
        _, _, state, trail = heapq.heappop(heap)
        for rank, mobility, move, child in _scored(game, state):
            if game.is_terminal(child):
                if won(game, child):
                    moves: list[Move] = [move]
                    while trail is not None:
                        moves.append(trail[0])
                        trail = trail[1]
                    return t.result(SOLVED, tuple(reversed(moves)))
                continue
            entered = t.enter(child)
            if entered == SEEN:
                continue
            if entered:
                return t.result(UNDECIDED, stopped=entered)
            heapq.heappush(heap, ((-rank, -mobility, game.moves_played(child)), tie, child,
                                  (move, trail)))
            tie += 1
    return t.result(UNSOLVABLE)


def _scored(game: Game, state: State) -> list[tuple[int, int, Move, State]]:
    out = []
    for m in game.legal_moves(state):
        child = game.apply(state, m)
        if game.is_terminal(child) and won(game, child):
            rank = 1 << 40
        else:
            rank = game.scores(child)[0] if game.players else 0
        out.append((rank, len(game.legal_moves(child)), m, child))
    return out


def _children(game: Game, state: State) -> list[tuple[Move, State]]:
    """The moves and the states they reach, the most promising LAST (popped first)."""
    scored = []
    for i, m in enumerate(game.legal_moves(state)):
        child = game.apply(state, m)
        if game.is_terminal(child) and won(game, child):
            rank = 1 << 40
        else:
            rank = game.scores(child)[0] if game.players else 0
        # then the child with more legal moves (known already: `apply` settles it)
        scored.append((rank, len(game.legal_moves(child)), -i, m, child))
    scored.sort(key=lambda t: t[:3])
    return [(m, c) for *_, m, c in scored]
