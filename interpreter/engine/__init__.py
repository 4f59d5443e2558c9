"""The game API: executes the generated code.

Other layers import from here: `Game`, `State`, `Move`, `Position`, `GameSpec`,
`compile_game`; `Walker`, the fuzzer's fast checked walks. Only the engine (and codegen)
know where things live in a state.
"""

from typing import Any

from . import events
from .events import Event
from .game import Branch, Game, Move, Position, State, Zone
from .pipeline import GameSpec, compile_game, compile_loaded
from .probe import Probes

__all__ = ["Branch", "Event", "Game", "GameSpec", "Move", "Node", "Position", "Probes", "SearchSpace",
           "Slots", "State", "Walk", "Walker", "Zone", "compile_game", "compile_loaded",
           "events", "replay"]

_LAZY = {"replay": None, "Node": "search_api", "SearchSpace": "search_api",
         "Slots": "search_api", "Walk": "walk", "Walker": "walk"}


def __getattr__(name: str) -> Any:
    # Imported when first used: the short commands (`cardgame check`) need neither the
    # replay files nor the search interface, and start faster without them.
    if name in _LAZY:
        import importlib

        mod = importlib.import_module(f"{__name__}.{_LAZY[name] or name}")
        return mod if _LAZY[name] is None else getattr(mod, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
