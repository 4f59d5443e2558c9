"""Properties of random playthroughs of the four games (Hypothesis).

Each test draws a seed and then, move by move, one of the legal moves. Along the way it
checks the engine against an independent reference: the rules of
/work/shared/rules/*.md written out again here in plain Python (which moves are legal,
and what each one does), and the facts those rules promise (52 cards, each in one place;
at most 64 moves in Besieged Castle; every game ends).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from cardgame.interpreter.engine import Game, State, compile_game
from cardgame.interpreter.errors import IllegalMove
from cardgame.interpreter.observe import view
from conftest import (
    ALL_CARDS,
    ALL_GAMES,
    CALCULATION,
    CASTLES,
    SPICE2,
    SUIT_LETTERS,
    SUIT_NAMES,
    norm,
    rank_of,
    suit_of,
    zones_of,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

Zones = dict[str, list[str]]

# Calculation: 48 draws, 48 placings, at most 48 lifts from the waste piles.
CALCULATION_MAX_MOVES = 3 * 48
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
WALK = settings(max_examples=8, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ---------------------------------------------------------------------- the reference rules
def calculation_wanted(pile: list[str], k: int) -> int | None:
    if len(pile) >= 13:
        return None
    r = k * (len(pile) + 1) % 13
    return r or 13


def calculation_moves(z: Zones) -> list[str]:
    def fits(card: str, k: int) -> bool:
        return rank_of(card) == calculation_wanted(z[f"foundation{k}"], k)

    if z["turned"]:
        builds = [f"build {k}" for k in range(1, 5) if fits(z["turned"][-1], k)]
        return sorted(builds + [f"discard {w}" for w in range(1, 5)])
    moves = ["draw"] if z["stock"] else []
    moves += [f"lift {w} {k}" for w in range(1, 5) for k in range(1, 5)
              if z[f"waste{w}"] and fits(z[f"waste{w}"][-1], k)]
    return sorted(moves)


def calculation_after(z: Zones, text: str) -> Zones:
    words = text.split()
    source, dest = {
        "draw": lambda: ("stock", "turned"),
        "build": lambda: ("turned", f"foundation{words[1]}"),
        "discard": lambda: ("turned", f"waste{words[1]}"),
        "lift": lambda: (f"waste{words[1]}", f"foundation{words[-1]}"),
    }[words[0]]()
    return moved(z, source, dest)


def castle_moves(z: Zones, spice2: bool) -> list[str]:
    def below(r: int) -> int:  # the rank that goes onto a card of rank r
        return 13 if spice2 and r == 1 else r - 1

    def fits_home(card: str) -> bool:
        f = z[f"foundation-{SUIT_NAMES[suit_of(card)]}"]
        if not f:
            return spice2 or rank_of(card) == 1
        nxt = rank_of(f[-1]) % 13 + 1 if spice2 else rank_of(f[-1]) + 1
        return len(f) < 13 and rank_of(card) == nxt

    cols = {i: z[f"column{i}"] for i in range(1, 9)}
    moves = []
    for a, ca in cols.items():
        if not ca:
            continue
        for b, cb in cols.items():
            if a != b and (not cb or rank_of(ca[-1]) == below(rank_of(cb[-1]))):
                moves.append(f"shift column{a} column{b}")
        if fits_home(ca[-1]):
            moves.append(f"home column{a}")
    return sorted(moves)


def castle_after(z: Zones, text: str) -> Zones:
    words = text.split()
    if words[0] == "shift":
        return moved(z, words[1], words[2])
    card = z[words[1]][-1]
    return moved(z, words[1], f"foundation-{SUIT_NAMES[suit_of(card)]}")


def moved(z: Zones, source: str, dest: str) -> Zones:
    out = {k: list(v) for k, v in z.items()}
    out[dest].append(out[source].pop())
    return out


def reference(name: str) -> tuple[Callable[[Zones], list[str]], Callable[[Zones, str], Zones]]:
    if name == CALCULATION:
        return calculation_moves, calculation_after
    return (lambda z: castle_moves(z, name == SPICE2)), castle_after


# ---------------------------------------------------------------------- checks
def cards_in_one_place(g: Game, st_: State) -> None:
    """The 52 cards, each in exactly one zone: from the state's slots and from the view."""
    ids = g.all_card_ids(st_)
    assert sorted(ids) == list(range(52))
    texts = sorted(norm(c) for cs in zones_of(g, st_).values() for c in cs)
    assert texts == sorted(ALL_CARDS)
    seen = 0
    for zone in view(g, st_, 1)["zones"].values():
        seen += zone["hidden"] if isinstance(zone, dict) else len(zone)
    assert seen == 52


def walk(g: Game, data: st.DataObject, max_moves: int,
         each: Callable[[State, list[tuple], int], None] | None = None
         ) -> tuple[int, list[tuple], State]:
    """Play from a drawn seed, each move drawn from the legal ones, until the end or
    `max_moves`; call `each(state, log, seed)` on every state reached."""
    seed = data.draw(SEEDS, label="seed")
    state = g.new_state(seed)
    log: list[tuple] = []
    while True:
        if each is not None:
            each(state, log, seed)
        moves = g.legal_moves(state)
        if not moves or len(log) >= max_moves:
            return seed, log, state
        move = data.draw(st.sampled_from(moves), label=f"move {len(log) + 1}")
        log.append(move)
        state = g.apply(state, move)


games = pytest.mark.parametrize("name", ALL_GAMES)


