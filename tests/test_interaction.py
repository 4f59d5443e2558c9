"""Interaction (rules: ../shared/rules/interaction.md), with 3 and 4 players.

Later-turn positions start from a real first turn (every player opens), then the helper
`edit` rewrites zones and variables by name (`Position`), keeping all 53 cards in play and
the chip bookkeeping (`earned - paid == sum of chips`) consistent.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from cardgame.interpreter.engine import Game, Position, State, compile_game
from cardgame.interpreter.errors import IllegalMove
from cardgame.interpreter.observe import view

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
DECK = [f"{r}{s}" for s in "shdc" for r in RANKS]
JOKER = "JK"
PLAYER_COUNTS = (3, 4)


def interaction(n: int) -> Game:
    return compile_game("interaction", players=n)


@pytest.fixture(params=PLAYER_COUNTS, scope="module")
def g(request: pytest.FixtureRequest) -> Game:
    return interaction(request.param)


# ---------------------------------------------------------------------- cards
def norm(card: str) -> str:
    """One spelling: '10♥' -> '10h'; the joker stays 'JK'."""
    if card == JOKER:
        return card
    return card[:-1] + SUITS.get(card[-1], card[-1])


def rank(card: str) -> int:
    return RANKS.index(norm(card)[:-1]) + 1


def suit(card: str) -> str:
    return norm(card)[-1]


def cards_of(g: Game, st: State, zone: str) -> list[str]:
    return [norm(c) for c in g.zone_cards(st, zone)]


def against_hearts_7(card: str) -> int:
    """The rules file's table, case by case, against a center card of hearts 7."""
    r, s = rank(card), suit(card)
    if r == 7:
        return 3
    if s == "h" and r in (6, 8):
        return 3
    if s == "h" and r in (5, 9):
        return 2
    if s == "h":
        return 1
    if r in (6, 8):
        return 2
    if r in (5, 9):
        return 1
    return 0


def chips_for(field: str, center: str) -> int:
    """The scoring rule from its definition (distance on a circle of 13 ranks)."""
    d = abs(rank(field) - rank(center))
    d = min(d, 13 - d)
    return (suit(field) == suit(center)) + {0: 3, 1: 2, 2: 1}.get(d, 0)


# Cards that score nothing against hearts 7 (non-hearts at distance 3 or more).
ZERO_VS_H7 = [c for c in DECK if against_hearts_7(c) == 0]


# ---------------------------------------------------------------------- positions
def opened(g: Game, seed: int, rng: random.Random | None = None) -> State:
    """The state after the first turn: every player opened (their first card, or a random
    one), the start player is chosen, the Play phase waits for them."""
    st = g.new_state(seed)
    while g.phase(st) == "First turn" and not g.is_terminal(st):
        p = g.to_move(st)[0]
        legal = g.legal_moves(st, p)
        st = g.apply(st, rng.choice(legal) if rng else legal[0])
    assert g.phase(st) == "Play"
    return st


def edit(g: Game, st: State, zones: Mapping[str, Sequence[str]] | None = None,
         stock_top: Sequence[str] = (), **vars: Any) -> State:
    """Rewrite a state: each named zone holds exactly the cards listed (bottom first);
    `stock_top` goes on top of the stock (its last card is drawn first); cards displaced
    from named zones go to the bottom of the stock. `chips=[...]` also sets `earned` so
    the chip invariant holds; `current=p` also makes p the one to decide."""
    zones = dict(zones or {})
    named = [norm(c) for zone in zones.values() for c in zone] + [norm(c) for c in stock_top]
    assert len(named) == len(set(named)), "bad test position: a card is named twice"
    used = {g.card_id(c) for c in named}
    pos = Position(g, st, rest="stock")
    displaced = [c for z in g.zone_names() if z in zones for c in pos.ids(z) if c not in used]
    stock = (displaced + [c for c in pos.ids("stock") if c not in used]
             + [g.card_id(c) for c in stock_top])
    for z, cards in zones.items():
        pos.zone(z, cards)
    pos.zone("stock", stock)
    if "chips" in vars:
        paid = vars.get("paid", pos.value("paid"))
        vars.setdefault("earned", sum(vars["chips"]) + paid)
    pos.vars(vars)
    if "current" in vars:
        pos.to_move(vars["current"])
    return pos.state()  # checks that every card is in play, once


