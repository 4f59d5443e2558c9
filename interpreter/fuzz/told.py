"""The leak check's second half: what one step tells a seat (its log lines, the variables
it sets) must not depend on the cards the seat cannot see, when everything else the seat
sees of the step is the same. See docs/fuzz.md and docs/observations.md."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..engine import Game, Move, State
from ..observe import Observation, determinize, observe_step, view


def told_leak(g: Game, hidden: dict[int, list[str]], st: State, m: Move, rng: random.Random,
              move_text: str) -> tuple[int, str] | None:
    """Deal again the cards each seat cannot see (the random seed kept) and play the same
    move: when the seat sees the same cards move and the same table after it, its log
    lines and the variables set must be the same too (a log line that names a hidden
    card masks it; one that tells its rank, or a variable computed from it, leaks).
    Returns (seat, why) for the first seat told too much."""
    if not any(hidden.values()):
        return None
    real = g.apply_observed(st, m)
    for p in range(1, g.players + 1):
        if not hidden[p]:
            continue
        other = determinize(g, st, p, rng, reseed=False)
        if other == st or m not in g.legal_moves(other):
            continue
        after, events = g.apply_observed(other, m)
        mine = observe_step(g, real[1], p)
        theirs = observe_step(g, events, p)
        if mine == theirs:
            continue
        seen_a, told_a = _told(mine)
        seen_b, told_b = _told(theirs)
        if seen_a != seen_b or _table(view(g, real[0], p)) != _table(view(g, after, p)):
            continue  # the seat tells the worlds apart anyway
        return p, f"p{p} is told something that depends on cards p{p} cannot see: " + \
            _difference(told_a, told_b, move_text)
    return None


def _told(obs: Sequence[Observation]) -> tuple[list[Observation], list[Observation]]:
    """A step's observations: what the seat sees happen (cards, choices), and what it is
    told (log lines, variables and who decides)."""
    told = ("log", "public")
    return [o for o in obs if o.kind not in told], [o for o in obs if o.kind in told]


def _table(v: dict[str, Any]) -> dict[str, Any]:
    """A view without what the step tells (variables): the cards and the choices."""
    return {k: x for k, x in v.items() if k != "vars"}


def _difference(a: list[Observation], b: list[Observation], move: str) -> str:
    again = "when those cards are dealt again"
    for x, y in zip(a, b, strict=False):
        if x == y:
            continue
        if x.kind == "log" and y.kind == "log":
            return f"after `{move}` a log line reads '{x.text}', and '{y.text}' {again}"
        if x.kind == "public" and y.kind == "public":
            old, new = dict(x.changes), dict(y.changes)
            for name in [*old, *(k for k in new if k not in old)]:
                if old.get(name) != new.get(name):
                    return (f"after `{move}` the variable `{name}` is {old.get(name)!r}, and "
                            f"{new.get(name)!r} {again} (variables are public)")
            return (f"after `{move}` p{x.to_move} decide(s) next, and p{y.to_move} {again}"
                    if x.to_move != y.to_move else f"after `{move}` the game goes on "
                    f"otherwise ({x.phase or x.ended!r} / {y.phase or y.ended!r}) {again}")
        break
    return f"after `{move}` the step reads otherwise {again}"
