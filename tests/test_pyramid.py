"""Pyramid (games/pyramid.cardgame, docs/games/pyramid.md): each rule from built positions.

The pyramid is a grid zone, `pyramid[row][col]`, whose places are named `pyramid7-1`
(row 7, column 1) in positions and views.
"""

from __future__ import annotations

import pytest
from cardgame.interpreter.engine import Game, compile_game
from cardgame.interpreter.errors import IllegalMove
from cardgame.interpreter.observe import view
from conftest import ALL_CARDS, build_position, legal, norm, random_walk, rank_of

PLACES = [(r, c) for r in range(1, 8) for c in range(1, r + 1)]


@pytest.fixture(scope="module")
def pyramid() -> Game:
    return compile_game("pyramid")


def place(r: int, c: int) -> str:
    return f"pyramid{r}-{c}"


def position(g: Game, cells: dict[tuple[int, int], str | None], stock: list[str],
             waste: list[str] = ()):  # type: ignore[assignment]
    """The pyramid with `cells` (None: an empty place), the rest of the 28 places filled
    with cards not named elsewhere, then the stock and waste; every other card removed.
    The removed cards' ranks sum to a multiple of 13, as pairs and kings do: the last
    place filled is given the card that makes it so."""
    named = {norm(c) for c in cells.values() if c} | {norm(c) for c in [*stock, *waste]}
    spare = [c for c in ALL_CARDS if c not in named]
    zones: dict[str, list[str]] = {}
    unnamed = [p for p in PLACES if p not in cells]
    for r, c in PLACES:
        if (r, c) in cells:
            zones[place(r, c)] = [cells[(r, c)]] if cells[(r, c)] else []
        elif (r, c) != unnamed[-1]:
            zones[place(r, c)] = [spare.pop(0)]
    if unnamed:
        total = sum(rank_of(c) for c in spare)
        last = next(c for c in spare if (total - rank_of(c)) % 13 == 0)
        spare.remove(last)
        zones[place(*unnamed[-1])] = [last]
    zones["stock"] = list(stock)
    zones["waste"] = list(waste)
    zones["removed"] = spare
    return build_position(g, zones)


# ---------------------------------------------------------------------- the deal
@pytest.mark.parametrize("seed", [0, 1, 7, 2024])
def test_deal_is_a_pyramid_of_28_and_a_stock_of_24(pyramid, seed):
    g = pyramid
    st = g.new_state(seed)
    for r, c in PLACES:
        assert len(g.zone_cards(st, place(r, c))) == 1
    assert len(g.zone_cards(st, "stock")) == 24
    assert g.zone_cards(st, "waste") == [] and g.zone_cards(st, "removed") == []
    everything = [c for z in g.zone_names() for c in g.zone_cards(st, z)]
    assert len(everything) == len(set(everything)) == 52
    # only the bottom row is free: the moves name its cards (and the draw)
    bottom = {g.zone_cards(st, place(7, c))[0] for c in range(1, 8)}
    for m in g.legal_texts(st):
        assert m == "draw" or set(m.split()[1:]) <= bottom
    assert "draw" in g.legal_texts(st)
    assert g.scores(st) == [0]
    assert g.check_invariants(st) == []


def test_the_deals_differ_by_seed(pyramid):
    g = pyramid
    tops = {g.zone_cards(g.new_state(s), place(1, 1))[0] for s in range(12)}
    assert len(tops) > 3


def test_everything_is_seen_but_the_stock(pyramid):
    g = pyramid
    st = g.new_state(5)
    zones = view(g, st, 1)["zones"]
    assert zones["stock"] == {"hidden": 24}
    assert zones[place(4, 2)] == g.zone_cards(st, place(4, 2))


# ---------------------------------------------------------------------- pairs and kings
def test_two_free_cards_summing_to_13_are_removed(pyramid):
    g = pyramid
    st = position(g, {(7, 1): "6h", (7, 7): "7c"}, stock=["2s"])
    assert "pair 6♥ 7♣" in legal(g, st)
    st = g.apply_text(st, "pair 6♥ 7♣")
    assert g.zone_cards(st, place(7, 1)) == [] and g.zone_cards(st, place(7, 7)) == []
    assert g.scores(st) == [2]


@pytest.mark.parametrize(("a", "b"), [("As", "Qh"), ("2s", "Jh"), ("3s", "10h"), ("4s", "9h"),
                                      ("5s", "8h"), ("6s", "7h")])
def test_every_pair_summing_to_13(pyramid, a, b):
    g = pyramid
    st = position(g, {(7, 2): a, (7, 5): b}, stock=[])
    pairs = [m for m in legal(g, st) if m.startswith("pair")]
    assert len([m for m in pairs if {norm(x) for x in m.split()[1:]} == {a, b}]) == 1


def test_a_pair_not_summing_to_13_is_refused_with_the_sum(pyramid):
    g = pyramid
    st = position(g, {(7, 1): "6h", (7, 2): "8c"}, stock=["Kd"])
    with pytest.raises(IllegalMove, match="sum to 14, not 13"):
        g.apply_text(st, "pair 6♥ 8♣")


