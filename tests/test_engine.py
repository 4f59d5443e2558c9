"""The engine's own API: positions by name, moves by name, keys, and per-call events."""

from __future__ import annotations

import json
import random
import sys
import threading

import pytest
from cardgame.interpreter.engine import Game, Move, Position, State, compile_game
from cardgame.interpreter.errors import CardgameError, IllegalMove


@pytest.fixture(scope="module")
def arsene() -> Game:
    return compile_game("arsene", 4)


def walk(g: Game, seed: int, steps: int) -> list[tuple[State, Move]]:
    rng = random.Random(seed)
    st = g.new_state(seed)
    out = []
    for _ in range(steps):
        if g.is_terminal(st):
            break
        m = rng.choice(g.legal_moves(st))
        out.append((st, m))
        st = g.apply(st, m)
    return out


# ---------------------------------------------------------------------- Position
def test_position_places_cards_by_zone_name_and_sets_variables(arsene: Game) -> None:
    g = arsene
    st = (Position(g, seed=2)
          .zone("hand[p1]", "As Kd 10h")  # `decl[index]` names a zone too
          .zone("trick", ["Qc"])
          .var("chips", [3, 0, 1, 2])
          .var("chips[p2]", 5)
          .var("trumps", True)
          .state())
    assert g.zone_cards(st, "hand-p1") == ["A♠", "K♦", "10♥"]
    assert g.zone_cards(st, "trick") == ["Q♣"]
    assert g.var(st, "chips") == [3, 5, 1, 2] and g.var(st, "chips[p4]") == 2
    assert g.var(st, "trumps") is True
    assert sorted(g.all_card_ids(st)) == list(range(52))
    before = g.new_state(2)
    # the cards p1 held that are not placed again went on top of the deck's rest (`deck`)
    gone = [c for c in g.zone_cards(before, "hand-p1") if c not in ("A♠", "K♦", "10♥", "Q♣")]
    assert g.zone_cards(st, "deck")[-len(gone):] == gone


def test_position_refuses_what_does_not_exist(arsene: Game) -> None:
    pos = Position(arsene)
    with pytest.raises(CardgameError, match="no zone 'hand-p9'"):
        pos.zone("hand-p9", [])
    with pytest.raises(CardgameError, match="no element 'p9'"):
        pos.zone("hand[p9]", [])
    with pytest.raises(CardgameError, match="no variable 'chip'"):
        pos.var("chip", 1)
    with pytest.raises(CardgameError, match="has 4 elements, given 3"):
        pos.var("chips", [1, 2, 3])
    with pytest.raises(CardgameError, match="every copy is used"):
        pos.zone("trick", "As").zone("widow", "As")
    with pytest.raises(CardgameError, match="simultaneous"):
        pos.pending([])
    with pytest.raises(CardgameError, match="loses or duplicates"):
        Position(arsene).zone("trick", [0, 0]).state()


def test_position_sets_who_decides_and_the_move_counter() -> None:
    g = compile_game("interaction", 3)
    st = g.new_state(1)
    for p in (1, 2, 3):
        st = g.apply(st, g.legal_moves(st, p)[0])
    assert g.phase(st) == "Play"
    other = next(p for p in (1, 2, 3) if p != g.to_move(st)[0])
    moved = Position(g, st).var("current", other).to_move(other).moves_played(40).state()
    assert g.to_move(moved) == (other,) and g.moves_played(moved) == 40
    assert g.position_key(moved) != g.position_key(st)
    assert g.differences(st, moved) == ["moves played", "who decides", "variable current"]


def test_make_state_is_position_in_one_call() -> None:
    g = compile_game("calculation")
    a = g.make_state({"turned": ["2♥"], "stock": ["9♣"]}, seed=1, rest="stock")
    b = Position(g, seed=1, rest="stock").zone("turned", "2h").zone("stock", "9c").state()
    assert a == b and g.zone_cards(a, "stock")[-1] == "9♣"


# ---------------------------------------------------------------------- moves and keys
def test_build_move_names_moves_by_text_legal_or_not() -> None:
    g = compile_game("besieged-castle")
    st = g.new_state(3)
    legal = g.legal_moves(st)
    for m in legal:
        assert g.build_move(*([m[0], g.move_names[m[1]]] + g.move_text(m).split()[1:])) == m
    bad = g.build_move(1, "shift", "deck", "column1")
    with pytest.raises(IllegalMove):
        g.apply(st, bad)
    with pytest.raises(CardgameError, match="takes 2 argument"):
        g.build_move(1, "shift", "column1")


