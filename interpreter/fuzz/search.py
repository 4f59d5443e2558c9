"""`cardgame fuzz GAME`: search a game for rule holes and report the shortest counterexample.

Hypothesis drives the search. A playthrough is drawn as a seed (the deal; it shrinks
toward seed 0) and a sequence of choices among the legal moves, which the engine lists
simplest first, so Hypothesis's shrinking yields the shortest failing playthrough. Every
step is checked by `fuzz_play.Playthrough` against properties that every game must have
(cards are conserved, legal moves apply, no dead end, termination, determinism, JSON
round trip, no hidden-information leak, no rule error, the declared invariants); see
docs/fuzz.md. Failing examples are kept in `.cardgame/fuzz-db` (relative to the current
directory) and replayed first on the next run; the counterexample is written as a replay
file that `cardgame play --replay FILE` steps through.

Python API: `fuzz(...)` returns a `FuzzReport`; `run_fuzz(args)` is the command.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, TextIO

import attrs

from ..engine.game import Game, Move
from ..errors import CardgameError, UsageError
from ..options import parse_settings
from .playthrough import (
    PROPERTIES,
    Counterexample,
    Coverage,
    Playthrough,
    PropertyFailure,
    vars_of,
    zones_text,
)

DB_DIR = Path(".cardgame") / "fuzz-db"
DEFAULT_SECONDS = 20.0
DEFAULT_SHRINK_SECONDS = 30.0
_USE_DEFAULT_DB = object()
# Hypothesis draws at most this many choices in one playthrough (its buffer holds about
# 4000); a longer game goes on with random choices from one drawn seed
DRAW_CAP = 2000
SHRINK_LIMIT = 500
LIST_MOVES = 60  # a text report lists at most this many moves (the first and last half)

__all__ = ["FuzzReport", "PROPERTIES", "fuzz", "run_fuzz", "format_report", "report_json"]


class _Stop(KeyboardInterrupt):
    """Time is up. Hypothesis lets an interruption through at once, at any point of a
    playthrough, without taking it for a failure or recording the cut-off example."""


@attrs.define
class FuzzReport:
    game_ref: str
    title: str
    players: int
    options: dict[str, str]
    seed: int | None
    max_moves: int
    seconds: float
    coverage: Coverage
    failure: Counterexample | None = None
    replay_path: str | None = None
    replay_ok: bool | None = None  # did the written replay reproduce the failing state?
    shrunk: bool = False  # was the counterexample shrunk (not when its playthrough is long)
    warnings: list[str] = attrs.field(factory=list)
    move_texts: list[str] = attrs.field(factory=list)  # of failure.moves: "p1 draw"
    failing_move_text: str | None = None  # "p1 discard 4"
    move_pairs: list[tuple[int, str]] = attrs.field(factory=list)  # (1, "draw")
    failing_pair: tuple[int, str] | None = None
    state_zones: list[tuple[str, list[str]]] = attrs.field(factory=list)
    state_vars: dict[str, Any] = attrs.field(factory=dict)
    state_info: dict[str, Any] = attrs.field(factory=dict)

    @property
    def ok(self) -> bool:
        return self.failure is None

    @property
    def moves_per_second(self) -> float:
        return self.coverage.moves / self.seconds if self.seconds > 0 else 0.0


class _Budget:
    def __init__(self, seconds: float | None, examples: int | None) -> None:
        self.t0 = time.monotonic()
        self.seconds = seconds
        self.examples = examples

    def elapsed(self) -> float:
        return time.monotonic() - self.t0

    def expired(self) -> bool:
        return self.seconds is not None and self.elapsed() >= self.seconds


class _Progress:
    """One status line on stderr, redrawn at most five times a second."""

    def __init__(self, stream: TextIO | None, budget: _Budget, cov: Coverage) -> None:
        self.stream = stream
        self.budget = budget
        self.cov = cov
        self.last = 0.0
        self.shown = False
        self.stage = ""
        self.best = 0

    def __call__(self, force: bool = False) -> None:
        if self.stream is None:
            return
        now = time.monotonic()
        if not force and now - self.last < 0.2:
            return
        self.last = now
        b = self.budget
        el = b.elapsed()
        rate = self.cov.moves / el if el > 0 else 0.0
        if self.stage:
            left = f"{self.stage}: shortest so far {self.best} moves"
        elif b.seconds is not None:
            left = f"{max(0.0, b.seconds - el):.0f}s left"
        elif b.examples is not None:
            left = f"{self.cov.games}/{b.examples} games"
        else:
            left = ""
        line = (f"fuzz: {self.cov.games:,} games, {rate:,.0f} moves/s, "
                f"{self.cov.checks:,} properties checked, {left}")
        self.stream.write("\r" + line[:120].ljust(100))
        self.stream.flush()
        self.shown = True

    def done(self) -> None:
        if self.stream is not None and self.shown:
            self.stream.write("\r" + " " * 100 + "\r")
            self.stream.flush()


def _digest(game: Game, game_ref: str, max_moves: int) -> bytes:
    """The database key: the game's identity (not its text: after a fix, the old
    counterexample is replayed first), its players and options."""
    ident = json.dumps([str(game.path or game_ref), game.players,
                        sorted((k, str(v)) for k, v in game.options.items()), max_moves])
    return hashlib.sha256(ident.encode()).digest()


def _final_replay() -> bool:
    try:
        from hypothesis.control import current_build_context

        return bool(current_build_context().is_final)
    except Exception:  # pragma: no cover - outside a Hypothesis test
        return False


class _Search:
    """One Hypothesis run: find a failing playthrough (within the time or example budget),
    then shrink it (within its own time budget, from the first failure on). A failing
    playthrough of more than SHRINK_LIMIT choices is not shrunk: Hypothesis's shrinker
    slows down sharply on very long choice sequences (it is reported as found). The run
    is cut short from inside a playthrough (see `_Stop`)."""

    def __init__(self, play: Playthrough, budget: _Budget, seed: int | None, database: Any,
                 shrink_seconds: float, digest: bytes, progress: _Progress) -> None:
        self.play = play
        self.budget = budget
        self.seed = seed
        self.database = database
        self.shrink_seconds = shrink_seconds
        self.digest = digest
        self.progress = progress
        self.shrink_deadline = 0.0
        self.best: Counterexample | None = None
        self.shrunk = False
        play.tick = self.tick

    def tick(self) -> None:
        self.progress()
        if _final_replay():
            return  # Hypothesis replays its minimal example: let it fail as before
        if self.best is None:
            if self.budget.expired():
                raise _Stop
        elif self.best.draws > SHRINK_LIMIT or time.monotonic() > self.shrink_deadline:
            raise _Stop

    def record(self, cx: Counterexample) -> None:
        def key(c: Counterexample) -> tuple[int, int, int]:
            return (len(c.moves) + (c.failing_move is not None), c.draws, c.seed)

        if self.best is None:
            self.play.cov.found_after = self.play.cov.games
            self.shrink_deadline = time.monotonic() + self.shrink_seconds
            self.progress.stage = "shrinking"
        if self.best is None or key(cx) < key(self.best):
            self.best = cx
            self.progress.best = key(cx)[0]

    def test(self) -> Any:
        from hypothesis import HealthCheck, Phase, Verbosity, given, settings
        from hypothesis import seed as hseed
        from hypothesis import strategies as st

        seeds = st.integers(0, 2**32 - 1)
        ints: dict[int, Any] = {}
        play = self.play
        budget = self.budget
        phases = [Phase.reuse, Phase.generate]
        if self.shrink_seconds > 0:
            phases.append(Phase.shrink)

        @settings(database=self.database, deadline=None,
                  max_examples=budget.examples if budget.examples is not None else 10**9,
                  suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
                  report_multiple_bugs=False, print_blob=False, derandomize=False,
                  phases=phases)
        @given(st.data())
        def playthrough(data: Any) -> None:
            self.tick()
            game_seed = data.draw(seeds)
            cd = getattr(data, "conjecture_data", None)
            fast = getattr(cd, "draw_integer", None)
            drawn = [0]
            tail: list[random.Random] = []

            def choose(n: int) -> int:
                drawn[0] += 1
                if drawn[0] > DRAW_CAP:  # past Hypothesis's buffer: one drawn seed plays on
                    if not tail:
                        tail.append(random.Random(int(data.draw(seeds))))
                    return tail[0].randrange(n)
                if fast is not None:  # data.draw(st.integers(0, n - 1)), less overhead
                    return int(fast(0, n - 1))
                s = ints.get(n)
                if s is None:
                    s = ints[n] = st.integers(0, n - 1)
                return int(data.draw(s))

            try:
                play.run(game_seed, choose)
            except PropertyFailure as e:
                e.cx.draws = drawn[0]
                self.record(e.cx)
                raise

        inner = getattr(playthrough, "hypothesis", None)
        if inner is not None:  # one database key per game, players, options
            inner.inner_test._hypothesis_internal_add_digest = self.digest
        test: Any = playthrough
        if self.seed is not None:
            # @seed alone would also switch the database off: known failures come first
            test = hseed(self.seed)(playthrough)
            current = getattr(test, "_hypothesis_internal_use_settings", None)
            if current is not None and self.database is not None:
                test._hypothesis_internal_use_settings = settings(current,
                                                                  database=self.database)
        return test

    def run(self) -> Counterexample | None:
        from hypothesis.errors import FlakyFailure

        try:
            self.test()()
        except _Stop:
            pass
        except PropertyFailure as e:  # Hypothesis finished shrinking: its minimal example
            self.shrunk = True
            return e.cx
        except FlakyFailure as e:  # pragma: no cover - the checks are deterministic
            for sub in e.exceptions:
                if isinstance(sub, PropertyFailure):
                    sub.cx.message += " (it did not fail again when replayed: flaky)"
                    return sub.cx
            raise
        if self.best is not None:
            self.shrunk = self.best.draws <= SHRINK_LIMIT and self.shrink_seconds > 0
        return self.best


def fuzz(game: str | Path | Game, *, players: int | None = None,
         options: dict[str, str] | None = None, seed: int | None = None,
         examples: int | None = None, seconds: float | None = None, max_moves: int = 2000,
         database: Any = _USE_DEFAULT_DB, shrink_seconds: float = DEFAULT_SHRINK_SECONDS,
         out: str | Path | None = None, write_replay: bool = True,
         progress: TextIO | None = None, game_ref: str | None = None) -> FuzzReport:
    """Fuzz one game; the report says what failed (if anything) and how to replay it.

    `game` is a bundled name, a .cardgame path or a compiled Game. Give `examples` (the
    number of playthroughs) or `seconds` (default 20 s). `database` is a directory, a
    Hypothesis database, or None for none (default: `.cardgame/fuzz-db` here). With
    `write_replay`, a counterexample is saved to `out` (default
    `.cardgame/counterexample-<game>.json`)."""
    from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase

    from ..engine.pipeline import compile_game

    if isinstance(game, Game):
        g = game
        ref = game_ref or g.path or g.name
    else:
        g = compile_game(game, players, options or {})
        ref = game_ref or str(game)
    if examples is not None and examples < 1:
        raise UsageError("--examples must be at least 1")
    if seconds is not None and seconds <= 0:
        raise UsageError("--seconds must be more than 0")
    if max_moves < 1:
        raise UsageError("--max-moves must be at least 1")
    if examples is None and seconds is None:
        seconds = DEFAULT_SECONDS
    if database is _USE_DEFAULT_DB:
        database = DirectoryBasedExampleDatabase(str(DB_DIR))
    elif isinstance(database, (str, Path)):
        database = DirectoryBasedExampleDatabase(str(database))
    elif database is not None and not isinstance(database, ExampleDatabase):
        raise TypeError("database: a directory, an ExampleDatabase or None")

    cov = Coverage()
    budget = _Budget(seconds, examples)
    prog = _Progress(progress, budget, cov)
    play = Playthrough(g, max_moves, cov)
    search = _Search(play, budget, seed, database, shrink_seconds,
                     _digest(g, ref, max_moves), prog)
    try:
        cx = search.run()
    finally:
        prog.done()
    report = FuzzReport(
        game_ref=ref, title=g.name, players=g.players,
        options={k: _opt_str(v) for k, v in g.options.items()}, seed=seed,
        max_moves=max_moves, seconds=budget.elapsed(), coverage=cov, failure=cx)
    report.shrunk = search.shrunk
    report.warnings = _coverage_warnings(g, cov, complete=cx is None)
    if cx is not None:
        _describe(g, report, cx)
        if write_replay:
            path = Path(out) if out is not None else default_replay_path(ref)
            _write_replay(g, report, cx, path)
    return report


def default_replay_path(game_ref: str) -> Path:
    stem = Path(str(game_ref)).name
    if stem.endswith(".cardgame"):
        stem = stem[: -len(".cardgame")]
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in stem) or "game"
    return Path(".cardgame") / f"counterexample-{safe}.json"


def _opt_str(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _coverage_warnings(g: Game, cov: Coverage, complete: bool) -> list[str]:
    """Dead rules (moves never legal, choices never reached), after a run that found
    nothing (a run stopped by a failure has not seen enough to call a rule dead)."""
    out: list[str] = []
    for _text, why in sorted(cov.ambiguous.items()):
        out.append(f"ambiguous move text: {why}; a replay takes the first")
    if cov.games == 0 or not complete:
        return out
    opts = ", ".join(f"{k}={_opt_str(v)}" for k, v in g.options.items())
    games = (f"{cov.games:,} game{'s' if cov.games != 1 else ''} ({g.players} player"
             f"{'s' if g.players != 1 else ''}" + (f", {opts}" if opts else "") + ")")
    for mid, name in enumerate(g.move_names[:-1]):
        if mid not in cov.legal and mid not in cov.fired:
            decl = g.checked.moves.get(name)
            where = f" ({decl.span})" if decl is not None and decl.span.line else ""
            out.append(f"move `{name}`{where} was never legal in {games}: a dead rule?")
    for node, d in sorted(g.gen.decisions.items()):
        if node not in cov.decisions:
            alts = " | ".join(g.move_names[a] for a in d.alts)
            where = f" at {d.span}" if d.span.line else ""
            out.append(f"the choice of `{alts}`{where} was never reached in {games}")
    if cov.cut:
        out.append(f"{cov.cut:,} playthrough{'s' if cov.cut != 1 else ''} reached --max-moves "
                   f"before the game's declared limit of {g.limit} moves (not checked further)")
    return out


def _describe(g: Game, report: FuzzReport, cx: Counterexample) -> None:
    report.move_pairs = [_mpair(g, m) for m in cx.moves]
    report.move_texts = [f"p{p} {t}" for p, t in report.move_pairs]
    if cx.failing_move is not None:
        report.failing_pair = _mpair(g, cx.failing_move)
        report.failing_move_text = f"p{report.failing_pair[0]} {report.failing_pair[1]}"
    st = cx.state
    if st is not None:
        report.state_zones = zones_text(g, st)
        report.state_vars = vars_of(g, st)
        report.state_info = {
            "to_move": list(g.to_move(st)), "phase": g.phase(st),
            "ended": g.end_reason(st), "moves_played": len(cx.moves)}


def _mpair(g: Game, m: Move) -> tuple[int, str]:
    try:
        return m[0], g.move_text(m)
    except Exception:  # a malformed probe (an unknown move number)
        return m[0], repr(m)


def _write_replay(g: Game, report: FuzzReport, cx: Counterexample, path: Path) -> None:
    from ..engine import replay as R

    note = f"cardgame fuzz: {cx.property}: {cx.message}"
    if report.failing_move_text:
        note += f" (then: {report.failing_move_text})"
    rp = R.from_game(g, report.game_ref, cx.seed, cx.moves, settings=report.options, note=note)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        rp.save(path)
    except (OSError, CardgameError) as e:
        report.warnings.append(f"the counterexample could not be written to {path}: {e}")
        return
    report.replay_path = str(path)
    # the replay must reach the state where the property failed
    try:
        back = R.load(path)
        states = back.states(g)
        report.replay_ok = cx.state is None or states[-1] == cx.state
    except CardgameError:
        report.replay_ok = False


# ---------------------------------------------------------------------- reports
def format_report(r: FuzzReport) -> str:
    c = r.coverage
    lines = []
    opts = ", ".join(f"{k}={v}" for k, v in r.options.items())
    head = (f"cardgame fuzz: {r.game_ref} ({r.title}), {r.players} player"
            f"{'s' if r.players != 1 else ''}" + (f", {opts}" if opts else "")
            + (f", seed {r.seed}" if r.seed is not None else ""))
    lines.append(head)
    rate = f"{r.moves_per_second:,.0f} moves/s"
    lines.append(f"  {c.games:,} games, {c.moves:,} moves ({rate}), {c.checks:,} properties "
                 f"checked in {r.seconds:.1f} s; longest game {c.longest} moves")
    if c.endings:
        ends = ", ".join(f"{n:,} {why!r}" for why, n in sorted(c.endings.items(),
                                                                key=lambda kv: -kv[1]))
        lines.append(f"  endings: {ends}")
    cx = r.failure
    if cx is None:
        lines.append("no rule hole found")
    else:
        lines.append("")
        lines.append(f"FAILED: {cx.property}: {PROPERTIES.get(cx.property, '')}")
        lines.append(f"  {cx.message}")
        if c.found_after:
            lines.append(f"  found in game {c.found_after:,}"
                         + (f", then shrunk over {c.games - c.found_after:,} more games"
                            if r.shrunk else ""))
        lines.append(f"  game {r.game_ref}, {r.players} player{'s' if r.players != 1 else ''}"
                     + (f", options {opts}" if opts else "") + f", deal seed {cx.seed}")
        n = len(r.move_texts)
        extra = 1 if r.failing_move_text else 0
        what = ("shortest playthrough found" if r.shrunk else
                "playthrough (not shrunk: Hypothesis shrinks up to "
                f"{SHRINK_LIMIT} choices)")
        lines.append(f"  {what}: {n + extra} move{'s' if n + extra != 1 else ''}")
        for i, t in enumerate(r.move_texts, 1):
            if n > LIST_MOVES and LIST_MOVES // 2 < i <= n - LIST_MOVES // 2:
                if i == LIST_MOVES // 2 + 1:
                    lines.append(f"          ... {n - LIST_MOVES} more moves (all of them are "
                                 "in the replay file) ...")
                continue
            mark = ""
            if cx.cycle is not None and cx.cycle[0] < i <= cx.cycle[1]:
                mark = "   <- cycle"
            lines.append(f"    {i:>4}. {t}{mark}")
        if r.failing_move_text:
            verb = ("is accepted" if cx.property == "illegal-move-accepted"
                    else "fails")
            lines.append(f"    {n + 1:>4}. {r.failing_move_text}   <- {verb}")
        if cx.state is None:
            lines.append("  (the deal itself failed: no state)")
        else:
            info = r.state_info
            lines.append(f"  state {'after move ' + str(n) if n else 'after the deal'}"
                         + (f", phase '{info['phase']}'" if info.get("phase") else "")
                         + (f", ended: {info['ended']}" if info.get("ended") else
                            f", to decide: {', '.join('p' + str(p) for p in info['to_move'])}"))
            width = max((len(z) for z, _ in r.state_zones), default=4)
            for z, cards in r.state_zones:
                lines.append(f"    {z:<{width}}  " + (" ".join(cards) if cards else "-"))
            for k, v in r.state_vars.items():
                lines.append(f"    {k:<{width}}  {v}")
        if r.replay_path:
            ok = "" if r.replay_ok in (None, True) else "  (WARNING: it does not replay exactly)"
            lines.append(f"  replay: {r.replay_path}{ok}")
            lines.append(f"    cardgame play --replay {r.replay_path}")
    for w in r.warnings:
        lines.append(f"warning: {w}")
    return "\n".join(lines)


def report_json(r: FuzzReport) -> dict[str, Any]:
    c = r.coverage
    out: dict[str, Any] = {
        "format": "cardgame-fuzz-report", "version": 1,
        "game": r.game_ref, "title": r.title, "players": r.players, "options": r.options,
        "seed": r.seed, "max_moves": r.max_moves, "ok": r.ok,
        "games": c.games, "moves": c.moves, "properties_checked": c.checks,
        "seconds": round(r.seconds, 3), "moves_per_second": round(r.moves_per_second, 1),
        "longest_game": c.longest, "endings": c.endings, "warnings": r.warnings,
        "found_in_game": c.found_after or None, "shrunk": r.shrunk,
        "failure": None,
    }
    cx = r.failure
    if cx is not None:
        out["failure"] = {
            "property": cx.property, "promise": PROPERTIES.get(cx.property, ""),
            "message": cx.message, "seed": cx.seed,
            "moves": [{"player": p, "move": t} for p, t in r.move_pairs],
            "failing_move": None if r.failing_pair is None else {
                "player": r.failing_pair[0], "move": r.failing_pair[1]}, "cycle": list(cx.cycle) if cx.cycle else None,
            "player": cx.player,
            "state": None if cx.state is None else {
                "zones": dict(r.state_zones), "vars": r.state_vars, **r.state_info},
            "replay": r.replay_path, "replay_ok": r.replay_ok,
        }
    return out


# ---------------------------------------------------------------------- the command
def run_fuzz(args: argparse.Namespace) -> int:
    settings = parse_settings(getattr(args, "set", None))
    seconds = getattr(args, "seconds", None)
    examples = getattr(args, "examples", None)
    if examples is not None and examples < 1:
        raise UsageError("--examples must be at least 1")
    if seconds is not None and seconds <= 0:
        raise UsageError("--seconds must be more than 0")
    max_moves = getattr(args, "max_moves", 2000)
    if max_moves < 1:
        raise UsageError("--max-moves must be at least 1")
    from ..engine.pipeline import compile_game

    g = compile_game(args.game, args.players, settings)
    stream = sys.stderr if sys.stderr.isatty() else None
    report = fuzz(g, seed=args.seed, examples=examples, seconds=seconds, max_moves=max_moves,
                  out=args.out, progress=stream, game_ref=args.game)
    if getattr(args, "json", False):
        print(json.dumps(report_json(report), indent=2, ensure_ascii=False))
    else:
        print(format_report(report))
    return 0 if report.ok else 1
