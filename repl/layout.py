"""The table's body laid out to fit: zones, variables and scores as lines of formatted text.

What is drawn follows the game's `table { ... }` block (`Program.table`, docs/language.md):
its groups in order (then the zones it does not name, in declaration order), only the
variables it names, never a hidden one. Without a block every zone and variable is drawn.
Inside a group, the members that are one per player (a hand, a trick count) go into one
row per seat, with the seat's score; the others are labelled lines, grids of piles or
columns of fanned piles.

`table_lines(info, width, height)` fits the lines into `height` rows when given (the
full-screen table pane) and `width` columns: piles side by side wider than the screen go
on more rows, a player's row goes on below; it packs short labelled lines side by side,
then shortens deep columns to their count and top cards; then a row still too wide ends
in `…` and a table still too tall ends in a line saying how many rows are not shown.
Without a height (the plain mode) every labelled item has its own line, as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs
from cardgame.interpreter.lang import TableSpec
from cardgame.interpreter.observe import BACK
from prompt_toolkit.utils import get_cwidth

from .pieces import (
    Line,
    Pile,
    TableInfo,
    card,
    score_of,
    seat_label,
    title_line,
    value_line,
    zones_for,
)
from .pieces import width as line_width

SUIT_ORDER = {1: 0, 2: 1, 4: 2, 3: 3}  # ♠ ♥ ♣ ♦: the colours alternate in a sorted hand
GAP = "   "  # between items packed on one line


@attrs.frozen
class Fit:
    pack: bool = False  # several short labelled items on one line
    depth: int | None = None  # deepest column drawn in full (then: count and top cards)
    compact: bool = False  # hidden fans as a back and a count
    wrap: bool = False  # piles side by side wider than the screen: on more rows


@attrs.define
class Item:
    label: str
    content: Line
    own: bool = False  # on its own line, not aligned with the others (the score)


@attrs.define
class Grid:
    headers: list[str]
    piles: list[Pile]
    squared: bool


@attrs.define
class Players:
    title: str
    heads: list[str]
    rows: list[tuple[str, list[Line]]]


@attrs.define
class Rows:
    """A grid zone (`zone pyramid[row in 1..7][col in 1..row]`): each place's top card,
    row by row; rows of different lengths are centred, so a triangle is drawn as a
    pyramid, each card between the two that cover it."""

    label: str
    rows: list[list[Pile]]


Block = Item | Grid | Players | Rows


def spec_of(info: TableInfo) -> TableSpec:
    spec: TableSpec = info.game.checked.table
    return spec


def sort_keys(game: Any, decl: str) -> tuple[str, ...]:
    """How the table sorts a zone's cards: the table's `sort`, else a hand (a zone its
    owner alone sees) by suit and rank, else not at all. (The session numbers the moves
    in this order too.)"""
    spec: TableSpec = game.checked.table
    if decl in spec.sort:
        return spec.sort[decl]
    return ("suit", "rank") if game.checked.zones[decl].visibility == "owner" else ()


def card_key(c: Any, keys: tuple[str, ...]) -> tuple[int, ...]:
    """A card's place in a zone sorted by `keys` (`sort_keys`)."""
    return tuple(SUIT_ORDER.get(c.suit, 9) if k == "suit" else c.rank for k in keys)


def _sort_keys(info: TableInfo, decl: str) -> tuple[str, ...]:
    return sort_keys(info.game, decl)


def _sorted(info: TableInfo, pile: Pile, keys: tuple[str, ...]) -> Pile:
    if not keys or pile.cards is None:
        return pile
    by_text = {info.game.card_text[c.id]: c for c in info.game.checked.cards}

    def key(text: str) -> tuple[int, ...]:
        c = by_text.get(text)
        if c is None:
            return (99,) * len(keys)
        return card_key(c, keys)

    return Pile(sorted(pile.cards, key=key), pile.count)


