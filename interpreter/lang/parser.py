"""Stage 1: text -> Lark parse tree, with friendly syntax errors."""

from __future__ import annotations

import functools
import importlib.resources
import re
import unicodedata
from typing import Any

import lark
from lark.lexer import PatternStr

from ..errors import Diagnostic
from .ast import Span
from .parser_cache import cache_key, cached
from .words import KEYWORDS

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
    "CARD": "a card (7♣)",
    "EX_RESULT": "'wins', 'loses', 'draws' or 'pushes'",
    "_EXPECT_KW": "'expect'", "_SOMETIMES": "'sometimes'", "_NEVER": "'never'",
    **{term: f"'{word}'" for word, term in {
        "expect": "_EX_EXPECT", "set": "_EX_SET", "has": "_EX_HAS",
        "no": "_EX_NO", "plays": "_EX_PLAYS", "can": "_EX_CAN", "cannot": "_EX_CANNOT",
        "play": "_EX_PLAY", "see": "_EX_SEE", "because": "_EX_BECAUSE", "scores": "_EX_SCORES",
        "over": "_EX_OVER"}.items()},
    "$END": "the end of the file",
}


@functools.lru_cache(maxsize=1)
def grammar_text() -> str:
    return importlib.resources.files("cardgame.grammar").joinpath("cardgame.lark").read_text(
        encoding="utf-8"
    )


# The words of an `example` block: keywords there only. Elsewhere they are names (a game
# may have a variable `scores` or a def `wins`).
EXAMPLE_WORDS = {"expect": "_EX_EXPECT", "set": "_EX_SET", "has": "_EX_HAS", "no": "_EX_NO",
                 "plays": "_EX_PLAYS", "can": "_EX_CAN", "cannot": "_EX_CANNOT",
                 "play": "_EX_PLAY", "see": "_EX_SEE", "because": "_EX_BECAUSE",
                 "wins": "EX_RESULT", "loses": "EX_RESULT", "draws": "EX_RESULT",
                 "pushes": "EX_RESULT",
                 "scores": "_EX_SCORES", "over": "_EX_OVER"}


_POSTLEXED = frozenset(EXAMPLE_WORDS.values())
# the keywords of declarations, none of which starts a step of an example
_DECLARATION_WORDS = frozenset({
    "GAME", "ABOUT", "USE", "DECK", "ZONE", "VAR", "TABLE", "DEF", "PROC", "MOVE", "SETUP",
    "FLOW", "END", "SCORE", "RESULT", "INVARIANT", "LIMIT", "AUTO", "EQUIVALENT", "EXAMPLE",
    "ROLE"})
_EXPECTATION = re.compile(r"[ \t\r\n]+(sometimes|never)(?![A-Za-z0-9_])")
_SOURCE = [""]  # the text being parsed, for the post-lexer's one look ahead


class ExampleWords:
    """Lark's post-lexer: inside the braces of `example "NAME" { ... }` the example words
    are retyped from names to their keywords."""

    always_accept = ("NAME",)

    def process(self, stream: Any) -> Any:
        return self._examples(self._expectations(stream))

    @staticmethod
    def _expectations(stream: Any) -> Any:
        """`expect sometimes` / `expect never` become the keywords of an expectation; any
        other `expect` stays a name. The word after `expect` is read from the source text
        (`_SOURCE`), not from the token stream: the contextual lexer lexes a token in the
        parser's state, so a token held back to look ahead would be lexed in the wrong
        one."""
        after = None  # the kind of the word after a retyped `expect`
        for tok in stream:
            if after is not None and tok.type == "NAME" and str(tok) == after:
                tok = lark.Token.new_borrow_pos(
                    "_SOMETIMES" if after == "sometimes" else "_NEVER", str(tok), tok)
            after = None
            if tok.type == "NAME" and str(tok) == "expect" and tok.end_pos is not None:
                m = _EXPECTATION.match(_SOURCE[0], tok.end_pos)
                if m:
                    after = m.group(1)
                    tok = lark.Token.new_borrow_pos("_EXPECT_KW", str(tok), tok)
            yield tok

    @staticmethod
    def _examples(stream: Any) -> Any:
        depth = 0  # braces open inside an example block (0: outside one)
        opening = False  # after `example`, before its `{`
        line = 0  # the line of the last token
        for tok in stream:
            first, line = tok.line != line, tok.line
            if depth and first and tok.type in _DECLARATION_WORDS:
                # a step that starts with a zone named like a declaration (`deck is
                # empty`, `table is "7♣"`): after a step that ends in a number, the LALR
                # state is shared with declarations, and the contextual lexer lexed the
                # declaration keyword; no step starts with one
                tok = lark.Token.new_borrow_pos("NAME", str(tok), tok)
            if depth == 0:
                if tok.type == "EXAMPLE":
                    opening = True
                elif opening and tok.type == "LBRACE":
                    depth, opening = 1, False
                elif tok.type != "STRING":
                    opening = False
            elif tok.type == "LBRACE":
                depth += 1
            elif tok.type == "RBRACE":
                depth -= 1
            elif tok.type == "NAME" and str(tok) in EXAMPLE_WORDS:
                tok = lark.Token.new_borrow_pos(EXAMPLE_WORDS[str(tok)], str(tok), tok)
            yield tok


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
    return cached(key, lambda: lark.Lark(grammar_text(), postlex=ExampleWords(),
                                         **_LARK_OPTIONS),
                  lambda p, f: p.save(f),
                  lambda f: lark.Lark.__new__(lark.Lark)._load(f, postlex=ExampleWords()))


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


