"""Choosing a set of cards (issue 16, item 1): `cards in N of Z`, `subsets of Z where ...`,
the subset-sum search, its bounds, and a set as a move: its text, typed in any order,
completed one card at a time, saved in a replay, masked in another seat's view."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter.engine import compile_game, replay
from cardgame.interpreter.errors import IllegalMove, RuleError
from cardgame.interpreter.observe import history
from cardgame.repl.completion import MoveCompleter
from conftest import assert_playout_is_the_api
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document


def compile_text(tmp_path: Path, text: str, name: str = "t", **kw: Any) -> Any:
    p = tmp_path / f"{name}.cardgame"
    p.write_text(text, encoding="utf-8")
    return compile_game(p, **kw)


GAME = '''game "Sets"
players 2
deck standard
zone hand[player]: owner
zone table: face up
zone pile[player]: face up
setup {
  shuffle deck
  deal 5 from deck to hand
  move top 6 of deck to table
}
move pass(cards in 2 of hand[me]) "pass {cards}" { move cards to pile[me] }
move take(c in hand[me], taken in subsets of table where (sum x in taken: x.rank) == c.rank)
  "play {c} and take {taken}" {
  move c to pile[me]
  move taken to pile[me]
}
move lay(c in hand[me]) "lay {c}"
  when not (any t in subsets of table where (sum x in t: x.rank) == c.rank) {
  move c to table
}
flow {
  1 chooses pass
  2 chooses pass
  repeat 3 times {
    1 chooses take | lay
    2 chooses take | lay
  }
}
end when hand is empty
score = size(pile[me])
'''


@pytest.fixture(scope="module")
def sets_game(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return compile_text(tmp_path_factory.mktemp("sets"), GAME)


RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}


@pytest.mark.parametrize("optimize", [True, False])
def test_k_of_a_zone_offers_every_set_once(tmp_path: Path, optimize: bool) -> None:
    g = compile_text(tmp_path, GAME, optimize=optimize)
    st = g.new_state(3)
    moves = g.legal_moves(st)
    hand = sorted(m for mv in moves for m in mv[2])
    assert len(moves) == 10  # C(5, 2)
    assert len(set(hand)) == 5
    sets = [m[2] for m in moves]
    assert sorted(sets) == sorted(tuple(sorted(c)) for c in itertools.combinations(set(hand), 2))
    assert all(list(s) == sorted(s) for s in sets)  # one canonical order: one move per set


@pytest.mark.parametrize("optimize", [True, False])
def test_subsets_where_sum_are_exactly_the_sets_summing_to_the_card(
        tmp_path: Path, optimize: bool) -> None:
    g = compile_text(tmp_path, GAME, optimize=optimize)
    for seed in range(6):
        st = g.new_state(seed)
        st = g.apply(st, g.legal_moves(st)[0])
        st = g.apply(st, g.legal_moves(st)[0])
        moves = g.legal_moves(st)
        ranks = {c: RANKS[g.card_text[c][:-1]] for c in range(52)}
        table = [g.card_id(t) for t in g.zone_cards(st, "table")]
        for c in {m[2] for m in moves if g.move_names[m[1]] == "take"}:
            want = {tuple(sorted(s)) for k in range(1, len(table) + 1)
                    for s in itertools.combinations(table, k)
                    if sum(ranks[x] for x in s) == ranks[c]}
            got = {m[3] for m in moves if g.move_names[m[1]] == "take" and m[2] == c}
            assert got == want
        layable = {m[2] for m in moves if g.move_names[m[1]] == "lay"}
        takers = {m[2] for m in moves if g.move_names[m[1]] == "take"}
        assert not layable & takers


def test_a_set_is_typed_in_any_order_and_refused_with_reasons(sets_game: Any) -> None:
    g = sets_game
    st = g.new_state(3)
    first = g.legal_moves(st)[0]
    a, b = (g.card_text[c] for c in first[2])
    assert g.move_text(first) == f"pass {a} {b}"
    assert g.parse_move(st, f"pass {b} {a}") == first
    assert g.parse_move(st, f"pass {a.lower()} {b}") == first
    with pytest.raises(IllegalMove, match="choose 2 cards, not 1"):
        g.parse_move(st, f"pass {a}")
    with pytest.raises(IllegalMove, match="named twice"):
        g.parse_move(st, f"pass {a} {a}")
    with pytest.raises(IllegalMove, match="'xx' is not a card"):
        g.parse_move(st, f"pass {a} xx")
    other = next(t for t in g.card_text if t not in (a, b) and all(
        t not in g.move_text(m) for m in g.legal_moves(st)))
    with pytest.raises(IllegalMove, match=f"{other} is not among the cards to choose from"):
        g.parse_move(st, f"pass {a} {other}")
    assert g.build_move(1, "pass", f"{b} {a}") == first


def test_a_refused_sum_names_the_condition(sets_game: Any) -> None:
    g = sets_game
    for seed in range(20):
        st = g.new_state(seed)
        st = g.apply(st, g.legal_moves(st)[0])
        st = g.apply(st, g.legal_moves(st)[0])
        takes = [m for m in g.legal_moves(st) if g.move_names[m[1]] == "take"]
        if takes and len(takes[0][3]) >= 2:
            m = takes[0]
            short = (m[0], m[1], m[2], m[3][:1])
            text = g.move_text(short)
            with pytest.raises(IllegalMove, match=r"\(sum x in taken: x.rank\) == c.rank"):
                g.parse_move(st, text)
            return
    pytest.fail("no deal with a two-card take")


def test_the_repl_completes_a_set_one_card_at_a_time() -> None:
    moves = [("pass 2♣ Q♠", ""), ("pass 2♣ A♥", ""), ("pass Q♠ A♥", ""), ("lay 2♣", "")]
    c = MoveCompleter(lambda: moves, {}, set_moves=lambda: {"pass": 1})

    def complete(text: str) -> list[str]:
        return [x.text for x in c.get_completions(Document(text), CompleteEvent())]

    assert complete("pass ") == ["2♣", "Q♠", "A♥"]
    assert complete("pass ah ") == ["2♣", "Q♠"]  # typed out of deck order
    assert complete("pass qs ") == ["2♣", "A♥"]
    assert complete("pass qs a") == ["A♥"]
    assert complete("pass qs ah ") == []
    assert complete("pass 3c ") == []
    plain = MoveCompleter(lambda: moves, {})  # without knowing the sets: in order only
    assert [x.text for x in plain.get_completions(Document("pass ah "), CompleteEvent())] == []


def test_a_set_move_survives_a_replay_file(sets_game: Any, tmp_path: Path) -> None:
    g = sets_game
    st = g.new_state(5)
    played = []
    while not g.is_terminal(st):
        m = g.legal_moves(st)[-1]
        played.append(m)
        st = g.apply(st, m)
    rep = replay.from_game(g, str(tmp_path / "t.cardgame"), 5, played)
    data = json.loads(rep.to_json())
    assert data["moves"][0]["id"][1] == list(played[0][2])
    back = replay.parse(rep.to_json())
    assert back.ids[0] is not None
    (tmp_path / "t.cardgame").write_text(GAME, encoding="utf-8")
    assert back.states(g)[-1] == st


def test_another_seat_sees_card_backs_for_a_passed_set(tmp_path: Path) -> None:
    g = compile_text(tmp_path, GAME.replace("zone pile[player]: face up",
                                            "zone pile[player]: owner"))
    st = g.new_state(3)
    m = g.legal_moves(st)[0]
    mine = history(g, 3, [m], 1)
    theirs = history(g, 3, [m], 2)
    text = g.move_text(m)
    assert any(o.move == text for o in mine)
    seen = [o.move for o in theirs if o.move.startswith("pass")]
    assert seen and all(g.card_text[c] not in seen[0] for c in m[2])
    assert seen[0].count(" ") == 2  # two card backs


RUNAWAY = '''game "Runaway"
players 1
deck standard
zone table: face up
zone pile: face up
setup { move all of deck to table }
move take(t in subsets of table where size(t) == 26) "take {t}" { move t to pile }
end when pile is not empty
score = 0
'''


def test_a_runaway_enumeration_is_a_rule_error_naming_the_move(tmp_path: Path) -> None:
    g = compile_text(tmp_path, RUNAWAY)
    with pytest.raises(RuleError) as ei:
        g.legal_moves(g.new_state(1))
    assert "take" in str(ei.value.rule) or "take" in str(ei.value)
    assert "runaway" in str(ei.value)


PRUNED = '''game "Pruned"
players 1
deck standard
zone table: face up
zone pile: face up
setup { move all of deck to table }
move take(t in subsets of table where (sum x in t: x.rank) == 3) "take {t}" { move t to pile }
end when pile is not empty
score = 0
'''


def test_the_sum_prunes_the_search_over_a_whole_deck(tmp_path: Path) -> None:
    """2^52 subsets filtered would never end (and the budget would stop it); the pruned
    search finds the 4 threes, 4*4 ace-two pairs and C(4,3) three aces."""
    g = compile_text(tmp_path, PRUNED)
    moves = g.legal_moves(g.new_state(1))
    assert len(moves) == 4 + 16 + 4


def test_k_of_a_short_zone_offers_nothing(tmp_path: Path) -> None:
    g = compile_text(tmp_path, '''game "Short"
players 1
deck standard
zone hand: face up
zone pile: face up
setup { move top 2 of deck to hand }
move discard(cards in 3 of hand) "discard {cards}" { move cards to pile }
move draw "draw" { move top of deck to hand }
end when size(pile) > 0
score = 0
''')
    st = g.new_state(1)
    assert [g.move_names[m[1]] for m in g.legal_moves(st)] == ["draw"]
    st = g.apply(st, g.legal_moves(st)[0])
    assert [g.move_names[m[1]] for m in g.legal_moves(st)] == ["discard", "draw"]


def test_the_nth_set_is_the_nth_of_the_enumeration() -> None:
    """A random playout draws a set by its index, built by counting (runtime.nth_set):
    the same set the full list has at that index, for every index, count and size."""
    from cardgame.interpreter.codegen.runtime import SetMoves, nth_set

    ids = (3, 8, 9, 20, 31, 40, 47, 51)
    for n in range(len(ids) + 1):
        for k in range(n + 1):
            sets = list(itertools.combinations(ids[:n], k))
            assert [nth_set(ids[:n], k, i) for i in range(len(sets))] == sets
        every = [t for k in range(n + 1) for t in itertools.combinations(ids[:n], k)]
        assert [nth_set(ids[:n], None, i) for i in range(len(every))] == every
    # moves listed lazily between moves listed in full: indexing, iterating, length
    lazy = SetMoves([(1, 0, 5)])
    lazy.parts.append((comb3 := 20, (1, 1), ids[:6], 3))
    lazy.n += comb3
    lazy.append((1, 2))
    lazy.parts.append((2, (1, 3), ((3,), (8, 9)), -1))
    lazy.n += 2
    lazy += [(1, 4), (1, 5)]
    full = ([(1, 0, 5)] + [(1, 1, t) for t in itertools.combinations(ids[:6], 3)]
            + [(1, 2), (1, 3, (3,)), (1, 3, (8, 9)), (1, 4), (1, 5)])
    assert len(lazy) == len(full) and list(lazy) == full and lazy.tolist() == full
    assert [lazy[i] for i in range(len(full))] == full and lazy[-1] == full[-1]
    with pytest.raises(IndexError):
        lazy[len(full)]


@pytest.mark.parametrize("name,options,seeds", [
    ("hearts", {"target": "1"}, range(3)),
    ("scopa", {}, range(3)),
])
def test_a_playout_draws_the_sets_the_step_api_lists(
        name: str, options: dict[str, str], seeds: range) -> None:
    """The fast path keeps sets of cards unlisted and draws one by its index: it plays,
    draw for draw, the game the step API plays with the same random numbers (every legal
    move listed, one drawn uniformly by index)."""
    g = compile_game(name, settings=options)
    for seed in seeds:
        assert_playout_is_the_api(g, seed, seed)


def test_sets_and_other_moves_are_drawn_alike_in_a_playout(sets_game: Any) -> None:
    """The same for a decision that offers sets by a sum (take) and single cards (lay)."""
    import random

    g = sets_game
    for seed in range(20):
        slots, n = g.random_playout(seed, random.Random(seed))
        rng = random.Random(seed)
        st = g.new_state(seed)
        while not g.is_terminal(st):
            legal = g.legal_moves(st)
            st = g.apply(st, legal[rng.randrange(len(legal))])
        assert g.final_state(slots) == st


ALL_SETS = '''game "AllSets"
players 1
deck standard
zone table: face up
zone pile: face up
var every = false
var some = false
var fits = 0
setup {
  shuffle deck
  move top 4 of deck to table
}
move go "go" {
  every = all t in subsets of table where (sum x in t: x.rank) == 100
  some = any t in subsets of table where (sum x in t: x.rank) == (top of table).rank
  fits = count t in subsets of table where (sum x in t: x.rank) == (top of table).rank
  move all of table to pile
}
flow {
  1 chooses go
}
score = fits
'''


@pytest.mark.parametrize("optimize", [True, False])
def test_all_where_without_a_body_tests_every_set(tmp_path: Path, optimize: bool) -> None:
    """`all t in subsets of Z where (sum ...) == T` without a body says whether EVERY set
    sums to T (the where is the test, language.md "Quantifiers"): false here, the empty set
    summing to 0. The sets are not pruned to the ones that sum to T there (that made it
    true); `any` and `count` with that where still use the pruned sets, and agree with a
    count of the sets by hand."""
    g = compile_text(tmp_path, ALL_SETS, optimize=optimize)
    ranks_of = {str(r): r for r in range(2, 11)} | {"A": 1, "J": 11, "Q": 12, "K": 13}
    for seed in range(1, 6):
        st = g.new_state(seed)
        ranks = [ranks_of[text[:-1]] for text in g.zone_cards(st, "table")]
        assert len(ranks) == 4
        st = g.apply(st, g.legal_moves(st)[0])
        assert g.var(st, "every") is False
        target = ranks[-1]  # (the top card's rank: a set of it alone sums to it)
        expected = sum(1 for k in range(len(ranks) + 1)
                       for t in itertools.combinations(ranks, k) if sum(t) == target)
        assert expected >= 1
        assert g.var(st, "some") is True and g.var(st, "fits") == expected
