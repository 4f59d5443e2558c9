"""Worlds a seat cannot tell from the real game, sampled from the start of the game.

A *record* is a game as played: the deal seed, the moves, and a relabeling of the first
shuffle (None for a real game). A seat's *unseen cards* are the cards of the game's first
shuffle (the setup's shuffle of the deck) that no event of the record ever showed it
(`history.shown_cards`: dealt to it, played face up, named in a log line it could read...).
A *world* puts the unseen cards in other places of that shuffle (`Game.new_state(seed,
relabel)`): the same seed, every seen card where it was, and every rule after the shuffle
(the deal, the flow up to the first decision and each move) run again on the new cards.
The record's moves are played again, each card a move names mapped to the card in its
place, and the world is kept only when the seat's observation history is the same, step
by step, as in the record (rejection sampling; a step that differs, or a mapped move the
rules refuse, rejects it at once, so a rejection costs the steps up to it).

So a world has the seat's whole history, not only its present view: the voids it saw (a
player who did not follow suit holds no card of that suit in the world either, or the
move would be refused there), the cards it saw played (never moved: they are not
relabeled), and every branch the flow took on hidden cards is taken again in the world.
The declared order of the deck before the shuffle is public, so a setup that picks cards
from it before shuffling (Chains' terminal cards) picks the same ones.

Drawn with `rng`, the world depends only on the seat's history and on where the seen
cards are in the shuffle, not on which unseen card is where: the unseen cards are sorted
before they are shuffled into their places. Past chance after the first shuffle (later
shuffles, random picks) keeps its positions and moves with the relabeled cards; a bot
re-draws the world's future chance itself (`reseed`). A game whose setup does not
shuffle has no unseen cards to place: its only world is the record's own.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs

from ..engine import Event, Game, Move, Position, State
from ..engine import events as E
from ..errors import CardgameError
from .history import Observation, observe_step, shown_cards
from .visibility import BACK

Step = tuple[Observation, ...]


Relabel = tuple[tuple[int, int], ...]  # (card id the shuffle gave, card id put there)


@attrs.frozen
class Record:
    """A game as played: enough to play it again."""

    seed: int
    moves: tuple[Move, ...] = ()
    relabel: Relabel = ()  # the first shuffle's relabeling (empty: the real deal)

    def start(self, game: Game) -> tuple[State, tuple[Event, ...]]:
        return game.start_observed(self.seed, dict(self.relabel) or None)


@attrs.frozen
class World:
    """A world: the relabeling of its first shuffle, the moves played in it (the
    record's, relabeled) and the state they reach."""

    relabel: Relabel
    moves: tuple[Move, ...]
    state: State

    def record(self, seed: int) -> Record:
        return Record(seed, self.moves, self.relabel)


def first_shuffle(events: Sequence[Event]) -> tuple[int, ...]:
    """The cards of the first shuffle among a start's events, in their new order (empty
    when the setup does not shuffle)."""
    return next((e.cards for e in events if e.kind == E.SHUFFLE), ())


def relabel_move(game: Game, move: Move, to: dict[int, int]) -> Move:
    """The move with each card it names mapped by `to` (cards not in `to` stay)."""
    types = game.move_param_types[move[1]] if 0 <= move[1] < len(game.move_param_types) else []
    if not any(t == "card" for t in types):
        return move
    return move[:2] + tuple(to.get(a, a) if t == "card" else a
                            for a, t in zip(move[2:], types, strict=False)) + move[2 + len(types):]


def explained(a: Step, b: Step) -> bool | None:
    """Compare what a seat sees of one step in two worlds. None: the same. True: the first
    difference is a card the seat sees (another card moves into its sight, a shuffle it
    watches gives another order, a move names another card it sees): the worlds differ in
    what it sees, as they may. False: the first difference is anything else (a log line,
    a variable, who decides, a card moving or not, another zone...): the step *tells* the
    seat something about cards it cannot see."""
    for x, y in zip(a, b, strict=False):
        if x == y:
            continue
        if x.kind != y.kind or x.actor != y.actor:
            return False
        if x.kind == E.MOVE:
            return (x.src, x.dst) == (y.src, y.dst) and BACK not in (x.card, y.card)
        if x.kind == E.SHUFFLE:
            return x.src == y.src and len(x.cards) == len(y.cards) and bool(x.cards)
        if x.kind in (E.CHOICE, E.REVEAL):
            return x.move.split(" ")[0] == y.move.split(" ")[0]
        return False
    return None if len(a) == len(b) else False


class Sampler:
    """Worlds that `seat` cannot tell from a record, drawn by rejection (see the module
    docstring). The record is played once here; each draw plays it again in a world.

    `tries` and `accepted` count the draws; a draw that is rejected says at which step
    (`last_reject`)."""

    def __init__(self, game: Game, record: Record, seat: int | None) -> None:
        self.game = game
        self.record = record
        self.seat = seat
        state, events = record.start(game)
        steps: list[tuple[Event, ...]] = [events]
        for m in record.moves:
            state, events = game.apply_observed(state, tuple(m))
            steps.append(events)
        self.state = state
        self.steps: list[Step] = [observe_step(game, ev, seat) for ev in steps]
        seen: set[int] = set()
        for ev in steps:
            for e in ev:
                seen |= shown_cards(game, e, seat)
        self.seen = frozenset(seen)
        # the first shuffle's places: the card the record has there, and the card the
        # shuffle itself gives (before the record's relabeling)
        self.shuffled = first_shuffle(steps[0])
        back = {b: a for a, b in record.relabel}
        self.raw = tuple(back.get(c, c) for c in self.shuffled)
        self.places = [i for i, c in enumerate(self.shuffled) if c not in seen]
        self.unseen = sorted(self.shuffled[i] for i in self.places)
        self.tries = 0
        self.accepted = 0
        self.last_reject: int | None = None  # the step that rejected the last draw

    def relabeling(self, rng: random.Random) -> tuple[Relabel, dict[int, int]]:
        """The unseen cards shuffled into their places (sorted first: the draw depends on
        which cards are unseen, not on where they really were): the relabeling of the
        first shuffle, and the map from the record's cards to the world's."""
        cards = list(self.unseen)
        rng.shuffle(cards)
        new = list(self.shuffled)
        for i, c in zip(self.places, cards, strict=True):
            new[i] = c
        relabel = tuple((a, b) for a, b in zip(self.raw, new, strict=True) if a != b)
        to = {a: b for a, b in zip(self.shuffled, new, strict=True) if a != b}
        return relabel, to

    def draw(self, rng: random.Random) -> World | None:
        """One try: a world with the seat's history, or None (`last_reject` says where)."""
        self.tries += 1
        world = self.play(*self.relabeling(rng))
        if world is not None:
            self.accepted += 1
        return world

    def play(self, relabel: Relabel, to: dict[int, int]) -> World | None:
        """The record played again with the first shuffle relabeled (`to` maps the
        record's cards to the world's): the world, or None when the rules refuse a
        relabeled move or the seat sees a step otherwise."""
        g = self.game
        try:
            state, events = g.start_observed(self.record.seed, dict(relabel) or None)
        except CardgameError:
            self.last_reject = 0
            return None
        if observe_step(g, events, self.seat) != self.steps[0]:
            self.last_reject = 0
            return None
        moves: list[Move] = []
        for k, m in enumerate(self.record.moves, 1):
            mm = relabel_move(g, tuple(m), to)
            try:
                if mm not in g.legal_moves(state):
                    self.last_reject = k
                    return None
                state, events = g.apply_observed(state, mm)
            except CardgameError:
                self.last_reject = k
                return None
            if observe_step(g, events, self.seat) != self.steps[k]:
                self.last_reject = k
                return None
            moves.append(mm)
        return World(relabel, tuple(moves), state)

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
