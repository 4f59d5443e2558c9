"""Worlds a seat cannot tell from the real one: the one re-deal of hidden information.

The fuzzer's leak check, the hidden-information tests and the bots use it; information-set
search (ISMCTS) will sample its root states with it.
"""

from __future__ import annotations

import random

from ..engine import Game, Position, State
from .visibility import hidden_zones, sees_card


def determinize(game: Game, state: State, seat: int | None, rng: random.Random,
                reseed: bool = True) -> State:
    """A state that `seat` (None: a spectator) cannot tell from `state`, drawn with `rng`.

    Kept as they are: every zone the seat sees (its cards and their order), every variable
    (variables are public), where the flow is, who decides, the move counter, how the game
    ended, and the seat's own secret choices at a simultaneous choice.

    Dealt again: the cards of the zones the seat cannot see, shuffled uniformly among
    those zones, each zone keeping its size. Other seats' secret choices at a simultaneous
    choice are chosen again, uniformly among their legal moves in the new deal (in the
    order they were made), so that they fit the cards dealt.

    Re-seeded: the state's random seed is drawn from `rng`, so the world's future
    shuffles and random picks are its own, not the real game's (a bot that looks ahead
    in it learns nothing of the real chance). With `reseed=False` it keeps the state's
    seed: the fuzzer compares what one step tells in the real and the re-dealt world.

    The result depends only on what the seat sees of `state` and on `rng`: two states
    that look the same to the seat give the same world for the same `rng` state. It is
    consistent with the seat's present view, not with its memory: a card the seat saw
    earlier and that is now face down is dealt again like any other.
    """
    # (the re-deal ignores the real order of the hidden cards: it cannot show through)
    if game.uses_faces and game.turned(state):
        pos = _redeal_faces(game, state, seat, rng)
    else:
        pos = Position(game, state).redeal(hidden_zones(game, seat), rng)
    chosen = game.pending(state)
    if any(m[0] != seat for m in chosen):
        mine = [m for m in chosen if m[0] == seat]
        legal = game.legal_moves(pos.pending(mine).state(check=False))
        again = []
        for m in chosen:
            options = [x for x in legal if x[0] == m[0]] if m[0] != seat else []
            again.append(options[rng.randrange(len(options))] if options else m)
        pos.pending(again)
    if reseed:
        pos.random_seed(rng.getrandbits(63))
    return pos.state(check=False)


def _redeal_faces(game: Game, state: State, seat: int | None, rng: random.Random) -> Position:
    """The re-deal when cards lie turned: every card the seat cannot see (in a zone it
    cannot see, or face down in a face-up zone) goes to the place of one, uniformly; each
    place keeps its face."""
    turned = game.turned(state)
    contents = game.zone_contents(state)
    places: list[tuple[str, int]] = []
    for z in game.zones:
        for i, c in enumerate(contents[z.name]):
            if not sees_card(z, c in turned, seat):
                places.append((z.name, i))
    cards = sorted(contents[name][i] for name, i in places)
    rng.shuffle(cards)
    new = {name: list(ids) for name, ids in contents.items()}
    face_down = {z.name for z in game.zones if z.visibility == "public"}
    now_turned = set(turned)
    for name, i in places:
        now_turned.discard(contents[name][i])
    for (name, i), c in zip(places, cards, strict=True):
        new[name][i] = c
        if name in face_down:  # an unseen place of a face-up zone: a face-down card
            now_turned.add(c)
    touched = {name for name, _ in places}
    return (Position(game, state).rearrange({n: new[n] for n in touched})
            .faces(now_turned))
