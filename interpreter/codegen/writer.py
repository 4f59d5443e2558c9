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
from typing import Any

import attrs

from ..lang import ast as A

INDENT = "    "


class Names:
    """Fresh temporaries and the span table, one for the whole module. Also what the
    lowering has emitted so far that later decisions depend on: how many calls of a helper
    that may raise, and how many assignment expressions (counted, never re-read from text)."""

    def __init__(self) -> None:
        self.spans: list[tuple[A.Span, str]] = []
        self.count = 0
        self.raising = 0  # calls of runtime helpers that may raise a rule error
        self.walrus = 0  # assignment expressions (`:=`)

    def tmp(self, base: str = "t") -> str:
        self.count += 1
        return f"_{base}{self.count}"

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


@attrs.define
class Local:
    """A name bound in generated code: a parameter, a loop variable, a `let`..."""

    code: str
    origin: str | None = None  # for a card: the zone (slot code) it was taken from
    lo: int | None = None  # known integer range, to skip index checks
    hi: int | None = None


@attrs.define
class Hoist:
    """The hoisting state of one legal-move generator (see optimize.py).

    A `def` argument that depends only on parameters of outer loops is computed once at
    that loop level, not in every inner iteration; `top of Z` needs no empty check where
    an earlier conjunct (`Z is not empty`) has guarded it."""

    param_level: dict[str, int]
    cur: int = 0  # the loop level being compiled
    hoisted: dict[int, list[tuple[str, str]]] = attrs.Factory(dict)
    by_code: dict[tuple[int, str], str] = attrs.Factory(dict)
    level_of: dict[str, int] = attrs.Factory(dict)  # hoisted variable -> its loop level
    guards: dict[str, int] = attrs.Factory(dict)
    guard_used: int = -1


@attrs.define
class Frame:
    """The compile-time scope: names, the rule (for messages), and the optimiser's state
    inside a legal-move generator (None elsewhere, and always None in plain code)."""

    env: dict[str, Local]
    rule: str
    hoist: Hoist | None = None
    # def tables of this generator: (def, range, args) -> (name, code); None: no tables here
    tables: dict[Any, tuple[str, str]] | None = None
    range_params: frozenset[str] = frozenset()  # move parameters over a constant range
    depth: int = 0  # defs being inlined around this point
    # in the flow: the phase new nodes belong to, and where `break` goes in each loop
    phase: str = ""
    loops: tuple[int, ...] = ()

    def scope(self) -> Frame:
        """A nested scope: names bound in it do not leak out."""
        return attrs.evolve(self, env=dict(self.env))

    def with_env(self, env: dict[str, Local]) -> Frame:
        return attrs.evolve(self, env=env)