def play_position(g: Game, *, hand1: Sequence[str], fields: Sequence[Sequence[str]],
                  center: Sequence[str], chips: Sequence[int] | None = None,
                  stock_top: Sequence[str] = (), seed: int = 0) -> State:
    """Player 1 to move in the Play phase with the given hand, fields (one per player) and
    center pile; every other hand keeps 5 cards."""
    n = g.players
    st = opened(g, seed)
    zones: dict[str, Sequence[str]] = {"hand-p1": hand1, "center": center}
    for p in range(1, n + 1):
        zones[f"field-p{p}"] = fields[p - 1]
    st = edit(g, st, zones, stock_top=stock_top,
              chips=list(chips or [0] * n), current=1, paid=0)
    # The other hands lost cards named elsewhere: refill them from the stock's bottom.
    pos = Position(g, st, rest="stock")
    for p in range(2, n + 1):
        hand = list(pos.ids(f"hand-p{p}"))
        while len(hand) < 5:
            hand.append(next(c for c, text in zip(pos.ids("stock"), pos.cards("stock"),
                                                  strict=True) if text != JOKER))
            pos.zone(f"hand-p{p}", hand)
    st = pos.state()
    assert g.to_move(st) == (1,)
    assert g.check_invariants(st) == []
    return st


def fill(n: int, avoid: Sequence[str]) -> list[str]:
    """n cards that score nothing against hearts 7 and are not in `avoid`."""
    avoid_n = {norm(c) for c in avoid}
    return [c for c in ZERO_VS_H7 if c not in avoid_n][:n]


# ---------------------------------------------------------------------- setup
def test_setup(g: Game) -> None:
    n = g.players
    positions = Counter()
    for seed in range(200):
        st = g.new_state(seed)
        stock = cards_of(g, st, "stock")
        assert len(stock) == 53 - 6 * n - 1
        assert cards_of(g, st, "deck") == []
        # The joker is among the bottom 11 cards of the stock, never the center card.
        assert JOKER in stock[:11]
        positions[stock.index(JOKER)] += 1
        center = cards_of(g, st, "center")
        assert len(center) == 1 and center[0] != JOKER
        for p in range(1, n + 1):
            assert len(g.zone_cards(st, f"hand-p{p}")) == 6
            assert JOKER not in cards_of(g, st, f"hand-p{p}")
            assert g.zone_cards(st, f"field-p{p}") == []
        assert g.var(st, "chips") == [0] * n
        assert g.check_invariants(st) == []
    # The joker is shuffled into the 11: every position among them occurs.
    assert set(positions) == set(range(11))


def test_deal_differs_by_seed(g: Game) -> None:
    hands = {tuple(g.zone_cards(g.new_state(seed), "hand-p1")) for seed in range(20)}
    assert len(hands) == 20


# ---------------------------------------------------------------------- the first turn
def test_first_turn_is_simultaneous_and_secret(g: Game) -> None:
    n = g.players
    st = g.new_state(3)
    assert g.phase(st) == "First turn"
    assert g.to_move(st) == tuple(range(1, n + 1))
    for p in range(1, n + 1):
        assert sorted(g.legal_texts(st, p)) == sorted(
            f"open {c}" for c in g.zone_cards(st, f"hand-p{p}"))
    first = g.legal_moves(st, 1)[0]
    card = g.zone_cards(st, "hand-p1")[0]
    after = g.apply(st, first)
    assert g.to_move(after) == tuple(range(2, n + 1))
    assert g.zone_cards(after, "field-p1") == []  # nothing revealed yet
    for p in range(2, n + 1):
        assert view(g, after, p)["pending"] == [{"player": 1, "move": "(chosen)"}]
        assert card not in str(view(g, after, p))  # p1's hand and choice stay hidden
    assert view(g, after, 1)["pending"] == [{"player": 1, "move": f"open {card}"}]
    with pytest.raises(IllegalMove):
        g.apply(after, first)  # p1 has chosen already


