"""What every lowering pass shares, and the one place codegen asks the `Program` what a
name means or what type an expression has.

`Ctx.ref`, `local` and `callee` read the `Ref` the checker recorded for a name or a call,
and `Ctx.type_of` the type it recorded for an expression: codegen never resolves a name or
derives a type itself. A node the checker never saw raises `MissingEntry` (an internal
error), never a guess. Only a local's *code* comes from the frame's env, by name.
"""

from __future__ import annotations

from ..cards import COLORS, SUITS
from ..lang import Checked, Ref, const_int
from ..lang import ast as A
from .layout import ENDED, MOVES, Layout
from .runtime import DRAWS, EXPORTED
from .writer import Local, Names

# built-in names and what they lower to (`no_moves` and `legal_count` read the legal moves
# that `settle` computed: only end conditions and invariants may use them)
BUILTIN_NAMES = {
    "suits": repr(tuple(range(1, len(SUITS) + 1))),
    "colors": repr(tuple(range(1, len(COLORS) + 1))),
    "no_moves": "(not _legal)", "legal_count": "len(_legal)",
    "moves_played": f"s[{MOVES}]", "ended": f"(s[{ENDED}] is not None)",
}


class Ctx:
    """The program being compiled, its slot layout, the module-wide names and spans, and
    whether to optimise and to record which arms of `if` statements run."""

    def __init__(self, g: Checked, optimize: bool = True, coverage: bool = False) -> None:
        self.g = g
        self.n = g.players
        self.optimize = optimize
        self.coverage = coverage
        self.layout = Layout(g)
        self.names = Names()
        self.def_funcs: set[str] = set()  # defs called as functions: emit d_<name>

    # ---- the two questions the checker already answered
    def type_of(self, e: A.Expr) -> str:
        return self.g.type_of(e)

    def ref(self, e: A.Name | A.Call | A.CallStmt) -> Ref:
        """What a name (or a call) refers to."""
        return self.g.ref_of(e)

    def local(self, e: A.Expr | None, env: dict[str, Local]) -> Local | None:
        """The local an expression names, if it is a local name (or `me`)."""
        if isinstance(e, A.Me):
            return env.get("me")
        if isinstance(e, A.Name) and self.g.ref_of(e).is_local:
            return env[e.name]
        return None

    def callee(self, e: A.Call) -> A.DefDecl | None:
        """The def a call names (None: a built-in function)."""
        ref = self.g.ref_of(e)
        return ref.decl if ref.kind == "def" else None

    def slot(self, ref: Ref) -> int:
        """A zone's or a variable's slot; an array's first slot."""
        if ref.kind in ("zone", "zone_array"):
            return self.layout.zone_base[ref.name]
        assert ref.kind in ("var", "var_array"), ref
        return self.layout.var_base[ref.name]

    @staticmethod
    def dim(ref: Ref) -> tuple[str, int]:
        """An array's index kind and size."""
        dim: tuple[str, int] | None = ref.decl.dim
        assert dim is not None, ref
        return dim

    def cover(self, st: A.If, i: int, rule: str) -> str | None:
        """In coverage mode, the line recording that arm i of `st` ran (a store into a
        list: cheaper than a call); None otherwise."""
        if not self.coverage:
            return None
        return f"_COV[{self.names.arm_id(st, i, rule)}] = 1"

    # ---- facts
    def const_int(self, e: A.Expr) -> int | None:
        """The value of a constant integer expression (the program's one constant folder);
        None if it reads a local (which may hide a constant of the same name)."""
        if any(isinstance(n, A.Name) and self.g.ref_of(n).is_local for n in A.walk(e)):
            return None
        return const_int(e, self.g.consts)

    def const_range(self, e: A.Expr) -> tuple[int | None, int | None]:
        if isinstance(e, A.Binary) and e.op == "..":
            return self.const_int(e.left), self.const_int(e.right)
        return None, None

    def value_range(self, e: A.Expr) -> tuple[int | None, int | None]:
        """The range of the values of a loop over e (for skipping index checks, not the
        order of the loop): a constant range, or 1..n for `players` and `players from p`
        (optimised code only: the plain code checks every index)."""
        if self.optimize and (isinstance(e, A.Players) or (
                isinstance(e, A.Unary) and e.op == "players_from")):
            return 1, self.n
        if (self.optimize and isinstance(e, A.Name) and e.name == "suits"
                and self.g.ref_of(e).kind == "builtin"):  # the deck's suits, 1..n
            return 1, len(self.g.suit_names)
        return self.const_range(e)

    def loop_range(self, e: A.Expr) -> tuple[int | None, int | None]:
        """The range of a quantifier's or a loop's variable over e: a range of two literals
        as written, else `value_range`."""
        if isinstance(e, A.Binary) and e.op == "..":
            if isinstance(e.left, A.Int) and isinstance(e.right, A.Int):
                return e.left.value, e.right.value
        else:
            return self.value_range(e)
        return None, None

    def helper(self, name: str) -> str:
        """A runtime helper's name for a call in the code being emitted, noting whether the
        call may raise or change the state (then the optimiser must not move that code)."""
        h = EXPORTED[name]
        if name in DRAWS:
            self.names.draws += 1
        if h.may_raise or not h.pure:
            self.names.unsafe += 1
        if not h.pure:
            self.names.impure += 1
        return name
