"""The REPL's commands: their table (name -> what it does) and one handler each.

A handler takes the REPL (anything with the `Host` interface below) and the text after
the command's name, changes the session and shows what happened. `play_line` and
`replay_line` turn one input line into a move or a command; errors are `CommandError`
(or any CardgameError), which the REPL prints in one line.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, Protocol

from cardgame.interpreter.bots import BOTS
from cardgame.interpreter.errors import IllegalMove, did_you_mean
from cardgame.interpreter.terminal import sanitize
from prompt_toolkit import PromptSession
from prompt_toolkit.formatted_text import StyleAndTextTuples

from .render import move_lines
from .rules import rules_lines, rules_width
from .session import CommandError, ReplayView, Session

COMMANDS: dict[str, str] = {
    "help": "the commands (help COMMAND for one)",
    "rules": "the rules of the game",
    "moves": "your legal moves, numbered",
    "show": "draw the table again",
    "undo": "undo [N]: take back your last move (or N), with the moves after it",
    "redo": "redo [N]: play again what undo took back",
    "hint": "what the strongest bot for the game (ismcts-lead, ismcts, ismcts-max or mcts) would play in your place",
    "log": "every move so far",
    "save": "save FILE: save the game as a replay file",
    "load": "load FILE: load a saved game or a replay file",
    "new": "new [SEED]: a new deal (a random seed if none is given)",
    "restart": "the same deal again, from the start",
    "set": "set auto on|off (auto-play bots and forced moves), set bots random|greedy|mcts|ismcts (ismcts:N: N iterations a move)",
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


class Host(Protocol):
    """What the commands need of the REPL: the session, output and the table."""

    sess: Session
    replay: ReplayView | None
    interactive: bool

    def emit(self, frags: StyleAndTextTuples | str, style: str = "") -> None: ...
    def info(self, msg: str) -> None: ...
    def width(self) -> int: ...
    def show_table(self) -> None: ...
    def confirm(self, question: str) -> bool: ...
    def may_discard(self) -> bool: ...


Handler = Callable[[Host, str], None]


def available(repl: Host) -> dict[str, str]:
    """The commands that can be typed now (a replay has its own)."""
    return dict(REPLAY_COMMANDS) if repl.replay is not None else dict(COMMANDS)


def arg_choices(repl: Host) -> dict[str, Any]:
    """What Tab offers after a command's name, by command."""
    def set_choices(words: list[str]) -> list[str]:
        if not words:
            return ["auto", "bots"]
        if words[0] == "auto" and len(words) == 1:
            return ["on", "off"]
        if words[0] == "bots" and len(words) == 1:
            return sorted(BOTS)
        return []

    def help_choices(words: list[str]) -> list[str]:
        return list(available(repl)) + list(repl.sess.game.checked.moves) if not words else []

    return {"set": set_choices, "help": help_choices}


# ---------------------------------------------------------------------- one input line
def play_line(repl: Host, text: str) -> None:
    """A line while playing: Enter, a move (number or text) or a command."""
    s = repl.sess
    if not text:
        if s.pending_auto() is not None and (not s.auto or s.circling):
            s.step_once()
            s.advance()
            repl.show_table()
        return
    word, _, rest = text.partition(" ")
    word = word.lower()
    cmd = ALIASES.get(word, word)
    move = _typed_move(s, text)
    if move is not None:
        play_move(repl, move)
    elif text.isdigit():
        play_move(repl, s.parse(text))
    elif cmd in COMMANDS:
        HANDLERS[cmd](repl, rest.strip())
    elif word in {n.lower() for n in s.game.move_names}:
        play_move(repl, s.parse(text))  # not legal: parse says why
    else:
        raise CommandError(unknown_word(s, word, list(COMMANDS) + list(ALIASES)))


def unknown_word(s: Session, word: str, commands: list[str]) -> str:
    """`unknown command or move 'dicsard': did you mean 'discard'?`"""
    moves = [n for n in s.game.move_names if n != "pass" or s.my_moves()]
    hint = did_you_mean(word, moves + commands)
    if hint:
        return f"unknown command or move '{word}': {hint}"
    return (f"unknown command '{word}': help lists the commands; "
            "your moves are listed with numbers")


