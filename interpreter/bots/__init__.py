"""Bots that choose moves: `make_bot(name, seed)` from the `BOTS` registry.

A bot chooses from what its seat may know: it looks ahead only in worlds dealt again,
never in the true state (the search bots, given the game's record through
`choose_move`, in worlds consistent with the seat's whole observation history). `random` and `greedy` are
quick; `mcts` (UCT) and `ismcts` (Information Set MCTS) search, with a budget written
after the name (`ismcts:2000`, `ismcts:1.5s`). `best_bot_for(game)` names the strongest
that fits a game.
"""

from .ismcts import IsmctsBot, IsmctsLeadBot, IsmctsMaxBot
from .mcts import Budget, MctsBot
from .registry import BOTS, BotFactory, best_bot_for, make_bot, unknown_bot
from .sampling import choose_move
from .simple import Bot, GreedyBot, NoMoveError, RandomBot

__all__ = ["BOTS", "Bot", "BotFactory", "Budget", "GreedyBot", "IsmctsBot", "IsmctsLeadBot", "IsmctsMaxBot", "MctsBot",
           "NoMoveError", "RandomBot", "best_bot_for", "choose_move", "make_bot", "unknown_bot"]
