"""Shared fixtures and position builders for the game tests.

Positions are built with `Position` (by zone name), always with all 52 cards placed
explicitly in the game's own zones (nothing is left in the hidden `deck`), so that a
scenario is exactly the position its test describes, whatever the seed's deal was.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

import pytest
from cardgame.interpreter.engine import Game, Move, Position, State, compile_game

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_LETTERS = "shdc"  # the deck order: spades, hearts, diamonds, clubs
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
SUIT_OF_SYMBOL = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
ALL_CARDS = tuple(f"{r}{s}" for s in SUIT_LETTERS for r in RANKS)

CALCULATION = "calculation"
CASTLE = "besieged-castle"
SPICE1 = "besieged-castle-spice-1"
SPICE2 = "besieged-castle-spice-2"
ALL_GAMES = (CALCULATION, CASTLE, SPICE1, SPICE2)
CASTLES = (CASTLE, SPICE1, SPICE2)

# Pile k of Calculation, from the rules' table.
CALCULATION_SEQUENCES = {
    1: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13),
    2: (2, 4, 6, 8, 10, 12, 1, 3, 5, 7, 9, 11, 13),
    3: (3, 6, 9, 12, 2, 5, 8, 11, 1, 4, 7, 10, 13),
    4: (4, 8, 12, 3, 7, 11, 2, 6, 10, 1, 5, 9, 13),
}


# ---------------------------------------------------------------------- cards
def rank_of(card: str) -> int:
    """The rank of a card text: 'A♠' -> 1, '10h' -> 10, 'K♣' -> 13."""
    return RANKS.index(card[:-1]) + 1


def suit_of(card: str) -> str:
    """The suit letter of a card text: 'A♠' -> 's', '10h' -> 'h'."""
    return SUIT_OF_SYMBOL.get(card[-1], card[-1])


def norm(card: str) -> str:
    """One spelling for a card: '10♥' -> '10h'."""
    return f"{card[:-1]}{suit_of(card)}"


def cards(text: str) -> list[str]:
    """'Ks Qh 10d' -> ['Ks', 'Qh', '10d']."""
    return text.split()


def suit_run(suit: str, first: int, last: int) -> list[str]:
    """The cards of one suit from rank `first` to `last`: suit_run('s', 1, 3) -> A 2 3."""
    return [f"{RANKS[r - 1]}{suit}" for r in range(first, last + 1)]


# ---------------------------------------------------------------------- games
@pytest.fixture(scope="session")
def calculation() -> Game:
    return compile_game(CALCULATION)


@pytest.fixture(scope="session")
def castle() -> Game:
    return compile_game(CASTLE)


@pytest.fixture(scope="session")
def spice1() -> Game:
    return compile_game(SPICE1)


@pytest.fixture(scope="session")
def spice2() -> Game:
    return compile_game(SPICE2)


def zones_of(g: Game, st: State) -> dict[str, list[str]]:
    """Every zone of a state as card texts, bottom first."""
    return {z: g.zone_cards(st, z) for z in g.zone_names()}


def legal(g: Game, st: State) -> list[str]:
    return sorted(g.legal_texts(st))


def random_walk(g: Game, seed: int, rng: random.Random, moves: int) -> State:
    """A random game from deal `seed`, at most `moves` moves, checking the declared
    invariants after every move: the state where it stopped."""
    st = g.new_state(seed)
    for _ in range(moves):
        if g.is_terminal(st):
            break
        st = g.apply(st, rng.choice(g.legal_moves(st)))
        assert g.check_invariants(st) == []
    return st


def random_history(g: Game, seed: int, rng: random.Random, moves: int
                   ) -> tuple[State, list[Move]]:
    """A game from deal `seed` of `moves` uniformly random moves (`rng.choice` of the legal
    moves; fewer if it ends): the state reached and the moves played."""
    st = g.new_state(seed)
    played: list[Move] = []
    while len(played) < moves and not g.is_terminal(st):
        m = rng.choice(g.legal_moves(st))
        played.append(m)
        st = g.apply(st, m)
    return st, played


def build_position(g: Game, zones: Mapping[str, Sequence[str]]) -> State:
    """A position where every card is placed explicitly; fails if one is missing or twice."""
    placed = [norm(c) for zone in zones.values() for c in zone]
    missing = sorted(set(ALL_CARDS) - set(placed))
    twice = sorted({c for c in placed if placed.count(c) > 1})
    assert not missing and not twice, f"bad test position: missing {missing}, twice {twice}"
    pos = Position(g, rest="deck")
    for name, cards_there in zones.items():
        pos.zone(name, cards_there)
    st = pos.state()
    assert g.zone_cards(st, "deck") == []
    for name, want in zones.items():
        assert [norm(c) for c in g.zone_cards(st, name)] == [norm(c) for c in want]
    assert g.check_invariants(st) == [], "the test position breaks a declared invariant"
    return st


# ---------------------------------------------------------------------- Calculation
def calculation_position(
    g: Game,
    *,
    stock: Iterable[int | str] = (),
    turned: Iterable[int | str] = (),
    foundations: Mapping[int, Iterable[int | str]] | None = None,
    waste: Mapping[int, Iterable[int | str]] | None = None,
    rest: str = "stock",
) -> State:
    """A Calculation position. Cards are ranks (suits play no part: a free suit is chosen)
    or card texts. Piles not given start as at the deal (A, 2, 3, 4). Every card not named
    goes to the bottom of `rest` (the stock unless said otherwise), so the named cards stay
    on top; `stock` lists the stock bottom first, its last card is drawn next."""
    piles: dict[int, Iterable[int | str]] = {1: [1], 2: [2], 3: [3], 4: [4]}
    piles.update(foundations or {})
    layout: dict[str, Iterable[int | str]] = {"stock": stock, "turned": turned}
    layout.update({f"foundation{k}": piles[k] for k in range(1, 5)})
    layout.update({f"waste{w}": (waste or {}).get(w, ()) for w in range(1, 5)})
    named = {c for zone in layout.values() for c in zone if isinstance(c, str)}
    used = {norm(c) for c in named}
    zones: dict[str, list[str]] = {}
    for zname, items in layout.items():
        out = []
        for item in items:
            if isinstance(item, str):
                out.append(norm(item))
                continue
            free = next((f"{RANKS[item - 1]}{s}" for s in SUIT_LETTERS
                         if f"{RANKS[item - 1]}{s}" not in used), None)
            assert free is not None, f"bad test position: a fifth card of rank {item}"
            used.add(free)
            out.append(free)
        zones[zname] = out
    zones[rest] = [c for c in ALL_CARDS if c not in used] + zones[rest]
    return build_position(g, zones)


def calculation_piles_done(*ks: int) -> dict[int, tuple[int, ...]]:
    """Foundations finished (all 13 cards) for the given piles."""
    return {k: CALCULATION_SEQUENCES[k] for k in ks}


# ---------------------------------------------------------------------- Besieged Castle
def castle_position(
    g: Game,
    columns: Sequence[str],
    foundations: Mapping[str, int | str] | None = None,
) -> State:
    """A Besieged Castle position. `columns` has up to 8 strings of cards, bottom first
    ('Ks Qh'); missing columns are empty. `foundations` maps a suit letter to a rank n
    (that suit's A..n) or to a string of cards, bottom first ('3s 4s 5s'); missing suits
    are empty. All 52 cards must be placed."""
    zones: dict[str, list[str]] = {}
    for letter in SUIT_LETTERS:
        f = (foundations or {}).get(letter, 0)
        zones[f"foundation-{SUIT_NAMES[letter]}"] = (
            suit_run(letter, 1, f) if isinstance(f, int) else cards(f))
    for i in range(8):
        zones[f"column{i + 1}"] = cards(columns[i]) if i < len(columns) else []
    return build_position(g, zones)


def castle_moves(*texts: str) -> list[str]:
    return sorted(texts)


def choice_positions(game: Game, k: int, seed: int = 3) -> list[State]:
    """k positions with a real choice (more than one legal move), from one random game."""
    rng = random.Random(seed)
    s = game.new_state(seed)
    out: list[State] = []
    while not game.is_terminal(s) and len(out) < k:
        legal = game.legal_moves(s)
        if len(legal) > 1:
            out.append(s)
        s = game.apply(s, rng.choice(legal))
    return out


def assert_playout_is_the_api(g: Game, seed: int, rng_seed: int) -> None:
    """The fast path's random playout plays exactly the game that `legal_moves` + `apply`
    play with the same draws: the same number of moves and the same final state."""
    s, n = g.random_playout(seed, random.Random(rng_seed))
    rng = random.Random(rng_seed)
    st = g.new_state(seed)
    k = 0
    while not g.is_terminal(st):
        moves = g.legal_moves(st)
        st = g.apply(st, moves[rng.randrange(len(moves))])
        k += 1
    assert n == k
    assert g.final_state(s) == st
