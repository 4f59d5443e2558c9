"""Positions by zone and variable names, for every game: scenario tests, tools, the solver.

    st = (Position(game, seed=3)                 # the deal of seed 3 (or any state)
          .zone("hand-p1", "As Kd 10h")          # exactly these cards, bottom first
          .zone("stock[2]", [c1, c2])            # card ids work too; `decl[index]` names
          .var("chips", [3, 0, 1])               # a whole per-player array...
          .var("chips[p2]", 5)                   # ...or one element
          .state())                              # settled: end conditions, legal moves

A card placed in a zone leaves the zone it was in. Cards that were in a named zone and are
not placed again go on top of `rest` (the deck unless said otherwise); the cards named for
`rest` itself stay on top of it. Card texts pick, among copies of the same card, the first
one not placed yet. The flow stays where the state was: a choice the flow made from the
deal (Arsène's lay_trump or show) is not made again for the cards placed here.

Only the engine knows where zones and variables live in a state; this module is the one
place that writes them by name.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import SUIT_SYMBOLS, SUITS
from ..codegen import ENDED, MOVES, PC, PENDING, RNG, WHO
from ..errors import CardgameError
from .playout import Machine
from .state import Move, State, tuplify
from .texts import card_id


def zone_slot(g: Machine, name: str) -> int:
    """Where a zone lives, by its text (`column3`, `hand-p2`) or as `decl[index]`
    (`column[3]`, `hand[p2]`, `foundation[spades]`)."""
    slot = g._zone_at.get(name)
    if slot is not None:
        return slot
    if name.endswith("]") and "[" in name:
        decl, _, index = name[:-1].partition("[")
        z = g.checked.zones.get(decl)
        if z is not None and z.dim is not None:
            i = _index(z.dim, index.strip(), name, g.checked.suit_names,
                       g.checked.suit_symbols)
            return g.gen.zone_base[decl] + i - 1
    raise CardgameError(f"no zone '{name}': zones are " + ", ".join(g.zone_text.values()))


def _index(dim: tuple[str, int], index: str, name: str, suits: tuple[str, ...] = SUITS,
           symbols: tuple[str, ...] = SUIT_SYMBOLS) -> int:
    """The 1-based position of `index` (`p2`, `2`, `spades`, `♠`) in a dimension."""
    kind, size = dim
    i: int | None = None
    if kind == "suit" and (index in suits or index in symbols):
        i = (suits.index(index) if index in suits else symbols.index(index)) + 1
    elif index.isdigit() or (kind == "player" and index[:1] == "p" and index[1:].isdigit()):
        i = int(index.lstrip("p"))
    if i is None or not 1 <= i <= size:
        raise CardgameError(f"'{name}': no element '{index}' (it has {size})")
    return i


def var_slots(g: Machine, name: str) -> tuple[int, int | None]:
    """(first slot, number of elements or None for a single value) of `name`, which is a
    variable or one element of an array variable (`chips[p2]`, `store[3]`)."""
    at = g._var_at.get(name)
    if at is not None:
        return at
    if name.endswith("]") and "[" in name:
        base, _, index = name[:-1].partition("[")
        v = g.checked.vars.get(base)
        if v is not None and v.dim is not None:
            return g.gen.var_base[base] + _index(v.dim, index.strip(), name,
                                                 g.checked.suit_names,
                                                 g.checked.suit_symbols) - 1, None
    raise CardgameError(f"no variable '{name}'")


def check_player_value(g: Machine, name: str, value: Any) -> None:
    """A variable of type player holds a player, 1..n, or `none`; and never `none` where
    the rules can give it nothing but a player (the generator's `player_vars`, which the
    optimised code reads without a check). A value from outside the rules is checked
    here, where it comes in, and not as an error of a rule later."""
    base = name.partition("[")[0]
    v = g.checked.vars.get(base)
    if v is None or v.type != "player":
        return
    n = g.checked.players
    if value is None and base not in g.gen.player_vars:
        return
    if type(value) is not int or not 1 <= value <= n:
        raise CardgameError(f"'{name}' holds a player, 1..{n}, not {value!r}")


_HEADER = {PC: "the flow's position", RNG: "the random seed", MOVES: "moves played",
           PENDING: "secret choices", ENDED: "how the game ended", WHO: "who decides"}


def differences(g: Machine, a: Sequence[Any], b: Sequence[Any]) -> list[str]:
    """The names of what differs (in value or type) between two slot lists of a game."""
    names = dict(_HEADER)
    names.update((slot, f"zone {text}") for slot, text in g.zone_text.items())
    for name, v in g.checked.vars.items():
        base = g.gen.var_base[name]
        if v.dim is None:
            names[base] = f"variable {name}"
        else:
            names.update((base + i, f"variable {name}[{i + 1}]") for i in range(v.dim[1]))
    return [names.get(i, f"slot {i}") for i, (x, y) in enumerate(zip(a, b, strict=False))
            if x != y or type(x) is not type(y)]


def read_var(g: Machine, slots: Sequence[Any], name: str) -> Any:
    base, n = var_slots(g, name)
    return slots[base] if n is None else [slots[base + i] for i in range(n)]


class Position:
    """A state under construction: set zones, variables and who decides by name, then
    `state()`. Each setter returns the position itself, so calls chain."""

    def __init__(self, game: Machine, state: State | None = None, *, seed: int = 0,
                 rest: str = "deck") -> None:
        self.game = game
        self._s: list[Any] = list(state.slots) if state is not None else game._start(seed)[0]
        at = game._zone_at.get(rest)
        self._rest: int = at if at is not None else zone_slot(game, rest)
        self._rest_top: tuple[int, ...] = ()  # the cards named for `rest`: kept on top
        self._placed: set[int] = set()  # cards placed by name: texts pick other copies

    # ------------------------------------------------------------------ reading
    def ids(self, zone: str) -> tuple[int, ...]:
        """The card ids in a zone now, bottom first."""
        return tuple(self._s[zone_slot(self.game, zone)])

    def cards(self, zone: str) -> list[str]:
        return [self.game.card_text[c] for c in self.ids(zone)]

    def value(self, var: str) -> Any:
        return read_var(self.game, self._s, var)

    # ------------------------------------------------------------------ writing
    def zone(self, name: str, cards: str | Sequence[str | int]) -> Position:
        """The zone holds exactly `cards`, bottom first: texts (`"As Kd"`, `["10h"]`) or
        card ids. Each card leaves the zone it was in; the zone's other cards go on top
        of `rest`."""
        items: Sequence[str | int] = cards.split() if isinstance(cards, str) else cards
        ids: list[int] = []
        taken = set(self._placed)
        for c in items:
            cid = c if isinstance(c, int) else card_id(self.game, c, taken)
            if not 0 <= cid < len(self.game.card_text):
                raise CardgameError(f"no card {cid} in this deck")
            taken.add(cid)
            ids.append(cid)
        self._place(zone_slot(self.game, name), ids)
        return self

    def _place(self, z: int, ids: Sequence[int]) -> None:
        s = self._s
        new = set(ids)
        leftover = tuple(c for c in s[z] if c not in new)
        f = self.game.gen.faces_slot
        if f is not None and s[f]:  # placed cards lie with their zone's face
            moved = new.union(leftover)
            s[f] = tuple(c for c in s[f] if c not in moved)
        for other in self.game._zone_slots:
            if other != z and not new.isdisjoint(s[other]):
                s[other] = tuple(c for c in s[other] if c not in new)
        if z == self._rest:
            s[z] = leftover + tuple(ids)
            self._rest_top = tuple(ids)
        else:
            s[self._rest] = s[self._rest] + leftover
            s[z] = tuple(ids)
        self._placed |= new

    def rearrange(self, zones: Mapping[str, Sequence[int]]) -> Position:
        """The named zones hold exactly these card ids, which must be the cards they hold
        between them now (dealt again among them); no other zone changes. A place that
        held a card turned from its zone's face holds a turned card again (faces belong
        to the places)."""
        slots = [zone_slot(self.game, name) for name in zones]
        before = sorted(c for z in slots for c in self._s[z])
        if sorted(c for ids in zones.values() for c in ids) != before:
            raise CardgameError("a re-deal must use the cards of the zones it deals to")
        f = self.game.gen.faces_slot
        turned = set(self._s[f]) if f is not None else set()
        places = {(z, i) for z in slots for i, c in enumerate(self._s[z]) if c in turned}
        turned.difference_update(before)
        for z, ids in zip(slots, zones.values(), strict=True):
            self._s[z] = tuple(ids)
            turned.update(c for i, c in enumerate(ids) if (z, i) in places)
        if f is not None:
            self._s[f] = tuple(sorted(turned))
        return self

    def redeal(self, zones: Sequence[str], rng: random.Random) -> Position:
        """Deal the cards of these zones again, uniformly at random among them, each zone
        keeping its size. Which card goes where depends only on the set of cards the
        zones hold between them (not on their order) and on `rng`."""
        s = self._s
        at = self.game._zone_at
        slots = [at[name] if name in at else zone_slot(self.game, name) for name in zones]
        cards = [c for z in slots for c in s[z]]
        cards.sort()
        rng.shuffle(cards)
        i = 0
        for z in slots:
            k = len(s[z])
            s[z] = tuple(cards[i:i + k])
            i += k
        return self

    def turned(self) -> frozenset[int]:
        """The cards that lie turned from their zone's face now."""
        f = self.game.gen.faces_slot
        return frozenset(self._s[f]) if f is not None else frozenset()

    def faces(self, turned: Sequence[int] | frozenset[int] | set[int]) -> Position:
        """Exactly these cards lie turned from their zone's face (a face-down card in a
        face-up zone...): for a game whose rules turn cards."""
        f = self.game.gen.faces_slot
        if f is None:
            if turned:
                raise CardgameError("this game's rules never turn a card face up or down")
            return self
        self._s[f] = tuple(sorted(set(turned)))
        return self

    def face_down(self, zone: str, count: int) -> Position:
        """The bottom `count` cards of a face-up zone lie face down, the others face up
        (a Klondike column)."""
        ids = self.ids(zone)
        if count > len(ids):
            raise CardgameError(f"'{zone}' holds {len(ids)} cards, not {count}")
        mine = set(ids)
        return self.faces((self.turned() - mine) | set(ids[:count]))

    def var(self, name: str, value: Any) -> Position:
        """Set a variable (a list for a whole array) or one element (`chips[p2]`)."""
        base, n = var_slots(self.game, name)
        if n is None:
            check_player_value(self.game, name, value)
            self._s[base] = tuplify(value)
            return self
        if len(value) != n:
            raise CardgameError(f"'{name}' has {n} elements, given {len(value)}")
        for i, x in enumerate(value):
            check_player_value(self.game, name, x)
            self._s[base + i] = tuplify(x)
        return self

    def vars(self, values: Mapping[str, Any]) -> Position:
        for name, value in values.items():
            self.var(name, value)
        return self

    def to_move(self, player: int) -> Position:
        """Make `player` the one to decide at the decision the flow waits at."""
        d = self.game.gen.decisions.get(self._s[PC])
        if d is None or d.simultaneous:
            raise CardgameError("the flow is not at a decision of one player")
        if not 1 <= player <= self.game.checked.players:
            raise CardgameError(f"there is no player {player}")
        self._s[WHO] = player
        return self

    def pending(self, moves: Sequence[Move]) -> Position:
        """At a simultaneous choice: the secret choices made so far, in the order made."""
        d = self.game.gen.decisions.get(self._s[PC])
        if d is None or not d.simultaneous:
            raise CardgameError("the flow is not at a simultaneous choice")
        self._s[PENDING] = tuple(tuple(m) for m in moves)
        return self

    def random_seed(self, seed: int) -> Position:
        """The seed of the state's chance: its next shuffles and random picks."""
        self._s[RNG] = seed
        return self

    def moves_played(self, n: int) -> Position:
        self._s[MOVES] = n
        return self

    def state(self, check: bool = True) -> State:
        """The position, settled (its limit and end conditions applied, its legal moves
        known). With `check`, every card must be in exactly one zone; `check=False` lets
        a broken state through (to test the checks that catch one)."""
        s = self._s
        if self._rest_top:
            top = tuple(c for c in self._rest_top if c in s[self._rest])
            s[self._rest] = tuple(c for c in s[self._rest] if c not in top) + top
        if check:
            ids = sorted(c for z in self.game._zone_slots for c in s[z])
            if ids != list(range(len(self.game.card_text))):
                raise CardgameError("the position loses or duplicates cards")
        legal = self.game._settle(s)  # may mark the end: settle before freezing
        return State(tuple(s), legal)


def make_state(g: Machine, zones: Mapping[str, Sequence[str]] | None = None,
               vars: Mapping[str, Any] | None = None, seed: int = 0,
               rest: str = "deck") -> State:
    """`Position` in one call: from the deal for `seed`, each named zone holds exactly the
    cards listed (bottom first); `vars` sets variables."""
    pos = Position(g, seed=seed, rest=rest)
    used: set[int] = set()
    placed: dict[int, list[int]] = {}
    for name, cards in (zones or {}).items():  # copies of a card are taken in this order
        ids = []
        for c in cards:
            cid = card_id(g, c, used)
            used.add(cid)
            ids.append(cid)
        placed[zone_slot(g, name)] = ids
    for z in g._zone_slots:  # and placed in the layout's order
        if z in placed:
            pos._place(z, placed[z])
    pos.vars(vars or {})
    return pos.state()
