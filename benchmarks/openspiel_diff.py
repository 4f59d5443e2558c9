"""Differential test against OpenSpiel: the bundled games that OpenSpiel also implements,
played with uniformly random legal moves on both sides, compared decision by decision
(how many legal moves each kind of decision offers) and outcome by outcome (bid success,
points...), with 95% CIs.

    python benchmarks/openspiel_diff.py [--game oh_hell] [--games N] [--players P]
                                        [--seed S] [--json]

Each adapter in benchmarks/openspiel_adapters/ says how both sides play the same rules and
where they differ (configured or rescored). A row is flagged DIFFERS when the 99.9% CI of
the difference of the means excludes 0 (many rows are compared: at 95% one in twenty
would differ by chance), or when a chi-square test of the legal-move count distributions
gives p < 0.001. That test takes the game as the unit, as the CIs do: the decisions of
one game are not independent, so the chi-square statistic (rare counts pooled into bins
of at least 5 expected) is read against its distribution when whole games are dealt to
the two sides at random (`--permutations`, 1999 by default), not against the chi-square
distribution, which would count every decision as independent (on Crazy Eights with 2
players, 5000 games a side, that reading gave p = 0.0001 between two samples of OpenSpiel
itself). Skips with a message when `pyspiel` is not installed (it is not a
dependency: `pip install open_spiel` in your own environment).
"""

from __future__ import annotations

import json
import math
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from openspiel_adapters import Adapter  # noqa: E402
from openspiel_common import (  # noqa: E402
    command_line,
    game_chi2_p,
    mean_ci,
    os_random_game,
    ratio_ci,
    require_pyspiel,
)

Z_FLAG = 3.29  # the 99.9% two-sided normal quantile


class Side:
    """What one side's random games measured."""

    def __init__(self) -> None:
        self.decisions: dict[str, tuple[list[float], list[float]]] = defaultdict(
            lambda: ([], []))  # kind -> (per-game sum of legal counts, per-game decisions)
        self.counts: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        # kind -> per game, how many of its decisions had each legal-move count
        self.per_game: dict[str, list[dict[int, int]]] = defaultdict(list)
        self.outcomes: dict[str, list[float]] = defaultdict(list)

    def game(self, legal: dict[str, list[int]], outcome: dict[str, float]) -> None:
        for kind, ns in legal.items():
            sums, counts = self.decisions[kind]
            sums.append(sum(ns))
            counts.append(len(ns))
            for n in ns:
                self.counts[kind][n] += 1
            self.per_game[kind].append(dict(Counter(ns)))
        for k, v in outcome.items():
            self.outcomes[k].append(v)


def play_ours(adapter: Adapter, players: int, games: int, seed: int) -> Side:
    from cardgame.interpreter.engine import compile_game

    name, n, settings = adapter.ours(players)
    g = compile_game(name, players=n, settings=settings)
    names = g.move_names
    side = Side()
    rng = random.Random(seed)
    for i in range(games):
        st = g.new_state(seed * 1_000_003 + i)
        legal: dict[str, list[int]] = defaultdict(list)
        while not g.is_terminal(st):
            moves = g.legal_moves(st)
            movers = {m[0] for m in moves}
            if len(movers) > 1:  # a simultaneous choice: one player's decision at a time
                moves = g.legal_moves(st, min(movers))
            kind = adapter.our_kind(names[moves[0][1]])
            legal[kind].append(len(moves))
            st = g.apply(st, moves[rng.randrange(len(moves))])
        side.game(legal, adapter.our_outcome(g, st))
    return side


def play_openspiel(adapter: Adapter, players: int, games: int, seed: int) -> Side:
    ps = require_pyspiel()
    gname, params = adapter.openspiel(players)
    game = ps.load_game(gname, params)
    side = Side()
    rng = random.Random(seed + 1)
    for _ in range(games):
        legal: dict[str, list[int]] = defaultdict(list)

        def seen(state: Any, actions: list[int], legal: dict[str, list[int]] = legal) -> None:
            legal[adapter.os_kind(state)].append(len(actions))

        state, history = os_random_game(game, rng, seen)
        side.game(legal, adapter.os_outcome(state, history))
    return side


