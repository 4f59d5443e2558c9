"""Fast checked walks for `cardgame fuzz`: random games on the engine's fast path
(`engine.walk`: the generated step functions on a mutable state), interleaved with the
full checked playthroughs (`playthrough.py`).

A fast walk checks on every step what a reached state can show wrong (`FAST_CHECKED`):
the cards, the declared invariants, a dead end, a rule error (the move played, the flow,
the legal moves, the end conditions, the score, the results), a game without a limit
that does not end, a state that comes back, a crash; and, for one seat a walk (the
seats in turn), a leak: a shadow world stepped beside the walk must tell that seat the
same (`engine.walk.Told`). On a sample (`FAST_SAMPLED`) it saves a state as JSON and
plays a walk twice. It does not apply the moves it does not play (the full playthrough's
lookahead) or probe illegal moves (`FULL_ONLY`): the full playthroughs do, on every step
of every game they play. A walk on which every seat sees every card at every decision
(no card in a zone hidden from a seat, none turned, no secret simultaneous choice, no
chance after the deal: `Walk.open`) cannot leak hidden information, so the leak check
is vacuous there.

A walk that finds something is played again, the same deal and choices, as a full
checked playthrough: that builds the counterexample (which may be an earlier failure
the full checks see, such as a move not played that fails), and Hypothesis and the
story search shrink it as any other. A walk draws its choices as the full playthrough
does (at a simultaneous choice the player first; moves that read alike counted once),
so its choices are a full playthrough's.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from ..engine import Move, Walk, Walker
from ..observe import hidden_zones
from .playthrough import Counterexample, Playthrough, PropertyFailure

# what a fast walk checks on every step, and what only the full playthroughs check
FAST_CHECKED = ("conservation", "invariant", "dead-end", "rule-error", "no-termination",
                "loop", "legal-move-fails", "log-line-fails", "leak", "crash")
# checked on a sample (json: every `Walker.json_every`-th state, and the last state of
# each walk played twice; nondeterminism: every REPLAY_EVERY-th walk played twice)
FAST_SAMPLED = ("json", "nondeterminism")
FULL_ONLY = ("illegal-move-accepted",)
# full replays of a walk that found a leak, each with other shadow worlds, at most
LEAK_REPLAYS = 8
# the walks that check a seat for leaks: every LEAK_EVERY-th (the seats in turn)
LEAK_EVERY = 1
# every REPLAY_EVERY-th walk is played twice (nondeterminism), and its last state goes
# through JSON
REPLAY_EVERY = 32
# texts of moves kept for the moves that read alike (a custom deck's twins), at most
TEXT_CACHE = 100_000


class FastWalks:
    """The fast walks of one search: their own random generator (the full playthroughs
    draw from theirs as before), the counts in the playthrough's coverage."""

    def __init__(self, play: Playthrough, seed: int | None) -> None:
        self.play = play
        g = play.g
        hidden = sorted({z for p in range(1, g.players + 1) for z in hidden_zones(g, p)})
        self.walker = Walker(g, play.max_moves, play.detect_loops, hidden,
                             self._dedupe if play.dup_texts else None,
                             {p: hidden_zones(g, p) for p in play.leak_seats},
                             shuffles_later=play.shuffles_later)
        # the seats whose leak check the walks make, one per walk in turn (none: a game
        # whose rules turn cards, or where every seat sees every card)
        self.leak_seats = sorted(self.walker.leak or ())
        self.leak_every = LEAK_EVERY
        self.rng = random.Random(f"cardgame-fast/{seed}" if seed is not None else None)
        self.texts: dict[Move, str] = {}
        self.choices: list[int] = []  # of the last walk that failed: the deal seed first

    def _dedupe(self, options: list[Move]) -> list[Move]:
        """The first of the moves whose texts read alike (`Playthrough.first_by_text`),
        the texts kept from one step to the next."""
        texts = self.texts
        if len(texts) > TEXT_CACHE:
            texts.clear()
        text = self.play.g.move_text
        seen: dict[str, Move] = {}
        for m in options:
            t = texts.get(m)
            if t is None:
                t = texts[m] = text(m)
            if t not in seen:
                seen[t] = m
        if len(seen) == len(options):
            return options
        if self.play.twin_differs:
            self.play.first_by_text(options)  # (its note on twins that differ)
        return list(seen.values())

    def walk(self) -> Counterexample | None:
        """One fast walk; a failure it finds, confirmed by the full playthrough."""
        w = self.play_one()
        return None if w.found is None else self.confirm(w)

    def play_one(self, cpu: bool = True) -> Walk:
        """One fast walk, counted in the coverage (what it found not yet confirmed).
        `cpu=False`: its CPU time is not added to `fast_cpu` (the caller times a batch of
        walks at once: reading the process's CPU clock is a system call, about 1 us)."""
        cov = self.play.cov
        t0 = time.perf_counter()
        c0 = time.process_time() if cpu else 0.0
        seats = self.leak_seats
        k, r = divmod(cov.fast_games, self.leak_every)
        seat = seats[k % len(seats)] if seats and not r else None
        seed = self.rng.getrandbits(32)
        again = cov.fast_games % REPLAY_EVERY == 0
        if again:
            state = self.rng.getstate()
        w = self.walker.walk(seed, self.rng, seat)
        if again and w.found is None:
            # the same deal and choices again: the same game (nondeterminism)
            after = self.rng.getstate()
            self.rng.setstate(state)
            w2 = self.walker.walk(seed, self.rng)  # (no leak check: nor its recorder)
            self.rng.setstate(after)
            cov.fast_replayed += 1
            if (w2.final, w2.choices, w2.found) != (w.final, w.choices, None):
                w.found, w.message = "nondeterminism", (
                    "playing the walk again from its deal seed with the same choices gives "
                    f"another game ({w2.moves} moves, not {w.moves})" if w2.moves != w.moves
                    else "another last state")
        every = self.walker.json_every
        if again and w.found is None and w.moves % every != every - 1:
            bad = self.walker.json_differs(list(w.final))  # (the last state)
            if bad:
                w.found, w.message = "json", bad
        if w.shadows:
            cov.fast_leak += 1
        if cpu:
            cov.fast_cpu += time.process_time() - c0
        cov.fast_games += 1
        cov.fast_moves += w.moves
        cov.fast_open += w.open
        cov.fired |= w.fired
        cov.decisions |= w.decisions
        if w.moves > cov.longest:
            cov.longest = w.moves
        if w.ended is not None:
            cov.fast_endings[w.ended] = cov.fast_endings.get(w.ended, 0) + 1
        if w.cut:
            cov.cut += 1
        cov.fast_seconds += time.perf_counter() - t0
        w.number = cov.fast_games
        return w

    def confirm(self, w: Walk) -> Counterexample | None:
        """Play the walk's deal and choices again as a full checked playthrough: its
        failure (the counterexample), or None (noted in the coverage) if it finds none."""
        play = self.play
        choices = w.choices
        used = [0]

        def choose(n: int) -> int:
            i = used[0]
            used[0] += 1
            c = choices[i] if i < len(choices) else 0
            return c if c < n else 0

        saved: Callable[[], None] = play.tick
        play.tick = lambda: None  # (a budget that runs out now must not cut the replay)
        try:
            # a leak needs a shadow world whose hidden cards make the difference: the
            # full replay draws its own, so it tries other ones before it gives up
            for salt in range(LEAK_REPLAYS if w.found == "leak" else 1):
                used[0] = 0
                play.shadow_salt = salt
                try:
                    play.run(w.seed, choose)
                except PropertyFailure as e:
                    cx = e.cx
                    cx.draws = used[0]
                    self.choices = [w.seed, *choices[:cx.draws]]
                    play.cov.found_by_fast = w.number
                    return cx
        finally:
            play.tick = saved
            play.shadow_salt = 0
        play.cov.fast_unconfirmed.append(
            f"a fast walk (deal seed {w.seed}) found {w.found} ({w.message}) after "
            f"{w.moves} moves, but its full replay found nothing"
            + (f" (nor {LEAK_REPLAYS - 1} more, with other shadow worlds)"
               if w.found == "leak" else ""))
        return None
