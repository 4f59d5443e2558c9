"""Blackjack (games/blackjack.cardgame, docs/games/blackjack.md): the rules recomputed here
in Python from the cards, and compared with the engine over random hands, for each rule
set; and scenarios: the dealer's peek, the hole card's secrecy, doubling down, the shoe."""

from __future__ import annotations

import random
from typing import Any

import pytest
from cardgame.interpreter.engine import Game, compile_game
from cardgame.interpreter.observe import view

RULES = [(1, "stand", "true", "1"), (3, "hit", "true", "1"), (2, "stand", "false", "6")]


def blackjack(players: int = 1, soft17: str = "stand", double: str = "true",
              decks: str = "1") -> Game:
    return compile_game("blackjack", players=players,
                        settings={"soft17": soft17, "double": double, "decks": decks})


def value(card: str) -> int:
    face = card[:-1]
    return 1 if face == "A" else 10 if face in ("J", "Q", "K") else int(face)


def total(cards: list[str]) -> tuple[int, bool]:
    """The best total and whether it is soft (an ace counted 11)."""
    hard = sum(value(c) for c in cards)
    if any(c.startswith("A") for c in cards) and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def settle(hand: list[str], dealer: list[str], bet: int) -> tuple[str, int]:
    """What the rules say one hand gets against the dealer's final cards."""
    mine, _ = total(hand)
    theirs, _ = total(dealer)
    nat = len(hand) == 2 and mine == 21
    dnat = len(dealer) == 2 and theirs == 21
    if mine > 21:
        return "loss", -bet
    if nat and dnat:
        return "push", 0
    if dnat:
        return "loss", -bet
    if nat:
        return "win", bet * 3 // 2
    if theirs > 21 or mine > theirs:
        return "win", bet
    if mine == theirs:
        return "push", 0
    return "loss", -bet


def play_random(g: Game, seed: int) -> tuple[Any, list[tuple[int, int]]]:
    """A random hand; the (player, hand size) of every decision."""
    rng = random.Random(seed)
    st = g.new_state(seed)
    asked = []
    while not g.is_terminal(st):
        p = g.to_move(st)[0]
        asked.append((p, len(g.zone_cards(st, f"hand-p{p}"))))
        hand = g.zone_cards(st, f"hand-p{p}")
        assert total(hand)[0] < 21, "a hand of 21 (or a natural) is never asked"
        st = g.apply(st, rng.choice(g.legal_moves(st)))
    return st, asked


@pytest.mark.parametrize("rules", RULES, ids=lambda r: "-".join(map(str, r)))
def test_the_engine_settles_every_hand_as_the_rules_do(rules: tuple[Any, ...]) -> None:
    n, soft17, double, decks = rules
    g = blackjack(n, soft17, double, decks)
    seen: set[str] = set()
    for seed in range(150):
        st, _ = play_random(g, seed)
        dealer = g.zone_cards(st, "dealer_hand")
        assert g.zone_cards(st, "hole") == []  # the hole card is shown at the end
        hands = [g.zone_cards(st, f"hand-p{p}") for p in range(1, n + 1)]
        bets = list(g.var(st, "bet"))
        for p in range(n):
            assert bets[p] in (10, 20)
            assert bets[p] == 10 or (double == "true" and len(hands[p]) == 3)
            want = settle(hands[p], dealer, bets[p])
            assert (g.results(st)[p], g.scores(st)[p]) == want, (seed, p, hands[p], dealer)
            seen.add(want[0])
        # the dealer's rule: the dealer draws while some hand waits for the total
        d, soft = total(dealer)
        waiting = any(total(h)[0] <= 21 and not (len(h) == 2 and total(h)[0] == 21)
                      for h in hands)
        natural = len(dealer) == 2 and d == 21
        if waiting and not natural:
            assert d >= 17
            assert not (soft17 == "hit" and d == 17 and soft), dealer
            before = total(dealer[:-1]) if len(dealer) > 2 else None
            if before is not None:  # the last card was drawn: the dealer had to hit
                b, bsoft = before
                assert b < 17 or (soft17 == "hit" and b == 17 and bsoft), dealer
        else:
            assert len(dealer) == 2
    assert seen == {"win", "push", "loss"}


def test_the_dealers_natural_ends_the_hand_at_once() -> None:
    g = blackjack(2)
    found = 0
    for seed in range(300):
        st = g.new_state(seed)
        dealer = g.zone_cards(st, "dealer_hand") + g.zone_cards(st, "hole")
        if total(dealer)[0] == 21:
            found += 1
            assert g.is_terminal(st) and g.end_reason(st) == "the dealer has blackjack"
            for p in (1, 2):
                hand = g.zone_cards(st, f"hand-p{p}")
                assert g.results(st)[p - 1] == ("push" if total(hand)[0] == 21 else "loss")
    assert found > 5


def test_the_hole_card_is_hidden_until_the_dealer_plays() -> None:
    g = blackjack(1)
    for seed in range(40):
        st = g.new_state(seed)
        if g.is_terminal(st):
            continue
        hole = g.zone_cards(st, "hole")
        v = view(g, st, 1)
        assert hole[0] not in str(v["zones"]["hole"])
        assert g.scores(st) == [0]  # the payout would tell the hole card
        st = g.apply(st, g.legal_moves(st)[1])  # stand
        assert g.is_terminal(st)
        assert hole[0] in g.zone_cards(st, "dealer_hand")


def test_a_natural_is_not_asked_and_pays_3_to_2() -> None:
    g = blackjack(1)
    paid = 0
    for seed in range(400):
        st = g.new_state(seed)
        hand = g.zone_cards(st, "hand-p1")
        dealer = g.zone_cards(st, "dealer_hand") + g.zone_cards(st, "hole")
        if total(hand)[0] == 21 and total(dealer)[0] != 21:
            assert g.is_terminal(st)
            assert g.results(st) == ["win"] and g.scores(st) == [15]
            paid += 1
    assert paid > 5


def test_doubling_down_takes_one_card_and_doubles_the_stake() -> None:
    g = blackjack(1)
    for seed in range(40):
        st = g.new_state(seed)
        if g.is_terminal(st):
            continue
        moves = {g.move_text(m): m for m in g.legal_moves(st)}
        assert set(moves) == {"hit", "stand", "double_down"}
        st = g.apply(st, moves["double_down"])
        assert g.is_terminal(st)
        assert len(g.zone_cards(st, "hand-p1")) == 3 and g.var(st, "bet") == [20]
        assert abs(g.scores(st)[0]) in (0, 20)
    off = blackjack(1, double="false")
    st = next(s for s in (off.new_state(k) for k in range(10)) if not off.is_terminal(s))
    assert {off.move_text(m) for m in off.legal_moves(st)} == {"hit", "stand"}


def test_a_shoe_of_six_decks() -> None:
    g = blackjack(1, decks="6")
    st = g.new_state(1)
    cards = (g.zone_cards(st, "shoe") + g.zone_cards(st, "hand-p1")
             + g.zone_cards(st, "dealer_hand") + g.zone_cards(st, "hole"))
    assert len(cards) == 312 and cards.count("A♠") == 6
