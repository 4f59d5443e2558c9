"""Search for a win from one state of a one-player game: best first or depth first.

The search walks the compiled game through the engine's search API (`SearchSpace`:
positions as slot tuples, a move's `step` apart from the `settle` that works out the
legal moves of the position reached, so a transposition is looked up before it is
settled). From a position where the game declares a legal move safe to play at once
(`auto move NAME when ...`), that move alone is tried.

Best first (the default) expands a novel open position first (see `best_first`), then
the one with the highest score, then the one with the most legal moves (mobility), then
the one with the fewest moves played: the order of best-first width search (BFWS), where
novelty comes before the heuristic. Depth first tries the children of a position in the
order of score and mobility (a move that wins at once first); ties keep the game's order.
The order mixed runs a depth-first probe beside best first, restarted with a new table on
the Luby schedule, each restart breaking its ties in another seeded order (see
`best_first`).

A transposition table remembers every position entered, under its key (the position key,
or its canonical form when a symmetry applies, see `symmetry.py`). A position is entered
at most once per search: the positions entered by a search that finds no win are closed
under moves (each one's children were all entered), so none of them reaches a win; that
is what makes `unsolvable` a proof. Positions on the current path are in the table too,
which is the cycle detection. A game with a move limit (`limit N moves`) ends a game
at move N whatever the position, so the table also records how many moves were left
when a position was entered and enters it again when it is reached with more moves left.

A `goal` (a test of a node) replaces the win: the search then looks for a position where
it holds, ended or not (the reachability of an `expect sometimes`); a position where the
game ends without it is a dead end. Give `auto=False` and no symmetry key with a goal:
both are claims about winning, not about any condition.

Bounds: `nodes` (positions entered), `seconds`, `entries` (the table's size); the first
one reached stops the search with the verdict `undecided` and says which.
"""

from __future__ import annotations

import heapq
import random
import time
from collections.abc import Callable, Hashable
from typing import Any

import attrs

from ..engine import Game, Move, Node, SearchSpace, Slots, State
from .symmetry import reads_move_count

SOLVED = "solved"
UNSOLVABLE = "unsolvable"
UNDECIDED = "undecided"

NO_LIMIT = 1 << 60  # the moves left in a game without a move limit
#: positions entered after which best-first width search stops computing novelty: the
#: positions entered later are ordered as the non-novel ones (score, mobility, moves)
NOVELTY_NODES = 50_000


@attrs.frozen
class Bounds:
    nodes: int = 500_000  # positions entered
    seconds: float = 60.0
    entries: int = 4_000_000  # transposition table entries
    # positions the depth-first probe of the order "mixed" may enter (in a table of its
    # own, freed when they are spent)
    # (the first probe's; the unit of the restarts' schedule)
    probe: int = 20_000
    # restarts of the probe when its positions are spent: restart k (1, 2, ...) starts
    # again from the deal with a table of its own, `probe_cap(probe, k)` positions, and
    # its ties among moves broken in another (seeded) order; 0 keeps one probe. The
    # default is no limit: the probe keeps half of the positions to the end.
    restarts: int = 1 << 30
    # seconds of this process's CPU time (`time.process_time`) instead of wall-clock
    # time: the same budget on a machine shared with other work
    cpu: bool = False


@attrs.frozen
class Result:
    verdict: str  # solved, unsolvable or undecided
    moves: tuple[Move, ...] = ()  # the solution, when solved
    nodes: int = 0  # positions entered
    seconds: float = 0.0
    stopped_by: str = ""  # undecided: "nodes", "seconds" or "entries"
    entries: int = 0  # positions in the table at the end
    # moves played in the playouts of the NRPA phase (`nrpa.py`), when it ran
    playout_moves: int = 0
    found_by: str = ""  # solved: "search" (the exact search) or "nrpa"

    def as_dict(self) -> dict[str, Any]:
        out = {"verdict": self.verdict, "moves": len(self.moves), "nodes": self.nodes,
               "seconds": round(self.seconds, 4), "stopped_by": self.stopped_by or None,
               "entries": self.entries}
        if self.playout_moves:
            out["playout_moves"] = self.playout_moves
        if self.found_by:
            out["found_by"] = self.found_by
        return out


