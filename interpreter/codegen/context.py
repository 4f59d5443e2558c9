"""What every lowering pass shares, and the one place codegen asks what a name means or
what type an expression has.

`Ctx.resolve` and `Ctx.type_of` are the only readers of the checker's scopes and types:
when the checker records a reference per name and a type per expression, these two
methods read them and nothing else changes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs

from ..lang import Checked
from ..lang import ast as A
from .layout import Layout
from .runtime import EXPORTED
from .writer import Local, Names

# built-in names and what they lower to (`no_moves` and `legal_count` read the legal moves
# that `settle` computed: only end conditions and invariants may use them)
BUILTIN_NAMES = {
    "suits": "(1, 2, 3, 4)", "colors": "(1, 2)", "no_moves": "(not _legal)",
    "legal_count": "len(_legal)", "moves_played": "s[2]", "ended": "(s[4] is not None)",
}


@attrs.frozen
class Ref:
    """What a name refers to."""

    kind: str  # local, zone, zones (an array), var, vars (an array), const, def, builtin
    local: Local | None = None
    slot: int = 0  # a zone's or variable's slot; an array's first slot
    dim: tuple[str, int] | None = None  # an array's index kind and size
    value: Any = None  # a constant's value
    decl: A.DefDecl | None = None


def walk(node: Any) -> Iterator[A.Expr | A.Stmt]:
    """Every expression and statement in a node, itself included (a generic traversal:
    it belongs in lang/ast.py, next to the nodes)."""
    if isinstance(node, (A.Expr, A.Stmt)):
        yield node
        for f in attrs.fields(type(node)):
            if f.name != "span":
                yield from walk(getattr(node, f.name))
    elif isinstance(node, tuple):
        for x in node:
            yield from walk(x)


class Ctx:
    """The program being compiled, its slot layout, the module-wide names and spans, and
    whether to optimise."""

    def __init__(self, g: Checked, optimize: bool = True) -> None:
        self.g = g
        self.n = g.players
        self.optimize = optimize
        self.layout = Layout(g)
        self.names = Names()
        self.def_funcs: set[str] = set()  # defs called as functions: emit d_<name>

    # ---- the two questions the checker already answered
    def type_of(self, e: A.Expr) -> str:
        return self.g.types.get(id(e), "any")

    def resolve(self, e: A.Name, env: dict[str, Local]) -> Ref | None:
        """What a name refers to here: a local in scope first, then the declarations."""
        name = e.name
        if name in env:
            return Ref("local", local=env[name])
        g = self.g
        lay = self.layout
        if name in g.zones:
            z = g.zones[name]
            return Ref("zone" if z.dim is None else "zones", slot=lay.zone_base[name], dim=z.dim)
        if name in g.vars:
            v = g.vars[name]
            return Ref("var" if v.dim is None else "vars", slot=lay.var_base[name], dim=v.dim)
        if name in g.constants:
            return Ref("const", value=g.constants[name][1])
        if name in g.defs:
            return Ref("def", decl=g.defs[name])
        if name in BUILTIN_NAMES:
            return Ref("builtin")
        return None

    def local(self, e: A.Expr | None, env: dict[str, Local]) -> Local | None:
        """The local an expression names, if it is a local name (or `me`)."""
        if isinstance(e, A.Me):
            return env.get("me")
        if isinstance(e, A.Name):
            ref = self.resolve(e, env)
            return ref.local if ref is not None else None
        return None

    def callee(self, e: A.Call) -> A.DefDecl | None:
        """The def a call names (None: a built-in function)."""
        return self.g.defs.get(e.func)

    # ---- facts
    def const_int(self, e: A.Expr, env: dict[str, Local] | None = None) -> int | None:
        """The value of a constant integer expression (one constant folder: the
        checker's), unless a local name in scope hides a constant it names."""
        if env and any(isinstance(n, A.Expr) and self.local(n, env) is not None
                       for n in walk(e)):
            return None
        return self.g.const_int(e)

    def const_range(self, e: A.Expr) -> tuple[int | None, int | None]:
        if isinstance(e, A.Binary) and e.op == "..":
            return self.const_int(e.left), self.const_int(e.right)
        return None, None

    def helper(self, name: str) -> str:
        """A runtime helper's name for a call in the code being emitted, noting whether the
        call may raise or change the state (then the optimiser must not move that code)."""
        h = EXPORTED[name]
        if h.may_raise or not h.pure:
            self.names.unsafe += 1
        return name
