"""The one constant folder: numbers, options, constant defs and arithmetic, folded from
the declarations alone (no checker state), so the checked program can carry it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import attrs
else:  # the same declarations, built cheaply (lang/nodes.py): start-up time
    from . import nodes as attrs

from ..errors import Diagnostic
from . import ast as A

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


def _int64(v: int, e: A.Expr) -> int:
    """Constants are 64-bit, as numbers are at run time: a larger one is a located error."""
    if not INT64_MIN <= v <= INT64_MAX:
        raise Diagnostic("this constant is too large: its value does not fit in 64 bits "
                         f"(from {INT64_MIN:,} to {INT64_MAX:,})", e.span)
    return v


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
        if e.op == "*" and a and b and abs(a).bit_length() + abs(b).bit_length() > 130:
            return _int64(1 << 130, e)  # too large, without computing it
        return _int64({"+": a + b, "-": a - b, "*": a * b, "/": a // b if b else 0,
                       "%": a % b if b else 0}[e.op], e)
    if isinstance(e, A.Unary) and e.op == "-":
        a = const_int(e.operand, c, folding)
        return None if a is None else _int64(-a, e)
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
