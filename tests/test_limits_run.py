"""The run-time limits hold, alone and combined (docs/limits.md): one step budget per rule
evaluation, 64-bit numbers, a list cap, bounded reads of saves, validated numeric options,
deadlines, and a terminal that shows what a file says without obeying it.

Each attack runs the real command in a subprocess under a memory limit
(`resource.setrlimit`) and a timeout, so that a regression fails the test instead of the
machine; the test asserts the message and the time taken.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter.cli import main
from cardgame.interpreter.codegen import STEPS, generate
from cardgame.interpreter.engine import Game, compile_game, replay
from cardgame.interpreter.errors import RuleError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

HEAD = 'game "T"\nplayers 1\ndeck standard\nzone pile: face up\n'
MEMORY = 1536 * 2**20  # bytes: the Python process with everything imported uses ~150 MB
RUNNER = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({mem}, {mem}))
from cardgame.interpreter.cli import main
sys.exit(main(sys.argv[1:]))
"""
BUDGET = f"this rule ran more than {STEPS:,} steps"


def run(*args: str, seconds: float = 60, cwd: Path | None = None) -> tuple[str, float]:
    """`cardgame ARGS` in a subprocess with at most MEMORY bytes: its stdout + stderr and
    the seconds it took. A traceback, a hang or running out of memory fails the test."""
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-c", RUNNER.format(mem=MEMORY), *args],
                       capture_output=True, text=True, timeout=seconds, cwd=cwd)
    took = time.monotonic() - t0
    out = p.stdout + p.stderr
    assert "Traceback" not in out and "MemoryError" not in out, out[-2000:]
    assert p.returncode in (0, 1, 2), (p.returncode, out[-2000:])
    return out, took


def game_file(tmp_path: Path, body: str, name: str = "t") -> str:
    p = tmp_path / f"{name}.cardgame"
    p.write_text(HEAD + textwrap.dedent(body), encoding="utf-8")
    return str(p)


# ---------------------------------------------------------------------- the step budget
EXPONENTIAL_DEFS = "def d0(n: int) = n + 1\n" + "".join(
    f"def d{i}(n: int) = d{i - 1}(n) + d{i - 1}(n)\n" for i in range(1, 18))

RUNAWAYS = {
    # kind: (file body, the message, where it is: file:line:col, and the rule)
    # (bounds held in variables: constant ones are refused by `check` already, see
    # test_limits_lang.py; these test the run-time budget behind it)
    "nested loops": ("var x = 0\nvar n = 99999\nmove m { for i in 1..n { for j in 1..n { x = j } } }\n",
                     BUDGET, "t.cardgame:7:26: rule error (in move m)"),
    "nested quantifiers": ("var x = 0\nvar n = 99999\nmove m when (count i in 1..n where "
                           "(count j in 1..n where j == i) > 0) > 0 { x = 1 }\n",
                           BUDGET, "t.cardgame:7:37: rule error (in move m)"),
    "defs that call twice": (EXPONENTIAL_DEFS + "var x = 0\nvar n = 99\n"
                             "move m { for i in 1..n { x = d17(i) % 7 } }\n",
                             BUDGET, "rule error (in def d"),
    "a list that doubles": ("var l: list = [1]\nmove m { repeat 99999 times { l += l } }\n",
                            "a list grew beyond 100,000 elements",
                            "t.cardgame:6:31: rule error (in move m)"),
    "a list that doubles in a while": (
        "var l: list = [1]\nmove m { while size(l) > 0 { l = l + l } }\n",
        "a list grew beyond 100,000 elements", "rule error (in move m)"),
    # quantifiers where a statement evaluates them are loops of statements
    # (optimize.py, `Optimizing.into`): still charged to the budget
    "nested quantifiers in an assignment": (
        "var x = 0\nvar n = 99999\nmove m { x = count i in 1..n where "
        "(count j in 1..n where j == i) > 0 }\n",
        BUDGET, "rule error (in move m)"),
    "a def's let in a flow test": (
        "var x = 0\nvar n = 99999\n"
        "def heavy(k: int) = let t = (count i in 1..k where (any j in 1..k: j == i + k)) in t + 1\n"
        "move m { x = 1 }\nflow { repeat { 1 chooses m\n if heavy(n) > 0 { x = 2 } } }\n",
        BUDGET, "rule error (in def heavy)"),
    "loops in a flow segment": (
        "var x = 0\nvar n = 99999\nmove m { x = 1 }\nflow { repeat { 1 chooses m\n"
        " for i in 1..n { for j in 1..n { x = j } } } }\n",
        BUDGET, "rule error (in flow)"),
    "x = x + x": ("var x = 1\nmove m { repeat 200 times { x = x + x } }\n",
                  "a number grew beyond 64 bits", "t.cardgame:6:29: rule error (in move m)"),
    "x += x": ("var x = 1\nmove m { repeat 200 times { x += x } }\n",
               "a number grew beyond 64 bits", "rule error (in move m)"),
    "a product in a condition": (
        "var x = 3037000499\nmove m when x * x * x * x > 0 { x = 2 }\n",
        "a number grew beyond 64 bits", "rule error (in move m)"),
}


