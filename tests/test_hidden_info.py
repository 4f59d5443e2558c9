"""Hidden information does not leak, in every game with cards some seat cannot see.

The property: re-deal the cards a seat cannot see (`observe.determinize`: the card ids
shuffled among the zones invisible to that seat, each zone keeping its size) and the
seat's view and its list of legal moves stay exactly the same. At a simultaneous choice, a seat's view does not
tell which card another seat has chosen.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from cardgame.interpreter.engine import Game, State, compile_game
from cardgame.interpreter.observe import determinize, hidden_zones, view

CONFIGS: list[tuple[str, int, dict[str, str]]] = [
    ("interaction", 3, {}),
    ("interaction", 4, {}),
    ("arsene", 3, {"advanced": "false"}),
    ("arsene", 4, {"advanced": "false"}),
    ("arsene", 3, {"advanced": "true"}),
    ("arsene", 4, {"advanced": "true"}),
    ("chains", 1, {"mode": "beginner"}),  # one seat, but a face-down stock
    ("chains", 1, {"mode": "advanced"}),
]


def config_id(c: tuple[str, int, dict[str, str]]) -> str:
    return f"{c[0]}-{c[1]}p" + "".join(f"-{k}={v}" for k, v in sorted(c[2].items()))


@pytest.fixture(params=CONFIGS, ids=config_id, scope="module")
def g(request: pytest.FixtureRequest) -> Game:
    name, n, settings = request.param
    return compile_game(name, players=n, settings=settings)


def seats(g: Game) -> list[int | None]:
    return [None, *range(1, g.players + 1)]


def seat_sees(g: Game, st: State, seat: int | None) -> tuple[dict[str, Any], list[Any]]:
    moves = [] if seat is None else list(g.legal_moves(st, seat))
    return view(g, st, seat), moves


def test_redealing_unseen_cards_changes_nothing_a_seat_sees(g: Game) -> None:
    rng = random.Random(2024)
    checked = changed = 0
    for seed in range(6):
        st = g.new_state(seed)
        step = 0
        while not g.is_terminal(st):
            if step % 3 == 0:
                for seat in seats(g):
                    want = seat_sees(g, st, seat)
                    for _ in range(2):
                        other = determinize(g, st, seat, rng)
                        changed += any(g.zone_ids(other, z) != g.zone_ids(st, z)
                                       for z in hidden_zones(g, seat))
                        assert seat_sees(g, other, seat) == want, (seat, g.phase(st))
                        checked += 1
            st = g.apply(st, rng.choice(g.legal_moves(st)))
            step += 1
    assert checked > 50
    assert changed > checked // 2  # the re-deals really moved hidden cards


def test_hidden_zones_show_only_their_size(g: Game) -> None:
    st = g.new_state(7)
    for seat in seats(g):
        zones = view(g, st, seat)["zones"]
        hidden = set(hidden_zones(g, seat))
        assert hidden == {z.name for z in g.zones if z.visibility == "hidden" or (
            z.visibility == "owner" and (seat is None or z.owner != seat))}
        for z in g.zone_names():
            if z in hidden:
                assert zones[z] == {"hidden": len(g.zone_cards(st, z))}
            else:
                assert zones[z] == g.zone_cards(st, z)


SIMULTANEOUS: list[tuple[str, int, dict[str, str]]] = [
    ("interaction", 3, {}),
    ("interaction", 4, {}),
    ("arsene", 3, {"advanced": "false"}),
    ("arsene", 3, {"advanced": "true"}),
]


def at_simultaneous_choice(g: Game, seed: int) -> State:
    st = g.new_state(seed)
    while len(g.to_move(st)) < 2:
        st = g.apply(st, g.legal_moves(st)[0])
    return st


@pytest.mark.parametrize("config", SIMULTANEOUS, ids=config_id)
def test_pending_choices_stay_secret(config: tuple[str, int, dict[str, str]]) -> None:
    name, n, settings = config
    g = compile_game(name, players=n, settings=settings)
    for seed in range(4):
        st = at_simultaneous_choice(g, seed)
        assert g.to_move(st) == tuple(range(1, n + 1))
        # Seat q chooses; whatever q chose, every other seat sees the same.
        for q in range(1, n + 1):
            options = g.legal_moves(st, q)
            assert len(options) >= 2
            outcomes = [g.apply(st, m) for m in options]
            for seat in [None, *range(1, n + 1)]:
                if seat == q:
                    continue
                seen = [seat_sees(g, o, seat) for o in outcomes]
                assert all(x == seen[0] for x in seen)
                assert seen[0][0]["pending"] == [{"player": q, "move": "(chosen)"}]
            for m, o in zip(options, outcomes, strict=True):
                assert view(g, o, q)["pending"] == [{"player": q, "move": g.move_text(m)}]
        # With all but one chosen, the last seat still sees nothing of the others' choices.
        partial = st
        for q in range(1, n):
            partial = g.apply(partial, g.legal_moves(partial, q)[-1])
        alt = st
        for q in range(1, n):
            alt = g.apply(alt, g.legal_moves(alt, q)[0])
        assert seat_sees(g, partial, n) == seat_sees(g, alt, n)
        assert g.to_move(partial) == (n,)


# ---------------------------------------------------------------------- determinize
def test_a_world_depends_only_on_what_the_seat_sees(g: Game) -> None:
    """Two states that look the same to a seat give the same world for the same rng; the
    seat's view is kept, and the world's random seed is its own."""
    rng = random.Random(7)
    for seed in range(3):
        st = g.new_state(seed)
        for _ in range(30):
            if g.is_terminal(st):
                break
            for seat in seats(g):
                other = determinize(g, st, seat, rng)  # the same view, other hidden cards
                a = determinize(g, st, seat, random.Random(1))
                b = determinize(g, other, seat, random.Random(1))
                assert a == b
                assert view(g, a, seat) == view(g, st, seat)
                assert g.legal_moves(a, seat) == g.legal_moves(st, seat) if seat else True
                assert a != determinize(g, st, seat, random.Random(2))
            st = g.apply(st, rng.choice(g.legal_moves(st)))


@pytest.mark.parametrize("config", SIMULTANEOUS, ids=config_id)
def test_a_world_makes_the_secret_choices_of_others_again(
        config: tuple[str, int, dict[str, str]]) -> None:
    name, n, settings = config
    g = compile_game(name, players=n, settings=settings)
    st = at_simultaneous_choice(g, 1)
    mine = g.legal_moves(st, n)[0]
    worlds = set()
    for m in g.legal_moves(st, 1):  # whatever p1 chose in secret...
        chosen = g.apply(g.apply(st, m), mine)
        world = determinize(g, chosen, n, random.Random(5))
        assert g.pending(world)[-1] == mine  # ...p{n} keeps its own choice
        assert g.zone_ids(world, f"hand-p{n}") == g.zone_ids(chosen, f"hand-p{n}")
        worlds.add(world)
    assert len(worlds) == 1  # ...and p{n}'s world is the same


def test_a_world_of_an_open_game_differs_only_in_its_random_seed() -> None:
    g = compile_game("besieged-castle")
    st = g.new_state(4)
    assert hidden_zones(g, 1) == ["deck"] and g.zone_ids(st, "deck") == ()
    a, b = (determinize(g, st, 1, random.Random(k)) for k in (1, 2))
    assert a != b and a != st  # the seed
    assert g.differences(a, st) == ["the random seed"]
