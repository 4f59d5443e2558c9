"""The fuzzer's fast checked walk: a random walk on the fast path (the generated step of
each decision run on a mutable slot list, as `Machine.random_playout` plays), with what
a reached state can show wrong checked after every step.

`Walker.walk` plays one game from a deal seed, drawing its choices from a random
generator in the protocol of the fuzzer's full playthrough (`fuzz.playthrough`): at a
simultaneous choice, first the player among those still to decide, then the move among
that player's (the moves whose texts read alike counted once, when `dedupe` is given); a
choice is drawn only among two or more. It checks, on every state it reaches:

- the cards: every card id of the deck once, in all the zones together;
- the declared invariants (one that fails to evaluate is broken);
- a state not over has a legal move for each player who must decide, and none for
  anybody else; a declared limit ends the game;
- no rule fails: the move's step (its effect, the flow after it, the end conditions and
  legal moves of the state it reaches), the score of every player at every state, and
  the results at the end;
- with `detect_loops`, no state comes back (compared without the move counter, as
  `Game.position_key` does); a walk longer than `max_moves` is cut (`cut`) or, without
  a declared limit, a game that does not end.

It stops at the first thing wrong and says what it saw (`Walk.found`, in the fuzzer's
property names); it never builds the counterexample: the fuzzer replays the same seed
and choices through its full checked playthrough for that. `Walk.open` says whether the
seats could see everything at every decision of the walk (no card in a zone some seat
cannot see, no card turned, no secret simultaneous choice, no chance after the deal):
then no leak of hidden information can happen on it.
"""

from __future__ import annotations

import dis
import random
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from ..codegen import ENDED, MOVES, PC, PENDING, RNG, WHO
from .game import Game
from .state import Move, State

Dedupe = Callable[[list[Move]], list[Move]]


class Walk:
    """One walk: the deal seed, the choices drawn, the moves played, the end (None: not
    over), and the first thing found wrong (`found`, a property name, with `message`;
    `failing_move` when the step of the move played failed)."""

    __slots__ = ("seed", "choices", "moves", "ended", "found", "message", "failing_move",
                 "cut", "open", "fired", "decisions", "number")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.choices: list[int] = []
        self.moves = 0
        self.ended: str | None = None
        self.found: str | None = None
        self.message = ""
        self.failing_move: Move | None = None
        self.cut = False  # stopped at max_moves in a game with a declared limit
        self.open = True
        self.fired: set[int] = set()  # the moves played (move numbers)
        self.decisions: set[int] = set()  # the decision points reached
        self.number = 0  # (the caller's count of walks)


