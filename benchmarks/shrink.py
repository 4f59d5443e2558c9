"""The shortest story: `cardgame fuzz`'s counterexamples against an independent random search.

For each mutant in tests/mutants/ (and tests/mutants/deep/) whose first comment names the
property that must catch it (`Expected: PROPERTY`), two searches, one after the other:

- fuzz: `interpreter.fuzz.fuzz` with `--fuzz-seconds` (the search, Hypothesis's shrinking
  and the story search together), seed `--seed`, no example database; its counterexample's
  length (moves, plus the failing move when a move itself failed);
- random: an independent random search over deals for `--seconds`: uniformly random legal
  moves from deal seeds drawn at random, every playthrough checked by the same
  `Playthrough` (so "the same property" means the same thing), each one cut off at the
  length of its best failure so far. Its shortest failure of the expected property.

`ratio` is fuzz / random (1.0 when both are 0 moves long; `(none)` when only the fuzzer
found a failure); the target is ratio <= 1.5 for every mutant. `found` is the length of the fuzzer's first failing playthrough, `stop` the
bound that ended its story search. A search that finds nothing shows `-`.

    python benchmarks/shrink.py [--seconds 60] [--fuzz-seconds 20] [--seed 0]
                                [--only TEXT] [--part K/N] [--json]

`--part K/N` runs every N-th mutant from the K-th (0-based): N processes side by side run
the whole table in 1/N of the time (each row's two searches still run one after the
other, in the same process, so they share the load alike).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.fuzz import PROPERTIES, fuzz
from cardgame.interpreter.fuzz.playthrough import Coverage, Playthrough, PropertyFailure

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "tests" / "mutants"
# --max-moves of a mutant, when not the default 2000 (as tests/test_fuzz.py runs it)
MAX_MOVES = {"calc-never-ends": 150}


def mutants() -> list[tuple[str, Path, str]]:
    """(name, path, expected property) of every mutant that names one."""
    out = []
    for path in sorted(MUTANTS.glob("*.cardgame")) + sorted(MUTANTS.glob("deep/*.cardgame")):
        text = path.read_text(encoding="utf-8")
        m = re.search(r"Expected:\s*([a-z-]+)", text)
        if m and m.group(1) in PROPERTIES:
            out.append((path.stem, path, m.group(1)))
    return out


def cx_length(cx: Any) -> int:
    return len(cx.moves) + (cx.failing_move is not None)


def random_search(path: Path, prop: str, seconds: float, max_moves: int,
                  seed: int) -> tuple[int | None, int, int | None]:
    """(shortest length of a failure of `prop`, games played, its deal seed)."""
    g = compile_game(path)
    play = Playthrough(g, max_moves, Coverage())
    rng = random.Random(seed)
    best: int | None = None
    best_seed: int | None = None
    games = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if best == 0 or (best is not None and prop == "no-termination"):
            break  # nothing shorter can exist
        games += 1
        walk = random.Random(rng.getrandbits(64))
        deal = rng.getrandbits(32)
        play.max_moves = max_moves if best is None else max(0, min(max_moves, best - 1))
        if best is not None and best - 1 < 0:
            break
        try:
            play.run(deal, walk.randrange)
        except PropertyFailure as e:
            if e.cx.property == prop:
                n = cx_length(e.cx)
                if best is None or n < best:
                    best, best_seed = n, deal
    return best, games, best_seed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=60.0,
                    help="the independent random search's time per mutant (default 60)")
    ap.add_argument("--fuzz-seconds", type=float, default=20.0,
                    help="the fuzzer's budget per mutant (default 20, as `cardgame fuzz`)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", default="", help="mutants whose name holds this text")
    ap.add_argument("--part", default="0/1", help="K/N: every N-th mutant from the K-th")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    k, n = (int(x) for x in args.part.split("/"))

    rows: list[dict[str, Any]] = []
    if not args.json:
        print(HEADER, flush=True)
    for i, (name, path, prop) in enumerate(mutants()):
        if args.only and args.only not in name or i % n != k:
            continue
        mm = MAX_MOVES.get(name, 2000)
        t0 = time.monotonic()
        r = fuzz(path, seed=args.seed, seconds=args.fuzz_seconds, database=None,
                 write_replay=False, max_moves=mm)
        fz_s = time.monotonic() - t0
        cx = r.failure
        got = cx.property if cx is not None else None
        flen = cx_length(cx) if cx is not None and got == prop else None
        st = r.story
        best, games, bseed = random_search(path, prop, args.seconds, mm, args.seed + 1)
        if flen is None:
            ratio = None
        elif best is None:
            ratio = None  # the random search found none: the fuzzer's is the shortest known
        elif best == 0:
            ratio = 1.0 if flen == 0 else float("inf")
        else:
            ratio = flen / best
        row: dict[str, Any] = {"mutant": name, "property": prop, "fuzz_property": got,
               "found": st.found_moves if st else (flen if flen is not None else None),
               "hypothesis": st.hypothesis_moves if st else None,
               "fuzz": flen, "fuzz_seed": cx.seed if cx is not None else None,
               "stop": st.stop if st else None, "fuzz_seconds": round(fz_s, 1),
               "random": best, "random_games": games, "random_seed": bseed,
               "ratio": ratio}
        rows.append(row)
        if not args.json:
            print(_line(row), flush=True)
    ok = [r for r in rows if r["fuzz"] is not None
          and (r["random"] is None or r["ratio"] <= 1.5)]
    worst = max((r["ratio"] for r in rows if r["ratio"] is not None), default=None)
    missed = [r["mutant"] for r in rows if r["fuzz"] is None]
    if args.json:
        print(json.dumps({"seconds": args.seconds, "fuzz_seconds": args.fuzz_seconds,
                          "rows": rows, "within_1_5": len(ok), "worst": worst,
                          "missed": missed}, indent=2))
    else:
        print(f"\n{len(ok)} of {len(rows)} mutants within ratio 1.5; worst ratio "
              f"{'-' if worst is None else f'{worst:.2f}'}; random search {args.seconds:g} s, "
              f"fuzz {args.fuzz_seconds:g} s per mutant"
              + (f"; not caught with the expected property: {', '.join(missed)}"
                 if missed else ""))
    return 0 if len(ok) == len(rows) else 1


HEADER = (f"{'mutant':<28} {'property':<20} {'found':>6} {'fuzz':>6} {'stop':<8} "
          f"{'random':>7} {'games':>7} {'ratio':>6} {'fuzz s':>6}")


def _line(r: dict[str, Any]) -> str:
    def n(x: Any) -> str:
        return "-" if x is None else str(x)

    ratio = "-" if r["ratio"] is None else f"{r['ratio']:.2f}"
    if r["fuzz"] is not None and r["random"] is None:
        ratio = "(none)"  # only the fuzzer found one
    line = (f"{r['mutant']:<28} {r['property']:<20} {n(r['found']):>6} {n(r['fuzz']):>6} "
            f"{n(r['stop']):<8} {n(r['random']):>7} {r['random_games']:>7} {ratio:>6} {r['fuzz_seconds']:>6}")
    if r["fuzz_property"] not in (None, r["property"]):
        line += f"  (fuzz found {r['fuzz_property']})"
    return line


if __name__ == "__main__":
    sys.exit(main())
