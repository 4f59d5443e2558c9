"""`cardgame play` full screen: a prompt_toolkit `Application` whose table always fits.

    ┌ table pane ─ title, zones, the players' rows with scores (layout.table_lines) ┐
    │ event pane ─ the current and last trick, what happened since your last move   │
    │ whose turn · what Enter does, and the numbered moves (in columns)             │
    │ input line (Tab: completion menu, a Float over the panes)                     │
    └ toolbar ──────────────────────────────────────────────────────────────────────┘

Everything above the input line is drawn by `body()` for the terminal's size at each
redraw, top to bottom with no blank rows: the moves and the status first take what they
need (a few rows), the table gets the rest but keeps the events at least two rows, and
the events fill what the table leaves. A command's output (help, log, an error) takes the
event pane's place until the next line is typed, or the whole body when it is long: then
a page at a time (`_page`: Enter, b, q), each page exactly what the body has room for.

Lines are carried out on a worker thread, so that `confirm` (concede, quit unsaved) can
wait for the next typed line; the body shows the last frame while a line runs.
With several of the person's seats at one keyboard (`--seat 1 --seat 2`), a change of
the seat that decides hides the table behind a hand-over screen until Enter.
"""

from __future__ import annotations

import textwrap
import threading
from collections.abc import Callable
from typing import Any, cast

