"""Worlds for search: the one place where a search bot turns its seat's knowledge into a
full state to play in.

Every search iteration plays in a world drawn here, never in the true state: the cards the
seat cannot see are dealt again and the random seed is drawn again, so a bot learns
nothing of hidden cards or of the real future chance. Swapping the sampler (present view
only, or the seat's whole observation history) changes nothing else in the search.
"""

from __future__ import annotations

import random

from ..engine import Game, State
from ..observe import determinize, hidden_zones


def sample_world(game: Game, state: State, seat: int, rng: random.Random) -> State:
    """A state that `seat` cannot tell from `state`, drawn with `rng` (see
    `observe.determinize`): it depends only on what the seat knows and on `rng`."""
    return determinize(game, state, seat, rng)


def has_hidden_information(game: Game) -> bool:
    """Does some seat not see some zone (cards it cannot know: a stock, others' hands)?"""
    return any(hidden_zones(game, p) for p in range(1, game.players + 1))