@pytest.mark.parametrize("kind", RUNAWAYS)
def test_a_runaway_rule_stops_with_a_located_error(kind: str, tmp_path: Path) -> None:
    body, message, where = RUNAWAYS[kind]
    out, took = run("simulate", game_file(tmp_path, body), "--games", "2", "--max-moves", "3",
                    "--seed", "1", "--coverage-games", "0", cwd=tmp_path)
    assert message in out and where in out, out
    assert took < 30


def test_squares_of_squares_stop_at_64_bits_in_a_score(tmp_path: Path) -> None:
    """A def that squares the one below: 8 levels are 2**2048 without a guard (and 30
    would be gigabytes). The score stops at 64 bits instead, in plain code too."""
    defs = "def a0(n: int) = n\n" + "".join(
        f"def a{i}(n: int) = a{i - 1}(n) * a{i - 1}(n)\n" for i in range(1, 12))
    # (12 levels: `check` refuses a def making over 1,000,000 calls, as 30 levels would)
    path = game_file(tmp_path, defs + "var x = 3\nmove m { x = 3 }\nscore = a11(x) % 7\n")
    fast = compile_game(path)
    for g in (fast, Game(fast.checked, generate(fast.checked, optimize=False), "")):
        with pytest.raises(RuleError, match="beyond 64 bits"):
            g.scores(g.new_state(0))


def test_a_deep_chain_of_defs_is_a_rule_error_not_a_recursion_error(tmp_path: Path) -> None:
    """Plain code calls each def: Python's stack would end before the budget does."""
    defs = "def d0(n: int) = n + 1\n" + "".join(
        f"def d{i}(n: int) = d{i - 1}(n) + 1\n" for i in range(1, 3000))
    path = game_file(tmp_path, defs + "var x = 0\nmove m { x = d2999(1) % 7 }\n")
    try:
        fast = compile_game(path)
    except Exception as e:  # the checker may refuse so deep a chain (limlang): a message
        assert "Traceback" not in str(e)
        return
    for g in (fast, Game(fast.checked, generate(fast.checked, optimize=False), "")):
        try:
            g.apply_text(g.new_state(0), "m")
        except RuleError as e:
            assert e.rule in ("move m", "def d0") or e.rule.startswith("def ")


def test_the_budget_is_per_evaluation_not_per_game(tmp_path: Path) -> None:
    """A rule that needs 60% of the budget runs every move, forever."""
    g = compile_game(game_file(tmp_path, "var x = 0\nmove m { for i in 1..600 { "
                                         "for j in 1..999 { x = j } } }\n"))
    st_ = g.new_state(0)
    for _ in range(3):
        st_ = g.apply_text(st_, "m")
    assert g.var(st_, "x") == 999


# ---------------------------------------------------------------------- deadlines
def test_fuzz_stops_near_its_deadline_when_each_step_is_slow(tmp_path: Path) -> None:
    """Every move runs ~900,000 steps (within the budget): the clock, read between steps,
    is never more than a step late."""
    path = game_file(tmp_path, "var x = 0\nmove m { for i in 1..900 { for j in 1..999 { "
                               "x = j } } }\n")
    out, took = run("fuzz", path, "--seconds", "3", "--seed", "1", seconds=60, cwd=tmp_path)
    assert took < 3 + 15, (took, out)