def replay_line(repl: Host, text: str) -> None:
    """A line while stepping through a replay (Enter is `next`)."""
    word, _, rest = text.partition(" ")
    cmd = ALIASES.get(word.lower(), word.lower()) if text else "next"
    if cmd not in REPLAY_HANDLERS:
        hint = did_you_mean(word.lower(), list(REPLAY_HANDLERS))
        raise CommandError(f"unknown replay command '{word}': " + (
            hint or "Enter (next), back, start, end, goto N, play, quit"))
    REPLAY_HANDLERS[cmd](repl, rest.strip())


def _typed_move(s: Session, text: str) -> Any:
    p = s.person_to_move()
    if p is None or text.isdigit() or not s.my_moves():
        return None
    try:
        return s.game.parse_move(s.state, text, p)
    except IllegalMove:
        return None


def play_move(repl: Host, move: Any) -> None:
    repl.sess.play(move)
    repl.sess.advance()
    repl.show_table()


# ---------------------------------------------------------------------- the commands
def cmd_help(repl: Host, arg: str) -> None:
    cmds = available(repl)
    if arg:
        name = ALIASES.get(arg, arg)
        if name in cmds:
            repl.emit(f"{name}: {cmds[name]}")
            return
        if arg in repl.sess.game.checked.moves:
            repl.emit("\n".join(move_help(repl.sess, arg)))
            return
        hint = did_you_mean(arg, list(cmds) + list(repl.sess.game.checked.moves))
        raise CommandError(f"no command or move '{arg}': " + (hint or "help lists them"))
    lines = ["commands:"] + [f"  {n:<8} {d}" for n, d in cmds.items()]
    if repl.replay is None:
        lines += ["a move: its number in the list, or its text (e.g. "
                  f"'{_example_move(repl.sess)}'); Tab completes, Up recalls",
                  "help MOVE: what a move does and when it is allowed "
                  f"(moves: {', '.join(repl.sess.game.checked.moves)})",
                  "Ctrl-C cancels the line; Ctrl-D quits"]
    repl.emit("\n".join(lines))


def move_help(s: Session, name: str) -> list[str]:
    """`help build`: the move's text, its description, and each condition with its line."""
    game = s.game
    decl = game.checked.moves[name]
    params = " ".join(p.name.upper() for p in decl.params)
    doc = decl.doc.replace("{me}", "you").replace("{my}", "your")
    for p in decl.params:
        doc = doc.replace("{" + p.name + "}", p.name.upper())
    lines = [f"{name} {params}".rstrip() + (f": {sanitize(doc)}" if doc else "")]
    for p in decl.params:
        lines.append(f"  {p.name.upper()} is taken from {game.source_text(p.source.span)}")
    conds = game.move_conditions(name)
    if not conds:
        lines.append("  allowed whenever the game offers it")
    for i, (cond, reason, where) in enumerate(conds):
        lines.append(f"  {'when' if i == 0 else 'and '} {sanitize(cond)}   ({where})")
        if reason:
            lines.append(f"       else: {sanitize(reason)}")
    mine = [t for t, _ in s.my_move_texts() if t.split()[0] == name]
    if mine:
        lines.append("  legal now: " + ", ".join(mine[:12]) + (" ..." if len(mine) > 12 else ""))
    return lines


def _example_move(s: Session) -> str:
    moves = s.my_move_texts()
    return moves[0][0] if moves else "draw"


def cmd_rules(repl: Host, arg: str) -> None:
    page(repl, rules_lines(repl.sess.game, repl.sess.game_ref, rules_width(repl.width())))


def page(repl: Host, lines: list[StyleAndTextTuples]) -> None:
    """Long text a screen at a time: the REPL's own pager if it has one, else page by
    page at a terminal (Enter: the next page, q: stop, Ctrl-D: quit, as at the prompt);
    all at once when not interactive (piped input must not be eaten by a pager)."""
    pager = getattr(repl, "pager", None)
    if callable(pager):
        pager(lines)
        return
    rows = _rows(repl)
    if not repl.interactive or len(lines) <= rows:
        repl.emit(_joined(lines))
        return
    ask: PromptSession[str] = PromptSession(input=getattr(repl, "input", None),
                                            output=getattr(repl, "output", None))
    for start in range(0, len(lines), rows):
        repl.emit(_joined(lines[start:start + rows]))
        if start + rows >= len(lines):
            break
        try:
            more = ask.prompt(f"-- {start + rows} of {len(lines)} lines: Enter for more, "
                              "q to stop -- ")
        except KeyboardInterrupt:
            break
        except EOFError:  # Ctrl-D: leave the page, then quit as Ctrl-D at the prompt does
            cmd_quit(repl, "")
            break
        if more.strip().lower().startswith("q"):
            break


