"""The optimiser's safety net: every game compiled with and without optimisation behaves
the same, step by step.

`generate(checked, optimize=False)` emits the plain code (no inlining of defs, no hoisting,
no def tables, no unrolling, no jump threading: see codegen/module.py). Seeded random games of
every bundled game, rule set and test game are played on both compilations, and at every
step the states, legal moves, events, end, scores, invariants and rule errors must agree.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter.codegen import generate
from cardgame.interpreter.codegen import moves as moves_mod
from cardgame.interpreter.engine import Game, compile_game
from cardgame.interpreter.errors import Diagnostic, Diagnostics, RuleError
from test_zone_vars import HEAD, PICK  # (a game with zone variables)

ROOT = Path(__file__).resolve().parent.parent
FILES = (sorted((ROOT / "games").glob("*.cardgame")) + sorted((ROOT / "tests" / "data").glob("*.cardgame"))
         + sorted((ROOT / "tests" / "mutants").glob("*.cardgame")))
STEPS = 120  # moves per game through the API
PLAYOUT = 400  # moves per game on the fast path


def configs() -> Iterator[tuple[Path, int, dict[str, str]]]:
    """Each game file with each allowed player count and each value of its bool and choice
    options (the other options keep their defaults)."""
    for path in FILES:
        try:
            g = compile_game(path)
        except (Diagnostic, Diagnostics):  # a test game meant not to compile
            continue
        lo, hi = g.checked.player_range
        choices = [[(name, str(v).lower()) for v in ((True, False) if d.kind == "bool" else d.choices)]
                   for name, d in g.checked.option_decls.items() if d.kind in ("bool", "choice")]
        for n in range(lo, hi + 1):
            for combo in itertools.product(*choices):
                yield path, n, dict(combo)


CONFIGS = list(configs())


def _both(path: Path, players: int, settings: dict[str, str]) -> tuple[Game, Game]:
    fast = compile_game(path, players or None, settings)
    plain = compile_game(path, players or None, settings, optimize=False)
    return fast, plain


def _outcome(fn: Any, *args: Any) -> tuple[str, Any]:
    """What a call returned, or the rule error it raised (its full text)."""
    try:
        return "ok", fn(*args)
    except RuleError as e:
        return "error", str(e)


def _observe(g: Game, st: Any) -> tuple[Any, ...]:
    return (st.slots, g.legal_moves(st), g.is_terminal(st), g.end_reason(st), g.scores(st),
            g.results(st), g.check_invariants(st))


@pytest.mark.parametrize("path,players,settings", CONFIGS,
                         ids=[f"{p.stem}-{n}p" + "".join(f"-{k}={v}" for k, v in s.items())
                              for p, n, s in CONFIGS])
def test_optimised_and_plain_code_agree(path: Path, players: int,
                                        settings: dict[str, str]) -> None:
    fast, plain = _both(path, players, settings)
    assert fast.gen.source != plain.gen.source or "def " not in fast.gen.source
    play_both(fast, plain, seeds=(1, 2))


def play_both(fast: Game, plain: Game, seeds: tuple[int, ...]) -> None:
    for seed in seeds:
        a = _outcome(fast.start_with_events, seed)
        b = _outcome(plain.start_with_events, seed)
        assert a[0] == b[0]
        if a[0] == "error":
            assert a == b
            continue
        assert a[1][1] == b[1][1]  # the events of the setup and the flow up to a decision
        sa, sb = a[1][0], b[1][0]
        rng = random.Random(seed)
        for step in range(STEPS):
            oa, ob = _observe(fast, sa), _observe(plain, sb)
            assert oa == ob, f"seed {seed}, step {step}"
            legal = oa[1]
            if not legal:
                break
            move = legal[rng.randrange(len(legal))]
            ra = _outcome(fast.apply_with_events, sa, move)
            rb = _outcome(plain.apply_with_events, sb, move)
            assert ra[0] == rb[0], f"seed {seed}, step {step}: {ra} / {rb}"
            if ra[0] == "error":
                assert ra == rb
                break
            assert ra[1][1] == rb[1][1], f"events differ at seed {seed}, step {step}"
            sa, sb = ra[1][0], rb[1][0]
        # the fast path (the generated step_settle, used by playouts and bots)
        pa = _outcome(fast.random_playout, seed, random.Random(seed), PLAYOUT)
        pb = _outcome(plain.random_playout, seed, random.Random(seed), PLAYOUT)
        assert pa == pb


# Games written to exercise the optimiser: defs inlined into defs, arguments hoisted out
# of loops, def tables (and defs that may fail, which must not be tabulated), unrolled
# parameters over zone arrays, guards from earlier conjuncts, quantifiers over computed
# lists, conditions that fail with a rule error; and a flow with phases, breaks, blocking
# procedures, `let`, simultaneous choices and an `end` in a procedure; a runaway flow.
OPTIMISER_GAMES = {
    "opt1": """\
game "Opt One"
players 2
deck standard
zone hand[player]: owner
zone pile[4]: face up
zone pot: face up
var total = 0
var best[player] = 0
def bump(x: int) = x + 1
def rk(c: card) = c.rank
def twice(y: int) = bump(y) + bump(y)
def top_rank(j: int) = (top of pile[j]).rank
def risky(j: int) = 100 / (j - 5)
def size_of(j: int) = size(pile[j])
def deep(k: int, c: card) = twice(k) + rk(c) + size_of(k)
setup {
  shuffle deck
  deal 6 from deck to hand
  for k in 1..4 { move top of deck to pile[k] }
}
move play(c in hand[me], k in 1..4) "play {c} on {k}"
  when pile[k] is not empty and top_rank(k) <= c.rank + twice(k) and deep(k, c) > 3
{
  move c to pile[k]
  total += rk(c)
  best[me] = max(best[me], deep(k, c))
}
move take(k in 1..4, j in 1..4) "take {k} {j}"
  when k != j and pile[k] is not empty and size(pile[j]) < 6 and top_rank(k) > twice(j) - 5
{
  move top of pile[k] to pile[j]
}
move odd(k in 1..4, j in 2..3) "odd {k} {j}"
  when pile[k] is not empty and (top of pile[k]).rank > j and risky(k + j - j) > -1000
{
  move top of pile[k] to pot
}
move peek(k in 1..4) "peek {k}"
  when total > 150 and (top of pile[k]).rank > 0
{
  total -= 1
}
move count_up(n in 1..20) "count {n}"
  when n == size(pot) + 1 and bump(n) == twice(n) - n - 1 + 0 * total
{
  total += n
}
flow {
  repeat {
    for p in players {
      p may choose play | take | odd | peek | count_up
    }
    if total > 300 { end "rich" }
  }
}
limit 200 moves
score = best[me] + size(hand[me])
""",
    "opt2": """\
game "Opt Two"
players 1
deck standard
zone stock: face down
zone col[5]: face up
zone home[suit]: face up
var moved = 0
def wanted(s: suit) = size(home[s]) + 1
def fits_home(c: card) = c.rank == wanted(c.suit)
def col_top(i: int) = top of col[i]
def can_stack(c: card, i: int) = col[i] is empty or (col_top(i)).rank == c.rank + 1
def any_fit = any i in 1..5: col[i] is not empty and fits_home(top of col[i])
setup {
  shuffle deck
  for i in 1..5 { move top 3 of deck to col[i] }
  move all of deck to stock
}
def five = 5
move deal_one "deal"
  when stock is not empty
{
  for i in 1..5 { if stock is not empty { move top of stock to col[i] } }
}
move home_move(i in 1..5) "home {i}"
  when col[i] is not empty and fits_home(col_top(i))
{
  let c = top of col[i]
  move c to home[c.suit]
  moved += 1
}
move shift(i in 1..5, j in 1..5) "shift {i} {j}"
  when i != j and col[i] is not empty and can_stack(col_top(i), j)
        and (let t = col_top(i) in t.rank > 1)
{
  move top of col[i] to col[j]
  moved += 1
}
move sweep(i in 1..5) "sweep {i}"
  when (count c in col[i] where c.rank > wanted(c.suit)) > 2 and (sum c in col[i]: c.rank) > 20
{
  move each c in col[i] where c.rank > 10 to stock
}
end blocked when stock is empty and no_moves "no move"
limit 300 moves
score = size(home)
invariant fifty_two: size(stock) + size(col) + size(home) == 52
""",
    "opt3": """\
game "Opt Three"
players 3
deck standard
zone hand[player]: owner
zone table: face up
zone pool: face up
var round = 0
var points[player] = 0
var lead: player = 1
proc score_round(p: player) {
  points[p] += size(table)
  move all of table to pool
  if points[p] > 40 { end "{p} reached 40" }
}
proc fill(n: int) {
  for p in players { if size(hand[p]) < n and deck is not empty { move top of deck to hand[p] } }
}
move play(c in hand[me]) "play {c}" when table is empty or c.suit == (top of table).suit or c.rank > 10
{
  move c to table
  log "{me} plays {c}"
}
move draw "draw" when deck is not empty { move top of deck to hand[me] }
move bid(n in 1..3) "bid {n}" { points[me] += n - 2 }
flow {
  phase "deal" {
    shuffle deck
    fill(4)
  }
  while true {
    round += 1
    let starter = lead
    phase "tricks" {
      for p in players from starter {
        p chooses play | draw
        if deck is empty and table is empty { break }
      }
    }
    simultaneously players choose bid
    repeat 2 times { fill(4) }
    if size(table) > 0 { score_round(lead) } else { lead = left of lead }
    if round >= 12 { break }
  }
  end "twelve rounds"
}
score = points[me]
""",
    # quantifiers that read no parameter of their loop: computed once per decision
    # (`play`: Arsène's "cannot follow suit"), once and lazily where they may fail
    # (`dump`: an empty pile on half the seeds, a rule error at the same point), kept in
    # place where they read the parameter or an enclosing quantifier's variable (`pair`)
    "hoist": """\
game "Hoist"
players 2
deck standard
zone hand[player]: owner
zone trick: face up
zone pile: face up
var turns = 0
def led = (bottom of trick).suit
setup {
  shuffle deck
  deal 6 from deck to hand
  if (top of deck).rank > 7 { move top of deck to pile }
}
move play(c in hand[me]) "play {c}"
  when trick is empty or c.suit == led or not (any d in hand[me]: d.suit == led)
{
  move c to trick
  turns += 1
}
move dump(c in hand[me]) "dump {c}"
  when turns == 1 and (c.rank > 9 or (count d in hand[me] where d.rank == (top of pile).rank) > 0)
{
  move c to pile
}
move pair(c in hand[me]) "pair {c}"
  when any d in hand[me]: (count e in hand[me] where e.rank == d.rank) > 1 and c.rank == d.rank
{
  move c to pile
}
move many(c in hand[me]) "many {c}"
  when (count d in hand[me] where d.suit == c.suit) >= 2 and (sum d in hand[me]: d.rank) > 20
{
  move c to trick
}
flow {
  while hand[1] is not empty and hand[2] is not empty {
    for p in players {
      if hand[p] is not empty { p chooses play | dump | pair | many }
      if size(trick) >= 2 { move all of trick to pile }
    }
  }
}
score = size(hand[me])
result lowest score
""",
    # a runaway flow is stopped at the same node with and without jump threading
    "unswitch": """\
