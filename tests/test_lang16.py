"""Regressions of issue 16's bugs, and its orders on cards and optional values."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.errors import Diagnostic, Diagnostics, RuleError, Span

DATA = Path(__file__).resolve().parent / "data" / "lang16"


def compile_text(tmp_path: Path, text: str, name: str = "t", **kw: Any) -> Any:
    p = tmp_path / f"{name}.cardgame"
    p.write_text(text, encoding="utf-8")
    return compile_game(p, **kw)


def errors_of(tmp_path: Path, text: str) -> list[Diagnostic]:
    with pytest.raises((Diagnostic, Diagnostics)) as ei:
        compile_text(tmp_path, text)
    e = ei.value
    return list(e.items) if isinstance(e, Diagnostics) else [e]


def play_out(g: Any, seed: int = 1, steps: int = 200) -> Any:
    st = g.new_state(seed)
    for _ in range(steps):
        if g.is_terminal(st):
            break
        st = g.apply(st, g.legal_moves(st)[0])
    return st


HEAD = 'game "T"\nplayers 1\ndeck standard\nzone table: face up\n'


# ------------------------------------------------------------- the quantifier of the issue
@pytest.mark.parametrize("optimize", [True, False])
def test_quantifier_over_def_with_compound_argument_and_inner_quantifier(optimize: bool) -> None:
    """`any m in 1..d(n + 1): (any i in [1]: i > 0)` crashed in the generated code
    (UnboundLocalError on a temporary); it plays to the end both ways."""
    g = compile_game(DATA / "quant_def_compound.cardgame", optimize=optimize)
    st = play_out(g)
    assert g.is_terminal(st)
    assert len(g.zone_cards(st, "table")) == 52


@pytest.mark.parametrize("optimize", [True, False])
def test_quantifier_variants_with_parameters(tmp_path: Path, optimize: bool) -> None:
    """The same shape inside parameter loops (hoisting), with the def's argument reading
    the parameter, and nested in a def."""
    g = compile_text(tmp_path, HEAD + '''
var n = 3
def d(i: int) = i
def e(i: int) = any j in 1..d(i + 1): (any k in [j]: k > 0)
move take(k in 1..20, c in top 1 of deck) "take"
  when any m in 1..d(n + k): (any i in [m]: i > 0) and e(n + k) {
  move top of deck to table
}
end when deck is empty
''', optimize=optimize)
    st = play_out(g)
    assert g.is_terminal(st)


def test_an_internal_failure_names_file_and_line() -> None:
    """A Python exception in generated code (a compiler slip) becomes a RuleError that
    names the rule and the place of its declaration, found from the traceback."""
    from cardgame.interpreter.engine.playout import _Translate

    span = Span("g.cardgame", 7, 1, 7, 5)
    src = "def legal_3(s):\n    out = []\n    # move take\n    return 1 // s\n"
    ns: dict[str, Any] = {"_WHERE": {"move take": ("move take", span)}}
    exec(compile(src, "<cardgame G>", "exec"), ns)
    import linecache
    linecache.cache["<cardgame G>"] = (len(src), None, src.splitlines(True), "<cardgame G>")
    with pytest.raises(RuleError) as ei, _Translate("legal moves"):
        ns["legal_3"](0)
    assert str(ei.value).startswith("g.cardgame:7:1: rule error (in move take): "
                                    "ZeroDivisionError")


# ------------------------------------------------------------- count of a list of zones
def test_count_of_zones_counts_zones_size_counts_cards(tmp_path: Path) -> None:
    g = compile_text(tmp_path, '''
game "T"
players 3
deck standard
zone hand[player]: owner
var zones = 0
var cards = 0
setup { deal 2 from deck to hand }
move look {
  zones = count(hand)
  cards = size(hand)
}
flow { 1 chooses look
       end }
''')
    st = g.apply_text(g.new_state(1), "look")
    assert g.var(st, "zones") == 3
    assert g.var(st, "cards") == 6


# ------------------------------------------------------------- top n of a short zone
@pytest.mark.parametrize("optimize", [True, False])
def test_top_n_parameter_of_a_short_zone_offers_what_is_there(tmp_path: Path,
                                                              optimize: bool) -> None:
    g = compile_text(tmp_path, HEAD + '''
move back(c in top 1 of table) "put {c} back" { move c to deck }
move back3(c in top 3 of table) "put {c} back" { move c to deck }
move draw "draw" when deck is not empty { move top of deck to table }
end when size(table) == 5
''', optimize=optimize)
    st = g.new_state(1)
    assert [g.move_text(m) for m in g.legal_moves(st)] == ["draw"]  # no rule error
    st = g.apply_text(st, "draw")
    names = [g.move_text(m).split()[0] for m in g.legal_moves(st)]
    assert names.count("back") == 1 and names.count("back3") == 1
    st = g.apply_text(st, "draw")
    names = [g.move_text(m).split()[0] for m in g.legal_moves(st)]
    assert names.count("back3") == 2


def test_take_too_many_cards_message_is_singular(tmp_path: Path) -> None:
    g = compile_text(tmp_path, HEAD + '''
move grab { move top 1 of table to deck }
end when size(table) == 5
''')
    with pytest.raises(RuleError, match=r"cannot take 1 card from a zone of 0 cards$"):
        g.apply_text(g.new_state(1), "grab")


# ------------------------------------------------------------- descriptions
def test_description_with_an_expression_is_rejected_by_check(tmp_path: Path) -> None:
    """`"take {n * 2} cards"`: a description is written from the move alone, so check
    says where the computed value belongs (it no longer prints braces in the REPL)."""
    errs = errors_of(tmp_path, HEAD + '''
var n = 3
move take "take {n * 2} cards" { move top of deck to table }
end when deck is empty
''')
    assert any("names only its parameters" in str(e) and "{n * 2}" in str(e) for e in errs)
