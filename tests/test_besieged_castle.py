"""Besieged Castle and its variants Spice 1 and Spice 2: every rule of
/work/shared/rules/besieged-castle.md, from built positions (all 52 cards placed)."""

from __future__ import annotations

import pytest
from cardgame.interpreter.engine import Game, compile_game
from cardgame.interpreter.errors import IllegalMove
from cardgame.interpreter.observe import view
from conftest import (
    ALL_CARDS,
    CASTLE,
    CASTLES,
    RANKS,
    SPICE1,
    SPICE2,
    SUIT_LETTERS,
    SUIT_NAMES,
    castle_position,
    legal,
    norm,
    rank_of,
    zones_of,
)

STUCK = "no legal move is left"
CIRCLES = "the game went round in circles"
FOUNDATIONS = [f"foundation-{SUIT_NAMES[s]}" for s in SUIT_LETTERS]
COLUMNS = [f"column{i}" for i in range(1, 9)]


def game(name: str) -> Game:
    return compile_game(name)


def shifts_to_empty(sources: list[int], empties: list[int]) -> list[str]:
    return [f"shift column{a} column{b}" for a in sources for b in empties]


def changed_zones(g: Game, before, after) -> dict[str, tuple[list[str], list[str]]]:
    a, b = zones_of(g, before), zones_of(g, after)
    return {z: (a[z], b[z]) for z in a if a[z] != b[z]}


# ---------------------------------------------------------------------- the deals
@pytest.mark.parametrize("seed", [0, 1, 2, 99])
def test_basic_deal_sets_the_aces_out_and_deals_8_columns_of_6(castle, seed):
    g = castle
    st = g.new_state(seed)
    for letter, zone in zip(SUIT_LETTERS, FOUNDATIONS, strict=True):
        assert [norm(c) for c in g.zone_cards(st, zone)] == [f"A{letter}"]
    columns = [g.zone_cards(st, z) for z in COLUMNS]
    assert [len(c) for c in columns] == [6] * 8
    assert all(rank_of(c) != 1 for col in columns for c in col)
    everything = [norm(c) for cs in zones_of(g, st).values() for c in cs]
    assert sorted(everything) == sorted(ALL_CARDS)
    assert g.scores(st) == [4]
    assert g.check_invariants(st) == []


@pytest.mark.parametrize("name", [SPICE1, SPICE2])
@pytest.mark.parametrize("seed", [0, 1, 2, 99])
def test_spice_deal_puts_all_52_cards_in_columns_the_first_four_of_7(name, seed):
    g = game(name)
    st = g.new_state(seed)
    assert [g.zone_cards(st, z) for z in FOUNDATIONS] == [[], [], [], []]
    columns = [g.zone_cards(st, z) for z in COLUMNS]
    assert [len(c) for c in columns] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert sorted(norm(c) for col in columns for c in col) == sorted(ALL_CARDS)
    assert g.zone_cards(st, "deck") == []
    assert g.scores(st) == [0]
    assert g.check_invariants(st) == []


def test_spice_2_deals_like_spice_1(spice1, spice2):
    for seed in range(5):
        assert zones_of(spice1, spice1.new_state(seed)) == zones_of(spice2, spice2.new_state(seed))


@pytest.mark.parametrize("name", CASTLES)
def test_every_card_is_face_up(name):
    g = game(name)
    st = g.new_state(4)
    zones = view(g, st, 1)["zones"]
    for z in FOUNDATIONS + COLUMNS:
        assert zones[z] == g.zone_cards(st, z)


@pytest.mark.parametrize("name", CASTLES)
def test_the_deal_depends_on_the_seed_only(name):
    g = game(name)
    assert g.new_state(11) == g.new_state(11)
    assert len({tuple(g.zone_cards(g.new_state(s), "column1")) for s in range(6)}) == 6


# ---------------------------------------------------------------------- building in columns
# Foundations at 9 in every suit; the 16 cards 10..K in the columns. Tops: J♠ Q♣ 10♥ Q♥
# J♣ 10♠ 10♦ 10♣; a J♥ lies under the 10♠ of column 6.
TENS_UP = ["Kh Js", "Kd Qc", "Ks 10h", "Kc Qh", "Qd Jc", "Qs Jh 10s", "Jd 10d", "10c"]
TENS_UP_MOVES = sorted([
    "shift column1 column2", "shift column1 column4",  # J♠ onto either Q
    "shift column3 column1", "shift column3 column5",  # 10♥ onto either J
    "shift column5 column2", "shift column5 column4",  # J♣ onto either Q
    "shift column6 column1", "shift column6 column5",  # 10♠ (same suit too)
    "shift column7 column1", "shift column7 column5",
    "shift column8 column1", "shift column8 column5",
    "home column3", "home column6", "home column7", "home column8",  # the four 10s
])


