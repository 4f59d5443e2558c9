"""Run a game's `example` blocks (docs/testing.md): set up each position, play its moves,
and check each expectation, as a rules sheet's worked examples would be checked by hand.

An example starts from the deal of the game's first seed, under the players and options it
names (else the game's defaults, or the settings of the `Game` given). Its lines run in
order:

- a piece of the position (`hand[p1] has 7♣ K♥`, `hand[p1] is ...`, `top of stock is Q♠`)
  moves the named cards there. A zone keeps its size when it can: a named card changes
  places with one of the zone's cards that no line named, so every card stays in exactly
  one place. A zone with no such card grows, and the zone the card left shrinks. The
  cards a `ZONE is ...` line leaves out go where its new cards came from, else on top of
  the deck. Cards named by earlier lines stay where they were put;
- `set VAR = EXPR`, `P to move` change a variable and who decides (the flow stays where it
  is: a choice the flow made from the deal is not made again);
- `P plays "MOVE"` plays a move as the prompt takes it;
- `expect ...` states what must hold. A failed expectation is reported and the example
  goes on; a line that cannot set up its position, or a move that cannot be played,
  stops the example there.

What a seat sees is asked of `observe`, never read from the state. Every failure is one
line: `file:line: expected ..., got ...`; a deal that fails (a rule error before the
example's first line) is the one failure of the example, with the rule's source line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from ..cards import normalize
from ..engine import Game, Position, Probes, State, compile_game
from ..errors import CardgameError, RuleError, Span
from ..lang import ast as A
from ..lang import effective_settings
from ..observe import view

_COMPARE = ("==", "!=", "<", "<=", ">", ">=", "in", "notin")
_RESULT = {"wins": "win", "loses": "loss", "draws": "draw", "pushes": "push"}


@attrs.define
class ExampleOutcome:
    """One example's run: its name, where it is declared, and its failures (each one line,
    `file:line: expected ..., got ...`)."""

    name: str
    span: Span
    failures: list[str] = attrs.Factory(list)

    @property
    def ok(self) -> bool:
        return not self.failures


class _Stop(Exception):
    """A line that cannot set up its position or play its move: the example stops."""


def run_examples(game: str | Path | Game) -> list[ExampleOutcome]:
    """Run every example of a game: a bundled name, a path, or a compiled `Game` (compiled
    again for the examples that need other players or options). An example runs under
    the players and options it names, else the game's defaults."""
    base = game if isinstance(game, Game) else compile_game(game)
    return [run_example(base, ex) for ex in base.checked.examples]


def game_for(base: Game, ex: A.ExampleDecl) -> tuple[Game, A.ExampleDecl]:
    """The game compiled with the example's players and options, and the example as that
    program checked it (its expressions typed there)."""
    c = base.checked
    pdecl = A.PlayersDecl(c.player_range[0], c.player_range[1], c.players_default)
    players, options = effective_settings(ex, pdecl, c.option_decls)
    if (players, options) == (base.players, base.options):
        return base, ex
    settings = {k: _setting(v) for k, v in options.items()}
    g = compile_game(base.checked.path, players, settings)
    for e in g.checked.examples:
        if e.name == ex.name:
            return g, e
    raise CardgameError(f"example '{ex.name}' is not in the game compiled for it")


