"""Numbers a game keeps stay within 64 bits, however they grow; and a local's known range
holds only while nothing assigns it.

Every binding of a number (an assignment, `+=`, `-=`, a `let`, a list of numbers, a flow
variable) that is not proven to stay within 64 bits is guarded, in optimised and in plain
code alike: a runaway rule stops with a rule error instead of growing without bound.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cardgame.interpreter.codegen import generate
from cardgame.interpreter.engine import Game, compile_game
from cardgame.interpreter.errors import RuleError

HEAD = 'game "T"\nplayers 1\ndeck standard\nzone pile: face up\nzone f[4]: face up\n'
BEYOND = "a number grew beyond 64 bits: a runaway rule"


def both(tmp_path: Path, text: str) -> list[Game]:
    """The game compiled with and without optimisation."""
    p = tmp_path / "t.cardgame"
    p.write_text(HEAD + text, encoding="utf-8")
    fast = compile_game(p)
    return [fast, Game(fast.checked, generate(fast.checked, optimize=False), fast.source_id)]


@pytest.mark.parametrize("body", [
    "repeat 200 times { x = x + x }",
    "repeat 200 times { x += x }",
    "repeat 200 times { x = 0 - x - x }",
    "repeat 200 times { x -= 3 * x }",
    "repeat 40 times { x = x * x + 2 }",
    "repeat 200 times { x = double(x) }",  # a def: inlined, or called in plain code
    "repeat 200 times { a[2] += a[2] }",
    "repeat 200 times { l = [first(l) + first(l)] }",
    "repeat 200 times { l += [last(l) * 2] }",
    "repeat 62 times { x = x * 2 }\n let y = x * x\n x = 0",
    "repeat 200 times { let y = x\n x = y + y }",
], ids=["add", "add-assign", "sub", "sub-assign", "mul", "def", "array", "list", "list-add",
        "let", "let-loop"])
def test_a_number_that_grows_without_bound_is_a_rule_error(tmp_path: Path, body: str) -> None:
    for g in both(tmp_path, "var x = 1\nvar a[2] = 1\nvar l: list = [1]\n"
                            "def double(n: int) = n + n\n"
                            f"move m {{ {body} }}\n"):
        with pytest.raises(RuleError) as e:
            g.apply_text(g.new_state(0), "m")
        assert str(e.value).endswith("(in move m): " + BEYOND)


def test_a_number_at_the_edge_is_kept(tmp_path: Path) -> None:
    """2**63 and its negation fit; one more does not."""
    for g in both(tmp_path, "var x = -1\n"
                            "move m { repeat 63 times { x = x * 2 }\n x = -x }\n"
                            "move n { x += 1 }\n"):
        st = g.apply_text(g.new_state(0), "m")
        assert g.var(st, "x") == 2**63
        with pytest.raises(RuleError, match="beyond 64 bits"):
            g.apply_text(st, "n")


def test_a_flow_variable_is_guarded(tmp_path: Path) -> None:
    for g in both(tmp_path, "var x = 1\n"
                            "move m { repeat 62 times { x = x * 2 } }\n"
                            "flow { repeat { 1 chooses m\n let y = x * x } }\n"):
        with pytest.raises(RuleError, match="beyond 64 bits"):
            g.apply_text(g.new_state(0), "m")


def test_a_number_proven_small_needs_no_guard(tmp_path: Path) -> None:
    g = both(tmp_path, "var x = 0\nvar y = 0\n"
                       "move m(k in 1..4) { x = size(pile) + k * 2\n y = x % 7 }\n")[0]
    assert "_big" not in g.gen.source
    g = both(tmp_path, "var x = 0\nmove m { x += 1 }\n")[0]
    assert "_big" in g.gen.source  # x may already hold 2**63


def test_an_assigned_parameter_is_checked_as_an_index(tmp_path: Path) -> None:
    """`k in 1..4` no longer holds once the effect assigns k: f[k] is checked again."""
    for g in both(tmp_path, "setup { move top 5 of deck to pile }\n"
                            "move m(k in 1..4) { k += 4\n move top of pile to f[k] }\n"):
        with pytest.raises(RuleError, match="index 5 is out of range 1..4"):
            g.apply_text(g.new_state(0), "m 1")


def test_short_leaf_loops_cost_nothing_and_the_rest_is_charged() -> None:
    """The step budget (docs/limits.md) is drawn per loop, and not at all by a loop over
    at most 64 values with nothing costly inside: the legal moves of Calculation."""
    src = compile_game("calculation").gen.source
    legal = [f for f in src.split("\ndef ") if f.startswith("legal_")]
    assert legal and not any("_n(" in f for f in legal)  # the hot path: short leaf loops
    # a quantifier with a quantifier inside is charged (the end condition `stuck`)
    assert re.search(r"in _n\(Z_waste, \d+\)", src.split("def settle")[1])
    assert "_B[0] = 1000000" in src


def test_a_number_that_only_grows_or_shrinks_is_guarded_on_that_side(tmp_path: Path) -> None:
    """`x += gain`, gain a `let` of 1..2 (never assigned), can only cross the upper
    bound: optimised code tests that one alone; `x -= 1` the lower one; `x += k - 2` for k
    in 1..4 either. At the edges, both codes report the runaway alike."""
    text = ("var x = 0\nvar y = 0\nvar z = 0\n"
            "move edge { repeat 63 times { x = x * 2 + 1 }\n y = 0 - x - 1 }\n"
            "move up { let gain = if size(pile) > 3 then 2 else 1\n x += gain }\n"
            "move down { y -= 1 }\n"
            "move either(k in 1..4) { z += k - 2 }\n")
    fast, plain = both(tmp_path, text)
    src = fast.gen.source
    up = src[src.index("def eff_1"):src.index("def eff_2")]
    down = src[src.index("def eff_2"):src.index("def eff_3")]
    either = src[src.index("def eff_3"):src.index("AUTO =")]
    # (optimised code tests the new value as computed, `_v = s[i] + gain`, then stored)
    assert re.search(r"if (s\[\d+\]|_v\d+) > 9223372036854775808: _big", up)
    assert re.search(r"if (s\[\d+\]|_v\d+) < -9223372036854775808: _big", down)
    assert re.search(r"if not -9223372036854775808 <= (s\[|_v\d+)", either)
    for g in (fast, plain):
        st = g.apply_text(g.new_state(0), "edge")
        assert g.var(st, "x") == 2**63 - 1 and g.var(st, "y") == -2**63
        st = g.apply_text(st, "up")  # 2**63 fits
        with pytest.raises(RuleError, match="beyond 64 bits"):
            g.apply_text(st, "up")
        with pytest.raises(RuleError, match="beyond 64 bits"):
            g.apply_text(st, "down")