@pytest.mark.parametrize("name", CASTLES)
def test_a_top_card_goes_onto_a_top_exactly_one_rank_higher_of_any_suit(name):
    g = game(name)
    st = castle_position(g, TENS_UP, {s: 9 for s in SUIT_LETTERS})
    assert legal(g, st) == TENS_UP_MOVES


@pytest.mark.parametrize("name", CASTLES)
def test_only_the_top_card_of_a_column_moves(name):
    g = game(name)
    st = castle_position(g, TENS_UP, {s: 9 for s in SUIT_LETTERS})
    # the J♥ under column 6's 10♠ would fit on a Q, but it is not a top
    for text in ("shift column6 column2", "shift column6 column4", "home column1"):
        with pytest.raises(IllegalMove):
            g.apply_text(st, text)


def test_shift_moves_one_card_from_top_to_top(castle):
    g = castle
    st = castle_position(g, TENS_UP, {s: 9 for s in SUIT_LETTERS})
    after = g.apply_text(st, "shift column3 column1")
    assert changed_zones(g, st, after) == {
        "column1": (["K♥", "J♠"], ["K♥", "J♠", "10♥"]),
        "column3": (["K♠", "10♥"], ["K♠"]),
    }
    # the 10♥ now covers the J♠, which can no longer move; the K♠ is a top
    assert "shift column1 column2" not in g.legal_texts(after)
    assert "shift column3 column1" not in g.legal_texts(after)
    assert g.scores(after) == [36]


def test_home_moves_the_top_to_its_own_suits_foundation(castle):
    g = castle
    st = castle_position(g, TENS_UP, {s: 9 for s in SUIT_LETTERS})
    after = g.apply_text(st, "home column6")
    assert changed_zones(g, st, after) == {
        "column6": (["Q♠", "J♥", "10♠"], ["Q♠", "J♥"]),
        "foundation-spades": (g.zone_cards(st, "foundation-spades"),
                              g.zone_cards(st, "foundation-spades") + ["10♠"]),
    }
    assert g.scores(after) == [37]


# Foundations: spades, hearts, diamonds to Q, clubs to J. Columns: K♠ | Q♣ | K♥ | K♦ | K♣
# and three empty columns.
KINGS = ["Ks", "Qc", "Kh", "Kd", "Kc"]
KINGS_FOUNDATIONS = {"s": 12, "h": 12, "d": 12, "c": 11}
KINGS_MOVES = sorted(
    shifts_to_empty([1, 2, 3, 4, 5], [6, 7, 8])  # any top onto an empty column
    + ["shift column2 column1", "shift column2 column3", "shift column2 column4",
       "shift column2 column5"]  # the Q♣ onto any K; no K goes onto a card
    + ["home column1", "home column2", "home column3", "home column4"])  # not the K♣


@pytest.mark.parametrize("name", CASTLES)
def test_any_top_goes_onto_an_empty_column_and_a_king_onto_no_card(name):
    g = game(name)
    st = castle_position(g, KINGS, KINGS_FOUNDATIONS)
    assert legal(g, st) == KINGS_MOVES
    after = g.apply_text(st, "shift column1 column7")
    assert g.zone_cards(after, "column7") == ["K♠"]
    assert g.zone_cards(after, "column1") == []
    assert "shift column3 column1" in g.legal_texts(after)  # column 1 is empty now


# Foundations: spades empty, hearts to Q, diamonds and clubs complete. Tops: A♠ 3♠ 5♠ 7♠
# 9♠ J♠ K♠ K♥, no two of them one rank apart (unless K and A count as neighbours).
ACE_TOPS = ["2s As", "4s 3s", "6s 5s", "8s 7s", "10s 9s", "Qs Js", "Ks", "Kh"]
ACE_TOPS_FOUNDATIONS = {"h": 12, "d": 13, "c": 13}


