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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter.codegen import generate
from cardgame.interpreter.engine.game import Game
from cardgame.interpreter.engine.pipeline import compile_game
from cardgame.interpreter.errors import Diagnostic, Diagnostics, RuleError

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
    fast = compile_game(path, players, settings)
    plain = Game(fast.checked, generate(fast.checked, optimize=False), fast.source_id)
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
    for seed in (1, 2):
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
