"""Nested rollout policy adaptation (NRPA): a search for a win by learned random playouts.

The exact search (`search.py`) proves; it finds a win only when its order leads there
within the budget. A game whose positions are many and whose score moves seldom (Chains:
45 draws, each drawn card to the work area or a slot, the score moving only when a run
closes) defeats it. NRPA (Rosin 2011, "Nested Rollout Policy Adaptation for Monte Carlo
Tree Search") plays whole games at random from a policy, a weight per *move code*, and
adapts the policy toward the best game found, nesting that at several levels; it holds
the records on Morpion Solitaire and finds wins of solitaires where a depth-first search
wanders. It proves nothing: its only verdicts are `solved` (a win found, replayed through
the checked engine before it is reported) and `undecided`.

Nothing here is written for one game. A move's code is what it does to the table, read
from the position before and after it (stepped through the search API): the move's name
and, for each zone that gained cards, the zone's declaration (the zones of an array are
one), the card now on top and the card beneath it, each written as its attributes (two
identical cards have one code). So "a 7 on a 6 in a slot" is one code wherever the slot
is, and the policy learns which cards go well on which. A playout's value is, in order:
won, the game's score (`score = ...`), then the moves played (a longer game of a
one-player patience game has played more cards; a tie-break only). A playout never
returns to a position it went through (a move back is drawn again without it; when every
move goes back, the playout ends there): a game with reversible moves would otherwise go
round in circles up to its move limit. (When the first 20 playouts never came back to a
position, the check is dropped for speed: it costs a sixth of a Chains playout.)

Level `level` runs `iterations` searches of level - 1, each from the policy adapted so far
toward the best sequence found at that level; level 0 is one playout. When the top level
ends without a win and time is left, it starts again from a uniform policy, with the
random generator going on (a restart). Seeded: the same seed gives the same playouts, so
the same win for a budget in positions (`max_playouts`); a time budget stops wherever the
clock says.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable
from itertools import compress
from operator import is_not
from typing import Any

from ..engine import Game, Move, Node, SearchSpace, Slots, State
from .search import SOLVED, UNDECIDED, Result

#: a playout stops after this many moves even if the game goes on (a game with cycles and
#: no move limit could otherwise play forever); its value is that of the position reached
MAX_PLAYOUT = 5_000
#: playouts that check for a return to a position before the check is dropped, if none
#: of them came back to one
CHECK_PLAYOUTS = 20


class _Stop(Exception):
    """The budget ran out during a playout."""


Seq = list[tuple[list[Hashable], int]]  # each choice: the codes of the moves, the one chosen


class Nrpa:
    def __init__(self, game: Game, start: State, seconds: float, *, seed: int = 1,
                 level: int = 3, iterations: int = 30, cpu: bool = False,
                 max_playouts: int | None = None, auto: bool = True) -> None:
        self.game = game
        self.start = start
        self.space = SearchSpace(game, (), auto)
        self.root: Node = self.space.node(start)
        self.rng = random.Random(seed)
        self.level = level
        self.iterations = iterations
        self.clock = time.process_time if cpu else time.perf_counter
        self.t0 = self.clock()
        self.deadline = self.t0 + seconds
        self.max_playouts = max_playouts
        self.playouts = 0
        self.steps = 0
        self.repeats = 0  # moves drawn that went back to a position of their playout
        cards = game.checked.cards
        first: dict[Hashable, int] = {}
        # each card id -> the first id with the same attributes
        self.cls = [first.setdefault((c.rank, c.suit, c.joker, tuple(sorted(c.extra.items()))),
                                     c.id) for c in cards]
        # each zone's declaration (an array's zones are one), in the order of
        # `Game.zone_contents`
        decl = {z.name: z.decl for z in game.zones}
        names = sorted(set(decl.values()))
        self.decls = [names.index(decl[n]) for n in game.zone_contents(start)]
        self._contents = game.zone_contents
        self.best: tuple[Any, ...] | None = None  # value of the best playout of all
        self.win: tuple[Move, ...] | None = None

    # ------------------------------------------------------------------ codes
    def _code(self, before: list[tuple[int, ...]], after: Slots, move: Move) -> Hashable:
        """The code of `move`, from the zones' contents before it and the slots after."""
        cls = self.cls
        now = list(self._contents(State(after)).values())
        # the zones the move changed (few: filtered by identity, in C), then those it grew
        changed = compress(zip(self.decls, now, before, strict=True), map(is_not, now, before))
        return (move[1], *((d, cls[a[-1]], cls[a[-2]] if len(a) > 1 else -1)
                           for d, a, b in changed if len(a) > len(b)))

    # ------------------------------------------------------------------ playouts
    def playout(self, policy: dict[Hashable, float]) -> tuple[tuple[Any, ...], list[Move], Seq]:
        """One game from the start, each move drawn with probability proportional to
        exp(its code's weight): its value, its moves and the choices made."""
        if self.max_playouts is not None and self.playouts >= self.max_playouts:
            raise _Stop
        if self.clock() > self.deadline:
            raise _Stop
        self.playouts += 1
        space = self.space
        node = self.root
        moves: list[Move] = []
        seq: Seq = []
        rng = self.rng.random
        exp = math.exp
        get = policy.get
        # the positions of this playout (it never comes back to one), by their keys
        key = space.key
        seen = {key(node[0])}
        # a game whose first playouts never came back to a position is taken to have
        # none: the check costs a sixth of a playout's time
        check = self.playouts <= CHECK_PLAYOUTS or self.repeats > 0
        contents = self._contents
        while not space.ended(node) and len(moves) < MAX_PLAYOUT:
            ms = list(space.moves(node))
            kids = [space.step(node, m) for m in ms]
            if len(ms) > 1:
                before = list(contents(State(node[0])).values())
                codes = [self._code(before, k, m) for k, m in zip(kids, ms, strict=True)]
                ws = [exp(get(c, 0.0)) for c in codes]
            else:  # a forced move: no code needed
                codes, ws = [()], [1.0]
            while ms:
                if len(ms) == 1:
                    i = 0
                else:
                    u = rng() * sum(ws)
                    i = 0
                    last = len(ws) - 1
                    while i < last and u >= ws[i]:
                        u -= ws[i]
                        i += 1
                if not check:
                    break
                k = key(kids[i])
                if k not in seen:
                    seen.add(k)
                    break
                # a move back to a position of this playout: drawn again without it
                self.repeats += 1
                del ms[i], kids[i], codes[i], ws[i]
            if not ms:
                break  # every move goes back: the playout ends here
            if len(ms) > 1:
                seq.append((codes, i))  # a forced move teaches nothing
            m = ms[i]
            node = space.settle(kids[i])
            moves.append(m)
        self.steps += len(moves)
        won = space.won(node)
        value = (won, space.score(node) if space.ended(node) else _score(space, node),
                 len(moves))
        if won and self.win is None:
            self.win = tuple(moves)
        if self.best is None or value > self.best:
            self.best = value
        return value, moves, seq

    def adapt(self, policy: dict[Hashable, float], seq: Seq, alpha: float = 1.0
              ) -> dict[Hashable, float]:
        """The policy moved toward the choices of `seq` (NRPA's gradient step)."""
        new = dict(policy)
        exp = math.exp
        get = policy.get
        for codes, i in seq:
            ws = [exp(get(c, 0.0)) for c in codes]
            z = sum(ws)
            for c, w in zip(codes, ws, strict=True):
                new[c] = new.get(c, 0.0) - alpha * w / z
            new[codes[i]] = new.get(codes[i], 0.0) + alpha
        return new

    def nested(self, level: int, policy: dict[Hashable, float]
               ) -> tuple[tuple[Any, ...], list[Move], Seq]:
        if level == 0:
            return self.playout(policy)
        best: tuple[tuple[Any, ...], list[Move], Seq] | None = None
        for _ in range(self.iterations):
            found = self.nested(level - 1, policy)
            if best is None or found[0] >= best[0]:
                best = found
            if self.win is not None:
                return best
            policy = self.adapt(policy, best[2])
        assert best is not None
        return best

    def run(self) -> Result:
        try:
            while self.win is None:
                self.nested(self.level, {})
        except _Stop:
            pass
        seconds = self.clock() - self.t0
        if self.win is None:
            stopped = "playouts" if (self.max_playouts is not None
                                     and self.playouts >= self.max_playouts) else "seconds"
            return Result(UNDECIDED, (), self.steps, seconds, stopped)
        check_win(self.game, self.start, self.win)
        return Result(SOLVED, self.win, self.steps, seconds)


def _score(space: SearchSpace, node: Node) -> int:
    try:
        return space.score(node)
    except Exception:  # a score that reads something only an ended game has
        return -(1 << 30)


def check_win(game: Game, start: State, moves: tuple[Move, ...]) -> None:
    """Replay `moves` from `start` through the checked engine (`Game.apply` checks each
    move's legality) and raise unless the game ends in a win for player 1."""
    state = start
    for m in moves:
        state = game.apply(state, m)
    if not (game.is_terminal(state) and game.results(state)[0] == "win"):
        raise AssertionError("a rollout win that does not replay to a win")


def nrpa(game: Game, start: State, seconds: float, *, seed: int = 1, level: int = 3,
         iterations: int = 30, cpu: bool = False, max_playouts: int | None = None,
         auto: bool = True) -> Result:
    """Look for a win from `start` by NRPA (see the module doc) for at most `seconds`
    (CPU seconds with `cpu`) or `max_playouts` playouts: `solved` with the moves of a win
    (replayed through the checked engine first), else `undecided`. The result's `nodes`
    counts the moves played in all playouts."""
    return Nrpa(game, start, seconds, seed=seed, level=level, iterations=iterations,
                cpu=cpu, max_playouts=max_playouts, auto=auto).run()
