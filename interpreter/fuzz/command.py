"""`fuzz(...)`, the Python API, and `run_fuzz(args)`, the `cardgame fuzz` command.

The properties every game must have (cards are conserved, legal moves apply, no dead
end, termination, determinism, JSON round trip, no hidden-information leak, no rule
error, the declared invariants) are checked by `playthrough`; see docs/fuzz.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from ..engine.game import Game
from ..errors import UsageError
from ..options import option_text, parse_settings
from .playthrough import Coverage, Playthrough
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
    if seconds is not None and seconds <= 0:
        raise UsageError("--seconds must be more than 0")
    if max_moves < 1:
        raise UsageError("--max-moves must be at least 1")


def fuzz(game: str | Path | Game, *, players: int | None = None,
         options: dict[str, str] | None = None, seed: int | None = None,
         examples: int | None = None, seconds: float | None = None, max_moves: int = 2000,
         database: Any = USE_DEFAULT_DB, shrink_seconds: float = DEFAULT_SHRINK_SECONDS,
         out: str | Path | None = None, write_replay: bool = True,
         progress: TextIO | None = None, game_ref: str | None = None) -> FuzzReport:
    """Fuzz one game; the report says what failed (if anything) and how to replay it.

    `game` is a bundled name, a .cardgame path or a compiled Game. Give `examples` (the
    number of playthroughs) or `seconds` (default 20 s). `database` is a directory, a
    Hypothesis database, or None for none (default: `.cardgame/fuzz-db` here). With
    `write_replay`, a counterexample is saved to `out` (default
    `.cardgame/counterexample-<game>.json`)."""
    from ..engine.pipeline import compile_game

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
                    prog)
    try:
        cx = search.run()
    finally:
        prog.done()
    report = FuzzReport(
        game_ref=ref, title=g.name, players=g.players,
        options={k: option_text(v) for k, v in g.options.items()}, seed=seed,
        max_moves=max_moves, seconds=budget.elapsed(), coverage=cov, failure=cx)
    report.shrunk = search.shrunk
    report.warnings = coverage_warnings(g, cov, complete=cx is None)
    if cx is not None:
        describe(g, report, cx)
        if write_replay:
            path = Path(out) if out is not None else default_replay_path(ref)
            save_replay(g, report, cx, path)
    return report


def run_fuzz(args: argparse.Namespace) -> int:
    """`cardgame fuzz`: prints the report; the exit code is 1 when a rule hole was found."""
    settings = parse_settings(getattr(args, "set", None))
    # a progress line only at a terminal: a log or a pipe gets the report alone
    stream = sys.stderr if sys.stderr.isatty() else None
    report = fuzz(args.game, players=args.players, options=settings, seed=args.seed,
                  examples=getattr(args, "examples", None),
                  seconds=getattr(args, "seconds", None),
                  max_moves=getattr(args, "max_moves", 2000), out=args.out, progress=stream,
                  game_ref=args.game)
    if getattr(args, "json", False):
        print(json.dumps(report_json(report), indent=2, ensure_ascii=False))
    else:
        print(format_report(report))
    return 0 if report.ok else 1
