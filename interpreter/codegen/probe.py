"""Expressions read outside the rules: a small plain module with one function per
expression, generated only when a tool asks (an example's expectations, docs/testing.md).

`prober(g, exprs)` returns the module's source and its span table. Function `e_<i>(s)`
computes expression i over the state's slots, with a fresh step budget. The expressions
must have been checked (their types and names are in the program's tables); the names
`p1`..`pN` an example's checker binds are constants and need no frame. The code is plain
(no optimiser): it runs a few times per example.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import attrs
else:  # the same declarations, built cheaply (lang/nodes.py): start-up time
    from ..lang import nodes as attrs

from ..lang import Checked
from ..lang import ast as A
from .context import Ctx
from .exprs import Exprs
from .module import def_functions, tables
from .runtime import STEPS
from .writer import Frame


@attrs.define
class Probe:
    source: str
    spans: list[tuple[A.Span, str]]
    funcs: list[str]  # e_<i>, one per expression, in order


def prober(g: Checked, exprs: Sequence[A.Expr], rule: str = "example") -> Probe:
    cx = Ctx(g, optimize=False)
    x = Exprs(cx)
    out = tables(cx)
    funcs = []
    for i, e in enumerate(exprs):
        func = f"e_{i}"
        out += [f"def {func}(s):", f"    _B[0] = {STEPS}",
                f"    return {x.expr(e, Frame({}, rule))}", ""]
        funcs.append(func)
    out += def_functions(x)
    return Probe("\n".join(out) + "\n", cx.names.spans, funcs)
