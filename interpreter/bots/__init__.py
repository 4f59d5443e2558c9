"""Bots that choose moves: `make_bot(name, seed)` from the `BOTS` registry.

A bot chooses from what its seat may know: it looks ahead only in worlds that
`observe.determinize` deals again, never in the true state.
"""

from .simple import BOTS, Bot, BotFactory, GreedyBot, NoMoveError, RandomBot, make_bot

__all__ = ["BOTS", "Bot", "BotFactory", "GreedyBot", "NoMoveError", "RandomBot", "make_bot"]