def test_first_turn_reveals_scores_and_leaves_5_cards(g: Game) -> None:
    n = g.players
    for seed in range(30):
        st = g.new_state(seed)
        center = cards_of(g, st, "center")[-1]
        opened_cards = {}
        for p in range(1, n + 1):
            m = g.legal_moves(st, p)[seed % 6]
            opened_cards[p] = norm(g.card_text[m[2]])
            st = g.apply(st, m)
        assert g.phase(st) == "Play"
        for p in range(1, n + 1):
            assert cards_of(g, st, f"field-p{p}") == [opened_cards[p]]
            assert len(g.zone_cards(st, f"hand-p{p}")) == 5  # not refilled
        chips = [chips_for(opened_cards[p], center) for p in range(1, n + 1)]
        assert g.var(st, "chips") == chips
        assert g.var(st, "current") in [p for p in range(1, n + 1) if chips[p - 1] == min(chips)]
        assert g.to_move(st) == (g.var(st, "current"),)
        assert g.check_invariants(st) == []


def first_turn(g: Game, seed: int, hands: Sequence[Sequence[str]], center: str) -> State:
    """A first turn from a chosen position: player p holds hands[p-1] and opens its first
    card."""
    zones = {f"hand-p{p}": h for p, h in enumerate(hands, start=1)}
    zones["center"] = [center]
    st = g.make_state(zones=zones, seed=seed, rest="stock")
    for p in range(1, g.players + 1):
        st = g.apply_text(st, f"open {hands[p - 1][0]}", player=p)
    return st


def hands_opening(openers: Sequence[str]) -> list[list[str]]:
    """Hands of 6 whose first card is the given opener; the rest fill from the deck."""
    used = set(openers) | {"7h"}
    free = [c for c in DECK if c not in used]
    return [[o, *free[5 * i:5 * i + 5]] for i, o in enumerate(openers)]


def test_start_player_is_the_unique_lowest_scorer(g: Game) -> None:
    n = g.players
    # Against hearts 7: 7s gives 3, 8h gives 3, 9c gives 1, 6d gives 2.
    openers = ["7s", "8h", "9c", "6d"][:n]
    for seed in range(20):
        st = first_turn(g, seed, hands_opening(openers), "7h")
        assert g.var(st, "chips") == [3, 3, 1, 2][:n]
        assert g.var(st, "current") == 3
        assert g.to_move(st) == (3,)


def test_start_player_tie_is_decided_at_random_among_the_lowest(g: Game) -> None:
    n = g.players
    # 7s 3, Ks 0, Qc 0 (and 5c 1): players 2 and 3 tie lowest.
    openers = ["7s", "Ks", "Qc", "5c"][:n]
    starters = Counter()
    for seed in range(60):
        st = first_turn(g, seed, hands_opening(openers), "7h")
        assert g.var(st, "chips") == [3, 0, 0, 1][:n]
        starters[g.var(st, "current")] += 1
    assert set(starters) == {2, 3}


def test_start_player_all_tied(g: Game) -> None:
    n = g.players
    openers = ["Ks", "Qc", "As", "2d"][:n]
    starters = Counter()
    for seed in range(80):
        st = first_turn(g, seed, hands_opening(openers), "7h")
        assert g.var(st, "chips") == [0] * n
        starters[g.var(st, "current")] += 1
    assert set(starters) == set(range(1, n + 1))


