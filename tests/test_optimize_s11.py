"""The eleventh session's speed rules for random playouts (issue 12, target 2: Arsène 3p):
each rule's shape in the generated code, a test that fails with the rule switched off, and
the games played alike by optimised and plain code (`test_optimize.play_both`), rule
errors included."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.engine.game import Game
from cardgame.interpreter.errors import RuleError
from test_optimize import play_both

# A card moved by its move's effect leaves the zone it was chosen from, or, where an
# earlier effect moved it (the round's first chooser empties the next player's hand), from
# wherever it is now. The king of spades given divides by zero: a rule error in the middle
# of a round.
ROUND = """\
game "Round"
players 3
deck standard
zone hand[player]: owner, fanned
zone pile: face up, squared
zone out: face down, squared
var gave[player] = 0
var dealer: player = 1
move give(c in hand[me]) "give {c}" {
  if c.rank == 1 {
    move all of hand[left of me] to pile
  }
  move c to out
  gave[me] += if c.suit == spades then 12 / (13 - c.rank) else c.rank
}
move keep "keep"
move play(c in hand[me]) "play {c}" {
  move c to pile
}
flow {
  repeat 4 times {
    shuffle deck
    deal 3 from deck to hand[players from left of dealer]
    deal 1 from deck to hand[players]
    simultaneously players choose give
    simultaneously players choose give | keep
    for p in players from dealer {
      if hand[p] is not empty {
        p chooses play
      }
    }
    move all of pile to deck
    move all of out to deck
    for p in players { move all of hand[p] to deck }
    dealer = left of dealer
  }
}
score = gave[me]
result highest score
"""


def _round(tmp_path: Path, **kw: object) -> Game:
    path = tmp_path / "round.cardgame"
    path.write_text(ROUND, encoding="utf-8")
    return compile_game(path, **kw)  # type: ignore[arg-type]


def _function(src: str, name: str) -> str:
    start = src.index(f"def {name}(")
    end = src.find("\ndef ", start + 1)
    return src[start:end if end >= 0 else len(src)]


def _outcome(g: Game, seed: int) -> tuple[str, object]:
    try:
        s, n = g.random_playout(seed, random.Random(seed))
        return "ok", (tuple(s), n)
    except RuleError as e:
        return "error", str(e)


def test_a_card_leaves_its_zone_through_a_list(tmp_path: Path) -> None:
    """`move c to Z`, c chosen from a zone: the zone's cards copied to a list, c removed
    from it and the list made a tuple (two new objects, not the three of two slices and
    their sum); a card that moved since it was chosen (`ValueError`: the ace's effect
    moved the next player's hand) leaves wherever it is now, as before. The same games,
    rule errors included, as plain code's."""
    fast, plain = _round(tmp_path), _round(tmp_path, optimize=False)
    src = fast.gen.source
    for name in ("eff_0", "eff_2"):  # give, play
        eff = _function(src, name)
        assert "= [*s[" in eff and ".remove(u_c)" in eff and "= tuple(_l" in eff
        assert ".index(u_c)" not in eff
        assert "except ValueError:" in eff and "_take_any(s, u_c, " in eff
    assert ".remove(" not in plain.gen.source
    moved = [0]
    take_any = fast.ns["_take_any"]

    def counted(*a: Any) -> Any:
        moved[0] += 1
        return take_any(*a)

    fast.ns["_take_any"] = counted
    try:
        play_both(fast, plain, seeds=tuple(range(10)))
        outcomes = [_outcome(fast, seed) for seed in range(10)]
    finally:
        fast.ns["_take_any"] = take_any
    assert moved[0] > 0  # (a card moved since it was chosen)
    assert outcomes == [_outcome(plain, seed) for seed in range(10)]
    # (the king of spades given: 12 / 0)
    assert {kind for kind, _ in outcomes} == {"ok", "error"}


def test_a_round_carries_out_each_choice_in_place(tmp_path: Path) -> None:
    """The end of a simultaneous round (`SIMSTEP`) runs each choice's effect copied into
    its loop, as a step runs its move's: the one move's effect (`give`), or each move's
    under a test of its id (`give | keep`), not a call through EFF per choice. The same
    games, and the same rule errors (the king of spades given, in the middle of a round,
    names the move), as plain code's: see the test above."""
    fast, plain = _round(tmp_path), _round(tmp_path, optimize=False)
    src = fast.gen.source
    sims = [_function(src, ln[4:ln.index("(")]) for ln in src.splitlines()
            if ln.startswith("def simstep_")]
    assert len(sims) == 2
    assert all("EFF[" not in sim for sim in sims)
    assert all("for m in todo:\n            me = m[0]\n" in sim
               or "for m in todo:\n            _mid = m[1]\n" in sim for sim in sims)
    assert sum("_mid = m[1]" in sim for sim in sims) == 1
    assert all(".remove(u_c)" in sim for sim in sims)
    assert "EFF[m[1]](s, m)" in plain.gen.source
    errors = [out for out in (_outcome(fast, seed) for seed in range(10)) if out[0] == "error"]
    assert errors and all("move give" in text for _, text in errors)
    play_both(fast, plain, seeds=tuple(range(4)))


def test_the_zones_of_a_list_of_players_need_no_check(tmp_path: Path) -> None:
    """`hand[players from left of dealer]`: each value is a player (a row of ORDER, made
    from a player checked where the list is made), so each zone's slot is the array's
    base plus the player, without `_ix`; `hand[players]` is the slots themselves, known
    when compiling. The same games as plain code's."""
    fast, plain = _round(tmp_path), _round(tmp_path, optimize=False)
    src = fast.gen.source
    base = fast.gen.zone_base["hand"]
    deals = [ln.strip() for ln in src.splitlines() if "_deal(s, " in ln]
    assert deals and all("_ix(" not in ln for ln in deals)
    assert any("tuple([" in ln and "for _i in ORDER[" in ln for ln in deals)
    assert any(f"({base}, {base + 1}, {base + 2})" in ln for ln in deals)
    assert all("_ix(" in ln for ln in plain.gen.source.splitlines() if "_deal(s, " in ln)
    play_both(fast, plain, seeds=tuple(range(8)))


# ---------------------------------------------------------------- the playouts' driver
def test_a_round_of_every_player_drops_the_choosers_moves_by_bisection() -> None:
    """While a round of every player goes on (`PLAYERS`, in order), the legal moves are
    those listed before less the chooser's: the list holds each player's moves in turn,
    so the chooser's are one run, found by bisection (`others_in_order`), the same list
    as `_others_moves` filters. Arsène 3p's playouts take it twice a deal; the games are
    those of the filter."""
    from cardgame.interpreter.engine import playout

    rnd = random.Random(11)
    g = compile_game("arsene", 3)
    for _ in range(200):
        n = rnd.randrange(1, 6)
        who = sorted(rnd.sample(range(1, 7), n))
        legal = [(p, rnd.randrange(3), rnd.randrange(52)) for p in who
                 for _ in range(rnd.randrange(0, 5))]
        for chooser in who + [0, 9]:
            assert playout.others_in_order(legal, chooser) == g._others_moves(legal, chooser)
    calls = [0]
    orig = playout.others_in_order

    def counted(legal: Any, chooser: int) -> Any:
        calls[0] += 1
        return orig(legal, chooser)

    ref = g.random_playout(4, random.Random(4))
    playout.others_in_order = counted  # type: ignore[assignment]
    try:
        s, n = g.random_playout(4, random.Random(4))
    finally:
        playout.others_in_order = orig
    assert (s, n) == ref
    assert calls[0] == 2 * s[g.gen.var_base["deals"]]


def test_the_draw_reads_its_bit_length_from_a_list() -> None:
    """The playouts' draw of a move's index reads the bit length of the number of legal
    moves from `_BITS` (up to 1023; `int.bit_length` past it): with the list cut short,
    every draw past it takes the call, and the games are the same."""
    from cardgame.interpreter.engine import playout

    assert playout._BITS == [k.bit_length() for k in range(1024)]
    g = compile_game("arsene", 3)
    ref = [g.random_playout(seed, random.Random(seed)) for seed in range(3)]
    saved = playout._BITS
    playout._BITS = saved[:3]
    try:
        assert [g.random_playout(seed, random.Random(seed)) for seed in range(3)] == ref
    finally:
        playout._BITS = saved


# ---------------------------------------------------------------- following suit
FOLLOW = """\
game "Follow"
players 3
deck standard
zone hand[player]: owner, fanned
zone trick: face up, row
zone pile: face up, squared
def led = (bottom of trick).suit
move play(c in hand[me]) "play {c}"
  when trick is empty or c.suit == led or not (any d in hand[me]: d.suit == led)
{
  move c to trick
}
move match(c in hand[me]) "match {c}"
  when any d in hand[me]: d.suit == (top of pile).suit
{
  move c to pile
}
flow {
  shuffle deck
  move top of deck to pile
  deal 6 from deck to hand[players]
  repeat 6 times {
    for p in players {
      p chooses play | match
    }
    move all of trick to pile
  }
}
score = size(hand[me])
result lowest score
"""


def test_a_test_after_trick_is_empty_reads_the_trick_unchecked(tmp_path: Path) -> None:
    """`trick is empty or c.suit == led or not (any d in hand[me]: d.suit == led)`: where
    `trick is empty` is false, the unswitched test of the hand (`moves.test_code`) knows
    the trick has a card, as the generator's own conditions do: the suit led is its
    bottom card's, read unchecked (no `_E`), and, since it cannot fail, it is tested
    even where the hand is empty (no `if hand else False`: an empty hand is disjoint from
    every set). `match`'s test of `top of pile`, which may fail, keeps both. The same
    games as plain code's."""
    path = tmp_path / "follow.cardgame"
    path.write_text(FOLLOW, encoding="utf-8")
    fast, plain = compile_game(path), compile_game(path, optimize=False)
    src = fast.gen.source
    play = src[src.index("# move play"):src.index("# move match")]
    tests = [ln.strip() for ln in play.splitlines() if ".isdisjoint(" in ln]
    assert len(tests) == 1
    assert "_E(" not in tests[0] and "else False" not in tests[0]
    assert re.search(r"\.get\(SUIT\[s\[\d+\]\[0\]\], _V\d+\)\.isdisjoint\(", tests[0])
    match = src[src.index("# move match"):]
    match = match[:match.index("return out")]
    kept = [ln for ln in match.splitlines() if ".isdisjoint(" in ln]
    assert len(kept) == 1 and "_E(" in kept[0] and "else False" in kept[0]
    play_both(fast, plain, seeds=tuple(range(8)))
