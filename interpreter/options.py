"""Command-line values shared by every command and the REPL (no argparse here), and
the text of a game option's value.

`cli` and `repl` both read `--set NAME=VALUE`; the parsing lives below both so that
neither imports the other.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .errors import UsageError

# A number on the command line: plain ASCII digits, at most 18 of them (64-bit); Python's
# int() would also take `1_0`, ` 3` and Arabic-Indic digits.
_NUMBER = re.compile(r"[+-]?[0-9]{1,18}")


def parse_int(text: str) -> int | None:
    """`text` as a number, or None if it is not plain ASCII digits (at most 18)."""
    return int(text) if _NUMBER.fullmatch(text) else None


def parse_settings(values: Sequence[str] | None) -> dict[str, str]:
    """`["a=1", "b = x"]` -> `{"a": "1", "b": "x"}`; a value without `=` is a usage error."""
    out: dict[str, str] = {}
    for item in values or ():
        if "=" not in item:
            raise UsageError(f"--set takes NAME=VALUE, not '{item}'")
        k, v = item.split("=", 1)
        k = k.strip()
        if k == "players":  # not an option: silently ignoring it would mislead
            raise UsageError(f"--set {item.strip()}: the number of players is not an option; "
                             f"use --players {v.strip()}")
        out[k] = v.strip()
    return out


def option_text(value: object) -> str:
    """A game option's value as it is written on the command line and in files:
    `true`/`false` for a bool (as `--set` takes it), `str(value)` otherwise."""
    return str(value).lower() if isinstance(value, bool) else str(value)
