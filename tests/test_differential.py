"""The compiled games against the plain Python versions of the same rules
(benchmarks/handwritten_*.py): on the same deal, the two must offer exactly the same
moves at every step of a random playthrough."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from cardgame.interpreter.engine import compile_game

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import handwritten_besieged_castle as hb  # noqa: E402
import handwritten_calculation as hc  # noqa: E402

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["spades", "hearts", "diamonds", "clubs"]


def castle_text(m: tuple) -> str:
    if m[0] == "col":
        return f"shift column{m[1] + 1} column{m[2] + 1}"
    return f"home column{m[1] + 1}"


@pytest.mark.parametrize("spice,name", [(0, "besieged-castle"), (1, "besieged-castle-spice-1"),
                                        (2, "besieged-castle-spice-2")])
def test_besieged_castle_matches_handwritten(spice: int, name: str) -> None:
    game = compile_game(name)
    for seed in range(12):
        hand = hb.Game(seed, spice=spice)

        def text(c: tuple[int, int]) -> str:
            return RANKS[c[0] - 1] + "shdc"[c[1]]

        zones = {f"column{i + 1}": [text(c) for c in hand.columns[i]] for i in range(8)}
        for i in range(4):
            zones[f"foundation-{SUITS[i]}"] = [text(c) for c in hand.foundations[i]]
        state = game.make_state(zones=zones)
        rng = random.Random(seed)
        for _ in range(300):
            expected = sorted(castle_text(m) for m in hand.legal_moves())
            assert sorted(game.legal_texts(state)) == expected
            if not expected:
                assert game.is_terminal(state)
                break
            m = rng.choice(sorted(hand.legal_moves()))
            hand.apply(m)
            state = game.apply_text(state, castle_text(m))
            assert game.scores(state)[0] == hand.score()


def calc_text(m: tuple) -> str:
    if m[0] == "draw":
        return "draw"
    if m[0] == "build":
        return f"build {m[1] + 1}"
    if m[0] == "discard":
        return f"discard {m[1] + 1}"
    return f"lift {m[1] + 1} {m[2] + 1}"


def test_calculation_matches_handwritten() -> None:
    game = compile_game("calculation")
    suit_of = {r: 0 for r in range(1, 14)}  # suits play no part: name cards by rank, any suit
    for seed in range(20):
        hand = hc.Game(seed)
        used: dict[int, int] = dict(suit_of)

        def text(rank: int, used: dict[int, int] = used) -> str:
            s = "shdc"[used[rank]]
            used[rank] += 1
            return RANKS[rank - 1] + s

        zones = {f"foundation{k + 1}": [text(r) for r in hand.foundations[k]] for k in range(4)}
        zones["stock"] = [text(r) for r in hand.stock]
        state = game.make_state(zones=zones)
        rng = random.Random(seed)
        while True:
            expected = sorted(calc_text(m) for m in hand.legal_moves())
            if hand.is_over():
                assert game.is_terminal(state)
                break
            assert sorted(game.legal_texts(state)) == expected
            m = rng.choice(sorted(hand.legal_moves()))
            hand.apply(m)
            state = game.apply_text(state, calc_text(m))
        assert game.scores(state)[0] == hand.score()
        assert (game.results(state)[0] == "win") == hand.won()