def compare(adapter: Adapter, players: int, games: int, seed: int,
            permutations: int = 1999) -> dict[str, Any]:
    ours = play_ours(adapter, players, games, seed)
    theirs = play_openspiel(adapter, players, games, seed)
    rows: list[dict[str, Any]] = []
    only: list[str] = []
    for kind in sorted(set(ours.decisions) | set(theirs.decisions)):
        if kind not in ours.decisions or kind not in theirs.decisions:
            # a kind one side only has (Hearts' passes): its mean, not compared
            side, mine = ("ours", ours) if kind in ours.decisions else ("OpenSpiel", theirs)
            m = ratio_ci(*mine.decisions[kind])
            only.append(f"legal moves per {kind} decision ({side} only): "
                        f"{m[0]:.3f} ± {m[1]:.3f}")
            continue
        a = ratio_ci(*ours.decisions[kind])
        b = ratio_ci(*theirs.decisions[kind])
        top = max([*ours.counts[kind], *theirs.counts[kind], 1])
        table = [[ours.counts[kind].get(j, 0) for j in range(top + 1)],
                 [theirs.counts[kind].get(j, 0) for j in range(top + 1)]]
        p, naive = game_chi2_p(ours.per_game[kind], theirs.per_game[kind],
                               random.Random(seed), permutations)
        row = _row(f"legal moves per {kind} decision", a, b, extra_p=p, dist=table)
        row["chi2_p_decisions_independent"] = naive  # for comparison only: not a test
        rows.append(row)
    for metric in ours.outcomes:
        if metric not in theirs.outcomes:
            continue
        rows.append(_row(metric, mean_ci(ours.outcomes[metric]),
                         mean_ci(theirs.outcomes[metric])))
    return {"game": adapter.name, "ours": adapter.game, "players": adapter.ours(players)[1],
            "games": games,
            "seed": seed, "rows": rows, "one_side": only,
            "differs": [r["what"] for r in rows if r["differs"]]}


def _row(what: str, a: tuple[float, float], b: tuple[float, float],
         extra_p: float | None = None, dist: list[list[int]] | None = None) -> dict[str, Any]:
    diff = a[0] - b[0]
    se = math.sqrt((a[1] / 1.96) ** 2 + (b[1] / 1.96) ** 2)
    z = abs(diff) / se if se > 0 else (0.0 if diff == 0 else math.inf)
    differs = z > Z_FLAG or (extra_p is not None and extra_p < 0.001)
    row = {"what": what, "ours": a[0], "ours_ci": a[1], "openspiel": b[0],
           "openspiel_ci": b[1], "diff": diff, "diff_ci": 1.96 * se, "z": z,
           "differs": differs}
    if extra_p is not None:
        row["chi2_p"] = extra_p
    if dist is not None:
        row["distribution"] = dist
    return row


def _fmt(m: float, h: float) -> str:
    return f"{m:8.3f} ± {h:.3f}"


def print_report(rep: dict[str, Any]) -> None:
    print(f"{rep['game']} (ours: {rep['ours']}), {rep['players']} players, {rep['games']} "
          f"random games a side, seed {rep['seed']}; 95% CIs")
    print(f"  {'':38} {'ours':>17} {'OpenSpiel':>17} {'difference':>17}")
    for r in rep["rows"]:
        flag = "  DIFFERS" if r["differs"] else ""
        p = f"  chi2 p={r['chi2_p']:.3f}" if "chi2_p" in r else ""
        print(f"  {r['what']:<38} {_fmt(r['ours'], r['ours_ci'])} "
              f"{_fmt(r['openspiel'], r['openspiel_ci'])} {_fmt(r['diff'], r['diff_ci'])}"
              f"{p}{flag}")
    for r in rep["rows"]:
        if "distribution" in r:
            a, b = r["distribution"]
            ta, tb = sum(a) or 1, sum(b) or 1
            cells = "  ".join(f"{j}: {x / ta:.3f}/{y / tb:.3f}" for j, (x, y)
                              in enumerate(zip(a, b, strict=True)) if x or y)
            print(f"  {r['what']} (ours/OpenSpiel share): {cells}")
    for line in rep["one_side"]:
        print(f"  {line}")
    verdict = ("every row agrees within sampling error" if not rep["differs"]
               else "DIFFERS: " + ", ".join(rep["differs"]))
    print(f"  {verdict}")


def main(argv: list[str] | None = None) -> int:
    def more(ap: Any) -> None:
        ap.add_argument("--permutations", type=int, default=1999,
                        help="random deals of the games to the two sides, for the p-value "
                             "of the chi-square test (default 1999)")

    line = command_line(__doc__.split("\n\n")[0], 2000, argv, more)
    if isinstance(line, int):
        return line
    args, found, names = line
    reports = [compare(found[n], args.players, args.games, args.seed, args.permutations)
               for n in names]
    if args.json:
        print(json.dumps(reports, indent=2))
    else:
        for i, rep in enumerate(reports):
            if i:
                print()
            print_report(rep)
            print("  notes: " + " ".join(found[rep["game"]].notes.split()))
    return 1 if any(r["differs"] for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