from prompt_toolkit.application import Application
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import (
    Float,
    FloatContainer,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import BeforeInput

from . import events as ev
from .base import Repl
from .commands import COMMANDS, REPLAY_COMMANDS, arg_choices
from .completion import InputLexer, MoveCompleter
from .layout import MORE_ROWS, clip, show_lines, table_lines
from .render import STYLE, Line, join_lines, move_lines, plain, turn_line

MIN_EVENTS = 2  # rows the event pane keeps when the table is long
MAX_MOVE_ROWS = 4


class ScreenRepl(Repl):
    """The REPL drawn as one full screen; the commands are the same as the plain mode's."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        kw["interactive"] = True
        super().__init__(*args, **kw)
        self.messages: list[str] = []  # a command's output, shown until the next line
        self.asking: tuple[threading.Event, list[str]] | None = None  # a confirm waiting
        self.busy = False
        self.paging = False  # a long output is shown a page at a time (`_page`)
        # a line typed at a page that is not one of its keys: run when the page is left
        self.after_page: str | None = None
        self.long_room = 17  # rows for a long output, as the last drawing had them
        self.frame: StyleAndTextTuples = []
        self.shown_seat: int | None = None  # the seat whose table was last on screen
        self.handover: int | None = None  # a seat to hand the keyboard to
        self.app = self._build_app()

    # ------------------------------------------------------------------ the Host API
    def emit(self, frags: StyleAndTextTuples | str, style: str = "") -> None:
        from .render import plain

        text = frags if isinstance(frags, str) else plain(frags)
        self.transcript.append(text)
        self.messages += text.splitlines() or [""]
        self._redraw()

    def error(self, msg: str) -> None:
        self.emit("error: " + (msg.strip().splitlines()[0] if msg else ""))

    def show_table(self) -> None:
        self.warn_log_errors()
        # the table is drawn from the session at each redraw; here: a seat change?
        seat = self._seat()
        if (len(self.sess.seats) > 1 and self.replay is None and seat is not None
                and self.shown_seat is not None and seat != self.shown_seat
                and self.sess.person_to_move() is not None):
            self.handover = seat
        self.shown_seat = seat
        self._redraw()

    def width(self) -> int:
        return self._size()[0]

    def confirm(self, question: str) -> bool:
        if threading.current_thread() is threading.main_thread():
            return True  # not asked from a line being carried out: nothing to wait for
        done = threading.Event()
        answer: list[str] = []
        self.asking = (done, answer)
        self.messages.append(question)
        self._wait(done)
        return bool(answer) and answer[0].strip().lower() in ("y", "yes")

    def _wait(self, done: threading.Event) -> None:
        """Show a question or a page and wait for the typed answer. While it waits, the
        body is drawn anew (`asking` set: not the frame kept while a line runs, which
        would hide the question) and the toolbar does not say "working…"; a completion
        menu that opened on its own over it goes. The line stays `busy` throughout, so
        a second Enter typed in the same burst is never run as a new line (it would
        play a move under the page)."""
        self._drop_stray_menu()
        self._redraw()
        done.wait()

    def pager(self, lines: list[StyleAndTextTuples], at_end: bool = False,
              heads: list[StyleAndTextTuples | None] | None = None,
              relayout: Callable[[int], tuple[list[str], list[str | None]]] | None = None
              ) -> None:
        """Long text (`rules`, `help`, `log`) a page at a time in the body: Enter for the
        next page, b for the one before, q to stop. A page is exactly what the body has
        room for, so no line is lost at a page break; lines wider than the screen are
        wrapped first. `at_end`: open at the last page (`log`: the latest moves first).
        `heads`: for each line, the header row that names its columns (`show`), repeated
        at the top of a page that starts below it. `relayout(width)`: the lines and
        heads laid out again for a new width (`show`: a table's columns are not text to
        wrap), used when the screen is resized while a page waits."""
        from .render import plain

        raw = [plain(ln) for ln in lines]
        self.transcript.append("\n".join(raw))
        if threading.current_thread() is threading.main_thread():
            self.messages = wrap_messages(raw, self._size()[0])  # nothing can wait here
            return
        self._page(raw, at_end, None if heads is None else
                   [None if h is None else plain(h) for h in heads], relayout)

    def _page(self, raw: list[str], at_end: bool = False,
              heads: list[str | None] | None = None,
              relayout: Callable[[int], tuple[list[str], list[str | None]]] | None = None
              ) -> None:
        """`raw` (lines before wrapping) a page at a time (see `pager`); `heads[i]`: the
        header row above `raw[i]`, shown again at the top of a page that starts there."""
        size = self._size()
        texts, owner = _wrapped(raw, size[0])
        rows = max(self.long_room - 1, 1)  # the last row says where the page is
        if len(texts) <= self.long_room:
            self.messages = texts
            self._redraw()
            return

        def top(at: int) -> list[str]:  # the header repeated above a page starting at `at`
            head = heads[owner[at]] if heads is not None and at < len(owner) else None
            return [] if head is None else wrap_messages([head], size[0])

        def back(end: int) -> int:  # the first line of the page that ends before `end`
            first = max(end - rows, 0)
            if first and top(first):  # the header takes rows: start later (or overlap)
                first = min(first + len(top(first)), max(end - 1, 0))
            return first

        start = back(len(texts)) if at_end else 0  # a full last page
        self.paging = True
        try:
            while True:
                rows = max(self.long_room - 1, 1)
                head = top(start)
                end = min(start + max(rows - len(head), 1), len(texts))
                below = top(end) if end < len(texts) else []
                if below and end - len(below) > start and texts[end - len(below):end] == below:
                    end -= len(below)  # a header row goes with the rows under it
                keys = ("Enter: back to the table" if end >= len(texts)
                        else "Enter: next page") + (", b: back a page" if start else "")
                where = f"-- lines {start + 1}-{end} of {len(texts)}: "
                mark = where + keys + ", q: stop --"
                if len(mark) > self._size()[0]:  # one row, whatever the width
                    mark = where + ("Enter, b, q --" if start else "Enter, q --")
                self.messages = head + texts[start:end] + [mark]
                done = threading.Event()
                answer: list[str] = []
                self.asking = (done, answer)
                self._wait(done)
                word = answer[0].strip().lower() if answer else ""
                if word == "q":
                    break
                if word not in ("", "b"):  # a command or a move: leave the page, run it
                    self.after_page = answer[0]
                    break
                if self._size() != size:
                    # resized while the page waited: wrap again at the new width and show
                    # this page again from its first line, rather than turn past lines
                    # the old page could not show at the new size
                    size = self._size()
                    first = owner[start] if start < len(owner) else len(raw)
                    if relayout is not None:
                        # a table laid out for the old width wraps out of line with its
                        # headers: lay it out again and start at its first page
                        raw, heads = relayout(size[0])
                        first = 0
                    texts, owner = _wrapped(raw, size[0])
                    start = next((i for i, o in enumerate(owner) if o >= first), 0)
                    self._redraw()
                    continue
                if word == "b":
                    start = back(start)
                elif end >= len(texts):
                    break
                else:
                    start = end
        finally:
            self.paging = False
            self.messages = []
        self._redraw()

    def whole_table(self) -> None:
        """`show`: the table again; one too big for the screen, whatever its fit (the
        table pane then ends in "… N more rows"), a page at a time, every zone whole;
        a page that starts under a header row (the columns' names) shows it again."""
        info = self.replay.table("") if self.replay else self.sess.table("")
        cols = self._size()[0]
        fitted = table_lines(info, cols, max(self.long_room - MIN_EVENTS, 3))
        if not fitted or MORE_ROWS not in "".join(t for _, t, *_ in fitted[-1]):
            self.show_table()  # the table pane holds it all
            return
        lines, heads = show_lines(info, cols)

        def relayout(width: int) -> tuple[list[str], list[str | None]]:
            again, above = show_lines(info, width)
            return ([plain(cast(StyleAndTextTuples, ln)) for ln in again],
                    [None if h is None else plain(cast(StyleAndTextTuples, h)) for h in above])

        # a tall column goes on over pages: each page says again which column is which
        self.pager(cast(list[StyleAndTextTuples], lines),
                   heads=cast(list[StyleAndTextTuples | None], heads), relayout=relayout)

    def may_discard(self) -> bool:
        if not self.sess.dirty or self.replay is not None:
            return True
        return self.confirm("The game is not saved. Quit anyway? [y/N]")

    # ------------------------------------------------------------------ drawing
    def _size(self) -> tuple[int, int]:
        try:
            size = self.app.output.get_size()
            return max(size.columns, 40), max(size.rows, 10)
        except Exception:  # pragma: no cover - before the app exists
            return 80, 24

    def _seat(self) -> int | None:
        return None if self.replay is not None else self.sess.viewer

    def _redraw(self) -> None:
        app = getattr(self, "app", None)
        if app is not None and app.is_running:
            app.invalidate()

    def body(self) -> StyleAndTextTuples:
        if self.busy and self.frame and self.asking is None:
            return self.frame
        try:
            self.frame = self._body()
        except Exception as e:  # pragma: no cover - never a traceback on the screen
            self.frame = [("class:error", f"error drawing the table: {e}")]
        return self.frame

    def _body(self) -> StyleAndTextTuples:
        cols, rows = self._size()
        height = rows - 2  # the input line and the toolbar
        if self.handover is not None:
            return join_lines(_handover_lines(self.handover, height))
        info = (self.replay.table(self.status_peek()) if self.replay
                else self.sess.table(self.status_peek()))
        spec = self.sess.game.checked.table
        viewer = info.viewer
        info.placed = ev.placed(self.sess, spec.by_player, viewer)
        turn: list[Line] = [_turn(info, self) + _status(info.status)]
        all_moves: list[Line] = []
        if info.moves:
            all_moves = (move_lines(info.moves, cols, self._set_moves()) if len(info.moves) > 6
                         else _row_moves(info.moves))
        events = self._event_lines(info, viewer, spec.by_player)
        messages = wrap_messages(self.messages, cols)
        room = height - 1 - min(len(all_moves), MAX_MOVE_ROWS)
        self.long_room = room
        if self.paging or len(messages) > room - 3:  # a long output: it takes the body
            shown = messages[:room - 1] if len(messages) > room else messages
            lines: list[Line] = [[("", m)] for m in shown]
            if len(messages) > room:
                lines.append([("class:dim", f"… {len(messages) - len(shown)} more lines "
                               + ("(the screen changed size: Enter shows this page again)"
                                  if self.paging else "(Enter: back to the table)"))])
            return join_lines([clip(ln, cols) for ln in
                               lines + turn + _cut_moves(all_moves, MAX_MOVE_ROWS)])
        want_events = max(MIN_EVENTS, len(messages)) if events or messages else 0
        table = table_lines(info, cols, max(room - want_events, 3))
        free = room - len(table)
        # the moves take what the events leave them, beyond their first rows
        extra = max(0, free - min(len(events) + len(messages), free))
        moves = _cut_moves(all_moves, MAX_MOVE_ROWS + extra)
        free = height - 1 - len(moves) - len(table)
        ev_lines: list[Line] = [[("", m)] for m in messages]
        ev_lines = ev_lines[-free:] if free > 0 else []
        rest = free - len(ev_lines)
        if rest > 0:  # the last trick first (it anchors the rest), then the latest lines
            fixed = [e for e in events if e.startswith("last ")][:rest]
            flow = [e for e in events if not e.startswith("last ")]
            flow = flow[-(rest - len(fixed)):] if rest > len(fixed) else []
            ev_lines = [[("class:event", e)] for e in fixed + flow] + ev_lines
        # a row wider than the screen (a move's description at 60 columns) ends in `…`
        return join_lines([clip(ln, cols) for ln in table + ev_lines + turn + moves])

    def status_peek(self) -> str:
        told = self.told_how
        text = self.status()
        self.told_how = told  # drawing does not use up the one-time hint
        if text.startswith("type a number"):
            text = "a number or a move; Tab completes; help"
        return text

    def _event_lines(self, info: Any, viewer: int | None, by_player: set[str]) -> list[str]:
        if self.replay is not None:
            return info.events
        out = []
        for z in sorted(by_player):
            last = ev.last_gathered(self.sess, z, viewer)
            if last:
                out.append(last)
        return out + ev.since_decision(self.sess, viewer)

    def toolbar_text(self) -> StyleAndTextTuples:
        """Short: the title line above already names the game, its seed and the move."""
        s = self.sess
        if self.handover is not None:
            turn = f"hand over to p{self.handover}"
        elif s.over:
            turn = "game over"
        elif self.replay is not None:
            turn = f"replay {self.replay.pos}/{self.replay.total}"
        elif s.person_to_move() is not None and s.my_moves():
            turn = "your turn" if len(s.seats) == 1 else f"your turn (p{s.person_to_move()})"
        else:
            turn = "to move: " + ", ".join(f"p{p}" for p in s.game.to_move(s.state))
        parts = [turn, f"score {s.scores_text()}"]
        if self.busy and self.asking is None:
            parts[0] = "working…"  # a line is being carried out (bots may be thinking)
        if self.replay is None:
            parts.append(f"auto {'on' if s.auto else 'off'}")
        text = " " + "  │  ".join(parts) + "  "
        out: StyleAndTextTuples = [("class:bottom-toolbar", text)]
        keys = (("help", ""), ("Ctrl-D", "quit")) if self._waiting() else (
            ("Tab", "complete"), ("help", ""), ("Ctrl-D", "quit"))
        for k, v in keys:
            if len(text) + len(k) + len(v) + 2 >= self.width():
                break
            text += k + v + "  "
            out.append(("class:bottom-toolbar.key", k))
            out.append(("class:bottom-toolbar", f" {v} " if v else " "))
        return out

    def _waiting(self) -> bool:
        """A page, a question or the hand-over screen waits: Tab completes nothing."""
        return self.asking is not None or self.handover is not None

    # ------------------------------------------------------------------ input
    def _accept(self, buf: Buffer) -> bool:
        line = buf.text
        if self.asking is not None:
            done, answer = self.asking
            self.asking = None
            answer.append(line)
            self.messages.append(line)
            done.set()
            return False
        if self.handover is not None:
            self.handover = None
            self._redraw()
            return False
        if self.busy:
            return True  # keep the text: a line is still being carried out
        self.messages = []
        self.busy = True
        threading.Thread(target=self._run_line, args=(line,), daemon=True).start()
        return False

    def _run_line(self, line: str) -> None:
        try:
            go_on = True
            todo: str | None = line
            while go_on and todo is not None:  # (a line typed at a page runs next)
                self.after_page = None
                go_on = self.handle(todo)
                if go_on and self.asking is None:
                    # an output longer than the screen (help, a long error list) is paged
                    # like `rules`, never cut with no way to read the rest
                    if len(wrap_messages(self.messages, self._size()[0])) > self.long_room:
                        self._page(list(self.messages))
                todo = self.after_page
                if todo is not None:
                    self.messages = []
        except Exception as e:  # pragma: no cover - never a traceback
            go_on = True
            self.messages.append(f"error: {e}")
        self.busy = False
        if not go_on:
            self.app.exit(result=0)
        loop = getattr(self.app, "loop", None)
        if loop is not None:  # the buffer belongs to the event loop's thread
            loop.call_soon_threadsafe(self._close_stray_menu)
        self._redraw()

    def _drop_stray_menu(self) -> None:
        loop = getattr(self.app, "loop", None)
        if loop is not None:  # the buffer belongs to the event loop's thread
            loop.call_soon_threadsafe(self._close_stray_menu)

    def _close_stray_menu(self) -> None:
        # A completion started by a key typed just before Enter (a fast "1" Enter, or
        # pasted input) can finish after the line was taken and open a menu over the
        # move list on an empty line. A menu the person did not ask for goes.
        buf = self.buffer
        if not buf.text and buf.complete_state is not None:
            buf.cancel_completion()

    def _build_app(self) -> Application[int]:
        # No completion menu over a question, a page or the hand-over screen: a menu
        # that opened on its own (keys pasted in one burst) would hide the text being
        # read, and at the hand-over it would list the next seat's moves to the seat
        # before. Tab there does nothing: with the menu hidden it still completed, out
        # of sight, and a second Tab wrote a move's name after `more>`.
        waiting = Condition(self._waiting)
        no_question = ~waiting
        self.buffer = Buffer(
            multiline=False, accept_handler=self._accept, history=self.prompt_history(),
            completer=MoveCompleter(self._completable_moves, self._commands,
                                    arg_choices=arg_choices(self), cards=self._cards,
                                    set_moves=self._set_moves),
            complete_while_typing=no_question, auto_suggest=AutoSuggestFromHistory())
        prompt = BeforeInput(lambda: [("class:command", self.prompt_text())])
        input_window = Window(BufferControl(
            self.buffer, input_processors=[prompt],
            lexer=InputLexer(self._move_names, list(COMMANDS) + list(REPLAY_COMMANDS),
                             cards=self._cards)), height=1)
        body = Window(FormattedTextControl(self.body), wrap_lines=False)
        toolbar = Window(FormattedTextControl(self.toolbar_text), height=1,
                         style="class:bottom-toolbar")
        root = FloatContainer(
            HSplit([body, VSplit([input_window]), toolbar]),
            floats=[Float(xcursor=True, ycursor=True,
                          content=CompletionsMenu(max_height=8, scroll_offset=1,
                                                  extra_filter=no_question))])
        kb = KeyBindings()

        @kb.add("c-d")
        def _eof(event: KeyPressEvent) -> None:
            # at a page too: `quit` is not one of its keys, so the page is left and the
            # quit carried out (`_page`), asking first as at the prompt
            if event.current_buffer.text:
                event.current_buffer.delete()
                return
            # at a question (not a page), the end of input says yes, as in the plain mode
            # (`Repl.confirm`): Ctrl-D at "Quit anyway?" quits
            asked = self.asking is not None and not self.paging
            event.current_buffer.text = "y" if asked else "quit"
            event.current_buffer.validate_and_handle()

        @kb.add("tab", filter=waiting)
        @kb.add("s-tab", filter=waiting)
        def _no_completion(event: KeyPressEvent) -> None:
            pass

        @kb.add("c-c")
        def _drop(event: KeyPressEvent) -> None:
            event.current_buffer.reset()

        @kb.add("c-l")
        def _refresh(event: KeyPressEvent) -> None:
            event.app.renderer.clear()

        return Application(layout=Layout(root, focused_element=input_window), key_bindings=kb,
                           style=STYLE, full_screen=True, input=self.input,
                           output=self.output, include_default_pygments_style=False,
                           mouse_support=False)

    def prompt_text(self) -> str:
        if self.asking is not None:
            return "more> " if self.paging else "answer> "
        if self.handover is not None:
            return "Enter> "
        return self.message()

    def prompt_history(self) -> Any:
        assert self.prompt_session is not None
        return self.prompt_session.history

    def run(self, seed_note: str = "") -> int:
        if seed_note:
            self.messages.append(seed_note)
        if self.replay is not None:
            r = self.replay
            self.messages.append(f"replay of {r.game.name}: {r.total} moves")
            self.messages += r.notes
        else:
            self.sess.advance()
        self.show_table()
        result = self.app.run()
        return result or 0


def _turn(info: Any, repl: ScreenRepl) -> Line:
    s = repl.sess
    if repl.replay is None and not s.over and s.person_to_move() is not None and s.my_moves():
        who = "your turn" if len(s.seats) == 1 else f"your turn (p{s.person_to_move()})"
        return [("class:turn", who)]
    return turn_line(info)


def _status(text: str) -> Line:
    return [("class:dim", f" · {text}")] if text else []


def _cut_moves(lines: list[Line], n: int) -> list[Line]:
    if len(lines) <= n:
        return lines
    return lines[:max(n - 1, 0)] + [[("class:dim", f"  … {len(lines) - n + 1} more rows: "
                                      "Tab lists the moves")]]


def _row_moves(moves: list[tuple[str, str]]) -> list[Line]:
    """A few moves: one per line with its description (as the plain mode)."""
    return move_lines(moves, 200)


def _handover_lines(seat: int, height: int) -> list[Line]:
    pad = max(height // 2 - 2, 0)
    lines: list[Line] = [[("", "")] for _ in range(pad)]
    lines.append([("class:title", f"  Hand over to p{seat}")])
    lines.append([("class:dim", f"  The table is hidden so that p{seat}'s hand is not seen "
                   "by the seat before.")])
    lines.append([("class:dim", f"  Press Enter when p{seat} is at the keyboard.")])
    return lines


def _wrapped(raw: list[str], cols: int) -> tuple[list[str], list[int]]:
    """`wrap_messages` of `raw`, and for each line shown the index of the raw line it
    comes from (a page keeps its place when the screen changes width)."""
    texts: list[str] = []
    owner: list[int] = []
    for i, line in enumerate(raw):
        got = wrap_messages([line], cols)
        texts += got
        owner += [i] * len(got)
    return texts, owner


def wrap_messages(messages: list[str], cols: int) -> list[str]:
    """The output lines as the screen shows them: a line wider than the terminal goes on
    in lines indented by two spaces, so a hint or an error is read whole, not cut at
    the edge."""
    out: list[str] = []
    for m in messages:
        if len(m) <= cols or cols < 20:
            out.append(m)
        else:
            out.extend(textwrap.wrap(m, width=cols, subsequent_indent="  ",
                                     break_on_hyphens=False) or [m])
    return out
