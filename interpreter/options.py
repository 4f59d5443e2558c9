"""Command-line values shared by every command and the REPL (no argparse here), and
the text of a game option's value.

`cli` and `repl` both read `--set NAME=VALUE`; the parsing lives below both so that
neither imports the other.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import UsageError


def parse_settings(values: Sequence[str] | None) -> dict[str, str]:
    """`["a=1", "b = x"]` -> `{"a": "1", "b": "x"}`; a value without `=` is a usage error."""
    out: dict[str, str] = {}
    for item in values or ():
        if "=" not in item:
            raise UsageError(f"--set takes NAME=VALUE, not '{item}'")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def option_text(value: object) -> str:
    """A game option's value as it is written on the command line and in files:
    `true`/`false` for a bool (as `--set` takes it), `str(value)` otherwise."""
    return str(value).lower() if isinstance(value, bool) else str(value)
