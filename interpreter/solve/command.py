"""`cardgame solve`: one deal (a verdict and a replay file) or many (winnability with a CI).

Only one-player games are solved, and only open ones: a zone that player cannot see and
that holds cards when the game starts (a face-down stock) makes the game one of hidden
information, refused unless `thoughtful` (solve as if every card were known: the search
then reads the hidden cards, as solitaire research's "thoughtful" solvers do).

Two phases: the exact search (`search.solve`, within the bounds), then, when it is
undecided and `rollouts` seconds are given, a search for a win by nested rollout policy
adaptation (`nrpa.py`), which can only turn `undecided` into `solved`. A deal decided by
the exact search is never searched again, so its verdict and time are the search's own.
"""

from __future__ import annotations

import json
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import attrs

from ..engine import Game, GameSpec, State, compile_game, replay
from ..errors import UsageError
from ..intervals import wilson
from ..observe import sees_card
from .nrpa import nrpa
from .search import SOLVED, UNDECIDED, UNSOLVABLE, Bounds, Result, solve
from .symmetry import key_for

#: the search order of `cardgame solve` (see `search.solve`)
ORDER = "mixed"


def hidden_cards(game: Game, state: State) -> list[str]:
    """The zones where player 1 cannot see a card in `state` (a zone it cannot see, or a
    card face down)."""
    turned = game.turned(state)
    return [z.name for z in game.zones
            if any(not sees_card(z, c in turned, 1) for c in game.zone_ids(state, z.name))]


def check_solvable(game: Game, state: State, thoughtful: bool) -> None:
    if game.players != 1:
        raise UsageError(f"'{game.name}' is a game for {game.players} players: "
                         "solve works on one-player games")
    hidden = hidden_cards(game, state)
    if hidden and not thoughtful:
        raise UsageError(f"'{game.name}' hides cards ({', '.join(hidden)}): no exact solver "
                         "applies; --thoughtful solves as if every card were known")


@attrs.define
class Deal:
    seed: int
    result: Result


def two_phases(game: Game, state: State, seed: int, bounds: Bounds, key: Any, auto: bool,
               rollouts: float) -> Result:
    """The exact search, then, if it is undecided, NRPA for `rollouts` seconds (0: not);
    the result adds both phases' seconds. NRPA's generator is seeded with the deal's seed."""
    r = solve(game, state, bounds, key, order=ORDER, auto=auto)
    if r.verdict == SOLVED:
        return attrs.evolve(r, found_by="search")
    if r.verdict != UNDECIDED or rollouts <= 0:
        return r
    p = nrpa(game, state, rollouts, seed=seed, cpu=bounds.cpu, auto=auto)
    if p.verdict == SOLVED:
        return attrs.evolve(r, verdict=SOLVED, moves=p.moves, stopped_by="",
                            seconds=r.seconds + p.seconds, playout_moves=p.nodes,
                            found_by="nrpa")
    return attrs.evolve(r, seconds=r.seconds + p.seconds, playout_moves=p.nodes)


def solve_seed(game: Game, seed: int, bounds: Bounds, *, thoughtful: bool = False,
               symmetry: bool = True, auto: bool = True, rollouts: float = 0.0) -> Result:
    state = game.new_state(seed)
    check_solvable(game, state, thoughtful)
    key, _ = key_for(game, symmetry)
    return two_phases(game, state, seed, bounds, key, auto, rollouts)


class Runner(Protocol):
    """Where many deals are solved (`analysis.parallel`'s runners: this process, N local
    processes, a Dask cluster); `map` gives the results in task order."""

    workers: int

    def map(self, fn: Callable[[Any], Any], tasks: Sequence[Any],
            done: Callable[[int, Any], None] | None = None) -> list[Any]: ...


#: a task of `solve_deals` on a runner: (the game's recipe, a seed, the bounds,
#: thoughtful, symmetry, auto, rollouts)
Task = tuple[GameSpec, int, Bounds, bool, bool, bool, float]
_keys: dict[tuple[GameSpec, bool], Any] = {}  # each worker's key function, by game


def solve_task(task: Task) -> Deal:
    """One deal of `solve_deals`, in whatever process the runner gives it (the game is
    compiled once a process, from its recipe)."""
    spec, seed, bounds, thoughtful, symmetry, auto, rollouts = task
    game = spec.compile()
    key = _keys.get((spec, symmetry))
    if key is None:
        key = _keys[spec, symmetry] = key_for(game, symmetry)[0]
    state = game.new_state(seed)
    check_solvable(game, state, thoughtful)
    return Deal(seed, two_phases(game, state, seed, bounds, key, auto, rollouts))


