"""Calculation: every rule of /work/shared/rules/calculation.md, from built positions.

Unless a test says otherwise, the piles are as at the deal: the 1-pile [A] wants a 2,
the 2-pile [2] wants a 4, the 3-pile [3] wants a 6 and the 4-pile [4] wants an 8.
"""

from __future__ import annotations

import pytest
from cardgame.interpreter.engine import Game
from cardgame.interpreter.errors import IllegalMove
from cardgame.interpreter.observe import view
from conftest import (
    CALCULATION_SEQUENCES,
    calculation_piles_done,
    calculation_position,
    legal,
    rank_of,
    zones_of,
)

DISCARDS = ["discard 1", "discard 2", "discard 3", "discard 4"]
END_REASON = "the stock is empty and no waste top fits a foundation"


def ranks(g: Game, st, zone: str) -> list[int]:
    return [rank_of(c) for c in g.zone_cards(st, zone)]


def changed_zones(g: Game, before, after) -> dict[str, tuple[list[str], list[str]]]:
    a, b = zones_of(g, before), zones_of(g, after)
    return {z: (a[z], b[z]) for z in a if a[z] != b[z]}


# ---------------------------------------------------------------------- the deal
@pytest.mark.parametrize("seed", [0, 1, 7, 2024])
def test_deal_starts_the_piles_with_a_2_3_4_and_stocks_the_other_48(calculation, seed):
    g = calculation
    st = g.new_state(seed)
    assert [ranks(g, st, f"foundation{k}") for k in range(1, 5)] == [[1], [2], [3], [4]]
    assert len(g.zone_cards(st, "stock")) == 48
    for zone in ("turned", "waste1", "waste2", "waste3", "waste4", "deck"):
        assert g.zone_cards(st, zone) == []
    everything = [c for cs in zones_of(g, st).values() for c in cs]
    assert len(everything) == len(set(everything)) == 52
    assert g.legal_texts(st) == ["draw"]
    assert not g.is_terminal(st)
    assert g.scores(st) == [4]
    assert g.results(st) == [""]
    assert g.check_invariants(st) == []


def test_stock_is_face_down_and_the_rest_face_up(calculation):
    g = calculation
    st = g.apply_text(g.new_state(3), "draw")
    zones = view(g, st, 1)["zones"]
    assert zones["stock"] == {"hidden": 47}
    assert zones["turned"] == g.zone_cards(st, "turned") and len(zones["turned"]) == 1
    assert zones["foundation3"] == g.zone_cards(st, "foundation3")


def test_the_deal_is_shuffled_by_the_seed_and_repeats_for_the_same_seed(calculation):
    g = calculation
    assert g.new_state(5) == g.new_state(5)
    stocks = {tuple(g.zone_cards(g.new_state(seed), "stock")) for seed in range(6)}
    assert len(stocks) == 6


# ---------------------------------------------------------------------- the piles
@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_each_pile_builds_its_whole_sequence_by_k_modulo_13(calculation, k):
    g = calculation
    seq = CALCULATION_SEQUENCES[k]
    # the stock holds the rest of pile k's sequence, the next card to build on top
    st = calculation_position(g, stock=list(reversed(seq[1:])))
    for want in seq[1:]:
        st = g.apply_text(st, "draw")
        assert ranks(g, st, "turned") == [want]
        assert f"build {k}" in g.legal_texts(st)
        st = g.apply_text(st, f"build {k}")
    assert tuple(ranks(g, st, f"foundation{k}")) == seq
    assert ranks(g, st, f"foundation{k}")[-1] == 13
    assert g.check_invariants(st) == []


@pytest.mark.parametrize("rank", range(1, 14))
def test_only_a_2_goes_on_the_3_pile_after_its_12(calculation, rank):
    g = calculation
    st = calculation_position(g, turned=[rank], foundations={3: [3, 6, 9, 12]})
    builds = {2: ["build 1", "build 3"], 4: ["build 2"], 8: ["build 4"]}.get(rank, [])
    assert legal(g, st) == sorted(builds + DISCARDS)


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_a_finished_pile_takes_nothing(calculation, k):
    g = calculation
    others = {2: ["build 1"], 4: ["build 2"]}  # a 2 fits the 1-pile, a 4 the 2-pile
    for rank in range(1, 14):
        st = calculation_position(g, turned=[rank], foundations=calculation_piles_done(k))
        assert f"build {k}" not in g.legal_texts(st), rank
    # k * 14 mod 13 == k: the rank the pile would want next if it were not finished
    st = calculation_position(g, turned=[k], foundations=calculation_piles_done(k))
    assert legal(g, st) == sorted(others.get(k, []) + DISCARDS)


def test_build_puts_the_turned_card_on_the_pile(calculation):
    g = calculation
    st = calculation_position(g, turned=["2h"], foundations={3: [3, 6, 9, 12]})
    after = g.apply_text(st, "build 3")
    assert changed_zones(g, st, after) == {
        "turned": (["2♥"], []),
        "foundation3": (g.zone_cards(st, "foundation3"), g.zone_cards(st, "foundation3") + ["2♥"]),
    }
    assert g.scores(after) == [8]


