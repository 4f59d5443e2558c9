"""Regressions of issue 16's bugs, and its orders on cards and optional values."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.errors import Diagnostic, Diagnostics, RuleError, Span

DATA = Path(__file__).resolve().parent / "data" / "lang16"


def compile_text(tmp_path: Path, text: str, name: str = "t", **kw: Any) -> Any:
    p = tmp_path / f"{name}.cardgame"
    p.write_text(text, encoding="utf-8")
    return compile_game(p, **kw)


def errors_of(tmp_path: Path, text: str) -> list[Diagnostic]:
    with pytest.raises((Diagnostic, Diagnostics)) as ei:
        compile_text(tmp_path, text)
    e = ei.value
    return list(e.items) if isinstance(e, Diagnostics) else [e]


def play_out(g: Any, seed: int = 1, steps: int = 200) -> Any:
    st = g.new_state(seed)
    for _ in range(steps):
        if g.is_terminal(st):
            break
        st = g.apply(st, g.legal_moves(st)[0])
    return st


HEAD = 'game "T"\nplayers 1\ndeck standard\nzone table: face up\n'


# ------------------------------------------------------------- the quantifier of the issue
@pytest.mark.parametrize("optimize", [True, False])
def test_quantifier_over_def_with_compound_argument_and_inner_quantifier(optimize: bool) -> None:
    """`any m in 1..d(n + 1): (any i in [1]: i > 0)` crashed in the generated code
    (UnboundLocalError on a temporary); it plays to the end both ways."""
    g = compile_game(DATA / "quant_def_compound.cardgame", optimize=optimize)
    st = play_out(g)
    assert g.is_terminal(st)
    assert len(g.zone_cards(st, "table")) == 52


@pytest.mark.parametrize("optimize", [True, False])
def test_quantifier_variants_with_parameters(tmp_path: Path, optimize: bool) -> None:
    """The same shape inside parameter loops (hoisting), with the def's argument reading
    the parameter, and nested in a def."""
    g = compile_text(tmp_path, HEAD + '''
var n = 3
def d(i: int) = i
def e(i: int) = any j in 1..d(i + 1): (any k in [j]: k > 0)
move take(k in 1..20, c in top 1 of deck) "take"
  when any m in 1..d(n + k): (any i in [m]: i > 0) and e(n + k) {
  move top of deck to table
}
end when deck is empty
''', optimize=optimize)
    st = play_out(g)
    assert g.is_terminal(st)


def test_an_internal_failure_names_file_and_line() -> None:
    """A Python exception in generated code (a compiler slip) becomes a RuleError that
    names the rule and the place of its declaration, found from the traceback."""
    from cardgame.interpreter.engine.playout import _Translate

    span = Span("g.cardgame", 7, 1, 7, 5)
    src = "def legal_3(s):\n    out = []\n    # move take\n    return 1 // s\n"
    ns: dict[str, Any] = {"_WHERE": {"move take": ("move take", span)}}
    exec(compile(src, "<cardgame G>", "exec"), ns)
    import linecache
    linecache.cache["<cardgame G>"] = (len(src), None, src.splitlines(True), "<cardgame G>")
    with pytest.raises(RuleError) as ei, _Translate("legal moves"):
        ns["legal_3"](0)
    assert str(ei.value).startswith("g.cardgame:7:1: rule error (in move take): "
                                    "ZeroDivisionError")


# ------------------------------------------------------------- count of a list of zones
def test_count_of_zones_counts_zones_size_counts_cards(tmp_path: Path) -> None:
    g = compile_text(tmp_path, '''
game "T"
players 3
deck standard
zone hand[player]: owner
var zones = 0
var cards = 0
setup { deal 2 from deck to hand }
move look {
  zones = count(hand)
  cards = size(hand)
}
flow { 1 chooses look
       end }
''')
    st = g.apply_text(g.new_state(1), "look")
    assert g.var(st, "zones") == 3
    assert g.var(st, "cards") == 6


# ------------------------------------------------------------- top n of a short zone
@pytest.mark.parametrize("optimize", [True, False])
def test_top_n_parameter_of_a_short_zone_offers_what_is_there(tmp_path: Path,
                                                              optimize: bool) -> None:
    g = compile_text(tmp_path, HEAD + '''
move back(c in top 1 of table) "put {c} back" { move c to deck }
move back3(c in top 3 of table) "put {c} back" { move c to deck }
move draw "draw" when deck is not empty { move top of deck to table }
end when size(table) == 5
''', optimize=optimize)
    st = g.new_state(1)
    assert [g.move_text(m) for m in g.legal_moves(st)] == ["draw"]  # no rule error
    st = g.apply_text(st, "draw")
    names = [g.move_text(m).split()[0] for m in g.legal_moves(st)]
    assert names.count("back") == 1 and names.count("back3") == 1
    st = g.apply_text(st, "draw")
    names = [g.move_text(m).split()[0] for m in g.legal_moves(st)]
    assert names.count("back3") == 2


def test_take_too_many_cards_message_is_singular(tmp_path: Path) -> None:
    g = compile_text(tmp_path, HEAD + '''
move grab { move top 1 of table to deck }
end when size(table) == 5
''')
    with pytest.raises(RuleError, match=r"cannot take 1 card from a zone of 0 cards$"):
        g.apply_text(g.new_state(1), "grab")


# ------------------------------------------------------------- descriptions
def test_description_with_an_expression_is_rejected_by_check(tmp_path: Path) -> None:
    """`"take {n * 2} cards"`: a description is written from the move alone, so check
    says where the computed value belongs (it no longer prints braces in the REPL)."""
    errs = errors_of(tmp_path, HEAD + '''
var n = 3
move take "take {n * 2} cards" { move top of deck to table }
end when deck is empty
''')
    assert any("names only its parameters" in str(e) and "{n * 2}" in str(e) for e in errs)


def test_the_turn_over_hint_is_true(tmp_path: Path) -> None:
    """The hint for `turn over` says `move reverse(waste) to stock`: it turns the pile
    over, the top card ending at the bottom."""
    g = compile_text(tmp_path, HEAD + '''
zone waste: face up
zone stock: face down
setup { move top 3 of deck to waste }
move redeal { move reverse(waste) to stock }
end when deck is empty
''')
    st = g.new_state(1)
    before = g.zone_cards(st, "waste")
    st = g.apply_text(st, "redeal")
    assert g.zone_cards(st, "stock") == list(reversed(before))


def test_not_a_card_differs_from_a_card_that_may_not_be_played(tmp_path: Path) -> None:
    from cardgame.interpreter.errors import IllegalMove
    g = compile_text(tmp_path, HEAD + '''
zone hand: face up
setup { move top 5 of deck to hand }
move play(c in hand) "play {c}" { move c to table }
end when hand is empty
''')
    st = g.new_state(1)
    absent = next(c for c in g.card_text if c not in g.zone_cards(st, "hand"))
    with pytest.raises(IllegalMove) as no_card:
        g.parse_move(st, "play Xc")
    with pytest.raises(IllegalMove) as not_here:
        g.parse_move(st, f"play {absent}")
    assert "is not a card of this game" in str(no_card.value)
    assert "is not a card" not in str(not_here.value)
    assert "not in" in str(not_here.value)


# ------------------------------------------------------------- orders on cards
ORDERED = '''
game "Ordered"
players 1
deck standard
deck order ace high
zone table: face up
var best: card = none
var low: card = none
var beats = false
var place = 0
setup { move each c in deck where c.suit == spades to table }
move look {
  best = max(table)
  low = min(table)
  beats = (first c in table where c.rank == 1) > (first c in table where c.rank == 13)
  place = (first c in table where c.rank == 1).order
}
end when table is empty
'''


@pytest.mark.parametrize("optimize", [True, False])
def test_ace_high_order(tmp_path: Path, optimize: bool) -> None:
    g = compile_text(tmp_path, ORDERED, optimize=optimize)
    st = g.apply_text(g.new_state(1), "look")
    assert g.var(st, "place") == 13
    assert g.var(st, "beats") is True
    assert g.card_text[g.var(st, "best")] == "A♠"
    assert g.card_text[g.var(st, "low")] == "2♠"


def test_custom_order_and_max_of_two_cards(tmp_path: Path) -> None:
    """Scopa's primiera order: 7 high, then 6, A, 5, 4, 3, 2, and the court cards low."""
    g = compile_text(tmp_path, '''
game "Primiera"
players 1
deck {
  ranks A 2 3 4 5 6 7 J Q K
  for s in suits { for r in 1..10 { card(rank: r, suit: s) } }
}
deck order J Q K 2 3 4 5 A 6 7
zone table: face up
var hi: card = none
var lt = false
setup { move each c in deck where c.suit == coins_or_spades() to table }
def coins_or_spades() = spades
move look {
  hi = max(first c in table where c.rank == 1, first c in table where c.rank == 6)
  lt = (first c in table where c.rank == 7) < (first c in table where c.rank == 8)
}
end when table is empty
''')
    st = g.apply_text(g.new_state(1), "look")
    assert g.card_text[g.var(st, "hi")].startswith("6")
    assert g.var(st, "lt") is False  # 7 beats J (rank 8)


