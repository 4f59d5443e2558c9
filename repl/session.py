"""The game being played at the terminal, without any terminal I/O.

A `Session` holds one game: its seats (the person's and the bots'), every step played
(the state before and after, who played it), the undo/redo stacks and whether the
game was saved. `ReplayView` steps through a replay file. The application in `app`
turns input lines into calls on these and draws `table()`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import attrs
from cardgame.interpreter.bots import (
    BOTS,
    Bot,
    GreedyBot,
    MctsBot,
    best_bot_for,
    choose_move,
    make_bot,
    unknown_bot,
)
from cardgame.interpreter.engine import Event, Game, Move, State
from cardgame.interpreter.engine import replay as replay_mod
from cardgame.interpreter.errors import CardgameError, IllegalMove, LogFailure, RuleError
from cardgame.interpreter.observe import (
    BACK,
    Record,
    card_args,
    determinize,
    observe_step,
    secret_choice,
    shown_cards,
    visible_cards,
)
from cardgame.interpreter.terminal import sanitize

from .layout import card_key, sort_keys
from .render import EVENTS_SHOWN, TableInfo

AUTO_LIMIT = 10_000  # auto-play stops after this many moves in a row
MOVED_SHOWN = 3  # a move that moves more cards (a whole trick) names none of them
HINT_WORLDS = 6  # worlds the hint tries each move in, to avoid a move that loses at once
HINT_ITERATIONS = 300  # the hint's search budget: about a second, and the same hint each time


class CommandError(CardgameError):
    """A command that cannot be carried out; shown as one line."""


def _log_errors(events: Sequence[Event]) -> list[RuleError]:
    """The rule errors of the failed parts of the log lines among `events`."""
    return [p.error for e in events if e.kind == "log" for p in e.parts
            if isinstance(p, LogFailure)]


@attrs.define
class Step:
    before: State
    move: Move
    after: State
    events: list[str]
    by: str  # "you" (typed by the person), "auto" (a forced move of the person's), "bot"
    observed: tuple[Event, ...] = ()  # the step's events (engine), as each seat sees them: observe
    # the bot that chose it (its name), "" when not known: a step keeps its label when
    # `set bots` changes the bots, and a loaded save's moves name no bot (a save does
    # not record which bot made them)
    bot: str = ""


@attrs.frozen
class Concession:
    """The person gave up: `seat` conceded, and the game ended in `after`.

    A concession is not a move: it is never saved, and undo takes it back first."""

    seat: int
    after: State


def _retells(event: str, player: int, desc: str) -> bool:
    """Is a log line the move's own line again, told in the third person (`p2 takes the
    trick` after `p2: take the trick`)? Then it is not shown twice."""
    who, _, rest = event.partition(" ")
    if who.lower() != f"p{player}":
        return False
    said = rest.split(" ", 1)[1:]  # without the verb: "takes" / "take"
    told = desc.split(" ", 1)[1:]
    return bool(said) and said == told


def hint_moves(game: Game, state: State, seat: int, seed: int,
               iterations: int = HINT_ITERATIONS,
               record: Record | None = None) -> tuple[str, list[Move]]:
    """The hint's bot, as the person reads it ("ismcts, 300 iterations"), and the seat's
    legal moves in its order of preference. The strongest bot that fits the game
    (`best_bot_for`) searches from what the seat knows only (worlds consistent with its
    observation history when the game's `record` is given, else with its view), so the
    same seat's observations with other hidden cards give the same order."""
    name = best_bot_for(game)
    label = f"{name}, {iterations:,} iterations"
    if record is not None:
        bot = make_bot(f"{name}:{iterations}", seed)
        assert isinstance(bot, MctsBot)
        try:
            return label, bot.ranked(game, state, seat, record)
        except ValueError:
            pass  # a record that does not lead to `state`: the present view
    bot = make_bot(f"{name}:{iterations}", seed)
    assert isinstance(bot, MctsBot)
    return label, bot.ranked(game, state, seat)


def bot_seed(seed: int, player: int) -> int:
    return random.Random(f"bot:{seed}:{player}").getrandbits(32)


def _safe(text: str) -> str:
    """A text from a save (a game's path, a move's text), or an error quoting one, for a
    note: on one line, every unsafe character shown as an escape."""
    return sanitize(text, newlines=False)


def bot_names(bots: str, players: int) -> dict[int, str]:
    """Each seat's bot from `--bots` (or `set bots`): one name for every seat, or a
    comma-separated name per seat, as `simulate --bots` takes them (the entry of a seat
    a person plays is not used)."""
    names = [n.strip() for n in bots.split(",")]
    for n in names:
        if n not in BOTS:
            raise CommandError(unknown_bot(n, sanitize(n, newlines=False)))
    if len(names) == 1:
        return dict.fromkeys(range(1, players + 1), names[0])
    if len(names) != players:
        raise CommandError(f"{len(names)} bots named for {players} seats: give one bot name, "
                           f"or one per seat: {players} names for {players} seats (the "
                           "entries of the seats you play are not used)")
    return dict(enumerate(names, 1))


def check_seats(seats: Sequence[int] | None, players: int) -> tuple[int, ...]:
    if not seats:
        return (1,)
    bad = [s for s in seats if not 1 <= s <= players]
    if bad:
        raise CommandError(f"seat {bad[0]} does not exist: this game has seats 1 to {players}"
                           if players > 1 else f"seat {bad[0]} does not exist: "
                           "this is a one-player game (seat 1)")
    return tuple(sorted(set(seats)))


class Session:
    def __init__(self, game: Game, game_ref: str, seed: int,
                 settings: dict[str, str] | None = None, seats: Sequence[int] | None = None,
                 bots: str = "greedy", auto: bool = True) -> None:
        self.bot_names = bot_names(bots, game.players)
        self.game = game
        self.game_ref = game_ref
        self.settings = dict(settings or {})
        self.seats = check_seats(seats, game.players)
        self.bot_name = bots
        self.auto = auto
        self.spectator = False  # replay mode: seats are named p1, p2... never "you"
        self.circling = False  # the last auto-play stopped at a repeated position
        self._begin(seed)

    # ------------------------------------------------------------------ life cycle
    def _begin(self, seed: int) -> None:
        self.seed = seed
        self.start, self.start_observed = self.game.start_observed(seed)
        # the rule errors of log lines not yet shown (each line shows a marker in place of
        # the failed part; the REPL names the error, with its place, once)
        self.log_errors: list[RuleError] = _log_errors(self.start_observed)
        self.start_events = [self.game.log_text(e) for e in self.start_observed if e.kind == "log"]
        self.steps: list[Step] = []
        self.conceded: Concession | None = None
        self.redo_stack: list[list[Step] | Concession] = []
        self.dirty = False
        self.bots: dict[int, Bot] = {
            p: make_bot(self.bot_names[p], bot_seed(seed, p))
            for p in range(1, self.game.players + 1) if p not in self.seats}

    def new(self, seed: int | None = None) -> int:
        seed = random.randrange(2**31) if seed is None else seed
        self._begin(seed)
        return seed

    def restart(self) -> None:
        self._begin(self.seed)

    def set_bots(self, name: str) -> None:
        """One bot for every seat, or one per seat (`bot_names`)."""
        self.bot_names = bot_names(name, self.game.players)
        self.bot_name = name
        self.bots = {p: make_bot(self.bot_names[p], bot_seed(self.seed, p) + len(self.steps))
                     for p in self.bots}

    # ------------------------------------------------------------------ queries
    @property
    def state(self) -> State:
        if self.conceded is not None:
            return self.conceded.after
        return self.steps[-1].after if self.steps else self.start

    @property
    def over(self) -> bool:
        return self.game.is_terminal(self.state)

    @property
    def solo(self) -> bool:
        return self.game.players == 1

    def person_to_move(self) -> int | None:
        for p in self.game.to_move(self.state):
            if p in self.seats:
                return p
        return None

    def bot_to_move(self) -> int | None:
        for p in self.game.to_move(self.state):
            if p not in self.seats:
                return p
        return None

    @property
    def viewer(self) -> int:
        """The seat whose view is drawn: the person's seat that decides now, else their first."""
        return self.person_to_move() or self.seats[0]

    def my_moves(self) -> list[Move]:
        p = self.person_to_move()
        if p is None or self.bot_to_move() is not None:
            return []  # the bots at a simultaneous choice choose first
        return self._in_table_order(self.game.legal_moves(self.state, p), p)

    def _in_table_order(self, moves: list[Move], seat: int) -> list[Move]:
        """The moves of each kind in the order the table shows the cards they name: the
        hand K♠ 3♥ J♥ lists `play K♠`, `play 3♥`, `play J♥` (the engine's order followed
        the deck's). The kinds keep their order; a move that names no card the seat can
        see keeps its place after those that do (a face-down pile's order is not told).
        The list is what `play N` numbers, so N is always the N shown."""
        game = self.game
        seen = visible_cards(game, self.state, seat)
        cards = {c.id: c for c in game.checked.cards}
        place: dict[int, tuple[int, int]] = {}
        decl = {z.name: z.decl for z in game.zones}
        for z, (name, ids) in enumerate(game.zone_contents(self.state).items()):
            # sorted as the table sorts it: a hand by suit and rank unless the table
            # says otherwise
            keys = sort_keys(game, decl[name])
            shown = sorted(ids, key=lambda c: card_key(cards[c], keys)) if keys else ids
            place.update((c, (z, i)) for i, c in enumerate(shown) if c in seen)
        kinds: dict[int, int] = {}
        for m in moves:
            kinds.setdefault(m[1], len(kinds))

        def key(im: tuple[int, Move]) -> tuple[Any, ...]:
            i, m = im
            types = game.move_param_types[m[1]]
            where = []
            for a, t in zip(m[2:], types, strict=False):
                cards = (a,) if t == "card" else tuple(a) if t == "list:card" else ()
                where += [place.get(c, (len(place) + 1, 0)) for c in cards]
            return kinds[m[1]], not where or (len(place) + 1, 0) in where, where, i

        return [m for _, m in sorted(enumerate(moves), key=key)]

    def my_move_texts(self) -> list[tuple[str, str]]:
        return [(self.game.move_text(m), self.game.move_description(m, viewer=m[0]))
                for m in self.my_moves()]

    def labels(self) -> dict[int, str]:
        return {p: "you" if p in self.seats else f"{self.bot_names[p]} bot"
                for p in range(1, self.game.players + 1)}

    def who(self, player: int) -> str:
        if self.spectator:
            return f"p{player}"
        if player in self.seats:
            return "you" if len(self.seats) == 1 else f"p{player} (you)"
        return f"p{player} ({self.bot_names[player]} bot)"

    def scores_text(self) -> str:
        sc = self.game.scores(self.state)
        if self.solo:
            return str(sc[0])
        return " ".join(f"p{p}:{s}" for p, s in enumerate(sc, 1))

    # ------------------------------------------------------------------ playing
    def play(self, move: Move, by: str = "you", bot: str = "") -> Step:
        before = self.state
        after, observed = self.game.apply_observed(before, move)
        events = [self.game.log_text(e) for e in observed if e.kind == "log"]
        step = Step(before, tuple(move), after, events, by, observed, bot)
        self.log_errors += _log_errors(observed)
        self.steps.append(step)
        self.redo_stack.clear()
        if by == "you" or by == "auto":
            self.dirty = True
        return step

    def parse(self, text: str) -> Move:
        """A move of the person's from its number in the list or its text."""
        p = self.person_to_move()
        if self.over:
            raise IllegalMove("the game is over (new, restart or undo)")
        if p is None:
            raise IllegalMove("it is not your turn" + (
                " (press Enter to let the bots play)" if not self.auto else ""))
        moves = self.my_moves()
        if not moves:
            raise IllegalMove("it is not your turn yet: the bots choose first")
        t = text.strip()
        if t.isdigit():
            n = int(t)
            if not 1 <= n <= len(moves):
                limit = f"choose 1 to {len(moves)}" if len(moves) > 1 else "the only move is 1"
                raise IllegalMove(f"there is no move {n}: {limit}")
            return moves[n - 1]
        try:
            return self.game.parse_move(self.state, t, p)
        except IllegalMove:
            unseen = self._unseen_named(t, p) if self.game.uses_faces else []
            if unseen:  # why it is refused could tell where a face-down card lies
                raise IllegalMove(f"{t}: you cannot see {', '.join(unseen)}: a move names "
                                  "only cards you see") from None
            raise

    def _unseen_named(self, text: str, p: int) -> list[str]:
        """The cards a typed move names that seat `p` cannot see now."""
        seen = visible_cards(self.game, self.state, p)
        out = []
        for word in text.split()[1:]:
            try:
                c = self.game.card_id(word)
            except CardgameError:
                continue
            if c not in seen:
                out.append(self.game.card_text[c])
        return out

    def pending_auto(self) -> tuple[int, str] | None:
        """The next move that is not the person's free choice: (player, 'bot'|'auto')."""
        if self.over:
            return None
        b = self.bot_to_move()
        if b is not None:
            return b, "bot"
        p = self.person_to_move()
        if p is not None and len(self.game.legal_moves(self.state, p)) == 1:
            return p, "auto"
        return None

    def step_once(self) -> Step | None:
        nxt = self.pending_auto()
        if nxt is None:
            return None
        player, by = nxt
        if not self.game.legal_moves(self.state, player):
            return None  # a dead end in the rules: nobody can move and the game did not end
        if by == "bot":
            # (given the deal and the moves: a search bot's worlds follow the seat's history)
            move = choose_move(self.bots[player], self.game, self.state, player, self.seed,
                               [s.move for s in self.steps])
        else:
            move = self.game.legal_moves(self.state, player)[0]
        return self.play(move, by, self.bot_names[player] if by == "bot" else "")

    def advance(self) -> list[Step]:
        """With auto on: play bot moves and the person's forced moves until a real choice.

        Auto-play stops early (`self.circling` set) when a position comes back: forced moves
        going round in circles would otherwise run on to the game's move limit unseen."""
        done: list[Step] = []
        self.circling = False
        seen = {self.game.position_key(self.state)}
        while self.auto and len(done) < AUTO_LIMIT:
            st = self.step_once()
            if st is None:
                break
            done.append(st)
            key = self.game.position_key(st.after)
            if key in seen:
                self.circling = True
                break
            seen.add(key)
        return done

    def stuck(self) -> bool:
        return not self.over and not self.game.legal_moves(self.state)

    def concede(self) -> int:
        """The person gives up: the game ends and their seat loses. Returns the seat.

        The seat is the one that decides now, else the person's first; with several seats
        of the person's, that one seat concedes. Undo takes the concession back."""
        if self.over:
            raise IllegalMove("the game is over (new, restart or undo)")
        seat = self.viewer
        self.conceded = Concession(seat, self.game.concede(self.state, seat))
        self.redo_stack.clear()
        return seat

    # ------------------------------------------------------------------ undo / redo
    def undo(self, n: int = 1) -> int:
        """Go back n of the person's decisions (through the bot and forced moves after them).

        A concession is the last decision: undoing it gives the game back as it was."""
        done = 0
        if n > 0 and self.conceded is not None:
            self.redo_stack.append(self.conceded)  # the moves are unchanged: still as saved
            self.conceded = None
            done += 1
        while done < n:
            idx = next((i for i in range(len(self.steps) - 1, -1, -1)
                        if self.steps[i].by == "you"), None)
            if idx is None:
                break
            self.redo_stack.append(self.steps[idx:])
            del self.steps[idx:]
            done += 1
            self.dirty = True
        return done

    def redo(self, n: int = 1) -> int:
        done = 0
        while done < n and self.redo_stack:
            item = self.redo_stack.pop()
            if isinstance(item, Concession):
                self.conceded = item  # always the last thing undone, so the last redone
            else:
                self.steps.extend(item)
                self.dirty = True
            done += 1
        return done

    # ------------------------------------------------------------------ hint
    def hint(self) -> str:
        """The move the strongest bot that fits the game (`best_bot_for`: ismcts-lead, ismcts, ismcts-max or mcts)
        would play for the person, with a short budget, from what their seat sees (see
        `hint_moves`), and what it gains; it avoids a move that loses at once (tried in
        HINT_WORLDS worlds dealt again by `observe.determinize`: no hidden card is read)
        when another move does not."""
        p = self.person_to_move()
        if self.over:
            return "the game is over"
        if p is None or not self.my_moves():
            return "it is not your turn"
        seed = bot_seed(self.seed, 0) + len(self.steps)
        game = self.game
        record = Record(self.seed, tuple(tuple(st.move) for st in self.steps))
        label, order = hint_moves(game, self.state, p, seed, record=record)
        rng = random.Random(f"hint:{seed}")
        worlds = [determinize(game, self.state, p, rng) for _ in range(HINT_WORLDS)]
        losses = {m: self._losses(worlds, m, p) for m in order}
        fewest = min(losses.values())
        move = next(m for m in order if losses[m] == fewest)
        greedy = GreedyBot(seed)
        value = dict((m, v) for v, m in greedy.ranked(game, self.state, p))[move]
        now = greedy.value(game, self.state, p)
        n = self.my_moves().index(move) + 1
        what = "your score" if self.solo else "your lead over the best opponent"
        gain = f"{what} {now} -> {value}" if value != now else f"{what} stays {now}"
        avoided = sum(1 for m in losses if losses[m] > fewest)
        if avoided:
            gain += f"; {avoided} other move{'s' if avoided > 1 else ''} can lose at once"
        return (f"hint ({label}): {n} {game.move_text(move)} "
                f"({game.move_description(move)}; {gain})")

    def _losses(self, worlds: list[State], move: Move, p: int) -> int:
        """In how many of the worlds the move ends the game at once with p losing."""
        lost = 0
        for w in worlds:
            try:
                after = self.game.apply(w, move)
            except CardgameError:  # illegal there (a move that tells hidden cards), or a rule slip
                continue
            if self.game.is_terminal(after) and self.game.results(after)[p - 1] == "loss":
                lost += 1
        return lost

    # ------------------------------------------------------------------ words
    def step_lines(self, i: int, viewer: int | None, reveal_all: bool = False) -> list[str]:
        """The words for step i (1 line, plus the game's log lines), as `viewer` may see it.

        A choice made in secret at a simultaneous choice reads "chose, in secret" until all
        have chosen; a card the viewer never saw in the step (nor, for a secret choice, at
        its reveal) is written as a card back."""
        game = self.game
        step = self.steps[i]
        player = step.move[0]
        who = self.who(player)
        if not self.spectator and player not in self.seats:  # the bot that made it, if known
            who = f"p{player} ({step.bot} bot)" if step.bot else f"p{player}"
        hidden: set[int] = set()
        if not reveal_all and player != viewer:
            seen = (visible_cards(game, step.before, viewer)
                    | visible_cards(game, step.after, viewer))
            for e in step.observed:  # a card played face up and gathered in the same step
                seen |= shown_cards(game, e, viewer)
            if secret_choice(game, step.after, player, viewer):
                reveal = next((st.after for st in self.steps[i + 1:]
                               if not secret_choice(game, st.after, player, viewer)), None)
                if reveal is None:
                    return [f"{who} chose, in secret"]
                seen |= visible_cards(game, reveal, viewer)
            hidden = {c for c in card_args(game, step.move) if c not in seen}
        types = game.move_param_types[step.move[1]]
        args = [BACK if t == "card" and a in hidden else game.arg_text(a, t)
                for a, t in zip(step.move[2:], types, strict=False)]
        desc = game.move_description(step.move, args, 0 if self.spectator else viewer)
        moved = [] if "card" in types else self._moved(step, viewer, reveal_all)
        lines = [f"{who}: {desc}" + (f" ({', '.join(moved)})" if moved else "")
                 + ("  [forced: the only move]" if step.by == "auto" else "")]
        if reveal_all or not step.observed:
            logs = list(step.events)
        else:  # each card named as the viewer may see it
            logs = [o.text for o in observe_step(game, step.observed, viewer) if o.kind == "log"]
        lines += [f"  {e}" for e in logs if not _retells(e, player, desc)]
        return lines

    def _moved(self, step: Step, viewer: int | None, reveal_all: bool) -> list[str]:
        """The cards a move without card arguments moved (a few, and only those the
        viewer sees where they went): `put the turned card on pile 1 (Q♥)`."""
        game = self.game

        def places(state: State) -> dict[int, str]:
            return {c: z for z, ids in game.zone_contents(state).items() for c in ids}

        before, after = places(step.before), places(step.after)
        moved = [c for c, z in after.items() if before.get(c) != z]
        if not moved or len(moved) > MOVED_SHOWN:
            return []
        seen = None if reveal_all or viewer is None else visible_cards(game, step.after, viewer)
        return [game.card_text[c] for c in moved if seen is None or c in seen]

    def start_lines(self, viewer: int | None, reveal_all: bool = False) -> list[str]:
        """The setup's log lines, each card named only if `viewer` may see it."""
        if reveal_all:
            return [f"  {e}" for e in self.start_events]
        return [f"  {o.text}" for o in observe_step(self.game, self.start_observed, viewer)
                if o.kind == "log"]

    def event_lines(self, viewer: int | None = None, reveal_all: bool = False,
                    last: int | None = None) -> list[str]:
        """The events in words: the setup's log, then each step (the last `last` steps)."""
        viewer = self.viewer if viewer is None else viewer
        first = 0 if last is None else max(len(self.steps) - last, 0)
        lines = self.start_lines(viewer, reveal_all) if first == 0 else []
        for i in range(first, len(self.steps)):
            lines += self.step_lines(i, viewer, reveal_all)
        if self.conceded is not None:
            lines.append(f"{self.who(self.conceded.seat)}: conceded")
        return lines

    def log_lines(self) -> list[str]:
        viewer = self.viewer
        out = [f"{self.game.name}, seed {self.seed}"]
        out += self.start_lines(viewer)
        for i, st in enumerate(self.steps):
            lines = self.step_lines(i, viewer)
            out.append(f"{i + 1:>4}. {lines[0]}" + ("  [auto]" if st.by == "auto" else ""))
            out += ["      " + ln.strip() for ln in lines[1:]]
        if self.conceded is not None:
            out.append(f"      {self.who(self.conceded.seat)} conceded "
                       "(not a move: save keeps the moves before it)")
        if len(out) == 1:
            out.append("  no moves yet")
        return out

    def table(self, status: str = "") -> TableInfo:
        return TableInfo(game=self.game, state=self.state, viewer=self.viewer, seed=self.seed,
                         game_ref=self.game_ref, player_labels=self.labels(),
                         events=self.event_lines(last=EVENTS_SHOWN),
                         moves=self.my_move_texts(), status=status)

    # ------------------------------------------------------------------ files
    def save(self, path: str) -> None:
        rep = replay_mod.from_game(self.game, self.game_ref, self.seed,
                                   [s.move for s in self.steps], self.settings,
                                   note=f"saved by cardgame play; you played "
                                   f"{', '.join(f'p{p}' for p in self.seats)}")
        rep.save(path)
        self.dirty = False

    @classmethod
    def from_replay(cls, rep: replay_mod.Replay, game: Game | None = None,
                    seats: Sequence[int] | None = None, bots: str = "greedy",
                    auto: bool = True, upto: int | None = None) -> tuple[Session, list[str]]:
        """A session that has played the replay's moves (as far as they replay)."""
        notes: list[str] = []
        if game is None:
            game = rep.compile()
        if rep.changed_game(game):
            notes.append(f"warning: the game file of '{_safe(rep.game)}' changed since this "
                         "was saved; replaying its moves anyway")
        seats = tuple(s for s in (seats or ()) if 1 <= s <= game.players) or (1,)
        sess = cls(game, rep.game, rep.seed, rep.options, seats, bots, auto)
        moves = rep.moves if upto is None else rep.moves[:upto]
        for i, (player, text) in enumerate(moves):
            try:
                move = rep.move(game, sess.state, i)  # by identity where it can
                sess.play(move, "you" if player in sess.seats else "bot")
            except CardgameError as e:
                notes.append(f"warning: move {i + 1} ('{_safe(text)}' by p{player}) does not "
                             f"replay: {_safe(str(e))}; kept the first {i} moves")
                break
        sess.dirty = False
        sess.redo_stack.clear()
        return sess, notes

    def load(self, path: str) -> tuple[Session, list[str]]:
        rep = replay_mod.load(path)
        sess, notes = Session.from_replay(rep, seats=self.seats, bots=self.bot_name,
                                          auto=self.auto)
        return sess, notes


class ReplayView:
    """Steps through a replay file: every state it reaches, and why it stops early."""

    def __init__(self, rep: replay_mod.Replay, game: Game | None = None,
                 seats: Sequence[int] | None = None, bots: str = "greedy") -> None:
        self.rep = rep
        self.notes: list[str] = []
        self.game = game or rep.compile()
        if rep.changed_game(self.game):
            self.notes.append(f"warning: the game file of '{_safe(rep.game)}' changed since "
                              "this replay was made; replaying it anyway")
        self.seats = tuple(seats or ())
        self.bots = bots
        sess = Session(self.game, rep.game, rep.seed, rep.options,
                       [s for s in self.seats if 1 <= s <= self.game.players] or None, bots,
                       auto=False)
        sess.spectator = not self.seats
        for i, (player, text) in enumerate(rep.moves):
            try:
                sess.play(rep.move(self.game, sess.state, i), "you")
            except CardgameError as e:
                self.notes.append(f"move {i + 1} ('{_safe(text)}' by p{player}) does not "
                                  f"replay: {_safe(str(e))}")
                break
        self.session = sess
        self.all_steps = list(sess.steps)
        self.pos = 0
        self._sync()

    @property
    def total(self) -> int:
        return len(self.all_steps)

    def _sync(self) -> None:
        self.session.steps = self.all_steps[:self.pos]

    def goto(self, pos: int) -> None:
        self.pos = max(0, min(pos, self.total))
        self._sync()

    def viewer(self) -> int | None:
        return self.seats[0] if self.seats else None

    def table(self, status: str = "") -> TableInfo:
        sess = self.session
        viewer = self.viewer()
        reveal = viewer is None
        events = sess.event_lines(viewer or 1, reveal_all=reveal, last=EVENTS_SHOWN)
        return TableInfo(game=self.game, state=sess.state, viewer=viewer, seed=sess.seed,
                         game_ref=self.rep.game, reveal_all=reveal,
                         player_labels={p: "" for p in range(1, self.game.players + 1)},
                         events=events, status=status,
                         header_note=f"replay {self.pos}/{self.total}")

    def take_over(self) -> Session:
        """Play on from the current position (the person takes seat(s), bots the rest)."""
        sess, _ = Session.from_replay(self.rep, self.game, self.seats or (1,), self.bots,
                                      upto=self.pos)
        return sess
