"""`cardgame play`: the prompt_toolkit REPL, and its scriptable mode.

    cardgame play GAME [--players N] [--set NAME=VALUE]... [--seed S] [--seat K]...
                       [--bots random|greedy] [--replay FILE] [--history FILE]

At a terminal the table is drawn in colour after every move and the prompt offers Tab
completion of the legal moves, history (Up), a bottom toolbar and highlighting. When
stdin is not a terminal, one command is read per line and the same table is printed
as plain text (each command echoed after the prompt), so a session can be scripted:

    cardgame play calculation --seed 7 < moves.txt

`Repl` is the loop over input lines; `make_repl` builds it from the command line's
arguments (tests drive it through a pipe input and `DummyOutput`).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from cardgame.interpreter.bots.simple import BOTS
from cardgame.interpreter.engine import replay as replay_mod
from cardgame.interpreter.engine.pipeline import compile_game
from cardgame.interpreter.errors import (
    CardgameError,
    Diagnostic,
    Diagnostics,
    IllegalMove,
    UsageError,
)
from cardgame.interpreter.options import parse_settings
from prompt_toolkit import PromptSession, print_formatted_text
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.formatted_text import FormattedText, StyleAndTextTuples
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from prompt_toolkit.output.defaults import create_output

from .completion import InputLexer, MoveCompleter
from .render import STYLE, move_lines, plain, render_table
from .session import CommandError, ReplayView, Session, rules_text

DEFAULT_HISTORY = "~/.cardgame_history"

COMMANDS: dict[str, str] = {
    "help": "the commands (help COMMAND for one)",
    "rules": "the rules of the game",
    "moves": "your legal moves, numbered",
    "show": "draw the table again",
    "undo": "undo [N]: take back your last move (or N), with the moves after it",
    "redo": "redo [N]: play again what undo took back",
    "hint": "what the greedy bot would play in your place",
    "log": "every move so far",
    "save": "save FILE: save the game as a replay file",
    "load": "load FILE: load a saved game or a replay file",
    "new": "new [SEED]: a new deal (a random seed if none is given)",
    "restart": "the same deal again, from the start",
    "set": "set auto on|off (auto-play bots and forced moves), set bots random|greedy",
    "concede": "give up: the game ends and you lose (undo takes it back)",
    "quit": "leave (Ctrl-D too)",
}
REPLAY_COMMANDS: dict[str, str] = {
    "next": "the next move (Enter does the same)",
    "back": "back [N]: one move (or N) back",
    "start": "back to the start",
    "end": "to the end of the replay",
    "goto": "goto N: to the position after move N",
    "play": "play on from here (you take seat 1 or --seat, bots the rest)",
    "log": "every move so far",
    "show": "draw the table again",
    "rules": "the rules of the game",
    "help": "the commands",
    "quit": "leave (Ctrl-D too)",
}
ALIASES = {"exit": "quit", "q": "quit", "?": "help", "table": "show", "n": "next",
           "b": "back", "h": "help"}


class Quit(Exception):
    pass


class Repl:
    """Reads commands and moves, one line at a time, and draws the table."""

    def __init__(self, session: Session | None = None, replay: ReplayView | None = None, *,
                 input: Input | None = None, output: Output | None = None,
                 history: History | None = None, interactive: bool = True,
                 stream: TextIO | None = None, term_width: int | None = None) -> None:
        if session is None:
            if replay is None:
                raise ValueError("a Repl needs a session or a replay")
            session = replay.session
        self.sess: Session = session
        self.replay = replay
        self.interactive = interactive
        self.stream = stream or sys.stdout
        self.transcript: list[str] = []  # everything shown, as plain text
        self.term_width = term_width
        self.input = input
        self.told_how = False
        self.output: Output | None = None
        self.prompt_session: PromptSession[str] | None = None
        if interactive:
            self.output = output or create_output()
            self.prompt_session = PromptSession(
                input=input, output=self.output, history=history or InMemoryHistory(),
                completer=MoveCompleter(self._completable_moves, self._commands,
                                        arg_choices=self._arg_choices()),
                lexer=InputLexer(self._move_names, list(COMMANDS) + list(REPLAY_COMMANDS)),
                complete_while_typing=True, auto_suggest=AutoSuggestFromHistory(),
                bottom_toolbar=self.toolbar, style=STYLE, include_default_pygments_style=False)

    # ------------------------------------------------------------------ output
    def emit(self, frags: StyleAndTextTuples | str, style: str = "") -> None:
        if isinstance(frags, str):
            frags = [(style, frags)]
        text = plain(frags)
        self.transcript.append(text)
        if self.interactive:
            print_formatted_text(FormattedText(frags), style=STYLE, output=self.output,
                                 include_default_pygments_style=False)
        else:
            self.stream.write(text + "\n")
            self.stream.flush()

    def error(self, msg: str) -> None:
        self.emit([("class:error", "error: "), ("", msg.strip().splitlines()[0] if msg else "")])

    def info(self, msg: str) -> None:
        self.emit(msg, "class:dim")

    def width(self) -> int:
        if self.term_width:
            return self.term_width
        if self.output is not None:
            try:
                return max(self.output.get_size().columns, 40)
            except Exception:  # pragma: no cover - an output that cannot tell
                return 80
        return 80

    # ------------------------------------------------------------------ prompt parts
    def _commands(self) -> dict[str, str]:
        return dict(REPLAY_COMMANDS) if self.replay is not None else dict(COMMANDS)

    def _completable_moves(self) -> list[tuple[str, str]]:
        return [] if self.replay is not None else self.sess.my_move_texts()

    def _move_names(self) -> list[str]:
        return [t.split()[0] for t, _ in self._completable_moves()]

    def _arg_choices(self) -> dict[str, Any]:
        def set_choices(words: list[str]) -> list[str]:
            if not words:
                return ["auto", "bots"]
            if words[0] == "auto" and len(words) == 1:
                return ["on", "off"]
            if words[0] == "bots" and len(words) == 1:
                return sorted(BOTS)
            return []

        def help_choices(words: list[str]) -> list[str]:
            return list(self._commands()) if not words else []

        return {"set": set_choices, "help": help_choices}

    def message(self) -> str:
        if self.replay is not None:
            return f"replay {self.replay.pos}/{self.replay.total}> "
        stem = Path(self.sess.game_ref).stem if self.sess.game_ref else "cardgame"
        if self.sess.game.players > 1 and len(self.sess.seats) > 1:
            return f"{stem} p{self.sess.viewer}> "
        return f"{stem}> "

    def toolbar(self) -> StyleAndTextTuples:
        s = self.sess
        g = s.game
        opts = ",".join(f"{k}={_opt(v)}" for k, v in g.options.items())
        if s.over:
            turn = "game over"
        elif self.replay is not None:
            turn = "replay"
        elif s.person_to_move() is not None and s.my_moves():
            turn = "your turn" if len(s.seats) == 1 else f"your turn (p{s.person_to_move()})"
        else:
            turn = "to move: " + ", ".join(f"p{p}" for p in g.to_move(s.state))
        parts = [g.name + (f" [{opts}]" if opts else ""), f"seed {s.seed}",
                 f"move {len(s.steps)}", turn, f"score {s.scores_text()}"]
        if self.replay is None:
            parts.append(f"auto {'on' if s.auto else 'off'}")
        text = " " + "  │  ".join(parts) + "  "
        out: StyleAndTextTuples = [("class:bottom-toolbar", text)]
        keys = [("Tab", "complete"), ("help", ""), ("Ctrl-D", "quit")]
        if len(text) + sum(len(k) + len(v) + 2 for k, v in keys) < self.width():
            for k, v in keys:
                out.append(("class:bottom-toolbar.key", k))
                out.append(("class:bottom-toolbar", f" {v} " if v else " "))
        return out

    # ------------------------------------------------------------------ the table
    def status(self) -> str:
        s = self.sess
        if self.replay is not None:
            r = self.replay
            if r.pos >= r.total:
                return "end of the replay: back, start, play (play on from here) or quit"
            return "Enter: next move · back · end · play (play on from here) · help"
        if s.over:
            return "new, restart, undo, save FILE or quit"
        if s.stuck():
            return ("no one can move and the game did not end: a dead end in the rules "
                    "(undo, new or quit)")
        nxt = s.pending_auto()
        if nxt is not None and s.circling:
            return ("auto-play stopped: a position came back (the moves go round in circles); "
                    "Enter plays on")
        if nxt is not None and not s.auto:
            player, by = nxt
            if by == "bot":
                return f"{s.who(player)} to move: press Enter to let it play"
            return "your only move: press Enter to play it (or type it)"
        if not self.told_how:
            self.told_how = True
            return "type a number or a move (Tab completes); help lists the commands"
        return ""

    def show_table(self) -> None:
        info = self.replay.table(self.status()) if self.replay else self.sess.table(self.status())
        frags: StyleAndTextTuples = [("", "\n")]
        self.emit(frags + render_table(info, self.width()))

    # ------------------------------------------------------------------ commands
    def handle(self, line: str) -> bool:
        """Carry out one input line; False when the session should end."""
        try:
            if self.replay is not None:
                self.handle_replay(line.strip())
            else:
                self.handle_play(line.strip())
        except Quit:
            return False
        except (CardgameError, OSError, ValueError) as e:
            self.error(_one_line(e))
        except RecursionError:  # pragma: no cover - a runaway rule
            self.error("the rules recursed too deeply")
        return True

    def handle_play(self, text: str) -> None:
        s = self.sess
        if not text:
            if s.pending_auto() is not None and (not s.auto or s.circling):
                s.step_once()
                s.advance()
                self.show_table()
            return
        word, _, rest = text.partition(" ")
        word = word.lower()
        cmd = ALIASES.get(word, word)
        move = self._typed_move(text)
        if move is not None:
            self.play(move)
        elif text.isdigit():
            self.play(s.parse(text))
        elif cmd in COMMANDS:
            getattr(self, f"cmd_{cmd}")(rest.strip())
        elif word in {n.lower() for n in s.game.move_names}:
            self.play(s.parse(text))
        else:
            raise CommandError(f"unknown command '{word}': help lists the commands; "
                               "your moves are listed with numbers")

    def _typed_move(self, text: str) -> Any:
        s = self.sess
        p = s.person_to_move()
        if p is None or text.isdigit() or not s.my_moves():
            return None
        try:
            return s.game.parse_move(s.state, text, p)
        except IllegalMove:
            return None

    def play(self, move: Any) -> None:
        self.sess.play(move)
        self.sess.advance()
        self.show_table()

    def cmd_help(self, arg: str) -> None:
        cmds = self._commands()
        if arg:
            name = ALIASES.get(arg, arg)
            if name not in cmds:
                raise CommandError(f"no command '{arg}': help lists them")
            self.emit(f"{name}: {cmds[name]}")
            return
        lines = ["commands:"] + [f"  {n:<8} {d}" for n, d in cmds.items()]
        if self.replay is None:
            lines += ["a move: its number in the list, or its text (e.g. "
                      f"'{self._example_move()}'); Tab completes, Up recalls",
                      "Ctrl-C cancels the line; Ctrl-D quits"]
        self.emit("\n".join(lines))

    def _example_move(self) -> str:
        moves = self.sess.my_move_texts()
        return moves[0][0] if moves else "draw"

    def cmd_rules(self, arg: str) -> None:
        self.emit(rules_text(self.sess.game, self.sess.game_ref))

    def cmd_moves(self, arg: str) -> None:
        moves = self.sess.my_move_texts()
        if not moves:
            self.info("you have no move to choose now")
            return
        out: StyleAndTextTuples = []
        for i, ln in enumerate(move_lines(moves, self.width())):
            if i:
                out.append(("", "\n"))
            out.extend(ln)
        self.emit(out)

    def cmd_show(self, arg: str) -> None:
        self.show_table()

    def _count(self, arg: str, what: str) -> int:
        if not arg:
            return 1
        if not arg.isdigit() or int(arg) < 1:
            raise CommandError(f"{what} takes a number of steps: {what} 3")
        return int(arg)

    def cmd_undo(self, arg: str) -> None:
        n = self._count(arg, "undo")
        conceded = self.sess.conceded is not None
        done = self.sess.undo(n)
        if not done:
            raise CommandError("nothing to undo")
        self.info(f"undid {_what(done, conceded)}"
                  + (f" (only {done} to undo)" if done < n else ""))
        self.show_table()

    def cmd_redo(self, arg: str) -> None:
        n = self._count(arg, "redo")
        done = self.sess.redo(n)
        if not done:
            raise CommandError("nothing to redo")
        self.info(f"redid {_what(done, self.sess.conceded is not None)}"
                  + (f" (only {done} to redo)" if done < n else ""))
        self.show_table()

    def cmd_hint(self, arg: str) -> None:
        self.info(self.sess.hint())

    def cmd_log(self, arg: str) -> None:
        self.emit("\n".join(self.sess.log_lines()))

    def cmd_save(self, arg: str) -> None:
        if not arg:
            raise CommandError("save needs a file name: save FILE")
        path = os.path.expanduser(arg)
        self.sess.save(path)
        self.info(f"saved to {arg} ({_n(len(self.sess.steps))}; load {arg} or "
                  f"cardgame play --replay {arg})")

    def cmd_load(self, arg: str) -> None:
        if not arg:
            raise CommandError("load needs a file name: load FILE")
        sess, notes = self.sess.load(os.path.expanduser(arg))
        for n in notes:
            self.emit(n, "class:warning")
        self.sess = sess
        self.info(f"loaded {arg}: {sess.game.name}, seed {sess.seed}, {_n(len(sess.steps))}")
        sess.advance()
        self.show_table()

    def cmd_new(self, arg: str) -> None:
        if arg and not arg.lstrip("-").isdigit():
            raise CommandError(f"new takes a seed number, not '{arg}': new 42")
        seed = self.sess.new(int(arg) if arg else None)
        self.info(f"new game, seed {seed}")
        self.sess.advance()
        self.show_table()

    def cmd_restart(self, arg: str) -> None:
        self.sess.restart()
        self.info(f"restarted, seed {self.sess.seed}")
        self.sess.advance()
        self.show_table()

    def cmd_set(self, arg: str) -> None:
        words = arg.lower().split()
        s = self.sess
        if not words:
            self.info(f"auto {'on' if s.auto else 'off'}, bots {s.bot_name}")
            return
        if words[0] == "auto" and len(words) == 2 and words[1] in ("on", "off"):
            s.auto = words[1] == "on"
            self.info(f"auto {words[1]}")
            if s.auto and s.advance():
                self.show_table()
            return
        if words[0] == "bots" and len(words) == 2:
            s.set_bots(words[1])
            self.info(f"bots {words[1]}")
            return
        raise CommandError("set auto on|off, or set bots " + "|".join(sorted(BOTS)))

    def cmd_concede(self, arg: str) -> None:
        s = self.sess
        if arg:
            raise CommandError(f"concede takes nothing after it, not '{arg}'")
        if s.over:
            raise CommandError("the game is over (new, restart or undo)")
        if self.interactive and not self.confirm("Concede this game? You lose it. [y/N] "):
            self.info("not conceded: play on")
            return
        seat = s.concede()
        self.info(f"{s.who(seat)} conceded: the game is over (undo takes it back; "
                  "save keeps the moves before it)")
        self.show_table()

    def cmd_quit(self, arg: str) -> None:
        if self.may_discard():
            raise Quit

    def may_discard(self) -> bool:
        """True when it is fine to leave: nothing unsaved, or the person says so."""
        if not self.interactive or not self.sess.dirty or self.replay is not None:
            return True
        return self.confirm("The game is not saved. Quit anyway? [y/N] ")

    def confirm(self, question: str) -> bool:
        ask: PromptSession[str] = PromptSession(input=self.input, output=self.output)
        try:
            answer = ask.prompt(question)
        except EOFError:
            return True
        except KeyboardInterrupt:
            return False
        return answer.strip().lower() in ("y", "yes")

    # ------------------------------------------------------------------ replay mode
    def handle_replay(self, text: str) -> None:
        r = self.replay
        assert r is not None
        word, _, rest = text.partition(" ")
        cmd = ALIASES.get(word.lower(), word.lower()) if text else "next"
        rest = rest.strip()
        if cmd == "next":
            if r.pos >= r.total:
                raise CommandError(f"that was the last move ({r.total}): back, start, play "
                                   "or quit")
            r.goto(r.pos + 1)
        elif cmd == "back":
            r.goto(r.pos - self._count(rest, "back"))
        elif cmd == "start":
            r.goto(0)
        elif cmd == "end":
            r.goto(r.total)
        elif cmd == "goto":
            if not rest.isdigit():
                raise CommandError("goto takes a move number: goto 12")
            r.goto(int(rest))
        elif cmd == "play":
            self.sess = r.take_over()
            self.replay = None
            self.info(f"playing on from move {len(self.sess.steps)}")
            self.sess.advance()
        elif cmd in ("log", "rules", "help", "quit", "show"):
            getattr(self, f"cmd_{cmd}")(rest)
            return
        else:
            raise CommandError(f"unknown replay command '{word}': Enter (next), back, start, "
                               "end, goto N, play, quit")
        self.show_table()

    # ------------------------------------------------------------------ loops
    def greet(self, seed_note: str = "") -> None:
        if seed_note:
            self.info(seed_note)
        if self.replay is not None:
            r = self.replay
            self.info(f"replay of {r.game.name}: {_n(r.total)}"
                      + (f" ({r.rep.note})" if r.rep.note else ""))
            for n in r.notes:
                self.emit(n, "class:warning")
        else:
            self.sess.advance()
        self.show_table()

    def run(self, seed_note: str = "") -> int:
        """The interactive loop; returns the exit code."""
        assert self.prompt_session is not None
        self.greet(seed_note)
        while True:
            try:
                line = self.prompt_session.prompt(self.message)
            except KeyboardInterrupt:
                continue  # Ctrl-C: the line is dropped
            except EOFError:
                if self.may_discard():
                    break
                continue
            try:
                if not self.handle(line):
                    break
            except KeyboardInterrupt:
                self.info("interrupted")
        return 0

    def run_script(self, lines: Iterable[str], seed_note: str = "") -> int:
        """Scriptable mode: one command per line, each echoed after the prompt."""
        self.greet(seed_note)
        for raw in lines:
            line = raw.rstrip("\r\n")
            self.emit(self.message() + line)
            if not self.handle(line):
                break
        return 0


def _what(done: int, concession: bool) -> str:
    """What undo or redo went through: `done` decisions, one of them the concession."""
    moves = done - 1 if concession else done
    what = [f"{moves} move{'s' if moves > 1 else ''} of yours"] if moves else []
    return " and ".join((["your concession"] if concession else []) + what)


def _n(moves: int) -> str:
    return f"{moves} move" if moves == 1 else f"{moves} moves"


def _opt(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _one_line(e: BaseException) -> str:
    if isinstance(e, Diagnostics):
        return f"{len(e.items)} errors in the game file; the first: {_one_line(e.items[0])}"
    if isinstance(e, Diagnostic):
        where = f"{e.span}: " if e.span.line else ""
        return where + e.message + (f" ({e.hint})" if e.hint else "")
    if isinstance(e, OSError):
        return f"{e.filename or ''}: {e.strerror or e}".lstrip(": ")
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _history(path: str | None) -> History:
    p = os.path.expanduser(path or DEFAULT_HISTORY)
    try:
        with open(p, "a", encoding="utf-8"):
            pass
    except OSError:
        return InMemoryHistory()
    return FileHistory(p)


def make_repl(args: argparse.Namespace, *, input: Input | None = None,
              output: Output | None = None, interactive: bool | None = None,
              stream: TextIO | None = None) -> tuple[Repl, str]:
    """The REPL for `cardgame play` arguments, and the line that says how the seed came."""

    settings = parse_settings(getattr(args, "set", None))
    seats = getattr(args, "seat", None)
    bots = getattr(args, "bots", None) or "greedy"
    if interactive is None:
        interactive = input is not None or sys.stdin.isatty()
    history = _history(getattr(args, "history", None)) if interactive else None
    kw: dict[str, Any] = {"input": input, "output": output, "history": history,
                          "interactive": interactive, "stream": stream}
    if getattr(args, "replay", None):
        rep = replay_mod.load(args.replay)
        if args.game:
            game = compile_game(args.game, args.players or rep.players, settings or rep.options)
        else:
            game = rep.compile()
        _check_seats(seats, game.players, UsageError)
        view = ReplayView(rep, game, seats, bots)
        return Repl(replay=view, **kw), ""
    if not args.game:
        raise UsageError("play needs a GAME: a bundled name (cardgame list) or a .cardgame file")
    game = compile_game(args.game, args.players, settings)
    _check_seats(seats, game.players, UsageError)
    if args.seed is None:
        seed = random.randrange(2**31)
        note = f"seed {seed} (chosen at random; --seed {seed} plays this deal again)"
    else:
        seed, note = args.seed, ""
    sess = Session(game, args.game, seed, settings, seats, bots)
    return Repl(sess, **kw), note


def _check_seats(seats: list[int] | None, players: int, err: type[Exception]) -> None:
    for s in seats or ():
        if not 1 <= s <= players:
            raise err(f"--seat {s}: this game has seats 1 to {players}" if players > 1
                      else f"--seat {s}: this is a one-player game (seat 1)")


def run_play(args: argparse.Namespace) -> int:
    """`cardgame play`: interactive at a terminal, scriptable when stdin is not one."""
    repl, note = make_repl(args)
    if repl.interactive:
        return repl.run(note)
    return repl.run_script(sys.stdin, note)
