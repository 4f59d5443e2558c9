"""The driver of `cardgame fuzz`: one search within a budget, then shrinking.

A playthrough is a seed (the deal; it shrinks toward seed 0) and a sequence of choices
among the legal moves, which the engine lists simplest first. The search draws them from
a plain seeded generator (`Search.explore`); a failure's choices are handed to
Hypothesis, whose shrinking yields the shortest failing playthrough. Every step is checked by
`playthrough.Playthrough`. Failing examples are kept in a database (by default
`.cardgame/fuzz-db`, relative to the current directory) and replayed first on the next
run.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from pathlib import Path
from typing import Any, TextIO

from ..engine import Game, Walk
from .fast import FastWalks
from .playthrough import Counterexample, Coverage, Playthrough, PropertyFailure
from .story import MEMORY_MB, MIN_SECONDS, Story, StorySearch, length

DB_DIR = Path(".cardgame") / "fuzz-db"
DEFAULT_SECONDS = 20.0
DEFAULT_SHRINK_SECONDS = 30.0
USE_DEFAULT_DB: Any = object()
# Hypothesis draws at most this many choices in one playthrough (its buffer holds about
# 4000); a longer game goes on with random choices from one drawn seed
DRAW_CAP = 2000
SHRINK_LIMIT = 500
# the share of the shrinking time that Hypothesis's shrinker has (the story search on
# other deals has the rest)
HYPOTHESIS_SHARE = 0.35
# ... and it stops sooner when it has not shortened the story for this share of the
# shrinking time (at least HYPOTHESIS_STALL_MIN seconds): the story search has the rest
HYPOTHESIS_STALL = 0.1
HYPOTHESIS_STALL_MIN = 1.0
# the story search plays at least this many games after a budget of games is spent
MIN_GAMES = 100
# fast checked walks (fast.py) between the full playthroughs: with a time budget, they
# get this share of the search's time (checked at every tick, so also during a long full
# playthrough); with a budget of games (playthroughs), each full playthrough is followed
# by FAST_PER_FULL walks (a run that repeats exactly with --seed)
FAST_SHARE = 0.8
FAST_PER_FULL = 4


class _Stop(KeyboardInterrupt):
    """Time is up. Hypothesis lets an interruption through at once, at any point of a
    playthrough, without taking it for a failure or recording the cut-off example."""


class _Pending(KeyboardInterrupt):
    """A fast walk played from a tick found a failure: it goes through the full
    playthrough under way (like `_Stop`) to `explore`, which confirms it."""

    def __init__(self, walk: Walk) -> None:
        super().__init__()
        self.walk = walk


class Budget:
    def __init__(self, seconds: float | None, examples: int | None) -> None:
        self.t0 = time.monotonic()
        self.seconds = seconds
        self.examples = examples

    def elapsed(self) -> float:
        return time.monotonic() - self.t0

    def expired(self) -> bool:
        return self.seconds is not None and self.elapsed() >= self.seconds


class Progress:
    """One status line on stderr, redrawn at most five times a second."""

    def __init__(self, stream: TextIO | None, budget: Budget, cov: Coverage) -> None:
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
        c = self.cov
        rate = (c.moves + c.fast_moves) / el if el > 0 else 0.0
        if self.stage:
            left = f"{self.stage}: shortest so far {self.best} moves"
        elif b.seconds is not None:
            left = f"{max(0.0, b.seconds - el):.0f}s left"
        elif b.examples is not None:
            left = f"{self.cov.games}/{b.examples} games"
        else:
            left = ""
        line = (f"fuzz: {c.games + c.fast_games:,} games, {rate:,.0f} moves/s, "
                f"{self.cov.checks:,} properties checked, {left}")
        self.stream.write("\r" + line[:120].ljust(100))
        self.stream.flush()
        self.shown = True

    def done(self) -> None:
        if self.stream is not None and self.shown:
            self.stream.write("\r" + " " * 100 + "\r")
            self.stream.flush()


def digest(game: Game, game_ref: str, max_moves: int) -> bytes:
    """The database key: the game's identity (not its text: after a fix, the old
    counterexample is replayed first), its players and options."""
    ident = json.dumps([str(game.path or game_ref), game.players,
                        sorted((k, str(v)) for k, v in game.options.items()), max_moves])
    return hashlib.sha256(ident.encode()).digest()


def _final_replay() -> bool:
    import sys

    control = sys.modules.get("hypothesis.control")
    if control is None:  # not imported: no Hypothesis run (the random search)
        return False
    try:
        return bool(control.current_build_context().is_final)
    except Exception:  # pragma: no cover - outside a Hypothesis test
        return False


class Search:
    """One Hypothesis run: find a failing playthrough (within the time or example budget),
    then shrink it (within its own time budget, from the first failure on). A failing
    playthrough of more than SHRINK_LIMIT choices is not shrunk by Hypothesis: its
    shrinker slows down sharply on very long choice sequences. The run is cut short from
    inside a playthrough (see `_Stop`).

    Then the story search (`story.StorySearch`) looks for a shorter failure of the same
    property on any deal, with the time the budget has left (at least MIN_SECONDS), up to
    `shrink_seconds` from the first failure, and at most `shrink_memory_mb` more memory.
    A budget of games (`examples`) bounds it by the games left (at least MIN_GAMES);
    `shrink_games` sets that bound (a run that does not depend on time)."""

    def __init__(self, play: Playthrough, budget: Budget, seed: int | None, database: Any,
                 shrink_seconds: float, digest: bytes, progress: Progress,
                 shrink_games: int | None = None,
                 shrink_memory_mb: float = MEMORY_MB, fast_walks: bool = True) -> None:
        self.play = play
        self.fast: FastWalks | None = FastWalks(play, seed) if fast_walks else None
        self.shrink_games = shrink_games
        self.shrink_memory_mb = shrink_memory_mb
        self.found: Counterexample | None = None  # the first failure met
        self.found_at = 0.0
        self.story: Story | None = None
        self.budget = budget
        self.seed = seed
        self.database = database
        self.shrink_seconds = shrink_seconds
        self.digest = digest
        self.progress = progress
        self.shrink_deadline = 0.0
        self.stall = 0.0  # Hypothesis stops shrinking after this long without progress
        self.improved_at = 0.0
        self.best: Counterexample | None = None
        self.shrunk = False
        self.balancing = False  # (explore, with a time budget: see balance)
        self.explore_t0 = 0.0
        play.tick = self.tick

    def tick(self) -> None:
        self.progress()
        if _final_replay():
            return  # Hypothesis replays its minimal example: let it fail as before
        if self.best is None:
            if self.budget.expired():
                raise _Stop
            if self.balancing:
                self.balance()
        else:
            now = time.monotonic()
            if (self.best.draws > SHRINK_LIMIT or now > self.shrink_deadline
                    or now - self.improved_at > self.stall):
                raise _Stop

    def play_game(self, seed: int, choose: Any) -> None:
        """One full playthrough. One cut short when the time runs out is counted as a game
        that ended so (`timed_out`: the report's games add up to their endings); one cut
        short because a fast walk found something is not a game played (the walk's full
        replay is the next)."""
        try:
            self.play.run(seed, choose)
        except _Stop:
            self.play.cov.timed_out += 1
            raise
        except _Pending:
            self.play.cov.games -= 1
            raise

    def record(self, cx: Counterexample) -> None:
        def key(c: Counterexample) -> tuple[int, int, int]:
            return (len(c.moves) + (c.failing_move is not None), c.draws, c.seed)

        if self.best is None:
            self.found = cx
            self.play.cov.found_after = self.play.cov.games
            self.window(time.monotonic())
            self.progress.stage = "shrinking"
        if self.best is None or key(cx) < key(self.best):
            self.improved_at = time.monotonic()
            self.best = cx
            self.progress.best = key(cx)[0]

    def window(self, now: float) -> None:
        """Shrinking starts now: Hypothesis shrinks for a share of the time left to shrink;
        the story search on other deals has the rest (see story_deadline)."""
        self.found_at = now
        window = self.story_end() - self.found_at
        self.shrink_deadline = self.found_at + window * HYPOTHESIS_SHARE
        self.stall = max(HYPOTHESIS_STALL_MIN, window * HYPOTHESIS_STALL)
        self.improved_at = now

    def test(self, generate: bool = True, database: Any = None) -> Any:
        from hypothesis import HealthCheck, Phase, Verbosity, given, settings
        from hypothesis import seed as hseed
        from hypothesis import strategies as st

        seeds = st.integers(0, 2**32 - 1)
        ints: dict[int, Any] = {}
        budget = self.budget
        phases = [Phase.reuse] + ([Phase.generate] if generate else [])
        if self.shrink_seconds > 0:
            phases.append(Phase.shrink)

        @settings(database=database, deadline=None,
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
                self.play_game(game_seed, choose)
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
            if current is not None and database is not None:
                test._hypothesis_internal_use_settings = settings(current, database=database)
        return test

    def run(self) -> Counterexample | None:
        cx = None
        if self.database is not None:  # known failures first (Hypothesis's reuse phase)
            cx = self.hypothesis(generate=False)
        if cx is None:
            cx = self.explore()
        if cx is not None and self.shrink_seconds > 0:
            cx = self.shorten(cx)
        return cx

    def explore(self) -> Counterexample | None:
        """The search proper: plain random playthroughs from a seeded generator, no
        Hypothesis per draw (it costs more than the checks). The first plays the deal of
        seed 0 with the first listed move at every choice (where Hypothesis starts too).
        A failure's choices are handed to Hypothesis, which shrinks them (`hypothesis`),
        and it saves the shrunk one in the database."""
        play = self.play
        cov = play.cov
        fast_before = cov.fast_seconds
        budget = self.budget
        rng = random.Random(f"cardgame-fuzz/{self.seed}" if self.seed is not None else None)
        choices: list[int] = []
        record = choices.append
        randrange = rng.randrange

        def first(n: int) -> int:
            record(0)
            return 0

        def randomly(n: int) -> int:
            c = randrange(n)
            record(c)
            return c

        game_seed = 0
        fast = self.fast
        # with a time budget the fast walks keep their share of the time, also during a
        # long full playthrough (its ticks); with a budget of games, 4 after each one
        self.balancing = fast is not None and budget.seconds is not None
        self.explore_t0 = time.perf_counter()
        try:
            while budget.examples is None or cov.games < budget.examples:
                try:
                    self.tick()
                    choices.clear()
                    choose = first if cov.games == 0 else randomly
                    game_seed = 0 if cov.games == 0 else rng.getrandbits(32)
                    self.play_game(game_seed, choose)
                except PropertyFailure as e:
                    e.cx.draws = len(choices)
                    self.record(e.cx)
                    break
                except _Pending as e:  # a fast walk failed: the full playthrough is cut
                    assert fast is not None
                    cx = fast.confirm(e.walk)
                    if cx is None:
                        continue
                    self.record(cx)
                    game_seed, choices[:] = fast.choices[0], fast.choices[1:]
                    break
                if fast is not None and budget.seconds is None:
                    cx = self.fast_walks()
                    if cx is not None:
                        self.record(cx)
                        game_seed, choices[:] = fast.choices[0], fast.choices[1:]
                        break
        except _Stop:
            pass
        finally:
            self.balancing = False
            cov.full_seconds += time.perf_counter() - self.explore_t0 - (
                cov.fast_seconds - fast_before)
        found = self.best
        if found is None:
            return None
        if found.draws <= SHRINK_LIMIT and self.shrink_seconds > 0:
            from hypothesis.database import InMemoryExampleDatabase, choices_to_bytes

            blob = choices_to_bytes([game_seed, *choices])
            self.window(time.monotonic())  # (importing Hypothesis is not shrinking time)
            db = _seeded(self.database if self.database is not None
                         else InMemoryExampleDatabase(), blob)
            shrunk = self.hypothesis(generate=False, database=db)
            if shrunk is not None and _dealt(found) and _dealt(shrunk):
                # a deal that fails has nothing to shrink: Hypothesis only moves it to
                # another failing deal (seed 0), and the report would name two seeds for
                # one failure. The deal it was found on is the counterexample (the
                # database keeps Hypothesis's: the next run starts from that one).
                self.shrunk = True
                return found
            if shrunk is not None and shrunk.property == found.property:
                return shrunk
            self.shrunk = False
        return self.best

    def fast_walks(self) -> Counterexample | None:
        """With a budget of games: the FAST_PER_FULL fast walks after a full playthrough,
        and a failure one of them finds, confirmed by its full replay."""
        fast = self.fast
        assert fast is not None
        for _ in range(FAST_PER_FULL):
            cx = fast.walk()
            if cx is not None:
                return cx
        return None

    def balance(self) -> None:
        """With a time budget: fast walks until they have had FAST_SHARE of the search's
        time. Called from `tick`, also inside a full playthrough: a walk that fails is
        not replayed here (that would be a playthrough within a playthrough) but handed
        to `explore` (`_Pending`), which cuts the full one short and confirms it."""
        fast = self.fast
        assert fast is not None
        cov = self.play.cov
        ratio = FAST_SHARE / (1 - FAST_SHARE)
        full = time.perf_counter() - self.explore_t0 - cov.fast_seconds
        if cov.fast_seconds >= ratio * full:
            return
        # the walks' CPU time taken once for the batch (`play_one(cpu=False)`)
        c0 = time.process_time()
        try:
            while True:
                if self.budget.expired():
                    raise _Stop
                w = fast.play_one(cpu=False)
                if w.found is not None:
                    raise _Pending(w)
                full = time.perf_counter() - self.explore_t0 - cov.fast_seconds
                if cov.fast_seconds >= ratio * full:
                    return
        finally:
            cov.fast_cpu += time.process_time() - c0

    def story_end(self) -> float:
        """When shrinking ends: the budget left, up to `shrink_seconds` after the first
        failure, and never less than MIN_SECONDS (or `shrink_seconds`, if shorter)."""
        end = self.found_at + self.shrink_seconds
        if self.budget.seconds is not None:
            end = min(end, self.budget.t0 + self.budget.seconds)
        return max(end, self.found_at + min(MIN_SECONDS, self.shrink_seconds))

    def story_deadline(self) -> float:
        """The story search's end: story_end, and never less than MIN_SECONDS (or
        `shrink_seconds`) from now."""
        now = time.monotonic()
        return max(self.story_end(), now + min(MIN_SECONDS, self.shrink_seconds) / 2)

    def shorten(self, cx: Counterexample) -> Counterexample:
        found = self.found or cx
        t0 = time.monotonic()
        play = self.play
        saved_tick = play.tick
        play.tick = self.progress
        self.progress.stage = "shortest story"
        self.progress.best = length(cx)

        def better(c: Counterexample) -> None:
            self.progress.best = length(c)
            self.progress(force=True)

        rng = random.Random(f"cardgame-story/{self.seed}/{cx.seed}/{length(cx)}")
        games = self.shrink_games
        if games is None and self.budget.examples is not None and self.budget.seconds is None:
            # a budget of games: the games it has left, and never fewer than MIN_GAMES
            games = max(self.budget.examples - play.cov.games, MIN_GAMES)
        search = StorySearch(play, cx, deadline=self.story_deadline(), rng=rng,
                             max_games=games,
                             memory_mb=self.shrink_memory_mb, on_better=better)
        try:
            best = search.run()
        finally:
            play.tick = saved_tick
        self.story = Story(property=cx.property, found_moves=length(found),
                           found_seed=found.seed, hypothesis_moves=length(cx),
                           shrunk_moves=length(best), stop=search.stop, games=search.games,
                           seconds=time.monotonic() - t0, improvements=search.improvements)
        self.shrunk = True
        return best

    def hypothesis(self, generate: bool = True, database: Any = None) -> Counterexample | None:
        """Run the Hypothesis test: the database's failures first, then (`generate`) a
        search of its own, then its shrinking of what failed."""
        import unittest

        from hypothesis.errors import FlakyFailure

        try:
            self.test(generate, database if database is not None else self.database)()
        except _Stop:
            pass
        except unittest.SkipTest:  # no generation, and the database held nothing to replay
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


def _dealt(cx: Counterexample) -> bool:
    """Did the deal itself fail (no state, no move)?"""
    return cx.state is None and not cx.moves and cx.failing_move is None


def _seeded(real: Any, blob: bytes) -> Any:
    """A database that offers one more failing choice sequence (the random search's) to
    Hypothesis, as a non-minimal example (its secondary corpus: a primary one counts as
    shrunk already), so that it shrinks it; everything else goes to the real one."""
    from hypothesis.database import ExampleDatabase

    class Seeded(ExampleDatabase):
        def fetch(self, key: bytes) -> Any:
            if key.endswith(b".secondary"):
                yield blob
            yield from real.fetch(key)

        def save(self, key: bytes, value: bytes) -> None:
            real.save(key, value)

        def delete(self, key: bytes, value: bytes) -> None:
            if value != blob:
                real.delete(key, value)

        def move(self, src: bytes, dest: bytes, value: bytes) -> None:
            real.move(src, dest, value)

    return Seeded()


def open_database(database: Any) -> Any:
    """A Hypothesis example database from `fuzz(database=...)`: the default directory
    here, a directory, an ExampleDatabase, or None for none."""
    if database is None:  # (Hypothesis is imported only when it is needed)
        return None
    from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase

    if database is USE_DEFAULT_DB:
        return DirectoryBasedExampleDatabase(str(DB_DIR))
    if isinstance(database, (str, Path)):
        return DirectoryBasedExampleDatabase(str(database))
    if database is not None and not isinstance(database, ExampleDatabase):
        raise TypeError("database: a directory, an ExampleDatabase or None")
    return database
