"""The tenth session's speed rules for random playouts (issue 12, target 2: Arsène): each
rule's shape in the generated code or the engine, a test that fails with the rule switched
off, and the games played alike with and without it (`test_optimize.play_both` against the
plain code, or the same playouts with the rule off)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.engine.game import Game
from cardgame.interpreter.errors import RuleError
from test_optimize import play_both

# ---------------------------------------------------------------- the setup, once
# The setup builds the table the same way for every seed (stores, cards out of the game),
# then shuffles: the part before the first draw runs once per compiled game.
FIXED = """\
game "Fixed"
players 3
deck standard
zone stores: face up, row
zone out: face down, squared
zone hand[player]: owner, fanned
zone pile: face up, squared
var store[3]: list = []
var dealer: player = 1
var kept = 0
def tops = (count c in deck where c.rank >= 11)
proc deal_round() {
  shuffle deck
  deal 4 from deck to hand[players]
}
setup {
  for r in 1..3 {
    move first c in deck where c.suit == diamonds and c.rank == r to stores
  }
  store[1] = [1, 2]
  move each c in deck where c.rank == 13 to out
  kept = tops
  SPLIT
}
move play(c in hand[me]) "play {c}" { move c to pile }
flow {
  repeat 4 times {
    for p in players from dealer { p chooses play }
  }
}
score = size(pile)
result highest score
"""

# what follows the fixed part: the first statement that may draw, and what comes after
SPLITS = {
    "pick": "dealer = random p in players\n  deal_round()",
    "proc": "deal_round()\n  dealer = random p in players",
    "let": "let n = kept + 1\n  store[2] = [n]\n  deal_round()",
    "nothing drawn": "store[3] = [kept]\n  deal 4 from deck to hand[players]",
}


def _fixed_game(tmp_path: Path, split: str, **kw: Any) -> Game:
    path = tmp_path / f"fixed_{split.replace(' ', '_')}.cardgame"
    path.write_text(FIXED.replace("SPLIT", SPLITS[split]), encoding="utf-8")
    return compile_game(path, **kw)


def _counting(g: Game, name: str) -> list[int]:
    """Count the calls of a generated function (the namespace's, as the code calls it)."""
    calls = [0]
    f = g.ns[name]

    def counted(*a: Any) -> Any:
        calls[0] += 1
        return f(*a)

    g.ns[name] = counted
    return calls


@pytest.mark.parametrize("split", sorted(SPLITS))
def test_the_setup_before_its_first_draw_runs_once(tmp_path: Path, split: str) -> None:
    """The setup is split where it first may draw (a random pick, a shuffle in a procedure
    it calls) or binds a name the rest reads (`let`): `setup_fixed` runs once, on the
    first deal, and each deal copies its slots; the deals, the flow and the playouts are
    those of the plain code (which runs the whole setup each time)."""
    fast = _fixed_game(tmp_path, split)
    src = fast.gen.source
    fixed = src[src.index("def setup_fixed(s):"):src.index("def setup_drawn(s):")]
    drawn = src[src.index("def setup_drawn(s):"):src.index("\ndef ", src.index("def setup_drawn"))]
    assert "_pick" not in fixed and "_shuffle" not in fixed and "p_deal_round" not in fixed
    assert "_take_many" in fixed  # (the cards out of the game: the same every time)
    if split == "nothing drawn":
        assert "_deal(" in fixed and "pass" in drawn
    else:
        assert "p_deal_round" in drawn and ("_pick" in drawn) == (split != "let")
    calls = _counting(fast, "setup_fixed")
    plain = compile_game(tmp_path / f"fixed_{split.replace(' ', '_')}.cardgame", optimize=False)
    assert "setup_fixed" not in plain.gen.source
    for seed in range(6):
        a, b = fast.random_playout(seed, random.Random(seed)), plain.random_playout(
            seed, random.Random(seed))
        assert a == b
    assert calls[0] == 1  # the first deal's alone
    play_both(fast, plain, seeds=(1, 2, 3))


def test_a_setup_whose_fixed_part_fails_fails_at_each_deal(tmp_path: Path) -> None:
    """A rule error in the fixed part is not kept: every deal fails with it, as the plain
    code's does."""
    path = tmp_path / "failing.cardgame"
    path.write_text(FIXED.replace("SPLIT", SPLITS["pick"]).replace(
        "store[1] = [1, 2]", "store[1] = [1, 2]\n  store[2] = [(top of pile).rank]"),
        encoding="utf-8")
    for optimize in (True, False):
        g = compile_game(path, optimize=optimize)
        for seed in range(2):
            with pytest.raises(RuleError) as e:
                g.random_playout(seed, random.Random(seed))
            assert "(in setup)" in str(e.value) and "nothing" in str(e.value)


def test_a_fixed_part_that_would_draw_is_not_kept(tmp_path: Path) -> None:
    """The engine keeps the fixed part's slots only where it left the seed alone: run
    with a seed no generator takes, a part that draws (here: made to) fails, nothing is
    kept, and every deal runs the whole setup, drawing from its own seed."""
    g = _fixed_game(tmp_path, "pick")
    fixed_part = g.ns["setup_fixed"]

    def draws(s: list[Any]) -> None:
        fixed_part(s)
        s[g.gen.var_base["kept"]] = g.ns["_pick"](s, (1, 2, 3, 4, 5, 6, 7, 8), 0)

    g.ns["setup_fixed"] = draws
    try:
        g._fixed = False  # the whole setup at each deal
        ref = [g.random_playout(seed, random.Random(seed)) for seed in range(4)]
        assert len({r[0][g.gen.var_base["kept"]] for r in ref}) > 1
        g._fixed = None
        assert [g.random_playout(seed, random.Random(seed)) for seed in range(4)] == ref
        assert g._fixed is False
    finally:
        g.ns["setup_fixed"] = fixed_part
        g._fixed = None


def test_an_observed_deal_runs_the_whole_setup(tmp_path: Path) -> None:
    """While a call is observed, the setup runs whole: the events of the deal show every
    card the fixed part moves, as the plain code's do, after playouts made the copy."""
    fast = _fixed_game(tmp_path, "pick")
    plain = compile_game(tmp_path / "fixed_pick.cardgame", optimize=False)
    fast.random_playout(0, random.Random(0))
    assert fast._fixed
    a, b = fast.start_observed(5)[1], plain.start_observed(5)[1]
    assert a == b
    assert [e.card for e in a if e.dst == "stores"] == [26, 27, 28]  # the diamond A, 2, 3


def test_arsene_setup_is_split_before_the_dealer_is_drawn() -> None:
    """Arsène: the stores and the cards out of the game (3 players) are the fixed part;
    the random dealer starts the rest."""
    for players in (3, 4):
        src = compile_game("arsene", players).gen.source
        drawn = src[src.index("def setup_drawn(s):"):src.index("\ndef ", src.index("def setup_drawn"))]
        assert "_pick(s, PLAYERS" in drawn and drawn.count("\n") == 2


# ---------------------------------------------------------------- simultaneous rounds
ROUND = """\
game "Round"
players 4
deck standard
zone hand[player]: owner, fanned
zone pile: face up, squared
var gave[player] = 0
move give(c in hand[me]) "give {c}" {
  move c to pile
  gave[me] += c.rank
}
move keep "keep"
flow {
  shuffle deck
  deal 10 from deck to hand[players]
  repeat 3 times {
    simultaneously players choose give
    simultaneously (each p in players from 3 where gave[p] < 15) choose give
    simultaneously players choose give | keep
  }
}
score = gave[me]
result highest score
"""


def test_every_player_choosing_at_once_needs_no_check(tmp_path: Path) -> None:
    """`simultaneously players choose`: every player, once each, never nobody: optimised
    code sets the choosers without `_players` and its test of an empty list (a list
    expression keeps both), and the round's first listing makes no set of those who
    chose. The same games as plain code's."""
    path = tmp_path / "round.cardgame"
    path.write_text(ROUND, encoding="utf-8")
    fast, plain = compile_game(path), compile_game(path, optimize=False)
    src = fast.gen.source
    nodes = src[:src.index("NODES = (")]
    assert nodes.count("s[5] = PLAYERS\n") == 2
    assert nodes.count("_players(") == 1 and nodes.count("if not s[5]: return") == 1
    assert "done = {m[0] for m in s[3]} if s[3] else ()" in src
    assert "s[5] = PLAYERS" not in plain.gen.source
    assert "if s[3] else ()" not in plain.gen.source
    play_both(fast, plain, seeds=tuple(range(6)))
    for seed in range(6):
        assert (fast.random_playout(seed, random.Random(seed))
                == plain.random_playout(seed, random.Random(seed)))


def test_a_round_is_carried_out_in_the_players_order(tmp_path: Path) -> None:
    """`in_players_order`: the round's choices in the order of the players' list, as a
    stable sort by each chooser's place gives them (each chooser once, or twice, or one
    not in the list: the sort's KeyError); `_step` uses it, and the playouts' end of a
    round where the list is not every player's (where it is, the choices sorted: each
    player chose once). The games are those of plain code: see the test above."""
    from cardgame.interpreter.engine import playout

    rnd = random.Random(7)
    for n in (1, 2, 3, 4, 8, 9):
        who = tuple(rnd.sample(range(1, 12), n))
        ordered = tuple(sorted(who))
        for _ in range(20):
            pending = [(p, 0, rnd.randrange(52)) for p in rnd.sample(who, len(who))]
            if rnd.random() < 0.3:  # one chose twice
                pending.insert(rnd.randrange(len(pending) + 1), (rnd.choice(who), 1, 0))
            order = {p: i for i, p in enumerate(who)}
            assert playout.in_players_order(pending, who) == sorted(
                pending, key=lambda mv: order[mv[0]])
            # a list in order (as PLAYERS is): a stable sort by chooser is that
            assert sorted(pending, key=playout._CHOOSER) == playout.in_players_order(
                pending, ordered)
        with pytest.raises(KeyError):
            playout.in_players_order([(who[0], 0, 1), (99, 0, 2)], who)
    calls = [0]
    orig = playout.in_players_order

    def counted(pending: Any, who: Any) -> list[Any]:
        calls[0] += 1
        return orig(pending, who)

    path = tmp_path / "round.cardgame"
    path.write_text(ROUND, encoding="utf-8")
    g = compile_game(path)
    arsene = compile_game("arsene", 3)
    playout.in_players_order = counted  # type: ignore[assignment]
    try:
        st = g.new_state(1)
        while not g.is_terminal(st):
            st = g.apply(st, g.legal_moves(st)[0])
        assert calls[0] >= 6  # (the rounds of every player; the others', when not empty)
        # the playouts: a round of every player is carried out sorted (each chose once)
        calls[0] = 0
        s, n = arsene.random_playout(2, random.Random(2))
        assert calls[0] == 0 and s[arsene.gen.var_base["deals"]] > 1
        g.random_playout(1, random.Random(1))
        assert 0 < calls[0] <= 3  # (the rounds of some players)
    finally:
        playout.in_players_order = orig


def test_playouts_call_each_decisions_step_by_its_node() -> None:
    """The fast playouts find a decision's step in `_plain_by_pc` (a list by node), and
    the simultaneous ones (None there) by the round's own path: Arsène 3p's steps, counted
    through that list, make every move but the dummy's round."""
    g = compile_game("arsene", 3)
    saved = list(g._plain_by_pc)
    calls = [0]

    def counting(f: Any) -> Any:
        def step(s: list[Any], m: Any) -> Any:
            calls[0] += 1
            return f(s, m)
        return step

    ref = g.random_playout(3, random.Random(3))
    g._plain_by_pc[:] = [None if f is None else counting(f) for f in saved]
    try:
        s, n = g.random_playout(3, random.Random(3))
        assert (s, n) == ref
        deals = s[g.gen.var_base["deals"]]
        assert calls[0] == n - 3 * deals
    finally:
        g._plain_by_pc[:] = saved


# ---------------------------------------------------------------- chance events
def test_each_chance_event_seeds_a_generator_of_the_pool_again() -> None:
    """A shuffle or random pick seeds a generator from the state's seed: one taken from a
    pool and seeded again (a thread takes one and puts it back), which draws as a new
    `random.Random(seed)` does, here checked against the library's own, and is the same
    object from one event to the next."""
    from cardgame.interpreter.codegen import runtime

    assert runtime._RESEEDS is runtime._seeded
    g = compile_game("arsene", 3)
    shuffle, pick = g.ns["_shuffle"], g.ns["_pick"]
    runtime._POOL.clear()
    rnd = random.Random(3)
    for _ in range(30):
        seed = rnd.getrandbits(63)
        s = [None, seed]
        cards = tuple(range(rnd.randrange(40)))
        ref = random.Random(seed)
        lst = list(cards)
        ref.shuffle(lst)
        assert shuffle(s, cards) == tuple(lst) and s[1] == ref.getrandbits(63)
        seq = tuple(range(1, rnd.randrange(2, 9)))
        ref = random.Random(s[1])
        v = seq[ref.randrange(len(seq))]
        assert pick(s, seq, 0) == v and s[1] == ref.getrandbits(63)
    assert len(runtime._POOL) == 1


def test_threads_each_take_their_own_generator() -> None:
    """Playouts in threads at once deal and pick as one thread alone does."""
    import threading

    g = compile_game("arsene", 3)
    ref = {seed: g.random_playout(seed, random.Random(seed)) for seed in range(12)}
    got: dict[int, Any] = {}

    def play(seeds: range) -> None:
        for _ in range(3):
            for seed in seeds:
                got[seed] = g.random_playout(seed, random.Random(seed))
                assert got[seed] == ref[seed]

    threads = [threading.Thread(target=play, args=(range(i, 12, 3),)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == ref


# ---------------------------------------------------------------- the trick's loop
def test_a_loop_over_the_players_keeps_their_list_as_it_is() -> None:
    """`for p in players from leader` in the flow keeps `ORDER[...]` (a tuple of the
    tables) as the list it walks, with no copy; plain code copies it (`tuple(...)`)."""
    fast, plain = compile_game("arsene", 3), compile_game("arsene", 3, optimize=False)
    loops = [ln.strip() for ln in fast.gen.source.splitlines()
             if ln.strip().startswith("s[55] = ")]
    assert loops and all(ln.startswith("s[55] = ORDER[") for ln in loops)
    assert "s[55] = tuple(ORDER[" in plain.gen.source
    for seed in range(4):
        assert (fast.random_playout(seed, random.Random(seed))
                == plain.random_playout(seed, random.Random(seed)))


@pytest.mark.parametrize("limit", [0, 1, 2, 37, 10_000])
def test_a_playout_stops_at_its_limit_of_moves(limit: int) -> None:
    """`max_moves`: the playout plays that many moves, or to the end when it comes first,
    and stops where the API, move for move, stops."""
    g = compile_game("arsene", 3)
    s, n = g.random_playout(5, random.Random(5), limit)
    st, rng = g.new_state(5), random.Random(5)
    for _ in range(limit):
        legal = g.legal_moves(st)
        if not legal:
            break
        st = g.apply(st, legal[rng.randrange(len(legal))])
    assert n == min(limit, g.random_playout(5, random.Random(5))[1])
    assert tuple(s) == st.slots
