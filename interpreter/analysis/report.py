"""A run as text (what `cardgame simulate` prints) and as JSON (`--json`; the schema is
in docs/analysis.md). Every rate and mean is shown as `estimate [low, high]`, its 95%
confidence interval."""

from __future__ import annotations

import math
import re
import textwrap
from collections.abc import Sequence
from typing import Any

from ..options import option_text
from . import stats
from .coverage import Coverage, arm_text, condition, config_text, summarize
from .metrics import (
    Histogram,
    Metric,
    end_reasons,
    estimate,
    histogram,
    metrics_for,
    phase_names,
    quantiles,
)
from .simulate import GameRecord, Simulation

BARS = " ▁▂▃▄▅▆▇█"
FORMAT = "cardgame-simulation"
VERSION = 1
SHOWN_ERRORS = 3


# ---------------------------------------------------------------------- numbers
def sparkline(h: Histogram) -> str:
    """A histogram in one line of block characters (an empty bin is a space)."""
    if not h.counts:
        return ""
    top = max(h.counts)
    return "".join(BARS[0] if c == 0 else BARS[max(1, round(8 * c / top))] for c in h.counts)


def num(x: float | None, digits: int = 2) -> str:
    if x is None:
        return "-"
    if float(x).is_integer() and abs(x) >= 100:
        return f"{x:,.0f}"
    return f"{x:,.{digits}f}"


def pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def shown(e: stats.Estimate, kind: str, digits: int = 2, fixed: bool = False) -> str:
    """`24.1% [22.3, 26.0]` or `3.25 [3.10, 3.40]` (no brackets without an interval). A
    mean gets the decimals its interval needs, or exactly `digits` when `fixed`."""
    if e.value is None:
        return "-"
    if kind in ("rate", "share"):  # a share: a mean of fractions, shown as a percentage
        head = pct(e.value)
        tail = (f" [{100 * e.low:.1f}, {100 * e.high:.1f}]"
                if e.low is not None and e.high is not None else "")
        return head + tail
    if e.low is None or e.high is None:
        return num(e.value, digits)
    if not fixed:
        digits = places(e.high - e.low, digits)
    return f"{num(e.value, digits)} [{num(e.low, digits)}, {num(e.high, digits)}]"


def places(width: float, digits: int) -> int:
    """Decimals that show an interval this wide (at least `digits`, at most 4)."""
    half = width / 2
    if half <= 0:
        return digits
    return min(4, max(digits, -math.floor(math.log10(half))))


def lowest(sim: Simulation) -> bool:
    res = sim.game.checked.result
    return res is not None and res.kind == "lowest"


def against(sim: Simulation) -> str:
    """The role the seats play against (`result against dealer`), by its label; ''."""
    res = sim.game.checked.result
    if res is None or res.kind != "against":
        return ""
    return str(sim.game.checked.roles.get(res.role, res.role))


def metrics_of(sim: Simulation) -> list[Metric]:
    return metrics_for(sim.game.players, phase_names(sim.records), end_reasons(sim.records),
                       lowest(sim), against(sim))


def coverage_of(sim: Simulation) -> Coverage:
    runs = [(sim.config, list(sim.records))] + [(c, recs) for c, recs in sim.sweep.items()]
    return summarize(sim.catalogue, runs)


def errors_of(records: Sequence[GameRecord]) -> list[GameRecord]:
    return [r for r in records if r.outcome in ("rule-error", "dead-end")]