def test_cards_without_order_are_an_error_with_the_way(tmp_path: Path) -> None:
    errs = errors_of(tmp_path, HEAD + '''
var best: card = none
move look when table is not empty { best = max(table) }
end when deck is empty
''')
    assert any("needs the deck's rank order" in str(e) and "deck order ace high" in str(e)
               for e in errs)


def test_order_keeps_order_as_a_name(tmp_path: Path) -> None:
    """`order` is no new keyword: a variable may still be called order."""
    g = compile_text(tmp_path, HEAD + '''
var order = 0
move take when deck is not empty {
  move top of deck to table
  order = order + 1
}
end when deck is empty
''')
    st = g.apply_text(g.new_state(1), "take")
    assert g.var(st, "order") == 1


# ------------------------------------------------------------- limit by name
def test_limit_takes_an_option_or_a_constant(tmp_path: Path) -> None:
    text = HEAD + '''
option cap: 1..60 default 3
def twice = cap * 2
limit LIM moves "the cap"
move take when deck is not empty { move top of deck to table }
end when deck is empty
'''
    for lim, settings, want in (("cap", None, 3), ("cap", {"cap": "7"}, 7), ("twice", None, 6)):
        g = compile_text(tmp_path, text.replace("LIM", lim), settings=settings)
        st = play_out(g)
        assert g.is_terminal(st)
        assert len(g.zone_cards(st, "table")) == want


