"""A zone variable that is none (`var aim: zone = none`): used as a zone it is a rule
error that names it and points at the read (not Python's TypeError from `s[None]`);
compared with none, copied, or passed to a def that tests it, none is a value."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.errors import RuleError
from cardgame.interpreter.fuzz import fuzz

HEAD = """game "Aim"
players 2
deck standard
zone pile: face up
zone other: face up
zone hand[player]: face up
var aim: zone = none
var spare: zone = none
var mine[player]: zone = none
var current: player = 1
def ok(z: zone) = z != none and size(z) > 0

setup {
  shuffle deck
  move top 3 of deck to pile
}

flow {
  repeat {
    current chooses pick | late
    current = left of current
  }
}

end when size(other) >= 4
score = size(other)
"""

# each move's first line (line 27, after HEAD's 27 lines)
PICK = """move pick "pick" when {when} {{
  spare = aim
  if aim == none {{ aim = pile }}
  mine[me] = hand[me]
  move top of deck to other
}}
move late "late" when size(other) < 4 {{
  move top of deck to mine[left of me]
}}
"""


def game(tmp_path: Path, when: str, optimize: bool) -> Any:
    p = tmp_path / f"aim-{optimize}.cardgame"
    p.write_text(HEAD + PICK.format(when=when), encoding="utf-8")
    return compile_game(p, optimize=optimize)


def moves(g: Any, st: Any) -> list[str]:
    return [g.move_text(m) for m in g.legal_moves(st)]


def play(g: Any, st: Any, text: str) -> Any:
    (m,) = [m for m in g.legal_moves(st) if g.move_text(m) == text]
    return g.apply(st, m)


@pytest.mark.parametrize("optimize", [True, False])
def test_none_is_a_value_where_compared_copied_or_tested(tmp_path: Path,
                                                        optimize: bool) -> None:
    # `ok(aim)` with aim none: the def tests its parameter first; `spare = aim` copies
    # none; `aim == none` compares: no error, and the move sets aim
    g = game(tmp_path, "ok(aim) or size(other) < 2", optimize)
    st = g.new_state(1)
    assert moves(g, st) == ["pick", "late"]
    st = play(g, st, "pick")
    pile = g.var(st, "aim")  # (a zone's value is its slot)
    assert pile is not None and g.var(st, "spare") is None
    assert moves(g, st) == ["pick", "late"]
    st = play(g, st, "pick")
    assert g.var(st, "spare") == pile  # copied from aim, now set


@pytest.mark.parametrize("optimize", [True, False])
def test_a_zone_variable_used_while_none_names_it(tmp_path: Path, optimize: bool) -> None:
    g = game(tmp_path, "size(aim) < 5", optimize)
    with pytest.raises(RuleError) as ei:
        g.legal_moves(g.new_state(1))
    e = ei.value
    assert "no zone here: aim is none" in str(e)
    assert "TypeError" not in str(e)
    # the read itself: `aim` in `size(aim)`, line 27
    assert (e.span.line, e.span.column) == (27, 28)


@pytest.mark.parametrize("optimize", [True, False])
def test_an_element_of_a_zone_array_used_while_none(tmp_path: Path, optimize: bool) -> None:
    g = game(tmp_path, "size(other) < 2", optimize)
    st = g.new_state(1)
    # p2 has not picked: mine[2] is none when p1 plays `late`, which moves to it
    with pytest.raises(RuleError) as ei:
        play(g, st, "late")
    assert "no zone here: an element of mine is none" in str(ei.value)
    assert (ei.value.span.line, ei.value.span.column) == (34, 23)


@pytest.mark.parametrize("optimize", [True, False])
def test_a_zone_parameter_bound_to_none_is_a_rule_error(tmp_path: Path,
                                                       optimize: bool) -> None:
    # the def tests its parameter, so none is passed to it; its `or` then uses it anyway
    p = tmp_path / "bad.cardgame"
    p.write_text(HEAD.replace("z != none and", "z != none or") + PICK.format(
        when="ok(aim)"), encoding="utf-8")
    g = compile_game(p, optimize=optimize)
    with pytest.raises(RuleError) as ei:
        g.legal_moves(g.new_state(1))
    assert "a zone or card here is none" in str(ei.value) and "TypeError" not in str(ei.value)
    assert ei.value.rule in ("move pick", "def ok")  # (plain code: its function)


# where none is a value, passed on as it is (each ran at 5ae6bdf, and must not raise)
PASSED_ON = {
    "proc": ("proc keep(z: zone) { spare = z }\n", "keep(aim)"),
    "def to def": ("def ok2(z: zone) = ok(z)\n", "if ok2(aim) { spare = other }"),
    "if arms": ("", "spare = if size(pile) > 0 then aim else other"),
    "let": ("", "let t = aim\n  spare = t"),
    "log": ("", 'log "aim is {aim}"'),
    "compared through if": ("", "if (if size(pile) > 0 then aim else other) == none "
                                "{ spare = other }"),
    "in a list": ("", "if aim in [pile, other] { spare = other }"),
    "a list's element": ("", "for z in [aim, other] { if z == none { spare = other } }"),
    "a def's value": ("def chosen = if size(pile) > 5 then pile else aim\n",
                      "if chosen == none { spare = other }"),
}


@pytest.mark.parametrize("optimize", [True, False])
@pytest.mark.parametrize("case", sorted(PASSED_ON))
def test_none_passed_on_as_a_value(tmp_path: Path, case: str, optimize: bool) -> None:
    decl, body = PASSED_ON[case]
    p = tmp_path / "on.cardgame"
    p.write_text(HEAD.replace("pick | late", "pick") + decl + f"""move pick "pick" {{
  {body}
  aim = pile
  move top of deck to other
}}
""", encoding="utf-8")
    g = compile_game(p, optimize=optimize)
    st = g.new_state(1)
    (m,) = g.legal_moves(st)
    st = g.apply(st, m)
    assert g.var(st, "aim") is not None


def test_fuzz_reports_a_rule_error_at_the_read(tmp_path: Path) -> None:
    g = game(tmp_path, "size(aim) < 5", True)
    r = fuzz(g, examples=2, seed=1, database=None, write_replay=False)
    assert r.failure is not None and r.failure.property == "rule-error"
    assert "aim-True.cardgame:27:28" in r.failure.message
