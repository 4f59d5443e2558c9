"""Diagnostics: compiler-quality messages for game files, and rule errors at run time.

A diagnostic prints as

    games/x.cardgame:12:5: error: unknown zone 'wast'
       12 |   move top of wast to foundation[k]
          |               ^^^^
    hint: did you mean 'waste'?
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from .terminal import sanitize


@attrs.frozen
class Span:
    """A source position: file, 1-based line and column, and end position."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


NOSPAN = Span("<builtin>", 0, 0, 0, 0)

MAX_SHOWN = 120  # characters of a source line shown under a message
MAX_ERRORS = 100  # a check stops after this many errors, as compilers do
MAX_HINT_CANDIDATES = 2_000  # names a did-you-mean hint compares with, at most


class CardgameError(Exception):
    """Base of every error a user may see; never shown as a traceback."""


class Diagnostic(CardgameError):
    def __init__(self, message: str, span: Span = NOSPAN, hint: str = "",
                 source: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.hint = hint
        self.source = source

    def format(self, source: str | None = None) -> str:
        src = source if source is not None else self.source
        sp = self.span
        # names and lines come from a file: shown safely, on one line each
        message = sanitize(self.message, newlines=False)
        head = f"{sp}: error: {message}" if sp.line else f"error: {message}"
        lines = [sanitize(head, newlines=False)]
        if src is not None and sp.line:
            # lines end at a line feed only, as the parser counts them (a form feed or a
            # U+2028 inside a line does not move the caret)
            text_lines = src.split("\n")
            if 0 < sp.line <= len(text_lines):
                raw = text_lines[sp.line - 1].rstrip("\r").expandtabs(1)
                start = max(sp.column - 1, 0)
                width = sp.end_column - sp.column if sp.end_line == sp.line else 1
                text = sanitize(raw, newlines=False)
                if text is not raw:  # an escape is wider than the character it shows
                    end = len(sanitize(raw[:start + max(width, 1)], newlines=False))
                    start = len(sanitize(raw[:start], newlines=False))
                    width = end - start
                num = str(sp.line)
                if len(text) > MAX_SHOWN:  # show a window of a very long line
                    left = max(0, start - MAX_SHOWN // 2)
                    piece = text[left:left + MAX_SHOWN]
                    prefix = "..." if left else ""
                    text = prefix + piece + ("..." if left + MAX_SHOWN < len(text) else "")
                    start = start - left + len(prefix)
                lines.append(f" {num} | {text}")
                width = max(1, min(width, max(len(text) - start, 1)))
                lines.append(f" {' ' * len(num)} | {' ' * start}{'^' * width}")
        if self.hint:
            lines.append(f"hint: {sanitize(self.hint, newlines=False)}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()


class Diagnostics(CardgameError):
    """Several diagnostics at once (the checker reports all it finds, up to MAX_ERRORS)."""

    def __init__(self, items: list[Diagnostic]) -> None:
        super().__init__(f"{len(items)} error(s)")
        self.items = items

    def __str__(self) -> str:
        return "\n".join(d.format() for d in self.items)


def span_text(source: str | None, span: Span) -> str:
    """The text of a span in a file's source, on one line ('' if unknown): the checker's
    hints and the engine's refusals quote the rules with it."""
    if source is None or span.line <= 0:
        return ""
    lines = source.splitlines()[span.line - 1:span.end_line]
    if not lines:
        return ""
    if len(lines) == 1:
        return lines[0][span.column - 1:span.end_column - 1]
    lines[0] = lines[0][span.column - 1:]
    lines[-1] = lines[-1][:span.end_column - 1]
    return " ".join(ln.strip() for ln in lines)


class RuleError(CardgameError):
    """A rule failed while a game ran: an empty pile, an index out of range, a loop..."""

    def __init__(self, message: str, span: Span = NOSPAN, rule: str = "") -> None:
        where = f"{span}: " if span.line else ""
        in_rule = f" (in {rule})" if rule else ""
        self.text = f"rule error{in_rule}: {message}"  # (without where it happened)
        super().__init__(where + self.text)
        self.message = message
        self.span = span
        self.rule = rule

    def diagnostic(self, source: str | None) -> Diagnostic:
        """The error as a diagnostic, to print with the rule's source line and a caret."""
        return Diagnostic(self.text, self.span, source=source)


class LogFailure(str):
    """The part of a `log` line whose expression failed, as the line shows it:
    `‹rule error: ...›` in place of the value. A log line is narration, so its failure
    never stops play; `error` (the RuleError, with its span) is kept for the REPL's
    message and for `fuzz`, which reports it as a rule hole."""

    error: RuleError

    def __new__(cls, error: RuleError) -> LogFailure:
        self = super().__new__(cls, f"\u2039rule error: {sanitize(error.message, newlines=False)}\u203a")
        self.error = error
        return self


class IllegalMove(CardgameError):
    """A move that is not legal in the current state, with a one-line reason."""


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    names = set(candidates)
    if len(names) > MAX_HINT_CANDIDATES:
        # bounded work: only names of about the same length, and not too many of them
        names = {c for c in names if abs(len(c) - len(name)) <= 2}
        names = set(sorted(names)[:MAX_HINT_CANDIDATES])
    import difflib  # (on an error only: not a cost of every command's start-up)

    close = difflib.get_close_matches(name, sorted(names), n=3, cutoff=0.6)
    if not close:
        return ""
    if len(close) == 1:
        return f"did you mean '{close[0]}'?"
    return "did you mean " + ", ".join(f"'{c}'" for c in close[:-1]) + f" or '{close[-1]}'?"


class UsageError(CardgameError):
    """A bad command line: printed as one line, exit code 2."""