# Limits on a game file's text (docs/limits.md): a file of more words than this is
# refused before Lark parses it, so that parsing stays within a few seconds; deeper
# nesting than this is refused before any recursive pass sees it.
MAX_TOKENS = 50_000
MAX_NESTING = 100

# What the scanner skips or stops at: comments, strings, a non-ASCII character outside
# them, and any other word or symbol (counted).
# A card in an example (`7♣`, `10♥`) is the one place a suit symbol stands outside a string.
_SCAN = re.compile(r'#[^\n]*|"""|"(?:[^"\\\n]|\\.)*"?|(?<![A-Za-z0-9_])(?:10|[2-9AJQK])[♠♥♦♣]'
                   r'|([^\x00-\x7f])|[A-Za-z0-9_]+|\S')
_SUIT_SYMBOLS = "♠♥♦♣"
# what stands just before a suit symbol when it was meant as a card's rank: a number or
# one letter (`11♦`, `q♦`, `1♣`)
_RANK_BEFORE = re.compile(r"(?<![A-Za-z0-9_])(?:[0-9]+|[A-Za-z])\Z")
_RANKS_HINT = ("the ranks are 2 3 4 5 6 7 8 9 10 J Q K A, before the suit (10♦, Q♦); a "
               "custom deck's card is written between quotes, as the deck names it")
# a card written with a suit letter, which only a string allows (`"5c"`)
_LETTER_CARD = re.compile(r"(10|[2-9AJQK])([shdc])", re.IGNORECASE)
_WORDS = re.compile(r"[A-Za-z0-9_]+|[^\sA-Za-z0-9_]")

# Letters of other scripts that look like ASCII ones (the usual confusables).
_LOOKALIKE = dict(zip(
    "\u0430\u0432\u0435\u043a\u043c\u043d\u043e\u0440\u0441\u0442\u0443\u0445\u0456\u0458\u0455\u0501"
    "\u0410\u0412\u0415\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0425\u0406\u0408\u0405"
    "\u03bf\u03b1\u03bd\u03b9\u039f\u0391\u0392\u0395\u0396\u0397\u0399\u039a\u039c\u039d\u03a1\u03a4\u03a7\u03a5"
    "\u0131\u0261\uff41\uff45\uff4f",
    "aBekMHopcTyxijsd"
    "ABEKMHOPCTXIJS"
    "oavioABEZHIKMNPTXY"
    "igaeo", strict=True))


def position(source: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of a character: lines end at a line feed only, as
    Lark counts them and as `Diagnostic.format` splits them."""
    line = source.count("\n", 0, offset) + 1
    return line, offset - (source.rfind("\n", 0, offset) + 1) + 1


def _scan(source: str, filename: str) -> None:
    """Errors the lexer reports badly or too late: an unclosed triple-quoted string, a
    character outside ASCII in a name or keyword, a file of too many words."""
    n = len(source)
    i = 0
    words = 0
    while i < n:
        m = _SCAN.search(source, i)
        if m is None:
            return
        i = m.end()
        text = m.group()
        if text == TRIPLE:
            j = source.find(TRIPLE, i)
            if j < 0:
                line, col = position(source, m.start())
                raise Diagnostic('this """ string is never closed',
                                 Span(filename, line, col, line, col + 3),
                                 'close it with """ (it may span several lines)')
            if "{" in source[i:j]:
                words += len(_WORDS.findall(source, i, j))
            i = j + 3
        elif m.group(1) is not None:
            line, col = position(source, m.start())
            rank = _RANK_BEFORE.search(source, 0, m.start())
            if text in _SUIT_SYMBOLS and rank is not None:
                # `11♦`: a suit symbol after a word the scanner did not take for a card
                # rank; the mistake is the rank, not the symbol
                # (a custom deck may have it: it is then written quoted, as the hint says)
                raise Diagnostic(f"there is no card '{rank.group()}{text}' in a standard deck",
                                 Span(filename, line, col - len(rank.group()), line, col + 1),
                                 _RANKS_HINT)
            raise _foreign_char(text, Span(filename, line, col, line, col + 1))
        elif text[0] == "#":
            continue
        elif text[0] == '"' and "{" in text:  # each placeholder is parsed: count its words
            words += len(_WORDS.findall(text))
        words += 1
        if words > MAX_TOKENS:
            line, col = position(source, m.start())
            raise Diagnostic(f"this file has more than {MAX_TOKENS:,} words and symbols "
                             "(the limit of a game file)", Span(filename, line, col, line, col + 1),
                             "a game this large is not supported; see docs/limits.md")


