"""A CHEAT, to measure a bound; NOT a bot. How much of Interaction 4p can any seat win
against three `greedy` seats, if it saw everything?

    python benchmarks/interaction_bound.py [--games N] [--seed S] [--nodes K]
                                           [--players P] [--json]
                                           [--mode replan|truth|joker|hands|stock]

This program looks at the true state: every hand, the stock's order (so it knows exactly
when the joker comes) and the greedy seats' seeded random generators (so it knows how
they will break ties). No bot may do any of this (a bot chooses from its seat's
observations only, docs/bots.md); the cheat is not in the bot registry and no command
of `cardgame` can reach it. It exists to answer one question: what win share is
reachable at all, on the very games `benchmarks/bots.py match` plays?

The match (`benchmarks/bots.py match interaction --players 4 --bot B --against greedy`)
is copied exactly: game i is deal seed S+i, the cheat in seat i mod P + 1, each greedy
seat made as the match makes it (`make_bot("greedy", deal * 31 + seat_index)`), moves
asked in the same order (`game.to_move(state)[0]`). Given the deal and those seeds, the
greedy seats' replies are a function of the state and of their generators, so the whole
game is a function of the cheat's own moves: a **deterministic one-player search**. For
each deal the cheat searches its own move sequences depth first, each move followed by
the greedy replies simulated exactly (their generators' states saved and restored), the
moves ordered by the lead they leave after the replies; it stops at the first sequence
that wins alone (a share of 1, the most there is), or after `--nodes` moves tried (then
it keeps the best share found). A branch is cut when even the most generous count
cannot make it first: the seat gains at most 3 chips a play, and another player loses at
most 1 a play of theirs (a paid chip), over at most (cards above the joker + 1) plays.

Weaker cheats (`--mode`), each `ismcts-lead`'s own search given worlds that know one
thing: `truth` (the true state), `joker` (the joker's place), `hands` (the others'
hands, the stock dealt again), `stock` (the stock's order, the others' hands dealt
again); `replan` knows every card but not greedy's coins. They split what knowing
every card is worth (docs/bots.md).

What it reports:
- the cheat's **win share** (a k-way tie for first counts 1/k, as the match counts it),
  with a normal 95% interval: a search-based figure, a *lower* bound on the best any
  sequence of own moves could do;
- the deals whose search was **exact**: those won alone (nothing beats 1) and those whose
  search ran to completion; on the others the best share is unknown but at most 1. The
  **true upper bound** on the win share of *any* seat playing these games (honest or
  not) is the mean, over the deals, of the exact value where known and 1 elsewhere
  (`exact upper bound` below);
- every sequence found is played again through `benchmarks/bots.py`'s own game loop, as
  the seat's moves, and must give the share the search claimed (else it stops: the
  simulation would not be the match).

Ties: the greedy bot breaks ties with its seeded generator. The cheat knows that
generator's state (it replays the match's seeds), so the bound is for these seeds
exactly: the figure any bot could reach on *these* games, not in expectation over other
coin flips. A seat that did not know the coins could only do worse.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

import bots as match_bench  # benchmarks/bots.py: the match's own game loop
from cardgame.interpreter.bots import make_bot
from cardgame.interpreter.bots.ismcts import IsmctsLeadBot
from cardgame.interpreter.bots.mcts import Budget
from cardgame.interpreter.bots.simple import GreedyBot
from cardgame.interpreter.engine import Game, Move, Position, State, compile_game
from cardgame.interpreter.observe import reseed

#: moves tried (children generated) per deal before the search stops and keeps its best
NODES = 3000


class Replies:
    """The greedy seats of one match game, as `benchmarks/bots.py` makes them, whose
    generators can be saved and restored, so that any line of the cheat's moves can be
    followed by the replies they would really make. With `guess`, the greedy seats are
    seeded otherwise (the cheat knows how greedy plays, not its coins)."""

    def __init__(self, game: Game, deal: int, seat: int, guess: int | None = None) -> None:
        self.game = game
        self.seat = seat
        self.bots: dict[int, GreedyBot] = {}
        for i in range(game.players):
            if i + 1 != seat:
                # the seed `_play_timed` gives seat i (or a guess: other coins)
                seed = deal * 31 + i if guess is None else 10**9 + 1000 * guess + 31 * deal + i
                b = make_bot("greedy", seed)
                assert isinstance(b, GreedyBot)
                self.bots[i + 1] = b

    def snap(self) -> tuple[Any, ...]:
        return tuple((b.rng.getstate(), b.worlds.getstate()) for b in self.bots.values())

    def restore(self, snap: tuple[Any, ...]) -> None:
        for b, (r, w) in zip(self.bots.values(), snap, strict=True):
            b.rng.setstate(r)
            b.worlds.setstate(w)

    def run(self, s: State) -> State:
        """The greedy seats' moves from `s` until the cheat's turn or the end."""
        g = self.game
        n = 0
        while not g.is_terminal(s) and n < match_bench.MAX_MOVES:
            p = g.to_move(s)[0]
            if p == self.seat:
                break
            s = g.apply(s, self.bots[p].choose(g, s, p))
            n += 1
        return s

    def after(self, s: State, snap: tuple[Any, ...], m: Move) -> tuple[State, tuple[Any, ...]]:
        """The cheat plays `m` in `s` (the greedy generators as in `snap`); the state at
        its next decision (or the end) and the generators then."""
        self.restore(snap)
        t = self.run(self.game.apply(s, m))
        return t, self.snap()


def share(game: Game, s: State, seat: int) -> float:
    res = game.results(s)
    tied = sum(r in ("win", "draw") for r in res)
    return 1.0 / tied if res[seat - 1] in ("win", "draw") else 0.0


def lead(game: Game, s: State, seat: int) -> int:
    sc = game.scores(s)
    return sc[seat - 1] - max(v for i, v in enumerate(sc) if i != seat - 1)


class Bound:
    """The most generous count of what is still reachable in Interaction: at most
    (cards above the joker + 1) plays are left (each turn draws at least one card; the
    turn whose refill reaches the joker ends the game); a play scores at most 3 chips
    for a player (same rank 3; one apart and same suit 2+1), and costs a player at most
    1 (a paid chip, on their own turn only)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.joker = next(i for i, t in enumerate(game.card_text) if t == "JK")

    def best(self, s: State, seat: int) -> float:
        """An upper bound on the share the seat can still take from `s`, its decision."""
        g = self.game
        if g.var(s, "first_turn_over") is not True:
            return 1.0
        stock = g.zone_ids(s, "stock")
        if self.joker not in stock:
            return 1.0
        plays = len(stock) - stock.index(self.joker)  # cards above it, + 1
        n = g.players
        sc = g.scores(s)
        mine = sc[seat - 1] + 3 * plays
        rival = 0
        for q in range(1, n + 1):
            if q == seat:
                continue
            # q's turns among the next `plays`, the seat's own first
            k = (q - seat) % n
            theirs = 0 if plays <= k else (plays - 1 - k) // n + 1
            rival = max(rival, sc[q - 1] - theirs)
        if mine < rival:
            return 0.0
        if mine == rival:
            return 0.5
        return 1.0


