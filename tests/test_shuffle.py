"""The generated code shuffles with an inlined Fisher-Yates (codegen/runtime.py) where it
deals exactly as `random.Random.shuffle` does: the same permutation and the same state of
the generator after it, so every seed deals as before. Its generator is seeded without
`random.Random`'s Python-level `__init__`, to the same state."""

from __future__ import annotations

import random

import pytest
from cardgame.interpreter.codegen import runtime


def test_the_inlined_shuffle_deals_as_the_library() -> None:
    assert runtime._shuffle_list is runtime._inline_shuffle  # it holds on this Python
    lengths = list(range(0, 70)) + [100, 104, 127, 128, 129, 208, 256, 416, 5000]
    for seed in range(300):
        for n in lengths:
            a, b = list(range(n)), list(range(n))
            ra, rb = random.Random(seed * 7919 + n), random.Random(seed * 7919 + n)
            ra.shuffle(a)
            runtime._inline_shuffle(rb, b)
            assert a == b, (seed, n)
            assert ra.getrandbits(63) == rb.getrandbits(63), (seed, n)


def test_the_inlined_shuffle_moves_the_items_it_is_given() -> None:
    x = ["a", "b", ("c",), None, 3]
    runtime._inline_shuffle(random.Random(5), x)
    y = ["a", "b", ("c",), None, 3]
    random.Random(5).shuffle(y)
    assert x == y and x != ["a", "b", ("c",), None, 3]


@pytest.mark.parametrize("seed", [0, 1, 2, 12345, 2**31 - 1, 2**32, 2**62 + 12345,
                                  2**63 - 1, -1, -(2**40), 2**200 + 17])
def test_the_direct_seeding_gives_the_library_state(seed: int) -> None:
    assert runtime._seeded is runtime._new_seeded  # it holds on this Python
    assert runtime._seeded(seed).getstate() == random.Random(seed).getstate()


def test_a_seed_that_is_not_an_int_is_seeded_by_the_library() -> None:
    for seed in ("abc", True, 2.5):
        assert runtime._new_seeded(seed).getstate() == random.Random(seed).getstate()


def test_a_game_deals_as_random_random_and_chains_the_seed(tmp_path) -> None:
    """A game's `shuffle`: the cards in the order `random.Random(seed).shuffle` gives,
    and the next shuffle seeded by that generator's `getrandbits(63)` after it (as
    before the inlining: every seed deals as it did)."""
    from cardgame.interpreter.engine import compile_game

    path = tmp_path / "two.cardgame"
    path.write_text('game "Two shuffles"\ndeck standard\nzone a: face up\n'
                    'setup {\n  shuffle deck\n  move top 20 of deck to a\n'
                    '  shuffle a\n}\nmove m "m" { }\nflow { end "done" }\n',
                    encoding="utf-8")
    g = compile_game(path)
    for seed in (0, 7, 2**62 + 5, 2**63 - 1):
        st = g.new_state(seed)
        r = random.Random(seed)
        deck = list(range(52))
        r.shuffle(deck)
        a = deck[-20:]
        r2 = random.Random(r.getrandbits(63))
        r2.shuffle(a)
        assert g.zone_cards(st, "deck") == [g.card_text[c] for c in deck[:-20]]
        assert g.zone_cards(st, "a") == [g.card_text[c] for c in a]


def test_the_written_out_draw_is_checked_against_the_library() -> None:
    """`draws_below` says whether a draw is the getrandbits loop the engine writes out (the
    playouts' move index, `_pick`'s index): the library's own draws are, on this Python;
    a draw that differs, or that leaves the generator elsewhere, is not. The engine's
    shuffles (the rules' and the fuzzer's shadow worlds) are one function."""
    assert runtime.draws_below(random.Random.randrange)
    assert runtime.draws_below(lambda r, k: r._randbelow(k))  # type: ignore[attr-defined]
    assert not runtime.draws_below(lambda r, k: 0)  # the same index for every k
    assert not runtime.draws_below(lambda r, k: r.randrange(k) if k < 100 else 0)

    def drifts(r: random.Random, k: int) -> int:  # the right index, one draw too many
        j = r.randrange(k)
        r.getrandbits(1)
        return j

    assert not runtime.draws_below(drifts)
    assert runtime.shuffle_list is runtime._shuffle_list
