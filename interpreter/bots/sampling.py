"""Worlds for search: the one place where a search bot turns its seat's knowledge into a
full state to play in.

Every search iteration plays in a world drawn here, never in the true state. Given the
game's record (the deal seed and the moves so far), the worlds are consistent with the
seat's whole observation history (`observe.Sampler`: the cards it never saw put in other
places of each shuffle, the game played again from the start, kept only when the seat
would have seen exactly what it saw): a player seen not to follow clubs holds no club in
any world, and a card seen played is never dealt again. Without a record (a bot asked
about a bare state), or when the sampler gives up (no world within `TRIES` draws), the
worlds are dealt again from the seat's present view (`observe.determinize`), and the
search says so (`Worlds.source`). Either way the random seed is drawn again, so a bot
learns nothing of the real future chance.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Iterator, Sequence
from typing import Any

from ..engine import Game, Move, Position, State
from ..errors import IllegalMove, RuleError
from ..observe import Record, Sampler, World, determinize, hidden_zones, reseed

#: worlds drawn at the start of a search, among which each iteration picks one
POOL = 8
#: games of several players: more history worlds where the record is short, as many as
#: keep (worlds x moves played again) at POOL_MOVES, at most POOL_MAX (`pool_size`)
POOL_MAX = 32
POOL_MOVES = 640
#: draws of the history sampler before a search gives up on it
TRIES = 100


class Worlds:
    """The worlds one search plays in: a pool of history-consistent worlds drawn once,
    each iteration one of them with a fresh random seed (see the module docstring)."""

    def __init__(self, game: Game, state: State, seat: int, rng: random.Random,
                 record: Record | None = None, pool: int = POOL, tries: int = TRIES,
                 draws: int = 0, infer: int = 0, temperature: float = 1.0,
                 refresh: bool = True, chain: bool = False) -> None:
        self.game = game
        self.state = state
        self.seat = seat
        self.rng = rng
        self.pool: list[World] = []
        self.tries = 0
        #: `infer`: the cumulative weights of the pool's worlds (empty: uniform)
        self.cum: list[float] = []
        #: zones re-dealt in each world picked from an inferred pool (`refresh`)
        self.loose: list[str] = []
        self.ess = 0.0
        #: `chain`: the Markov chain's world, its log-likelihood, its sampler
        self.chain: World | None = None
        self.chain_ll = 0.0
        self.moved = 0  # the chain's accepted steps
        self.sampler: Sampler | None = None
        self.seed = 0
        self.temperature = temperature
        self._logs: list[float] = []  # `infer`: each pool world's log-likelihood
        self.source = "present view"  # or "history", "history (gave up: present view)"
        if record is None or not has_hidden_information(game):
            return
        sampler = Sampler(game, record, seat)
        if sampler.state != state:
            raise ValueError("the record does not lead to the state the bot is asked about")
        if infer > 0 and game.players > 1:
            self._infer(sampler, record.seed, infer, temperature, refresh)
            if chain and self.pool:
                # start at the likeliest world drawn; every world asked for is a step
                best = max(range(len(self.pool)), key=lambda i: (self._logs[i], -i))
                self.chain, self.chain_ll = self.pool[best], self._logs[best]
                self.sampler, self.seed = sampler, record.seed
                self.source = "history (inferred, chain)"
            return
        want = max(pool, draws)
        limit = tries if draws <= pool else max(tries, 2 * draws)
        while len(self.pool) < want and sampler.tries < limit:
            w = sampler.draw(rng)
            if w is not None:
                self.pool.append(w)
        self.tries = sampler.tries
        self.misfits: list[int] = []
        if draws > pool and len(self.pool) > pool:
            # the worlds in which the other seats' moves look most like greedy's (stable:
            # among equals, the first drawn)
            scored = [(greedy_misfits(game, w, record.seed, seat, cap=MISFIT_CAP), i)
                      for i, w in enumerate(self.pool)]
            scored.sort()
            self.misfits = [k for k, _ in scored[:pool]]
            self.pool = [self.pool[i] for _, i in scored[:pool]]
        self.source = "history" if self.pool else "history (gave up: present view)"

    def _infer(self, sampler: Sampler, seed: int, draws: int, temperature: float,
               refresh: bool) -> None:
        """Sample-importance-resample: `draws` worlds from the seat's history, each
        weighted by the likelihood of the other seats' past moves under a Boltzmann
        model of the `greedy` bot (`move_loglik`); each world the search asks for is one
        of them picked by weight, its zones that no player sees (the stock) dealt again
        when `refresh` (the model says nothing about their order), its seed drawn
        again."""
        game, rng = self.game, self.rng
        while len(self.pool) < draws and sampler.tries < max(TRIES, 2 * draws):
            w = sampler.draw(rng)
            if w is not None:
                self.pool.append(w)
        self.tries = sampler.tries
        self.source = "history (inferred)" if self.pool else "history (gave up: present view)"
        if not self.pool:
            return
        logs = self._logs = [move_loglik(game, w, seed, self.seat, temperature)
                             for w in self.pool]
        top = max(logs)
        weights = [math.exp(v - top) for v in logs]
        total = 0.0
        for x in weights:
            total += x
            self.cum.append(total)
        self.ess = total * total / sum(x * x for x in weights)
        if refresh:
            self.loose = [z.name for z in game.zones
                          if z.visibility != "owner" and z.name in hidden_zones(game, self.seat)]

    def step(self) -> World:
        """One Metropolis-Hastings step of the chain over the worlds of the seat's history,
        whose stationary law is the model's posterior: two unseen cards of one shuffle
        swap places (a card that the swap moves out of a later shuffle is replaced there
        by the one moved in); the world is played again, and kept with probability
        min(1, its likelihood / the chain's)."""
        sampler, w, rng = self.sampler, self.chain, self.rng
        assert sampler is not None and w is not None
        ks = [k for k, pl in enumerate(sampler.places) if len(pl) >= 2]
        if not ks or len(w.shuffles) != len(sampler.places):
            return w
        k = ks[rng.randrange(len(ks))]
        i, j = rng.sample(sampler.places[k], 2)
        new = [list(o) for o in w.shuffles]
        new[k][i], new[k][j] = new[k][j], new[k][i]

        def order(n: int, cards: list[int]) -> list[int]:
            o = list(new[n])
            have = set(cards)
            if have != set(o):  # an earlier swap changed which cards come here
                missing = sorted(have - set(o))
                o = [c if c in have else missing.pop(0) if missing else c for c in o]
            return o

        x = sampler.play(order)
        if x is None:
            return w
        ll = move_loglik(self.game, x, self.seed, self.seat, self.temperature)
        if ll >= self.chain_ll or rng.random() < math.exp(ll - self.chain_ll):
            self.chain, self.chain_ll = x, ll
            self.moved += 1
            return x
        return w

    def fresh(self, w: World) -> State:
        """An inferred world's state as an iteration gets it: the zones no player sees
        dealt again (`refresh`), and a new random seed."""
        if self.loose:
            return (Position(self.game, w.state).redeal(self.loose, self.rng)
                    .random_seed(self.rng.getrandbits(63)).state(check=False))
        return reseed(self.game, w.state, self.rng)

    def __call__(self) -> State:
        if self.chain is not None:
            return self.fresh(self.step())
        if self.pool:
            if self.cum:
                i = bisect.bisect_right(self.cum, self.rng.random() * self.cum[-1])
                return self.fresh(self.pool[min(i, len(self.pool) - 1)])
            w = self.pool[self.rng.randrange(len(self.pool))]
            return reseed(self.game, w.state, self.rng)
        return determinize(self.game, self.state, self.seat, self.rng)


#: `greedy_misfits` stops counting at this many
MISFIT_CAP = 4


def greedy_misfits(game: Game, world: World, seed: int, seat: int, cap: int = 1_000) -> int:
    """In how many of the other seats' decisions of a world (of one player, with a choice)
    the move played is not one that the `greedy` bot could have played there: not one
    that leaves its mover the best value (score minus the best other score) of all its
    legal moves, judged on the world's cards (counting stops at `cap`). An opponent model:
    a world in which the other players' moves are what greedy players would have done
    with the cards the world deals them is likelier, if they play so. It reads only the
    world, which is drawn from the seat's history."""
    n = 0
    for st, m, p, legal in _choices(game, world, seed, seat):
        best = None
        mine = None
        for mv in legal:
            try:
                v = _greedy_value(game.scores(game.apply(st, mv)), p)
            except (IllegalMove, RuleError):
                continue
            best = v if best is None or v > best else best
            if mv == tuple(m):
                mine = v
        if mine is not None and best is not None and mine < best:
            n += 1
            if n >= cap:
                break
    return n


def move_loglik(game: Game, world: World, seed: int, seat: int,
                temperature: float = 1.0) -> float:
    """The log-likelihood of the other seats' decisions of a world (of one player, with a
    choice) under a Boltzmann-rational model of the `greedy` bot: a player takes each
    legal move with probability proportional to exp(value / temperature), the value
    being the lead the move leaves it (score minus the best other score, judged on the
    world's cards; greedy is the limit at temperature 0). A world in which the others'
    moves are likelier under the model is likelier, if they play so. It reads only the
    world, which is drawn from the seat's history."""
    total = 0.0
    lowest = _lowest_wins(game)
    n = game.players
    for st, m, p, legal in _choices(game, world, seed, seat):
        values = []
        mine = None
        for mv in legal:
            try:
                sc = game.scores(game.apply(st, mv))
            except (IllegalMove, RuleError):
                continue
            if lowest:  # as the rollouts judge a lead (Game.lead_playout_from)
                v = min(sc[q] for q in range(n) if q != p - 1) - sc[p - 1]
            else:
                v = sc[p - 1] - max(sc[q] for q in range(n) if q != p - 1)
            values.append(v)
            if mv == tuple(m):
                mine = v
        if mine is None or not values:
            continue
        top = max(values)
        z = sum(math.exp((v - top) / temperature) for v in values)
        total += (mine - top) / temperature - math.log(z)
    return total


def _lowest_wins(game: Game) -> bool:
    res = game.checked.result
    return res is not None and res.kind == "lowest"


def _choices(game: Game, world: World, seed: int, seat: int
             ) -> Iterator[tuple[State, Move, int, list[Move]]]:
    """The other seats' decisions of a world that had a choice: the state, the move
    played, its player (the only one to decide) and that player's legal moves (two or
    more)."""
    for st, m in _states(game, world, seed):
        p = m[0]
        if p == seat or game.pending(st) or len(game.to_move(st)) != 1:
            continue
        legal = game.legal_moves(st, p)
        if len(legal) >= 2:
            yield st, m, p, legal


def _states(game: Game, world: World, seed: int) -> list[tuple[State, Move]]:
    """Each move of a world and the state it was played in (its shuffles as the world's)."""
    orders = iter(world.shuffles)

    def rewrite(cards: list[int]) -> list[int]:
        return list(next(orders, cards))

    out = []
    with game.relabeling(rewrite):
        st = game.new_state(seed)
        for m in world.moves:
            out.append((st, m))
            st = game.apply(st, m)
    return out


def _greedy_value(scores: list[int], player: int) -> int:
    """The `greedy` bot's value of a position (simple.GreedyBot.value)."""
    mine = scores[player - 1]
    if len(scores) == 1:
        return mine
    return mine - max(s for i, s in enumerate(scores) if i != player - 1)


def choose_move(bot: Any, game: Game, state: State, player: int,
                seed: int | None = None, moves: Sequence[Move] | None = None) -> Move:
    """`bot.choose`, given the game's record (deal seed and moves so far) when the bot
    takes one (`takes_record`: the search bots), so that its worlds follow the seat's
    history. A record that does not lead to `state` (a position set up by hand) is left
    out: the bot then deals its worlds from the present view."""
    if seed is not None and moves is not None and getattr(bot, "takes_record", False):
        record = Record(seed, tuple(tuple(m) for m in moves))
        try:
            return bot.choose(game, state, player, record=record)
        except ValueError:
            pass
    return bot.choose(game, state, player)


def pool_size(game: Game, record: Record | None) -> int:
    """How many history worlds a search draws where `MctsBot.pool` is None
    (`ismcts-lead`). A few worlds judge the root moves on a few deals of the others'
    hands: at Interaction 4p, one `ismcts-lead:400` seat took 23.1% of 300 games against
    greedy with 8 worlds and 28.2% with this pool (docs/bots.md). Each draw plays the
    record again, so a long record gets fewer worlds, never below POOL: the accepted
    worlds cost what 8 of an 80-move record cost (rejected draws replay it too: where
    most draws are rejected, as late in a trick game, more). One-player games keep
    POOL."""
    if record is None or game.players == 1:
        return POOL
    return max(POOL, min(POOL_MAX, POOL_MOVES // (len(record.moves) + 1)))


def sample_world(game: Game, state: State, seat: int, rng: random.Random,
                 record: Record | None = None) -> State:
    """One world that `seat` cannot tell from `state` (from its history when `record` is
    given), drawn with `rng`: it depends only on what the seat knows and on `rng`."""
    return Worlds(game, state, seat, rng, record, pool=1)()


def has_hidden_information(game: Game) -> bool:
    """Does some seat not see some zone (cards it cannot know: a stock, others' hands), or
    do the rules turn cards face down?"""
    return game.uses_faces or any(hidden_zones(game, p) for p in range(1, game.players + 1))
