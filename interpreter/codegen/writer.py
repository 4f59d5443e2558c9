"""Where generated code goes, and the scope it is written in.

`Names` is shared by the whole module: fresh temporary names and the span table (a rule
error names its source line by a span id). `CodeWriter` collects lines at an indent.
`Frame` is the compile-time scope of an expression or statement: the local names, the
rule being compiled (for messages) and, inside a legal-move generator, the optimiser's
hoisting state. Passes take a frame and return code; nothing is held as mode state on an
object between calls.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import attrs
else:  # the same declarations, built cheaply (lang/nodes.py): start-up time
    from ..lang import nodes as attrs

from ..lang import ast as A

INDENT = "    "


@attrs.frozen
class Arm:
    """One arm of an `if` statement, in coverage mode: the span of its condition (of the
    `if` for an else arm), which arm it is and the rule it is in."""

    span: A.Span
    arm: str  # "then", "elif" or "else" (an `if` without `else` has an implicit empty one)
    rule: str
    stmt: A.Span  # the `if` statement's


class Names:
    """Fresh temporaries and the span table, one for the whole module. Also two facts
    about the code emitted in place so far, which the optimiser reads before moving code
    (counted as it is emitted, never read back from the text): calls of runtime helpers
    that may raise or change the state (runtime.EXPORTED), and assignment expressions."""

    def __init__(self) -> None:
        self.spans: list[tuple[A.Span, str]] = []
        self.count = 0
        self.nodes = 0  # expressions lowered (a measure of the code emitted)
        self.unsafe = 0  # calls that may raise a rule error or change the state
        self.impure = 0  # of those, calls that change the state (never moved, even lazily)
        self.walrus = 0  # assignment expressions (`:=`), which a comprehension's iterable may not hold
        # uses of the step budget (runtime.DRAWS, def and procedure calls): code emitted
        # while this did not change leaves the budget as it found it (step.py)
        self.draws = 0
        # whether a generator lists moves lazily (`_msets`: runtime.SetMoves, sets of cards)
        self.lazy_moves = False
        # coverage mode: the arms of `if` statements, by statement and arm (a statement of
        # a blocking procedure is lowered once per call site and keeps one id)
        self.arms: list[Arm] = []
        self.arm_ids: dict[tuple[A.If, int], int] = {}

    def tmp(self, base: str = "t") -> str:
        self.count += 1
        return f"_{base}{self.count}"

    def arm_id(self, st: A.If, i: int, rule: str) -> int:
        """The id of arm i of an `if` (len(st.branches): its else arm)."""
        key = (st, i)
        if key not in self.arm_ids:
            if i < len(st.branches):
                arm = Arm(st.branches[i][0].span, "then" if i == 0 else "elif", rule, st.span)
            else:
                arm = Arm(st.span, "else", rule, st.span)
            self.arm_ids[key] = len(self.arms)
            self.arms.append(arm)
        return self.arm_ids[key]

    def span_id(self, span: A.Span, rule: str) -> int:
        self.spans.append((span, rule))
        return len(self.spans) - 1


class CodeWriter:
    """Lines of Python at the current indent."""

    def __init__(self, indent: str = "") -> None:
        self.lines: list[str] = []
        self.ind = indent

    def line(self, text: str) -> None:
        self.lines.append(self.ind + text)

    @contextmanager
    def indented(self) -> Iterator[None]:
        saved = self.ind
        self.ind += INDENT
        try:
            yield
        finally:
            self.ind = saved


INNER = 1 << 30  # the loop level of a value bound inside an expression: it never moves out


@attrs.define
class Local:
    """A name bound in generated code: a parameter, a loop variable, a `let`..."""

    code: str
    origin: str | None = None  # for a card: the zone (slot code) it was taken from
    lo: int | None = None  # known integer range, to skip index checks
    hi: int | None = None
    # In a legal-move generator: the loop level where the value is bound (0: before the
    # loops; a move parameter: its loop; None: inside an expression, never hoisted)...
    level: int | None = None
    hoisted: bool = False  # ...whether it is a value the optimiser hoisted...
    param: tuple[str, int, int] | None = None  # ...and a move parameter over lo..hi
    # a move parameter over the zones of a zone array: that array's constant tuple of slots
    domain: str | None = None
    # a quantifier's variable over `1..size(Z)`: Z's value key (optimize.value_key), whose
    # positions it ranges over while Z cannot change (Z[i] needs no check)
    positions: Any = None
    # a card bound inside one expression (a quantifier's variable, a `let` of one): the
    # state cannot change while an expression is evaluated, so it is certainly in `origin`
    certain: bool = False


@attrs.define
class HoistLevel:
    """What one instance of a loop level computes before its inner loops."""

    lines: list[tuple[str, str]] = attrs.Factory(list)  # (variable, code)
    by_key: dict[Any, str] = attrs.Factory(dict)  # value key -> variable
    # attributes of the top (or bottom) card of each zone of a zone array, filled by one
    # loop (optimize.py's `zone_top_table`): (array's tuple, index) -> {attr table: list}
    fills: dict[tuple[str, int], dict[str, str]] = attrs.Factory(dict)
    # lines computed before the loops, as they are (moves.py `index_var`: an index)
    blocks: list[str] = attrs.Factory(list)


@attrs.define
class Hoist:
    """The hoisting state of one legal-move generator (see optimize.py): the instance of
    each loop level being compiled, the zones known not to be empty there, and the deepest
    loop level the code lowered so far reads (`needs`)."""

    cur: int = 0  # the loop level being compiled
    levels: list[HoistLevel] = attrs.Factory(list)
    guards: dict[Any, int] = attrs.Factory(dict)  # zone (value key) -> level of its check
    needs: int = -1
    # > 0 while lowering code that runs only if an earlier operand of an `and`/`or`, an
    # `if`'s test or an earlier condition of the level allows it
    conditional: int = 0

    def enter(self, level: int) -> None:
        """Start an instance of a loop level: what deeper instances hoisted and guarded is
        out of scope now."""
        del self.levels[level:]
        self.levels.append(HoistLevel())
        self.guards = {k: v for k, v in self.guards.items() if v < level}

    def read(self, level: int | None) -> None:
        self.needs = max(self.needs, INNER if level is None else level)

    def hoist(self, level: int, key: Any, code: str, names: Names) -> str:
        """A variable computed at `level` holding `code` (one per value key and level)."""
        lv = self.levels[level]
        if key not in lv.by_key:
            var = names.tmp("h")
            lv.by_key[key] = var
            lv.lines.append((var, code))
        self.read(level)
        return lv.by_key[key]


@attrs.define
class Frame:
    """The compile-time scope: names, the rule (for messages), and the optimiser's state
    inside a legal-move generator (None elsewhere, and always None in plain code)."""

    env: dict[str, Local]
    rule: str
    hoist: Hoist | None = None
    # def tables of this generator: (def, range, args) -> (name, code); None: no tables here
    tables: dict[Any, tuple[str, str]] | None = None
    depth: int = 0  # defs being inlined around this point
    # in the flow: the phase new nodes belong to, and where `break` goes in each loop
    phase: str = ""
    loops: tuple[int, ...] = ()
    # the move whose listing or effect this is (None elsewhere: a proc's body is not)
    move: A.MoveDecl | None = None

    def scope(self) -> Frame:
        """A nested scope: names bound in it do not leak out."""
        return attrs.evolve(self, env=dict(self.env))