# ---------------------------------------------------------------------- text
def simulation_text(sim: Simulation) -> str:
    """The report of a run, one figure (or one seat) a line."""
    g = sim.game
    recs = sim.records
    est = {m.key: (m, estimate(m, recs)) for m in metrics_of(sim)}
    ended = [r for r in recs if r.outcome == "ended"]
    total_moves = sum(r.moves for r in sim.all_records)
    played = len(sim.all_records)
    # options print as --set takes them (true/false), as every other command prints them
    opts = ", ".join(f"{k}={option_text(v)}" for k, v in g.options.items())
    who = ("random games" if set(sim.bots) == {"random"} else
           "games (" + ", ".join(sim.bots if len(set(sim.bots)) > 1 else sim.bots[:1])
           + (" bots)" if len(set(sim.bots)) > 1 else " bot)"))
    lines = [f"{g.name}: {sim.games} {who}, seed {sim.seed}"
             + (f", {g.players} players" if g.players > 1 else "")
             + (f" ({opts})" if opts else "")]
    secs = sim.seconds
    lines.append(f"  games/s        {played / secs if secs else 0:,.1f}")
    lines.append(f"  moves/s        {total_moves / secs if secs else 0:,.0f}")
    extra = played - sim.games
    lines.append(f"  played         {sim.games:,} games"
                 + (f" + {extra:,} for coverage" if extra else "")
                 + f" in {secs:.1f} s, {sim.runner}")
    vs = against(sim)
    if not ended:
        lines.append("  no game ended: no figures")
    elif vs:
        lines += _against_lines(sim, est, vs)
    elif g.players == 1:
        lines.append(f"  win rate       {shown(est['win.p1'][1], 'rate')}")
        sc = [float(r.scores[0]) for r in ended]
        lines.append(f"  score          {shown(est['score.p1'][1], 'mean')}   "
                     + _spread(sc))
    else:
        lines += _seat_lines(sim, est)
        lines.append(f"  winning score  {shown(est['winning_score'][1], 'mean')}, margin "
                     f"{shown(est['margin'][1], 'mean')}")
        sc = [float(s) for r in ended for s in r.scores]
        lines.append(f"  scores         {_spread(sc, ci=False)} (all seats)")
    if ended:
        lines += _length_lines(sim, est, ended)
        if g.players > 1 and not vs:
            lines += _race_lines(est, ended)
        lines += _end_lines(est)
    lines += _trouble_lines(sim)
    lines += coverage_lines(sim)
    return "\n".join(fit(line) for line in lines)


WIDTH = 79  # the report reads on an 80-column terminal
_SEAT_ROW = re.compile(r"  p[0-9]+ ")  # a row of the seat table: "  p1    25.0% ..."


def fit(line: str, width: int = WIDTH) -> str:
    """A long line wrapped at spaces, its continuation under the value column (or one
    step in), so that nothing wraps mid-word on an 80-column terminal."""
    if len(line) <= width or line.startswith(("  seat ", "  game ")) or _SEAT_ROW.match(line):
        # the seat table's rows are kept whole (a wrapped row reads worse), and so is a
        # failing game's line: its file:line:col message stays one line to copy or grep
        return line
    lead = len(line) - len(line.lstrip(" "))
    hang = " " * (17 if lead == 2 and len(line) > 17 and line[15:17] == "  " else lead + 2)
    return textwrap.fill(line, width, subsequent_indent=hang, break_long_words=False,
                         break_on_hyphens=False, drop_whitespace=True)


def _spread(vals: Sequence[float], ci: bool = True) -> str:
    """`median 12 [11, 13]  p10 8  p90 16  ▁▃█▆▂ 2..25`."""
    if not vals:
        return ""
    q = quantiles(vals)
    m = q["p50"]
    med = num(m.value, 0)
    if ci and m.low is not None and m.high is not None:
        digits = 0 if all(float(v).is_integer() for v in vals) else 2
        med = shown(m, "mean", digits) if digits else f"{med} [{num(m.low, 0)}, {num(m.high, 0)}]"
    h = histogram(vals)
    return (f"median {med}  p10 {num(q['p10'].value, 0)}  p90 {num(q['p90'].value, 0)}  "
            f"{sparkline(h)} {num(min(vals), 0)}..{num(max(vals), 0)}")


