"""Charts of a run or of a comparison (`--plot DIR`), as PNG and SVG.

matplotlib is imported here only, and only when a chart is drawn. No pyplot: each chart is
a `Figure` rendered by the Agg backend (PNG) or the SVG backend, so nothing opens a window
and nothing depends on the user's matplotlib backend. The files are byte-for-byte
repeatable for the same figures (no dates, a fixed SVG id salt).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .metrics import estimate, histogram, metrics_for
from .simulate import Simulation

COLORS = ("#2c6db4", "#e0701b")  # A, B (blue and orange: told apart in grey and by most
WINNER = "#1b3d66"  # colour-blind readers too)
FAIR = "#7a7a7a"
Series = tuple[str, Sequence[float], str]  # (label, values, colour)


def _about(sides: Sequence[tuple[str, Simulation]]) -> str:
    """`Arsène, 4 players, 2,000 random games` (each, for a comparison)."""
    sim = sides[0][1]
    g = sim.game
    names = {s.game.name for _, s in sides}
    players = {s.game.players for _, s in sides}
    bots = {b for _, s in sides for b in s.bots}
    parts = [" vs ".join(sorted(names))]
    if len(players) == 1 and g.players > 1:
        parts.append(f"{g.players} players")
    parts.append(f"{sim.games:,} {'random ' if bots == {'random'} else ''}games"
                 + (" each, same seeds" if len(sides) > 1 else ""))
    return ", ".join(parts)


def _figure(title: str, sides: Sequence[tuple[str, Simulation]]) -> Any:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.2, 4.2), layout="constrained")
    ax = fig.add_subplot()
    ax.set_title(title, fontsize=11.5, loc="left", fontweight="bold", pad=18)
    ax.text(0, 1.015, _about(sides), transform=ax.transAxes, fontsize=9, color="#555555",
            va="bottom")
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.grid(axis="y", color="#e4e4e4", linewidth=0.8)
    ax.set_axisbelow(True)
    return fig, ax


def _save(fig: Any, out: Path, name: str) -> list[Path]:
    import matplotlib

    paths = []
    with matplotlib.rc_context({"svg.hashsalt": "cardgame", "svg.fonttype": "none"}):
        for ext, meta in (("png", {"Software": None}), ("svg", {"Date": None})):
            p = out / f"{name}.{ext}"
            fig.savefig(p, dpi=144, metadata=meta)
            paths.append(p)
    return paths


def _histogram(ax: Any, series: Sequence[Series], xlabel: str, ylabel: str = "games"
               ) -> None:
    """Overlaid histograms on shared bins: filled for one series, outlined for several."""
    every = [v for _, vals, _ in series for v in vals]
    h = histogram(every, bins=40)
    if not h.counts:
        return
    edges = list(h.edges)
    for k, (label, vals, color) in enumerate(series):
        filled = len(series) == 1 or k == 0
        ax.hist(vals, bins=edges, color=color, alpha=0.55 if filled else 1.0,
                histtype="stepfilled" if filled else "step", linewidth=1.8,
                edgecolor=color, label=label)
    from matplotlib.ticker import MaxNLocator

    # counts (games, seats) are whole: no tick at 17.5 of them
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if all(float(v).is_integer() for v in every):
        # whole moves or points: whole ticks, and a narrow spread (a game of a fixed
        # length: one value) widened around its bins, not ticked 19.6, 19.8, ...
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        if edges[-1] - edges[0] < 10:
            mid = (edges[0] + edges[-1]) / 2
            ax.set_xlim(mid - 5, mid + 5)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if len(series) > 1 or series[0][0]:
        ax.legend(frameon=False, fontsize=9)


def _label(sim: Simulation, name: str | None) -> str:
    return name or sim.game.name


def win_share(sides: Sequence[tuple[str, Simulation]], out: Path) -> list[Path]:
    """Each seat's share of wins with its 95% interval, and the fair share."""
    players = max(s.game.players for _, s in sides)
    title = ("Win share per seat, a shared first place split (95% intervals)" if players > 1
             else "Win rate (95% interval)")
    fig, ax = _figure(title, sides)
    width = 0.8 / len(sides)
    top = 0.0
    for k, (name, sim) in enumerate(sides):
        ms = {m.key: m for m in metrics_for(sim.game.players, [], [])}
        xs, ys, lo, hi = [], [], [], []
        for p in range(1, sim.game.players + 1):
            e = estimate(ms[f"share.p{p}" if sim.game.players > 1 else "win.p1"], sim.records)
            if e.value is None or e.low is None or e.high is None:
                continue
            xs.append(p + (k - (len(sides) - 1) / 2) * width)
            ys.append(100 * e.value)
            lo.append(100 * (e.value - e.low))
            hi.append(100 * (e.high - e.value))
            top = max(top, 100 * e.high)
        ax.bar(xs, ys, width=width * 0.92, color=COLORS[k % 2], alpha=0.85,
               label=_label(sim, name) if len(sides) > 1 else None)
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="none", ecolor="#222222", elinewidth=1.2,
                    capsize=4)
        for x, y, h in zip(xs, ys, hi, strict=True):
            ax.annotate(f"{y:.1f}%", (x, y + h), textcoords="offset points", xytext=(0, 3),
                        ha="center", fontsize=8, color="#333333")
    if players > 1:
        ax.axhline(100 / players, color=FAIR, linestyle="--", linewidth=1,
                   label=f"fair share {100 / players:.0f}%")
        top = max(top, 100 / players)
    ax.set_xticks(range(1, players + 1), [f"p{p}" for p in range(1, players + 1)]
                  if players > 1 else [""])
    ax.set_xlim(0.4, players + 0.6)
    ax.set_ylabel("share of first places (%)" if players > 1 else "games won (%)")
    ax.set_ylim(0, max(5.0, top * 1.25 + 1))  # room for the labels and the legend
    if players > 1:
        ax.legend(frameon=False, fontsize=9, loc="upper left", ncols=3)
    return _save(fig, out, "win_share")


