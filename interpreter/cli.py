"""The `cardgame` command: list, check, play, simulate, fuzz.

Argparse and dispatch only: each command calls its package (lang, engine, analysis,
fuzz, repl) and prints the report it returns. Nothing imports this module.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import __version__
from .errors import CardgameError, Diagnostic, Diagnostics, UsageError
from .lang import bundled_dir, bundled_names, load
from .options import option_text, parse_settings


def add_game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, default=None, metavar="N", help="number of players")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="set a game option (repeatable)")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help="random seed (any run with the same seed repeats exactly)")


def game_from_args(args: argparse.Namespace) -> Any:
    from .engine import compile_game

    return compile_game(args.game, args.players, parse_settings(args.set))


# ---------------------------------------------------------------------- list
def cmd_list(args: argparse.Namespace) -> int:
    from .lang import check

    rows: list[dict[str, Any]] = []
    for name in bundled_names():
        loaded = load(bundled_dir() / f"{name}.cardgame")
        checked = check(loaded)
        base = loaded.chain[1] if len(loaded.chain) > 1 else None
        rows.append({
            "name": name,
            "title": checked.name,
            "extends": Path(base).stem if base else None,
            "players": list(checked.player_range),
            "options": {k: _option_doc(od) for k, od in checked.option_decls.items()},
        })
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for r in rows:
        lo, hi = r["players"]
        players = f"{lo} player{'s' if hi > 1 else ''}" if lo == hi else f"{lo}-{hi} players"
        kind = f"  (variant of {r['extends']})" if r["extends"] else ""
        print(f"{r['name']:<28} {r['title']}, {players}{kind}")
        for k, doc in r["options"].items():
            print(f"{'':<30}--set {k}={doc}")
    return 0


def _option_doc(od: Any) -> str:
    if od.kind == "int":
        dom = f"{od.low}..{od.high}"
    elif od.kind == "bool":
        dom = "true|false"
    else:
        dom = "|".join(str(c) for c in od.choices)
    return f"{dom} (default {option_text(od.default)})" + (f"  {od.doc}" if od.doc else "")


# ---------------------------------------------------------------------- check
def cmd_check(args: argparse.Namespace) -> int:
    from .engine import compile_game

    failed = 0
    for f in args.files:
        try:
            game = compile_game(f, args.players, parse_settings(args.set))
        except (Diagnostic, Diagnostics) as e:
            print(_format_error(e), file=sys.stderr)
            failed += 1
            continue
        if args.graph:
            from .codegen import flow_dot

            print(flow_dot(game.name, game.gen))
        elif not args.quiet:
            print(f"{f}: ok ({game.name}, {_n(game.players, 'player')}, "
                  f"{_n(len(game.checked.cards), 'card')}, {_n(len(game.checked.moves), 'move')}, "
                  f"{_n(len(game.gen.decisions), 'decision point')})")
    return 1 if failed else 0


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


# ---------------------------------------------------------------------- simulate
def cmd_simulate(args: argparse.Namespace) -> int:
    from .analysis import simulate, simulation_text

    game = game_from_args(args)
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    r = simulate(game, args.games, seed, args.max_moves)
    print(json.dumps(r, indent=2) if args.json else simulation_text(r))
    return 1 if r["rule_errors"] or r["dead_ends"] else 0


# ---------------------------------------------------------------------- play / fuzz
def cmd_play(args: argparse.Namespace) -> int:
    try:
        from cardgame.repl.app import run_play
    except ImportError as e:  # pragma: no cover
        raise UsageError(f"the REPL is not available: {e}") from None
    result: int = run_play(args)
    return result


def cmd_fuzz(args: argparse.Namespace) -> int:
    from .fuzz import run_fuzz

    result: int = run_fuzz(args)
    return result


# ---------------------------------------------------------------------- main
def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cardgame",
                                description="Design, check, play, simulate and fuzz card games.")
    p.add_argument("--version", action="version", version=f"cardgame {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    sp = sub.add_parser("list", help="bundled games, variants and their options")
    sp.add_argument("--json", action="store_true", help="machine-readable output")
    sp.set_defaults(func=cmd_list)

    sp = sub.add_parser("check", help="compile game files and report errors")
    sp.add_argument("files", nargs="+", metavar="FILE")
    sp.add_argument("--graph", action="store_true", help="print the compiled flow as Graphviz DOT")
    sp.add_argument("--quiet", "-q", action="store_true", help="print errors only")
    sp.add_argument("--players", type=int, default=None, metavar="N")
    sp.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    sp.set_defaults(func=cmd_check)

    sp = sub.add_parser("play", help="play a game in the terminal")
    sp.add_argument("game", metavar="GAME", nargs="?", default=None,
                    help="a bundled game name or a .cardgame file")
    add_game_options(sp)
    sp.add_argument("--seat", type=int, action="append", default=None, metavar="K",
                    help="a seat you play (repeatable; default seat 1)")
    from .bots import BOTS

    sp.add_argument("--bots", choices=sorted(BOTS), default="greedy",
                    help="the bot for the other seats")
    sp.add_argument("--replay", metavar="FILE", help="step through a saved game or counterexample")
    sp.add_argument("--history", metavar="FILE", default=None, help="history file for the prompt")
    sp.set_defaults(func=cmd_play)

    sp = sub.add_parser("simulate", help="play many games with random moves and print figures")
    sp.add_argument("game", metavar="GAME")
    add_game_options(sp)
    sp.add_argument("--games", type=int, default=1000, metavar="N")
    sp.add_argument("--max-moves", type=int, default=100_000, metavar="M",
                    help="stop a game after this many moves")
    sp.add_argument("--json", action="store_true", help="machine-readable output")
    sp.set_defaults(func=cmd_simulate)

    sp = sub.add_parser("fuzz", help="search for rule holes, with a shortest counterexample")
    sp.add_argument("game", metavar="GAME")
    add_game_options(sp)
    grp = sp.add_mutually_exclusive_group()
    grp.add_argument("--seconds", type=float, default=None, metavar="T")
    grp.add_argument("--examples", type=int, default=None, metavar="N")
    sp.add_argument("--max-moves", type=int, default=2000, metavar="M")
    sp.add_argument("--json", action="store_true", help="machine-readable report")
    sp.add_argument("--out", metavar="FILE", default=None,
                    help="where to write the counterexample replay file")
    sp.set_defaults(func=cmd_fuzz)
    return p


def _format_error(e: BaseException) -> str:
    if isinstance(e, Diagnostics):
        return "\n".join(d.format() for d in e.items) + f"\n{len(e.items)} errors"
    if isinstance(e, Diagnostic):
        return e.format()
    return f"error: {e}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        code: int = args.func(args)
        return code
    except UsageError as e:
        print(f"cardgame {args.command}: error: {e}", file=sys.stderr)
        return 2
    except (Diagnostic, Diagnostics) as e:
        print(_format_error(e), file=sys.stderr)
        return 2 if args.command == "fuzz" else 1
    except CardgameError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