def _setting(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def run_example(base: Game, ex: A.ExampleDecl) -> ExampleOutcome:
    out = ExampleOutcome(ex.name, ex.span)
    try:
        g, ex = game_for(base, ex)
    except CardgameError as e:  # the game does not compile with the example's settings
        out.failures.append(f"{_where(ex.span)}: the game does not compile for this "
                            f"example: {e}")
        return out
    errors = g.checked.example_errors.get(ex.name)
    if errors:
        out.failures.append(f"{_where(ex.span)}: this example does not fit the game (remove "
                            f"it in the variant: remove example \"{ex.name}\"):\n"
                            + "\n".join(errors))
        return out
    try:
        run = _Run(g, ex, out)
    except RuleError as e:  # the deal itself fails: no line of the example can run
        out.failures.append(f"{_where(ex.span)}: the deal fails, so no line of the example "
                            f"runs:\n" + rule_error_text(g, e))
        return out
    try:
        run.all()
    except _Stop as e:
        out.failures.append(f"{e} (the rest of the example is not run)")
    return out


def rule_error_text(g: Game, e: RuleError) -> str:
    """A rule error as a diagnostic: `file:line:col: error: rule error ...`, the rule's
    source line and a caret under the part that failed."""
    return e.diagnostic(g.checked.sources.get(e.span.file)).format()


def _where(span: Span) -> str:
    return f"{Path(span.file).name}:{span.line}"


def _exprs(ex: A.ExampleDecl) -> list[A.Expr]:
    """Every expression an example reads, in order: targets, values, and the two sides of
    an expected comparison (to say what each side was)."""
    out: list[A.Expr] = []
    for st in ex.steps:
        for e in (st.target, st.expr):
            if e is None:
                continue
            if st.kind == "is" and isinstance(e, A.Unary) and e.op in ("top", "bottom"):
                e = e.operand  # the zone whose end the card goes to
            out.append(e)
            if st.kind == "set" and e is st.target and isinstance(e, A.Index):
                out.append(e.index)
            if st.kind == "expect":
                for part in A.conjuncts(e):
                    if part is not e:
                        out.append(part)
                    if isinstance(part, A.Binary) and part.op in _COMPARE:
                        out += [part.left, part.right]
    return out


class _Run:
    def __init__(self, g: Game, ex: A.ExampleDecl, out: ExampleOutcome) -> None:
        self.g = g
        self.ex = ex
        self.out = out
        exprs = _exprs(ex)
        self.at = {id(e): i for i, e in enumerate(exprs)}
        self.probes = Probes(g, exprs, f"example {ex.name}")
        self.state: State = g.new_state(0)
        self.pinned: dict[int, str] = {}  # card id -> the zone a line put it in

    # ------------------------------------------------------------------ helpers
    def value(self, e: A.Expr | None, st: A.ExStep) -> Any:
        assert e is not None
        try:
            return self.probes.value(self.state, self.at[id(e)])
        except CardgameError as err:
            raise _Stop(f"{_where(st.span)}: reading '{self.src(e)}' fails: {err}") from None

    def text(self, e: A.Expr) -> str:
        return self.probes.text(self.state, self.at[id(e)])

    def src(self, e: A.Expr) -> str:
        return self.g.source_text(e.span)

    def fail(self, st: A.ExStep, msg: str) -> None:
        self.out.failures.append(f"{_where(st.span)}: {msg}")

    def seat(self, st: A.ExStep) -> int:
        p = self.value(st.target, st)
        if not isinstance(p, int) or not 1 <= p <= self.g.players:
            raise _Stop(f"{_where(st.span)}: there is no player {p}")
        return p

    # ------------------------------------------------------------------ the lines
    def all(self) -> None:
        for st in self.ex.steps:
            getattr(self, "s_" + st.kind)(st)

    def s_players(self, st: A.ExStep) -> None:
        pass  # the game was compiled for it

    s_option = s_players

    def s_has(self, st: A.ExStep) -> None:
        self.place(st, self.value(st.target, st), st.cards, exact=False)

    def s_is(self, st: A.ExStep) -> None:
        t = st.target
        if isinstance(t, A.Unary) and t.op in ("top", "bottom"):
            self.place_end(st, self.value(t.operand, st), st.cards[0], t.op == "top")
        else:
            self.place(st, self.value(t, st), st.cards, exact=True)

    def s_set(self, st: A.ExStep) -> None:
        t = st.target
        value = self.value(st.expr, st)
        if isinstance(t, A.Index):
            assert isinstance(t.obj, A.Name)
            name = f"{t.obj.name}[{self.value(t.index, st)}]"
        else:
            assert isinstance(t, A.Name)
            name = t.name
        self.position(st, lambda pos: pos.var(name, value))

    def s_to_move(self, st: A.ExStep) -> None:
        p = self.seat(st)
        self.position(st, lambda pos: pos.to_move(p))

    def s_play(self, st: A.ExStep) -> None:
        g, p = self.g, self.seat(st)
        if g.is_terminal(self.state):
            raise _Stop(f'{_where(st.span)}: p{p} cannot play "{st.text}": the game is over '
                        f"({g.end_reason(self.state)})")
        who = g.to_move(self.state)
        if p not in who:
            raise _Stop(f'{_where(st.span)}: expected p{p} to play "{st.text}", got '
                        f"{_seats(who)} to move")
        try:
            move = g.parse_move(self.state, st.text, p)
            self.state = g.apply(self.state, move)
        except CardgameError as e:
            raise _Stop(f'{_where(st.span)}: p{p} cannot play "{st.text}": {e}') from None

    # ------------------------------------------------------------------ expectations
    def s_expect(self, st: A.ExStep) -> None:
        e = st.expr
        assert e is not None
        try:
            ok = self.probes.value(self.state, self.at[id(e)])
        except CardgameError as err:
            self.fail(st, f"expected {self.src(e)}, got an error: {err}")
            return
        if ok:
            return
        # the first part of an `and` that fails, and what each side of it was
        part = e
        for c in A.conjuncts(e):
            try:
                if not self.probes.value(self.state, self.at[id(c)]):
                    part = c
                    break
            except CardgameError:
                part = c
                break
        got = []
        if isinstance(part, A.Binary) and part.op in _COMPARE:
            for side in (part.left, part.right):
                if not isinstance(side, (A.Int, A.Bool, A.NoneLit)):
                    # a side that reads as its own value (a suit: `diamonds`) says nothing:
                    # "got trump is clubs", not "..., diamonds is diamonds"
                    shown = self.text(side)
                    if shown != self.src(side):
                        got.append(f"{self.src(side)} is {shown}")
        what = ", ".join(got) if got else f"{self.src(part)} is {self.text(part)}"
        self.fail(st, f"expected {self.src(part)}, got {what}")

    def s_expect_has(self, st: A.ExStep) -> None:
        zone = self.value(st.target, st)
        held = [self.g.card_text[c] for c in self.g.zone_ids(self.state, zone)]
        missing = [c for c in st.cards if not any(_same(c, h) for h in held)]
        if missing:
            self.fail(st, f"expected {self.src_of(st)} to hold {' '.join(missing)}, got "
                          f"{_cards(held)}")

    def s_expect_has_no(self, st: A.ExStep) -> None:
        zone = self.value(st.target, st)
        held = [self.g.card_text[c] for c in self.g.zone_ids(self.state, zone)]
        there = [c for c in st.cards if any(_same(c, h) for h in held)]
        if there:
            self.fail(st, f"expected {self.src_of(st)} not to hold {' '.join(there)}, got "
                          f"{_cards(held)}")

    def src_of(self, st: A.ExStep) -> str:
        assert st.target is not None
        return self.src(st.target)

    def _refusal(self, p: int, text: str) -> str | None:
        """Why p may not play `text` now, or None when it is legal."""
        g = self.g
        if g.is_terminal(self.state):
            return f"the game is over ({g.end_reason(self.state)})"
        try:
            g.parse_move(self.state, text, p)
        except CardgameError as e:
            return str(e)
        return None

    def s_can_play(self, st: A.ExStep) -> None:
        p = self.seat(st)
        why = self._refusal(p, st.text)
        if why is not None:
            self.fail(st, f'expected p{p} can play "{st.text}", got refused: {why}')

    def s_cannot_play(self, st: A.ExStep) -> None:
        p = self.seat(st)
        why = self._refusal(p, st.text)
        if why is None:
            self.fail(st, f'expected p{p} cannot play "{st.text}", got a legal move')
        elif st.reason and normalize_text(st.reason) not in normalize_text(why):
            self.fail(st, f'expected "{st.text}" refused because "{st.reason}", got: {why}')

    def _sees(self, st: A.ExStep) -> tuple[int, str, bool]:
        p = self.seat(st)
        zone = self.value(st.expr, st)
        shown = view(self.g, self.state, p)["zones"].get(zone)
        return p, zone, not isinstance(shown, dict)

    def s_can_see(self, st: A.ExStep) -> None:
        p, zone, sees = self._sees(st)
        assert st.expr is not None
        if not sees:
            self.fail(st, f"expected p{p} can see {self.src(st.expr)}, got only its size")

    def s_cannot_see(self, st: A.ExStep) -> None:
        p, zone, sees = self._sees(st)
        assert st.expr is not None
        if sees:
            held = self.g.zone_cards(self.state, zone)
            self.fail(st, f"expected p{p} cannot see {self.src(st.expr)}, got p{p} sees "
                          f"{_cards(held)}")

    def s_expect_to_move(self, st: A.ExStep) -> None:
        p = self.seat(st)
        who = self.g.to_move(self.state)
        if p not in who:
            got = (f"the game over ({self.g.end_reason(self.state)})"
                   if self.g.is_terminal(self.state) else f"{_seats(who)} to move")
            self.fail(st, f"expected p{p} to move, got {got}")

    def s_result(self, st: A.ExStep) -> None:
        p = self.seat(st)
        g = self.g
        if not g.is_terminal(self.state):
            self.fail(st, f"expected p{p} {st.text}, got the game still going")
            return
        got = g.results(self.state)[p - 1]
        if got != _RESULT[st.text]:
            words = {v: k for k, v in _RESULT.items()}
            self.fail(st, f"expected p{p} {st.text}, got p{p} {words.get(got, got)} "
                          f"(scores {g.scores(self.state)})")

    def s_scores(self, st: A.ExStep) -> None:
        p = self.seat(st)
        want = self.value(st.expr, st)
        got = self.g.scores(self.state)[p - 1]
        if got != want:
            self.fail(st, f"expected p{p} scores {want}, got {got}")

    def s_over(self, st: A.ExStep) -> None:
        g = self.g
        if not g.is_terminal(self.state):
            self.fail(st, f"expected the game over, got {_seats(g.to_move(self.state))} to move")
            return
        reason = g.end_reason(self.state) or ""
        if st.reason and normalize_text(st.reason) not in normalize_text(reason):
            self.fail(st, f'expected the game over because "{st.reason}", got: {reason}')

    def s_not_over(self, st: A.ExStep) -> None:
        if self.g.is_terminal(self.state):
            self.fail(st, f"expected the game still going, got the game over "
                          f"({self.g.end_reason(self.state)})")

    # ------------------------------------------------------------------ the position
    def position(self, st: A.ExStep, change: Any) -> None:
        try:
            pos = Position(self.g, self.state)
            change(pos)
            self.state = pos.state()
        except CardgameError as e:
            raise _Stop(f"{_where(st.span)}: {e}") from None

    def card(self, st: A.ExStep, text: str, zones: dict[str, list[int]], zone: str,
             taken: set[int]) -> int:
        """The id of the card `text`: among copies, one already in `zone`, else one no
        line placed."""
        where = {c: z for z, ids in zones.items() for c in ids}
        copies = []
        exclude: set[int] = set()
        while True:
            try:
                cid = self.g.card_id(text, exclude)
            except CardgameError:
                break
            copies.append(cid)
            exclude.add(cid)
        if not copies:
            raise _Stop(f"{_where(st.span)}: there is no card '{text}' in this deck")
        free = [c for c in copies if c not in taken]
        for c in free:
            if where.get(c) == zone and (c not in self.pinned or self.pinned[c] == zone):
                return c
        # identical copies: the one from the fullest zone (a stock, not a row of singles)
        others = sorted((c for c in free if c not in self.pinned),
                        key=lambda c: -len(zones.get(where.get(c, ""), ())))
        if others:
            return others[0]
        placed = self.pinned.get(copies[0], "")
        raise _Stop(f"{_where(st.span)}: {text} is already placed in {placed} by an earlier line")

    def place(self, st: A.ExStep, zone: str, cards: tuple[str, ...], exact: bool) -> None:
        zones = {z: list(ids) for z, ids in self.g.zone_contents(self.state).items()}
        taken: set[int] = set()
        want = []
        for text in cards:
            cid = self.card(st, text, zones, zone, taken)
            taken.add(cid)
            want.append(cid)
        sources: list[str] = []  # zones that gave a card and got none back
        for cid in want:
            src = next(z for z, ids in zones.items() if cid in ids)
            if src == zone:
                continue
            spare = [d for d in reversed(zones[zone])
                     if d not in taken and d not in self.pinned]
            i = zones[src].index(cid)
            if spare:
                d = spare[0]
                zones[src][i] = d
                zones[zone][zones[zone].index(d)] = cid
            else:
                del zones[src][i]
                zones[zone].append(cid)
                sources.append(src)
        if exact:
            left = [d for d in zones[zone] if d not in taken]
            for d in left:
                if d in self.pinned:
                    raise _Stop(f"{_where(st.span)}: {self.g.card_text[d]} was placed in "
                                f"{zone} by an earlier line")
                home = sources.pop(0) if sources else "deck"
                zones[home].append(d)
            zones[zone] = list(want)
        for cid in want:
            self.pinned[cid] = zone
        # the cards named lie with the zone's face (faces belong to the places otherwise)
        self.position(st, lambda pos: pos.rearrange(zones).faces(pos.turned() - set(want)))

    def place_end(self, st: A.ExStep, zone: str, text: str, top: bool) -> None:
        zones = {z: list(ids) for z, ids in self.g.zone_contents(self.state).items()}
        cid = self.card(st, text, zones, zone, set())
        here = zones[zone]
        src = next(z for z, ids in zones.items() if cid in ids)
        end = len(here) - 1 if top else 0
        if src == zone:
            here.remove(cid)
            here.insert(len(here) if top else 0, cid)
        elif not here:
            zones[src].remove(cid)
            here.append(cid)
        else:
            d = here[end]
            if d in self.pinned:
                raise _Stop(f"{_where(st.span)}: {self.g.card_text[d]} was placed there by "
                            "an earlier line")
            zones[src][zones[src].index(cid)] = d
            here[end] = cid
        self.pinned[cid] = zone
        self.position(st, lambda pos: pos.rearrange(zones).faces(pos.turned() - {cid}))


def normalize_text(s: str) -> str:
    """A reason as compared: case, spaces and suit spellings aside."""
    return normalize(s)


def _same(typed: str, card: str) -> bool:
    return normalize(typed) == normalize(card)


def _cards(texts: list[str]) -> str:
    return " ".join(texts) if texts else "nothing"


def _seats(who: tuple[int, ...]) -> str:
    return " and ".join(f"p{p}" for p in who) if who else "nobody"