def test_position_key_ignores_only_the_move_counter(arsene: Game) -> None:
    g = arsene
    st = g.new_state(4)
    later = Position(g, st).moves_played(17).state()
    assert later != st and g.position_key(later) == g.position_key(st)
    assert g.position_key(Position(g, st).var("deals", 9).state()) != g.position_key(st)


def test_apply_unsettled_stops_before_the_reached_state_is_settled(arsene: Game) -> None:
    for st, m in walk(arsene, 3, 80):
        unsettled = arsene.apply_unsettled(st, m)
        assert arsene.settle(unsettled) == arsene.apply(st, m)
        assert arsene.legal_moves(unsettled) == arsene.legal_moves(arsene.apply(st, m))


# ---------------------------------------------------------------------- events
def test_events_belong_to_the_call_that_asked_for_them(arsene: Game) -> None:
    """While one call observes its step, calls in other threads (plain or observed) run on
    the same game: none of their log lines reach the observed call, and its own all do."""
    g = arsene
    steps = [(st, m) for st, m in walk(g, 11, 400) if g.apply_with_events(st, m)[1]]
    assert len(steps) > 20
    want = [g.apply_with_events(st, m) for st, m in steps]
    stop = threading.Event()

    def other_calls(observe: bool) -> None:
        while not stop.is_set():
            for st, m in steps:
                if observe:
                    g.apply_with_events(st, m)
                else:
                    g.apply(st, m)
                g.new_state(5)

    threads = [threading.Thread(target=other_calls, args=(k % 2 == 0,)) for k in range(2)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often, in the middle of steps
    try:
        for t in threads:
            t.start()
        for _ in range(150):
            assert [g.apply_with_events(st, m) for st, m in steps] == want
            assert g.start_with_events(5)[1] == g.start_with_events(5)[1] != []
    finally:
        stop.set()
        for t in threads:
            t.join()
        sys.setswitchinterval(interval)


def test_a_player_variable_from_outside_the_rules_holds_a_player() -> None:
    # the optimised code reads a player variable that the rules keep a player without a
    # check, so a value that is not one is refused where it comes in
    g = compile_game("interaction", 3)
    st = g.new_state(1)
    for bad in (0, 4, "p1", 1.0, True, None):  # `current` is only ever given players
        with pytest.raises(CardgameError, match=r"'current' holds a player, 1\.\.3"):
            Position(g, st).var("current", bad)
    other = 3 if g.var(st, "current") != 3 else 2
    moved = Position(g, st).var("current", other).state()
    assert g.var(moved, "current") == other
    # a saved state: the one entry that differs is `current`
    data, data2 = json.loads(g.to_json(st)), json.loads(g.to_json(moved))
    at = [i for i, (a, b) in enumerate(zip(data["slots"], data2["slots"], strict=True)) if a != b]
    assert len(at) == 1
    for bad in (9, None):
        data2["slots"][at[0]] = bad
        with pytest.raises(CardgameError,
                           match="the saved state is broken: 'current' holds a player"):
            g.from_json(json.dumps(data2))
    data2["slots"][at[0]] = 2
    assert g.var(g.from_json(json.dumps(data2)), "current") == 2
    # Scopa's `last_taker` is none until a capture (so it is read with its check): it
    # takes none from outside too; Arsène's `dealer` is only ever a player
    scopa = compile_game("scopa")
    assert scopa.var(Position(scopa, scopa.new_state(1)).var("last_taker", None).state(),
                     "last_taker") is None
    arsene = compile_game("arsene", 4)
    with pytest.raises(CardgameError, match="'dealer' holds a player, 1..4, not None"):
        Position(arsene, arsene.new_state(1)).var("dealer", None)


def test_a_saved_state_stands_at_a_decision() -> None:
    """A saved game not over stands at one of the flow's decisions: any other place (a
    node that is not a decision, one out of range, a value that is not a node) is refused
    where it comes in, and not met later as an error inside `apply`."""
    for name in ("chains", "interaction"):
        g = compile_game(name)
        st = g.new_state(1)
        assert g.from_json(g.to_json(st)) == st
        data = json.loads(g.to_json(st))
        here = data["slots"][0]
        for bad in (-1, 999, here - 1, "x\x1b[2J", None):
            data["slots"][0] = bad
            with pytest.raises(CardgameError, match=r"the saved state is broken: its place "
                                                     r"in the flow \(.*\) is not a decision"
                               ) as e:
                g.from_json(json.dumps(data))
            assert "\x1b" not in str(e.value)  # what the file holds, printed escaped


# ---------------------------------------------------------------------- the API's speed
def test_a_state_that_apply_reaches_is_a_state_like_any_other(arsene: Game) -> None:
    """`apply` builds its states without a call of `State.__init__`, and makes their
    slots tuple only when first read: each is still a State, equal (and hashing alike)
    to the one built from the same slots, a value that pickles and saves as JSON, and
    applying two moves to it leaves it as it was, whether its tuple is made yet or not."""
    import copy
    import pickle

    g = arsene
    for st, m in walk(g, 5, 60):
        after = g.apply(st, m)
        assert isinstance(after, State)
        legal = g.legal_moves(after)
        # before anything reads the slots: two moves from it, a pickle, a copy
        children = [g.apply(after, mv) for mv in (legal[:1] + legal[-1:] if legal else [])]
        back = pickle.loads(pickle.dumps(after))
        copied = copy.copy(after)
        plain = g.from_json(g.to_json(after))  # a State built from the slots
        assert plain == after and after == plain and hash(plain) == hash(after)
        assert back == after and copied == after and hash(back) == hash(after)
        for x in (plain, back, copied):
            assert g.legal_moves(x) == legal and g.is_terminal(x) == g.is_terminal(after)
            assert g.to_move(x) == g.to_move(after) and g.scores(x) == g.scores(after)
            assert g.zone_contents(x) == g.zone_contents(after)
            assert g.variables(x) == g.variables(after)
        # the same moves from the plain state reach the same states: no slot of `after`
        # changed under the first move, and applying again gives an equal state
        for mv, child in zip(legal[:1] + legal[-1:], children, strict=False):
            assert g.apply(plain, mv) == child == g.apply(after, mv)
        if len(children) == 2 and legal[0] != legal[-1]:
            assert children[0] != children[1]
        assert g.to_json(after) == g.to_json(plain)
        with pytest.raises(IllegalMove):  # still refused, before any rule runs
            g.apply(after, (m[0], m[1], "no such card"))


def test_a_reached_states_slots_are_made_once_even_by_threads() -> None:
    """Threads that first read a reached state's slots at the same time (hashing it,
    saving it) all see the same slots, and the state stays equal to itself."""
    g = compile_game("chains")
    rng = random.Random(2)
    states = []
    st = g.new_state(2)
    while g.legal_moves(st) and len(states) < 200:
        st = g.apply(st, rng.choice(g.legal_moves(st)))
        states.append(st)
    out: list[list[tuple[int, str]]] = [[] for _ in range(4)]
    go = threading.Barrier(4)

    def read(k: int) -> None:
        go.wait()
        out[k] = [(hash(s), g.to_json(s)) for s in states]

    threads = [threading.Thread(target=read, args=(k,)) for k in range(4)]
    was = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch as often as they can
    try:
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        sys.setswitchinterval(was)
    assert out[0] == out[1] == out[2] == out[3] and len(out[0]) == len(states)
    assert all(s == g.from_json(text) for s, (_, text) in zip(states, out[0], strict=True))
    # a thread that found the state's tuple not made yet, and finds it made when it
    # goes to make it (another thread was first), reads the one made
    from cardgame.interpreter.engine.state import Reached, tuplify

    make = vars(Reached)["slots"].fget
    st = g.apply(states[0], g.legal_moves(states[0])[0])
    assert isinstance(st, Reached)
    g.to_json(st)  # made here (saving it reads the slots)
    assert not isinstance(st, Reached)  # and a plain State now
    assert make(st) == tuplify(json.loads(g.to_json(st))["slots"])


def test_a_game_keeps_few_attributes() -> None:
    """A game has at most 29 attributes of its own, counting those set after it is
    made (its recipe, the refusals explained): CPython 3.11 keeps an object's attributes
    compact up to that many, and only then specialises the method calls on it
    (`game.apply`, `game.legal_moves`: a third cheaper in the loop of bots and search).
    What the rules or the generated code hold already is a property."""
    for name, players in (("arsene", 4), ("chains", None), ("interaction", 3)):
        g = compile_game(name, players)
        g.replay(1, g.legal_moves(g.new_state(1))[:1])
        assert g.spec is not None
        # (the refusals, made when the first refusal is explained, counted in any case)
        assert len(vars(g)) + ("_refusals" not in vars(g)) <= 29, sorted(vars(g))