def search(game: Game, deal: int, seat: int, nodes: int
           ) -> tuple[float, list[Move], int, bool]:
    """The best share found from the deal's start, its line of the cheat's own moves, the
    moves tried, and whether the search was exact (won alone, or ran to completion)."""
    rep = Replies(game, deal, seat)
    return search_from(game, rep, rep.run(game.new_state(deal)), nodes)


def search_from(game: Game, rep: Replies, s0: State, nodes: int
                ) -> tuple[float, list[Move], int, bool]:
    """`search` from `s0`, a decision of the cheat's seat (or the end), the greedy seats'
    generators as `rep` holds them now."""
    seat = rep.seat
    bound = Bound(game)
    best: list[Any] = [-1.0, []]
    tried = [0]
    cut = [False]

    def dfs(s: State, snap: tuple[Any, ...], line: list[Move]) -> None:
        if game.is_terminal(s):
            v = share(game, s, seat)
            if v > best[0]:
                best[0], best[1] = v, list(line)
            return
        if bound.best(s, seat) <= best[0]:
            return
        if tried[0] >= nodes:
            cut[0] = True
            return
        kids: list[tuple[int, int, Move, State, tuple[Any, ...]]] = []
        for m in game.legal_moves(s, seat):
            tried[0] += 1
            t, sn = rep.after(s, snap, m)
            if game.is_terminal(t):
                v = share(game, t, seat)
                if v > best[0]:
                    best[0], best[1] = v, line + [m]
                    if v >= 1.0:
                        return
                continue
            kids.append((lead(game, t, seat), len(kids), m, t, sn))
        kids.sort(key=lambda k: (-k[0], k[1]))
        for _, _, m, t, sn in kids:
            line.append(m)
            dfs(t, sn, line)
            line.pop()
            if best[0] >= 1.0:
                return

    if game.is_terminal(s0):
        return share(game, s0, seat), [], 0, True
    dfs(s0, rep.snap(), [])
    exact = best[0] >= 1.0 or not cut[0]
    return float(best[0]), list(best[1]), tried[0], exact