def solve_deals(game: Game, seeds: list[int], bounds: Bounds, *, thoughtful: bool = False,
                symmetry: bool = True, auto: bool = True, rollouts: float = 0.0,
                progress: Callable[[int, int, Deal], None] | None = None,
                runner: Runner | None = None) -> list[Deal]:
    """Each seed's verdict, in the order of `seeds`; `progress(done, total, deal)` as each
    finishes. With a `runner` of several workers (`--jobs`, `--dask`), the deals are
    solved there, one task a deal: a deal's verdict does not depend on where it runs,
    except where the time budget (`bounds.seconds`) stops its search."""
    if runner is not None and runner.workers > 1 and len(seeds) > 1:
        check_solvable(game, game.new_state(seeds[0]), thoughtful)  # (refused here, at once)
        finished = 0

        def done(i: int, deal: Deal) -> None:
            nonlocal finished
            finished += 1
            if progress is not None:
                progress(finished, len(seeds), deal)
        tasks: list[Task] = [(game.spec, s, bounds, thoughtful, symmetry, auto, rollouts)
                             for s in seeds]
        deals: list[Deal] = runner.map(solve_task, tasks, done)
        return deals
    key, _ = key_for(game, symmetry)
    out = []
    for i, seed in enumerate(seeds):
        state = game.new_state(seed)
        check_solvable(game, state, thoughtful)
        deal = Deal(seed, two_phases(game, state, seed, bounds, key, auto, rollouts))
        out.append(deal)
        if progress is not None:
            progress(i + 1, len(seeds), deal)
    return out


def summary(deals: list[Deal]) -> dict[str, Any]:
    n = len(deals)
    solved = sum(d.result.verdict == SOLVED for d in deals)
    unsolvable = sum(d.result.verdict == UNSOLVABLE for d in deals)
    decided = solved + unsolvable
    lo, hi = wilson(solved, decided)
    times = sorted(d.result.seconds for d in deals)
    nodes = sum(d.result.nodes for d in deals)
    total = sum(times)
    least_lo, least_hi = wilson(solved, n)
    most_lo, most_hi = wilson(n - unsolvable, n)
    return {"deals": n, "solved": solved, "unsolvable": unsolvable,
            "undecided": n - decided,
            "winnability": solved / decided if decided else None,
            "ci95": [lo, hi] if decided else None,
            # over all deals: at least the share solved, at most the share not proved
            # unsolvable, each with its 95% Wilson interval
            "at_least": solved / n if n else None, "at_least_ci95": [least_lo, least_hi],
            "at_most": (n - unsolvable) / n if n else None,
            "at_most_ci95": [most_lo, most_hi],
            "solved_by_nrpa": sum(d.result.found_by == "nrpa" for d in deals),
            "median_seconds": statistics.median(times) if n else 0.0,
            "mean_seconds": total / n if n else 0.0,
            "stopped_by": dict(Counter(d.result.stopped_by for d in deals
                                       if d.result.verdict == UNDECIDED)),
            "nodes": nodes, "nodes_per_second": nodes / total if total else 0.0}


