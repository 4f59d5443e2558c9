"""The shortest story: after the search has found a failure (and Hypothesis has shrunk it as
far as it could), look on for a shorter failure of the SAME property, on any deal.

Hypothesis shrinks a playthrough toward deal seed 0 and the first listed move at every
choice, which is also where its search starts: a failure met in that very first
playthrough is already "minimal" to it, however long it is, and a playthrough of more
than `search.SHRINK_LIMIT` choices is not shrunk at all. This module tries other deals:

- random walks from fresh deal seeds, cut off at the length of the best story so far (a
  walk that gets as long as the best one stops: it cannot beat it) — the independent
  search's own strategy;
- *scouting* walks from fresh deals, cut off later (at twice the best length): a deal on
  which the property fails at all, even in a longer story, joins a pool of failing deals;
- random walks from the start of the pool's deals, cut off at the best length: a deal on
  which the property failed once fails far more often than a fresh one, and often sooner
  (the position the failure needs is there: a card near the top, a suit well placed);
- random walks that replay a prefix of the best story, then choose at random;
- Hypothesis-style passes over the best story's list of choices (deleting blocks of
  choices, lowering a choice, the same choices on another deal).

For a property of a state (an invariant, the cards in play), the best story with moves
deleted is first played quickly (the moves applied, that property checked after each,
nothing else): only a story that fails sooner that way is played again as a full checked
playthrough. Delta debugging a long story under its deal costs a few full games, not
hundreds.

Every candidate is played by the same `Playthrough`, so every property is still checked on
every step; only a failure of the property first found, shorter (or as short, with fewer
choices), replaces the best story. The search stops at the first bound it meets: time, the
memory that it may add to the process, a number of games (for deterministic tests), or a
story that cannot be shorter.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from .playthrough import Counterexample, Playthrough, PropertyFailure

# never fewer seconds than this for a failure found at the end of the budget (bounded by
# the shrink time the caller gives)
MIN_SECONDS = 2.0
# the memory (peak resident size of the process) the story search may add, in MiB
MEMORY_MB = 512.0
# the stories tried by the deterministic passes are remembered (not tried twice): at most
# this many choices in all
REMEMBER_CHOICES = 4_000_000

# properties of one state: the quick replay of an edited story checks them alone
QUICK = ("invariant", "conservation")
# the edited stories tried quickly in one turn of the story search
QUICK_BATCH = 8

STOPS = {
    "time": "the time bound",
    "memory": "the memory bound",
    "games": "the game bound",
    "minimal": "nothing shorter can exist",
}


class _Cut(Exception):
    """A bound was reached inside a playthrough."""


@attrs.define
class Story:
    """How the reported counterexample was found and shrunk."""

    property: str
    found_moves: int  # the length of the failing playthrough first met
    found_seed: int
    hypothesis_moves: int  # after Hypothesis's shrinking
    shrunk_moves: int  # reported
    stop: str  # what stopped the story search: a key of STOPS
    games: int = 0  # playthroughs the story search played
    seconds: float = 0.0
    improvements: int = 0  # how often the story search found a shorter one

    def to_data(self) -> dict[str, Any]:
        return {"property": self.property, "found_moves": self.found_moves,
                "found_seed": self.found_seed, "hypothesis_moves": self.hypothesis_moves,
                "shrunk_moves": self.shrunk_moves, "stopped_by": self.stop,
                "games": self.games, "seconds": round(self.seconds, 3),
                "improvements": self.improvements}


def length(cx: Counterexample) -> int:
    return len(cx.moves) + (cx.failing_move is not None)


def key(cx: Counterexample) -> tuple[int, int, int]:
    """Shorter first, then fewer choices drawn, then the smaller deal seed."""
    return (length(cx), cx.draws, cx.seed)


def choices_of(play: Playthrough, seed: int, moves: list[Any]) -> list[int] | None:
    """The choices (as `Playthrough.run` asks its chooser) that play `moves` from the deal
    of `seed`; None if they cannot be recovered."""
    return _choices(play, seed, moves, lenient=False)


def choices_for(play: Playthrough, seed: int, moves: list[Any]) -> list[int] | None:
    """Like `choices_of`, but a move that is not legal where it comes is left out (the
    moves of a story with some deleted); None if the deal or a move fails."""
    return _choices(play, seed, moves, lenient=True)


def _choices(play: Playthrough, seed: int, moves: list[Any], lenient: bool) -> list[int] | None:
    g = play.g
    out: list[int] = []
    try:
        st = g.new_state(seed)
        for m in moves:
            if lenient:
                if g.is_terminal(st):
                    break
                if m not in g.legal_moves(st):
                    continue
            legal = g.legal_moves(st)
            movers = g.to_move(st)
            options = legal
            if len(movers) > 1:
                out.append(list(movers).index(m[0]))
                options = [x for x in legal if x[0] == m[0]]
            if play.dup_texts:
                options = play.first_by_text(options)
                if lenient and m not in options:
                    return None
            if len(options) > 1:
                out.append(options.index(m))
            st = g.apply(st, m)
    except Exception:
        return None
    return out


class Script:
    """A chooser: the given choices (a choice too large for the options is wrapped), then
    random choices from `rng` (or the first option, without one). It records what it chose.
    With `sticky` > 0, a random choice repeats the one before it with that probability
    (when it is still an option): a walk that does one thing several times in a row."""

    __slots__ = ("choices", "rng", "taken", "check", "sticky")

    def __init__(self, choices: list[int], rng: random.Random | None,
                 check: Callable[[], None], sticky: float = 0.0) -> None:
        self.choices = choices
        self.rng = rng
        self.taken: list[int] = []
        self.check = check
        self.sticky = sticky

    def __call__(self, n: int) -> int:
        i = len(self.taken)
        if i < len(self.choices):
            c = self.choices[i]
            if c >= n:
                c %= n
        elif self.rng is not None:
            if self.sticky and i and self.taken[-1] < n and self.rng.random() < self.sticky:
                c = self.taken[-1]
            else:
                c = self.rng.randrange(n)
        else:
            c = 0
        self.taken.append(c)
        if not i & 63:
            self.check()
        return c


def _peak_mb() -> float | None:
    try:
        import resource
    except ImportError:  # pragma: no cover - not on this platform
        return None
    import sys

    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (2**20 if sys.platform == "darwin" else 2**10)


class StorySearch:
    """Looks for a shorter failure of `cx.property` than `cx`, until `deadline` (a
    time.monotonic() value), `max_games` playthroughs, or `memory_mb` more memory."""

    # the share of the candidates that are edits of the best story, walks from its start,
    # walks on the pool's deals and scouting walks (the rest: walks from fresh deals, cut
    # at the best length)
    EDITS = 0.15
    PREFIXES = 0.15
    POOL = 0.35
    SCOUTS = 0.15
    # scouting walks are cut at this many times the best length
    SCOUT_CUT = 2.0
    # half the walks on the pool's deals and the scouting walks are sticky (`Script`):
    # many failures need one thing done several times (a pile built tall)
    STICKY = 0.6
    # the pool keeps this many deals: those of the shortest failures seen
    POOL_SIZE = 24
    # for a property of a state (QUICK), this share of the walks on the pool's deals and
    # on fresh ones are played quickly (`fast_walk`)
    FAST = 1.0

    def __init__(self, play: Playthrough, cx: Counterexample, *, deadline: float,
                 rng: random.Random, max_games: int | None = None,
                 memory_mb: float = MEMORY_MB,
                 on_better: Callable[[Counterexample], None] | None = None) -> None:
        self.play = play
        self.best = cx
        self.target = cx.property
        self.deadline = deadline
        self.rng = rng
        self.max_games = max_games
        self.memory_mb = memory_mb
        self.on_better = on_better or (lambda c: None)
        self.games = 0
        self.improvements = 0
        self.stop = ""
        self.tried: set[tuple[int, tuple[int, ...]]] = set()
        self.remembered = 0
        self.best_choices = choices_of(play, cx.seed, cx.moves)
        self.mem0 = _peak_mb()
        # failing deals: deal seed -> the shortest failure of the property seen on it
        self.pool: dict[int, int] = {cx.seed: length(cx)}

    # ------------------------------------------------------------------ bounds
    def bound(self) -> str:
        if self.lower_bound() >= length(self.best):
            return "minimal"
        if time.monotonic() >= self.deadline:
            return "time"
        if self.max_games is not None and self.games >= self.max_games:
            return "games"
        if self.mem0 is not None and not self.games & 31:
            now = _peak_mb()
            if now is not None and now - self.mem0 > self.memory_mb:
                return "memory"
        if self.remembered > REMEMBER_CHOICES:
            return "memory"
        return ""

    def lower_bound(self) -> int:
        """No story of this property can be shorter."""
        if self.target == "no-termination":
            return length(self.best)  # always --max-moves moves long
        if self.target in ("legal-move-fails", "illegal-move-accepted"):
            return 1
        return 0

    def _check(self) -> None:
        if time.monotonic() >= self.deadline:
            raise _Cut

    # ------------------------------------------------------------------ one candidate
    def attempt(self, seed: int, choices: list[int], rng: random.Random | None,
                cut: int | None = None, sticky: float = 0.0) -> bool:
        """Play one candidate, cut at the best length (or `cut` moves); True if it is the
        new best. A deal on which the property fails joins the pool."""
        play = self.play
        best_len = length(self.best)
        if best_len <= 0:
            return False
        self.games += 1
        script = Script(choices, rng, self._check, sticky)
        saved = play.max_moves
        # a failure on the state after best_len - 1 moves can still be shorter or as short
        play.max_moves = min(saved, best_len - 1 if cut is None else max(cut, best_len - 1))
        try:
            play.run(seed, script)
        except PropertyFailure as e:
            cx = e.cx
            if cx.property != self.target:
                return False
            cx.draws = len(script.taken)
            self.pool_add(seed, length(cx))
            if key(cx) < key(self.best):
                self.best = cx
                self.best_choices = script.taken
                self.improvements += 1
                self.on_better(cx)
                return True
            return False
        except _Cut:
            return False
        finally:
            play.max_moves = saved
        return False

    def pool_add(self, seed: int, n: int) -> None:
        pool = self.pool
        if n < pool.get(seed, n + 1):
            pool[seed] = n
            if len(pool) > self.POOL_SIZE:  # drop the deal of the longest failure
                del pool[max(pool, key=lambda k: (pool[k], k))]

    def pool_deal(self) -> int:
        """A deal of the pool, the shorter its failure the likelier (by rank: 1, 1/2,
        1/3...)."""
        ranked = sorted(self.pool, key=lambda k: (self.pool[k], k))
        weights = [1.0 / (i + 1) for i in range(len(ranked))]
        return self.rng.choices(ranked, weights)[0]

    def remember(self, seed: int, choices: list[int]) -> bool:
        """False if this exact candidate was already tried."""
        k = (seed, tuple(choices))
        if k in self.tried:
            return False
        self.tried.add(k)
        self.remembered += len(choices) + 8
        return True

    # ------------------------------------------------------------------ candidates
    def passes(self) -> Iterator[tuple[int, list[int]]]:
        """Edits of the best story (restarted when it changes): moves deleted (the moves
        left that are still legal are played), then Hypothesis-style edits of its
        choices."""
        seed = self.best.seed
        for moves in self.deletions():
            ch = choices_for(self.play, seed, moves)
            if ch is not None:
                yield seed, ch
        yield from self.choice_edits()

    def deletions(self) -> Iterator[list[Any]]:
        """The best story's moves with a block of k of them deleted, from the end
        backwards: large blocks first (half the story, a quarter...), as delta debugging
        does, then 16, 12, 8, 6, 4, 3, 2 and 1 move(s)."""
        moves = list(self.best.moves)
        nm = len(moves)
        ks = sorted({k for k in (nm // 2, nm // 4, nm // 8, 16, 12, 8, 6, 4, 3, 2, 1)
                     if 1 <= k < nm}, reverse=True)
        for k in ks:
            step = 1 if k <= 4 else max(1, k // 2)
            for i in range(nm - k, -1, -step):
                yield moves[:i] + moves[i + k:]

    def quick(self, seed: int, moves: list[Any]) -> int | None:
        """The moves played quickly from the deal (a move no longer legal is left out),
        only the target property checked after each: the number of moves after which it
        fails, or None."""
        play = self.play
        g = play.g
        check = play.invariants if self.target == "invariant" else play.conservation
        n = 0
        try:
            st = g.new_state(seed)
            if check(st):
                return 0
            for m in moves:
                if g.is_terminal(st):
                    return None
                if m not in g.legal_moves(st):
                    continue
                st = g.apply(st, m)
                n += 1
                if check(st):
                    return n
        except Exception:
            return None
        return None

    def choice_edits(self) -> Iterator[tuple[int, list[int]]]:
        seed = self.best.seed
        base = self.best_choices
        if base is None:
            return
        n = len(base)
        k = max(1, n // 2)
        while k >= 1:  # delete blocks of k choices, from the end backwards
            for i in range(n - k, -1, -max(1, k // 2)):
                yield seed, base[:i] + base[i + k:]
            k //= 2
        for i in range(n - 1, -1, -1):  # lower one choice
            if base[i] > 0:
                yield seed, base[:i] + [0] + base[i + 1:]
                if base[i] > 1:
                    yield seed, base[:i] + [base[i] - 1] + base[i + 1:]
        for s in range(8):  # the same choices on the first deals
            if s != seed:
                yield s, base

    def fast_walk(self, seed: int, rng: random.Random, cut: int | None,
                  sticky: float, prefix: list[Any] | None = None) -> bool:
        """A random walk played quickly (no lookahead, only the target property checked
        after each move), cut at the best length (or `cut` moves), after the moves of
        `prefix` (the start of the best story). A walk that fails joins
        the pool; one that fails sooner than the best story is played again as a full
        checked playthrough. True if the best story changed."""
        play = self.play
        g = play.g
        check = play.invariants if self.target == "invariant" else play.conservation
        best = length(self.best)
        limit = best - 1 if cut is None else max(cut, best - 1)
        self.games += 1
        moves: list[Any] = []
        last = -1
        n = 0
        try:
            st = g.new_state(seed)
            failed = bool(check(st))
            for m in prefix or ():
                if failed or len(moves) >= limit or g.is_terminal(st):
                    break
                st = g.apply(st, m)
                moves.append(m)
                failed = bool(check(st))
            while not failed and len(moves) < limit and not g.is_terminal(st):
                options = g.legal_moves(st)
                if play.dup_texts:
                    options = play.first_by_text(options)
                if not options:
                    return False
                k = len(options)
                if sticky and 0 <= last < k and rng.random() < sticky:
                    i = last
                else:
                    i = rng.randrange(k)
                last = i
                m = options[i]
                st = g.apply(st, m)
                moves.append(m)
                failed = bool(check(st))
                if not len(moves) & 63:
                    self._check()
            n = len(moves)
        except _Cut:
            return False
        except Exception:
            return False
        if not failed:
            return False
        self.pool_add(seed, n)
        if n >= best:
            return False
        ch = choices_of(play, seed, moves)
        return ch is not None and self.attempt(seed, ch, None)

    def quick_edits(self, cands: Iterator[list[Any]]) -> bool:
        """Up to QUICK_BATCH stories with moves deleted, played quickly; one that fails
        sooner is played as a full checked playthrough. True if the best story changed."""
        seed = self.best.seed
        best = length(self.best)
        for _ in range(QUICK_BATCH):
            moves = next(cands, None)
            if moves is None:
                return False
            n = self.quick(seed, moves)
            if n is None or n >= best:
                continue
            ch = choices_for(self.play, seed, moves)
            if ch is not None and self.remember(seed, ch) and self.attempt(seed, ch, None):
                return True
        return False

    def run(self) -> Counterexample:
        rng = self.rng
        quick_on = self.target in QUICK
        gen = iter(()) if quick_on else self.passes()
        quick: Iterator[list[Any]] | None = None
        version = 0
        seen_version = 0
        while True:
            self.stop = self.bound()
            if self.stop:
                return self.best
            if seen_version != version:
                gen = iter(()) if quick_on else self.passes()
                quick = None
                seen_version = version
            r = rng.random()
            if r < self.EDITS and self.target in QUICK:  # delta debugging, quickly
                if quick is None:
                    quick = self.deletions()
                if self.quick_edits(quick):
                    version += 1
                    quick = None
                    continue
            if r < self.EDITS:  # an edit of the best story
                cand = next(gen, None)
                if cand is not None:
                    seed, choices = cand
                    if self.remember(seed, choices) and self.attempt(seed, choices, None):
                        version += 1
                    continue
            r -= self.EDITS
            if r < self.PREFIXES and quick_on:  # the best story's start, then at random
                cut = rng.randrange(len(self.best.moves) + 1)
                if self.fast_walk(self.best.seed, random.Random(rng.getrandbits(64)), None,
                                  0.0, list(self.best.moves[:cut])):
                    version += 1
                continue
            if r < self.PREFIXES and self.best_choices:
                cut = rng.randrange(len(self.best_choices) + 1)
                if self.attempt(self.best.seed, self.best_choices[:cut],
                                random.Random(rng.getrandbits(64))):
                    version += 1
                continue
            r -= self.PREFIXES
            fast = quick_on and rng.random() < self.FAST
            if r < self.POOL:  # a walk from the start of a deal that failed before
                sticky = self.STICKY if rng.random() < 0.5 else 0.0
                deal = self.pool_deal()
                wrng = random.Random(rng.getrandbits(64))
                if (self.fast_walk(deal, wrng, None, sticky) if fast
                        else self.attempt(deal, [], wrng, None, sticky)):
                    version += 1
                continue
            r -= self.POOL
            limit: int | None = None
            sticky = 0.0
            if r < self.SCOUTS:  # a scouting walk: a longer failure still finds a deal
                limit = int(length(self.best) * self.SCOUT_CUT)
                sticky = self.STICKY if rng.random() < 0.5 else 0.0
            # a random walk on a fresh deal
            deal = rng.getrandbits(32)
            wrng = random.Random(rng.getrandbits(64))
            if (self.fast_walk(deal, wrng, limit, sticky) if fast
                    else self.attempt(deal, [], wrng, limit, sticky)):
                version += 1
