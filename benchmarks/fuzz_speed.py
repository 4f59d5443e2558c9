"""`cardgame fuzz` speed: checked moves per second on every bundled game.

    python benchmarks/fuzz_speed.py [--seconds T | --examples K] [--repeat R]
                                    [--only TEXT] [--clock cpu|wall] [--profile GAME]
                                    [--no-fast]

For every bundled game (the seed rule sets and the classics), at its default player
count, runs `interpreter.fuzz.fuzz(game, seconds=T, seed=1, database=None)` (T = 5 s by
default; or `examples=K` playthroughs) in a fresh process and prints, per game:

- `fast`: the moves per second of the fast checked walks (`fuzz/fast.py`: the engine's
  fast path, conservation, invariants, dead end, rule errors, termination, loops and the
  move played checked on every step);
- `full`: the moves per second of the full checked playthroughs (every property on every
  step, every legal move of every state applied and checked, the leak check's shadow
  worlds...), the shrinking included when something is found;
- `all`: the run's checked moves per second, both kinds together: `cardgame fuzz`'s own
  figure (with a time budget the fast walks get 80% of the search's time; with a budget
  of games, 4 walks follow each full playthrough).

Each figure is the best of R repeats (the games interleaved within a repeat), CPU time
by default. With `--no-fast` the fast walks are off (the search as it was before them).
With `--profile GAME` it profiles one run of that game instead and prints the top of the
profile (cumulative and own time).

With `--compare DIR` it also runs the same search from another checkout (DIR is the
checkout, e.g. /work/main, or a directory holding its `cardgame/` package), interleaved
with this one, and prints both `all` figures and their ratio. `--only TEXT` keeps the
games whose names contain TEXT (`--only castle`).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import subprocess
import sys
from pathlib import Path

GAMES = ["calculation", "besieged-castle", "besieged-castle-spice-1",
         "besieged-castle-spice-2", "chains", "chains-advanced", "interaction", "arsene",
         "blackjack", "crazy-eights", "freecell", "golf", "hearts", "klondike", "oh-hell",
         "pyramid", "scopa"]

ONE = r"""
import sys, time, json
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.fuzz import fuzz
g = compile_game({game!r}, None, {{}})
clock = time.process_time if {cpu!r} else time.perf_counter
t0 = clock()
kw = {{}} if {fast!r} else {{"fast_walks": False}}
r = fuzz(g, examples={examples!r}, seconds={seconds!r}, seed=1, database=None,
         write_replay=False, **kw)
t = clock() - t0
c = r.coverage
fast_t = getattr(c, "fast_cpu" if {cpu!r} else "fast_seconds", 0.0)
print(json.dumps([c.moves, t, c.games, r.ok, getattr(c, "fast_moves", 0), fast_t,
                  getattr(c, "fast_games", 0)]))
"""


def one(root: Path | None, game: str, examples: int | None, seconds: float | None,
        cpu: bool, fast: bool = True) -> tuple[int, float, int, bool, int, float, int]:
    """One fuzz run in a fresh process: the full playthroughs' moves, the run's time,
    games, ok, and the fast walks' moves, time and games. `root`: None for the
    installed package, or a directory holding another `cardgame/` package (imported
    instead, with this interpreter's other packages)."""
    code = ONE.format(game=game, examples=examples, seconds=seconds, cpu=cpu,
                      fast=fast or root is not None)  # (another version: its default)
    cmd = [sys.executable, "-c", code]
    env = dict(os.environ)
    if root is not None:  # no site: the editable install's finder would win
        site = [p for p in sys.path if p.endswith("site-packages")]
        env["PYTHONPATH"] = os.pathsep.join([str(root)] + site)
        cmd = [sys.executable, "-S", "-c", code]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd="/tmp",
                         env=env)
    import json

    got = json.loads(out.stdout.strip().splitlines()[-1])
    got += [0, 0.0, 0][len(got) - 4:]  # (a version before the fast walks: none)
    moves, t, games, ok, fmoves, ft, fgames = got
    return moves, t, games, ok, fmoves, ft, fgames


