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
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter.codegen import ENDED, PC, RNG
from cardgame.interpreter.engine import Game, compile_game
from cardgame.interpreter.engine.pipeline import compile_loaded
from cardgame.interpreter.engine.walk import _reads_legal
from cardgame.interpreter.fuzz.fast import FastWalks
from cardgame.interpreter.fuzz.playthrough import Playthrough
from cardgame.interpreter.lang import load, resolve_game

DATA = Path(__file__).resolve().parent / "data"
GAMES = ["calculation", "besieged-castle", "besieged-castle-spice-1",
         "besieged-castle-spice-2", "chains", "chains-advanced", "interaction", "arsene",
         "blackjack", "crazy-eights", "freecell", "golf", "hearts", "klondike", "oh-hell",
         "pyramid", "scopa"]


def _compare(g: Game, seeds: int, steps: int, seed: int = 0) -> int:
    """Random playthroughs on the fast path; at each decision with its own step, the
    quiet step played on a copy of the state. Returns the number of steps compared."""
    quiet = g.quiet_steps()
    assert quiet is not None and set(quiet) == {k for k in g._steps or {} if k not in g._sim}
    _, ending = g.legality()
    if ending is not None and _reads_legal(ending):  # (`no_moves`: asked of legal moves)
        ending = None
    rng = random.Random(seed)
    compared = 0
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
            pc = s[PC]
            if pc in g._sim:
                g._step(s, m)
                legal = g._settle_lazily(s)
                continue
            t = s.copy()
            legal = g._steps[pc](s, m)  # type: ignore[index]
            quiet[pc](t, m)
            if ending is not None:
                assert ending(t) is (s[ENDED] is not None), (k, m)
            if t[ENDED] is None and s[ENDED] is not None:  # (the settle ended it)
                t[ENDED] = s[ENDED]
            assert t == s, (k, m)
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


def test_no_quiet_steps_where_the_code_generated_again_differs() -> None:
    g = compile_loaded(load(resolve_game("hearts")))  # (not the shared compiled game)
    g.gen.source += "# another version\n"  # (as if the names could differ)
    assert g.quiet_steps() is None
    fw = FastWalks(Playthrough(g), 0)
    assert all(told.quiet is None for told in (fw.walker.leak or {}).values())
    assert sum(fw.play_one(cpu=False).shadows for _ in range(2)) > 0
    assert compile_game("hearts", optimize=False).quiet_steps() is None
