"""Oh Hell (games/oh-hell.cardgame, docs/games/oh-hell.md): 3-5 players, hands of 1 up to
the largest and back to 1, the turned trump, the dealer's rule, follow suit, 10 + bid for
an exact bid.

Two kinds of test: the shape of whole games (the deals, the hands, no trumps when every
card is dealt), and a model check over random games, in which the bidding, following,
trick and scoring rules are recomputed here from the rules and compared with the engine
at every step.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from cardgame.interpreter.engine import Game, State, compile_game

RANKS = {"A": 14, "J": 11, "Q": 12, "K": 13}


def oh_hell(players: int, **settings: int) -> Game:
    return compile_game("oh-hell", players=players,
                        settings={k: str(v) for k, v in settings.items()})


def rank(card: str) -> int:
    r = card[:-1]
    return RANKS[r] if r in RANKS else int(r)


def suit(card: str) -> str:
    return card[-1]


def hand(g: Game, st: State, p: int) -> list[str]:
    return g.zone_cards(st, f"hand[{p}]")


def legal_texts(g: Game, st: State) -> set[str]:
    return {g.move_text(m) for m in g.legal_moves(st)}


def winner(trick: list[str], leader: int, trump: str | None, n: int) -> int:
    """The rules: the highest trump, else the highest card of the suit led (ace high);
    the i-th card was played by the i-th player clockwise from the leader."""
    led = suit(trick[0])

    def strength(c: str) -> int:
        if trump is not None and suit(c) == trump:
            return 200 + rank(c)
        return 100 + rank(c) if suit(c) == led else 0

    best = max(range(len(trick)), key=lambda i: strength(trick[i]))
    return (leader - 1 + best) % n + 1


def hand_sizes(largest: int) -> list[int]:
    return list(range(1, largest + 1)) + list(range(largest - 1, 0, -1))


# ---------------------------------------------------------------------- whole games
@pytest.mark.parametrize(("players", "max_hand", "largest"),
                         [(3, 10, 10), (4, 10, 10), (5, 10, 10), (5, 17, 10), (4, 13, 13),
                          (3, 2, 2)])
def test_the_deals_go_up_to_the_largest_hand_and_back(players: int, max_hand: int,
                                                      largest: int) -> None:
    g = oh_hell(players, max_hand=max_hand)
    st = g.new_state(11)
    rng = random.Random(5)
    seen: list[int] = []
    dealers: list[int] = []
    while not g.is_terminal(st):
        deals = g.var(st, "deals")
        if len(seen) < deals:
            seen.append(g.var(st, "hand_size"))
            dealers.append(g.var(st, "dealer"))
            assert all(len(hand(g, st, p)) == seen[-1] for p in range(1, players + 1))
            every_card_dealt = seen[-1] * players == 52
            assert (g.zone_cards(st, "turned") == []) == every_card_dealt
            assert (g.var(st, "trump") is None) == every_card_dealt
        moves = g.legal_moves(st)
        st = g.apply(st, moves[rng.randrange(len(moves))])
    assert seen == hand_sizes(largest)
    # the deal passes to the left
    assert dealers == [(i % players) + 1 for i in range(len(seen))]


def test_one_deal_plays_a_single_hand_of_that_many_cards() -> None:
    g = oh_hell(3, one_deal=5)
    st = g.new_state(2)
    assert g.var(st, "hand_size") == 5
    n = 0
    while not g.is_terminal(st):
        st = g.apply(st, g.legal_moves(st)[0])
        n += 1
    assert n == 3 + 15  # three bids and fifteen cards
    assert sum(g.var(st, "tricks")) == 5


# ---------------------------------------------------------------------- the model check
def model_check(g: Game, players: int, seed: int) -> dict[str, int]:
    """One random game, every rule recomputed at every step; what was seen."""
    rng = random.Random(seed)
    st = g.new_state(seed)
    seen = {"hooked": 0, "trump wins": 0, "made": 0, "missed": 0, "no trumps": 0}
    points = [0] * (players + 1)
    while not g.is_terminal(st):
        [p] = g.to_move(st)
        hs = g.var(st, "hand_size")
        dealer = g.var(st, "dealer")
        bids: list[Any] = g.var(st, "bid")
        trick = g.zone_cards(st, "trick")
        turned = g.zone_cards(st, "turned")
        trump = suit(turned[0]) if turned else None
        legal = legal_texts(g, st)
        if any(b is None for b in bids):  # bidding: from the dealer's left, in turn
            assert p == (dealer + sum(b is not None for b in bids)) % players + 1
            allowed = set(range(hs + 1))
            if p == dealer:
                forbidden = hs - sum(b for b in bids if b is not None)
                if forbidden in allowed:
                    allowed.discard(forbidden)
                    seen["hooked"] += 1
            assert legal == {f"bid {n}" for n in allowed}
        else:  # playing: follow suit when able
            cards = hand(g, st, p)
            follow = [c for c in cards if trick and suit(c) == suit(trick[0])]
            assert legal == {f"play {c}" for c in (follow or cards)}
            if not trick:
                assert p == g.var(st, "leader")
        before = st
        m = g.legal_moves(st)[rng.randrange(len(g.legal_moves(st)))]
        st = g.apply(st, m)
        text = g.move_text(m)
        if text.startswith("play") and len(trick) == players - 1:
            full = trick + [text.removeprefix("play ")]
            w = winner(full, g.var(before, "leader"), trump, players)
            if trump is not None and suit(full[0]) != trump and any(suit(c) == trump
                                                                   for c in full):
                seen["trump wins"] += 1
            last_trick = sum(g.var(before, "tricks")) + 1 == hs
            if not last_trick:
                assert g.var(st, "leader") == w
                assert g.var(st, "tricks")[w - 1] == g.var(before, "tricks")[w - 1] + 1
                assert g.zone_cards(st, "trick") == []
            else:  # the deal is scored: exactly the bid scores 10 + bid, else nothing
                tricks = list(g.var(before, "tricks"))
                tricks[w - 1] += 1
                final = list(bids)
                assert sum(tricks) == hs and sum(final) != hs  # the dealer's rule
                for q in range(1, players + 1):
                    if tricks[q - 1] == final[q - 1]:
                        points[q] += 10 + final[q - 1]
                        seen["made"] += 1
                    else:
                        seen["missed"] += 1
                if not g.is_terminal(st):
                    assert g.var(st, "dealer") == dealer % players + 1
                    if not g.zone_cards(st, "turned"):
                        seen["no trumps"] += 1
                assert g.var(st, "points") == points[1:]
    assert g.scores(st) == points[1:]
    return seen


@pytest.mark.parametrize("players", [3, 4, 5])
def test_model_check_random_games(players: int) -> None:
    g = oh_hell(players, max_hand=6)
    total: dict[str, int] = {}
    for seed in range(4):
        for k, v in model_check(g, players, seed).items():
            total[k] = total.get(k, 0) + v
    # the checks above ran on each kind of event
    assert total["hooked"] > 0 and total["trump wins"] > 0
    assert total["made"] > 0 and total["missed"] > 0


def test_model_check_without_trumps() -> None:
    g = oh_hell(4, one_deal=13)
    seen = model_check(g, 4, 1)
    assert seen["made"] + seen["missed"] == 4 and seen["trump wins"] == 0
