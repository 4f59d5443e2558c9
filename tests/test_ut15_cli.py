"""The fifteenth user test's command-line and REPL leftovers (ut15 REPORT items 2, 9, 12,
15, 17): end reasons in words, bot names, charts' ticks, examples' lines."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from cardgame.interpreter.analysis import simulate
from cardgame.interpreter.cli import build_parser, main
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.fuzz import fuzz
from cardgame.repl.app import make_repl

DATA = Path(__file__).parent / "data" / "ut15"
RUNOUT = str(DATA / "runout.cardgame")


def script(argv: list[str], lines: list[str]) -> str:
    stream = io.StringIO()
    repl, note = make_repl(build_parser().parse_args(["play", *argv]), interactive=False,
                           stream=stream)
    assert repl.run_script(lines, note) == 0
    return stream.getvalue()


# ---------------------------------------------------------------------- end reasons
FLOW = "the flow ran to its end"


def test_a_flow_that_runs_out_says_so_everywhere(capsys):
    """A flow with no `end "reason"` ran out: its reason read "ended" (item 15)."""
    g = compile_game(RUNOUT)
    st = g.new_state(1)
    while not g.is_terminal(st):
        st = g.apply(st, g.legal_moves(st)[0])
    assert g.end_reason(st) == FLOW
    assert g.ended(st) == "ended"  # the state keeps its word (hashed states, saves)
    sim = simulate(g, games=4, seed=1)
    assert {r.end_reason for r in sim.records} == {FLOW}
    assert main(["simulate", RUNOUT, "--games", "4", "--seed", "1"]) == 0
    assert f"100.0% [51.0, 100.0] {FLOW}" in capsys.readouterr().out
    assert main(["simulate", RUNOUT, "--games", "4", "--seed", "1", "--json"]) == 0
    assert f"end.{FLOW}" in json.loads(capsys.readouterr().out)["metrics"]
    r = fuzz(g, examples=3, seed=1, database=None, write_replay=False)
    assert set(r.coverage.endings) | set(r.coverage.fast_endings) <= {FLOW, "ended"}
    assert main(["fuzz", RUNOUT, "--examples", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert f"'{FLOW}'" in out and "'ended'" not in out
    played = script([RUNOUT, "--seed", "1"], ["step"] * 6)
    assert f"game over: {FLOW} — " in played


def test_a_bare_end_is_not_the_flow_running_out(tmp_path):
    f = tmp_path / "bare.cardgame"
    f.write_text((DATA / "runout.cardgame").read_text().replace(
        '{ n += 1 }', '{ n += 1 if n == 2 { end } }'))
    g = compile_game(str(f))
    st = g.new_state(1)
    while not g.is_terminal(st):
        st = g.apply(st, g.legal_moves(st)[0])
    assert g.end_reason(st) == "an `end` with no reason"
