"""Crazy Eights against OpenSpiel's crazy_eights (pyspiel), under uniformly random play.

    python benchmarks/openspiel_crazy_eights.py [--games N] [--players 2,3,4] [--seed S]

For each player count, N games of each, with random moves (each legal move equally likely):

- **OpenSpiel**: `pyspiel.load_game("crazy_eights", {"players": n, "reshuffle": True})`
  (no special cards; max_draw_cards 5; max_turns 100), chance nodes sampled uniformly
  (its ChanceOutcomes are uniform over the cards left);
- **as OpenSpiel**: `benchmarks/crazy-eights-openspiel.cardgame`, a variant of the bundled
  game (`extends "crazy-eights"`) written to OpenSpiel's rules: a player may draw even
  with a card that fits, up to 5 cards a turn, then may pass; the discard pile is
  reshuffled into the stock as soon as the stock runs out; the game ends after 100 cards
  played, or after players + 1 passes in a row with nothing to draw;
- **bundled**: `games/crazy-eights.cardgame` as it is (draw only when unable, until able;
  no play limit), to show what those rules change.

Rows: legal moves per decision (each game's mean, averaged over games: the games are
independent, the decisions of one game are not), decisions per game, how games end, seat 1's share of
wins (going out), and the points left in a hand at the end. The points are **rescored**
from the hands on both sides with the bundled rule (8: 50; 10, J, Q, K: 10; A: 1; others
their rank): OpenSpiel's returns count an ace 10, and count a 2-10 as its card index plus
2 (`(card + 2)` in ScoreUp, where the rank was meant: a 7♣ costs 22), so its own returns
cannot be compared. Each figure has its 95% interval (Wilson for shares, t for means);
the difference between OpenSpiel and "as OpenSpiel" has its interval (Newcombe, Welch),
flagged `*` when it excludes 0 (about 1 row in 20 is flagged by chance alone).

Speed: random playouts of whole games, games/s, of OpenSpiel driven from Python
(`new_initial_state`, `legal_actions`, `apply_action`: its C++ game through pyspiel) and
of the two cardgame files (the engine's fast path, `Game.random_playout`), interleaved in
rounds in one run; the best round of each is quoted.

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
OS_RANKS = "23456789TJQKA"  # the columns of OpenSpiel's hand display


def load_pyspiel() -> Any:
    try:  # imported by name: mypy passes with and without open_spiel installed
        return importlib.import_module("pyspiel")
    except ImportError:
        print("skipped: pyspiel is not installed (pip install open_spiel) - "
              "nothing to compare against")
        sys.exit(0)


def points(face: str) -> int:
    """The bundled game's count of a card left in hand, by its rank's face."""
    if face == "8":
        return 50
    if face in ("10", "T", "J", "Q", "K"):
        return 10
    if face == "A":
        return 1
    return int(face)


class Tally:
    def __init__(self) -> None:
        self.legal: list[float] = []  # each game's mean legal moves per decision
        self.decisions: list[float] = []
        self.ends: list[str] = []  # out, limit, blocked
        self.seat1: list[bool] = []  # seat 1 went out
        self.left: list[float] = []  # points in each hand at the end (every seat)

    def values(self, key: str) -> tuple[str, Any]:
        if key == "legal":
            return "mean", self.legal
        if key == "decisions":
            return "mean", self.decisions
        if key == "left":
            return "mean", self.left
        if key == "seat1":
            return "rate", (sum(self.seat1), len(self.seat1))
        return "rate", (self.ends.count(key), len(self.ends))

    def estimate(self, key: str) -> stats.Estimate:
        kind, v = self.values(key)
        return stats.wilson(*v) if kind == "rate" else stats.mean_ci(v)


def os_hand_points(st: Any, p: int) -> tuple[int, int]:
    """(cards, points) of seat p's hand, read from its observation string."""
    cards = pts = 0
    for line in st.observation_string(p).splitlines():
        if line.startswith("Suit ") and line[6] == ":":
            cols = line[8:8 + len(OS_RANKS)]
            for i, ch in enumerate(cols):
                if ch != " ":
                    cards += 1
                    pts += points(OS_RANKS[i])
    return cards, pts