class Scripted:
    """Plays a given line of moves (the cheat's, found by `search`), in the match's loop."""

    name = "scripted-cheat"

    def __init__(self, line: Sequence[Move]) -> None:
        self.line = list(line)
        self.i = 0

    def choose(self, game: Game, state: State, player: int) -> Move:
        m = self.line[self.i]
        self.i += 1
        return m


CHEAT = "cheat (not a bot)"


def in_match(game: Game, deal: int, seat: int, cheat: Any, record: bool = False) -> float:
    """One game of the match, through `benchmarks/bots.py`'s own game loop
    (`_play_timed`), the cheat in `seat` and greedy seats elsewhere; the cheat's share."""
    bots = ["greedy"] * game.players
    bots[seat - 1] = CHEAT
    real = match_bench.make_bot

    def make(name: str, seed: int | None = None) -> Any:
        return cheat if name == CHEAT else real(name, seed)

    match_bench.make_bot = make  # this process only, for this one game
    try:
        res, _, _ = match_bench._play_timed(game, deal, bots, deal, record)
    finally:
        match_bench.make_bot = real
    tied = sum(r in ("win", "draw") for r in res)
    return 1.0 / tied if res[seat - 1] in ("win", "draw") else 0.0


def replay(game: Game, deal: int, seat: int, line: Sequence[Move]) -> float:
    """The line played through the match's own game loop, the cheat's seat scripted; the
    share it gets there."""
    cheat = Scripted(line)
    got = in_match(game, deal, seat, cheat)
    if cheat.i != len(line):
        raise AssertionError(f"deal {deal}: the match asked {cheat.i} moves, the line has "
                             f"{len(line)}")
    return got


# ---------------------------------------------------------------- weaker cheats
# Each knows less than the omniscient one; together they say which knowledge is worth what.


class Replanner:
    """Knows every card and how greedy plays, not greedy's coins: at each of its decisions
    it searches as `search` does, against greedy seats seeded by its own guess, plays the
    first move of the best line found, and searches again at its next decision."""

    name = "cheat-replan"

    def __init__(self, deal: int, nodes: int) -> None:
        self.deal = deal
        self.nodes = nodes
        self.k = 0

    def choose(self, game: Game, state: State, player: int) -> Move:
        self.k += 1
        rep = Replies(game, self.deal, player, guess=self.k)
        _, line, _, _ = search_from(game, rep, state, self.nodes)
        return line[0] if line else game.legal_moves(state, player)[0]


class TruthLead(IsmctsLeadBot):
    """`ismcts-lead`, every world of its search the true state (every hand, the stock's
    order), its random seed drawn again: the bot's own search, with perfect information."""

    name = "cheat-truth"

    def world(self, game: Game, state: State, player: int) -> State:
        return reseed(game, state, self.rng)


class JokerLead(IsmctsLeadBot):
    """`ismcts-lead`, its worlds drawn as the bot draws them (from what the seat sees), then
    the joker put where it really is (swapped with the card that lies there): the bot's
    own search, knowing only when the game will end."""

    name = "cheat-joker"

    def world(self, game: Game, state: State, player: int) -> State:
        w = super().world(game, state, player)
        return put_joker(game, w, state)


