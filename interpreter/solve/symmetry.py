"""Interchangeable zones, proved from the checked program, and the canonical key they give.

A zone array numbered `1..n` (`zone column[8]`) is interchangeable when the rules cannot
tell its zones apart. We claim it only in one case that we can check on the program:
outside `setup`, every use of the array's name is

- the range of a move parameter (`move shift(a in column, b in column)`), or
- the argument of `size(...)` (the number of cards in all of them),
- `arr[i]`, where `i in 1..n` is a move parameter over every index of the array that the
  move uses for nothing else (Chains' `to_slot(i in 1..slot_count)`),

and never an index (`column[1]`, `column[k]`), a loop or quantifier over it (their order
is the zones' order), a `deal` to it, or anything else; and the array is no grid and
has no place in a `covered by` (where a place lies matters there). Then every rule sees a zone of
the array only through a parameter that ranges over all of them, so permuting the zones'
contents permutes the legal moves and changes nothing else: two positions that differ by
such a permutation are both winnable or both not. Setup is exempt: it runs before any
position the solver searches. Arrays indexed by suit or by player are never claimed (a
suit or a seat means something).

The canonical key of a position is the position key of the same position with the
contents of each interchangeable array sorted. If in doubt, no array is claimed and the
key is the plain position key.

Identical cards (`identical_cards`): a deck may hold several cards with the same
attributes (Chains' ten 10s). The rules see a card only through its attributes, its place
and its equality with another card, so a permutation of identical cards maps a position
to one that is equally winnable, provided no variable holds a card (a variable would
remember which copy it meant) and no rule names one card by a constant. Then the
canonical key writes each card as the first card of its class (the cards with its
attributes) before sorting the interchangeable arrays: two positions that differ only by
which copy lies where share a key.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ..engine import Game, Position, SearchSpace, State
from ..lang import ast as A


def interchangeable(game: Game) -> list[str]:
    """The zone arrays of `game` whose zones are interchangeable (see the module doc)."""
    program = game.checked
    # a grid's places, and places that cover or are covered (`covered by`), differ by
    # where they lie: such an array is never claimed
    covering = {zn for z in program.zones.values() for places in z.covers for zn, _ in places}
    arrays = {name for name, z in program.zones.items()
              if z.dim is not None and z.dim[0] == "int" and z.dim[1] > 1
              and z.grid is None and not z.covers and name not in covering}
    if not arrays:
        return []
    bad: set[str] = set()
    allowed: set[int] = set()  # ids of the Name nodes in an allowed place

    for mv in program.moves.values():
        for p in mv.params:
            if isinstance(p.source, A.Name):
                allowed.add(id(p.source))
        _index_params(program, mv, arrays, allowed, bad)
    for root in _roots(program):
        if root is None:
            continue
        for node in A.walk(root):
            if (isinstance(node, A.Call) and node.func == "size" and len(node.args) == 1
                    and isinstance(node.args[0], A.Name)):
                allowed.add(id(node.args[0]))
            if isinstance(node, A.Name) and node.name in arrays:
                ref = _ref(program, node)
                if ref is None or ref.kind != "zone_array" or id(node) not in allowed:
                    bad.add(node.name)
    return sorted(arrays - bad)


def _roots(program: Any) -> list[Any]:
    """The expressions and statements of every rule but `setup` (see the module doc)."""
    roots: list[Any] = []
    for mv in program.moves.values():
        roots += [p.source for p in mv.params]
        roots += [mv.when, mv.body]
    roots += [d.body for d in program.defs.values()]
    roots += [p.body for p in program.procs.values()]
    roots += [program.game_flow, program.flow]
    roots += [e.cond for e in program.ends]
    roots += [i.cond for i in program.invariants]
    roots.append(program.score)
    roots += [a.cond for a in getattr(program, "autos", {}).values()]
    if program.result is not None:
        roots.append(program.result.cond)
        roots.append(program.result.push)
    return roots


def reads_move_count(game: Game) -> bool:
    """Some rule reads the number of moves played (`moves_played`). If none does, the
    counter matters only to the move limit (`limit N moves`), and a search may relax the
    limit (see `search.solve`). Setup counts too (it is cheap to be safe)."""
    program = game.checked
    roots = _roots(program) + [getattr(program, "setup", None)]
    return any(isinstance(node, A.Name) and node.name == "moves_played"
               for root in roots if root is not None for node in A.walk(root))


def _index_params(program: Any, mv: A.MoveDecl, arrays: set[str], allowed: set[int],
                  bad: set[str]) -> None:
    """A parameter `i in 1..n` of a move, over every index of an array of n zones, that
    the move uses only as `arr[i]` for that array is as good as a parameter over the
    zones themselves (`a in arr`): those `arr[i]` are allowed. If `i` is used otherwise
    (arithmetic, a comparison, another array), every array it indexes is not claimed."""
    for p in mv.params:
        src = p.source
        if not (isinstance(src, A.Binary) and src.op == ".."
                and program.const_int(src.left) == 1):
            continue
        n = program.const_int(src.right)
        indexed: set[str] = set()
        ok: set[int] = set()
        for node in A.walk((mv.when, mv.body)):
            if (isinstance(node, A.Index) and isinstance(node.obj, A.Name)
                    and node.obj.name in arrays and isinstance(node.index, A.Name)
                    and _is_param(program, node.index, p)):
                indexed.add(node.obj.name)
                if program.zones[node.obj.name].dim[1] == n:
                    ok.add(id(node.obj))
                    ok.add(id(node.index))
        if not indexed:
            continue
        other = [node for node in A.walk((mv.when, mv.body))
                 if isinstance(node, A.Name) and _is_param(program, node, p)
                 and id(node) not in ok]
        if other or len(ok) < 2:
            bad.update(indexed)
        else:
            allowed.update(ok)


def _is_param(program: Any, node: A.Name, p: A.MoveParam) -> bool:
    ref = _ref(program, node)
    return ref is not None and ref.kind == "move_param" and ref.decl is p


def _ref(program: Any, node: A.Name) -> Any:
    try:
        return program.ref_of(node)
    except LookupError:
        return None


def identical_cards(game: Game) -> tuple[int, ...] | None:
    """For each card id, the first id of a card with the same attributes (rank, suit,
    joker and the deck's own attributes), when the deck has identical cards and the
    rules cannot tell them apart (see the module doc); else None. Checked on the program:
    no variable's type holds a card, and no constant outside setup is a card."""
    program = game.checked
    if any("card" in v.type for v in program.vars.values()):
        return None
    for root in _roots(program):
        if root is None:
            continue
        for node in A.walk(root):
            if isinstance(node, A.Name):
                ref = _ref(program, node)
                if ref is not None and ref.kind == "constant" and _type(program, node) == "card":
                    return None
    first: dict[Hashable, int] = {}
    rep = []
    for c in program.cards:
        attrs_ = (c.rank, c.suit, c.joker, tuple(sorted(c.extra.items())))
        rep.append(first.setdefault(attrs_, c.id))
    if all(r == i for i, r in enumerate(rep)) or [c.id for c in program.cards] != list(
            range(len(rep))):
        return None
    return tuple(rep)


def _type(program: Any, node: A.Expr) -> str | None:
    try:
        return program.expr_types[node]
    except (KeyError, LookupError):
        return None


class Canonical:
    """The canonical key of a position, for a game, its interchangeable arrays and its
    classes of identical cards (`classes`, or None)."""

    MEMO = 1_000_000  # positions whose canonical key is remembered (then forgotten)

    def __init__(self, game: Game, arrays: list[str],
                 classes: tuple[int, ...] | None = None) -> None:
        self.game = game
        self.arrays = arrays  # the solver's fast path sorts these itself (engine.SearchSpace)
        self.classes = classes
        self._space: SearchSpace | None = None  # the key with classes is the space's
        self.groups = [game.zone_names(a) for a in arrays]
        # a position met again (a transposition) costs a lookup, not a rebuilt state
        self.memo: dict[Hashable, Hashable] = {}

    def __call__(self, state: State) -> Hashable:
        if self.classes is not None:
            if self._space is None:
                self._space = SearchSpace(self.game, self.arrays, classes=self.classes)
            return self._space.state_key(state)
        plain = self.game.position_key(state)
        known = self.memo.get(plain)
        if known is None:
            if len(self.memo) >= self.MEMO:
                self.memo.clear()
            known = self.memo[plain] = self._canonical(state, plain)
        return known

    def _canonical(self, state: State, plain: Hashable) -> Hashable:
        game = self.game
        moves: dict[str, tuple[int, ...]] = {}
        for names in self.groups:
            contents = [game.zone_ids(state, n) for n in names]
            ordered = sorted(contents)
            if ordered != contents:
                moves.update(zip(names, ordered, strict=True))
        if not moves:
            return plain
        # rearrange keeps the cards of the zones it deals to: no need to check them again
        return game.position_key(Position(game, state).rearrange(moves).state(check=False))


def key_for(game: Game, use: bool = True) -> tuple[Any, list[str]]:
    """The key function the solver uses and the arrays it treats as interchangeable
    (and, through the key's `classes`, its classes of identical cards)."""
    arrays = interchangeable(game) if use else []
    classes = identical_cards(game) if use else None
    if not arrays and classes is None:
        return game.position_key, arrays
    return Canonical(game, arrays, classes), arrays
