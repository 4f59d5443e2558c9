"""The timing shared by the OpenSpiel comparisons of Blackjack and Crazy Eights: random
playouts of OpenSpiel's game and of ours, best of several rounds, in one run."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from cardgame.interpreter.engine import Game


def speed(game: Any, ours: dict[str, Game], n: int, rounds: int, api: bool = True) -> str:
    """Random playouts of OpenSpiel's game (C++ through pyspiel, driven from Python) and
    of ours (the fast path, and with `api` the step API), best of `rounds`, in one run."""
    def spiel(seed: int) -> float:
        rng = random.Random(seed)
        t = time.perf_counter()
        for _ in range(n):
            st = game.new_initial_state()
            while not st.is_terminal():
                st.apply_action(rng.choice(st.legal_actions()))
            st.returns()
        return n / (time.perf_counter() - t)

    def fast(g: Game) -> Callable[[int], float]:
        def run(seed: int) -> float:
            rng = random.Random(seed)
            t = time.perf_counter()
            for k in range(n):
                g.random_playout(seed + k, rng)
            return n / (time.perf_counter() - t)
        return run

    def step_api(g: Game) -> Callable[[int], float]:
        def run(seed: int) -> float:
            rng = random.Random(seed)
            t = time.perf_counter()
            for k in range(n):
                st = g.new_state(seed + k)
                while not g.is_terminal(st):
                    st = g.apply(st, rng.choice(g.legal_moves(st)))
                g.results(st)
            return n / (time.perf_counter() - t)
        return run

    ways: list[tuple[str, Callable[[int], float]]] = [("OpenSpiel (pyspiel, C++)", spiel)]
    for label, g in ours.items():
        ways += [(f"{label}: fast path", fast(g))]
        if api:
            ways += [(f"{label}: step API", step_api(g))]
    best = {name: 0.0 for name, _ in ways}
    for r in range(rounds):
        for name, fn in ways:
            best[name] = max(best[name], fn(1000 * r + 1))
    base = best[ways[0][0]]
    return "\n".join(f"  {name:30}{v:10,.0f} games/s  ({v / base:.2f}x OpenSpiel)"
                     for name, v in best.items())
