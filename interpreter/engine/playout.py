"""The generated code of one game, run on a mutable list of slots.

`Machine` executes the generated module and holds what the engine needs of it. Its
methods work in place on a slot list: set up a deal, run the automatic steps, settle a
state (limit, end conditions, legal moves), apply a move. `Game` builds the immutable
API on them; random playouts (and, later, search) run here without building a `State`
per step.

Exceptions that generated code raises go through one place, `_Translate`: our own
errors pass unchanged, anything else becomes a `RuleError` that names the rule.
"""

from __future__ import annotations

import linecache
import operator
import random
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from typing import Any, Literal, NoReturn

from ..codegen import (
    MOVES,
    PC,
    PENDING,
    RNG,
    STEPS,
    WHO,
    GameOver,
    Generated,
    draws_below,
    namespace,
)
from ..errors import NOSPAN, CardgameError, RuleError, Span
from ..lang import Checked
from ..lang import ast as A
from .state import Move


class _Translate:
    """`with _Translate(rule):` around a call into generated code. Our own errors pass
    unchanged, and so does GameOver (the `end` of a rule, which the caller handles);
    any other exception is a slip in a rule that the checks could not see, and becomes
    a RuleError naming the rule (and where it is, when known)."""

    __slots__ = ("rule", "span")

    def __init__(self, rule: str | Callable[[], str], span: Span = NOSPAN) -> None:
        self.rule = rule  # or a function giving it, called only when a rule fails
        self.span = span

    def __enter__(self) -> None:
        return None

    def __exit__(self, typ: type[BaseException] | None, e: BaseException | None,
                 tb: object) -> Literal[False]:
        if e is None or not isinstance(e, Exception) or isinstance(e, (CardgameError, GameOver)):
            return False
        rule = self.rule if isinstance(self.rule, str) else self.rule()
        span = self.span
        if not span.line:  # where in the rules the generated code was: its function, or
            found = _locate(tb)  # the move whose legality it tested
            if found is not None:
                rule, span = found
        if isinstance(e, RecursionError):  # defs calling defs deeper than Python's stack
            raise RuleError("the rule calls defs nested too deeply to run (more than "
                            "Python's stack holds)", span, rule) from None
        if isinstance(e, TypeError) and "indices must be integers" in str(e) and (
                "NoneType" in str(e)):  # `s[None]` (or a table at None): a value not set
            raise RuleError("a zone or card here is none (a variable or parameter that was "
                            "not set, used as one)", span, rule) from None
        raise RuleError(f"{type(e).__name__}: {e}", span, rule) from None


def _locate(tb: Any) -> tuple[str, Span] | None:
    """The rule and its declaration's place for the innermost frame of generated code in
    a traceback: `eff_3` is move 3's effect, `d_fits` the def fits..., and a line of a
    `legal_<node>` function belongs to the move whose `# move NAME` line comes before it."""
    found = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename.startswith("<cardgame "):
            found = (tb.tb_frame, tb.tb_lineno)
        tb = tb.tb_next
    if found is None:
        return None
    frame, lineno = found
    where: dict[str, tuple[str, Span]] = frame.f_globals.get("_WHERE") or {}
    name = frame.f_code.co_name
    if name in where:
        return where[name]
    lines = linecache.getlines(frame.f_code.co_filename)
    for i in range(min(lineno, len(lines)) - 1, -1, -1):
        text = lines[i].strip()
        if text.startswith("# move "):
            return where.get(text[2:])
        if text.startswith("def "):
            break
    return None


_RANDBELOW_WITH_BITS = getattr(random.Random, "_randbelow_with_getrandbits", None)
# whether `random.Random._randbelow` is, on this Python, the loop `_play_randomly` writes
# out (checked once per process)
_INLINE_BELOW = (getattr(random.Random, "_randbelow", None) is _RANDBELOW_WITH_BITS
                 and draws_below(lambda r, k: r._randbelow(k)))  # type: ignore[attr-defined]


_CHOOSER = operator.itemgetter(0)
# the bit length of each number of legal moves up to 1023, for the playouts' draw (a
# list's item is cheaper than a call of `int.bit_length`; longer lists call it)
_BITS = [k.bit_length() for k in range(1024)]