def test_start_player_over_random_first_turns(g: Game) -> None:
    n = g.players
    rng = random.Random(1)
    for seed in range(150):
        st = opened(g, seed, rng)
        chips = g.var(st, "chips")
        lowest = [p for p in range(1, n + 1) if chips[p - 1] == min(chips)]
        assert g.var(st, "current") in lowest


# ---------------------------------------------------------------------- the scoring table
@pytest.mark.parametrize("card", [c for c in DECK if c != "7h"])
def test_scoring_table_against_hearts_7(card: str) -> None:
    g = interaction(3)
    f = fill(7, [card])
    hand = ["7h", *f[:4]]
    st = play_position(g, hand1=hand, fields=[[f[4]], [card], [f[5]]], center=[f[6]])
    st = g.apply_text(st, "play_center 7h")
    assert cards_of(g, st, "center")[-1] == "7h"
    assert g.var(st, "chips") == [0, against_hearts_7(card), 0]
    assert against_hearts_7(card) == chips_for(card, "7h")


def test_scoring_table_spot_values() -> None:
    assert [against_hearts_7(c) for c in ("7s", "7d", "7c")] == [3, 3, 3]
    assert [against_hearts_7(c) for c in ("6h", "8h", "5h", "9h", "Ah", "Kh")] == [3, 3, 2, 2, 1, 1]
    assert [against_hearts_7(c) for c in ("6s", "8c", "5d", "9s", "10c", "As")] == [2, 2, 1, 1, 0, 0]


@pytest.mark.parametrize(("field", "center", "chips"), [
    ("Kh", "As", 2),   # K and A are adjacent
    ("Qh", "As", 1),   # Q and A are two apart
    ("Jh", "As", 0),
    ("2h", "As", 2),
    ("3h", "As", 1),
    ("Ks", "As", 3),   # same suit 1 + adjacent 2
    ("Qs", "As", 2),   # same suit 1 + two apart 1
    ("Ad", "Kc", 2),
    ("2d", "Kc", 1),
    ("Ac", "Kc", 3),
    ("Kd", "Kc", 3),   # same rank (necessarily another suit)
    ("7c", "Kc", 1),   # same suit only
])
def test_circular_ranks(field: str, center: str, chips: int) -> None:
    g = interaction(4)
    hand = [center, "4h", "4d", "5h", "5d"]
    fields = [["9c"], [field], ["9d"], ["9h"]]
    st = play_position(g, hand1=hand, fields=fields, center=["8s"])
    st = g.apply_text(st, f"play_center {center}")
    got = g.var(st, "chips")
    assert got[1] == chips == chips_for(field, center)


def test_active_player_scores_too_and_others_may_score_more(g: Game) -> None:
    n = g.players
    fields = [["2c"], ["8h"], ["Kc"], ["As"]][:n]
    hand = ["9h", *fill(4, ["9h", "2c", "8h", "Kc", "As"])]
    st = play_position(g, hand1=hand, fields=fields, center=["7h"])
    st = g.apply_text(st, "play_field 9h")
    # p1's field is now 9h (2 against 7h); p2's 8h (3) scores again although p1 played.
    assert g.var(st, "chips") == [2, 3, 0, 0][:n]


def test_every_player_scores_after_every_play(g: Game) -> None:
    n = g.players
    rng = random.Random(7)
    for seed in range(40):
        st = opened(g, seed, rng)
        while not g.is_terminal(st):
            before = g.var(st, "chips")
            paid = g.var(st, "paid")
            p = g.to_move(st)[0]
            st = g.apply(st, rng.choice(g.legal_moves(st)))
            center = cards_of(g, st, "center")[-1]
            gains = [chips_for(cards_of(g, st, f"field-p{q}")[-1], center)
                     for q in range(1, n + 1)]
            cost = [0] * n
            cost[p - 1] = g.var(st, "paid") - paid
            assert g.var(st, "chips") == [b + x - c for b, x, c in zip(before, gains, cost,
                                                                        strict=True)]
            assert all(0 <= x <= 3 for x in gains)


