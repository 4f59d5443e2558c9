"""The game engine: the API that the REPL, the simulator, bots and the fuzzer use.

A `State` is a value: an immutable tuple of slots (hashable, cheap to share) plus a cache
of its legal moves. A move is a tuple `(player, move_index, *args)`; `Game.move_text`
gives its stable text form (`build 3`, `shift column1 column4`, `play Q♠`).

Automatic steps and chance run inside `apply`, so every state a caller sees is either
terminal or waiting for a decision by one player (or, for a simultaneous choice, by each
player who has not chosen yet).

`Game` is the core API; the concerns it gathers live next to it: `playout` (the generated
code run in place), `state` (the value, JSON), `texts` (moves as text), `positions`
(states by zone and variable names). What a seat may see is the `observe` layer's.
"""

from __future__ import annotations

import contextlib
import random
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import attrs
else:  # the same declarations, built cheaply (lang/nodes.py): start-up time
    from ..lang import nodes as attrs

from ..codegen import ENDED, FLOW_END, FLOW_RAN_OUT, MOVES, PC, PENDING, WHO, Generated
from ..errors import CardgameError, IllegalMove, RuleError, Span
from ..lang import Checked
from . import positions, texts
from . import state as state_mod
from .events import CHOICE, LOG, PUBLIC, REVEAL, Event, Recorder
from .playout import Machine
from .positions import Position
from .state import Move, Reached, State, raw_slots

if TYPE_CHECKING:  # imported when a refusal is first explained (never on the hot path)
    from .refusal import Refusals

__all__ = ["CONCEDED", "Branch", "Event", "Game", "Move", "Position", "State", "Zone"]

CONCEDED = "conceded by p"


@attrs.frozen
class Zone:
    """One zone of the layout: `hand-p2` of the declared `hand`, owned by player 2."""

    name: str  # as written in moves and positions: column3, hand-p2, foundation-spades
    decl: str  # the declared zone
    owner: int  # the owning player of a per-player zone, else 0
    visibility: str  # as declared: public, owner or hidden


@attrs.frozen
class Branch:
    """One arm of an `if` statement of the game's rules, for branch coverage (a game
    compiled with `coverage=True`)."""

    id: int
    span: Span  # the arm's condition; for an else arm, the `if` statement
    arm: str  # "then", "elif" or "else" (an `if` without `else` has an implicit one)
    rule: str  # the rule it is in: "flow", "setup", "move play", "proc score_trick"...
    stmt: Span  # the `if` statement's (an arm's place among its statement's arms)