def play_openspiel(game: Any, n: int, seed: int, players: int) -> Tally:
    t = Tally()
    rng = random.Random(seed)
    for _ in range(n):
        st = game.new_initial_state()
        decisions = plays = legal_sum = 0
        while not st.is_terminal():
            legal = st.legal_actions()
            a = rng.choice(legal)
            if not st.is_chance_node():
                decisions += 1
                legal_sum += len(legal)
                plays += a < 52
            st.apply_action(a)
        hands = [os_hand_points(st, p) for p in range(players)]
        out = [p for p, (c, _) in enumerate(hands) if c == 0]
        t.ends.append("out" if out else "limit" if plays >= 100 else "blocked")
        t.seat1.append(out == [0])
        t.left += [float(pts) for _, pts in hands]
        t.decisions.append(float(decisions))
        if decisions:  # each game's mean: games are independent, decisions are not
            t.legal.append(legal_sum / decisions)
    return t


def play_ours(g: Game, n: int, seed: int) -> Tally:
    t = Tally()
    rng = random.Random(seed)
    for k in range(n):
        st = g.new_state(seed * 1_000_003 + k)
        decisions = legal_sum = 0
        while not g.is_terminal(st):
            legal = g.legal_moves(st)
            decisions += 1
            legal_sum += len(legal)
            st = g.apply(st, rng.choice(legal))
        hands = [g.zone_cards(st, f"hand-p{p}") for p in range(1, g.players + 1)]
        reason = g.end_reason(st) or ""
        t.ends.append("out" if "went out" in reason else
                      "limit" if "limit" in reason else "blocked")
        t.seat1.append(not hands[0])
        t.left += [float(sum(points(c[:-1]) for c in h)) for h in hands]
        t.decisions.append(float(decisions))
        if decisions:  # each game's mean: games are independent, decisions are not
            t.legal.append(legal_sum / decisions)
    return t


def shown(e: stats.Estimate, kind: str) -> str:
    if e.low is None or e.high is None:
        return "-"
    if kind == "rate":
        return f"{100 * e.value:5.1f}% [{100 * e.low:4.1f}, {100 * e.high:4.1f}]"
    return f"{e.value:7.2f} [{e.low:.2f}, {e.high:.2f}]"


def difference(a: Tally, b: Tally, key: str) -> str:
    """b - a with its interval; `*` when it excludes 0."""
    kind, va = a.values(key)
    _, vb = b.values(key)
    if kind == "rate":
        d = stats.newcombe(va[0], va[1], vb[0], vb[1])
        scale, unit = 100, " pts"
    else:
        d = stats.welch_diff(va, vb)
        scale, unit = 1, ""
    if d.value is None or d.low is None or d.high is None:
        return "-"
    flag = " *" if d.low > 0 or d.high < 0 else ""
    return (f"{scale * d.value:+.2f}{unit} [{scale * d.low:+.2f}, {scale * d.high:+.2f}]"
            f"{flag}")


ROWS = [("legal", "legal moves / decision"), ("decisions", "decisions per game"),
        ("out", "ends: a player went out"), ("limit", "ends: the play limit"),
        ("blocked", "ends: blocked"), ("seat1", "seat 1 goes out"),
        ("left", "points left in a hand")]


def table(os_: Tally, same: Tally, bundled: Tally) -> str:
    lines = [f"{'':26}{'OpenSpiel':25}{'as OpenSpiel':25}{'as OS - OS':32}{'bundled':24}"]
    for key, label in ROWS:
        kind, _ = os_.values(key)
        lines.append(f"{label:26}{shown(os_.estimate(key), kind):25}"
                     f"{shown(same.estimate(key), kind):25}"
                     f"{difference(os_, same, key):32}{shown(bundled.estimate(key), kind):24}")
    return "\n".join(lines)




def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--speed-games", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    pyspiel = load_pyspiel()
    for n in [int(x) for x in a.players.split(",")]:
        game = pyspiel.load_game("crazy_eights", {"players": n, "reshuffle": True})
        same = compile_game(HERE / "crazy-eights-openspiel.cardgame", players=n)
        bundled = compile_game("crazy-eights", players=n)
        print(f"Crazy Eights, {n} players, {a.games:,} random games each, seed {a.seed}")
        print(table(play_openspiel(game, a.games, a.seed, n), play_ours(same, a.games, a.seed),
                    play_ours(bundled, a.games, a.seed)))
        print(f"random playouts, whole games ({a.speed_games:,} per round, best of "
              f"{a.rounds} interleaved rounds):")
        print(speed(game, {"as OpenSpiel": same, "bundled": bundled}, a.speed_games,
                    a.rounds, api=False))
        print()


if __name__ == "__main__":
    main()
