"""The walks' shadow world takes the walk's listing where the slots it reads agree
(codegen/reads.py `listing_reads`, engine/walk.py `Told.same_listing`; docs/fuzz.md, "The shadow's
listing, the walk's own (thirteenth session)")."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter.codegen.reads import listing_reads
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.engine.walk import _TOLD, Shadow, Walker, _quiet
from cardgame.interpreter.fuzz.fast import FastWalks
from cardgame.interpreter.fuzz.playthrough import Playthrough

LEAKS = Path(__file__).resolve().parent / "data" / "leaks"
CLEAN = str(LEAKS / "draw-size-clean.cardgame")
LEAK = str(LEAKS / "draw-top-leak.cardgame")


def _zone(g: Any, name: str) -> int:
    return next(k for k, v in Walker(g, 400, True).slot_names().items() if v == name)


def _decisions(g: Any) -> list[int]:
    """The decisions with a step of their own (those `listing_reads` is asked about)."""
    fw = FastWalks(Playthrough(g, 2000), 0)
    return sorted(next(iter(fw.walker.leak.values())).own_steps)


def test_the_listing_reads_a_stock_by_its_size_or_by_its_cards() -> None:
    # `stock is not empty`, `size(stock) > 4`: the size alone; `top of stock`: its cards
    g = compile_game(CLEAN, None, {})
    (d,) = _decisions(g)
    full, sized = listing_reads(g, d)  # type: ignore[misc]
    assert _zone(g, "stock") in sized and _zone(g, "stock") not in full
    assert _zone(g, "waste") in full
    g = compile_game(LEAK, None, {})
    full, sized = listing_reads(g, d)  # type: ignore[misc]
    assert _zone(g, "stock") in full
    # Pyramid: the stock by its size (`draw`), the places and the waste by their cards
    g = compile_game("pyramid", None, {})
    (d,) = _decisions(g)
    full, sized = listing_reads(g, d)  # type: ignore[misc]
    assert sized == {_zone(g, "stock")}
    places = {_zone(g, f"pyramid{r}-{c}") for r in range(1, 8) for c in range(1, r + 1)}
    assert {_zone(g, "waste"), *places} <= full and len(places) == 28


def test_a_listing_that_uses_the_state_otherwise_is_not_known() -> None:
    # Hearts' listing indexes the hands by the player who decides (`hand[me]`): not a
    # number the code names, so no shortcut there
    g = compile_game("hearts", None, {})
    assert all(listing_reads(g, d) is None for d in _decisions(g))


def _walks(path: str, n: int, shortcut: bool, monkeypatch: pytest.MonkeyPatch
           ) -> tuple[str, int, FastWalks]:
    """`n` walks (the same ones either way): their hash, and how many steps of the
    shadow took the walk's listing."""
    g = compile_game(path, None, {})
    fw = FastWalks(Playthrough(g, 2000), 0)
    for told in (fw.walker.leak or {}).values():
        # (the other rule that hands the shadow the walk's list, `Told.seat_lists`, off
        # either way: what is counted is this one's)
        told.seat_lists = frozenset()
        if not shortcut:
            told.same_listing = {}
    taken = [0]
    follow = Shadow.follow

    def counted(sh: Shadow, told: Any, before: Any, s: Any, m: Any, pc: int, legal: Any
                ) -> Any:
        why = follow(sh, told, before, s, m, pc, legal)
        taken[0] += sh.legal is legal
        return why

    monkeypatch.setattr(Shadow, "follow", counted)
    fw.rng = random.Random("listing")
    h = hashlib.sha1()
    for _ in range(n):
        w = fw.play_one(cpu=False)
        h.update(repr((w.seed, w.choices, w.found, w.message, w.shadows, w.final,
                       w.moves)).encode())
    monkeypatch.setattr(Shadow, "follow", follow)
    return h.hexdigest(), taken[0], fw


@pytest.mark.parametrize("path,n,most", [
    ("pyramid", 60, True), ("golf", 60, True), (CLEAN, 40, True), ("arsene", 8, False),
    ("oh-hell", 6, False), ("crazy-eights", 20, False),
    # (leaks found at decisions whose listing is taken where the worlds agree: listed
    # where they differ, before what differs is told)
    *((str(LEAKS / f"{n}.cardgame"), 40, False)
      for n in ("branch-node-leak", "branch-node-clean", "recycle-leak", "recycle-clean"))])
def test_the_shadow_takes_the_walks_listing_and_the_walks_are_the_same(
        path: str, n: int, most: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    with_it, taken, fw = _walks(path, n, True, monkeypatch)
    without, none, _ = _walks(path, n, False, monkeypatch)
    assert with_it == without  # (seed, choices, what was found, shadows drawn, last state)
    assert none == 0 and taken > 0
    if most:  # (most steps: the draws too, where the shadow's stock is mended)
        assert taken > fw.play.cov.fast_moves // 2
    # (Arsene: its secret choice pending, None or a tuple, read by its size: a test that
    # raised there dropped the shadow, and the walks differed)


def test_a_listing_that_reads_a_hidden_card_is_listed_and_its_leak_found() -> None:
    g = compile_game(LEAK, None, {})
    fw = FastWalks(Playthrough(g, 2000), 0)
    told = fw.walker.leak[1]
    assert told.same_listing == {}  # (it reads the stock's cards)
    for _ in range(50):
        w = fw.play_one()
        if w.found is not None:
            break
    assert (w.found, w.message) == ("leak", "p1's legal moves depend on cards p1 cannot see")
    cx = fw.confirm(w)
    assert cx is not None and cx.property == "leak"


@pytest.mark.parametrize("wrong", ["sizes", "quick"])
def test_the_leak_is_missed_where_the_listing_is_taken_wrongly(wrong: str) -> None:
    # what the guard is for: the shadow given the walk's listing where the slots it reads
    # differ (the stock's cards) tells the seat the walk's moves, and the leak goes unseen
    # (taken where the stock's sizes agree; or where `quick` holds, as `_TOLD` marks)
    g = compile_game(LEAK, None, {})
    fw = FastWalks(Playthrough(g, 2000), 0)
    told = fw.walker.leak[1]
    stock = _zone(g, "stock")
    told.same_listing = {d: _TOLD if wrong == "quick" else
                         (lambda s, t: len(s[stock]) == len(t[stock])) for d in _decisions(g)}
    told.plain = {k: _quiet(g) for k in told.own_steps}
    for _ in range(50):
        w = fw.play_one()
        assert w.found is None
    assert fw.play.cov.fast_leak == 50


def test_only_decisions_that_read_no_hidden_zone_by_its_cards_take_it() -> None:
    # Golf: the seat's listing reads its own grid and the discard pile; the stock by size
    g = compile_game("golf", None, {})
    fw = FastWalks(Playthrough(g, 2000), 0)
    for told in (fw.walker.leak or {}).values():
        assert told.same_listing
        for d in told.same_listing:
            full, _ = listing_reads(g, d)  # type: ignore[misc]
            assert full.isdisjoint(told.hidden)
