"""The abstract syntax tree of a .cardgame file.

Every node is a frozen attrs class (at run time built by nodes.py, which reads the same
declarations and makes the classes some 50 times faster). `span` records where the node came from; it is kept
out of equality and repr so that two parses of the same text compare equal.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import attrs
else:  # the same declarations, built cheaply (nodes.py): most of start-up time otherwise
    from . import nodes as attrs

from ..errors import NOSPAN, Span  # noqa: F401  (re-exported: nodes carry spans)

# ---------------------------------------------------------------- expressions


@attrs.frozen
class Expr:
    span: Span = attrs.field(default=NOSPAN, eq=False, repr=False, kw_only=True)


@attrs.frozen
class Int(Expr):
    value: int = 0


@attrs.frozen
class Bool(Expr):
    value: bool = False


@attrs.frozen
class NoneLit(Expr):
    pass


@attrs.frozen
class Name(Expr):
    name: str = ""


@attrs.frozen
class Me(Expr):
    pass


@attrs.frozen
class Players(Expr):
    pass


@attrs.frozen
class ListLit(Expr):
    items: tuple[Expr, ...] = ()


@attrs.frozen
class Attr(Expr):
    obj: Expr = attrs.field(factory=Expr)
    name: str = ""
    name_span: Span = attrs.field(default=NOSPAN, eq=False, repr=False, kw_only=True)


@attrs.frozen
class Index(Expr):
    obj: Expr = attrs.field(factory=Expr)
    index: Expr = attrs.field(factory=Expr)


@attrs.frozen
class Call(Expr):
    func: str = ""
    args: tuple[Expr, ...] = ()


@attrs.frozen
class Unary(Expr):
    op: str = ""  # "-", "not", "top", "bottom", "all", "left", "right", "players_from"
    operand: Expr = attrs.field(factory=Expr)


@attrs.frozen
class TopN(Expr):
    count: Expr = attrs.field(factory=Expr)
    zone: Expr = attrs.field(factory=Expr)


@attrs.frozen
class Subsets(Expr):
    """`subsets of Z` (every set of Z's cards), `subsets N of Z` (the sets of N cards), and
    a move parameter `cards in N of Z`. Each set is a list of cards in deck order, so one
    set is one value. When the condition that filters them says `(sum x in S: E) == T`,
    the builder fills `values` (`each x in Z: E`) and `target` (T), and the sets are
    enumerated pruned by the sum (a subset-sum search) rather than all 2^n filtered."""

    zone: Expr = attrs.field(factory=Expr)
    count: Expr | None = None
    values: Expr | None = None
    target: Expr | None = None


@attrs.frozen
class Binary(Expr):
    op: str = ""  # + - * / % == != < <= > >= and or in notin range
    left: Expr = attrs.field(factory=Expr)
    right: Expr = attrs.field(factory=Expr)


@attrs.frozen
class IsEmpty(Expr):
    operand: Expr = attrs.field(factory=Expr)
    negated: bool = False


@attrs.frozen
class IfExpr(Expr):
    cond: Expr = attrs.field(factory=Expr)
    then: Expr = attrs.field(factory=Expr)
    else_: Expr = attrs.field(factory=Expr)


@attrs.frozen
class Let(Expr):
    name: str = ""
    value: Expr = attrs.field(factory=Expr)
    body: Expr = attrs.field(factory=Expr)


@attrs.frozen
class Quant(Expr):
    """`any x in L: body`, `count x in L where cond`, `each x in L where cond`, ..."""

    kind: str = ""  # any all count sum min max first each random
    var: str = ""
    source: Expr = attrs.field(factory=Expr)
    where: Expr | None = None
    body: Expr | None = None


# ----------------------------------------------------------------- statements


@attrs.frozen
class Stmt:
    span: Span = attrs.field(default=NOSPAN, eq=False, repr=False, kw_only=True)


@attrs.frozen
class Assign(Stmt):
    target: Expr = attrs.field(factory=Expr)
    op: str = "="  # "=", "+=", "-="
    value: Expr = attrs.field(factory=Expr)


@attrs.frozen
class CallStmt(Stmt):
    func: str = ""
    args: tuple[Expr, ...] = ()


@attrs.frozen
class Choose(Stmt):
    """A decision point: `who chooses a | b`, optional (`may choose`) or simultaneous."""

    who: Expr = attrs.field(factory=Expr)
    moves: tuple[str, ...] = ()
    optional: bool = False
    simultaneous: bool = False
    move_spans: tuple[Span, ...] = attrs.field(default=(), eq=False, repr=False, kw_only=True)


@attrs.frozen
class LetStmt(Stmt):
    name: str = ""
    value: Expr = attrs.field(factory=Expr)


@attrs.frozen
class If(Stmt):
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...] = ()
    else_: tuple[Stmt, ...] = ()


@attrs.frozen
class For(Stmt):
    var: str = ""
    source: Expr = attrs.field(factory=Expr)
    body: tuple[Stmt, ...] = ()


@attrs.frozen
class While(Stmt):
    cond: Expr = attrs.field(factory=Expr)
    body: tuple[Stmt, ...] = ()


@attrs.frozen
class Repeat(Stmt):
    count: Expr | None = None  # None: for ever (until `end` or `break`)
    body: tuple[Stmt, ...] = ()


@attrs.frozen
class Phase(Stmt):
    name: str = ""
    body: tuple[Stmt, ...] = ()


@attrs.frozen
class MoveCards(Stmt):
    cards: Expr = attrs.field(factory=Expr)
    dest: Expr = attrs.field(factory=Expr)
    bottom: bool = False
    face: str = ""  # `face up` / `face down`: "up", "down" ("" : the destination's face)
    over: bool = False  # `turned over`: the cards arrive in the reverse order (a redeal)
    above: bool = False  # `move c and above to Z`: c and every card on it, in order


@attrs.frozen
class Shuffle(Stmt):
    zone: Expr = attrs.field(factory=Expr)


@attrs.frozen
class Deal(Stmt):
    count: Expr | None = None  # None: all
    source: Expr = attrs.field(factory=Expr)
    dests: Expr = attrs.field(factory=Expr)


@attrs.frozen
class End(Stmt):
    reason: str = ""
    parts: tuple[str | Expr, ...] = ()


@attrs.frozen
class Break(Stmt):
    pass


@attrs.frozen
class Log(Stmt):
    text: str = ""
    parts: tuple[str | Expr, ...] = ()


# --------------------------------------------------------------- declarations


@attrs.frozen
class Decl:
    span: Span = attrs.field(default=NOSPAN, eq=False, repr=False, kw_only=True)

    @property
    def key(self) -> str:
        """What a declaration in an extending file replaces (same key)."""
        return f"{type(self).__name__}:{getattr(self, 'name', '')}"


@attrs.frozen
class GameDecl(Decl):
    name: str = ""

    @property
    def key(self) -> str:
        return "GameDecl:"


@attrs.frozen
class About(Decl):
    text: str = ""


@attrs.frozen
class Extends(Decl):
    target: str = ""


@attrs.frozen
class Use(Decl):
    """`use "tricks"`: a prelude's declarations, unless the game declares the same."""

    target: str = ""

    @property
    def key(self) -> str:
        return f"Use:{self.target}"


@attrs.frozen
class PlayersDecl(Decl):
    low: int = 1
    high: int = 1
    default: int = 1


@attrs.frozen
class OptionDecl(Decl):
    name: str = ""
    kind: str = "int"  # int, bool, choice
    low: int = 0
    high: int = 0
    choices: tuple[int | str | bool, ...] = ()
    default: int | str | bool | None = None
    doc: str = ""


@attrs.frozen
class DeckCard:
    attrs_: tuple[tuple[str, Expr], ...] = ()
    times: Expr | None = None
    span: Span = attrs.field(default=NOSPAN, eq=False, repr=False, kw_only=True)


@attrs.frozen
class DeckFor:
    var: str = ""
    source: Expr = attrs.field(factory=Expr)
    body: tuple[DeckCard | DeckFor, ...] = ()
    span: Span = attrs.field(default=NOSPAN, eq=False, repr=False, kw_only=True)


@attrs.frozen
class DeckDecl(Decl):
    standard: bool = False
    jokers: int = 0
    rank_names: tuple[str, ...] = ()
    items: tuple[DeckCard | DeckFor, ...] = ()

    @property
    def key(self) -> str:
        return "DeckDecl:"


@attrs.frozen
class ZoneDecl(Decl):
    name: str = ""
    index: Expr | None = None
    label: str = ""
    props: tuple[str, ...] = ()
    # where each word of each property stands (an unknown word is pointed at)
    prop_words: tuple[tuple[Span, ...], ...] = attrs.field(default=(), eq=False, repr=False)
    # a grid's second index (`zone pyramid[row in 1..7][col in 1..row]`), and the places
    # that cover each place (`covered by pyramid[row + 1][col], ...`)
    index2: Expr | None = None
    covered_by: tuple[Expr, ...] = ()


@attrs.frozen
class TableName:
    """A zone or variable named in a `table` block, with an optional label."""

    name: str = ""
    label: str = ""
    span: Span = attrs.field(default=NOSPAN, eq=False, repr=False, kw_only=True)


@attrs.frozen
class TableItem:
    """One line of a `table` block: group, show, hide, sort or label."""

    kind: str = ""
    title: str = ""  # a group's heading
    names: tuple[TableName, ...] = ()
    keys: tuple[TableName, ...] = ()  # sort keys, or the `by` of a label line
    span: Span = attrs.field(default=NOSPAN, eq=False, repr=False, kw_only=True)


@attrs.frozen
class TableDecl(Decl):
    """`table { ... }`: what the REPL's table shows; no effect on the game."""

    items: tuple[TableItem, ...] = ()

    @property
    def key(self) -> str:
        return "TableDecl:"


@attrs.frozen
class VarDecl(Decl):
    name: str = ""
    index: Expr | None = None
    type: str | None = None
    init: Expr = attrs.field(factory=Expr)
    doc: str = ""


@attrs.frozen
class Param:
    name: str = ""
    type: str = ""
    span: Span = attrs.field(default=NOSPAN, eq=False, repr=False, kw_only=True)


@attrs.frozen
class DefDecl(Decl):
    name: str = ""
    params: tuple[Param, ...] = ()
    body: Expr = attrs.field(factory=Expr)
    is_const: bool = False


@attrs.frozen
class ProcDecl(Decl):
    name: str = ""
    params: tuple[Param, ...] = ()
    body: tuple[Stmt, ...] = ()


@attrs.frozen
class MoveParam:
    name: str = ""
    source: Expr = attrs.field(factory=Expr)
    # `NAME in SOURCE where COND`: COND also stands first among the move's `when` clauses
    where: Expr | None = None
    span: Span = attrs.field(default=NOSPAN, eq=False, repr=False, kw_only=True)


@attrs.frozen
class MoveDecl(Decl):
    name: str = ""
    params: tuple[MoveParam, ...] = ()
    doc: str = ""
    when: Expr | None = None  # every `when` clause, joined by `and`
    body: tuple[Stmt, ...] = ()
    # each `when` clause with its reason (`when COND "REASON"`), for explaining a refusal
    clauses: tuple[WhenClause, ...] = attrs.field(default=(), eq=False, repr=False)
    # the description string (where its placeholders are checked)
    doc_span: Span = attrs.field(default=NOSPAN, eq=False, repr=False)


@attrs.frozen
class WhenClause:
    """One `when COND "REASON"` of a move: the reason's text and its `{...}` parts (the
    reason says why a move is refused when COND does not hold)."""

    cond: Expr
    reason: str = ""
    parts: tuple[str | Expr, ...] = ()
    span: Span = attrs.field(default=NOSPAN, eq=False, repr=False, kw_only=True)


@attrs.frozen
class SetupDecl(Decl):
    body: tuple[Stmt, ...] = ()


@attrs.frozen
class FlowDecl(Decl):
    body: tuple[Stmt, ...] = ()


@attrs.frozen
class EndDecl(Decl):
    name: str = ""
    cond: Expr = attrs.field(factory=Expr)
    reason: str = ""


@attrs.frozen
class ScoreDecl(Decl):
    expr: Expr = attrs.field(factory=Expr)


@attrs.frozen
class ResultDecl(Decl):
    kind: str = "highest"  # highest, lowest, won, against
    cond: Expr | None = None  # won: the condition; against: the `win when` condition
    role: str = ""  # against: the role the players play against
    push: Expr | None = None  # against: the `push when` condition (None: no push)
    cases: tuple[ResultCase, ...] = ()  # against: the cases as written

    @property
    def key(self) -> str:
        return "ResultDecl:"


@attrs.frozen
class ResultCase:
    """`win when COND` or `push when COND` of `result against ROLE: ...`."""

    outcome: str = ""
    cond: Expr = attrs.field(factory=Expr)
    span: Span = attrs.field(default=NOSPAN, eq=False, repr=False, kw_only=True)


@attrs.frozen
class RoleDecl(Decl):
    """`role dealer "the dealer"`: a participant that is not a seat. It plays by the
    rules the flow states, never chooses, and `players` does not count it."""

    name: str = ""
    label: str = ""


@attrs.frozen
class InvariantDecl(Decl):
    name: str = ""
    doc: str = ""
    cond: Expr = attrs.field(factory=Expr)
    negated: bool = False  # from `expect never COND`: the invariant is `not COND`


@attrs.frozen
class LimitDecl(Decl):
    count: int = 0
    unit: str = "moves"
    reason: str = ""
    count_name: str = ""  # `limit cap moves`: an option or constant, resolved by check

    @property
    def key(self) -> str:
        return "LimitDecl:"


@attrs.frozen
class AutoDecl(Decl):
    """`auto move NAME when COND`: the game's claim that playing move NAME, whenever it is
    legal and COND holds (COND sees the move's parameters), loses nothing: a solver may play
    it at once and try nothing else. Play is unchanged."""

    name: str = ""
    cond: Expr = attrs.field(factory=Expr)
    doc: str = ""


@attrs.frozen
class ExpectDecl(Decl):
    """`expect sometimes COND "LABEL"`: some play reaches a state where COND holds
    (`cardgame fuzz` looks for a witness); `expect never COND`: none does (an invariant,
    `not COND`, checked after every step). `text` is COND as written."""

    kind: str = "sometimes"  # sometimes, never
    cond: Expr = attrs.field(factory=Expr)
    label: str = ""
    text: str = ""

    @property
    def key(self) -> str:
        return f"ExpectDecl@{self.span}"  # expectations accumulate, as unnamed ends do

    @property
    def title(self) -> str:
        """How a report names it: its label, else `expect KIND COND`."""
        return self.label or f"expect {self.kind} {self.text}"


@attrs.frozen
class EquivalentDecl(Decl):
    """`equivalent "MUTANT" "REASON"`: the designer's word that a mutant of this file
    (named as `cardgame mutate` names it) is the same game; no effect on play."""

    mutant: str = ""
    reason: str = ""

    @property
    def key(self) -> str:
        return f"EquivalentDecl:{self.mutant}"


@attrs.frozen
class RemoveDecl(Decl):
    kind: str = ""
    name: str = ""


@attrs.frozen
class ExStep:
    """One line of an `example`: a setting, a piece of the position, a move played, or
    an expectation (docs/testing.md). Which fields it uses depends on `kind`:

    - `players` (value), `option` (text: the option, value);
    - `has`, `is` (target: a zone, or for `is` a card's place such as `top of Z`; cards);
    - `set` (target: a variable or an element; expr: its value);
    - `to_move` (target: a player), `play` (target: the player; text: the move);
    - `expect` (expr: a condition), `expect_has`, `expect_has_no` (target, cards);
    - `can_play`, `cannot_play` (target: the player; text: the move; reason: a part of
      the refusal's words, or "");
    - `can_see`, `cannot_see` (target: the seat; expr: the zone);
    - `expect_to_move` (target), `result` (target; text: wins, loses or draws),
      `scores` (target; expr), `over` (reason: a part of the end's reason, or ""),
      `not_over`.
    """

    kind: str = ""
    target: Expr | None = None
    expr: Expr | None = None
    cards: tuple[str, ...] = ()
    text: str = ""
    reason: str = ""
    value: int | str | bool | None = None
    span: Span = attrs.field(default=NOSPAN, eq=False, repr=False, kw_only=True)


@attrs.frozen
class ExampleDecl(Decl):
    """`example "NAME" { ... }`: an executable example of the rules (docs/testing.md)."""

    name: str = ""
    steps: tuple[ExStep, ...] = ()


@attrs.frozen
class Module:
    """One parsed file: its declarations in source order."""

    file: str
    decls: tuple[Decl, ...]
    source: str = attrs.field(eq=False, repr=False, default="")


def walk_stmts(stmts: tuple[Stmt, ...]) -> Iterator[Stmt]:
    """Every statement of stmts and, depth first, of the blocks nested in them."""
    for s in stmts:
        yield s
        if isinstance(s, If):
            for _, body in s.branches:
                yield from walk_stmts(body)
            yield from walk_stmts(s.else_)
        elif isinstance(s, (For, While, Repeat, Phase)):
            yield from walk_stmts(s.body)


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}  # a class's fields but its span