class HandsLead(IsmctsLeadBot):
    """`ismcts-lead`, every world the true state with the zones no player sees (the stock)
    dealt again: the bot's own search, knowing the others' hands but not the stock's
    order (so not when the joker comes)."""

    name = "cheat-hands"

    def world(self, game: Game, state: State, player: int) -> State:
        loose = [z.name for z in game.zones if z.visibility not in ("owner", "public")]
        return (Position(game, state).redeal(loose, self.rng)
                .random_seed(self.rng.getrandbits(63)).state(check=False))


class StockLead(IsmctsLeadBot):
    """`ismcts-lead`, its worlds dealt from what the seat sees, then the stock put in its
    true order and the others' hands dealt again from the rest of the unseen cards: the
    bot's own search, knowing the stock's order (the joker's place, every draw), not the
    others' hands."""

    name = "cheat-stock"

    def world(self, game: Game, state: State, player: int) -> State:
        w = super().world(game, state, player)
        hands = [z.name for z in game.zones
                 if z.visibility == "owner" and z.owner != player]
        stock = [z.name for z in game.zones if z.visibility not in ("owner", "public")]
        truth = {z: list(game.zone_ids(state, z)) for z in stock}
        taken = {c for ids in truth.values() for c in ids}
        rest = sorted(c for z in hands + stock for c in game.zone_ids(w, z) if c not in taken)
        self.rng.shuffle(rest)
        new: dict[str, list[int]] = dict(truth)
        i = 0
        for z in hands:
            k = len(game.zone_ids(w, z))
            new[z] = rest[i:i + k]
            i += k
        return Position(game, w).rearrange(new).state(check=False)


def put_joker(game: Game, w: State, truth: State) -> State:
    """World `w` with the joker in its true place, the card there in the joker's place."""
    joker = next(i for i, t in enumerate(game.card_text) if t == "JK")
    where = {z: game.zone_ids(truth, z) for z in game.zone_names()}
    mine = {z: game.zone_ids(w, z) for z in game.zone_names()}
    zt = next(z for z, ids in where.items() if joker in ids)
    it = where[zt].index(joker)
    zw = next(z for z, ids in mine.items() if joker in ids)
    iw = mine[zw].index(joker)
    if (zt, it) == (zw, iw):
        return w
    new = {zt: list(mine[zt])}
    new.setdefault(zw, list(mine[zw]))
    other = new[zt][it]
    new[zt][it] = joker
    new[zw][iw] = other
    return Position(game, w).rearrange(new).state(check=False)


def _mean_ci(xs: Sequence[float]) -> tuple[float, float, float]:
    n = len(xs)
    m = sum(xs) / n
    sd = (sum((x - m) ** 2 for x in xs) / max(1, n - 1)) ** 0.5
    h = 1.96 * sd / n ** 0.5
    return m, max(0.0, m - h), min(1.0, m + h)


