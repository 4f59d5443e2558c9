"""Depth-first search for a win from one state of a one-player game.

The search walks the compiled game through its public API only (`legal_moves`, `apply`,
`is_terminal`, `results`, `scores`, `position_key`). Children are tried best first by a
generic rule: a move that wins at once, then the moves that raise the player's score
most (the score after the move, read with `Game.scores`); ties keep the game's order.

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
    nodes: int = 1_000_000  # positions entered
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


def solve(game: Game, start: State, bounds: Bounds = Bounds(),
          key: KeyFn | None = None) -> Result:
    """Search for a sequence of moves from `start` that ends in a win for player 1."""
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


def _children(game: Game, state: State) -> list[tuple[Move, State]]:
    """The moves and the states they reach, the most promising LAST (popped first)."""
    scored = []
    for i, m in enumerate(game.legal_moves(state)):
        child = game.apply(state, m)
        if game.is_terminal(child) and won(game, child):
            rank = 1 << 40
        else:
            rank = game.scores(child)[0] if game.players else 0
        scored.append((rank, -i, m, child))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [(m, c) for _, _, m, c in scored]
