"""The `rules` command's text: a game's page of Markdown, rendered for the terminal.

`rules_text` finds the rules (docs/games/<name>.md for a bundled game, else the game's
own `about` text and moves); `markdown_lines` renders the Markdown subset those
pages use as styled lines: headings, lists, tables, code blocks, **bold**, *emphasis*,
`code` and [links](...), wrapped to the width. No `#` or `**` reaches the screen. Text
from the file is sanitised (interpreter.terminal.sanitize), and a cited path that is not
in the repository is dropped rather than shown as if it were there.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

from cardgame.interpreter.engine import Game
from cardgame.interpreter.errors import CardgameError, span_text
from cardgame.interpreter.options import option_text
from cardgame.interpreter.terminal import sanitize
from prompt_toolkit.formatted_text import StyleAndTextTuples

_MAX_PAGE = 1 << 20  # a rules page is read only up to this size

_INLINE = re.compile(r"\*\*(.+?)\*\*|\*(\S(?:.*?\S)?)\*|`([^`]+)`|\[([^\]]+)\]\([^)]*\)")
# "· rules `shared/rules/x.md` (from ...)": a citation, dropped when the path is absent
_CITATION = re.compile(r"\s*·?\s*rules\s+`([^`]+)`(\s*\([^)]*\)?)?")


def rules_source(game: Game, game_ref: str) -> tuple[str, Path | None]:
    """The rules as Markdown, and the root the page's paths are relative to (None: the
    text was made from the game itself)."""
    from cardgame.interpreter.lang import bundled_dir, resolve_game

    try:
        path = resolve_game(game_ref).resolve()
    except CardgameError:
        path = Path(game.path).resolve()
    # Only a bundled game has a page: playing a game file reads no file but it and what
    # it extends, so a page beside a user's file (or in the working folder) is not read.
    bundled = bundled_dir().resolve()
    if path.parent == bundled:
        base = bundled.parent
        doc = base / "docs" / "games" / f"{path.stem}.md"
        try:
            if doc.is_file() and doc.stat().st_size <= _MAX_PAGE:
                return doc.read_text(encoding="utf-8").rstrip(), base
        except (OSError, UnicodeDecodeError):
            pass
    about = " ".join((game.checked.about or "(no rules text)").split())
    lines = [f"# {game.name}", "", about, "", "## Moves", ""]
    src = game.checked.sources

    def text(e: Any) -> str:  # an expression as the file writes it
        return span_text(src.get(e.span.file), e.span)

    for name, decl in game.checked.moves.items():
        # `play(c in hand[me])`: where each argument comes from
        params = ", ".join(f"{p.name} in {text(p.source)}" if text(p.source) else p.name
                           for p in decl.params)
        head = f"{name}({params})" if params else name
        # the description in words (its `{c}` placeholders as the names they stand for),
        # then each `when` clause: its condition and the refusal it gives otherwise
        line = f"- `{head}`" + (f": {_words(decl.doc)}" if decl.doc else "")
        for cl in decl.clauses:
            cond = " ".join(text(cl.cond).split())
            if cond:
                line += f"; only when `{cond}`" + (f" (else: {_words(cl.reason)})"
                                                   if cl.reason else "")
        lines.append(line)
    if game.checked.option_decls:
        lines += ["", "## Options", "", "`cardgame play GAME --set NAME=VALUE`", ""]
        for name, od in game.checked.option_decls.items():
            cur = option_text(game.options.get(name))
            lines.append(f"- `{name} = {cur}`" + (f": {od.doc}" if od.doc else ""))
    return "\n".join(lines), None


def _words(template: str) -> str:
    """A move's description or reason without its braces: `play {c}` -> `play c`."""
    return re.sub(r"\{([^{}]*)\}", lambda m: " ".join(m.group(1).split()), template)


def rules_width(term_width: int) -> int:
    """The width the rules are wrapped to on a terminal this wide."""
    return min(term_width, 100) - 1


def rules_text(game: Game, game_ref: str, width: int = 88) -> str:
    """The rules as plain text (the rendered lines without their styles)."""
    return "\n".join("".join(frag[1] for frag in ln)
                     for ln in rules_lines(game, game_ref, width))


def rules_lines(game: Game, game_ref: str, width: int = 88) -> list[StyleAndTextTuples]:
    text, root = rules_source(game, game_ref)
    if root is not None:
        def drop(m: re.Match[str]) -> str:
            return m.group(0) if (root / m.group(1)).exists() else ""
        text = _CITATION.sub(drop, text)
    return markdown_lines(sanitize(text), width)


def inline(text: str, base: str = "") -> StyleAndTextTuples:
    """One line's inline Markdown as styled fragments."""
    out: StyleAndTextTuples = []
    pos = 0
    for m in _INLINE.finditer(text):
        if m.start() > pos:
            out.append((base, text[pos:m.start()]))
        bold, em, code, link = m.groups()
        if bold is not None:
            out.append((f"{base} bold".strip(), bold))
        elif em is not None:
            out.append((f"{base} italic".strip(), em))
        elif code is not None:
            out.append((f"{base} class:arg".strip(), code))
        else:
            out.append((f"{base} underline".strip(), link))
        pos = m.end()
    if pos < len(text):
        out.append((base, text[pos:]))
    return out


