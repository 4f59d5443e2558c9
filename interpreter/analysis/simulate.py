"""Many games of one game -> one record per game, played in batches (anywhere a runner
sends them), plus a sweep of the game's other configurations for rule coverage.

Game i of a run with master seed S is fixed by (S, i) alone: its deal seed and each
seat's bot seed are hashes of them. So the same `--seed` gives the same games, and the
same figures, whatever `--jobs`, batch size or cluster, and game i can be replayed alone.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..bots import choose_move, make_bot
from ..engine import Game, GameSpec, Move
from ..errors import RuleError, UsageError
from .coverage import Catalogue, Config, catalogue, choices_at, config_of, configurations
from .parallel import Runner, batches, make_runner

Progress = Callable[[int, int], None]  # (games done, games in all)


def game_seeds(master: int, index: int, players: int) -> tuple[int, tuple[int, ...]]:
    """Game `index` of a run with seed `master`: its deal seed (32 bits, as `cardgame play
    --seed` takes it) and one bot seed per seat."""
    def h(tag: str, bits: int) -> int:
        d = hashlib.blake2b(f"cardgame/{master}/{index}/{tag}".encode(), digest_size=8)
        return int.from_bytes(d.digest(), "big") >> (64 - bits)

    return h("deal", 32), tuple(h(f"p{p}", 63) for p in range(1, players + 1))


@attrs.frozen
class GameRecord:
    """What one game tells. Mappings are sorted tuples of pairs so that a record is a
    small picklable value."""

    index: int
    seed: int  # the deal seed
    outcome: str  # ended, unfinished (hit --max-moves), dead-end, rule-error
    moves: int
    results: tuple[str, ...] = ()  # win / loss / draw per seat (ended games)
    scores: tuple[int, ...] = ()  # final scores per seat
    end_reason: str | None = None
    error: str | None = None
    decisions: int = 0  # decisions taken (one per move)
    legal_sum: int = 0  # legal moves of the deciding seat, summed over its decisions
    phases: tuple[tuple[str, int], ...] = ()  # phase -> times entered, first entered first
    lead_changes: int | None = None  # several players only
    decisiveness: float | None = None  # a single winner who leads at the end
    drama: float | None = None  # a single winner: the largest deficit to the leader
    played: tuple[tuple[str, int], ...] = ()  # move name -> times played
    legal: tuple[str, ...] = ()  # move names legal at some decision
    choices: tuple[int, ...] = ()  # indices of the catalogue's choices reached
    branches: tuple[int, ...] = ()  # indices of the catalogue's branches (`if` arms) run

    def to_json(self) -> dict[str, Any]:
        out = attrs.asdict(self)
        for key in ("phases", "played"):
            out[key] = dict(out[key])
        for key in ("results", "scores", "legal", "choices", "branches"):
            out[key] = list(out[key])
        return out


class _Lead:
    """The score race, step by step: lead changes, and per seat the last step it was not
    the sole leader and its largest deficit to the leader."""

    def __init__(self, players: int, lowest: bool) -> None:
        self.lowest = lowest
        self.leader: int | None = None  # the last sole leader
        self.changes = 0
        self.not_sole = [-1] * players  # the last step each seat was not the sole leader
        self.deficit = [0.0] * players
        self.step = 0

    def see(self, scores: Sequence[int]) -> None:
        best = min(scores) if self.lowest else max(scores)
        leaders = [i for i, s in enumerate(scores) if s == best]
        sole = leaders[0] if len(leaders) == 1 else None
        if sole is not None:
            if self.leader is not None and sole != self.leader:
                self.changes += 1
            self.leader = sole
        for i, s in enumerate(scores):
            if i != sole:
                self.not_sole[i] = self.step
            gap = (s - best) if self.lowest else (best - s)
            if gap > self.deficit[i]:
                self.deficit[i] = float(gap)
        self.step += 1


def play_game(game: Game, cat: Catalogue, bots: Sequence[str], master: int, index: int,
              max_moves: int) -> GameRecord:
    """Play game `index` of a run with seed `master`, the seats played by `bots`."""
    deal, seat_seeds = game_seeds(master, index, game.players)
    players = [make_bot(name, s) for name, s in zip(bots, seat_seeds, strict=True)]
    names = game.move_names
    multi = game.players > 1
    res = game.checked.result
    lead = _Lead(game.players, res is not None and res.kind == "lowest") if multi else None
    played: dict[str, int] = {}
    legal_names: set[str] = set()
    reached: set[int] = set()
    phases: dict[str, int] = {}
    seen_at: dict[tuple[str, frozenset[str]], tuple[int, ...]] = {}
    moves = decisions = legal_sum = 0
    last_phase: str | None = None
    outcome = "ended"
    error = None
    game.reset_coverage()  # what this game's rules run, from here to the record
    try:
        st = game.new_state(deal)
        history: list[Move] = []
        if lead is not None:
            lead.see(game.scores(st))
        while not game.is_terminal(st):
            if moves >= max_moves:
                outcome = "unfinished"
                break
            p = game.to_move(st)[0]
            legal = game.legal_moves(st, p)
            if not legal:
                outcome = "dead-end"
                break
            phase = game.phase(st)
            if phase != last_phase:
                if phase:
                    phases[phase] = phases.get(phase, 0) + 1
                last_phase = phase
            here = frozenset(names[m[1]] for m in legal)
            legal_names |= here
            key = (phase, here)
            if key not in seen_at:
                seen_at[key] = choices_at(cat, phase, here)
            reached.update(seen_at[key])
            decisions += 1
            legal_sum += len(legal)
            m = choose_move(players[p - 1], game, st, p, deal, history)
            history.append(m)
            played[names[m[1]]] = played.get(names[m[1]], 0) + 1  # chosen, even if it fails
            st = game.apply(st, m)
            moves += 1
            if lead is not None:
                lead.see(game.scores(st))
    except RuleError as e:
        return GameRecord(index, deal, "rule-error", moves, error=str(e),
                          decisions=decisions, legal_sum=legal_sum,
                          phases=tuple(phases.items()),
                          played=tuple(sorted(played.items())),
                          legal=tuple(sorted(legal_names)), choices=tuple(sorted(reached)),
                          branches=cat.branches_of(game.covered()))
    results: tuple[str, ...] = ()
    if outcome == "ended":
        results = tuple(game.results(st))
    try:
        scores = tuple(game.scores(st))
    except RuleError as e:  # a score rule that fails in this state
        outcome, error, scores = "rule-error", str(e), ()
    changes = decisive = drama = None
    if lead is not None and outcome == "ended":
        changes = lead.changes
        winners = [i for i, r in enumerate(results) if r == "win"]
        if len(winners) == 1:
            w = winners[0]
            drama = lead.deficit[w]
            taken = lead.not_sole[w] + 1  # the step from which w led alone to the end
            if moves > 0 and taken <= moves:
                decisive = 1 - taken / moves
    return GameRecord(index, deal, outcome, moves, results, scores,
                      game.end_reason(st) if outcome == "ended" else None, error,
                      decisions, legal_sum, tuple(phases.items()), changes, decisive,
                      drama, tuple(sorted(played.items())), tuple(sorted(legal_names)),
                      tuple(sorted(reached)), cat.branches_of(game.covered()))


# ---------------------------------------------------------------------- batches
@attrs.frozen
class Batch:
    """A task: games [start, stop) of one configuration of a run."""

    recipe: GameSpec
    bots: tuple[str, ...]
    seed: int
    start: int
    stop: int
    max_moves: int
    config: int = 0  # 0: the configuration asked for; others: the coverage sweep


_catalogues: dict[GameSpec, Catalogue] = {}


def run_batch(task: Batch) -> list[GameRecord]:
    """Play a batch (in whatever process the runner chose); compiles once per process."""
    game = task.recipe.compile()
    cat = _catalogues.get(task.recipe)
    if cat is None:
        cat = _catalogues[task.recipe] = catalogue(game)
    return [play_game(game, cat, task.bots, task.seed, i, task.max_moves)
            for i in range(task.start, task.stop)]


@attrs.define
class Simulation:
    """A run: the game, its settings, one record per game of the configuration asked for,
    and the coverage sweep's records per other configuration."""

    game: Game
    ref: str
    bots: tuple[str, ...]
    seed: int
    games: int
    max_moves: int
    records: list[GameRecord]
    catalogue: Catalogue
    config: Config
    sweep: dict[Config, list[GameRecord]]
    seconds: float
    runner: str
    batch_count: int

    @property
    def all_records(self) -> list[GameRecord]:
        return self.records + [r for recs in self.sweep.values() for r in recs]


