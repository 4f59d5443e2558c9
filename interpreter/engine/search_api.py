"""A fast path for search: positions as bare slot tuples, stepped and settled apart.

`Game`'s immutable API checks each move's legality, builds a `State` per move, works out
the legal moves of every state it returns and, for a canonical key under symmetry, builds
a `Position`. A solver pays for all of that on every child of every position, though most
children are transpositions it has entered already. `SearchSpace` runs the same
generated code as `Game.apply` (a move's effect and the flow after it, then the limit,
end conditions and legal moves) but in two halves: `step` gives the child's slots, and
`settle`, called only for the children the search keeps, its end and legal moves. Keys
are built from the slots directly. Moves must be legal moves of the node they are
played in: they are not checked again.

Only the engine knows the slot layout, so this lives here; the solver treats slots as
opaque values and asks this class about them.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from ..codegen import ENDED, MOVES, PC, PENDING, WHO, GameOver
from ..errors import CardgameError, RuleError
from .game import Game
from .state import Move, State

Slots = tuple[Any, ...]
# A node of the search: a settled position's slots and its legal moves (none: it is over).
Node = tuple[Slots, list[Move]]


class SearchSpace:
    """The positions of `game` as slot tuples. `interchangeable` names zone arrays whose
    zones the rules cannot tell apart (the solver proves that): `key` sorts their contents,
    so positions that differ only by a permutation of those zones share a key. `auto`:
    follow the game's `auto move` declarations (`moves`), else ignore them. `relax_limit`:
    the move limit (`limit N moves`) ends no game (`settle` works out the position as if
    fewer moves were played), for a search that knows the rules never read the move
    counter otherwise; `limit_win` says whether the limit would make a position a win."""

    def __init__(self, game: Game, interchangeable: Sequence[str] = (),
                 auto: bool = True, relax_limit: bool = False,
                 classes: Sequence[int] | None = None) -> None:
        self.game = game
        # identical cards (the solver proves them so): card id -> the first id of its
        # class; `key` writes every card in a zone as its class before sorting
        self._classes = tuple(classes) if classes is not None else None
        self._step = game._step
        ns = game.ns
        self._eff = ns["EFF"]
        self._succ = ns["SUCC"]
        self._const_who = ns["CONST_WHO"]
        self._run = ns["run"]
        self._settle = game._settle
        self._sim = game._sim
        self._score = game._score
        self.limit = game.limit if relax_limit else 0  # the limit relaxed, 0: none
        # `result won when COND`: a game the limit ends is won when COND holds
        res = game.checked.result
        self._won_cond = game._won if res is not None and res.kind == "won" else None
        # `auto move NAME when ...`: move index -> its condition (generated)
        self._auto: dict[int, Any] = dict(game.ns.get("AUTO", {})) if auto else {}
        self._auto_rule = {i: f"auto move {game.move_names[i]}" for i in self._auto}
        self.groups = [sorted(game.zone_slot(n) for n in game.zone_names(a))
                       for a in interchangeable]
        self._zones = list(game._zone_slots)
        self._same_zone = {z: ("array", g[0]) for g in self.groups for z in g}
        # the game's variables: every slot after the engine's own that is not a zone
        self._vars = [i for i in range(WHO + 1, game.gen.nslots) if i not in set(self._zones)]
        # atoms: what a zone's bottom card lies on, a negative code (card ids are >= 0)
        self._atom_zones = [(z, -1 - self._same_zone.get(z, ("", z))[1]) for z in self._zones]
        runs = sorted((g[0], g[-1] + 1) for g in self.groups)
        # each array's zones in consecutive slots after the move counter: sort by slices
        self._runs = runs if all(
            g == list(range(g[0], g[-1] + 1)) and g[0] > MOVES for g in self.groups) else None

    def node(self, state: State) -> Node:
        return state.slots, list(self.game.legal_moves(state))

    @staticmethod
    def state(node: Node) -> State:
        return State(node[0], list(node[1]))

    def step(self, node: Node, move: Move) -> Slots:
        """The slots a legal move of `node` reaches, not settled: its end conditions and
        legal moves are not worked out yet (`settle` does that), so a search can look the
        position up in its table first and settle only the new ones."""
        s = list(node[0])
        pc = s[PC]
        if pc in self._sim:
            self._step(s, move)
            return tuple(s)
        # the generated step (as in `step_settle`) without the settling and without the
        # wrapper that names a failing rule: on a failure, play the move again through
        # the engine's checked path, which raises the error as `Game.apply` would
        s[MOVES] += 1
        try:
            self._eff[move[1]](s, move)
        except GameOver:
            return tuple(s)
        except Exception:
            s = list(node[0])
            self._step(s, move)
            return tuple(s)  # pragma: no cover - the checked path raised
        pc = self._succ[pc]
        w = self._const_who.get(pc)
        if w is None:
            try:
                self._run(s, pc)
            except Exception:
                s = list(node[0])
                self._step(s, move)
                return tuple(s)  # pragma: no cover - the checked path raised
        else:
            s[PC] = pc
            s[WHO] = w
        return tuple(s)

    def settle(self, slots: Slots) -> Node:
        """The node of slots from `step`: the limit and end conditions applied, and its
        legal moves (with `relax_limit`, the limit is not applied)."""
        s = list(slots)
        if self.limit and s[MOVES] >= self.limit:
            s[MOVES] = 0  # as if the limit were still far: nothing else reads the counter
            legal = self._settle(s)
            if s[ENDED] is None:
                return slots, legal
            s[MOVES] = slots[MOVES]
            return tuple(s), legal
        legal = self._settle(s)
        # settling writes only why the game ended: keep the tuple when it goes on
        return (slots if s[ENDED] is None else tuple(s)), legal

    def limit_win(self, slots: Slots) -> bool:
        """Player 1 would win if the move limit ended the game at these (settled, going
        on) slots: then a search that relaxes the limit misses a win."""
        s = list(slots)
        s[ENDED] = self.game.limit_reason
        if self._won_cond is not None:
            return bool(self._won_cond(s, 1))
        return self.won((tuple(s), []))

    @property
    def has_auto(self) -> bool:
        return bool(self._auto)

    def auto_move(self, node: Node) -> Move | None:
        """The first legal move of `node` that the game declares safe to play at once
        (`auto move NAME when ...` and its condition holds), or None."""
        auto = self._auto
        if not auto:
            return None
        s = node[0]
        m: Move = ()
        try:
            for m in node[1]:
                f = auto.get(m[1])
                if f is not None and f(s, m):
                    return m
        except CardgameError:
            raise
        except Exception as e:
            raise RuleError(f"{type(e).__name__}: {e}", rule=self._auto_rule[m[1]]) from None
        return None

    def moves(self, node: Node) -> list[Move]:
        """The moves a search needs to try from `node`: a move declared safe to play at
        once alone, else every legal move."""
        if self._auto:
            m = self.auto_move(node)
            if m is not None:
                return [m]
        return node[1]

    def children(self, node: Node) -> list[tuple[Move, Node]]:
        """Every legal move of `node` and the node it reaches, in the game's order."""
        return [(m, self.settle(self.step(node, m))) for m in node[1]]

    @staticmethod
    def ended(node: Node) -> bool:
        return node[0][ENDED] is not None

    def won(self, node: Node, player: int = 1) -> bool:
        """The game is over and `player` won it."""
        if node[0][ENDED] is None:
            return False
        return self.game.results(State(node[0], []))[player - 1] == "win"

    def score(self, node: Node, player: int = 1) -> int:
        return int(self._score(node[0], player))

    def _class_key(self, slots: Slots) -> Hashable:
        """`key` with identical cards: every zone's cards written as their class, then the
        interchangeable zones sorted. A position with a pending choice (which may name
        cards) keeps its card ids: a finer key, still sound."""
        t = list(slots)
        classes = self._classes
        if t[PENDING] is None and classes is not None:
            get = classes.__getitem__
            for z in self._zones:
                v = t[z]
                if v:
                    t[z] = tuple(map(get, v))
        for g in self.groups:
            for i, v in zip(g, sorted(t[i] for i in g), strict=True):
                t[i] = v
        del t[MOVES]
        return tuple(t)

    def state_key(self, state: State) -> Hashable:
        """`key` of a state."""
        return self.key(state.slots)

    def atoms(self, slots: Slots) -> list[Hashable]:
        """The facts a position is made of, for novelty-guided search: each card with the
        card it lies on (or the zone it lies at the bottom of; any zone of an
        interchangeable array counts as the same), and the value of each variable: pairs
        (card, the card beneath) or (card, -1 - the zone's code), and (slot, value)."""
        out: list[Hashable] = []
        extend = out.extend
        for z, bottom in self._atom_zones:
            t = slots[z]
            if t:
                extend(zip(t, (bottom,) + t[:-1], strict=True))  # each on the one before
        for v in self._vars:
            out.append((v, slots[v]))
        return out

    def fills_empty(self, before: Slots, after: Slots) -> bool:
        """A move from slots `before` to slots `after` put a card into a zone that was
        empty (an empty zone is a resource of most patience games: the depth-first probe
        of the solver tries such moves last)."""
        for z in self._zones:
            if not before[z] and after[z]:
                return True
        return False

    @staticmethod
    def moves_played(slots: Slots) -> int:
        return int(slots[MOVES])

    def key(self, slots: Slots) -> Hashable:
        """The position without its move counter, interchangeable zones sorted. The same
        for slots settled or not, as long as the game goes on (settling a position that
        goes on changes nothing in it)."""
        if self._classes is not None:
            return self._class_key(slots)
        if not self.groups:
            return slots[:MOVES] + slots[MOVES + 1:]
        runs = self._runs
        if runs is not None:
            out = slots[:MOVES]
            at = MOVES + 1
            for lo, hi in runs:
                out += slots[at:lo] + tuple(sorted(slots[lo:hi]))
                at = hi
            return out + slots[at:]
        t = list(slots)
        for g in self.groups:
            for i, v in zip(g, sorted(t[i] for i in g), strict=True):
                t[i] = v
        del t[MOVES]
        return tuple(t)
