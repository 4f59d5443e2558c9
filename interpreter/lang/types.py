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


def is_list(t: str) -> bool:
    return t.startswith("list:")


def list_of(t: str) -> str:
    return "list:" + t


def parse_type(text: str) -> str | None:
    """A type as written in a declaration (`card`, `list`, `list:card`), or None."""
    if text in SCALAR_TYPES:
        return text
    if text == "list":
        return "list:int"
    if text.startswith("list:") and text[5:] in SCALAR_TYPES:
        return text
    return None


def shown(text: str) -> str:
    """A type as the player writes it: `list of card`."""
    return text.replace(":", " of ")


def iterated(t: str) -> str | None:
    """The type of the items a loop over t goes through, None if t cannot be gone through."""
    if t == "zone":
        return "card"
    if is_list(t):
        return elem(t)
    if t == "any":
        return "any"
    return None


def comparable(a: str, b: str) -> bool:
    """May `a == b` be asked? (A seat number may be compared with a player.)"""
    return compatible(a, b) or {a, b} <= {"int", "player"}