def _foreign_char(ch: str, span: Span) -> Diagnostic:
    name = unicodedata.name(ch, "")
    what = f"U+{ord(ch):04X}" + (f" {name}" if name else "")
    ascii_ = _LOOKALIKE.get(ch)
    if ascii_ is not None:
        hint = f"it looks like the ASCII letter '{ascii_}'; names and keywords are ASCII only"
    elif ch in "\u2028\u2029\x85":
        hint = "end the line with a plain line break"
    elif ch in "\u201c\u201d\u201e":
        hint = 'write a string between plain double quotes "..."'
    else:
        hint = "outside a string or a comment, a game file is ASCII only"
    shown = ch if ch.isprintable() else f"\\u{ord(ch):04x}"
    return Diagnostic(f"unexpected character '{shown}' ({what})", span, hint)


def _too_deep(tree: lark.Tree, filename: str, line_offset: int, col_offset: int) -> None:
    """Refuse a parse tree nested more than MAX_NESTING levels (blocks not counted, each
    operand of an `and`/`or` chain counted): every later pass recurses on it."""
    stack: list[tuple[lark.Tree, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        data = node.data
        if data in ("block", "start"):
            inner = depth
        elif data in ("or_", "and_"):
            inner = depth + len(node.children) - 1
        else:
            inner = depth + 1
        if inner > MAX_NESTING:
            meta = node.meta
            line = getattr(meta, "line", 1) + line_offset
            col = getattr(meta, "column", 1) + (col_offset if getattr(meta, "line", 1) == 1
                                                else 0)
            raise Diagnostic(f"this is nested too deeply (more than {MAX_NESTING} levels of "
                             "statements and operations)", Span(filename, line, col, line, col + 1),
                             "split it with a 'def', a 'proc' or a 'let'")
        for c in node.children:
            if isinstance(c, lark.Tree):
                stack.append((c, inner))


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
    lines = source.split("\n")  # as Lark counts lines (see _line)

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


_QUANT_WORDS = frozenset({"any", "all", "count", "sum", "min", "max", "first", "each",
                          "random"})


def _word_bound(source: str, filename: str, bad: lark.Token) -> Diagnostic | None:
    """A word of the language bound as a name (`for left in`, `move bump(count in 1..3)`,
    `any all in`, `def f(top: int)`): the binding parses, since only a name can stand
    there, but a use of it is read as the word and the parser stops there, far from the
    mistake. Judged when the parser stopped on that word or just after it."""
    toks: list[lark.Token] = []
    end = bad.type == "$END"
    try:
        for t in lark_parser().lex(source):
            if not end and (t.line, t.column) >= (bad.line, bad.column):
                break
            toks.append(t)
    except lark.exceptions.LarkError:
        return None
    if not toks or str(bad) not in KEYWORDS and str(toks[-1]) not in KEYWORDS:
        return None
    used = {str(toks[-1])} if end else {str(bad), str(toks[-1])}
    stopped = toks[-1].line if end else bad.line
    words = [str(t) for t in toks]
    depth = 0  # braces open
    params = ""  # inside the parentheses of a declaration: "in" or ":" ends a parameter
    paren = 0
    for i, w in enumerate(words):
        nxt = words[i + 1] if i + 1 < len(words) else ("" if end else str(bad))
        prev = words[i - 1] if i else ""
        if w == "{":
            depth += 1
        elif w == "}":
            depth = max(depth - 1, 0)
        elif (w == "(" and depth == 0 and i >= 2 and words[i - 2] in ("move", "def", "proc")
              and not paren):
            params, paren = ("in" if words[i - 2] == "move" else ":"), 1
            continue
        elif params and w == "(":
            paren += 1
        elif params and w == ")":
            paren -= 1
            if not paren:
                params = ""
        if w not in used or w not in KEYWORDS:
            continue
        what = None
        if prev == "for" and nxt == "in":
            what = "a loop variable"
        elif prev in _QUANT_WORDS and nxt == "in":
            what = "a variable"
        elif prev == "let" and nxt == "=":
            what = "a variable"
        elif params and paren == 1 and prev in ("(", ",") and nxt == params:
            what = "a parameter"
        elif (depth == 0 and prev == "[" and nxt == "in" and i >= 3
              and words[i - 3] == "zone"):
            what = "an index"
        if what is not None:
            t = toks[i]
            line, col = t.line or 0, t.column or 0
            return Diagnostic(f"'{w}' is a word of the language and cannot name {what}",
                              Span(filename, line, col, line, col + len(w)),
                              f"call it '{w}_' or 'my_{w}' (at line {stopped} the parser "
                              f"read '{w}' as the word, and stopped)")
    return None


_SLIPS = (
    # (what the line holds before the token, the token, the hint)
    (re.compile(r"\b(top|bottom)\s+[A-Za-z_0-9]+\s*$"), re.compile(r"^[-+*/%]$"),
     "the count of 'top N of' is one name or number: write 'top (n * 2) of deck'"),
    (re.compile(r"\bnot\s+(any|all|count|sum|min|max|first|each|random)\s*$"), None,
     "a quantifier after 'not' needs parentheses: 'not (any d in hand: d.rank == 1)'"),
    (re.compile(r"\b(any|all|count|sum|min|max|first|each|random)\s*$"), re.compile(r"^\w+$"),
     "a quantifier inside an expression needs parentheses: 'x > 0 and (any d in hand: "
     "d.rank == 1)', 'any m in (each c in hand: c.rank): m > 3'"),
    (re.compile(r"^\s*zone\s+[A-Za-z_][A-Za-z_0-9]*\s*(\[[^\]]*\]\s*){2}$"), re.compile(r"^\[$"),
     "a zone array has one index, or two for a grid of rows and columns: 'zone board[3][3]', "
     "'zone pyramid[row in 1..7][col in 1..row]'"),
    (re.compile(r"(^|[{}]|\s)turn\s*$"), re.compile(r"^over$"),
     "there is no 'turn over': to turn a pile over onto another, 'move all of waste to "
     "stock turned over' (the top card ends at the bottom); to turn one card where it "
     "lies, 'turn top of waste face down'"),
)


# tokens that only ever add to a statement that is complete without them
_OPTIONAL_TAILS = frozenset({"AND_ABOVE", "FACE", "TURNED_OVER"})


def _known_slip(text: str, tok: lark.Token) -> str | None:
    """A hint for a slip users make often, judged from the line before the token."""
    before = text[:max((tok.column or 1) - 1, 0)]
    for line_re, tok_re, hint in _SLIPS:
        if line_re.search(before) and (tok_re is None or tok_re.match(str(tok))):
            return hint
    return None


def parse(source: str, filename: str, start: str = "start",
          line_offset: int = 0, col_offset: int = 0) -> lark.Tree:
    """Parse a whole file (or, with start='expr', one expression)."""
    if start == "start":
        _scan(source, filename)
    try:
        _SOURCE[0] = source
        tree = lark_parser().parse(source, start=start)
    except lark.exceptions.UnexpectedToken as e:
        tok = e.token
        line = (tok.line or 1) + line_offset
        col = (tok.column or 1) + (col_offset if (tok.line or 1) == 1 else 0)
        width = len(str(tok)) if tok.type != "$END" else 1
        span = Span(filename, line, col, line, col + width)
        expected = set(e.expected)
        ip = getattr(e, "interactive_parser", None)
        if ip is not None:  # the example words come from the post-lexer: ask the parser
            words = {t for t in ip.choices() if t in _POSTLEXED}
            if words:
                expected = words | (expected - {"NAME"})
        if expected - _OPTIONAL_TAILS:  # `and above`, `face up`, `turned over` after a
            expected = expected - _OPTIONAL_TAILS  # `move`: an option, not what is missing
        hint = _expected_hint(expected)
        if tok.type == "$END":
            msg = "unexpected end of file"
            span = _end_span(source, filename, line_offset)
            bound = _word_bound(source, filename, tok) if start == "start" else None
            if bound is not None:
                raise bound from None
            opened = _unclosed_brace(source, filename) if start == "start" else None
            if opened is not None:
                hint = f"expected '}}' to close the block opened at {opened.line}:{opened.column}"
        elif (tok.type == "NAME" and str(tok) == "expect" and "_EXPECT_KW" in expected
              and tok.end_pos is not None):
            # `expect` begins an expectation only before `sometimes` or `never`: point at
            # the word that is neither
            m = re.compile(r"[ \t\r\n]*(\S+)").match(source, tok.end_pos)
            at = m.start(1) if m else tok.end_pos
            w = re.match(r"[A-Za-z0-9_]+|\S", m.group(1)) if m else None
            word = w.group(0) if w else ""
            wline = source.count("\n", 0, at) + 1
            wcol = at - (source.rfind("\n", 0, at) + 1) + 1
            span = Span(filename, wline + line_offset, wcol, wline + line_offset,
                        wcol + max(len(word), 1))
            raise Diagnostic(f"unexpected name '{word}'" if word else "unexpected end of file",
                             span, "expected one of: 'never', 'sometimes'") from None
        else:
            msg = f"unexpected {_describe_token(tok)}"
            bound = _word_bound(source, filename, tok) if start == "start" else None
            if bound is not None:
                raise bound from None
            if "CARD" in expected or expected & _POSTLEXED:
                lettered = _letter_card(source, filename, tok, line_offset)
                if lettered is not None:
                    raise lettered from None
            known = _known_slip(_line(source, tok.line or 1), tok)
            if known is not None:
                raise Diagnostic(msg, span, known) from None
            unclosed = _unclosed_before(source, filename, tok) if start == "start" else None
            if unclosed is not None:
                raise unclosed from None
            text = _line(source, tok.line or 1)
            if str(tok) == "|" and text[(tok.column or 1) - 1:(tok.column or 1) + 1] == "||":
                msg, hint = "unexpected '||'", "write 'or' instead of '||'"
                span = Span(filename, line, col, line, col + 2)
        raise Diagnostic(msg, span, hint) from None
    except lark.exceptions.UnexpectedCharacters as e:
        line = e.line + line_offset
        col = e.column + (col_offset if e.line == 1 else 0)
        text = _line(source, e.line)
        if not text[e.column - 1:e.column].isascii():
            raise _foreign_char(text[e.column - 1],
                                Span(filename, line, col, line, col + 1)) from None
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
    _too_deep(tree, filename, line_offset, col_offset)
    return tree


def _letter_card(source: str, filename: str, tok: lark.Token,
                 line_offset: int) -> Diagnostic | None:
    """An example's card written with a suit letter and no quotes (`has 5c`, `has 5♣ 9d`,
    `is Kc`): the number and the letter are read as two words, and the parser stops on
    one of them or on the next step. Judged on the word at the token and the word
    before it."""
    at = tok.start_pos
    if at is None or tok.type == "$END":
        return None
    start = at
    while start > 0 and (source[start - 1].isascii() and source[start - 1].isalnum()):
        start -= 1
    here = re.compile(r"[A-Za-z0-9]*").match(source, start)
    before = re.compile(r"([A-Za-z0-9]+)[ \t\r\n]+\Z").search(source, 0, start)
    words = [(start, here.group() if here else "")]
    if before is not None:
        words.append((before.start(1), before.group(1)))
    for begin, word in words:
        m = _LETTER_CARD.fullmatch(word)
        if m is None:
            continue
        rank = m.group(1).upper()
        symbol = _SUIT_SYMBOLS["shdc".index(m.group(2).lower())]
        line, col = position(source, begin)
        return Diagnostic(f"unexpected '{word}': a card without quotes has a suit symbol",
                          Span(filename, line + line_offset, col, line + line_offset,
                               col + len(word)),
                          f"write {rank}{symbol}, or the suit letter between quotes: "
                          f"\"{rank}{m.group(2).lower()}\" (several cards in one string: "
                          f"\"5c 9d\")")
    return None


def _line(source: str, line: int) -> str:
    """Line `line` (1-based) of source, lines split at line feeds only (as Lark counts)."""
    lines = source.split("\n")
    return lines[line - 1].rstrip("\r") if 0 < line <= len(lines) else ""


def _end_span(source: str, filename: str, line_offset: int) -> Span:
    lines = source.rstrip("\n").split("\n")
    n = len(lines)
    col = len(lines[-1]) + 1
    return Span(filename, n + line_offset, col, n + line_offset, col + 1)
