"""One checked playthrough for `cardgame fuzz`: play moves that a chooser picks and check,
after every step, the properties every game must have (see docs/fuzz.md).

The chooser is a seeded random generator or Hypothesis (see `search.py`), which shrinks
a failing playthrough to the shortest one; this module knows nothing about either. A property that fails raises
`PropertyFailure`, which carries the counterexample: the seed, the moves that applied,
the state where the property failed and, when a move itself failed, that move.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ..engine import Game, Move, State
from ..errors import CardgameError, IllegalMove, RuleError
from ..lang import ast as A
from ..observe import has_hidden, hidden_zones, view
from .told import Leak, Shadows, shuffles_after_setup

# property id -> what it promises (the report's headline says which one failed)
PROPERTIES: dict[str, str] = {
    "conservation": "every card is in exactly one place after every step",
    "legal-move-fails": "every listed legal move applies without a rule error",
    "illegal-move-accepted": "a move that is not listed is rejected",
    "dead-end": "every unfinished state has a legal move for whoever must decide",
    "no-termination": "the game ends within --max-moves moves",
    "loop": "the game cannot go round in circles (a repeated state needs a `limit`)",
    "nondeterminism": "replaying the moves from the seed reproduces every state",
    "json": "every state survives a JSON round trip exactly",
    "leak": "cards a player cannot see change neither their view, nor their legal moves, "
            "nor what a step tells them (its log lines and the variables it sets)",
    "rule-error": "no rule fails (empty pile, index out of range, division by zero, "
                  "runaway loop)",
    "invariant": "the game's declared invariants hold after every step",
    "log-line-fails": "every log line can be written (a failing expression in one is shown "
                      "as a marker in play, and is a rule hole)",
    "crash": "the engine raises nothing but its own errors",
}


@attrs.define
class Counterexample:
    """What failed, and the shortest playthrough that shows it."""

    property: str
    message: str
    seed: int
    moves: list[Move]  # the moves that applied, from the deal to `state`
    state: State | None  # where the property failed (None: the deal itself failed)
    failing_move: Move | None = None  # a move from `state` that failed or was accepted
    cycle: tuple[int, int] | None = None  # a loop: moves[i:j] lead back to the same state
    player: int | None = None  # the seat concerned (leaks, dead ends)
    draws: int = 0  # choices the playthrough drew (set by the fuzzer)


class PropertyFailure(Exception):
    """A property failed on a playthrough (raised to Hypothesis, which shrinks it)."""

    def __init__(self, cx: Counterexample) -> None:
        super().__init__(f"{cx.property}: {cx.message}")
        self.cx = cx


@attrs.define
class Coverage:
    """What a whole run reached: moves that became legal, decisions reached, endings."""

    games: int = 0
    moves: int = 0
    checks: int = 0
    legal: set[int] = attrs.field(factory=set)
    fired: set[int] = attrs.field(factory=set)
    decisions: set[int] = attrs.field(factory=set)
    endings: dict[str, int] = attrs.field(factory=dict)
    found_after: int = 0  # games played when the first failure was seen (0: none)
    cut: int = 0  # playthroughs stopped at --max-moves in a game with a declared limit
    longest: int = 0
    ambiguous: dict[str, str] = attrs.field(factory=dict)  # move text -> why
    # the fast walks (fast.py): games, moves, those on which every seat saw every card,
    # their time and endings, what a walk found that its full replay did not; the
    # full playthroughs' time in the search (not the shrinking); the fast walk that found
    # the failure (0: none)
    fast_games: int = 0
    fast_moves: int = 0
    fast_open: int = 0
    fast_leak: int = 0  # walks that checked a seat for leaks (a shadow world drawn)
    fast_replayed: int = 0  # walks played twice (nondeterminism)
    fast_seconds: float = 0.0
    fast_cpu: float = 0.0  # (CPU time, for benchmarks on a shared machine)
    fast_endings: dict[str, int] = attrs.field(factory=dict)
    fast_unconfirmed: list[str] = attrs.field(factory=list)
    full_seconds: float = 0.0
    found_by_fast: int = 0
    # full playthroughs cut short when the time ran out: counted as games, their ending
    timed_out: int = 0


# the JSON round trip and the views of re-dealt states are checked on every 8th state of
# a playthrough (and its last): they cost more than all the other checks together
SAMPLE_EVERY = 8

# moves between two calls of `tick` (the search's clock, and its fast walks' share of the
# time: a full playthrough of Hearts plays about 60 moves a second; a tick after every
# move keeps the share as set, where one every 16 moves let a full playthrough of Hearts
# run a quarter of a second past it, and the budget end within such a stretch: the fast
# walks had 72% of a 4-second search of Hearts, not 80%; a tick costs a few
# microseconds, a move of a full playthrough hundreds)
TICK_EVERY = 1
# and `tick` after every LOOKAHEAD_TICK-th move applied by the lookahead of one state (the
# pass of Hearts, three cards of thirteen: 286 moves, half a second of a full playthrough)
LOOKAHEAD_TICK = 32

Chooser = Callable[[int], int]  # n -> an index in range(n); 0 is the simplest choice


class Playthrough:
    """The properties of one compiled game, checked along playthroughs."""

    def __init__(self, game: Game, max_moves: int = 2000, coverage: Coverage | None = None,
                 tick: Callable[[], None] | None = None) -> None:
        g = game
        self.g = g
        self.max_moves = max_moves
        self.cov = coverage if coverage is not None else Coverage()
        self.tick = tick or (lambda: None)
        self.zone_values = [g.zone_value(z) for z in g.zone_names()]  # as move arguments
        self.all_cards = list(range(len(g.card_text)))
        # zones holding cards a seat cannot see: for each seat 1..n
        self.hidden: dict[int, list[str]] = {
            p: hidden_zones(g, p) for p in range(1, g.players + 1)}
        # or cards the rules turn face down: the leak check watches every seat then
        self.leak_seats = [p for p in range(1, g.players + 1) if has_hidden(g, p)]
        self.shuffles_later = bool(self.leak_seats) and shuffles_after_setup(g)
        # a repeated state means a possible endless game unless a limit ends it; the
        # slot of moves played is left out of the comparison, unless a rule reads it
        self.detect_loops = not g.limit and "moves_played" not in names_used(g)
        # cards with the same text: moves naming them read alike, and a replay (which
        # stores move texts) takes the first, so the fuzzer picks the first one too
        texts: dict[str, list[int]] = {}
        for cid, t in enumerate(g.card_text):
            texts.setdefault(t, []).append(cid)
        self.dup_texts = any(len(v) > 1 for v in texts.values())
        cards = g.checked.cards
        self.twin_differs = {
            t: ids for t, ids in texts.items() if len(ids) > 1 and len(
                {(cards[i].rank, cards[i].suit, cards[i].joker,
                  tuple(sorted(cards[i].extra.items()))) for i in ids}) > 1}
        self.param_types = g.move_param_types
        self.nmoves = len(g.move_names)
        self.pass_id = len(g.move_names) - 1
        self.shadows: Shadows | None = None  # the leak check's worlds (told.py)
        self.shadow_salt = 0  # (other shadow worlds: fast.py, confirming a walk's leak)
        self.logs: list[RuleError] | None = None  # (see log_fails)

    # ------------------------------------------------------------------ helpers
    def fail(self, prop: str, message: str, seed: int, moves: Sequence[Move],
             state: State | None, **kw: Any) -> PropertyFailure:
        return PropertyFailure(Counterexample(prop, message, seed, list(moves), state, **kw))

    def text(self, m: Move) -> str:
        try:
            return f"p{m[0]} {self.g.move_text(m)}"
        except Exception:  # a malformed probe
            return repr(m)

    def classify(self, state: State, m: Move, e: RuleError) -> str:
        """Was the rule error in the move's own effect, or in the flow after it or the
        rules of the state it leads to (legal moves, end conditions)?"""
        try:
            self.g.apply_unsettled(state, m)
        except CardgameError:
            return "legal-move-fails" if e.rule.startswith("move ") else "rule-error"
        except Exception:
            return "legal-move-fails"
        return "rule-error"

    # ------------------------------------------------------------------ checks
    def conservation(self, st: State) -> str | None:
        got = sorted(self.g.all_card_ids(st))
        if got == self.all_cards:
            return None
        seen: dict[int, int] = {}
        for c in got:
            seen[c] = seen.get(c, 0) + 1
        ct = self.g.card_text
        dup = [ct[c] if isinstance(c, int) and 0 <= c < len(ct) else repr(c)
               for c, k in seen.items() if k > 1]
        lost = [ct[c] for c in self.all_cards if c not in seen]
        bad = [repr(c) for c in seen if not (isinstance(c, int) and 0 <= c < len(ct))]
        parts = []
        if dup:
            parts.append("in two places: " + ", ".join(dup))
        if lost:
            parts.append("lost: " + ", ".join(lost))
        if bad:
            parts.append("not cards of the deck: " + ", ".join(bad))
        return "cards " + "; ".join(parts)

    def invariants(self, st: State) -> str | None:
        bad = self.g.check_invariants(st)
        if not bad:
            return None
        decls = {inv.name: inv for inv in self.g.checked.invariants}
        parts = []
        for name in bad:
            d = decls.get(name)
            where = f" ({d.span})" if d is not None and d.span.line else ""
            doc = f' "{d.doc}"' if d is not None and d.doc else ""
            err = self.g.invariant_error(st, name)
            why = f": evaluating it failed: {err}" if err is not None else ""
            parts.append(f"invariant `{name}`{doc}{where} does not hold{why}")
        return "; ".join(parts)

    def json_round_trip(self, st: State) -> str | None:
        g = self.g
        text = g.to_json(st)
        back = g.from_json(text)
        if back != st:
            diff = g.differences(st, back)
            return f"from_json(to_json(state)) differs in {', '.join(diff[:8])}"
        return None

    # ------------------------------------------------------------------ leaks
    # (told.py: shadow worlds with the seat's whole observation history, from the deal on)
    def new_shadows(self, seed: int, st: State) -> Shadows | None:
        seats = self.leak_seats
        if not seats:
            return None
        try:
            # (the view is looked up here at each call: a test swaps it for a leaky one)
            return Shadows(self.g, seed, seats, lambda g, s, p: view(g, s, p),
                           self.shadow_salt, self.shuffles_later)
        except Leak as e:
            raise self.fail("leak", e.why, seed, [], st, player=e.seat) from None
        except CardgameError:
            return None

    def leak(self, st: State, seed: int, step: int, views: bool) -> tuple[int, str] | None:
        """Every shadow world of a seat (the same history so far) must show it the same
        view (when `views`) and, when it decides, the same legal moves."""
        sh = self.shadows
        if sh is None:
            return None
        before = sh.checks
        try:
            sh.check(st, views)
        except Leak as e:
            return e.seat, e.why
        finally:
            self.cov.checks += sh.checks - before
        return None

    def told_leak(self, st: State, m: Move, seed: int, step: int) -> tuple[int, str] | None:
        """Play the move in every shadow world too: a step must not tell a seat what it
        cannot see before it sees a card that differs."""
        sh = self.shadows
        if sh is None:
            return None
        try:
            sh.advance(st, m)
        except Leak as e:
            return e.seat, e.why
        except CardgameError:
            self.shadows = None  # the real step fails: the other checks report it
        return None

    def probes(self, st: State, m: Move, legal: list[Move]) -> list[Move]:
        """Moves that are not listed: the chosen one with one part changed."""
        g = self.g
        listed = set(legal)
        out: list[Move] = []
        p, mid, args = m[0], m[1], m[2:]
        types = self.param_types[mid] if 0 <= mid < len(self.param_types) else []
        ncards = len(self.all_cards)
        for i, (a, t) in enumerate(zip(args, types, strict=False)):
            if t == "card":
                cands: list[Any] = [(a + k) % ncards for k in range(1, min(ncards, 8))]
            elif t == "bool":
                cands = [not a]
            elif t == "zone":
                cands = [z for z in self.zone_values if z != a][:8]
            elif t == "player":
                cands = [q for q in range(1, g.players + 1) if q != a] + [0, g.players + 1]
            elif t == "list:card":  # a set of cards: one card fewer, one more, one changed
                more = [c for c in range(ncards) if c not in a][:1]
                cands = [a[:-1], tuple(sorted(a + tuple(more)))] + (
                    [tuple(sorted(a[:-1] + tuple(more)))] if a and more else [])
            elif isinstance(a, int):
                cands = [a + 1, a - 1, a + 1000]
            else:
                cands = [None]
            for c in cands:
                probe = m[:2 + i] + (c,) + m[3 + i:]
                if probe not in listed:
                    out.append(probe)
                    break
        movers = g.to_move(st)
        others = [q for q in range(1, g.players + 1) if q not in movers]
        if others:
            probe = (others[0],) + m[1:]
            if probe not in listed:
                out.append(probe)
        out.append((p, self.nmoves + 2))
        out.append(m + (0,))
        return out

    # ------------------------------------------------------------------ one playthrough
    def log_fails(self) -> RuleError | None:
        """The first rule error of a log line since the last call, the list emptied
        (`logs`: the list of `Game.checking_logs`, in which `fuzz` runs its search; None:
        log lines are not checked)."""
        fails = self.logs
        if not fails:
            return None
        e: RuleError = fails[0]
        fails.clear()
        return e

    def start(self, seed: int) -> State:
        self.log_fails()
        try:
            st = self.g.new_state(seed)
        except RuleError as e:
            raise self.fail("rule-error", f"the deal fails: {e}", seed, [], None) from None
        except CardgameError as e:
            raise self.fail("rule-error", f"the deal fails: {e}", seed, [], None) from None
        except Exception as e:
            raise self.fail("crash", f"the deal raised {type(e).__name__}: {e}", seed, [],
                            None) from None
        failed = self.log_fails()
        if failed is not None:
            raise self.fail("log-line-fails", f"a log line of the deal fails: {failed}", seed,
                            [], st)
        return st

    def check_state(self, st: State, seed: int, moves: list[Move], deep: bool) -> None:
        """Properties of one reached state (each state the lookahead reaches); `deep` adds
        the scoring of a finished game, for states on the played path."""
        g = self.g
        cov = self.cov
        if deep:
            if g.is_terminal(st):
                self.check_scoring(st, seed, moves)
                self.check_json(st, seed, moves)
            return
        cov.checks += 1
        bad = self.conservation(st)
        if bad:
            raise self.fail("conservation", bad, seed, moves, st)
        cov.checks += 1
        try:
            bad = self.invariants(st)
        except Exception as e:
            raise self.fail("crash", f"checking invariants raised {type(e).__name__}: {e}",
                            seed, moves, st) from None
        if bad:
            raise self.fail("invariant", bad, seed, moves, st)
        if g.is_terminal(st):
            return
        cov.checks += 1
        # (who has a move, not the moves: a pass of 3 cards of 13 lists 286 in each
        # state the lookahead reaches, and most are never played on)
        deciding = g.deciding(st)
        movers = g.to_move(st)
        if not deciding:
            raise self.fail("dead-end", f"the game is not over but nobody has a legal move "
                            f"(p{', p'.join(map(str, movers))} to decide"
                            + (f", phase '{g.phase(st)}'" if g.phase(st) else "") + ")",
                            seed, moves, st, player=movers[0] if movers else None)
        for p in movers:
            if p not in deciding:
                raise self.fail("dead-end", f"p{p} must decide but has no legal move",
                                seed, moves, st, player=p)
        if not deciding.issubset(movers):
            stray = [m for m in g.legal_moves(st) if m[0] not in movers]
            raise self.fail("crash", f"legal moves for a player who does not decide now: "
                            f"{self.text(stray[0])}", seed, moves, st)
        if g.limit and g.moves_played(st) >= g.limit:
            raise self.fail("crash", f"the declared limit of {g.limit} moves did not end the "
                            "game", seed, moves, st)

    def check_scoring(self, st: State, seed: int, moves: list[Move]) -> None:
        g = self.g
        self.cov.checks += 1
        try:
            g.scores(st)
            g.results(st)
        except CardgameError as e:
            raise self.fail("rule-error", f"scoring the finished game fails: {e}",
                            seed, moves, st) from None
        except Exception as e:
            raise self.fail("crash", f"scoring raised {type(e).__name__}: {e}", seed,
                            moves, st) from None

    def run(self, seed: int, choose: Chooser) -> list[State]:
        """Play one checked game; return its states (raises PropertyFailure)."""
        g = self.g
        cov = self.cov
        cov.games += 1
        st = self.start(seed)
        moves: list[Move] = []
        self.check_state(st, seed, moves, deep=False)
        self.shadows = self.new_shadows(seed, st)
        path = [st]
        seen: dict[tuple[Any, ...], int] = {}
        step = 0
        while True:
            self.check_state(st, seed, moves, deep=True)
            if g.is_terminal(st):
                reason = g.end_reason(st) or "ended"
                cov.endings[reason] = cov.endings.get(reason, 0) + 1
                break
            cov.decisions.add(g.decision(st))
            legal = g.legal_moves(st)
            for m in legal:
                cov.legal.add(m[1])
            self.path_checks(st, seed, moves, step)
            if self.detect_loops:
                key = g.position_key(st)
                if key in seen:
                    i = seen[key]
                    raise self.fail(
                        "loop", f"the state after move {i} comes back after move {len(moves)}"
                        f" and the game has no `limit`: the moves {i + 1}..{len(moves)} can be "
                        "repeated for ever", seed, moves, st, cycle=(i, len(moves)))
                seen[key] = len(moves)
            if len(moves) >= self.max_moves:
                if g.limit:
                    cov.cut += 1
                    break
                raise self.fail("no-termination", f"the game has not ended after "
                                f"{len(moves)} moves (--max-moves {self.max_moves}) and "
                                "declares no `limit`", seed, moves, st)
            nexts = self.lookahead(st, legal, seed, moves)
            # the choice: who (in a simultaneous choice), then which move
            movers = g.to_move(st)
            options = legal
            if len(movers) > 1:
                p = movers[choose(len(movers))]
                options = [m for m in legal if m[0] == p]
            if self.dup_texts:
                options = self.first_by_text(options)
            m = options[choose(len(options))] if len(options) > 1 else options[0]
            self.reject_probes(st, m, legal, seed, moves)
            self.told_checks(st, m, seed, moves, step)
            st = nexts[m]
            moves.append(m)
            if len(moves) > cov.longest:
                cov.longest = len(moves)
            path.append(st)
            step += 1
            cov.moves += 1
            cov.fired.add(m[1])
            if step % TICK_EVERY == 0:
                self.tick()
        self.determinism(seed, moves, path)
        return path

    def first_by_text(self, options: list[Move]) -> list[Move]:
        seen: dict[str, Move] = {}
        for m in options:
            t = self.g.move_text(m)
            if t not in seen:
                seen[t] = m
            elif self.twin_differs and seen[t] != m and t not in self.cov.ambiguous:
                names = {self.g.card_text[c] for a, ty in zip(
                    m[2:], self.param_types[m[1]], strict=False) if ty in ("card", "list:card")
                    for c in (a if ty == "list:card" else (a,))}
                if names & set(self.twin_differs):
                    self.cov.ambiguous[t] = (
                        "cards of the same name differ in their attributes, so the move "
                        f"text `{t}` names two different moves")
        return list(seen.values())

    def lookahead(self, st: State, legal: list[Move], seed: int,
                  moves: list[Move]) -> dict[Move, State]:
        """Apply every listed move: each must apply, and lead to a sound state."""
        g = self.g
        out: dict[Move, State] = {}
        for i, m in enumerate(legal):
            self.cov.checks += 1
            if i % LOOKAHEAD_TICK == LOOKAHEAD_TICK - 1:
                self.tick()  # (a state with hundreds of moves: the clock goes on)
            self.log_fails()  # (a shadow world's are not this game's)
            try:
                nxt = g.apply(st, m)
            except IllegalMove as e:
                raise self.fail("legal-move-fails", f"`{self.text(m)}` is listed as legal "
                                f"but apply rejects it: {e}", seed, moves, st,
                                failing_move=m) from None
            except RuleError as e:
                kind = self.classify(st, m, e)
                what = ("applying it fails" if kind == "legal-move-fails"
                        else "it applies, but the rules of the state it leads to fail")
                raise self.fail(kind, f"`{self.text(m)}` is listed as legal; {what}: {e}",
                                seed, moves, st, failing_move=m) from None
            except CardgameError as e:
                raise self.fail("legal-move-fails", f"`{self.text(m)}` is listed as legal "
                                f"but fails: {e}", seed, moves, st, failing_move=m) from None
            except Exception as e:
                raise self.fail("crash", f"applying `{self.text(m)}` raised "
                                f"{type(e).__name__}: {e}", seed, moves, st,
                                failing_move=m) from None
            failed = self.log_fails()
            if failed is not None:
                raise self.fail("log-line-fails", f"`{self.text(m)}` writes a log line that "
                                f"fails: {failed}", seed, moves + [m], nxt)
            self.cov.fired.add(m[1])
            self.check_state(nxt, seed, moves + [m], deep=False)
            out[m] = nxt
        return out

    def reject_probes(self, st: State, m: Move, legal: list[Move], seed: int,
                      moves: list[Move]) -> None:
        g = self.g
        for probe in self.probes(st, m, legal):
            self.cov.checks += 1
            try:
                g.apply(st, probe)
            except IllegalMove:
                continue
            except Exception as e:
                raise self.fail("crash", f"an unlisted move {probe!r} raised "
                                f"{type(e).__name__} instead of IllegalMove: {e}", seed,
                                moves, st, failing_move=probe) from None
            raise self.fail("illegal-move-accepted", f"the move {self.text(probe)} "
                            "is not listed as legal, yet apply accepted it", seed, moves, st,
                            failing_move=probe)

    def path_checks(self, st: State, seed: int, moves: list[Move], step: int) -> None:
        g = self.g
        cov = self.cov
        cov.checks += 1
        try:
            g.scores(st)
        except CardgameError as e:
            raise self.fail("rule-error", f"the score cannot be computed: {e}", seed, moves,
                            st) from None
        sampled = step % SAMPLE_EVERY == 0
        if sampled:
            self.check_json(st, seed, moves)
        try:
            found = self.leak(st, seed, step, views=sampled)
        except CardgameError as e:
            found = None
            _ = e  # a re-dealt state whose rules fail tells nothing about the real game
        if found:
            p, why = found
            raise self.fail("leak", why, seed, moves, st, player=p)

    def told_checks(self, st: State, m: Move, seed: int, moves: list[Move], step: int) -> None:
        self.cov.checks += 1
        try:
            found = self.told_leak(st, m, seed, step)
        except CardgameError:
            found = None  # a re-dealt world whose rules fail tells nothing about the real one
        if found:
            p, why = found
            raise self.fail("leak", why, seed, moves, st, player=p)

    def check_json(self, st: State, seed: int, moves: list[Move]) -> None:
        self.cov.checks += 1
        try:
            bad = self.json_round_trip(st)
        except CardgameError as e:
            bad = f"from_json rejects the state: {e}"
        if bad:
            raise self.fail("json", bad, seed, moves, st)

    def determinism(self, seed: int, moves: list[Move], path: list[State]) -> None:
        g = self.g
        self.cov.checks += 1
        try:
            st = g.new_state(seed)
            again = [st]
            for m in moves:
                st = g.apply(st, m)
                again.append(st)
        except CardgameError as e:
            raise self.fail("nondeterminism", f"replaying the game from seed {seed} fails: "
                            f"{e}", seed, moves, path[-1]) from None
        for i, (a, b) in enumerate(zip(path, again, strict=True)):
            if a != b or g.legal_moves(a) != g.legal_moves(b):
                raise self.fail("nondeterminism", f"replaying the moves from seed {seed} "
                                f"gives another state after move {i}", seed, moves[:i], a)


def names_used(g: Game) -> set[str]:
    """Every name a rule of the game mentions."""
    found: set[str] = set()
    c = g.checked
    roots: list[Any] = [tuple(c.defs.values()), tuple(c.procs.values()),
                        tuple(c.moves.values()), c.setup, c.flow or (), tuple(c.ends),
                        c.score, c.result, tuple(c.invariants),
                        tuple(v.init for v in c.vars.values())]
    stack = roots
    while stack:
        x = stack.pop()
        if isinstance(x, A.Name):
            found.add(x.name)
        if isinstance(x, (tuple, list)):
            stack.extend(x)
        elif attrs.has(type(x)):
            stack.extend(getattr(x, f.name) for f in attrs.fields(type(x)) if f.name != "span")
    return found


def zones_text(g: Game, st: State) -> list[tuple[str, list[str]]]:
    return [(z, g.zone_cards(st, z)) for z in g.zone_names()]


def vars_of(g: Game, st: State) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in g.checked.vars:
        out[name] = json.loads(json.dumps(g.var(st, name), default=str))
    return out
