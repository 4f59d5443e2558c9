"""The generated code shuffles with an inlined Fisher-Yates (codegen/runtime.py) where it
deals exactly as `random.Random.shuffle` does: the same permutation and the same state of
the generator after it, so every seed deals as before."""

from __future__ import annotations

import random

from cardgame.interpreter.codegen import runtime


def test_the_inlined_shuffle_deals_as_the_library() -> None:
    assert runtime._shuffle_list is runtime._inline_shuffle  # it holds on this Python
    for seed in range(300):
        for n in (0, 1, 2, 3, 10, 47, 52, 55, 104):
            a, b = list(range(n)), list(range(n))
            ra, rb = random.Random(seed * 7919 + n), random.Random(seed * 7919 + n)
            ra.shuffle(a)
            runtime._inline_shuffle(rb, b)
            assert a == b
            assert ra.getrandbits(63) == rb.getrandbits(63)