class Walker:
    """Fast checked walks of one compiled game (see the module docstring)."""

    def __init__(self, game: Game, max_moves: int, detect_loops: bool,
                 hidden_zones: Sequence[str] = (), dedupe: Dedupe | None = None) -> None:
        g = game
        self.g = g
        self.max_moves = max_moves
        self.detect_loops = detect_loops
        self.dedupe = dedupe
        self.zone_slots = list(g._zone_slots)
        # every zone's cards at once (a tuple of the zones' tuples, one zone or more)
        get = itemgetter(*self.zone_slots)
        self.zones_of: Callable[[list[Any]], tuple[tuple[int, ...], ...]] = (
            get if len(self.zone_slots) > 1 else lambda s: (get(s),))
        self.ncards = g._ncards
        self.all_cards = frozenset(range(g._ncards))
        self.players = tuple(range(1, g.players + 1))
        self.hidden_slots = tuple(g.zone_slot(z) for z in hidden_zones)
        # an open game may have no card a seat cannot see at a decision: not when the
        # rules turn cards, nor when choices are kept secret until all have chosen
        self.may_be_open = not g.uses_faces and not g._sim
        # the invariants that read the legal moves get them as a list (the fast path may
        # keep sets of cards unlisted)
        self.list_legal = any(_reads_legal(fn) for _, fn in g.invariants)

    def walk(self, seed: int, rng: random.Random) -> Walk:
        """Play and check one game (see the module docstring)."""
        g = self.g
        w = Walk(seed)
        choices = w.choices
        s = g._blank.copy()
        s[RNG] = seed
        try:
            g._setup(s)
            g._gen_run(s, s[PC])
            legal: Sequence[Move] = g._gen_settle(s)
        except Exception as e:
            w.found, w.message = "rule-error", f"the deal fails: {type(e).__name__}: {e}"
            return w
        getrandbits = rng.getrandbits
        zones_of = self.zones_of
        ncards = self.ncards
        all_cards = self.all_cards
        invariants = g.invariants
        list_legal = self.list_legal
        score = g._score
        players = self.players
        sim = g._sim
        steps = g._steps
        kept = g._sim_kept
        simsteps = g._simsteps
        dedupe = self.dedupe
        limit = g.limit
        max_moves = self.max_moves
        hidden = self.hidden_slots
        is_open = self.may_be_open
        seen: dict[tuple[Any, ...], int] | None = {} if self.detect_loops else None
        fired = w.fired
        decisions = w.decisions
        chance = s[RNG]  # the random seed after the deal: chance later changes it
        n = 0
        m: Move = ()
        while True:
            # ---- the state reached: its cards, the invariants
            zones = zones_of(s)
            if sum(map(len, zones)) != ncards or set().union(*zones) != all_cards:
                w.found, w.message = "conservation", "the cards in play"
                break
            if invariants:
                lst = legal if type(legal) is list or not list_legal else list(legal)
                try:
                    bad = [name for name, fn in invariants if not fn(s, lst)]
                except Exception as e:
                    w.found, w.message = "invariant", f"evaluating an invariant failed: {e}"
                    break
                if bad:
                    w.found, w.message = "invariant", ", ".join(bad)
                    break
            try:
                for p in players:
                    score(s, p)
            except Exception as e:
                w.found, w.message = "rule-error", f"the score: {e}"
                break
            ended = s[ENDED]
            if ended is not None:
                w.ended = str(ended)
                try:
                    g.results(State(tuple(s), []))
                except Exception as e:
                    w.found, w.message = "rule-error", f"the results: {e}"
                break
            # ---- a decision: who must decide has a legal move
            if not legal:
                w.found, w.message = "dead-end", "nobody has a legal move"
                break
            pc = s[PC]
            decisions.add(pc)
            movers: Sequence[int]
            if pc in sim:
                done = {mv[0] for mv in s[PENDING] or ()}
                movers = [p for p in s[WHO] if p not in done]
                deciding = _players(legal)
                if deciding != set(movers):
                    w.found, w.message = "dead-end", "the players with legal moves are " \
                        f"{sorted(deciding)}, those to decide {movers}"
                    break
            else:
                movers = (s[WHO],)
                if legal[0][0] != s[WHO] or legal[-1][0] != s[WHO]:
                    w.found, w.message = "dead-end", "a legal move of a player who does " \
                        "not decide"
                    break
            if limit and s[MOVES] >= limit:
                w.found, w.message = "crash", "the declared limit did not end the game"
                break
            if is_open and (s[RNG] != chance or any(s[z] for z in hidden)):
                is_open = False
            if seen is not None:
                count = s[MOVES]
                s[MOVES] = None
                key = tuple(s)
                s[MOVES] = count
                if key in seen:
                    w.found, w.message = "loop", f"the state after move {seen[key]} comes " \
                        f"back after move {n}"
                    break
                seen[key] = n
            if n >= max_moves:
                if limit:
                    w.cut = True
                else:
                    w.found, w.message = "no-termination", f"not over after {n} moves"
                break
            # ---- the choice, as the full playthrough draws it
            options: Sequence[Move] = legal
            if len(movers) > 1:
                k = len(movers)
                bits = k.bit_length()
                j = getrandbits(bits)
                while j >= k:
                    j = getrandbits(bits)
                choices.append(j)
                p = movers[j]
                options = _only(legal, p, movers)
            if dedupe is not None:
                options = dedupe(options if type(options) is list else list(options))
            k = len(options)
            if k > 1:
                bits = k.bit_length()
                j = getrandbits(bits)
                while j >= k:
                    j = getrandbits(bits)
                choices.append(j)
                m = options[j]
            else:
                m = options[0]
            # ---- the step (as Machine._play_randomly plays it)
            try:
                if pc in sim:
                    pending = s[PENDING] + (m,)
                    if len(pending) < len(s[WHO]) and pc in kept:
                        s[PENDING] = pending
                        s[MOVES] += 1
                        legal = g._others_moves(legal, m[0])
                    elif pc in simsteps and len(pending) == len(s[WHO]):
                        legal = g._end_round(s, m, pending, simsteps[pc])
                    else:
                        g._step(s, m)
                        legal = g._settle_lazily(s)
                elif steps is not None:
                    legal = steps[pc](s, m)
                else:
                    legal = g._step_settle(s, m)
            except Exception as e:
                w.found, w.message = "legal-move-fails", f"{type(e).__name__}: {e}"
                w.failing_move = m
                break
            n += 1
            fired.add(m[1])
        w.moves = n
        w.open = is_open
        return w


def _reads_legal(fn: Any) -> bool:
    """Does a generated test (of a state and its legal moves) read the legal moves?"""
    code = fn.__code__
    return "_legal" in code.co_cellvars or any(
        i.argval == "_legal" for i in dis.get_instructions(fn) if i.opname.startswith("LOAD"))


def _players(legal: Sequence[Move]) -> set[int]:
    """The players who have a move in `legal` (a list, or codegen's SetMoves, whose sets
    of cards are not listed for this)."""
    if type(legal) is list:
        return {m[0] for m in legal}
    out: set[int] = set()
    for part in legal.parts:  # type: ignore[attr-defined]
        if type(part) is list:
            out.update(m[0] for m in part)
        elif part[0]:
            out.add(part[1][0])
    return out


def _only(legal: Sequence[Move], p: int, movers: Sequence[int]) -> Sequence[Move]:
    """The moves of player `p` in `legal`, in order (a SetMoves stays unlisted)."""
    if type(legal) is list:
        return [m for m in legal if m[0] == p]
    for q in movers:
        if q != p:
            legal = legal.without(q)  # type: ignore[attr-defined]
    return legal
