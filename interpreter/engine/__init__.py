"""The game API: executes the generated code.

Other layers import from here: `Game`, `State`, `Move`, `Position`, `GameSpec`,
`compile_game`. Only the engine (and codegen) know where things live in a state.
"""

from . import events, replay
from .events import Event
from .game import Branch, Game, Move, Position, State, Zone
from .pipeline import GameSpec, compile_game, compile_loaded
from .probe import Probes
from .search_api import Node, SearchSpace, Slots

__all__ = ["Branch", "Event", "Game", "GameSpec", "Move", "Node", "Position", "Probes", "SearchSpace",
           "Slots", "State", "Zone", "compile_game", "compile_loaded", "events", "replay"]
