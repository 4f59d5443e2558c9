"""`cardgame mutate`: the mutants of a game file, their verdicts, equivalence marks.

tests/data/mutate/tiny.cardgame is small enough that its 12 mutants are known by heart:
the game ends when n reaches 3, so `n < 3` -> `n <= 3` and `n < 3` -> `n < 4` change
nothing (equivalent); the pile is never used, so its visibility changes nothing either;
starting at n = 1 is a different game, but nothing the file declares notices it. Every
other mutant is killed by the invariant, fuzz's generic properties or the expectation.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cardgame.interpreter.analysis import make_runner
from cardgame.interpreter.analysis.mutate import (
    EQUIVALENT,
    KILLED,
    STILLBORN,
    SURVIVED,
    deals_judge,
    examples_judge,
    judges_for,
    mutants,
    mutate,
    mutation_text,
)
from cardgame.interpreter.cli import main
from cardgame.interpreter.engine import compile_game

DATA = Path(__file__).resolve().parent / "data" / "mutate"
TINY = DATA / "tiny.cardgame"

SURVIVORS = {
    "zone pile: face up -> face down",
    "var n: n = 0 -> n = 1",
    "move step: when n < 3 -> when n <= 3",
    "move step: n < 3 -> n < 4",
}
STILLBORNS = {"zone pile: face up -> owner only"}
KILLS = {
    "move step: n < 3 -> n < 2": "fuzz: dead-end",
    "move step: n += 1 -> (deleted)": "fuzz: loop",
    "move step: n += 1 -> n += 2": "fuzz: invariant",
    "move step: n += 1 -> n += 0": "fuzz: loop",
    "end done: when n == 3 -> when n != 3": "expect sometimes 'three steps can be taken'",
    "end done: n == 3 -> n == 4": "fuzz: dead-end",
    "end done: n == 3 -> n == 2": "expect sometimes 'three steps can be taken'",
}


@pytest.fixture(scope="module")
def tiny_run():
    return mutate(TINY, seconds=1.0, seed=0, reach_seconds=5)


def test_the_mutants_of_a_small_game():
    text, ms = mutants(TINY)
    assert {m.name for m in ms} == SURVIVORS | STILLBORNS | set(KILLS)
    assert len(ms) == 12
    assert {m.kind for m in ms} == {"visibility", "number", "comparison", "statement"}
    # each mutant is the text with one edit, at the line it names
    for m in ms:
        new = m.apply(text)
        assert new != text
        assert new[:m.start] == text[:m.start]
        assert new[m.start + len(m.replace):] == text[m.end:]
        assert text.count("\n", 0, m.start) + 1 == m.line
    # the same file gives the same mutants, in the same order
    assert mutants(TINY)[1] == ms


def test_the_verdicts_of_a_small_game(tiny_run):
    by = {v.mutant.name: v for v in tiny_run.verdicts}
    assert {n for n, v in by.items() if v.status == SURVIVED} == SURVIVORS
    assert {n for n, v in by.items() if v.status == STILLBORN} == STILLBORNS
    for name, why in KILLS.items():
        assert by[name].status == KILLED, (name, by[name])
        assert by[name].reason.startswith(why), (name, by[name].reason)
    assert tiny_run.score == pytest.approx(7 / 11)
    assert tiny_run.warnings == []


def test_the_report_lists_the_survivors_by_line_and_edit(tiny_run):
    text = mutation_text(tiny_run)
    assert ("line 5: `when n < 3` -> `when n <= 3` survives: nothing you declared notices"
            in text)
    assert 'equivalent "move step: when n < 3 -> when n <= 3" "why"' in text
    assert ("score: 7/11 killed = 63.6% (12 mutants: 7 killed, 4 survived, 1 stillborn, "
            "0 equivalent;") in text
    assert "killed:" not in text  # killed mutants only with --verbose
    assert "line 5: `n < 3` -> `n < 2` killed: fuzz: dead-end" in mutation_text(
        tiny_run, verbose=True)


def test_marked_equivalents_are_counted_apart(tmp_path):
    f = tmp_path / "tiny.cardgame"
    f.write_text(TINY.read_text() + '\n'
                 'equivalent "move step: when n < 3 -> when n <= 3" "the game ends at 3"\n'
                 'equivalent "move step: n < 3 -> n < 4" "the game ends at 3"\n'
                 'equivalent "zone pile: face up -> face down" "the pile is never used"\n'
                 'equivalent "move step: n < 3 -> n < 9" "no such mutant"\n')
    run = mutate(f, seconds=1.0, seed=0, reach_seconds=5, only=[0, 2, 3, 4])
    status = {v.mutant.name: v.status for v in run.verdicts}
    assert status == {"zone pile: face up -> face down": EQUIVALENT,
                      "var n: n = 0 -> n = 1": SURVIVED,
                      "move step: when n < 3 -> when n <= 3": EQUIVALENT,
                      "move step: n < 3 -> n < 4": EQUIVALENT}
    assert run.unused_marks == ["move step: n < 3 -> n < 9"]
    text = mutation_text(run)
    assert "  line 5: `when n < 3` -> `when n <= 3`: the game ends at 3" in text
    line = len(f.read_text().splitlines())  # the last mark
    assert (f'{f}:{line}:1: warning: `equivalent "move step: n < 3 -> n < 9"` names no '
            "mutant") in text
    assert "score: 0/1 killed = 0.0%" in text and "3 equivalent" in text


def test_a_variant_is_not_warned_about_its_parents_marks(tmp_path):
    """A variant of Besieged Castle inherits its `equivalent` marks, written for the
    parent's mutants (and checked there): they name no mutant of the variant, which is
    no warning; the variant's own mark that names none is, located file:line:col."""
    f = tmp_path / "variant.cardgame"
    f.write_text((DATA / "variant.cardgame").read_text() + 'equivalent "zone column: '
                 '10 -> 99" "no such mutant"\n')
    run = mutate(f, seconds=1.0, seed=0, reach_seconds=1, only=[])
    assert run.unused_marks == ["zone column: 10 -> 99"]
    text = mutation_text(run)
    assert text.count("warning: `equivalent") == 1
    assert (f'{f}:5:1: warning: `equivalent "zone column: 10 -> 99"` names no mutant of '
            "this file") in text