def _against_lines(sim: Simulation, est: dict[str, tuple[Metric, stats.Estimate]],
                   vs: str) -> list[str]:
    """Each seat's wins, pushes and losses against the role, and its score (payout)."""
    rows = [("win", "win", "rate"), ("push", "push", "rate"), ("loss", "loss", "rate"),
            ("score", "score", "mean")]
    n = sim.game.players
    cells = [[shown(est[f"{k}.p{p}"][1], kind) for _, k, kind in rows] for p in range(1, n + 1)]
    width = [max(len(head), *(len(c[i]) for c in cells)) for i, (head, _, _) in enumerate(rows)]
    lines = [f"  against {vs}:",
             ("  seat  " + "  ".join(head.ljust(w) for (head, _, _), w in zip(
                 rows, width, strict=True))).rstrip()]
    for p in range(1, n + 1):
        row = "  ".join(c.ljust(w) for c, w in zip(cells[p - 1], width, strict=True))
        lines.append(f"  p{p:<5}{row.rstrip()}")
    return lines


def _seat_lines(sim: Simulation, est: dict[str, tuple[Metric, stats.Estimate]]) -> list[str]:
    n = sim.game.players
    fair = 1 / n
    rows = [("win share", "share", "share"), ("wins", "win", "rate"),
            ("shared 1st", "draw", "rate"), ("score", "score", "mean")]
    cells = [[shown(est[f"{k}.p{p}"][1], kind) for _, k, kind in rows] for p in range(1, n + 1)]
    width = [max(len(head), *(len(c[i]) for c in cells)) for i, (head, _, _) in enumerate(rows)]
    lines = [("  seat  " + "  ".join(head.ljust(w) for (head, _, _), w in zip(
        rows, width, strict=True))).rstrip()]
    above, below = [], []
    for p in range(1, n + 1):
        e = est[f"share.p{p}"][1]
        mark = ""
        # the flag reads the interval as shown (to 0.1%): it never contradicts the row
        if e.low is not None and _tenths(e.low) > _tenths(fair):
            mark = " ▲"
            above.append(p)
        elif e.high is not None and _tenths(e.high) < _tenths(fair):
            mark = " ▼"
            below.append(p)
        row = "  ".join(c.ljust(w) for c, w in zip(cells[p - 1], width, strict=True))
        lines.append(f"  p{p:<5}{row.rstrip()}{mark}")
    verdict = []
    if above:
        verdict.append(", ".join(f"p{p}" for p in above) + " above (▲)")
    if below:
        verdict.append(", ".join(f"p{p}" for p in below) + " below (▼)")
    lines.append(f"        fair share {pct(fair)}: "
                 + ("; ".join(verdict) if verdict else "no seat differs significantly"))
    return lines


def _tenths(x: float) -> int:
    """A fraction in tenths of a percent, as `shown` prints it."""
    return int(f"{1000 * x:.0f}")


def _length_lines(sim: Simulation, est: dict[str, tuple[Metric, stats.Estimate]],
                  ended: list[GameRecord]) -> list[str]:
    mv = [float(r.moves) for r in ended]
    lines = [f"  moves          {shown(est['moves'][1], 'mean', 1)}  {_spread(mv)}"]
    phases = [(m, e) for k, (m, e) in est.items() if k.startswith("phase.")]
    if phases:
        parts = [f"{m.key[6:]!r} {shown(e, 'mean')}" for m, e in phases]
        lines.append("  phases entered " + "; ".join(parts))
    lines.append(f"  branching      {shown(est['branching'][1], 'mean')} legal moves per "
                 "decision")
    return lines


