"""The built-in functions and names of the language: one table, read by every pass.

    from cardgame.interpreter.lang import BUILTINS
    BUILTINS["size"].may_fail     # False: size(...) never fails when the game runs
    BUILTINS["first"].arity       # (1, 1)
    BUILTINS["suits"].type        # "list:suit" (a name, not a function)

For each entry:
- `arity`: (least, most) arguments, most None for any number; None for a name;
- `type`: a name's type; `rule`, for a function, checks the argument types of one call
  (reporting what is wrong) and returns the call's type;
- `may_fail`: can evaluating it fail while the game runs (an empty list or zone, a bad
  argument)? The code generator tests such conditions after the ones that guard them and
  never evaluates them ahead of time. It is conservative: `min(a, b)` cannot fail but
  `min(list)` can, so `min` may fail;
- `chance`: a chance event (`random`): not allowed where a rule must be pure;
- `end_only`: known only in `end when` and `invariant` (it needs the legal moves);
- `def_shadows`: a function `def` of the same name hides it (the order names have
  always been resolved in).

How each built-in is lowered to Python belongs to the code generator, keyed by name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import attrs
else:  # the same declarations, built cheaply (lang/nodes.py): start-up time
    from . import nodes as attrs

from . import ast as A
from .types import compatible, elem, is_list


@attrs.define
class CallSite:
    """One call of a built-in function being checked: the argument types found, and
    where to report what is wrong with them."""

    call: A.Call
    types: list[str]
    arity: tuple[int, int | None]
    report: Callable[[str, A.Span], None]

    def arity_ok(self) -> bool:
        lo, hi = self.arity
        n = len(self.types)
        if lo <= n and (hi is None or n <= hi):
            return True
        ns = (lo,) if hi == lo else (lo, lo + 1)  # min/max: "takes 1 or 2 arguments"
        want = " or ".join(str(x) for x in ns)
        self.report(f"'{self.call.func}' takes {want} argument{'s' if ns != (1,) else ''}, "
                    f"given {n}", self.call.span)
        return False

    def want(self, i: int, t: str) -> None:
        if i < len(self.types) and not compatible(t, self.types[i]):
            self.report(f"argument {i + 1} of '{self.call.func}' must be {t}, not "
                        f"{self.types[i]}", self.call.args[i].span)

    def wrong(self, i: int, what: str) -> None:
        self.report(f"'{self.call.func}' {what}, found {self.types[i]}", self.call.args[i].span)


def _count(c: CallSite) -> str:
    t = c.types
    if c.arity_ok() and not (t[0] in ("zone", "any") or is_list(t[0])):
        c.wrong(0, "needs a zone or a list")
    return "int"


def _cards(c: CallSite) -> str:
    if c.arity_ok():
        c.want(0, "zone")
    return "list:card"


def _min_max(c: CallSite) -> str:
    if len(c.types) == 1 and c.types[0] in ("zone", "list:card"):
        return "card"  # the highest (lowest) card by the deck's order: checked by the caller
    if len(c.types) >= 2 and all(t in ("card", "any") for t in c.types) and "card" in c.types:
        return "card"
    if len(c.types) == 1:
        c.want(0, "list:int")
    elif len(c.types) >= 2:
        for i in range(len(c.types)):
            c.want(i, "int")
    else:
        c.arity_ok()
    return "int"


def _ints(*wants: str) -> Callable[[CallSite], str]:
    def rule(c: CallSite) -> str:
        if c.arity_ok():
            for i, t in enumerate(wants):
                c.want(i, t)
        return "int"
    return rule


def _element(c: CallSite) -> str:
    """first, last, random: one element of a list (a card of a zone)."""
    if c.arity_ok():
        t = c.types[0]
        if t == "zone":
            return "card"
        if not is_list(t) and t != "any":
            c.wrong(0, "needs a list")
        return elem(t)
    return "any"


def _sublist(c: CallSite) -> str:
    """rest, reverse, sorted: a list of the same type (the cards of a zone)."""
    if c.arity_ok():
        t = c.types[0]
        if t == "zone":
            return "list:card"
        if not is_list(t) and t != "any":
            c.wrong(0, "needs a list")
        return t
    return "any"


def _covered(c: CallSite) -> str:
    if c.arity_ok() and not compatible("zone", c.types[0]):
        c.report(f"'is covered' asks about a place of a zone, not a {c.types[0]}: name the "
                 "place ('pyramid[7][1] is covered', or 'each z in pyramid where z is not "
                 "covered: top of z')", c.call.args[0].span)
    return "bool"


@attrs.frozen
class Builtin:
    name: str
    arity: tuple[int, int | None] | None  # (least, most) arguments; None: a name
    may_fail: bool
    rule: Callable[[CallSite], str] | None = None  # a function's typing rule
    type: str = ""  # a name's type
    chance: bool = False
    end_only: bool = False
    def_shadows: bool = False
    doc: str = ""

    @property
    def is_function(self) -> bool:
        return self.arity is not None


_TABLE = (
    # functions
    Builtin("size", (1, 1), False, _count, doc="the number of cards in a zone (or in all zones of a list of zones), or of items in a list"),
    Builtin("count", (1, 1), False, _count,
            doc="the number of items in a list (of zones: the zones), or of cards in a zone"),
    Builtin("cards", (1, 1), False, _cards, doc="the cards of a zone, bottom first"),
    Builtin("min", (1, None), True, _min_max, doc="the least of a list of numbers, or of numbers"),
    Builtin("max", (1, None), True, _min_max, doc="the greatest of a list of numbers, or of numbers"),
    Builtin("abs", (1, 1), False, _ints("int"), doc="the absolute value"),
    Builtin("sum", (1, 1), False, _ints("list:int"), doc="the sum of a list of numbers"),
    Builtin("first", (1, 1), True, _element, doc="the first item (fails on an empty list)"),
    Builtin("last", (1, 1), True, _element, doc="the last item (fails on an empty list)"),
    Builtin("random", (1, 1), True, _element, chance=True,
            doc="an item chosen at random (a chance event)"),
    Builtin("rest", (1, 1), False, _sublist, doc="all items but the first"),
    Builtin("reverse", (1, 1), False, _sublist, doc="the items in reverse order"),
    Builtin("sorted", (1, 1), False, _sublist, doc="the items in increasing order"),
    Builtin("distance", (3, 3), True, _ints("int", "int", "int"),
            doc="distance(a, b, n): steps between a and b around a cycle of n (fails if n <= 0)"),
    Builtin("covered", (1, 1), False, _covered,
            doc="a place of a zone declared with 'covered by' is covered: a place that covers "
                "it holds a card (also written 'z is covered')"),
    # names
    Builtin("suits", None, False, type="list:suit", doc="the four suits"),
    Builtin("colors", None, False, type="list:color", doc="the two colours"),
    Builtin("no_moves", None, False, type="bool", end_only=True,
            doc="the player to move has no legal move"),
    Builtin("legal_count", None, False, type="int", end_only=True,
            doc="the number of legal moves"),
    Builtin("moves_played", None, False, type="int", def_shadows=True,
            doc="moves applied so far"),
    Builtin("ended", None, False, type="bool", def_shadows=True, doc="the game has ended"),
)

BUILTINS: dict[str, Builtin] = {b.name: b for b in _TABLE}
FUNCTIONS: dict[str, Builtin] = {k: b for k, b in BUILTINS.items() if b.is_function}
NAMES: dict[str, Builtin] = {k: b for k, b in BUILTINS.items() if not b.is_function}