def fan_line(pile: Pile, fit: Fit, sep: str = " ", empty: str = "·",
             tags: dict[str, str] | None = None, room: int | None = None) -> Line:
    """A pile's cards in a row; a hidden one as a back and a count when compact; cut to
    its count and top cards when wider than `room`."""
    if pile.count == 0:
        return [("class:empty", empty)]
    if pile.cards is None and fit.compact:
        return card(BACK) + [("class:dim", f" ×{pile.count}")]
    if tags and pile.cards is not None:
        out: Line = []
        for i, c in enumerate(pile.cards):
            if i:
                out.append(("", sep))
            if c in tags:
                out.append(("class:dim", tags[c] + " "))
            out += card(c)
        return out
    line = pile.fan(sep, empty)
    if room is None or line_width(line) <= room or pile.cards is None:
        return line
    shown = list(pile.cards)
    while shown and line_width(Pile(shown, len(shown)).fan(sep)) + 8 > room:
        shown.pop(0)
    return [("class:dim", f"({pile.count}) …")] + ([("", sep)] if shown else []) + (
        Pile(shown, len(shown)).fan(sep) if shown else [])


def column_lines(pile: Pile, depth: int | None) -> list[Line]:
    lines = pile.column()
    if depth is None or len(lines) <= depth:
        return lines
    keep = max(depth - 1, 1)
    return [[("class:dim", f"+{pile.count - keep}")]] + lines[-keep:]


def _members(info: TableInfo) -> Iterator[tuple[str, list[str]]]:
    """The groups to draw: (title, zone and variable names), hidden ones left out."""
    game = info.game
    spec = spec_of(info)
    zones = [z for z in game.checked.zones if z not in spec.hidden]
    if spec.shown is None:
        variables = [v for v in game.checked.vars if v not in spec.hidden]
    else:
        variables = [v for v in spec.shown if v not in spec.hidden]
    named: set[str] = set()
    for title, names in spec.groups:
        named.update(names)
        yield title, [n for n in names if n not in spec.hidden]
    rest = [z for z in zones if z not in named] + [v for v in variables if v not in named]
    if rest:
        yield "", rest


def _var_label(info: TableInfo, name: str) -> str:
    shown = spec_of(info).shown
    return shown.get(name, name) if shown is not None else name


def _var_line(info: TableInfo, name: str, values: dict[str, Any]) -> Line:
    vi = info.game.checked.vars[name]
    v = values.get(name)
    if vi.dim is None:
        return value_line(info.game, vi.type, v)
    line: Line = []
    kind = vi.dim[0]
    for i, x in enumerate(v or [], 1):
        if i > 1:
            line.append(("class:dim", " · "))
        key = f"p{i}" if kind == "player" else (
            info.game.checked.suit_symbols[i - 1] if kind == "suit" else str(i))
        line.append(("", f"{key} "))
        if vi.type.startswith("list:") and isinstance(x, list):
            line.append(("", "[" + ",".join(map(str, x)) + "]"))  # narrow: one per seat/pile
        else:
            line += value_line(info.game, vi.type, x)
    return line


def blocks(info: TableInfo, fit: Fit, width: int) -> list[Block]:
    game = info.game
    piles = zones_for(info)
    values = info.view_vars()
    by_decl: dict[str, list[Any]] = {}
    for z in game.zones:
        by_decl.setdefault(z.decl, []).append(z)
    spec = spec_of(info)
    out: list[Block] = []
    score_placed = False
    for title, names in _members(info):
        per_player = [n for n in names if _dim(info, n) == "player"]
        for n in names:
            if n in per_player:
                continue
            if n in game.checked.zones:
                out += _zone_blocks(info, n, by_decl.get(n, []), piles, fit, width)
            else:
                out.append(Item(_var_label(info, n), _var_line(info, n, values)))
        if per_player:
            out.append(_players(info, title, per_player, by_decl, piles, values, fit,
                                with_score=game.players > 1 and not score_placed))
            score_placed = score_placed or game.players > 1
    if not score_placed:
        out.append(Item("score", score_of(info), own=True))
    del spec
    return out


