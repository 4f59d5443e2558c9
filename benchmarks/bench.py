"""Engine vs hand-written Python, in one run, on the 12 rule sets of the bundled games.

Plays random games (uniformly random legal moves) of every rule set three ways and
prints one table:

- hand-written: the plain Python version of the same rules in this directory
  (handwritten_*.py: state changed in place, legal moves by simple loops);
- engine: the compiled .cardgame file's fast path, `Game.random_playout`;
- API: the public API loop that bots and search use, `legal_moves` + `apply` on
  immutable states;
- fuzz: `cardgame fuzz` (`interpreter.fuzz.fuzz`: its full playthroughs check every
  property on every step, its fast walks all but illegal-move-accepted on every step,
  the leak for one seat a walk, json and nondeterminism on a sample; docs/fuzz.md)
  over a fixed number of playthroughs (`--fuzz-examples`, or `--fuzz-seconds` each),
  as checked moves/s (its own clock: the search, without compiling).

`engine/hand` is engine games/s over hand-written games/s (>= 1.0: the compiled game is
as fast as hand-written Python), and in brackets the same ratio of moves/s: the two play
games of the same seeds but shuffle their own deals and choose their own random moves, so
the lengths of a few long games (Besieged Castle's are either short or cut at 1000 moves)
can differ by chance, and moves/s is the steadier figure then. `API/engine` is the API
loop over the fast path (the same deals and the same random stream: the same games, as
long as both list the legal moves alike).

    python benchmarks/bench.py [--games N] [--seed S] [--repeat R] [--only TEXT]
                               [--fuzz-examples K | --fuzz-seconds T] [--json]

Every way plays the games of seeds S, S+1, ...; the random moves come from
random.Random(S), one stream per way and repeat. Each figure is the best of R repeats (the least disturbed by the rest of the machine); the
repeats of the three ways are interleaved, so a busy moment hurts them alike. Calculation,
Chains, Interaction and Arsène play N games, Besieged Castle N/5 (at least 20). (Arsène
played N/5 until the eleventh session: 60 games, whose lengths differ by chance between
the two ways, 355 moves a game in the engine's against 341 on seeds 1..60, biased games/s
by 4%; over 3,000 games they agree, 347.1 +- 3.5 against 346.0 +- 3.6. The record runs
use `--games 5000`.)
The fuzz search runs once per repeat too (best of R); `--fuzz-examples 0` leaves it out.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import handwritten_arsene  # noqa: E402
import handwritten_besieged_castle  # noqa: E402
import handwritten_calculation  # noqa: E402
import handwritten_chains  # noqa: E402
import handwritten_interaction  # noqa: E402
from cardgame.interpreter.engine import (
    Game,  # noqa: E402
    compile_game,  # noqa: E402
)

_clock = time.perf_counter  # --clock cpu: time.process_time


@dataclass(frozen=True)
class Case:
    title: str
    game: str  # a bundled game's name
    players: int | None
    settings: dict[str, str] | None
    make: Callable[[int], Any]  # seed -> a hand-written game with play_random(rng)
    long: bool = False  # long games: play N/5 of them

    def compile(self) -> Game:
        return compile_game(self.game, self.players, self.settings)


def _arsene(players: int, advanced: bool) -> Case:
    return Case(f"Arsène {players}p{' advanced' if advanced else ''}", "arsene", players,
                {"advanced": "true" if advanced else "false"},
                lambda seed: handwritten_arsene.Game(seed, players, advanced))


CASES: list[Case] = [
    Case("Calculation", "calculation", None, None, handwritten_calculation.Game),
    Case("Besieged Castle", "besieged-castle", None, None,
         lambda seed: handwritten_besieged_castle.Game(seed, spice=0), long=True),
    Case("Besieged Castle, Spice 1", "besieged-castle-spice-1", None, None,
         lambda seed: handwritten_besieged_castle.Game(seed, spice=1), long=True),
    Case("Besieged Castle, Spice 2", "besieged-castle-spice-2", None, None,
         lambda seed: handwritten_besieged_castle.Game(seed, spice=2), long=True),
    Case("Chains, 5 slots", "chains", None, None,
         lambda seed: handwritten_chains.Game(seed, slots=5)),
    Case("Chains advanced, 4 slots", "chains-advanced", None, None,
         lambda seed: handwritten_chains.Game(seed, slots=4)),
    Case("Interaction 3p", "interaction", 3, None,
         lambda seed: handwritten_interaction.Game(seed, 3)),
    Case("Interaction 4p", "interaction", 4, None,
         lambda seed: handwritten_interaction.Game(seed, 4)),
    _arsene(4, False),
    _arsene(4, True),
    _arsene(3, False),
    _arsene(3, True),
]


def run_engine(game: Game, games: int, seed: int) -> tuple[float, int]:
    """The fast path: random playouts on a mutable state."""
    rng = random.Random(seed)
    moves = 0
    t0 = _clock()
    for i in range(games):
        _, n = game.random_playout(seed + i, rng)
        moves += n
    return _clock() - t0, moves


def run_api(game: Game, games: int, seed: int) -> tuple[float, int]:
    """The public API: legal_moves + apply on immutable states."""
    rng = random.Random(seed)
    # the index of a random legal move drawn as the fast path draws it (`_play_randomly`
    # writes `_randbelow`'s getrandbits loop out: the same draws as randrange(k) for
    # k >= 1, without a call per move), so that API/engine measures the API, not two
    # ways of calling the random generator
    getrandbits = rng.getrandbits
    moves = 0
    t0 = _clock()
    for i in range(games):
        state = game.new_state(seed + i)
        legal = game.legal_moves(state)
        while legal:
            k = len(legal)
            bits = k.bit_length()
            j = getrandbits(bits)
            while j >= k:
                j = getrandbits(bits)
            state = game.apply(state, legal[j])
            legal = game.legal_moves(state)
            moves += 1
    return _clock() - t0, moves


def run_handwritten(make: Callable[[int], Any], games: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    moves = 0
    t0 = _clock()
    for i in range(games):
        moves += make(seed + i).play_random(rng)
    return _clock() - t0, moves


def run_fuzz(game: Game, examples: int | None, seconds: float | None,
             seed: int) -> tuple[float, int]:
    """`cardgame fuzz`'s search: (its seconds, the moves it checked: its full
    playthroughs' and its fast walks')."""
    from cardgame.interpreter.fuzz import fuzz

    report = fuzz(game, seed=seed, examples=examples, seconds=seconds, database=None,
                  write_replay=False)
    if not report.ok:  # a bundled game has no rule hole: the figure would mean nothing
        raise SystemExit(f"fuzz found a failure in {game.name}: {report.failure}")
    return report.seconds, report.coverage.moves + report.coverage.fast_moves


def best(results: list[tuple[float, int]]) -> tuple[float, int]:
    return min(results, key=lambda r: r[0] / max(r[1], 1))


def measure(case: Case, games: int, seed: int, repeat: int, fuzz_examples: int = 0,
            fuzz_seconds: float | None = None) -> dict[str, Any]:
    """One row of the table; the fuzz figures only with fuzz_examples or fuzz_seconds."""
    game = case.compile()  # compile outside the timing
    runs: dict[str, list[tuple[float, int]]] = {"hand": [], "engine": [], "api": [],
                                                "fuzz": []}
    fuzzing = fuzz_seconds is not None or fuzz_examples > 0
    for _ in range(repeat):
        runs["hand"].append(run_handwritten(case.make, games, seed))
        runs["engine"].append(run_engine(game, games, seed))
        runs["api"].append(run_api(game, games, seed))
        if fuzzing:
            runs["fuzz"].append(run_fuzz(game, None if fuzz_seconds else fuzz_examples,
                                         fuzz_seconds, seed))
    h_t, h_m = best(runs["hand"])
    e_t, e_m = best(runs["engine"])
    a_t, a_m = best(runs["api"])
    fuzz_row: dict[str, Any] = {"fuzz_moves_per_s": None, "fuzz_moves": None}
    if fuzzing:
        f_t, f_m = best(runs["fuzz"])
        fuzz_row = {"fuzz_moves_per_s": f_m / f_t if f_t > 0 else 0.0, "fuzz_moves": f_m,
                    "fuzz_seconds": f_t}
    return {**fuzz_row,
        "game": case.title, "games": games,
        "hand_games_per_s": games / h_t, "hand_moves_per_s": h_m / h_t,
        "engine_games_per_s": games / e_t, "engine_moves_per_s": e_m / e_t,
        "api_games_per_s": games / a_t, "api_moves_per_s": a_m / a_t,
        "hand_avg_moves": h_m / games, "engine_avg_moves": e_m / games,
        "api_avg_moves": a_m / games,
        "ratio_games_per_s": h_t / e_t,
        "ratio_moves_per_s": (e_m / e_t) / (h_m / h_t),
        "api_ratio_games_per_s": e_t / a_t,
        "api_ratio_moves_per_s": (a_m / a_t) / (e_m / e_t),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="",
                    help="only the rule sets whose title contains this text (any case)")
    fz = ap.add_mutually_exclusive_group()
    fz.add_argument("--fuzz-examples", type=int, default=10, metavar="K",
                    help="fuzz playthroughs per rule set and repeat (default 10; 0: no fuzz)")
    fz.add_argument("--fuzz-seconds", type=float, default=None, metavar="T",
                    help="fuzz for T seconds per rule set and repeat instead")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="cpu: time the ways by this process's CPU time (steadier when other "
                         "processes share the machine; the fuzz figure keeps its own clock)")
    args = ap.parse_args(argv)
    if args.clock == "cpu":
        global _clock
        _clock = time.process_time
    cases = [c for c in CASES if args.only.lower() in c.title.lower()]
    if not cases:
        ap.error(f"no rule set matches {args.only!r}")
    rows = []
    for case in cases:
        games = max(args.games // 5, 20) if case.long else args.games
        rows.append(measure(case, games, args.seed, args.repeat, args.fuzz_examples,
                            args.fuzz_seconds))
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    head = (f"{'rule set':<26} {'games':>5} {'moves/game':>11} {'hand games/s':>12} "
            f"{'engine games/s':>14} {'engine/hand':>11} {'(moves/s)':>9} {'API games/s':>11} "
            f"{'API/engine':>10} {'fuzz moves/s':>12}")
    print(head)
    print("-" * len(head))
    for r in rows:
        lengths = f"{r['hand_avg_moves']:.0f}/{r['engine_avg_moves']:.0f}"
        print(f"{r['game']:<26} {r['games']:>5} {lengths:>11} "
              f"{r['hand_games_per_s']:>12,.0f} {r['engine_games_per_s']:>14,.0f} "
              f"{r['ratio_games_per_s']:>11.2f} {r['ratio_moves_per_s']:>9.2f} "
              f"{r['api_games_per_s']:>11,.0f} "
              f"{r['api_ratio_games_per_s']:>10.2f} "
              + (f"{r['fuzz_moves_per_s']:>12,.0f}" if r["fuzz_moves_per_s"] is not None
                 else f"{'-':>12}"))
    print(f"Best of {args.repeat}. engine/hand >= 1.0: the engine is as fast as hand-written "
          "Python.\nmoves/game: hand-written/engine (their own deals and random moves); where "
          "they differ,\nthe ratio of moves/s (in brackets) is the steadier. fuzz moves/s: moves checked by "
          "`cardgame fuzz`\n(its full playthroughs check every property on every step; its fast walks, 80% "
          "of\nthe time, all but illegal-move-accepted on every step, the leak for one seat a "
          "walk,\njson and nondeterminism on a sample: see docs/fuzz.md), best of the repeats.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
