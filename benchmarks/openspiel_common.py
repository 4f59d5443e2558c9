"""Shared by openspiel_diff.py and openspiel_speed.py: loading pyspiel (or saying why
not), random play on both sides, and the statistics."""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Callable
from typing import Any

SKIP = ("pyspiel is not installed: this comparison needs OpenSpiel "
        "(pip install open_spiel, in your own environment; it is not a dependency of "
        "cardgame). Skipped.")


def load_pyspiel() -> Any | None:
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def require_pyspiel() -> Any:
    ps = load_pyspiel()
    if ps is None:
        print(SKIP)
        sys.exit(0)
    return ps


def os_chance(state: Any, rng: random.Random) -> int:
    """A chance outcome drawn with its probability (by index when they are all equal,
    as OpenSpiel's card deals are)."""
    outcomes = state.chance_outcomes()
    if len(outcomes) == 1:
        return int(outcomes[0][0])
    if outcomes[0][1] == outcomes[-1][1]:
        return int(outcomes[rng.randrange(len(outcomes))][0])
    actions, probs = zip(*outcomes, strict=True)
    return int(rng.choices(actions, probs)[0])


def os_random_game(game: Any, rng: random.Random,
                   on_decision: Callable[[Any, list[int]], None] | None = None
                   ) -> tuple[Any, list[tuple[int, int]]]:
    """One OpenSpiel game of uniformly random legal actions (chance by its
    probabilities), with its history as (player, action), chance as -1."""
    state = game.new_initial_state()
    history: list[tuple[int, int]] = []
    while not state.is_terminal():
        if state.is_chance_node():
            a = os_chance(state, rng)
            history.append((-1, a))
        else:
            legal = state.legal_actions()
            if on_decision is not None:
                on_decision(state, legal)
            a = legal[rng.randrange(len(legal))]
            history.append((state.current_player(), a))
        state.apply_action(a)
    return state, history