game "Unswitch"
players 3
deck standard
zone hand[player]: owner
zone trick: face up
zone pile: face up
var turns = 0
var tally[player] = 0
def led = (bottom of trick).suit
proc count_up() {
  turns += 1
  for p in players { tally[p] += size(hand[p]) }
  let group = each p in players where tally[p] > 20
  for q in group { tally[q] -= 1 }
  if turns == 7 and tally[1] % 2 == 0 { move all of pile to deck }
  if turns > 14 { end "long enough" }
}
setup {
  shuffle deck
  deal 5 from deck to hand
  move top of deck to pile
}
move follow(c in hand[me]) "follow {c}"
  when trick is empty or c.suit == led or not (any d in hand[me]: d.suit == led)
{
  move c to trick
}
move risky(c in hand[me]) "risky {c}"
  when (top of pile).rank > 7 or c.rank > 9
{
  move c to pile
}
move own(c in hand[me]) "own {c}"
  when c.rank > 10 or turns > 3
{
  move c to pile
}
flow {
  while true {
    for p in players {
      if hand[p] is empty and size(deck) >= 2 { move top 2 of deck to hand[p] }
      p chooses follow | risky | own
    }
    if size(trick) >= 3 { move all of trick to pile }
    count_up()
  }
}
""",
    # `if T then A else B` conjuncts, T reading no parameter (written out, or a def's
    # body): unswitched; a T that reads the parameter, or may fail, is not
    "branch": """\
game "Branch"
players 1
deck standard
zone stock: face down, squared
zone work: face up, fanned
zone hold[3]: face up, fanned
zone pile: face up
var rounds = 0
def fits(c: card) = if work is empty then c.rank == 13 else c.rank == (top of work).rank - 1
def big(c: card) = if c.rank > 10 then size(pile) > 2 else work is empty
setup {
  shuffle deck
  move all of deck to stock
}
move draw "draw" when stock is not empty { move top of stock to hold[1 + rounds % 3] }
move place(i in 1..3) "place {i}"
  when hold[i] is not empty
  when fits(top of hold[i])
{
  move top of hold[i] to work
}
move close(c in hold[2]) "close {c}"
  when if pile is empty then c.rank > 11 else c.suit == (top of pile).suit
{
  move c to pile
  move all of work to pile
}
move risky(c in hold[3]) "risky {c}"
  when if (top of work).rank > 5 then c.rank > 9 else c.rank < 4
{
  move c to pile
}
move odd(c in hold[1]) "odd {c}" when big(c) and fits(c) { move c to work }
flow {
  repeat {
    rounds += 1
    1 chooses draw | place | close | risky | odd
  }
}
end when stock is empty
""",
    # a trick game: unswitched tests that decide later ones, quantifiers after `or` (lazy),
    # a flow `let` of the winner (a loop over the trick's positions, unchecked), a def
    # given `me`, and a flow whose middle of a trick is short and whose end of a deal long
    "tricks": """\
game "Tricks"
players 3
deck standard
deck order ace high
zone hand[player]: owner
zone trick: face up
zone taken[player]: face down
var broken = false
var played = 0
var leader: player = 1
var deals = 0
def led = (trick[1]).suit
def can_follow(p: player) = any d in hand[p]: d.suit == led
def best = max c in trick where c.suit == led: c.order
move play(c in hand[me]) "play {c}"
  when trick is empty or c.suit == led or not can_follow(me)
  when trick is not empty or c.suit != hearts or broken or (all d in hand[me]: d.suit == hearts)
  when played != 0 or c.suit != spades or (all d in hand[me]: d.suit == spades)
{
  move c to trick
  if c.suit == hearts { broken = true }
}
flow {
  while deals < 2 {
    deals += 1
    for p in players { move all of taken[p] to deck }
    shuffle deck
    deal 5 from deck to hand
    broken = false
    played = 0
    repeat 5 times {
      for p in players from leader {
        p chooses play
      }
      let w = (players from leader)[first i in 1..size(trick) where (trick[i]).suit == led and (trick[i]).order == best]
      move all of trick to taken[w]
      leader = w
      played += 1
    }
  }
}
score = size(taken[me])
""",
    # values of a card alone (tables of the deck): quantifiers of each kind over zones,
    # a def of one card in a generator, an effect and the flow, an option in the test;
    # and values that read the state or a card that may be none (no tables)
    "deck": """\
game "Deck"
players 2
option strict: bool default true
deck standard
deck order ace high
zone hand[player]: owner
zone pile: face up
var total = 0
var aces = 0
def face(c: card) = c.rank > 10 and c.rank < 14
def value(c: card) = if c.rank == 1 then 11 else if face(c) then 10 else c.rank
def good(c: card) = strict and (c.suit == hearts or c.rank == 1)
move lay(c in hand[me]) "lay {c}"
  when good(c) or not (any d in hand[me]: good(d)) or size(pile) > total % 7
  when (count d in hand[me] where d.suit == c.suit and face(d)) < 3
{
  move c to pile
  total += value(c)
  if all d in hand[me]: d.rank != 1 { aces += 1 }
}
flow {
  shuffle deck
  deal 8 from deck to hand
  while hand[1] is not empty and hand[2] is not empty {
    for p in players {
      if any c in hand[p] where c.suit == spades: face(c) {
        total += 1
      }
      let low = first c in hand[p] where value(c) < 5
      if low != none { move low to pile }
      if hand[p] is not empty { p chooses lay }
    }
    aces += sum c in pile: value(c)
    if (top of pile).rank > 12 { total -= 1 }
  }
}
score = total + size(hand[me])
""",
    # quantifiers, lets and inlined defs where a statement evaluates them (an assignment,
    # a `let`, an `if`'s first test, in effects and in the flow): loops of statements;
    # `min` over nothing on some seeds (a rule error at the same point)
    "statements": """\
game "Statements"
players 3
deck standard
zone hand[player]: owner
zone trick: face up
zone pile: face up
var high = 0
var total = 0
var found = false
var every = false
var low = 0
var near = 0
var winner: player = 1
var leader: player = 1
def led = (bottom of trick).suit
def power(c: card) = if c.rank == A then 14 else c.rank
def strength(c: card) = if c.suit == led then 50 + power(c) else 0
def winner_of_trick =
  let b = (max c in trick: strength(c)) in
  (players from leader)[first i in 1..size(trick) where strength(trick[i]) == b]
def gap(a: card, b: card) = let d = distance(a.rank, b.rank, 13) in if d == 0 then 3 + low else d
def share(p: player) =
  first q in players from left of p where q != p and size(hand[q]) == size(hand[p])
setup {
  shuffle deck
  deal 5 from deck to hand
}
move play(c in hand[me]) "play {c}"
  when trick is empty or c.suit == led or not (any d in hand[me]: d.suit == led)
{
  high = count d in hand[me] where d.rank > 9
  total = sum d in hand[me] where d.suit == c.suit: d.rank
  found = any d in hand[me]: d.suit == c.suit and d != c
  every = all d in hand[me]: d.rank > 1
  if trick is not empty {
    near = gap(c, top of trick) + (count d in trick where d.rank > c.rank)
  }
  move c to trick
  if size(trick) == 2 and total > 20 {
    low = min d in pile where d.rank > 11: d.rank
  }
}
flow {
  repeat {
    if (count p in players where hand[p] is not empty) == 3 {
      for p in players from leader { p chooses play }
    } else {
      end "hands empty"
    }
    winner = winner_of_trick
    if share(winner) != none and size(pile) > 3 {
      leader = share(winner)
    } else {
      leader = winner
    }
    move all of trick to pile
  }
}
score = size(pile) + high + total + low + near
""",
    # faces of cards at known places (`Z[k]`, a quantifier's card: no zone searched),
    # positions `a..size(Z) - b` that keep `Z[k + c]` a position (unchecked), and one
    # index that may leave the zone (`col[j][k + 2]`: still checked, a rule error)
    "faces": """\
game "Faces"
players 1
deck standard
zone stock: face down
zone col[3]: face up, fanned
zone pile: face up
var seen = 0
var risky = false
setup {
  shuffle deck
  for k in 1..3 {
    repeat 3 times { move top of deck to col[k] face down }
    move top of deck to col[k]
  }
  move all of deck to stock
}
invariant order "face-down cards lie under face-up ones":
  all a in col: all k in 2..size(a): not a[k - 1].face_up or a[k].face_up
invariant runs "pairs": all a in col: all k in 1..size(a) - 1: a[k].face_up or not a[k + 1].face_up or a[k + 1].rank > 0
move flip(j in 1..3) "flip {j}"
  when col[j] is not empty and not (top of col[j]).face_up
{ turn top of col[j] face up }
move drop(j in 1..3) "drop {j}" when stock is not empty
{ move top of stock to col[j] face down }
move take(j in 1..3) "take {j}"
  when col[j] is not empty and (top of col[j]).face_up
  when (count k in 1..size(col[j]) - 1: col[j][k].face_up and col[j][k + 1].face_up) < 3
{
  move top of col[j] to pile
  if all c in pile: c.face_up { seen += 1 }
  seen += count c in col[j]: c.face_up
  if risky { seen += count k in 1..size(col[j]) - 1: col[j][k + 2].face_up }
  # a test that reads nothing of the card but draws: drawn for every card, as written
  if any c in col[j]: (random k in 1..6) == 6 { seen += 1 }
  seen += if size(pile) > 3 and (any c in col[j]: (random k in 1..6) == 6) then 1 else 0
}
move arm "arm" when not risky and size(pile) >= 6 { risky = true }
end when size(pile) >= 12
score = seen + size(pile)
""",
    "runaway": """\
