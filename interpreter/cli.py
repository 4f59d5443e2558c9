"""The `cardgame` command: list, check, play, simulate, fuzz."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .errors import CardgameError, Diagnostic, Diagnostics, UsageError
from .lang import bundled_dir, bundled_names, load
from .options import parse_settings


def version() -> str:
    try:
        from importlib.metadata import version as v

        return v("cardgame")
    except Exception:  # pragma: no cover - running from a source tree
        return "0+unknown"


def add_game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, default=None, metavar="N", help="number of players")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="set a game option (repeatable)")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help="random seed (any run with the same seed repeats exactly)")


def game_from_args(args: argparse.Namespace) -> Any:
    from .engine.pipeline import compile_game

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
    default = str(od.default).lower() if isinstance(od.default, bool) else str(od.default)
    return f"{dom} (default {default})" + (f"  {od.doc}" if od.doc else "")


# ---------------------------------------------------------------------- check
def cmd_check(args: argparse.Namespace) -> int:
    from .engine.pipeline import compile_game

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
def simulate(game: Any, games: int, seed: int, max_moves: int = 100_000) -> dict[str, Any]:
    from .errors import RuleError

    rng = random.Random(seed)
    total_moves = 0
    wins = [0] * game.players
    draws = [0] * game.players
    score_sum = [0] * game.players
    longest = 0
    errors: list[str] = []
    dead_ends = 0
    unfinished = 0
    t0 = time.perf_counter()
    for _ in range(games):
        game_seed = rng.getrandbits(32)
        try:
            s, n = game.random_playout(game_seed, rng, max_moves)
        except RuleError as e:
            errors.append(f"seed {game_seed}: {e}")
            continue
        total_moves += n
        longest = max(longest, n)
        st = game.final_state(s)
        if not game.is_terminal(st):
            if n >= max_moves:
                unfinished += 1
            else:
                dead_ends += 1
            continue
        for p, (r, sc) in enumerate(zip(game.results(st), game.scores(st), strict=True)):
            wins[p] += r == "win"
            draws[p] += r == "draw"
            score_sum[p] += sc
    dt = time.perf_counter() - t0
    done = max(games - len(errors) - dead_ends - unfinished, 1)
    return {
        "game": game.name,
        "players": game.players,
        "options": game.options,
        "games": games,
        "seed": seed,
        "seconds": round(dt, 4),
        "games_per_second": round(games / dt, 2) if dt else None,
        "moves_per_second": round(total_moves / dt, 1) if dt else None,
        "average_moves": round(total_moves / max(games - len(errors), 1), 2),
        "longest_game": longest,
        "win_rate": [round(w / done, 4) for w in wins],
        "draw_rate": [round(d / done, 4) for d in draws],
        "average_score": [round(x / done, 3) for x in score_sum],
        "rule_errors": len(errors),
        "dead_ends": dead_ends,
        "unfinished": unfinished,
        "first_errors": errors[:3],
    }


def cmd_simulate(args: argparse.Namespace) -> int:
    game = game_from_args(args)
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    r = simulate(game, args.games, seed, args.max_moves)
    if args.json:
        print(json.dumps(r, indent=2))
    else:
        opts = ", ".join(f"{k}={v}" for k, v in r["options"].items())
        print(f"{r['game']}: {r['games']} random games, seed {seed}"
              + (f", {r['players']} players" if r["players"] > 1 else "") + (f" ({opts})" if opts else ""))
        print(f"  games/s        {r['games_per_second']:,.1f}")
        print(f"  moves/s        {r['moves_per_second']:,.0f}")
        print(f"  average moves  {r['average_moves']:.1f} (longest {r['longest_game']})")
        if game.players == 1:
            print(f"  win rate       {100 * r['win_rate'][0]:.2f}%")
            print(f"  average score  {r['average_score'][0]:.2f}")
        else:
            for p in range(game.players):
                print(f"  P{p + 1}: win rate {100 * r['win_rate'][p]:.1f}%"
                      f" (shared {100 * r['draw_rate'][p]:.1f}%), average score "
                      f"{r['average_score'][p]:.2f}")
        for key, label in (("rule_errors", "rule errors"), ("dead_ends", "dead ends"),
                           ("unfinished", "unfinished (hit --max-moves)")):
            if r[key]:
                print(f"  {label}: {r[key]}")
        for e in r["first_errors"]:
            print(f"  {e}")
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
    from .fuzz.search import run_fuzz

    result: int = run_fuzz(args)
    return result


# ---------------------------------------------------------------------- main
def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cardgame",
                                description="Design, check, play, simulate and fuzz card games.")
    p.add_argument("--version", action="version", version=f"cardgame {version()}")
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
    from .bots.simple import BOTS

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


def entry() -> None:  # pragma: no cover
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