def _race_lines(est: dict[str, tuple[Metric, stats.Estimate]], ended: list[GameRecord]
                ) -> list[str]:
    lc = [float(r.lead_changes) for r in ended if r.lead_changes is not None]
    h = histogram(lc)
    lines = [f"  lead changes   {shown(est['lead_changes'][1], 'mean')} per game  "
             f"{sparkline(h)} {num(min(lc), 0)}..{num(max(lc), 0)}" if lc else
             "  lead changes   -"]
    d = est["decisiveness"][1]
    if d.value is not None:
        lines.append(f"  decisiveness   {shown(d, 'mean')}: the winner leads for good over "
                     f"the last {100 * d.value:.0f}% of the game")
    dr, cb = est["drama"][1], est["comeback"][1]
    if dr.value is not None:
        lines.append(f"  drama          {shown(dr, 'mean')} points at worst behind the "
                     f"leader; the winner was behind in {shown(cb, 'rate')} of games")
    return lines


def _end_lines(est: dict[str, tuple[Metric, stats.Estimate]]) -> list[str]:
    ends = [(m, e) for k, (m, e) in est.items() if k.startswith("end.")]
    lines = []
    for i, (m, e) in enumerate(ends):
        head = "  end reasons    " if i == 0 else "                 "
        lines.append(f"{head}{shown(e, 'rate')} {m.key[4:]}")
    return lines


def _trouble_lines(sim: Simulation) -> list[str]:
    lines = []
    counts = {o: sum(1 for r in sim.records if r.outcome == o)
              for o in ("rule-error", "dead-end", "unfinished")}
    for key, label in (("rule-error", "rule errors"), ("dead-end", "dead ends"),
                       ("unfinished", "unfinished (hit --max-moves)")):
        if counts[key]:
            lines.append(f"  {label}: {counts[key]}")
    for r in errors_of(sim.records)[:SHOWN_ERRORS]:
        lines.append(f"  game {r.index} (deal seed {r.seed}): {_trouble(r)}")
    for cfg, recs in sim.sweep.items():
        bad = errors_of(recs)
        if bad:
            lines.append(f"  with {config_text(cfg, sim.game)}: {len(bad)} game"
                         f"{'s' if len(bad) != 1 else ''} failed, e.g. game {bad[0].index} "
                         f"(deal seed {bad[0].seed}): {_trouble(bad[0])}")
    return lines


def _trouble(r: GameRecord) -> str:
    if r.outcome == "dead-end":
        return f"dead end after {r.moves} moves: nobody can move and the game is not over"
    return r.error or r.outcome


def coverage_lines(sim: Simulation) -> list[str]:
    cov = coverage_of(sim)
    g = sim.game
    n = len(cov.configs)
    counts = {k: sum(1 for r in cov.rules if r.kind == k)
              for k in ("move", "choice", "end", "branch")}
    what = ", ".join(f"{counts[k]} {word}{plural if counts[k] != 1 else ''}"
                     for k, word, plural in (("move", "move", "s"), ("choice", "choice", "s"),
                                             ("end", "ending", "s"),
                                             ("branch", "branch", "es")) if counts[k])
    if n == 1:
        head = f"  coverage       {what}, over this run's {cov.games[0]:,} games"
    else:
        head = (f"  coverage       {what}, over {n} configurations: this run's "
                f"{cov.games[0]:,} games and {cov.games[1]:,} of each other one")
    lines = [head]
    failed = len(errors_of(sim.all_records))
    if not judged(sim):
        # games cut short (by failures or --max-moves) have not seen enough to call a
        # rule dead
        lines.append("    not judged: no game ended"
                     + (f" ({failed} failed)" if failed else ""))
        return lines
    if failed:
        lines.append(f"    ({failed} game{'s' if failed != 1 else ''} failed: "
                     "they count up to their failure)")
    never = cov.never()
    if never:
        lines.append(f"    never fired{' in any configuration' if n > 1 else ''}:")
        lines += [f"      {_rule_text(r)}{_why_never(r, cov)}" for r in never]
    elsewhere = cov.elsewhere()
    if elsewhere:
        lines.append(f"    not with {config_text(cov.configs[0], g)}, only:")
        lines += [f"      {_rule_text(r)}: {condition(cov, r.fired_in)}" for r in elsewhere]
    if not never and not elsewhere:
        lines.append("    every one fired in this run")
    elif not never and n > 1:
        lines.append("    every rule fired in some configuration")
    return lines


