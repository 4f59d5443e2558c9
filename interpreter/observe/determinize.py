"""Worlds a seat cannot tell from the real one: the one re-deal of hidden information.

The fuzzer's leak check, the hidden-information tests and the bots use it; information-set
search (ISMCTS) will sample its root states with it.
"""

from __future__ import annotations

import random

from ..engine import Game, Position, State
from .visibility import hidden_zones


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