@pytest.mark.parametrize("name", [CASTLE, SPICE1])
def test_an_empty_foundation_starts_only_with_its_ace_and_no_king_goes_onto_an_ace(name):
    # (in the basic game an empty foundation and an Ace in a column come only from a built
    # position: its rules are the same as Spice 1's here)
    g = game(name)
    st = castle_position(g, ACE_TOPS, ACE_TOPS_FOUNDATIONS)
    # neither the K♠ nor the K♥ goes onto the A♠: only the wrapping Spice 2 allows that
    assert legal(g, st) == ["home column1", "home column8"]
    after = g.apply_text(st, "home column1")
    assert g.zone_cards(after, "foundation-spades") == ["A♠"]
    # now the 2♠ is a top: it follows the A♠ home, or goes onto the 3♠
    assert legal(g, after) == ["home column1", "home column8", "shift column1 column2"]


def test_spice_2_puts_a_king_onto_an_ace_and_starts_a_foundation_with_any_rank(spice2):
    g = spice2
    st = castle_position(g, ACE_TOPS, ACE_TOPS_FOUNDATIONS)
    assert legal(g, st) == sorted(
        ["shift column7 column1", "shift column8 column1"]  # K♠ and K♥ onto the A♠
        + [f"home column{i}" for i in range(1, 9)])  # any spade starts the spade foundation
    after = g.apply_text(st, "shift column8 column1")
    assert g.zone_cards(after, "column1") == ["2♠", "A♠", "K♥"]


# ---------------------------------------------------------------------- foundations
@pytest.mark.parametrize("name", CASTLES)
def test_a_foundation_takes_only_the_next_rank_of_its_own_suit(name):
    g = game(name)
    # spades at 5 want the 6♠: of the tops 6♥ (its suit's foundation wants a 5), 7♠, 6♠,
    # K♥, Q♥, J♥, 10♥ and 7♥ only the 6♠ goes home. The 5♥ lies under the 6♥.
    columns = ["Kc 5h 6h", "Ks 7s", "Qs 6s", "Js Kh", "10s Qh", "9s Jh", "8s 10h", "Kd 9h 8h 7h"]
    foundations = {"s": 5, "h": 4, "d": 12, "c": 12}
    st = castle_position(g, columns, foundations)
    homes = [t for t in g.legal_texts(st) if t.startswith("home")]
    assert homes == ["home column3"]
    after = g.apply_text(st, "home column3")
    assert [norm(c) for c in g.zone_cards(after, "foundation-spades")] == [
        "As", "2s", "3s", "4s", "5s", "6s"]
    assert "home column2" in g.legal_texts(after)  # the 7♠ fits now


def test_foundations_build_ace_to_king(castle):
    g = castle
    # every spade but the A in one column, K at the bottom: the spades go home one by one
    others = {"h": 13, "d": 13, "c": 13}
    st = castle_position(g, [" ".join(f"{r}s" for r in reversed(RANKS[1:]))], {"s": 1, **others})
    for want in range(2, 14):
        assert legal(g, st) == sorted(
            ["home column1"] + shifts_to_empty([1], [2, 3, 4, 5, 6, 7, 8]))
        st = g.apply_text(st, "home column1")
        assert rank_of(g.zone_cards(st, "foundation-spades")[-1]) == want
    assert [rank_of(c) for c in g.zone_cards(st, "foundation-spades")] == list(range(1, 14))


# Spice 2: the spade foundation was started at 3; the other suits are complete.
def test_spice_2_foundation_started_at_3_takes_a_4_and_nothing_else(spice2):
    g = spice2
    columns = ["As 4s", "5s 6s", "7s 8s", "9s 10s", "Js Qs", "Ks 2s"]
    st = castle_position(g, columns, {"s": "3s", "h": 13, "d": 13, "c": 13})
    assert legal(g, st) == sorted(
        ["home column1"] + shifts_to_empty([1, 2, 3, 4, 5, 6], [7, 8]))
    after = g.apply_text(st, "home column1")
    assert [norm(c) for c in g.zone_cards(after, "foundation-spades")] == ["3s", "4s"]
    homes = [t for t in g.legal_texts(after) if t.startswith("home")]
    assert homes == []  # the 5♠ is buried; the A♠ and 2♠ come only after the K♠


