"""The game engine: the API that the REPL, the simulator, bots and the fuzzer use.

A `State` is a value: an immutable tuple of slots (hashable, cheap to share) plus a cache
of its legal moves. A move is a tuple `(player, move_index, *args)`; `Game.move_text`
gives its stable text form (`build 3`, `shift column1 column4`, `play Q♠`).

Automatic steps and chance run inside `apply`, so every state a caller sees is either
terminal or waiting for a decision by one player (or, for a simultaneous choice, by each
player who has not chosen yet).
"""

from __future__ import annotations

import json
import linecache
import random
from collections.abc import Iterable, Sequence
from typing import Any

from ..cards import SUITS
from ..codegen import ENDED, MOVES, PC, PENDING, RNG, WHO, GameOver, Generated, namespace
from ..errors import NOSPAN, CardgameError, IllegalMove, RuleError
from ..lang import Checked

Move = tuple[Any, ...]
CONCEDED = "conceded by p"
_SUIT_LETTERS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}


class State:
    """An immutable game state. Equality and hash are over the slots only."""

    __slots__ = ("slots", "_legal", "_ended")

    def __init__(self, slots: tuple[Any, ...], legal: list[Move] | None = None) -> None:
        self.slots = slots
        self._legal = legal
        # why the game is over, once known (a state built by hand is settled lazily)
        self._ended: Any = slots[ENDED] if legal is not None else None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.slots == other.slots

    def __hash__(self) -> int:
        return hash(self.slots)

    def __repr__(self) -> str:
        return f"State(pc={self.slots[PC]}, moves={self.slots[MOVES]}, ended={self.slots[ENDED]!r})"