def mean_ci(xs: list[float], z: float = 1.96) -> tuple[float, float]:
    """The mean and the half-width of its normal-approximation CI."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, z * math.sqrt(var / n)


def ratio_ci(sums: list[float], counts: list[float], z: float = 1.96) -> tuple[float, float]:
    """sum(sums) / sum(counts) over games, with a CI that treats the game (not the
    decision) as the unit: decisions of one game are not independent."""
    g = len(sums)
    total_n = sum(counts)
    r = sum(sums) / total_n
    if g < 2:
        return r, float("nan")
    nbar = total_n / g
    var = sum(((s - r * c) / nbar) ** 2 for s, c in zip(sums, counts, strict=True)) \
        / (g * (g - 1))
    return r, z * math.sqrt(var)


def chi2_p(table: list[list[int]]) -> float:
    """The p-value of a chi-square test of homogeneity of the rows of `table` (the
    Wilson-Hilferty approximation of the chi-square tail; columns with no count dropped)."""
    cols = [j for j in range(len(table[0])) if sum(row[j] for row in table) > 0]
    if len(cols) < 2:
        return 1.0
    rows = [[row[j] for j in cols] for row in table]
    stat = pearson(*rows)
    k = (len(rows) - 1) * (len(cols) - 1)
    zz = ((stat / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return 0.5 * math.erfc(zz / math.sqrt(2))


def pooled_bins(a: dict[int, int], b: dict[int, int], min_expected: float = 5.0
                ) -> list[list[int]]:
    """The values seen on either side, in order, pooled with their neighbours into bins
    whose expected count on each side (under equal distributions) is at least
    `min_expected` (Cochran's rule: the rare tail of long hands is one bin). Each bin is
    the list of its values; fewer than two bins when there is nothing to compare."""
    na, nb = sum(a.values()), sum(b.values())
    if not na or not nb:
        return []
    share = min(na, nb) / (na + nb)  # the smaller side's share of every bin
    bins: list[list[int]] = []
    cur: list[int] = []
    mass = 0
    for v in sorted(set(a) | set(b)):
        cur.append(v)
        mass += a.get(v, 0) + b.get(v, 0)
        if mass * share >= min_expected:
            bins.append(cur)
            cur, mass = [], 0
    if cur:  # a rare tail: into the last full bin
        if bins:
            bins[-1].extend(cur)
        else:
            bins.append(cur)
    return bins


def pearson(*rows: list[int]) -> float:
    """Pearson's chi-square statistic of the table of counts whose rows are `rows`
    (columns with no count add nothing)."""
    sums = [sum(r) for r in rows]
    total = sum(sums)
    stat = 0.0
    for col in zip(*rows, strict=True):
        ct = sum(col)
        if ct:
            for rt, x in zip(sums, col, strict=True):
                e = rt * ct / total
                if e > 0:
                    stat += (x - e) ** 2 / e
    return stat


def game_chi2_p(games_a: list[dict[int, int]], games_b: list[dict[int, int]],
                rng: random.Random, permutations: int = 1999) -> tuple[float, float]:
    """Do two sides' decisions have the same distribution of values (legal-move counts)?
    Each side is a list of games, each game the counts of each value over its decisions.

    The decisions of one game are not independent (a game of long hands has many
    decisions with many moves), so Pearson's chi-square read against its chi-square
    distribution, which counts every decision as independent, is far too ready to
    reject. Here the statistic (on bins pooled by `pooled_bins`) is read against its
    permutation distribution: under equal distributions the games are exchangeable
    between the sides, so whole games are dealt to the two sides at random
    `permutations` times. Returns (that p-value, the naive chi-square p-value)."""
    tot_a: dict[int, int] = {}
    tot_b: dict[int, int] = {}
    for games, tot in ((games_a, tot_a), (games_b, tot_b)):
        for g in games:
            for v, c in g.items():
                tot[v] = tot.get(v, 0) + c
    bins = pooled_bins(tot_a, tot_b)
    if len(bins) < 2:
        return 1.0, 1.0
    where = {v: i for i, vs in enumerate(bins) for v in vs}
    k = len(bins)

    def vec(g: dict[int, int]) -> list[int]:
        out = [0] * k
        for v, c in g.items():
            out[where[v]] += c
        return out

    vecs = [vec(g) for g in games_a] + [vec(g) for g in games_b]
    total = [sum(col) for col in zip(*vecs, strict=True)]
    na = len(games_a)
    a = [sum(col) for col in zip(*vecs[:na], strict=True)]
    observed = pearson(a, [t - x for t, x in zip(total, a, strict=True)])
    naive = chi2_p([a, [t - x for t, x in zip(total, a, strict=True)]])
    small = na <= len(vecs) - na  # sum the smaller side's games
    m = na if small else len(vecs) - na
    at_least = 0
    for _ in range(permutations):
        part = [sum(col) for col in zip(*map(vecs.__getitem__, rng.sample(range(len(vecs)), m)),
                                         strict=True)]
        rest = [t - x for t, x in zip(total, part, strict=True)]
        if pearson(part, rest) >= observed - 1e-9:
            at_least += 1
    return (at_least + 1) / (permutations + 1), naive


def command_line(description: str, games: int, argv: list[str] | None,
                 more: Callable[[Any], None] = lambda ap: None
                 ) -> tuple[Any, dict[str, Any], list[str]] | int:
    """The shared command line of the adapter scripts: the parsed arguments, the adapters
    found and the names chosen; or 2 (an unknown adapter, said on stderr). Exits with a
    message when pyspiel is missing. `more` adds a script's own options."""
    import argparse

    from openspiel_adapters import adapters

    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--game", action="append", help="an adapter (default: all): "
                    + ", ".join(adapters()))
    ap.add_argument("--games", type=int, default=games)
    more(ap)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    require_pyspiel()
    found = adapters()
    names = args.game or list(found)
    unknown = [n for n in names if n not in found]
    if unknown:
        print(f"unknown adapter(s): {', '.join(unknown)}; known: {', '.join(found)}",
              file=sys.stderr)
        return 2
    return args, found, names
