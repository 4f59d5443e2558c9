"""Speed against OpenSpiel: random playouts of a bundled game and of the same game in
OpenSpiel (its C++ implementation driven from Python through `pyspiel`), in one run.

    python benchmarks/openspiel_speed.py [--game oh_hell] [--games N] [--repeat R]
                                         [--players P] [--seed S] [--json]

Three ways, each playing N games per repeat, the repeats interleaved (so a busy moment of
the machine hurts them alike):
- engine: the compiled .cardgame file's fast path, `Game.random_playout` (a whole game of
  uniformly random legal moves, what `cardgame simulate` plays);
- API: the public step loop, `legal_moves` + `apply` on immutable states;
- OpenSpiel: `new_initial_state`, then `legal_actions` / `chance_outcomes` +
  `apply_action` until terminal, from Python (chance by its probabilities, card deals
  drawn by index as they are uniform).

Each figure is games/s, the mean over the R repeats with a 95% CI; the ratios are per
repeat (engine/OpenSpiel, API/OpenSpiel), their mean and CI. The issue's target is an
engine/OpenSpiel ratio of at least 1.0. Skips with a message when `pyspiel` is missing.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from openspiel_adapters import Adapter  # noqa: E402
from openspiel_common import command_line, mean_ci, os_random_game, require_pyspiel  # noqa: E402


def run(adapter: Adapter, players: int, games: int, repeat: int, seed: int) -> dict[str, Any]:
    from cardgame.interpreter.engine import compile_game

    ps = require_pyspiel()
    name, n, settings = adapter.ours(players)
    g = compile_game(name, players=n, settings=settings)
    gname, params = adapter.openspiel(players)
    osg = ps.load_game(gname, params)

    def engine(r: int) -> float:
        rng = random.Random(seed + r)
        t = time.perf_counter()
        for i in range(games):
            g.random_playout(seed + r * games + i, rng)
        return games / (time.perf_counter() - t)

    def api(r: int) -> float:
        rng = random.Random(seed + r)
        t = time.perf_counter()
        for i in range(games):
            st = g.new_state(seed + r * games + i)
            while not g.is_terminal(st):
                moves = g.legal_moves(st)
                st = g.apply(st, moves[rng.randrange(len(moves))])
        return games / (time.perf_counter() - t)

    def openspiel(r: int) -> float:
        rng = random.Random(seed + r)
        t = time.perf_counter()
        for _ in range(games):
            os_random_game(osg, rng)
        return games / (time.perf_counter() - t)

    ways = {"engine": engine, "API": api, "OpenSpiel": openspiel}
    for f in ways.values():  # warm up: compiled code, caches
        f(-1)
    rates: dict[str, list[float]] = {k: [] for k in ways}
    for r in range(repeat):
        order = list(ways.items())
        if r % 2:
            order.reverse()
        for k, f in order:
            rates[k].append(f(r))
    out: dict[str, Any] = {"game": adapter.name, "ours": adapter.game, "players": players,
                           "settings": settings, "openspiel_params": params, "games": games,
                           "repeat": repeat}
    for k, xs in rates.items():
        out[k] = mean_ci(xs)
    for k in ("engine", "API"):
        out[f"{k}/OpenSpiel"] = mean_ci([a / b for a, b in zip(rates[k], rates["OpenSpiel"],
                                                                strict=True)])
    return out


def main(argv: list[str] | None = None) -> int:
    line = command_line(__doc__.split("\n\n")[0], 1000, argv,
                        lambda ap: ap.add_argument("--repeat", type=int, default=5))
    if isinstance(line, int):
        return line
    args, found, names = line
    reports = [run(found[n], args.players, args.games, args.repeat, args.seed) for n in names]
    if args.json:
        print(json.dumps(reports, indent=2))
        return 0
    print(f"random playouts, games/s (mean of {args.repeat} interleaved repeats of "
          f"{args.games} games, 95% CI)")
    print(f"  {'game':<24} {'engine':>16} {'API':>16} {'OpenSpiel':>16} "
          f"{'engine/OS':>14} {'API/OS':>14}")
    for r in reports:
        label = f"{r['game']} " + ",".join(f"{k}={v}" for k, v in r["settings"].items())
        cells = [f"{r[k][0]:>9,.0f} ± {r[k][1]:<4,.0f}" for k in ("engine", "API", "OpenSpiel")]
        ratios = [f"{r[k][0]:>7.2f} ± {r[k][1]:<4.2f}" for k in ("engine/OpenSpiel",
                                                                 "API/OpenSpiel")]
        print(f"  {label:<24} {' '.join(cells)} {' '.join(ratios)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
