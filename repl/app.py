"""`cardgame play`: the prompt_toolkit REPL, and its scriptable mode.

    cardgame play GAME [--players N] [--set NAME=VALUE]... [--seed S] [--seat K]...
                       [--bots random|greedy] [--replay FILE] [--history FILE]

At a terminal the table is drawn in colour after every move and the prompt offers Tab
completion of the legal moves, history (Up), a bottom toolbar and highlighting. When
stdin is not a terminal, one command is read per line and the same table is printed
as plain text (each command echoed after the prompt), so a session can be scripted:

    cardgame play calculation --seed 7 < moves.txt

`Repl` is the loop over input lines (the commands themselves are in `commands`);
`make_repl` builds it from the command line's arguments (tests drive it through a pipe
input and `DummyOutput`).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from typing import Any, TextIO

from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.engine import replay as replay_mod
from cardgame.interpreter.errors import UsageError
from cardgame.interpreter.options import parse_settings
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from .base import DEFAULT_HISTORY, Repl
from .commands import COMMANDS, REPLAY_COMMANDS
from .session import CommandError, ReplayView, Session, bot_names

__all__ = ["COMMANDS", "REPLAY_COMMANDS", "Repl", "make_repl", "run_play"]


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
              stream: TextIO | None = None,
              repl_class: type[Repl] | None = None) -> tuple[Repl, str]:
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
        game = rep.compile(args.game, args.players, settings)
        _check_seats(seats, game.players, UsageError)
        _check_bots(bots, game.players)
        view = ReplayView(rep, game, seats, bots)
        return (repl_class or Repl)(replay=view, **kw), ""
    if not args.game:
        raise UsageError("play needs a GAME: a bundled name (cardgame list) or a .cardgame file")
    game = compile_game(args.game, args.players, settings)
    _check_seats(seats, game.players, UsageError)
    _check_bots(bots, game.players)
    if args.seed is None:
        seed = random.randrange(2**31)
        note = f"seed {seed} (chosen at random; --seed {seed} plays this deal again)"
    else:
        seed, note = args.seed, ""
    sess = Session(game, args.game, seed, settings, seats, bots)
    return (repl_class or Repl)(sess, **kw), note


def _check_bots(bots: str, players: int) -> None:
    """`--bots`: one name, or one per seat (a usage error, as argparse's own are)."""
    try:
        bot_names(bots, players)
    except CommandError as e:
        raise UsageError(str(e)) from None


def _check_seats(seats: list[int] | None, players: int, err: type[Exception]) -> None:
    for s in seats or ():
        if not 1 <= s <= players:
            raise err(f"--seat {s}: this game has seats 1 to {players}" if players > 1
                      else f"--seat {s}: this is a one-player game (seat 1)")


def full_screen_ok() -> bool:
    """A real terminal on both ends that can draw a full screen (not TERM=dumb)."""
    term = os.environ.get("TERM", "")
    return (sys.stdin.isatty() and sys.stdout.isatty() and term not in ("", "dumb")
            and not os.environ.get("CARDGAME_PLAIN"))


def run_play(args: argparse.Namespace) -> int:
    """`cardgame play`: full screen at a terminal, line by line on a dumb one, scriptable
    when stdin is not a terminal."""
    if full_screen_ok():
        from .screen import ScreenRepl

        repl, note = make_repl(args, repl_class=ScreenRepl)
        return repl.run(note)
    repl, note = make_repl(args)
    if repl.interactive:
        return repl.run(note)
    return repl.run_script(sys.stdin, note)