def judged(sim: Simulation) -> bool:
    """Can the run call a rule dead? Not when no game of it ended."""
    return any(r.outcome == "ended" for r in sim.records)


def _rule_text(r: Any) -> str:
    where = f" ({r.where})" if r.where else ""
    if r.kind == "branch":
        return f"branch `{r.text}`{where}: {arm_text(r.arm)}"
    return f"{r.kind} `{r.text}`{where}"


def _why_never(r: Any, cov: Coverage) -> str:
    if r.kind == "move":
        return ": legal, never chosen by the bots" if r.legal_in else ": never legal"
    return ""


# ---------------------------------------------------------------------- JSON
def estimates_json(sim: Simulation) -> dict[str, Any]:
    return {m.key: estimate(m, sim.records).to_json() for m in metrics_of(sim)}


def simulation_json(sim: Simulation) -> dict[str, Any]:
    """The report as a JSON-ready dict (docs/analysis.md, "JSON")."""
    g = sim.game
    ended = [r for r in sim.records if r.outcome == "ended"]
    every = sim.all_records
    mv = [float(r.moves) for r in ended]
    sc = [float(s) for r in ended for s in r.scores]
    cov = coverage_of(sim)
    return {
        "format": FORMAT, "version": VERSION,
        "game": g.name, "ref": sim.ref, "players": g.players, "options": g.options,
        "bots": list(sim.bots), "games": sim.games, "seed": sim.seed,
        "max_moves": sim.max_moves,
        "seconds": round(sim.seconds, 4),
        "games_per_second": round(len(every) / sim.seconds, 2) if sim.seconds else None,
        "moves_per_second": (round(sum(r.moves for r in every) / sim.seconds, 1)
                             if sim.seconds else None),
        "runner": sim.runner, "tasks": sim.batch_count,
        "outcomes": {o: sum(1 for r in sim.records if r.outcome == o)
                     for o in ("ended", "unfinished", "dead-end", "rule-error")},
        "longest_game": max((r.moves for r in sim.records), default=0),
        "metrics": estimates_json(sim),
        "distributions": {
            "moves": _dist_json(mv, True),
            "scores": _dist_json(sc, False),
            "lead_changes": _dist_json([float(r.lead_changes) for r in ended
                                        if r.lead_changes is not None], False),
        },
        "errors": [{"game": r.index, "seed": r.seed, "outcome": r.outcome,
                    "message": _trouble(r)} for r in errors_of(sim.records)[:SHOWN_ERRORS]],
        "coverage": coverage_json(cov, sim),
    }


def _dist_json(vals: list[float], ci: bool) -> dict[str, Any]:
    h = histogram(vals)
    q = quantiles(vals) if vals else {}
    return {
        "quantiles": {k: (e.to_json() if ci else e.value) for k, e in q.items()},
        "histogram": {"edges": list(h.edges), "counts": list(h.counts)},
    }


def coverage_json(cov: Coverage, sim: Simulation) -> dict[str, Any]:
    return {
        "judged": judged(sim),
        "configurations": [{"players": n, "options": dict(opts), "games": k}
                           for (n, opts), k in zip(cov.configs, cov.games, strict=True)],
        "rules": [{"kind": r.kind, "text": r.text, "where": r.where, "here": r.here,
                   "fired_in": list(r.fired_in),
                   **({"legal_in": list(r.legal_in)} if r.kind == "move" else {}),
                   **({"arm": r.arm} if r.kind == "branch" else {})}
                  for r in cov.rules],
        "failed_elsewhere": {config_text(c, sim.game): len(errors_of(recs))
                             for c, recs in sim.sweep.items() if errors_of(recs)},
    }