def _plain(text: str) -> str:
    return "".join(frag[1] for frag in inline(text))


def _wrap(text: str, width: int, first: str, rest: str, base: str = ""
          ) -> list[StyleAndTextTuples]:
    """A paragraph wrapped on its plain text's words, each character keeping its style."""
    chars: list[tuple[str, str]] = []
    for frag in inline(text, base):
        style = frag[0]
        for ch in re.sub(r"\s+", " ", frag[1]):
            if ch == " " and (not chars or chars[-1][1] == " "):
                continue
            chars.append((style, ch))
    while chars and chars[-1][1] == " ":
        chars.pop()
    plain = "".join(ch for _, ch in chars)
    wrapped = textwrap.wrap(plain, width, initial_indent=first, subsequent_indent=rest,
                            break_long_words=False, break_on_hyphens=False) or [first]
    lines: list[StyleAndTextTuples] = []
    pos = 0
    for k, ln in enumerate(wrapped):
        indent = first if k == 0 else rest
        body = ln[len(indent):]
        if plain[pos:pos + 1] == " ":
            pos += 1
        frags: StyleAndTextTuples = [("", indent)] if indent else []
        for style, ch in chars[pos:pos + len(body)]:
            if frags and frags[-1][0] == style:
                frags[-1] = (style, frags[-1][1] + ch)
            else:
                frags.append((style, ch))
        pos += len(body)
        lines.append(frags)
    return lines


def markdown_lines(text: str, width: int = 88) -> list[StyleAndTextTuples]:
    width = max(width, 30)
    out: list[StyleAndTextTuples] = []
    para: list[str] = []
    rows: list[list[str]] = []
    code = False

    item: tuple[str, list[str]] | None = None  # the list item being read: bullet, lines

    def flush() -> None:
        nonlocal item
        if item is not None:
            out.extend(_wrap(" ".join(item[1]), width, item[0], " " * len(item[0])))
            item = None
        if para:
            out.extend(_wrap(" ".join(para), width, "", ""))
            para.clear()
        if rows:
            _table(rows, width, out)
            rows.clear()

    for raw in text.splitlines():
        line = raw.rstrip()
        if line.lstrip().startswith("```"):
            flush()
            code = not code
            continue
        if code:
            out.append([("class:dim", "    " + line)])
            continue
        stripped = line.strip()
        if stripped.startswith("|"):
            if para:
                flush()
            cells = [c.strip() for c in stripped.strip("|").split("|")]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells if c):
                rows.append(cells)
            continue
        if rows:
            flush()
        m = re.match(r"(#{1,6})\s+(.*)", stripped)
        if m:
            flush()
            if out and out[-1]:
                out.append([])
            title = _plain(m.group(2))
            if len(m.group(1)) == 1:
                out.append([("bold", title.upper())])
            else:
                out.append([("bold underline", title)])
            continue
        m = re.match(r"(\s*)([-*+]|\d+[.)])\s+(.*)", line)
        if m:
            flush()
            depth = len(m.group(1)) // 2
            bullet = "•" if not m.group(2)[0].isdigit() else m.group(2)
            item = ("  " * depth + f"{bullet} ", [m.group(3)])
            continue
        if not stripped:
            flush()
            if out and out[-1]:
                out.append([])
            continue
        if stripped.startswith(">"):
            flush()
            out.extend(_wrap(stripped.lstrip("> "), width, "  │ ", "  │ ", "class:dim"))
            continue
        if item is not None and line.startswith("  "):
            item[1].append(stripped)  # a list item's next line
            continue
        para.append(stripped)
    flush()
    while out and not out[-1]:
        out.pop()
    return out


def _table(rows: list[list[str]], width: int, out: list[StyleAndTextTuples]) -> None:
    """A Markdown table as aligned columns, the widest ones wrapped to fit the width."""
    plain = [[_plain(c) for c in r] for r in rows]
    n = max(len(r) for r in plain)
    plain = [r + [""] * (n - len(r)) for r in plain]
    widths = [max(len(r[i]) for r in plain) for i in range(n)]
    room = width - 2 * (n - 1)
    while sum(widths) > room and max(widths) > 8:
        widest = widths.index(max(widths))
        widths[widest] -= 1
    for k, r in enumerate(plain):
        style = "bold" if k == 0 else ""
        cells = [textwrap.wrap(c, widths[i], break_long_words=True) or [""]
                 for i, c in enumerate(r)]
        for j in range(max(len(c) for c in cells)):
            text = "  ".join((c[j] if j < len(c) else "").ljust(widths[i])
                             for i, c in enumerate(cells))
            out.append([(style, text.rstrip())])
