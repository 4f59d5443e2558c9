"""Random playouts of the games that choose sets of cards: Scopa and Hearts (issue 16).

For each configuration, plays uniformly random games with the engine's fast path
(`Game.random_playout`) and with the public API loop (`legal_moves` + `apply` on
immutable states), in R interleaved repeats, and prints games/s and moves/s as the mean
over the repeats with a 95% interval (Student t over the repeats; the machine's load
varies, so quote ratios measured in one run).

    python benchmarks/sets_games.py [--games N] [--repeat R] [--seed S] [--json]

Configurations: Scopa to 11 (a whole game), Scopa to 1 (one deal), Hearts to 100 (a
whole game), Hearts to 1 (one hand: the issue's "Hearts, one hand" figure).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from typing import Any

from cardgame.interpreter.engine import compile_game

CONFIGS = [
    ("scopa", "scopa", {}),
    ("scopa, one deal", "scopa", {"target": "1"}),
    ("hearts", "hearts", {}),
    ("hearts, one hand", "hearts", {"target": "1"}),
]
T95 = {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78, 6: 2.57, 7: 2.45, 8: 2.36, 9: 2.31, 10: 2.26}


def interval(xs: list[float]) -> tuple[float, float, float]:
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, m, m
    h = T95.get(len(xs), 1.96) * statistics.stdev(xs) / math.sqrt(len(xs))
    return m, m - h, m + h


def fast(g: Any, games: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    moves = 0
    t = time.perf_counter()
    for i in range(games):
        _, n = g.random_playout(seed + i, rng)
        moves += n
    return time.perf_counter() - t, moves


def api(g: Any, games: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    moves = 0
    t = time.perf_counter()
    for i in range(games):
        st = g.new_state(seed + i)
        while not g.is_terminal(st):
            movers = g.to_move(st)
            st = g.apply(st, rng.choice(g.legal_moves(st, movers[0])))
            moves += 1
    return time.perf_counter() - t, moves


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    compiled = {label: compile_game(name, None, opts) for label, name, opts in CONFIGS}
    runs: dict[tuple[str, str], list[tuple[float, int, int]]] = {}
    for r in range(a.repeat):  # interleaved: a busy moment hurts every configuration
        for label, _, _ in CONFIGS:
            g = compiled[label]
            n = a.games * (5 if "one" in label else 1)
            for way, f in (("fast", fast), ("api", api)):
                runs.setdefault((label, way), []).append(f(g, n, a.seed + 1000 * r) + (n,))
    rows: list[dict[str, Any]] = []
    for (label, way), rs in runs.items():
        gps = interval([n / t for t, _, n in rs])
        mps = interval([m / t for t, m, _ in rs])
        rows.append({"config": label, "way": way, "games_per_s": gps, "moves_per_s": mps,
                     "moves_per_game": statistics.fmean(m / n for _, m, n in rs)})
    if a.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'configuration':18} {'way':5} {'games/s [95% CI]':>28} {'moves/s [95% CI]':>30}"
          f" {'moves/game':>10}")
    for row in rows:
        g, glo, ghi = row["games_per_s"]
        m, mlo, mhi = row["moves_per_s"]
        print(f"{row['config']:18} {row['way']:5} {g:9.1f} [{glo:7.1f}, {ghi:7.1f}]"
              f" {m:10,.0f} [{mlo:8,.0f}, {mhi:8,.0f}] {row['moves_per_game']:10.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
