"""The solver on N seeded Besieged Castle deals, compared with Freecell Solver deal by deal.

    python benchmarks/solve_castle.py [--deals N] [--first S] [--budget SECONDS]
                                      [--nodes N] [--fc-timeout SECONDS] [--no-symmetry]
                                      [--no-auto] [--fc-cache FILE] [--game NAME]

Solves the deals of seeds S..S+N-1 (default 1..50) with `cardgame solve`'s search (the
same bounds per deal) and prints the share decided, the share solvable among decided
deals (with its 95% Wilson interval), the median and mean time per deal, and nodes/s.
Every solution is replayed through the engine and must end in a win.

When `fc-solve` (Debian's `freecell-solver-bin`) is on PATH, each deal is also written
in its board format (one column per line, bottom card first, under
`Foundations: H-A C-A D-A S-A`) and solved with `fc-solve -g beleaguered_castle -to 0AB`
(a run longer than --fc-timeout counts as undecided); the two verdicts must agree on
every deal that both decide, and disagreements are listed. Without `fc-solve` the
comparison is skipped with a message. `--fc-cache FILE` keeps fc-solve's verdicts in a
JSON file (seed -> verdict) and reuses them on the next run.

The table at the end also says which bound stopped the undecided searches, and the
solver's positions per second. `--no-auto` ignores the game's `auto move` declarations
(no dominance), to measure what they bring.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from cardgame.interpreter.engine import Game, State, compile_game
from cardgame.interpreter.solve.command import wilson
from cardgame.interpreter.solve.search import Bounds, Result, solve
from cardgame.interpreter.solve.symmetry import key_for

SUIT_LETTER = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def board(game: Game, state: State) -> str:
    """The deal in Freecell Solver's format."""
    lines = ["Foundations: H-A C-A D-A S-A"]
    for name in game.zone_names("column"):
        lines.append(" ".join(("T" if c[:-1] == "10" else c[:-1]) + SUIT_LETTER[c[-1]]
                              for c in game.zone_cards(state, name)))
    return "\n".join(lines) + "\n"


