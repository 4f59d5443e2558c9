"""Stage 1: text -> Lark parse tree, with friendly syntax errors."""

from __future__ import annotations

import functools
import importlib.resources
from typing import Any

import lark
from lark.lexer import PatternStr

from ..errors import Diagnostic
from .ast import Span
from .parser_cache import cache_key, cached

# Words for terminals whose Lark names mean little to a user.
_TERMINAL_WORDS = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a string",
    "COMP": "a comparison",
    "ADDOP": "'+' or '-'",
    "MULOP": "'*', '/' or '%'",
    "QUANT": "a quantifier (any, all, count, sum, min, max, first, each, random)",
    "HIGHLOW": "'highest' or 'lowest'",
    "$END": "the end of the file",
}


@functools.lru_cache(maxsize=1)
def grammar_text() -> str:
    return importlib.resources.files("cardgame.grammar").joinpath("cardgame.lark").read_text(
        encoding="utf-8"
    )


_LARK_OPTIONS: dict[str, Any] = {
    "parser": "lalr",
    "start": ["start", "expr"],
    "propagate_positions": True,
    "maybe_placeholders": True,
}


@functools.lru_cache(maxsize=1)
def lark_parser() -> lark.Lark:
    # Building the LALR table is most of a short command's time: the table is kept in the
    # user's cache directory, keyed by the grammar, these options and Lark's version.
    key = cache_key(grammar_text(), repr(sorted(_LARK_OPTIONS.items())), lark.__version__)
    return cached(key, lambda: lark.Lark(grammar_text(), **_LARK_OPTIONS),
                  lambda p, f: p.save(f), lark.Lark.load)


@functools.lru_cache(maxsize=1)
def _terminal_words() -> dict[str, str]:
    words = dict(_TERMINAL_WORDS)
    for term in lark_parser().terminals:
        if isinstance(term.pattern, PatternStr):
            words.setdefault(term.name, f"'{term.pattern.value}'")
    return words


def describe_terminal(name: str) -> str:
    return _terminal_words().get(name, name.lower())


def _describe_token(tok: lark.Token) -> str:
    if tok.type == "$END":
        return "the end of the file"
    if tok.type == "INT":
        return f"number {tok}"
    if tok.type == "STRING":
        return "string"
    if tok.type == "NAME":
        return f"name '{tok}'"
    return repr(str(tok))


_FIRST = ("'}'", "')'", "']'", "a name", "a number", "a string")


def _expected_hint(expected: set[str]) -> str:
    words = sorted({describe_terminal(e) for e in expected if not e.startswith("__")},
                   key=lambda w: (_FIRST.index(w) if w in _FIRST else len(_FIRST), w))
    if not words:
        return ""
    if len(words) > 8:
        words = words[:8] + ["..."]
    return "expected " + (words[0] if len(words) == 1 else "one of: " + ", ".join(words))


# Operators from other languages, and what to write instead.
TRIPLE = '"' * 3
_FOREIGN = {"&&": "and", "||": "or", "!": "not", "&": "and", "|": "or"}


def _scan(source: str, filename: str) -> None:
    """Errors the lexer reports badly: an unclosed triple-quoted string."""
    i = 0
    n = len(source)
    while i < n:
        ch = source[i]
        if ch == "#":
            j = source.find("\n", i)
            i = n if j < 0 else j
        elif source.startswith(TRIPLE, i):
            j = source.find(TRIPLE, i + 3)
            if j < 0:
                line = source.count("\n", 0, i) + 1
                col = i - (source.rfind("\n", 0, i) + 1) + 1
                raise Diagnostic('this """ string is never closed',
                                 Span(filename, line, col, line, col + 3),
                                 'close it with """ (it may span several lines)')
            i = j + 3
        elif ch == '"':
            j = i + 1
            while j < n and source[j] not in '"\n':
                j += 2 if source[j] == "\\" else 1
            i = j + 1
        else:
            i += 1


def _unclosed_brace(source: str, filename: str) -> Span | None:
    """Where the innermost block still open at the end of the file began."""
    stack: list[Span] = []
    try:
        for tok in lark_parser().lex(source):
            if tok.type == "LBRACE":
                stack.append(Span(filename, tok.line or 0, tok.column or 0, tok.line or 0,
                                  (tok.column or 0) + 1))
            elif tok.type == "RBRACE" and stack:
                stack.pop()
    except lark.exceptions.LarkError:
        return None
    return stack[-1] if stack else None


