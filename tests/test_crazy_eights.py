"""Crazy Eights (games/crazy-eights.cardgame, docs/games/crazy-eights.md): the legal moves
of every decision of random games recomputed here in Python from the cards (matching,
the wild 8 and its named suit, draw until able, pass with nothing to draw), and the end
and scores; and scenarios: the deal sizes, the reshuffle, the starter."""

from __future__ import annotations

import random
from typing import Any

import pytest
from cardgame.interpreter.engine import Game, compile_game

SUITS = "♠♥♦♣"  # the suit numbers 1..4 of a standard deck


def crazy(players: int, hand_size: int = 0) -> Game:
    return compile_game("crazy-eights", players=players,
                        settings={"hand_size": str(hand_size)})


def rank(card: str) -> int:
    face = card[:-1]
    return {"A": 1, "J": 11, "Q": 12, "K": 13}.get(face) or int(face)


def penalty(card: str) -> int:
    r = rank(card)
    return 50 if r == 8 else 10 if r >= 10 else r


def legal_by_the_rules(g: Game, st: Any, p: int, naming: bool) -> set[str]:
    """What the rules allow player p now (`naming`: p just played an 8)."""
    if naming:
        return {f"name {s}" for s in ("spades", "hearts", "diamonds", "clubs")}
    top = g.zone_cards(st, "pile")[-1]
    named = g.var(st, "named")
    suit = SUITS[named - 1] if named else top[-1]
    hand = g.zone_cards(st, f"hand-p{p}")
    fits = [c for c in hand if rank(c) == 8 or c[-1] == suit or rank(c) == rank(top)]
    if fits:
        return {f"play {c}" for c in fits}
    if g.zone_cards(st, "stock") or len(g.zone_cards(st, "pile")) > 1:
        return {"draw"}
    return {"pass_turn"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_decision_offers_what_the_rules_allow(players: int) -> None:
    g = crazy(players)
    rng = random.Random(players)
    kinds: set[str] = set()
    for seed in range(25 if players == 2 else 12):
        st = g.new_state(seed)
        naming = False
        while not g.is_terminal(st):
            p = g.to_move(st)[0]
            legal = {g.move_text(m): m for m in g.legal_moves(st)}
            assert set(legal) == legal_by_the_rules(g, st, p, naming), (seed, p)
            text = rng.choice(sorted(legal))
            kinds.add(text.split()[0])
            before = g.zone_cards(st, f"hand-p{p}")
            st = g.apply(st, legal[text])
            naming = (text.startswith("play 8") and len(before) > 1)
            if text.startswith("play "):
                assert g.zone_cards(st, "pile")[-1] == text[5:]
                assert g.var(st, "named") is None
            if naming and not g.is_terminal(st):
                assert g.to_move(st) == (p,)  # the 8's player names the suit
            if not g.is_terminal(st) and not naming and not text.startswith("draw"):
                assert g.to_move(st)[0] == p % players + 1  # then the next player, clockwise
            if text == "draw":
                assert g.to_move(st) == (p,)  # draw until able
        hands = [g.zone_cards(st, f"hand-p{q}") for q in range(1, players + 1)]
        assert g.scores(st) == [-sum(penalty(c) for c in h) for h in hands]
        if g.end_reason(st) == "a player went out":
            winners = [q for q, h in enumerate(hands) if not h]
            assert len(winners) == 1 and g.results(st)[winners[0]] == "win"
    assert {"play", "draw", "name"} <= kinds


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 5), (4, 5)])
def test_the_deal(players: int, size: int) -> None:
    g = crazy(players)
    for seed in range(20):
        st = g.new_state(seed)
        assert all(len(g.zone_cards(st, f"hand-p{q}")) == size for q in range(1, players + 1))
        pile = g.zone_cards(st, "pile")
        assert len(pile) == 1 and rank(pile[0]) != 8  # an 8 turned up is buried
        assert len(g.zone_cards(st, "stock")) == 52 - 1 - players * size
    g = crazy(3, hand_size=8)
    assert len(g.zone_cards(g.new_state(1), "hand-p2")) == 8


def test_the_discard_pile_is_reshuffled_under_its_top_card() -> None:
    g = crazy(2)
    rng = random.Random(7)
    seen = 0
    for seed in range(40):
        st = g.new_state(seed)
        while not g.is_terminal(st) and seen < 5:
            legal = g.legal_moves(st)
            m = rng.choice(legal)
            if g.move_text(m) == "draw" and not g.zone_cards(st, "stock"):
                pile = g.zone_cards(st, "pile")
                after = g.apply(st, m)
                assert g.zone_cards(after, "pile") == pile[-1:]
                stock = g.zone_cards(after, "stock")
                drawn = g.zone_cards(after, f"hand-p{g.to_move(st)[0]}")[-1]
                assert sorted(stock + [drawn]) == sorted(pile[:-1])
                seen += 1
            st = g.apply(st, m)
    assert seen >= 1