class Game(Machine):
    """A compiled game, for one choice of player count and options."""

    # made on the first refusal explained (a class default: one attribute fewer per game)
    _refusals: Refusals | None = None

    def __init__(self, checked: Checked, gen: Generated, source_id: str = "") -> None:
        # Few attributes per game (at most 29 with the ones set later: see
        # tests/test_engine.py::test_a_game_keeps_few_attributes): CPython 3.11 keeps an
        # object's attributes in a compact form up to that many, and only then are the
        # method calls `game.apply(...)`, `game.legal_moves(...)` specialised (a third
        # cheaper). Whatever the game's checked rules or generated namespace already
        # hold is a property below.
        self._relabel_lock = threading.Lock()
        super().__init__(checked, gen)
        self.source_id = source_id
        self.zones: tuple[Zone, ...] = tuple(
            Zone(z.text, z.decl, z.owner, checked.zones[z.decl].visibility)
            for z in gen.zone_slots)
        self._rec = Recorder(self.ns, self.zone_text, self._zone_slots, self.ns["_fmt"])
        # the picklable recipe of this game (a pipeline.GameSpec), set by the pipeline that
        # compiled it: pipeline imports this module, so the type is not named here
        self.spec: Any = None

    @property
    def name(self) -> str:
        return self.checked.name

    @property
    def path(self) -> str:
        return self.checked.path

    @property
    def players(self) -> int:
        return self.checked.players

    @property
    def options(self) -> dict[str, Any]:
        """The options chosen (a copy)."""
        return dict(self.checked.options)

    @property
    def invariants(self) -> list[tuple[str, Any]]:
        """The declared invariants: (name, test), in file order."""
        return list(self.ns["INVARIANTS"])

    @property
    def expectations(self) -> list[tuple[str, Any]]:
        """`expect sometimes COND`: (title, test), one per declaration, in file order."""
        return list(self.ns.get("EXPECTS", ()))

    @property
    def limit(self) -> int:
        """The declared move limit (0: none)."""
        lim = self.checked.limit
        return lim.count if lim else 0

    # why a game ends, as end_reason() reports it: each end condition's, and the limit's
    @property
    def limit_reason(self) -> str:
        return str(self.ns["LIMIT_REASON"])

    @property
    def end_reasons(self) -> list[str]:
        return list(self.ns["END_REASONS"])

    @property
    def _cov(self) -> list[int] | None:
        return self.ns.get("_COV")  # coverage mode only

    # ------------------------------------------------------------------ branch coverage
    def branches(self) -> tuple[Branch, ...]:
        """Every arm of every `if` statement the code records (none unless compiled with
        `coverage=True`)."""
        return tuple(Branch(i, a.span, a.arm, a.rule, a.stmt)
                     for i, a in enumerate(self.gen.arms))

    def covered(self) -> frozenset[int]:
        """The ids of the arms that ran since the game was compiled or coverage was reset
        (by any call, in this process)."""
        cov = self._cov
        return frozenset(i for i, v in enumerate(cov) if v) if cov else frozenset()

    def reset_coverage(self) -> None:
        cov = self._cov
        if cov:
            cov[:] = [0] * len(cov)

    # ------------------------------------------------------------------ playing
    def new_state(self, seed: int = 0) -> State:
        s, legal = self._start(seed)
        st = Reached()  # (see apply)
        st._s = s
        st._legal = legal
        st._ended = s[ENDED]
        return st

    def _ensure_settled(self, state: State) -> None:
        if state._legal is None:
            s = list(raw_slots(state))
            state._legal = self._settle(s) if s[ENDED] is None else []
            state._ended = s[ENDED]

    def settle(self, state: State) -> State:
        """A state built by hand (from slots) with its limit and end conditions applied."""
        self._ensure_settled(state)
        if state._ended == raw_slots(state)[ENDED]:
            return state
        slots = list(raw_slots(state))
        slots[ENDED] = state._ended
        return State(tuple(slots), [])

    def legal_moves(self, state: State, player: int | None = None) -> list[Move]:
        legal = state._legal
        if type(legal) is list and player is None:  # the loop of bots and search
            return legal
        legal = self._moves(state)
        if type(legal) is not list:  # sets of cards that `apply` left unlisted
            legal = state._legal = list(legal)
        if player is None:
            return legal
        return [m for m in legal if m[0] == player]

    def deciding(self, state: State) -> set[int]:
        """The players who have a legal move in `state` (the first item of each), without
        listing moves that `apply` left unlisted: the fuzzer's lookahead asks it of every
        state it reaches, most of which it never plays on (a pass of 3 cards of 13 lists
        286 moves)."""
        return _players(self._moves(state))

    def _moves(self, state: State) -> Sequence[Move]:
        """The state's legal moves as it holds them: a SetMoves where `apply` left sets of
        cards unlisted (settled first, for a state built by hand)."""
        self._ensure_settled(state)
        legal = state._legal
        assert legal is not None
        return legal

    def legal_by_test(self, state: State, move: Move) -> bool | None:
        """Whether `move` is one of `legal_moves(state)`, answered without listing them:
        the generated one-move test of the state's decision and the end conditions
        (codegen `legality_functions`; the fuzzer's shadow worlds use them). None where
        the game has no such answer (an end condition counts the legal moves, or the
        state is at no decision and not over). Where listing the moves would fail on
        another move, this may still answer; a rule error is the generated code's own."""
        s = raw_slots(state)
        if s[ENDED] is not None:  # (over: nothing is legal, as `legal_moves` says)
            return False
        tests, ending = self.legality()
        test = tests.get(s[PC])
        if ending is None or test is None:
            return None
        if len(move) < 2 or not test(s, tuple(move)):
            return False
        return not ending(s)

    def apply(self, state: State, move: Move) -> State:
        """Apply a legal move; an illegal one raises IllegalMove with the reason."""
        legal = state._legal
        if legal is None:
            legal = self.legal_moves(state)
        if move not in legal:  # a legal move is one of these tuples: no copy needed
            move = tuple(move)  # a list, say
            if move not in legal:
                raise IllegalMove(self.why_illegal(state, move))
        # the slots: the list of a state that apply reached (never changed: see Reached)
        before = state._s or state.slots
        try:
            step = self._plain_by_pc[before[PC]]
        except IndexError:  # (a state built by hand: `_advance` says what is wrong)
            step = None
        s = list(before)
        if step is None:  # (a simultaneous choice, say)
            legal = self._advance(s, move, before)  # may end the game: settled
        else:  # `_advance` inlined: the loop of bots and search runs this per move
            try:
                # a list, or (`lazy_moves`) a SetMoves that `legal_moves` lists when
                # asked: most states the fuzzer's lookahead reaches are never played on
                legal = step(s, move)
            except CardgameError:
                raise
            except Exception:
                self._relabel(before, move)
        # a settled state (its end is in its slots), its tuple made when first read
        after = Reached()
        after._s = s
        after._legal = legal
        after._ended = s[ENDED]
        return after

    def apply_unsettled(self, state: State, move: Move) -> State:
        """A legal move's effect and the automatic steps after it, without the end
        conditions and legal moves of the state it reaches (worked out when asked for).
        A rule error raised here is the move's or the flow's; one that `apply` raises and
        this does not comes from the state reached."""
        move = tuple(move)
        if move not in self.legal_moves(state):
            raise IllegalMove(self.why_illegal(state, move))
        s = list(raw_slots(state))
        self._step(s, move)
        return State(tuple(s))

    # ------------------------------------------------------------------ events
    # Events reach only the call that asks for them: the calls of other threads meanwhile,
    # observed or not, record elsewhere or nothing. Unobserved calls pay one test per card
    # statement (`REC is None`).
    def apply_observed(self, state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
        """`apply`, and the events of the step in order: the player's choice, the reveal
        of a simultaneous choice when it completes, the cards moved, shuffles, random
        picks and log lines of the rules that ran, then what became public (PUBLIC)."""
        move = tuple(move)
        sim = raw_slots(state)[PC] in self._sim
        head = [Event(CHOICE, actor=move[0], move=move, secret=sim,
                      where=self._where(state, move), turned=self._turned_of(state, move))]
        if sim and move in self.legal_moves(state):
            pending = (*self.pending(state), move)
            if len(pending) == len(raw_slots(state)[WHO]):
                order = {p: i for i, p in enumerate(raw_slots(state)[WHO])}
                head += [Event(REVEAL, actor=m[0], move=m, where=self._where(state, m),
                               turned=self._turned_of(state, m))
                         for m in sorted(pending, key=lambda m: order[m[0]])]
        after, events = self._observed(move[0], self.apply, state, move)
        return after, (*head, *events, self._public(after, state))

    def start_observed(self, seed: int) -> tuple[State, tuple[Event, ...]]:
        """`new_state`, and the events of the setup and the flow up to the first decision
        (the deck starts in its declared order), then the variables as PUBLIC."""
        state, events = self._observed(0, self.new_state, seed)
        return state, (*events, self._public(state, None))

    def _observed(self, actor: int, call: Callable[..., State], *args: Any
                  ) -> tuple[State, list[Event]]:
        rec = self._rec
        events: list[Event] = []
        rec.open()
        old = rec.swap(events, actor)
        try:
            return call(*args), events
        finally:
            rec.swap(old)
            rec.close()

    @contextlib.contextmanager
    def relabeling(self, rewrite: Callable[[list[int]], list[int]]) -> Iterator[None]:
        """While the block runs, in this thread, every shuffle's result (its cards,
        bottom first) goes through `rewrite`, which must return the same cards in places
        of its choice: the worlds of `observe.worlds` put the cards a seat never saw in
        other places of a shuffle, and every rule after it runs on them. One block at a
        time per game; other threads' shuffles are left alone."""
        me = threading.get_ident()

        def hook(cards: list[int]) -> list[int]:
            if threading.get_ident() != me:
                return cards
            out = list(rewrite(list(cards)))
            if sorted(out) != sorted(cards):
                raise ValueError("a relabeled shuffle must keep the same cards")
            return out

        with self._relabel_lock:
            self.ns["RELABEL"] = hook
            try:
                yield
            finally:
                self.ns["RELABEL"] = None

    @contextlib.contextmanager
    def checking_logs(self) -> Iterator[list[RuleError]]:
        """While the block runs, every `log` line is evaluated, observed or not, and the
        rule errors of its failing parts (each shown as a marker, never raised) are
        appended to the list it yields, in order: the fuzzer's check that every log line
        can be written. One block at a time per game."""
        fails: list[RuleError] = []
        old = self.ns["LOGCHECK"]
        self.ns["LOGCHECK"] = fails
        try:
            yield fails
        finally:
            self.ns["LOGCHECK"] = old

    def _where(self, state: State, move: Move) -> tuple[tuple[int, str], ...]:
        """Where the cards a move names are before it (a seat that sees the zone knows them)."""
        types = self.move_param_types[move[1]] if 0 <= move[1] < len(self.move_names) else []
        cards = {a for a, t in zip(move[2:], types, strict=False) if t == "card"}
        cards.update(c for a, t in zip(move[2:], types, strict=False) if t == "list:card"
                     for c in a)
        if not cards:
            return ()
        return tuple((c, name) for name, ids in self.zone_contents(state).items()
                     for c in ids if c in cards)

    def _turned_of(self, state: State, move: Move) -> tuple[int, ...]:
        """The cards a move names that lie turned from their zone's face."""
        turned = self.turned(state)
        if not turned:
            return ()
        return tuple(c for c, _ in self._where(state, move) if c in turned)

    # ------------------------------------------------------------------ faces
    @property
    def uses_faces(self) -> bool:
        """Do the rules turn cards one by one (`turn`, `move ... face up`)?"""
        return self.gen.faces_slot is not None

    def turned(self, state: State) -> frozenset[int]:
        """The cards that lie turned from their zone's face: face down in a face-up zone,
        face up in a face-down or owner zone (empty when the rules never turn a card)."""
        f = self.gen.faces_slot
        return frozenset(raw_slots(state)[f]) if f is not None else frozenset()

    def face_up(self, state: State, card: int) -> bool:
        """Does `card` lie face up (its zone is face up and it is not turned, or it is
        turned in a face-down or owner zone)?"""
        for z in self.zones:
            if card in self.zone_ids(state, z.name):
                return (z.visibility == "public") != (card in self.turned(state))
        raise ValueError(f"card {card} is nowhere")

    def _public(self, after: State, before: State | None) -> Event:
        new = self.variables(after)
        old = self.variables(before) if before is not None else {}
        changes = tuple((k, _frozen(v)) for k, v in new.items()
                        if k not in old or old[k] != v)
        return Event(PUBLIC, changes=changes, to_move=self.to_move(after),
                     phase=self.phase(after), ended=self.end_reason(after))

    def value_text(self, value: Any, typ: str) -> str:
        """A value as a log line writes it (`typ`: card, player, list:card...)."""
        return str(self.ns["_fmt"](value, typ))

    def log_text(self, event: Event) -> str:
        """A LOG event's line with every card named (no seat's view: `observe` masks)."""
        return self._rec.text(event.parts)

    def apply_with_events(self, state: State, move: Move) -> tuple[State, list[str]]:
        """`apply`, and the log lines of the rules that ran, in order, every card named."""
        after, events = self._observed(move[0], self.apply, state, tuple(move))
        return after, [self.log_text(e) for e in events if e.kind == LOG]

    def start_with_events(self, seed: int) -> tuple[State, list[str]]:
        """`new_state`, and the log lines of the setup and the flow up to the first decision."""
        state, events = self._observed(0, self.new_state, seed)
        return state, [self.log_text(e) for e in events if e.kind == LOG]

    def concede(self, state: State, player: int) -> State:
        """The player gives up: the game ends, and that player loses."""
        if self.is_terminal(state):
            raise IllegalMove("the game is over")
        if not 1 <= player <= self.players:
            raise IllegalMove(f"there is no player {player}")
        slots = list(raw_slots(state))
        slots[ENDED] = f"{CONCEDED}{player}"
        return State(tuple(slots), [])

    def replay(self, seed: int, moves: Iterable[Move]) -> State:
        state = self.new_state(seed)
        for m in moves:
            state = self.apply(state, tuple(m))
        return state

    # ------------------------------------------------------------------ questions
    def conceded_by(self, state: State) -> int | None:
        r = raw_slots(state)[ENDED]
        if isinstance(r, str) and r.startswith(CONCEDED):
            return int(r[len(CONCEDED):])
        return None

    def is_terminal(self, state: State) -> bool:
        self._ensure_settled(state)
        return state._ended is not None

    def end_reason(self, state: State) -> str | None:
        self._ensure_settled(state)
        r = state._ended
        gave_up = self.conceded_by(state)
        if gave_up is not None:
            return f"p{gave_up} conceded"
        return None if r is None else self.reason_text(r)

    @staticmethod
    def reason_text(recorded: Any) -> str:
        """An end reason as a state records it, in words: a flow that ran out records
        "ended" (codegen/flow.py), which told a designer nothing. The state keeps the
        word: states, saves' positions and the fuzzer's endings are hashed
        (benchmarks/same_behaviour.py)."""
        return FLOW_RAN_OUT if recorded == FLOW_END else str(recorded)

    def ended(self, state: State) -> Any:
        """Why the game ended as the state records it (None while playing or not settled)."""
        return raw_slots(state)[ENDED]

    def to_move(self, state: State) -> tuple[int, ...]:
        """Who must decide now: one player, each player yet to choose, or nobody (the end)."""
        s = state._s or state.slots
        if self.is_terminal(state):
            return ()
        who = s[WHO]
        if s[PC] in self._sim:
            done = {m[0] for m in s[PENDING] or ()}
            return tuple(p for p in who if p not in done)
        return (who,)

    def pending(self, state: State) -> tuple[Move, ...]:
        """At a simultaneous choice: the choices made so far (secret until all have chosen)."""
        s = raw_slots(state)
        return tuple(s[PENDING] or ()) if s[PC] in self._sim else ()

    def decision(self, state: State) -> int:
        """The decision point the flow waits at (a key of `decisions`)."""
        return int(raw_slots(state)[PC])

    @property
    def decisions(self) -> dict[int, Any]:
        """The flow's decision points: node -> (the moves offered as `alts`, `optional`,
        `simultaneous`, the `span` of its `chooses`)."""
        return dict(self.gen.decisions)

    def flow_dot(self) -> str:
        """The compiled flow as a Graphviz digraph (`cardgame check --graph`)."""
        from ..codegen import flow_dot

        return flow_dot(self.name, self.gen)

    def moves_played(self, state: State) -> int:
        return int(raw_slots(state)[MOVES])

    def position_key(self, state: State) -> tuple[Any, ...]:
        """The state without its move counter: equal for a position reached again."""
        return state_mod.position_key(state)

    def phase(self, state: State) -> str:
        return self.gen.node_phase.get(raw_slots(state)[PC], "")

    def scores(self, state: State) -> list[int]:
        s = list(raw_slots(state))
        return [self._score(s, p) for p in range(1, self.players + 1)]

    def results(self, state: State) -> list[str]:
        """'win', 'loss' or 'draw' (a shared first place) for each player; '' while playing.
        Against a role (`result against dealer: ...`): 'win', 'push' or 'loss'."""
        if not self.is_terminal(state):
            return [""] * self.players
        s = list(raw_slots(state))
        res = self.checked.result
        gave_up = self.conceded_by(state)
        if res is not None and res.kind == "against":
            return ["loss" if p == gave_up else "win" if self._won(s, p)
                    else "push" if self._pushed(s, p) else "loss"
                    for p in range(1, self.players + 1)]
        if res is not None and res.kind == "won":
            return ["win" if self._won(s, p) and p != gave_up else "loss"
                    for p in range(1, self.players + 1)]
        if self.players == 1:
            return ["loss" if gave_up else "win"]
        sc = self.scores(state)
        rank = [i for i in range(self.players) if i + 1 != gave_up]
        best = (min if res is not None and res.kind == "lowest" else max)(sc[i] for i in rank)
        winners = [i for i in rank if sc[i] == best]
        return [("win" if len(winners) == 1 else "draw") if i in winners else "loss"
                for i in range(self.players)]

    def check_invariants(self, state: State) -> list[str]:
        """Names of declared invariants that do not hold in this state."""
        s = list(raw_slots(state))
        # (unlisted: an invariant reads only their number, `no_moves` and `legal_count`)
        legal = self._moves(state)
        bad = []
        for name, fn in self.ns["INVARIANTS"]:
            try:
                ok = fn(s, legal)
            except CardgameError:
                ok = False
            if not ok:
                bad.append(name)
        return bad

    def expectation_holds(self, state: State, k: int,
                          legal: list[Move] | None = None) -> bool:
        """Does the condition of the game's k-th `expect sometimes` hold in this state?
        (A condition that fails to evaluate does not hold.)"""
        fn = self.ns["EXPECTS"][k][1]
        try:
            return bool(fn(list(raw_slots(state)),
                           self.legal_moves(state) if legal is None else legal))
        except CardgameError:
            return False

    def invariant_error(self, state: State, name: str) -> CardgameError | None:
        """The rule error that evaluating a declared invariant raises, if any."""
        fn = dict(self.ns["INVARIANTS"])[name]
        try:
            fn(list(raw_slots(state)), self.legal_moves(state))
        except CardgameError as e:
            return e
        return None

    def why_illegal(self, state: State, move: Move) -> str:
        """Why `move` is not legal in `state`, in words: the failing condition (its
        reason, or its source text, and the game file's line), a card not where the
        move takes it from, a number out of range... (`refusal.py`; never on the hot path)."""
        if self.is_terminal(state):
            return "the game is over"
        try:
            if not (0 <= move[1] < len(self.move_names)):
                return "unknown move"
            text = self.move_text(move)
        except (IndexError, TypeError, KeyError):
            return f"malformed move {move!r}"
        if move[0] not in self.to_move(state):
            return f"{text}: it is not p{move[0]}'s decision"
        if self._refusals is None:
            from .refusal import Refusals

            self._refusals = Refusals(self)
        return self._refusals.why(state, move, text)

    def move_conditions(self, name: str) -> list[tuple[str, str, str]]:
        """A move's `when` clauses as written: (condition, reason or '', `file:line`)."""
        from .refusal import conditions

        return conditions(self, name)

    def source_text(self, span: Span) -> str:
        """The game file's text at a span, on one line ('' if unknown)."""
        from .refusal import source_text

        return source_text(self, span)

    # ------------------------------------------------------------------ texts
    def arg_text(self, value: Any, typ: str) -> str:
        return texts.arg_text(self, value, typ)

    def move_text(self, move: Move) -> str:
        return texts.move_text(self, move)

    def move_description(self, move: Move, args: list[str] | None = None,
                         viewer: int | None = None) -> str:
        """The move's description (its doc string, arguments filled in), else its text;
        `args` writes the arguments otherwise (a card back for a card not seen);
        `{me}`/`{my}` read "you"/"your" for `viewer`'s own move (or no viewer), else
        "p3"/"p3's"."""
        return texts.move_description(self, move, args, viewer)

    def parse_move(self, state: State, text: str, player: int | None = None) -> Move:
        """The legal move whose text is `text` (suits may be written s h d c)."""
        legal = self.legal_moves(state, player)
        if player is not None and not legal and not self.is_terminal(state) \
                and player not in self.to_move(state):
            raise IllegalMove(f"it is not p{player}'s turn")
        if player is None and not legal:
            player = next(iter(self.to_move(state)), None)

        def explain(move: Move) -> str:
            if player is not None:
                move = (player, *move[1:])
            elif self.to_move(state):
                move = (self.to_move(state)[0], *move[1:])
            return self.why_illegal(state, move)

        return texts.parse_move(self, legal, text, explain)

    def build_move(self, player: int, name: str, *args: Any) -> Move:
        """A move from its name and arguments as texts or values, legal or not."""
        return texts.build_move(self, player, name, *args)

    def legal_texts(self, state: State, player: int | None = None) -> list[str]:
        return [self.move_text(m) for m in self.legal_moves(state, player)]

    def apply_text(self, state: State, text: str, player: int | None = None) -> State:
        return self.apply(state, self.parse_move(state, text, player))

    # ------------------------------------------------------------------ zones and variables
    def card_id(self, text: str, exclude: set[int] | frozenset[int] = frozenset()) -> int:
        """A card by its text (`K♠`, `Ks`, `10h`, `7`); with duplicates, the first unused."""
        return texts.card_id(self, text, exclude)

    def zone_slot(self, text: str) -> int:
        """The engine's own place of a zone (engine and tools inside it only)."""
        return positions.zone_slot(self, text)

    def zone_value(self, text: str) -> int:
        """The value that names a zone in a move's arguments."""
        return texts.zone_value(self, text)

    def zone_names(self, decl: str | None = None) -> list[str]:
        """Every zone (of one declaration), in the layout's order: `column1`, `hand-p2`."""
        return [z.name for z in self.zones if decl is None or z.decl == decl]

    def zone_ids(self, state: State, zone: str) -> tuple[int, ...]:
        """The card ids in a zone, bottom first."""
        slot = self._zone_at.get(zone)
        ids: tuple[int, ...] = raw_slots(state)[
            slot if slot is not None else positions.zone_slot(self, zone)]
        return ids

    def zone_cards(self, state: State, zone: str) -> list[str]:
        """The cards of a zone as texts, bottom first (tests and tools; sees everything)."""
        return [self.card_text[c] for c in self.zone_ids(state, zone)]

    def zone_contents(self, state: State) -> dict[str, tuple[int, ...]]:
        """Every zone's card ids, bottom first, by zone name in the layout's order."""
        s = raw_slots(state)
        return {name: s[slot] for name, slot in self._zone_at.items()}

    def variables(self, state: State) -> dict[str, Any]:
        """Every variable's value by name (a list for an array)."""
        s = raw_slots(state)
        return {name: s[base] if n is None else list(s[base:base + n])
                for name, (base, n) in self._var_at.items()}

    def all_card_ids(self, state: State) -> list[int]:
        """The card ids of every zone, zone after zone (each once in a sound state)."""
        s = raw_slots(state)
        return [c for z in self._zone_slots for c in s[z]]

    def var(self, state: State, name: str) -> Any:
        """A variable's value (a list for an array), or one element: `chips[p2]`."""
        return positions.read_var(self, raw_slots(state), name)

    def differences(self, a: State, b: State) -> list[str]:
        """What differs between two states of this game: zones, variables and the
        engine's own bookkeeping (the flow, the random seed...), by name."""
        return positions.differences(self, a.slots, b.slots)

    def position(self, state: State | None = None, *, seed: int = 0,
                 rest: str = "deck") -> Position:
        """A `Position` to build from `state` (or from the deal of `seed`)."""
        return Position(self, state, seed=seed, rest=rest)

    def make_state(self, zones: dict[str, Sequence[str]] | None = None,
                   vars: dict[str, Any] | None = None, seed: int = 0,
                   rest: str = "deck") -> State:
        """A position for a scenario test: start from the deal for `seed`, then give each
        named zone exactly the cards listed (bottom first; card texts such as `K♠` or `Ks`).
        Cards taken out of a named zone that are not placed again go to `rest`. `vars` sets
        variables (`{"chips": [3, 0, 1]}` for a per-player array). See `Position`."""
        return positions.make_state(self, zones, vars, seed, rest)

    # ------------------------------------------------------------------ JSON
    def to_json(self, state: State) -> str:
        return state_mod.to_json(state, {"game": self.name, "source": self.source_id,
                                         "players": self.players, "options": self.options})

    def from_json(self, text: str) -> State:
        st = state_mod.from_json(text, self.name, self.players, self.gen.nslots,
                                 self._zone_slots, self._ncards)
        pc = st.slots[PC]
        if st.slots[ENDED] is None and (type(pc) is not int or pc not in self._succ):
            # a game not over stands at a decision (one of the flow's `chooses`)
            raise CardgameError(f"the saved state is broken: its place in the flow "
                                f"({repr(pc)[:20]}) is not a decision")
        for name, v in self.checked.vars.items():  # a player variable holds a player
            if v.type == "player":
                base = self.gen.var_base[name]
                for i in range(v.dim[1] if v.dim else 1):
                    try:
                        positions.check_player_value(self, name, st.slots[base + i])
                    except CardgameError as e:
                        raise CardgameError(f"the saved state is broken: {e}") from None
        return st

    # ------------------------------------------------------------------ playouts
    def final_state(self, s: Sequence[Any]) -> State:
        """The state of a slot list that `random_playout` returned."""
        return State(tuple(s))

    def random_playout_from(self, state: State, rng: random.Random,
                            max_moves: int = 1_000_000) -> tuple[State, int]:
        """`random_playout` from any state (search rollouts from a determinized world):
        the state reached and the number of moves played (at most `max_moves`)."""
        s = list(raw_slots(state))
        n = self._play_randomly(s, self.legal_moves(state), rng, max_moves) if not \
            self.is_terminal(state) else 0
        return State(tuple(s)), n

    def greedy_playout_from(self, state: State, rng: random.Random,
                            max_moves: int = 1_000_000) -> tuple[State, int]:
        """A playout from `state` in which each player takes a move that raises their
        score when there is one (found in a random order), else a random move."""
        if self.is_terminal(state):
            return state, 0
        s, n = self._play_greedily(list(raw_slots(state)), self.legal_moves(state), rng,
                                   max_moves)
        return State(tuple(s)), n

    def lead_playout_from(self, state: State, rng: random.Random,
                          max_moves: int = 1_000_000) -> tuple[State, int]:
        """A playout from `state` in which each player takes a move that leaves them the
        best lead (their score minus the best other player's; where the lowest score
        wins, the other way round), as the `greedy` bot judges a move, ties broken at
        random: a rollout whose players play as it does."""
        if self.is_terminal(state):
            return state, 0
        res = self.checked.result
        s, n = self._play_leading(list(raw_slots(state)), self.legal_moves(state), rng, max_moves,
                                  self.players, res is not None and res.kind == "lowest")
        return State(tuple(s)), n

def _frozen(v: Any) -> Any:
    return tuple(_frozen(x) for x in v) if isinstance(v, (list, tuple)) else v


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
