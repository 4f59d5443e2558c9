"""The leak check's work skipped where it cannot find anything (docs/fuzz.md, "Fast
walks" and "Speed"): a game whose seats can never have a shadow world is not observed,
on the walks nor on the full playthroughs; a game that can is, and its leaks are still
found. (That the walks and the playthroughs are the same as before is shown by hashes of
fixed-seed runs: docs/fuzz.md, "The fuzzer's walks made cheaper (ninth session)".)
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.engine.walk import Walker
from cardgame.interpreter.fuzz import Playthrough
from cardgame.interpreter.fuzz.fast import FastWalks
from cardgame.interpreter.fuzz.told import shuffles_after_setup

LEAKS = Path(__file__).resolve().parent / "data" / "leaks"


@pytest.mark.parametrize(("game", "later"), [
    ("freecell", False), ("besieged-castle", False), ("golf", False),
    ("arsene", True),  # each deal shuffles the deck again
    ("crazy-eights", True),  # the discard pile turned into a new stock
    (str(LEAKS / "recycle-leak.cardgame"), True),
])
def test_a_shuffle_after_the_setup_is_seen_in_the_rules(game: str, later: bool) -> None:
    assert shuffles_after_setup(compile_game(game)) is later


@pytest.mark.parametrize(("game", "closed"), [
    ("freecell", True), ("besieged-castle", True),
    ("golf", False),  # its stock is hidden: shadows are drawn
    ("crazy-eights", False),
])
def test_a_playthrough_observes_only_where_a_shadow_can_be_drawn(game: str,
                                                                 closed: bool) -> None:
    g = compile_game(game)
    play = Playthrough(g)
    sh = play.new_shadows(3, g.new_state(3))
    assert sh is not None and sh.closed is closed
    calls = 0
    real = g.apply_observed

    def counted(*a: Any) -> Any:
        nonlocal calls
        calls += 1
        return real(*a)

    g.apply_observed = counted  # type: ignore[method-assign]
    try:
        play.run(3, lambda n: 0)
    finally:
        del g.apply_observed
    assert (calls == 0) is closed


@pytest.mark.parametrize(("game", "observed"), [
    ("freecell", False), ("besieged-castle", False), ("golf", True), ("calculation", True),
])
def test_a_walk_observes_only_where_a_shadow_can_be_drawn(game: str, observed: bool,
                                                          monkeypatch: Any) -> None:
    g = compile_game(game)
    fw = FastWalks(Playthrough(g), 0)
    assert fw.leak_seats  # (a seat that cannot see the deck)
    released: list[int] = []
    real = Walker._release

    def release(self: Walker, told: Any) -> None:  # (the walk stops observing)
        released.append(told.seat)
        real(self, told)

    monkeypatch.setattr(Walker, "_release", release)
    rng = random.Random(1)
    seat = fw.leak_seats[0]
    w = fw.walker.walk(rng.getrandbits(32), rng, seat)
    assert w.found is None and w.moves > 0 and w.leak_seat == seat
    # released at once after the deal where no shadow can ever be drawn, else never
    assert released == ([] if observed else [seat])
    assert (w.shadows > 0) is observed
    # the game's recorder is handed back either way: an observed step tells its events
    state = g.new_state(1)
    _, events = g.apply_observed(state, g.legal_moves(state)[0])
    assert events


def test_a_leak_after_a_reshuffle_is_still_found_by_the_walks() -> None:
    g = compile_game(str(LEAKS / "recycle-leak.cardgame"))
    fw = FastWalks(Playthrough(g), 0)
    rng = random.Random(7)
    for _ in range(400):
        seat = fw.leak_seats[_ % len(fw.leak_seats)]
        w = fw.walker.walk(rng.getrandbits(32), rng, seat)
        if w.found is not None:
            break
    assert w.found == "leak", (w.found, w.message)
