"""Every bot by name: `make_bot("ismcts:2000", seed=7)`.

A name is a bot's name, optionally with a budget for a search bot after a colon:
`ismcts:2000` (iterations per decision) or `ismcts:1.5s` (seconds per decision; not
reproducible). `BOTS` lists the plain names (`sorted(BOTS)` for a menu) and also answers
`"ismcts:2000" in BOTS`, so every place that checks a name against it (`simulate --bots`,
the REPL's `set bots`) takes budgets too.
"""

from __future__ import annotations

import random
import re
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


def unknown_bot(name: str, shown: str | None = None) -> str:
    """The message for a bot name that is not one: a did-you-mean (the name's part before
    a budget compared: `gredy`, `ismtcs:2000`), then the known names. `shown`: the name
    as the message may print it (sanitised by the caller)."""
    from ..errors import did_you_mean

    base, sep, budget = name.partition(":")
    # (a known name with a bad budget gets no did-you-mean: the make_bot hint says more)
    hint = "" if base in BOTS else did_you_mean(base, BOTS)
    if hint and sep:  # the budget kept: the name to type is the whole of it
        hint = re.sub(r"'([^']*)'", lambda m: f"'{m.group(1)}:{budget}'", hint)
    return (f"unknown bot '{name if shown is None else shown}'" + (f": {hint}" if hint else "")
            + f" (known: {', '.join(sorted(BOTS))})")


def make_bot(name: str, seed: int | None = None) -> Bot:
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(unknown_bot(name)[:-1] + "; a search bot takes a budget: "
                         "ismcts:2000 or ismcts:1.5s)") from None
    return factory(seed)


def best_bot_for(game: Game) -> str:
    """The strongest bot that fits the game, by name (for the REPL's `hint`): where some
    seat cannot see some cards, `ismcts-max` in a one-player game (a solitaire with a
    hidden stock: Calculation), and in a game of several players `ismcts-lead` where the
    scores move at most moves (`lead_bot_fits`: Interaction, where it is far stronger)
    and `ismcts` where they do not (Arsène, whose chips move at a deal's end: there the
    two are alike, docs/bots.md); else `mcts`.
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
            if game.players == 1:
                return "ismcts-max"
            return "ismcts-lead" if lead_bot_fits(game) else "ismcts"
        legal = game.legal_moves(s)
        if not legal:
            break
        s = game.apply(s, legal[rng.randrange(len(legal))])
    return "mcts"


#: the moves of the random game in which `best_bot_for` looks for hidden cards
HIDDEN_PROBE = 60
#: the moves of the random game in which `lead_bot_fits` counts the scores' moves
SCORE_PROBE = 200


def lead_bot_fits(game: Game) -> bool:
    """Do the scores move at half of the moves or more (in a random game, seed 0, at most
    SCORE_PROBE moves)? There the rollouts of `ismcts-lead`, each player taking the move
    that leads best at once, model players who play for the score; where the scores
    move only now and then (at a deal's end), every move ties on the lead at once."""
    rng = random.Random(0)
    s = game.new_state(0)
    moved = n = 0
    while n < SCORE_PROBE and not game.is_terminal(s):
        legal = game.legal_moves(s)
        if not legal:
            break
        before = game.scores(s)
        s = game.apply(s, legal[rng.randrange(len(legal))])
        moved += game.scores(s) != before
        n += 1
    return n > 0 and 2 * moved >= n