KeyFn = Callable[[State], Hashable]
GoalFn = Callable[[Node], bool]  # a goal in place of the win: true at a node sought


def space_for(game: Game, key: KeyFn | None, auto: bool = True, relax: bool = False
              ) -> tuple[SearchSpace, Callable[[Slots], Hashable]]:
    """The fast search space and the key on its slots: a symmetry's arrays (see
    `symmetry.Canonical`) are sorted by the space itself; any other key function is
    called on a `State` (slower)."""
    arrays = getattr(key, "arrays", None)
    if key is None or key == game.position_key or arrays is not None:
        # identical cards (`symmetry.identical_cards`): the space writes them as classes
        space = SearchSpace(game, arrays or (), auto, relax, getattr(key, "classes", None))
        return space, space.key
    space = SearchSpace(game, (), auto, relax)
    fn = key
    return space, lambda slots: fn(State(slots))


def solve(game: Game, start: State, bounds: Bounds = Bounds(), key: KeyFn | None = None,
          order: str = "best", auto: bool = True, goal: GoalFn | None = None) -> Result:
    """Search for a sequence of moves from `start` that ends in a win for player 1:
    best first guided by score and novelty beside a depth-first probe (`order="mixed"`,
    which decides the most deals within a budget on Besieged Castle, and `cardgame
    solve`'s order), best first guided by score and novelty alone (`order="best"`, the
    default here, which the reachability of expectations uses), best first by score alone
    (`order="score"`), or depth first (`order="depth"`, which holds only the current path
    in memory).
    `auto=False` ignores the game's `auto move` declarations (no dominance)."""
    if order not in ("mixed", "best", "score", "depth"):
        raise ValueError(f"unknown search order {order!r}")
    if goal is None and game.limit and not reads_move_count(game):
        # First without the move limit: each position is entered once, whatever the moves
        # played before (with the limit, a position reached again with more moves left is
        # searched again: twice the positions on Besieged Castle's long proofs). Sound
        # because no rule reads the move counter: a complete search that finds no win
        # proves there is none with the limit either, unless the limit itself would make
        # some position a win (then `limit_win` stops it); a win within the limit is a win.
        r = _search(game, start, bounds, key, order, auto, relax=True)
        if r.verdict == SOLVED and len(r.moves) >= game.limit:
            # a depth-first win is long: cut its loops and detours first
            r = attrs.evolve(r, moves=shorten(game, start, r.moves))
        if r.stopped_by != "limit" and (r.verdict != SOLVED or len(r.moves) < game.limit):
            return r
        # a win too long for the limit, or a position the limit would win: search again
        # within the limit, in the time left
        left = attrs.evolve(bounds, seconds=max(0.0, bounds.seconds - r.seconds),
                            nodes=max(1, bounds.nodes - r.nodes))
        again = _search(game, start, left, key, order, auto)
        return attrs.evolve(again, nodes=again.nodes + r.nodes,
                            seconds=again.seconds + r.seconds)
    return _search(game, start, bounds, key, order, auto, goal=goal)


def _search(game: Game, start: State, bounds: Bounds, key: KeyFn | None, order: str,
            auto: bool, relax: bool = False, goal: GoalFn | None = None) -> Result:
    if order == "depth":
        return depth_first(game, start, bounds, key, auto, relax, goal=goal)
    return best_first(game, start, bounds, key, auto, novelty=order != "score", relax=relax,
                      goal=goal, probe=order == "mixed")


