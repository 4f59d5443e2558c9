"""Information Set MCTS (single observer, Cowling, Powley and Whitehouse 2012), as
OpenSpiel's `ismcts.cc` builds it: one tree over the deciding seat's information sets,
one determinization sampled per iteration, and the subset-armed bandit: a move's
exploration term counts the iterations in which it was *available* (legal in that
iteration's world), not the parent's visits, since in another world other moves are
legal.

The worlds come from `sampling.sample_world`, consistent with what the seat knows; the
search (selection, expansion, rollout, rewards) is `MctsBot`'s.
"""

from __future__ import annotations

from .mcts import MctsBot


class IsmctsBot(MctsBot):
    """SO-ISMCTS: for games with hidden cards (several players, or a hidden stock)."""

    name = "ismcts"
    availability = True


class IsmctsMaxBot(IsmctsBot):
    """`ismcts` whose every iteration in a one-player game scores its world by the best
    of BEST_OF rollouts from the node reached (a win ends them early), not by one.

    The best of a few playouts in one sampled world is a crude look-ahead that knows
    that world's cards: it says what the position is worth to a player who plays it
    well, where one playout of random waste moves says what it is worth to one who
    plays it badly, and it separates the root moves better (Calculation, 200 rollouts a
    decision: 28 of deals 1-100 won, where `ismcts:200` won 15% of 200; docs/bots.md).
    The budget counts rollouts, so `ismcts-max:200` costs what `ismcts:200` does (50
    iterations of 4).
    In games of several players it is `ismcts`.
    """

    name = "ismcts-max"
    best_of = 4
