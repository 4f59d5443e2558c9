"""The metrics of a run, each a function of one game's record, summed up with its 95%
interval (stats.py). docs/analysis.md defines each one precisely.

A metric is a *rate* (a 0/1 outcome per game: Wilson's interval) or a *mean* (a number
per game: the t interval). Each is defined on a population of games: every game, the
games that ended, or the games with a single winner; a game outside it has no value.
`compare` pairs the values of games with the same index.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from . import stats
from .simulate import GameRecord


@attrs.frozen
class Metric:
    key: str  # stable, for JSON: "win.p1", "moves", "phase.Tricks", "end.every store ..."
    label: str  # for people: "p1 wins", "moves"
    kind: str  # rate, mean
    value: Callable[[GameRecord], float | None]  # None: not defined for this game
    unit: str = ""  # %, moves, points...
    # the values' possible range, where there is one (a share lies in [0, 1]): the t
    # interval of a mean is cut to it, so that no interval claims an impossible value
    within: tuple[float, float] | None = None
    # "score": a mean of values in [0, 1] (a win share) gets Wilson's score interval on
    # the values' sum, sound for small samples where a t interval is not (stats.share_ci)
    interval: str = "t"


def _single_winner(r: GameRecord) -> int | None:
    if r.outcome != "ended":
        return None
    w = [i for i, x in enumerate(r.results) if x == "win"]
    return w[0] if len(w) == 1 else None


def metrics_for(players: int, phases: Sequence[str], endings: Sequence[str],
                lowest: bool = False, against: str = "") -> list[Metric]:
    """The metrics of a game with this many seats, these phase names and end reasons
    (for `compare`, the union of both games'). `against`: the role every seat plays
    against (`result against dealer: ...`), whose games end in a win, push or loss."""
    out: list[Metric] = []
    if against:
        for p in range(players):
            for want, word in (("win", "wins"), ("push", "pushes"), ("loss", "loses")):
                out.append(Metric(f"{want}.p{p + 1}", f"p{p + 1} {word} against {against}",
                                  "rate", _result(p, want), "%"))
            out.append(Metric(f"score.p{p + 1}", f"p{p + 1} score", "mean", _score(p),
                              "points"))
    elif players == 1:
        out.append(Metric("win.p1", "wins", "rate", _result(0, "win"), "%"))
        out.append(Metric("score.p1", "score", "mean", _score(0), "points"))
    else:
        out += [Metric(f"share.p{p + 1}", f"p{p + 1} win share", "mean", _share(p), "%",
                       (0.0, 1.0), "score") for p in range(players)]
        out += [Metric(f"win.p{p + 1}", f"p{p + 1} wins", "rate", _result(p, "win"), "%")
                for p in range(players)]
        out += [Metric(f"draw.p{p + 1}", f"p{p + 1} shares first place", "rate",
                       _result(p, "draw"), "%") for p in range(players)]
        out += [Metric(f"score.p{p + 1}", f"p{p + 1} score", "mean", _score(p), "points")
                for p in range(players)]
        out.append(Metric("winning_score", "winning score", "mean", _winning_score,
                          "points"))
        out.append(Metric("margin", "winning margin", "mean", _margin(lowest), "points"))
    out.append(Metric("moves", "moves", "mean", _moves, "moves"))
    out += [Metric(f"phase.{ph}", f"phase '{ph}' entered", "mean", _phase(ph), "times")
            for ph in phases]
    out.append(Metric("branching", "branching factor", "mean", _branching, "moves"))
    if players > 1:
        out.append(Metric("lead_changes", "lead changes", "mean", _lead_changes, "per game"))
        out.append(Metric("decisiveness", "decisiveness", "mean", _decisiveness, "",
                          (0.0, 1.0)))
        out.append(Metric("drama", "drama", "mean", _drama, "points"))
        out.append(Metric("comeback", "winner was behind", "rate", _comeback, "%"))
    out += [Metric(f"end.{reason}", f"ends: {reason}", "rate", _ending(reason), "%")
            for reason in endings]
    out.append(Metric("unfinished", "unfinished (--max-moves)", "rate",
                      _outcome("unfinished"), "%"))
    out.append(Metric("dead_end", "dead ends", "rate", _outcome("dead-end"), "%"))
    out.append(Metric("rule_error", "rule errors", "rate", _outcome("rule-error"), "%"))
    return out


PerGame = Callable[[GameRecord], float | None]


def _result(p: int, want: str) -> PerGame:
    def f(r: GameRecord) -> float | None:
        if r.outcome != "ended" or p >= len(r.results):
            return None
        return float(r.results[p] == want)
    return f


def _share(p: int) -> PerGame:
    """1 for a win, 1/k for a first place shared by k seats, else 0: the seats' shares
    of a game add up to 1 (when somebody comes first), so the fair share is 1/n."""
    def f(r: GameRecord) -> float | None:
        if r.outcome != "ended" or p >= len(r.results):
            return None
        firsts = [i for i, x in enumerate(r.results) if x in ("win", "draw")]
        return 1 / len(firsts) if p in firsts else 0.0
    return f


def _score(p: int) -> PerGame:
    def f(r: GameRecord) -> float | None:
        return float(r.scores[p]) if r.outcome == "ended" and p < len(r.scores) else None
    return f


def _phase(name: str) -> PerGame:
    def f(r: GameRecord) -> float | None:
        return float(dict(r.phases).get(name, 0)) if r.outcome == "ended" else None
    return f


def _ending(reason: str) -> PerGame:
    def f(r: GameRecord) -> float | None:
        return float(r.end_reason == reason) if r.outcome == "ended" else None
    return f


def _outcome(which: str) -> PerGame:
    def f(r: GameRecord) -> float | None:
        return float(r.outcome == which)
    return f


def _moves(r: GameRecord) -> float | None:
    return float(r.moves) if r.outcome == "ended" else None


def _lead_changes(r: GameRecord) -> float | None:
    return None if r.lead_changes is None else float(r.lead_changes)


def _decisiveness(r: GameRecord) -> float | None:
    return r.decisiveness


def _drama(r: GameRecord) -> float | None:
    return r.drama


def _comeback(r: GameRecord) -> float | None:
    return None if r.drama is None else float(r.drama > 0)


def _winning_score(r: GameRecord) -> float | None:
    w = _single_winner(r)
    return None if w is None else float(r.scores[w])


def _margin(lowest: bool) -> PerGame:
    def f(r: GameRecord) -> float | None:
        w = _single_winner(r)
        if w is None or len(r.scores) < 2:
            return None
        others = [s for i, s in enumerate(r.scores) if i != w]
        return float((min(others) - r.scores[w]) if lowest else (r.scores[w] - max(others)))
    return f


def _branching(r: GameRecord) -> float | None:
    if r.outcome != "ended" or r.decisions == 0:
        return None
    return r.legal_sum / r.decisions


def values(metric: Metric, records: Sequence[GameRecord]) -> dict[int, float]:
    """game index -> the metric's value, for the games where it is defined."""
    out: dict[int, float] = {}
    for r in records:
        v = metric.value(r)
        if v is not None:
            out[r.index] = float(v)
    return out


def estimate(metric: Metric, records: Sequence[GameRecord]) -> stats.Estimate:
    vals = list(values(metric, records).values())
    if metric.kind == "rate":
        return stats.wilson(sum(1 for v in vals if v), len(vals))
    if metric.interval == "score":
        return stats.share_ci(vals)
    e = stats.mean_ci(vals)
    if metric.within is not None and e.low is not None and e.high is not None:
        lo, hi = metric.within
        e = attrs.evolve(e, low=max(e.low, lo), high=min(e.high, hi))
    return e


def difference(metric: Metric, a: Sequence[GameRecord], b: Sequence[GameRecord]
               ) -> stats.Estimate:
    """B - A. Paired when the metric is defined on the same games in both runs (the same
    seeds: common random numbers), so that the difference of the two shown figures is
    exactly the mean of the per-game differences; unpaired otherwise."""
    va, vb = values(metric, a), values(metric, b)
    if va.keys() == vb.keys():
        pairs = [(va[i], vb[i]) for i in sorted(va)]
        if metric.kind == "rate":
            return stats.newcombe_paired([(bool(x), bool(y)) for x, y in pairs])
        return stats.paired_diff(pairs)
    if metric.kind == "rate":
        return stats.newcombe(sum(1 for v in va.values() if v), len(va),
                              sum(1 for v in vb.values() if v), len(vb))
    return stats.welch_diff(list(va.values()), list(vb.values()))


def phase_names(records: Sequence[GameRecord]) -> list[str]:
    """Phases in the order games first enter them (by first game, then name)."""
    seen: dict[str, None] = {}
    for r in records:
        for name, _ in r.phases:
            seen.setdefault(name, None)
    return list(seen)


def end_reasons(records: Sequence[GameRecord]) -> list[str]:
    """End reasons, most frequent first."""
    count: dict[str, int] = {}
    for r in records:
        if r.end_reason is not None:
            count[r.end_reason] = count.get(r.end_reason, 0) + 1
    return sorted(count, key=lambda k: (-count[k], k))


# ---------------------------------------------------------------------- distributions
@attrs.frozen
class Histogram:
    edges: tuple[float, ...]  # len(counts) + 1 bin edges; integer data: one bin per value
    counts: tuple[int, ...]


def histogram(vals: Sequence[float], bins: int = 24) -> Histogram:
    if not vals:
        return Histogram((), ())
    lo, hi = min(vals), max(vals)
    integral = all(float(v).is_integer() for v in vals)
    if integral and hi - lo + 1 <= bins:
        edges = [lo - 0.5 + i for i in range(int(hi - lo) + 2)]
    else:
        if hi == lo:
            hi = lo + 1
        step = (hi - lo) / bins
        if integral:  # whole-number bins, so no bin is empty for lack of an integer
            step = max(1.0, float(round(step + 0.4999)))
            bins = int((hi - lo) // step) + 1
            edges = [lo - 0.5 + i * step for i in range(bins + 1)]
        else:
            edges = [lo + i * step for i in range(bins + 1)]
    counts = [0] * (len(edges) - 1)
    width = edges[1] - edges[0]
    for v in vals:
        k = min(int((v - edges[0]) // width), len(counts) - 1)
        counts[k] += 1
    return Histogram(tuple(edges), tuple(counts))


def quantiles(vals: Sequence[float], qs: Sequence[float] = (0.1, 0.25, 0.5, 0.75, 0.9)
              ) -> dict[str, stats.Estimate]:
    """`p10`... -> each quantile with its order-statistic interval."""
    s = sorted(vals)
    return {f"p{round(q * 100)}": stats.quantile_ci(s, q) for q in qs}
