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


def depth_first(game: Game, start: State, bounds: Bounds = Bounds(),
                key: KeyFn | None = None) -> Result:
    """Depth first: the most promising child first, one path in memory."""
    t0 = time.perf_counter()
    keyf: KeyFn = key or game.position_key
    limit = game.limit or 0

    def left(state: State) -> int:
        return limit - game.moves_played(state) if limit else NO_LIMIT

    if game.is_terminal(start):
        verdict = SOLVED if won(game, start) else UNSOLVABLE
        return Result(verdict, seconds=time.perf_counter() - t0)

    table: dict[Hashable, int] = {keyf(start): left(start)}
    # the path: each frame is (the children still to try, the move that led here)
    path: list[tuple[list[tuple[Move, State]], Move | None]] = []
    nodes = 1
    deadline = t0 + bounds.seconds
    stopped = ""
    children = _children(game, start)
    path.append((children, None))
    while path:
        todo = path[-1][0]
        if not todo:
            path.pop()
            continue
        move, child = todo.pop()
        if game.is_terminal(child):
            if won(game, child):
                moves = tuple(m for _, m in path[1:] if m is not None) + (move,)
                return Result(SOLVED, moves, nodes, time.perf_counter() - t0,
                              entries=len(table))
            continue
        k = keyf(child)
        rest = left(child)
        seen = table.get(k)
        if seen is not None and seen >= rest:
            continue  # entered already (on the path, or explored) with as many moves left
        if nodes >= bounds.nodes:
            stopped = "nodes"
        elif len(table) >= bounds.entries:
            stopped = "entries"
        elif not nodes & 255 and time.perf_counter() > deadline:
            stopped = "seconds"
        if stopped:
            return Result(UNDECIDED, (), nodes, time.perf_counter() - t0, stopped,
                          len(table))
        table[k] = rest
        nodes += 1
        path.append((_children(game, child), move))
    return Result(UNSOLVABLE, (), nodes, time.perf_counter() - t0, entries=len(table))


def best_first(game: Game, start: State, bounds: Bounds = Bounds(),
               key: KeyFn | None = None) -> Result:
    """The same search in best-first order: the open position with the highest score,
    then the most legal moves, then the fewest moves played, is expanded next. The same
    table and the same proof of `unsolvable` (every position entered was expanded)."""
    t0 = time.perf_counter()
    keyf: KeyFn = key or game.position_key
    limit = game.limit or 0

    def left(state: State) -> int:
        return limit - game.moves_played(state) if limit else NO_LIMIT

    if game.is_terminal(start):
        verdict = SOLVED if won(game, start) else UNSOLVABLE
        return Result(verdict, seconds=time.perf_counter() - t0)
    table: dict[Hashable, int] = {keyf(start): left(start)}
    # (priority, tie, state, the path to it as a linked list (move, rest) or None)
    heap: list[tuple[tuple[int, int, int], int, State, Any]] = [((0, 0, 0), 0, start, None)]
    tie = 1
    nodes = 1
    deadline = t0 + bounds.seconds
    while heap:
        _, _, state, trail = heapq.heappop(heap)
        for rank, mobility, move, child in _scored(game, state):
            if game.is_terminal(child):
                if won(game, child):
                    moves: list[Move] = [move]
                    while trail is not None:
                        moves.append(trail[0])
                        trail = trail[1]
                    return Result(SOLVED, tuple(reversed(moves)), nodes,
                                  time.perf_counter() - t0, entries=len(table))
                continue
            k = keyf(child)
            rest = left(child)
            seen = table.get(k)
            if seen is not None and seen >= rest:
                continue
            stopped = ""
            if nodes >= bounds.nodes:
                stopped = "nodes"
            elif len(table) >= bounds.entries:
                stopped = "entries"
            elif not nodes & 255 and time.perf_counter() > deadline:
                stopped = "seconds"
            if stopped:
                return Result(UNDECIDED, (), nodes, time.perf_counter() - t0, stopped,
                              len(table))
            table[k] = rest
            nodes += 1
            heapq.heappush(heap, ((-rank, -mobility, game.moves_played(child)), tie, child,
                                  (move, trail)))
            tie += 1
    return Result(UNSOLVABLE, (), nodes, time.perf_counter() - t0, entries=len(table))


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
