"""The fast walks' state check, tenth session (b): a sum of zone sizes in an invariant is
tested again only where the zones it leaves out changed (`state_reads(conserved=True)`):
the walk's test finds every card of the deck once in the zones before it evaluates an
invariant, so `size(a) + size(b) + ...` is the deck's size less the cards of the other
zones. Proven on Hearts (`cards` names every zone: never evaluated again after the deal)
and Arsene (`dealt` leaves out the stores and the cards out of the game): a card moved
into a zone the sum leaves out breaks it, and the walk's incremental test sees that as
the whole test does; a card lost is still the cards' failure.
"""

from __future__ import annotations

import random
from typing import Any

from cardgame.interpreter.codegen.reads import state_reads
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.engine.walk import Walker
from test_fuzz_incremental import named, states, where  # (the walks' states, by name)


def reads_of(name: str, conserved: bool) -> dict[str, Any]:
    g = compile_game(name)
    w = Walker(g, 400, True)
    inv, _ = state_reads(g, g.invariants, g._score, conserved=conserved)
    return dict(zip([n for n, _ in g.invariants], named(w, inv), strict=True))


def test_a_sum_of_the_sizes_of_every_zone_depends_on_no_slot_given_the_cards() -> None:
    plain, counted = reads_of("hearts", False), reads_of("hearts", True)
    zones = {f"{z}-p{p}" for z in ("hand", "taken") for p in range(1, 5)} | {"trick"}
    assert zones <= plain["cards"]  # (what it reads: every zone it names)
    assert counted["cards"] == set()
    # the other invariants keep their reads
    assert {k: v for k, v in counted.items() if k != "cards"} == \
        {k: v for k, v in plain.items() if k != "cards"}


def test_a_sum_of_zone_sizes_depends_on_the_zones_it_leaves_out() -> None:
    plain, counted = reads_of("arsene", False), reads_of("arsene", True)
    assert counted["dealt"] == {"stores", "out"}
    assert {"hand-p1", "trick", "widow", "dummy"} <= plain["dealt"]
    assert "out" not in plain["dealt"]
    assert counted["cards"] == set()
    # a sum that is not of sizes alone keeps its reads (`one_trump_card` is a sum of two
    # sizes: the zones it names are fewer than those it leaves out)
    assert counted["one_trump_card"] == plain["one_trump_card"] == {"trump_card", "shown"}


def moved(s: list[Any], src: int, dst: int) -> list[Any]:
    """`s` with the top card of zone slot `src` moved onto zone slot `dst`."""
    t = s.copy()
    t[dst] = t[dst] + t[src][-1:]
    t[src] = t[src][:-1]
    return t


def test_a_card_moved_into_a_zone_the_sum_leaves_out_is_seen_incrementally() -> None:
    g = compile_game("arsene")
    w = Walker(g, 400, True)
    check = w._checker(g.invariants, g._score)
    hand, out, trick = where(w, "hand-p1"), where(w, "out"), where(w, "trick")
    tried = 0
    for s, legal, _ in states(g, 3):
        if not s[hand] or check(s, legal) != 0:
            continue
        # into `out` (left out of `dealt`): 47 (36) cards no longer go round
        t = moved(s, hand, out)
        assert check(t, legal) == 2 == check(t, legal, s)
        assert w._what(t, legal, g.invariants, g._score)[0] == "invariant"
        assert "dealt" in w._what(t, legal, g.invariants, g._score)[1]
        # into another zone the sum names: `dealt` holds; both tests agree on the rest
        t = moved(s, hand, trick)
        assert check(t, legal, s) == check(t, legal)
        # a card lost: the cards' test, whatever the sums say
        t = s.copy()
        t[hand] = t[hand][:-1]
        assert check(t, legal) == 1 == check(t, legal, s)
        assert w._what(t, legal, g.invariants, g._score)[0] == "conservation"
        tried += 1
    assert tried > 20


def test_hearts_cards_is_not_evaluated_again_after_the_deal() -> None:
    # (a step that keeps every card once never calls it; the deal's whole test does)
    g = compile_game("hearts")
    w = Walker(g, 400, True)
    calls: list[int] = []
    own = dict(g.invariants)["cards"]

    def cards(s: list[Any], legal: Any) -> Any:
        calls.append(1)
        return own(s, legal)

    invariants = [(n, cards if n == "cards" else fn) for n, fn in g.invariants]
    check = w._checker(invariants, g._score,
                       state_reads(g, g.invariants, g._score, conserved=True))
    got = states(g, 2)
    steps = 0
    for s, legal, prev in got:
        calls.clear()
        assert check(s, legal, prev) == 0
        if prev is None:
            assert calls == [1]
        else:
            assert calls == []
            steps += 1
    assert steps > 50


def test_the_shadow_mends_a_card_shown_wherever_it_lay(monkeypatch: Any) -> None:
    # Hearts, p1's leak check: p2 plays x to the trick; a shadow world of the state before
    # has x and a card y of p3's swapped, and a card v of p4's and a card u of p3's
    # swapped. The step shows p1 x (from p2's hand, which it changed) and, as if it had, v
    # (from p4's hand, which it left alone) and a card of p1's own hand (that no shadow
    # places otherwise): `follow` mends both x and v into their places, and the shadow is
    # then the walk's own world (`alike`); with either left unmended it is not
    from cardgame.interpreter.engine.walk import Shadow
    from cardgame.interpreter.observe import hidden_zones

    g = compile_game("hearts")
    w = Walker(g, 400, True, (), None, {1: hidden_zones(g, 1)})
    h1, h2, h3, h4 = (where(w, f"hand-p{p}") for p in range(1, 5))
    follow = Shadow.follow
    seen: list[Any] = []

    def spy(self: Shadow, told: Any, before: list[Any], s: list[Any], m: Any, pc: int,
            legal: Any) -> Any:
        if not seen and m[0] == 2 and m[2] in before[h2] and len(before[h3]) >= 2 \
                and len(before[h4]) >= 2 and before[h1]:
            x = m[2]
            y, u = before[h3][0], before[h3][1]
            v = before[h4][0]
            t = before.copy()
            t[h2] = tuple(y if c == x else c for c in before[h2])
            t[h3] = tuple(x if c == y else v if c == u else c for c in before[h3])
            t[h4] = tuple(u if c == v else c for c in before[h4])
            sh = Shadow(t, told.settle(t), [x, y, u, v], [y, x, v, u])
            shown = told.shown
            told.shown = shown | {v, before[h1][0]}
            try:
                got = follow(sh, told, before, s, m, pc, legal)
            finally:
                told.shown = shown
            seen.append((shown == {x}, got, sh.alike,
                         [sh.t[z] for z in (h2, h3, h4)] == [before[z] for z in (h2, h3, h4)]))
        return follow(self, told, before, s, m, pc, legal)

    monkeypatch.setattr(Shadow, "follow", spy)
    rng = random.Random(5)
    for _ in range(20):
        w.walk(rng.getrandbits(32), rng, 1)
        if seen:
            break
    assert seen == [(True, None, True, True)]