@pytest.mark.parametrize("args, message", [
    (["fuzz", "calculation", "--seconds", "nan"], "--seconds takes a number of seconds"),
    (["fuzz", "calculation", "--seconds", "inf"], "--seconds takes a number of seconds"),
    (["fuzz", "calculation", "--seconds", "-5"], "--seconds takes a number of seconds"),
    (["fuzz", "calculation", "--seconds", "1e9"], "--seconds takes a number of seconds"),
    (["fuzz", "calculation", "--seconds", "999999999"], "--seconds must be at most"),
    (["simulate", "calculation", "--max-moves", "-1"], "--max-moves must be at least 1"),
    (["simulate", "calculation", "--games", "1_0"], "--games takes a whole number"),
    (["simulate", "calculation", "--games", "\u0661\u0662"], "--games takes a whole number"),
    (["simulate", "calculation", "--games", "+5"], "--games takes a whole number"),
    (["simulate", "calculation", "--seed", "9" * 5000], "--seed takes a whole number of at "
                                                        "most 20 digits"),
    (["simulate", "calculation", "--seed", str(2**64)], "--seed must be at most"),
    (["simulate", "calculation", "--jobs", "0"], "--jobs must be at least 1"),
    (["solve", "calculation", "--budget", "nan"], "--budget takes a number of seconds"),
    (["solve", "calculation", "--nodes", "0"], "--nodes must be at least 1"),
    (["play", "calculation", "--seat", "\u0661"], "--seat takes a whole number"),
    (["check", "calculation", "--players", "99999999999999999999999"], "--players takes a "
                                                                       "whole number"),
    (["compare", "calculation", "--players-b", "0"], "--players-b must be at least 1"),
])
def test_numeric_options_are_plain_digits_in_range(args: list[str], message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cardgame {args[0]}: error: {message}"), err
    assert err.count("\n") == 1 and len(err) < 200


# ---------------------------------------------------------------------- saves
def test_the_fuzz_api_refuses_a_deadline_that_never_comes() -> None:
    from cardgame.interpreter.errors import UsageError
    from cardgame.interpreter.fuzz import fuzz

    for seconds in (float("nan"), float("inf"), -1.0):
        with pytest.raises(UsageError, match="--seconds must be"):
            fuzz("calculation", seconds=seconds)


def save_text(**fields: Any) -> str:
    return json.dumps({"format": "cardgame-replay", "game": "calculation", "seed": 1, **fields})


def test_saves_that_are_not_files_or_not_saves_are_one_line_errors(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "seed.json").write_text(save_text().replace('"seed": 1', '"seed": ' + "9" * 5000))
    (tmp_path / "big.json").write_bytes(b" " * (replay.MAX_SAVE + 1))
    (tmp_path / "neg.json").write_text(save_text(seed=-1))
    cases = {
        "/dev/zero": "/dev/zero is not a regular file",
        str(fifo): "fifo.json is not a regular file",  # refused at once, not waited on
        str(tmp_path): "is not a regular file",
        str(tmp_path / "deep.json"): "deep.json is nested too deeply",
        str(tmp_path / "seed.json"): "seed.json is not a save file",
        str(tmp_path / "big.json"): "more than a save file may be (16,777,216)",
        str(tmp_path / "neg.json"): "the seed must be a number from 0 to 2**64 - 1",
    }
    for path, message in cases.items():
        t0 = time.monotonic()
        with pytest.raises(replay.ReplayError) as e:
            replay.load(path)
        assert message in str(e.value) and "\n" not in str(e.value)
        assert time.monotonic() - t0 < 5


def test_a_save_names_a_game_file_beside_it_and_never_prints_another_file(
        tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("the password is swordfish\n")
    for game in (str(secret), "secret.txt", "../../../../etc/passwd", "/dev/zero"):
        (tmp_path / "s.json").write_text(save_text(game=game))
        with pytest.raises(replay.ReplayError) as e:
            replay.load(tmp_path / "s.json")
        assert "swordfish" not in str(e.value) and "root:" not in str(e.value)
        assert "a save names a bundled game or a .cardgame file beside it" in str(e.value)
    # a game beside the save is found from any working folder, and a save written
    # elsewhere names it relative to itself
    (tmp_path / "games").mkdir()
    gpath = game_file(tmp_path / "games", "var x = 0\nmove m { x = x + 1 }\n", name="g")
    g = compile_game(gpath)
    st_ = g.apply_text(g.new_state(3), "m")
    rep = replay.from_game(g, gpath, 3, [g.legal_moves(g.new_state(3))[0]])
    rep.save(tmp_path / "games" / "a.json")
    assert json.loads((tmp_path / "games" / "a.json").read_text())["game"] == "g.cardgame"
    again = replay.load(tmp_path / "games" / "a.json")
    assert again.states()[-1] == st_
    sub = tmp_path / "saves"
    sub.mkdir()
    again.save(sub / "b.json")
    assert json.loads((sub / "b.json").read_text())["game"] == "../games/g.cardgame"
    assert replay.load(sub / "b.json").states()[-1] == st_


def test_a_save_whose_players_or_options_do_not_fit_its_game_says_so(tmp_path: Path) -> None:
    # (a user test: a hand-edited save's players gave the game file's "hint: use
    # --players", a flag nobody typed; an unknown option did not name the save; a newer
    # version was read without a word)
    cases = {
        "players.json": (save_text(game="interaction", players=9),
                         "players.json: its players do not fit the game 'interaction': this "
                         "game is for 3 to 4 players, not 9"),
        "option.json": (save_text(options={"foo": "1"}),
                        "option.json: its options do not fit the game 'calculation': "
                        "unknown option 'foo'"),
    }
    for name, (text, message) in cases.items():
        (tmp_path / name).write_text(text)
        rep = replay.load(tmp_path / name)
        with pytest.raises(replay.ReplayError) as e:
            rep.compile()
        assert message in str(e.value) and "--players" not in str(e.value)
        assert "\n" not in str(e.value)
    # a save as cardgame writes it records players and options both: the one that does
    # not fit is named, and no command-line flag is quoted
    real = {"game": "scopa", "players": 2, "options": {"target": "11"}}
    cases2 = {
        "p3.json": ({**real, "players": 3}, "its players do not fit the game 'scopa': this "
                    "game is for 2 players only, not 3"),
        "foo.json": ({**real, "options": {"foo": "1"}}, "its options do not fit the game "
                     "'scopa': unknown option 'foo'"),
        "val.json": ({**real, "options": {"target": "500"}}, "its options do not fit the "
                     "game 'scopa': option 'target' is"),
    }
    for name, (fields, message) in cases2.items():
        (tmp_path / name).write_text(save_text(**fields))
        rep = replay.load(tmp_path / name)
        for args in ((), ("scopa",)):  # `play --replay FILE`, and `play scopa --replay FILE`
            with pytest.raises(replay.ReplayError) as e:
                rep.compile(*args)
            assert f"{name}: {message}" in str(e.value), str(e.value)
            assert "--set" not in str(e.value) and "--players" not in str(e.value)
    # values the command line gives are its own: their errors stay the compiler's
    with pytest.raises(Exception) as e3:
        replay.load(tmp_path / "p3.json").compile("scopa", 5)
    assert not isinstance(e3.value, replay.ReplayError)
    assert replay.load(tmp_path / "p3.json").compile("scopa", 2).players == 2
    (tmp_path / "new.json").write_text(save_text(version=99))
    with pytest.raises(replay.ReplayError, match="new.json is a save of version 99, newer "
                       "than this cardgame reads"):
        replay.load(tmp_path / "new.json")
    # the game file's own error stays the compiler's, located in the game file
    bad = tmp_path / "bad.cardgame"
    bad.write_text("players 2\nmove m { x = 1 }\n")
    (tmp_path / "b.json").write_text(save_text(game="bad.cardgame", players=2))
    with pytest.raises(Exception) as e2:
        replay.load(tmp_path / "b.json").compile()
    assert not isinstance(e2.value, replay.ReplayError) and "bad.cardgame:2" in str(e2.value)


def test_a_save_s_texts_are_shown_safely_when_played_through_a_pipe(tmp_path: Path) -> None:
    # (found by review: the notes of a replay that quote a move's text or the game's name
    # reached a non-interactive terminal as they were, escapes and all)
    (tmp_path / "esc.json").write_text(save_text(
        game="scopa", players=2, moves=[{"player": 1, "move": "lay \x1b]0;pwned\x07Aco"}]))
    both, _ = run("play", "--replay", str(tmp_path / "esc.json"), cwd=tmp_path)
    assert "does not replay" in both and "pwned" in both
    assert "\x1b" not in both and "\x07" not in both


class _TwoMovesOneText:
    """Two legal moves that read alike (what `check` now refuses, but a save must not
    depend on that): the move's identity tells them apart."""

    move_names = ["take", "pass"]
    source_id = "src"

    def legal_moves(self, state: Any, player: int | None = None) -> list[tuple[int, ...]]:
        return [(1, 0, 5), (1, 0, 9)]

    def move_text(self, m: tuple[int, ...]) -> str:
        return "take pile"

    def parse_move(self, state: Any, text: str, player: int | None = None) -> tuple[int, ...]:
        return (1, 0, 5)  # the first of the two, as a text alone would give


def test_a_save_replays_a_move_by_identity_where_texts_collide() -> None:
    g: Any = _TwoMovesOneText()
    rep = replay.Replay("x", 1, {}, 1, [(1, "take pile")], source="src", ids=[["take", 9]])
    assert rep.move(g, None, 0) == (1, 0, 9)
    back = replay.parse(rep.to_json())
    assert back.ids == [["take", 9]] and back.move(g, None, 0) == (1, 0, 9)
    # an older save (no identity) and a changed game fall back to the text
    assert replay.parse(rep.to_json().replace('"id"', '"x"')).move(g, None, 0) == (1, 0, 5)
    g.source_id = "changed"
    assert back.move(g, None, 0) == (1, 0, 5)


# ---------------------------------------------------------------------- the terminal
def test_cli_errors_show_escape_sequences_visibly(tmp_path: Path) -> None:
    out, _ = run("simulate", "x\x1b]0;pwned\x07\u202e.cardgame", "--games", "1", cwd=tmp_path)
    assert "\x1b" not in out and "\u202e" not in out and "\x07" not in out
    assert "\\u001b]0;pwned\\u0007\\u202e" in out
    bad = tmp_path / "bad.json"
    bad.write_text(save_text(moves=[{"move": 3, "player": "\x1b[2J"}]))
    with pytest.raises(replay.ReplayError) as e:
        replay.load(bad)
    assert "\x1b" not in str(e.value) and "[2J" in str(e.value)


# ---------------------------------------------------------------------- property
_INT = st.one_of(st.integers(-5, 20), st.sampled_from([10**17, -(10**17), 999999999999999999,
                                                        3037000499, 2**62]))


@st.composite
def _expr(draw: Any, depth: int = 0) -> str:
    leaves = [st.builds(str, _INT), st.just("x"), st.just("size(pile)"), st.just("k"),
              st.just("size(l)")]
    if depth >= 4:
        return draw(st.one_of(*leaves))
    sub = _expr(depth + 1)
    return draw(st.one_of(
        *leaves,
        st.builds(lambda a, op, b: f"({a} {op} {b})", sub, st.sampled_from("+-*/%"), sub),
        st.builds(lambda q, n, b: f"({q} i{depth} in 1..{n}: {b})",
                  st.sampled_from(["sum", "count", "max"]), st.sampled_from([3, 500, 99999]),
                  sub.map(lambda e: e.replace("k", f"i{depth}"))),
        st.builds(lambda a: f"d({a})", sub),
        st.builds(lambda a, b: f"(if {a} > {b} then {a} else {b})", sub, sub),
    ))


@st.composite
def _stmt(draw: Any, depth: int = 0) -> str:
    e = _expr(2)
    simple = [st.builds("x = {}".format, e), st.builds("x += {}".format, e),
              st.builds("l += [{}]".format, e), st.just("l += l"), st.just("l = rest(l)")]
    if depth >= 3:
        return draw(st.one_of(*simple))
    body = st.lists(_stmt(depth + 1), min_size=1, max_size=3).map(" ".join)
    return draw(st.one_of(
        *simple,
        st.builds(lambda n, b: f"for i in 1..{n} {{ {b} }}", st.sampled_from([2, 300, 99999]),
                  body),
        st.builds(lambda n, b: f"repeat {n} times {{ {b} }}", st.sampled_from([2, 99999]), body),
        st.builds(lambda c, b: f"while {c} > 0 {{ {b} }}", e, body),
        st.builds(lambda c, b: f"if {c} > 0 {{ {b} }}", e, body),
    ))


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.lists(_stmt(), min_size=1, max_size=3), _expr())
def test_random_rules_end_within_the_limits(tmp_path_factory: pytest.TempPathFactory,
                                            body: list[str], cond: str) -> None:
    """Nested loops, quantifiers, big numbers, growing lists: `simulate` answers within
    the limits, with a result or a located error, never a traceback or a hang."""
    d = tmp_path_factory.mktemp("prop")
    text = (HEAD + "var x = 1\nvar l: list = [1]\n"
            f"def d(k: int) = {cond.replace('x', 'k')}\n"
            f"move m(k in 1..3) when {cond} > 0 {{ {' '.join(body)} }}\n"
            f"move n {{ {' '.join(body)} }}\nscore = {cond}\n")
    path = d / "t.cardgame"
    path.write_text(text, encoding="utf-8")
    out, took = run("simulate", str(path), "--games", "2", "--max-moves", "4", "--seed", "1",
                    "--coverage-games", "0", seconds=90, cwd=d)
    assert took < 60, (took, text)
    if "rule error" in out:
        assert "t.cardgame:" in out, out  # located: file:line:col