# ------------------------------------------------------------- optional ints
BIDS = '''
game "Bids"
players 3
deck standard
var bid[player]: int = none
var total = 0
var first_bid: int = none
move say(n in 0..3) "bid {n}" when bid[me] == none { bid[me] = n }
move raise "raise" when bid[me] != none and bid[me] < 3 { bid[me] += 1 }
flow {
  for p in players { p chooses say }
  for p in players { p may choose raise }
  first_bid = bid[1]
  total = sum p in players: if bid[p] == none then 0 else bid[p]
  if first_bid != none { total += 10 * first_bid }
  for p in players { bid[p] = none }
  end
}
score = total
'''


@pytest.mark.parametrize("optimize", [True, False])
def test_optional_int_none_tested_and_reset(tmp_path: Path, optimize: bool) -> None:
    g = compile_text(tmp_path, BIDS, optimize=optimize)
    st = g.new_state(1)
    assert g.var(st, "bid") == [None, None, None]
    for text in ("say 2", "say 0", "say 3"):
        st = g.apply_text(st, text)
    assert [g.move_text(m) for m in g.legal_moves(st)] == ["raise", "pass"]
    st = g.apply_text(st, "raise")  # p1: 3
    assert g.var(st, "bid")[0] == 3
    st = g.apply_text(st, "pass")  # p2 (bid 0) may raise, and passes
    assert [g.move_text(m) for m in g.legal_moves(st)] == ["pass"]  # p3 bid 3: no raise
    st = g.apply_text(st, "pass")
    assert g.is_terminal(st)
    assert g.var(st, "total") == 3 + 0 + 3 + 30
    assert g.var(st, "bid") == [None, None, None]


# a two-player bidding game; USE is the line under test
TWO_BIDS = '''
game "Bids"
players 2
deck standard
var bid[player]: int = none
var total = 0
move say(n in 0..3) "bid {n}" { bid[me] = n }
flow {
  for p in players { p chooses say }
  USE
  end
}
'''


