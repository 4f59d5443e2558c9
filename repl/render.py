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

from collections.abc import Mapping, Sequence

from cardgame.interpreter.terminal import sanitize
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.styles import Style
from prompt_toolkit.utils import get_cwidth

from .layout import table_lines
from .pieces import (  # noqa: F401 - the table pieces are used from here too
    EVENTS_SHOWN,
    MAX_BACKS,
    Line,
    Pile,
    TableInfo,
    _pad,
    _seat_label,
    card,
    card_style,
    plain,
    score_line,
    score_of,
    seat_label,
    title_line,
    value_line,
    width,
    zones_for,
)

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

def turn_line(info: TableInfo) -> Line:
    game, state = info.game, info.state
    if game.is_terminal(state):
        reason = game.end_reason(state) or "ended"
        res = game.results(state)
        if game.players == 1:
            who = info.player_labels.get(1, "p1")
            verdict = ({"win": "you won", "push": "a push: you neither won nor lost"}.get(
                res[0], "you lost") if who == "you" else res[0])
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


SET_ROWS = 12  # a move that chooses a set of cards with more ways than this: one row


def set_summaries(moves: Sequence[tuple[str, str]], sets: Mapping[str, int]
                  ) -> tuple[list[Line], set[str]]:
    """One row for each move that chooses a set of cards in more than SET_ROWS ways (a
    Hearts pass: 286), in place of its numbered rows: how many cards, how many ways, and
    how to type it. `sets`: move name -> the word where its cards start."""
    ways: dict[str, list[str]] = {}
    for text, _ in moves:
        name = text.split(" ", 1)[0]
        if name in sets:
            ways.setdefault(name, []).append(text)
    rows: list[Line] = []
    big = {n for n, ts in ways.items() if len(ts) > SET_ROWS}
    for name in (n for n in ways if n in big):
        k = len(ways[name][0].split()) - sets[name]
        rows.append([("class:move", f"  {name} ..."),
                     ("class:dim", f"  choose {k} card{'' if k == 1 else 's'} "
                      f"({len(ways[name]):,} ways): type {name} and the cards, any order")])
    return rows, big


def move_lines(moves: Sequence[tuple[str, str]], term_width: int = 80,
               sets: Mapping[str, int] | None = None) -> list[Line]:
    """The numbered move list: with descriptions when short, else in columns. A move
    that chooses a set of cards in many ways is one row (`set_summaries`); the other
    moves keep their numbers."""
    if not moves:
        return []
    summary, big = set_summaries(moves, sets) if sets else ([], set())
    numbered = [(i, m) for i, m in enumerate(moves, 1)
                if not big or m[0].split(" ", 1)[0] not in big]
    num_w = len(str(len(moves)))
    if len(numbered) <= 12:
        tw = max((get_cwidth(t) for _, (t, _) in numbered), default=0)
        lines: list[Line] = []
        for i, (text, desc) in numbered:
            line: Line = [("class:number", f"  {i:>{num_w}} "), ("class:move", text)]
            if desc and desc != text:
                line += [("", " " * (tw - get_cwidth(text) + 3)), ("class:dim", desc)]
            lines.append(line)
        return summary + lines
    cells = [[("class:number", f"{i:>{num_w}} "), ("class:move", t)]
             for i, (t, _) in numbered]
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
    return summary + lines


def render_table(info: TableInfo, term_width: int = 80,
                 sets: Mapping[str, int] | None = None) -> StyleAndTextTuples:
    """The whole table as one text (the plain mode): body, events, turn, moves, status."""
    lines: list[Line] = table_lines(info, term_width)
    if info.events:
        lines.append([("class:label", "recent")])
        for e in info.events[-EVENTS_SHOWN:]:
            lines.append([("class:event", f"  {e}")])
    lines.append(turn_line(info))
    if info.moves:
        lines += move_lines(info.moves, term_width, sets)
    if info.status:
        lines.append([("class:dim", info.status)])
    return join_lines(lines)


def join_lines(lines: Sequence[Line]) -> StyleAndTextTuples:
    """Lines as one formatted text; every piece passes the sanitiser (text from a file)."""
    out: StyleAndTextTuples = []
    for i, ln in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out.extend((st, sanitize(t, newlines=False)) for st, t, *_ in ln)
    return out
