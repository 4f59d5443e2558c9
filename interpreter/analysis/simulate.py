"""Many random games of one compiled game -> one summary record (a JSON-ready dict)."""

from __future__ import annotations

import random
import time
from typing import Any

from ..engine.game import Game
from ..errors import RuleError


def simulate(game: Game, games: int, seed: int, max_moves: int = 100_000) -> dict[str, Any]:
    """Play `games` random playouts from `seed`; speed, lengths, results, rule errors.

    Each game's seed is drawn from one master RNG, so a run repeats exactly and a rule
    error names the seed that reproduces it."""
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
