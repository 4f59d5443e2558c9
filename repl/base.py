"""The REPL loop shared by the plain mode and the full screen: `Repl`.

`app` builds it from the command line (and re-exports it); `screen.ScreenRepl` draws the
same commands as one full screen.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from cardgame.interpreter.errors import CardgameError, Diagnostic, Diagnostics
from cardgame.interpreter.options import option_text
from cardgame.interpreter.terminal import sanitize
from prompt_toolkit import PromptSession, print_formatted_text
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.formatted_text import FormattedText, StyleAndTextTuples
from prompt_toolkit.history import History, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from prompt_toolkit.output.defaults import create_output

from .commands import (
    COMMANDS,
    REPLAY_COMMANDS,
    Quit,
    arg_choices,
    available,
    moves_text,
    play_line,
    replay_line,
)
from .completion import InputLexer, MoveCompleter
from .events import placed
from .render import STYLE, plain, render_table
from .session import ReplayView, Session

DEFAULT_HISTORY = "~/.cardgame_history"


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
                                        arg_choices=arg_choices(self), cards=self._cards,
                                        set_moves=self._set_moves),
                lexer=InputLexer(self._move_names, list(COMMANDS) + list(REPLAY_COMMANDS),
                                 cards=self._cards),
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
        else:  # (plain lines: whatever a file or a save put in them is shown safely)
            self.stream.write(sanitize(text) + "\n")
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
        return available(self)

    def _completable_moves(self) -> list[tuple[str, str]]:
        return [] if self.replay is not None else self.sess.my_move_texts()

    def _move_names(self) -> list[str]:
        return [t.split()[0] for t, _ in self._completable_moves()]

    def _set_moves(self) -> dict[str, int]:
        """The moves that choose a set of cards: name -> the word where the cards start."""
        g = self.sess.game
        return {n: len(ts) for n, ts in zip(g.move_names, g.move_param_types, strict=False)
                if ts and ts[-1] == "list:card"}

    def _cards(self) -> list[str]:
        return self.sess.game.card_text  # read each time: load and play change the session

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
        opts = ",".join(f"{k}={option_text(v)}" for k, v in g.options.items())
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

    def warn_log_errors(self) -> None:
        """Name each rule error of a log line since the last table, with its place: the
        line itself shows only a marker, and play goes on."""
        errors, self.sess.log_errors = self.sess.log_errors, []
        for e in errors:
            self.emit(f"warning: {e} (in a log line: it shows \u2039rule error\u203a in "
                      "place of that part, and play goes on)", "class:warning")

    def show_table(self) -> None:
        self.warn_log_errors()
        info = self.replay.table(self.status()) if self.replay else self.sess.table(self.status())
        info.placed = placed(self.sess, self.sess.game.checked.table.by_player, info.viewer)
        frags: StyleAndTextTuples = [("", "\n")]
        self.emit(frags + render_table(info, self.width(), self._set_moves()))

    # ------------------------------------------------------------------ input
    def handle(self, line: str) -> bool:
        """Carry out one input line; False when the session should end."""
        try:
            if self.replay is not None:
                replay_line(self, line.strip())
            else:
                play_line(self, line.strip())
        except Quit:
            return False
        except (CardgameError, OSError, ValueError) as e:
            self.error(_one_line(e))
        except RecursionError:  # pragma: no cover - a runaway rule
            self.error("the rules recursed too deeply")
        return True

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

    # ------------------------------------------------------------------ loops
    def greet(self, seed_note: str = "") -> None:
        if seed_note:
            self.info(seed_note)
        if self.replay is not None:
            r = self.replay
            self.info(f"replay of {r.game.name}: {moves_text(r.total)}"
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