# ---------------------------------------------------------------------- moves and chips
def test_play_options_at_0_chips(g: Game) -> None:
    n = g.players
    fields = [["2c"], ["Kc"], ["As"], ["Ad"]][:n]
    hand = ["9h", *fill(4, ["9h", "2c", "Kc", "As", "Ad"])]
    st = play_position(g, hand1=hand, fields=fields, center=["7h"])
    legal = g.legal_texts(st)
    assert not any(t.startswith("pay_and_play") for t in legal)
    assert sorted(legal) == sorted([f"play_field {c}" for c in g.zone_cards(st, "hand-p1")]
                                   + [f"play_center {c}" for c in g.zone_cards(st, "hand-p1")])
    with pytest.raises(IllegalMove):
        g.apply_text(st, f"pay_and_play {hand[0]} {hand[1]}")


def test_pay_and_play_costs_a_chip_and_plays_to_both_piles(g: Game) -> None:
    n = g.players
    # Every field and the new center Ks score nothing: the chip count shows the payment.
    hand = ["6d", "Ks", "2h", "3h", "4d"]
    fields = [["2c"], ["6c"], ["7c"], ["8d"]][:n]
    st = play_position(g, hand1=hand, fields=fields, center=["9h"], chips=[1] + [0] * (n - 1),
                       stock_top=["5h", "Jd"])
    pays = [t for t in g.legal_texts(st) if t.startswith("pay_and_play")]
    assert len(pays) == 5 * 4  # ordered pairs of different cards: either way round
    assert "pay_and_play 6♦ K♠" in pays and "pay_and_play K♠ 6♦" in pays
    assert "pay_and_play 6♦ 6♦" not in pays
    stock_before = cards_of(g, st, "stock")
    after = g.apply_text(st, "pay_and_play 6d Ks")
    assert g.var(after, "chips") == [0] * n
    assert g.var(after, "paid") == 1
    assert cards_of(g, after, "field-p1") == ["2c", "6d"]
    assert cards_of(g, after, "center") == ["9h", "Ks"]
    # Refill: 2 cards, the top two of the stock.
    assert cards_of(g, after, "hand-p1") == ["2h", "3h", "4d", "Jd", "5h"]
    assert cards_of(g, after, "stock") == stock_before[:-2]
    assert g.check_invariants(after) == []


def test_pay_and_play_with_chips_to_spare(g: Game) -> None:
    n = g.players
    hand = ["6d", "7h", "2h", "3h", "4d"]
    fields = [["2c"], ["6c"], ["Kc"], ["Ks"]][:n]
    st = play_position(g, hand1=hand, fields=fields, center=["9s"], chips=[4, 1] + [0] * (n - 2))
    after = g.apply_text(st, "pay_and_play 6d 7h")
    # Center 7h: p1's 6d gives 2, p2's 6c gives 2. p1 paid 1.
    assert g.var(after, "chips") == [4 - 1 + 2, 1 + 2] + [0] * (n - 2)


def test_single_play_refills_one_card(g: Game) -> None:
    n = g.players
    fields = [["2c"], ["Kc"], ["As"], ["Ad"]][:n]
    hand = ["9h", *fill(4, ["9h", "2c", "Kc", "As", "Ad"])]
    for move in ("play_field 9h", "play_center 9h"):
        st = play_position(g, hand1=hand, fields=fields, center=["7h"], stock_top=["Qd"])
        stock = cards_of(g, st, "stock")
        after = g.apply(st, g.parse_move(st, move))
        assert cards_of(g, after, "hand-p1") == [*hand[1:], "Qd"]
        assert cards_of(g, after, "stock") == stock[:-1]
        # The turn passes to the left.
        assert g.var(after, "current") == 2
        assert g.to_move(after) == (2,)


