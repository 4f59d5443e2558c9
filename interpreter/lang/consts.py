"""The one constant folder: numbers, options, constant defs and arithmetic, folded from
the declarations alone (no checker state), so the checked program can carry it."""

from __future__ import annotations

from typing import Any

import attrs

from . import ast as A


@attrs.frozen
class Constants:
    """What the folder knows: named constants (type, value) and the constant defs."""

    values: dict[str, tuple[str, Any]]
    defs: dict[str, A.DefDecl] = attrs.field(factory=dict)  # `def x = ...` only


def const_int(e: A.Expr, c: Constants, folding: frozenset[str] = frozenset()) -> int | None:
    """The value of a constant integer expression, or None if it is not one.
    `folding`: the constant defs being unfolded (one that refers to itself is no constant)."""
    if isinstance(e, A.Int):
        return e.value
    if isinstance(e, A.Name) and e.name in c.values:
        t, v = c.values[e.name]
        if t == "int":
            return int(v)
    if isinstance(e, A.Name) and e.name in c.defs:
        if e.name in folding:
            return None
        return const_int(c.defs[e.name].body, c, folding | {e.name})
    if isinstance(e, A.Binary) and e.op in "+-*/%":
        a, b = const_int(e.left, c, folding), const_int(e.right, c, folding)
        if a is None or b is None:
            return None
        if e.op in "/%" and b == 0:
            return None
        return {"+": a + b, "-": a - b, "*": a * b, "/": a // b if b else 0,
                "%": a % b if b else 0}[e.op]
    if isinstance(e, A.Unary) and e.op == "-":
        a = const_int(e.operand, c, folding)
        return None if a is None else -a
    if isinstance(e, A.IfExpr):
        cond = const_bool(e.cond, c, folding)
        if cond is None:
            return None
        return const_int(e.then if cond else e.else_, c, folding)
    return None


def const_bool(e: A.Expr, c: Constants, folding: frozenset[str] = frozenset()) -> bool | None:
    if isinstance(e, A.Bool):
        return e.value
    if isinstance(e, A.Name) and e.name in c.values:
        t, v = c.values[e.name]
        return bool(v) if t == "bool" else None
    if isinstance(e, A.Binary) and e.op in ("==", "!="):
        a = const_value(e.left, c, folding)
        b = const_value(e.right, c, folding)
        if a is None or b is None:
            return None
        return (a == b) == (e.op == "==")
    return None


def const_value(e: A.Expr, c: Constants, folding: frozenset[str] = frozenset()) -> Any:
    if isinstance(e, A.Name) and e.name in c.values:
        return c.values[e.name][1]
    return const_int(e, c, folding)