def _rows(repl: Host) -> int:
    out = getattr(repl, "output", None)
    try:
        return max(out.get_size().rows - 2, 5) if out is not None else 22
    except Exception:  # noqa: BLE001 - an output that cannot tell its size
        return 22


def _joined(lines: list[StyleAndTextTuples]) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    for i, ln in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out.extend(ln)
    return out


def cmd_moves(repl: Host, arg: str) -> None:
    moves = repl.sess.my_move_texts()
    if not moves:
        repl.info("you have no move to choose now")
        return
    out: StyleAndTextTuples = []
    for i, ln in enumerate(move_lines(moves, repl.width())):
        if i:
            out.append(("", "\n"))
        out.extend(ln)
    repl.emit(out)


def cmd_show(repl: Host, arg: str) -> None:
    whole = getattr(repl, "whole_table", None)  # the full screen: maybe page by page
    if callable(whole):
        whole()
        return
    repl.show_table()


def _count(arg: str, what: str) -> int:
    if not arg:
        return 1
    if not arg.isdigit() or int(arg) < 1:
        raise CommandError(f"{what} takes a number of steps: {what} 3")
    return int(arg)


def cmd_undo(repl: Host, arg: str) -> None:
    n = _count(arg, "undo")
    conceded = repl.sess.conceded is not None
    done = repl.sess.undo(n)
    if not done:
        raise CommandError("nothing to undo")
    repl.info(f"undid {_what(done, conceded)}"
              + (f" (only {done} to undo)" if done < n else ""))
    repl.show_table()


def cmd_redo(repl: Host, arg: str) -> None:
    n = _count(arg, "redo")
    done = repl.sess.redo(n)
    if not done:
        raise CommandError("nothing to redo")
    repl.info(f"redid {_what(done, repl.sess.conceded is not None)}"
              + (f" (only {done} to redo)" if done < n else ""))
    repl.show_table()


def cmd_hint(repl: Host, arg: str) -> None:
    repl.info(repl.sess.hint())


def cmd_log(repl: Host, arg: str) -> None:
    lines = repl.sess.log_lines()
    pager = getattr(repl, "pager", None)
    if callable(pager):  # the full screen: a page at a time, opening at the latest moves
        pager([[("", ln)] for ln in lines], at_end=True)
        return
    repl.emit("\n".join(lines))


def cmd_save(repl: Host, arg: str) -> None:
    if not arg:
        raise CommandError("save needs a file name: save FILE")
    path = os.path.expanduser(arg)
    repl.sess.save(path)
    repl.info(f"saved to {arg} ({moves_text(len(repl.sess.steps))}; load {arg} or "
              f"cardgame play --replay {_shell_word(arg)})")


def _shell_word(path: str) -> str:
    """A file name as a shell command needs it (`'my save.json'`), a leading `~/` left
    outside the quotes so that the shell still expands it."""
    import shlex

    if path.startswith("~/"):
        return "~/" + shlex.quote(path[2:])
    return shlex.quote(path)


def cmd_load(repl: Host, arg: str) -> None:
    if not arg:
        raise CommandError("load needs a file name: load FILE")
    sess, notes = repl.sess.load(os.path.expanduser(arg))
    for n in notes:
        repl.emit(n, "class:warning")
    repl.sess = sess
    repl.info(f"loaded {arg}: {sess.game.name}, seed {sess.seed}, "
              f"{moves_text(len(sess.steps))}")
    sess.advance()
    repl.show_table()


def cmd_new(repl: Host, arg: str) -> None:
    if arg and not arg.lstrip("-").isdigit():
        raise CommandError(f"new takes a seed number, not '{arg}': new 42")
    seed = repl.sess.new(int(arg) if arg else None)
    repl.info(f"new game, seed {seed}")
    repl.sess.advance()
    repl.show_table()


