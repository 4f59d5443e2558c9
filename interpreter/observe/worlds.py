"""Worlds a seat cannot tell from the real game, sampled from the start of the game.

A *record* is a game as played: the deal seed, the moves, and, for a world, the order
each shuffle gave (`Game.relabeling`). For each shuffle of the record, a seat's *unseen
cards* are the shuffled cards that no later event showed it (`history.shown_cards`:
dealt to it, played face up, named in a log line it could read...). A *world* puts the
unseen cards of every shuffle in other places of that shuffle: the same seed, every card
the seat saw after the shuffle where it was, and every rule after the shuffle (the deal,
the flow up to the next decision, each move) run again on the new cards. The record's
moves are played again, each card a move names mapped to the card in its place, and the
world is kept only when the seat's observation history is the same, step by step, as in
the record (rejection sampling; a step that differs, or a mapped move the rules refuse,
rejects it at once, so a rejection costs the steps up to it).

So a world has the seat's whole history, not only its present view: the voids it saw (a
player who did not follow suit holds no card of that suit in the world either, or the
move would be refused there), the cards it saw played (never moved: they are not
relabeled), and every branch the flow took on hidden cards is taken again in the world.
A card seen in one deal and shuffled into the next is unknown again. The declared order
of the deck before the first shuffle is public, so a setup that picks cards from it
before shuffling (Chains' terminal cards) picks the same ones.

Drawn with `rng`, the world depends only on the seat's history and on where the seen
cards are in each shuffle, not on which unseen card is where: the unseen cards are sorted
before they are shuffled into their places. Random picks keep their positions and move
with the relabeled cards; a bot re-draws the world's future chance itself (`reseed`). A
game that never shuffles has no unseen cards to place: its only world is the record's.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator, Sequence

import attrs

from ..engine import Event, Game, Move, Position, State
from ..engine import events as E
from ..errors import CardgameError
from .history import Observation, observe_step, shown_cards
from .visibility import BACK

Step = tuple[Observation, ...]


Shuffles = tuple[tuple[int, ...], ...]  # the order each shuffle gave, in the game's order


class _Refused(Exception):
    """A world whose shuffle does not hold the cards the record's held (rejected)."""


@attrs.frozen
class Record:
    """A game as played: enough to play it again."""

    seed: int
    moves: tuple[Move, ...] = ()
    shuffles: Shuffles = ()  # a world's: the order each shuffle gave (empty: the seed's)


@attrs.frozen
class World:
    """A world: the order each shuffle gave in it, the moves played in it (the record's,
    relabeled) and the state they reach."""

    shuffles: Shuffles
    moves: tuple[Move, ...]
    state: State

    def record(self, seed: int) -> Record:
        return Record(seed, self.moves, self.shuffles)


def play_record(game: Game, record: Record) -> list[tuple[State, tuple[Event, ...]]]:
    """Each state of a record and the events of the step that reached it (the setup's
    first), the shuffles given their recorded orders."""
    orders = iter(record.shuffles)

    def rewrite(cards: list[int]) -> list[int]:
        return list(next(orders, cards))

    out = []
    with game.relabeling(rewrite) if record.shuffles else _nothing():
        state, events = game.start_observed(record.seed)
        out.append((state, events))
        for m in record.moves:
            state, events = game.apply_observed(state, tuple(m))
            out.append((state, events))
    return out


def first_shuffle(events: Sequence[Event]) -> tuple[int, ...]:
    """The cards of the first shuffle among a start's events, in their new order (empty
    when the setup does not shuffle)."""
    return next((e.cards for e in events if e.kind == E.SHUFFLE), ())


@contextlib.contextmanager
def _nothing() -> Iterator[None]:
    yield


def relabel_move(game: Game, move: Move, to: dict[int, int]) -> Move:
    """The move with each card it names mapped by `to` (cards not in `to` stay)."""
    types = game.move_param_types[move[1]] if 0 <= move[1] < len(game.move_param_types) else []
    if not any(t in ("card", "list:card") for t in types):
        return move
    return move[:2] + tuple(to.get(a, a) if t == "card"
                            else tuple(sorted(to.get(c, c) for c in a)) if t == "list:card"
                            else a
                            for a, t in zip(move[2:], types, strict=False)) + move[2 + len(types):]


def explained(a: Step, b: Step) -> bool | None:
    """Compare what a seat sees of one step in two worlds. None: the same. True: the first
    difference is a card the seat sees (another card moves into its sight, a shuffle it
    watches gives another order, a move names another card it sees): the worlds differ in
    what it sees, as they may. False: the first difference is anything else (a log line,
    a variable, who decides, a card moving or not, another zone...): the step *tells* the
    seat something about cards it cannot see. An end in one world and not the other is
    explained (an end on hidden cards shows them, like a player calling gin), and so is
    anything else a step that ends the game shows otherwise (a card drawn or not before
    the card that ends it, a log line saying why)."""
    if _ends(a) or _ends(b):
        return None if a == b else True
    for x, y in zip(a, b, strict=False):
        if x == y:
            continue
        if x.kind != y.kind or x.actor != y.actor:
            return False
        if x.kind == E.MOVE:
            return (x.src, x.dst) == (y.src, y.dst) and BACK not in (x.card, y.card)
        if x.kind == E.TURN:
            return (x.src, x.src_index, x.turned) == (y.src, y.src_index, y.turned) and \
                BACK not in (x.card, y.card)
        if x.kind == E.SHUFFLE:
            return x.src == y.src and len(x.cards) == len(y.cards) and bool(x.cards)
        if x.kind in (E.CHOICE, E.REVEAL):
            return x.move.split(" ")[0] == y.move.split(" ")[0]
        if x.kind == E.PUBLIC and x.ended != y.ended:
            return True  # the game ends in one world: an end tells what it tells anyway
        return False
    return None if len(a) == len(b) else False


