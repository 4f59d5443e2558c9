"""The quiet steps (thirteenth session): `QUIET[d](s, m)` is the game's own generated step
of decision d (`STEP[d]`) without the settle after it (the move limit, the end
conditions, the listing of the legal moves), generated again from the game's code and
compiled into the game's namespace when first asked for (`Machine.quiet_steps`). The
fuzzer's shadow worlds take it where nobody reads the shadow's moves (engine/walk.py
`Shadow.follow`, `Told.quiet`), then ask `ending(s)` and test the next move alone.

- On the states of random playthroughs of every bundled game (and of the leaking test
  games, the legality edge cases, other settings), the quiet step leaves the slots the
  game's step leaves, but for the end reason that the settle writes, and `ending` of
  the state it leaves says whether the step ended the game.
- The walks take it on every game with a leak check where no end condition reads the
  legal moves, Hearts' short hands included (until this session the shadow's quiet step
  was the plain nodes' flow, slower than the game's own step where the listing is short,
  and Hearts' shadows never took it), and walk as they do without it (test_legality.py).
- A game whose code generated again is not its own source (the names the steps read
  would not be the game's) and plain code (no steps of its own) have none.
- Where the seat decides next at a decision whose listing, the seat deciding, reads only
  slots it sees (`seat_listing_reads`, `Told.seat_lists`), the shadow takes the quiet step
  too and its moves are the walk's listing: each decision's generated listing, on the
  states of random playthroughs of every bundled game, reads no slot outside
  `seat_listing_reads`; Hearts', Interaction's and Oh Hell's shadows list their moves far
  less, and walk the same.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter import codegen
from cardgame.interpreter.codegen import ENDED, PC, RNG, WHO
from cardgame.interpreter.codegen.reads import reads_legal, seat_listing_reads
from cardgame.interpreter.engine import Game, compile_game
from cardgame.interpreter.engine.pipeline import compile_loaded
from cardgame.interpreter.engine.walk import _stepper
from cardgame.interpreter.fuzz.fast import FastWalks
from cardgame.interpreter.fuzz.playthrough import Playthrough
from cardgame.interpreter.lang import load, resolve_game
from test_fuzz_incremental import Reading

DATA = Path(__file__).resolve().parent / "data"
GAMES = ["calculation", "besieged-castle", "besieged-castle-spice-1",
         "besieged-castle-spice-2", "chains", "chains-advanced", "interaction", "arsene",
         "blackjack", "crazy-eights", "freecell", "golf", "hearts", "klondike", "oh-hell",
         "pyramid", "scopa"]


def _states(g: Game, seeds: int, steps: int, seed: int = 0
            ) -> Iterator[tuple[list[Any], Any, Any]]:
    """Random playthroughs on the fast path (as the walks play them): each state reached
    at a decision (a slot list, to be copied before use), its legal moves, the move
    drawn, which is played after."""
    advance = _stepper(g)
    rng = random.Random(seed)
    for k in range(seeds):
        s = g._blank.copy()
        s[RNG] = k
        g._setup(s)
        g._gen_run(s, s[PC])
        legal = g._gen_settle(s)
        for _ in range(steps):
            if not legal or s[ENDED] is not None:
                break
            m = legal[rng.randrange(len(legal))]
            yield s, legal, m
            legal = advance(s, s[PC], m, legal)


def _compare(g: Game, seeds: int, steps: int, seed: int = 0) -> int:
    """At each decision with its own step (not simultaneous), the quiet step played on a
    copy of the state and the game's step compared. Returns the steps compared."""
    quiet = g.quiet_steps()
    assert quiet
    _, ending = g.legality()
    if ending is not None and reads_legal(ending):  # (`no_moves`: asked of legal moves)
        ending = None
    compared = 0
    for s, legal, m in _states(g, seeds, steps, seed):
        pc = s[PC]
        if pc not in quiet:  # (a simultaneous choice)
            continue
        t = s.copy()
        u = s.copy()
        _stepper(g)(u, pc, m, legal)  # (the decision's own step)
        quiet[pc](t, m)
        if ending is not None:
            assert ending(t) is (u[ENDED] is not None), m
        if t[ENDED] is None and u[ENDED] is not None:  # (the settle ended it)
            t[ENDED] = u[ENDED]
        assert t == u, m
        compared += 1
    return compared


@pytest.mark.parametrize("name", GAMES)
def test_the_quiet_step_is_the_step_without_its_settle(name: str) -> None:
    assert _compare(compile_game(name), 100, 300) > 50


@pytest.mark.parametrize("name,players,settings", [
    ("interaction", 3, {}), ("arsene", 3, {"advanced": "true"}), ("blackjack", 3, {}),
    ("hearts", 4, {})])
def test_the_quiet_step_in_other_settings(name: str, players: int,
                                          settings: dict[str, str]) -> None:
    assert _compare(compile_game(name, players, settings), 100, 300, seed=5) > 50


@pytest.mark.parametrize("path", sorted((DATA / "leaks").glob("*.cardgame"))
                         + [DATA / "legality" / "edges.cardgame",
                            DATA / "legality" / "ended.cardgame"],
                         ids=lambda p: p.stem)
def test_the_quiet_step_on_the_test_games(path: Path) -> None:
    assert _compare(compile_game(path), 6, 200) > 5