def test_a_fitting_card_may_still_go_to_a_waste_pile(calculation):
    g = calculation
    st = calculation_position(g, turned=["2c"], waste={2: [9]})
    assert legal(g, st) == sorted(["build 1"] + DISCARDS)
    after = g.apply_text(st, "discard 2")
    assert g.zone_cards(after, "waste2")[-1] == "2♣"
    assert len(g.zone_cards(after, "waste2")) == 2
    assert changed_zones(g, st, after).keys() == {"turned", "waste2"}


# ---------------------------------------------------------------------- drawing
def test_draw_turns_the_top_card_of_the_stock(calculation):
    g = calculation
    st = calculation_position(g, stock=["5h", "7c"])
    assert g.legal_texts(st) == ["draw"]
    after = g.apply_text(st, "draw")
    assert g.zone_cards(after, "turned") == ["7♣"]
    assert g.zone_cards(after, "stock") == g.zone_cards(st, "stock")[:-1]
    assert g.zone_cards(after, "stock")[-1] == "5♥"
    assert legal(g, after) == DISCARDS  # a 7 fits no pile now


def test_the_turned_card_must_be_placed_before_the_next_draw_or_lift(calculation):
    g = calculation
    # the 2 on waste pile 2 fits the 1-pile, but the turned 7 comes first
    st = calculation_position(g, turned=[7], waste={2: [2]})
    assert legal(g, st) == DISCARDS
    for text in ("draw", "lift 2 1"):
        with pytest.raises(IllegalMove):
            g.apply_text(st, text)
    draw = next(m for m in g.legal_moves(g.new_state(0)) if g.move_text(m) == "draw")
    with pytest.raises(IllegalMove):
        g.apply(st, draw)
    after = g.apply_text(st, "discard 3")
    assert legal(g, after) == ["draw", "lift 2 1"]


# ---------------------------------------------------------------------- waste piles
def test_waste_tops_go_only_to_piles_where_they_fit(calculation):
    g = calculation
    # tops: 9 (a 2 under it), 4 (fits the 2-pile), 8 (fits the 4-pile); waste 4 empty
    st = calculation_position(g, stock=[10], waste={1: [2, 9], 2: [4], 3: [8]})
    assert legal(g, st) == ["draw", "lift 2 2", "lift 3 4"]
    after = g.apply_text(st, "lift 2 2")
    four = g.zone_cards(st, "waste2")[-1]
    assert changed_zones(g, st, after) == {
        "waste2": ([four], []),
        "foundation2": (g.zone_cards(st, "foundation2"), g.zone_cards(st, "foundation2") + [four]),
    }
    assert legal(g, after) == ["draw", "lift 3 4"]


def test_there_is_no_move_from_one_waste_pile_to_another(calculation):
    g = calculation
    st = calculation_position(g, stock=[10], waste={1: [9], 2: [7], 3: [5], 4: [11]})
    assert legal(g, st) == ["draw"]
    for text in ("lift 1 2", "shift waste1 waste2", "discard 2"):
        with pytest.raises(IllegalMove):
            g.apply_text(st, text)
    names = {g.move_names[m[1]] for m in g.legal_moves(st)}
    assert names <= {"draw", "build", "discard", "lift"}


def test_a_waste_top_that_fits_two_piles_may_go_to_either(calculation):
    g = calculation
    st = calculation_position(g, stock=[10], waste={1: [2]}, foundations={3: [3, 6, 9, 12]})
    assert legal(g, st) == ["draw", "lift 1 1", "lift 1 3"]
    assert ranks(g, g.apply_text(st, "lift 1 3"), "foundation3") == [3, 6, 9, 12, 2]
    assert ranks(g, g.apply_text(st, "lift 1 1"), "foundation1") == [1, 2]


def test_lifting_is_allowed_as_often_as_wanted(calculation):
    g = calculation
    st = calculation_position(g, stock=[10], waste={1: [8, 6, 4, 3, 2]})
    for text in ("lift 1 1", "lift 1 1", "lift 1 2", "lift 1 3", "lift 1 4"):
        assert text in g.legal_texts(st)
        top = g.zone_cards(st, "waste1")[-1]
        st = g.apply_text(st, text)
        assert g.zone_cards(st, f"foundation{text[-1]}")[-1] == top
        assert g.zone_cards(st, "turned") == []
    assert [ranks(g, st, f"foundation{k}") for k in range(1, 5)] == [[1, 2, 3], [2, 4], [3, 6], [4, 8]]
    assert g.zone_cards(st, "waste1") == []


# ---------------------------------------------------------------------- the end
def test_the_game_ends_when_the_stock_is_empty_and_no_waste_top_fits(calculation):
    g = calculation
    st = calculation_position(g, waste={1: [9], 2: [7], 3: [10], 4: [11]}, rest="waste3")
    assert g.zone_cards(st, "stock") == []
    assert g.legal_texts(st) == []
    assert g.is_terminal(st)
    assert g.end_reason(st) == END_REASON
    assert g.results(st) == ["loss"]
    assert g.scores(st) == [4]


