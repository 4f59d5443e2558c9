"""What a seat observes of each step, and its observation history (its information state).

An `Event` (engine) says what happened in full. `observation` says what one seat sees of
it, by the visibility of the zones involved at that moment:

- a card that moves is seen when the seat sees it where it leaves or where it arrives
  (by the zone's face, or the card's own when the rules turned it; `visibility.sees_card`),
  so a card played face up into a trick and gathered face down in the same step is seen;
  its place in a zone the seat cannot see is not told;
- a shuffle's new order is seen by the seats that see the zone; a random pick's outcome
  by nobody (its effects are seen like any other);
- a player's move is seen by everyone, each card it names written as a card back unless
  the seat sees where the card is or sees it in the step; at a simultaneous choice the
  move is the chooser's secret until the REVEAL;
- a log line names a card when the seat sees the zone the card is in at that moment, or
  saw the card earlier in the step; other cards are written as card backs;
- a card turned where it lies is seen turning by everyone; its face when the seat sees
  it before or after;
- what became public after a step (variables, who decides, the phase, the end) is seen
  by all.

A seat's history is the tuple of its observations from the setup on. Two states with the
same history for a seat give that seat the same view and the same legal moves
(tests/test_observations.py).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from ..engine import Event, Game, Move, replay
from ..engine import events as E
from .visibility import BACK, CHOSEN, sees

History = tuple["Observation", ...]


@attrs.frozen
class Observation:
    """What one seat sees of one event (values are texts: JSON-ready, hashable)."""

    kind: str  # the event's kind (engine.events.KINDS)
    actor: int = 0  # the player whose step it is (0: the setup)
    card: str = ""  # MOVE: the card's text, or BACK when the seat sees neither zone
    src: str = ""  # MOVE: the zone it left; SHUFFLE: the zone
    dst: str = ""  # MOVE: the zone it reached
    src_index: int | None = None  # MOVE: its place in `src` (None: the seat cannot see src)
    dst_index: int | None = None  # MOVE: its place in `dst` (None: the seat cannot see dst)
    cards: tuple[str, ...] = ()  # SHUFFLE: the new order, when the seat sees the zone
    move: str = ""  # CHOICE, REVEAL: the move's text (cards masked), or CHOSEN
    text: str = ""  # CHOICE, REVEAL: the move's description; LOG: the line (cards masked)
    changes: tuple[tuple[str, Any], ...] = ()  # PUBLIC: variables that changed
    to_move: tuple[int, ...] = ()  # PUBLIC
    phase: str = ""  # PUBLIC
    ended: Any = None  # PUBLIC
    turned: bool = False  # TURN: the card lies turned from its zone's face now

    def to_data(self) -> dict[str, Any]:
        """As JSON-ready data, defaults left out (replay files)."""
        return attrs.asdict(self, filter=lambda a, v: a.name == "kind" or v != a.default,
                            value_serializer=lambda _i, _a, v: list(v) if isinstance(v, tuple) else v)


def _visible(game: Game, seat: int | None) -> frozenset[str]:
    """The names of the zones `seat` sees (worked out once per game and seat: asked for
    every event a seat observes)."""
    per_seat = _by_seat.get(game)
    if per_seat is None:
        per_seat = _by_seat[game] = {}
    found = per_seat.get(seat)
    if found is None:
        found = per_seat[seat] = frozenset(z.name for z in game.zones if sees(z, seat))
    return found


_by_seat: weakref.WeakKeyDictionary[Game, dict[int | None, frozenset[str]]] = (
    weakref.WeakKeyDictionary())


def _public(game: Game) -> frozenset[str]:
    """The names of the face-up zones (a card turned there is seen by nobody)."""
    found = _pub.get(game)
    if found is None:
        found = _pub[game] = frozenset(z.name for z in game.zones if z.visibility == "public")
    return found


_pub: weakref.WeakKeyDictionary[Game, frozenset[str]] = weakref.WeakKeyDictionary()


def _seen(zone: str, turned: bool, vis: frozenset[str], pub: frozenset[str]) -> bool:
    """Does a seat that sees the zones `vis` see a card in `zone`, turned or not?"""
    return zone not in pub if turned else zone in vis


def shown_cards(game: Game, event: Event, seat: int | None) -> set[int]:
    """The cards that this event shows to `seat` (it sees them, wherever they go next)."""
    return _shown(event, _visible(game, seat), _public(game))


def _shown(event: Event, vis: frozenset[str], pub: frozenset[str]) -> set[int]:
    k = event.kind
    if k == E.MOVE:
        if event.card is not None and (_seen(event.src, event.src_turned, vis, pub)
                                       or _seen(event.dst, event.dst_turned, vis, pub)):
            return {event.card}
        return set()
    if k == E.TURN:
        if event.card is not None and (_seen(event.src, event.src_turned, vis, pub)
                                       or _seen(event.src, event.dst_turned, vis, pub)):
            return {event.card}
        return set()
    if k == E.SHUFFLE:
        return set(event.cards) if event.src in vis else set()
    if k in (E.LOG, E.CHOICE, E.REVEAL):
        if event.turned:
            return {c for c, z in event.where if _seen(z, c in event.turned, vis, pub)}
        return {c for c, z in event.where if z in vis}
    return set()


def observation(game: Game, event: Event, seat: int | None,
                seen: set[int] | frozenset[int] = frozenset()) -> Observation:
    """What `seat` (None: a spectator) sees of `event`; `seen`: the cards the seat saw
    earlier in the same step (`observe_step` keeps it)."""
    return _observation(game, event, seat, seen, _visible(game, seat), _public(game))


def _observation(game: Game, event: Event, seat: int | None,
                 seen: set[int] | frozenset[int], vis: frozenset[str],
                 pub: frozenset[str]) -> Observation:
    k = event.kind
    if k == E.MOVE:
        src, dst = event.src in vis, event.dst in vis
        shown = (_seen(event.src, event.src_turned, vis, pub)
                 or _seen(event.dst, event.dst_turned, vis, pub))
        card = game.card_text[event.card] if event.card is not None and shown else BACK
        return Observation(k, event.actor, card=card, src=event.src, dst=event.dst,
                           src_index=event.src_index if src else None,
                           dst_index=event.dst_index if dst else None,
                           turned=event.dst_turned)
    if k == E.TURN:
        shown = (_seen(event.src, event.src_turned, vis, pub)
                 or _seen(event.src, event.dst_turned, vis, pub))
        card = game.card_text[event.card] if event.card is not None and shown else BACK
        return Observation(k, event.actor, card=card, src=event.src,
                           src_index=event.src_index if event.src in vis else None,
                           turned=event.dst_turned)
    if k == E.SHUFFLE:
        cards = tuple(game.card_text[c] for c in event.cards) if event.src in vis else ()
        return Observation(k, event.actor, src=event.src, cards=cards)
    if k == E.RANDOM:
        return Observation(k, event.actor)
    if k in (E.CHOICE, E.REVEAL):
        assert event.move is not None
        if k == E.CHOICE and event.secret and event.actor != seat:
            return Observation(k, event.actor, move=CHOSEN, text=CHOSEN)
        known = seen | _shown(event, vis, pub)
        text, desc = _masked(game, event.move, known, event.actor == seat)
        return Observation(k, event.actor, move=text, text=desc)
    if k == E.LOG:
        known = seen | _shown(event, vis, pub)
        return Observation(k, event.actor, text="".join(
            p if isinstance(p, str) else _value_text(game, p[0], p[1], known) for p in event.parts))
    return Observation(k, event.actor, changes=event.changes, to_move=event.to_move,
                       phase=event.phase, ended=event.ended)


def _masked(game: Game, move: Move, known: set[int] | frozenset[int], own: bool) -> tuple[str, str]:
    types = game.move_param_types[move[1]]
    args = [BACK if t == "card" and not own and a not in known
            else " ".join(BACK if not own and c not in known else game.arg_text(c, "card")
                          for c in a)
            if t == "list:card" else game.arg_text(a, t)
            for a, t in zip(move[2:], types, strict=False)]
    return " ".join([game.move_names[move[1]], *args]), game.move_description(move, args)


def _value_text(game: Game, v: Any, typ: str, known: set[int] | frozenset[int]) -> str:
    if typ == "card" and v is not None and v not in known:
        return BACK
    if typ == "list:card" and v is not None:
        return ", ".join(_value_text(game, c, "card", known) for c in v)
    return game.value_text(v, typ)


def observe_step(game: Game, events: Iterable[Event], seat: int | None) -> tuple[Observation, ...]:
    """What `seat` sees of one step's events (or of the setup's), in order. A card seen
    in the step stays named in the step's later log lines, and in its move (the CHOICE
    comes first, so the whole step is looked at before it is written)."""
    events = tuple(events)
    vis = _visible(game, seat)
    pub = _public(game)
    seen: set[int] = set()
    for e in events:
        seen |= _shown(e, vis, pub)
    return tuple(_observation(game, e, seat, seen, vis, pub) for e in events)


def history(game: Game, seed: int, moves: Sequence[Move], seat: int | None) -> History:
    """The observation history of `seat` after playing `moves` from the deal of `seed`."""
    return histories(game, seed, moves, (seat,))[seat]


def histories(game: Game, seed: int, moves: Sequence[Move],
              seats: Iterable[int | None] | None = None) -> dict[int | None, History]:
    """Every seat's history (default: each player's) after `moves` from `seed`'s deal."""
    seats = tuple(range(1, game.players + 1)) if seats is None else tuple(seats)
    state, events = game.start_observed(seed)
    steps = [events]
    for m in moves:
        state, events = game.apply_observed(state, tuple(m))
        steps.append(events)
    return {p: tuple(o for ev in steps for o in observe_step(game, ev, p)) for p in seats}


