"""`expect sometimes` / `expect never`: witnesses, proofs, budgets, and the fuzz command.

The games are in tests/data/reach/: `pick` (a shuffled deal: keeping the 3 alone is
reachable), `four` (no chance: keeping four of three cards is unreachable, proved by one
complete search), `four-shuffled` (the same with a shuffle: every deal searched is proved
hopeless, but the deals are not all searched) and `never` (an `expect never` that fails).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cardgame.interpreter.analysis.reachability import (
    UNKNOWN,
    UNREACHABLE,
    WITNESSED,
    check_reachability,
    reach_text,
    uses_chance,
)
from cardgame.interpreter.cli import main
from cardgame.interpreter.engine import compile_game, replay
from cardgame.interpreter.fuzz import fuzz
from cardgame.interpreter.solve import SOLVED, UNSOLVABLE, Bounds, solve

DATA = Path(__file__).resolve().parent / "data" / "reach"


def game(name: str):
    return compile_game(DATA / f"{name}.cardgame")


def test_the_declarations_compile_to_expectations_and_invariants():
    g = game("pick")
    assert [t for t, _ in g.expectations] == ["keep the 3 alone"]
    # `expect never` is the invariant `not COND`, named never_1, its label as its doc
    assert [n for n, _ in g.invariants] == ["never_1"]
    inv = g.checked.invariants[0]
    assert inv.negated and inv.doc == "no card comes twice"
    # a condition without a label is named by its text
    assert [t for t, _ in game("four").expectations] == ["keep them all", "keep four"]


def test_an_expectation_without_a_label_is_named_by_its_text(tmp_path):
    f = tmp_path / "t.cardgame"
    f.write_text((DATA / "four.cardgame").read_text().replace(' "keep four"', ""))
    g = compile_game(f)
    assert g.expectations[1][0] == "expect sometimes size(kept) == 4"


def test_a_winnable_game_gets_a_witness_written_as_a_replay(tmp_path):
    g = game("pick")
    [r] = check_reachability(g, seed=0, seconds=5, out_dir=tmp_path)
    assert r.verdict == WITNESSED and r.ok
    assert r.replay_path is not None
    # the replay file steps through legal moves to a state where the condition holds
    rp = replay.load(r.replay_path)
    states = rp.states(g)
    assert len(states) == len(r.moves) + 1
    assert g.expectation_holds(states[-1], 0)
    assert not any(g.expectation_holds(s, 0) for s in states[:-1])
    text = reach_text([r])
    assert "ok: 'keep the 3 alone' reached after 3 moves" in text
    assert f"witness written to {r.replay_path}" in text


def test_an_unreachable_condition_is_proved_by_a_complete_search():
    g = game("four")
    assert not uses_chance(g)
    ok, four = check_reachability(g, seed=0, seconds=5)
    assert ok.verdict == WITNESSED
    assert four.verdict == UNREACHABLE and not four.ok
    assert four.proved_deals == 1
    assert "'keep four' is unreachable: the solver searched every play" in reach_text([four])


def test_with_chance_the_budget_runs_out_and_the_report_says_so():
    g = game("four-shuffled")
    assert uses_chance(g)
    _, four = check_reachability(g, seed=0, seconds=1)
    assert four.verdict == UNKNOWN
    assert four.proved_deals > 0 and four.undecided_deals == 0
    text = reach_text([four])
    assert "no witness of 'keep four' found: the budget ran out (1 s)" in text
    assert f"the solver proved {four.proved_deals} deal(s) hopeless" in text


def test_reachability_is_the_same_for_a_seed():
    g = game("pick")
    a = check_reachability(g, seed=3, seconds=5)
    b = check_reachability(g, seed=3, seconds=5)
    assert (a[0].seed, a[0].moves) == (b[0].seed, b[0].moves)


def test_the_solver_goal_replaces_the_win():
    g = game("four")
    start = g.new_state(0)
    fn3 = g.expectations[0][1]
    fn4 = g.expectations[1][1]
    r = solve(g, start, Bounds(), None, auto=False, goal=lambda n: fn3(list(n[0]), n[1]))
    assert r.verdict == SOLVED and len(r.moves) == 3
    r = solve(g, start, Bounds(), None, auto=False, goal=lambda n: fn4(list(n[0]), n[1]))
    assert r.verdict == UNSOLVABLE
    # a goal that holds at the start is met with no move
    r = solve(g, start, Bounds(), None, auto=False, goal=lambda n: True)
    assert r.verdict == SOLVED and r.moves == ()


def test_expect_never_is_checked_by_fuzz_as_an_invariant():
    rep = fuzz(DATA / "never.cardgame", seed=0, seconds=5, database=None,
               write_replay=False)
    assert rep.failure is not None
    assert rep.failure.property == "invariant"
    assert 'invariant `never_1` "never two kept"' in rep.failure.message
    assert len(rep.failure.moves) == 2


def test_fuzz_command_prints_the_witness_and_passes(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code = main(["fuzz", str(DATA / "pick.cardgame"), "--seconds", "1",
                 "--reach-seconds", "5", "--seed", "0"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "no rule hole found" in out
    assert "ok: 'keep the 3 alone' reached after 3 moves" in out
    assert "witness written to .cardgame/pick-expect-1.json" in out
    assert (tmp_path / ".cardgame" / "pick-expect-1.json").exists()


def test_fuzz_command_fails_on_an_unreachable_expectation(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code = main(["fuzz", str(DATA / "four.cardgame"), "--seconds", "1",
                 "--reach-seconds", "3", "--seed", "0", "--json"])
    out = capsys.readouterr().out
    assert code == 1
    import json

    doc = json.loads(out)
    verdicts = [r["verdict"] for r in doc["reachability"]]
    assert verdicts == [WITNESSED, UNREACHABLE]


@pytest.mark.parametrize("name", ["besieged-castle", "besieged-castle-spice-2"])
def test_bundled_solitaires_can_be_won(name):
    g = compile_game(name)
    titles = [t for t, _ in g.expectations]
    assert "the game can be won" in titles  # beside it: the deal is shuffled
    k = titles.index("the game can be won")
    r = check_reachability(g, seed=0, seconds=30, which=[k])[k]
    assert r.verdict == WITNESSED, r.how
    states = replay.from_game(g, name, r.seed, list(r.moves)).states(g)
    assert g.results(states[-1]) == ["win"]


def test_every_bundled_witness_replays_to_its_condition():
    """games/witnesses/ holds witnesses found by long runs, so that `cardgame fuzz` on a
    bundled game need not search again: each must still reach its condition."""
    from cardgame.interpreter.analysis.reachability import BUNDLED, _cache_file, replays_to

    files = sorted(BUNDLED.glob("witness-*.json"))
    assert files
    import json

    for f in files:
        name = f.name[len("witness-"):].rsplit("-", 1)[0]
        g = compile_game(name)
        k = next(k for k in range(len(g.expectations)) if _cache_file(g, k, BUNDLED, name) == f)
        data = json.loads(f.read_text())
        moves = [tuple(m) for m in data["moves"]]
        assert replays_to(g, k, data["seed"], moves), f.name
        if g.expectations[k][0] == "the game can be won":
            end = replay.from_game(g, name, data["seed"], moves).states(g)[-1]
            assert g.results(end) == ["win"], f.name