def _dim(info: TableInfo, name: str) -> str | None:
    c = info.game.checked
    d = c.zones[name].dim if name in c.zones else c.vars[name].dim
    return d[0] if d else None


def _zone_blocks(info: TableInfo, decl: str, zones: list[Any], piles: dict[str, Pile],
                 fit: Fit, width: int) -> list[Block]:
    zi = info.game.checked.zones[decl]
    if not zones:
        return []
    keys = _sort_keys(info, decl)
    if decl == "deck" and all(piles[z.name].count == 0 for z in zones):
        return []  # the built-in deck, once dealt out
    tags = info.placed.get(decl) if decl in spec_of(info).by_player else None
    sep = "  " if zi.layout == "row" else " "
    if zi.dim is None:
        p = _sorted(info, piles[zones[0].name], keys)
        room = max(width - get_cwidth(zi.label) - 2, 10)
        content = p.top("(empty)") if zi.layout == "squared" else fan_line(
            p, fit, sep, "(empty)", tags, room if fit.pack else None)
        return [Item(zi.label, content)]
    if zi.grid is not None:
        rows, at = [], 0
        for n in zi.grid:
            rows.append([piles[z.name] for z in zones[at:at + n]])
            at += n
        return [Rows(zi.label, rows)]
    kind = zi.dim[0]
    heads = []
    for i, z in enumerate(zones, 1):
        if kind == "suit":
            heads.append(f"{zi.label} {info.game.checked.suit_symbols[i - 1]}")
        else:
            heads.append(z.name if zi.label == zi.name else f"{zi.label} {i}")
    if zi.layout == "row":
        return [Item(h, fan_line(_sorted(info, piles[z.name], keys), fit, sep))
                for h, z in zip(heads, zones, strict=True)]
    return [Grid(heads, [_sorted(info, piles[z.name], keys) for z in zones],
                 zi.layout == "squared")]


def _players(info: TableInfo, title: str, names: list[str], by_decl: dict[str, list[Any]],
             piles: dict[str, Pile], values: dict[str, Any], fit: Fit,
             with_score: bool) -> Players:
    game = info.game
    heads: list[str] = []
    for n in names:
        heads.append(game.checked.zones[n].label if n in game.checked.zones
                     else _var_label(info, n))
    if with_score:
        heads.append("score")
    scores = game.scores(info.state)
    rows: list[tuple[str, list[Line]]] = []
    for p in range(1, game.players + 1):
        cells: list[Line] = []
        for n in names:
            if n in game.checked.zones:
                zi = game.checked.zones[n]
                z = by_decl[n][p - 1]
                pile = _sorted(info, piles[z.name], _sort_keys(info, n))
                compact = attrs.evolve(fit, compact=True)
                cells.append(pile.top() if zi.layout == "squared" else fan_line(
                    pile, compact, "  " if zi.layout == "row" else " "))
            else:
                vi = game.checked.vars[n]
                v = values.get(n)
                cells.append(value_line(game, vi.type, v[p - 1] if v else None))
        if with_score:
            cells.append([("", str(scores[p - 1]))])
        rows.append((seat_label(info, p, short=True), cells))
    return Players(title, heads, rows)


