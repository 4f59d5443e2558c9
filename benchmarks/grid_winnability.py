"""Thoughtful winnability of Golf and Pyramid over seeded deals, by plain depth-first search.

    python benchmarks/grid_winnability.py golf [--deals N] [--first S] [--nodes K]
    python benchmarks/grid_winnability.py pyramid [--deals N] [--first S] [--nodes K]

"Thoughtful": the search knows the order of the stock, as Solitaire solvers' thoughtful
figures do (the game file's stock is face down; the search reads whole states through
the public API: `new_state`, `legal_moves`, `apply`, `is_terminal`, `results`). Every
state visited is kept, so a state reached again by another order of the same moves is not
searched twice (states are kept by what decides the rest of the game: see `key`); both games always progress (every move takes a card one step further), so
an exhausted search proves the deal lost. Move order, as J. Wolter's Golf solver
(politaire.com/article/golf.html): for Golf, cards from the fullest column first and the
draw last; for Pyramid, kings, then pairs, then the draw. A deal whose search passes
`--nodes` states is undecided.

Printed: won, lost, undecided, and the win rate among decided deals with Wilson's 95%
interval, plus the bounds if every undecided deal were lost or won. `cardgame solve` is
the project's general solver; this script is a yardstick for it on these two games.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from cardgame.interpreter.engine import Game, compile_game
from cardgame.interpreter.intervals import wilson


class Budget(Exception):
    pass


def order(g: Game, name: str, st: Any, moves: list[Any]) -> list[Any]:
    texts = [g.move_text(m) for m in moves]
    if name == "golf":
        def key_golf(i: int) -> tuple[int, int]:
            t = texts[i]
            if t == "draw":
                return (1, 0)
            card = t.split()[1]
            height = next(len(g.zone_cards(st, f"column{k}")) for k in range(1, 8)
                          if g.zone_cards(st, f"column{k}")[-1:] == [card])
            return (0, -height)
        return [moves[i] for i in sorted(range(len(moves)), key=key_golf)]
    rank = {"king": 0, "pair": 1, "draw": 2}
    return [moves[i] for i in sorted(range(len(moves)), key=lambda i: rank[texts[i].split()[0]])]


def key(g: Game, name: str, st: Any) -> Any:
    """What decides the rest of the game: for Golf, the columns' heights, the stock's size
    and the waste's top card (the cards under it never play again); for Pyramid, the
    pyramid's places, the stock's size and the waste (the removed cards never play again)."""
    if name == "golf":
        return (tuple(len(g.zone_cards(st, f"column{k}")) for k in range(1, 8)),
                len(g.zone_cards(st, "stock")), g.zone_cards(st, "waste")[-1])
    places = tuple(z for z in g.zone_names() if z.startswith("pyramid"))
    return (tuple(bool(g.zone_cards(st, z)) for z in places),
            len(g.zone_cards(st, "stock")), tuple(g.zone_cards(st, "waste")))


def solve(g: Game, name: str, seed: int, max_nodes: int) -> tuple[str, int]:
    seen: set[Any] = set()

    def dfs(st: Any) -> bool:
        if g.is_terminal(st):
            return g.results(st) == ["win"]
        k = key(g, name, st)
        if k in seen:
            return False
        seen.add(k)
        if len(seen) > max_nodes:
            raise Budget
        return any(dfs(g.apply(st, m)) for m in order(g, name, st, g.legal_moves(st)))

    try:
        return ("won" if dfs(g.new_state(seed)) else "lost"), len(seen)
    except Budget:
        return "undecided", len(seen)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", choices=["golf", "pyramid"])
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--nodes", type=int, default=200_000)
    args = ap.parse_args()
    sys.setrecursionlimit(10_000)
    g = compile_game(args.game)
    counts = {"won": 0, "lost": 0, "undecided": 0}
    t0 = time.perf_counter()
    for seed in range(args.first, args.first + args.deals):
        verdict, nodes = solve(g, args.game, seed, args.nodes)
        counts[verdict] += 1
        print(f"  deal {seed}: {verdict}, {nodes:,} states", flush=True)
    secs = time.perf_counter() - t0
    won, lost, und = counts["won"], counts["lost"], counts["undecided"]
    decided = won + lost
    print(f"{args.game}: {args.deals} deals (seeds {args.first}-{args.first + args.deals - 1}), "
          f"thoughtful: {won} won, {lost} lost, {und} undecided ({secs:.0f} s)")
    if decided:
        lo, hi = wilson(won, decided)
        print(f"winnability among decided deals: {100 * won / decided:.1f}% "
              f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%); all deals: between "
              f"{100 * won / args.deals:.1f}% and {100 * (won + und) / args.deals:.1f}%")


if __name__ == "__main__":
    main()