def cmd_restart(repl: Host, arg: str) -> None:
    repl.sess.restart()
    repl.info(f"restarted, seed {repl.sess.seed}")
    repl.sess.advance()
    repl.show_table()


def cmd_set(repl: Host, arg: str) -> None:
    words = arg.lower().split()
    s = repl.sess
    if not words:
        repl.info(f"auto {'on' if s.auto else 'off'}, bots {s.bot_name}")
        return
    if words[0] == "auto" and len(words) == 2 and words[1] in ("on", "off"):
        s.auto = words[1] == "on"
        repl.info(f"auto {words[1]}")
        if s.auto and s.advance():
            repl.show_table()
        return
    if words[0] == "bots" and len(words) == 2:
        s.set_bots(words[1])
        repl.info(f"bots {words[1]}")
        return
    raise CommandError("set auto on|off, or set bots " + "|".join(sorted(BOTS)))


def cmd_concede(repl: Host, arg: str) -> None:
    s = repl.sess
    if arg:
        raise CommandError(f"concede takes nothing after it, not '{arg}'")
    if s.over:
        raise CommandError("the game is over (new, restart or undo)")
    if repl.interactive and not repl.confirm("Concede this game? You lose it. [y/N] "):
        repl.info("not conceded: play on")
        return
    seat = s.concede()
    repl.info(f"{s.who(seat)} conceded: the game is over (undo takes it back; "
              "save keeps the moves before it)")
    repl.show_table()


def cmd_quit(repl: Host, arg: str) -> None:
    if repl.may_discard():
        raise Quit


# ---------------------------------------------------------------------- replay mode
def _replay(repl: Host) -> ReplayView:
    assert repl.replay is not None
    return repl.replay


def cmd_next(repl: Host, arg: str) -> None:
    r = _replay(repl)
    if r.pos >= r.total:
        raise CommandError(f"that was the last move ({r.total}): back, start, play or quit")
    r.goto(r.pos + 1)
    repl.show_table()


def cmd_back(repl: Host, arg: str) -> None:
    r = _replay(repl)
    r.goto(r.pos - _count(arg, "back"))
    repl.show_table()


def cmd_start(repl: Host, arg: str) -> None:
    _replay(repl).goto(0)
    repl.show_table()


def cmd_end(repl: Host, arg: str) -> None:
    r = _replay(repl)
    r.goto(r.total)
    repl.show_table()


def cmd_goto(repl: Host, arg: str) -> None:
    if not arg.isdigit():
        raise CommandError("goto takes a move number: goto 12")
    _replay(repl).goto(int(arg))
    repl.show_table()


def cmd_play(repl: Host, arg: str) -> None:
    repl.sess = _replay(repl).take_over()
    repl.replay = None
    repl.info(f"playing on from move {len(repl.sess.steps)}")
    repl.sess.advance()
    repl.show_table()


# ---------------------------------------------------------------------- small texts
def _what(done: int, concession: bool) -> str:
    """What undo or redo went through: `done` decisions, one of them the concession."""
    moves = done - 1 if concession else done
    what = [f"{moves} move{'s' if moves > 1 else ''} of yours"] if moves else []
    return " and ".join((["your concession"] if concession else []) + what)


def moves_text(moves: int) -> str:
    return f"{moves} move" if moves == 1 else f"{moves} moves"


HANDLERS: dict[str, Handler] = {
    "help": cmd_help, "rules": cmd_rules, "moves": cmd_moves, "show": cmd_show,
    "undo": cmd_undo, "redo": cmd_redo, "hint": cmd_hint, "log": cmd_log, "save": cmd_save,
    "load": cmd_load, "new": cmd_new, "restart": cmd_restart, "set": cmd_set,
    "concede": cmd_concede, "quit": cmd_quit,
}
REPLAY_HANDLERS: dict[str, Handler] = {
    "next": cmd_next, "back": cmd_back, "start": cmd_start, "end": cmd_end, "goto": cmd_goto,
    "play": cmd_play, "log": cmd_log, "show": cmd_show, "rules": cmd_rules, "help": cmd_help,
    "quit": cmd_quit,
}
