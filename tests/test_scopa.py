"""Scopa (games/scopa.cardgame): its rules against an independent Python reading of them,
over random play: which takes and lays are legal, the sweeps, the last taker, and each
deal's points (cards, coins, settebello, primiera, scope). The examples in the game file
show single positions; this checks every position of whole games."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from cardgame.interpreter.engine import compile_game

VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 8, "Q": 9, "K": 10}
SUIT = {"co": "coins", "cu": "cups", "s": "swords", "b": "batons"}
PRIME = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}


def card(text: str) -> tuple[int, str]:
    return VALUE[text[0]], SUIT[text[1:]]


@pytest.fixture(scope="module")
def game() -> Any:
    return compile_game("scopa")


def expected_moves(table: list[str], hand: list[str]) -> set[tuple[str, ...]]:
    """(played card, *taken cards sorted) for each take, (played card,) for each lay."""
    out: set[tuple[str, ...]] = set()
    for c in hand:
        v = card(c)[0]
        singles = [t for t in table if card(t)[0] == v]
        if singles:
            out |= {(c, t) for t in singles}
            continue
        sets = [s for k in range(2, len(table) + 1) for s in itertools.combinations(table, k)
                if sum(card(t)[0] for t in s) == v]
        if sets:
            out |= {(c, *sorted(s)) for s in sets}
        else:
            out.add((c,))
    return out


def primiera(cards: list[str]) -> int:
    best: dict[str, int] = {}
    for t in cards:
        v, s = card(t)
        best[s] = max(best.get(s, 0), PRIME[v])
    return sum(best.values()) if len(best) == 4 else 0


def deal_points(piles: list[list[str]], scope: list[int]) -> list[int]:
    pts = [0, 0]
    for i, j in ((0, 1), (1, 0)):
        mine, theirs = piles[i], piles[j]
        pts[i] += len(mine) > len(theirs)
        coins = [sum(card(t)[1] == "coins" for t in p) for p in (mine, theirs)]
        pts[i] += coins[0] > coins[1]
        pts[i] += "7co" in mine
        pts[i] += primiera(mine) > 0 and primiera(mine) > primiera(theirs)
        pts[i] += scope[i]
    return pts


def moves_as_texts(g: Any, st: Any) -> set[tuple[str, ...]]:
    out = set()
    for m in g.legal_moves(st):
        played = g.card_text[m[2]]
        taken = tuple(sorted(g.card_text[c] for c in m[3])) if len(m) > 3 else ()
        out.add((played, *taken))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_follow_the_rules(game: Any, seed: int) -> None:
    g = game
    rng = random.Random(seed)
    st = g.new_state(seed)
    deals_checked = 0
    sweeps_seen = 0
    while not g.is_terminal(st):
        (p,) = g.to_move(st)
        v = g.variables(st)
        table = g.zone_cards(st, "table")
        hand = g.zone_cards(st, f"hand-p{p}")
        assert moves_as_texts(g, st) == expected_moves(table, hand)
        m = rng.choice(g.legal_moves(st))
        last = not g.zone_cards(st, "deck") and len(hand) == 1 and not g.zone_cards(
            st, f"hand-p{3 - p}")
        piles = [g.zone_cards(st, "captured-p1"), g.zone_cards(st, "captured-p2")]
        scope = list(v["scope"])
        taker = v["last_taker"]
        after = g.apply(st, m)
        played = g.card_text[m[2]]
        takes = g.move_names[m[1]] == "take"
        if takes:
            taken = [g.card_text[c] for c in m[3]]
            piles[p - 1] = piles[p - 1] + [played, *taken]
            taker = p
            if len(taken) == len(table) and not last:
                scope[p - 1] += 1
                sweeps_seen += 1
        if not last:
            assert g.variables(after)["scope"] == scope
            assert g.variables(after)["points"] == v["points"]
        else:  # the deal's end: the last taker takes the rest, then the points
            rest = [t for t in table if not (takes and t in taken)] + ([] if takes else [played])
            if taker is not None:
                piles[taker - 1] = piles[taker - 1] + rest
            assert sorted(piles[0] + piles[1]) == sorted(g.card_text)
            got = [a - b for a, b in zip(g.variables(after)["points"], v["points"], strict=True)]
            assert got == deal_points(piles, scope)
            deals_checked += 1
        st = after
    assert deals_checked >= 2
    pts = g.variables(st)["points"]
    assert max(pts) >= 11 and pts[0] != pts[1]
    assert list(g.scores(st)) == pts
    assert list(g.results(st)) == (["win", "loss"] if pts[0] > pts[1] else ["loss", "win"])


def test_the_target_is_an_option(game: Any) -> None:
    g = compile_game("scopa", settings={"target": "1"})
    st = g.new_state(4)
    rng = random.Random(4)
    while not g.is_terminal(st):
        st = g.apply(st, rng.choice(g.legal_moves(st)))
    pts = g.variables(st)["points"]
    assert max(pts) >= 1 and pts[0] != pts[1]
    assert g.variables(st)["deals"] < 3  # a target of 1 is reached within a deal or two


def test_the_card_that_takes_is_seen_by_both_players(game: Any) -> None:
    # At a real table the taking card is played face up; in the file it passes over the
    # table on its way to the captured pile (docs/games/scopa.md, interpretation 8). Before,
    # it went face down at once: the other player never saw it, could not count the
    # cards, and a bot's worlds from its history were nearly all refused (the take's sum
    # names the card's rank).
    import random as _random

    from cardgame.interpreter.bots import make_bot
    from cardgame.interpreter.observe import Record, Sampler, history

    g = game
    for seed in range(1, 6):
        st = g.new_state(seed)
        moves = []
        bots = [make_bot("greedy", seed * 7 + i) for i in range(2)]
        for _ in range(30):
            if g.is_terminal(st):
                break
            p = g.to_move(st)[0]
            m = bots[p - 1].choose(g, st, p)
            st = g.apply(st, m)
            moves.append(m)
            if len(m) > 3:  # a take: the other player sees the card played, in its move
                other = 2 if p == 1 else 1
                seen = [o for o in history(g, seed, moves, other) if o.kind == "choice"][-1]
                assert g.card_text[m[2]] in seen.move and "▒" not in seen.move
        p = 1 if g.is_terminal(st) else g.to_move(st)[0]
        sampler = Sampler(g, Record(seed, tuple(moves)), p)
        rng = _random.Random(seed)
        got = sum(sampler.draw(rng) is not None for _ in range(20))
        assert got == 20, f"deal {seed}: {got} of 20 worlds from the history"