def package_root(d: str) -> Path:
    """A directory holding a `cardgame/` package: `d` itself, or, for a checkout (its
    `interpreter/`, `grammar/`, `games/`, `repl/` at the top, as /work/main has them), a
    temporary directory whose `cardgame/` links to them."""
    root = Path(d).resolve()
    if (root / "cardgame").is_dir() or not (root / "interpreter").is_dir():
        return root
    import atexit
    import shutil
    import tempfile

    tmp = Path(tempfile.mkdtemp(prefix="fuzz-speed-"))
    atexit.register(shutil.rmtree, tmp, True)
    (tmp / "cardgame").mkdir()
    for part in ("interpreter", "grammar", "games", "repl"):
        if (root / part).exists():
            (tmp / "cardgame" / part).symlink_to(root / part)
    return tmp


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", type=int, default=None)
    ap.add_argument("--seconds", type=float, default=None)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--only", default="")
    ap.add_argument("--clock", choices=["cpu", "wall"], default="cpu")
    ap.add_argument("--compare", default=None,
                    help="another version: a checkout (e.g. /work/main) or a directory "
                         "holding its cardgame/ package (interpreter, grammar, games: e.g. "
                         "`git archive main interpreter grammar games repl | tar -x -C "
                         "DIR/cardgame`)")
    ap.add_argument("--this", default=None,
                    help="measure this directory's cardgame/ package as `now` (a snapshot, "
                         "so that editing the checkout does not disturb a long run)")
    ap.add_argument("--profile", default=None)
    ap.add_argument("--no-fast", action="store_true", help="the fast walks off")
    a = ap.parse_args()
    if a.examples is None and a.seconds is None:
        a.seconds = 5.0
    if a.profile:
        from cardgame.interpreter.engine import compile_game
        from cardgame.interpreter.fuzz import fuzz

        g = compile_game(a.profile, None, {})
        pr = cProfile.Profile()
        pr.enable()
        r = fuzz(g, examples=a.examples, seconds=a.seconds, seed=1, database=None,
                 write_replay=False, fast_walks=not a.no_fast)
        pr.disable()
        s = io.StringIO()
        ps = pstats.Stats(pr, stream=s)
        ps.sort_stats("tottime").print_stats(30)
        ps.sort_stats("cumulative").print_stats(45)
        print(f"{r.coverage.games} games, {r.coverage.moves} moves; fast walks: "
              f"{r.coverage.fast_games} games, {r.coverage.fast_moves} moves; ok={r.ok}")
        print(s.getvalue())
        return
    games = [x for x in GAMES if a.only in x]
    roots: list[tuple[str, Path | None]] = [
        ("now", package_root(a.this) if a.this else None)] + (
        [("before", package_root(a.compare))] if a.compare else [])
    best: dict[tuple[str, str], float] = {}  # (label, game) -> the best `all` figure
    fast: dict[str, float] = {}
    full: dict[str, float] = {}
    info: dict[str, tuple[int, int, int, int]] = {}
    for _ in range(a.repeat):
        for game in games:
            for label, root in roots:
                moves, t, n, ok, fmoves, ft, fn = one(root, game, a.examples, a.seconds,
                                                      a.clock == "cpu", not a.no_fast)
                rate = (moves + fmoves) / t if t > 0 else 0.0
                best[label, game] = max(best.get((label, game), 0.0), rate)
                if label == "now":
                    info[game] = (n, moves, fn, fmoves)
                    if ft > 0:
                        fast[game] = max(fast.get(game, 0.0), fmoves / ft)
                    if t - ft > 0:
                        full[game] = max(full.get(game, 0.0), moves / (t - ft))
                print(f"  {label:6} {game:26} {n:4} games {moves:7} moves, fast walks {fn:5} "
                      f"games {fmoves:8} moves {t:6.2f} s {rate:9,.0f} moves/s ok={ok}",
                      file=sys.stderr, flush=True)
    head = ("| game | fast walks | moves | fast moves/s | full playthroughs | moves | "
            "full moves/s | all moves/s |"
            + (" before | now/before |" if a.compare else ""))
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for game in games:
        n, moves, fn, fmoves = info[game]
        row = (f"| {game} | {fn:,} | {fmoves:,} | {fast.get(game, 0.0):,.0f} | {n:,} | "
               f"{moves:,} | {full.get(game, 0.0):,.0f} | {best['now', game]:,.0f} |")
        if a.compare:
            b = best["before", game]
            row += f" {b:,.0f} | {best['now', game] / b:.1f}x |" if b else " - | - |"
        print(row)

if __name__ == "__main__":
    main()