@pytest.mark.parametrize("use, key", [
    ("total = bid[1] + 1", "bid[1]"),
    ("bid[2] += 1", "bid[2]"),
    ("if bid[1] == none or bid[2] > 1 { total = 1 }", "bid[2]"),
    ("if bid[1] != none { bid[1] = none\n total = bid[1] }", "bid[1]"),
    ("total = max(bid[1], 2)", "bid[1]"),
])
def test_optional_int_used_without_a_test_is_an_error(tmp_path: Path, use: str,
                                                      key: str) -> None:
    errs = errors_of(tmp_path, TWO_BIDS.replace("USE", use))
    assert any(f"'{key}' may be none here" in str(e) for e in errs), errs


@pytest.mark.parametrize("use", [
    "total = if bid[1] == none then 0 else bid[1]",
    "if bid[1] != none and bid[1] > 1 { total = bid[1] }",
    "if bid[1] == none { total = 0 } else if bid[1] > 2 { total = bid[1] }",
    "if not (bid[1] == none) { bid[1] += 1 }",
    "total = count p in players where bid[p] != none: bid[p] > 1",
    "if bid[1] == none or bid[1] > 2 { total = 1 }",
    "bid[2] = bid[1]",
    'log "p1 bid {bid[1]}"',
])
def test_optional_int_tested_is_accepted(tmp_path: Path, use: str) -> None:
    g = compile_text(tmp_path, TWO_BIDS.replace("USE", use))
    st = play_out(g)
    assert g.is_terminal(st)


# ------------------------------------------------------------- custom suits
def test_custom_suits_write_and_read_cards() -> None:
    g = compile_game(DATA / "suits_and_order.cardgame")
    assert len(g.card_text) == 40
    assert {"7co", "7cu", "7s", "7b", "Kco", "Acu"} <= set(g.card_text)
    assert not any(t[-1] in "♠♥♦♣" for t in g.card_text)
    st = g.new_state(3)
    legal = [g.move_text(m) for m in g.legal_moves(st)]
    assert legal and all(t.split()[1] in g.card_text for t in legal)
    st2 = g.apply_text(st, legal[0].upper())  # typed in any case
    assert g.moves_played(st2) == 1
    from cardgame.interpreter.errors import IllegalMove
    with pytest.raises(IllegalMove, match="is not a card of this game"):
        g.parse_move(st, "play 7x")


def test_custom_suits_index_arrays_and_print_names(tmp_path: Path) -> None:
    g = compile_text(tmp_path, '''
game "Suits"
players 1
deck {
  ranks A 2 3
  for s in suits { for r in 1..3 { card(rank: r, suit: s) } }
}
deck suits coins cups swords batons
zone pile[suit]: face up
var n[suit] = 0
var last: suit = none
setup { move each c in deck where c.suit == swords to pile[swords] }
move tally(s in suits) "tally {s}" {
  n[s] = size(pile[s])
  last = s
  log "{s}: {n[s]}"
}
end when n[swords] > 0
''')
    st = g.new_state(1)
    texts = [g.move_text(m) for m in g.legal_moves(st)]
    assert texts == ["tally coins", "tally cups", "tally swords", "tally batons"]
    st = g.apply_text(st, "tally swords")
    assert g.var(st, "n") == [0, 0, 3, 0]
    assert len(g.zone_cards(st, "pile-swords")) == 3
    assert g.is_terminal(st)


@pytest.mark.parametrize("decl, message", [
    ("deck standard\ndeck suits a b", "a standard deck has the four French suits"),
    ("deck { for s in suits { card(rank: 1, suit: s) } }\ndeck suits a b a", "named twice"),
    ("deck { card(rank: 1, suit: spades) }\ndeck suits coins cups",
     "suit must be one of coins, cups"),
])
def test_custom_suit_errors(tmp_path: Path, decl: str, message: str) -> None:
    errs = errors_of(tmp_path, f'game "T"\nplayers 1\n{decl}\nzone t: face up\n'
                               'move m { move top of deck to t }\nend when deck is empty\n')
    assert any(message in str(e) for e in errs), errs


def test_positions_name_custom_suit_zones() -> None:
    from cardgame.interpreter.engine import Position
    g = compile_game(DATA / "suits_and_order.cardgame")
    st = (Position(g, seed=1).zone("hand[p1]", ["7co"]).zone("taken[swords]", "Ks")
          .var("best[swords]", "Ks").state(check=False))
    assert g.zone_cards(st, "taken-swords") == ["Ks"]
    assert g.zone_cards(st, "hand-p1") == ["7co"]