def test_turn_passes_clockwise(g: Game) -> None:
    n = g.players
    st = opened(g, 11)
    for _ in range(2 * n):
        if g.is_terminal(st):
            break
        p = g.to_move(st)[0]
        st = g.apply(st, g.legal_moves(st)[0])
        if not g.is_terminal(st):
            assert g.to_move(st) == (p % n + 1,)


# ---------------------------------------------------------------------- the end
def test_joker_ends_the_game_in_the_middle_of_a_two_card_refill(g: Game) -> None:
    n = g.players
    hand = ["6d", "Ks", "2h", "3h", "4d"]
    fields = [["2c"], ["6c"], ["7c"], ["8d"]][:n]
    st = play_position(g, hand1=hand, fields=fields, center=["9h"], chips=[1] + [0] * (n - 1),
                       stock_top=[JOKER, "5h"])
    after, events = g.apply_with_events(st, g.parse_move(st, "pay_and_play 6d Ks"))
    assert g.is_terminal(after)
    # The first card (5h) is drawn; then the joker: the second card is not drawn.
    assert cards_of(g, after, "hand-p1") == ["2h", "3h", "4d", "5h"]
    assert cards_of(g, after, "stock")[-1] == JOKER
    assert len(cards_of(g, after, "stock")) == len(cards_of(g, st, "stock")) - 1
    assert any("joker" in e for e in events)
    assert g.legal_moves(after) == []
    assert g.check_invariants(after) == []


def test_joker_on_top_ends_the_game_at_once(g: Game) -> None:
    n = g.players
    fields = [["2c"], ["8h"], ["Kc"], ["As"]][:n]
    hand = ["9h", *fill(4, ["9h", "2c", "8h", "Kc", "As"])]
    st = play_position(g, hand1=hand, fields=fields, center=["7h"], stock_top=[JOKER],
                       chips=[1, 1] + [4] * (n - 2))
    after = g.apply_text(st, "play_field 9h")
    assert g.is_terminal(after)
    assert len(g.zone_cards(after, "hand-p1")) == 4
    assert cards_of(g, after, "stock")[-1] == JOKER
    # Scores are final as they stand: the play scored first (p1 +2, p2 +3).
    chips = [3, 4] + [4] * (n - 2)
    assert g.var(after, "chips") == chips
    assert g.scores(after) == chips
    if n == 3:
        assert g.results(after) == ["loss", "draw", "draw"]
    else:
        assert g.results(after) == ["loss", "draw", "draw", "draw"]


def test_highest_score_wins(g: Game) -> None:
    n = g.players
    fields = [["2c"], ["Kc"], ["As"], ["Ad"]][:n]
    hand = ["9h", *fill(4, ["9h", "2c", "Kc", "As", "Ad"])]
    st = play_position(g, hand1=hand, fields=fields, center=["7h"], stock_top=[JOKER],
                       chips=[5, 6] + [0] * (n - 2))
    after = g.apply_text(st, "play_center 9h")
    assert g.is_terminal(after)
    assert g.results(after) == ["loss", "win"] + ["loss"] * (n - 2)


def test_hands_hold_5_at_every_turn_and_games_end(g: Game) -> None:
    n = g.players
    rng = random.Random(3)
    for seed in range(150):
        st = g.new_state(seed)
        assert all(len(g.zone_cards(st, f"hand-p{p}")) == 6 for p in range(1, n + 1))
        st = opened(g, seed, rng)
        turns = 0
        while not g.is_terminal(st):
            assert all(len(g.zone_cards(st, f"hand-p{p}")) == 5 for p in range(1, n + 1))
            assert JOKER in cards_of(g, st, "stock")
            st = g.apply(st, rng.choice(g.legal_moves(st)))
            turns += 1
        # Every turn draws a card and the joker is in the stock: a game is short.
        assert turns <= 53
        assert cards_of(g, st, "stock")[-1] == JOKER
        assert JOKER not in cards_of(g, st, "center")
        assert g.check_invariants(st) == []
