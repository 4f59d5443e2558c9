"""The checked program: everything code generation needs, as data (no checker inside).

Besides the declarations, the checker records two facts per node, once:
- `program.type_of(expr)`: the type of every expression (a string, see types.py);
- `program.ref_of(node)`: what every name refers to (a `Ref`), for each `Name`, each
  `Call` (a def or a built-in function) and each `CallStmt` (a proc).
Both tables are keyed by node identity, keep their nodes alive (so an id is never reused
while the program lives), are read-only once checked, and raise `MissingEntry` rather
than guess when a node has no entry.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    import attrs
else:  # the same declarations, built cheaply (lang/nodes.py): start-up time
    from . import nodes as attrs

from ..cards import SUIT_SYMBOLS, SUITS
from . import ast as A
from .consts import Constants
from .consts import const_int as fold_int


@attrs.define
class Card:
    id: int
    rank: int
    suit: int  # 0: none
    joker: bool
    extra: dict[str, int]


@attrs.define
class ZoneInfo:
    name: str
    label: str
    dim: tuple[str, int] | None  # ("int", n) / ("suit", 4) / ("player", n)
    visibility: str  # hidden, public, owner
    layout: str  # fanned, squared, row
    span: A.Span
    # a grid (`zone pyramid[row in 1..7][col in 1..row]`): the number of places of each
    # row; its places are numbered row by row, 1..sum(grid), as an array of that size
    grid: tuple[int, ...] | None = None
    # `covered by`: for each place (0-based, one for a single zone), the places that cover
    # it, as (zone, 1-based place; 0 for a single zone)
    covers: tuple[tuple[tuple[str, int], ...], ...] = ()

    def place(self, row: int, col: int) -> int | None:
        """The 1-based place of row `row`, column `col` of a grid (None: not in it)."""
        if self.grid is None or not 1 <= row <= len(self.grid) or not 1 <= col <= self.grid[row - 1]:
            return None
        return sum(self.grid[:row - 1]) + col

    def row_col(self, i: int) -> tuple[int, int]:
        """The (row, column) of the 1-based place i of a grid."""
        assert self.grid is not None
        for r, n in enumerate(self.grid, 1):
            if i <= n:
                return r, i
            i -= n
        raise IndexError(i)


@attrs.define
class VarInfo:
    name: str
    type: str
    dim: tuple[str, int] | None
    init: A.Expr
    span: A.Span
    optional: bool = False  # `var bid[player]: int = none`: an int that may be none


@attrs.define
class TableSpec:
    """What the REPL's table shows, from the game's `table { ... }` block (docs/language.md).

    groups  headed groups of zones and variables, drawn in this order;
    shown   variable -> label: only these variables are drawn (None: every variable);
    hidden  zones and variables never drawn;
    sort    zone -> sort keys ("suit", "rank"; () keeps the zone's order); a zone seen by
            its owner only and not named here is sorted by suit, then rank;
    by_player  zones whose cards are drawn with the seat that put each one there."""

    groups: list[tuple[str, list[str]]] = attrs.Factory(list)
    shown: dict[str, str] | None = None
    hidden: set[str] = attrs.Factory(set)
    sort: dict[str, tuple[str, ...]] = attrs.Factory(dict)
    by_player: set[str] = attrs.Factory(set)


V = TypeVar("V")

# Ref kinds. Locals (bound in a rule, lowered to a Python local or a flow slot):
LOCAL_KINDS = frozenset({"let", "loop", "quant", "move_param", "def_param", "proc_param"})
# Declared or built in:
GLOBAL_KINDS = frozenset({"zone", "zone_array", "var", "var_array", "constant", "def", "proc",
                          "builtin"})


@attrs.frozen
class Ref:
    """What one use of a name refers to.

    kind   decl                       what it is
    let    A.LetStmt or A.Let         `let x = ...` (statement or expression)
    loop   A.For                      the variable of a `for`
    quant  A.Quant                    the variable of a quantifier (`any x in ...`)
    move_param  A.MoveParam           a move's parameter (`move take(k in 1..4)`)
    def_param / proc_param  A.Param   a def's or a proc's parameter
    zone / zone_array  ZoneInfo       a zone, or a zone array (`column`, used whole or indexed)
    var / var_array    VarInfo        a variable, or an array variable (indexed)
    constant   OptionDecl or None     a suit, colour, option, choice symbol, rank name or
                                      player_count: `value` is its value
    def        A.DefDecl              a def: a constant def named, or a function called
    proc       A.ProcDecl             a procedure called by a statement
    builtin    builtins.Builtin       a built-in name (`suits`, `no_moves`, ...) or function

    `type` is the referent's type: a local's or a constant's type, "zone"/"list:zone" for
    zones, a variable's (element) type, a def's value type; "" for a proc, and for a
    built-in function (its type depends on the arguments: see type_of(call)).
    """

    kind: str
    name: str
    type: str = ""
    decl: Any = attrs.field(default=None, repr=False)
    value: Any = None

    @property
    def is_local(self) -> bool:
        return self.kind in LOCAL_KINDS


class MissingEntry(LookupError):
    """An internal error: a pass asked about a node the checker never recorded."""


class NodeTable(Generic[V]):
    """Facts about AST nodes, keyed by identity (nodes compare by value: two `Name("x")`
    in different places are different keys). Written while checking, then frozen."""

    __slots__ = ("_entries", "_frozen", "what")

    def __init__(self, what: str) -> None:
        self.what = what  # "type", "ref": for messages
        self._entries: dict[int, tuple[Any, V]] = {}
        self._frozen = False

    def record(self, node: Any, value: V) -> None:
        if self._frozen:
            raise TypeError(f"the {self.what} table is read-only once the program is checked")
        self._entries[id(node)] = (node, value)

    def writer(self) -> dict[int, tuple[Any, V]]:
        """The entries themselves, for the checker's hot path: `w[id(node)] = (node, v)`.
        Only while checking: afterwards the table is frozen and a writer is refused."""
        if self._frozen:
            raise TypeError(f"the {self.what} table is read-only once the program is checked")
        return self._entries

    def freeze(self) -> None:
        self._frozen = True

    @property
    def frozen(self) -> bool:
        return self._frozen

    def __getitem__(self, node: Any) -> V:
        entry = self._entries.get(id(node))
        if entry is None or entry[0] is not node:
            where = getattr(node, "span", None)
            raise MissingEntry(f"internal: no {self.what} recorded for {type(node).__name__} "
                               f"{node!r}{f' at {where}' if where and where.line else ''}")
        return entry[1]

    def get(self, node: Any) -> V:
        """The same as table[node]: there is no default, a missing entry is an error."""
        return self[node]

    def __contains__(self, node: Any) -> bool:
        entry = self._entries.get(id(node))
        return entry is not None and entry[0] is node

    def __len__(self) -> int:
        return len(self._entries)

    def items(self) -> Iterator[tuple[Any, V]]:
        return iter(self._entries.values())


@attrs.define
class Program:
    """A checked game: its declarations resolved for one player count and option values."""

    name: str
    about: str
    path: str
    sources: dict[str, str]
    players: int
    player_range: tuple[int, int]
    options: dict[str, Any]
    option_decls: dict[str, A.OptionDecl]
    cards: list[Card]
    rank_names: tuple[str, ...]
    card_attrs: tuple[str, ...]
    has_suitless: bool
    zones: dict[str, ZoneInfo]
    vars: dict[str, VarInfo]
    defs: dict[str, A.DefDecl]
    procs: dict[str, A.ProcDecl]
    moves: dict[str, A.MoveDecl]
    setup: tuple[A.Stmt, ...]
    flow: tuple[A.Stmt, ...] | None  # as declared
    ends: list[A.EndDecl]
    score: A.Expr | None
    result: A.ResultDecl | None
    invariants: list[A.InvariantDecl]
    limit: A.LimitDecl | None
    blocking_procs: set[str]
    constants: dict[str, tuple[str, Any]]
    bool_attrs: frozenset[str] = frozenset()
    # what the constant folder knows: the constants and the constant defs
    consts: Constants = attrs.field(factory=lambda: Constants({}), repr=False)
    expr_types: NodeTable[str] = attrs.field(factory=lambda: NodeTable("type"), repr=False)
    refs: NodeTable[Ref] = attrs.field(factory=lambda: NodeTable("ref"), repr=False)
    # the flow the game runs: the declared one or, without one, `repeat { 1 chooses ... }`
    # over every move, checked (and so typed) like a declared one
    game_flow: tuple[A.Stmt, ...] = ()
    table: TableSpec = attrs.Factory(TableSpec)
    # `auto move NAME when ...`: moves a solver may play at once (see ast.AutoDecl)
    autos: dict[str, A.AutoDecl] = attrs.field(factory=dict)
    # the suits (`deck suits ...`, else the French four) and how a card writes them
    suit_names: tuple[str, ...] = SUITS
    suit_symbols: tuple[str, ...] = SUIT_SYMBOLS
    # `example "NAME" { ... }`: the game's executable examples (docs/testing.md); the
    # expressions of those that apply to this player count and these options are typed
    examples: tuple[A.ExampleDecl, ...] = ()
    # inherited examples that do not fit this game (a variant removed what they name):
    # their errors, by example name; `cardgame test` reports them as failures
    example_errors: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    players_default: int = 1  # the `players` declaration's default (what an example runs with)
    # `expect sometimes COND`: states some play should reach (`expect never` ones are
    # among the invariants, negated); `equivalent` marks for `cardgame mutate`
    expects: list[A.ExpectDecl] = attrs.field(factory=list)
    equivalents: list[A.EquivalentDecl] = attrs.field(factory=list)
    # `role dealer "the dealer"`: participants that are not seats (name -> label)
    roles: dict[str, str] = attrs.field(factory=dict)

    def const_int(self, e: A.Expr) -> int | None:
        """The value of a constant integer expression (numbers, options, constant defs,
        arithmetic), or None: the checker's own folder."""
        return fold_int(e, self.consts)

    def type_of(self, e: A.Expr) -> str:
        return self.expr_types[e]

    def ref_of(self, node: A.Name | A.Call | A.CallStmt) -> Ref:
        return self.refs[node]

    @property
    def uses_faces(self) -> bool:
        """Does a rule turn cards face up or down one by one (`turn`, `move ... face up`)?
        Only then does the state hold each card's face (docs/language.md "Face up and
        face down")."""
        return any(isinstance(n, A.Turn) or (isinstance(n, A.MoveCards) and n.face)
                   for n in self.nodes())

    def nodes(self) -> Iterator[A.Expr | A.Stmt]:
        """Every expression and statement of the program's rules, once each."""
        roots: list[Any] = [v.init for v in self.vars.values()]
        roots += [d.body for d in self.defs.values()]
        roots += [p.body for p in self.procs.values()]
        for m in self.moves.values():
            roots += [p.source for p in m.params] + [m.when, m.body]
        roots += [self.setup, self.game_flow]
        roots += [e.cond for e in self.ends] + [self.score]
        roots += [self.result.cond if self.result else None]
        roots += [self.result.push if self.result else None]
        roots += [i.cond for i in self.invariants]
        roots += [x.cond for x in self.expects]
        seen: set[int] = set()
        for root in roots:
            for node in A.walk(root):
                if id(node) not in seen:
                    seen.add(id(node))
                    yield node


Checked = Program
