"""Helpers the REPL builds on the engine's API.

- `visible_slots` / `visible_cards`: which zones and cards a seat may see (the engine's
  `Game.sees` rule, as sets, for masking moves in the log).
- `describe`: a move's text and description with the cards a seat may not see masked.
"""

from __future__ import annotations

from typing import Any

from cardgame.interpreter.engine.game import Game, Move, State

BACK = "▒▒"


def visible_slots(game: Game, seat: int | None) -> set[int]:
    return set(game.visible_slots(seat))


def visible_cards(game: Game, state: State, seat: int | None) -> set[int]:
    out: set[int] = set()
    for slot in visible_slots(game, seat):
        out.update(state.slots[slot])
    return out


def card_args(game: Game, move: Move) -> list[int]:
    types = game.move_param_types[move[1]]
    return [a for a, t in zip(move[2:], types, strict=False) if t == "card"]


def describe(game: Game, move: Move, hidden: set[int] | frozenset[int] = frozenset()
             ) -> tuple[str, str]:
    """(text, description) of a move, each card in `hidden` written as a card back."""
    mid = move[1]
    types = game.move_param_types[mid]

    def arg(value: Any, typ: str) -> str:
        if typ == "card" and value in hidden:
            return BACK
        return game.arg_text(value, typ)

    args = [arg(a, t) for a, t in zip(move[2:], types, strict=False)]
    text = " ".join([game.move_names[mid], *args])
    if mid >= len(game.checked.moves):
        return text, text
    decl = game.checked.moves[game.move_names[mid]]
    desc = decl.doc or text
    for p, a in zip(decl.params, args, strict=False):
        desc = desc.replace("{" + p.name + "}", a)
    return text, desc