def run(args: Any, runner: Runner | None = None) -> int:
    """The `cardgame solve` command (args from cli.py; `runner`: where `--deals` runs)."""
    from ..options import parse_settings

    if args.deals is not None and args.seed is not None:
        raise UsageError("give --seed S or --deals N, not both")
    if args.deals is not None and args.deals < 1:
        raise UsageError("--deals must be at least 1")
    if args.budget <= 0 or args.nodes < 1:
        raise UsageError("--budget and --nodes must be positive")
    settings = parse_settings(args.set)
    game = compile_game(args.game, args.players, settings)
    bounds = Bounds(nodes=args.nodes, seconds=args.budget, cpu=getattr(args, "cpu", False))
    symmetry = not args.no_symmetry
    rollouts = _rollouts(args)
    if args.deals is None:
        return _one(game, args, args.seed if args.seed is not None else 1, bounds, symmetry,
                    rollouts)
    first = 1

    def progress(done: int, total: int, deal: Deal) -> None:
        if not args.json:
            print(f"  {bar(done, total)} deal {done}/{total} (seed {deal.seed}): "
                  f"{deal.result.verdict}, {deal.result.nodes} nodes, "
                  f"{deal.result.seconds:.2f} s", flush=True)

    deals = solve_deals(game, list(range(first, first + args.deals)), bounds,
                        thoughtful=args.thoughtful, symmetry=symmetry,
                        auto=not getattr(args, "no_auto", False), rollouts=rollouts,
                        progress=progress, runner=runner)
    s = summary(deals)
    if args.json:
        s["game"] = game.name
        s["verdicts"] = [{"seed": d.seed, **d.result.as_dict()} for d in deals]
        print(json.dumps(s, indent=1))
        return 0
    n = s["deals"]
    print(f"{game.name}: {s['deals']} deals (seeds {first}-{first + args.deals - 1}): "
          f"{s['solved']} solved, {s['unsolvable']} unsolvable, {s['undecided']} undecided")
    if s["winnability"] is None:
        print("winnability: unknown (no deal decided)")
    else:
        lo, hi = s["ci95"]
        print(f"winnability: {100 * s['winnability']:.1f}% of decided deals "
              f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%)")
    if s["undecided"]:
        a, (alo, ahi) = s["at_least"], s["at_least_ci95"]
        b, (blo, bhi) = s["at_most"], s["at_most_ci95"]
        print(f"over all {n} deals: winnable at least {100 * a:.1f}% (95% CI {100 * alo:.1f}-"
              f"{100 * ahi:.1f}%), at most {100 * b:.1f}% (95% CI {100 * blo:.1f}-"
              f"{100 * bhi:.1f}%)")
    if s["solved_by_nrpa"]:
        print(f"wins found by NRPA playouts after an undecided exact search: "
              f"{s['solved_by_nrpa']}")
    print(f"median {s['median_seconds']:.2f} s per deal, {s['nodes_per_second']:.0f} nodes/s")
    if s["stopped_by"]:
        print("undecided deals stopped by: " + ", ".join(
            f"the {_bound(k)}: {v}" for k, v in sorted(s["stopped_by"].items())))
    return 0


def bar(done: int, total: int, width: int = 20) -> str:
    """A text progress bar: [#######-------------]."""
    full = width * done // total if total else width
    return "[" + "#" * full + "-" * (width - full) + "]"


def _rollouts(args: Any) -> float:
    """The NRPA phase's seconds (--nrpa), 0 without it: the phase is asked for, so that
    a verdict of the exact search alone (the default) keeps its meaning and its time."""
    given = getattr(args, "nrpa", None)
    return 0.0 if given is None else float(given)


def _one(game: Game, args: Any, seed: int, bounds: Bounds, symmetry: bool,
         rollouts: float = 0.0) -> int:
    t0 = time.perf_counter()
    r = solve_seed(game, seed, bounds, thoughtful=args.thoughtful, symmetry=symmetry,
                   auto=not getattr(args, "no_auto", False), rollouts=rollouts)
    out = None
    if r.verdict == SOLVED:
        out = args.out or f"{Path(str(args.game)).stem}-seed{seed}-solution.json"
        note = (f"cardgame solve: a win found in {r.nodes} nodes" if r.found_by != "nrpa"
                else f"cardgame solve: a win found by NRPA playouts ({r.playout_moves} moves "
                     f"played) after {r.nodes} nodes of exact search")
        replay.from_game(game, str(args.game), seed, list(r.moves), None, note).save(out)
    if args.json:
        print(json.dumps({"game": game.name, "seed": seed, **r.as_dict(), "replay": out},
                         indent=1))
        return 0
    by = " (a win found by NRPA playouts)" if r.found_by == "nrpa" else ""
    what = {SOLVED: f"solved in {len(r.moves)} moves{by}",
            UNSOLVABLE: "unsolvable (the search was complete)",
            UNDECIDED: f"undecided (stopped by the {_bound(r.stopped_by)})"}[r.verdict]
    cpu = f" ({r.seconds:.2f} s of CPU)" if bounds.cpu else ""
    print(f"{game.name}, seed {seed}: {what}; {r.nodes} nodes, "
          f"{time.perf_counter() - t0:.2f} s{cpu}")
    if r.verdict == UNDECIDED and not rollouts:
        print("(--nrpa SECONDS looks for a win by nested rollout policy adaptation when the "
              "exact search is undecided)")
    if out:
        print(f"solution written to {out} (step through it: cardgame play {args.game} "
              f"--replay {out})")
    return 0


def _bound(name: str) -> str:
    return {"nodes": "node budget (--nodes)", "seconds": "time budget (--budget)",
            "entries": "transposition table's size"}.get(name, name)
