"""Reachability: a witness for each `expect sometimes COND` of a game, or why none.

A witness is a deal (seed) and moves from it to a state where COND holds; it is written
as a replay file (`engine.replay`), which `cardgame play GAME --replay FILE` steps
through. Two searches look for one, in turn, within one time budget:

1. **bot playouts**: whole games from seeds `seed, seed+1, ...`, every seat played by a
   bot of the registry in rotation (random, greedy; an `mcts` now and then), COND tested
   after every step; every expectation is looked for in every playout at once;
2. in rounds with the playouts, about half the time, **the solver** (one-player games): a best-first search of one deal at a time with the
   expectation as its goal (`solve.solve(goal=...)`), without `auto move`s or symmetries
   (claims about winning, not about any condition). It reads every card, hidden or not:
   a witness is a sequence of legal moves, however it was found. A search that ends
   without the goal is a proof that no play of that deal reaches it; when the rules use
   no chance at all (no `shuffle`, no `random`: every seed gives the same game) that
   proof covers the game, and the expectation is reported `unreachable`.

Otherwise it is `unknown`: the budget ran out, and the report says how many deals the
solver proved hopeless and how many it left undecided.

This module sits above bots/, solve/ and fuzz/ (which may not import each other); the
`cardgame fuzz` command calls it through the CLI.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..bots import make_bot
from ..engine import Game, Move, Node, State, replay
from ..errors import CardgameError
from ..lang import ast as A
from ..lang import bundled_dir
from ..solve import SOLVED, UNSOLVABLE, Bounds, key_for, solve

WITNESSED = "witnessed"
UNREACHABLE = "unreachable"
UNKNOWN = "unknown"

#: the bots that play the playouts, in rotation (a search bot with a small budget)
PLAYOUT_BOTS = ("random", "greedy", "random", "mcts:30")
DEAL_SECONDS = 2.0  # the solver's budget for one deal, at most
#: witnesses shipped with the bundled games (found by long runs; the same format as the
#: cache): tried after the cache, each checked by replaying it
BUNDLED = bundled_dir() / "witnesses"


@attrs.frozen
class Reach:
    """What was found for one `expect sometimes`."""

    title: str  # its label, else `expect sometimes COND`
    span: A.Span
    verdict: str  # witnessed, unreachable or unknown
    seed: int | None = None  # the witness: its deal and moves
    moves: tuple[Move, ...] = ()
    how: str = ""  # what found the witness ("a random bot", "the solver"), or why none
    proved_deals: int = 0  # deals the solver searched completely, without the goal
    undecided_deals: int = 0  # deals whose search the budget stopped
    playouts: int = 0
    replay_path: str | None = None

    @property
    def ok(self) -> bool:
        return self.verdict == WITNESSED

    def as_dict(self) -> dict[str, Any]:
        return {"expectation": self.title, "where": str(self.span), "verdict": self.verdict,
                "seed": self.seed, "moves": len(self.moves), "how": self.how,
                "proved_deals": self.proved_deals, "undecided_deals": self.undecided_deals,
                "playouts": self.playouts, "replay": self.replay_path}


def uses_chance(game: Game) -> bool:
    """Do the game's rules draw at random anywhere (`shuffle`, `random`)? Without chance
    every seed deals the same game, so one complete search decides every deal."""
    for node in game.checked.nodes():
        if isinstance(node, A.Shuffle):
            return True
        if isinstance(node, A.Quant) and node.kind == "random":
            return True
        if isinstance(node, A.Call) and node.func == "random":
            return True
    return False


def is_win(game: Game, k: int) -> bool:
    """Is the k-th expectation's condition the game's own `result won when` condition, as
    written? Then the solver searches for a win, with the game's `auto move`s and the
    symmetries it proves, which are claims about winning."""
    res = game.checked.result
    return (game.players == 1 and res is not None and res.cond is not None
            and res.cond == game.checked.expects[k].cond)


def _holds(game: Game, k: int, state: State) -> bool:
    return game.expectation_holds(state, k)


def _goal(game: Game, k: int) -> Callable[[Node], bool]:
    fn = game.expectations[k][1]

    def goal(node: Node) -> bool:
        try:
            return bool(fn(list(node[0]), node[1]))
        except CardgameError:
            return False
    return goal


def playouts(game: Game, todo: set[int], seed: int, first: int, deadline: float,
             max_moves: int, found: dict[int, tuple[int, tuple[Move, ...], str]]) -> int:
    """Bot playouts number first, first+1, ... (the deal of playout i is seed + i) until
    every expectation in `todo` has a witness (in `found`) or the deadline; the number
    of playouts played (at least one, so that a short budget still plays)."""
    n = 0
    while todo and (n == 0 or time.perf_counter() < deadline):
        i = first + n
        deal = seed + i
        name = PLAYOUT_BOTS[i % len(PLAYOUT_BOTS)]
        bots = [make_bot(name, deal * 16 + p) for p in range(game.players)]
        n += 1
        moves: list[Move] = []
        try:
            st = game.new_state(deal)
            while True:
                for k in sorted(todo):
                    if _holds(game, k, st):
                        found[k] = (deal, tuple(moves), f"a {name} bot playout")
                        todo.discard(k)
                if not todo or game.is_terminal(st) or len(moves) >= max_moves:
                    break
                if time.perf_counter() >= deadline:
                    break
                p = game.to_move(st)[0]
                if not game.legal_moves(st, p):
                    break
                m = bots[p - 1].choose(game, st, p)
                st = game.apply(st, m)
                moves.append(m)
        except (CardgameError, ValueError):
            continue  # a rule error is fuzz's business: this playout just stops
    return n


def check_reachability(game: Game, *, seed: int = 0, seconds: float = 10.0,
                       max_moves: int = 2000, solver_nodes: int = 200_000,
                       game_ref: str | None = None, out_dir: str | Path | None = None,
                       settings: dict[str, str] | None = None,
                       which: Sequence[int] | None = None,
                       cache: str | Path | None = None) -> list[Reach]:
    """A witness for each `expect sometimes` of the game, or why none, within about
    `seconds` in all (deterministic for a seed where the node bounds stop the searches,
    not the clock). With `out_dir`, each witness is written there as a replay file.
    `which`: only these expectations are searched for (the others are reported
    `unknown`). `cache`: a folder where witnesses are kept: one found there that still
    replays to its condition is taken first, and each new one is kept there."""
    n = len(game.expectations)
    if not n:
        return []
    t0 = time.perf_counter()
    todo = set(range(n)) if which is None else set(which) & set(range(n))
    found: dict[int, tuple[int, tuple[Move, ...], str]] = {}
    ref = game_ref or game.path or game.name
    folders = [(cache, "the witness cache")] if cache is not None else []
    for folder, how in [*folders, (BUNDLED, "the bundled witnesses")]:
        for k in sorted(todo):
            w = _cached(game, k, folder, ref)
            if w is not None:
                found[k] = (w[0], w[1], how)
                todo.discard(k)
    solver = game.players == 1
    proved: dict[int, int] = {k: 0 for k in range(n)}
    undecided: dict[int, int] = {k: 0 for k in range(n)}
    complete: set[int] = set()  # proved for every deal: the rules use no chance
    chance = uses_chance(game)
    deadline = t0 + seconds
    # rounds of bot playouts (they serve every expectation at once) and, in a one-player
    # game, of the solver on the next deal: about half the time each
    played = 0
    deal = seed
    rounds = 0
    while todo and time.perf_counter() < deadline:
        now = time.perf_counter()
        rounds += 1
        slice_end = min(deadline, now + min(DEAL_SECONDS, seconds / 4)) if solver else deadline
        played += playouts(game, todo, seed, played, slice_end, max_moves, found)
        if not (solver and todo):
            continue
        for k in sorted(todo):
            left = deadline - time.perf_counter()
            if left <= 0:
                break
            per = min(DEAL_SECONDS, max(0.05, left / max(1, len(todo))))
            bounds = Bounds(nodes=solver_nodes, seconds=per)
            try:
                start = game.new_state(deal)
                if is_win(game, k):  # the win itself: the solver's own claims hold
                    r = solve(game, start, bounds, key_for(game, True)[0])
                else:
                    r = solve(game, start, bounds, None, auto=False, goal=_goal(game, k))
            except CardgameError:  # a rule that fails is fuzz's to report: not decided
                undecided[k] += 1
                continue
            if r.verdict == SOLVED:
                found[k] = (deal, r.moves, "the solver")
                todo.discard(k)
            elif r.verdict == UNSOLVABLE:
                proved[k] += 1
                if not chance:
                    complete.add(k)
                    todo.discard(k)
            else:
                undecided[k] += 1
        deal += 1
    if cache is not None:
        for k, (deal, moves, how) in found.items():
            if how not in ("the witness cache", "the bundled witnesses"):
                _keep(game, k, cache, ref, deal, moves)
    out = []
    for k, (title, _) in enumerate(game.expectations):
        decl = game.checked.expects[k]
        if k in found:
            deal, moves, how = found[k]
            path = None
            if out_dir is not None:
                path = str(Path(out_dir) / f"{Path(str(ref)).stem}-expect-{k + 1}.json")
                Path(out_dir).mkdir(parents=True, exist_ok=True)
                replay.from_game(game, str(ref), deal, list(moves), settings,
                                 f"cardgame fuzz: a witness of '{title}' ({how})").save(path)
            out.append(Reach(title, decl.span, WITNESSED, deal, moves, how,
                             proved[k], undecided[k], played, path))
        elif k in complete:
            out.append(Reach(title, decl.span, UNREACHABLE,
                             how="the solver searched every play (the rules use no chance)",
                             proved_deals=proved[k], playouts=played))
        else:
            why = f"the budget ran out ({seconds:g} s): {played} bot playouts found none"
            if solver:
                why += (f"; the solver proved {proved[k]} deal(s) hopeless and left "
                        f"{undecided[k]} undecided")
            out.append(Reach(title, decl.span, UNKNOWN, how=why, proved_deals=proved[k],
                             undecided_deals=undecided[k], playouts=played))
    return out


def replays_to(game: Game, k: int, seed: int, moves: Sequence[Move]) -> bool:
    """Do these moves, legal each in turn, reach a state where expectation k holds?"""
    try:
        st = game.new_state(seed)
        if game.expectation_holds(st, k):
            return True
        for m in moves:
            m = tuple(m)
            if game.is_terminal(st) or m not in game.legal_moves(st):
                return False
            st = game.apply(st, m)
            if game.expectation_holds(st, k):
                return True
    except CardgameError:
        return False
    return False


def _cache_file(game: Game, k: int, cache: str | Path, ref: str) -> Path:
    """Where the witness of expectation k is kept: by the game file's name and the
    condition's text (not the file's hash: a witness still valid after an edit is kept)."""
    decl = game.checked.expects[k]
    digest = hashlib.sha256(f"{decl.kind}\0{decl.text}".encode()).hexdigest()[:16]
    stem = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in Path(str(ref)).stem)
    return Path(cache) / f"witness-{stem or 'game'}-{digest}.json"


def _cached(game: Game, k: int, cache: str | Path, ref: str
            ) -> tuple[int, tuple[Move, ...]] | None:
    """A kept witness that still replays in this game: the one kept under this game's
    name first, then those of other games with the same condition (a variant, or a file
    that extends the game, often keeps its witness), at most MAX_TRIED."""
    own = _cache_file(game, k, cache, ref)
    others = sorted(p for p in Path(cache).glob(f"witness-*-{own.name.rsplit('-', 1)[1]}")
                    if p != own) if Path(cache).is_dir() else []
    for f in [own, *others][:MAX_TRIED]:
        w = _read_witness(game, k, f)
        if w is not None:
            return w
    return None


MAX_TRIED = 20  # kept witnesses replayed for one expectation, at most


def _read_witness(game: Game, k: int, f: Path) -> tuple[int, tuple[Move, ...]] | None:
    try:
        data = json.loads(f.read_text(encoding="utf-8"))
        seed = int(data["seed"])
        moves = tuple(tuple(int(x) for x in m) for m in data["moves"])
    except (OSError, ValueError, KeyError, TypeError):
        return None  # none kept, or unreadable: search again
    if len(moves) > 100_000 or not replays_to(game, k, seed, moves):
        return None
    return seed, moves


def _keep(game: Game, k: int, cache: str | Path, ref: str, seed: int,
          moves: tuple[Move, ...]) -> None:
    f = _cache_file(game, k, cache, ref)
    try:
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(json.dumps({"seed": seed, "moves": [list(m) for m in moves]}),
                     encoding="utf-8")
    except OSError:
        pass  # a cache that cannot be written only makes the next run slower


def reach_text(results: list[Reach]) -> str:
    """One paragraph per expectation: its witness (and replay file), or the failure."""
    lines = []
    for r in results:
        if r.verdict == WITNESSED:
            lines.append(f"{r.span}: ok: '{r.title}' reached after {len(r.moves)} moves "
                         f"of deal {r.seed} ({r.how})")
            if r.replay_path:
                lines.append(f"  witness written to {r.replay_path}")
        elif r.verdict == UNREACHABLE:
            lines.append(f"{r.span}: error: '{r.title}' is unreachable: {r.how}")
        else:
            lines.append(f"{r.span}: error: no witness of '{r.title}' found: {r.how}")
    return "\n".join(lines)
