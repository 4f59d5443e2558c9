"""Optimiser rules found on the classic solitaires and fishing games (issue 12, the fuzzer's
fast walks): each rule's shape in the generated code, and the game played alike with and
without optimisation (`test_optimize.play_both`)."""

from __future__ import annotations

import re

from cardgame.interpreter.engine import compile_game
from test_optimize import play_both


def _functions(src: str, prefix: str) -> list[str]:
    """The source of each generated function whose name starts with prefix."""
    return re.findall(rf"^def {prefix}\w*\(.*?(?=^\S)", src, re.M | re.S)


def test_invariants_and_end_tests_are_loops_that_stop_at_the_answer() -> None:
    """An invariant's, a result's, an expectation's and an end condition's quantifier
    (Pyramid's `all place in pyramid: size(place) <= 1`, its `won` end) is lowered as a
    statement's value: a loop that stops at the answer, not a generator `all` drains.
    Plain code keeps the expressions; both play alike."""
    fast = compile_game("pyramid")
    plain = compile_game("pyramid", optimize=False)
    src = fast.gen.source
    tests = _functions(src, "inv_") + _functions(src, "exp_") + _functions(src, "won")
    assert len(tests) == 4 + 3 + 1
    for fn in tests:  # (`is covered`, `any(map(s.__getitem__, COVER[..]))`, is no quantifier)
        assert not re.search(r"(?<!\w)(all|any)\((?!map\(s\.__getitem__, COVER)", fn), fn
    places = next(fn for fn in tests if fn.startswith("def inv_places"))
    assert re.search(r"for _q\d+ in Z_pyramid:\n\s+if not \(len\(s\[_q\d+\]\) <= 1\):\n"
                     r"\s+_r\d+ = False\n\s+break", places)
    step = src[src.index("def step_4"):src.index("STEP =")]
    settle = src[src.index("def settle"):src.index("def run")]
    for fn in (step, settle):  # the end `cleared`: a loop, then the test of its answer
        assert "all(" not in fn
        assert re.search(r"(_r\d+) = True\n\s+for _q\d+ in Z_pyramid:\n.*\n.*\n.*break\n"
                         r"\s+if \1:\n\s+s\[4\] = END_REASONS\[0\]", fn)
    assert "return bool(all(" in plain.gen.source
    play_both(fast, plain, seeds=tuple(range(6)))
