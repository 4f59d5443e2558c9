"""What a seat knows: every view, log line, bot and leak check goes through here.

Above the engine: it reads states through `Game` and builds them with `Position`, never
by slot.
"""

from .determinize import determinize
from .history import (
    History,
    Observation,
    describe,
    histories,
    history,
    observation,
    observe_step,
    replay_histories,
    shown_cards,
)
from .visibility import (
    BACK,
    CHOSEN,
    card_args,
    has_hidden,
    hidden_zones,
    masked_move,
    secret_choice,
    sees,
    sees_card,
    view,
    visible_cards,
    visible_zones,
)
from .worlds import (
    Record,
    Sampler,
    World,
    explained,
    first_shuffle,
    relabel_move,
    reseed,
    sample_world,
)

__all__ = ["BACK", "CHOSEN", "History", "Observation", "card_args", "describe", "determinize",
           "has_hidden", "hidden_zones", "histories", "history", "masked_move", "observation", "observe_step",
           "Record", "Sampler", "World", "explained", "first_shuffle", "relabel_move", "replay_histories",
           "reseed", "sample_world", "secret_choice", "sees", "sees_card", "shown_cards", "view", "visible_cards", "visible_zones"]
