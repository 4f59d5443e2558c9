"""The checked program (lang/): what the checker decides, recorded once as data."""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

import attrs
import pytest
from cardgame.interpreter.codegen import generate
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.errors import Diagnostic
from cardgame.interpreter.lang import (
    BUILTINS,
    MissingEntry,
    NodeTable,
    Program,
    Ref,
    bundled_dir,
    check,
    load,
)
from cardgame.interpreter.lang import (
    ast as A,
)
from cardgame.interpreter.lang.program import GLOBAL_KINDS, LOCAL_KINDS

ROOT = Path(__file__).resolve().parent.parent
GAME_FILES = sorted(bundled_dir().glob("*.cardgame")) + sorted((ROOT / "tests" / "data").glob(
    "*.cardgame"))

HEAD = 'game "T"\nplayers 1\ndeck standard\nzone pile\nzone waste[4]\n'


def program(tmp_path: Path, text: str) -> Program:
    p = tmp_path / "t.cardgame"
    p.write_text(HEAD + text, encoding="utf-8")
    return check(load(p))


def error(tmp_path: Path, text: str) -> str:
    with pytest.raises(Diagnostic) as e:
        program(tmp_path, text)
    return e.value.message


# ------------------------------------------------------------------ fixed on the way
def test_a_start_value_may_use_a_def(tmp_path: Path) -> None:
    """It crashed (the checker's def state was set up only after the variables)."""
    p = program(tmp_path, "def f(k: int) = k + 1\ndef c = 3\nvar x = f(1)\nvar y = c\n"
                          "move m when x > 0 { x = x - 1 }\n")
    assert p.vars["x"].type == "int" and p.vars["y"].type == "int"


def test_an_unknown_name_inside_a_zone_expression_is_a_name(tmp_path: Path) -> None:
    """Only the zone itself is reported as an unknown zone, not a name in its index
    (a mode flag on the checker used to leak into the index)."""
    assert error(tmp_path, "move m { move top of pile to waste[wx] }\n") == "unknown name 'wx'"
    assert error(tmp_path, "move m { move top of pile to wase[1] }\n") == "unknown zone 'wase'"
    assert error(tmp_path, "move m { move top of pil to waste[1] }\n") == "unknown zone 'pil'"
    assert error(tmp_path, "move m { shuffle pil }\n") == "unknown zone 'pil'"



def test_the_text_of_an_end_is_checked_and_typed(tmp_path: Path) -> None:
    """Its values were never checked: an unknown name reached the code generator as an
    internal error, and a card was shown as its number."""
    assert error(tmp_path, 'move m { end "took {zz}" }\n') == "unknown name 'zz'"
    p = program(tmp_path, 'setup { move all of deck to pile }\n'
                          'move m when pile is not empty {\n'
                          '  let c = top of pile\n  end "took {c} by {me}" }\n')
    end = next(n for n in p.nodes() if isinstance(n, A.End))
    assert [p.type_of(x) for x in end.parts if isinstance(x, A.Expr)] == ["card", "player"]
    game = compile_game(tmp_path / "t.cardgame")
    s = game.new_state(seed=1)
    s = game.apply(s, game.legal_moves(s)[0])
    reason = game.end_reason(s)
    assert reason is not None and re.fullmatch(r"took (10|[2-9AJQK])[♠♥♦♣] by p1", reason), reason


# ------------------------------------------------------------------ refs and types
@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.stem)
def test_every_name_has_a_ref_and_every_expression_a_type(path: Path) -> None:
    p = check(load(path))
    counts = {"expr": 0, "ref": 0}
    for node in p.nodes():
        if isinstance(node, A.Expr):
            assert p.type_of(node) != ""
            counts["expr"] += 1
        if isinstance(node, (A.Name, A.Call, A.CallStmt)):
            ref = p.ref_of(node)
            assert ref.kind in LOCAL_KINDS | GLOBAL_KINDS
            assert ref.name == (node.func if isinstance(node, (A.Call, A.CallStmt))
                                else node.name)
            counts["ref"] += 1
    assert counts["expr"] > 10 and counts["ref"] > 5  # the walk found the rules


REFS_GAME = """\
option size: 2..5 default 3
zone hand[player]
var total = 0
var best[4] = 0
def twice(k: int) = k + k
def most = size + 1
proc bump(by: int) { total += by }
move take(k in 1..size) when k < most and not ended and hand[me] is empty {
  let c = top of pile
  for z in suits { best[1] = twice(k) }
  bump(count x in [1, 2] where x == k)
  move c to waste[k]
}
"""


