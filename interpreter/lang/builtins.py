"""The built-in functions and names of the language."""

from __future__ import annotations

PURE_BUILTINS = {
    "size", "count", "min", "max", "abs", "sum", "first", "last", "rest",
    "distance", "cards", "reverse", "sorted",
}
