"""Who sees what: one rule for every view, log line, bot and leak check.

- A zone's cards are seen as its declaration says: `face up` (public) by every seat,
  `owner` by the owning player only, `face down` (hidden) by nobody. A seat that cannot
  see a zone sees how many cards it holds.
- A card turned from its zone's face (`turn C face down`, `move ... face up`: only in a
  game whose rules turn cards) is seen the other way: a face-down card in a face-up zone
  by nobody, a face-up card in a face-down or owner zone by everyone.
- Every variable is public.
- At a simultaneous choice, who has chosen is public; what they chose is seen by the
  chooser only, until all have chosen.

A seat is a player number, or None for a spectator (who sees public cards only).
"""

from __future__ import annotations

import weakref
from typing import Any

from ..engine import Game, Move, State, Zone

BACK = "▒▒"  # a card written face down
CHOSEN = "(chosen)"  # a secret choice, as the other seats see it


def sees(zone: Zone, seat: int | None) -> bool:
    """May this seat see the cards of this zone?"""
    if zone.visibility == "public":
        return True
    return zone.visibility == "owner" and seat is not None and zone.owner == seat


def sees_card(zone: Zone, turned: bool, seat: int | None) -> bool:
    """May this seat see a card that lies in `zone`, `turned` from the zone's face or not?"""
    if turned:
        return zone.visibility != "public"
    return sees(zone, seat)


def has_hidden(game: Game, seat: int | None) -> bool:
    """May this seat ever be unable to see a card: a zone it cannot see, or rules that
    turn cards face down?"""
    return bool(_hidden_zones(game, seat)) or game.uses_faces


def visible_zones(game: Game, seat: int | None) -> list[str]:
    return [z.name for z in game.zones if sees(z, seat)]


def hidden_zones(game: Game, seat: int | None) -> list[str]:
    return list(_hidden_zones(game, seat))


def _hidden_zones(game: Game, seat: int | None) -> tuple[str, ...]:
    per_seat = _hidden.get(game)
    if per_seat is None:  # asked at every re-deal: worked out once per game and seat
        per_seat = _hidden[game] = {}
    hidden = per_seat.get(seat)
    if hidden is None:
        hidden = per_seat[seat] = tuple(z.name for z in game.zones if not sees(z, seat))
    return hidden


_hidden: weakref.WeakKeyDictionary[Game, dict[int | None, tuple[str, ...]]] = (
    weakref.WeakKeyDictionary())


def visible_cards(game: Game, state: State, seat: int | None) -> set[int]:
    """The ids of the cards this seat sees in `state`."""
    out: set[int] = set()
    turned = game.turned(state)
    for z in game.zones:
        if not turned:
            if sees(z, seat):
                out.update(game.zone_ids(state, z.name))
            continue
        out.update(c for c in game.zone_ids(state, z.name) if sees_card(z, c in turned, seat))
    return out


def view(game: Game, state: State, seat: int | None) -> dict[str, Any]:
    """What one seat may see, as plain data (JSON-ready)."""
    hidden = set(_hidden_zones(game, seat))
    text = game.card_text
    zones: dict[str, Any] = {
        name: {"hidden": len(ids)} if name in hidden else [text[c] for c in ids]
        for name, ids in game.zone_contents(state).items()}
    turned = game.turned(state)
    if turned:  # per-card faces: a face-down card is a back, wherever it lies
        by_name = {z.name: z for z in game.zones}
        for name, ids in game.zone_contents(state).items():
            if not turned.isdisjoint(ids):
                zone = by_name[name]
                zones[name] = [text[c] if sees_card(zone, c in turned, seat) else BACK
                               for c in ids]
    variables = {name: _jsonable(v) for name, v in game.variables(state).items()}
    pending = [{"player": m[0], "move": game.move_text(m) if m[0] == seat else CHOSEN}
               for m in game.pending(state)]
    return {
        "game": game.name,
        "zones": zones,
        "vars": variables,
        "to_move": list(game.to_move(state)),
        "phase": game.phase(state),
        "pending": pending,
        "ended": game.ended(state),
        "moves_played": game.moves_played(state),
    }


def secret_choice(game: Game, state: State, player: int, seat: int | None) -> bool:
    """True when `player` has chosen at a simultaneous choice and `seat` may not know what."""
    return player != seat and any(m[0] == player for m in game.pending(state))


def card_args(game: Game, move: Move) -> list[int]:
    """The cards a move names."""
    types = game.move_param_types[move[1]]
    return [c for a, t in zip(move[2:], types, strict=False) if t in ("card", "list:card")
            for c in (a if t == "list:card" else (a,))]


def masked_move(game: Game, move: Move, hidden: set[int] | frozenset[int] = frozenset()
                ) -> tuple[str, str]:
    """(text, description) of a move, each card in `hidden` written as a card back."""
    types = game.move_param_types[move[1]]
    args = [BACK if t == "card" and a in hidden
            else " ".join(BACK if c in hidden else game.arg_text(c, "card") for c in a)
            if t == "list:card" else game.arg_text(a, t)
            for a, t in zip(move[2:], types, strict=False)]
    text = " ".join([game.move_names[move[1]], *args])
    return text, game.move_description(move, args)


def _jsonable(v: Any) -> Any:
    if isinstance(v, (tuple, list)):
        return [_jsonable(x) for x in v]
    return v
