"""Start-up time of the short commands, as whole processes (issue 12's target: 0.15 s).

    python benchmarks/startup.py [--runs N]

Runs `cardgame list`, `cardgame check games/calculation.cardgame` and, for scale, an
empty Python, each N times, and prints min and median of wall and CPU seconds (the CPU
time of the child: steadier than wall time on a busy machine). "warm" runs with the
parser cache in place (the usual case); "cold" with an empty cache directory each run,
so the LALR table is built (the first command after installing or editing the grammar).

The commands run with Python's bytecode cache on, as an installed package runs (pip
compiles the modules when it installs them): a shell with PYTHONDONTWRITEBYTECODE set
would otherwise compile all of the package's modules from source on every run, about
0.1 s more, which is not what a user waits for. The warm-up run writes the cache.

    python benchmarks/startup.py --compare DIR [--runs N]

compares this checkout with another (DIR: a checkout such as a detached worktree of
main, or a directory holding a `cardgame/` package) on the warm `list` and `check`,
the two interleaved run by run (on a busy machine both see the same load): medians and
minimums of CPU time, and now/before. Both run as `python -S` with the package and this
interpreter's site-packages on PYTHONPATH (fuzz_speed.py's way: an editable install's
finder would otherwise import this checkout for both), so neither pays `site`: the
difference is the same as installed, the ratio a little larger.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "cardgame.interpreter.cli"]
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "cardgame list": [*CLI, "list"],
    "cardgame check calculation": [*CLI, "check", str(ROOT / "games" / "calculation.cardgame")],
}


def run_once(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, cpu) seconds of one run of cmd."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def measure(cmd: list[str], runs: int, cold: bool) -> tuple[list[float], list[float]]:
    walls, cpus = [], []
    with tempfile.TemporaryDirectory() as warm_dir:
        env = dict(os.environ, XDG_CACHE_HOME=warm_dir)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: modules' bytecode cached
        run_once(cmd, env)  # warm-up: fills the cache and the OS's file cache
        for _ in range(runs):
            if cold:
                with tempfile.TemporaryDirectory() as cold_dir:
                    wall, cpu = run_once(cmd, dict(env, XDG_CACHE_HOME=cold_dir))
            else:
                wall, cpu = run_once(cmd, env)
            walls.append(wall)
            cpus.append(cpu)
    return walls, cpus


def compare(other: str, runs: int) -> None:
    from fuzz_speed import package_root  # (a sibling script: benchmarks/ is on sys.path)

    site = [p for p in sys.path if p.endswith("site-packages")]
    roots = {"now": package_root(str(ROOT)), "before": package_root(other)}
    cpus: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as d:
        envs = {}
        for side, root in roots.items():
            env = dict(os.environ, XDG_CACHE_HOME=f"{d}/{side}",
                       PYTHONPATH=os.pathsep.join([str(root), *site]))
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            envs[side] = env
        for i in range(runs + 1):  # the first round warms both caches up
            for name, cmd in COMMANDS.items():
                if name.startswith("python"):
                    continue
                sides = list(roots) if i % 2 else list(reversed(roots))
                for side in sides:
                    _, cpu = run_once([cmd[0], "-S", *cmd[1:]], envs[side])
                    if i:
                        cpus.setdefault((name, side), []).append(cpu)
    print(f"{'command':<28} {'now med':>8} {'min':>8} {'before med':>10} {'min':>8} "
          f"{'now/before':>10}")
    for name in COMMANDS:
        if name.startswith("python"):
            continue
        now, before = cpus[name, "now"], cpus[name, "before"]
        print(f"{name:<28} {statistics.median(now):>8.3f} {min(now):>8.3f} "
              f"{statistics.median(before):>10.3f} {min(before):>8.3f} "
              f"{statistics.median(now) / statistics.median(before):>10.2f}")
    print(f"CPU seconds, {runs} interleaved runs each after a warm-up, both without site.")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--compare", metavar="DIR", default=None,
                    help="compare the warm list and check with another checkout")
    args = ap.parse_args(argv)
    if args.compare:
        compare(args.compare, args.runs)
        return 0
    print(f"{'command':<28} {'cache':<5} {'wall min':>8} {'median':>8} {'cpu min':>8} "
          f"{'median':>8}")
    for name, cmd in COMMANDS.items():
        for cold in ((False,) if name.startswith("python") else (False, True)):
            walls, cpus = measure(cmd, args.runs, cold)
            print(f"{name:<28} {'cold' if cold else 'warm':<5} {min(walls):>8.3f} "
                  f"{statistics.median(walls):>8.3f} {min(cpus):>8.3f} "
                  f"{statistics.median(cpus):>8.3f}")
    print(f"seconds, {args.runs} runs each after a warm-up; on a busy machine read the CPU "
          "columns.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
