"""Hashes that say a speed-up changed no behaviour: run before and after, compare.

    python benchmarks/same_behaviour.py playouts [-v]   # random + API playouts, 22 rule sets
    python benchmarks/same_behaviour.py fuzz [-v]       # fuzz runs of a budget of games, 17 games
    python benchmarks/same_behaviour.py generated [-v]  # the generated code of the 22 rule sets

- `playouts`: 20 `Game.random_playout`s (the fast path) and 3 playouts through the public
  API (`legal_moves` + `apply`) of each rule set, from fixed seeds: their final states and
  lengths. An optimisation of the code generator or the engine must leave it unchanged.
- `fuzz`: `fuzz(game, examples=3, seed=1)` of every bundled game (a budget of games, so
  the run does not depend on time): its verdict and what it explored (moves, walks,
  endings, rules fired). Unchanged unless the fuzzer's exploration changes on purpose.
- `generated`: the generated source; it changes with any code generator rule (then
  `playouts` must still be the same).

Each prints one line per rule set with -v, and a last line with the hash of them all.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys

from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.fuzz import fuzz

RULE_SETS: list[tuple[str, int | None, dict[str, str] | None]] = [
    ("calculation", None, None), ("besieged-castle", None, None),
    ("besieged-castle-spice-1", None, None), ("besieged-castle-spice-2", None, None),
    ("chains", None, None), ("chains-advanced", None, None),
    ("interaction", 3, None), ("interaction", 4, None),
    ("arsene", 4, {"advanced": "false"}), ("arsene", 4, {"advanced": "true"}),
    ("arsene", 3, {"advanced": "false"}), ("arsene", 3, {"advanced": "true"}),
    ("blackjack", None, None), ("blackjack", 3, None), ("crazy-eights", None, None),
    ("freecell", None, None), ("golf", None, None), ("hearts", None, None),
    ("klondike", None, None), ("oh-hell", None, None), ("pyramid", None, None),
    ("scopa", None, None)]
GAMES = ["calculation", "besieged-castle", "besieged-castle-spice-1",
         "besieged-castle-spice-2", "chains", "chains-advanced", "interaction", "arsene",
         "blackjack", "crazy-eights", "freecell", "golf", "hearts", "klondike", "oh-hell",
         "pyramid", "scopa"]


def playouts(name: str, players: int | None, settings: dict[str, str] | None) -> str:
    g = compile_game(name, players, settings)
    h = hashlib.sha256()
    rng = random.Random(7)
    for i in range(20):
        s, n = g.random_playout(i, rng)
        h.update(repr((n, tuple(s))).encode())
    rng = random.Random(11)
    for i in range(3):
        state = g.new_state(100 + i)
        for _ in range(3000):
            legal = g.legal_moves(state)
            if not legal:
                break
            state = g.apply(state, legal[rng.randrange(len(legal))])
        # (without the game files' fingerprint, which is not play: it changed its kind
        # in the fourteenth session, and would make every rule set differ)
        data = json.loads(g.to_json(state))
        data.pop("source", None)
        h.update(json.dumps(data, sort_keys=True).encode())
    return h.hexdigest()[:16]


def generated(name: str, players: int | None, settings: dict[str, str] | None) -> str:
    return hashlib.sha256(compile_game(name, players, settings).gen.source.encode()
                          ).hexdigest()[:16]


def fuzzed(name: str) -> str:
    r = fuzz(compile_game(name, None, {}), examples=3, seed=1, database=None,
             write_replay=False)
    c = r.coverage
    key = (r.ok, c.moves, c.games, c.fast_moves, c.fast_games, c.fast_leak, c.longest,
           sorted(map(str, c.fired)), sorted(c.fast_endings.items()))
    return hashlib.sha256(repr(key).encode()).hexdigest()[:16]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("playouts", "fuzz", "generated"))
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    every = hashlib.sha256()
    if args.what == "fuzz":
        rows = [(name, fuzzed(name)) for name in GAMES]
    else:
        f = playouts if args.what == "playouts" else generated
        rows = [(f"{n} {p} {st}", f(n, p, st)) for n, p, st in RULE_SETS]
    for label, digest in rows:
        every.update(digest.encode())
        if args.verbose:
            print(f"{label:40} {digest}")
    print(args.what.upper(), len(rows), every.hexdigest()[:16])
    return 0


if __name__ == "__main__":
    sys.exit(main())
