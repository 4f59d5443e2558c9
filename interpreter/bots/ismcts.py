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


class IsmctsLeadBot(IsmctsBot):
    """`ismcts` for games of several players whose every seat plays as the `greedy` bot
    does in its rollouts, flat at the root, over the root moves that lead best at once.

    - Rollouts (`Game.lead_playout_from`): every player takes the move that leaves them
      the best lead (their score minus the best other player's: the `greedy` bot's own
      value), every legal move tried on a copy of the slots. Opponents that play so are
      modelled exactly, up to the cards they hold (dealt again in each world), so the
      rollouts are far less noisy than random or first-found-better ones.
    - Flat: every iteration rolls out straight after its root move (a tree below the
      root would choose the opponents' replies by its own bandit, not as they play).
    - A prior at the root: only the best `prior_keep` share (15%) of the root moves by the lead
      they leave at once (summed over a few sampled worlds) are searched, and every
      move as good as the last of them; where no score moves at once, every move is.

    At Interaction 4p (about 30 moves a turn, each play scoring for every player) it
    takes first place against three greedy seats far more often than `ismcts` (200
    games from seed 1: `ismcts-lead:400` 91, `ismcts:200` 59; 1,000 games: 45.3%
    against 32.3%). At Arsène 4p, whose chips move at a deal's end, it is no stronger
    (`:50`, 1,000 games: 55.5% against 58.1%; docs/bots.md), so the hint uses it only
    where the scores move at most moves (`registry.lead_bot_fits`). One-player games:
    `ismcts`.
    """

    name = "ismcts-lead"
    pool = None  # more history worlds where the record is short (sampling.pool_size)
    lead = True
    flat = True
    prior_keep = 0.15
    redraw = True
