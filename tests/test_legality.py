"""The generated one-move legality test (twelfth session): `islegal_<node>(s, m)` and
`ending(s)` (codegen `legality_functions`) answer `m in settle(s)` without listing the
moves, and the fuzzer's shadow worlds use them after a mend (engine/walk.py,
`Shadow.follow`) instead of listing the shadow's moves again.

- On the states of random playthroughs of every bundled game (optimised code, and the
  plain code for some), and of a game file made of the edge cases
  (tests/data/legality/edges.cardgame: parameters from a zone, a range, the players, an
  array of zones, the top cards of a zone, a set of cards; a `where`; a guarded conjunct
  that may fail; a simultaneous round; an optional choice; phases), the test answers as
  membership in the listed moves, for the legal moves and for near misses (another
  player, another argument, a set out of order, a move of another decision, a longer
  tuple).
- `ending` matters: where an end condition holds, no move is legal although the move's
  own tests pass; `no_moves` reads as false (the move is legal); `legal_count` leaves
  the test to the listing (`ENDING` is None).
- The walks with the test (and the shadow's quiet step, `Told.quiet`, which lists the
  moves only where they are read) find, drop and draw exactly what they do with the
  listing (every leaking test game, the bundled games with a leak check); a mended
  shadow at a decision with its own step lists no moves; Interaction's walks take the
  quiet step.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter.engine import Game, Position, compile_game
from cardgame.interpreter.fuzz.fast import FastWalks
from cardgame.interpreter.fuzz.playthrough import Playthrough

DATA = Path(__file__).resolve().parent / "data"
EDGES = DATA / "legality" / "edges.cardgame"
GAMES = ["calculation", "besieged-castle", "besieged-castle-spice-1",
         "besieged-castle-spice-2", "chains", "chains-advanced", "interaction", "arsene",
         "blackjack", "crazy-eights", "freecell", "golf", "hearts", "klondike", "oh-hell",
         "pyramid", "scopa"]


def _near(rng: random.Random, g: Game, legal: Sequence[Any], pool: list[Any]) -> list[Any]:
    """Candidates: the legal moves, moves legal elsewhere, and near misses of both."""
    out = list(legal) + (rng.sample(pool, min(30, len(pool))) if pool else [])
    n = len(g.card_text)
    for m in list(out[:40]):
        out.append((m[0] % g.players + 1, *m[1:]))  # another player
        out.append((*m, 0))  # a longer tuple
        out.append((m[0], (m[1] + 1) % len(g.move_names), *m[2:]))  # another kind
        for i in range(2, len(m)):
            a = m[i]
            if type(a) is int:
                for v in (a - 1, a + 1, rng.randrange(-1, n + 1)):
                    out.append((*m[:i], v, *m[i + 1:]))
            elif type(a) is tuple and len(a) > 1:
                out.append((*m[:i], a[::-1], *m[i + 1:]))  # a set out of order
                out.append((*m[:i], a[:-1] + (rng.randrange(n),), *m[i + 1:]))
    return out


def _agree(g: Game, seeds: int, steps: int, seed: int = 0) -> int:
    """Play random games; on every state compare the test with the listing. Returns the
    number of candidates compared."""
    rng = random.Random(seed)
    pool: list[Any] = []
    checked = 0
    for k in range(seeds):
        st = g.new_state(k)
        for _ in range(steps):
            legal = g.legal_moves(st)
            for m in _near(rng, g, legal, pool):
                want = m in legal
                assert g.legal_by_test(st, m) is want, (k, m, want)
                checked += 1
            if not legal:
                break
            pool.extend(rng.sample(legal, min(3, len(legal))))
            if len(pool) > 300:
                del pool[:100]
            st = g.apply(st, legal[rng.randrange(len(legal))])
    return checked


@pytest.mark.parametrize("name", GAMES)
def test_the_test_answers_as_the_listing_on_every_bundled_game(name: str) -> None:
    assert _agree(compile_game(name), 3, 150) > 50


@pytest.mark.parametrize("name,players,settings", [
    ("interaction", 3, {}), ("arsene", 3, {"advanced": "true"}), ("blackjack", 3, {})])
def test_the_test_answers_as_the_listing_in_other_settings(
        name: str, players: int, settings: dict[str, str]) -> None:
    assert _agree(compile_game(name, players, settings), 3, 150) > 50


@pytest.mark.parametrize("optimize", [True, False])
def test_the_edge_cases_answer_as_the_listing(optimize: bool) -> None:
    g = compile_game(EDGES, optimize=optimize)
    # every decision reached, every kind of move played
    assert _agree(g, 6, 200, seed=1) > 20_000


@pytest.mark.parametrize("name", ["hearts", "scopa", "calculation", "golf"])
def test_the_plain_code_answers_as_the_listing(name: str) -> None:
    assert _agree(compile_game(name, optimize=False), 2, 120) > 50


def test_an_end_condition_that_holds_makes_every_move_illegal() -> None:
    # the last card of the stock drawn: the state reached, not settled yet, is at the
    # optional `rest` where `rest` passes its own tests, but `end when stock is empty`
    # holds there, so nothing is legal (as the listing, which ends the game, says)
    g = compile_game(EDGES)
    st = g.new_state(3)
    rng = random.Random(3)
    while not any(g.move_text(m) == "draw" for m in g.legal_moves(st)):
        legal = g.legal_moves(st)
        st = g.apply(st, legal[rng.randrange(len(legal))])
    stock = Position(g, st).ids("stock")
    st = Position(g, st).zone("stock", list(stock[-1:])).state()  # (the rest to the deck)
    draw = next(m for m in g.legal_moves(st) if g.move_text(m) == "draw")
    after = g.apply_unsettled(st, draw)
    rest = (draw[0], g.move_names.index("rest"))
    assert g.legal_by_test(after, rest) is False
    assert g.legal_by_test(g.apply_unsettled(Position(g, st).zone("stock", list(stock[-2:]))
                                             .state(), draw), rest) is True
    assert g.legal_moves(after) == []


@pytest.mark.parametrize("optimize", [True, False])
def test_a_game_a_move_ended_has_no_legal_move(optimize: bool) -> None:
    # `draw` ends the game with `end` when the stock runs out: nothing is legal after,
    # and the test says so rather than run `take`'s `when` (`top of stock`: empty)
    g = compile_game(DATA / "legality" / "ended.cardgame", optimize=optimize)
    st = g.new_state(1)
    take = next(m for m in g.legal_moves(st) if g.move_names[m[1]] == "take")
    for _ in range(3):
        st = g.apply(st, next(m for m in g.legal_moves(st) if g.move_names[m[1]] == "draw"))
    assert g.is_terminal(st) and g.legal_moves(st) == []
    assert g.legal_by_test(st, take) is False
    assert g.legal_by_test(g.from_json(g.to_json(st)), take) is False


def test_no_moves_reads_false_and_legal_count_leaves_it_to_the_listing(
        tmp_path: Path) -> None:
    text = EDGES.read_text(encoding="utf-8")
    for cond, none in (("no_moves", False), ("legal_count > 40", True)):
        path = tmp_path / "ends.cardgame"
        path.write_text(text.replace('end when turns >= 60 "sixty turns"',
                                     f'end when {cond} "ends"'), encoding="utf-8")
        g = compile_game(path)
        st = g.new_state(1)
        m = g.legal_moves(st)[0]
        assert (g.legal_by_test(st, m) is None) is none
        if not none:
            assert _agree(g, 2, 100) > 1000


def _walks(g: Game, n: int, on: bool, seed: int = 0) -> list[tuple[Any, ...]]:
    fw = FastWalks(Playthrough(g), seed)
    if not on:  # (each shadow step lists its moves, a mend lists them again)
        for told in (fw.walker.leak or {}).values():
            told.tests, told.quiet = {}, None
    out = []
    for _ in range(n):
        w = fw.play_one(cpu=False)
        out.append((w.seed, w.found, w.message, w.moves, w.shadows, w.leak_seat, w.final,
                    tuple(w.choices)))
    return out


@pytest.mark.parametrize("path", sorted((DATA / "leaks").glob("*.cardgame")),
                         ids=lambda p: p.stem)
def test_the_walks_are_the_same_on_the_leak_games(path: Path) -> None:
    g = compile_game(path)
    assert _walks(g, 60, True) == _walks(g, 60, False)


@pytest.mark.parametrize("name,n", [("interaction", 40), ("hearts", 3), ("pyramid", 80),
                                    ("crazy-eights", 20), ("golf", 60), ("oh-hell", 4),
                                    ("scopa", 4)])
def test_the_walks_are_the_same_on_the_bundled_games(name: str, n: int) -> None:
    g = compile_game(name)
    assert _walks(g, n, True) == _walks(g, n, False)


def test_the_walks_are_the_same_on_the_edge_cases() -> None:
    g = compile_game(EDGES)
    assert _walks(g, 40, True, 3) == _walks(g, 40, False, 3)


def _listings(name: str, walks: int, quiet: bool) -> dict[str, int]:
    """The shadows' listings of their moves in some walks: where a shadow is drawn, and
    else (after a mend, or after a step); the one-move tests made; the shadows drawn.
    `quiet=False`: each shadow step lists the moves after it (the step of the game)."""
    g = compile_game(name)
    fw = FastWalks(Playthrough(g), 0)
    calls = {"draw": 0, "else": 0, "test": 0, "shadows": 0, "quiet": 0}
    drawing = [False]
    for told in (fw.walker.leak or {}).values():
        settle, draw, steps = told.settle, told.draw, told.quiet
        if not quiet or steps is None:
            told.quiet = None
        else:
            def stepped(t: list[Any], m: Any, step: Any) -> None:
                calls["quiet"] += 1
                step(t, m)

            told.quiet = {k: (lambda t, m, f=f: stepped(t, m, f)) for k, f in steps.items()}

        def counted(t: list[Any], settle: Any = settle) -> Any:
            calls["draw" if drawing[0] else "else"] += 1
            return settle(t)

        def drawn(*a: Any, draw: Any = draw) -> Any:
            drawing[0] = True
            try:
                return draw(*a)
            finally:
                drawing[0] = False

        told.settle, told.draw = counted, drawn  # type: ignore[method-assign]
        for k, f in list(told.tests.items()):
            def tested(t: list[Any], m: Any, f: Any = f) -> bool:
                calls["test"] += 1
                return bool(f(t, m))

            told.tests[k] = tested
    for _ in range(walks):
        calls["shadows"] += fw.play_one(cpu=False).shadows
    return calls


def test_a_mended_shadow_tests_the_move_and_lists_nothing() -> None:
    # Crazy Eights: every card another player plays shows the seat a card of a hand it
    # cannot see, so the shadow is mended before most steps it follows; its moves are
    # listed where a shadow is drawn, never after a mend (every decision has its own step)
    calls = _listings("crazy-eights", 20, quiet=False)
    assert calls["shadows"] > 0 and calls["draw"] >= calls["shadows"]
    assert calls["test"] > 100
    assert calls["else"] == 0


def test_a_quiet_shadow_step_lists_the_moves_only_where_they_are_read() -> None:
    # Interaction, four players, 30 moves a turn with a chip: where the seat does not
    # decide next the shadow's step lists nothing after it (its next move is tested
    # alone); the moves are listed only where a shadow is drawn and at the opening,
    # which is simultaneous, as without the quiet step
    loud, quiet = _listings("interaction", 20, False), _listings("interaction", 20, True)
    assert quiet["shadows"] == loud["shadows"] > 0
    assert loud["quiet"] == 0 and quiet["quiet"] > 100
    assert quiet["else"] == loud["else"]