def test_each_pair_is_offered_once_low_card_first(pyramid):
    g = pyramid
    st = position(g, {(7, 1): "6h", (7, 2): "7c"}, stock=[])
    assert [m for m in legal(g, st) if "6♥" in m] == ["pair 6♥ 7♣"]
    with pytest.raises(IllegalMove):
        g.apply_text(st, "pair 7♣ 6♥")


def test_a_king_is_removed_alone_from_the_pyramid_or_the_waste(pyramid):
    g = pyramid
    st = position(g, {(7, 3): "Kh"}, stock=[], waste=["2c", "Ks"])
    assert {"king K♥", "king K♠"} <= set(legal(g, st))
    st = g.apply_text(g.apply_text(st, "king K♠"), "king K♥")
    assert g.zone_cards(st, "waste") == ["2♣"]
    assert {"K♠", "K♥"} <= set(g.zone_cards(st, "removed"))


def test_a_covered_card_is_not_free_until_both_coverers_are_gone(pyramid):
    g = pyramid
    st = position(g, {(6, 3): "5s", (7, 3): "Kh", (7, 4): "Kc", (7, 1): "8d"}, stock=[])
    assert "pair 5♠ 8♦" not in legal(g, st)
    st = g.apply_text(st, "king K♥")
    assert "pair 5♠ 8♦" not in legal(g, st)
    st = g.apply_text(st, "king K♣")
    assert "pair 5♠ 8♦" in legal(g, st)


def test_a_card_never_pairs_with_the_card_covering_it(pyramid):
    """Interpretation 2: both cards of a pair must be free before the move."""
    g = pyramid
    st = position(g, {(6, 1): "4s", (7, 1): "9h", (7, 2): None}, stock=[])
    assert "pair 4♠ 9♥" not in legal(g, st)


def test_the_top_row_is_freed_last(pyramid):
    """With rows 2..7 empty but for one card, the apex is free only when it is gone."""
    g = pyramid
    cells: dict[tuple[int, int], str | None] = {p: None for p in PLACES}
    cells[(1, 1)] = "6h"
    cells[(2, 2)] = "7d"
    st = position(g, cells, stock=[])
    assert legal(g, st) == []  # 7♦ covers 6♥: no pair, and the game is over
    assert g.is_terminal(st)


# ---------------------------------------------------------------------- stock and waste
def test_draw_turns_one_card_and_the_waste_top_pairs(pyramid):
    g = pyramid
    st = position(g, {(7, 4): "4c"}, stock=["3d", "9h"])
    st = g.apply_text(st, "draw")
    assert g.zone_cards(st, "waste") == ["9♥"] and g.zone_cards(st, "stock") == ["3♦"]
    assert "pair 4♣ 9♥" in legal(g, st)
    st = g.apply_text(st, "draw")
    assert "pair 4♣ 9♥" not in legal(g, st)  # 9♥ is under 3♦ now


def test_no_redeal(pyramid):
    g = pyramid
    st = position(g, {(7, 1): "6h", (7, 2): "7c"}, stock=[], waste=["2c"])
    assert "draw" not in legal(g, st)
    with pytest.raises(IllegalMove, match="no redeal"):
        g.apply_text(st, "draw")


# ---------------------------------------------------------------------- the end
def test_won_when_the_pyramid_is_cleared_with_stock_left(pyramid):
    g = pyramid
    cells: dict[tuple[int, int], str | None] = {p: None for p in PLACES}
    cells[(1, 1)] = "Kc"
    st = position(g, cells, stock=["2h", "Jh"])
    assert not g.is_terminal(st)
    st = g.apply_text(st, "king K♣")
    assert g.is_terminal(st)
    assert g.results(st) == ["win"]
    assert g.scores(st) == [28]
    assert g.end_reason(st) == "the pyramid is cleared"


def test_lost_when_stuck(pyramid):
    g = pyramid
    bottom = {(7, c): card for c, card in enumerate(["2s", "2h", "3s", "3h", "4s", "4h", "5s"], 1)}
    st = position(g, bottom, stock=["7h"])
    st = g.apply_text(st, "draw")
    assert g.is_terminal(st)
    assert g.results(st) == ["loss"]
    assert "no pair or king is free" in g.end_reason(st)


def test_random_games_end_and_keep_the_invariants(pyramid):
    g = pyramid
    import random
    rng = random.Random(3)
    for seed in range(20):
        st = random_walk(g, seed, rng, 200)
        assert g.is_terminal(st)
        removed = g.zone_cards(st, "removed")
        assert sum(rank_of(c) for c in removed) % 13 == 0


# ---------------------------------------------------------------------- fuzz
def test_fuzz_finds_no_rule_hole_and_witnesses_every_expectation(tmp_path, monkeypatch):
    import io
    from contextlib import redirect_stdout

    from cardgame.interpreter.cli import main
    monkeypatch.chdir(tmp_path)
    buf = io.StringIO()
    with redirect_stdout(buf):
        code = main(["fuzz", "pyramid", "--examples", "60", "--seed", "1", "--reach-seconds", "20"])
    out = buf.getvalue()
    assert code == 0, out
    assert "no rule hole found" in out and "60 games" in out
    assert "error" not in out
    assert out.count(": ok: '") == 3, out  # every `expect sometimes` witnessed
