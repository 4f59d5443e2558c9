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
