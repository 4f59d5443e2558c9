"""Moves and cards as text: `build 3`, `shift column1 column4`, `play Q♠`.

A move is a tuple `(player, move_index, *args)`. Its text is the move's name and its
arguments, each written by its parameter type; `parse_move` finds the legal move with a
given text. Card texts compare through one normaliser (`cards.normalize`): case and spacing do not
matter, and suits may be written as letters (`Qs`, `10h`).
"""

from __future__ import annotations

from typing import Any

from ..cards import SUITS
from ..cards import normalize as norm
from ..errors import CardgameError, IllegalMove
from .playout import Machine
from .state import Move


def arg_text(g: Machine, value: Any, typ: str) -> str:
    if typ == "card":
        return g.card_text[value]
    if typ == "player":
        return f"p{value}"
    if typ == "zone":
        return g.zone_text.get(value, str(value))
    if typ == "suit":
        return SUITS[value - 1]
    if typ == "bool":
        return "yes" if value else "no"
    return str(value)


def move_text(g: Machine, move: Move) -> str:
    mid = move[1]
    types = g.move_param_types[mid]
    parts = [g.move_names[mid]]
    parts += [arg_text(g, a, t) for a, t in zip(move[2:], types, strict=False)]
    return " ".join(parts)


def move_description(g: Machine, move: Move, args: list[str] | None = None) -> str:
    """The move's own description (its doc string with the arguments filled in), else its
    text; `args` gives the arguments' texts when they are to be written otherwise."""
    mid = move[1]
    types = g.move_param_types[mid]
    if args is None:
        args = [arg_text(g, a, t) for a, t in zip(move[2:], types, strict=False)]
    text = " ".join([g.move_names[mid], *args])
    if mid >= len(g.checked.moves):  # pass
        return text
    decl = g.checked.moves[g.move_names[mid]]
    desc = decl.doc or text
    for p, a in zip(decl.params, args, strict=False):
        desc = desc.replace("{" + p.name + "}", a)
    return desc


def parse_move(g: Machine, legal: list[Move], text: str) -> Move:
    """The move of `legal` whose text is `text` (suits may be written s h d c)."""
    want = norm(text)
    for m in legal:
        if norm(move_text(g, m)) == want:
            return m
    names = {g.move_names[m[1]] for m in legal}
    word = want.split(" ")[0] if want else ""
    if word and word not in {norm(n) for n in g.move_names}:
        raise IllegalMove(f"there is no move '{word}' in this game")
    if word and word not in {norm(n) for n in names}:
        raise IllegalMove(f"'{word}' is not possible now (legal now: "
                          + ", ".join(sorted(names)) + ")" if names else "no move is possible")
    raise IllegalMove(f"'{text.strip()}' is not a legal move now")


def card_id(g: Machine, text: str, exclude: set[int] | frozenset[int] = frozenset()) -> int:
    """A card by its text (`K♠`, `Ks`, `10h`, `7`); with duplicates, the first unused."""
    want = norm(text)
    for cid, t in enumerate(g.card_text):
        if norm(t) == want and cid not in exclude:
            return cid
    raise CardgameError(f"no card '{text}' in this deck (or every copy is used already)")


def zone_value(g: Machine, text: str) -> int:
    """The value that stands for a zone (`column3`, `hand-p2`) in a move's arguments."""
    for value, t in g.zone_text.items():
        if t == text:
            return value
    raise CardgameError(f"no zone '{text}': zones are " + ", ".join(g.zone_text.values()))


def build_move(g: Machine, player: int, name: str, *args: Any) -> Move:
    """A move from its name and arguments, each given as text (`"Qs"`, `"column1"`,
    `"p2"`, `"yes"`) or as its value; legal or not (to probe what `apply` refuses)."""
    if name not in g.move_names:
        raise CardgameError(f"there is no move '{name}' in this game")
    mid = g.move_names.index(name)
    types = g.move_param_types[mid]
    if len(args) != len(types):
        raise CardgameError(f"'{name}' takes {len(types)} argument(s), given {len(args)}")
    values: list[Any] = []
    for a, t in zip(args, types, strict=True):
        if not isinstance(a, str):
            values.append(a)
        elif t == "card":
            values.append(card_id(g, a))
        elif t == "zone":
            values.append(zone_value(g, a))
        elif t == "player":
            values.append(int(a.lstrip("p")))
        elif t == "suit":
            values.append(SUITS.index(a) + 1)
        elif t == "bool":
            values.append(a == "yes")
        else:
            values.append(int(a))
    return (player, mid, *values)
