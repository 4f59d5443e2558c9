"""Optimiser rules found on the classic solitaires and fishing games (issue 12, the fuzzer's
fast walks): each rule's shape in the generated code, and the game played alike with and
without optimisation (`test_optimize.play_both`)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from cardgame.interpreter.codegen import runtime
from cardgame.interpreter.codegen.runtime import namespace
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
    # (over the 28 places, a zone array of at most WRITE_ZONES zones, the loop is written
    # out: one term a place, an `and` that stops at the first false one; the loops of
    # other quantifiers: Klondike's below)
    assert re.search(r"return bool\(\(not not \(\(\(len\(s\[7\]\) <= 1\)\) and "
                     r"\(\(len\(s\[8\]\) <= 1\)\) and ", places)
    step = src[src.index("def step_4"):src.index("STEP =")]
    settle = src[src.index("def settle"):src.index("def run")]
    for fn in (step, settle):  # the end `cleared`: its terms, then the test of its answer
        assert "all(" not in fn
        assert re.search(r"if \(not not \(\(\(not s\[7\]\)\) and .*\(\(not s\[34\]\)\)\)\):\n"
                         r"\s+s\[4\] = END_REASONS\[0\]", fn)
    assert "return bool(all(" in plain.gen.source
    play_both(fast, plain, seeds=tuple(range(6)))


def _two_runtimes() -> tuple[dict[str, Any], dict[str, Any]]:
    """Two namespaces of Scopa's runtime helpers: one to read sums from, one to search."""
    g = compile_game("scopa")
    args = (g.checked, g.gen.spans, [z.slot for z in g.gen.zone_slots], g.zone_text,
            g.card_text)
    return namespace(*args), namespace(*args)


