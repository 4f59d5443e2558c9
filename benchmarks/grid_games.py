"""Random playouts of the grid and covering classics (issue 16): Pyramid and Golf.

    python benchmarks/grid_games.py [--games N] [--seed S] [--repeat R]

Each game plays N random games (uniformly random legal moves, `Game.random_playout`, the
deals of seeds S, S+1, ...) R times; the repeats of the games are interleaved, so a busy
moment of the machine hurts them alike. Printed per game: games/s and moves/s as the mean
over the repeats with a 95% interval (Student's t over the R timings), and the best repeat.
A benchmark, not a test: it never fails on a figure.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from cardgame.interpreter.engine import Game, compile_game

GAMES = ("pyramid", "golf")
T95 = {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78, 6: 2.57, 7: 2.45, 8: 2.36, 9: 2.31, 10: 2.26}


def one_run(game: Game, n: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    moves = 0
    t0 = time.perf_counter()
    for i in range(n):
        _, k = game.random_playout(seed + i, rng)
        moves += k
    return time.perf_counter() - t0, moves


def interval(xs: list[float]) -> str:
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return f"{m:,.0f}"
    half = T95.get(len(xs), 2.0) * statistics.stdev(xs) / len(xs) ** 0.5
    return f"{m:,.0f} [{m - half:,.0f}, {m + half:,.0f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    games = {name: compile_game(name) for name in GAMES}
    for g in games.values():
        one_run(g, 20, args.seed)  # warm up
    rates: dict[str, list[tuple[float, float]]] = {name: [] for name in GAMES}
    for _ in range(args.repeat):
        for name, g in games.items():
            secs, moves = one_run(g, args.games, args.seed)
            rates[name].append((args.games / secs, moves / secs))
    print(f"random playouts, {args.games} games x {args.repeat} repeats, seed {args.seed}")
    print(f"{'game':<10} {'games/s (95% CI)':<28} {'moves/s (95% CI)':<30} best games/s")
    for name in GAMES:
        gs = [r[0] for r in rates[name]]
        ms = [r[1] for r in rates[name]]
        print(f"{name:<10} {interval(gs):<28} {interval(ms):<30} {max(gs):,.0f}")


if __name__ == "__main__":
    main()
