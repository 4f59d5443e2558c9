"""How much of the engine's gap to hand-written Python is its random generator's design?

    python benchmarks/reseed_floor.py [--games N] [--rounds R] [--only TEXT]

The state is a value, so its random generator is too: the slots hold an integer seed, and
each chance event (a shuffle, a `random` pick) seeds a fresh Mersenne Twister from it,
draws, and stores the next seed (codegen/runtime.py `_shuffle`, `_pick`). Seeding one
costs about 3.7 us on this machine (init_by_array over 624 words), and the same seed must
give the same playout, so the fast path cannot skip it. The hand-written versions
(handwritten_*.py) seed one generator per game.

This plays, interleaved in one process, for Arsène (4p, 3p) and Interaction (4p, 3p):
- the hand-written version as it is;
- the same code, with a fresh `random.Random` seeded from the game's generator at each
  chance event (as the engine does; Python's `Random()` costs a little more than the
  engine's direct seeding, so this favours the engine slightly);
- the engine's random playouts (`Game.random_playout`).

It prints games/s (best of the rounds) and engine / hand-written, engine / hand-written
with reseeding, the second with a 95% interval over the rounds' ratios.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import handwritten_arsene  # noqa: E402
import handwritten_interaction  # noqa: E402
from cardgame.interpreter.engine import compile_game  # noqa: E402

_Random = random.Random


class _Reseeding(_Random):
    """A game's generator whose chance events (`shuffle`, `randrange`, `choice`) each draw
    from a fresh generator seeded from it, as the engine's state does."""

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        _Random(self.getrandbits(63)).shuffle(x)

    def randrange(self, start: int, stop: Any = None, step: int = 1) -> int:
        return _Random(self.getrandbits(63)).randrange(start, stop, step)

    def choice(self, seq: Any) -> Any:
        return _Random(self.getrandbits(63)).choice(seq)


def _reseeding(cls: type, seed: int, players: int) -> Any:
    """`cls(seed, players)`, its generator (made by its constructor) a _Reseeding."""
    random.Random = _Reseeding  # type: ignore[misc]  # (the module both games import)
    try:
        return cls(seed, players)
    finally:
        random.Random = _Random  # type: ignore[misc]


CASES: list[tuple[str, str, int, Callable[[int], Any], Callable[[int], Any]]] = [
    ("Arsène 4p", "arsene", 4, lambda s: handwritten_arsene.Game(s, 4),
     lambda s: _reseeding(handwritten_arsene.Game, s, 4)),
    ("Arsène 3p", "arsene", 3, lambda s: handwritten_arsene.Game(s, 3),
     lambda s: _reseeding(handwritten_arsene.Game, s, 3)),
    ("Interaction 4p", "interaction", 4, lambda s: handwritten_interaction.Game(s, 4),
     lambda s: _reseeding(handwritten_interaction.Game, s, 4)),
    ("Interaction 3p", "interaction", 3, lambda s: handwritten_interaction.Game(s, 3),
     lambda s: _reseeding(handwritten_interaction.Game, s, 3)),
]


def _time(play: Callable[[int, random.Random], Any], games: int) -> float:
    rng = random.Random(1)
    start = time.process_time()
    for seed in range(games):
        play(seed, rng)
    return time.process_time() - start


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100, help="Arsène games (Interaction: 10x)")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--only", default="", help="rule sets whose title contains this")
    args = ap.parse_args(argv)
    print(f"{'rule set':16} {'hand':>8} {'hand+reseed':>12} {'engine':>8} {'engine/hand':>12}"
          f" {'engine/(hand+reseed)':>26}")
    for title, name, players, hand, reseeding in CASES:
        if args.only not in title:
            continue
        game = compile_game(name, players)
        n = args.games * (10 if name == "interaction" else 1)

        def plain(seed: int, rng: random.Random, make: Callable[[int], Any] = hand) -> Any:
            return make(seed).play_random(rng)

        def fresh(seed: int, rng: random.Random, make: Callable[[int], Any] = reseeding
                  ) -> Any:
            return make(seed).play_random(rng)

        ways: dict[str, Callable[[int, random.Random], Any]] = {
            "hand": plain, "hand+reseed": fresh, "engine": game.random_playout}
        times: dict[str, list[float]] = {k: [] for k in ways}
        for r in range(args.rounds):
            for k in (list(ways) if r % 2 == 0 else list(ways)[::-1]):
                times[k].append(_time(ways[k], n))
        best = {k: min(v) for k, v in times.items()}
        ratios = [h / e for h, e in zip(times["hand+reseed"], times["engine"], strict=True)]
        mean = statistics.fmean(ratios)
        half = (1.96 * statistics.stdev(ratios) / math.sqrt(len(ratios))
                if len(ratios) > 1 else float("nan"))
        print(f"{title:16} {n / best['hand']:8,.0f} {n / best['hand+reseed']:12,.0f} "
              f"{n / best['engine']:8,.0f} {best['hand'] / best['engine']:12.2f} "
              f"{best['hand+reseed'] / best['engine']:8.2f} (95% CI {mean - half:.2f}-"
              f"{mean + half:.2f})")
    print("games/s: best of the rounds (process time). engine/(hand+reseed) >= 1: the "
          "engine is as fast as the hand-written version would be with the engine's "
          "generator design.")


if __name__ == "__main__":
    main()