def replay_histories(game: Game, rep: replay.Replay) -> dict[int, list[dict[str, Any]]]:
    """Each player's history over a replay's moves, as JSON-ready data for
    `Replay.observations` (moves re-checked; a move that does not replay raises)."""
    states = rep.states(game)
    moves = [game.parse_move(st, text, p) for st, (p, text) in zip(states, rep.moves, strict=False)]
    found = histories(game, rep.seed, moves)
    return {p: [o.to_data() for o in h] for p, h in found.items() if p is not None}


def describe(game: Game, obs: Observation, seat: int | None,
             names: dict[int, str] | None = None) -> str:
    """One observation in words for `seat`: `p2 plays: play J♠`, `you: ...`,
    `J♠: hand-p2 -> trick`, a log line. `names` may name the players (default p1, you)."""
    def who(p: int) -> str:
        if names and p in names:
            return names[p]
        return "you" if p == seat else f"p{p}"

    k = obs.kind
    if k == E.CHOICE:
        return f"{who(obs.actor)}: chose, in secret" if obs.move == CHOSEN else \
            f"{who(obs.actor)}: {obs.text}"
    if k == E.REVEAL:
        return f"{who(obs.actor)} chose: {obs.text}"
    if k == E.MOVE:
        return f"{obs.card}: {obs.src} -> {obs.dst}" + (" (face down)" if obs.turned and
                                                        obs.card == BACK else "")
    if k == E.TURN:
        return f"{obs.card} turned in {obs.src}"
    if k == E.SHUFFLE:
        return f"{obs.src} shuffled"
    if k == E.RANDOM:
        return "a random pick"
    if k == E.LOG:
        return obs.text
    bits = [f"{n} = {v}" for n, v in obs.changes]
    if obs.ended:
        bits.append(f"the game ends: {obs.ended}")
    return "; ".join(bits)
