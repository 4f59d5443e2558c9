"""Speed against OpenSpiel: random playouts of a bundled game and of the same game in
OpenSpiel (its C++ implementation driven from Python through `pyspiel`), in one run.

    python benchmarks/openspiel_speed.py [--game oh_hell] [--games N] [--repeat R]
                                         [--players P] [--seed S] [--bundled] [--json]

Three ways, each playing N games per repeat, the repeats interleaved (so a busy moment of
the machine hurts them alike):
- engine: the compiled .cardgame file's fast path, `Game.random_playout` (a whole game of
  uniformly random legal moves, what `cardgame simulate` plays);
- API: the public step loop, `legal_moves` + `apply` on immutable states;
- OpenSpiel: `new_initial_state`, then `legal_actions` / `chance_outcomes` +
  `apply_action` until terminal, from Python (chance by its probabilities, card deals
  drawn by index as they are uniform).

With `--bundled`, a fourth way where the adapter plays a variant written to OpenSpiel's
rules (Blackjack, Crazy Eights): the bundled game itself through the fast path.

Each figure is games/s, the mean over the R repeats with a 95% CI, and the best repeat;
the ratios are per repeat (engine/OpenSpiel, API/OpenSpiel), their mean and CI, and the
ratio of the best repeats. The issue's target is an engine/OpenSpiel ratio of at least
1.0. Skips with a message when `pyspiel` is missing.
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


def run(adapter: Adapter, players: int, games: int, repeat: int, seed: int,
        bundled: bool = False) -> dict[str, Any]:
    from cardgame.interpreter.engine import Game, compile_game

    ps = require_pyspiel()
    name, n, settings = adapter.ours(players)
    g = compile_game(name, players=n, settings=settings)
    gname, params = adapter.openspiel(players)
    osg = ps.load_game(gname, params)

    def fast(game: Game) -> Any:
        def engine(r: int) -> float:
            rng = random.Random(seed + r)
            t = time.perf_counter()
            for i in range(games):
                game.random_playout(seed + r * games + i, rng)
            return games / (time.perf_counter() - t)
        return engine

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

    ways = {"engine": fast(g), "API": api, "OpenSpiel": openspiel}
    bundled_as = getattr(adapter, "bundled", None)
    if bundled and bundled_as is not None:
        ways["bundled"] = fast(compile_game(bundled_as[0], players=n, settings=bundled_as[1]))
    for f in ways.values():  # warm up: compiled code, caches
        f(-1)
    rates: dict[str, list[float]] = {k: [] for k in ways}
    for r in range(repeat):
        order = list(ways.items())
        if r % 2:
            order.reverse()
        for k, f in order:
            rates[k].append(f(r))
    out: dict[str, Any] = {"game": adapter.name, "ours": adapter.game, "players": n,
                           "settings": settings, "openspiel_params": params, "games": games,
                           "repeat": repeat}
    for k, xs in rates.items():
        out[k] = mean_ci(xs)
        out[f"{k} best"] = max(xs)
    for k in rates:
        if k != "OpenSpiel":
            out[f"{k}/OpenSpiel"] = mean_ci([a / b for a, b in
                                             zip(rates[k], rates["OpenSpiel"], strict=True)])
            out[f"{k}/OpenSpiel best"] = max(rates[k]) / max(rates["OpenSpiel"])
    return out


def main(argv: list[str] | None = None) -> int:
    def more(ap: Any) -> None:
        ap.add_argument("--repeat", type=int, default=5)
        ap.add_argument("--bundled", action="store_true",
                        help="also time the bundled game where the adapter plays a variant")

    line = command_line(__doc__.split("\n\n")[0], 1000, argv, more)
    if isinstance(line, int):
        return line
    args, found, names = line
    reports = [run(found[n], args.players, args.games, args.repeat, args.seed, args.bundled)
               for n in names]
    if args.json:
        print(json.dumps(reports, indent=2))
        return 0
    print(f"random playouts, games/s (mean of {args.repeat} interleaved repeats of "
          f"{args.games} games, 95% CI; best repeat; ratios to OpenSpiel: mean ± CI, best)")
    for r in reports:
        label = f"{r['game']} ({r['players']}p) " + ",".join(
            f"{k}={v}" for k, v in r["settings"].items())
        print(f"  {label}")
        for k in ("engine", "API", "bundled", "OpenSpiel"):
            if k not in r:
                continue
            cells = f"{r[k][0]:>9,.0f} ± {r[k][1]:<6,.0f} best {r[f'{k} best']:>9,.0f}"
            if k != "OpenSpiel":
                q = r[f"{k}/OpenSpiel"]
                cells += (f"   x OpenSpiel {q[0]:5.2f} ± {q[1]:<4.2f} "
                          f"best {r[f'{k}/OpenSpiel best']:5.2f}")
            print(f"    {k:<10} {cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