def test_each_kind_of_name_is_recorded(tmp_path: Path) -> None:
    p = program(tmp_path, REFS_GAME)
    refs: dict[str, set[str]] = {}
    for node in p.nodes():
        if isinstance(node, (A.Name, A.Call, A.CallStmt)):
            ref = p.ref_of(node)
            refs.setdefault(ref.name, set()).add(ref.kind)
    assert refs == {
        "size": {"constant"}, "k": {"move_param", "def_param"}, "most": {"def"},
        "ended": {"builtin"}, "hand": {"zone_array"}, "pile": {"zone"}, "c": {"let"},
        "suits": {"builtin"}, "best": {"var_array"}, "twice": {"def"}, "total": {"var"},
        "by": {"proc_param"}, "bump": {"proc"}, "x": {"quant"}, "waste": {"zone_array"},
    }
    size = next(n for n in p.nodes() if isinstance(n, A.Name) and n.name == "size")
    assert p.ref_of(size).value == 3 and p.ref_of(size).decl is p.option_decls["size"]
    loop = next(n for n in p.nodes() if isinstance(n, A.For))
    assert p.type_of(loop.source) == "list:suit"
    best = next(n for n in p.nodes() if isinstance(n, A.Index) and isinstance(
        n.obj, A.Name) and n.obj.name == "best")
    assert p.type_of(best) == "int" and p.type_of(best.obj) == "list:int"
    assert p.ref_of(best.obj).decl is p.vars["best"]
    ended = next(n for n in p.nodes() if isinstance(n, A.Name) and n.name == "ended")
    assert p.ref_of(ended).decl is BUILTINS["ended"]


def test_a_game_without_a_flow_runs_a_typed_implicit_one(tmp_path: Path) -> None:
    p = program(tmp_path, "move m when pile is not empty { move top of pile to waste[1] }\n")
    assert p.flow is None
    (loop,) = p.game_flow
    assert isinstance(loop, A.Repeat) and isinstance(loop.body[0], A.Choose)
    assert loop.body[0].moves == ("m",) and p.type_of(loop.body[0].who) == "int"


def test_the_tables_are_safe(tmp_path: Path) -> None:
    p = program(tmp_path, "move m when pile is not empty { move top of pile to waste[1] }\n")
    stranger = A.Name("pile")  # equal to a checked node, but not one
    with pytest.raises(MissingEntry, match="internal: no type recorded for Name"):
        p.type_of(stranger)
    with pytest.raises(MissingEntry):
        p.expr_types.get(stranger)
    with pytest.raises(MissingEntry, match="no ref recorded"):
        p.ref_of(stranger)
    with pytest.raises(TypeError, match="read-only"):
        p.expr_types.record(stranger, "zone")
    with pytest.raises(TypeError, match="read-only"):
        p.refs.writer()
    # there is no other way in: the id-keyed copy code generation once read is gone
    assert not hasattr(p, "types")


def test_a_table_keeps_its_nodes_alive() -> None:
    """An id is never reused while the table lives, so a new node is never mistaken for a
    recorded one that has gone."""
    table: NodeTable[str] = NodeTable("type")
    for _ in range(100):
        table.record(A.Int(1), "int")  # the temporaries stay alive in the table
    assert not any(A.Int(1) in table for _ in range(1000))
    assert len(table) == 100


def _without(table: NodeTable[Any], victim: object) -> NodeTable[Any]:
    """A copy of a frozen table without one node's entry."""
    out: NodeTable[Any] = NodeTable(table.what)
    for node, value in table.items():
        if node is not victim:
            out.record(node, value)
    out.freeze()
    return out


@pytest.mark.parametrize("optimize", [True, False])
def test_code_generation_reads_the_checkers_records_and_never_guesses(
        tmp_path: Path, optimize: bool) -> None:
    """Code generation asks the program what each name means and what type each
    expression has; a node the checker never recorded is an internal error (it used to
    fall back to the type "any", and to look names up again by their text)."""
    p = program(tmp_path, REFS_GAME)
    generate(p, optimize=optimize)  # complete tables: fine
    empty = next(n for n in p.nodes() if isinstance(n, A.IsEmpty))
    with pytest.raises(MissingEntry, match="no type recorded for Index"):
        generate(attrs.evolve(p, expr_types=_without(p.expr_types, empty.operand)),
                 optimize=optimize)
    pile = next(n for n in p.nodes() if isinstance(n, A.Name) and n.name == "pile")
    with pytest.raises(MissingEntry, match="no ref recorded for Name"):
        generate(attrs.evolve(p, refs=_without(p.refs, pile)), optimize=optimize)


def test_the_program_holds_no_checker(tmp_path: Path) -> None:
    p = program(tmp_path, "move m when pile is not empty { move top of pile to waste[1] }\n")
    for f in attrs.fields(Program):
        assert not inspect.ismethod(getattr(p, f.name)), f.name
    three = A.Binary("+", A.Int(2), A.Name("player_count"))
    assert p.const_int(three) == 3


def test_the_builtins_table() -> None:
    assert BUILTINS["size"].may_fail is False and BUILTINS["first"].may_fail is True
    assert BUILTINS["random"].chance and BUILTINS["distance"].arity == (3, 3)
    assert BUILTINS["suits"].type == "list:suit" and not BUILTINS["suits"].is_function
    assert isinstance(Ref("zone", "pile"), Ref)
