"""The `cardgame` command: list, check, play, simulate, compare, fuzz, solve, mutate.

Argparse and dispatch only: each command calls its package (lang, engine, analysis,
fuzz, repl) and prints the report it returns. Nothing imports this module. The progress
bar (tqdm) lives here: the packages below report progress through a callback.

Start-up time matters (`cardgame list` and `check` aim at 0.15 s): each command imports
what it needs inside its function (json too), and building the argument parser imports
nothing heavy (the bot names are looked up only when a bot option is used or help is
shown).
tests/test_startup.py checks that `list` imports no plotting, REPL or fuzzing library.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .errors import CardgameError, Diagnostic, Diagnostics, UsageError
from .options import option_text, parse_settings
from .terminal import counted, sanitize

# ---------------------------------------------------------------------- numeric options
# Every number on the command line is plain ASCII digits (no `1_0`, no `+`, no Arabic-Indic
# digits, which int() would take), within a range: a 5,000-digit seed is a short message,
# not a ValueError, and `--seconds nan` or `--max-moves -1` is refused before anything runs.
# A bad value is a UsageError (one line, exit 2), as the commands' own checks are.
_DIGITS = re.compile(r"[0-9]{1,20}")
_DECIMAL = re.compile(r"[0-9]{1,9}(\.[0-9]{1,9})?")
SECONDS_MAX = 7 * 24 * 3600  # a week
MANY = 10**9  # games, moves, examples: more than any run could use


def _shown(text: str) -> str:
    text = sanitize(text, newlines=False)
    return text if len(text) <= 40 else text[:40] + "..."


def count_arg(flag: str, lo: int, hi: int) -> Any:
    """An argparse type: a whole number lo..hi in plain ASCII digits."""
    def parse(text: str) -> int:
        if re.fullmatch(r"-[0-9]+", text) or (_DIGITS.fullmatch(text) and int(text) < lo):
            raise UsageError(f"{flag} must be at least {lo}")
        if not _DIGITS.fullmatch(text):
            raise UsageError(f"{flag} takes a whole number of at most 20 digits (0-9), "
                             f"not '{_shown(text)}'")
        v = int(text)
        if v > hi:
            raise UsageError(f"{flag} must be at most {hi:,}")
        return v
    return parse


def seconds_arg(flag: str) -> Any:
    """An argparse type: a finite number of seconds, more than 0 and at most a week."""
    def parse(text: str) -> float:
        if not _DECIMAL.fullmatch(text):
            raise UsageError(f"{flag} takes a number of seconds such as 5 or 2.5 (0-9 and "
                             f"'.'), not '{_shown(text)}'")
        v = float(text)
        if v <= 0:
            raise UsageError(f"{flag} must be more than 0")
        if v > SECONDS_MAX:
            raise UsageError(f"{flag} must be at most {SECONDS_MAX:,} (a week)")
        return v
    return parse


def players_arg(flag: str = "--players") -> Any:
    return count_arg(flag, 1, 1000)


def add_game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=players_arg(), default=None, metavar="N", help="number of players")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="set a game option (repeatable)")
    p.add_argument("--seed", type=count_arg("--seed", 0, 2**64 - 1), default=None, metavar="S",
                   help="random seed (any run with the same seed repeats exactly)")


# ---------------------------------------------------------------------- list
def cmd_list(args: argparse.Namespace) -> int:
    import json

    from .lang import bundled_catalog

    rows = bundled_catalog()  # kept in the user's cache directory (lang/catalog.py)
    if args.json:  # each option as data: its type, range or choices, default, and text
        for r in rows:
            r["options"] = {k: _option_data(od) for k, od in r["options"].items()}
        print(json.dumps(rows, indent=2))
        return 0
    for r in rows:
        r["options"] = {k: _option_doc(od) for k, od in r["options"].items()}
    for r in rows:
        lo, hi = r["players"]
        players = f"{lo} player{'s' if hi > 1 else ''}" if lo == hi else f"{lo}-{hi} players"
        kind = f"  (variant of {r['extends']})" if r["extends"] else ""
        print(sanitize(f"{r['name']:<28} {r['title']}, {players}{kind}", newlines=False))
        for k, doc in r["options"].items():
            print(sanitize(f"{'':<30}--set {k}={doc}", newlines=False))
    return 0


def _option_data(od: dict[str, Any]) -> dict[str, Any]:
    """An option for `list --json`: `type` (int, bool or choice), `min`/`max` (int) or
    `choices` (choice), `default`, `doc`, and `text` (the line `list` prints)."""
    out: dict[str, Any] = {"type": od["kind"]}
    if od["kind"] == "int":
        out |= {"min": od["low"], "max": od["high"]}
    elif od["kind"] != "bool":
        out["choices"] = list(od["choices"])
    return out | {"default": od["default"], "doc": od["doc"], "text": _option_doc(od)}


def _option_doc(od: dict[str, Any]) -> str:
    if od["kind"] == "int":
        dom = f"{od['low']}..{od['high']}"
    elif od["kind"] == "bool":
        dom = "true|false"
    else:
        dom = "|".join(str(c) for c in od["choices"])
    return f"{dom} (default {option_text(od['default'])})" + (f"  {od['doc']}" if od["doc"] else "")


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
            print(game.flow_dot())
        elif not args.quiet:
            roles = "".join(f" and {label}" for label in game.checked.roles.values())
            print(sanitize(f"{f}: ok ({game.name}, {counted(game.players, 'player')}{roles}, "
                           f"{counted(len(game.checked.cards), 'card')}, "
                           f"{counted(len(game.checked.moves), 'move')}, "
                           f"{counted(len(game.decisions), 'decision point')})", newlines=False))
    return 1 if failed else 0


# ---------------------------------------------------------------------- simulate / compare
class _Bar:
    """A progress bar on stderr at a terminal (tqdm), nothing in a pipe or with --json;
    the analysis package reports progress through this callback only."""

    def __init__(self, args: argparse.Namespace, what: str, unit: str = " games") -> None:
        self.what = what
        self.unit = unit
        self.on = not getattr(args, "json", False) and sys.stderr.isatty()
        self.bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if not self.on:
            return
        if self.bar is None:
            import shutil

            from tqdm import tqdm

            # a terminal that reports no size (some pseudo-terminals) gets 80 x 24, where
            # tqdm would draw nothing
            size = shutil.get_terminal_size()
            self.bar = tqdm(total=total, desc=self.what, unit=self.unit, leave=False,
                            file=sys.stderr, ncols=min(100, size.columns), nrows=size.lines)
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def add_run_options(p: argparse.ArgumentParser, games: int = 1000,
                    games_help: str = "games to play (default %(default)s)") -> None:
    p.add_argument("--games", type=count_arg("--games", 1, MANY), default=games, metavar="N",
                   help=games_help)
    p.add_argument("--max-moves", type=count_arg("--max-moves", 1, MANY), default=100_000, metavar="M",
                   help="stop a game after this many moves")
    add_scale_options(p)
    p.add_argument("--batch", type=count_arg("--batch", 1, MANY), default=None, metavar="B",
                   help="games per task (default: about 8 tasks per worker, at most 500)")
    p.add_argument("--plot", metavar="DIR", default=None,
                   help="write charts (PNG and SVG) into DIR")
    p.add_argument("--json", action="store_true", help="machine-readable output")


def add_scale_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--jobs", type=count_arg("--jobs", 1, 1024), default=1, metavar="N",
                   help="run on N local processes")
    p.add_argument("--dask", metavar="ADDRESS", default=None,
                   help="run on a Dask cluster: tcp://HOST:8786, or local:N for N local "
                        "workers (needs the extra: pip install 'cardgame[dask]')")


def _bots(values: list[str] | None) -> list[str] | None:
    return [n for v in values for n in v.split(",") if n.strip()] if values else None


def cmd_simulate(args: argparse.Namespace) -> int:
    import json

    from .analysis import make_runner, simulate, simulation_json, simulation_text

    seed = args.seed if args.seed is not None else random.randrange(2**31)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    bar = _Bar(args, "simulate")
    with make_runner(args.jobs, args.dask) as runner:
        try:
            sim = simulate(args.game, args.games, seed, args.max_moves, players=args.players,
                           settings=parse_settings(args.set), bots=_bots(args.bots),
                           coverage_games=(min(100, args.games) if args.coverage_games
                                           is None else args.coverage_games), runner=runner,
                           batch=args.batch, progress=bar)
        finally:
            bar.close()
    if args.records:
        _write_records(args.records, sim)
    print(json.dumps(simulation_json(sim), indent=2, ensure_ascii=False) if args.json
          else sanitize(simulation_text(sim)))
    if args.plot:
        from .analysis import charts

        paths = charts([("", sim)], args.plot)
        if not args.json:
            print(f"  charts         {len(paths)} files in {args.plot}")
    failed = any(r.outcome in ("rule-error", "dead-end") for r in sim.all_records)
    return 1 if failed else 0


def _write_records(path: str, sim: Any) -> None:
    import json

    try:
        with open(path, "w", encoding="utf-8") as f:
            for r in sim.records:
                f.write(json.dumps(r.to_json(), ensure_ascii=False) + "\n")
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e}") from None


def cmd_compare(args: argparse.Namespace) -> int:
    import json

    from .analysis import compare, comparison_json, comparison_text, make_runner, side

    seed = args.seed if args.seed is not None else random.randrange(2**31)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    common = parse_settings(args.set)
    both = _bots(args.bots) or ["random"]
    a = side(args.a, args.players_a or args.players, {**common, **parse_settings(args.set_a)},
             _bots(args.bots_a) or both)
    b = side(args.b or args.a, args.players_b or args.players,
             {**common, **parse_settings(args.set_b)}, _bots(args.bots_b) or both)
    if a == b:
        raise UsageError("A and B are the same: give two games, or tell them apart with "
                         "--set-a/--set-b, --players-a/--players-b or --bots-a/--bots-b")
    bar = _Bar(args, "compare")
    with make_runner(args.jobs, args.dask) as runner:
        try:
            c = compare(a, b, args.games, seed, args.max_moves, runner=runner,
                        batch=args.batch, progress=bar)
        finally:
            bar.close()
    print(json.dumps(comparison_json(c), indent=2, ensure_ascii=False) if args.json
          else sanitize(comparison_text(c)))
    if args.plot:
        from .analysis import charts

        paths = charts([(c.label_a, c.a), (c.label_b, c.b)], args.plot)
        if not args.json:
            print(f"  charts  {len(paths)} files in {args.plot}")
    failed = any(r.outcome in ("rule-error", "dead-end") for r in c.a.records + c.b.records)
    return 1 if failed else 0


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

    extra = _reachability(args)
    if args.jobs == 1 and not args.dask and (args.searches or 1) == 1:
        result: int = run_fuzz(args, extra=extra)
        return result
    from .analysis import make_runner

    with make_runner(args.jobs, args.dask) as runner:
        result = run_fuzz(args, runner=runner, extra=extra)
    return result


def cmd_test(args: argparse.Namespace) -> int:
    import json

    from .examples import json_report, run_examples, text_report

    runs = []
    errors: list[dict[str, Any]] = []  # --json: a game file that does not compile
    for g in args.games:
        try:
            runs.append((g, run_examples(g)))
        except (Diagnostic, Diagnostics) as e:
            if not args.json:
                raise
            errors += [{"game": g, "file": d.span.file, "line": d.span.line,
                        "column": d.span.column, "message": d.message, "hint": d.hint}
                       for d in (e.items if isinstance(e, Diagnostics) else [e])]
    if args.json:
        report = json_report(runs)
        report["errors"] = errors
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        print(sanitize(text_report(runs, args.verbose)))
    bad = errors or any(not o.ok for _, outcomes in runs for o in outcomes)
    return 1 if bad or not any(outcomes for _, outcomes in runs) else 0


def cmd_mutate(args: argparse.Namespace) -> int:
    import json

    from .analysis import make_runner, mutate, mutation_json, mutation_text

    bar = _Bar(args, "mutate", " mutants")
    with make_runner(args.jobs, args.dask) as runner:
        try:
            run = mutate(args.game, players=args.players, settings=parse_settings(args.set),
                         seconds=args.seconds, seed=args.seed or 0, runner=runner,
                         progress=bar, reach_seconds=args.reach_seconds,
                         cache=".cardgame/witnesses")
        finally:
            bar.close()
    print(json.dumps(mutation_json(run), indent=2, ensure_ascii=False) if args.json
          else sanitize(mutation_text(run, args.verbose)))
    return 0


def _reachability(args: argparse.Namespace) -> Any:
    """fuzz's second half: a witness for each `expect sometimes` (analysis.reachability),
    written beside the counterexample (`.cardgame/`)."""

    def run() -> tuple[bool, str, Any]:
        from .analysis import check_reachability, reach_text
        from .engine import compile_game

        settings = parse_settings(args.set)
        game = compile_game(args.game, args.players, settings)
        if not game.expectations:
            return True, "", []
        # as fuzz's own database: nothing written here when the search runs on a cluster
        local = None if args.dask else ".cardgame"
        found = check_reachability(game, seed=args.seed or 0, seconds=args.reach_seconds,
                                   max_moves=args.max_moves, game_ref=args.game,
                                   out_dir=local, settings=settings,
                                   cache=local and f"{local}/witnesses")
        return (all(r.ok for r in found), sanitize(reach_text(found)),
                [r.as_dict() for r in found])
    return run


def cmd_solve(args: argparse.Namespace) -> int:
    from .solve import run

    if args.deals is None or (args.jobs == 1 and not args.dask):
        return run(args)
    from .analysis import make_runner

    with make_runner(args.jobs, args.dask) as runner:
        return run(args, runner)


# ---------------------------------------------------------------------- main
class _BotNames:
    """The registered bots' names, for argparse's `choices` and help text, looked up on
    first use: importing the bots imports the whole engine, which `list` never needs."""

    def _names(self) -> list[str]:
        from .bots import BOTS

        return sorted(BOTS)

    def __contains__(self, name: object) -> bool:
        from .bots import BOTS

        return name in BOTS  # also a name with a budget: ismcts:2000, mcts:1.5s

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __str__(self) -> str:
        return ", ".join(self._names())


_BOT_NAMES = _BotNames()


class _Version(argparse.Action):
    """--version, reading the installed version only when asked (importlib.metadata is
    slow to import)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        from . import __version__

        print(f"cardgame {__version__}")
        parser.exit()


