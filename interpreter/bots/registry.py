"""Every bot by name: `make_bot("ismcts:2000", seed=7)`.

A name is a bot's name, optionally with a budget for a search bot after a colon:
`ismcts:2000` (iterations per decision) or `ismcts:1.5s` (seconds per decision; not
reproducible). `BOTS` lists the plain names (`sorted(BOTS)` for a menu) and also answers
`"ismcts:2000" in BOTS`, so every place that checks a name against it (`simulate --bots`,
the REPL's `set bots`) takes budgets too.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..engine import Game
from ..observe import hidden_zones
from .ismcts import IsmctsBot, IsmctsLeadBot, IsmctsMaxBot
from .mcts import Budget, MctsBot
from .sampling import has_hidden_information
from .simple import Bot, GreedyBot, RandomBot

BotFactory = Callable[[int | None], Bot]

#: the bots that take a budget after a colon
SEARCH: dict[str, type[MctsBot]] = {"mcts": MctsBot, "ismcts": IsmctsBot,
                                    "ismcts-max": IsmctsMaxBot, "ismcts-lead": IsmctsLeadBot}


class _Registry(dict[str, BotFactory]):
    """The plain names; a search bot's name with a budget is found too (not listed)."""

    def __missing__(self, name: str) -> BotFactory:
        base, sep, budget = name.partition(":")
        if not sep or base not in SEARCH:
            raise KeyError(name)
        try:
            b = Budget.parse(budget)
        except ValueError:
            raise KeyError(name) from None
        cls = SEARCH[base]
        return lambda seed: cls(seed, budget=b)

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        try:
            self[name]
        except KeyError:
            return False
        return True


#: Every bot by name; `cardgame play --bots NAME` and the simulator pick from here.
BOTS: dict[str, BotFactory] = _Registry({
    "random": RandomBot,
    "greedy": GreedyBot,
    "mcts": MctsBot,
    "ismcts": IsmctsBot,
    "ismcts-max": IsmctsMaxBot,
    "ismcts-lead": IsmctsLeadBot,
})


def make_bot(name: str, seed: int | None = None) -> Bot:
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot '{name}' (known: {', '.join(sorted(BOTS))}; "
                         "a search bot takes a budget: ismcts:2000 or ismcts:1.5s)") from None
    return factory(seed)


def best_bot_for(game: Game) -> str:
    """The strongest bot that fits the game, by name (for the REPL's `hint`): where some
    seat cannot see some cards, `ismcts-max` in a one-player game (a solitaire with a
    hidden stock: Calculation) and `ismcts-lead` in a game of several players (Interaction
    and Arsène against greedy seats: docs/bots.md); else `mcts`.
    A hidden zone counts once it holds a card: at the start or in the first moves of a
    random game (the `deck` that the setup empties is hidden in every game, and hides
    nothing)."""
    if not has_hidden_information(game):
        return "mcts"
    hidden = {z for p in range(1, game.players + 1) for z in hidden_zones(game, p)}
    rng = random.Random(0)
    s = game.new_state(0)
    for _ in range(HIDDEN_PROBE):
        if any(game.zone_ids(s, z) for z in hidden):
            return "ismcts-max" if game.players == 1 else "ismcts-lead"
        legal = game.legal_moves(s)
        if not legal:
            break
        s = game.apply(s, legal[rng.randrange(len(legal))])
    return "mcts"


#: the moves of the random game in which `best_bot_for` looks for hidden cards
HIDDEN_PROBE = 60
