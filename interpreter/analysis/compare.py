"""Two games, or two variants of one, played on the same seeds (`cardgame compare`).

Game i of A and game i of B get the same deal seed and the same bot seeds: common random
numbers, so a difference comes from the rules, not from luckier deals, and each metric's
difference B - A is estimated on pairs of games where it can be (metrics.difference).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from ..options import option_text
from . import stats
from .coverage import arm_text, summarize
from .metrics import Metric, difference, end_reasons, estimate, metrics_for, phase_names
from .parallel import Runner, make_runner
from .report import against, lowest, places, shown, simulation_json
from .simulate import Progress, Simulation, simulate

FORMAT = "cardgame-comparison"
VERSION = 1


@attrs.frozen
class Side:
    """One side of a comparison: a game (name or file), players, options, bots."""

    game: str
    players: int | None = None
    settings: tuple[tuple[str, str], ...] = ()
    bots: tuple[str, ...] = ()


@attrs.frozen
class Row:
    metric: Metric
    a: stats.Estimate
    b: stats.Estimate
    diff: stats.Estimate


@attrs.define
class Comparison:
    a: Simulation
    b: Simulation
    label_a: str
    label_b: str
    rows: list[Row]


def labels(a: Side, b: Side) -> tuple[str, str]:
    """What tells A from B: the game, then the player count, options and bots that differ."""
    def text(s: Side, other: Side) -> str:
        parts = [s.game]
        if s.players != other.players and s.players is not None:
            parts.append(f"{s.players} players")
        mine, theirs = dict(s.settings), dict(other.settings)
        parts += [f"{k}={v}" for k, v in sorted(mine.items()) if theirs.get(k) != v]
        if s.bots != other.bots and s.bots:
            parts.append("bots " + ",".join(s.bots))
        return " ".join(parts)

    return text(a, b), text(b, a)


def compare(a: Side, b: Side, games: int, seed: int, max_moves: int = 100_000, *,
            runner: Runner | None = None, batch: int | None = None,
            progress: Progress | None = None) -> Comparison:
    """Play `games` games of each side on the same seeds; every metric side by side."""
    own = runner is None
    run = runner if runner is not None else make_runner()
    try:
        sims = []
        for k, side in enumerate((a, b)):
            def tick(done: int, total: int, k: int = k) -> None:
                if progress is not None:
                    progress(k * games + done, 2 * games)

            sims.append(simulate(side.game, games, seed, max_moves, players=side.players,
                                 settings=dict(side.settings), bots=side.bots or None,
                                 runner=run, batch=batch, progress=tick))
    finally:
        if own:
            run.close()
    sa, sb = sims
    la, lb = labels(a, b)
    return Comparison(sa, sb, la, lb, rows(sa, sb))


def rows(sa: Simulation, sb: Simulation) -> list[Row]:
    recs = sa.records + sb.records
    ms = metrics_for(max(sa.game.players, sb.game.players), phase_names(recs),
                     end_reasons(recs), lowest(sa), against(sa) or against(sb))
    out = []
    for m in ms:
        ea, eb = estimate(m, sa.records), estimate(m, sb.records)
        if ea.n == 0 and eb.n == 0:
            continue
        out.append(Row(m, ea, eb, difference(m, sa.records, sb.records)))
    return out


def coverage_differences(c: Comparison) -> tuple[list[str], list[str]]:
    """Rules that fired in one run and not in the other (by kind and text, and a
    branch's arm)."""
    def fired(s: Simulation) -> dict[tuple[str, str, str], str]:
        cov = summarize(s.catalogue, [(s.config, list(s.records))])
        return {(r.kind, r.text, r.arm): r.where for r in cov.rules if r.here}

    def known(s: Simulation) -> set[tuple[str, str, str]]:
        cov = summarize(s.catalogue, [(s.config, [])])
        return {(r.kind, r.text, r.arm) for r in cov.rules}

    def text(k: str, t: str, arm: str) -> str:
        return f"{k} `{t}`" + (f": {arm_text(arm)}" if arm else "")

    fa, fb = fired(c.a), fired(c.b)
    # a rule B does not have at all is no news: only rules both games have count
    only_a = [text(*r) for r in fa if r not in fb and r in known(c.b)]
    only_b = [text(*r) for r in fb if r not in fa and r in known(c.a)]
    return only_a, only_b


# ---------------------------------------------------------------------- reports
def display_kind(m: Metric) -> str:
    """rate, share (a mean of fractions, shown in %) or mean."""
    return "share" if m.kind == "mean" and m.unit == "%" else m.kind


def _diff_text(e: stats.Estimate, kind: str) -> str:
    if e.value is None:
        return "-"
    if kind in ("rate", "share"):
        d = 1
        if e.significant:  # no bound may round to 0 where 0 is outside the interval
            while d < 4 and 100 * min(abs(e.low or 0), abs(e.high or 0)) < 0.5 * 10 ** -d:
                d += 1
        body = f"{100 * e.value:+.{d}f} pts"
        if e.low is not None and e.high is not None:
            body += f" [{100 * e.low:+.{d}f}, {100 * e.high:+.{d}f}]"
    else:
        d = 2 if e.low is None or e.high is None else places(e.high - e.low, 2)
        if e.significant:  # no bound may round to 0 where 0 is outside the interval
            while d < 6 and min(abs(e.low or 0), abs(e.high or 0)) < 0.5 * 10 ** -d:
                d += 1
        body = f"{e.value:+.{d}f}"
        if e.low is not None and e.high is not None:
            body += f" [{e.low:+.{d}f}, {e.high:+.{d}f}]"
    return body + (" *" if e.significant else "")


def comparison_text(c: Comparison) -> str:
    sa, sb = c.a, c.b
    who = ("random games" if set(sa.bots) | set(sb.bots) == {"random"} else "games")
    lines = [f"compare: {sa.games} {who} each, on the same seeds (seed {sa.seed})",
             f"  A  {c.label_a}: {sa.game.name}, {_setting(sa)}",
             f"  B  {c.label_b}: {sb.game.name}, {_setting(sb)}",
             f"  played in {sa.seconds + sb.seconds:.1f} s, {sa.runner}"]
    table = [("metric", "A", "B", "B - A")]
    for r in c.rows:
        k = display_kind(r.metric)
        # both sides with the same decimals: those the narrower interval needs
        d = max(places(e.high - e.low, 2) if e.high is not None and e.low is not None else 2
                for e in (r.a, r.b))
        table.append((r.metric.label, shown(r.a, k, d, fixed=True),
                      shown(r.b, k, d, fixed=True), _diff_text(r.diff, k)))
    width = [max(len(row[i]) for row in table) for i in range(4)]
    for row in table:
        lines.append("  " + "  ".join(cell.ljust(w) for cell, w in zip(row, width,
                                                                       strict=True)).rstrip())
    n_sig = sum(1 for r in c.rows if r.diff.significant)
    lines.append(f"  * the 95% interval of B - A excludes 0 ({n_sig} of {len(c.rows)} rows; "
                 f"about 1 row in 20 is flagged by chance alone)")
    only_a, only_b = coverage_differences(c)
    if only_a:
        lines.append("  fired in A only: " + ", ".join(only_a))
    if only_b:
        lines.append("  fired in B only: " + ", ".join(only_b))
    for s, name in ((sa, "A"), (sb, "B")):
        bad = sum(1 for r in s.records if r.outcome in ("rule-error", "dead-end"))
        if bad:
            lines.append(f"  {name}: {bad} games failed (rule errors or dead ends); run "
                         "`cardgame simulate` on it for the details")
    return "\n".join(lines)


def _setting(s: Simulation) -> str:
    g = s.game
    parts = [f"{g.players} player{'s' if g.players != 1 else ''}"]
    parts += [f"{k}={option_text(v)}" for k, v in g.options.items()]
    bots = s.bots if len(set(s.bots)) > 1 else s.bots[:1]
    parts.append("bots " + ",".join(bots))
    return ", ".join(parts)


def comparison_json(c: Comparison) -> dict[str, Any]:
    only_a, only_b = coverage_differences(c)
    return {
        "format": FORMAT, "version": VERSION,
        "labels": {"a": c.label_a, "b": c.label_b},
        "games": c.a.games, "seed": c.a.seed,
        "differences": {r.metric.key: {
            "label": r.metric.label, "kind": r.metric.kind, "a": r.a.to_json(),
            "b": r.b.to_json(), "difference": r.diff.to_json(),
            "significant": r.diff.significant} for r in c.rows},
        "fired_only_in": {"a": only_a, "b": only_b},
        "a": simulation_json(c.a), "b": simulation_json(c.b),
    }


def side(game: str | Path, players: int | None, settings: dict[str, str],
         bots: Sequence[str] | None) -> Side:
    return Side(str(game), players, tuple(sorted(settings.items())), tuple(bots or ()))