class _Parser(argparse.ArgumentParser):
    """The top-level parser, which knows its commands' parsers: an option a command does
    not take is refused by that command, with its usage, not the top level's."""

    commands: Mapping[str, argparse.ArgumentParser] = {}

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:
            command = getattr(parsed, "command", None)
            sub = self.commands.get(command or "")
            msg = f"unrecognized arguments: {' '.join(extra)}"
            if sub is None:
                self.error(msg)
            if command == "test" and any(a.split("=")[0] in ("--players", "--set", "--seed")
                                         for a in extra):
                msg += (" (an example names its own players and options: `players 3`, "
                        "`option NAME = VALUE` as its first lines; docs/testing.md)")
            elif command == "check" and any(a.split("=")[0] == "--seed" for a in extra):
                msg += " (check only compiles: nothing in it is random)"
            sub.error(msg)
        return parsed


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="cardgame",
                                description="Design, check, play, simulate and fuzz card games.")
    p.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    p.commands = sub.choices

    sp = sub.add_parser("list", help="bundled games, variants and their options")
    sp.add_argument("--json", action="store_true", help="machine-readable output")
    sp.set_defaults(func=cmd_list)

    sp = sub.add_parser("check", help="compile game files and report errors")
    sp.add_argument("files", nargs="+", metavar="FILE")
    sp.add_argument("--graph", action="store_true", help="print the compiled flow as Graphviz DOT")
    sp.add_argument("--quiet", "-q", action="store_true", help="print errors only")
    # no --seed: compiling draws nothing at random
    sp.add_argument("--players", type=players_arg(), default=None, metavar="N",
                    help="compile for N players (default: the game's default)")
    sp.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="compile with a game option set (repeatable)")
    sp.set_defaults(func=cmd_check)

    sp = sub.add_parser("play", help="play a game in the terminal")
    sp.add_argument("game", metavar="GAME", nargs="?", default=None,
                    help="a bundled game name or a .cardgame file")
    add_game_options(sp)
    sp.add_argument("--seat", type=players_arg("--seat"), action="append", default=None, metavar="K",
                    help="a seat you play (repeatable; default seat 1)")
    # (checked when the game is known: one name, or one per seat)
    sp.add_argument("--bots", default="greedy", metavar="NAME[,NAME...]",
                    help="the bot for the other seats, or one per seat as simulate takes "
                         "them (the entries of the seats you play are not used): %(known)s "
                         "(default %(default)s)").known = _BOT_NAMES  # type: ignore[attr-defined]
    sp.add_argument("--replay", metavar="FILE", help="step through a saved game or counterexample")
    sp.add_argument("--history", metavar="FILE", default=None, help="history file for the prompt")
    sp.set_defaults(func=cmd_play)

    sp = sub.add_parser("simulate", help="play many games with bots: every figure with its "
                        "95%% confidence interval, rule coverage, charts")
    sp.add_argument("game", metavar="GAME")
    add_game_options(sp)
    sp.add_argument("--bots", action="append", default=None, metavar="NAME[,NAME...]",
                    help="the bot for every seat, or one per seat (default random; "
                         "known: %(known)s)").known = _BOT_NAMES  # type: ignore[attr-defined]
    add_run_options(sp)
    sp.add_argument("--coverage-games", type=count_arg("--coverage-games", 0, MANY), default=None, metavar="K",
                    help="games of each other configuration (player count, option values) "
                         "for rule coverage (default: as many as --games, at most 100; "
                         "0: none)")
    sp.add_argument("--records", metavar="FILE", default=None,
                    help="write one JSON line per game to FILE")
    sp.set_defaults(func=cmd_simulate)

    sp = sub.add_parser("compare", help="two games, or two variants of one, on the same "
                        "seeds: every figure side by side with the difference and its interval")
    sp.add_argument("a", metavar="A", help="a bundled game name or a .cardgame file")
    sp.add_argument("b", metavar="B", nargs="?", default=None,
                    help="the other game (default: A again, told apart by --set-b ...)")
    add_game_options(sp)
    for x in ("a", "b"):
        X = x.upper()
        sp.add_argument(f"--set-{x}", action="append", default=[], metavar="NAME=VALUE",
                        help=f"an option for {X} only (after --set)")
        sp.add_argument(f"--players-{x}", type=players_arg(f"--players-{x}"), default=None, metavar="N",
                        help=f"players for {X} only")
        sp.add_argument(f"--bots-{x}", action="append", default=None, metavar="NAME[,NAME...]",
                        help=f"bots for {X} only")
    sp.add_argument("--bots", action="append", default=None, metavar="NAME[,NAME...]",
                    help="bots for both (default random)")
    add_run_options(sp, games_help="games for each of A and B, on the same seeds "
                                   "(default %(default)s)")
    sp.set_defaults(func=cmd_compare)

    sp = sub.add_parser("fuzz", help="search for rule holes, with a shortest counterexample")
    sp.add_argument("game", metavar="GAME")
    add_game_options(sp)
    grp = sp.add_mutually_exclusive_group()
    grp.add_argument("--seconds", type=seconds_arg("--seconds"), default=None, metavar="T",
                     help="search for T seconds (the default budget: 20), shared between "
                          "the player counts (every one the game allows, or --players)")
    # "examples" is Hypothesis's word for generated inputs: here N games, which a reader
    # easily takes for the game's `example` blocks (the flag keeps its name for users)
    grp.add_argument("--examples", type=count_arg("--examples", 1, MANY), default=None,
                     metavar="N", help="search N games (full playthroughs, each followed "
                                       "by fast walks) instead of a time, shared between "
                                       "the player counts; not the game's `example` "
                                       "blocks, which always run first")
    sp.add_argument("--max-moves", type=count_arg("--max-moves", 1, MANY), default=2000,
                    metavar="M", help="stop a game after this many moves (default 2000)")
    sp.add_argument("--json", action="store_true", help="machine-readable report")
    sp.add_argument("--out", metavar="FILE", default=None,
                    help="where to write the counterexample replay file")
    add_scale_options(sp)
    sp.add_argument("--searches", type=count_arg("--searches", 1, 1024), default=None, metavar="K",
                    help="independent searches, each with the whole budget and its own seed "
                         "(default: one per worker); the shortest counterexample wins")
    sp.add_argument("--reach-seconds", type=seconds_arg("--reach-seconds"), default=10.0,
                    metavar="T", help="time to find a witness of the game's "
                                      "'expect sometimes' declarations (default 10)")
    sp.set_defaults(func=cmd_fuzz)

    sp = sub.add_parser("test", help="run the examples of game files: each passes or says "
                        "file:line, expected against actual")
    # no --players, --set or --seed: an example names its own players and options and
    # starts from the first deal, so it means the same thing on every run
    sp.add_argument("games", nargs="+", metavar="GAME",
                    help="each example runs with the players and options it names "
                         "(`players 3`, `option NAME = VALUE`), else the game's defaults")
    sp.add_argument("--verbose", "-v", action="store_true", help="a line per example")
    sp.add_argument("--json", action="store_true", help="machine-readable output")
    sp.set_defaults(func=cmd_test)
    sp = sub.add_parser("mutate", help="a mutation score: how well the game's invariants, "
                                       "expectations and examples pin its rules down")
    sp.add_argument("game", metavar="GAME")
    add_game_options(sp)
    sp.add_argument("--seconds", type=seconds_arg("--seconds"), default=2.0, metavar="S",
                    help="time to judge one mutant (default 2)")
    sp.add_argument("--reach-seconds", type=seconds_arg("--reach-seconds"), default=60.0,
                    metavar="T", help="time to find the game's own witnesses (default 60)")
    sp.add_argument("--json", action="store_true", help="machine-readable report")
    sp.add_argument("--verbose", action="store_true",
                    help="list the killed and stillborn mutants too")
    add_scale_options(sp)
    sp.set_defaults(func=cmd_mutate)

    sp = sub.add_parser("solve", help="solve an open one-player game: a verdict and a "
                                      "replay, or winnability over many deals")
    sp.add_argument("game", metavar="GAME")
    add_game_options(sp)
    sp.add_argument("--deals", type=count_arg("--deals", 1, MANY), default=None, metavar="N",
                    help="solve the deals of seeds 1..N and estimate winnability")
    sp.add_argument("--budget", type=seconds_arg("--budget"), default=10.0, metavar="SECONDS",
                    help="time budget per deal (default 10)")
    sp.add_argument("--nodes", type=count_arg("--nodes", 1, 10**12), default=500_000, metavar="N",
                    help="node budget per deal (default 500000)")
    sp.add_argument("--json", action="store_true", help="machine-readable output")
    sp.add_argument("--out", metavar="FILE", default=None, help="where to write the solution")
    sp.add_argument("--thoughtful", action="store_true",
                    help="solve a game with hidden cards as if every card were known")
    sp.add_argument("--no-symmetry", action="store_true",
                    help="do not merge positions that differ by interchangeable zones")
    sp.add_argument("--no-auto", action="store_true",
                    help="ignore the game's 'auto move' declarations (try every move)")
    sp.add_argument("--cpu", action="store_true",
                    help="count --budget in CPU seconds of this process (a shared machine)")
    sp.add_argument("--nrpa", type=seconds_arg("--nrpa"), default=None, metavar="SECONDS",
                    help="when the exact search is undecided, look for a win by nested "
                         "rollout policy adaptation for this long (default: no such phase)")
    add_scale_options(sp)  # (--deals: the deals solved on N processes or a Dask cluster)
    sp.set_defaults(func=cmd_solve)
    return p


def _format_error(e: BaseException) -> str:
    """An error for the terminal: what it quotes from a file is shown safely."""
    if isinstance(e, Diagnostics):
        text = "\n".join(d.format() for d in e.items) + f"\n{len(e.items)} errors"
    elif isinstance(e, Diagnostic):
        text = e.format()
    else:
        text = f"error: {e}"
    return sanitize(text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = parser.parse_args(argv)
    except UsageError as e:  # a numeric option (count_arg, seconds_arg)
        command = next((a for a in argv if not a.startswith("-")), "")
        print(sanitize(f"cardgame {command}: error: {e}"), file=sys.stderr)
        return 2
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        code: int = args.func(args)
        return code
    except UsageError as e:
        print(sanitize(f"cardgame {args.command}: error: {e}"), file=sys.stderr)
        return 2
    except (Diagnostic, Diagnostics) as e:
        print(_format_error(e), file=sys.stderr)
        return 2 if args.command == "fuzz" else 1
    except CardgameError as e:
        print(_format_error(e), file=sys.stderr)
        return 1
    except RecursionError:  # a last guard: a rule's own depth is bounded (runtime.STEPS)
        print(f"cardgame {args.command}: error: a game nested too deeply to run",
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
