"""Chains (rules: ../shared/rules/chains.md), beginner and advanced mode.

Positions are built card by card: every one of the 55 cards is placed explicitly in the
game's own zones (the helper `position`), the `closed` record is made to agree with the
terminal row, and the declared invariants must hold before a test runs.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

import pytest
from cardgame.interpreter.engine import Game, State, compile_game
from cardgame.interpreter.errors import IllegalMove
from cardgame.interpreter.observe import view
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

MODES = {"beginner": 5, "advanced": 4}
ALL_RANKS = Counter({r: r for r in range(1, 11)})  # the Pairs deck: r copies of rank r


def chains(mode: str) -> Game:
    return compile_game("chains", players=1, settings={"mode": mode})


@pytest.fixture(params=list(MODES), scope="module")
def mode(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(scope="module")
def g(mode: str) -> Game:
    return chains(mode)


def slot_texts(g: Game) -> list[str]:
    return g.zone_names("slot")


def ranks(g: Game, st: State, zone: str) -> list[int]:
    return [int(c) for c in g.zone_cards(st, zone)]


def all_ranks(g: Game, st: State) -> Counter[int]:
    return Counter(int(g.card_text[c]) for c in g.all_card_ids(st))


def run(k: int) -> list[int]:
    """A finished run from 10 down to k (bottom first)."""
    return list(range(10, k - 1, -1))


def position(
    g: Game,
    *,
    terminals: Sequence[int] = tuple(range(1, 11)),
    work: Sequence[int] = (),
    drawn: Sequence[int] = (),
    slots: Mapping[int, Sequence[int]] | None = None,
    stock: Sequence[int] | None = None,
) -> State:
    """A position. Runs for the terminal ranks missing from `terminals` are in the discard
    (each 10..k); `stock` is bottom first (its last card is drawn next) and defaults to
    every card not placed elsewhere, in rank order."""
    closed = [k for k in range(1, 11) if k not in terminals]
    layout: dict[str, list[int]] = {
        "terminals": list(terminals), "work": list(work), "drawn": list(drawn),
        "discard": [r for k in closed for r in run(k)],
    }
    for i, text in enumerate(slot_texts(g), start=1):
        layout[text] = list((slots or {}).get(i, ()))
    assert set(slots or {}) <= set(range(1, len(slot_texts(g)) + 1)), "no such slot"
    used = Counter(r for zone in layout.values() for r in zone)
    left = ALL_RANKS - used
    assert not (used - ALL_RANKS), f"bad test position: too many cards {used - ALL_RANKS}"
    if stock is None:
        stock = sorted(left.elements())
    else:
        assert Counter(stock) == left, "bad test position: the stock must hold the rest"
    layout["stock"] = list(stock)
    layout["deck"] = []
    # Every zone is named, so make_state places exactly these cards (and settles the end).
    st = g.make_state(zones={z: [str(r) for r in rs] for z, rs in layout.items()},
                      vars={"closed": closed}, rest="deck")
    for z, rs in layout.items():
        assert ranks(g, st, z) == rs
    assert g.check_invariants(st) == [], "the test position breaks a declared invariant"
    return st


def texts(g: Game, st: State) -> set[str]:
    return set(g.legal_texts(st))


# ---------------------------------------------------------------------- setup
def test_setup_terminals_stock_and_slots(g: Game, mode: str) -> None:
    for seed in range(20):
        st = g.new_state(seed)
        assert sorted(ranks(g, st, "terminals")) == list(range(1, 11))
        assert len(g.zone_cards(st, "stock")) == 45
        assert all_ranks(g, st) == ALL_RANKS
        assert view(g, st, 1)["zones"]["stock"] == {"hidden": 45}
        for zone in ("work", "drawn", "discard", *slot_texts(g)):
            assert g.zone_cards(st, zone) == []
    assert slot_texts(g) == [f"slot{i}" for i in range(1, MODES[mode] + 1)]


def test_chains_advanced_file_is_advanced_mode() -> None:
    adv = compile_game("chains-advanced", players=1)
    assert slot_texts(adv) == ["slot1", "slot2", "slot3", "slot4"]


def test_stock_is_shuffled() -> None:
    g = chains("beginner")
    orders = {tuple(g.zone_cards(g.new_state(seed), "stock")) for seed in range(10)}
    assert len(orders) == 10


# ---------------------------------------------------------------------- the work-area rule
# (The only 1 is the terminal card 1: any other rank can be drawn or held.)
@pytest.mark.parametrize("rank", range(2, 11))
def test_empty_work_area_takes_only_a_10(g: Game, rank: int) -> None:
    st = position(g, drawn=[rank])
    assert ("to_work" in texts(g, st)) == (rank == 10)
    st = position(g, slots={1: [rank]})
    assert ("from_slot 1" in texts(g, st)) == (rank == 10)


@pytest.mark.parametrize("rank", range(2, 11))
def test_work_area_takes_exactly_one_less(g: Game, rank: int) -> None:
    st = position(g, work=[10, 9, 8, 7], drawn=[rank])
    assert ("to_work" in texts(g, st)) == (rank == 6)
    st = position(g, work=[10, 9, 8, 7], slots={2: [rank]})
    assert ("from_slot 2" in texts(g, st)) == (rank == 6)


def test_illegal_work_area_move_is_refused(g: Game) -> None:
    st = position(g, work=[10, 9], drawn=[9])
    with pytest.raises(IllegalMove):
        g.apply_text(st, "to_work")
    with pytest.raises(IllegalMove):
        g.apply_text(position(g, drawn=[9]), "to_work")


def test_to_work_places_the_drawn_card(g: Game) -> None:
    st = g.apply_text(position(g, work=[10, 9], drawn=[8]), "to_work")
    assert ranks(g, st, "work") == [10, 9, 8]
    assert ranks(g, st, "drawn") == []


# ---------------------------------------------------------------------- drawing
def test_draw_turns_the_top_card_then_only_placing_is_possible(g: Game, mode: str) -> None:
    st = position(g, work=[10], slots={1: [9]}, stock=None)
    assert "draw" in texts(g, st)
    stock = ranks(g, st, "stock")
    after = g.apply_text(st, "draw")
    assert ranks(g, after, "drawn") == [stock[-1]]
    assert ranks(g, after, "stock") == stock[:-1]
    # Drawing and placing are one action: the drawn card must be placed before anything else.
    legal = texts(g, after)
    assert {t.split()[0] for t in legal} <= {"to_work", "to_slot"}
    assert {f"to_slot {i}" for i in range(1, MODES[mode] + 1)} <= legal


def test_drawing_is_always_possible_while_the_stock_has_cards(g: Game) -> None:
    rng = random.Random(5)
    for seed in range(30):
        st = g.new_state(seed)
        while not g.is_terminal(st):
            if g.zone_cards(st, "stock") and not g.zone_cards(st, "drawn"):
                assert "draw" in texts(g, st)
            st = g.apply(st, rng.choice(g.legal_moves(st)))


# ---------------------------------------------------------------------- holding slots
def test_a_drawn_card_may_go_on_any_slot_whatever_its_top(g: Game, mode: str) -> None:
    n = MODES[mode]
    full = {i: [i + 1, 9 - i] for i in range(1, n + 1)}  # every slot in use, tops unrelated
    st = position(g, drawn=[7], slots=full)
    assert {t for t in texts(g, st) if t.startswith("to_slot")} == {
        f"to_slot {i}" for i in range(1, n + 1)}
    after = g.apply_text(st, f"to_slot {n}")
    assert ranks(g, after, f"slot{n}") == [*full[n], 7]


def test_no_extra_slot_can_be_opened(g: Game, mode: str) -> None:
    n = MODES[mode]
    full = {i: [2 + i] for i in range(1, n + 1)}
    st = position(g, drawn=[7], slots=full)
    moves = [m for m in g.legal_moves(st) if g.move_names[m[1]] == "to_slot"]
    assert sorted(m[2] for m in moves) == list(range(1, n + 1))
    with pytest.raises(IllegalMove):
        g.apply_text(st, f"to_slot {n + 1}")
    with pytest.raises(IllegalMove):
        g.apply(st, g.build_move(1, "to_slot", n + 1))
    assert len(view(g, st, 1)["zones"]) == len(g.zone_names())
    assert sum(1 for z in view(g, st, 1)["zones"] if z.startswith("slot")) == n


def test_slot_limit_by_mode() -> None:
    for mode, n in MODES.items():
        g = chains(mode)
        st = position(g, drawn=[3])
        assert sorted(t for t in texts(g, st) if t.startswith("to_slot")) == sorted(
            f"to_slot {i}" for i in range(1, n + 1))


def test_only_a_slots_top_card_moves(g: Game) -> None:
    # 9 lies under a 4 in slot 1: it cannot be taken although it would fit on the 10.
    st = position(g, work=[10], slots={1: [9, 4], 2: [9], 3: [4, 8]})
    legal = texts(g, st)
    assert "from_slot 1" not in legal
    assert "from_slot 2" in legal
    assert "from_slot 3" not in legal
    after = g.apply_text(st, "from_slot 2")
    assert ranks(g, after, "work") == [10, 9]
    assert ranks(g, after, "slot2") == []
    # The next card down in a slot becomes available once it is the top.
    st = position(g, work=[10, 9], slots={1: [7, 8]})
    after = g.apply_text(st, "from_slot 1")
    assert ranks(g, after, "slot1") == [7]
    assert "from_slot 1" in texts(g, after)


def test_slot_cards_never_go_back_to_another_slot(g: Game) -> None:
    st = position(g, work=[10], slots={1: [9], 2: [5]})
    assert all(not t.startswith("to_slot") for t in texts(g, st))


# ---------------------------------------------------------------------- closing runs
def test_terminal_card_closes_the_run_it_fits(g: Game) -> None:
    st = position(g, work=[10, 9, 8])
    closes = {t for t in texts(g, st) if t.startswith("close")}
    assert closes == {"close 7"}
    after = g.apply_text(st, "close 7")
    assert ranks(g, after, "work") == []
    assert ranks(g, after, "discard") == [10, 9, 8, 7]
    assert sorted(ranks(g, after, "terminals")) == [1, 2, 3, 4, 5, 6, 8, 9, 10]
    assert g.var(after, "closed") == (7,)
    assert g.check_invariants(after) == []


@pytest.mark.parametrize("k", range(1, 11))
def test_any_terminal_card_closes_a_run_of_its_length(g: Game, k: int) -> None:
    st = position(g, work=run(k + 1))
    assert {t for t in texts(g, st) if t.startswith("close")} == {f"close {k}"}
    after = g.apply_text(st, f"close {k}")
    assert ranks(g, after, "discard") == run(k)
    assert len(ranks(g, after, "discard")) == 11 - k


def test_closing_moves_the_whole_work_area_after_earlier_runs(g: Game) -> None:
    # Runs 5 and 10 are closed; the work area 10 9 8 7 needs a 6.
    st = position(g, terminals=[1, 2, 3, 4, 6, 7, 8, 9], work=[10, 9, 8, 7])
    assert {t for t in texts(g, st) if t.startswith("close")} == {"close 6"}
    after = g.apply_text(st, "close 6")
    assert ranks(g, after, "discard") == [10, 9, 8, 7, 6, 5, 10, 10, 9, 8, 7, 6]
    assert ranks(g, after, "work") == []
    assert g.var(after, "closed") == (5, 10, 6)
    # With the work area 10 9 8 7 6 the run needs the 5, which is used: no close.
    st = position(g, terminals=[1, 2, 3, 4, 6, 7, 8, 9], work=[10, 9, 8, 7, 6])
    assert not any(t.startswith("close") for t in texts(g, st))


def test_no_close_while_a_drawn_card_waits(g: Game) -> None:
    st = position(g, work=[10, 9, 8], drawn=[2])
    assert not any(t.startswith("close") or t.startswith("from_slot") for t in texts(g, st))


def test_used_terminal_cannot_close_again(g: Game) -> None:
    st = position(g, terminals=[1, 2, 3, 4, 5, 6, 8, 9, 10], work=[10, 9, 8])
    assert not any(t.startswith("close") for t in texts(g, st))


# ---------------------------------------------------------------------- end and score
def leftovers(terminals: Sequence[int], work: Sequence[int] = ()) -> list[int]:
    """The cards not in the terminal row, the closed runs or the work area, highest first
    (so that in one slot the lowest card is the top)."""
    closed = [k for k in range(1, 11) if k not in terminals]
    used = Counter([*terminals, *work, *(r for k in closed for r in run(k))])
    return sorted((ALL_RANKS - used).elements(), reverse=True)


def test_end_when_stock_empty_and_no_action(g: Game) -> None:
    # Runs 4..10 are closed; the work area's 5 needs a 4 (used); every slot top is a 2.
    work = [10, 9, 8, 7, 6, 5]
    st = position(g, terminals=[1, 2, 3], work=work,
                  slots={1: leftovers([1, 2, 3], work)}, stock=[])
    assert g.legal_moves(st) == []
    assert g.is_terminal(st)
    assert g.end_reason(st) == "the stock is empty and no action is possible"
    assert g.scores(st) == [-3]
    assert g.results(st) == ["loss"]


def test_with_every_terminal_left_a_close_is_always_possible(g: Game) -> None:
    # Empty work area: the terminal 10 closes a run of one, even with the stock empty.
    st = position(g, slots={1: leftovers(range(1, 11))}, stock=[])
    assert ranks(g, st, "slot1")[-1] == 2
    assert texts(g, st) == {"close 10"}
    assert not g.is_terminal(st)


def test_no_end_while_an_action_remains(g: Game) -> None:
    rest = leftovers(range(1, 11))
    st = position(g, slots={1: rest[::-1]}, stock=[])  # a 10 on top of slot 1 fits
    assert not g.is_terminal(st)
    assert texts(g, st) == {"from_slot 1", "close 10"}
    st = position(g, slots={1: rest[1:]}, stock=[10])
    assert not g.is_terminal(st)
    assert texts(g, st) == {"draw", "close 10"}


def test_while_the_stock_has_cards_the_game_goes_on(g: Game) -> None:
    rest = leftovers([1, 2, 3])
    st = position(g, terminals=[1, 2, 3], slots={1: rest[:-1]}, stock=rest[-1:])
    assert texts(g, st) == {"draw"}
    st = g.apply_text(st, "draw")
    assert not g.is_terminal(st)
    st = g.apply_text(st, "to_slot 1")
    assert g.is_terminal(st)


def test_score_counts_terminal_cards_left(g: Game) -> None:
    # Runs 4..10 closed, nothing fits the empty work area: 3 terminal cards are left.
    st = position(g, terminals=[1, 2, 3], slots={1: leftovers([1, 2, 3])}, stock=[])
    assert g.is_terminal(st)
    assert g.scores(st) == [-3]
    assert g.results(st) == ["loss"]
    # Their ranks do not matter: only the number of terminal cards counts.
    st = position(g, terminals=[4, 6, 9], slots={1: leftovers([4, 6, 9])}, stock=[])
    assert g.is_terminal(st)
    assert g.scores(st) == [-3]
    # One close still possible: the game goes on, then ends with one fewer terminal card.
    work = [10, 9, 8, 7, 6, 5]
    st = position(g, terminals=[1, 2, 4], work=work,
                  slots={1: leftovers([1, 2, 4], work)}, stock=[])
    assert texts(g, st) == {"close 4"}
    st = g.apply_text(st, "close 4")
    assert g.is_terminal(st)
    assert g.scores(st) == [-2]
    assert g.results(st) == ["loss"]


def winning_stock() -> list[int]:
    """A stock (bottom first) that draws, in order, the runs 10..2, 10..3, ..., 10..10."""
    draws = [r for k in range(1, 11) for r in run(k + 1)]
    return draws[::-1]


def test_a_perfect_stock_is_won_with_score_0(g: Game) -> None:
    st = position(g, stock=winning_stock())
    for k in range(1, 11):
        for _ in range(10 - k):
            st = g.apply_text(st, "draw")
            st = g.apply_text(st, "to_work")
        assert not g.is_terminal(st)
        st = g.apply_text(st, f"close {k}")
        assert g.check_invariants(st) == []
    assert g.is_terminal(st)
    assert len(g.zone_cards(st, "discard")) == 55
    assert g.scores(st) == [0]
    assert g.results(st) == ["win"]
    assert g.var(st, "closed") == tuple(range(1, 11))


def test_won_game_may_use_slots(g: Game) -> None:
    # Park the 9 of the first run on a slot, then take it back.
    stock = winning_stock()
    st = position(g, stock=stock)
    st = g.apply_text(st, "draw")  # 10
    st = g.apply_text(st, "to_slot 1")
    st = g.apply_text(st, "draw")  # 9
    st = g.apply_text(st, "to_slot 2")
    st = g.apply_text(st, "from_slot 1")
    st = g.apply_text(st, "from_slot 2")
    assert ranks(g, st, "work") == [10, 9]


# ---------------------------------------------------------------------- properties
def check_conservation(g: Game, st: State) -> None:
    assert all_ranks(g, st) == ALL_RANKS
    ids = sorted(g.all_card_ids(st))
    assert ids == list(range(55))
    assert g.check_invariants(st) == []
    discard = ranks(g, st, "discard")
    # The discard is whole runs 10..k, each closed by terminal card k.
    i = 0
    for k in g.var(st, "closed"):
        assert discard[i:i + 11 - k] == run(k)
        i += 11 - k
    assert i == len(discard)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 10**6), choice=hs.randoms(use_true_random=False),
       mode=hs.sampled_from(list(MODES)))
def test_random_games_keep_55_cards_end_and_score(seed: int, choice: random.Random,
                                                  mode: str) -> None:
    g = chains(mode)
    state = g.new_state(seed)
    moves = []
    n = 0
    while not g.is_terminal(state):
        check_conservation(g, state)
        legal = g.legal_moves(state)
        assert legal
        if n % 10 == 0:  # every listed move applies
            for m in legal:
                g.apply(state, m)
        m = choice.choice(legal)
        moves.append(m)
        state = g.apply(state, m)
        n += 1
        assert n <= 200, "Chains must end: every action moves a card on for good"
    check_conservation(g, state)
    assert g.zone_cards(state, "stock") == []
    assert g.legal_moves(state) == []
    terminals = len(g.zone_cards(state, "terminals"))
    assert g.scores(state) == [-terminals]
    assert g.results(state) == (["win"] if terminals == 0 else ["loss"])
    assert (terminals == 0) == (len(g.zone_cards(state, "discard")) == 55)
    assert g.replay(seed, moves) == state
    assert g.from_json(g.to_json(state)) == state


def test_random_playouts_end(g: Game) -> None:
    for seed in range(200):
        s, n = g.random_playout(seed, random.Random(seed))
        final = g.final_state(s)
        assert g.is_terminal(final)
        check_conservation(g, final)
        assert n <= 200
