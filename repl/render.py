"""The table as prompt_toolkit formatted text.

Every zone is laid out as a player would lay the cards:

- a squared pile shows its top card and a count: `7♥ (12)`, face down `▒▒ (40)`;
- a fanned pile shows every card, bottom first;
- a row shows its cards spread in a row;
- a numbered or per-suit set of fanned piles (tableau columns, waste piles) is drawn as
  columns side by side, each card below the one it covers; a set of squared piles
  (foundations) as piles side by side;
- a per-player zone gets one line per player, labelled with the seat.

What a seat may not see is drawn as card backs: the REPL renders from
`observe.view(game, state, seat)` only (or, replaying for a designer, from every zone).
Cards are styled `class:card.red` / `class:card.black`; `plain()` drops the styles for
scriptable mode and tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
from cardgame.interpreter.cards import SUIT_SYMBOLS
from cardgame.interpreter.engine import Game, State
from cardgame.interpreter.observe import BACK, view
from cardgame.interpreter.options import option_text
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.styles import Style
from prompt_toolkit.utils import get_cwidth

Line = list[tuple[str, str]]

STYLE = Style.from_dict({
    "card": "bg:#f4f4f4 #000000",
    "card.red": "bg:#f4f4f4 #d00000",
    "card.black": "bg:#f4f4f4 #000000",
    "card.joker": "bg:#f4f4f4 #8000c0 bold",
    "card.back": "#3a5fcd",
    "empty": "#808080",
    "title": "bold",
    "label": "#5f87af",
    "header": "#5f87af",
    "dim": "#808080",
    "turn": "bold #00875f",
    "over": "bold #d75f00",
    "event": "",
    "number": "#d7af00",
    "move": "#00875f",
    "error": "#d00000",
    "warning": "#d75f00",
    # the input line (lexer) and the toolbar
    "command": "bold #5f87ff",
    "arg": "#af87d7",
    "unknown": "#d00000",
    "bottom-toolbar": "noreverse bg:#303030 #d0d0d0",
    "bottom-toolbar.key": "noreverse bg:#303030 #ffd75f",
})

MAX_BACKS = 16  # longer hidden fans are drawn as a few backs and a count
EVENTS_SHOWN = 5


def plain(frags: StyleAndTextTuples) -> str:
    return "".join(t[1] for t in frags)


def width(line: Line) -> int:
    return sum(get_cwidth(t) for _, t in line)


def card_style(text: str) -> str:
    if text == BACK:
        return "class:card.back"
    if any(s in text for s in "♥♦"):
        return "class:card.red"
    if any(s in text for s in "♠♣"):
        return "class:card.black"
    if text == "JK":
        return "class:card.joker"
    return "class:card"


def card(text: str) -> Line:
    return [(card_style(text), text)]


@attrs.define
class Pile:
    """What the viewer sees of one zone: its cards (texts) or only how many."""

    cards: list[str] | None
    count: int

    @classmethod
    def of(cls, value: Any) -> Pile:
        if isinstance(value, dict):
            return cls(None, int(value.get("hidden", 0)))
        return cls(list(value), len(value))

    def top(self, empty: str = "·") -> Line:
        if self.count == 0:
            return [("class:empty", empty)]
        face = card(self.cards[-1]) if self.cards is not None else card(BACK)
        return face + ([("", f" ({self.count})")] if self.count > 1 else [])

    def fan(self, sep: str = " ", empty: str = "·") -> Line:
        if self.count == 0:
            return [("class:empty", empty)]
        out: Line = []
        if self.cards is None:
            shown = min(self.count, MAX_BACKS)
            for i in range(shown):
                if i:
                    out.append(("", sep))
                out += card(BACK)
            if shown < self.count:
                out.append(("class:dim", f" … {self.count} cards"))
            return out
        for i, c in enumerate(self.cards):
            if i:
                out.append(("", sep))
            out += card(c)
        return out

    def column(self) -> list[Line]:
        """One line per card, bottom card first (it is the one the others cover)."""
        if self.count == 0:
            return [[("class:empty", "·")]]
        if self.cards is None:
            return [card(BACK) for _ in range(self.count)]
        return [card(c) for c in self.cards]


@attrs.define
class TableInfo:
    """Everything one drawing of the table needs."""

    game: Game
    state: State
    viewer: int | None  # the seat whose view is drawn (None: a spectator)
    seed: int
    game_ref: str = ""
    reveal_all: bool = False  # replay mode for a designer: every card face up
    player_labels: dict[int, str] = attrs.Factory(dict)
    events: list[str] = attrs.Factory(list)
    moves: list[tuple[str, str]] = attrs.Factory(list)  # the viewer's legal moves
    status: str = ""  # a line under the table (whose turn, what Enter does)
    header_note: str = ""  # e.g. "replay 3/40"


def zones_for(info: TableInfo) -> dict[str, Pile]:
    game, state = info.game, info.state
    if info.reveal_all:
        return {z: Pile.of(game.zone_cards(state, z)) for z in game.zone_names()}
    seen = view(game, state, info.viewer)
    return {text: Pile.of(v) for text, v in seen["zones"].items()}


def _pad(line: Line, w: int) -> Line:
    return line + [("", " " * max(w - width(line), 0))]


def _grid(headers: list[str], cells: list[list[Line]]) -> list[Line]:
    """Columns side by side: a header row, then row i holds the i-th line of each column."""
    widths = [max([get_cwidth(h)] + [width(c) for c in col]) + 2
              for h, col in zip(headers, cells, strict=True)]
    head = "".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip()
    out: list[Line] = [[("class:header", head)]]
    for i in range(max(len(c) for c in cells)):
        line: Line = []
        for col, w in zip(cells, widths, strict=True):
            line += _pad(col[i] if i < len(col) else [], w)
        while line and line[-1][0] == "" and not line[-1][1].strip():
            line.pop()
        out.append(line)
    return out


def _seat_label(info: TableInfo, p: int) -> str:
    lab = info.player_labels.get(p)
    return f"p{p} ({lab})" if lab else f"p{p}"


def zone_lines(info: TableInfo) -> list[Line]:
    game = info.game
    piles = zones_for(info)
    by_decl: dict[str, list[Any]] = {}
    for z in game.zones:
        by_decl.setdefault(z.decl, []).append(z)
    labelled: list[tuple[str, Line]] = []  # single lines: label, content
    out: list[Line | tuple[str, Line]] = []
    for decl, zones in by_decl.items():
        zi = game.checked.zones[decl]
        if decl == "deck" and all(piles[z.name].count == 0 for z in zones):
            continue  # the built-in deck, once dealt out
        if zi.dim is None:
            p = piles[zones[0].name]
            content = p.top("(empty)") if zi.layout == "squared" else p.fan(
                "  " if zi.layout == "row" else " ", "(empty)")
            item = (zi.label, content)
            labelled.append(item)
            out.append(item)
            continue
        kind = zi.dim[0]
        heads = []
        for i, z in enumerate(zones, 1):
            if kind == "player":
                heads.append(f"{zi.label} {_seat_label(info, z.owner)}")
            elif kind == "suit":
                heads.append(f"{zi.label} {SUIT_SYMBOLS[i - 1]}")
            else:
                heads.append(z.name if zi.label == zi.name else f"{zi.label} {i}")
        if kind == "player" or zi.layout == "row":
            for h, z in zip(heads, zones, strict=True):
                p = piles[z.name]
                item = (h, p.top() if zi.layout == "squared" else p.fan(
                    "  " if zi.layout == "row" else " "))
                labelled.append(item)
                out.append(item)
        elif zi.layout == "squared":
            out += _grid(heads, [[piles[z.name].top()] for z in zones])
        else:
            out += _grid(heads, [piles[z.name].column() for z in zones])
    lw = max((get_cwidth(lab) for lab, _ in labelled), default=0) + 2
    lines: list[Line] = []
    for entry in out:
        if isinstance(entry, tuple):
            lab, content = entry
            lines.append([("class:label", lab.ljust(lw))] + content)
        else:
            lines.append(entry)
    return lines


def value_line(game: Game, typ: str, v: Any) -> Line:
    if v is None:
        return [("class:dim", "–")]
    if typ.startswith("list:"):
        out: Line = [("", "[")]
        for i, x in enumerate(v):
            if i:
                out.append(("", ", "))
            out += value_line(game, typ[5:], x)
        return out + [("", "]")]
    if typ == "card":
        return card(game.card_text[v])
    if typ == "player":
        return [("", f"p{v}")]
    if typ == "suit":
        return [("", SUIT_SYMBOLS[v - 1])]
    if typ == "bool":
        return [("", "yes" if v else "no")]
    return [("", str(v))]


def var_lines(info: TableInfo) -> list[Line]:
    game = info.game
    view_vars = view(game, info.state, info.viewer)["vars"]
    lines: list[Line] = []
    for name, vi in game.checked.vars.items():
        v = view_vars.get(name)
        line: Line = [("class:label", f"{name}  ")]
        if vi.dim is None:
            line += value_line(game, vi.type, v)
        else:
            kind = vi.dim[0]
            for i, x in enumerate(v or [], 1):
                if i > 1:
                    line.append(("class:dim", " · "))
                key = f"p{i}" if kind == "player" else (
                    SUIT_SYMBOLS[i - 1] if kind == "suit" else str(i))
                line.append(("", f"{key} "))
                line += value_line(game, vi.type, x)
        lines.append(line)
    return lines


def title_line(info: TableInfo) -> Line:
    game = info.game
    opts = ", ".join(f"{k}={option_text(v)}" for k, v in game.options.items())
    bits = [game.name + (f" ({opts})" if opts else "")]
    if game.players > 1:
        bits.append(f"{game.players} players")
    bits.append(f"seed {info.seed}")
    bits.append(f"move {game.moves_played(info.state)}")
    ph = game.phase(info.state)
    if ph:
        bits.append(f"phase: {ph}")
    if info.header_note:
        bits.append(info.header_note)
    line: Line = [("class:title", bits[0])]
    for b in bits[1:]:
        line += [("class:dim", " · "), ("", b)]
    return line


def score_line(info: TableInfo) -> Line:
    game, state = info.game, info.state
    scores = game.scores(state)
    if game.players == 1:
        return [("class:label", "score  "), ("", str(scores[0]))]
    line: Line = [("class:label", "score  ")]
    for p, s in enumerate(scores, 1):
        if p > 1:
            line.append(("class:dim", " · "))
        line.append(("", f"{_seat_label(info, p)} {s}"))
    return line


def turn_line(info: TableInfo) -> Line:
    game, state = info.game, info.state
    if game.is_terminal(state):
        reason = game.end_reason(state) or "ended"
        res = game.results(state)
        if game.players == 1:
            won = res[0] == "win"
            who = info.player_labels.get(1, "p1")
            verdict = ("you won" if won else "you lost") if who == "you" else res[0]
            return [("class:over", f"game over: {reason} — {verdict}")]
        # "draw" is a shared first place: say so
        parts = ", ".join(f"{_seat_label(info, p)} {'shared win' if r == 'draw' else r}"
                          for p, r in enumerate(res, 1))
        return [("class:over", f"game over: {reason} — {parts}")]
    who = game.to_move(state)
    if not who:
        return [("class:over", "no one can move")]
    if len(who) == 1 and game.checked.players == 1 and info.player_labels.get(1) == "you":
        return [("class:turn", "your turn")]
    done = [m[0] for m in game.pending(state)]
    text = ", ".join(_seat_label(info, p) for p in who)
    if done:
        text += "; chosen: " + ", ".join(_seat_label(info, p) for p in done)
    if done or len(who) > 1:
        return [("class:turn", f"to choose (simultaneously): {text}")]
    return [("class:turn", f"to move: {text}")]


def move_lines(moves: Sequence[tuple[str, str]], term_width: int = 80) -> list[Line]:
    """The numbered move list: with descriptions when short, else in columns."""
    if not moves:
        return []
    num_w = len(str(len(moves)))
    if len(moves) <= 12:
        tw = max(get_cwidth(t) for t, _ in moves)
        lines: list[Line] = []
        for i, (text, desc) in enumerate(moves, 1):
            line: Line = [("class:number", f"  {i:>{num_w}} "), ("class:move", text)]
            if desc and desc != text:
                line += [("", " " * (tw - get_cwidth(text) + 3)), ("class:dim", desc)]
            lines.append(line)
        return lines
    cells = [[("class:number", f"{i:>{num_w}} "), ("class:move", t)]
             for i, (t, _) in enumerate(moves, 1)]
    cw = max(width(c) for c in cells) + 3
    ncols = max(1, (term_width - 2) // cw)
    nrows = -(-len(cells) // ncols)
    lines = []
    for r in range(nrows):
        line = [("", "  ")]
        for c in range(ncols):
            i = c * nrows + r
            if i < len(cells):
                line += _pad(cells[i], cw) if c < ncols - 1 and i + nrows < len(cells) else cells[i]
        lines.append(line)
    return lines


def render_table(info: TableInfo, term_width: int = 80) -> StyleAndTextTuples:
    lines: list[Line] = [title_line(info)]
    lines += zone_lines(info)
    lines += var_lines(info)
    lines.append(score_line(info))
    if info.events:
        lines.append([("class:label", "recent")])
        for e in info.events[-EVENTS_SHOWN:]:
            lines.append([("class:event", f"  {e}")])
    lines.append(turn_line(info))
    if info.moves:
        lines += move_lines(info.moves, term_width)
    if info.status:
        lines.append([("class:dim", info.status)])
    out: StyleAndTextTuples = []
    for i, ln in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out.extend(ln)
    return out