def _unclosed_before(source: str, filename: str, bad: lark.Token) -> Diagnostic | None:
    """A block left open before the token the parser stumbled on, judged by indentation:
    a `}` less indented than the line that opened the innermost block closes an outer
    one, so the inner one lacks its `}`; and the parser stopping on a line no more
    indented than the line that opened the innermost block means that block ran on."""
    lines = source.splitlines()

    def indent(line: int) -> int:
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        return len(text) - len(text.lstrip())

    stack: list[tuple[lark.Token, int]] = []
    suspect: lark.Token | None = None
    try:
        for tok in lark_parser().lex(source):
            if (tok.line, tok.column) >= (bad.line, bad.column):
                break
            if tok.type == "LBRACE":
                stack.append((tok, indent(tok.line or 0)))
            elif tok.type == "RBRACE" and stack:
                ind = indent(tok.line or 0)
                if suspect is None and stack[-1][1] > ind and any(i == ind for _, i in stack):
                    suspect = stack[-1][0]
                stack.pop()
    except lark.exceptions.LarkError:
        return None
    if suspect is None and stack and indent(bad.line or 0) <= stack[-1][1]:
        suspect = stack[-1][0]
    if suspect is None:
        return None
    line, col = suspect.line or 0, suspect.column or 0
    return Diagnostic("this block is never closed", Span(filename, line, col, line, col + 1),
                      f"add its '}}' (the parser stopped at line {bad.line}: "
                      f"unexpected {_describe_token(bad)})")


def parse(source: str, filename: str, start: str = "start",
          line_offset: int = 0, col_offset: int = 0) -> lark.Tree:
    """Parse a whole file (or, with start='expr', one expression)."""
    if start == "start":
        _scan(source, filename)
    try:
        return lark_parser().parse(source, start=start)
    except lark.exceptions.UnexpectedToken as e:
        tok = e.token
        line = (tok.line or 1) + line_offset
        col = (tok.column or 1) + (col_offset if (tok.line or 1) == 1 else 0)
        width = len(str(tok)) if tok.type != "$END" else 1
        span = Span(filename, line, col, line, col + width)
        hint = _expected_hint(set(e.expected))
        if tok.type == "$END":
            msg = "unexpected end of file"
            span = _end_span(source, filename, line_offset)
            opened = _unclosed_brace(source, filename) if start == "start" else None
            if opened is not None:
                hint = f"expected '}}' to close the block opened at {opened.line}:{opened.column}"
        else:
            msg = f"unexpected {_describe_token(tok)}"
            unclosed = _unclosed_before(source, filename, tok) if start == "start" else None
            if unclosed is not None:
                raise unclosed from None
            text = source.splitlines()[(tok.line or 1) - 1] if source else ""
            if str(tok) == "|" and text[(tok.column or 1) - 1:(tok.column or 1) + 1] == "||":
                msg, hint = "unexpected '||'", "write 'or' instead of '||'"
                span = Span(filename, line, col, line, col + 2)
        raise Diagnostic(msg, span, hint) from None
    except lark.exceptions.UnexpectedCharacters as e:
        line = e.line + line_offset
        col = e.column + (col_offset if e.line == 1 else 0)
        text = source.splitlines()[e.line - 1] if e.line <= len(source.splitlines()) else ""
        ch = text[e.column - 1] if 0 < e.column <= len(text) else "?"
        two = text[e.column - 1:e.column + 1]
        width = 1
        hint = ""
        if ch == '"':
            hint = 'a string must be closed on the same line (or use """...""")'
        elif two in _FOREIGN or ch in _FOREIGN:
            op = two if two in _FOREIGN else ch
            width = len(op)
            hint = f"write '{_FOREIGN[op]}' instead of '{op}'"
            ch = op
        elif e.allowed:
            hint = _expected_hint(set(e.allowed))
        raise Diagnostic(f"unexpected {ch!r}" if len(ch) > 1 else f"unexpected character {ch!r}",
                         Span(filename, line, col, line, col + width), hint) from None
    except lark.exceptions.UnexpectedEOF as e:
        raise Diagnostic("unexpected end of file", _end_span(source, filename, line_offset),
                         _expected_hint(set(e.expected))) from None


def _end_span(source: str, filename: str, line_offset: int) -> Span:
    lines = source.splitlines() or [""]
    n = len(lines)
    col = len(lines[-1]) + 1
    return Span(filename, n + line_offset, col, n + line_offset, col + 1)
