"""Hearts against OpenSpiel's Hearts (issue 16): a differential under random play, and speed.

Plays N random hands of `games/hearts.cardgame` (one hand: `--set target=1`, with
`queen_breaks=true`, OpenSpiel's default `qs_breaks_hearts`) and N random hands of
OpenSpiel's `hearts` (its C++ game through `pyspiel`, default parameters: pass 3, no
points on the first trick, hearts must be broken, the Q♠ breaks them). Compares, each with
a 95% interval:

- legal moves per play decision (the tricks; OpenSpiel's forced lead of the 2♣ is left
  out, since the .cardgame plays it for its holder, and the passes are left out, since
  OpenSpiel passes card by card, 13 x 12 x 11 orders, and the .cardgame passes a set, 286);
- the share of play decisions with one legal move;
- each seat's mean points in the hand (OpenSpiel's return is 26 - points);
- how often someone shoots the moon (Wilson interval);
- the mean points of the Q♠'s taker is 13 + its hearts: left out; the seats' means say it.

Then random hands per second, both ways, in interleaved repeats.

The pass direction differs (the .cardgame's first hand passes left; OpenSpiel draws the
direction by chance, and one hand in four passes nothing). Under random play a pass of
random cards is another random deal, so the distributions compared do not depend on it.

    python benchmarks/openspiel_hearts.py [--hands N] [--seed S] [--repeat R]

Skips, with a message and exit status 0, when `pyspiel` (pip install open_spiel) is
missing.
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
import statistics
import sys
import time
from typing import Any

from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.intervals import wilson

T95 = 1.96


def mean_ci(xs: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal; the samples are large)."""
    m = statistics.fmean(xs)
    return m, T95 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0


def ours(hands: int, seed: int) -> dict[str, Any]:
    g = compile_game("hearts", None, {"target": "1", "queen_breaks": "true"})
    rng = random.Random(seed)
    legal: list[float] = []
    points: list[list[float]] = [[], [], [], []]
    moons = 0
    for i in range(hands):
        st = g.new_state(seed + i)
        while not g.is_terminal(st):
            movers = g.to_move(st)
            ms = g.legal_moves(st, movers[0])
            if g.move_names[ms[0][1]] == "play":
                legal.append(len(ms))
            st = g.apply(st, rng.choice(ms))
        pts = g.variables(st)["points"]
        moons += 26 in pts and pts.count(26) == 3
        for p in range(4):
            points[p].append(pts[p])
    return {"legal": legal, "points": points, "moons": moons, "hands": hands}


def theirs(pyspiel: Any, hands: int, seed: int) -> dict[str, Any]:
    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    legal: list[float] = []
    points: list[list[float]] = [[], [], [], []]
    moons = 0
    for _ in range(hands):
        s = game.new_initial_state()
        decisions: list[int] = []
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
                continue
            la = s.legal_actions()
            decisions.append(len(la))
            s.apply_action(rng.choice(la))
        plays = decisions[-52:]  # the tricks: the passes (if any) come first
        legal += plays[1:]  # the 2♣'s forced lead left out
        pts = [26 - r for r in s.returns()]
        moons += pts.count(26) == 3 and 0 in pts
        for p in range(4):
            points[p].append(pts[p])
    return {"legal": legal, "points": points, "moons": moons, "hands": hands}


def speed(pyspiel: Any, hands: int, seed: int, repeat: int) -> tuple[list[float], list[float]]:
    g = compile_game("hearts", None, {"target": "1", "queen_breaks": "true"})
    game = pyspiel.load_game("hearts")
    a: list[float] = []
    b: list[float] = []
    for r in range(repeat):
        rng = random.Random(seed + r)
        t = time.perf_counter()
        for i in range(hands):
            g.random_playout(seed + 1000 * r + i, rng)
        a.append(hands / (time.perf_counter() - t))
        t = time.perf_counter()
        for _ in range(hands):
            s = game.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    s.apply_action(rng.choice([x for x, _ in s.chance_outcomes()]))
                else:
                    s.apply_action(rng.choice(s.legal_actions()))
        b.append(hands / (time.perf_counter() - t))
    return a, b


def row(name: str, a: tuple[float, float], b: tuple[float, float]) -> str:
    diff = a[0] - b[0]
    half = math.sqrt(a[1] ** 2 + b[1] ** 2)
    ok = "ok" if abs(diff) <= half else "DIFFERS"
    return (f"{name:34} {a[0]:8.3f} ± {a[1]:.3f}   {b[0]:8.3f} ± {b[1]:.3f}   "
            f"{diff:+.3f} ± {half:.3f}  {ok}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--speed-hands", type=int, default=200)
    a = ap.parse_args(argv)
    try:  # imported by name: the type checker need not know the optional package
        pyspiel = importlib.import_module("pyspiel")
    except ImportError:
        print("skipped: pyspiel is not installed (pip install open_spiel) - "
              "nothing to compare against")
        return 0
    x = ours(a.hands, a.seed)
    y = theirs(pyspiel, a.hands, a.seed)
    print(f"Hearts, one hand, {a.hands} random hands each: cardgame vs OpenSpiel "
          "(mean ± 95% half-width; 'ok' when the difference's interval holds 0)")
    print(f"{'':34} {'cardgame':>16}   {'OpenSpiel':>16}   {'difference':>15}")
    print(row("legal moves per play decision", mean_ci(x["legal"]), mean_ci(y["legal"])))
    one = [[1.0 if n == 1 else 0.0 for n in d["legal"]] for d in (x, y)]
    print(row("share of play decisions forced", mean_ci(one[0]), mean_ci(one[1])))
    for p in range(4):
        print(row(f"points of seat {p + 1}", mean_ci(x["points"][p]), mean_ci(y["points"][p])))
    for name, d in (("cardgame", x), ("OpenSpiel", y)):
        lo, hi = wilson(d["moons"], d["hands"])
        print(f"moon shot ({name}): {d['moons']}/{d['hands']} = "
              f"{d['moons'] / d['hands']:.2%} [{lo:.2%}, {hi:.2%}]")
    sa, sb = speed(pyspiel, a.speed_hands, a.seed, a.repeat)
    ma, mb = mean_ci(sa), mean_ci(sb)
    ratio = [p / q for p, q in zip(sa, sb, strict=True)]
    print(f"random hands/s (interleaved, {a.repeat} repeats of {a.speed_hands}): cardgame "
          f"{ma[0]:,.0f} ± {ma[1]:,.0f}, OpenSpiel via pyspiel {mb[0]:,.0f} ± {mb[1]:,.0f}; "
          f"ratio {statistics.fmean(ratio):.2f} (min {min(ratio):.2f}, max {max(ratio):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