def _ends(step: Step) -> bool:
    return any(o.kind == E.PUBLIC and o.ended for o in step)


class Sampler:
    """Worlds that `seat` cannot tell from a record, drawn by rejection (see the module
    docstring). The record is played once here; each draw plays it again in a world.

    `tries` and `accepted` count the draws; a draw that is rejected says at which step
    (`last_reject`)."""

    def __init__(self, game: Game, record: Record, seat: int | None) -> None:
        self.game = game
        self.record = record
        self.seat = seat
        played = play_record(game, record)
        steps = [ev for _, ev in played]
        self.state = played[-1][0]
        self.steps: list[Step] = [observe_step(game, ev, seat) for ev in steps]
        # each shuffle: its order, and the places of the cards not shown to the seat
        # after it (none when the seat watched the shuffle)
        flat = [e for ev in steps for e in ev]
        self.orders: list[tuple[int, ...]] = []
        self.places: list[list[int]] = []
        self.unseen: list[list[int]] = []
        later: set[int] = set()
        for e in reversed(flat):
            if e.kind == E.SHUFFLE:
                shown = shown_cards(game, e, seat)
                places = [] if shown else [i for i, c in enumerate(e.cards) if c not in later]
                self.orders.append(e.cards)
                self.places.append(places)
                self.unseen.append(sorted(e.cards[i] for i in places))
            later |= shown_cards(game, e, seat)
        for x in (self.orders, self.places, self.unseen):
            x.reverse()
        self.seen = frozenset(later)
        self.tries = 0
        self.accepted = 0
        self.last_reject: int | None = None  # the step that rejected the last draw

    def draw(self, rng: random.Random) -> World | None:
        """One try: a world with the seat's history, or None (`last_reject` says where).

        At each shuffle, the cards the seat sees after it keep their places; the world's
        other shuffled cards (sorted first, so that the draw depends on which cards are
        unseen, not on where they really were) are shuffled into the other places."""
        self.tries += 1
        place = self.places

        def order(k: int, cards: list[int]) -> list[int]:
            real = self.orders[k]
            free = set(place[k])
            rest = sorted(cards)
            for i, c in enumerate(real):
                if i not in free:
                    rest.remove(c)  # a seen card the world's shuffle lacks: ValueError
            rng.shuffle(rest)
            new = list(real)
            for i, c in zip(place[k], rest, strict=True):
                new[i] = c
            return new

        world = self.play(order)
        if world is not None:
            self.accepted += 1
        return world

    def play(self, order: Callable[[int, list[int]], list[int]]) -> World | None:
        """The record played again, its k-th shuffle giving `order(k, cards)` (the cards
        the world shuffles there): the world, or None when the rules refuse a relabeled
        move or the seat sees a step otherwise."""
        g = self.game
        to: dict[int, int] = {}  # the record's card -> the world's card in its place
        orders: list[tuple[int, ...]] = []

        def rewrite(cards: list[int]) -> list[int]:
            k = len(orders)
            if k >= len(self.orders) or len(cards) != len(self.orders[k]):
                raise _Refused
            new = order(k, cards)
            for a, b in zip(self.orders[k], new, strict=True):
                if a == b:
                    to.pop(a, None)
                else:
                    to[a] = b
            orders.append(tuple(new))
            return new

        moves: list[Move] = []
        step = 0
        try:
            with g.relabeling(rewrite):
                state, events = g.start_observed(self.record.seed)
                if observe_step(g, events, self.seat) != self.steps[0]:
                    raise _Refused
                for step, m in enumerate(self.record.moves, 1):
                    mm = relabel_move(g, tuple(m), to)
                    if mm not in g.legal_moves(state):
                        raise _Refused
                    state, events = g.apply_observed(state, mm)
                    if observe_step(g, events, self.seat) != self.steps[step]:
                        raise _Refused
                    moves.append(mm)
        except (_Refused, CardgameError, ValueError):
            self.last_reject = step
            return None
        return World(tuple(orders), tuple(moves), state)

    def sample(self, rng: random.Random, tries: int = 200) -> World | None:
        """A world drawn with `rng` within `tries` draws, or None: the sampler gave up."""
        for _ in range(tries):
            w = self.draw(rng)
            if w is not None:
                return w
        return None

    @property
    def rate(self) -> float:
        """The share of draws accepted so far."""
        return self.accepted / self.tries if self.tries else 0.0


def sample_world(game: Game, record: Record, seat: int | None, rng: random.Random,
                 tries: int = 200) -> World | None:
    """One world that `seat` cannot tell from `record` (None: none in `tries` draws)."""
    return Sampler(game, record, seat).sample(rng, tries)


def reseed(game: Game, state: State, rng: random.Random) -> State:
    """The state with its random seed drawn from `rng`: its future chance is its own."""
    return Position(game, state).random_seed(rng.getrandbits(63)).state(check=False)
