"""Optimiser and engine rules for the playouts of trick-taking and multi-player games
(issue 12, target 2: Arsène, Interaction): each rule's shape in the generated code, and the
game played alike with and without optimisation (`test_optimize.play_both`)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from cardgame.interpreter.codegen import runtime
from cardgame.interpreter.engine import compile_game
from test_optimize import OPTIMISER_GAMES, play_both

ARGMAX = """\
game "Argmax"
players 3
deck standard
zone hand[player]: owner, fanned
zone trick: face up, row
zone taken[player]: face down, squared
var leader: player = 1
var low: player = 1
var ge = 0
var tricks[player] = 0
var lows[player] = 0
var aheads[player] = 0
def high(c: card) = c.rank % 4
def ahead(w: player) = tricks[w] > lows[w]
def led = (bottom of trick).suit
# the lowest_seat card of the led suit: a min with a where, `best == F` written the other way
def lowest_seat =
  let least = (min c in trick where c.suit == led: c.rank) in
  (players from leader)[first i in 1..size(trick) where (trick[i]).suit == led and least == (trick[i]).rank]
# not an argmax: >= is no equality
def at_least = let hi = (max c in trick: high(c)) in first i in 1..size(trick) where high(trick[i]) >= hi
# ties (ranks modulo 4): the first of the highest
def winner =
  let best = (max c in trick: high(c)) in
  (players from leader)[first i in 1..size(trick) where high(trick[i]) == best]