class Game:
    """A compiled game, for one choice of player count and options."""

    def __init__(self, checked: Checked, gen: Generated, source_id: str = "") -> None:
        self.checked = checked
        self.gen = gen
        self.name = checked.name
        self.path = checked.path
        self.players = checked.players
        self.options = dict(checked.options)
        self.source_id = source_id
        self.card_text = gen.card_text
        self.zone_text = {z.slot: z.text for z in gen.zone_slots}
        self.move_names = gen.move_names + ["pass"]
        self.move_param_types = gen.move_param_types + [[]]
        filename = f"<cardgame {checked.name}>"
        ns = namespace(checked, gen.spans, [z.slot for z in gen.zone_slots], self.zone_text,
                       gen.card_text, gen.node_span)
        code = compile(gen.source, filename, "exec")
        linecache.cache[filename] = (len(gen.source), None, gen.source.splitlines(True), filename)
        exec(code, ns)  # our generated code only: see codegen's module docstring
        self.ns = ns
        self._succ = ns["SUCC"]
        self._sim = ns["SIMULTANEOUS"]
        self._eff = ns["EFF"]
        self._score = ns["score"]
        self._won = ns["won"]
        self._setup = ns["setup"]
        self._step_settle = ns["step_settle"]
        self._gen_run = ns["run"]
        self._gen_settle = ns["settle"]
        self.invariants: list[tuple[str, Any]] = list(ns["INVARIANTS"])
        self.limit = checked.limit.count if checked.limit else 0  # declared move limit, 0: none
        # why a game ends, as end_reason() reports it: each end condition's, and the limit's
        self.limit_reason: str = ns["LIMIT_REASON"]
        self.end_reasons: list[str] = list(ns["END_REASONS"])
        self._ncards = len(checked.cards)
        self._zone_slots = [z.slot for z in gen.zone_slots]
        # who sees each zone slot: True (everyone), a seat (its owner only) or False (nobody)
        self._sees: dict[int, bool | int] = {}
        for z in gen.zone_slots:
            vis = checked.zones[z.decl].visibility
            self._sees[z.slot] = True if vis == "public" else (z.owner if vis == "owner" else False)

    # ------------------------------------------------------------------ fast core
    def _init_slots(self, seed: int) -> list[Any]:
        s: list[Any] = [None] * self.gen.nslots
        s[PC] = self.gen.entry
        s[RNG] = seed
        s[MOVES] = 0
        for z in self._zone_slots:
            s[z] = ()
        s[self.gen.zone_base["deck"]] = tuple(range(self._ncards))
        try:
            self._setup(s)
        except GameOver:  # pragma: no cover - the checker forbids 'end' in setup
            raise RuleError("the game ended during setup", rule="setup") from None
        except CardgameError:
            raise
        except Exception as e:  # a slip in a rule that the checks could not see
            raise RuleError(f"{type(e).__name__}: {e}", rule="setup") from None
        return s

    def _run(self, s: list[Any]) -> None:
        """Run automatic steps from the current node until a decision or the end."""
        try:
            self._gen_run(s, s[PC])
        except CardgameError:
            raise
        except Exception as e:  # a slip in a rule that the checks could not see
            raise RuleError(f"{type(e).__name__}: {e}",
                            self.gen.node_span.get(s[PC], NOSPAN), "flow") from None

    def _settle(self, s: list[Any]) -> list[Move]:
        """After the flow stopped: apply the limit and end conditions; return the legal moves.
        (The same generated code as the fast path, so the two cannot disagree.)"""
        try:
            legal: list[Move] = self._gen_settle(s)
        except CardgameError:
            raise
        except Exception as e:
            raise RuleError(f"{type(e).__name__}: {e}", rule="legal moves") from None
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
            order = {p: i for i, p in enumerate(s[WHO])}
            todo = sorted(pending, key=lambda mv: order[mv[0]])
        else:
            todo = [m]
            s[MOVES] += 1
        eff = self._eff
        try:
            for mv in todo:
                eff[mv[1]](s, mv)
        except GameOver:
            return
        except CardgameError:
            raise
        except Exception as e:
            raise RuleError(f"{type(e).__name__}: {e}",
                            rule=f"move {self.move_names[m[1]]}") from None
        s[PC] = self._succ[pc]
        self._run(s)

    def _start(self, seed: int) -> tuple[list[Any], list[Move]]:
        s = self._init_slots(seed)
        self._run(s)
        return s, self._settle(s)

    # ------------------------------------------------------------------ public API
    def new_state(self, seed: int = 0) -> State:
        s, legal = self._start(seed)
        return State(tuple(s), legal)

    def _ensure_settled(self, state: State) -> None:
        if state._legal is None:
            s = list(state.slots)
            state._legal = self._settle(s) if s[ENDED] is None else []
            state._ended = s[ENDED]

    def settle(self, state: State) -> State:
        """A state built by hand (from slots) with its limit and end conditions applied."""
        self._ensure_settled(state)
        if state._ended == state.slots[ENDED]:
            return state
        slots = list(state.slots)
        slots[ENDED] = state._ended
        return State(tuple(slots), [])

    def legal_moves(self, state: State, player: int | None = None) -> list[Move]:
        self._ensure_settled(state)
        assert state._legal is not None
        if player is None:
            return state._legal
        return [m for m in state._legal if m[0] == player]

    def apply(self, state: State, move: Move) -> State:
        """Apply a legal move; an illegal one raises IllegalMove with the reason."""
        move = tuple(move)
        legal = self.legal_moves(state)
        if move not in legal:
            raise IllegalMove(self.why_illegal(state, move))
        s = list(state.slots)
        self._step(s, move)
        legal = self._settle(s)  # may mark the end: settle before freezing
        return State(tuple(s), legal)

    def apply_with_events(self, state: State, move: Move) -> tuple[State, list[str]]:
        log: list[str] = []
        self.ns["LOG"] = log
        try:
            return self.apply(state, move), log
        finally:
            self.ns["LOG"] = None

    def start_with_events(self, seed: int) -> tuple[State, list[str]]:
        log: list[str] = []
        self.ns["LOG"] = log
        try:
            return self.new_state(seed), log
        finally:
            self.ns["LOG"] = None

    def concede(self, state: State, player: int) -> State:
        """The player gives up: the game ends, and that player loses."""
        if self.is_terminal(state):
            raise IllegalMove("the game is over")
        if not 1 <= player <= self.players:
            raise IllegalMove(f"there is no player {player}")
        slots = list(state.slots)
        slots[ENDED] = f"{CONCEDED}{player}"
        return State(tuple(slots), [])

    def conceded_by(self, state: State) -> int | None:
        r = state.slots[ENDED]
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
        return None if r is None else str(r)

    def to_move(self, state: State) -> tuple[int, ...]:
        """Who must decide now: one player, each player yet to choose, or nobody (the end)."""
        s = state.slots
        if self.is_terminal(state):
            return ()
        who = s[WHO]
        if s[PC] in self._sim:
            done = {m[0] for m in s[PENDING] or ()}
            return tuple(p for p in who if p not in done)
        return (who,)

    def phase(self, state: State) -> str:
        return self.gen.node_phase.get(state.slots[PC], "")

    def scores(self, state: State) -> list[int]:
        s = list(state.slots)
        return [self._score(s, p) for p in range(1, self.players + 1)]

    def results(self, state: State) -> list[str]:
        """'win', 'loss' or 'draw' (a shared first place) for each player; '' while playing."""
        if not self.is_terminal(state):
            return [""] * self.players
        s = list(state.slots)
        res = self.checked.result
        gave_up = self.conceded_by(state)
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
        s = list(state.slots)
        legal = self.legal_moves(state)
        bad = []
        for name, fn in self.invariants:
            try:
                ok = fn(s, legal)
            except CardgameError:
                ok = False
            if not ok:
                bad.append(name)
        return bad

    # ------------------------------------------------------------------ texts
    def arg_text(self, value: Any, typ: str) -> str:
        if typ == "card":
            return self.card_text[value]
        if typ == "player":
            return f"p{value}"
        if typ == "zone":
            return self.zone_text.get(value, str(value))
        if typ == "suit":
            return SUITS[value - 1]
        if typ == "bool":
            return "yes" if value else "no"
        return str(value)

    def move_text(self, move: Move) -> str:
        mid = move[1]
        types = self.move_param_types[mid]
        parts = [self.move_names[mid]]
        parts += [self.arg_text(a, t) for a, t in zip(move[2:], types, strict=False)]
        return " ".join(parts)

    def move_description(self, move: Move) -> str:
        mid = move[1]
        if mid >= len(self.checked.moves):
            return "pass"
        decl = self.checked.moves[self.move_names[mid]]
        text = decl.doc or self.move_text(move)
        types = self.move_param_types[mid]
        for p, a, t in zip(decl.params, move[2:], types, strict=False):
            text = text.replace("{" + p.name + "}", self.arg_text(a, t))
        return text

    def parse_move(self, state: State, text: str, player: int | None = None) -> Move:
        """The legal move whose text is `text` (suits may be written s h d c)."""
        want = _norm(text)
        legal = self.legal_moves(state, player)
        for m in legal:
            if _norm(self.move_text(m)) == want:
                return m
        names = {self.move_names[m[1]] for m in legal}
        word = want.split(" ")[0] if want else ""
        if word and word not in {_norm(n) for n in self.move_names}:
            raise IllegalMove(f"there is no move '{word}' in this game")
        if word and word not in {_norm(n) for n in names}:
            raise IllegalMove(f"'{word}' is not possible now (legal now: "
                              + ", ".join(sorted(names)) + ")" if names else "no move is possible")
        raise IllegalMove(f"'{text.strip()}' is not a legal move now")

    def why_illegal(self, state: State, move: Move) -> str:
        if self.is_terminal(state):
            return "the game is over"
        try:
            if not (0 <= move[1] < len(self.move_names)):
                return "unknown move"
            text = self.move_text(move)
        except (IndexError, TypeError, KeyError):
            return f"malformed move {move!r}"
        if move[0] not in self.to_move(state):
            return f"'{text}': it is not p{move[0]}'s decision"
        decl = self.checked.moves.get(self.move_names[move[1]])
        if decl is not None and decl.when is not None:
            return f"'{text}' is not legal now: its condition does not hold"
        return f"'{text}' is not legal now"

    # ------------------------------------------------------------------ views
    def sees(self, slot: int, seat: int | None) -> bool:
        """May this seat (None: a spectator) see the cards of this zone slot?"""
        return self._sees[slot] is True or (seat is not None and self._sees[slot] == seat)

    def visible_slots(self, seat: int | None) -> list[int]:
        return [z for z in self._zone_slots if self.sees(z, seat)]

    def hidden_slots(self, seat: int | None) -> list[int]:
        return [z for z in self._zone_slots if not self.sees(z, seat)]

    def view(self, state: State, player: int | None) -> dict[str, Any]:
        """What one seat may see (player None: a spectator who sees public cards only)."""
        s = state.slots
        zones: dict[str, Any] = {}
        for z in self.gen.zone_slots:
            cards = s[z.slot]
            zones[z.text] = ([self.card_text[c] for c in cards] if self.sees(z.slot, player)
                             else {"hidden": len(cards)})
        variables: dict[str, Any] = {}
        for v in self.checked.vars.values():
            base = self.gen.var_base[v.name]
            if v.dim is None:
                variables[v.name] = _jsonable(s[base])
            else:
                variables[v.name] = [_jsonable(s[base + i]) for i in range(v.dim[1])]
        pending = []
        if s[PC] in self._sim and s[PENDING] is not None:
            for m in s[PENDING]:
                pending.append({"player": m[0],
                                "move": self.move_text(m) if m[0] == player else "(chosen)"})
        return {
            "game": self.name,
            "zones": zones,
            "vars": variables,
            "to_move": list(self.to_move(state)),
            "phase": self.phase(state),
            "pending": pending,
            "ended": s[ENDED],
            "moves_played": s[MOVES],
        }

    # ------------------------------------------------------------------ JSON
    def to_json(self, state: State) -> str:
        return json.dumps({"format": "cardgame-state", "version": 1, "game": self.name,
                           "source": self.source_id, "players": self.players,
                           "options": self.options, "slots": _jsonable(state.slots)})

    def from_json(self, text: str) -> State:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise CardgameError(f"not a saved state: {e}") from None
        if not isinstance(data, dict) or data.get("format") != "cardgame-state":
            raise CardgameError("not a saved state (no 'cardgame-state' format marker)")
        if data.get("game") != self.name or data.get("players") != self.players:
            raise CardgameError(f"the state is of '{data.get('game')}' for "
                                f"{data.get('players')} players, not this game")
        slots = data.get("slots")
        if not isinstance(slots, list) or len(slots) != self.gen.nslots:
            raise CardgameError("the saved state does not fit this game (its layout differs)")
        t = _tuplify(slots)
        seen: list[int] = []
        for z in self._zone_slots:
            zone = t[z]
            if not isinstance(zone, tuple) or not all(
                    type(c) is int and 0 <= c < self._ncards for c in zone):
                raise CardgameError("the saved state has a broken zone")
            seen += zone
        if sorted(seen) != list(range(self._ncards)):
            raise CardgameError("the saved state loses or duplicates cards")
        return State(t)

    # ------------------------------------------------------------------ positions
    def card_id(self, text: str, exclude: set[int] | frozenset[int] = frozenset()) -> int:
        """A card by its text (`K♠`, `Ks`, `10h`, `7`); with duplicates, the first unused."""
        want = _norm(text)
        for cid, t in enumerate(self.card_text):
            if _norm(t) == want and cid not in exclude:
                return cid
        raise CardgameError(f"no card '{text}' in this deck (or every copy is used already)")

    def zone_slot(self, text: str) -> int:
        for slot, t in self.zone_text.items():
            if t == text:
                return slot
        raise CardgameError(f"no zone '{text}': zones are " + ", ".join(self.zone_text.values()))

    def make_state(self, zones: dict[str, Sequence[str]] | None = None,
                   vars: dict[str, Any] | None = None, seed: int = 0,
                   rest: str = "deck") -> State:
        """A position for a scenario test: start from the deal for `seed`, then give each
        named zone exactly the cards listed (bottom first; card texts such as `K♠` or `Ks`).
        Cards taken out of a named zone that are not placed again go to `rest`. `vars` sets
        variables (`{"chips": [3, 0, 1]}` for a per-player array). The flow stays at the
        decision it reached after setup: a choice the flow made from the deal (Arsène's
        lay_trump or show) is not made again for the cards placed here."""
        s = list(self.new_state(seed).slots)
        zones = zones or {}
        used: set[int] = set()
        placed: dict[int, tuple[int, ...]] = {}
        for ztext, cards in zones.items():
            slot = self.zone_slot(ztext)
            ids = []
            for c in cards:
                cid = self.card_id(c, used)
                used.add(cid)
                ids.append(cid)
            placed[slot] = tuple(ids)
        rest_slot = self.zone_slot(rest)
        for z in self._zone_slots:
            if z in placed:
                leftover = tuple(c for c in s[z] if c not in used)
                if z != rest_slot:
                    s[rest_slot] = s[rest_slot] + leftover
                s[z] = placed[z] if z != rest_slot else leftover + placed[z]
            else:
                s[z] = tuple(c for c in s[z] if c not in used)
        if rest_slot in placed:  # the cards named for `rest` stay on top of the others
            s[rest_slot] = tuple(c for c in s[rest_slot] if c not in placed[rest_slot]
                                 ) + placed[rest_slot]
        for name, value in (vars or {}).items():
            v = self.checked.vars.get(name)
            if v is None:
                raise CardgameError(f"no variable '{name}'")
            base = self.gen.var_base[name]
            if v.dim is None:
                s[base] = _tuplify(value)
            else:
                if len(value) != v.dim[1]:
                    raise CardgameError(f"'{name}' has {v.dim[1]} elements, given {len(value)}")
                for i, x in enumerate(value):
                    s[base + i] = _tuplify(x)
        legal = self._settle(s)  # may mark the end: settle before freezing
        return State(tuple(s), legal)

    def zone_cards(self, state: State, zone: str) -> list[str]:
        """The cards of a zone as texts, bottom first (tests and tools; sees everything)."""
        return [self.card_text[c] for c in state.slots[self.zone_slot(zone)]]

    def var(self, state: State, name: str) -> Any:
        v = self.checked.vars[name]
        base = self.gen.var_base[name]
        if v.dim is None:
            return state.slots[base]
        return [state.slots[base + i] for i in range(v.dim[1])]

    def legal_texts(self, state: State, player: int | None = None) -> list[str]:
        return [self.move_text(m) for m in self.legal_moves(state, player)]

    def apply_text(self, state: State, text: str, player: int | None = None) -> State:
        return self.apply(state, self.parse_move(state, text, player))

    # ------------------------------------------------------------------ replay
    def replay(self, seed: int, moves: Iterable[Move]) -> State:
        state = self.new_state(seed)
        for m in moves:
            state = self.apply(state, tuple(m))
        return state

    # ------------------------------------------------------------------ playouts
    def random_playout(self, seed: int, rng: random.Random,
                       max_moves: int = 1_000_000) -> tuple[list[Any], int]:
        """Play uniformly random legal moves on a mutable state; return it and the move count."""
        s, legal = self._start(seed)
        n = 0
        sim = self._sim
        fast = self._step_settle
        step = self._step
        settle = self._settle
        randrange = rng.randrange
        m: Move = ()
        try:
            if not sim:
                while legal and n < max_moves:
                    m = legal[randrange(len(legal))]
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
        except CardgameError:
            raise
        except Exception as e:  # a slip in a rule the checks could not see
            what = f"move {self.move_names[m[1]]} or the flow after it" if m else "setup"
            raise RuleError(f"{type(e).__name__}: {e}", rule=what) from None
        return s, n

    def final_state(self, s: Sequence[Any]) -> State:
        return State(tuple(s))


def _norm(text: str) -> str:
    t = " ".join(text.strip().lower().split())
    for sym, letter in _SUIT_LETTERS.items():
        t = t.replace(sym, letter)
    return t


def _jsonable(v: Any) -> Any:
    if isinstance(v, (tuple, list)):
        return [_jsonable(x) for x in v]
    return v


def _tuplify(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_tuplify(x) for x in v)
    return v