def others_in_order(legal: list[Move], chooser: int) -> list[Move]:
    """`Machine._others_moves` of a list of moves in the order of their choosers (a
    round of every player, `PLAYERS` in order, lists each player's moves in turn): the
    chooser's moves are one run, found by bisection, the rest kept by two slices."""
    lo = bisect_left(legal, chooser, key=_CHOOSER)
    return legal[:lo] + legal[bisect_right(legal, chooser, lo, key=_CHOOSER):]


def in_players_order(pending: Sequence[Move], who: Sequence[int]) -> list[Move]:
    """The choices of a simultaneous round, carried out in the order of the players' list
    `who` (as `sorted` by each chooser's place in it, stably): where each chooser chose
    once, the choice of each player of the list in turn (a small round: no table)."""
    if len(who) <= 8:
        todo = [mv for p in who for mv in pending if mv[0] == p]
        if len(todo) == len(pending):
            return todo
    order = {p: i for i, p in enumerate(who)}
    return sorted(pending, key=lambda mv: order[mv[0]])


class _Undrawn:
    """The seed slot while the part of the setup that must not draw runs: no random
    generator takes it as a seed (unhashable), so a draw fails."""

    __hash__ = None  # type: ignore[assignment]


class Machine:
    """A compiled game's generated code and layout, with the loops that run it in place."""

    def __init__(self, checked: Checked, gen: Generated) -> None:
        self.checked = checked
        self.gen = gen
        self.zone_text = {z.slot: z.text for z in gen.zone_slots}
        self._zone_at = {z.text: z.slot for z in gen.zone_slots}
        # each variable's first slot, and its number of elements (None: one value)
        self._var_at: dict[str, tuple[int, int | None]] = {
            v.name: (gen.var_base[v.name], None if v.dim is None else v.dim[1])
            for v in checked.vars.values()}
        self.move_names = gen.move_names + ["pass"]
        self.move_param_types = gen.move_param_types + [[]]
        filename = f"<cardgame {checked.name}>"
        ns = namespace(checked, gen.spans, [z.slot for z in gen.zone_slots], self.zone_text,
                       gen.card_text, gen.node_span)
        code = compile(gen.source, filename, "exec")
        linecache.cache[filename] = (len(gen.source), None, gen.source.splitlines(True), filename)
        # the rule each function of the generated code belongs to, for an error's place
        where: dict[str, tuple[str, Span]] = {}
        for mid, mname in enumerate(gen.move_names):
            md = checked.moves[mname]
            where[f"eff_{mid}"] = where[f"move {mname}"] = (f"move {mname}", md.span)
        for dname, dd in checked.defs.items():
            where[f"d_{dname}"] = (f"def {dname}", dd.span)
        for pname, pd in checked.procs.items():
            where[f"p_{pname}"] = (f"proc {pname}", pd.span)
        ns["_WHERE"] = where
        exec(code, ns)  # our generated code only: see codegen's module docstring
        self.ns = ns
        self._succ = ns["SUCC"]
        self._sim = ns["SIMULTANEOUS"]
        self._eff = ns["EFF"]
        self._setup = ns["setup"]
        self._step_settle = ns["step_settle"]
        self._steps: dict[int, Callable[..., list[Move]]] | None = ns.get("STEP")
        # the step of each decision whose move `Game.apply` plays with it (not a
        # simultaneous choice, and the code is optimised), by flow node (a list: its
        # lookup per move is the cheaper); where moves may be listed lazily (sets of
        # cards), a step returns them unlisted (a SetMoves) and `Game.legal_moves` lists
        # them when asked
        steps = self._steps or {}
        self._plain_by_pc: list[Callable[..., Sequence[Move]] | None] = [
            None if pc not in steps or pc in self._sim else steps[pc]
            for pc in range(gen.end_node)]
        # the simultaneous decisions where, while the round goes on, the legal moves are
        # those listed before less the chooser's (see _others_moves)
        self._sim_kept = frozenset(pc for pc in self._sim if self._kept_in_round(pc))
        self._gen_run = ns["run"]
        self._gen_settle = ns["settle"]
        self._budget: list[int] = ns["_B"]
        self._zone_slots = [z.slot for z in gen.zone_slots]
        self._move_rules = [f"move {n}" for n in self.move_names]
        # the slots before setup (every zone empty but the deck, in deck order), copied
        # for each new state
        blank: list[Any] = [None] * gen.nslots
        blank[PC] = gen.entry
        blank[MOVES] = 0
        for z in self._zone_slots:
            blank[z] = ()
        blank[gen.zone_base["deck"]] = tuple(range(self._ncards))
        self._blank = blank
        # optimised code: the part of the setup that is the same for every seed
        # (codegen/module.py `setup`), run once on the first deal: its slots, copied for
        # each deal, the budget it left, and the rest of the setup (None: not yet; False:
        # the setup is not split, or that part fails)
        self._fixed: tuple[list[Any], int, Callable[[list[Any]], None]] | bool | None = (
            None if "setup_fixed" in ns else False)

    # What the generated namespace or the checked rules hold already: properties, not
    # attributes (a Game keeps few: see Game.__init__)
    @property
    def card_text(self) -> list[str]:
        return self.gen.card_text

    @property
    def _ncards(self) -> int:
        return len(self.checked.cards)

    @property
    def _score(self) -> Callable[..., Any]:
        return self.ns["score"]

    @property
    def _won(self) -> Callable[..., Any]:
        return self.ns["won"]

    @property
    def _pushed(self) -> Callable[..., Any]:
        return self.ns["pushed"]

    @property
    def _simsteps(self) -> dict[int, Callable[..., Sequence[Move]]]:
        """Optimised code: the end of each simultaneous round, its choices carried out and
        the flow run on to the next decision (codegen/step.py)."""
        return self.ns.get("SIMSTEP") or {}

    def _kept_in_round(self, pc: int) -> bool:
        """While a simultaneous round goes on, a choice is only kept (secret, its effect
        deferred): the state changes in the pending choices and the count of moves alone.
        So the others' legal moves are those listed before the choice, when nothing that
        lists them or ends the game reads that count: no move limit, no end conditions,
        and no `moves_played` in the tests of the moves offered or in a def they call."""
        g = self.checked
        if g.limit is not None or g.ends:
            return False
        roots: list[Any] = []
        for mid in self.gen.decisions[pc].alts:
            if mid >= len(self.gen.move_names):
                continue  # (the pass of an optional choice: no test)
            md = g.moves[self.gen.move_names[mid]]
            roots.append((md.when, tuple(p.source for p in md.params)))
        seen: set[str] = set()
        while roots:  # the tests, and the bodies of the defs they call, and so on
            for n in A.walk(roots.pop()):
                name = (n.func if isinstance(n, A.Call)
                        else n.name if isinstance(n, A.Name) else None)
                if name in g.defs:
                    if name not in seen:
                        seen.add(name)
                        roots.append(g.defs[name].body)
                elif name == "moves_played":
                    return False
        return True

    def legality(self) -> tuple[dict[int, Callable[[Any, Move], bool]],
                                Callable[[Any], bool] | None]:
        """The one-move legality tests (codegen `legality`): by decision node, whether a
        move is legal in a settled state there, and whether settling a state ends the game
        (None where an end condition counts the legal moves). Compiled when first asked
        for (the fuzzer's shadow worlds, `Game.legal_by_test`), in a module of their own."""
        # (kept in the namespace: a game has few attributes of its own, test_engine)
        got: tuple[dict[int, Callable[[Any, Move], bool]], Callable[[Any], bool] | None] | None
        got = self.ns.get("_LEGALITY")
        if got is None:
            from ..codegen import legality  # (not needed to run a game)

            lg = legality(self.checked, self.gen.decisions, self.gen.optimized)
            ns = namespace(self.checked, lg.spans, self._zone_slots, self.zone_text,
                           self.gen.card_text)
            exec(compile(lg.source, f"<cardgame {self.checked.name} legality>", "exec"),
                 ns)  # our generated code only: see codegen's module docstring
            got = self.ns["_LEGALITY"] = (ns["ISLEGAL"], ns["ENDING"])
        return got

    def quiet_steps(self) -> dict[int, Callable[[Any, Move], None]] | None:
        """The quiet steps (codegen `specialised_steps(quiet=True)`): by decision node with
        its own step, that step without the settle after it (no end condition tested, no
        move listed: the fuzzer's shadow worlds, engine/walk.py `Told.quiet`). Generated
        again when first asked for, and compiled into the game's own namespace (they
        read its tables, effects and recorder), only where the same generation gives the
        game's own source again (so each name they read is the game's); else None, as
        for plain code, which has no steps of its own."""
        got: dict[int, Callable[[Any, Move], None]] | None | bool
        got = self.ns.get("_QUIET", False)
        if got is False:
            got = None
            if self._steps is not None:
                from ..codegen import generate  # (not needed to run a game)

                gen = generate(self.checked, optimize=self.gen.optimized, quiet=True)
                if gen.quiet_source and gen.source == self.gen.source:
                    exec(compile(gen.quiet_source, f"<cardgame {self.checked.name} quiet>",
                                 "exec"), self.ns)  # our generated code only
                    got = self.ns["QUIET"]
            self.ns["_QUIET"] = got
        return got  # type: ignore[return-value]

    def _others_moves(self, legal: Sequence[Move], chooser: int) -> Sequence[Move]:
        """The legal moves of a simultaneous round after `chooser` chose (a `_sim_kept`
        decision): the ones listed before, less the chooser's; the same list, in the same
        order, as the generator gives (it lists the players who have not chosen, in turn)."""
        if type(legal) is list:
            return [mv for mv in legal if mv[0] != chooser]
        return legal.without(chooser)  # type: ignore[attr-defined]  # (codegen's SetMoves)

    # ------------------------------------------------------------------ in place
    def _init_slots(self, seed: int) -> list[Any]:
        s = self._blank.copy()  # a copy of the slots before setup, then the seed
        s[RNG] = seed
        try:
            with _Translate("setup"):
                self._setup(s)
        except GameOver:  # pragma: no cover - the checker forbids 'end' in setup
            raise RuleError("the game ended during setup", rule="setup") from None
        return s

    def _run(self, s: list[Any]) -> None:
        """Run automatic steps from the current node until a decision or the end."""
        # the generated run writes the node it stopped at only when it stops, so the
        # node it started from names the rule that failed
        with _Translate("flow", self.gen.node_span.get(s[PC], NOSPAN)):
            self._gen_run(s, s[PC])

    def _settle(self, s: list[Any]) -> list[Move]:
        """After the flow stopped: apply the limit and end conditions; return the legal moves.
        (The same generated code as the fast path, so the two cannot disagree.)"""
        with _Translate("legal moves"):
            legal: list[Move] = self._gen_settle(s)
        if type(legal) is not list:  # sets of cards listed lazily (codegen's SetMoves)
            legal = list(legal)
        return legal

    def _settle_lazily(self, s: list[Any]) -> Sequence[Move]:
        """`_settle` for the fast path: moves whose last parameter is a set of cards may
        stay unlisted (a SetMoves: its length, and the move at an index)."""
        with _Translate("legal moves"):
            legal: Sequence[Move] = self._gen_settle(s)
        return legal

    def _step(self, s: list[Any], m: Move) -> None:
        """Apply a move (assumed legal) in place, then run to the next decision."""
        pc = s[PC]
        if pc in self._sim:
            # A simultaneous choice: keep it secret until every player has chosen, then
            # carry out all the choices in the order of the players' list.
            pending = s[PENDING] + (m,)
            s[MOVES] += 1
            if len(pending) < len(s[WHO]):
                s[PENDING] = pending
                return
            s[PENDING] = None
            todo = in_players_order(pending, s[WHO])
        else:
            todo = [m]
            s[MOVES] += 1
        eff = self._eff
        self._budget[0] = STEPS  # the effects of a round of choices: one budget
        try:
            with _Translate(self._move_rules[m[1]]):
                for mv in todo:
                    eff[mv[1]](s, mv)
        except GameOver:
            return
        s[PC] = self._succ[pc]
        self._run(s)

    def _advance(self, s: list[Any], m: Move, before: Sequence[Any]) -> Sequence[Move]:
        """`_step` then `_settle` on `s`, a copy of the slots `before`, through the
        generated fast step where it applies. Sets of cards may stay unlisted (a
        SetMoves: `Game.legal_moves` lists them when asked)."""
        pc = s[PC]
        if pc in self._sim:
            self._step(s, m)
            return self._settle_lazily(s)
        try:
            steps = self._steps  # optimised code: the decision's own step
            return steps[pc](s, m) if steps is not None else self._step_settle(s, m)
        except CardgameError:
            raise
        except Exception:
            # The fast step does not say which part failed: the move's effect, the flow
            # after it or the rules of the state it reached. Play it again part by part
            # (the slots hold the random seed, so it fails the same way) for that name.
            self._relabel(before, m)

    def _relabel(self, before: Sequence[Any], m: Move) -> NoReturn:
        s = list(before)
        self._step(s, m)
        self._settle(s)
        raise RuleError("the step failed once but not when played again",  # pragma: no cover
                        rule=f"move {self.move_names[m[1]]} or the flow after it")

    def _start(self, seed: int) -> tuple[list[Any], list[Move]]:
        """The deal of `seed`, the flow run to the first decision, and its legal moves."""
        s, legal = self._dealt(seed, self._settle)  # (a new state per game: bots, search)
        return s, legal if type(legal) is list else list(legal)

    def _dealt(self, seed: int, settle: Callable[[list[Any]], Sequence[Move]]
               ) -> tuple[list[Any], Sequence[Move]]:
        """The deal, the flow to the first decision and its moves, as one call each; where
        one fails, again part by part (the same seed: it fails the same way), for the
        error that names the rule, the moves then listed by `settle`."""
        fixed = self._fixed
        if fixed is None:
            fixed = self._fix()
        try:
            if fixed and self.ns["REC"] is None:
                # (observed, the setup runs whole: the recorder sees each card it moves)
                s = fixed[0].copy()  # type: ignore[index]
                s[RNG] = seed
                self._budget[0] = fixed[1]  # type: ignore[index]
                fixed[2](s)  # type: ignore[index]
            else:
                s = self._blank.copy()
                s[RNG] = seed
                self._setup(s)
            self._gen_run(s, s[PC])
            return s, self._gen_settle(s)
        except Exception:
            s = self._init_slots(seed)
            self._run(s)
            return s, settle(s)

    def _fix(self) -> tuple[list[Any], int, Callable[[list[Any]], None]] | bool | None:
        """`_fixed`, made: the slots after `setup_fixed`, the budget it left, and
        `setup_drawn`. Where that part of the setup fails, or would read the random
        generator's seed (the seed slot holds a value no generator takes, and must hold it
        still), it is False: every deal then runs the whole setup (failing as it would)."""
        if self.ns["REC"] is not None:
            return None  # (the recorder would see these moves: later)
        s = self._blank.copy()
        s[RNG] = undrawn = _Undrawn()
        try:
            self._budget[0] = STEPS
            self.ns["setup_fixed"](s)
            ok = s[RNG] is undrawn
        except Exception:
            ok = False
        self._fixed = fixed = (s, self._budget[0], self.ns["setup_drawn"]) if ok else False
        return fixed

    # ------------------------------------------------------------------ playouts
    def random_playout(self, seed: int, rng: random.Random,
                       max_moves: int = 1_000_000) -> tuple[list[Any], int]:
        """Play uniformly random legal moves on a mutable state; return it and the move count."""
        s, legal = self._dealt(seed, self._settle_lazily)
        return s, self._play_randomly(s, legal, rng, max_moves)

    def _play_randomly(self, s: list[Any], legal: Sequence[Move], rng: random.Random,
                       max_moves: int) -> int:
        """Uniformly random legal moves on `s` in place, from a decision whose legal moves
        are `legal`; the number of moves played."""
        n = 0
        sim = self._sim
        steps = self._steps
        m: Move = ()
        try:
            if steps is not None and type(rng) is random.Random and _INLINE_BELOW:
                # optimised code, each decision with its own step; the move drawn as
                # `rng._randbelow` draws it, its getrandbits loop written out
                getrandbits = rng.getrandbits
                kept = self._sim_kept
                simsteps = self._simsteps
                players = self.ns["PLAYERS"]
                # each decision's own step by its node (a list: cheaper than a test of
                # the simultaneous ones and a lookup), None at a simultaneous one; where
                # moves may stay unlisted (SetMoves) `_plain_by_pc` lists them: None at
                # every node, each step found in `steps`
                plain: Sequence[Callable[..., Sequence[Move]] | None] = self._plain_by_pc
                if self.gen.lazy_moves:
                    plain = [None] * len(plain)
                if not legal:
                    return 0
                # (a `for` counts the moves: cheaper than a test and an addition each)
                for n in range(1, max_moves + 1):
                    k = len(legal)
                    try:
                        bits = _BITS[k]
                    except IndexError:
                        bits = k.bit_length()
                    j = getrandbits(bits)
                    while j >= k:
                        j = getrandbits(bits)
                    m = legal[j]
                    pc = s[PC]
                    own = plain[pc]
                    if own is not None:
                        legal = own(s, m)
                    elif pc in sim:
                        pending = s[PENDING] + (m,)
                        if len(pending) < len(s[WHO]) and pc in kept:
                            # the round goes on (as `_step` keeps a choice): the legal
                            # moves listed before less the chooser's (`_others_moves`)
                            s[PENDING] = pending
                            s[MOVES] += 1
                            # (a round of every player lists the moves by chooser,
                            # `for me in s[WHO]`, as Game.legal_moves does: one run each)
                            legal = (others_in_order(legal, m[0])
                                     if s[WHO] is players and type(legal) is list
                                     else self._others_moves(legal, m[0]))
                        elif pc in simsteps and len(pending) == len(s[WHO]):
                            legal = self._end_round(s, m, pending, simsteps[pc], players)
                        else:
                            self._step(s, m)
                            legal = self._settle_lazily(s)
                    else:
                        legal = steps[pc](s, m)
                    if not legal:
                        return n
                return n
            step = self._step
            settle = self._settle_lazily
            randrange = rng.randrange
            # randrange(k) is _randbelow(k) for k >= 1: the same draws, one call less
            below: Callable[[int], int] = randrange
            if type(rng).randrange is random.Random.randrange:
                below = rng._randbelow  # type: ignore[attr-defined]
            if steps is not None:
                while legal and n < max_moves:
                    m = legal[below(len(legal))]
                    pc = s[PC]
                    if pc in sim:
                        step(s, m)
                        legal = settle(s)
                    else:
                        legal = steps[pc](s, m)
                    n += 1
            fast = self._step_settle
            if not sim:
                while legal and n < max_moves:
                    m = legal[below(len(legal))]
                    legal = fast(s, m)
                    n += 1
            while legal and n < max_moves:
                m = legal[randrange(len(legal))]
                if s[PC] in sim:
                    step(s, m)
                    legal = settle(s)
                else:
                    legal = fast(s, m)
                n += 1
        except Exception as e:  # what `with _Translate(rule)` does, `m` a plain local
            rule = f"move {self.move_names[m[1]]} or the flow after it" if m else "setup"
            _Translate(rule).__exit__(type(e), e, e.__traceback__)
            raise
        return n

    def _end_round(self, s: list[Any], m: Move, pending: tuple[Move, ...],
                   simstep: Callable[..., Sequence[Move]],
                   players: tuple[int, ...] | None = None) -> Sequence[Move]:
        """`_step` then `_settle_lazily` for the last choice `m` of a simultaneous round
        (`pending`, m included): the choices carried out in the players' order and the
        flow run on to the next decision by the generated SIMSTEP. Where that fails, the
        step is played again from a copy of the slots before it, part by part (the slots
        hold the random seed: it fails the same way), for the error that names the rule.

        The random playouts pass `players` (PLAYERS: 1..n in order): a round of every
        player is carried out in the order of its choices stably sorted by chooser, which
        is their order by place in that list."""
        before = s.copy()
        s[PENDING] = None
        s[MOVES] += 1
        who = s[WHO]
        todo = (sorted(pending, key=_CHOOSER) if who == players
                else in_players_order(pending, who))
        try:
            return simstep(s, todo)
        except CardgameError:
            raise
        except Exception:
            s[:] = before
            self._step(s, m)
            self._settle_lazily(s)
        raise RuleError("the step failed once but not when played again",  # pragma: no cover
                        rule=f"move {self.move_names[m[1]]} or the flow after it")

    def _play_choosing(self, s: list[Any], legal: Sequence[Move], rng: random.Random,
                       max_moves: int, choose: Callable[..., tuple[list[Any], Sequence[Move]]]
                       ) -> tuple[list[Any], int]:
        """The loop of the rollout policies: a simultaneous choice (whose effect waits for
        the others) is random, a single legal move is played, and otherwise
        `choose(s, legal, tried)` returns the slots and legal moves after the move it
        picks, each move it tries put in `tried[0]` first, for the error that names it.
        Returns the final slots and the moves played."""
        n = 0
        sim = self._sim
        fast = self._step_settle
        step = self._step
        settle = self._settle_lazily
        randrange = rng.randrange
        tried: list[Move] = [()]
        names = self.move_names

        def failed() -> str:
            m = tried[0]
            return f"move {names[m[1]]} or the flow after it" if m else "setup"

        with _Translate(failed):
            while legal and n < max_moves:
                if s[PC] in sim:
                    m = tried[0] = legal[randrange(len(legal))]
                    step(s, m)
                    legal = settle(s)
                elif len(legal) > 1:
                    s, legal = choose(s, legal, tried)
                else:
                    tried[0] = legal[0]
                    legal = fast(s, legal[0])
                n += 1
        return s, n

    def _play_greedily(self, s: list[Any], legal: Sequence[Move], rng: random.Random,
                       max_moves: int) -> tuple[list[Any], int]:
        """Like `_play_randomly`, but each move is the first, in a random order, that
        raises the mover's score, else a random one (a rollout policy for search: one
        copy and step per move tried). Returns the final slots and the moves played."""
        fast = self._step_settle
        score = self._score
        randrange = rng.randrange

        def choose(s: list[Any], legal: Sequence[Move], tried: list[Move]
                   ) -> tuple[list[Any], Sequence[Move]]:
            k = len(legal)
            p = legal[0][0]
            before = score(s, p)
            start = randrange(k)
            for i in range(k):
                m = tried[0] = legal[(start + i) % k]
                t = s.copy()
                after = fast(t, m)
                if score(t, p) > before:
                    return t, after
            return s, fast(s, m)  # none raises it: the last tried, a random one

        return self._play_choosing(s, legal, rng, max_moves, choose)

    def _play_leading(self, s: list[Any], legal: Sequence[Move], rng: random.Random,
                      max_moves: int, players: int, lowest: bool = False
                      ) -> tuple[list[Any], int]:
        """Like `_play_greedily`, but each move is one that leaves the mover the best lead
        (its score minus the best other player's score: the `greedy` bot's value; where
        the lowest score wins, the best other's score minus its own), every legal move
        tried on a copy of the slots, ties broken at random. A rollout policy for search
        whose players play as the `greedy` bot does. Returns the final slots and the
        moves played."""
        fast = self._step_settle
        score = self._score
        randrange = rng.randrange
        others = [[q for q in range(1, players + 1) if q != p] for p in range(players + 1)]

        def choose(s: list[Any], legal: Sequence[Move], tried: list[Move]
                   ) -> tuple[list[Any], Sequence[Move]]:
            p = legal[0][0]
            rest = others[p]
            best = None
            ties = 0
            chosen: tuple[list[Any], Sequence[Move]] | None = None
            for m in legal:
                tried[0] = m
                t = s.copy()
                after = fast(t, m)
                if lowest:
                    v = min((score(t, q) for q in rest), default=0) - score(t, p)
                else:
                    v = score(t, p) - max((score(t, q) for q in rest), default=0)
                if best is None or v > best:
                    best, ties, chosen = v, 1, (t, after)
                elif v == best:  # reservoir sampling: each tie equally likely
                    ties += 1
                    if randrange(ties) == 0:
                        chosen = (t, after)
            assert chosen is not None
            return chosen

        return self._play_choosing(s, legal, rng, max_moves, choose)