def test_spice_2_foundation_started_at_3_runs_up_to_king_then_ace_then_2(spice2):
    g = spice2
    spades = " ".join(f"{r}s" for r in RANKS[2:])  # 3♠ .. K♠
    st = castle_position(g, ["2s As"], {"s": spades, "h": 13, "d": 13, "c": 13})
    assert legal(g, st) == sorted(["home column1"] + shifts_to_empty([1], list(range(2, 9))))
    st = g.apply_text(st, "home column1")  # the A♠ onto the K♠
    assert legal(g, st) == sorted(["home column1"] + shifts_to_empty([1], list(range(2, 9))))
    st = g.apply_text(st, "home column1")  # the 2♠ onto the A♠: 13 cards, complete
    assert [rank_of(c) for c in g.zone_cards(st, "foundation-spades")] == [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1, 2]
    assert g.legal_texts(st) == []
    assert g.is_terminal(st)
    assert g.results(st) == ["win"]
    assert g.scores(st) == [52]


def test_spice_2_wrapped_foundation_does_not_take_the_card_before_its_start(spice2):
    g = spice2
    # spades started at 3 and run to K: the 2♠ (on top) waits for the A♠ (under it)
    spades = " ".join(f"{r}s" for r in RANKS[2:])
    st = castle_position(g, ["As 2s"], {"s": spades, "h": 13, "d": 13, "c": 13})
    assert legal(g, st) == shifts_to_empty([1], list(range(2, 9)))


def test_spice_2_foundations_may_each_start_at_a_different_rank(spice2):
    g = spice2
    foundations = {
        "s": "5s 6s",  # wants the 7♠
        "h": "Qh Kh Ah",  # wrapped: wants the 2♥
        "d": "9d 10d Jd Qd Kd Ad 2d 3d 4d 5d 6d 7d 8d",  # complete from 9
        "c": 13,
    }
    columns = ["Ks 7s", "Qs 2h", "Js 8s", "10s 3h", "9s 4h 5h 6h", "As 7h 8h", "2s 9h 10h",
               "3s 4s Jh"]
    st = castle_position(g, columns, foundations)
    assert [t for t in g.legal_texts(st) if t.startswith("home")] == ["home column1",
                                                                      "home column2"]
    after = g.apply_text(st, "home column2")
    assert [t for t in g.legal_texts(after) if t.startswith("home")] == ["home column1",
                                                                         "home column4"]


def test_cards_never_leave_a_foundation(castle):
    g = castle
    st = castle_position(g, KINGS, KINGS_FOUNDATIONS)
    names = {g.move_names[m[1]] for m in g.legal_moves(st)}
    assert names == {"shift", "home"}
    for m in g.legal_moves(st):
        after = g.apply(st, m)
        for z in FOUNDATIONS:
            before_cards = g.zone_cards(st, z)
            assert g.zone_cards(after, z)[:len(before_cards)] == before_cards


# ---------------------------------------------------------------------- the end
def stuck_columns(tops: list[str], foundations_rank: int, left_out: str = "") -> list[str]:
    """Eight columns with the given tops; every card above the foundations' rank that is not
    a top (nor left out, to be placed by the caller) is buried under them."""
    skip = {norm(c) for c in tops + left_out.split()}
    buried = [c for c in ALL_CARDS if rank_of(c) > foundations_rank and c not in skip]
    return [" ".join(buried[i::8] + [tops[i]]) for i in range(8)]


STUCK_TOPS = ["5s", "5h", "5d", "5c", "7s", "7h", "7d", "7c"]  # the foundations want 3s


@pytest.mark.parametrize("name", CASTLES)
def test_a_position_without_moves_is_the_end_and_lost(name):
    g = game(name)
    st = castle_position(g, stuck_columns(STUCK_TOPS, 2), {s: 2 for s in SUIT_LETTERS})
    assert g.legal_texts(st) == []
    assert g.is_terminal(st)
    assert g.end_reason(st) == STUCK
    assert g.results(st) == ["loss"]
    assert g.scores(st) == [8]


@pytest.mark.parametrize("name", CASTLES)
def test_the_last_move_into_a_stuck_position_ends_the_game(name):
    g = game(name)
    columns = stuck_columns(STUCK_TOPS, 2, left_out="3s")
    columns[0] += " 3s"  # the 3♠ covers the 5♠ of column 1
    st = castle_position(g, columns, {s: 2 for s in SUIT_LETTERS})
    assert g.legal_texts(st) == ["home column1"]
    after = g.apply_text(st, "home column1")
    assert g.legal_texts(after) == []
    assert g.is_terminal(after)
    assert g.end_reason(after) == STUCK
    assert g.results(after) == ["loss"]
    assert g.scores(after) == [9]


