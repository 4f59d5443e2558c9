"""Two versions of cardgame against OpenSpiel in one run: `openspiel_speed.py` played by
each in turn, game by game, round after round (the order reversed every other round), so
that a busy moment of the machine hurts both alike. Each version is a tree of the project
(`git archive COMMIT | tar -x -C DIR`); this script runs them with the Python of the
current environment, `cardgame` imported from DIR (a `cardgame/` of links to its
`interpreter`, `games`, `grammar` and `repl`, made under DIR/.pkg). The speed script and
its adapters are this tree's, the same for both.

    python benchmarks/openspiel_before_after.py BEFORE_DIR AFTER_DIR [--rounds R]
        [--repeat K] [--game G ...]

For each game and version: the best engine/OpenSpiel, API/OpenSpiel (and bundled/OpenSpiel)
ratio over the rounds (each round's ratio is that of the best of its K repeats), and the
games/s of the best round; then each ratio's mean over the rounds (a round's: the mean of
its K repeats' ratios) with a 95% CI over the rounds, and after/before, the ratio of the
two versions' engine games/s in the same round, likewise. Needs pyspiel (`pip install open_spiel`); skips otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from openspiel_common import mean_ci  # noqa: E402

GAMES = {"oh_hell": 1000, "hearts": 300, "crazy_eights": 200, "blackjack": 4000}


def package(tree: Path) -> Path:
    """A directory to put on PYTHONPATH so that `import cardgame` finds `tree`'s code."""
    pkg = tree / ".pkg"
    (pkg / "cardgame").mkdir(parents=True, exist_ok=True)
    for d in ("interpreter", "games", "grammar", "repl"):
        link = pkg / "cardgame" / d
        if not link.exists():
            link.symlink_to((tree / d).resolve())
    return pkg


def one(pkg: Path, game: str, games: int, repeat: int) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(pkg))
    out = subprocess.run([sys.executable, str(HERE / "openspiel_speed.py"), "--game", game,
                          "--games", str(games), "--repeat", str(repeat), "--bundled",
                          "--json"], env=env, capture_output=True, text=True, check=True)
    rep: dict[str, Any] = json.loads(out.stdout)[0]
    return rep


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--game", action="append", help="default: " + ", ".join(GAMES))
    a = ap.parse_args(argv)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("pyspiel is not installed (pip install open_spiel): skipped")
        return 0
    pkgs = {"before": package(a.before), "after": package(a.after)}
    games = a.game or list(GAMES)
    best: dict[tuple[str, str], dict[str, float]] = {}
    means: dict[tuple[str, str, str], list[float]] = {}  # (game, version, way): per round
    speed: dict[tuple[str, str], float] = {}  # (game, version): engine games/s this round
    for r in range(a.rounds):
        for g in games:
            order = ["before", "after"] if r % 2 == 0 else ["after", "before"]
            for which in order:
                rep = one(pkgs[which], g, GAMES.get(g, 300), a.repeat)
                row = best.setdefault((g, which), {})
                speed[(g, which)] = rep["engine"][0]
                for k in ("engine", "API", "bundled"):
                    if f"{k}/OpenSpiel" in rep:
                        means.setdefault((g, which, k), []).append(rep[f"{k}/OpenSpiel"][0])
                for k in ("engine", "API", "bundled", "OpenSpiel"):
                    if f"{k} best" in rep:
                        row[k] = max(row.get(k, 0.0), rep[f"{k} best"])
                    if f"{k}/OpenSpiel best" in rep:
                        row[f"{k}/OS"] = max(row.get(f"{k}/OS", 0.0),
                                             rep[f"{k}/OpenSpiel best"])
                print(f"round {r + 1} {g:13} {which:6} " + "  ".join(
                    f"{k}/OS {rep[f'{k}/OpenSpiel best']:.2f}" for k in
                    ("engine", "API", "bundled") if f"{k}/OpenSpiel best" in rep), flush=True)
            means.setdefault((g, "after/before", "engine"), []).append(
                speed[(g, "after")] / speed[(g, "before")])
    print(f"\nbest of {a.rounds} rounds (each the best of {a.repeat} repeats): games/s, and "
          "the ratio to OpenSpiel")
    for g in games:
        for which in ("before", "after"):
            row = best[(g, which)]
            cells = "  ".join(f"{k} {row[k]:>9,.0f}" + (f" ({row[k + '/OS']:.2f}x)"
                                                           if k + "/OS" in row else "")
                              for k in ("engine", "API", "bundled", "OpenSpiel") if k in row)
            print(f"  {g:13} {which:6} {cells}")
    print(f"\nmean over the {a.rounds} rounds, 95% CI: the ratio to OpenSpiel; after/before: "
          "the engine's games/s of the two versions in the same round")
    for g in games:
        for which in ("before", "after"):
            cells = "  ".join(f"{k}/OS {m:.2f} ± {h:.2f}" for k in ("engine", "API", "bundled")
                              if (g, which, k) in means
                              for m, h in [mean_ci(means[(g, which, k)])])
            print(f"  {g:13} {which:6} {cells}")
        m, h = mean_ci(means[(g, "after/before", "engine")])
        print(f"  {g:13} after/before engine {m:.3f} ± {h:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