def _grid_lines(g: Grid, depth: int | None, width: int | None = None) -> list[Line]:
    """The piles side by side under their headers; when they are wider than `width`
    (ten columns at 80), a narrower gap first, then as many rows of piles as needed, so
    that no pile is cut off at the screen's edge."""
    cols = [[p.top()] if g.squared else column_lines(p, depth) for p in g.piles]
    natural = [max([get_cwidth(h)] + [line_width(c) for c in col])
               for h, col in zip(g.headers, cols, strict=True)]
    gap = 2
    if width is not None and sum(natural) + gap * (len(natural) - 1) > width:
        gap = 1
    chunks: list[list[int]] = [[]]
    used = 0
    for i, w in enumerate(natural):
        if width is not None and chunks[-1] and used + gap + w > width:
            chunks.append([])
            used = 0
        used += (gap if chunks[-1] else 0) + w
        chunks[-1].append(i)
    out: list[Line] = []
    for chunk in chunks:
        heads = [g.headers[i] for i in chunk]
        widths = [natural[i] + gap for i in chunk]
        head = "".join(h.ljust(w) for h, w in zip(heads, widths, strict=True)).rstrip()
        out.append([("class:header", head)])
        for r in range(max(len(cols[i]) for i in chunk)):
            line: Line = []
            for i, w in zip(chunk, widths, strict=True):
                cell = cols[i][r] if r < len(cols[i]) else []
                line += cell + [("", " " * max(w - line_width(cell), 0))]
            while line and line[-1][0] == "" and not line[-1][1].strip():
                line.pop()
            out.append(line)
    return out