def test_a_deal_without_moves_is_over_at_once(castle):
    g = castle
    seed = next(s for s in range(2000) if not g.legal_moves(g.new_state(s)))
    st = g.new_state(seed)
    assert g.is_terminal(st)
    assert g.end_reason(st) == STUCK
    assert g.results(st) == ["loss"]
    assert g.scores(st) == [4]


@pytest.mark.parametrize("name", CASTLES)
def test_the_game_is_won_when_all_52_cards_are_on_the_foundations(name):
    g = game(name)
    st = castle_position(g, ["Ks"], {"s": 12, "h": 13, "d": 13, "c": 13})
    assert legal(g, st) == sorted(["home column1"] + shifts_to_empty([1], list(range(2, 9))))
    assert g.results(st) == [""]
    won = g.apply_text(st, "home column1")
    assert g.legal_texts(won) == []
    assert g.is_terminal(won)
    assert g.scores(won) == [52]
    assert g.results(won) == ["win"]


@pytest.mark.parametrize("name", CASTLES)
def test_going_round_in_circles_ends_the_game_at_the_move_limit(name):
    g = game(name)
    assert g.limit == 1000
    st = castle_position(g, ["Ks"], {"s": 12, "h": 13, "d": 13, "c": 13})
    for i in range(g.limit):
        assert not g.is_terminal(st), i
        st = g.apply_text(st, "shift column1 column2" if i % 2 == 0 else "shift column2 column1")
    assert g.is_terminal(st)
    assert g.end_reason(st) == CIRCLES
    assert g.legal_texts(st) == []
    assert g.results(st) == ["loss"]
    assert g.scores(st) == [51]
    with pytest.raises(IllegalMove):
        g.apply_text(st, "home column1")


# ---------------------------------------------------------------------- counting moves
@pytest.mark.parametrize("name", CASTLES)
def test_four_free_columns_give_every_top_four_places(name):
    g = game(name)
    # tops 9♠ 9♥ 9♦ 10♣ with four empty columns; foundations at 8 want the 9s
    st = castle_position(g, ["Ks Qs Js 10s 9s", "Kh Qh Jh 10h 9h", "Kd Qd Jd 10d 9d",
                             "Kc Qc Jc 9c 10c"], {s: 8 for s in SUIT_LETTERS})
    moves = sorted(shifts_to_empty([1, 2, 3, 4], [5, 6, 7, 8])
                   + ["shift column1 column4", "shift column2 column4", "shift column3 column4"]
                   + ["home column1", "home column2", "home column3"])
    assert legal(g, st) == moves
    assert len(moves) == 22 <= 64
    assert g.check_invariants(st) == []


# ---------------------------------------------------------------------- move texts
def test_move_texts_parse_back_and_bad_texts_are_rejected(castle):
    g = castle
    st = castle_position(g, TENS_UP, {s: 9 for s in SUIT_LETTERS})
    for m in g.legal_moves(st):
        assert g.parse_move(st, g.move_text(m)) == m
    assert g.move_text(g.parse_move(st, "  SHIFT   column3  column1 ")) == "shift column3 column1"
    for bad in ("shift column3 column3", "shift column3", "home column9", "home foundation-spades",
                "shift column1 column9", "deal"):
        with pytest.raises(IllegalMove):
            g.apply_text(st, bad)


def test_an_illegal_move_tuple_is_rejected_and_the_state_kept(castle):
    g = castle
    st = castle_position(g, TENS_UP, {s: 9 for s in SUIT_LETTERS})
    saved = g.to_json(st)
    shift = g.parse_move(st, "shift column3 column1")
    column3 = shift[2]
    bad_moves = [
        (shift[0], shift[1], column3, column3),  # onto itself
        (shift[0], shift[1], shift[3], column3),  # a J onto a 10
        (shift[0], shift[1], column3, 10_000),  # no such zone
        (2, *shift[1:]),  # no player 2
        (shift[0], 77, column3),  # no such move
    ]
    for bad in bad_moves:
        with pytest.raises(IllegalMove) as e:
            g.apply(st, bad)
        assert "\n" not in str(e.value)
    assert g.to_json(st) == saved
