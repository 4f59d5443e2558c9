"""Types of the language, and every operation on them.

A type is a string: a scalar (`int bool card player suit color sym zone`), `none` (the
type of the literal `none`), `any` (unknown: an error was reported, or a value whose type
no rule decides) or `list:T` for a list of T (`list:card`, `list:zone`, ...).
"""

from __future__ import annotations

SCALAR_TYPES = ("int", "bool", "card", "player", "suit", "color", "sym", "zone")
NULLABLE = ("card", "player", "suit", "color", "zone", "sym")


def elem(t: str) -> str:
    return t[5:] if t.startswith("list:") else "any"


def compatible(want: str, got: str) -> bool:
    if want == got or "any" in (want, got):
        return True
    if want == "player" and got == "int":
        return True  # seats are numbered: `1 chooses`, `players from 3` (checked when run)
    if got == "none" and want in NULLABLE:
        return True
    if want == "none" and got in NULLABLE:
        return True
    if want.startswith("list:") and got.startswith("list:"):
        return compatible(elem(want), elem(got))
    return False


def unify(a: str, b: str) -> str:
    if a == "any" or a == "none":
        return b
    if b == "any" or b == "none":
        return a
    if a.startswith("list:") and b.startswith("list:"):
        return "list:" + unify(elem(a), elem(b))
    return a