def _quiet_steps_taken(g: Game, walks: int) -> tuple[int, int]:
    """The quiet steps the shadows take in some walks, and the shadows drawn."""
    fw = FastWalks(Playthrough(g), 0)
    calls = [0]
    for told in (fw.walker.leak or {}).values():
        assert told.quiet is not None

        def counted(t: list[Any], m: Any, f: Any) -> None:
            calls[0] += 1
            f(t, m)

        told.quiet = {k: (lambda t, m, f=f: counted(t, m, f)) for k, f in told.quiet.items()}
    shadows = sum(fw.play_one(cpu=False).shadows for _ in range(walks))
    return calls[0], shadows


@pytest.mark.parametrize("name,walks", [("hearts", 3), ("oh-hell", 3), ("crazy-eights", 10),
                                        ("interaction", 10)])
def test_the_shadows_take_the_quiet_step(name: str, walks: int) -> None:
    # Hearts: a hand following suit lists a few moves; the shadow's step no longer lists
    # them where the seat does not decide next (one step in four, four players)
    quiet, shadows = _quiet_steps_taken(compile_game(name), walks)
    assert shadows > 0 and quiet > 50


def test_no_quiet_steps_where_the_code_generated_again_differs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    g = compile_loaded(load(resolve_game("hearts")))  # (not the shared compiled game)
    real = codegen.generate

    def another(*a: Any, **k: Any) -> Any:
        got = real(*a, **k)
        got.source += "# another version\n"  # (as if the names could differ)
        return got

    monkeypatch.setattr(codegen, "generate", another)
    assert g.quiet_steps() is None
    fw = FastWalks(Playthrough(g), 0)
    assert all(told.quiet is None for told in (fw.walker.leak or {}).values())
    assert sum(fw.play_one(cpu=False).shadows for _ in range(2)) > 0
    assert compile_game("hearts", optimize=False).quiet_steps() is None


@pytest.mark.parametrize("name", GAMES)
def test_a_listing_reads_only_the_slots_listing_reads_says(name: str) -> None:
    # every decision's listing of legal moves, on the states walks reach (where its
    # decider decides), reads no slot outside `seat_listing_reads` of that decider: so where
    # two worlds agree on those slots they list the same moves (the seat's, Told.seat_lists)
    g = compile_game(name)
    fw = FastWalks(Playthrough(g), 1)
    told = next(iter((fw.walker.leak or {None: None}).values()), None)
    if told is None:  # (no leak check: nothing hidden from any seat)
        return
    got = [s.copy() for s, _, _ in _states(g, 60, 300)]
    known = 0
    for s in got[::3]:
        pc, who = s[PC], s[WHO]
        if pc not in told.own_steps or type(who) is not int or s[ENDED] is not None:
            continue
        r = seat_listing_reads(g, pc, who)
        if r is None:
            continue
        t = Reading(s)
        try:
            g.ns["LEGAL"][pc](t)  # (the game's own listing of that decision)
        except Exception:
            pass
        assert t.read <= r, (pc, who, sorted(t.read - r))
        known += 1
    assert known > 10 or not told.own_steps


def _own_steps_taken(g: Game, walks: int, seat_lists: bool) -> tuple[int, list[Any]]:
    """The shadows' own steps (which list their moves) in some walks, and the walks."""
    fw = FastWalks(Playthrough(g), 0)
    calls = [0]
    for told in (fw.walker.leak or {}).values():
        if not seat_lists:
            told.seat_lists = frozenset()

        def counted(t: list[Any], m: Any, f: Any) -> Any:
            calls[0] += 1
            return f(t, m)

        told.own_steps = {k: (lambda t, m, f=f: counted(t, m, f))
                          for k, f in told.own_steps.items()}
    out = []
    for _ in range(walks):
        w = fw.play_one(cpu=False)
        out.append((w.seed, w.found, w.message, w.moves, w.shadows, w.final))
    return calls[0], out


@pytest.mark.parametrize("name,walks", [("hearts", 3), ("interaction", 20), ("oh-hell", 3)])
def test_where_the_seat_decides_the_shadow_lists_nothing_it_sees_alike(
        name: str, walks: int) -> None:
    # the seat decides next and its listing reads only what it sees (its hand, the
    # trick, the variables): the shadow takes the quiet step and compares the walk's
    # moves, not a listing of its own; the walks are the same
    g = compile_game(name)
    own, walked = _own_steps_taken(g, walks, True)
    before, walked_before = _own_steps_taken(g, walks, False)
    assert walked == walked_before
    assert before > 50 and own < before // 4


def _raise_walks(quiet: bool) -> list[tuple[Any, ...]]:
    g = compile_game(str(DATA / "legality" / "shadow-raise.cardgame"), None, {})
    fw = FastWalks(Playthrough(g, 2000), 0)
    for told in (fw.walker.leak or {}).values():
        assert told.quiet  # (the game's quiet steps are there)
        if not quiet:
            told.quiet = None
    fw.rng = random.Random("raise")
    return [(w.seed, w.choices, w.found, w.shadows, w.final)
            for w in (fw.play_one(cpu=False) for _ in range(60))]


def test_the_quiet_step_keeps_a_shadow_whose_listing_would_fail() -> None:
    # The edge the quiet step changes (docs/fuzz.md, "The shadow's quiet step, the
    # game's own"): where the others decide, a shadow's listing is left out, so a shadow
    # whose listing would fail (a rule error in that world only: the other player dealt
    # a 7, `12 / (rank - 7)`) goes on where the game's own step listed and dropped it.
    # Which walks find the leak changes; that the walks find it, and the rule error the
    # real game has too, does not.
    quiet, listed = _raise_walks(True), _raise_walks(False)
    assert quiet != listed
    for walks in (quiet, listed):
        found = [w[2] for w in walks]
        assert found.count("leak") >= 5 and "legal-move-fails" in found, found