def fc_verdict(text: str, timeout: float) -> str:
    try:
        out = subprocess.run(["fc-solve", "-g", "beleaguered_castle", "-to", "0AB", "-"],
                             input=text, capture_output=True, text=True, timeout=timeout
                             ).stdout
    except subprocess.TimeoutExpired:
        return "undecided"
    if "This game is solveable" in out:
        return "solved"
    if "I could not solve this game" in out:
        return "unsolvable"
    return "undecided"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--budget", type=float, default=5.0, help="seconds per deal")
    ap.add_argument("--nodes", type=int, default=500_000, help="nodes per deal")
    ap.add_argument("--fc-timeout", type=float, default=30.0)
    ap.add_argument("--no-symmetry", action="store_true")
    ap.add_argument("--no-auto", action="store_true", help="ignore the game's auto moves")
    ap.add_argument("--fc-cache", help="a JSON file of fc-solve's verdicts, read and updated")
    ap.add_argument("--game", default="besieged-castle")
    ap.add_argument("--cpu", action="store_true",
                    help="the budget in CPU seconds of this process, not wall-clock seconds "
                    "(the same budget on a machine shared with other work)")
    ap.add_argument("--fc-cached-only", action="store_true",
                    help="never run fc-solve: compare with the verdicts in --fc-cache only")
    ap.add_argument("--order", default="mixed", choices=["mixed", "best", "score", "depth"],
                    help="the search order (solve's `order`)")
    ap.add_argument("--probe", type=int, default=Bounds().probe,
                    help="positions of the depth-first probe of the order mixed")
    ap.add_argument("--restarts", type=int, default=Bounds().restarts,
                    help="restarts of the probe when its positions are spent (Luby schedule)")
    ap.add_argument("--seeds", help="solve these seeds only (comma-separated), not a range")
    ap.add_argument("--entries", type=int, default=Bounds().entries,
                    help="the transposition table's bound (memory)")
    ap.add_argument("--jobs", type=int, default=1, choices=[1, 2],
                    help="deals solved at once, in as many processes")
    args = ap.parse_args()

    game = compile_game(args.game, 1, {})
    bounds = Bounds(nodes=args.nodes, seconds=args.budget, cpu=args.cpu, probe=args.probe,
                    entries=args.entries, restarts=args.restarts)
    setting = (args.game, not args.no_symmetry, bounds, args.order, not args.no_auto)
    fc = None if args.fc_cached_only else shutil.which("fc-solve")
    if fc is None and not args.fc_cached_only:
        print("fc-solve is not on PATH (Debian: apt-get install freecell-solver-bin): "
              "the comparison with Freecell Solver is skipped")
    cache: dict[str, str] = {}
    if args.fc_cache and Path(args.fc_cache).exists():
        cache = json.loads(Path(args.fc_cache).read_text(encoding="utf-8"))
    ours: dict[int, str] = {}
    theirs: dict[int, str] = {}
    stopped: Counter[str] = Counter()
    times: list[float] = []
    walls: list[float] = []
    nodes = 0
    bad_replays = []
    peak_kb = 0
    seeds: list[int] = (list(range(args.first, args.first + args.deals)) if not args.seeds
                        else [int(x) for x in args.seeds.split(",")])
    pool = multiprocessing.Pool(args.jobs, _init, (setting,)) if args.jobs > 1 else None
    if pool is None:
        _init(setting)
    results = pool.imap(_deal, seeds) if pool is not None else map(_deal, seeds)
    for seed, r, wall, replays, kb in results:
        start = game.new_state(seed)
        walls.append(wall)
        peak_kb = max(peak_kb, kb)
        ours[seed] = r.verdict
        stopped[r.stopped_by] += r.verdict == "undecided"
        times.append(r.seconds)
        nodes += r.nodes
        if r.verdict == "solved" and not replays:
            bad_replays.append(seed)
        line = (f"seed {seed}: {r.verdict} ({r.nodes} nodes"
                + (f", {len(r.moves)} moves" if r.moves else "")
                + (f", stopped by {r.stopped_by}" if r.stopped_by else "")
                + f", {r.seconds:.2f} s"
                + (f" CPU, {walls[-1]:.2f} s wall)" if args.cpu else ")"))
        if str(seed) in cache:
            theirs[seed] = cache[str(seed)]
            line += f"; fc-solve: {theirs[seed]} (cached)"
        elif fc is not None:
            t0 = time.perf_counter()
            theirs[seed] = cache[str(seed)] = fc_verdict(board(game, start), args.fc_timeout)
            line += f"; fc-solve: {theirs[seed]} ({time.perf_counter() - t0:.2f} s)"
        print(line, flush=True)
    if args.fc_cache and fc is not None:
        Path(args.fc_cache).write_text(json.dumps(cache), encoding="utf-8")
    elif args.fc_cache and Path(args.fc_cache).exists():
        # --fc-cached-only: the cache may have been written while this run went on
        cache = json.loads(Path(args.fc_cache).read_text(encoding="utf-8"))
        theirs = {s: cache[str(s)] for s in ours if str(s) in cache}

    n = len(seeds)
    solved = sum(v == "solved" for v in ours.values())
    decided = sum(v != "undecided" for v in ours.values())
    lo, hi = wilson(solved, decided)
    which = (f"seeds {args.first}-{args.first + n - 1}" if not args.seeds
             else f"seeds {args.seeds}")
    print(f"\n{n} deals ({which}), budget {args.budget} s "
          f"{'CPU ' if args.cpu else ''}"
          f"and {args.nodes} nodes per deal, symmetry {'off' if args.no_symmetry else 'on'}")
    print(f"decided: {decided}/{n} = {100 * decided / n:.1f}% "
          f"(95% CI {100 * wilson(decided, n)[0]:.1f}-{100 * wilson(decided, n)[1]:.1f}%)")
    if decided:
        print(f"solvable among decided: {solved}/{decided} = {100 * solved / decided:.1f}% "
              f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%)")
    print(f"time per deal{' (CPU)' if args.cpu else ''}: median "
          f"{statistics.median(times):.2f} s, mean {statistics.mean(times):.2f} s; "
          f"{nodes / sum(times):.0f} nodes/s")
    if args.cpu:
        print(f"wall-clock time per deal: median {statistics.median(walls):.2f} s, "
              f"mean {statistics.mean(walls):.2f} s")
    print(f"undecided, stopped by: {dict((k, v) for k, v in stopped.items() if v) or 'none'}")
    print(f"order {args.order}, probe {args.probe} positions, {args.restarts} restarts, table bound {args.entries} "
          f"entries, {args.jobs} process(es); peak memory of a solving process "
          f"{peak_kb / 1024:.0f} MB")
    print(f"solutions replayed to a win: {solved - len(bad_replays)}/{solved}"
          + (f" (FAILED: seeds {bad_replays})" if bad_replays else ""))
    if theirs:
        both = [s for s in theirs if ours[s] != "undecided" and theirs[s] != "undecided"]
        disagree = [s for s in both if ours[s] != theirs[s]]
        fc_decided = sum(v != "undecided" for v in theirs.values())
        fc_solved = sum(v == "solved" for v in theirs.values())
        print(f"fc-solve: decided {fc_decided}/{len(theirs)}, solvable {fc_solved}; both decided "
              f"{len(both)}; verdicts agree on {len(both) - len(disagree)}"
              + (f"; DISAGREE on seeds {disagree}" if disagree else ""))
        only_fc = [s for s in theirs if ours[s] == "undecided" and theirs[s] != "undecided"]
        print(f"decided by fc-solve only: {len(only_fc)}")
        if disagree:
            return 1
    return 1 if bad_replays else 0


_SETTING: dict[str, Any] = {}


def _init(setting: tuple[Any, ...]) -> None:
    """A solving process: the game compiled once, with its key."""
    name, symmetry, bounds, order, auto = setting
    game = compile_game(name, 1, {})
    key, _ = key_for(game, symmetry)
    _SETTING.update(game=game, key=key, bounds=bounds, order=order, auto=auto)


def _deal(seed: int) -> tuple[int, Result, float, bool, int]:
    """One deal: its result, the wall-clock time, whether its solution replays to a win
    through `Game.apply`, and this process's peak memory (kB)."""
    g = _SETTING
    game = g["game"]
    start = game.new_state(seed)
    w0 = time.perf_counter()
    r = solve(game, start, g["bounds"], g["key"], order=g["order"], auto=g["auto"])
    wall = time.perf_counter() - w0
    replays = False
    if r.verdict == "solved":
        st = start
        for m in r.moves:
            st = game.apply(st, m)
        replays = game.results(st) == ["win"]
    return seed, r, wall, replays, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


if __name__ == "__main__":
    sys.exit(main())
