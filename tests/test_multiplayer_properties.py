"""Properties of Interaction and Arsène in every mode and player count, over random games
driven by Hypothesis: cards and chips are conserved, every listed legal move applies and
its text parses back, replay and the JSON round trip give the same state, games end.
(Chains has the same properties in tests/test_chains.py.)
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from cardgame.interpreter.engine import Game, State, compile_game
from cardgame.interpreter.observe import view
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

INTERACTION = [("interaction", 3, {}), ("interaction", 4, {})]
ARSENE = [("arsene", n, {"advanced": adv}) for n in (3, 4) for adv in ("false", "true")]
STORE_GROUPS = [(1, 1, 1), (1, 2, 3), (1, 3, 5), (1, 2, 3), (1, 1, 1)]


def game(config: tuple[str, int, dict[str, str]]) -> Game:
    name, n, options = config
    return compile_game(name, players=n, settings=options)


def config_id(c: tuple[str, int, dict[str, str]]) -> str:
    return f"{c[0]}-{c[1]}p" + "".join(f"-{k}={v}" for k, v in sorted(c[2].items()))


def var(g: Game, st: State, name: str) -> Any:
    return g.var(st, name)


def all_card_ids(g: Game, st: State) -> list[int]:
    return sorted(g.all_card_ids(st))


# ---------------------------------------------------------------------- per-game checks
def check_interaction(g: Game, before: State | None, mover: int | None, st: State) -> None:
    n = g.players
    assert all_card_ids(g, st) == list(range(53))
    chips = var(g, st, "chips")
    assert all(c >= 0 for c in chips)
    assert sum(chips) == var(g, st, "earned") - var(g, st, "paid")
    assert not any(c == "JK" for c in g.zone_cards(st, "center"))
    if before is None:
        return
    old = var(g, before, "chips")
    paid = var(g, st, "paid") - var(g, before, "paid")
    assert paid in (0, 1)
    earned = var(g, st, "earned") - var(g, before, "earned")
    assert earned >= 0
    for p in range(1, n + 1):
        delta = chips[p - 1] - old[p - 1]
        cost = paid if p == mover else 0
        # Each play scores each player 0..3 chips; only the mover may pay one.
        assert 0 <= delta + cost <= 3 or g.phase(before) == "First turn" and delta == 0
    assert sum(chips) - sum(old) == earned - paid


def check_arsene(g: Game, before: State | None, mover: int | None, st: State) -> None:
    n = g.players
    assert all_card_ids(g, st) == list(range(52))
    stores = [tuple(t) for t in var(g, st, "store")]
    chips = var(g, st, "chips")
    tokens = var(g, st, "tokens")
    # 27 chips: stores, players, and those that left the game.
    assert sum(map(sum, stores)) + sum(chips) + var(g, st, "confiscated") == 27
    assert all(c >= 0 for c in chips)
    # 8 tokens: supply and players; nobody more than 2.
    assert var(g, st, "supply") + sum(tokens) == 8
    assert all(0 <= t <= 2 for t in tokens)
    # A store only gives away its groups, smallest first.
    for t, groups in zip(stores, STORE_GROUPS, strict=True):
        assert groups[len(groups) - len(t):] == t
    assert len(var(g, st, "tricks")) == n
    assert sum(var(g, st, "tricks")) + var(g, st, "dummy_tricks") <= 11
    if before is not None:
        assert var(g, st, "confiscated") >= var(g, before, "confiscated")
        # an escape is for ever
        assert all(b <= a for b, a in zip(var(g, before, "exempt"), var(g, st, "exempt"),
                                          strict=True))


CHECKS = {"interaction": check_interaction, "arsene": check_arsene}
MOVE_BOUND = {"interaction": 60, "arsene": 60 * 200}  # Arsène: 200 deals at most


def play_and_check(g: Game, name: str, seed: int, rng: random.Random,
                   every_move_each: int) -> tuple[State, list[Any]]:
    check = CHECKS[name]
    st = g.new_state(seed)
    check(g, None, None, st)
    moves: list[Any] = []
    while not g.is_terminal(st):
        legal = g.legal_moves(st)
        assert legal, "a state that is not over offers a move"
        assert set(legal) == {m for p in g.to_move(st) for m in g.legal_moves(st, p)}
        assert g.check_invariants(st) == []
        if len(moves) % every_move_each == 0:
            # Every listed legal move applies, and its text parses back to it.
            for m in legal:
                after = g.apply(st, m)
                check(g, st, m[0], after)
                assert g.parse_move(st, g.move_text(m), m[0]) == m
        if len(moves) % 25 == 0:
            assert g.from_json(g.to_json(st)) == st
            assert g.legal_moves(g.from_json(g.to_json(st))) == legal
        m = rng.choice(legal)
        after = g.apply(st, m)
        check(g, st, m[0], after)
        moves.append(m)
        st = after
        assert len(moves) <= MOVE_BOUND[name], "the game must end"
    assert g.check_invariants(st) == []
    assert g.legal_moves(st) == []
    assert len(g.results(st)) == g.players and all(r in ("win", "loss", "draw")
                                                   for r in g.results(st))
    return st, moves


@pytest.mark.parametrize("config", INTERACTION + ARSENE, ids=config_id)
def test_random_games_keep_every_property(config: tuple[str, int, dict[str, str]]) -> None:
    g = game(config)
    name = config[0]

    @settings(max_examples=12 if name == "arsene" else 40, deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(seed=hs.integers(0, 2**32 - 1), rng=hs.randoms(use_true_random=False))
    def run(seed: int, rng: random.Random) -> None:
        st, moves = play_and_check(g, name, seed, rng, every_move_each=4)
        assert g.replay(seed, moves) == st
        assert g.from_json(g.to_json(st)) == st
        assert g.is_terminal(g.from_json(g.to_json(st)))

    run()


@pytest.mark.parametrize("config", INTERACTION + ARSENE, ids=config_id)
def test_random_playouts_end(config: tuple[str, int, dict[str, str]]) -> None:
    g = game(config)
    for seed in range(100):
        s, n = g.random_playout(seed, random.Random(seed))
        final = g.final_state(s)
        assert g.is_terminal(final)
        assert g.check_invariants(final) == []
        CHECKS[config[0]](g, None, None, final)
        assert n <= MOVE_BOUND[config[0]]


def test_results_follow_the_scores() -> None:
    for config in INTERACTION + ARSENE:
        g = game(config)
        for seed in range(20):
            final = g.final_state(g.random_playout(seed, random.Random(seed))[0])
            scores, results = g.scores(final), g.results(final)
            best = max(scores)
            winners = [i for i, s in enumerate(scores) if s == best]
            for i, r in enumerate(results):
                if i not in winners:
                    assert r == "loss"
                else:
                    assert r == ("win" if len(winners) == 1 else "draw")


@pytest.mark.parametrize("config", INTERACTION + ARSENE[:2], ids=config_id)
def test_json_and_replay_at_a_pending_simultaneous_choice(
        config: tuple[str, int, dict[str, str]]) -> None:
    """A saved game in the middle of a simultaneous choice keeps the secret choices made."""
    g = game(config)
    n = g.players
    for seed in range(5):
        st = g.new_state(seed)
        moves = []
        while len(g.to_move(st)) < 2:
            moves.append(g.legal_moves(st)[0])
            st = g.apply(st, moves[-1])
        for p in range(1, n):
            moves.append(g.legal_moves(st, p)[seed % 3])
            st = g.apply(st, moves[-1])
            back = g.from_json(g.to_json(st))
            assert back == st
            assert g.to_move(back) == g.to_move(st) == tuple(range(p + 1, n + 1))
            assert g.legal_moves(back) == g.legal_moves(st)
            for seat in [None, *range(1, n + 1)]:
                assert view(g, back, seat) == view(g, st, seat)
            assert g.replay(seed, moves) == st
        last = g.legal_moves(st, n)[0]
        assert g.apply(g.from_json(g.to_json(st)), last) == g.apply(st, last)
