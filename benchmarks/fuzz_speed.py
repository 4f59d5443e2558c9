"""`cardgame fuzz` speed: checked moves per second on every bundled game.

    python benchmarks/fuzz_speed.py [--examples K] [--seconds T] [--repeat R]
                                    [--only TEXT] [--clock cpu|wall] [--profile GAME]

For every bundled game (the seed rule sets and the classics), at its default player
count, runs `interpreter.fuzz.fuzz(game, examples=K, seed=1, database=None)` (or
`seconds=T`) and prints the moves of the played paths per second (the report's own
figure: every legal move of every state is applied and checked too, so a game with many
legal moves checks many more states than it plays). Each figure is the best of R repeats;
the games are interleaved within a repeat. With `--profile GAME` it profiles one run of
that game instead and prints the top of the profile (cumulative and own time).

With `--compare DIR` it also runs the same search from another checkout (its `interpreter`
package, e.g. a worktree of main), interleaved with this one, and prints both and the
ratio: the before/after table of docs/fuzz.md.
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
r = fuzz(g, examples={examples!r}, seconds={seconds!r}, seed=1, database=None,
         write_replay=False)
t = clock() - t0
print(json.dumps([r.coverage.moves, t, r.coverage.games, r.ok]))
"""


def one(root: Path | None, game: str, examples: int | None, seconds: float | None,
        cpu: bool) -> tuple[int, float, int, bool]:
    """One fuzz run in a fresh process: moves, time, games, ok. `root`: None for the
    installed package, or a directory holding another `cardgame/` package (imported
    instead, with this interpreter's other packages)."""
    code = ONE.format(game=game, examples=examples, seconds=seconds, cpu=cpu)
    cmd = [sys.executable, "-c", code]
    env = dict(os.environ)
    if root is not None:  # no site: the editable install's finder would win
        site = [p for p in sys.path if p.endswith("site-packages")]
        env["PYTHONPATH"] = os.pathsep.join([str(root)] + site)
        cmd = [sys.executable, "-S", "-c", code]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd="/tmp",
                         env=env)
    import json

    moves, t, games, ok = json.loads(out.stdout.strip().splitlines()[-1])
    return moves, t, games, ok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", type=int, default=None)
    ap.add_argument("--seconds", type=float, default=None)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--only", default="")
    ap.add_argument("--clock", choices=["cpu", "wall"], default="cpu")
    ap.add_argument("--compare", default=None,
                    help="a directory holding another version's cardgame/ package "
                         "(interpreter, grammar, games: e.g. `git archive main interpreter "
                         "grammar games repl | tar -x -C DIR/cardgame`)")
    ap.add_argument("--this", default=None,
                    help="measure this directory's cardgame/ package as `now` (a snapshot, "
                         "so that editing the checkout does not disturb a long run)")
    ap.add_argument("--profile", default=None)
    a = ap.parse_args()
    if a.examples is None and a.seconds is None:
        a.examples = 30
    if a.profile:
        from cardgame.interpreter.engine import compile_game
        from cardgame.interpreter.fuzz import fuzz

        g = compile_game(a.profile, None, {})
        pr = cProfile.Profile()
        pr.enable()
        r = fuzz(g, examples=a.examples, seconds=a.seconds, seed=1, database=None,
                 write_replay=False)
        pr.disable()
        s = io.StringIO()
        ps = pstats.Stats(pr, stream=s)
        ps.sort_stats("tottime").print_stats(30)
        ps.sort_stats("cumulative").print_stats(45)
        print(f"{r.coverage.games} games, {r.coverage.moves} moves, ok={r.ok}")
        print(s.getvalue())
        return
    games = [x for x in GAMES if a.only in x]
    roots: list[tuple[str, Path | None]] = [
        ("now", Path(a.this).resolve() if a.this else None)] + (
        [("before", Path(a.compare).resolve())] if a.compare else [])
    best: dict[tuple[str, str], float] = {}
    info: dict[str, tuple[int, int]] = {}
    for _ in range(a.repeat):
        for game in games:
            for label, root in roots:
                moves, t, n, ok = one(root, game, a.examples, a.seconds, a.clock == "cpu")
                rate = moves / t if t > 0 else 0.0
                best[label, game] = max(best.get((label, game), 0.0), rate)
                if label == "now":
                    info[game] = (n, moves)
                print(f"  {label:6} {game:26} {n:4} games {moves:7} moves {t:6.2f} s "
                      f"{rate:9,.0f} moves/s ok={ok}", file=sys.stderr, flush=True)
    head = "| game | games | moves | moves/s |" + (" before | now/before |" if a.compare else "")
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for game in games:
        n, moves = info[game]
        row = f"| {game} | {n} | {moves} | {best['now', game]:,.0f} |"
        if a.compare:
            b = best["before", game]
            row += f" {b:,.0f} | {best['now', game] / b:.1f}x |" if b else " - | - |"
        print(row)


if __name__ == "__main__":
    main()