def test_a_mark_survives_lines_moving(tmp_path):
    """A mutant's name holds no line number: lines added above it keep the mark."""
    f = tmp_path / "tiny.cardgame"
    f.write_text("# a comment\n\n" + TINY.read_text())
    names = {m.name for m in mutants(f)[1]}
    assert names == {m.name for m in mutants(TINY)[1]}
    assert {m.line for m in mutants(f)[1]} == {m.line + 2 for m in mutants(TINY)[1]}


def test_checks_and_frame_are_not_mutated():
    text, ms = mutants(TINY)
    inv = text.index("invariant")
    exp = text.index("expect")
    res = text.index("result")
    assert all(not (m.start >= min(inv, exp, res)) for m in ms)


def test_parallel_runs_give_the_same_verdicts(tiny_run):
    with make_runner(2) as runner:
        run = mutate(TINY, seconds=1.0, seed=0, reach_seconds=5, runner=runner,
                     only=[4, 9, 10])
    want = {v.mutant.name: v.status for v in tiny_run.verdicts if v.mutant.index in (4, 9, 10)}
    assert {v.mutant.name: v.status for v in run.verdicts} == want


def test_the_examples_judge_kills_a_mutant_its_example_notices(tmp_path):
    """The game's examples are a judge: the mutant `n += 1 -> n += 2` breaks the example
    "a step adds one", and the reason names the example and its failed expectation."""
    text = TINY.read_text(encoding="utf-8") + (
        '\nexample "a step adds one" {\n  p1 plays "step"\n  expect n == 1\n}\n')
    good = tmp_path / "good.cardgame"
    good.write_text(text, encoding="utf-8")
    bad = tmp_path / "bad.cardgame"
    bad.write_text(text.replace("n += 1", "n += 2"), encoding="utf-8")
    judge = examples_judge()
    assert judge(compile_game(good)) is None
    reason = judge(compile_game(bad))
    assert reason is not None and reason.startswith("example 'a step adds one' fails: ")
    assert "n == 1" in reason
    assert len(judges_for(1.0, 0, {})) == 4


LOW = """game "Low"
players 1
deck {
  for r in 1..12 {
    card(rank: r)
  }
}
zone stock: face down, squared
zone taken: face up, row
setup {
  shuffle deck
  move first c in deck where c.rank == 12 to stock
  move all of deck to stock
}
move take "take the top card of the stock" {
  move top of stock to taken
}
end when stock is empty "every card is taken"
invariant low "the 12 lies at the stock's bottom, never on top":
  stock is empty or (top of stock).rank != 12 or size(stock) == 1
"""


def test_the_deals_judge_checks_the_invariants_on_many_deals(tmp_path):
    """A setup bug that breaks an invariant on one deal in twelve (the 12 shuffled with
    the rest instead of put at the bottom): the deals judge sees it on the first states
    of many deals, where a short fuzz may play too few games."""
    good = tmp_path / "good.cardgame"
    good.write_text(LOW, encoding="utf-8")
    bad = tmp_path / "bad.cardgame"
    bad.write_text(LOW.replace("  move first c in deck where c.rank == 12 to stock\n", ""),
                   encoding="utf-8")
    assert LOW != bad.read_text(encoding="utf-8")
    judge = deals_judge(5.0, 0)
    assert judge(compile_game(good)) is None
    reason = judge(compile_game(bad))
    assert reason is not None and reason.startswith("deals: invariant 'low' fails on the deal")


def test_the_command(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code = main(["mutate", str(TINY), "--seconds", "1", "--reach-seconds", "5", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0
    assert {m["name"] for m in doc["mutants"] if m["status"] == SURVIVED} == SURVIVORS
    assert (doc["killed"], doc["survived"], doc["stillborn"], doc["equivalent"]) == (7, 4, 1, 0)


def test_a_variant_of_a_local_file_finds_its_base(tmp_path):
    """The mutants of a variant compile from a scratch copy of its text: its
    `extends "base"` still means the base beside the original (a user test: "cannot find
    game 'mygame' to extend" in the scratch folder)."""
    (tmp_path / "base.cardgame").write_text(TINY.read_text())
    f = tmp_path / "variant.cardgame"
    f.write_text('extends "base"\ngame "Variant"\nmove step "add one" when n < 2 { n += 1 }\n')
    run = mutate(f, seconds=0.5, seed=0, reach_seconds=1)
    assert run.verdicts
    assert not [v for v in run.verdicts if "cannot find game" in v.reason]
    assert all(v.status != STILLBORN for v in run.verdicts if "step" in v.mutant.name)
