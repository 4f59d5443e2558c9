"""The fast walks' incremental state check (engine/walk.py, `Walker._checker` and
`state_reads`): a state's cards, invariants and scores are tested again only where the
step changed a slot they may read, and that gives the whole test's answer.

Proven against the whole test on states of every bundled game, each changed in one slot
(a value that slot holds elsewhere on the walk, or one that breaks it); every rule run on
those states reads no slot outside its reads; the reads of each rule are what it names
(by name: `Walker.slot_names`); and an invariant broken by a step that changes only a
variable it reads is seen.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from cardgame.interpreter.codegen.reads import state_reads
from cardgame.interpreter.engine import Game, compile_game
from cardgame.interpreter.engine.walk import Walker
from cardgame.interpreter.lang.loader import bundled_names

ATOMS = (int, str, bool, type(None))
States = list[tuple[list[Any], Any, "list[Any] | None"]]


def states(g: Game, walks: int = 6, seed: int = 3) -> States:
    """The states (slot lists, with their legal moves, and the state checked before
    them: None at a deal) some walks of `g` reach."""
    w = Walker(g, 400, True)
    out: States = []
    check = w._checker(g.invariants, g._score)

    def spy(invariants: Any, score: Any) -> Any:
        def keep(s: list[Any], legal: Any, prev: Any = None) -> int:
            out.append((s.copy(), legal, None if prev is None else prev.copy()))
            return check(s, legal, prev)
        return keep

    w._checker = spy  # type: ignore[method-assign]
    rng = random.Random(seed)
    for _ in range(walks):
        w.walk(rng.getrandbits(32), rng)
    return out


def named(w: Walker, reads: Any) -> Any:
    """Reads (a set of slots, or a list of them) by name."""
    names = w.slot_names()
    if isinstance(reads, list):
        return [named(w, r) for r in reads]
    return None if reads is None else {names[k] for k in reads}


def where(w: Walker, name: str) -> int:
    return next(k for k, v in w.slot_names().items() if v == name)


def immutable(v: Any) -> bool:
    return type(v) in ATOMS or (type(v) is tuple and all(immutable(x) for x in v))


@pytest.mark.parametrize("name", bundled_names())
def test_the_slots_the_checks_read_hold_immutable_values(name: str) -> None:
    # (what lets the incremental check compare a slot with the state before by identity)
    g = compile_game(name)
    read = Walker(g, 400, True).slot_names()
    for s, _, _ in states(g, 3):
        for k in read:
            assert immutable(s[k]), (name, read[k], s[k])


@pytest.mark.parametrize("name", bundled_names())
def test_the_incremental_check_answers_as_the_whole_check(name: str) -> None:
    # each state of a walk, from the one before it (as the walk checks); and that state
    # changed in one slot, to a value the slot holds in another state of the walks
    # (a card moved, a variable changed...) or to one that breaks it (a card lost, a
    # card twice, a number out of its range): where a rule reads a slot the analysis
    # missed, the two answers may differ
    g = compile_game(name)
    w = Walker(g, 400, True)
    check = w._checker(g.invariants, g._score)
    got = states(g)
    if len(got) < 200:  # (short games: Blackjack's walks are a move or two)
        got = states(g, 6 * 200 // len(got))
    rng = random.Random(11)
    slots = sorted(w.slot_names())
    values: dict[int, list[Any]] = {k: [] for k in slots}
    for s, _, _ in got:
        for k in slots:
            if s[k] not in values[k]:
                values[k].append(s[k])
    tried = broke = 0
    for s, legal, prev in got:
        whole = check(s, legal)
        if prev is None:  # (a deal: no state before)
            continue
        assert check(s, legal, prev) == whole
        if whole or rng.random() > 0.3:
            continue
        for k in rng.sample(slots, min(4, len(slots))):
            others = [v for v in values[k] if v is not s[k]]
            v = s[k]
            bad: list[Any] = others[:3]
            if type(v) is tuple:
                bad += [v[1:], v + v[:1], (*v, 10 ** 6)] if v else [(0,)]
            elif type(v) is int and type(v) is not bool:
                bad += [v + 1, -1 - v, 10 ** 9]
            else:
                bad += [None, 0, 1]
            for x in bad:
                t = s.copy()
                t[k] = x
                whole = check(t, legal)
                assert check(t, legal, s) == whole, (name, k, x, whole)
                tried += 1
                broke += whole != 0
    assert tried > 20 and broke > 0, (tried, broke)


class Reading(list):  # type: ignore[type-arg]
    """A slot list that notes the slots read."""

    def __init__(self, s: list[Any]) -> None:
        super().__init__(s)
        self.read: set[int] = set()

    def __getitem__(self, k: Any) -> Any:
        if isinstance(k, int):
            self.read.add(k)
        else:
            self.read.update(range(len(self))[k])
        return super().__getitem__(k)


@pytest.mark.parametrize("name", bundled_names())
def test_each_rule_reads_only_the_slots_its_reads_say(name: str) -> None:
    # every invariant and every player's score, run on the states walks reach, reads no
    # slot outside what `state_reads` says it may read (where it says)
    g = compile_game(name)
    inv, score = state_reads(g, g.invariants, g._score)
    known = 0
    for s, legal, _ in states(g, 4)[::3]:
        for (rule, fn), r in zip(g.invariants, inv, strict=True):
            if r is not None:
                t = Reading(s)
                try:
                    fn(t, legal)
                except Exception:
                    pass
                assert t.read <= r, (rule, sorted(t.read - r))
                known += 1
        for p, r in enumerate(score, 1):
            if r is not None:
                t = Reading(s)
                g._score(t, p)
                assert t.read <= r, ("score", p, sorted(t.read - r))
                known += 1
    assert known or not (g.invariants or g.checked.score)


def test_the_reads_of_each_rule_are_what_it_names() -> None:
    g = compile_game("hearts")
    w = Walker(g, 400, True)
    inv, score = state_reads(g, g.invariants, g._score)
    reads = dict(zip([n for n, _ in g.invariants], named(w, inv), strict=True))
    hands = {f"hand-p{p}" for p in range(1, 5)}
    taken = {f"taken-p{p}" for p in range(1, 5)}
    assert reads["even_hands"] == hands
    assert reads["taken_tricks"] == taken
    assert reads["broken"] == taken | {"trick", "hearts_broken"}
    # a player's score reads that player's points (`points[me]`)
    assert named(w, score) == [{f"points[{p}]"} for p in range(1, 5)]
    # a def's reads are its caller's, its parameter bound to the caller's value (Crazy
    # Eights' score is `0 - hand_points(me)`, `hand_points(p)` reads `hand[p]`)
    g = compile_game("crazy-eights")
    w = Walker(g, 400, True)
    inv, score = state_reads(g, g.invariants, g._score)
    assert named(w, score) == [{"hand-p1"}, {"hand-p2"}]
    # `moves_played` reads the move counter
    first = named(w, inv)[[n for n, _ in g.invariants].index("first_starter")]
    assert "moves_played" in first


def test_a_rule_whose_reads_are_not_known_is_always_evaluated() -> None:
    g = compile_game("hearts")
    other = [(name, lambda s, legal: True) for name, _ in g.invariants]
    inv, score = state_reads(g, other, lambda s, me: 0)
    assert inv == [None] * len(other) and score == [None] * 4


def test_an_invariant_broken_by_a_step_that_changes_only_its_variable_is_seen() -> None:
    # Hearts: `broken` says hearts are broken once a heart was taken; a step that sets
    # only `hearts_broken` back to false after that (no zone changes) breaks it
    g = compile_game("hearts")
    w = Walker(g, 400, True)
    check = w._checker(g.invariants, g._score)
    hb = where(w, "hearts_broken")
    for s, legal, _ in states(g, 4):
        if s[hb] and check(s, legal) == 0:
            break
    else:
        pytest.fail("no state with hearts broken")
    t = s.copy()
    t[hb] = False
    assert check(t, legal, s) == 2 == check(t, legal)
    assert w._what(t, legal, g.invariants, g._score) == ("invariant", "broken")
    # and nothing changed: nothing evaluated, all holds
    assert check(s.copy(), legal, s) == 0
    # a player's score is evaluated again when only a slot it reads changed (here a
    # score that fails on a points total that is not a number, checked with the reads
    # of the game's own score)
    own = g._score
    called: list[int] = []
    pts = where(w, "points[1]")

    def score(s: list[Any], me: int) -> Any:
        called.append(me)
        if type(s[pts + me - 1]) is not int:
            raise TypeError("not a number")
        return own(s, me)

    check = w._checker(g.invariants, score, state_reads(g, g.invariants, own))
    t = s.copy()
    t[where(w, "points[3]")] = "x"
    assert check(t, legal, s) == 3 == check(t, legal)
    called.clear()
    assert check(s.copy(), legal, s) == 0 and not called  # (nothing read changed)
    t = s.copy()
    t[pts] = s[pts] + 1
    assert check(t, legal, s) == 0 and called == [1]  # (only p1's own score)


def test_the_incremental_card_check_sees_a_card_lost_doubled_or_swapped_in() -> None:
    g = compile_game("hearts")
    w = Walker(g, 400, True)
    check = w._checker(g.invariants, g._score)
    s, legal, _ = states(g, 1)[5]
    assert check(s, legal) == 0
    h1, h2 = where(w, "hand-p1"), where(w, "hand-p2")
    assert s[h1] and s[h2]
    lost = s.copy()
    lost[h1] = s[h1][1:]
    twice = s.copy()
    twice[h1] = s[h1] + s[h2][:1]
    swapped = s.copy()  # one card for another in the same place: the count holds
    swapped[h1] = (*s[h1][:-1], s[h2][0])
    moved = s.copy()  # a card from one hand to another: all still there once
    moved[h1], moved[h2] = s[h1][1:], s[h2] + s[h1][:1]
    for t, want in ((lost, 1), (twice, 1), (swapped, 1), (moved, 0)):
        assert check(t, legal, s) == want
        assert (check(t, legal) == 1) == (want == 1)
    # a stock dealt from (the zones changed hold more than half the deck: the whole
    # set is tested): a card of it doubled in a hand is seen
    big = s.copy()
    deck = where(w, "deck")
    big[deck] = tuple(c for c in range(52) if c not in s[h1])[:40]
    assert check(big, legal, s) == 1 == check(big, legal)


GRID = """\
game "Grid"
players 1
deck standard
zone g[row in 1..2][col in 1..2] "grid": face up
zone stock "stock": face down, squared

setup {
  move all of deck to stock
}

move put "put a card on row 2, column 1"
  when stock is not empty
{
  move top of stock to g[2][1]
}

end done when stock is empty "done"
score = size(g[1][2])
invariant few "row 2, column 1 holds at most 2 cards": size(g[2][1]) <= 2
"""


def test_a_grid_place_named_by_numbers_reads_the_grid(tmp_path: Any) -> None:
    """`g[2][1]`: the first index of a grid is its row, not a place (the review's
    finding: read as place 2, the invariant was tested again only where g1-2 changed,
    and the walk missed it broken at move 3)."""
    path = tmp_path / "grid.cardgame"
    path.write_text(GRID)
    g = compile_game(str(path))
    w = Walker(g, 400, True)
    inv, scores = state_reads(g, g.invariants, g._score)
    assert named(w, inv) == [{"g1-1", "g1-2", "g2-1", "g2-2"}]
    assert named(w, scores) == [{"g1-1", "g1-2", "g2-1", "g2-2"}]
    walk = w.walk(5, random.Random(1))
    assert (walk.found, walk.message, walk.moves) == ("invariant", "few", 3)
