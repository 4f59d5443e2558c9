"""Hidden information does not leak, in every game with cards some seat cannot see.

The property: re-deal the cards a seat cannot see (permute the card ids among the zone
slots invisible to that seat, each zone keeping its size) and the seat's view and its list
of legal moves stay exactly the same. At a simultaneous choice, a seat's view does not
tell which card another seat has chosen.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from cardgame.interpreter.engine.game import Game, State
from cardgame.interpreter.engine.pipeline import compile_game

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


def invisible_slots(g: Game, seat: int | None) -> list[int]:
    """The zone slots whose cards `seat` cannot see (None: a spectator)."""
    out = []
    for z in g.gen.zone_slots:
        vis = g.checked.zones[z.decl].visibility
        if vis == "hidden" or (vis == "owner" and (seat is None or z.owner != seat)):
            out.append(z.slot)
    return out


def redeal(g: Game, st: State, seat: int | None, rng: random.Random) -> State:
    """The same state with the cards `seat` cannot see dealt again at random."""
    s = list(st.slots)
    slots = invisible_slots(g, seat)
    cards = [c for z in slots for c in s[z]]
    rng.shuffle(cards)
    for z in slots:
        k = len(s[z])
        s[z], cards = tuple(cards[:k]), cards[k:]
    return State(tuple(s))


def seat_sees(g: Game, st: State, seat: int | None) -> tuple[dict[str, Any], list[Any]]:
    moves = [] if seat is None else list(g.legal_moves(st, seat))
    return g.view(st, seat), moves


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
                        other = redeal(g, st, seat, rng)
                        changed += other != st
                        assert seat_sees(g, other, seat) == want, (seat, g.phase(st))
                        checked += 1
            st = g.apply(st, rng.choice(g.legal_moves(st)))
            step += 1
    assert checked > 50
    assert changed > checked // 2  # the re-deals really moved hidden cards


def test_hidden_zones_show_only_their_size(g: Game) -> None:
    st = g.new_state(7)
    for seat in seats(g):
        view = g.view(st, seat)["zones"]
        hidden = set(invisible_slots(g, seat))
        for z in g.gen.zone_slots:
            if z.slot in hidden:
                assert view[z.text] == {"hidden": len(st.slots[z.slot])}
            else:
                assert view[z.text] == g.zone_cards(st, z.text)


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
                assert g.view(o, q)["pending"] == [{"player": q, "move": g.move_text(m)}]
        # With all but one chosen, the last seat still sees nothing of the others' choices.
        partial = st
        for q in range(1, n):
            partial = g.apply(partial, g.legal_moves(partial, q)[-1])
        alt = st
        for q in range(1, n):
            alt = g.apply(alt, g.legal_moves(alt, q)[0])
        assert seat_sees(g, partial, n) == seat_sees(g, alt, n)
        assert g.to_move(partial) == (n,)
