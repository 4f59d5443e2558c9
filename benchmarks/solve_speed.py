"""Solver speed: positions (nodes) per second for each bundled game.

    python benchmarks/solve_speed.py [--seeds N] [--budget SECONDS] [--games a,b,...]

For each one-player game (`--thoughtful` where it hides cards, as `cardgame solve` does):
`cardgame solve`'s search (its order, symmetry and auto moves on) on the deals of seeds
1..N, each stopped by the budget (CPU seconds of this process) or a verdict, and the
positions entered per CPU second over all of them. For a game of several players the solver does not apply; the script
reports instead the positions per second of the engine's search API
(`engine.SearchSpace`: `step` and `settle`, what any game-tree search pays per node) on
random playouts, so the figures are comparable across games.

Every rate is per CPU second of this process, so other work on the machine lowers it
less; quote the load average printed at the start all the same.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

from cardgame.interpreter.engine import SearchSpace, compile_game
from cardgame.interpreter.solve.command import ORDER, hidden_cards
from cardgame.interpreter.solve.search import Bounds, solve
from cardgame.interpreter.solve.symmetry import key_for

GAMES = ["besieged-castle", "besieged-castle-spice-1", "besieged-castle-spice-2",
         "chains", "chains-advanced", "calculation", "arsene", "interaction",
         # the classics (issue 16): every bundled game
         "klondike", "freecell", "pyramid", "golf", "blackjack", "hearts", "scopa", "oh-hell",
         "crazy-eights"]


def solver_rate(name: str, seeds: int, budget: float) -> str:
    game = compile_game(name, 1, {})
    key, arrays = key_for(game, True)
    nodes = 0
    seconds = 0.0
    verdicts: dict[str, int] = {}
    hidden = False
    for seed in range(1, seeds + 1):
        start = game.new_state(seed)
        hidden = hidden or bool(hidden_cards(game, start))
        r = solve(game, start, Bounds(nodes=10**9, seconds=budget, cpu=True), key, order=ORDER)
        nodes += r.nodes
        seconds += r.seconds
        verdicts[r.verdict] = verdicts.get(r.verdict, 0) + 1
    how = "solver, --thoughtful" if hidden else "solver"
    return (f"{name:26} {how:22} {nodes / seconds:8.0f} nodes/s  ({nodes} nodes in "
            f"{seconds:.1f} s; {seeds} deals: {verdicts}; symmetric arrays {arrays or 'none'})")


def api_rate(name: str, seconds: float) -> str:
    game = compile_game(name, None, {})
    space = SearchSpace(game)
    rng = random.Random(1)
    n = 0
    t0 = time.process_time()
    seed = 0
    while time.process_time() - t0 < seconds:
        seed += 1
        node = space.node(game.new_state(seed))
        while node[1]:
            node = space.settle(space.step(node, rng.choice(node[1])))
            n += 1
    dt = time.process_time() - t0
    return (f"{name:26} {'search API, playouts':22} {n / dt:8.0f} nodes/s  ({n} positions "
            f"in {dt:.1f} s, {seed} playouts; {game.players} players: solve does not apply)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--budget", type=float, default=2.0, help="seconds per deal")
    ap.add_argument("--games", default=",".join(GAMES))
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
          f"{args.seeds} deals per game, {args.budget} s each at most")
    for name in args.games.split(","):
        game = compile_game(name, None, {})
        if game.players == 1:
            print(solver_rate(name, args.seeds, args.budget), flush=True)
        else:
            print(api_rate(name, args.seeds * args.budget), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