def weaker(a: argparse.Namespace, game: Game) -> None:
    """A weaker cheat (`--mode replan | truth | joker`) in the match; its win share."""
    p = game.players
    shares: list[float] = []
    t0 = time.process_time()
    for i in range(a.games):
        deal = a.seed + i
        seat = i % p + 1
        cheat: Any
        if a.mode == "replan":
            cheat = Replanner(deal, a.nodes)
        else:
            cls = {"truth": TruthLead, "joker": JokerLead, "hands": HandsLead,
                   "stock": StockLead}[a.mode]
            cheat = cls(deal * 31 + seat - 1, budget=Budget(iterations=a.budget))
        shares.append(in_match(game, deal, seat, cheat, a.record))
        if (i + 1) % 10 == 0 or i + 1 == a.games:
            m, lo, hi = _mean_ci(shares)
            print(f"  {i + 1}/{a.games}: share {m:.1%} ({lo:.1%}-{hi:.1%}) "
                  f"[{time.process_time() - t0:.0f}s CPU]", file=sys.stderr, flush=True)
    n = len(shares)
    m, lo, hi = _mean_ci(shares)
    what = {"replan": f"knows every card, not greedy's coins; searches again at each "
                      f"decision, at most {a.nodes} moves tried",
            "truth": f"ismcts-lead:{a.budget} whose worlds are the true state",
            "joker": f"ismcts-lead:{a.budget} whose worlds put the joker in its true place"
                     f"{' (worlds from the record)' if a.record else ''}",
            "hands": f"ismcts-lead:{a.budget} whose worlds have the others' true hands, "
                     "the stock dealt again",
            "stock": f"ismcts-lead:{a.budget} whose worlds have the stock in its true "
                     "order, the others' hands dealt again"}[a.mode]
    sole = sum(x >= 1.0 for x in shares)
    cpu = time.process_time() - t0
    print(f"Interaction {p}p, a CHEAT (not a bot), {what}, in the rotating seat against "
          f"{p - 1} greedy, {n} games (deals from seed {a.seed}, the match's seeds):\n"
          f"  win share (a k-way tie 1/k): {m:.1%} (95% CI {lo:.1%}-{hi:.1%})\n"
          f"  sole wins: {sole}/{n} = {sole / n:.1%}\n"
          f"  {cpu / n:.2f}s CPU a game, {cpu:.0f}s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--nodes", type=int, default=NODES,
                    help="moves tried per deal before the search keeps its best")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--mode", choices=("bound", "replan", "truth", "joker", "hands", "stock"),
                    default="bound",
                    help="bound: the omniscient search (default); weaker cheats: replan "
                         "(every card, not greedy's coins), truth (ismcts-lead with the true "
                         "state as its world), joker (ismcts-lead knowing the joker's place), "
                         "hands (knowing the others' hands), stock (knowing the stock's "
                         "order)")
    ap.add_argument("--budget", type=int, default=400, help="iterations (truth, joker)")
    ap.add_argument("--record", action="store_true",
                    help="joker: the bot's worlds from the game's record, as `simulate` does")
    a = ap.parse_args()
    game = compile_game("interaction", players=a.players)
    if a.mode != "bound":
        weaker(a, game)
        return
    p = game.players
    shares: list[float] = []
    upper: list[float] = []
    exact = sole = 0
    tried_all = 0
    t0 = time.process_time()
    for i in range(a.games):
        deal = a.seed + i
        seat = i % p + 1
        v, line, tried, ex = search(game, deal, seat, a.nodes)
        got = replay(game, deal, seat, line)
        if abs(got - v) > 1e-9:
            raise AssertionError(f"deal {deal}: the search claimed {v}, the match gave {got}")
        shares.append(v)
        upper.append(v if ex else 1.0)
        exact += ex
        sole += v >= 1.0
        tried_all += tried
        if (i + 1) % 10 == 0 or i + 1 == a.games:
            m, lo, hi = _mean_ci(shares)
            print(f"  {i + 1}/{a.games}: share {m:.1%} ({lo:.1%}-{hi:.1%}), exact "
                  f"{exact}, [{time.process_time() - t0:.0f}s CPU]", file=sys.stderr,
                  flush=True)
    n = len(shares)
    m, lo, hi = _mean_ci(shares)
    um, ulo, uhi = _mean_ci(upper)
    cpu = time.process_time() - t0
    print(f"Interaction {p}p, the omniscient CHEAT (not a bot) in the rotating seat against "
          f"{p - 1} greedy, {n} games (deals from seed {a.seed}, the match's seeds), "
          f"at most {a.nodes} moves tried a deal:\n"
          f"  win share found (a k-way tie 1/k): {m:.1%} (95% CI {lo:.1%}-{hi:.1%})\n"
          f"  sole wins found:                   {sole}/{n} = {sole / n:.1%}\n"
          f"  exact deals (won alone or searched to the end): {exact}/{n}\n"
          f"  exact upper bound (1 where not exact): {um:.1%} (95% CI {ulo:.1%}-{uhi:.1%})\n"
          f"  every line replayed through benchmarks/bots.py's game loop: same shares\n"
          f"  {tried_all / n:.0f} moves tried a deal, {cpu / n:.2f}s CPU a deal, {cpu:.0f}s")
    if a.json:
        print(json.dumps({"games": n, "seed": a.seed, "nodes": a.nodes, "share": m,
                          "ci95": [lo, hi], "sole": sole, "exact": exact,
                          "upper": um, "upper_ci95": [ulo, uhi], "cpu_per_deal": cpu / n}))


if __name__ == "__main__":
    main()