def shorten(game: Game, start: State, moves: tuple[Move, ...]) -> tuple[Move, ...]:
    """A solution with its loops and detours cut, for a game whose rules never read the
    number of moves played (`reads_move_count`): replay it, then from each position on
    the way take the legal move that reaches the latest position of the solution (the
    same position, move counter aside: an exact key, no symmetry), greedily, until a pass
    cuts nothing. Each move kept is legal where it is played and the last position is
    the solution's own, so the result is a solution."""
    space = SearchSpace(game, (), auto=False)
    key = space.key
    for _ in range(4):
        nodes = [space.node(start)]
        keys = [key(nodes[0][0])]
        for m in moves:
            slots = space.step(nodes[-1], m)
            keys.append(key(slots))
            nodes.append(space.settle(slots))
        latest = {k: i for i, k in enumerate(keys)}
        out: list[Move] = []
        i = latest[keys[0]]
        while i < len(moves):
            best, move = i + 1, moves[i]
            node = nodes[i]
            for m in node[1]:
                j = latest.get(key(space.step(node, m)), -1)
                if j > best:
                    best, move = j, m
            out.append(move)
            i = latest[keys[best]]
        if len(out) == len(moves):
            break
        moves = tuple(out)
    return moves


SEEN = "seen"  # Table.enter: the position was entered already with as many moves left
WIN = "win"  # Table.enter: the move ends the game in a win
OVER = "over"  # Table.enter: the move ends the game without a win


class Table:
    """What both search orders share: the clock, the key, the transposition table and the
    bounds. `enter` is the one place a position is admitted or a bound stops the search."""

    def __init__(self, game: Game, bounds: Bounds, key: KeyFn | None, auto: bool = True,
                 relax: bool = False, goal: GoalFn | None = None) -> None:
        self.game = game
        self.goal = goal
        self.bounds = bounds
        self.clock = time.process_time if bounds.cpu else time.perf_counter
        self.t0 = self.clock()
        self.deadline = self.t0 + bounds.seconds
        self.space, self.key = space_for(game, key, auto, relax)
        self.relax = relax and bool(game.limit)  # the move limit relaxed (see `solve`)
        self.limit = 0 if relax else game.limit or 0
        self.seen: dict[Hashable, int] = {}
        self.nodes = 1

    def start(self, state: State) -> Result | None:
        """The verdict when the search starts at the end of a game, else None (and the
        start position is entered)."""
        if self.goal is not None and self.goal(self.space.node(state)):
            return Result(SOLVED, seconds=self.clock() - self.t0)
        if self.game.is_terminal(state):
            verdict = SOLVED if self.goal is None and won(self.game, state) else UNSOLVABLE
            return Result(verdict, seconds=self.clock() - self.t0)
        slots = self.space.node(state)[0]
        self.seen[self.key(slots)] = self._left(slots)
        return None

    def _left(self, slots: Slots) -> int:
        return self.limit - self.space.moves_played(slots) if self.limit else NO_LIMIT

    def peek(self, slots: Slots) -> bool:
        """The position (the slots of a step, settled or not) was entered with as many
        moves left, so it need not be settled or searched again."""
        was = self.seen.get(self.key(slots))
        rest = self._left(slots)
        # at the move limit the game ends there, whatever it did before: settle it
        return was is not None and was >= rest and rest > 0

    def enter(self, slots: Slots, node: Node | None = None) -> tuple[str, Node | None]:
        """The slots a move reached (and their node, if settled already): ("", node) when
        the position is new (it is now in the table), (SEEN, None) when it was entered
        with as many moves left, (WIN or OVER, node) when the game ends there, else
        (the bound that stops the search, None).

        A position entered is never one where the game ends, and settling a position that
        goes on changes nothing in it: so the key of unsettled slots finds it, and most
        transpositions are never settled (which works out their legal moves)."""
        k = self.key(slots)
        rest = self._left(slots)
        was = self.seen.get(k)
        if was is not None and was >= rest and rest > 0:
            return SEEN, None
        if node is None:
            node = self.space.settle(slots)
        if self.goal is not None:
            if self.goal(node):
                return WIN, node
            if self.space.ended(node):
                return OVER, node
        elif self.space.ended(node):
            return (WIN if self.space.won(node) else OVER), node
        if was is not None and was >= rest:
            return SEEN, None
        if self.relax and self.space.limit_win(node[0]):
            return "limit", None  # the relaxed search would miss this win: not sound
        b = self.bounds
        if self.nodes >= b.nodes:
            return "nodes", None
        if len(self.seen) >= b.entries:
            return "entries", None
        if not self.nodes & 255 and self.clock() > self.deadline:
            return "seconds", None
        self.seen[k] = rest
        self.nodes += 1
        return "", node

    def result(self, verdict: str, moves: tuple[Move, ...] = (), stopped: str = "") -> Result:
        return Result(verdict, moves, self.nodes, self.clock() - self.t0, stopped,
                      len(self.seen))


