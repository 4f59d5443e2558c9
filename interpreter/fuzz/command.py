"""`fuzz(...)`, the Python API, and `run_fuzz(args)`, the `cardgame fuzz` command.

The properties every game must have (cards are conserved, legal moves apply, no dead
end, termination, determinism, JSON round trip, no hidden-information leak, no rule
error, the declared invariants) are checked by `playthrough`; see docs/fuzz.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, TextIO

import attrs

from ..engine import Game
from ..errors import Diagnostic, Diagnostics, UsageError
from ..examples import json_report, run_examples, text_report
from ..options import option_text, parse_settings
from ..terminal import counted, listed, sanitize
from .playthrough import Counterexample, Coverage, Playthrough
from .report import (
    FuzzReport,
    coverage_warnings,
    default_replay_path,
    describe,
    format_report,
    report_json,
    save_replay,
)
from .search import (
    DB_DIR,
    DEFAULT_SECONDS,
    DEFAULT_SHRINK_SECONDS,
    USE_DEFAULT_DB,
    Budget,
    Progress,
    Search,
    digest,
    open_database,
)


def check_budget(examples: int | None, seconds: float | None, max_moves: int) -> None:
    """The limits of a run, checked before anything is compiled."""
    if examples is not None and examples < 1:
        raise UsageError("--examples must be at least 1")
    if seconds is not None and not seconds > 0:  # `not >`: nan is refused too
        raise UsageError("--seconds must be more than 0")
    if seconds is not None and not math.isfinite(seconds):
        raise UsageError("--seconds must be a finite number")
    if max_moves < 1:
        raise UsageError("--max-moves must be at least 1")


def fuzz(game: str | Path | Game, *, players: int | None = None,
         options: dict[str, str] | None = None, seed: int | None = None,
         examples: int | None = None, seconds: float | None = None, max_moves: int = 2000,
         database: Any = USE_DEFAULT_DB, shrink_seconds: float = DEFAULT_SHRINK_SECONDS,
         out: str | Path | None = None, write_replay: bool = True,
         progress: TextIO | None = None, game_ref: str | None = None,
         shrink_games: int | None = None, fast_walks: bool = True) -> FuzzReport:
    """Fuzz one game; the report says what failed (if anything) and how to replay it.

    `game` is a bundled name, a .cardgame path or a compiled Game. Give `examples` (the
    number of playthroughs) or `seconds` (default 20 s). `database` is a directory, a
    Hypothesis database, or None for none (default: `.cardgame/fuzz-db` here). With
    `write_replay`, a counterexample is saved to `out` (default
    `.cardgame/counterexample-<game>.json`). `shrink_games` bounds the games of the search
    for a shorter failure (see `search.Search`), for a run that does not depend on time. With
    `fast_walks` (the default), fast checked walks run between the full playthroughs
    (see `fast.py`)."""
    from ..engine import compile_game

    check_budget(examples, seconds, max_moves)
    if isinstance(game, Game):
        g = game
        ref = game_ref or g.path or g.name
    else:
        g = compile_game(game, players, options or {})
        ref = game_ref or str(game)
    if examples is None and seconds is None:
        seconds = DEFAULT_SECONDS
    database = open_database(database)

    cov = Coverage()
    budget = Budget(seconds, examples)
    prog = Progress(progress, budget, cov)
    play = Playthrough(g, max_moves, cov)
    search = Search(play, budget, seed, database, shrink_seconds, digest(g, ref, max_moves),
                    prog, shrink_games=shrink_games, fast_walks=fast_walks)
    try:
        with g.checking_logs() as play.logs:  # a failing log line is a rule hole
            cx = search.run()
    finally:
        play.logs = None
        prog.done()
    return finish_report(g, ref, seed, max_moves, budget.elapsed(), cov, cx, search.shrunk,
                         write_replay, out, story=search.story)


# What a layer above adds to the fuzz report (the CLI passes analysis.reachability's
# check in): () -> (ok, text, JSON value)
Extra = Callable[[], tuple[bool, str, Any]]


def run_fuzz(args: argparse.Namespace, runner: Runner | None = None,
             extra: Extra | None = None) -> int:
    """`cardgame fuzz`: prints the report; the exit code is 1 when a rule hole was found.
    With a runner (`--jobs`, `--dask`), independent searches run on its workers.
    `extra` (the game's reachability expectations) is run after a search that found no
    rule hole, its text printed after the report (its value under "reachability" in
    JSON); it fails the run when it is not ok."""
    settings = parse_settings(getattr(args, "set", None))
    # a progress line only at a terminal: a log or a pipe gets the report alone
    stream = sys.stderr if sys.stderr.isatty() else None
    examples = getattr(args, "examples", None)
    seconds = getattr(args, "seconds", None)
    max_moves = getattr(args, "max_moves", 2000)
    # the game's own examples first (`cardgame test`): a failing one is reported, and
    # the search still runs; either failing exits 1
    check_budget(examples, seconds, max_moves)
    counts, allowed = player_counts(args.game, args.players, settings)
    counts, broken = compiling(args.game, counts, settings)
    outcomes = run_examples(args.game)
    examples_ok = all(o.ok for o in outcomes)
    if not examples_ok and not getattr(args, "json", False):
        print(text_report([(args.game, outcomes)]))
        print()
    shares = share_budget(len(counts), examples, seconds)
    reports: list[FuzzReport] = []
    for n, (n_examples, n_seconds) in zip(counts, shares, strict=True):
        out = args.out if len(counts) == 1 else count_path(args.out, args.game, n)
        if runner is not None:
            reports.append(fuzz_parallel(
                args.game, runner, players=n, options=settings, seed=args.seed,
                examples=n_examples, seconds=n_seconds, max_moves=max_moves, out=out,
                game_ref=args.game, searches=getattr(args, "searches", None),
                progress=stream))
        else:
            reports.append(fuzz(args.game, players=n, options=settings, seed=args.seed,
                                examples=n_examples, seconds=n_seconds, max_moves=max_moves,
                                out=out, progress=stream, game_ref=args.game))
    ok = all(r.ok for r in reports) and not broken
    # a game with a rule hole is not searched for witnesses: fix the hole first
    more_ok, more_text, more_json = (extra() if extra is not None and ok
                                     else (True, "", None))
    if getattr(args, "json", False):
        doc = counts_json(reports, allowed)
        if outcomes:
            doc["examples"] = json_report([(args.game, outcomes)])
        if extra is not None:
            doc["reachability"] = more_json
            doc["ok"] = doc["ok"] and more_ok
        if broken:
            doc["not_compiling"] = [{"players": n, "error": why} for n, why in broken]
            doc["ok"] = False
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        if reports:
            print(counts_text(reports, allowed, shares, [n for n, _ in broken]))
        for n, why in broken:
            print(sanitize(f"rule hole: with {n} players the game does not compile: {why}"))
        if more_text:
            print(more_text)
    return 0 if ok and examples_ok and more_ok else 1


# ---------------------------------------------------------------------- player counts
def player_counts(game: str, players: int | None,
                  settings: dict[str, str]) -> tuple[list[int], tuple[int, int]]:
    """The player counts to fuzz (every one the game allows, or `--players` alone), and
    the range the game allows. Compiling the game here reports a file that does not
    compile (exit 2) before anything runs."""
    from ..engine import compile_game

    g = compile_game(game, players, settings)
    lo, hi = g.checked.player_range
    return ([players] if players is not None else list(range(lo, hi + 1))), (lo, hi)


def compiling(game: str, counts: list[int], settings: dict[str, str]
              ) -> tuple[list[int], list[tuple[int, str]]]:
    """The counts at which the game compiles, and each other count with its first error
    (a game that says `players 2..3` but names player 3 in its flow does not compile for
    2: a hole of its rules, reported, while the other counts are fuzzed)."""
    from ..engine import compile_game

    good: list[int] = []
    broken: list[tuple[int, str]] = []
    for n in counts:
        try:
            compile_game(game, n, settings)
        except Diagnostics as e:
            broken.append((n, e.items[0].format() if e.items else str(e)))
        except Diagnostic as e:
            broken.append((n, e.format()))
        else:
            good.append(n)
    return good, broken


def share_budget(k: int, examples: int | None,
                 seconds: float | None) -> list[tuple[int | None, float | None]]:
    """The budget of each of k player counts: the seconds (20 by default) in equal parts;
    the games as evenly as they go, the first counts taking the remainder, and at least
    one game each."""
    if examples is not None:
        q, r = divmod(examples, k)
        return [(max(1, q + (i < r)), None) for i in range(k)]
    total = seconds if seconds is not None else DEFAULT_SECONDS
    if k == 1:
        return [(None, seconds)]
    return [(None, total / k)] * k


def count_path(out: str | None, game_ref: str, n: int) -> Path:
    """Where count n's counterexample goes when several counts are fuzzed: `--out`'s
    file or the default one, its name ending in `-N-players`."""
    path = Path(out) if out is not None else default_replay_path(game_ref)
    return path.with_name(f"{path.stem}-{n}-players{path.suffix}")


def counts_text(reports: Sequence[FuzzReport], allowed: tuple[int, int],
                shares: Sequence[tuple[int | None, float | None]],
                broken: Sequence[int] = ()) -> str:
    """The report of one player count (as `format_report`), or of each of several,
    between a line on the counts fuzzed and a line on what each found. `broken`: the
    counts the game allows but does not compile for (reported after this)."""
    lo, hi = allowed
    if len(reports) == 1:
        text = format_report(reports[0])
        n = reports[0].players
        if broken:
            text += (f"\nplayer counts fuzzed: {n}; the game allows {lo} to {hi}, and does "
                     f"not compile with {listed(list(broken))}")
        elif lo != hi:  # the other counts the game allows were not fuzzed: say so
            text += (f"\nplayer counts fuzzed: {n} alone (--players); the game allows {lo} "
                     f"to {hi}: without --players each is fuzzed")
        return text
    counts = [r.players for r in reports]
    n_seconds = shares[0][1]
    each = (f"{n_seconds:.1f} s each" if n_seconds is not None else
            ", ".join(f"{counted(e or 0, 'game')} with {counted(n, 'player')}"
                      for n, (e, _) in zip(counts, shares, strict=True)))
    which = "that compiles" if broken else "the game allows"
    parts = [f"cardgame fuzz: {reports[0].game_ref}: every player count {which}, "
             f"{listed(counts)}, the budget shared ({each})", ""]
    for r in reports:
        parts += [format_report(r), ""]
    bad = [r.players for r in reports if not r.ok]
    good = [r.players for r in reports if r.ok]
    if not bad:
        parts.append(f"player counts fuzzed: {listed(counts)}: no rule hole found "
                     "with any of them")
    else:
        parts.append(f"player counts fuzzed: {listed(counts)}: a rule hole with "
                     f"{listed(bad)} player{'s' if bad != [1] else ''}"
                     + (f"; none with {listed(good)}" if good else ""))
    return "\n".join(parts)


def counts_json(reports: Sequence[FuzzReport], allowed: tuple[int, int]) -> dict[str, Any]:
    """One count: its report (`report_json`); several: one object per count under
    `runs`. Either way `player_counts` (those fuzzed) and `players_allowed`."""
    meta = {"player_counts": [r.players for r in reports],
            "players_allowed": list(allowed)}
    if len(reports) == 1:
        return {**report_json(reports[0]), **meta}
    first = reports[0]
    return {"format": "cardgame-fuzz-report", "version": 1, "game": first.game_ref,
            "title": first.title, **meta, "ok": all(r.ok for r in reports),
            "failed_player_counts": [r.players for r in reports if not r.ok],
            "runs": [report_json(r) for r in reports]}


# ---------------------------------------------------------------------- parallel searches
class Runner(Protocol):
    """What runs the searches (analysis.parallel's runners, passed down by the CLI: this
    layer does not import analysis)."""

    workers: int
    same_machine: bool

    def map(self, fn: Callable[[Any], Any], tasks: Sequence[Any],
            done: Callable[[int, Any], None] | None = None) -> list[Any]: ...


@attrs.frozen
class SearchTask:
    """One independent search, as a picklable value (a worker compiles the game)."""

    game: str  # a bundled name or an absolute path
    players: int | None
    settings: tuple[tuple[str, str], ...]
    seed: int | None
    examples: int | None
    seconds: float | None
    max_moves: int
    database: str | None
    shrink_seconds: float
    game_ref: str  # as the user gave it: the database key and the report use it


def run_search(task: SearchTask) -> FuzzReport:
    """A search in a worker: the report, its counterexample not yet described or saved."""
    return fuzz(task.game, players=task.players, options=dict(task.settings), seed=task.seed,
                examples=task.examples, seconds=task.seconds, max_moves=task.max_moves,
                database=task.database, shrink_seconds=task.shrink_seconds,
                write_replay=False, game_ref=task.game_ref)


def search_seed(seed: int | None, k: int) -> int | None:
    """Search k's seed: the run's seed for the first, a hash of (seed, k) for the others
    (no seed: each search draws its own)."""
    if seed is None or k == 0:
        return seed
    d = hashlib.blake2b(f"cardgame-fuzz/{seed}/{k}".encode(), digest_size=4).digest()
    return int.from_bytes(d, "big")


def _cx_key(cx: Counterexample) -> tuple[int, int, int]:
    return (len(cx.moves) + (cx.failing_move is not None), cx.draws, cx.seed)


def _report_key(r: FuzzReport) -> tuple[int, int, int]:
    assert r.failure is not None
    return _cx_key(r.failure)


def merge_coverage(covs: Sequence[Coverage]) -> Coverage:
    out = Coverage()
    for c in covs:
        out.games += c.games
        out.moves += c.moves
        out.checks += c.checks
        out.legal |= c.legal
        out.fired |= c.fired
        out.decisions |= c.decisions
        for k, v in c.endings.items():
            out.endings[k] = out.endings.get(k, 0) + v
        out.cut += c.cut
        out.longest = max(out.longest, c.longest)
        out.ambiguous.update(c.ambiguous)
        out.fast_games += c.fast_games
        out.fast_moves += c.fast_moves
        out.fast_open += c.fast_open
        out.fast_leak += c.fast_leak
        out.fast_replayed += c.fast_replayed
        out.fast_seconds += c.fast_seconds
        out.fast_cpu += c.fast_cpu
        out.full_seconds += c.full_seconds
        for k, v in c.fast_endings.items():
            out.fast_endings[k] = out.fast_endings.get(k, 0) + v
        out.fast_unconfirmed += c.fast_unconfirmed
        out.timed_out += c.timed_out
    return out


def fuzz_parallel(game: str | Path, runner: Runner, *, players: int | None = None,
                  options: dict[str, str] | None = None, seed: int | None = None,
                  examples: int | None = None, seconds: float | None = None,
                  max_moves: int = 2000, database: Any = USE_DEFAULT_DB,
                  shrink_seconds: float = DEFAULT_SHRINK_SECONDS,
                  out: str | Path | None = None, write_replay: bool = True,
                  game_ref: str | None = None, searches: int | None = None,
                  progress: TextIO | None = None) -> FuzzReport:
    """Independent searches with different seeds on the runner's workers, each with the
    whole budget; the shortest counterexample wins (then the fewest choices drawn, then
    the smallest deal seed). Coverage is summed over the searches."""
    from ..engine import compile_game
    from ..lang import bundled_names

    check_budget(examples, seconds, max_moves)
    k = searches if searches is not None else runner.workers
    if k < 1:
        raise UsageError("--searches must be at least 1")
    g = compile_game(game, players, options or {})
    ref = game_ref or str(game)
    where = str(game)
    if where not in bundled_names() or Path(where).suffix:
        where = str(Path(where).resolve())  # a worker may run in another directory
    if examples is None and seconds is None:
        seconds = DEFAULT_SECONDS
    if database is USE_DEFAULT_DB:
        database = DB_DIR
    if database is not None and not isinstance(database, (str, Path)):
        raise TypeError("parallel searches take a database directory or None")
    # a directory is shared by processes of this machine, not by a remote cluster
    db = str(Path(database).resolve()) if database is not None and runner.same_machine \
        else None
    tasks = [SearchTask(where, players, tuple(sorted((options or {}).items())),
                        search_seed(seed, i), examples, seconds, max_moves, db,
                        shrink_seconds, ref) for i in range(k)]
    done = [0]

    def tick(_: int, __: Any) -> None:
        done[0] += 1
        if progress is not None:
            progress.write(f"\rfuzz: {done[0]} of {k} searches done".ljust(60))
            progress.flush()

    t0 = time.monotonic()
    reports: list[FuzzReport] = runner.map(run_search, tasks, tick)
    if progress is not None:
        progress.write("\r" + " " * 60 + "\r")
        progress.flush()
    failing = [r for r in reports if r.failure is not None]
    best = min(failing, key=_report_key) if failing else None
    cov = merge_coverage([r.coverage for r in reports])
    cov.found_after = best.coverage.found_after if best is not None else 0
    cov.found_by_fast = best.coverage.found_by_fast if best is not None else 0
    cx = best.failure if best is not None else None
    return finish_report(g, ref, seed, max_moves, time.monotonic() - t0, cov, cx,
                         best.shrunk if best is not None else False, write_replay, out,
                         story=best.story if best is not None else None)


def finish_report(g: Game, ref: str, seed: int | None, max_moves: int, seconds: float,
                  cov: Coverage, cx: Any, shrunk: bool, write_replay: bool,
                  out: str | Path | None, story: Any = None) -> FuzzReport:
    """The report of one search or of the best of several; the counterexample, if any,
    described and written as a replay file."""
    report = FuzzReport(
        game_ref=ref, title=g.name, players=g.players,
        options={k: option_text(v) for k, v in g.options.items()}, seed=seed,
        max_moves=max_moves, seconds=seconds, coverage=cov, failure=cx)
    report.shrunk = shrunk
    report.story = story
    report.warnings = coverage_warnings(g, cov, complete=cx is None)
    if cx is not None:
        describe(g, report, cx)
        if write_replay:
            path = Path(out) if out is not None else default_replay_path(ref)
            save_replay(g, report, cx, path)
    return report
