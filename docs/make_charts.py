"""Draw the charts that docs/analysis.md shows, into docs/images/ (PNG and SVG).

    .venv/bin/python docs/make_charts.py [--games N] [--jobs N]

The same commands a designer would type, through the same code:

    cardgame simulate arsene --players 4 --games 2000 --seed 1 --plot docs/images/simulate
    cardgame compare arsene --set-b advanced=true --games 2000 --seed 1 \\
        --plot docs/images/compare

The seeds are fixed and the files carry no dates, so running it again rewrites the same
bytes (unless the game, the engine or the charts changed: then commit the new images).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cardgame.interpreter.cli import main

IMAGES = Path(__file__).resolve().parent / "images"


def run(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--jobs", type=int, default=1)
    args = p.parse_args(argv)
    common = ["--games", str(args.games), "--seed", "1", "--jobs", str(args.jobs)]
    code = main(["simulate", "arsene", "--players", "4", "--coverage-games", "0",
                 "--plot", str(IMAGES / "simulate"), *common])
    code |= main(["compare", "arsene", "--set-b", "advanced=true",
                  "--plot", str(IMAGES / "compare"), *common])
    return code


if __name__ == "__main__":
    sys.exit(run())
