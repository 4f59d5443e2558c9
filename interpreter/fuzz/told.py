"""The leak check, on observation histories (docs/fuzz.md, docs/observations.md).

A leak: two worlds that a seat could not tell apart so far (the same observation history
from the deal on) give that seat a different view or different legal moves, or a step
played in both tells it something different (a log line, a variable, who decides, a card
moving or not) before it sees any card that differs.

Beside each playthrough, every seat that cannot see some cards gets *shadow worlds*
(`observe.worlds`): the game played again from the start with the cards the seat has not
seen put in other places of every shuffle so far, so that every branch the flow takes on
a hidden card is taken again in the shadow, from the start. Each move of the playthrough
is played in the shadows too (the cards it names relabeled); a shuffle that the move makes
(a discard pile turned into a new stock) gives the shadow an order of its own, unless the
seat watched it. When the playthrough shows the seat a card that a shadow holds
elsewhere, the shadow is mended (the two cards swap places in it, and in every shuffle it
made) and it goes on. A shadow that the seat can tell apart by a card it sees is dropped,
and a new one is drawn from the start. A difference found in a mended shadow is checked by
playing the shadow again from the start, with its shuffles' orders, before it is
reported: every leak reported has two worlds with the same history.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ..engine import Event, Game, Move, State
from ..engine import events as E
from ..errors import CardgameError
from ..lang import ast as A
from ..observe import (
    Observation,
    explained,
    observe_step,
    relabel_move,
    shown_cards,
    view,
)

# shadow worlds kept beside a playthrough, per seat that cannot see some cards (each
# costs a step per move; the probes below add worlds at the first decisions)
SHADOWS = 1
# draws for one new shadow before giving up until the next step
SPAWN_TRIES = 3
# at a seat's first decision in a playthrough (within its first EARLY moves), PROBES more
# worlds (not kept): cheap there (few moves to play again), and a leak in the first moves
# is the shortest counterexample
EARLY = 4
PROBES = 4
MAX_GAP = 32  # decisions between draws of a shadow after failed draws, at most
# a draw replays the whole game so far: per seat, the moves replayed by draws stay within
# REPLAY_BUDGET times the moves played (plus REPLAY_FREE), so that a long game (Arsène's
# many deals) is not checked in quadratic time; a seat over it waits for the next draw
REPLAY_BUDGET = 4
REPLAY_FREE = 200


class Leak(Exception):
    """A leak found: the seat and why (the state is the caller's)."""

    def __init__(self, seat: int, why: str) -> None:
        super().__init__(why)
        self.seat = seat
        self.why = why


class _Refused(Exception):
    """A shuffle that the shadow cannot make as asked (it is dropped)."""


Order = Callable[[int, list[int], dict[int, int]], list[int]]


class Shadow:
    """One world beside the playthrough: where the real cards are in it (the real card
    id -> the card in its place here, after the last shuffle of each; it maps the real
    moves too), the order each of its shuffles gave, its state and its moves."""

    __slots__ = ("to", "orders", "state", "moves", "mended")

    def __init__(self, to: dict[int, int], orders: list[tuple[int, ...]], state: Any) -> None:
        self.to = to
        self.orders = orders
        self.state: State = state
        self.moves: list[Move] = []
        self.mended = False

    def replayed(self) -> Order:
        """The shadow's own shuffles, in order (to play it again from the start)."""
        orders = self.orders

        def order(k: int, cards: list[int], to: dict[int, int]) -> list[int]:
            if k >= len(orders) or sorted(orders[k]) != sorted(cards):
                raise _Refused
            return list(orders[k])

        return order

    def swapped(self, g: Game) -> str:
        pairs = [f"{g.card_text[c]}->{g.card_text[d]}" for c, d in self.to.items() if c != d]
        more = f" (and {len(pairs) - 8} more)" if len(pairs) > 8 else ""
        return ", ".join(pairs[:8]) + more


class Shadows:
    """The shadow worlds of one playthrough (see the module docstring)."""

    def __init__(self, g: Game, seed: int, seats: Sequence[int],
                 view: Callable[[Game, State, int], dict[str, Any]] = view,
                 salt: int = 0, shuffles_later: bool = True) -> None:
        self.g = g
        self.view = view
        self.seed = seed
        self.seats = tuple(seats)
        # (`salt`: other shadows for the same playthrough, when a fast walk's leak is
        # confirmed)
        self.rng = random.Random(seed * 1_000_003 + 424_242 + salt * 7_919)
        _, events = g.start_observed(seed)
        self.moves: list[Move] = []
        self.steps: dict[int, list[tuple[Observation, ...]]] = {
            p: [observe_step(g, events, p)] for p in self.seats}
        self.seen: dict[int, set[int]] = {p: set() for p in self.seats}
        # the order each real shuffle gave; per seat, for each shuffle, whether the seat
        # watched it, and the cards shown to the seat since
        self.orders: list[tuple[int, ...]] = []
        self.watched: dict[int, list[bool]] = {p: [] for p in self.seats}
        self.since: dict[int, list[set[int]]] = {p: [] for p in self.seats}
        self._see(events)
        # `closed`: no seat can ever have a shadow world in this playthrough: the game
        # shuffles nothing after the setup (`shuffles_later`: no shuffle statement but
        # the setup's), and every seat has fewer than two places of the shuffles so far
        # whose cards it was not shown since (FreeCell, Besieged Castle: the deck is
        # dealt face up). A draw needs two such places, and they only become fewer as
        # the seat sees more cards, so every draw would fail: the real steps are not
        # observed at all (each was the move played again with its events)
        self.closed = not shuffles_later and all(
            sum(map(len, self._free(p))) < 2 for p in self.seats)
        self.worlds: dict[int, list[Shadow]] = {p: [] for p in self.seats}
        self.checks = 0
        self.spawned = 0
        self.probed: set[int] = set()  # the seats whose first decision was probed
        # per seat: decisions to wait before the next draw of a shadow, and the gap
        self.wait: dict[int, int] = {p: 0 for p in self.seats}
        self.gap: dict[int, int] = {p: 1 for p in self.seats}
        self.replayed: dict[int, int] = {p: 0 for p in self.seats}  # moves, by draws

    def _see(self, events: Sequence[Event]) -> None:
        for e in events:
            if e.kind == E.SHUFFLE:
                self.orders.append(tuple(e.cards))
        for p in self.seats:
            s = self.seen[p]
            since = self.since[p]
            for e in events:
                shown = shown_cards(self.g, e, p)
                if e.kind == E.SHUFFLE:
                    since.append(set())
                    self.watched[p].append(bool(shown))
                if shown:
                    s |= shown
                    for x in since:
                        x |= shown

    # ------------------------------------------------------------------ new shadows
    def spawn(self, p: int, keep: bool = True) -> Shadow | None:
        """Draw a new shadow for `p` from the start; raises Leak when the replay itself
        meets a step that tells `p` something (two worlds with the same history so far)."""
        free = self._free(p)
        if sum(len(f) for f in free) < 2:
            return None
        rng = self.rng

        def order(k: int, cards: list[int], to: dict[int, int]) -> list[int]:
            # the cards seen since keep their places; the world's other shuffled cards
            # (sorted: the draw does not depend on where the real ones were) fill the rest
            real = self.orders[k]
            places = free[k]
            rest = sorted(cards)
            kept = set(places)
            for i, c in enumerate(real):
                if i not in kept:
                    rest.remove(c)  # a seen card the shadow's shuffle lacks: ValueError
            rng.shuffle(rest)
            new = list(real)
            for i, c in zip(places, rest, strict=True):
                new[i] = c
            return new

        for _ in range(SPAWN_TRIES):
            self.spawned += 1
            self.replayed[p] += len(self.moves)
            sh = self._replay(p, order, report=True)
            if sh is not None:
                if keep:
                    self.worlds[p].append(sh)
                return sh
        return None

    def _free(self, p: int) -> list[list[int]]:
        """Each shuffle so far: the places of the cards not shown to `p` since (none if
        `p` watched it)."""
        return [[] if self.watched[p][k] else
                [i for i, c in enumerate(order) if c not in self.since[p][k]]
                for k, order in enumerate(self.orders)]

    def _rewrite(self, sh: Shadow, order: Order) -> Callable[[list[int]], list[int]]:
        """The shuffles of a shadow: its k-th shuffle (k counted over the game) gives
        `order(k, cards, sh.to)`; `sh.to` then maps each real card of the real k-th
        shuffle to the card in its place. Raises _Refused when the shadow shuffles
        other cards than the real game does (or more often)."""

        def rewrite(cards: list[int]) -> list[int]:
            k = len(sh.orders)
            if k >= len(self.orders) or len(cards) != len(self.orders[k]):
                raise _Refused
            new = order(k, cards, sh.to)
            to = sh.to
            for a, b in zip(self.orders[k], new, strict=True):
                if a == b:
                    to.pop(a, None)
                else:
                    to[a] = b
            if set(to) != set(to.values()):  # the places no longer match
                raise _Refused
            sh.orders.append(tuple(new))
            return new

        return rewrite

    def _replay(self, p: int, order: Order, report: bool,
                upto: int | None = None) -> Shadow | None:
        """The shadow whose shuffles give `order(k, cards, to)`, played from the start
        along the moves so far (`upto` of them), or None when `p` can tell it apart by a
        card it sees, or the rules refuse a move there."""
        g = self.g
        sh = Shadow({}, [], None)
        real = self.steps[p]
        try:
            with g.relabeling(self._rewrite(sh, order)):
                sh.state, events = g.start_observed(self.seed)
                if not self._same(p, real[0], observe_step(g, events, p), sh, None, report):
                    return None
                for k, m in enumerate(self.moves[:upto], 1):
                    mm = relabel_move(g, m, sh.to)
                    if mm not in g.legal_moves(sh.state):
                        return None
                    sh.state, events = g.apply_observed(sh.state, mm)
                    sh.moves.append(mm)
                    if not self._same(p, real[k], observe_step(g, events, p), sh, m, report):
                        return None
        except (_Refused, CardgameError, ValueError):
            return None
        return sh

    def _same(self, p: int, a: tuple[Observation, ...], b: tuple[Observation, ...],
              sh: Shadow, m: Move | None, report: bool) -> bool:
        ex = explained(a, b)
        if ex is None:
            return True
        if ex is False and report:
            raise Leak(p, self._told(p, a, b, sh, m))
        return False

    def _respawn(self, p: int) -> None:
        """A new shadow for `p`, drawn at once unless the last draws failed: each failure
        doubles the decisions to wait (up to MAX_GAP), each success halves it. A draw
        replays the whole game so far, so retrying at every decision of a long game made
        the check quadratic (Arsène: 561 failed draws in 3 games)."""
        if self.wait[p] > 0:
            self.wait[p] -= 1
            return
        if self.replayed[p] > REPLAY_BUDGET * len(self.moves) + REPLAY_FREE:
            return
        if self.spawn(p) is None:
            self.gap[p] = min(2 * self.gap[p], MAX_GAP)
            self.wait[p] = self.gap[p]
        else:
            self.gap[p] = max(1, self.gap[p] // 2)

    # ------------------------------------------------------------------ each decision
    def check(self, st: State, views: bool) -> None:
        """At a decision: every shadow must show its seat the same view (when `views`) and,
        when the seat decides, the same legal moves. Raises Leak."""
        if self.closed:  # (no world, and none can be drawn: see __init__)
            return
        g = self.g
        movers = g.to_move(st)
        for p in self.seats:
            if len(self.worlds[p]) < SHADOWS:
                self._respawn(p)
            probes: list[Shadow] = []
            if len(self.moves) < EARLY and p in movers and p not in self.probed:
                self.probed.add(p)
                probes = [sh for sh in (self.spawn(p, keep=False) for _ in range(PROBES))
                          if sh is not None]
            for sh in [*self.worlds[p], *probes]:
                why = self._differs(st, sh, p, p in movers, views)
                if why is None:
                    continue
                if sh.mended:  # play it again from the deal: is the history really the same?
                    again = self._replay(p, sh.replayed(), report=False)
                    if again is None or self._differs(st, again, p, p in movers, views) is None:
                        if sh in self.worlds[p]:
                            self.worlds[p].remove(sh)
                        continue
                    why = self._differs(st, again, p, p in movers, views)
                    sh = again
                raise Leak(p, f"{why}; in a world p{p} cannot tell from this one (the same "
                           f"observations so far), where the cards p{p} has not seen were "
                           f"dealt otherwise ({sh.swapped(g)})")

    def _differs(self, st: State, sh: Shadow, p: int, moves: bool, views: bool) -> str | None:
        g = self.g
        self.checks += 1
        other = sh.state
        if g.is_terminal(other) != g.is_terminal(st):
            return None  # the game ends in one world: an end tells what it tells anyway
        if views:
            a, b = self.view(g, st, p), self.view(g, other, p)
            if a != b:
                keys = [k for k in a if a[k] != b.get(k)]
                return f"p{p}'s view changes (in: {', '.join(keys)})"
        if not moves or g.is_terminal(other):
            return None
        mine = [g.move_text(m) for m in g.legal_moves(st, p)]
        theirs = [g.move_text(m) for m in g.legal_moves(other, p)]
        if mine == theirs:
            return None
        gone = [t for t in mine if t not in theirs]
        new = [t for t in theirs if t not in mine]
        what = []
        if gone:
            what.append(", ".join(f"`{t}`" for t in gone[:6]) + " illegal")
        if new:
            what.append(", ".join(f"`{t}`" for t in new[:6]) + " legal")
        if not what:
            what.append("the same moves in another order (which tells the order of hidden "
                        "cards)")
        return (f"p{p}'s legal moves depend on cards p{p} cannot see: it has "
                + ", ".join(f"`{t}`" for t in mine[:6]) + ", and "
                + " and ".join(what) + " elsewhere")

    # ------------------------------------------------------------------ each move
    def advance(self, st: State, m: Move) -> None:
        """The playthrough plays `m` from `st`: play it in every shadow (mended first so
        that the cards the step shows are the real ones). Raises Leak when a step tells a
        seat something that depends on cards it cannot see."""
        if self.closed:  # (no world to play it in, and none can be drawn: see __init__)
            self.moves.append(m)
            return
        g = self.g
        _, events = g.apply_observed(st, m)
        self.moves.append(m)
        self._see(events)  # the real shuffles first: the shadows' are matched with them
        shuffles = any(e.kind == E.SHUFFLE for e in events)
        for p in self.seats:
            a = observe_step(g, events, p)
            self.steps[p].append(a)
            shown: set[int] = set()
            # for each shuffle of the step, the cards shown to p after it (in the step)
            later: dict[int, set[int]] = {}
            k = len(self.orders)
            for e in reversed(events):
                if e.kind == E.SHUFFLE:
                    k -= 1
                    later[k] = set(shown)
                shown |= shown_cards(g, e, p)
            for sh in list(self.worlds[p]):
                if not self._follow(p, sh, m, a, shown, shuffles, later):
                    self.worlds[p].remove(sh)

    def _play_move(self, p: int, sh: Shadow, m: Move, order: Order, shuffles: bool
              ) -> tuple[State, tuple[Event, ...], Shadow] | None:
        """Play the real move `m` in the shadow: the state after it, its events and the
        shadow as it is after it (a copy: its `to` and shuffles change when the move
        shuffles), or None when the rules refuse it there. A shuffle the move makes
        gives `order`; `shuffles`: the real move shuffles (if not, a shuffle in the
        shadow is left as its seed makes it, and the seat sees the difference)."""
        g = self.g
        mm = relabel_move(g, m, sh.to)
        nxt = Shadow(dict(sh.to) if shuffles else sh.to, list(sh.orders) if shuffles
                     else sh.orders, sh.state)
        nxt.moves = sh.moves  # the caller appends mm when the shadow goes on
        nxt.mended = sh.mended
        try:
            if mm not in g.legal_moves(sh.state):
                return None
            if shuffles:
                with g.relabeling(self._rewrite(nxt, order)):
                    after, events = g.apply_observed(sh.state, mm)
            else:
                after, events = g.apply_observed(sh.state, mm)
        except (_Refused, CardgameError, ValueError):
            return None
        nxt.state = after
        return after, events, nxt

    def _follow(self, p: int, sh: Shadow, m: Move, a: tuple[Observation, ...],
                shown: set[int], shuffles: bool, later: dict[int, set[int]]) -> bool:
        g = self.g
        for x in shown:
            self._mend(sh, x)
        watched = self.watched[p]
        rng = self.rng

        def order(k: int, cards: list[int], to: dict[int, int]) -> list[int]:
            # a shuffle made now: the shadow's is an order of its own (drawn from the
            # sorted cards: it does not depend on the real one), unless the seat watched
            # it; the cards the step shows the seat after the shuffle keep their real
            # places, as a world drawn from the start would keep them (else a new deal
            # that shows the seat its hand would drop every shadow, each then drawn again
            # from the start)
            if watched[k]:
                return cards
            real = self.orders[k]
            keep = later.get(k, set())
            rest = sorted(cards)
            places = []
            for i, c in enumerate(real):
                if c in keep:
                    rest.remove(c)  # a shown card the shadow's shuffle lacks: ValueError
                else:
                    places.append(i)
            rng.shuffle(rest)
            new = list(real)
            for i, c in zip(places, rest, strict=True):
                new[i] = c
            return new

        mm = relabel_move(g, m, sh.to)
        step = self._play_move(p, sh, m, order, shuffles)
        if step is None:
            return False
        _, events, nxt = step
        b = observe_step(g, events, p)
        ex = explained(a, b)
        if ex is False:
            before = sh
            if sh.mended:  # play it again from the start: is the history really the same?
                again = self._replay(p, nxt.replayed(), report=False,
                                     upto=len(self.moves) - 1)
                if again is None:
                    return False
                redo = self._play_move(p, again, m, nxt.replayed(), shuffles)
                if redo is None:
                    return False
                b = observe_step(g, redo[1], p)
                if explained(a, b) is not False:
                    return False
                before = again
            raise Leak(p, self._told(p, a, b, before, m))
        if ex is True:
            return False
        sh.state, sh.to, sh.orders = nxt.state, nxt.to, nxt.orders
        sh.moves.append(mm)
        return True

    def _mend(self, sh: Shadow, x: int) -> None:
        """The real card `x` is shown: make the shadow hold `x` where the real game does
        (it swaps places with the card the shadow held there)."""
        y = sh.to.get(x, x)
        if y == x:
            return
        w = next(c for c, d in sh.to.items() if d == x)
        del sh.to[x]
        if w == y:
            del sh.to[w]
        else:
            sh.to[w] = y
        sh.state = _swap(self.g, sh.state, x, y)
        swap = {x: y, y: x}
        sh.orders = [tuple(swap.get(c, c) for c in o) for o in sh.orders]
        sh.mended = True

    # ------------------------------------------------------------------ messages
    def _told(self, p: int, a: Sequence[Observation], b: Sequence[Observation],
              sh: Shadow, m: Move | None) -> str:
        g = self.g
        move = "the deal" if m is None else f"`p{m[0]} {g.move_text(m)}`"
        where = (f"in a world p{p} cannot tell from this one (the same observations so "
                 f"far), where the cards p{p} has not seen were dealt otherwise "
                 f"({sh.swapped(g)})")
        return (f"p{p} is told something that depends on cards p{p} cannot see: "
                + _difference(list(a), list(b), move) + f", {where}")


def shuffles_after_setup(g: Game) -> bool:
    """Does any rule but the setup's own statements shuffle a zone (a `shuffle` in a
    move, the flow, a procedure... anywhere in the checked game but its setup; a
    procedure the setup alone calls counts too)?"""
    c = g.checked
    stack: list[Any] = [getattr(c, f.name) for f in attrs.fields(type(c)) if f.name != "setup"]
    seen: set[int] = set()
    while stack:
        x = stack.pop()
        if isinstance(x, A.Shuffle):
            return True
        if isinstance(x, (str, int, float, bool, type(None))) or id(x) in seen:
            continue
        seen.add(id(x))
        if isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, (tuple, list, set, frozenset)):
            stack.extend(x)
        elif attrs.has(type(x)):
            stack.extend(getattr(x, f.name) for f in attrs.fields(type(x)))
    return False


def _swap(g: Game, st: State, x: int, y: int) -> State:
    """The state with cards `x` and `y` swapped wherever they are."""
    from ..engine import Position
    pos = Position(g, st)
    zones: dict[str, list[int]] = {}
    for name, ids in g.zone_contents(st).items():
        if x in ids or y in ids:
            zones[name] = [y if c == x else x if c == y else c for c in ids]
    pos.rearrange(zones)
    pending = g.pending(st)
    if pending:  # secret choices made in the shadow name its cards too
        swap = {x: y, y: x}
        pos.pending([relabel_move(g, m, swap) for m in pending])
    return pos.state(check=False)


def _difference(a: list[Observation], b: list[Observation], move: str) -> str:
    other = "in the other world"
    for x, y in zip(a, b, strict=False):
        if x == y:
            continue
        if x.kind == "log" and y.kind == "log":
            return f"after {move} a log line reads '{x.text}', and '{y.text}' {other}"
        if x.kind == "public" and y.kind == "public":
            old, new = dict(x.changes), dict(y.changes)
            for name in [*old, *(k for k in new if k not in old)]:
                if old.get(name) != new.get(name):
                    return (f"after {move} the variable `{name}` is {old.get(name)!r}, and "
                            f"{new.get(name)!r} {other} (variables are public)")
            if x.to_move != y.to_move:
                return f"after {move} p{x.to_move} decide(s) next, and p{y.to_move} {other}"
            return (f"after {move} the game goes on otherwise ({x.phase or x.ended!r} / "
                    f"{y.phase or y.ended!r}) {other}")
        return f"after {move} the seat sees '{_obs(x)}', and '{_obs(y)}' {other}"
    longer = a if len(a) > len(b) else b
    extra = longer[min(len(a), len(b))]
    return f"after {move} one world shows one more event ('{_obs(extra)}')"


def _obs(o: Observation) -> str:
    if o.kind == "move":
        return f"{o.card}: {o.src} -> {o.dst}"
    if o.kind in ("choice", "reveal"):
        return f"p{o.actor}: {o.move}"
    if o.kind == "log":
        return o.text
    return o.kind