def _rows_lines(b: Rows) -> list[Line]:
    """A grid's places as rows of cells of one width, shorter rows centred."""
    cells = [[p.top() for p in row] for row in b.rows]  # a card, `7♥ (2)`, or `·`
    w = max((line_width(c) for row in cells for c in row), default=1) + 1
    if w % 2:
        w += 1  # a half cell is a whole number of columns
    longest = max((len(row) for row in cells), default=0)
    out: list[Line] = [[("class:header", b.label)]]
    for row in cells:
        line: Line = [("", " " * ((longest - len(row)) * w // 2))]
        for c in row:
            line += c + [("", " " * max(w - line_width(c), 0))]
        while line and line[-1][0] == "" and not line[-1][1].strip():
            line.pop()
        out.append(line)
    return out


def _players_lines(b: Players, width: int) -> list[Line]:
    lw = max(get_cwidth(lab) for lab, _ in b.rows)
    lw = max(lw, get_cwidth(b.title)) + 2
    widths = [max([get_cwidth(h)] + [line_width(cells[i]) for _, cells in b.rows]) + 2
              for i, h in enumerate(b.heads)]
    if lw + sum(widths) <= width + 2:
        head = b.title.ljust(lw) + "".join(
            h.ljust(w) for h, w in zip(b.heads, widths, strict=True))
        out: list[Line] = [[("class:header", head.rstrip())]]
        for lab, cells in b.rows:
            line: Line = [("class:label", lab.ljust(lw))]
            for cell, w in zip(cells, widths, strict=True):
                line += cell + [("", " " * max(w - line_width(cell), 0))]
            while line and line[-1][0] == "" and not line[-1][1].strip():
                line.pop()
            out.append(line)
        return out
    out = [[("class:header", b.title)]] if b.title else []
    for lab, cells in b.rows:  # too wide for columns: each cell with its heading,
        line = [("class:label", lab.ljust(lw))]  # going on below when the line is full
        for i, (h, cell) in enumerate(zip(b.heads, cells, strict=True)):
            part: Line = ([("class:dim", f"{h} ")] if i else []) + cell
            if i and line_width(line) + 2 + line_width(part) > width:
                out.append(line)
                line = [("", " " * lw)] + part
            else:
                line += ([("", "  ")] if i else []) + part
        out.append(line)
    return out


def lay_out(bs: list[Block], fit: Fit, width: int,
            heads: list[Line | None] | None = None) -> list[Line]:
    """The blocks' lines; `heads`, when given, gets for each line the header row above
    it that names its columns (a grid's zones, the players' row's headings), or None
    (`show` repeats it at the top of a page that starts below it)."""
    items = [b for b in bs if isinstance(b, Item) and not b.own]
    lw = max((get_cwidth(b.label) for b in items), default=0) + 2
    lines: list[Line] = []
    under: list[Line | None] = []
    row: Line = []
    for b in bs:
        if isinstance(b, Item):
            if not fit.pack and b.own:
                lines.append([("class:label", b.label + "  ")] + b.content)
                under.append(None)
                continue
            if not fit.pack:
                lines.append([("class:label", b.label.ljust(lw))] + b.content)
                under.append(None)
                continue
            cell: Line = [("class:label", b.label + " ")] + b.content
            if row and line_width(row) + len(GAP) + line_width(cell) <= width:
                row += [("", GAP)] + cell
            else:
                if row:
                    lines.append(row)
                    under.append(None)
                row = cell
            continue
        if row:
            lines.append(row)
            under.append(None)
            row = []
        if isinstance(b, Grid):
            got = _grid_lines(b, fit.depth, width if fit.wrap else None)
        elif isinstance(b, Rows):
            got = _rows_lines(b)
        else:
            got = _players_lines(b, width)
        head: Line | None = None
        for ln in got:  # a block's lines are under its latest header row
            is_head = bool(ln) and ln[0][0] == "class:header"
            under.append(None if is_head else head)
            head = ln if is_head else head
        lines += got
    if row:
        lines.append(row)
        under.append(None)
    if heads is not None:
        heads += under
    return lines


FITS = [Fit(wrap=True), Fit(pack=True, compact=True, wrap=True)] + [
    Fit(pack=True, compact=True, wrap=True, depth=d) for d in (13, 10, 8, 6, 5, 4, 3, 2)]


def show_lines(info: TableInfo, width: int) -> tuple[list[Line], list[Line | None]]:
    """The whole table for the full screen's `show` (`table_lines(..., wrap=True)`), and
    for each line the header row that names its columns, if any (see `lay_out`)."""
    fit = Fit(wrap=True)
    heads: list[Line | None] = [None]
    lines = [title_line(info)] + lay_out(blocks(info, fit, width), fit, width, heads)
    return lines, heads


MORE_ROWS = "more rows of the table"  # the last line of a table too big for the screen


def clip(line: Line, width: int) -> Line:
    """A line no wider than `width`: one that is wider is cut after a whole word and
    ends in `…`, never in half a label with nothing to say that more was there."""
    if line_width(line) <= width:
        return line
    out: Line = []
    room = width - 1
    for style, text, *_ in line:
        w = get_cwidth(text)
        if w <= room:
            out.append((style, text))
            room -= w
            continue
        part = ""
        for ch in text:
            if get_cwidth(part + ch) > room:
                break
            part += ch
        if not text[len(part)].isspace():  # whole words (labels, cards) only
            space = part.rfind(" ")
            part = part[:space + 1] if space >= 0 else ("" if out else part)
        if part:
            out.append((style, part))
        break
    return out + [("class:dim", "…")]


def table_lines(info: TableInfo, width: int = 80, height: int | None = None,
                wrap: bool = False) -> list[Line]:
    """The title and the table's body, within `height` rows and `width` columns when a
    height is given (the full screen); a table that cannot fit even then ends in a line
    that says how many rows are not shown (`show` pages through the whole table).
    Without a height, `wrap` puts piles side by side that are wider than `width` on
    more rows (the full screen's `show`); the plain mode leaves them to the terminal."""
    if height is None:
        fit = Fit(wrap=wrap)
        return [title_line(info)] + lay_out(blocks(info, fit, width), fit, width)
    lines: list[Line] = []
    for fit in FITS:
        lines = [title_line(info, short=True)] + lay_out(blocks(info, fit, width), fit, width)
        if len(lines) <= height:
            break
    lines = [clip(ln, width) for ln in lines]
    if len(lines) <= height:
        return lines
    keep = max(height - 1, 0)
    more = len(lines) - keep
    return lines[:keep] + [clip([("class:dim", f"… {more} {MORE_ROWS}: "
                                  "show pages through them")], width)][:height]
