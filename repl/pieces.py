"""The pieces of the table: piles, cards, values, the title and the score line.

`render` and `layout` draw the table from these (`render` re-exports them).
"""
from __future__ import annotations

from typing import Any

import attrs
from cardgame.interpreter.engine import Game, State
from cardgame.interpreter.observe import BACK, view
from cardgame.interpreter.options import option_text
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

Line = list[tuple[str, str]]

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
    # zone -> card text -> the seat that put it there (zones labelled `by player`)
    placed: dict[str, dict[str, str]] = attrs.Factory(dict)

    def view_vars(self) -> dict[str, Any]:
        if self.reveal_all:
            return dict(self.game.variables(self.state))
        return dict(view(self.game, self.state, self.viewer)["vars"])


def zones_for(info: TableInfo) -> dict[str, Pile]:
    game, state = info.game, info.state
    if info.reveal_all:
        return {z: Pile.of(game.zone_cards(state, z)) for z in game.zone_names()}
    seen = view(game, state, info.viewer)
    return {text: Pile.of(v) for text, v in seen["zones"].items()}


def seat_label(info: TableInfo, p: int, short: bool = False) -> str:
    lab = info.player_labels.get(p)
    if short and lab:
        lab = lab.removesuffix(" bot")
    return f"p{p} ({lab})" if lab and not short else (f"p{p} {lab}" if lab else f"p{p}")


_seat_label = seat_label


def _pad(line: Line, w: int) -> Line:
    return line + [("", " " * max(w - width(line), 0))]


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
        return [("", game.checked.suit_symbols[v - 1])]
    if typ == "bool":
        return [("", "yes" if v else "no")]
    return [("", str(v))]


def title_line(info: TableInfo, short: bool = False) -> Line:
    """The game, its options, players, seed, move and phase (`short`: no options)."""
    game = info.game
    opts = ", ".join(f"{k}={option_text(v)}" for k, v in game.options.items())
    bits = [game.name + (f" ({opts})" if opts and not short else "")]
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


def score_of(info: TableInfo) -> Line:
    scores = info.game.scores(info.state)
    if info.game.players == 1:
        return [("", str(scores[0]))]
    line: Line = []
    for p, sc in enumerate(scores, 1):
        if p > 1:
            line.append(("class:dim", " · "))
        line.append(("", f"{seat_label(info, p, short=True)} {sc}"))
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


