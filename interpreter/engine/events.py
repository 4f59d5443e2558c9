"""Events: what happened in one step, in order, as the rules did it (seen by everyone).

The generated code reports card moves, shuffles, random picks and `log` lines to one
module-level recorder, `REC`, and only while some call observes (`Game.apply_observed`,
`Game.start_observed`); otherwise `REC` is None and a step costs one test per card
statement. The engine adds the players' choices and, after each step, what became public
(the variables that changed, who decides). What one seat may see of an event is the
`observe` layer's (`observe.observation`).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import attrs
else:  # the same declarations, built cheaply (lang/nodes.py): start-up time
    from ..lang import nodes as attrs

from .state import Move

# Event kinds
MOVE = "move"  # a card went from `src` to `dst`
SHUFFLE = "shuffle"  # the zone `src` was shuffled; `cards` is its new order
RANDOM = "random"  # a random pick: `value` (of type `typ`)
LOG = "log"  # a `log` line: `parts`
CHOICE = "choice"  # a player's move (`actor`, `move`); at a simultaneous choice, secret
REVEAL = "reveal"  # a simultaneous choice revealed: `actor` chose `move`
PUBLIC = "public"  # after a step: `changes` (variables that changed), `to_move`, `phase`, `ended`
TURN = "turn"  # the card at `src_index` of `src` was turned: `dst_turned` says how it lies now
KINDS = (MOVE, SHUFFLE, RANDOM, LOG, CHOICE, REVEAL, PUBLIC, TURN)

Part = str | tuple[Any, str]  # a log line's piece: text, or (value, its type)


@attrs.frozen
class Event:
    """One thing that happened, in full (what a seat sees of it: `observe.observation`)."""

    kind: str  # one of KINDS
    actor: int = 0  # the player whose step it is (0: the setup)
    card: int | None = None  # MOVE: the card id (`Game.card_text[card]`)
    src: str = ""  # MOVE: the zone it left; SHUFFLE: the zone shuffled
    dst: str = ""  # MOVE: the zone it reached
    src_index: int = -1  # MOVE: its place in `src` before it left (0: the bottom)
    dst_index: int = -1  # MOVE: its place in `dst` when it arrived (0: the bottom)
    cards: tuple[int, ...] = ()  # SHUFFLE: the new order, bottom first
    move: Move | None = None  # CHOICE, REVEAL: the move
    secret: bool = False  # CHOICE: made at a simultaneous choice (others learn it at REVEAL)
    parts: tuple[Part, ...] = ()  # LOG: text and (value, type) pieces
    where: tuple[tuple[int, str], ...] = ()  # LOG, CHOICE, REVEAL: (card, its zone then)
    value: Any = None  # RANDOM: what was picked
    typ: str = ""  # RANDOM: its type (card, player, int...)
    changes: tuple[tuple[str, Any], ...] = ()  # PUBLIC: (variable, new value)
    to_move: tuple[int, ...] = ()  # PUBLIC: who decides now
    phase: str = ""  # PUBLIC: the flow's phase
    ended: Any = None  # PUBLIC: why the game ended (None: it goes on)
    # per-card faces (only in a game whose rules turn cards): a card *turned* lies with
    # the other face up than its zone's (a face-down card in a face-up zone...)
    src_turned: bool = False  # MOVE, TURN: the card was turned where it lay before
    dst_turned: bool = False  # MOVE: turned where it arrived; TURN: turned now
    turned: tuple[int, ...] = ()  # LOG, CHOICE, REVEAL: the cards of `where` turned then


class Recorder:
    """What the generated code reports to, as the global `REC`: events go to the list of
    the observing call running in this thread. `REC` is this object while some call
    observes, else None. (Within a thread calls do not nest: generated code never calls
    back into the engine.)"""

    def __init__(self, ns: dict[str, Any], zone_text: dict[int, str],
                 zone_slots: list[int], fmt: Any) -> None:
        self._ns = ns
        self._zone_text = zone_text
        self._zone_slots = zone_slots
        self._fmt = fmt
        self._local = threading.local()
        self._lock = threading.Lock()
        self.observers = 0

    # -------------------------------------------------------------- who listens
    def swap(self, target: list[Event] | None, actor: int = 0) -> list[Event] | None:
        """Make `target` this thread's event list (events of `actor`'s step); return the
        one it replaces."""
        old = getattr(self._local, "target", None)
        self._local.target = target
        self._local.actor = actor
        return old

    @property
    def actor(self) -> int:
        return int(getattr(self._local, "actor", 0))

    def open(self) -> None:
        with self._lock:
            self.observers += 1
            self._ns["REC"] = self

    def close(self) -> None:
        with self._lock:
            self.observers -= 1
            if not self.observers:
                self._ns["REC"] = None

    def _out(self) -> list[Event] | None:
        return getattr(self._local, "target", None)

    # -------------------------------------------------------------- from generated code
    def _faces(self) -> tuple[int | None, tuple[bool, ...]]:
        return self._ns.get("FACES"), self._ns.get("PUB", ())

    def turned(self, s: list[Any]) -> frozenset[int]:
        f = self._ns.get("FACES")
        return frozenset(s[f]) if f is not None else frozenset()

    def move(self, s: list[Any], cards: Any, dst: int, bottom: bool,
             face: bool | None = None) -> None:
        """Called before the statement moves `cards` (one id or a sequence) to `dst`:
        each leaves the zone it is in, in order, and arrives on top (or at the bottom,
        keeping their order); `face`: they arrive face up (True) or down (False), else
        with `dst`'s face."""
        out = self._out()
        if out is None:
            return
        f, pub = self._faces()
        was = frozenset(s[f]) if f is not None else frozenset()
        now = face is not None and face != pub[dst]
        ids = (cards,) if isinstance(cards, int) else tuple(cards)
        work: dict[int, list[int]] = {}

        def zone(z: int) -> list[int]:
            if z not in work:
                work[z] = list(s[z])
            return work[z]

        text = self._zone_text
        actor = self.actor
        for k, c in enumerate(ids):
            src = next((z for z in self._zone_slots if c in (work[z] if z in work else s[z])), None)
            if src is None:
                continue  # a rule error follows (the card is nowhere): nothing moved
            src_l = zone(src)
            i = src_l.index(c)  # a card id is in one place
            del src_l[i]
            dst_l = zone(dst)
            j = k if bottom else len(dst_l)
            dst_l.insert(j, c)
            out.append(Event(MOVE, actor, card=c, src=text[src], dst=text[dst], src_index=i,
                             dst_index=j, src_turned=c in was, dst_turned=now))

    def turn(self, s: list[Any], cards: Any, up: bool) -> None:
        """Called before `turn` turns `cards` (one id or a sequence) face up or down."""
        out = self._out()
        if out is None:
            return
        f, pub = self._faces()
        was = frozenset(s[f]) if f is not None else frozenset()
        ids = (cards,) if isinstance(cards, int) or cards is None else tuple(cards)
        for c in ids:
            z = next((z for z in self._zone_slots if c in s[z]), None)
            if z is None:
                continue  # a rule error follows
            now = up != pub[z]
            if now != (c in was):
                out.append(Event(TURN, self.actor, card=c, src=self._zone_text[z],
                                 src_index=s[z].index(c), src_turned=c in was, dst_turned=now))

    def deal(self, s: list[Any], src: int, dests: tuple[int, ...], n: int | None) -> None:
        """Called before `_deal` deals: one card at a time from the top of `src`, round."""
        out = self._out()
        if out is None or not dests or src in dests:
            return
        pile = list(s[src])
        total = len(pile) if n is None else min(n * len(dests), len(pile))
        sizes = {d: len(s[d]) for d in dests}
        text = self._zone_text
        actor = self.actor
        was = self.turned(s)
        for k in range(total):
            d = dests[k % len(dests)]
            c = pile.pop()
            out.append(Event(MOVE, actor, card=c, src=text[src], dst=text[d], src_index=len(pile),
                             dst_index=sizes[d], src_turned=c in was))
            sizes[d] += 1

    def shuffle(self, s: list[Any], z: int) -> None:
        """Called after zone `z` was shuffled."""
        out = self._out()
        if out is not None:
            out.append(Event(SHUFFLE, self.actor, src=self._zone_text[z], cards=tuple(s[z])))

    def pick(self, value: Any, typ: str = "") -> None:
        out = self._out()
        if out is not None:
            out.append(Event(RANDOM, self.actor, value=value, typ=typ))

    def log(self, s: list[Any], *parts: Part) -> None:
        out = self._out()
        if out is None:
            return
        cards: set[int] = set()
        for p in parts:
            if isinstance(p, tuple):
                v, t = p
                if t == "card" and v is not None:
                    cards.add(v)
                elif t == "list:card":
                    cards.update(x for x in v if x is not None)
        where = tuple((c, self._zone_text[z]) for c in sorted(cards)
                      for z in self._zone_slots if c in s[z])
        was = self.turned(s)
        out.append(Event(LOG, self.actor, parts=parts, where=where,
                         turned=tuple(c for c, _ in where if c in was)))

    def text(self, parts: tuple[Part, ...]) -> str:
        """A log line as the rules wrote it, every card named (no seat's view)."""
        return "".join(p if isinstance(p, str) else self._fmt(p[0], p[1]) for p in parts)
