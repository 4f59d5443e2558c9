"""History-consistent worlds (`observe.Sampler`) and the leak check built on them: the
figures docs/observations.md and docs/fuzz.md quote.

    python benchmarks/worlds.py sampler [--positions N] [--seconds S]
    python benchmarks/worlds.py leaks [--runs R]

- `sampler`: for Arsène 4p and Interaction 4p (and Calculation, Follow), N mid-game
  positions of random games (seeded); at each, draws for S seconds for the seat to move.
  Prints the share of draws accepted (with Wilson's 95% interval over all draws), draws
  and accepted worlds per second, and the time ISMCTS spends on its pool of worlds at
  one decision (`bots.sampling.Worlds`, POOL worlds within TRIES draws; `ismcts-lead`
  draws `sampling.pool_size` of them).
- `leaks`: how long `cardgame fuzz` takes to find each leak of tests/data/leaks and the
  leak mutants of tests/mutants (wall-clock seconds to the first failure, and the games
  played; R runs with seeds 0..R-1).

A benchmark, not a test: it never fails on a figure. Load on the machine changes the
per-second figures; the acceptance rates do not depend on it.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from cardgame.interpreter import fuzz as F
from cardgame.interpreter.bots.sampling import Worlds
from cardgame.interpreter.engine import Game, Move, State, compile_game
from cardgame.interpreter.intervals import wilson
from cardgame.interpreter.observe import Record, Sampler

ROOT = Path(__file__).resolve().parent.parent
LEAKS = ROOT / "tests" / "data" / "leaks"
MUTANTS = ROOT / "tests" / "mutants"

# (title, game, players, moves into the game: mid-game)
POSITIONS = [
    ("Arsène 4p, deal 1 (move 24)", "arsene", 4, 24),
    ("Arsène 4p, deal 2 (move 70)", "arsene", 4, 70),
    ("Interaction 4p (move 10)", "interaction", 4, 10),
    ("Calculation (move 50)", "calculation", None, 50),
    ("Follow 3p, trick 4 (move 10)", str(LEAKS / "follow.cardgame"), None, 10),
]


def position(g: Game, seed: int, n: int) -> tuple[list[Move], State]:
    rng = random.Random(seed)
    st = g.new_state(seed)
    moves: list[Move] = []
    while not g.is_terminal(st) and len(moves) < n:
        m = rng.choice(g.legal_moves(st))
        moves.append(m)
        st = g.apply(st, m)
    return moves, st


def sampler(positions: int, seconds: float) -> None:
    print(f"{'position':32} {'accepted':>22} {'draws/s':>8} {'worlds/s':>9} "
          f"{'pool (s)':>9}")
    for title, name, players, n in POSITIONS:
        g = compile_game(name, players)
        tries = accepted = 0
        spent = pool_time = 0.0
        for k in range(positions):
            seed = 1000 + k
            moves, st = position(g, seed, n)
            if g.is_terminal(st):
                continue
            seat = g.to_move(st)[0]
            rec = Record(seed, tuple(moves))
            t = time.perf_counter()
            Worlds(g, st, seat, random.Random(k), rec)
            pool_time += time.perf_counter() - t
            s = Sampler(g, rec, seat)
            rng = random.Random(k)
            t = time.perf_counter()
            while time.perf_counter() - t < seconds:
                s.draw(rng)
            spent += time.perf_counter() - t
            tries += s.tries
            accepted += s.accepted
        lo, hi = wilson(accepted, tries)
        rate = f"{accepted / tries:.1%} [{lo:.1%}, {hi:.1%}]" if tries else "-"
        print(f"{title:32} {rate:>22} {tries / spent:8.0f} {accepted / spent:9.1f} "
              f"{pool_time / positions:9.3f}", flush=True)


def leaks(runs: int) -> None:
    files = sorted(LEAKS.glob("gamble-*-leak.cardgame")) + [
        MUTANTS / f"{m}.cardgame" for m in ("duel-peek", "duel-log-leak", "duel-var-leak")]
    print(f"{'game':32} {'found':>6} {'median s':>9} {'max s':>7} {'games (median)':>15}")
    for path in files:
        times: list[float] = []
        games: list[int] = []
        found = 0
        for seed in range(runs):
            t = time.perf_counter()
            r = F.fuzz(str(path), seed=seed, seconds=20, database=None, shrink_seconds=0.01,
                       write_replay=False)
            if r.failure is not None and r.failure.property == "leak":
                found += 1
                times.append(time.perf_counter() - t)
                games.append(r.coverage.found_after)
        times.sort()
        games.sort()
        med = times[len(times) // 2] if times else float("nan")
        print(f"{path.stem:32} {found:>3}/{runs:<2} {med:9.2f} "
              f"{max(times) if times else float('nan'):7.2f} "
              f"{games[len(games) // 2] if games else '-':>15}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    a = sub.add_parser("sampler")
    a.add_argument("--positions", type=int, default=5)
    a.add_argument("--seconds", type=float, default=2.0)
    b = sub.add_parser("leaks")
    b.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    if args.what == "sampler":
        sampler(args.positions, args.seconds)
    else:
        leaks(args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