# ---------------------------------------------------------------------- the properties
@games
@WALK
@given(data=st.data())
def test_legal_moves_and_their_effects_follow_the_rules(name, data):
    g = compile_game(name)
    rule_moves, rule_after = reference(name)

    def check(state: State, log: list[tuple], seed: int) -> None:
        cards_in_one_place(g, state)
        z = zones_of(g, state)
        texts = g.legal_texts(state)
        assert len(set(texts)) == len(texts)
        assert sorted(texts) == rule_moves(z)
        assert g.is_terminal(state) == (not texts)
        assert g.check_invariants(state) == []
        if name in CASTLES:
            assert len(texts) <= 64
        for m in g.legal_moves(state):  # every listed move applies, and does what it says
            after = g.apply(state, m)
            assert zones_of(g, after) == rule_after(z, g.move_text(m))
            assert g.parse_move(state, g.move_text(m)) == m

    walk(g, data, 150, check)


@games
@WALK
@given(data=st.data())
def test_moves_that_are_not_listed_are_rejected(name, data):
    g = compile_game(name)
    previous: list[tuple] = []

    def check(state: State, log: list[tuple], seed: int) -> None:
        moves = g.legal_moves(state)
        unlisted = [m for m in previous if m not in moves]
        player, mid = (moves or previous or [(1, 0)])[0][:2]
        unlisted += [(player, len(g.move_names) + 3), (player + 1, mid), (player, mid, 99, 99),
                     (player, mid, -1), ()]
        if name == CALCULATION:
            unlisted += [g.build_move(player, "build", 5), g.build_move(player, "lift", 1, 0)]
        else:
            unlisted += [g.build_move(player, "home", "deck"),
                         g.build_move(player, "shift", "deck", "column1")]
        saved = g.to_json(state)
        for bad in unlisted:
            assert bad not in moves
            with pytest.raises(IllegalMove) as e:
                g.apply(state, bad)
            assert str(e.value) and "\n" not in str(e.value)
        assert g.to_json(state) == saved
        previous[:] = moves

    walk(g, data, 150, check)


@games
@WALK
@given(data=st.data())
def test_replaying_the_log_gives_an_equal_state(name, data):
    g = compile_game(name)
    seed, log, state = walk(g, data, data.draw(st.integers(0, 200), label="length"))
    again = g.replay(seed, log)
    assert again == state
    assert hash(again) == hash(state)
    assert g.legal_moves(again) == g.legal_moves(state)
    assert g.replay(seed, [g.parse_move(s, t) for s, t in _texts(g, seed, log)]) == state


def _texts(g: Game, seed: int, log: list[tuple]) -> list[tuple[State, str]]:
    """Each move of a log as text, with the state it was made in."""
    out = []
    state = g.new_state(seed)
    for m in log:
        out.append((state, g.move_text(m)))
        state = g.apply(state, m)
    return out


@games
@WALK
@given(data=st.data())
def test_json_round_trip_gives_an_equal_state(name, data):
    g = compile_game(name)

    def check(state: State, log: list[tuple], seed: int) -> None:
        back = g.from_json(g.to_json(state))
        assert back == state
        assert g.legal_moves(back) == g.legal_moves(state)
        assert g.is_terminal(back) == g.is_terminal(state)
        assert view(g, back, 1) == view(g, state, 1)

    walk(g, data, 150, check)


@games
@settings(max_examples=6, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_every_game_ends_within_its_limit(name, data):
    g = compile_game(name)
    limit = CALCULATION_MAX_MOVES if name == CALCULATION else g.limit
    seed, log, state = walk(g, data, limit + 1)
    assert len(log) <= limit
    assert g.is_terminal(state)
    assert g.legal_moves(state) == []
    assert g.end_reason(state) in g.end_reasons + [g.limit_reason]
    score = g.scores(state)[0]
    assert g.results(state) == ["win" if score == 52 else "loss"]
    assert score == sum(len(g.zone_cards(state, z)) for z in g.zone_names("foundation"))


@games
@settings(max_examples=25, deadline=None, database=None)
@given(seed=SEEDS, choices=st.integers(min_value=0))
def test_random_playouts_end_and_keep_every_card(name, seed, choices):
    g = compile_game(name)
    slots, n = g.random_playout(seed, random.Random(choices))
    state = g.final_state(slots)
    assert g.is_terminal(state)
    assert n <= (CALCULATION_MAX_MOVES if name == CALCULATION else g.limit)
    cards_in_one_place(g, state)
    assert g.check_invariants(state) == []
    if name == CALCULATION:
        assert n >= 2 * 48  # every card of the stock was turned and placed
        assert g.zone_cards(state, "stock") == [] and g.zone_cards(state, "turned") == []


@pytest.mark.parametrize("name", CASTLES)
@settings(max_examples=30, deadline=None, database=None)
@given(seed=SEEDS)
def test_castle_deals_are_permutations_in_the_right_shape(name, seed):
    g = compile_game(name)
    state = g.new_state(seed)
    cards_in_one_place(g, state)
    sizes = [len(g.zone_cards(state, f"column{i}")) for i in range(1, 9)]
    aces = [g.zone_cards(state, f"foundation-{SUIT_NAMES[s]}") for s in SUIT_LETTERS]
    if name == "besieged-castle":
        assert sizes == [6] * 8
        assert [[norm(c) for c in f] for f in aces] == [[f"A{s}"] for s in SUIT_LETTERS]
    else:
        assert sizes == [7] * 4 + [6] * 4
        assert aces == [[], [], [], []]