game "Runaway 2"
players 1
deck standard
zone pile: face up
var x = 0
move m { x += 1 }
flow {
  repeat {
    x = x + 0
    if x > 100 {
      1 chooses m
    }
    if x > 200 { 1 chooses m }
  }
}
""",
}


@pytest.mark.parametrize("name", sorted(OPTIMISER_GAMES))
def test_optimiser_games_agree(tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.cardgame"
    path.write_text(OPTIMISER_GAMES[name], encoding="utf-8")
    fast, plain = _both(path, 0, {})
    play_both(fast, plain, seeds=tuple(range(8)))


def test_faces_at_known_places_search_no_zone(tmp_path: Path) -> None:
    """`Z[k].face_up` and the face of a quantifier's card (`all c in Z: c.face_up`) read
    the zone's face and the turned cards, with no search of the zones for the card (the
    `_faceup` helper); indexes `Z[k + c]` over `a..size(Z) - b` that stay positions are
    unchecked, the others checked (a rule error, in both codes alike)."""
    path = tmp_path / "faces.cardgame"
    path.write_text(OPTIMISER_GAMES["faces"], encoding="utf-8")
    fast, plain = _both(path, 0, {})
    src = fast.gen.source
    assert "_faceup(" not in src
    order = src[src.index("def inv_order"):src.index("def inv_runs")]
    assert "_at(" not in order and re.search(r"s\[_q\d+\]\[_q\d+ - 2\]", order)
    runs = src[src.index("def inv_runs"):]
    runs = runs[:runs.index("\ndef ")]
    assert "_at(" not in runs and re.search(r"s\[_q\d+\]\[_q\d+\]", runs)
    # `col[j][k + 2]` over `1..size(col[j]) - 1` may be past the top: checked
    assert src.count("_at(") >= 1
    play_both(fast, plain, seeds=tuple(range(12)))
    # the checked index fails once `arm` has been played and a column's run is long
    errors = 0
    for seed in range(40):
        st = fast.new_state(seed)
        rng = random.Random(seed)
        for _ in range(60):
            legal = fast.legal_moves(st)
            if not legal:
                break
            try:
                st = fast.apply(st, legal[rng.randrange(len(legal))])
            except RuleError as e:
                assert "position" in str(e) and "is out of range" in str(e), str(e)
                errors += 1
                break
    assert errors


def test_a_quantifier_whose_test_reads_nothing_of_its_value_tests_once(tmp_path: Path) -> None:
    """`all c in a: c.face_up` where no card is ever turned (FreeCell: the face is the
    column's alone) is one test of the column, not one per card; the deck's suits range
    over 1..4, so `foundation[s]` needs no index check. (A test that draws is kept in
    its loop: the "faces" optimiser game, played against the plain code.)"""
    src = compile_game("freecell").gen.source
    open_ = src[src.index("def inv_open"):src.index("def ", src.index("def inv_open") + 4)]
    assert open_.count(" for ") == 1 and "not s[" in open_
    homes = src[src.index("def inv_homes"):src.index("def inv_open")]
    assert "_ix(" not in homes
    plain = compile_game("freecell", optimize=False).gen.source
    assert plain[plain.index("def inv_open"):].split("\ndef ")[0].count(" for ") == 2
    # a test that draws and reads nothing of its card: still one draw per card
    path = tmp_path / "faces.cardgame"
    path.write_text(OPTIMISER_GAMES["faces"], encoding="utf-8")
    assert re.search(r"any\(\(_pick\(s, .*\) == 6\) for _q\d+ in ", compile_game(path).gen.source)


def test_every_game_is_covered() -> None:
    names = {p.stem for p, _, _ in CONFIGS}
    assert {"arsene", "calculation", "besieged-castle", "chains", "interaction",
            "ping_pong", "two_hands", "duel"} <= names
    arsene = [(n, s) for p, n, s in CONFIGS if p.stem == "arsene"]
    assert len(arsene) == 4  # 3 and 4 players, advanced or not


def test_plain_code_does_not_optimise() -> None:
    g = compile_game("calculation")
    plain = generate(g.checked, optimize=False).source
    assert "_T" not in plain and "_h" not in plain  # no def tables, no hoisting
    assert "def d_" in plain  # defs are called, not inlined
    assert "def n_0(s):\n    return " in plain  # jumps are not threaded away


def test_a_quantifier_variable_named_like_a_parameter_is_not_the_parameter(
        tmp_path: Path) -> None:
    """A conjunct is tested in the outermost loop where the parameters it reads are bound;
    `any k in ...` reads its own k, not the move's, so it is tested once, before the loop
    (it was placed inside, by the name)."""
    path = tmp_path / "t.cardgame"
    path.write_text('game "T"\nplayers 1\ndeck standard\nzone pile\nzone waste[4]\n'
                    "setup { move all of deck to pile }\n"
                    "move m(k in 1..4) when (any k in 1..2: k == 1) and pile is not empty {\n"
                    "  move top of pile to waste[k]\n}\n", encoding="utf-8")
    plain = compile_game(path, optimize=False).gen.source
    legal = plain[plain.index("def legal_"):]
    assert legal.index("if any(") < legal.index("for u_k in")
    fast = compile_game(path)
    src = fast.gen.source
    # not once per unrolled value (the step of the decision holds a copy of the generator)
    assert src[src.index("def legal_"):src.index("LEGAL =")].count("if any(") == 1
    play_both(fast, compile_game(path, optimize=False), seeds=(1,))


# Branch coverage mode (codegen/module.py, `coverage=True`): the same behaviour, step by
# step, with each arm of each `if` recording that it ran; and without it, no trace of it.
COVERAGE_CONFIGS = [c for c in CONFIGS if c[0].parent.name != "mutants"]


@pytest.mark.parametrize("path,players,settings", COVERAGE_CONFIGS,
                         ids=[f"{p.stem}-{n}p" + "".join(f"-{k}={v}" for k, v in s.items())
                              for p, n, s in COVERAGE_CONFIGS])
def test_coverage_code_agrees(path: Path, players: int, settings: dict[str, str]) -> None:
    fast = compile_game(path, players or None, settings)
    counted = compile_game(path, players or None, settings, coverage=True)
    assert "_COV" not in fast.gen.source
    assert ("_COV[" in counted.gen.source) == bool(counted.branches())
    play_both(fast, counted, seeds=(1,))


def test_coverage_counts_the_arms_of_every_if() -> None:
    g = compile_game(ROOT / "tests" / "data" / "branches.cardgame")
    counted = compile_game(ROOT / "tests" / "data" / "branches.cardgame", coverage=True)
    assert generate(g.checked).source == g.gen.source  # coverage=False is the default
    assert not g.branches() and not g.covered()
    # 3 ifs, each with its arms (the flow's `if n < 2` with its implicit else)
    assert [(b.span.line, b.arm, b.rule) for b in counted.branches()] == [
        (18, "then", "move step"), (18, "else", "move step"),
        (23, "then", "move step"), (23, "else", "move step"),
        (32, "then", "flow"), (32, "else", "flow")]
    assert counted.gen.source.count("_COV[") == 6
    counted.reset_coverage()
    counted.random_playout(1, random.Random(1), 100)
    ran = {(b.span.line, b.arm) for b in counted.branches() if b.id in counted.covered()}
    assert ran == {(18, "then"), (23, "then"), (23, "else"), (32, "then"), (32, "else")}
    counted.reset_coverage()
    assert not counted.covered()


def test_coverage_counts_arms_that_jump_threading_bypasses() -> None:
    """The head node of the flow's `if n < 2` only jumps on into the loop, so the
    optimised flow bypasses it; in coverage mode it records its arm and stays."""
    path = ROOT / "tests" / "data" / "branches.cardgame"
    fast = compile_game(path)
    counted = compile_game(path, coverage=True)
    assert fast.gen.graph is not None and fast.gen.graph.bypassed()
    counted.reset_coverage()
    counted.new_state(1)  # the flow runs to the first decision: `if n < 2`, then arm
    ran = [(b.span.line, b.arm) for b in counted.branches() if b.id in counted.covered()]
    assert ran == [(32, "then")]


def test_loop_invariant_quantifiers_are_computed_once_per_decision(tmp_path: Path) -> None:
    path = tmp_path / "hoist.cardgame"
    path.write_text(OPTIMISER_GAMES["hoist"], encoding="utf-8")
    fast, plain = _both(path, 0, {})
    src = fast.gen.source
    legal = src[src.index("def legal_"):src.index("LEGAL =")]
    loops = legal.split("for u_c in")
    assert len(loops) == 7  # one loop per move, three for `play` (unswitched twice)
    # `play`: `trick is empty` is tested once, before the loops (unswitching); in the arm
    # where it is not, neither `led` nor the quantifier can fail, and the quantifier (after
    # `or`) reads no card parameter: whether the player can follow is tested once too,
    # before the loops (unswitching a later disjunct). Where they cannot, every card, with
    # no test; where they can, the cards of the suit led, `led` computed once before the
    # loop. (`any d in Z: d.suit == led` is a membership test: the cards of the suit led,
    # `_V.get(led, ...)`, not disjoint from the hand.)
    # (each generator's code starts with a `# move NAME` line, which locates its errors)
    assert re.search(r"if \(not s\[\d+\]\):\s*(# move \w+\s*)?(_m\d+ = MV\d+\[me\]\s*)?$", loops[0])
    # (the trick's bottom card read unchecked where `trick is empty` is false, and the
    # hand not tested first: the suit led cannot fail there, `moves.test_code`)
    assert re.search(r"if \(not \(not _V\d+\.get\(SUIT\[s\[\d+\]\[0\]\], "
                     r"_V\d+\)\.isdisjoint\(s\[\(\d+ \+ me\)\]\)\)\):", loops[1])
    assert "if " not in loops[2].split("out.append")[0]
    led = re.search(r"(_h\d+) = SUIT\[s\[\d+\]\[0\]\]", loops[2])
    assert led and re.search(rf"if \(SUIT\[u_c\] == {led.group(1)}\):", loops[3])
    assert "_E(" not in loops[2] + loops[3].split("out.append")[0]
    loops = loops[1:]  # (the moves after `play`, as they were numbered)
    # `many`: the sum reads no card parameter and cannot fail, but runs only when the count
    # before its `and` holds: computed the first time it is reached, then remembered
    # (a sum of a value of the card alone: of a table of the deck, card by card in C)
    assert re.search(r"\((_h\d+) if \1 is not \.\.\. else \(\1 := sum\(map\(_P\d+\.__getitem__",
                     loops[5])
    assert not re.search(r"(_h\d+) = sum\(", loops[4])
    # `dump`: it may fail (`top of pile`): once, where first reached
    assert re.search(r"(_h\d+) = \.\.\.\s*(_m\d+ = MV\d+\[me\]\s*)?$", loops[2])
    assert " is not ... else (_h" in loops[3]
    # `pair`: the inner count reads the outer quantifier's variable, which reads c
    assert "_h" not in loops[4].split("out.append")[0].split("\n", 1)[1]
    assert not re.search(r"\b_h\d", plain.gen.source)  # plain code hoists nothing
    # the quantifier that fails, fails with the same message on the same seeds
    failed = 0
    for seed in range(8):
        st = fast.new_state(seed)
        rng = random.Random(seed)
        try:
            while legal_moves := fast.legal_moves(st):
                st = fast.apply(st, legal_moves[rng.randrange(len(legal_moves))])
        except RuleError as e:
            failed += 1
            assert "nothing there" in str(e) and ":21:76:" in str(e)
    assert 0 < failed < 8
    play_both(fast, plain, seeds=tuple(range(8)))


def test_legal_move_tests_unswitched_on_an_invariant_first_disjunct(tmp_path: Path) -> None:
    """`trick is empty or c.suit == led or ...` is tested once before the card loop; in
    the other arm the trick is known not to be empty, so `led` and the quantifier are
    computed once, before the loop. A first disjunct that may fail (`top of pile`) stays
    in the loop; one that reads the parameter (`c.rank > 10`) does too, but a later
    disjunct that reads none (`turns > 3`) is tested before the loop: every card where
    it holds, the first disjunct alone where not."""
    path = tmp_path / "unswitch.cardgame"
    path.write_text(OPTIMISER_GAMES["unswitch"], encoding="utf-8")
    fast, plain = _both(path, 0, {})
    src = fast.gen.source
    legal = src[src.index("def legal_"):src.index("LEGAL =")]
    loops = legal.split("for u_c in")
    assert len(loops) == 7  # follow three times (unswitched twice), risky, own twice
    # (each generator's code starts with a `# move NAME` line, which locates its errors)
    assert re.search(r"if \(not s\[\d+\]\):\s*(# move \w+\s*)?(_m\d+ = MV\d+\[me\]\s*)?$", loops[0])
    assert re.search(r"else:\s+(?:# move \w+\s+)?(_h\d+) = SUIT\[s\[\d+\]\[0\]\]", loops[2])
    assert "if ((RANK[(s[" in loops[4] and "_E(" in loops[4]  # risky: in the loop
    turns = fast.gen.var_base["turns"]
    assert re.search(rf"if \(s\[{turns}\] > 3\):\s*(# move own\s*)?(_m\d+ = MV\d+\[me\]\s*)?$",
                     loops[4])
    assert "if " not in loops[5].split("out.append")[0]  # own, turns > 3: every card
    assert "if (RANK[u_c] > 10):" in loops[6]  # own, else: in the loop
    assert legal.count("if (not s[") == 1
    plain_legal = plain.gen.source[plain.gen.source.index("def legal_"):]
    assert plain_legal.count("for u_c in") == 3  # plain code does not unswitch
    play_both(fast, plain, seeds=tuple(range(8)))


def test_legal_move_tests_unswitched_on_an_invariant_if(tmp_path: Path) -> None:
    """A conjunct `if T then A else B` (or a def whose body is one: `fits(c)`), T reading
    no parameter and unable to fail, is tested once before the loops: the conjunct is A
    in one arm, B in the other (`work is empty`: B knows work is not, and computes
    `(top of work).rank - 1` once). A T that may fail (`top of work`) or reads the
    parameter (`c.rank > 10` in `big`) stays where it is."""
    path = tmp_path / "branch.cardgame"
    path.write_text(OPTIMISER_GAMES["branch"], encoding="utf-8")
    fast, plain = _both(path, 0, {})
    src = fast.gen.source
    legal = src[src.index("def legal_"):src.index("LEGAL =")]
    work, pile = (fast.gen.zone_base[z] for z in ("work", "pile"))
    # place (unrolled over 3 slots), close and odd: `work is empty` / `pile is empty`
    # tested before their loops
    assert legal.count(f"if (not s[{work}]):") == 2
    assert legal.count(f"if (not s[{pile}]):") == 1
    parts = re.split(r"# move (\w+)", legal)
    code: dict[str, str] = {}  # each move's code (its arms, joined)
    for name, text in zip(parts[1::2], parts[2::2], strict=True):
        code[name] = code.get(name, "") + text
    place = code["place"]
    assert "RANK[s[" not in place.split("else:")[0]  # the arm where work is empty: no top
    assert f"(s[{work}] or _E(" not in place  # the other arm knows work is not empty
    assert code["close"].count("for u_c in") == 2 and f"(s[{pile}] or _E(" not in code["close"]
    # where an arm knows the zone is not empty, what reads its top and no parameter is
    # computed once, before the loops (here: one (top of work).rank - 1 for 3 slots)
    top = re.search(rf"(_h\d+) = RANK\[s\[{work}\]\[-1\]\]\s+(_h\d+) = \(\1 - 1\)", place)
    assert top and place.count(f"== {top.group(2)})") == 3
    assert "RANK[s[" not in place.replace(top.group(0), "")
    led = re.search(rf"(_h\d+) = SUIT\[s\[{pile}\]\[-1\]\]\s+(?:_m\d+ = MV\d+\[\w+\]\s+)?"
                    r"for u_c in", code["close"])
    assert led and f"(SUIT[u_c] == {led.group(1)})" in code["close"]
    risky = code["risky"]
    assert risky.count("for u_c in") == 1 and f"(s[{work}] or _E(" in risky  # may fail
    assert code["odd"].count("for u_c in") == 2  # big(c) stays; fits(c) is unswitched
    assert code["odd"].count("if (RANK[u_c] > 10)") == 2
    plain_legal = plain.gen.source[plain.gen.source.index("def legal_"):]
    assert plain_legal.count("for u_c in") == 3  # plain code does not unswitch
    play_both(fast, plain, seeds=tuple(range(8)))


def test_each_decision_has_a_specialised_step(tmp_path: Path) -> None:
    """Optimised code steps from each decision that is not simultaneous by its own
    function, with the flow to the next decision copied in (no node dispatch until the
    flow loops back to a node it copied); the loop over the players needs no index
    check, the loop over a computed list of players does."""
    path = tmp_path / "unswitch.cardgame"
    path.write_text(OPTIMISER_GAMES["unswitch"], encoding="utf-8")
    fast, plain = _both(path, 0, {})
    src = fast.gen.source
    assert re.search(r"^STEP = \{\d+: step_\d+\}$", src, re.M)
    step = src[src.index("def step_"):src.index("STEP =")]
    assert "NODES[" not in step and "raise _GameOver" in src
    assert re.search(r"run\(s, \d+, \d+\)", step)  # the while loop goes back: run takes over
    # the decision reached is settled by its generator, copied in; so is the effect of a
    # decision's only move, and those of a decision that offers several (here three:
    # each under a test of the move's id, not called through EFF)
    assert _from_table(step, "MV0[me]", "c") and "legal_" not in step
    assert "EFF[m[1]](s, m)" not in step and "_mid = m[1]" in step
    assert "STEP" not in plain.gen.source
    counted = compile_game(path, coverage=True)  # coverage: one store per arm, no copies
    assert "STEP" not in counted.gen.source
    proc = src[src.index("def p_count_up"):src.index("def eff_")]
    loops = re.findall(r"for (_f\d+) in", proc)
    assert len(loops) == 2
    first, second = proc.split(f"for {loops[1]} in")
    assert "_ix(" not in first and f"_ix({loops[1]}" in second
    plain_proc = plain.gen.source[plain.gen.source.index("def p_count_up"):]
    assert "_ix(_f1, 3" in plain_proc and "_ix(_q4, 3" in plain_proc  # plain code checks
    play_both(fast, plain, seeds=tuple(range(8)))
    # Arsène's `p chooses play` offers one move: its effect is copied into the step
    arsene = compile_game("arsene", 4).gen.source
    steps = arsene[arsene.index("STEP[s[0]]"):].split("def step_")[1:]
    assert all("EFF[m[1]]" not in st.split("\nSTEP =")[0] for st in steps)
    single = [st for st in steps if "_mid = m[1]" not in st]
    assert single and all("    try:\n        me = m[0]\n" in st for st in single)
    assert len(single) < len(steps)  # `keep | push`: two moves, each under a test of its id
    # the simultaneous decision of Interaction keeps the general step
    inter = compile_game("interaction", 3)
    assert re.search(r"^STEP = \{\d+: step_\d+\}$", inter.gen.source, re.M)
    assert len(inter.gen.decisions) == 2


def test_deal_in_one_pass_deals_as_card_by_card() -> None:
    """`_deal` deals a round of cards to distinct zones by slicing: the same cards in the
    same places as one card at a time from the top (zones named twice: card by card)."""
    g = compile_game("calculation")
    deal = g.ns["_deal"]
    rng = random.Random(3)
    for _ in range(200):
        k = rng.randrange(1, 5)
        dests = tuple(rng.choice(range(2, 8)) for _ in range(k))
        cards = tuple(rng.sample(range(52), rng.randrange(0, 30)))
        n = rng.choice([None, rng.randrange(0, 8)])
        if n is not None and n * k > len(cards):
            continue
        s: list[Any] = [()] * 9
        s[1] = cards
        for d in set(dests):
            s[d] = tuple(rng.sample(range(60, 70), 2))
        want = list(s)
        rounds = 0
        while (rounds < n) if n is not None else bool(want[1]):
            for d in dests:
                if n is None and not want[1]:
                    break
                want[d] = want[d] + (want[1][-1],)
                want[1] = want[1][:-1]
            rounds += 1
        deal(s, 1, dests, n, 0)
        assert s == want, (dests, n)


def test_distance_on_a_constant_cycle_is_inline(tmp_path: Path) -> None:
    """`distance(a, b, 13)` cannot fail: optimised code computes it in place; with a cycle
    length that is not a constant (it might be 0) it calls the checked helper. In place,
    the gap is computed once and the shorter way round chosen by a test (no `min` call)."""
    fast, plain = _both(ROOT / "games" / "interaction.cardgame", 3, {})
    assert "_dist(" not in fast.gen.source and "_dist(" in plain.gen.source
    # (chips_for(a, b) is a value of its two cards alone: computed in its table of the deck)
    assert re.search(r"\((_g\d+) if \(\1 := abs\(RANK\[_[ai]\d+\] - RANK\[_[ai]\d+\]\) % 13\) "
                     r"<= 13 - \1 else 13 - \1\)", fast.gen.source)
    assert "min(abs(" not in fast.gen.source
    path = tmp_path / "d.cardgame"
    path.write_text('game "D"\nplayers 1\ndeck standard\nzone pile\nvar n = 0\n'
                    "setup { move all of deck to pile }\n"
                    "move m when distance((top of pile).rank, 3, n) >= 0 {\n"
                    "  move top of pile to deck\n  n += 1\n}\n", encoding="utf-8")
    fast, plain = _both(path, 0, {})
    assert "_dist(" in fast.gen.source
    play_both(fast, plain, seeds=(1, 2))


FACTS = """\
game "Facts"
players 1
deck standard
zone pile[3]: face up
def below(r: int) = r - 1
def twice(r: int) = r + r
setup {
  shuffle deck
  for k in 1..3 { move top of deck to pile[k] }
}
move shift(a in pile, b in pile) "shift {a} {b}"
  when a != b and a is not empty
  when b is empty or (top of a).rank == below((top of b).rank)
{
  move top of a to b
}
move odd(a in pile) "odd {a}"
  when (if a is empty then 0 else (top of a).rank) > 11 or (a is empty and (top of a).rank > 2)
{
  move top of deck to a
}
move two(a in pile) "two {a}"
  when twice((top of a).rank) > 30
{
  move top of deck to a
}
"""


def test_facts_of_and_or_and_if_leave_out_empty_checks(tmp_path: Path) -> None:
    """After `Z is empty or`, `Z is not empty and` and in the matching arm of `if Z is
    empty then ... else ...`, `top of Z` needs no empty check; after `Z is empty and` it
    does. `below(r) = r - 1` takes its argument in place of a variable; a def that uses its
    parameter twice (or does more) binds it."""
    path = tmp_path / "facts.cardgame"
    path.write_text(FACTS, encoding="utf-8")
    fast, plain = _both(path, 0, {})
    src = fast.gen.source
    legal = src[src.index("def legal_"):src.index("LEGAL =")]
    shift, odd, two = legal.split("for u_a in")[1:4]
    assert "(not s[u_b]) or" in shift and "_E(" not in shift.split("(not s[u_b]) or")[1]
    # below, in place (the top's rank read from the list of the piles' tops' ranks,
    # test_optimize_tables)
    assert re.search(r"== \(\((?:RANK\[s\[u_b\]\[-1\]\]|_h\d+\[u_b\])\) - 1\)", shift)
    then, else_ = odd.split(" else ", 1)
    assert "_E(" not in else_.split("> 11")[0]  # the else arm: a is not empty
    assert "_E(" in odd.split("> 11")[1]  # after `a is empty and`: checked
    assert ":=" in two  # twice uses its parameter twice: it binds its argument
    assert "_E(" in plain.gen.source[plain.gen.source.index("def legal_"):].split("for u_a in")[1]
    play_both(fast, plain, seeds=tuple(range(6)))


# `any d in Z: d.ATTR == v` is lowered in optimised code to a membership test, the
# cards whose ATTR is v not disjoint from Z: `not _V.get(v, EMPTY).isdisjoint(Z)`
# (exprs.py, `value_sets`). Played against the plain code (a generator):
# the same moves, states and errors, and `v` is evaluated only when Z holds a card - as the
# generator evaluated it - so an empty pile fails `top of pile` only when the hand is not
# empty.
MEMBER_GAME = """\
game "Member"
players 2
deck standard
zone hand[player]: owner
zone pile: face up
var hits = 0
setup {
  shuffle deck
}
move draw "draw"
  when size(deck) > 0
{
  move top of deck to hand[me]
}
move discard(c in hand[me]) "discard {c}"
{
  move c to pile
}
move test "test"
{
  if any d in hand[me]: d.suit == (top of pile).suit { hits += 1 }
}
move clear "clear"
  when size(pile) > 0
{
  move all of pile to deck
}
move suited(c in hand[me]) "suited {c}"
  when any d in hand[me]: (top of pile).suit == d.suit
{
  move c to pile
}
flow {
  repeat 30 times {
    for p in players {
      p chooses draw | discard | test | clear | suited
    }
  }
}
score = hits
result highest score
"""


def test_membership_form_plays_as_the_generator(tmp_path: Path) -> None:
    path = tmp_path / "member.cardgame"
    path.write_text(MEMBER_GAME, encoding="utf-8")
    fast = compile_game(path)
    plain = compile_game(path, optimize=False)
    assert re.search(r"not _V\d+\.get\(SUIT\[.*\], _V\d+\)\.isdisjoint\(s\[", fast.gen.source)
    assert "map(" not in plain.gen.source and "isdisjoint" not in plain.gen.source
    errors = quiet_empty = 0
    for seed in range(40):
        a, b = _outcome(fast.new_state, seed), _outcome(plain.new_state, seed)
        assert a[0] == b[0] == "ok"
        sa, sb = a[1], b[1]
        rng = random.Random(seed)
        while True:
            la, lb = _outcome(fast.legal_moves, sa), _outcome(plain.legal_moves, sb)
            assert la == lb
            if la[0] == "error":
                errors += 1
                break
            if not la[1]:
                break
            move = la[1][rng.randrange(len(la[1]))]
            if (fast.move_names[move[1]] == "test" and not fast.zone_cards(sa, f"hand-p{move[0]}")
                    and not fast.zone_cards(sa, "pile")):
                quiet_empty += 1  # v would fail here: the empty hand must not evaluate it
            ra, rb = _outcome(fast.apply, sa, move), _outcome(plain.apply, sb, move)
            assert ra[0] == rb[0]
            if ra[0] == "error":
                assert ra == rb and "nothing there" in ra[1]
                errors += 1
                break
            assert ra[1] == rb[1]
            sa, sb = ra[1], rb[1]
    assert errors > 0 and quiet_empty > 0
def test_a_condition_written_as_a_def_is_unswitched_like_one_written_out(
        tmp_path: Path) -> None:
    """`when follows_suit(c, me)`, a def whose body is `trick is empty or ...` (as the
    tricks prelude writes it): the generator sees through the call, tests `trick is empty`
    once before the loop, and in the other arm computes `led` and the quantifier once per
    decision, as when the condition is written out in the move. A def whose first
    disjunct reads its parameter is left as it is."""
    text = OPTIMISER_GAMES["unswitch"].replace(
        "  when trick is empty or c.suit == led or not (any d in hand[me]: d.suit == led)\n",
        "  when follows_suit(c, me)\n").replace(
        "def led = (bottom of trick).suit\n",
        "def led = (bottom of trick).suit\n"
        "def follows_suit(c: card, p: player) =\n"
        "  trick is empty or c.suit == led or not (any d in hand[p]: d.suit == led)\n")
    path = tmp_path / "unswitch_def.cardgame"
    path.write_text(text, encoding="utf-8")
    fast, plain = _both(path, 0, {})
    src = fast.gen.source
    legal = src[src.index("def legal_"):src.index("LEGAL =")]
    loops = legal.split("for u_c in")
    # follow twice (unswitched), risky, own twice (its later disjunct `turns > 3`)
    assert len(loops) == 6
    assert re.search(r"if \(not s\[\d+\]\):\s*(# move \w+\s*)?(_m\d+ = MV\d+\[me\]\s*)?$", loops[0])
    led = re.search(r"else:\s+(?:# move \w+\s+)?(_h\d+) = SUIT\[s\[\d+\]\[0\]\]", loops[1])
    assert led and f"== {led.group(1)})" in loops[2].split("out.append")[0]
    assert legal.count("if (not s[") == 1  # the call is opened once, not again inside
    play_both(fast, plain, seeds=tuple(range(8)))
    # the first disjunct reads a parameter of the def: nothing is unswitched
    own = text.replace("  trick is empty or c.suit == led", "  c.rank > 10 or trick is empty"
                       " or c.suit == led")
    path.write_text(own, encoding="utf-8")
    fast, plain = _both(path, 0, {})
    legal = fast.gen.source[fast.gen.source.index("def legal_"):]
    # (follow's call stays whole: one loop; risky one; own two, on `turns > 3`)
    assert legal[:legal.index("LEGAL =")].count("for u_c in") == 4
    play_both(fast, plain, seeds=tuple(range(8)))


def test_quantifiers_where_a_statement_evaluates_them_are_loops(tmp_path: Path) -> None:
    """A quantifier in statement position (`x = count ...`, `let`, an `if`'s first test)
    is a loop of statements that stops at the answer (any, all, first), not a generator;
    a `let` and an inlined def's arguments are assignments; `a and b` runs b's statements
    only when a holds. What the loop computes that reads neither its variable nor
    anything bound in it is hoisted (`led`, lazily: it may fail). Plain code keeps the
    expressions; both play alike, errors included."""
    path = tmp_path / "statements.cardgame"
    path.write_text(OPTIMISER_GAMES["statements"], encoding="utf-8")
    fast, plain = _both(path, 0, {})
    src = fast.gen.source
    eff = src[src.index("def eff_0"):src.index("AUTO =")]
    # (`high = count d in hand[me] where d.rank > 9` and `every = all d in hand[me]: d.rank
    # > 1` test their card alone: a table of the deck and a set, no loop at all)
    assert re.search(r"= sum\(map\(_P\d+\.__getitem__, s\[\(\d+ \+ me\)\]\)\)", eff)
    assert re.search(r"= _P\d+\.isdisjoint\(s\[\(\d+ \+ me\)\]\)", eff)
    looped = re.sub(r"sum\(map\(_P\d+\.__getitem__", "", eff)
    for generator in ("sum(", "any(", "all(", "next((", "_min(["):
        assert not re.search(r"(?<!\w)" + re.escape(generator), looped), generator
    assert not re.search(r"\(_[al]\d+ :=", eff)  # lets and def arguments: assignments
    assert eff.count("for _q") == 4 and eff.count("break") == 1  # any stops early
    # `min` of nothing: the helper's error (the list's span, whether a `where` filtered it)
    assert re.search(r"_min\(\(\), \d+, \d+, True\)", eff)
    assert re.search(r"^        _a\d+ = \(s\[\d+\] or _E\(\d+, \d+\)\)\[-1\]$", eff, re.M)
    # gap's let, an assignment (gap reads `low`: not its cards' value alone, not a table)
    assert re.search(r"^        _l\d+ = \(_g\d+ if", eff, re.M)
    flow = src[src.index("def n_"):src.index("NODES =")]
    assert "next((" not in flow and "_max([" not in flow
    # the trick winner: a max loop that keeps the first index of the best (argmax: no
    # second loop), `led` hoisted lazily
    assert re.search(r"(_h\d+) = \.\.\.\n\s+(_r\d+) = None\n\s+(_n\d+) = 0\n\s+(_i\d+) = None\n"
                     r"\s+for _q\d+ in s\[\d+\]:\n\s+\3 \+= 1\n", flow)
    assert " is not ... else (_h" in flow
    # `share(winner) != none and size(pile) > 3`: the second test only when the first holds
    assert re.search(r"(_c\d+) = \(_r\d+ != None\)\n\s+if \1:\n\s+\1 = ", flow)
    # the flow's `if (count ...) == 3` around a choice: the loop is computed before the branch
    assert re.search(r"_r\d+ \+= 1\n    if \(_r\d+ == 3\): return \d+", flow)
    assert not re.search(r"^\s+for _q", plain.gen.source, re.M)  # plain: expressions
    assert "_min([" in plain.gen.source
    errors = set()
    for seed in range(12):
        try:
            fast.random_playout(seed, random.Random(seed))
        except RuleError as e:
            errors.add(str(e).splitlines()[0])
    assert errors == {f"{path}:40:11: rule error (in move play): the minimum of nothing: "
                      "pile is empty, or no element of it passes the test"}
    play_both(fast, plain, seeds=tuple(range(12)))


def test_a_random_pick_with_a_where_is_a_loop_then_one_draw() -> None:
    """Interaction's start player, `random p in players where score[p] == min(...)`: the
    players kept by a loop whose `min` (reading no player of the loop) is computed once,
    lazily, then one draw; without a `where` the pick stays an expression, its source
    given to `_pick` as it is (no list of its values built first)."""
    src = compile_game("interaction", 4).gen.source
    flow = src[src.index("def n_"):src.index("NODES =")]
    assert re.search(r"(_h\d+) = \.\.\.\n\s+(_r\d+) = \[\]\n\s+for _q\d+ in .*:\n"
                     r"\s+if not \(.*\1 if \1 is not \.\.\. else \(\1 := _min\(.*: continue\n"
                     r"\s+\2\.append\(_q\d+\)\n\s+\2 = _pick\(s, \2, \d+, \d+, True\)", flow)
    assert "_pick(s, tuple([" not in flow
    arsene = compile_game("arsene", 4).gen.source  # `random p in players`: no where
    assert "_pick(s, PLAYERS, " in arsene and "_pick(s, tuple([_q" not in arsene
    assert "_pick(s, s[9], " in arsene  # `move random c in widow`
    plain = compile_game("arsene", 4, optimize=False).gen.source
    assert "_pick(s, tuple([_q" in plain


def test_tests_known_when_compiling_are_folded() -> None:
    """`has_dummy and ...` with 4 players is False: no `(4 == 3)` left to evaluate."""
    four = compile_game("arsene", 4).gen.source
    assert "(4 == 3)" not in four and "4 == 3" not in four
    assert "(3 == 3)" not in compile_game("arsene", 3).gen.source
    # an option that is a truth value: `queen_breaks and is_queen(c)` is is_queen(c) when
    # it is on, and False when it is off
    on = compile_game("hearts", 4, {"queen_breaks": "true"}).gen.source
    off = compile_game("hearts", 4, {"queen_breaks": "false"}).gen.source
    assert "True and" not in on and "(True" not in on
    assert "False and" not in off and "or False)" in off


class _OwnRandrange(random.Random):
    """A Random whose randrange is its own (the same draws): the playout loop draws
    through it, not inline."""

    def randrange(self, *args: Any, **kw: Any) -> int:
        return super().randrange(*args, **kw)


def test_a_playout_draws_inline_as_randrange_does() -> None:
    """The fast path draws each move's index with `getrandbits` inline (where
    `codegen.runtime.draws_below` found that to be `_randbelow` on this Python): the same games as
    drawing through `randrange`, seed for seed."""
    from cardgame.interpreter.engine import playout

    assert playout._INLINE_BELOW
    for name, n in (("hearts", 4), ("oh-hell", 3), ("arsene", 4), ("calculation", None)):
        g = compile_game(name, n)
        for seed in range(4):
            a = g.random_playout(seed, random.Random(seed))
            b = g.random_playout(seed, _OwnRandrange(seed))
            assert a == b


def test_a_step_resets_the_budget_only_for_parts_that_draw_from_it() -> None:
    """The effects of Arsène's moves of one card (lay_trump, show, play) draw nothing
    from the step budget: their steps reset it for the flow only; keep | push (a
    procedure call) resets it for the effect too. The legal moves of `play` draw nothing
    either: the step of `play` resets the budget once, for the flow."""
    src = compile_game("arsene", 4).gen.source
    steps = src[src.index("STEP[s[0]]"):].split("def step_")[1:]
    inlined = [st for st in steps if "    try:\n        me = m[0]\n" in st]
    assert len(inlined) == 3
    assert all("the move's effect: one budget" not in st for st in inlined)
    play = [st for st in inlined if "s[16] = s[16] + (u_c,)" in st.split("except _GameOver")[0]]
    assert len(play) == 1 and play[0].count("_B[0] = ") == 1  # the flow's
    # (keep | push: each move's effect under a test of its id, `step.chosen_effect`)
    keep_push = [st for st in steps if "_mid = m[1]" in st.split("except _GameOver")[0]]
    assert len(keep_push) == 1
    assert all("the move's effect: one budget" in st for st in keep_push)


def test_trick_game_rules(tmp_path: Path) -> None:
    """The rules that make trick games fast, on a small one:
    - unswitching: `trick is not empty or ...` after `trick is empty` is decided by that
      test, with no test of its own and without using up a level: the next invariant
      test (`played != 0`) is unswitched too (four loops, and no `if (not not s[`);
    - a quantifier after `or` (`all d in hand[me]: ...`) is computed lazily, once at most;
    - `can_follow(me)`: the def's parameter is a player, so `hand[p]` needs no check;
    - the flow's `let w = ...[first i in 1..size(trick) where (trick[i]).suit == ...]` is a
      loop that stops, reading `trick[i]` unchecked (i is a position of the trick, which
      an expression cannot change), with `led` and `best` hoisted out of it;
    - the step from `play` copies the flow breadth first: the middle of a trick (the
      next player's legal moves) is straight-line code, with no `run` on its path."""
    path = tmp_path / "tricks.cardgame"
    path.write_text(OPTIMISER_GAMES["tricks"], encoding="utf-8")
    fast, plain = _both(path, 0, {})
    src = fast.gen.source
    legal = src[src.index("def legal_"):src.index("LEGAL =")]
    assert legal.count("for u_c in") == 4
    assert "if (not not s[" not in legal
    assert len(re.findall(r"^ +if \(s\[\d+\] != 0\):$", legal, re.M)) == 2
    # the `all`s: lazily; each is a test of its card alone, so the cards for which it
    # fails are a set computed once for the deck, which the hand must not meet
    assert not re.search(r"_h\d+ = _P\d+", legal) and "all(" not in legal
    assert re.search(r"\((_h\d+) if \1 is not \.\.\. else \(\1 := _P\d+\.isdisjoint\(s\[", legal)
    assert re.search(r"^_P\d+ = frozenset\(\[_i for _i in range\(52\) if not ", src, re.M)
    assert "_ix(me" not in src
    flow = src[src.index("def n_"):src.index("NODES =")]
    # (1..size(trick) spans at most 51 values: a plain range, with no check of its length)
    assert "next((" not in flow and re.search(r"for _q\d+ in _n\(range\(1, \(len\(s\[", flow)
    assert "_rng(" not in flow and "_rng(" in plain.gen.source
    assert not re.search(r"_at\(s\[\d+\], _q", flow)
    assert len(re.findall(r"s\[\d+\]\[_q\d+ - 1\]", flow)) == 2  # both reads of trick[i]
    assert "_at(s[" in flow  # (`led`, trick[1], is checked: it is read lazily, once)
    step = src[src.index("def step_"):src.index("STEP =")]
    # the step's last lines at its outermost level: the next player's moves, settled here
    flow_part = step[:step.rindex("    except _GameOver:  # `end`")]
    top = [ln for ln in flow_part.splitlines() if re.match(r"^ {8}\S", ln)]
    assert top[-1] == "        return _legal"
    assert "run(s, " in step  # the end of a deal (the long way round) goes back to run
    play_both(fast, plain, seeds=tuple(range(8)))
    # the plain code of the same game does none of it
    assert "_at(s[" in plain.gen.source and "STEP" not in plain.gen.source


def test_a_set_of_cards_leaves_the_zone_it_was_chosen_from() -> None:
    """`move cards to ...` for a parameter `cards in 3 of hand[me]`: optimised code takes
    the set from hand[me] in one pass (`_take_many`, which looks elsewhere for a card that
    has moved); plain code looks for each card in every zone. Both play alike."""
    fast = compile_game("hearts", 4)
    plain = compile_game("hearts", 4, optimize=False)
    eff = fast.gen.source[fast.gen.source.index("def eff_0"):fast.gen.source.index("def eff_1")]
    assert re.search(r"_take_many\(s, \(\d+ \+ me\), _cs\d+, \d+\)", eff)
    assert "_take_any" not in eff
    assert "_take_any" in plain.gen.source[plain.gen.source.index("def eff_0"):]
    play_both(fast, plain, seeds=(3, 4))


def test_values_of_a_card_alone_are_tables_of_the_deck(tmp_path: Path) -> None:
    """A test or a number that reads only its card (attributes, constants, options,
    defs of such; nothing that may fail) is computed once for every card of the deck,
    when the module is loaded: `any c in Z: P(c)` is `not S.isdisjoint(s[Z])`, `all` the
    cards where P fails disjoint from Z, `first` the first card of Z in S, `count` and
    `sum` the sum of a table over Z, and a def of a certain card (a parameter, a
    quantifier's variable) a table read at the card. Plain code has none of it; both play
    alike."""
    path = tmp_path / "deck.cardgame"
    path.write_text(OPTIMISER_GAMES["deck"], encoding="utf-8")
    fast, plain = _both(path, 0, {})
    src = fast.gen.source
    tables = re.findall(r"^(_P\d+) = (tuple|frozenset)\(\[", src, re.M)
    assert len(tables) >= 5
    assert re.search(r"\(not _P\d+\.isdisjoint\(s\[\(\d+ \+ me\)\]\)\)", src)  # any good(d)
    assert re.search(r"_P\d+\.isdisjoint\(s\[\(\d+ \+ me\)\]\)", src)  # all d.rank != 1
    assert re.search(r"next\(\((_q\d+) for \1 in s\[\(\d+ \+ s\[\d+\]\)\] if \1 in _P\d+\), None\)",
                     src)  # first ... where value(c) < 5
    assert re.search(r"sum\(map\(_P\d+\.__getitem__, s\[\d+\]\)\)", src)  # sum over the pile
    assert re.search(r"_P\d+\[u_c\]", src)  # good(c), value(c) of the parameter
    # `count d in hand[me] where d.suit == c.suit and face(d)` reads c: a generator
    assert "sum(1 for _q" in src
    assert "_P" not in plain.gen.source
    play_both(fast, plain, seeds=tuple(range(8)))
    off = compile_game(path, settings={"strict": "false"})
    play_both(off, compile_game(path, settings={"strict": "false"}, optimize=False),
              seeds=tuple(range(4)))


def test_a_simultaneous_round_keeps_the_others_moves(tmp_path: Path) -> None:
    """While a simultaneous round goes on, the fast path does not list the legal moves
    again: they are the ones listed before, less the chooser's (the generator lists the
    players who have not chosen, in turn, from a state that only the pending choices and
    the move count changed). The same games as listing them again (plain code does, as
    the API does), seed for seed; not where a move's test reads `moves_played`."""
    for name, n in (("hearts", 4), ("interaction", 3), ("arsene", 3)):
        fast, plain = compile_game(name, n), compile_game(name, n, optimize=False)
        assert fast._sim_kept == fast._sim != frozenset()
        for seed in range(6):
            assert (fast.random_playout(seed, random.Random(seed))
                    == plain.random_playout(seed, random.Random(seed)))
    path = tmp_path / "count.cardgame"
    path.write_text("""\
game "Count"
players 3
deck standard
zone hand[player]: owner
zone pile: face up
move give(c in hand[me]) "give {c}" when moves_played % 2 == 0 or c.rank > 6 {
  move c to pile
}
flow {
  shuffle deck
  deal 4 from deck to hand
  repeat 3 times { simultaneously players choose give }
}
""", encoding="utf-8")
    counted = compile_game(path)
    assert counted._sim and not counted._sim_kept
    play_both(counted, compile_game(path, optimize=False), seeds=tuple(range(6)))
    # read through a def (and a def it calls): the same
    through = path.read_text(encoding="utf-8").replace(
        'move give(', 'def turn() = moves_played\ndef even() = turn() % 2 == 0\nmove give(').replace(
        "when moves_played % 2 == 0", "when even()")
    path.write_text(through, encoding="utf-8")
    counted = compile_game(path)
    assert counted._sim and not counted._sim_kept
    play_both(counted, compile_game(path, optimize=False), seeds=tuple(range(6)))


def test_a_let_that_is_certainly_a_player_indexes_unchecked(tmp_path: Path) -> None:
    """`let w = (players from leader)[...]`, `let t = left of p`: certainly a player (or
    the evaluation failed), so `taken[w]` and `w chooses` need no check; not when the
    let is assigned later (it may become none), and not in plain code."""
    path = tmp_path / "tricks.cardgame"
    path.write_text(OPTIMISER_GAMES["tricks"], encoding="utf-8")
    flow = compile_game(path).gen.source
    flow = flow[flow.index("def n_"):flow.index("NODES =")]
    assert re.search(r"\(\d+ \+ s\[\d+\]\)", flow) and "_ix(" not in flow
    assert "_ix(" in compile_game(path, optimize=False).gen.source
    assigned = OPTIMISER_GAMES["tricks"].replace(
        "      move all of trick to taken[w]\n",
        "      move all of trick to taken[w]\n      if played > 9 { w = first p in players where false }\n")
    path.write_text(assigned, encoding="utf-8")
    fast = compile_game(path)
    flow = fast.gen.source[fast.gen.source.index("def n_"):fast.gen.source.index("NODES =")]
    assert "_ix(" in flow
    play_both(fast, compile_game(path, optimize=False), seeds=tuple(range(4)))
    # `players from left of dealer`, `left of dealer chooses`: a player, unchecked (and
    # the variable `dealer` itself always holds a player: player_vars)
    oh = compile_game("oh-hell", 3).gen.source
    assert "ORDER[_player((_player(" not in oh and "ORDER[(s[" in oh
    assert "ORDER[_player((_player(" in compile_game("oh-hell", 3, optimize=False).gen.source


def test_the_nth_set_read_from_a_table_is_the_counted_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """runtime.nth_set reads a set of few (n choose k <= POSITIONS_MAX) from the list of
    `combinations(range(n), k)`, else counts: the same set for every index either way;
    and SetMoves.without(p) is the list of moves less p's, in order."""
    from cardgame.interpreter.codegen import runtime

    ids = (3, 8, 9, 20, 31, 40, 47, 51, 52, 60)
    tabled = {(n, k): [runtime.nth_set(ids[:n], k, i) for i in range(comb_(n, k))]
              for n in range(len(ids) + 1) for k in range(n + 1)}
    assert runtime._POSITIONS  # the tables were used
    monkeypatch.setattr(runtime, "POSITIONS_MAX", -1)
    monkeypatch.setattr(runtime, "_POSITIONS", {})
    for (n, k), sets in tabled.items():
        assert sets == list(itertools.combinations(ids[:n], k))
        assert [runtime.nth_set(ids[:n], k, i) for i in range(len(sets))] == sets
    assert not runtime._POSITIONS  # counted
    moves = runtime.SetMoves([(1, 0, 5), (2, 0, 6)])
    moves.parts.append((10, (2, 1), ids[:5], 3))
    moves.n += 10
    moves.parts.append((10, (3, 1), ids[:5], 2))
    moves.n += 10
    moves.append((3, 2))
    for p in (1, 2, 3, 4):
        assert list(moves.without(p)) == [m for m in moves if m[0] != p]
        assert len(moves.without(p)) == len([m for m in moves if m[0] != p])


def comb_(n: int, k: int) -> int:
    from math import comb

    return comb(n, k)


PAIRS = """\
game "Pairs"
players 2
deck standard
zone hand[player]: owner
zone west
zone east
var total = 0
var mover: player = 1
def close(a: card, b: card) = let d = distance(a.rank, b.rank, 13) in
  (if a.suit == b.suit then 1 else 0) + (if d <= 2 then 3 - d else 0)
def near(a: card, b: card) = distance(a.rank, b.rank, 13) <= 1
setup {
  shuffle deck
  deal 3 from deck to hand
}
move onto_west(c in hand[me]) "{c} to the west" {
  move c to west
  total += close(top of east, top of west)
}
move onto_east(c in hand[me]) "{c} to the east" {
  move c to east
  total += close(top of west, top of east)
}
move pair(c in hand[me], d in hand[me]) "{c} and {d}" when c != d and near(c, d) {
  move c to west
  move d to east
}
flow {
  repeat {
    mover chooses onto_west | onto_east | pair
    mover = left of mover
  }
}
"""


def test_a_def_of_two_cards_is_a_table_of_the_deck(tmp_path: Path) -> None:
    """A def whose value is one of its cards' attributes alone (`close(a, b)`, `near`),
    called with cards that are certainly cards (the tops of zones, a move's cards), is read
    from a table of the deck's pairs filled when the module loads. Its arguments are still
    evaluated left to east: `top of west` of an empty zone fails first, else `top of
    right`, with the same error as plain code (every game below ends in one)."""
    path = tmp_path / "pairs.cardgame"
    path.write_text(PAIRS, encoding="utf-8")
    fast, plain = _both(path, 0, {})
    src = fast.gen.source
    tables = re.findall(r"^(_P\d+) = tuple\(\[.* for _i0 in range\(52\) for _i1 in "
                        r"range\(52\)\]\)$", src, re.M)
    assert len(tables) == 2  # close and near, each once
    eff = src[src.index("def eff_0"):src.index("AUTO =")]
    assert "distance" not in eff and "_g" not in eff and "SUIT[" not in eff
    for t in tables:
        assert f"{t}[" in src.split(t + " = ")[0]
    # the first argument's top first, then the second's: the same error as plain code
    assert re.search(r"_P\d+\[\(\(s\[\d+\] or _E\(\d+, \d+\)\)\[-1\]\) \* 52 \+ "
                     r"\(s\[\d+\] or _E\(\d+, \d+\)\)\[-1\]\]", eff)
    errors = 0
    for seed in range(12):
        play_both(fast, plain, seeds=(seed,))
        st = fast.new_state(seed)
        rng = random.Random(seed)
        while fast.legal_moves(st):
            legal = fast.legal_moves(st)
            try:
                st = fast.apply(st, legal[rng.randrange(len(legal))])
            except RuleError as e:
                assert "nothing there" in str(e)
                errors += 1
                break
    assert errors == 12  # a top of an empty zone, reported as before


VARS = """\
game "Vars"
players 3
deck standard
zone hand[player]: owner
zone pile: face up
var turn_of: player = 1
var dealer: player = 2
var maybe: player = 1
var taken[player] = 0
def first_rich = first p in players where taken[p] > 2
setup {
  shuffle deck
  deal 4 from deck to hand
  dealer = random p in players
}
proc take(p: player, q: player) {
  taken[p] += 1
  taken[q] += 0
}
move play(c in hand[me]) "play {c}" {
  move c to pile
  take(turn_of, maybe)
  take(me, dealer)
}
flow {
  repeat {
    turn_of chooses play
    turn_of = left of turn_of
    maybe = first_rich
    dealer chooses play
  }
}
example "set" {
  set turn_of = p2
  expect turn_of == p2
}
"""


def test_a_player_variable_that_always_holds_a_player_is_read_unchecked(
        tmp_path: Path) -> None:
    """A player variable whose initial value, assignments (`left of`, `random p in
    players`) and examples' `set`s are all certainly players is read without `_player` or
    `_ix` checks, and so is a procedure's parameter that every call gives such a value;
    one assigned something that may be none (`first ... where`) keeps its checks, and so
    does the parameter it is passed to. Plain code checks all; both play alike."""
    path = tmp_path / "vars.cardgame"
    path.write_text(VARS, encoding="utf-8")
    fast, plain = _both(path, 0, {})
    src = fast.gen.source
    slots = {name: fast.gen.var_base[name] for name in ("turn_of", "dealer", "maybe")}
    assert f"_player(s[{slots['turn_of']}]" not in src
    assert f"_player(s[{slots['dealer']}]" not in src
    take = src[src.index("def p_take"):src.index("def eff_0")]
    # p: turn_of or me, a player; q: maybe (may be none) or dealer
    assert "_ix(u_p," not in take and "_ix(u_q," in take
    assert "_player(" in plain.gen.source and "_ix(u_p," in plain.gen.source
    play_both(fast, plain, seeds=tuple(range(6)))
    # an example that sets one to something that may be none: checked again
    path.write_text(VARS.replace("set turn_of = p2", "set turn_of = first_rich")
                    .replace("expect turn_of == p2", "expect true"), encoding="utf-8")
    fast = compile_game(path)
    assert f"_player(s[{slots['turn_of']}]" in fast.gen.source
    assert "_ix(u_p," in fast.gen.source


def _from_table(src: str, row: str, var: str) -> bool:
    """Does src list a move from the row `row` of its table, read once before the loop
    over the last parameter `var` (`_m = MV1[me]`, then `out.append(_m[u_c])`)?"""
    return re.search(rf"(_m\d+) = {re.escape(row)}\n\s+for u_{var} in [^\n]*:\n"
                     rf"(?:\s+if [^\n]*:\n)?\s+out\.append\(\1\[u_{var}\]\)", src) is not None


def test_a_move_of_one_card_is_listed_from_a_table_of_its_moves() -> None:
    """A move whose one parameter is a card of a zone lists `(me, mid, c)` from a table of
    every seat's and card's move, made when the module loads (no tuple built per legal
    move), its row for `me` read once before the loop; a move of two cards reads `(me,
    mid, f, c)` from a table of rows, the row of `me` and `f` read before the loop over
    c. Plain code builds them all; the moves listed are the same, in the same order."""
    fast, plain = _both(ROOT / "games" / "interaction.cardgame", 4, {})
    src = fast.gen.source
    assert re.search(r"^MV1 = tuple\(tuple\(\(p, 1, c\) for c in range\(53\)\) "
                     r"for p in range\(5\)\)$", src, re.M)
    assert _from_table(src, "MV1[me]", "c") and "out.append((me, 1, u_c))" not in src
    assert re.search(r"^MV3 = tuple\(tuple\(tuple\(\(p, 3, c, d\) for d in range\(53\)\) "
                     r"for c in range\(53\)\) for p in range\(5\)\)$", src, re.M)
    assert _from_table(src, "MV3[me][u_f]", "c")  # (two cards)
    assert "out.append((me, 3, u_f, u_c))" not in src
    assert "MV1" not in plain.gen.source and "MV3" not in plain.gen.source
    assert "out.append((me, 3, u_f, u_c))" in plain.gen.source
    play_both(fast, plain, seeds=(1, 2, 3))


def test_moves_of_zones_and_numbers_are_listed_from_tables(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """The tables also hold the moves whose parameters are zones of an array (their slots:
    Besieged Castle's `shift(a in column, b in column)`) or numbers of a constant range.
    A move whose table would hold more than MOVE_TABLE_MAX moves builds its tuples, and
    an unrolled move of constants stays a constant tuple. The moves are the same."""
    fast, plain = _both(ROOT / "games" / "besieged-castle.cardgame", 0, {})
    src = fast.gen.source
    assert _from_table(src, "MV0[1][u_a]", "b") and _from_table(src, "MV1[1]", "a")
    assert "out.append((me, 0, u_a, u_b))" in plain.gen.source
    play_both(fast, plain, seeds=(1, 2, 3))
    calc = compile_game(ROOT / "games" / "calculation.cardgame")  # (unrolled: constants)
    assert "out.append((1, 1, 1))" in calc.gen.source and "MV1" not in calc.gen.source
    checked = compile_game(ROOT / "games" / "interaction.cardgame", 4).checked
    assert _from_table(generate(checked).source, "MV3[me][u_f]", "c")
    monkeypatch.setattr(moves_mod, "MOVE_TABLE_MAX", 5 * 53 * 53 - 1)
    small = generate(checked).source  # (compile_game would answer from its cache)
    assert "out.append((me, 3, u_f, u_c))" in small and "MV3" not in small  # (too big)
    assert _from_table(small, "MV1[me]", "c")


def test_a_decider_known_when_compiling_lists_constant_moves(tmp_path: Path) -> None:
    """Where a decision's decider is known when compiling (the only player of a solitaire,
    or `1 chooses` in a game of three), its generators are written for that player: the
    moves they list are constants (`(1, 2, 3)`), not tuples built from `me`. A decision
    of a player only known when playing lists `(me, ...)`. The moves are the same."""
    fast, plain = _both(ROOT / "games" / "chains.cardgame", 1, {})
    legal = fast.gen.source[fast.gen.source.index("def legal_"):]
    assert "out.append((1, 2, 5))" in legal and "(me, " not in legal
    assert "out.append((me, 2, u_i))" in plain.gen.source
    play_both(fast, plain, seeds=(1, 2, 3))
    text = """\
game "Who"
players 3
deck standard
zone hand[player]: owner
zone pile: face up
setup { shuffle deck  deal 4 from deck to hand }
move give(i in 1..2) "give {i}" when hand[me] is not empty { move top of hand[me] to pile }
flow {
  repeat {
    1 chooses give
    for p in players { p chooses give }
  }
}
end when hand[1] is empty
"""
    path = tmp_path / "who.cardgame"
    path.write_text(text, encoding="utf-8")
    fast, plain = _both(path, 0, {})
    src = fast.gen.source
    legal = src[src.index("def legal_"):src.index("LEGAL =")]
    assert legal.count("out.append((1, 0, 2))") == 1 and legal.count("out.append((me, 0, 2))") == 1
    play_both(fast, plain, seeds=tuple(range(6)))


CHECKS = """\
game "Checks"
players 2
deck standard
var chips[player] = 0
var pos = 1
def richest = first p in players where chips[p] > 5
proc pay(p: player) {
  chips[p] += 1
}
move go "go" {
  pos += 1
  let order = players from left of me
  chips[order[pos]] += 1
}
move stop "stop" {
  pay(richest)
}
flow {
  repeat {
    for p in players {
      p chooses go | stop
    }
  }
}
"""


def test_a_range_check_of_a_plain_read_is_written_out_and_fails_alike(
        tmp_path: Path) -> None:
    """Optimised code checks an index, a position or a player that it reads without
    computing anything (a name, a slot) in line, calling the helper only to raise its
    error: the same errors as plain code, which calls the helper every time (here a
    procedure's parameter that is none, and a position past the end of a list)."""
    path = tmp_path / "checks.cardgame"
    path.write_text(CHECKS, encoding="utf-8")
    fast, plain = _both(path, 0, {})
    src = fast.gen.source
    assert "(u_p if u_p.__class__ is int and 0 < u_p <= 2 else _ix(u_p, 2, " in src
    assert re.search(r"\((\w+)\[s\[\d+\] - 1\] if s\[\d+\]\.__class__ is int and "
                     r"0 < s\[\d+\] <= len\(\1\) else _at\(\1, s\[\d+\], \d+\)\)", src)
    assert "__class__" not in plain.gen.source
    errors = set()
    for seed in range(12):
        a = _outcome(fast.random_playout, seed, random.Random(seed), PLAYOUT)
        b = _outcome(plain.random_playout, seed, random.Random(seed), PLAYOUT)
        assert a == b and a[0] == "error"
        errors.add(a[1].split("rule error ")[1])
    assert errors == {"(in proc pay): index None is out of range 1..2",
                      "(in move go): position 3 is out of range 1..2"}
    play_both(fast, plain, seeds=(0, 1, 2))


RANKS = """\
game "Ranks"
players 1
deck standard
zone column[4]: face up
zone pile: face up
def below(r: int) = if r == A then K else r - 1
def minus(r: int) = r - 1
setup {
  shuffle deck
  deal 3 from deck to column
}
move shift(a in column, b in column) "shift"
  when a != b and a is not empty
  when b is empty or (top of a).rank == below((top of b).rank)
  when b is empty or (top of a).rank != minus((top of b).rank) + 20
{
  move top of a to b
}
move drop(a in column) "drop" when below((top of a).rank) > 5 {
  move top of a to pile
}
limit 30 moves
"""


def test_a_def_of_a_cards_rank_is_a_table_of_the_deck(tmp_path: Path) -> None:
    """`below((top of b).rank)`, a def of one number that is a value of that number
    alone (more than one test or sum), is read from a table of every card of the deck,
    filled when the module loads, at the card; the card is evaluated in place, so `top
    of a` of an empty column fails as it did (plain code agrees). A def with a single sum
    (`minus`) stays inline."""
    path = tmp_path / "ranks.cardgame"
    path.write_text(RANKS, encoding="utf-8")
    fast, plain = _both(path, 0, {})
    src = fast.gen.source
    table = re.search(r"^(_P\d+) = tuple\(\[\(13 if \(RANK\[_i\] == 1\) else \(RANK\[_i\] - 1\)\) "
                      r"for _i in range\(52\)\]\)$", src, re.M)
    assert table
    assert re.search(rf"{table.group(1)}\[s\[u_b\]\[-1\]\]", src)  # shift: b not empty
    assert re.search(rf"{table.group(1)}\[\(s\[u_a\] or _E\(\d+, \d+\)\)\[-1\]\]", src)  # drop
    assert "13 if" not in src[src.index("def legal_"):src.index("LEGAL =")]
    assert "- 1) + 20" in src  # minus: inline
    assert "RANK[_i]" not in plain.gen.source
    play_both(fast, plain, seeds=tuple(range(6)))
    a = _outcome(fast.random_playout, 3, random.Random(3), PLAYOUT)
    assert a == _outcome(plain.random_playout, 3, random.Random(3), PLAYOUT)


def test_the_card_at_a_position_of_a_zone_is_a_card_of_that_zone(tmp_path: Path) -> None:
    """`lift(pile[2])`, a def inlined with the card at a position of a zone: that card
    certainly comes from the zone (or the position fails), so `power(c)` in it, a def of
    its card alone, is read from a table of the deck, as for a loop's card (Arsène's
    `strength(trick[i])`)."""
    text = RANKS.replace("def minus(r: int) = r - 1\n", "def minus(r: int) = r - 1\n"
                         "def power(c: card) = if c.rank == A then 14 else c.rank\n"
                         "def lift(c: card) = power(c) + size(pile)\n").replace(
        'move drop(a in column) "drop" when below((top of a).rank) > 5 {',
        'move drop(a in column) "drop" when size(pile) < 2 or lift(pile[2]) > 5 {')
    path = tmp_path / "power.cardgame"
    path.write_text(text, encoding="utf-8")
    fast, plain = _both(path, 0, {})
    table = re.search(r"^(_P\d+) = tuple\(\[\(14 if \(RANK\[_i\] == 1\) else RANK\[_i\]\) "
                      r"for _i in range\(52\)\]\)$", fast.gen.source, re.M)
    assert table and f"{table.group(1)}[" in fast.gen.source
    play_both(fast, plain, seeds=tuple(range(6)))


def test_a_zone_variable_that_always_holds_a_zone_is_read_unchecked(tmp_path: Path) -> None:
    # (test_zone_vars' game: aim starts as a zone, and every value given it is one)
    text = HEAD.replace("var aim: zone = none", "var aim: zone = other") + PICK.format(
        when="size(aim) < 5").replace("if aim == none { aim = pile }", "aim = pile")
    p = tmp_path / "sure.cardgame"
    p.write_text(text, encoding="utf-8")
    # (a check names its variable: mine, an array that starts none, is checked)
    assert "'an element of mine'" in compile_game(p).gen.source
    assert "'aim'" not in compile_game(p).gen.source
    # once a rule may set it to none, its reads as a zone are checked
    p.write_text(text.replace("aim = pile", "aim = none"), encoding="utf-8")
    assert "'aim'" in compile_game(p).gen.source