def won(game: Game, state: State) -> bool:
    return game.results(state)[0] == "win"


def depth_first(game: Game, start: State, bounds: Bounds = Bounds(),
                key: KeyFn | None = None, auto: bool = True, relax: bool = False,
                goal: GoalFn | None = None) -> Result:
    """Depth first: the most promising child first, one path in memory."""
    t = Table(game, bounds, key, auto, relax, goal)
    done = t.start(start)
    if done is not None:
        return done
    space = t.space
    # the path: each frame is (the children still to try, the move that led here)
    path: list[tuple[list[tuple[Move, Node]], Move | None]] = [
        (_children(t, space.node(start)), None)]
    while path:
        todo = path[-1][0]
        if not todo:
            path.pop()
            continue
        move, child = todo.pop()
        entered, node = t.enter(child[0], child)
        if entered == WIN:
            moves = tuple(m for _, m in path[1:] if m is not None) + (move,)
            return t.result(SOLVED, moves)
        if entered in (SEEN, OVER):
            continue  # entered already (on the path, or explored) with as many moves left
        if entered:
            return t.result(UNDECIDED, stopped=entered)
        assert node is not None
        path.append((_children(t, node), move))
    return t.result(UNSOLVABLE)


def best_first(game: Game, start: State, bounds: Bounds = Bounds(),
               key: KeyFn | None = None, auto: bool = True, novelty: bool = False,
               relax: bool = False, goal: GoalFn | None = None, probe: bool = False
               ) -> Result:
    """The same search in best-first order. With `novelty` (the default order "best"), a
    novel open position is expanded first, then the highest score, then the most legal
    moves, then the fewest moves played; without it, the score comes first. A position is
    novel when one of its atoms (a card on the card or zone beneath it, a variable's
    value: `SearchSpace.atoms`) was in no position entered before with the same score
    and the same number of legal moves. This is the novelty of width-based planners
    (Lipovetzky and Geffner's best-first width search, where novelty is the first key and
    the partition by the heuristic's value refines it): it spreads the search over
    different arrangements of the cards instead of many variants of one. After
    NOVELTY_NODES positions the search stops computing novelty (a search that long is
    most often a proof, which enters the same positions in any order, a third faster
    without the atoms). The same table and the same proof of `unsolvable` (every
    position entered was expanded).

    With `probe` (the order "mixed"), a depth-first probe runs beside it from the start
    position, turn about, each getting half of the positions entered: it tries a move
    that raises the score first, then a move that puts no card into an empty zone, then
    the game's order (the order of Freecell Solver's `-to 0AB` on Beleaguered Castle: to
    the foundations, onto a card, to an empty column). The probe has a table of its own,
    bounded by `Bounds.probe` positions and freed when they are spent (sharing the best
    first table blocked its path with positions best first had entered). Either search
    that runs out on its own table proves `unsolvable` by the argument above, the probe
    only if it ran out before its bound. A deal that one of the two orders solves fast
    is solved at most about twice as slowly as by that order alone.

    With `Bounds.restarts`, a probe whose positions are spent starts again from the
    start position with a new table, `probe_cap(Bounds.probe, k)` positions for restart
    k (the Luby schedule), its ties broken in another seeded order: the run length of a
    depth-first search is heavy-tailed in the order of its ties (on Besieged Castle a
    deal that one order does not solve in 50,000 positions, another solves in 5,000), and
    restarts on the Luby schedule are within a constant factor of the best fixed cap.
    Each restart is a complete search of its own, so one that runs out before its cap
    is a proof too."""
    t = Table(game, bounds, key, auto, relax, goal)
    done = t.start(start)
    if done is not None:
        return done
    space = t.space
    # (priority, tie, node, the path to it as a linked list (move, rest) or None)
    heap: list[tuple[tuple[int, int, int, int], int, Node, Any]] = [
        ((0, 0, 0, 0), 0, space.node(start), None)]
    seen_atoms: dict[tuple[int, int], set[Hashable]] = {}
    atoms = space.atoms
    tie = 1
    lean = False  # past NOVELTY_NODES: novelty no longer computed
    push = heapq.heappush
    pop = heapq.heappop
    enter = t.enter
    step = space.step
    score = space.score
    played = space.moves_played
    moves = space.moves
    # the probe: its own table (bounded by `Bounds.probe` positions) and its path, frames
    # (node, trail, the children still to try as (slots, move), the most promising last)
    stack: list[tuple[Node, Any, list[tuple[Slots, Move]]]] = []
    tp: Table | None = None
    probed = 0  # positions entered by the probes
    restart = 0  # the probe's restarts so far (its tie order)
    heap_root = heap[0][2]

    def new_probe() -> Table:
        cap = probe_cap(bounds.probe, restart)
        tp = Table(game, attrs.evolve(bounds, nodes=cap), key, auto, relax, goal)
        tp.start(start)
        stack.append((heap_root, None, _probe_children(tp, heap_root, restart)))
        return tp

    if probe and bounds.probe > 0:
        tp = new_probe()
    while heap:
        if tp is not None and (probed + 1) * 2 <= t.nodes:
            if not stack:  # the probe's own complete search found no win: a proof
                return t.result(UNSOLVABLE)
            node, trail, todo = stack[-1]
            if not todo:
                stack.pop()
                continue
            slots, move = todo.pop()
            entered, child = tp.enter(slots)
            if entered == "":
                assert child is not None
                t.nodes += 1  # the positions entered by both
                probed += 1
                if t.nodes >= bounds.nodes:
                    return t.result(UNDECIDED, stopped="nodes")
                stack.append((child, (move, trail), _probe_children(tp, child, restart)))
            elif entered == WIN:
                found = _path(move, trail)
                if t.relax and len(found) >= game.limit:
                    # a depth-first win is long: the shortest within the probe's table
                    found = _shortest_within(tp, heap_root, found)
                return t.result(SOLVED, found)
            elif entered == "nodes":  # the probe's share is spent: its table is freed
                tp = None
                stack = []
                if restart < bounds.restarts:  # start again, in another tie order
                    restart += 1
                    tp = new_probe()
            elif entered not in (SEEN, OVER):
                return t.result(UNDECIDED, stopped=entered)
            continue
        _, _, node, trail = pop(heap)
        for move in moves(node):
            entered, child = enter(step(node, move))
            if entered == "":
                assert child is not None
                sc = score(child)
                mobility = len(child[1])
                if novelty and t.nodes - probed > NOVELTY_NODES:  # its own positions
                    # a long search is most likely a proof, which enters every position
                    # whatever the order: the atoms are no longer worth their cost
                    novelty = False
                    lean = True
                if lean:
                    pri = (1, -sc, -mobility, played(child[0]))
                elif novelty:
                    known = seen_atoms.get((sc, mobility))
                    if known is None:
                        known = seen_atoms[sc, mobility] = set()
                    before = len(known)
                    known.update(atoms(child[0]))  # novel: one atom was not known
                    pri = (0 if len(known) != before else 1, -sc, -mobility,
                           played(child[0]))
                else:
                    pri = (-sc, 0, -mobility, played(child[0]))
                push(heap, (pri, tie, child, (move, trail)))
                tie += 1
            elif entered == WIN:
                return t.result(SOLVED, _path(move, trail))
            elif entered not in (SEEN, OVER):
                return t.result(UNDECIDED, stopped=entered)
    return t.result(UNSOLVABLE)