def bots_for(game: Game, bots: Sequence[str] | str | None) -> tuple[str, ...]:
    """One bot name for every seat, or one per seat."""
    from ..bots import BOTS, unknown_bot

    names = [bots] if isinstance(bots, str) else list(bots or ["random"])
    names = [n.strip() for item in names for n in item.split(",") if n.strip()]
    for n in names:
        if n not in BOTS:
            raise UsageError(unknown_bot(n))
    if len(names) == 1:
        return tuple(names * game.players)
    if len(names) != game.players:
        raise UsageError(f"--bots takes one bot name, or one per seat: {game.players} names "
                         f"for {game.players} seats, not {len(names)}")
    return tuple(names)


def recipe_of(game: Game | str | Path, players: int | None = None,
              settings: dict[str, str] | None = None) -> GameSpec:
    """The recipe a simulation plays: compiled to record which `if` arms run (branch
    coverage), whether or not the game given was."""
    if isinstance(game, Game):
        return attrs.evolve(game.spec, coverage=True)
    return GameSpec.of(game, players, settings, coverage=True)


def simulate(game: Game | str | Path, games: int, seed: int, max_moves: int = 100_000, *,
             players: int | None = None, settings: dict[str, str] | None = None,
             bots: Sequence[str] | str | None = None, coverage_games: int = 0,
             runner: Runner | None = None, batch: int | None = None,
             progress: Progress | None = None) -> Simulation:
    """Play `games` games from `seed` (bots: one name or one per seat; random by default)
    and, with `coverage_games`, that many games of each other configuration of the game
    (player counts, option values) for rule coverage."""
    if games < 1:
        raise UsageError("--games must be at least 1")
    if max_moves < 1:
        raise UsageError("--max-moves must be at least 1")
    if coverage_games < 0:
        raise UsageError("--coverage-games must be 0 or more")
    recipe = recipe_of(game, players, settings)
    g = recipe.compile()
    seats = bots_for(g, bots)
    main_cfg = config_of(g)
    others: list[tuple[Config, GameSpec]] = []
    if coverage_games:
        for cfg in configurations(g):
            if cfg != main_cfg:
                n, opts = cfg
                others.append((cfg, GameSpec.of(recipe.game, n, dict(opts), coverage=True)))
    own = runner is None
    run = runner if runner is not None else make_runner()
    tasks: list[Batch] = []
    for a, b in batches(games, run.workers, batch):
        tasks.append(Batch(recipe, seats, seed, a, b, max_moves, 0))
    for k, (cfg, rec) in enumerate(others, 1):
        for a, b in batches(coverage_games, run.workers, batch):
            tasks.append(Batch(rec, _sweep_bots(seats, cfg[0]), seed, a, b, max_moves, k))
    total = games + coverage_games * len(others)
    done = [0]

    def tick(_: int, recs: list[GameRecord]) -> None:
        done[0] += len(recs)
        if progress is not None:
            progress(done[0], total)

    if progress is not None:
        progress(0, total)
    t0 = time.perf_counter()
    try:
        results = run.map(run_batch, tasks, tick)
    finally:
        if own:
            run.close()
    seconds = time.perf_counter() - t0
    records: list[GameRecord] = []
    sweep: dict[Config, list[GameRecord]] = {cfg: [] for cfg, _ in others}
    for task, recs in zip(tasks, results, strict=True):
        if task.config == 0:
            records.extend(recs)
        else:
            sweep[others[task.config - 1][0]].extend(recs)
    return Simulation(g, recipe.game, seats, seed, games, max_moves, records, catalogue(g),
                      main_cfg, sweep, seconds, run.name, len(tasks))


def _sweep_bots(seats: tuple[str, ...], players: int) -> tuple[str, ...]:
    """The bots of another configuration: the same seats where the player count is the
    same, else the one bot of the run (random where the seats differ)."""
    if len(seats) == players:
        return seats
    return (seats[0] if len(set(seats)) == 1 else "random",) * players