def children(node: Expr | Stmt) -> Iterator[Expr | Stmt]:
    """The expressions and statements directly inside a node, in field order."""
    names = _CHILD_FIELDS.get(type(node))
    if names is None:
        names = _CHILD_FIELDS[type(node)] = tuple(
            f.name for f in attrs.fields(type(node)) if f.name != "span")
    for name in names:
        yield from _nodes_in(getattr(node, name))


def _nodes_in(v: object) -> Iterator[Expr | Stmt]:
    if isinstance(v, (Expr, Stmt)):
        yield v
    elif isinstance(v, tuple):  # bodies, arguments, items, (cond, body) branches, parts
        for x in v:
            yield from _nodes_in(x)


def walk(root: object) -> Iterator[Expr | Stmt]:
    """Every expression and statement in root (a node, a tuple of them, or None),
    parents before children."""
    stack = list(_nodes_in(root))[::-1]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(list(children(node))[::-1])


@attrs.frozen
class OrderDecl(Decl):
    """`deck order 2 3 ... K A` (or `deck order ace high`): the deck's ranks from low to high."""

    ranks: tuple[str, ...] = ()
    rank_spans: tuple[Span, ...] = attrs.field(default=(), eq=False)

    @property
    def key(self) -> str:
        return "OrderDecl:"


