"""What a seat knows: every view, log line, bot and leak check goes through here.

Above the engine: it reads states through `Game` and builds them with `Position`, never
by slot.
"""

from .determinize import determinize
from .visibility import (
    BACK,
    CHOSEN,
    card_args,
    hidden_zones,
    masked_move,
    secret_choice,
    sees,
    view,
    visible_cards,
    visible_zones,
)

__all__ = ["BACK", "CHOSEN", "card_args", "determinize", "hidden_zones", "masked_move",
           "secret_choice", "sees", "view", "visible_cards", "visible_zones"]
