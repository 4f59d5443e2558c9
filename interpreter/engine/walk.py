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
  a declared limit, a game that does not end;
- every `json_every`-th state survives a JSON round trip;
- with `seat` (`leak` given: the zones each seat cannot see), no leak for that seat: a
  shadow world (`Shadow`), the cards the seat has not seen dealt again among their
  places, is stepped beside the walk with its moves, and what each step tells the seat
  (`Told`: the generated code's event recorder while the walk runs, specialised to the
  seat) must be the same in both (docs/fuzz.md, "Fast walks").

It stops at the first thing wrong and says what it saw (`Walk.found`, in the fuzzer's
property names); it never builds the counterexample: the fuzzer replays the same seed
and choices through its full checked playthrough for that. `Walk.open` says whether the
seats could see everything at every decision of the walk (no card in a zone some seat
cannot see, no card turned, no secret simultaneous choice, no chance after the deal):
then no leak of hidden information can happen on it.
"""

from __future__ import annotations

import gc
import random
import threading
from collections.abc import Callable, Sequence
from operator import itemgetter
from threading import get_ident
from typing import Any

from ..codegen import ENDED, MOVES, PC, PENDING, RNG, STEPS, WHO, shuffle_list
from ..codegen import reads as readers
from .game import Game, _players
from .state import Move, State

Dedupe = Callable[[list[Move]], list[Move]]
# check(s, legal, prev): a reached state's test (`Walker._checker`), 0 when all holds
Check = Callable[[list[Any], Sequence[Move], "list[Any] | None"], int]

# the JSON round trip is checked on every JSON_EVERY-th state of a walk (the last state of
# some walks: fuzz/fast.py)
JSON_EVERY = 256

# while a walk runs, the young generation is collected every WALK_GC allocations, not
# every 700 (Python's default): a walk's garbage is the slot lists, tuples and sets of its
# steps, which die with their references (no cycle among them), so a collection finds
# nothing to free and only traverses what is alive. The threshold the walk found is put
# back when it ends, where it is still the walk's (set in the `try`, put back in its
# `finally`: an exception, a KeyboardInterrupt included, cannot leave it changed but in
# the `finally` itself). A walk of another thread that began meanwhile runs on at the
# threshold put back: slower, never another outcome.
WALK_GC = 10_000


class Walk:
    """One walk: the deal seed, the choices drawn, the moves played, the end (None: not
    over), and the first thing found wrong (`found`, a property name, with `message`;
    `failing_move` when the step of the move played failed)."""

    __slots__ = ("seed", "choices", "moves", "ended", "found", "message", "failing_move",
                 "cut", "open", "fired", "decisions", "number", "leak_seat", "shadows",
                 "final", "lost")

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
        self.leak_seat: int | None = None  # the seat whose leak check the walk made
        self.shadows = 0  # the shadow worlds it drew for that seat
        self.final: tuple[Any, ...] = ()  # the slots of the last state reached
        self.lost = False  # the leak check stopped: another thread began to observe


class Walker:
    """Fast checked walks of one compiled game (see the module docstring)."""

    json_every = JSON_EVERY

    def __init__(self, game: Game, max_moves: int, detect_loops: bool,
                 hidden_zones: Sequence[str] = (), dedupe: Dedupe | None = None,
                 leak: dict[int, Sequence[str]] | None = None,
                 shuffles_later: bool = True) -> None:
        g = game
        self.g = g
        self.max_moves = max_moves
        self.detect_loops = detect_loops
        self.dedupe = dedupe
        # whether a rule but the setup's statements may shuffle (`False`: a walk whose
        # seat has fewer than two unseen cards after the deal never has a shadow)
        self.shuffles_later = shuffles_later
        self.zone_slots = list(g._zone_slots)
        # every zone's cards at once (a tuple of the zones' tuples, one zone or more)
        get = itemgetter(*self.zone_slots)
        self.zones_of: Callable[[list[Any]], tuple[tuple[int, ...], ...]] = (
            get if len(self.zone_slots) > 1 else lambda s: (get(s),))
        self.ncards = g._ncards
        self.all_cards = frozenset(range(g._ncards))
        self.players = tuple(range(1, g.players + 1))
        self.hidden_slots = tuple(g.zone_slot(z) for z in hidden_zones)
        self._checkers: dict[tuple[Any, ...], Check] = {}
        # the test of the last walk, and what it was written for (the game's invariants,
        # the generated module's tuple, and its score): a walk of a game whose rules did
        # not change since reuses it without building `_checker`'s key
        self._last: tuple[Any, ...] = (None, None, None, [])
        self.limit = g.limit
        # an open game may have no card a seat cannot see at a decision: not when the
        # rules turn cards, nor when choices are kept secret until all have chosen
        self.may_be_open = not g.uses_faces and not g._sim
        # the invariants that read the legal moves get them as a list (the fast path may
        # keep sets of cards unlisted)
        self.list_legal = any(readers.reads_legal(fn) for _, fn in g.invariants)
        # the leak check (`leak`: the zones each seat cannot see; not in a game whose
        # rules turn cards one by one: the faces are the full playthroughs')
        self.leak: dict[int, Told] | None = None
        if leak and not g.uses_faces:
            var_slots = [b + k for b, n in g._var_at.values() for k in range(n or 1)]
            self.leak = {p: Told(g, p, [g.zone_slot(z) for z in zs], var_slots)
                         for p, zs in leak.items() if zs}

    def walk(self, seed: int, rng: random.Random, seat: int | None = None) -> Walk:
        """Play and check one game (see the module docstring); with `seat` (one of
        `leak_seats`), the leak check for that seat too, on a shadow world."""
        before = gc.get_threshold()
        raise_ = 0 < before[0] < WALK_GC  # (0: automatic collection off; a higher one kept)
        try:
            if raise_:
                gc.set_threshold(WALK_GC, *before[1:])
            return self._walk_seat(seed, rng, seat)
        finally:
            if raise_ and gc.get_threshold()[0] == WALK_GC:
                gc.set_threshold(*before)  # (unless someone set another meanwhile)

    def _walk_seat(self, seed: int, rng: random.Random, seat: int | None) -> Walk:
        if seat is None or self.leak is None:
            return self._walk(seed, rng, None)
        told = self.leak[seat]
        g = self.g
        ns = g.ns
        # the game's recorder counts this walk as an observer (another thread's observed
        # call that ends meanwhile leaves `REC` set), and the walk's recorder passes the
        # calls of other threads on to it; a thread that starts observing meanwhile
        # takes `REC` back: the walk then stops checking leaks (`Told.lost`)
        g._rec.open()
        told.owner = threading.get_ident()
        ns["REC"] = told
        try:
            return self._walk(seed, rng, told)
        finally:
            if not told.released:
                if ns["REC"] is told:
                    ns["REC"] = g._rec
                g._rec.close()
            told.reset()

    def _release(self, told: Told) -> None:
        """The walk stops observing (its leak check ends): the recorder as `walk` leaves
        it at the end."""
        g = self.g
        if g.ns["REC"] is told:
            g.ns["REC"] = g._rec
        g._rec.close()
        told.released = True

    def _walk(self, seed: int, rng: random.Random, told: Told | None) -> Walk:
        g = self.g
        w = Walk(seed)
        choices = w.choices
        s = g._blank.copy()
        s[RNG] = seed
        # the rule errors of log lines, while the fuzzer checks them (`Game.checking_logs`):
        # emptied before each step, so that a shadow world's do not count
        logs: list[Any] | None = g.ns["LOGCHECK"]
        if logs:
            logs.clear()
        try:
            g._setup(s)
            g._gen_run(s, s[PC])
            legal: Sequence[Move] = g._gen_settle(s)
        except Exception as e:
            w.found, w.message = "rule-error", f"the deal fails: {type(e).__name__}: {e}"
            return w
        if logs:
            w.found, w.message = "log-line-fails", f"a log line of the deal: {logs[0]}"
            logs.clear()
            return w
        sh: Shadow | None = None
        # the state checked last (None: none yet), a copy: the checks of the next state
        # are made again only where the step changed what they read (`_checker`); and
        # the state the shadow world's step starts from
        before: list[Any] | None = None
        ns = g.ns
        if told is not None:
            w.leak_seat = told.seat
            told.start(s, seed)
            sh = told.draw(s, legal, w)
            if sh is not None:
                why = sh.decides(told, s, legal)
                if why:
                    w.found, w.message = "leak", why
                    return w
            elif not self.shuffles_later and len(told.shuffled - told.seen) < 2:
                # no shadow world can be drawn on this walk: a draw needs two cards the
                # seat has not seen (of those shuffled), the game shuffles nothing after
                # the deal, and the seat only sees more cards (FreeCell, the Castles: the
                # deck dealt face up); the walk goes on unobserved
                self._release(told)
                told = None
        getrandbits = rng.getrandbits
        # (the namespace's tuple that g.invariants copies: the same object while the
        # game's rules are the same)
        src, score = ns["INVARIANTS"], g._score
        last = self._last
        if src is last[0] and score is last[1]:  # (a tuple: the same one, unchanged)
            check, invariants = last[2], last[3]
        else:
            invariants = list(src)
            check = self._checker(invariants, score)
            self._last = (src, score, check, invariants)
        sim = g._sim
        steps = g._steps
        kept = g._sim_kept
        simsteps = g._simsteps
        dedupe = self.dedupe
        limit = self.limit
        max_moves = self.max_moves
        json_every = self.json_every
        hidden = self.hidden_slots
        is_open = self.may_be_open
        seen: dict[tuple[Any, ...], int] | None = {} if self.detect_loops else None
        fired = w.fired
        decisions = w.decisions
        chance = s[RNG]  # the random seed after the deal: chance later changes it
        n = 0
        m: Move = ()
        while True:
            # ---- the state reached: its cards, the invariants, the scores (one
            # generated test of all three, incremental from the state before; what
            # failed, again part by part: `_what`)
            if check(s, legal, before):
                w.found, w.message = self._what(s, legal, invariants, score)
                break
            if n % json_every == json_every - 1:  # (the 256th state, the 512th...)
                lost = self.json_differs(s)
                if lost:
                    w.found, w.message = "json", lost
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
            movers: Sequence[int] = ()  # (of a simultaneous choice: one decides otherwise)
            simul = pc in sim
            if simul:
                done = {mv[0] for mv in s[PENDING] or ()}
                movers = [p for p in s[WHO] if p not in done]
                deciding = _players(legal)
                if deciding != set(movers):
                    w.found, w.message = "dead-end", "the players with legal moves are " \
                        f"{sorted(deciding)}, those to decide {movers}"
                    break
            else:
                who = s[WHO]
                if legal[0][0] != who or legal[-1][0] != who:
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
                # (one hash of the state: n is new to the dict, so an older number back
                # means the state came back)
                first = seen.setdefault(key, n)
                if first != n:
                    w.found, w.message = "loop", f"the state after move {first} comes " \
                        f"back after move {n}"
                    break
            if n >= max_moves:
                if limit:
                    w.cut = True
                else:
                    w.found, w.message = "no-termination", f"not over after {n} moves"
                break
            # ---- the choice, as the full playthrough draws it
            options: Sequence[Move] = legal
            if simul and len(movers) > 1:
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
            before = s.copy()
            if told is not None:
                told.shown = set()
                told.logs = []
            if logs:
                logs.clear()
            try:
                if simul:
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
            if logs:
                w.found, w.message = "log-line-fails", f"RuleError: {logs[0]}"
                logs.clear()
                break
            n += 1
            fired.add(m[1])
            if told is not None:
                if ns["REC"] is not told:  # (another thread observes: see walk)
                    told = sh = None
                    w.lost = True
                    continue
                told.seen |= told.shown
                if sh is not None:
                    why = sh.follow(told, before, s, m, pc, legal)
                    if why is not None:
                        if why:
                            w.found, w.message = "leak", why
                            break
                        sh = None
                if sh is None and n >= told.wait:
                    sh = told.draw(s, legal, w)
                    if sh is not None:
                        why = sh.decides(told, s, legal)
                        if why:
                            w.found, w.message = "leak", why
                            break
                if told.reshuffled:
                    told.reshuffled = False
        w.moves = n
        w.open = is_open
        w.final = tuple(s)
        return w

    def slot_names(self) -> dict[int, str]:
        """What each slot a reached state's test may read holds, by name: a zone as its
        moves write it (`hand-p2`), a variable (`points[2]`), `moves_played`, `ended`
        (for tests and messages: the reads of `state_reads` by name)."""
        g = self.g
        out = {MOVES: "moves_played", ENDED: "ended"}
        out.update(g.zone_text)
        for name, (base, n) in g._var_at.items():
            for k in range(n or 1):
                out[base + k] = f"{name}[{k + 1}]" if n else name
        return out

    def _checker(self, invariants: list[tuple[str, Any]], score: Callable[..., Any],
                 reads: tuple[list[frozenset[int] | None], list[frozenset[int] | None]]
                 | None = None) -> Check:
        """One test of a state the walk reaches: its cards (every card id of the deck
        once, in all the zones together), the declared invariants, the score of every
        player; 0 when all hold (else `_what` says what failed). Written once per game
        (and per set of invariant and score functions) from slot numbers alone: the
        zones read at once, the invariants and scores called in turn, as the loop of
        `_what` calls them.

        check(s, legal, prev): `prev` None, the whole test; else `prev` is the slot list
        of the walk's state checked last, where all held (the walk stops at the first
        failure), and the test is incremental, with the same answer: the slots hold
        immutable values (ints, strings, tuples, None), so a slot whose value `is` the
        one in `prev` holds the same value, and
        - the cards: they were all there once in `prev`, so they are in `s` iff the
          zones whose slots changed hold the same cards as they held there (the same
          number of cards, every card they held among them: `prev`'s had no card
          twice, so that many cards can hold them only once each), or (the same
          number, where those zones hold more than half the deck) all the zones
          together hold every card;
        - an invariant (a player's score) is evaluated again only when a slot it may read
          (`state_reads`: from its rules, the defs they call included) changed: else it
          would read the same values and give the same answer (it held); one whose
          reads are not known, or that reads the legal moves, is always evaluated."""
        key = (score, *(fn for _, fn in invariants))
        got = self._checkers.get(key) if reads is None else None
        if got is not None:
            return got
        lines = ["def check(s, legal, prev=None):",
                 "    if prev is None:",
                 "        zones = ZONES(s)",
                 "        if sum(map(len, zones)) != NCARDS or set().union(*zones) != ALL:",
                 "            return 1"]
        env: dict[str, Any] = {"NCARDS": self.ncards, "ALL": self.all_cards,
                               "SCORE": score, "list": list, "type": type, "set": set,
                               "len": len, "sum": sum, "map": map, "Exception": Exception,
                               "ZONES": self.zones_of}
        # (`reads`: what each rule reads, given: a test's own functions standing in
        # for the game's, with the game's reads)
        # (a sum of zone sizes counted by the zones it leaves out: the cards are
        # tested before the invariants, and all are there once; `state_reads`)
        inv_reads, score_reads = reads or readers.state_reads(self.g, invariants, score,
                                                              conserved=True)
        zone_slots = sorted(self.zone_slots)
        if invariants:
            for i, (_, fn) in enumerate(invariants):
                env[f"INV{i}"] = fn
            test = " and ".join(f"INV{i}(s, lst)" for i in range(len(invariants)))
            lines += ["        try:", f"            if not ({test}):", "                return 2",
                      "        except Exception:", "            return 2"]
        lines += ["        try:"] + [f"            SCORE(s, {p})" for p in self.players] + [
            "        except Exception:", "            return 3", "        return 0"]
        # the incremental test: which slots changed (one flag each), the cards of the
        # zones that changed, then each invariant and the scores where a slot they read
        # changed
        read: set[int] = set(zone_slots)
        for r in [*inv_reads, *score_reads]:
            if r is not None:
                read |= r
        flags_at = len(lines)  # (the flags of the slots read: written last, below)
        lines.append("    was = now = ()")
        for z in zone_slots:
            lines.append(f"    if c{z}: was += prev[{z}]; now += s[{z}]")
        # (the same count of cards as before, so NCARDS; where the zones that changed
        # hold more than half the deck, the stock dealt from, the whole set is cheaper)
        lines += ["    if len(was) != len(now):", "        return 1",
                  f"    if len(now) > {self.ncards // 2}:",
                  "        if set().union(*ZONES(s)) != ALL:", "            return 1",
                  "    elif not set(now).issuperset(was):", "        return 1"]

        def changed(r: frozenset[int] | None) -> str | None:
            """The test that a slot in `r` changed ("": always; None: never)."""
            if r is None or r.issuperset(zone_slots):
                return ""  # (unknown reads; every zone: one changes at nearly every step)
            if not r:
                return None
            return " or ".join(f"c{k}" for k in sorted(r))

        tests = []
        split = {} if reads is not None else readers.invariant_parts(self.g, invariants)
        for i, r in enumerate(inv_reads):
            parts = split.get(i)
            if parts is not None:  # (each part where a slot it reads changed)
                some: list[str] = []
                for j, (fn, at, pr) in enumerate(parts):
                    env[f"INV{i}_{j}"] = fn
                    for r1 in pr:
                        read |= r1
                    for v, r1 in zip(at or (None,), pr, strict=True):
                        cond = changed(r1)
                        arg = "lst" if at is None else repr(v)
                        if cond is not None:
                            some += [f"        if {f'({cond}) and ' if cond else ''}"
                                     f"not INV{i}_{j}(s, {arg}):", "            return 2"]
                # (the parts' tests under one test that a slot any of them reads changed:
                # a step that changes none, Pyramid's draw, skips them at once)
                every = frozenset().union(*(r1 for _, _, pr in parts for r1 in pr))
                gate = changed(every)
                if gate and len(some) > 2:
                    some = [f"        if {gate}:", *("    " + x for x in some)]
                tests += some
                continue
            cond = changed(r)
            if cond and r is not None and r <= set(zone_slots) and reads is None \
                    and readers.sizes_only(self.g, invariants[i][1]):
                # (a function of the sizes of the zones it reads: tested again only for
                # sizes it was not seen to hold with; `OK{i}` the sizes where it held)
                env[f"OK{i}"] = set()
                size = "".join(f"len(s[{k}]), " for k in sorted(r))
                tests += [f"        if {cond}:", f"            _z = ({size})",
                          f"            if _z not in OK{i}:",
                          f"                if not INV{i}(s, lst):", "                    return 2",
                          f"                if len(OK{i}) < {SIZES_KEPT}:",
                          f"                    OK{i}.add(_z)"]
            elif cond is not None:
                tests += [f"        if {f'({cond}) and ' if cond else ''}not INV{i}(s, lst):",
                          "            return 2"]
        if tests:
            lines += ["    try:", *tests, "    except Exception:", "        return 2"]
        tests = []
        for p, r in zip(self.players, score_reads, strict=True):
            cond = changed(r)
            if cond is not None:
                tests += [f"        if {cond}:", f"            SCORE(s, {p})"] if cond else [
                    f"        SCORE(s, {p})"]
        if tests:
            lines += ["    try:", *tests, "    except Exception:", "        return 3"]
        lines.append("    return 0")
        lines[flags_at:flags_at] = [f"    c{k} = s[{k}] is not prev[{k}]" for k in sorted(read)]
        # the legal moves as the invariants read them (a list, where one reads them)
        lst = ("    lst = legal if type(legal) is list else list(legal)" if self.list_legal
               else "    lst = legal")
        lines.insert(1, lst)
        self.last_source = "\n".join(lines)  # (for tests)
        exec("\n".join(lines), env)  # noqa: S102  (slot numbers and names of ours only)
        got = env["check"]
        if reads is None:
            self._checkers[key] = got
        return got

    def _what(self, s: list[Any], legal: Sequence[Move], invariants: list[tuple[str, Any]],
              score: Callable[..., Any]) -> tuple[str, str]:
        """What `_checker`'s test found wrong: the property and the message."""
        zones = self.zones_of(s)
        if sum(map(len, zones)) != self.ncards or set().union(*zones) != self.all_cards:
            return "conservation", "the cards in play"
        if invariants:
            lst = legal if type(legal) is list or not self.list_legal else list(legal)
            try:
                bad = [name for name, fn in invariants if not fn(s, lst)]
            except Exception as e:
                return "invariant", f"evaluating an invariant failed: {e}"
            if bad:
                return "invariant", ", ".join(bad)
        try:
            for p in self.players:
                score(s, p)
        except Exception as e:
            return "rule-error", f"the score: {e}"
        return "crash", "a check of the state failed, then held when made again"

    def json_differs(self, s: list[Any]) -> str | None:
        """Does the state survive a JSON round trip exactly (None: it does)?"""
        g = self.g
        st = State(tuple(s), None)
        try:
            back = g.from_json(g.to_json(st))
        except Exception as e:
            return f"the JSON round trip fails: {type(e).__name__}: {e}"
        if back.slots != st.slots:
            return "from_json(to_json(state)) differs in " + ", ".join(
                g.differences(st, back)[:8])
        return None


# where an invariant that reads sizes only held, the sizes kept, at most (`_checker`)
SIZES_KEPT = 4096



def _only(legal: Sequence[Move], p: int, movers: Sequence[int]) -> Sequence[Move]:
    """The moves of player `p` in `legal`, in order (a SetMoves stays unlisted)."""
    if type(legal) is list:
        return [m for m in legal if m[0] == p]
    for q in movers:
        if q != p:
            legal = legal.without(q)  # type: ignore[attr-defined]
    return legal


# ---------------------------------------------------------------------- the leak check
# (see docs/fuzz.md, "Fast walks"): one seat per walk, one shadow world at a time

# moves between a shadow dropped (or a draw that found too few unseen cards) and the next draw
REDRAW_AFTER = 4
# Shadow.follow looks for a card shown among the zones the step changed, then, where the
# seat sees at most this many zones, in those it sees (found there: not in a hidden one)
VISIBLE_SCAN = 8
_MASKED = "▒▒"  # a card in a log line (seen or not, as the seat's text may show it)
_CARDISH = ("card", "list:card")
_DROP = ""  # Shadow.follow: the shadow is dropped (the seat tells the worlds apart)


def _TOLD(s: list[Any], t: list[Any]) -> bool:  # (Told.same_listing: `quick` decides)
    return True


def _stepper(g: Game) -> Callable[[list[Any], int, Move, Sequence[Move]], Sequence[Move]]:
    """One step on the fast path, as `Walker.walk` plays it: advance(s, pc, m, legal)
    plays `m` (from node pc, its legal moves `legal`) and returns the legal moves after."""
    sim = g._sim
    kept = g._sim_kept
    simsteps = g._simsteps
    steps = g._steps
    others = g._others_moves
    end_round = g._end_round
    step = g._step
    settle = g._settle_lazily
    step_settle = g._step_settle

    def advance(s: list[Any], pc: int, m: Move, legal: Sequence[Move]) -> Sequence[Move]:
        if pc in sim:
            pending = s[PENDING] + (m,)
            if len(pending) < len(s[WHO]) and pc in kept:
                s[PENDING] = pending
                s[MOVES] += 1
                return others(legal, m[0])
            if pc in simsteps and len(pending) == len(s[WHO]):
                return end_round(s, m, pending, simsteps[pc])
            step(s, m)
            return settle(s)
        if steps is not None:
            return steps[pc](s, m)
        return step_settle(s, m)

    return advance


def _quiet(g: Game) -> Callable[[list[Any], Move], None]:
    """A step at a decision that is not simultaneous, without settling the state reached:
    the plain `step_settle` (the move's effect, the flow to the next decision) without
    its `settle` (the end conditions and the legal moves); an `end` in the effect or the
    flow is in the slots as there. (`Told.plain`, where the game's own quiet steps,
    `Machine.quiet_steps`, are not there.)"""
    ns = g.ns
    eff, succ, run, const_who = ns["EFF"], ns["SUCC"], ns["run"], ns["CONST_WHO"]
    budget, over = ns["_B"], ns["_GameOver"]

    def quiet(t: list[Any], m: Move) -> None:
        t[MOVES] += 1
        budget[0] = STEPS
        try:
            eff[m[1]](t, m)
        except over:
            return
        pc = succ[t[PC]]
        w = const_who.get(pc)
        if w is None:
            run(t, pc)
        else:
            t[PC] = pc
            t[WHO] = w

    return quiet


def _getter(slots: Sequence[int]) -> Callable[[list[Any]], tuple[Any, ...]]:
    if not slots:
        return lambda s: ()
    get = itemgetter(*slots)
    return get if len(slots) > 1 else lambda s: (get(s),)


class Told:
    """What one seat is told on the fast path: while a walk checks that seat for leaks
    it is the generated code's event recorder (`REC`), and notes, of each step, the cards
    it shows the seat (a card moved or dealt into a zone the seat sees, a zone it sees
    shuffled) and its log lines (each card in them masked: the seat reads a card it
    sees, and one that differs between two worlds is a difference it may see); and the
    cards shuffled so far (the only ones a shadow world may place otherwise)."""

    def __init__(self, g: Game, seat: int, hidden: Sequence[int], var_slots: Sequence[int]
                 ) -> None:
        self.g = g
        self.seat = seat
        self.zones = tuple(g._zone_slots)
        self.hidden = tuple(hidden)
        self.visible = frozenset(z for z in self.zones if z not in self.hidden)
        self.vis_get = _getter(sorted(self.visible))
        self.var_slots = tuple(var_slots)
        self.phase = g.gen.node_phase  # (the view shows a node's phase, not the node)
        # what the seat sees of a state at once: who decides, the zones it sees, the
        # variables, the sizes of the zones it cannot see: one test of both slot lists,
        # written once per game and seat from slot numbers (ints) alone (in detail when
        # they differ)
        # (who decides, the zones it sees and the variables read as one tuple each: one
        # comparison of two tuples, not one of each slot)
        seen_slots = (WHO, *sorted(self.visible), *self.var_slots)
        sizes = " and ".join(f"len(s[{z}]) == len(t[{z}])" for z in self.hidden) or "True"
        env = {"__builtins__": {}, "len": len, "SEEN": _getter(seen_slots),
               "SEEN_AT": _getter((PC, *seen_slots))}
        self.same: Callable[[list[Any], list[Any]], bool] = eval(  # noqa: S307
            f"lambda s, t: SEEN(s) == SEEN(t) and {sizes}", env)
        # the same test with the node and no secret choice pending in either world: where
        # it holds, `differs` comes down to the seat's legal moves (Shadow.follow)
        self.quick: Callable[[list[Any], list[Any]], bool] = eval(  # noqa: S307
            f"lambda s, t: not s[{PENDING}] and not t[{PENDING}] and SEEN_AT(s) == SEEN_AT(t) "
            f"and {sizes}", env)
        # are two slot lists the same world (the zones the seat cannot see first: where
        # a shadow differs, as a rule)?
        self.identical: Callable[[list[Any], list[Any]], bool] = eval(  # noqa: S307
            "lambda s, t: " + " and ".join([f"s[{z}] == t[{z}]" for z in self.hidden]
                                          + ["s == t"]), {"__builtins__": {}})
        self.var_get = _getter(self.var_slots)
        self.var_name = {b + k: f"{name}[{k + 1}]" if n else name
                         for name, (b, n) in g._var_at.items() for k in range(n or 1)}
        # per move: the places of its card arguments (index in the move, a set or not)
        self.card_args: list[tuple[tuple[int, bool], ...]] = [
            tuple((2 + i, t == "list:card") for i, t in enumerate(types) if t in _CARDISH)
            for types in g.move_param_types]
        self.rng = random.Random(0)
        self.ns = g.ns
        self.sim = g._sim
        # Shadow.follow looks cards up in the zones the seat cannot see alone, in slot
        # order: the walk's state and the shadow agree on the zones it sees (`same`), so
        # a card there is in the same place in both, as if it had been looked up there
        zones = self.hidden_order = tuple(z for z in self.zones if z in self.hidden)
        self.visible_order = tuple(z for z in self.zones if z in self.visible)

        def place(s: list[Any], x: Any) -> tuple[int, int]:
            """Where the card `x` is among the zones the seat cannot see (zone slot,
            index; -1, -1: in none)."""
            for z in zones:
                cards = s[z]
                if x in cards:
                    return z, cards.index(x)
            return -1, -1

        self.place = place
        self.advance = _stepper(g)
        # the decisions whose own generated step `advance` calls (not simultaneous), and
        # those steps: `follow` calls them at once
        self.own_steps: dict[int, Any] = {} if g._steps is None else {
            k: f for k, f in g._steps.items() if k not in g._sim}
        self.settle = g._gen_settle
        # after a mend, whether the move is legal in the shadow without listing its moves
        # (the generated one-move tests, codegen `legality_functions`): by decision with
        # its own step, none where an end condition reads the legal moves
        tests, ending = g.legality()
        # (None: then there are no tests and no quiet step, and it is never asked)
        self.ending: Callable[[list[Any]], bool] = ending or (lambda t: True)
        # whether `ending` tests more than the end already reached (`s[ENDED]`): an end
        # condition or a move limit; without either, the shadow's step asks `t[ENDED]`
        # alone (a mend moves cards, it does not end a game)
        self.ends = bool(g.checked.ends) or bool(g.limit) or ending is None
        self.tests: dict[int, Any] = {} if ending is None else {
            k: f for k, f in tests.items() if k in self.own_steps}
        # the shadow's step without the listing of the moves after it, where no end
        # condition reads them: the listing is made only where it is read (the seat
        # decides, or a simultaneous choice comes), and the next move is tested alone
        self.quiet: dict[int, Callable[[list[Any], Move], None]] | None = None
        if self.tests and ending is not None and not readers.reads_legal(ending):
            self.quiet = g.quiet_steps()
        # the decisions (with their own step) whose listing, where the seat decides,
        # reads only slots the seat sees (its hand, the zones it sees, the variables):
        # there two worlds that tell the seat the same (`same`) list the same moves, so
        # the shadow need not list its own to compare them (`Shadow.follow`)
        seen = {WHO, *self.visible, *self.var_slots}
        # (what each decision's listing reads, against `seat_listing_reads`, is tested
        # on the states random playthroughs reach: tests/test_quiet_steps.py)
        self.seat_lists: frozenset[int] = frozenset(
            k for k in self.own_steps
            if (r := readers.seat_listing_reads(g, k, seat)) is not None and r <= seen)
        # the decisions where the shadow's listing is the walk's own: where its step
        # reaches the walk's node, and every slot `settle` reads there holds the same
        # value in both worlds (a zone it reads by its size alone, the same size), the
        # shadow lists the same moves and ends alike (`listing_reads`), so its step is
        # the move's effect and the flow (`_quiet`), and its moves the walk's list; only
        # where it reads no zone the seat cannot see but by its size (such a zone's cards
        # differ in a shadow, as a rule, and the step the game's own is cheaper then)
        self.same_listing: dict[int, Callable[[list[Any], list[Any]], bool]] = {}
        for d in self.own_steps:
            got = readers.listing_reads(g, d)
            if got is None or not got[0].isdisjoint((*self.hidden, PENDING)):
                continue
            full, sized = sorted(got[0]), sorted(got[1])
            test = " and ".join([f"s[{k}] == t[{k}]" for k in full]
                                + [f"(s[{k}] == t[{k}] or type(s[{k}]) is tuple is type(t[{k}])"
                                   f" and len(s[{k}]) == len(t[{k}]))" for k in sized])
            # (a slot read by its size: two tuples of one length, a zone's cards, are
            # alike there; any other value, the same value)
            self.same_listing[d] = eval(  # noqa: S307  (slot numbers only)
                f"lambda s, t: {test}", {"__builtins__": {}, "len": len, "tuple": tuple,
                                         "type": type})
            # (where what `quick` compares covers those slots, the nodes, who decides,
            # the zones the seat sees and the variables, the sizes of those it does not,
            # the listing is taken without a test of its own: the shadow's is listed
            # only where `quick` fails, and the worlds differ anyway)
            if got[0] <= {PC, WHO, ENDED, *self.visible, *self.var_slots} \
                    and got[1] <= {*self.visible, *self.hidden, *self.var_slots}:
                self.same_listing[d] = _TOLD
        # (the step there: the game's own quiet step, `Machine.quiet_steps`, where it has
        # them, else the plain nodes' flow)
        self.plain: dict[int, Callable[[list[Any], Move], None]] = {}
        if self.same_listing:
            own_quiet = g.quiet_steps() or {}
            flow = _quiet(g)
            self.plain = {k: own_quiet.get(k, flow) for k in self.own_steps}
        self.owner = 0  # the thread of the walk that checks (see Walker.walk)
        self.reset()

    def reset(self) -> None:
        self.shown: set[int] = set()
        self.logs: list[tuple[Any, ...]] = []
        self.shuffled: set[int] = set()
        self.seen: set[int] = set()
        self.wait = 0
        self.real = True  # (False while the shadow's step runs)
        self.reshuffled = False  # the walk's last step shuffled a zone the seat cannot see
        self.released = False  # (Walker._release: the walk stopped observing)

    def start(self, s: list[Any], seed: int) -> None:
        """After the deal: what the setup showed the seat is seen."""
        self.seen = self.shown | {c for z in self.visible for c in s[z]}
        self.shown = set()
        self.wait = 0
        self.reshuffled = False
        self.rng.seed(seed ^ 0x5EED)

    # ------------------------------------------------------------------ as REC
    def move(self, s: list[Any], cards: Any, dst: int, bottom: bool, face: Any = None
             ) -> None:
        if get_ident() != self.owner:
            return self.g._rec.move(s, cards, dst, bottom, face)
        if dst in self.visible:
            if type(cards) is int:
                self.shown.add(cards)
            elif cards is not None:
                self.shown.update(cards)

    def deal(self, s: list[Any], src: int, dests: tuple[int, ...], n: int | None) -> None:
        if get_ident() != self.owner:
            return self.g._rec.deal(s, src, dests, n)
        vis = self.visible
        if not dests or src in dests or not any(d in vis for d in dests):
            return
        pile = s[src]
        k = len(dests)
        total = len(pile) if n is None else min(n * k, len(pile))
        top = pile[::-1]  # one card at a time from the top, round the zones
        self.shown.update(top[i] for i in range(total) if dests[i % k] in vis)

    def shuffle(self, s: list[Any], z: int) -> None:
        if get_ident() != self.owner:
            return self.g._rec.shuffle(s, z)
        if z in self.visible:
            self.shown.update(s[z])
        elif self.real:  # the seat did not watch: the cards are unknown to it again
            self.shuffled.update(s[z])
            self.seen.difference_update(s[z])
            self.reshuffled = True

    def pick(self, value: Any, typ: str = "") -> None:
        if get_ident() != self.owner:
            self.g._rec.pick(value, typ)

    def turn(self, s: list[Any], cards: Any, up: bool) -> None:  # (no faces here)
        if get_ident() != self.owner:
            self.g._rec.turn(s, cards, up)

    def log(self, s: list[Any], *parts: Any) -> None:
        if get_ident() != self.owner:
            return self.g._rec.log(s, *parts)
        self.logs.append(parts)  # (masked when the two worlds' lines differ)

    # ------------------------------------------------------------------ shadows
    def draw(self, s: list[Any], legal: Sequence[Move], w: Walk) -> Shadow | None:
        """A shadow world of the state reached: the cards the seat has not seen (of those
        shuffled so far) that lie in zones it cannot see, dealt again among their places;
        None (and a wait) when fewer than two are there, or the shadow's rules fail."""
        if s[ENDED] is not None:
            return None
        pool = self.shuffled - self.seen
        # the places, zone by zone in `hidden`'s order, each zone's in order: a zone
        # whose cards are all in the pool taken whole
        cards: list[int] = []
        spots: list[tuple[int, list[int] | None, int]] = []
        if len(pool) >= 2:
            for z in self.hidden:
                zone = s[z]
                if not zone:
                    continue
                if pool.issuperset(zone):
                    cards += zone
                    spots.append((z, None, len(zone)))
                else:
                    idx = [i for i, c in enumerate(zone) if c in pool]
                    if idx:
                        cards += [zone[i] for i in idx]
                        spots.append((z, idx, len(idx)))
        if len(cards) < 2:
            self.wait = s[MOVES] + REDRAW_AFTER
            return None
        new = cards.copy()
        shuffle_list(self.rng, new)  # (random's shuffle, its draws inlined: the same order)
        t = s.copy()
        k = 0
        for z, at, n in spots:
            if at is None:
                t[z] = tuple(new[k:k + n])
            else:
                lst = list(t[z])
                for i, c in zip(at, new[k:k + n], strict=True):
                    lst[i] = c
                t[z] = tuple(lst)
            k += n
        if t[PENDING]:
            to = {a: b for a, b in zip(cards, new, strict=True) if a != b}
            t[PENDING] = tuple(self.relabel(mv, to) for mv in t[PENDING])
        try:  # (as `Game._settle_lazily` does, the errors not translated: none is kept)
            tlegal = self.settle(t) if t[ENDED] is None else []
        except Exception:
            self.wait = s[MOVES] + REDRAW_AFTER
            return None
        w.shadows += 1
        return Shadow(t, tlegal, cards, new)

    def relabel(self, m: Move, to: dict[int, int]) -> Move:
        args = self.card_args[m[1]] if 0 <= m[1] < len(self.card_args) else ()
        if not args:
            return m
        out = list(m)
        for i, many in args:
            if i < len(out):
                a = out[i]
                out[i] = tuple(sorted(to.get(c, c) for c in a)) if many else to.get(a, a)
        return tuple(out)

    def differs(self, s: list[Any], t: list[Any], legal: Sequence[Move],
                tlegal: Sequence[Move], logs: list[Any], tlogs: list[Any]) -> str | None:
        """What the seat is told differently in the two worlds (None: nothing)."""
        p = self.seat
        if logs != tlogs:
            ml, mt = _masked(logs), _masked(tlogs)
            if ml != mt:
                a = next((x for x, y in zip(ml, mt, strict=False) if x != y), None)
                return (f"a log line tells p{p} something that depends on cards p{p} "
                        "cannot see"
                        + (f" ({''.join(str(x) if type(x) is not tuple else str(x[0]) for x in a)!r}"
                           " in one world)" if a is not None else ""))
        if s[PC] != t[PC] and self.phase.get(s[PC], "") != self.phase.get(t[PC], ""):
            return f"the phase depends on cards p{p} cannot see"
        if not self.same(s, t):
            if s[WHO] != t[WHO]:
                return f"who decides next depends on cards p{p} cannot see"
            if self.var_get(s) != self.var_get(t):
                bad = [self.var_name[v] for v in self.var_slots if s[v] != t[v]]
                return (f"the variable `{bad[0]}` depends on cards p{p} cannot see "
                        "(variables are public)")
            if self.vis_get(s) != self.vis_get(t):
                return (f"p{p}'s view (the cards of a zone it sees) depends on cards it "
                        "cannot see")
            return f"the size of a zone p{p} cannot see depends on cards p{p} cannot see"
        if (s[PENDING] or t[PENDING]) and [mv if mv[0] == p else mv[0] for mv in s[PENDING] or ()] \
                != [mv if mv[0] == p else mv[0] for mv in t[PENDING] or ()]:
            return f"who has chosen depends on cards p{p} cannot see"
        return self.moves_differ(s, legal, tlegal)

    def moves_differ(self, s: list[Any], legal: Sequence[Move], tlegal: Sequence[Move]
                     ) -> str | None:
        """When the seat decides: its legal moves must be the same in both worlds."""
        p = self.seat
        if s[PC] in self.sim:
            if p not in s[WHO] or any(mv[0] == p for mv in s[PENDING] or ()):
                return None
        elif s[WHO] != p:
            return None
        if legal == tlegal:
            return None
        if type(legal) is not list and type(tlegal) is not list \
                and legal.parts_of(p) == tlegal.parts_of(p):  # type: ignore[attr-defined]
            return None  # (codegen's SetMoves: the same parts list the same moves)
        mine = [mv for mv in legal if mv[0] == p]
        theirs = [mv for mv in tlegal if mv[0] == p]
        if mine == theirs:
            return None
        return f"p{p}'s legal moves depend on cards p{p} cannot see"


class Shadow:
    """A world the seat cannot tell from the walk's, stepped beside it on its own slot
    list with the walk's moves (each card a move names mapped to the card in its place)."""

    __slots__ = ("t", "legal", "_dealt", "alike", "mine")

    def __init__(self, t: list[Any], legal: Sequence[Move], cards: list[int],
                 new: list[int]) -> None:
        self.t = t
        # the shadow's legal moves (None: not listed, where `Told.quiet` stepped it and
        # nothing read them: its next move is tested alone)
        self.legal: Sequence[Move] | None = legal
        # `legal` is the walk's own list, the shadow's slots that its listing reads the
        # walk's (`Told.same_listing`): a mend, which swaps cards among the zones the
        # seat cannot see, leaves it the shadow's
        self.mine = False
        # the mends made it the walk's own world (every card in the same place, the same
        # slots): from then on each step here would be the walk's own step, so it is not
        # played (`t` is left as it was); it tells the seat the same by construction
        self.alike = False
        self._dealt = (cards, new)  # the cards dealt again, and what went in their places

    @property
    def to(self) -> dict[int, int]:
        """Each card dealt again that another took the place of: the card in its place."""
        cards, new = self._dealt
        return {a: b for a, b in zip(cards, new, strict=True) if a != b}

    def decides(self, told: Told, s: list[Any], legal: Sequence[Move]) -> str | None:
        if s[ENDED] is not None or self.t[ENDED] is not None:
            return None
        tlegal = self.legal
        if tlegal is None:  # (a quiet step: taken only where the seat does not decide)
            assert s[WHO] != told.seat and s[PC] not in told.sim
            return None  # (what moves_differ says where the seat does not decide)
        return told.moves_differ(s, legal, tlegal)

    def follow(self, told: Told, before: list[Any], s: list[Any], m: Move, pc: int,
               legal: Sequence[Move]) -> str | None:
        """The walk played `m` from `before` to `s` (its step's notes in `told`): play it
        here. None: the shadow goes on; `_DROP`: the seat can tell the worlds apart now
        (it sees another card, the move is refused here, the game ends in one...); else
        what the step tells the seat differently in the two worlds."""
        if self.alike:
            return self._alike(told, s)
        t = self.t
        shown, logs = told.shown, told.logs
        hidden = told.hidden_order
        # the cards the walk's step shows the seat are where the walk has them (mended:
        # x and the card y in its place here swapped; `place` and `_swap` inlined)
        mended = False
        visible = told.visible_order if len(told.visible_order) <= VISIBLE_SCAN else ()
        for x in shown:
            # (x is in one zone of `before`, whose cards were all there once: looked for
            # first in the zones the step changed, where a card shown comes from as a
            # rule, then, unless one the seat sees held it, in the others)
            zx = -1
            for z in hidden:
                if s[z] is not before[z] and x in before[z]:
                    zx = z
                    break
            else:
                # (where the zones the seat sees are many, the others searched at once:
                # x is in one zone only, so it is in one of them or in none)
                for z in visible:
                    if s[z] is not before[z] and x in before[z]:
                        break
                else:
                    for z in hidden:
                        if s[z] is before[z] and x in before[z]:
                            zx = z
                            break
            if zx < 0:
                continue
            z = zx
            cards = before[z]
            i = cards.index(x)
            tz = t[z]
            y = tz[i]
            if y != x:
                lst = list(tz)
                lst[i] = x
                for z2 in hidden:
                    c2 = t[z2]
                    if x in c2:
                        i2 = c2.index(x)
                        if z2 == z:
                            lst[i2] = y
                        else:
                            other = list(c2)
                            other[i2] = y
                            t[z2] = tuple(other)
                        break
                t[z] = tuple(lst)
                if t[PENDING]:
                    t[PENDING] = tuple(told.relabel(mv, {x: y, y: x})
                                       for mv in t[PENDING])
                mended = True
        test = None
        if mended:  # (the legal moves listed here named the cards swapped)
            if told.identical(before, t):  # the same world now: its step is the walk's
                self.alike = True
                return self._alike(told, s)
        if mended or self.legal is None:
            # a decision with its own step: the move's legality tested alone below (the
            # step lists the moves after it); else the moves listed (again)
            test = None if mended and self.mine else told.tests.get(t[PC])
            if test is None and not (mended and self.mine):
                try:
                    self.legal = told.settle(t)  # (Game._settle_lazily's own call)
                except Exception:
                    return _DROP
        # the move, each card it names mapped to the card in its place here
        # (a move whose cards are all shown, as a card played to a trick, is the walk's
        # own: the tuple is not built again)
        args = told.card_args[m[1]] if m[1] < len(told.card_args) else ()
        mm = m
        if args:
            out: list[Any] | None = None
            for i, many in args:
                a = m[i]
                if many:
                    if out is None:
                        out = list(m)
                    out[i] = tuple(sorted(c if c in shown else _at(told.place, before, t, c)
                                          for c in a))
                elif a not in shown:  # (a card shown is in its place: mended above)
                    if out is None:
                        out = list(m)
                    out[i] = _at(told.place, before, t, a)
            if out is not None:
                mm = tuple(out)
        if test is not None:
            # `mm in settle(t)` without the listing: the one move's tests, then the end
            # conditions (a listing that would fail on another move is not seen: the
            # shadow goes on where it was dropped, and its step lists its moves); not
            # again where the quiet step asked them and no mend changed `t` since
            try:
                if not test(t, mm) or (mended and told.ends and told.ending(t)):
                    return _DROP  # (`no_moves` is false there: mm is legal)
            except Exception:
                return _DROP
        elif self.legal is None or (mm is not m or not self.mine) and mm not in self.legal:
            # (None: not here, see above; the walk's own list holds the walk's move)
            return _DROP
        tshown: set[int] = set()
        tlogs: list[tuple[Any, ...]] = []
        told.shown, told.logs = tshown, tlogs
        told.real = False
        quiet = told.quiet
        self.mine = lazy = False
        try:
            tpc = t[PC]  # (the shadow's own node)
            own = told.own_steps.get(tpc)
            same = told.same_listing.get(s[PC]) if own is not None else None
            if same is not None:
                # (the walk's node reached: where the shadow reaches it with the slots
                # its `settle` reads the walk's, the walk's listing is the shadow's)
                told.plain[tpc](t, mm)
                if same is _TOLD:  # (`quick` below tests those slots: listed if not)
                    self.legal = legal
                    self.mine = True
                    lazy = True
                elif same(s, t):
                    self.legal = legal
                    self.mine = True
                else:
                    self.legal = told.settle(t)
            elif own is None:
                self.legal = told.advance(t, tpc, mm, self.legal)  # type: ignore[arg-type]
            elif quiet is None or s[PC] in told.sim or (
                    s[WHO] == told.seat and s[PC] not in told.seat_lists):
                # (the listing is read: the seat decides, or a simultaneous choice)
                self.legal = own(t, mm)
            else:
                quiet[tpc](t, mm)
                if t[PC] in told.sim:
                    self.legal = told.settle(t)  # (read by the next step)
                elif told.ending(t) if told.ends else t[ENDED] is not None:
                    # (as settle would end it: dropped below)
                    self.legal = None
                    t[ENDED] = True
                elif s[WHO] == told.seat:  # (its moves are compared: `seat_lists`)
                    # at the same decision, the walk's listing: the moves are compared
                    # below only where the shadow tells the seat the same (`same`: the
                    # slots the listing reads hold the same values, so it lists the same
                    # moves); where it does not, that difference is told first and the
                    # walk stops (or the shadow is dropped), its moves never read
                    self.legal = legal if t[PC] == s[PC] else told.settle(t)
                else:
                    self.legal = None  # (the next move is tested alone)
        except Exception:
            return _DROP
        finally:
            told.shown, told.logs = shown, logs
            told.real = True
        if told.ns["REC"] is not told:  # (another thread observes: not all was noted)
            return _DROP
        if told.reshuffled:  # a shuffle the seat did not watch: a new order (a new shadow)
            return _DROP
        if tshown != shown or s[ENDED] is not None or t[ENDED] is not None:
            return _DROP
        if logs == tlogs and told.quick(s, t):  # (`differs`' first tests, at once)
            if self.legal is legal or s[WHO] != told.seat and s[PC] not in told.sim:
                return None  # (the walk's own list: `moves_differ` finds them equal)
            return told.moves_differ(s, legal, self.legal)
        if lazy:  # the slots the listing reads may differ: the shadow's own listing
            self.mine = False
            told.shown, told.logs = set(), []
            told.real = False
            try:
                self.legal = told.settle(t)
            except Exception:
                return _DROP
            finally:
                told.shown, told.logs = shown, logs
                told.real = True
            if t[ENDED] is not None:
                return _DROP
        return told.differs(s, t, legal, self.legal, logs, tlogs)

    def _alike(self, told: Told, s: list[Any]) -> str | None:
        """`follow` of a shadow that is the walk's own world before the step: the same
        step (the game's only chance is the seed in its slots) shows the seat the same
        cards and tells it the same, so the outcome is the walk's alone: dropped when
        another thread took the recorder, when the step shuffled a zone the seat cannot
        see, or when the game ended; else nothing differs."""
        if told.ns["REC"] is not told or told.reshuffled or s[ENDED] is not None:
            return _DROP
        return None


def _masked(logs: list[Any]) -> list[tuple[Any, ...]]:
    """Log lines with every card masked (the seat reads the cards it sees, and a card
    that differs between the worlds is a difference it may see)."""
    return [tuple(_MASKED if type(p) is tuple and p[1] in _CARDISH else p for p in parts)
            for parts in logs]


def _at(place: Callable[[list[Any], Any], tuple[int, int]], before: list[Any],
        t: list[Any], x: Any) -> Any:
    z, i = place(before, x)
    if z < 0 or i >= len(t[z]):
        return x
    return t[z][i]