def test_sets_of_a_sum_read_from_the_subset_sums_are_the_searched_ones(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`subsets of Z where (sum x in s: ...) == v` of up to SUM_TABLE cards: read from the
    sums of all subsets (Scopa's captures, the sums listed once for the targets of one
    table), the same sets in the same order as the search finds them, with a count `k` or
    not, with negative values too; the sets of an empty zone are the empty set when the
    target is 0. More cards: the search."""
    ns, other = _two_runtimes()
    table, search = ns["_subsets"], other["_subsets"]
    other["_B"][0] = 10 ** 9
    # the sums of six cards listed: 2**6 subsets looked at, each drawn from the budget (the
    # search would look at the 14 nodes its pruning leaves)
    ns["_B"][0] = 1000
    assert table((5, 9, 11, 20, 30, 31), None, (1, 2, 3, 4, 5, 6), 3, 0) == ((5, 9), (11,))
    assert ns["_B"][0] == 1000 - 2 ** 6
    ns["_B"][0] = 10 ** 9
    rng = random.Random(5)
    for trial in range(1500):
        n = rng.randint(0, 12)
        seq = tuple(rng.sample(range(40), n))
        vals = tuple(rng.randint(-2 if trial % 3 == 0 else 1, 10) for _ in seq)
        k = rng.choice((None, None, 1, 2, 3))
        target = rng.randint(-1, 14)
        got = table(seq, k, vals, target, 0)
        with monkeypatch.context() as m:
            m.setattr(runtime, "SUM_TABLE", -1)  # (the search only)
            want = search(seq, k, vals, target, 0)
        assert got == want, (seq, k, vals, target)
    assert table((), None, (), 0, 0) == ((),)
    assert table((3, 1, 2), None, (1, 1, 2), 2, 0) == ((1, 3), (2,))  # deck order, taken first


def test_sets_of_a_sum_of_a_list_naming_a_card_twice_are_the_searched_ones(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`subsets of twice where ...`, `twice` a list that names cards more than once
    (`(all of table) + (all of table)`): the sets read from the subset sums come in the
    search's order too (a key made of the cards' own bits would add up for a card taken
    twice and tie with another set's)."""
    ns, other = _two_runtimes()
    table, search = ns["_subsets"], other["_subsets"]
    ns["_B"][0] = other["_B"][0] = 10 ** 9
    assert table((3, 2, 3), None, (1, 2, 1), 2, 0) == ((2,), (3, 3))  # {3,3} ties {2} by bits
    rng = random.Random(7)
    for trial in range(1500):
        n = rng.randint(1, 10)
        seq = tuple(rng.randrange(6) for _ in range(n))
        value = {c: rng.randint(1, 6) for c in seq}  # a card's value, each time it comes
        vals = (tuple(value[c] for c in seq) if trial % 4 else
                tuple(rng.randint(1, 6) for _ in seq))  # (or not: as `_sets` takes them)
        k = rng.choice((None, None, 1, 2, 3))
        target = rng.randint(1, 14)
        got = table(seq, k, vals, target, 0)
        with monkeypatch.context() as m:
            m.setattr(runtime, "SUM_TABLE", -1)  # (the search only)
            want = search(seq, k, vals, target, 0)
        assert got == want, (seq, k, vals, target)


def test_the_sum_a_set_of_cards_was_chosen_by_is_not_tested_again() -> None:
    """Scopa's `taken in subsets of table where (sum x in taken: x.rank) == c.rank`: the
    sets are listed by their sum (`_subsets` with the values and the target), so the
    conjunct is not tested again on each set; `can_take`'s `any s in subsets of table
    where (sum ...) == c.rank` is whether there is such a set. Plain code tests the sum
    on each set; both play alike."""
    fast = compile_game("scopa")
    plain = compile_game("scopa", optimize=False)
    gen = _functions(fast.gen.source, "legal_")
    assert len(gen) == 1
    take = gen[0][gen[0].index("# move take"):gen[0].index("# move lay")]
    lay = gen[0][gen[0].index("# move lay"):]
    assert "for u_taken in _subsets(s[9], None, " in take
    assert "sum(" not in take and "sum(" not in lay
    assert re.search(r"if \(not bool\(_n\(_subsets\(s\[9\], None, _h\d+, RANK\[u_c\], "
                     r"\d+\), \d+\)\)\):\n\s+out\.append", lay)
    src = plain.gen.source
    assert re.search(r"for u_taken in .*\n\s+if \(sum\(RANK\[_q\d+\] for _q\d+ in "
                     r"_n\(u_taken, \d+\)\) == RANK\[u_c\]\)", src)
    play_both(fast, plain, seeds=tuple(range(4)))


def test_values_of_the_state_are_shared_by_the_generators_of_a_decision() -> None:
    """Pyramid's `free` cards (a def without parameters that loops) are what `pair`
    ranges over twice and `king` once: computed by the first generator that needs them
    and kept in a variable of the decision (set to `...` before the generators), where
    each generator computed its own before. (Within one generator its own hoisting
    keeps such a value out of the loops: only values of two generators or more are the
    decision's; Hearts' unswitched arms of `play` keep theirs.) Scopa's `take` and `lay` share the values of
    the table's cards they list the sums of (the same expression at two places of the
    file: its spans do not count). Plain code computes each in place; both play alike."""
    # (Pyramid's free cards: one term a place, written out: test_optimize_s10)
    for game, some in (("pyramid", r"\(\*\(\(s\[7\]\[-1\],\) if "), ("scopa", r"tuple\(\[RANK\[")):
        fast = compile_game(game)
        plain = compile_game(game, optimize=False)
        (legal,) = _functions(fast.gen.source, "legal_")
        shared = re.findall(r"^    (_v\d+) = \.\.\.$", legal, re.M)
        assert shared
        # every computation, in a value of the decision (around a generator's own, or not;
        # remembered with the zones it reads or not: test_optimize_s11b)
        computed = re.findall(r"\((_v\d+) := (?:\((_h\d+) if \2 is not \.\.\. else \(\2 := )?"
                              r"(?:\(_e\d+\[1\] if \(_e\d+ := M\1\[0\]\)\[0\] == \(_k\d+ := "
                              r"(?:s\[\d+:\d+\]|\((?:s\[\d+\],\s?)+\))\) else _remember\(M\1, _k\d+, )?"
                              + some, legal)
        assert len(computed) == len(re.findall(some, legal)) >= 2
        assert {v for v, _ in computed} <= set(shared), computed
        moves = re.split(r"# move \w+", legal)[1:]
        assert sum(shared[0] in m for m in moves) >= 2  # (read by two generators or more)
        assert "_v" not in plain.gen.source.split("def legal_")[1].split("LEGAL =")[0]
        play_both(fast, plain, seeds=tuple(range(4)))


def test_a_quantifier_in_a_quantifiers_loop_is_a_loop_when_it_reads_the_loop() -> None:
    """Klondike's `all a in column: all k in 1..size(a) - 1: ...`: the inner quantifier
    reads the outer's variable, so it is a loop inside the outer loop (no generator for
    `all` to drain, per column); one that reads nothing of the loop stays an expression
    hoisted out of it (test_optimize: Interaction's `min q in players: chips[q]`), and
    one whose test reads nothing of its value is one test (FreeCell's
    `all c in a: c.face_up`, test_optimize). Plain code: generators; both play alike."""
    fast = compile_game("klondike")
    plain = compile_game("klondike", optimize=False)
    src = fast.gen.source
    for name in ("runs", "under", "homes"):
        (fn,) = _functions(src, f"inv_{name}")
        assert "all(" not in fn and "any(" not in fn, fn
        assert re.search(r"\n {4}for _q\d+ in .*:\n {8}(_r\d+) = True\n {8}for _q\d+ in .*:\n"
                         r" {12}if not .*:\n {16}\1 = False\n {16}break\n {8}if not \1:", fn), fn
    assert "return bool(all(all(" in plain.gen.source
    play_both(fast, plain, seeds=tuple(range(3)))


def test_faces_in_a_loop_read_a_set_of_the_turned_cards_made_once() -> None:
    """Klondike's `c.face_up` for every card of every column (the `shift` move's
    generator, the invariants): the turned cards as a set made once, before the
    outermost loop (the state cannot change in a generator or a quantifier), each face
    one lookup instead of a search of the tuple (`_turned`: the set of the faces' tuple,
    made again only for another tuple, test_optimize_s11b). Outside a loop, the tuple;
    plain code, the tuple; both play alike."""
    fast = compile_game("klondike")
    plain = compile_game("klondike", optimize=False)
    src = fast.gen.source
    faces = fast.gen.source.split("FACES = ")[1].split("\n")[0]
    (legal,) = _functions(src, "legal_")
    made = re.search(rf"^    (_h\d+) = _turned\(s\[{faces}\]\)$", legal, re.M)
    assert made and legal.index(made.group(0)) < legal.index("for u_a in Z_column")
    # (the columns' face, known when compiling: the thirteenth session's `zone_public`)
    assert f"(u_c not in {made.group(1)})" in legal and f"in s[{faces}])" not in legal
    (runs,) = _functions(src, "inv_runs")
    made = re.search(rf"^    (_h\d+) = _turned\(s\[{faces}\]\)\n    _r\d+ = True\n    for ",
                     runs, re.M)
    assert made and runs.count(f"in {made.group(1)})") == 1 and "_turned(" not in runs[
        made.end():]
    (reveal,) = _functions(src, "p_reveal")  # (no loop: the tuple)
    assert f"in s[{faces}]" in reveal and "_turned(" not in reveal
    assert "frozenset(s[" not in plain.gen.source and "_turned(" not in plain.gen.source
    play_both(fast, plain, seeds=tuple(range(3)))


def test_an_if_whose_arm_relies_on_its_own_test_moves_as_a_whole() -> None:
    """Pyramid's `available = if waste is empty then free else free + [top of waste]`:
    `top of waste` relies on the if's own test (a fact inside the expression), so it
    never moves out of the arm, but the whole if may: the three parameters that range
    over it (`pair`'s a and b, `king`'s k) share one value per decision, where b's was
    computed again for every a."""
    fast = compile_game("pyramid")
    (legal,) = _functions(fast.gen.source, "legal_")
    sources = re.findall(r"for u_(\w) in \((_v\d+) if \2 is not \.\.\. else \(\2 := \(\(", legal)
    assert [p for p, _ in sources] == ["a", "b", "k"] and len({v for _, v in sources}) == 1
    assert legal.count("_grow(") == 3  # (in those three places, each computed once at most)
    assert not re.search(r"_h\d+ = s\[\d+\]\[-1\]", legal)  # the top never moved out alone
    play_both(fast, compile_game("pyramid", optimize=False), seeds=tuple(range(4)))


def test_me_given_to_a_def_in_a_lowered_value_is_a_player() -> None:
    """Blackjack's `won` (`result`, lowered as a statement's value): `me` given to a def
    (`total(hand[me])` through its defs) is a player, as where the def is inlined in an
    expression, so `hand[me]` is its slot with no range check; both play alike."""
    fast = compile_game("blackjack")
    (won,) = _functions(fast.gen.source, "won")
    assert "_ix(me" not in won and "me.__class__" not in won
    assert re.search(r"^    _a\d+ = \d+$", won, re.M)
    play_both(fast, compile_game("blackjack", optimize=False), seeds=tuple(range(6)))


def test_the_body_of_a_quantifier_knows_its_where() -> None:
    """`each place in pyramid where place is not empty and ...: top of place` (Pyramid's
    free cards, Golf's column tops): the body runs only where the where holds, so the top
    is taken with no check that the place has a card; plain code checks; both play
    alike."""
    for game in ("pyramid", "golf"):
        fast = compile_game(game)
        plain = compile_game(game, optimize=False)
        (legal,) = _functions(fast.gen.source, "legal_")
        # (one term a place: the zones written out, test_optimize_s10)
        assert re.search(r"\*\(\(s\[(\d+)\]\[-1\],\) if \(\(?not not s\[\1\]", legal)
        assert not re.search(r"\*\(\(\(s\[\d+\] or _E\(", legal)
        assert re.search(r"\[\(s\[(_q\d+)\] or _E\(\d+, \d+\)\)\[-1\] for \1 in ", plain.gen.source)
        play_both(fast, plain, seeds=tuple(range(4)))