@attrs.frozen
class SuitsDecl(Decl):
    """`deck suits coins cups swords batons`: a custom deck's suits, in order."""

    names: tuple[str, ...] = ()
    name_spans: tuple[Span, ...] = attrs.field(default=(), eq=False)

    @property
    def key(self) -> str:
        return "SuitsDecl:"


@attrs.frozen
class Turn(Stmt):
    """`turn C face up` / `turn C face down`: a card (or a list of cards) turned where it lies."""

    cards: Expr = attrs.field(factory=Expr)
    up: bool = True


@attrs.frozen
class PositionOf(Expr):
    """`position of C in Z`: where card C lies in zone Z, 1 at the bottom (0: not there)."""

    card: Expr = attrs.field(factory=Expr)
    zone: Expr = attrs.field(factory=Expr)


def reads_name(e: object, name: str) -> bool:
    """Does e name `name` anywhere (a variable of a quantifier, a let, a parameter)?"""
    return any(isinstance(n, Name) and n.name == name for n in walk(e))


def conjuncts(e: Expr) -> list[Expr]:
    """The parts of `a and b and c`, in order (e itself when it is not an `and`)."""
    if isinstance(e, Binary) and e.op == "and":
        return conjuncts(e.left) + conjuncts(e.right)
    return [e]


def sum_tests(where: Expr, var: str) -> Iterator[tuple[Expr, Quant, Expr]]:
    """The conjuncts of `where` (an `and` of them) that compare a sum over the set `var`
    with something, `(sum x in var: E) == T` or `T == (sum ...)`: each as (the conjunct,
    the sum, T). The builder fills a subset's sum in from one (`builder.pruned`), and the
    code generator knows it holds of every set listed (`exprs.summed_conjunct`)."""
    stack = [where]
    while stack:
        c = stack.pop()
        if isinstance(c, Binary) and c.op == "and":
            stack += (c.right, c.left)  # (left first)
            continue
        if not (isinstance(c, Binary) and c.op == "=="):
            continue
        for q, t in ((c.left, c.right), (c.right, c.left)):
            if (isinstance(q, Quant) and q.kind == "sum" and q.where is None
                    and isinstance(q.source, Name) and q.source.name == var):
                yield c, q, t
