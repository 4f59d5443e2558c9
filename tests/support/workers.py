"""Functions a worker process runs (they must be importable by name to cross a process)."""

from __future__ import annotations

import os
import random

from cardgame.interpreter.engine import GameSpec


def playout_scores(spec: GameSpec, seeds: list[int]) -> tuple[list[list[int]], bool, int]:
    """The final scores of a random playout per seed; whether the process compiled the
    spec once; the process id."""
    game = spec.compile()
    scores = []
    for seed in seeds:
        slots, _ = game.random_playout(seed, random.Random(seed))
        scores.append(game.scores(game.final_state(slots)))
    return scores, spec.compile() is game, os.getpid()
