"""Monte Carlo tree search for any game file: `mcts` (UCT) and the core `ismcts` shares.

One search, from the rules alone (nothing written for one game):

- The tree is open loop: a node is a sequence of moves from the decision being taken,
  not a state. Each iteration plays in a fresh *world* (`sampling.sample_world`: the
  cards the seat cannot see dealt again, the random seed drawn again), so chance and
  hidden cards are sampled, never read: the true state only gives the seat's own view.
- The root's moves are compared in pairs: each sampled world is played once after every
  root move still in the race, with one rollout seed (common random numbers), so two
  moves are judged on the same deal and the same luck. After RACE_MIN such rounds, a move
  whose paired deficit to the leader exceeds RACE_Z standard errors leaves the race, as
  does a move that did exactly as well as the leader in every round (alike to the
  search); the search stops early when one move is left. The choice is the best mean.
- In games of several players, with a budget in iterations, the paired rounds are
  shared out by sequential halving (Karnin, Koren and Somekh 2013): the budget in
  ceil(log2 k) phases for k root moves, each phase ending with the race's clear drops
  (once RACE_MIN rounds are played) and then keeping the better half of the moves by
  their mean, so that the last few candidates get most of the worlds. With about 30
  moves a turn (Interaction) and 200 iterations, the race alone gave every move 6
  worlds and never dropped one; halving gives the last two about 20 each.
- Below the root: selection by UCB1 on each deciding player's own reward; expansion of
  one untried move; a rollout on the engine's fast path in which every player takes a
  move that raises their score when there is one, else a random one
  (`Game.greedy_playout_from`); back-propagation of one reward per player. In games of
  several players the rollout is cut after CUT_ROUNDS rounds (moves per player).
- One player, with `best_of` > 1 (`ismcts-max`): an iteration plays `best_of` rollouts
  from the node it reached, in its one world, and backs up the best of them (a win ends
  them early): what the position is worth to a player who plays that world well, rather
  than to one who plays it at random. The budget counts rollouts.
- Several players, `ismcts-lead` (`lead`, `flat`, `prior_keep`, `redraw`): rollouts in
  which every player takes the move that leaves them the best lead, as the `greedy` bot
  does (`Game.lead_playout_from`); no tree below the root (every iteration rolls out
  straight after its root move); only the root moves that lead best at once enter the
  paired rounds; and a world in which some root move cannot be played is drawn again
  instead of counting against the budget.
- Experiments, off by default (docs/bots.md, seventh session; none stronger at
  Interaction): worlds from the seat's history weighted by a Boltzmann model of the
  `greedy` bot (`infer`, `temperature`, `refresh`), the same posterior by a Markov
  chain (`chain`), and a cut rollout scored by the win share as it stands
  (`share_cut`).
- Rewards lie in [0, 1]. Several players: 1 for a win, 1/k for a win shared by k, 0 for a
  loss; a cut rollout counts the mean of the players' score ranks and their squashed
  lead over the best other player. One player: the game's score (a win scores highest
  anyway), scaled to [0, 1] by the range seen so far in this search, so that UCB's
  exploration fits any score scale.

Budgets: `iterations` per decision (at most: the race may end sooner; the default;
deterministic: the same seed gives the same choices on any machine), or `seconds` per decision (as strong as the machine
allows, but not reproducible). A decision with one legal move costs nothing.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ..engine import Game, Move, State
from ..errors import IllegalMove, RuleError
from ..observe import Record
from .sampling import POOL, Worlds, pool_size
from .simple import NoMoveError

#: UCB1's exploration constant for rewards in [0, 1].
EXPLORE = 0.7
#: rounds of play (moves per player) after which a rollout of several players is cut and
#: scored by the players' scores (ranks and lead): the scores say more than a far end
CUT_ROUNDS = 1
#: the most moves a cut rollout plays on to see a score move
EXTEND_MAX = 400
#: paired rounds before the race drops a move, and the standard errors a drop takes
RACE_MIN = 8
RACE_Z = 2.5
#: sampled worlds over which `prior_keep` judges the root moves' immediate lead
PRIOR_WORLDS = 4
#: the rounds of worlds that the rules cannot play, as a multiple of the budget's rounds,
#: after which a search with `redraw` stops
REDRAW_MAX = 4
#: worlds that the rules cannot play before a search that has played none gives up
MAX_FAILED = 50


class Node:
    """A move sequence from the root: who made its last move, visits, summed reward, how
    often it was available (ISMCTS), and its children by move."""

    __slots__ = ("player", "n", "w", "avail", "children")

    def __init__(self, player: int) -> None:
        self.player = player
        self.n = 0
        self.w = 0.0
        self.avail = 0
        self.children: dict[Move, Node] = {}


class Budget:
    """Iterations or seconds per decision."""

    def __init__(self, iterations: int | None = None, seconds: float | None = None) -> None:
        if iterations is None and seconds is None:
            raise ValueError("a budget needs iterations or seconds")
        self.iterations = iterations
        self.seconds = seconds

    @classmethod
    def parse(cls, text: str) -> Budget:
        """`2000` (iterations) or `1.5s` (seconds per decision)."""
        t = text.strip().lower()
        try:
            if t.endswith("s"):
                secs = float(t[:-1])
                if secs > 0 and math.isfinite(secs):
                    return cls(seconds=secs)
            else:
                n = int(t)
                if n > 0:
                    return cls(iterations=n)
        except ValueError:
            pass
        raise ValueError(f"bad budget '{text}': write iterations (2000) or seconds (1.5s)")

    def __str__(self) -> str:
        return f"{self.seconds:g}s" if self.seconds is not None else str(self.iterations)


class MctsBot:
    """UCT over an open-loop tree, one world per iteration (see the module docstring).

    For perfect-information games and solitaires with chance: the world differs from the
    true state only in its random seed (and in the cards the seat cannot see, dealt
    again from its present view).
    """

    name = "mcts"
    default_iterations = 1000
    #: count a child's availability (ISMCTS's subset-armed bandit) instead of the parent's
    #: visits in UCB's exploration term
    availability = False
    #: try every root move in each sampled world, with one rollout seed (common random
    #: numbers), and choose the best mean: paired comparisons, far less noisy
    paired = True
    #: rollouts in which every player takes a move that raises their score when there is
    #: one (else a random move); one-player games always roll out so
    greedy = True
    #: a cut rollout's reward mixes the score ranks with the squashed score lead
    margin = True
    #: ... mixed with the score ranks (else the squashed lead alone: first place is what
    #: counts, and the lead over the best other player is what decides it)
    ranks = True
    #: a cut rollout of several players is scored as if the game ended there: 1/k for a
    #: first place shared by k, else 0 (the win share; instead of ranks and lead)
    share_cut = False
    #: a cut rollout in which no score moved plays on (up to EXTEND_MAX moves)
    extend = True
    #: how the root's paired rounds are spent in games of several players with a budget
    #: in iterations: "halving" (sequential halving, Karnin, Koren and Somekh 2013: the
    #: budget in phases, each ending with the race's clear drops and then keeping the
    #: better half of the moves by their mean) or "race" (the race alone). One-player
    #: games, and budgets in seconds, always race.
    root = "halving"
    #: one-player games: rollouts per iteration from the node reached, all in the
    #: iteration's world, the reward being the best of them (a win ends them early); the
    #: budget counts them, so `NAME:200` plays 200 rollouts whatever this is
    best_of = 1
    #: games of several players: rollouts in which every player takes a move that leaves
    #: them the best lead (the `greedy` bot's own value, `Game.lead_playout_from`)
    #: instead of the first move found that raises their score
    lead = False
    #: games of several players, with paired root moves: every iteration rolls out
    #: straight after its root move (no tree below the root: flat Monte Carlo over the
    #: sampled worlds)
    flat = False
    #: games of several players: before the paired rounds, keep only this share of the
    #: root moves (at least 2), the best by the lead they leave at once (the `greedy`
    #: bot's value, averaged over PRIOR_WORLDS sampled worlds); 1.0 keeps them all
    prior_keep = 1.0
    #: games of several players, paired root moves: a world in which some root move
    #: cannot be played to the end (a card dealt where the rules never put it) is not
    #: the real one, and its round does not count against the budget: the search draws
    #: another world (at most REDRAW_MAX times the rounds the budget allows)
    redraw = False
    #: with the game's record: the history-consistent worlds drawn at the start of a
    #: search, among which each iteration picks one (None: `sampling.pool_size`, more
    #: where the record is short, in games of several players: `ismcts-lead`'s, where it
    #: was measured)
    pool: int | None = POOL
    #: with the game's record, in games of several players: draw this many
    #: history-consistent worlds and keep the `pool` in which the other seats' moves
    #: look most like the `greedy` bot's (`sampling.greedy_misfits`); 0: off
    model_draws = 0
    #: with the game's record, in games of several players: draw this many
    #: history-consistent worlds once a search, weight each by the likelihood of the
    #: other seats' past moves under a Boltzmann model of the `greedy` bot at
    #: `temperature` (`sampling.move_loglik`), and give every iteration one of them
    #: picked by weight (sample-importance-resample), its zones no player sees dealt
    #: again (`refresh`); 0: off
    infer = 0
    temperature = 1.0
    refresh = True
    #: with `infer`: start a Markov chain (Metropolis-Hastings over the history's
    #: worlds, the model's likelihood) at the likeliest of the `infer` worlds drawn, and
    #: give every iteration its next step (`sampling.Worlds.step`)
    chain = False

    def __init__(self, seed: int | None = None, budget: Budget | None = None,
                 depth: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.budget = budget or Budget(iterations=self.default_iterations)
        self.depth = depth  # rollout cut in games of several players (None: CUT_ROUNDS)
        self.last: dict[str, Any] = {}  # figures of the last search (iterations, seconds)
        self._worlds: Worlds | None = None
        self._root: Node | None = None  # the last search's tree

    #: `choose` takes the game's record (its deal seed and moves: `record=`), so that the
    #: worlds follow the seat's whole observation history (sampling.Worlds)
    takes_record = True

    # ------------------------------------------------------------------ worlds
    def world(self, game: Game, state: State, player: int) -> State:
        if self._worlds is None or self._worlds.state != state or self._worlds.seat != player:
            self._worlds = Worlds(game, state, player, self.rng)  # no record: present view
        return self._worlds()

    # ------------------------------------------------------------------ choosing
    def choose(self, game: Game, state: State, player: int,
               record: Record | None = None) -> Move:
        legal = game.legal_moves(state, player)
        if not legal:
            raise NoMoveError(f"p{player} has no legal move in this state")
        if len(legal) == 1:
            return legal[0]
        return self.ranked(game, state, player, record)[0]

    def ranked(self, game: Game, state: State, player: int,
               record: Record | None = None) -> list[Move]:
        """The legal moves, the search's choice first, then the others from best to worst
        as the search saw them (moves it never played last, in the rules' order). With the
        game's `record`, the worlds follow the seat's whole observation history."""
        legal = game.legal_moves(state, player)
        if not legal:
            raise NoMoveError(f"p{player} has no legal move in this state")
        if len(legal) == 1:
            return legal
        # the opponent model keeps `pool` of its draws: an automatic pool as large as
        # the draws would keep them all
        pool = (self.pool if self.pool is not None
                else POOL if self.model_draws else pool_size(game, record))
        self._worlds = Worlds(game, state, player, self.rng, record, pool=pool,
                              draws=self.model_draws, infer=self.infer,
                              temperature=self.temperature, refresh=self.refresh,
                              chain=self.chain)
        root = self._root = self.search(game, state, player)
        known = [m for m in legal if m in root.children and root.children[m].n]
        rest = [m for m in legal if m not in known]
        if not known:  # no world could be played to the end
            first = legal[self.rng.randrange(len(legal))]
            return [first] + [m for m in legal if m != first]

        def mean(m: Move) -> float:
            c = root.children[m]
            return c.w / c.n

        if self.paired:  # the best mean, the moves left in the race first
            left = set(self._raced)
            order = sorted(known, key=lambda m: (m not in left, -mean(m)))
        else:  # the most visited
            order = sorted(known, key=lambda m: (-root.children[m].n, -mean(m)))
        return order + rest

    def search(self, game: Game, state: State, player: int) -> Node:
        root = Node(0)
        single = game.players == 1
        self._lo = math.inf
        self._hi = -math.inf
        cut = (1_000_000 if single else self.depth or CUT_ROUNDS * game.players)
        budget = self.budget
        limit = budget.iterations
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        t0 = time.perf_counter()
        done = played = 0
        moves = game.legal_moves(state, player) if self.paired else []
        if not single and self.prior_keep < 1.0 and len(moves) > 2:
            moves = self._prior(game, state, player, moves)
        self._raced = list(moves)
        rounds: list[dict[Move, float]] = []
        rng = self.rng
        halving = (self.root == "halving" and not single and limit is not None
                   and len(moves) > 1)
        total = limit or 0  # the budget that sequential halving shares out
        phase_rounds = 0
        redraw = self.redraw and not single
        wasted = 0
        phase_len = _phase_len(total, len(moves)) if halving else 0
        cost = self.best_of if single else 1  # budget units (rollouts) per iteration
        while True:
            if limit is not None and done >= limit:
                break
            if deadline is not None and (done or wasted) and time.perf_counter() >= deadline:
                break
            world = self.world(game, state, player)
            if not moves:
                if self._try(game, world, root, single, cut, None, rng) is not None:
                    played += 1
                elif not played and done + cost >= MAX_FAILED:
                    break  # no world plays: choose() falls back to a random move
                done += cost
                continue
            # Paired: every root move still in the race is tried in the same world with
            # the same rollout seed (common random numbers), so the moves are compared on
            # the same deal; a move whose paired deficit is clear leaves the race, and the
            # search stops early once one move is left (see `_race`).
            seed = rng.getrandbits(64)
            row: dict[Move, float] = {}
            for m in moves:
                r = self._try(game, world, root, single, cut, m, random.Random(seed))
                if r is not None:
                    played += 1
                    row[m] = r[m[0] - 1]
                elif redraw:
                    break  # a world the rules cannot play is not the real one: draw again
                done += cost
            if redraw and len(row) < len(moves):
                done -= cost * len(row)
                wasted += 1
                if limit is not None and wasted >= REDRAW_MAX * max(1, limit // len(moves)):
                    break
                continue
            if halving:
                if len(row) == len(moves):
                    rounds.append(row)
                phase_rounds += 1
                if phase_rounds >= phase_len:
                    if len(rounds) >= RACE_MIN:  # the race's clear drops first
                        moves = self._race(moves, rounds)
                    if len(moves) > 1:
                        moves = self._halve(moves, rounds)
                    phase_rounds = 0
                    phase_len = _phase_len(total - done, len(moves))
                    if len(moves) == 1:
                        break
            elif len(row) == len(moves):
                rounds.append(row)
                if len(rounds) >= RACE_MIN and len(rounds) % 4 == 0:
                    moves = self._race(moves, rounds)
                    if len(moves) == 1:
                        break
            if not played and done >= MAX_FAILED:
                break
        self.last = {"iterations": done, "played": played,
                     "seconds": time.perf_counter() - t0,
                     "worlds": self._worlds.source if self._worlds else "-"}
        return root

    def _prior(self, game: Game, state: State, player: int, moves: list[Move]) -> list[Move]:
        """The best `prior_keep` share of the root moves (at least 2) by the lead each
        leaves at once (the seat's score minus the best other's), summed over a few
        sampled worlds, and every move as good as the last of them (where no score moves
        at once, every move is kept)."""
        total = dict.fromkeys(moves, 0.0)
        for _ in range(PRIOR_WORLDS):
            world = self.world(game, state, player)
            for m in moves:
                try:
                    sc = game.scores(game.apply(world, m))
                except (RuleError, IllegalMove):
                    continue
                mine = sc[player - 1]
                best = max((v for i, v in enumerate(sc) if i != player - 1), default=0)
                total[m] += (best - mine) if _lowest(game) else (mine - best)
        k = max(2, math.ceil(len(moves) * self.prior_keep))
        bar = sorted(total.values(), reverse=True)[k - 1]
        return [m for m in moves if total[m] >= bar]

    def _halve(self, moves: list[Move], rounds: list[dict[Move, float]]) -> list[Move]:
        """The better half of the moves by their mean reward over the paired rounds in
        which they all played (ties: the rules' order)."""
        total = {m: sum(r[m] for r in rounds if m in r) for m in moves}
        keep = sorted(moves, key=lambda m: -total[m])[:max(1, (len(moves) + 1) // 2)]
        self._raced = keep
        return [m for m in moves if m in keep]

    def _race(self, moves: list[Move], rounds: list[dict[Move, float]]) -> list[Move]:
        """The moves still in the race: the leader (best mean over the paired rounds) and
        every move whose paired difference from it is not yet clear (mean difference
        less than RACE_Z standard errors above 0). Moves that gave the very same reward in
        every round are alike to the search: the first one stays."""
        n = len(rounds)
        lead = max(moves, key=lambda m: sum(r[m] for r in rounds))
        keep = [lead]
        for m in moves:
            if m == lead:
                continue
            d = [r[lead] - r[m] for r in rounds]
            mean = sum(d) / n
            var = sum((x - mean) ** 2 for x in d) / (n - 1)
            if var == 0.0 and mean == 0.0:
                continue  # alike in every world seen so far
            if mean - RACE_Z * math.sqrt(var / n) > 0:
                continue  # clearly worse
            keep.append(m)
        self._raced = keep
        return keep

    def _try(self, game: Game, world: State, root: Node, single: bool, cut: int,
             first: Move | None, rng: random.Random) -> list[float] | None:
        try:
            return self.iterate(game, world, root, single, cut, first, rng)
        except (RuleError, IllegalMove):
            # A world the rules cannot play: the re-deal put a card where the setup
            # never does (Interaction's joker in a hand), so it cannot be the real one.
            return None

    def iterate(self, game: Game, s: State, root: Node, single: bool, cut: int,
                first: Move | None = None, rng: random.Random | None = None) -> list[float]:
        """One iteration in world `s`; the rewards it backed up (one per player)."""
        rng = rng or self.rng
        node = root
        path = [root]
        avail = self.availability
        if first is not None:  # the root move is given (paired worlds)
            p = first[0]
            child = root.children.get(first)
            if child is None:
                child = root.children[first] = Node(p)
            if avail:
                child.avail += 1
            s = game.apply(s, first)
            node = child
            path.append(child)
            if child.n == 0 or (self.flat and not single):
                return self._rollout_and_back(game, s, path, single, cut, rng)
        while not game.is_terminal(s):
            p = game.to_move(s)[0]
            legal = game.legal_moves(s, p)
            children = node.children
            untried = [m for m in legal if m not in children]
            if avail:
                for m in legal:
                    c = children.get(m)
                    if c is not None:
                        c.avail += 1
            if untried:
                m = untried[rng.randrange(len(untried))]
                child = children[m] = Node(p)
                child.avail = 1
                s = game.apply(s, m)
                path.append(child)
                break
            m, node = self.select(node, legal, single)
            s = game.apply(s, m)
            path.append(node)
        return self._rollout_and_back(game, s, path, single, cut, rng)

    def _rollout_and_back(self, game: Game, s: State, path: list[Node], single: bool,
                          cut: int, rng: random.Random) -> list[float]:
        playout = (game.lead_playout_from if self.lead and not single else
                   game.greedy_playout_from if single or self.greedy else
                   game.random_playout_from)
        if single and self.best_of > 1:
            reward = [-math.inf]
            for _ in range(self.best_of):
                end = playout(s, rng, cut)[0]
                r = self.reward(game, end, True)
                if r[0] > reward[0]:
                    reward = r
                if game.is_terminal(end) and game.results(end)[0] == "win":
                    break  # nothing beats a win
        else:
            end, n = playout(s, rng, cut)
            if self.extend and not single:
                # a cut where no score has moved says nothing: play on until one does
                start = game.scores(s)
                while (n < EXTEND_MAX and not game.is_terminal(end)
                       and game.scores(end) == start):
                    end, k = playout(end, rng, cut)
                    if not k:
                        break
                    n += k
            reward = self.reward(game, end, single)
        for nd in path[1:]:
            nd.n += 1
            nd.w += reward[nd.player - 1]
        return reward

    def select(self, node: Node, legal: list[Move], single: bool) -> tuple[Move, Node]:
        """The child UCB1 prefers among the legal moves (every one already expanded)."""
        lo, hi = (self._lo, self._hi) if single else (0.0, 1.0)
        span = hi - lo if hi > lo else 1.0
        children = node.children
        avail = self.availability
        log_parent = math.log(max(1, node.n))
        best = -math.inf
        chosen: Move = legal[0]
        for m in legal:
            c = children[m]
            if not c.n:  # expanded in a world that failed: not tried yet
                return m, c
            explore = math.log(c.avail) if avail else log_parent
            v = (c.w / c.n - lo) / span + EXPLORE * math.sqrt(explore / c.n)
            if v > best:
                best, chosen = v, m
        return chosen, children[chosen]

    # ------------------------------------------------------------------ rewards
    def reward(self, game: Game, end: State, single: bool) -> list[float]:
        if single:
            v = float(game.scores(end)[0])
            if game.is_terminal(end) and game.results(end)[0] == "win":
                v += 1.0  # a win above every score that is not one
            self._lo = min(self._lo, v)
            self._hi = max(self._hi, v)
            return [v]
        if game.is_terminal(end):
            res = game.results(end)
            if "push" in res or _against(game):  # each seat against a role, on its own
                return [{"win": 1.0, "push": 0.5}.get(r, 0.0) for r in res]
            winners = sum(1 for r in res if r in ("win", "draw"))
            return [1.0 / winners if r in ("win", "draw") else 0.0 for r in res]
        if self.share_cut:
            return first_shares(game.scores(end), _lowest(game))
        ranks = rank_values(game.scores(end), lowest=_lowest(game))
        if not self.margin:
            return ranks
        lead = margins(game.scores(end), _lowest(game))
        if not self.ranks:
            return lead
        return [(r + m) / 2 for r, m in zip(ranks, lead, strict=True)]


def _phase_len(budget: int, k: int) -> int:
    """Sequential halving's rounds for each of k moves in this phase: the budget left
    shared evenly over the phases left (ceil(log2 k)), at least one round."""
    phases = max(1, math.ceil(math.log2(k))) if k > 1 else 1
    return max(1, int(budget / (phases * k)))


def margins(scores: list[int], lowest: bool = False) -> list[float]:
    """Each player's lead over the best other player (behind: negative), squashed into
    [0, 1] by d / (1 + |d|): 0.5 for level, 0.75 a point ahead."""
    out = []
    for i, a in enumerate(scores):
        best = max((b for j, b in enumerate(scores) if j != i), default=a) if not lowest \
            else min((b for j, b in enumerate(scores) if j != i), default=a)
        d = (a - best) * (-1 if lowest else 1)
        out.append(0.5 + 0.5 * d / (1 + abs(d)))
    return out


def first_shares(scores: list[int], lowest: bool = False) -> list[float]:
    """Each player's share of first place on these scores: 1/k for each of k tied best."""
    best = min(scores) if lowest else max(scores)
    k = scores.count(best)
    return [1.0 / k if v == best else 0.0 for v in scores]


def rank_values(scores: list[int], lowest: bool = False) -> list[float]:
    """Each player's share of the players it beats on score (ties count half), in [0, 1]."""
    n = len(scores)
    out = []
    for i, a in enumerate(scores):
        beat = 0.0
        for j, b in enumerate(scores):
            if i != j:
                better = a < b if lowest else a > b
                beat += 1.0 if better else 0.5 if a == b else 0.0
        out.append(beat / (n - 1))
    return out


def _against(game: Game) -> bool:
    """`result against ROLE`: each seat wins, pushes or loses against the role."""
    res = game.checked.result
    return res is not None and res.kind == "against"


def _lowest(game: Game) -> bool:
    res = game.checked.result
    return res is not None and res.kind == "lowest"
