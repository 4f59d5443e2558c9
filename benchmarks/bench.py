"""Engine vs hand-written Python, in one run.

Plays random games (uniformly random legal moves) of Calculation and Besieged Castle
(and its variants) through the compiled .cardgame files and through the plain Python
versions of the same rules in this directory, and prints games/s, moves/s and the
ratio engine/hand-written (>= 1.0: the compiled game is as fast as hand-written Python).

    python benchmarks/bench.py [--games N] [--seed S] [--repeat R] [--json]

Each figure is the best of R repeats (the least disturbed by the rest of the machine).
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import handwritten_besieged_castle  # noqa: E402
import handwritten_calculation  # noqa: E402
from cardgame.interpreter.engine.pipeline import compile_game  # noqa: E402

CASES: list[tuple[str, str, Callable[[int], Any]]] = [
    ("Calculation", "calculation", lambda seed: handwritten_calculation.Game(seed)),
    ("Besieged Castle", "besieged-castle",
     lambda seed: handwritten_besieged_castle.Game(seed, spice=0)),
    ("Besieged Castle, Spice 1", "besieged-castle-spice-1",
     lambda seed: handwritten_besieged_castle.Game(seed, spice=1)),
    ("Besieged Castle, Spice 2", "besieged-castle-spice-2",
     lambda seed: handwritten_besieged_castle.Game(seed, spice=2)),
]


def run_engine(name: str, games: int, seed: int) -> tuple[float, int]:
    game = compile_game(name)
    rng = random.Random(seed)
    moves = 0
    t0 = time.perf_counter()
    for i in range(games):
        _, n = game.random_playout(seed + i, rng)
        moves += n
    return time.perf_counter() - t0, moves


def run_handwritten(make: Callable[[int], Any], games: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    moves = 0
    t0 = time.perf_counter()
    for i in range(games):
        g = make(seed + i)
        randrange = rng.randrange
        while not g.is_over():
            legal = g.legal_moves()
            g.apply(legal[randrange(len(legal))])
            moves += 1
    return time.perf_counter() - t0, moves


def best(fn: Callable[[], tuple[float, int]], repeat: int) -> tuple[float, int]:
    results = [fn() for _ in range(repeat)]
    return min(results, key=lambda r: r[0] / max(r[1], 1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = []
    for title, name, make in CASES:
        games = args.games if "Calculation" in title else max(args.games // 5, 20)
        compile_game(name)  # compile outside the timing
        e_t, e_m = best(functools.partial(run_engine, name, games, args.seed), args.repeat)
        h_t, h_m = best(functools.partial(run_handwritten, make, games, args.seed), args.repeat)
        rows.append({
            "game": title, "games": games,
            "engine_games_per_s": games / e_t, "engine_moves_per_s": e_m / e_t,
            "hand_games_per_s": games / h_t, "hand_moves_per_s": h_m / h_t,
            "engine_avg_moves": e_m / games, "hand_avg_moves": h_m / games,
            "ratio_moves_per_s": (e_m / e_t) / (h_m / h_t),
            "ratio_games_per_s": (games / e_t) / (games / h_t),
        })
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'game':<26} {'engine games/s':>14} {'moves/s':>10} {'hand games/s':>13} "
          f"{'moves/s':>10} {'ratio (moves/s)':>16} {'ratio (games/s)':>16}")
    for r in rows:
        print(f"{r['game']:<26} {r['engine_games_per_s']:>14,.1f} {r['engine_moves_per_s']:>10,.0f} "
              f"{r['hand_games_per_s']:>13,.1f} {r['hand_moves_per_s']:>10,.0f} "
              f"{r['ratio_moves_per_s']:>16.2f} {r['ratio_games_per_s']:>16.2f}")
    print("(average moves per game, engine / hand-written: "
          + ", ".join(f"{r['game']} {r['engine_avg_moves']:.0f}/{r['hand_avg_moves']:.0f}"
                      for r in rows) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