def test_the_game_ends_after_the_last_lift_that_fits(calculation):
    g = calculation
    st = calculation_position(g, waste={1: [4], 4: [9]}, rest="waste4")
    assert g.legal_texts(st) == ["lift 1 2"]  # no draw: the stock is empty
    assert not g.is_terminal(st)
    after = g.apply_text(st, "lift 1 2")
    assert g.legal_texts(after) == []
    assert g.is_terminal(after)
    assert g.end_reason(after) == END_REASON
    assert g.results(after) == ["loss"]
    assert g.scores(after) == [5]


def test_the_game_goes_on_while_a_card_is_turned_with_an_empty_stock(calculation):
    g = calculation
    st = calculation_position(g, turned=[7], waste={4: [9]}, rest="waste4")
    assert not g.is_terminal(st)
    assert legal(g, st) == DISCARDS
    after = g.apply_text(st, "discard 1")
    assert g.is_terminal(after)
    assert g.results(after) == ["loss"]


def test_the_game_goes_on_while_the_stock_has_cards(calculation):
    g = calculation
    st = calculation_position(g, stock=[9], waste={1: [7], 2: [11]})
    assert g.legal_texts(st) == ["draw"]
    assert not g.is_terminal(st)
    assert g.results(st) == [""]


def test_winning_puts_all_52_cards_on_the_piles(calculation):
    g = calculation
    done = calculation_piles_done(1, 2, 3)
    done[4] = CALCULATION_SEQUENCES[4][:-1]  # the 4-pile waits for its K
    st = calculation_position(g, turned=[13], foundations=done)
    assert legal(g, st) == sorted(["build 4"] + DISCARDS)
    won = g.apply_text(st, "build 4")
    assert g.legal_texts(won) == []
    assert g.is_terminal(won)
    assert g.end_reason(won) == END_REASON
    assert g.scores(won) == [52]
    assert g.results(won) == ["win"]


def test_a_discarded_last_card_can_still_be_lifted_to_win(calculation):
    g = calculation
    done = calculation_piles_done(1, 2, 3)
    done[4] = CALCULATION_SEQUENCES[4][:-1]
    st = g.apply_text(calculation_position(g, turned=[13], foundations=done), "discard 2")
    assert not g.is_terminal(st)
    assert g.legal_texts(st) == ["lift 2 4"]
    won = g.apply_text(st, "lift 2 4")
    assert g.is_terminal(won)
    assert g.results(won) == ["win"]
    assert g.scores(won) == [52]


def test_score_is_the_number_of_cards_on_the_piles(calculation):
    g = calculation
    st = calculation_position(g, waste={1: [5, 6]}, foundations={1: [1, 2, 3]})
    assert g.scores(st) == [6]
    assert g.scores(g.apply_text(st, "lift 1 3")) == [7]


# ---------------------------------------------------------------------- move texts and errors
def test_move_texts_parse_back_to_the_same_moves(calculation):
    g = calculation
    st = calculation_position(g, stock=[10], waste={1: [2], 2: [4]}, foundations={3: [3, 6, 9, 12]})
    texts = g.legal_texts(st)
    assert texts == ["draw", "lift 1 1", "lift 1 3", "lift 2 2"]  # a deterministic order
    for m in g.legal_moves(st):
        assert g.parse_move(st, g.move_text(m)) == m
        assert g.apply(st, m) == g.apply_text(st, g.move_text(m))


@pytest.mark.parametrize("text", ["build 5", "lift 1", "lift 5 1", "draw 2", "discard", "jump"])
def test_malformed_move_texts_are_rejected(calculation, text):
    g = calculation
    st = calculation_position(g, turned=[2])
    with pytest.raises(IllegalMove) as e:
        g.apply_text(st, text)
    assert str(e.value) and "\n" not in str(e.value)


def test_an_illegal_move_is_rejected_with_a_one_line_reason(calculation):
    g = calculation
    st = calculation_position(g, turned=[7])
    build = g.parse_move(calculation_position(g, turned=[2]), "build 1")
    with pytest.raises(IllegalMove) as e:
        g.apply(st, build)  # a 7 does not fit the 1-pile
    assert "build 1" in str(e.value) and "\n" not in str(e.value)
    for bad in [(build[0], build[1], 5), (build[0], build[1], 0), (2,) + build[1:],
                (build[0], 99), ()]:
        with pytest.raises(IllegalMove):
            g.apply(st, bad)


def test_apply_leaves_the_old_state_unchanged(calculation):
    g = calculation
    st = calculation_position(g, turned=[2])
    copy = g.from_json(g.to_json(st))
    g.apply_text(st, "build 1")
    assert st == copy and hash(st) == hash(copy)
    assert legal(g, st) == sorted(["build 1"] + DISCARDS)