def _shortest_within(t: Table, root: Node, found: tuple[Move, ...]) -> tuple[Move, ...]:
    """The shortest win from `root` through the positions of table `t` (a breadth-first
    search that enters only positions in it; a win found by a search with that table
    goes through them, so one is found), or `found` when the time bound runs out. Each
    move is a legal move of the position it is played in: a solution."""
    space = t.space
    key = t.key
    seen = t.seen
    visited = {key(root[0])}
    layer: list[tuple[Node, Any]] = [(root, None)]
    depth = 0
    while layer and depth < len(found):
        depth += 1
        if t.clock() > t.deadline:
            return found
        nxt: list[tuple[Node, Any]] = []
        for node, trail in layer:
            # every legal move, not only the auto move: from a position symmetric to
            # one the probe entered (the same canonical key) the first auto move may
            # be another card's, whose child the probe never entered
            for m in node[1]:
                slots = space.step(node, m)
                k = key(slots)
                if k in visited:
                    continue
                if k not in seen:
                    child = space.settle(slots)
                    if space.ended(child) and (space.won(child) if t.goal is None
                                               else t.goal(child)):
                        return _path(m, trail)
                    continue
                visited.add(k)
                child = space.settle(slots)
                if t.goal is not None and t.goal(child):
                    return _path(m, trail)
                nxt.append((child, (m, trail)))
        layer = nxt
    return found


