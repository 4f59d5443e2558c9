"""What the checking passes share: the diagnostics, the declarations known so far, local
scopes and the context a rule is checked in.

The passes (declare, check_expr, check_stmt) hold no other state in common: one
`Reporter`, one `Symbols` table, and `Scope`/`Ctx` values handed down as parameters.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import attrs
else:  # the same declarations, built cheaply (lang/nodes.py): start-up time
    from . import nodes as attrs

from ..cards import SUITS
from ..errors import MAX_ERRORS, Diagnostic, Diagnostics
from . import ast as A
from .consts import Constants
from .program import NodeTable, Ref, VarInfo, ZoneInfo


class Reporter:
    """The one diagnostics list of a check: every pass reports here, in order."""

    def __init__(self, sources: dict[str, str]) -> None:
        self.sources = sources
        self.errors: list[Diagnostic] = []
        self._seen: set[tuple[A.Span, str]] = set()

    def err(self, msg: str, span: A.Span, hint: str = "") -> None:
        if (span, msg) in self._seen:
            return
        self._seen.add((span, msg))
        self.errors.append(Diagnostic(msg, span, hint, self.sources.get(span.file)))
        if len(self.errors) >= MAX_ERRORS:
            # as compilers do: the first errors are the ones worth reading
            raise Diagnostics([*self.errors, Diagnostic(
                f"too many errors; stopping after the first {MAX_ERRORS}")])

    def fatal(self, msg: str, span: A.Span = A.NOSPAN, hint: str = "") -> Diagnostic:
        """An error that stops the check at once (a bad player count or option value)."""
        return Diagnostic(msg, span, hint, self.sources.get(span.file))

    def fail(self) -> None:
        if self.errors:
            if len(self.errors) == 1:
                raise self.errors[0]
            raise Diagnostics(self.errors)


@attrs.define
class Symbols:
    """The declarations, filled in by the declarations pass and read by the others.
    `vars` grows while the variables are declared: a start value sees the ones before."""

    players: int
    constants: dict[str, tuple[str, Any]]
    consts: Constants
    card_attrs: tuple[str, ...]
    bool_attrs: frozenset[str]
    zones: dict[str, ZoneInfo]
    vars: dict[str, VarInfo]
    defs: dict[str, A.DefDecl]
    procs: dict[str, A.ProcDecl]
    moves: dict[str, A.MoveDecl]
    option_decls: dict[str, A.OptionDecl] = attrs.field(factory=dict)
    blocking: set[str] = attrs.field(factory=set)
    suit_names: tuple[str, ...] = SUITS
    roles: dict[str, str] = attrs.field(factory=dict)  # `role NAME "label"`: name -> label
    # what the checker records, once per node
    types: NodeTable[str] = attrs.field(factory=lambda: NodeTable("type"))
    refs: NodeTable[Ref] = attrs.field(factory=lambda: NodeTable("ref"))


class Scope:
    """Local names: params, lets, loop and quantifier variables, each with its Ref."""

    __slots__ = ("names", "parent")

    def __init__(self, parent: Scope | None = None) -> None:
        self.parent = parent
        self.names: dict[str, Ref] = {}

    def bind(self, kind: str, name: str, t: str, decl: Any) -> None:
        self.names[name] = Ref(kind, name, t, decl)

    def lookup(self, name: str) -> Ref | None:
        s: Scope | None = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def all_names(self) -> Iterator[str]:
        s: Scope | None = self
        while s is not None:
            yield from s.names
            s = s.parent


@attrs.frozen
class Ctx:
    """Where a rule is checked: what it may do and what it may name."""

    kind: str  # pure, setup, move, proc, flow
    me: bool = False  # is `me` (the player making the move) known?
    loop: int = 0  # enclosing loops, for `break`
    rule: str = ""  # "move take", "end", "invariant no_loss", ...
