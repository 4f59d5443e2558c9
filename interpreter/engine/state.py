"""The state value: an immutable tuple of slots, its position key and its JSON form.

A `State` is hashable and cheap to share. It caches its legal moves and why the game
ended once the engine has worked them out; equality and hash are over the slots only.
Only the engine reads `State.slots`: every other layer asks `Game` (or `Position`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..codegen import ENDED, MOVES, PC
from ..errors import CardgameError

Move = tuple[Any, ...]


class State:
    """An immutable game state. Equality and hash are over the slots only."""

    # `_s`: None, or (a state `Game.apply` reached, see `Reached`) the slots as the list
    # the rules ran on, never changed again
    __slots__ = ("slots", "_legal", "_ended", "_s")

    def __init__(self, slots: tuple[Any, ...], legal: list[Move] | None = None) -> None:
        self.slots = slots
        # (a SetMoves where `Game.apply` left sets of cards unlisted: see legal_moves)
        self._legal: Sequence[Move] | None = legal
        # why the game is over, once known (a state built by hand is settled lazily)
        self._ended: Any = slots[ENDED] if legal is not None else None
        self._s: list[Any] | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.slots == other.slots

    def __hash__(self) -> int:
        return hash(self.slots)

    def __repr__(self) -> str:
        return f"State(pc={self.slots[PC]}, moves={self.slots[MOVES]}, ended={self.slots[ENDED]!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        legal = self._legal  # (a SetMoves that `apply` left unlisted: listed)
        return _rebuilt, (self.slots, legal if legal is None or type(legal) is list
                          else list(legal), self._ended)


def _rebuilt(slots: tuple[Any, ...], legal: list[Move] | None, ended: Any) -> State:
    """A pickled state again (its legal moves and end as they were known)."""
    st = State(slots, legal)
    st._ended = ended
    return st


_slot: Any = State.__dict__["slots"]  # the slot itself (`Reached` hides it)
_get_slots = _slot.__get__
_set_slots = _slot.__set__


class Reached(State):
    """A state as `Game.apply` builds it, a `State` in every way: made without a call of
    `State.__init__` (the caller sets `_s`, `_legal` and `_ended`), and its slots tuple
    made only when first read. Until then the engine reads the list `_s` (never changed
    after the step that filled it), so the loop of bots and search (`legal_moves`,
    `apply`, `to_move`...) builds no tuple per move. The first read of `slots` (JSON, a
    position key...) makes the tuple, drops the list and turns the object into a plain
    `State`, whose `slots` is then read as any attribute."""

    __slots__ = ()
    __init__ = object.__init__  # (CPython then calls it in C)

    # equality and hash as a State's, without making the tuple to keep (a bot's table
    # of states hashes each once or twice; making and keeping the tuple costs more)
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return False
        s, o = self._s, other._s
        if s is not None and o is not None:
            return s == o
        return self.slots == other.slots

    def __hash__(self) -> int:
        s = self._s
        return hash(tuple(s) if s is not None else _get_slots(self))

    @property
    def slots(self) -> tuple[Any, ...]:  # type: ignore[override]
        s = self._s
        if s is None:  # another thread made the tuple meanwhile
            return _get_slots(self)
        t = tuple(s)
        _set_slots(self, t)
        self.__class__ = State  # type: ignore[assignment]
        self._s = None  # (after the tuple is in place: see `s is None` above)
        return t


def raw_slots(state: State) -> Sequence[Any]:
    """The slots as the engine reads them: the list of a state `Game.apply` reached
    (`Reached`: never changed, no tuple made), else the tuple. (`apply` and `to_move`,
    run per move by bots and search, write it out.)"""
    return state._s or state.slots


def position_key(state: State) -> tuple[Any, ...]:
    """The state without its move counter: equal for a position reached again."""
    s = state.slots
    return s[:MOVES] + s[MOVES + 1:]


# ---------------------------------------------------------------------- JSON
def to_json(state: State, header: dict[str, Any]) -> str:
    """The state as JSON: the game's identity (`header`) and the slots."""
    import json  # (here: `cardgame check` compiles a game without importing json)

    return json.dumps({"format": "cardgame-state", "version": 1, **header,
                       "slots": jsonable(state.slots)})


def from_json(text: str, name: str, players: int, nslots: int, zone_slots: Sequence[int],
              ncards: int) -> State:
    """A state saved by `to_json` for this game (its name, players and layout), checked:
    every zone holds cards of the deck and every card is in exactly one zone."""
    import json

    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise CardgameError(f"not a saved state: {e}") from None
    if not isinstance(data, dict) or data.get("format") != "cardgame-state":
        raise CardgameError("not a saved state (no 'cardgame-state' format marker)")
    if data.get("game") != name or data.get("players") != players:
        raise CardgameError(f"the state is of '{data.get('game')}' for "
                            f"{data.get('players')} players, not this game")
    slots = data.get("slots")
    if not isinstance(slots, list) or len(slots) != nslots:
        raise CardgameError("the saved state does not fit this game (its layout differs)")
    t = tuplify(slots)
    seen: list[int] = []
    for z in zone_slots:
        zone = t[z]
        if not isinstance(zone, tuple) or not all(
                type(c) is int and 0 <= c < ncards for c in zone):
            raise CardgameError("the saved state has a broken zone")
        seen += zone
    if sorted(seen) != list(range(ncards)):
        raise CardgameError("the saved state loses or duplicates cards")
    return State(t)


def jsonable(v: Any) -> Any:
    if isinstance(v, (tuple, list)):
        return [jsonable(x) for x in v]
    return v


def tuplify(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(tuplify(x) for x in v)
    return v