def _path(move: Move, trail: Any) -> tuple[Move, ...]:
    """The moves from the start to `move`, from a linked list (move, rest) of the moves
    before it, the last first."""
    found: list[Move] = [move]
    while trail is not None:
        found.append(trail[0])
        trail = trail[1]
    return tuple(reversed(found))


def probe_cap(unit: int, restart: int) -> int:
    """The positions of the probe's restart `restart` (0 for the first probe): `unit`
    times the Luby sequence's term (1, 1, 2, 1, 1, 2, 4, 1, ...), the restart schedule
    that is within a constant factor of the best fixed cap for any heavy-tailed run
    length (Luby, Sinclair and Zuckerman 1993)."""
    i = restart + 1
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return unit << (k - 1)
        i -= (1 << (k - 1)) - 1


#: the tie orders of the probe's restarts: restart r > 0 ranks the i-th legal move of a
#: position by `_tie_order(r)[i]` (a permutation seeded with r), the first probe by the
#: game's order
_TIES: dict[int, list[int]] = {}


def _tie_order(restart: int) -> list[int]:
    order = _TIES.get(restart)
    if order is None:
        order = _TIES[restart] = random.Random(restart).sample(range(1024), 1024)
    return order


def _probe_children(t: Table, node: Node, restart: int = 0) -> list[tuple[Slots, Move]]:
    """The moves the depth-first probe tries from `node`, as the slots they reach (not
    settled) and the move, the first to try LAST: a higher score first, then a move that
    fills no empty zone, then the game's order (restart 0) or a seeded permutation of
    it (a restart: depth first is very sensitive to the order of its ties, and a
    restart in another order is a new draw of its run length). Positions entered
    already are left out."""
    space = t.space
    before = node[0]
    ties = _tie_order(restart) if restart else None
    ranked = []
    for i, m in enumerate(space.moves(node)):
        slots = space.step(node, m)
        if t.peek(slots):
            continue
        tie = -i if ties is None or i >= len(ties) else ties[i]
        ranked.append((space.score((slots, [])), not space.fills_empty(before, slots), tie,
                       slots, m))
    ranked.sort(key=lambda x: x[:3])
    return [(sl, m) for *_, sl, m in ranked]


def _children(t: Table, node: Node) -> list[tuple[Move, Node]]:
    """The moves to try from `node` and the nodes they reach, the most promising LAST
    (popped first): a win, then the highest score, then the most legal moves (mobility),
    then the game's order. Positions entered already are left out (unsettled)."""
    space = t.space
    scored = []
    for i, m in enumerate(space.moves(node)):
        slots = space.step(node, m)
        if t.peek(slots):
            continue
        child = space.settle(slots)
        hit = t.goal(child) if t.goal is not None else space.won(child)
        rank = (1 << 40) if hit else space.score(child)
        scored.append((rank, len(child[1]), -i, m, child))
    scored.sort(key=lambda x: x[:3])
    return [(m, c) for *_, m, c in scored]
