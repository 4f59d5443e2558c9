"""Hearts (games/hearts.cardgame): its rules against an independent Python reading of
them, over random play: the passes (every set of 3, each pass to the right seat), the
legal plays of every position (follow suit, hearts broken, no points on the first
trick), who takes each trick, and each hand's points with the moon. The examples in the
game file show single positions; this checks every position of whole games."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from cardgame.interpreter.engine import compile_game

ORDER = {r: i for i, r in enumerate(["2", "3", "4", "5", "6", "7", "8", "9", "10",
                                     "J", "Q", "K", "A"])}


def rank(c: str) -> str:
    return c[:-1]


def suit(c: str) -> str:
    return c[-1]


def points(c: str) -> int:
    return 1 if suit(c) == "♥" else 13 if c == "Q♠" else 0


def legal_plays(hand: list[str], trick: list[str], broken: bool, first: bool) -> set[str]:
    out = set()
    for c in hand:
        if trick:
            led = suit(trick[0])
            if suit(c) != led and any(suit(d) == led for d in hand):
                continue
        elif suit(c) == "♥" and not broken and not all(suit(d) == "♥" for d in hand):
            continue
        if first and points(c) and not all(points(d) for d in hand):
            continue
        out.add(c)
    return out


def winner(trick: list[str], leader: int) -> int:
    led = suit(trick[0])
    best = max((i for i in range(4) if suit(trick[i]) == led), key=lambda i: ORDER[rank(trick[i])])
    return (leader - 1 + best) % 4 + 1


def receiver(p: int, hand_no: int) -> int:
    return {0: p % 4 + 1, 1: (p - 2) % 4 + 1, 2: (p + 1) % 4 + 1}[(hand_no - 1) % 4]


@pytest.fixture(scope="module")
def game() -> Any:
    return compile_game("hearts")


def texts(g: Any, moves: list[Any]) -> set[Any]:
    return {tuple(sorted(g.card_text[c] for c in m[2])) if isinstance(m[2], tuple)
            else g.card_text[m[2]] for m in moves}


@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_follow_the_rules(game: Any, seed: int) -> None:
    g = game
    rng = random.Random(seed)
    st = g.new_state(seed)
    hands_scored = 0
    passes_checked = 0
    broken = False
    hand_no = 0
    while not g.is_terminal(st):
        v = g.variables(st)
        if v["hand_no"] != hand_no:  # a new hand: hearts are not broken
            hand_no = v["hand_no"]
            broken = False
        movers = g.to_move(st)
        hands = {p: g.zone_cards(st, f"hand-p{p}") for p in range(1, 5)}
        trick = g.zone_cards(st, "trick")
        if v["tricks_played"] == 0 and not trick:  # the passes: every set of 3 cards
            for p in movers:
                want = {tuple(sorted(s)) for s in itertools.combinations(hands[p], 3)}
                assert texts(g, g.legal_moves(st, p)) == want
            picks = {p: rng.choice(g.legal_moves(st, p)) for p in movers}
            before = {p: set(hands[p]) for p in range(1, 5)}
            for p in movers:
                st = g.apply(st, picks[p])
            after = {p: set(g.zone_cards(st, f"hand-p{p}")) for p in range(1, 5)}
            trick_now = set(g.zone_cards(st, "trick"))
            for p in range(1, 5):  # what p passed is now with the receiver
                sent = {g.card_text[c] for c in picks[p][2]}
                assert sent <= after[receiver(p, hand_no)] | trick_now
                assert not sent & after[p]
            assert "2♣" in trick_now  # led for its holder
            held = {p: before[p] - {g.card_text[c] for c in picks[p][2]} for p in range(1, 5)}
            for p in range(1, 5):
                held[receiver(p, hand_no)] |= {g.card_text[c] for c in picks[p][2]}
            holder = next(p for p in range(1, 5) if "2♣" in held[p])
            assert g.variables(st)["leader"] == holder
            assert g.to_move(st) == (holder % 4 + 1,)
            passes_checked += 1
            continue
        (p,) = movers
        first = v["tricks_played"] == 0
        assert texts(g, g.legal_moves(st)) == legal_plays(hands[p], trick, broken, first)
        assert v["hearts_broken"] == broken
        m = rng.choice(g.legal_moves(st))
        c = g.card_text[m[2]]
        last = v["tricks_played"] == 12 and len(trick) == 3
        taken = {q: g.zone_cards(st, f"taken-p{q}") for q in range(1, 5)}
        leader = v["leader"]
        st = g.apply(st, m)
        broken = broken or suit(c) == "♥"
        if len(trick) == 3:
            w = winner(trick + [c], leader)
            if not last:
                assert g.variables(st)["leader"] == w
                assert sorted(g.zone_cards(st, f"taken-p{w}")) == sorted(
                    taken[w] + trick + [c])
            else:
                taken[w] = taken[w] + trick + [c]
                assert sum(len(t) for t in taken.values()) == 52
                pts = {q: sum(points(x) for x in taken[q]) for q in range(1, 5)}
                moon = [q for q in pts if pts[q] == 26]
                want = [26 if moon and q != moon[0] else 0 if moon else pts[q]
                        for q in range(1, 5)]
                got = [a - b for a, b in zip(g.variables(st)["points"], v["points"],
                                             strict=True)]
                assert got == want
                hands_scored += 1
    assert hands_scored >= 3 and passes_checked >= 2
    final = g.variables(st)["points"]
    assert max(final) >= 100
    low = min(final)
    assert [r == "win" or r == "draw" for r in g.results(st)] == [x == low for x in final]


@pytest.mark.parametrize("breaks", [True, False])
def test_the_queen_breaks_hearts_only_with_the_option(breaks: bool) -> None:
    g = compile_game("hearts", settings={"queen_breaks": str(breaks).lower(), "target": "1"})
    rng = random.Random(7)
    seen = 0
    for seed in range(40):
        st = g.new_state(seed)
        while not g.is_terminal(st):
            movers = g.to_move(st)
            ms = g.legal_moves(st, movers[0])
            queen = [m for m in ms if g.move_names[m[1]] == "play"
                     and g.card_text[m[2]] == "Q♠"]
            m = queen[0] if queen else rng.choice(ms)
            was = g.variables(st)["hearts_broken"]
            trick = g.zone_cards(st, "trick")
            st = g.apply(st, m)
            if queen and not was and len(trick) < 3:  # the trick goes on: the same hand
                assert g.variables(st)["hearts_broken"] == breaks
                seen += 1
                break
    assert seen >= 5
