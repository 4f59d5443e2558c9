"""Blackjack against OpenSpiel's blackjack (pyspiel), under uniformly random play.

    python benchmarks/openspiel_blackjack.py [--games N] [--seed S] [--speed-games M]

Three games are played N times each with random moves (each legal move equally likely):

- **OpenSpiel**: `pyspiel.load_game("blackjack")`, its chance nodes sampled uniformly (every
  card left in the deck is equally likely, as its ChanceOutcomes say);
- **as OpenSpiel**: `benchmarks/blackjack-openspiel.cardgame`, a variant of the bundled game
  (`extends "blackjack"`) written to OpenSpiel's rules: no naturals (an ace and a ten-card
  is a 21 paid 1 to 1, pushing a dealer's 21), no peek, the player asked until they stand
  or bust (also at 21), no doubling down; the dealer stands on every 17 in both;
- **bundled**: `games/blackjack.cardgame` with `double=false` (the same moves: hit and
  stand), to show what the rules OpenSpiel leaves out change.

For each: the legal moves per decision (each hand's mean, averaged over hands), the
decisions per hand, and the shares of wins,
pushes and losses with 95% intervals (Wilson); the difference between OpenSpiel and "as
OpenSpiel" with its interval (Newcombe), flagged `*` when the interval excludes 0 (with
so many rows, about 1 in 20 is flagged by chance alone). OpenSpiel's returns (+1, 0, -1)
are its results: no rescoring is needed once the rules are the same.

Speed: random playouts of whole hands, games/s, of OpenSpiel driven from Python
(`new_initial_state`, `legal_actions`, `apply_action`, `returns`: its C++ game through
pyspiel) and of the bundled game (the engine's fast path, `Game.random_playout`, and the
public step API, `legal_moves` + `apply`), interleaved in rounds in one run; the best
round of each is quoted.

Skips (exit 0, with a message) when `pyspiel` is not installed: `pip install open_spiel`.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
from pathlib import Path
from typing import Any

from cardgame.interpreter.analysis import stats
from cardgame.interpreter.engine import Game, compile_game
from openspiel_timing import speed

HERE = Path(__file__).resolve().parent
RESULT = {1.0: "win", 0.0: "push", -1.0: "loss"}


def load_pyspiel() -> Any:
    try:  # imported by name: mypy passes with and without open_spiel installed
        pyspiel = importlib.import_module("pyspiel")
    except ImportError:
        print("skipped: pyspiel is not installed (pip install open_spiel) - "
              "nothing to compare against")
        sys.exit(0)
    return pyspiel


class Tally:
    """Results, decisions and legal moves of a run of hands."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.results: list[str] = []
        self.decisions: list[float] = []
        self.legal: list[float] = []  # each hand's mean legal moves per decision

    def row(self, what: str) -> stats.Estimate:
        if what in ("win", "push", "loss"):
            return stats.wilson(self.results.count(what), len(self.results))
        return stats.mean_ci(self.decisions if what == "decisions" else self.legal)


def play_openspiel(game: Any, n: int, seed: int) -> Tally:
    t = Tally("OpenSpiel")
    rng = random.Random(seed)
    for _ in range(n):
        st = game.new_initial_state()
        decisions = legal_sum = 0
        while not st.is_terminal():
            legal = st.legal_actions()
            if not st.is_chance_node():
                decisions += 1
                legal_sum += len(legal)
            st.apply_action(rng.choice(legal))
        t.results.append(RESULT[st.returns()[0]])
        t.decisions.append(float(decisions))
        if decisions:  # each game's mean: games are independent, decisions are not
            t.legal.append(legal_sum / decisions)
    return t


def play_ours(g: Game, n: int, seed: int, name: str) -> Tally:
    t = Tally(name)
    rng = random.Random(seed)
    for k in range(n):
        st = g.new_state(seed * 1_000_003 + k)
        decisions = legal_sum = 0
        while not g.is_terminal(st):
            legal = g.legal_moves(st)
            decisions += 1
            legal_sum += len(legal)
            st = g.apply(st, rng.choice(legal))
        t.results.append(g.results(st)[0])
        t.decisions.append(float(decisions))
        if decisions:  # each game's mean: games are independent, decisions are not
            t.legal.append(legal_sum / decisions)
    return t


def fmt(e: stats.Estimate, pct: bool) -> str:
    if pct:
        return f"{100 * e.value:5.1f}% [{100 * e.low:4.1f}, {100 * e.high:4.1f}]"
    return f"{e.value:6.3f} [{e.low:.3f}, {e.high:.3f}]"


def diff(a: Tally, b: Tally, what: str) -> tuple[str, bool]:
    """b - a with its 95% interval, and whether it excludes 0."""
    if what in ("win", "push", "loss"):
        d = stats.newcombe(a.results.count(what), len(a.results),
                           b.results.count(what), len(b.results))
        return (f"{100 * d.value:+5.1f} pts [{100 * d.low:+.1f}, {100 * d.high:+.1f}]",
                d.low > 0 or d.high < 0)
    xa = a.decisions if what == "decisions" else a.legal
    xb = b.decisions if what == "decisions" else b.legal
    d = stats.welch_diff(xa, xb)
    if d.low is None or d.high is None:
        return f"{d.value:+.3f}", False
    return f"{d.value:+.3f} [{d.low:+.3f}, {d.high:+.3f}]", d.low > 0 or d.high < 0


def table(os_: Tally, same: Tally, bundled: Tally) -> str:
    rows = [("win", "wins", True), ("push", "pushes", True), ("loss", "losses", True),
            ("decisions", "decisions per hand", False),
            ("legal", "legal moves / decision", False)]
    head = (f"{'':26}{'OpenSpiel':24}{'as OpenSpiel':24}{'as OS - OS':30}"
            f"{'bundled (double=false)':24}")
    lines = [head]
    for key, label, pct in rows:
        d, flag = diff(os_, same, key)
        lines.append(f"{label:26}{fmt(os_.row(key), pct):24}{fmt(same.row(key), pct):24}"
                     f"{d + (' *' if flag else ''):30}{fmt(bundled.row(key), pct):24}")
    return "\n".join(lines)




def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--speed-games", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    pyspiel = load_pyspiel()
    game = pyspiel.load_game("blackjack")
    same = compile_game(HERE / "blackjack-openspiel.cardgame", players=1)
    bundled = compile_game("blackjack", players=1, settings={"double": "false"})
    print(f"Blackjack, {a.games:,} random hands each, seed {a.seed}")
    print(table(play_openspiel(game, a.games, a.seed),
                play_ours(same, a.games, a.seed, "as OpenSpiel"),
                play_ours(bundled, a.games, a.seed, "bundled")))
    print(f"\nrandom playouts, whole hands ({a.speed_games:,} per round, best of "
          f"{a.rounds} interleaved rounds):")
    print(speed(game, {"as OpenSpiel": same, "bundled": compile_game("blackjack", players=1)},
                a.speed_games, a.rounds))


if __name__ == "__main__":
    main()