setup {
  shuffle deck
  deal 5 from deck to hand[players]
}
move play(c in hand[me]) "play {c}" { move c to trick }
flow {
  repeat 5 times {
    for p in players from leader { p chooses play }
    low = lowest_seat
    ge = at_least
    leader = winner
    lows[low] += 1
    tricks[leader] += ge
    if ahead(left of leader) and ahead(low) {
      aheads[low] += 1
    }
    move all of trick to taken[leader]
  }
}
score = tricks[me] * 10 + lows[me] + aheads[me]
result highest score
"""


FOLLOW = """\
game "Follow"
players 3
deck standard with 2 jokers
zone hand[player]: owner, fanned
zone pile: face up, squared
var points[player] = 0
def lead_suit = (top of pile).suit
setup {
  shuffle deck
  deal 18 from deck to hand[players]
}
# follow the top card's suit if you can (a joker on top: only the other joker follows)
move play(c in hand[me]) "play {c}"
  when pile is empty or c.suit == lead_suit or not (any d in hand[me]: d.suit == lead_suit) "follow"
{
  if pile is not empty and (any d in hand[me]: d.color == (top of pile).color) {
    points[me] += 1
  }
  move c to pile
}
flow {
  repeat 18 times {
    for p in players { p chooses play }
  }
}
score = points[me]
result highest score
"""


def _fused(src: str) -> list[str]:
    """The max/min loops that also keep the first index of their best value."""
    return re.findall(r"if _r\d+ is None or _b\d+ [<>] _r\d+: _r\d+ = _b\d+; _i\d+ = _n\d+",
                      src)


def test_argmax_max_then_first_index_of_it_is_one_loop(tmp_path: Path) -> None:
    """`let best = (max c in Z where W: F) in ...[first i in 1..size(Z) where W' and F' ==
    best]` (a trick's winner): the max's loop keeps the first index where its strict `>`
    raised the best, and the `first` loop is gone; with `min`, a `where` and `best == F`
    too. Ties (ranks modulo 4) go to the first card, as the `first` finds it; a `first`
    whose test is no equality (`>=`) keeps its loop. Plain code keeps both loops."""
    path = tmp_path / "argmax.cardgame"
    path.write_text(ARGMAX, encoding="utf-8")
    fast = compile_game(path)
    plain = compile_game(path, optimize=False)
    src = fast.gen.source
    step = src[src.index("def step_7"):src.index("STEP =")]
    ranges = re.findall(r"for _q\d+ in range\(1, \(len\(s\[\d+\]\)\) \+ 1\):\n(.*)", step)
    assert ranges and all(">= _r" in t for t in ranges), ranges  # only `at_least`'s
    assert len(_fused(step)) == 2 * len(ranges)  # the min and the max, in each copy
    assert not _fused(plain.gen.source)
    play_both(fast, plain, seeds=tuple(range(12)))


def test_argmax_in_arsene() -> None:
    """Arsène's `winner_of_trick` (`max c in trick: strength(c)`, then the first index of
    that strength): one loop over the trick, in every step that ends a trick."""
    for players in (3, 4):
        src = compile_game("arsene", players).gen.source
        step = src[src.index("def step_24"):src.index("def step_28")]
        assert _fused(step)
        assert not re.search(r"for _q\d+ in range\(1, \(len\(s\[\d+\]\)\) \+ 1\)", step)


def test_can_follow_suit_is_a_set_of_the_value_disjoint_from_the_hand(tmp_path: Path) -> None:
    """`any d in hand[me]: d.suit == v` (can follow suit) is `not SETS.get(v,
    EMPTY).isdisjoint(hand)`, SETS the cards of each suit (filled when the module loads),
    not `v in map(SUIT.__getitem__, hand)`; with jokers (suit none) too: a joker on top
    is followed by the other joker only. Plain code keeps the quantifier; both play
    alike."""
    path = tmp_path / "follow.cardgame"
    path.write_text(FOLLOW, encoding="utf-8")
    fast = compile_game(path)
    plain = compile_game(path, optimize=False)
    src = fast.gen.source
    assert "in map(SUIT.__getitem__" not in src
    sets = re.findall(r"not (_V\d+)\.get\(SUIT\[.*?\], _V\d+\)\.isdisjoint\(s\[", src)
    assert sets
    jokers = fast.ns[sets[0]][None]  # (the two jokers: no suit)
    assert len(jokers) == 2 and all(fast.ns["JOKER"][c] for c in jokers)
    assert "isdisjoint" not in plain.gen.source
    play_both(fast, plain, seeds=tuple(range(10)))
    for game in ("arsene", "hearts", "oh-hell"):  # every trick game's "can follow suit"
        src = compile_game(game).gen.source
        assert ".isdisjoint(s[" in src and "in map(SUIT.__getitem__" not in src, game


def test_a_decision_of_several_moves_copies_their_effects_into_its_step(tmp_path: Path) -> None:
    """At a decision that offers several moves (Arsène's `keep | push`, Interaction's
    three plays), the step tests the move's id and runs that move's effect copied in,
    not a call through EFF; an optional choice's pass still goes through EFF. Both play
    as the plain code does (the optimiser game "opt1" has an optional choice of five)."""
    for game, node in (("arsene", 28), ("interaction", 9)):
        src = compile_game(game).gen.source
        step = src[src.index(f"def step_{node}("):]
        step = step[:step.index("\ndef ")]
        assert "EFF[" not in step and "    _mid = m[1]\n" in step, game
        assert len(re.findall(r"if _mid == \d+:|elif _mid == \d+:|\n\s+else:", step)) >= 2
    path = tmp_path / "opt1.cardgame"
    path.write_text(OPTIMISER_GAMES["opt1"], encoding="utf-8")
    fast = compile_game(path)
    plain = compile_game(path, optimize=False)
    optional = [f for f in re.findall(r"^def step_\d+\(.*?(?=^\S)", fast.gen.source, re.M | re.S)
                if "_mid = m[1]" in f and "EFF[_mid](s, m)" in f]
    assert optional and all(f.count("_mid == ") == 5 for f in optional)
    play_both(fast, plain, seeds=tuple(range(8)))


def test_a_random_pick_draws_as_randrange(monkeypatch: pytest.MonkeyPatch) -> None:
    """`_pick` draws its index as `random.Random.randrange` does, written out (one
    getrandbits loop, no two Python calls): on this Python the check allows it, and with
    or without it every pick gives the same value and leaves the same next seed."""
    assert runtime._INDEX_BELOW
    g = compile_game("arsene", 3)
    args = (g.checked, g.gen.spans, [z.slot for z in g.gen.zone_slots], g.zone_text,
            g.card_text)
    pick = runtime.namespace(*args)["_pick"]
    rng = random.Random(7)
    for trial in range(400):
        seq = tuple(range(rng.randint(1, 70)))
        seed = rng.getrandbits(63) if trial % 5 else rng.randint(-5, 5)
        a, b = [None, seed], [None, seed]
        got = pick(a, seq, 0)
        with monkeypatch.context() as m:
            m.setattr(runtime, "_INDEX_BELOW", False)
            want = pick(b, seq, 0)
        assert (got, a) == (want, b)


def test_a_def_argument_certainly_a_player_indexes_unchecked(tmp_path: Path) -> None:
    """A def inlined where a statement evaluates it, its argument certainly a player (a
    player variable the rules keep a player: `ahead(low)`, Arsène's `can_push(trick_winner)`;
    `left of leader`, computed once into a variable), indexes an array by its parameter
    unchecked (`s[k + w]`, no `_ix`). Plain code checks; both play alike."""
    path = tmp_path / "argmax.cardgame"
    path.write_text(ARGMAX, encoding="utf-8")
    fast = compile_game(path)
    plain = compile_game(path, optimize=False)
    tricks, lows = fast.gen.var_base["tricks"], fast.gen.var_base["lows"]
    low = fast.gen.var_base["low"]
    src = fast.gen.source
    assert "low" in fast.gen.player_vars
    # (an array's elements from its base + 1: `tricks[p]` is `s[base - 1 + p]`)
    assert f"(s[{tricks - 1} + s[{low}]] > s[{lows - 1} + s[{low}]])" in src
    assert re.search(rf"\(s\[{tricks - 1} \+ (_a\d+)\] > s\[{lows - 1} \+ \1\]\) "
                     rf"if \(\(\1 := \(s\[\d+\] % 3 \+ 1\)\)", src)
    assert "_ix(" not in src[src.index("def step_7"):src.index("STEP =")]
    assert "_ix(" in plain.gen.source
    play_both(fast, plain, seeds=tuple(range(12)))
    arsene = compile_game("arsene", 4)
    w = arsene.gen.var_base["trick_winner"]
    assert f"_ix(s[{w}]" not in arsene.gen.source and f"s[{w}]" in arsene.gen.source


def test_a_guarded_add_tests_the_value_it_computed() -> None:
    """`chips[p] += gain` not proven within 64 bits: optimised code computes the new value
    into a variable, stores it and guards that variable (`_v = s[t] + gain`, `s[t] = _v`,
    `if _v > 2**63: _big`), not the slot read back; plain code keeps `+=` and the slot.
    (tests/test_overflow.py plays both codes at the edges.)"""
    fast = compile_game("interaction", 4)
    plain = compile_game("interaction", 4, optimize=False)
    proc = fast.gen.source[fast.gen.source.index("def p_score_everyone"):]
    proc = proc[:proc.index("\ndef ")]
    adds = re.findall(r"(_v\d+) = s\[(\w+)\] \+ (_v\d+)\n\s+s\[\2\] = \1\n"
                      r"\s+if \1 > 9223372036854775808: _big\(\1, \d+\)", proc)
    assert len(adds) == 2  # chips[p] and earned
    assert "+=" not in proc
    assert re.search(r"s\[\w+\] \+= ", plain.gen.source)
    play_both(fast, plain, seeds=(1, 2))
