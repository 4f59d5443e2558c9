"""The eleventh session's speed rules for random playouts (issue 12, target 2: Arsène 3p):
each rule's shape in the generated code, a test that fails with the rule switched off, and
the games played alike by optimised and plain code (`test_optimize.play_both`), rule
errors included."""

from __future__ import annotations

import random
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