def scores(sides: Sequence[tuple[str, Simulation]], out: Path) -> list[Path]:
    """Final scores of every seat (and, for one run of several players, the winner's)."""
    series: list[Series] = []
    for k, (name, sim) in enumerate(sides):
        ended = [r for r in sim.records if r.outcome == "ended"]
        label = _label(sim, name) + (" (all seats)" if sim.game.players > 1 else "")
        if len(sides) == 1 and sim.game.players == 1:
            label = ""  # one series: the title says it all
        series.append((label, [float(s) for r in ended for s in r.scores], COLORS[k % 2]))
    if len(sides) == 1 and sides[0][1].game.players > 1:
        sim = sides[0][1]
        won = []
        for r in sim.records:
            w = [i for i, x in enumerate(r.results) if x == "win"]
            if r.outcome == "ended" and len(w) == 1:
                won.append(float(r.scores[w[0]]))
        series.append(("the winner", won, WINNER))
    fig, ax = _figure("Final scores", sides)
    _histogram(ax, series, "final score",
               "seats" if any(s.game.players > 1 for _, s in sides) else "games")
    return _save(fig, out, "scores")


def length(sides: Sequence[tuple[str, Simulation]], out: Path) -> list[Path]:
    """Game length in moves, with each run's mean and its 95% interval."""
    series: list[Series] = []
    fig, ax = _figure("Game length (mean and 95% interval)", sides)
    for k, (name, sim) in enumerate(sides):
        ended = [float(r.moves) for r in sim.records if r.outcome == "ended"]
        m = {m.key: m for m in metrics_for(sim.game.players, [], [])}["moves"]
        e = estimate(m, sim.records)
        label = _label(sim, name)
        if e.value is not None:
            label += f": mean {e.value:.1f}"
            if e.low is not None and e.high is not None:
                label += f" [{e.low:.1f}, {e.high:.1f}]"
                ax.axvspan(e.low, e.high, color=COLORS[k % 2], alpha=0.25, linewidth=0)
            ax.axvline(e.value, color=COLORS[k % 2], linewidth=1.2, linestyle="--")
        series.append((label, ended, COLORS[k % 2]))
    _histogram(ax, series, "moves")
    return _save(fig, out, "length")


def lead_changes(sides: Sequence[tuple[str, Simulation]], out: Path) -> list[Path]:
    """How often the lead changed hands, per game (several players only)."""
    fig, ax = _figure("Lead changes per game", sides)
    vals = [[r.lead_changes for r in sim.records if r.lead_changes is not None]
            for _, sim in sides]
    top = max((max(v) for v in vals if v), default=0)
    width = 0.8 / len(sides)
    for k, ((name, sim), v) in enumerate(zip(sides, vals, strict=True)):
        if not v:
            continue
        counts = [sum(1 for x in v if x == c) for c in range(top + 1)]
        xs = [c + (k - (len(sides) - 1) / 2) * width for c in range(top + 1)]
        ax.bar(xs, [100 * c / len(v) for c in counts], width=width * 0.92,
               color=COLORS[k % 2], alpha=0.85, label=_label(sim, name))
    ax.set_xticks(range(top + 1))
    ax.set_xlabel("lead changes in the game")
    ax.set_ylabel("games (%)")
    if len(sides) > 1:
        ax.legend(frameon=False, fontsize=9)
    return _save(fig, out, "lead_changes")


def charts(sides: Sequence[tuple[str, Simulation]], out: str | Path) -> list[Path]:
    """Every chart of one run, or of two overlaid; returns the files written."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:  # pragma: no cover - matplotlib is a dependency
        from ..errors import UsageError

        raise UsageError("--plot needs matplotlib: pip install matplotlib") from None
    d = Path(out)
    d.mkdir(parents=True, exist_ok=True)
    paths = win_share(sides, d) + scores(sides, d) + length(sides, d)
    if any(sim.game.players > 1 for _, sim in sides):
        paths += lead_changes(sides, d)
    return paths
