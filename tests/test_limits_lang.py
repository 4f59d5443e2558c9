"""Issue 18, the compile side: every limit of a game file holds, with a located message.

Each hostile file is checked by the real command in a subprocess with a memory limit
(`resource.setrlimit`) and a timeout, so that a regression fails the test instead of the
machine. The property test at the end draws random expressions and statements, nested
and with big numbers, and asserts that `check` ends with a game or a located error.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.errors import CardgameError, Diagnostic, Diagnostics
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.clock import time_limit

MEMORY = 1_500 * 2**20  # bytes: a check needs a few hundred MB at most
SECONDS = 60  # generous: the test machine may be loaded; a hang or blow-up is far beyond

HEAD = 'game "T"\ndeck standard\nzone pile\n'
MOVE = "move go { }\n"


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def check_cmd(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`cardgame check ARGS` in a subprocess, bounded in memory and time."""
    out = subprocess.run([sys.executable, "-m", "cardgame.interpreter.cli", "check", *args],
                         cwd=cwd, capture_output=True, text=True, timeout=SECONDS,
                         preexec_fn=_limit_memory)
    assert "Traceback" not in out.stderr, out.stderr[-3000:]
    return out


def refused(tmp_path: Path, text: str | bytes, *args: str, name: str = "t") -> str:
    """Check a file that must be refused: its stderr."""
    path = tmp_path / f"{name}.cardgame"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    out = check_cmd(*args, path.name, cwd=tmp_path)
    assert out.returncode in (1, 2), out.stdout + out.stderr
    return out.stderr


# ---------------------------------------------------------------------- 1. numbers
BIG = "9" * 5000


@pytest.mark.parametrize("text,where", [
    ('game "T"\nplayers ' + BIG + '\ndeck standard\n' + MOVE, "2:9"),
    (HEAD + MOVE + "limit " + BIG + " moves\n", "5:7"),
    (HEAD + MOVE + "option o: 1.." + BIG + "\n", "5:14"),
    (HEAD + MOVE + "option o: 1..5 default " + BIG + "\n", "5:24"),
    ('game "T"\ndeck standard with ' + BIG + " jokers\n" + MOVE, "2:20"),
    (HEAD + MOVE + "zone z[" + BIG + "]\n", "5:8"),
])
def test_every_number_in_a_file_has_at_most_18_digits(tmp_path: Path, text: str,
                                                      where: str) -> None:
    err = refused(tmp_path, text)
    assert f"t.cardgame:{where}: error: this number is too large (at most 18 digits)" in err


def test_constant_folding_is_64_bit(tmp_path: Path) -> None:
    n = "999999999999999999"
    err = refused(tmp_path, HEAD + f"def a = {n} * {n} * {n}\nvar v = 0\nmove go {{ v = a }}\n")
    assert "t.cardgame:4:9: error: this constant is too large: its value does not fit in 64" in err
    err = refused(tmp_path, HEAD + MOVE + f"zone z[{n} * {n}]\n")
    assert "t.cardgame:5:8: error: this constant is too large" in err


@pytest.mark.parametrize("setting,message", [
    ("players=3", "the number of players is not an option; use --players 3"),
    ("rounds=1_0", "takes a number, not '1_0'"),
    ("rounds=\u0663", "takes a number, not '\u0663'"),
    ("rounds=" + "9" * 30, "takes a number, not '999"),
])
def test_set_values_are_plain_ascii_digits(tmp_path: Path, setting: str, message: str) -> None:
    err = refused(tmp_path, HEAD + MOVE + "option rounds: 1..20 default 3\n", "--set", setting)
    assert message in err


# ---------------------------------------------------------------------- 2. static costs
def test_move_parameter_combinations_are_bounded(tmp_path: Path) -> None:
    err = refused(tmp_path, HEAD + "zone hand\nmove take(a in hand, b in hand, c in hand, "
                  "d in pile) { }\n")
    assert ("move take has 52 x 52 x 52 x 52 parameter combinations, over the limit of "
            "1,000,000") in err
    err = refused(tmp_path, HEAD + "move take(a in 1..1000, b in 1..1001) { }\n")
    assert "move take has 1,000 x 1,001 parameter combinations" in err


def test_jokers_count_towards_the_deck_size(tmp_path: Path) -> None:
    out = refused(tmp_path, 'game "T"\ndeck standard with 1000000 jokers\n' + MOVE)
    assert "a deck has at most 10,000 cards, not 52 + 1,000,000 jokers" in out


@pytest.mark.parametrize("body,message", [
    ("repeat 1000000 times { v += 1 }", "this loop runs 1,000,000 times, over the limit of "
                                        "100,000"),
    ("for i in 1..10000 { for j in 1..10000 { v += 1 } }",
     "these nested loops run 10,000 x 10,000 = 100,000,000 times, over the limit of "
     "1,000,000"),
    ("for i in 1..1001 { for j in 1..1000 { v += 1 } }",
     "these nested loops run 1,001 x 1,000 = 1,001,000 times"),
    ("v = sum x in 1..5000: sum y in 1..5000: x * y", "these nested loops run 5,000 x 5,000"),
])
def test_constant_loops_are_bounded_alone_and_nested(tmp_path: Path, body: str,
                                                     message: str) -> None:
    assert message in refused(tmp_path, HEAD + f"var v = 0\nmove go {{ {body} }}\n")


def test_the_static_loop_limit_is_the_run_time_budget() -> None:
    # A loop that `check` lets pass must not then stop at run time for its rounds alone.
    from cardgame.interpreter.codegen import STEPS
    from cardgame.interpreter.lang.limits import MAX_NESTED_LOOPS

    assert MAX_NESTED_LOOPS == STEPS


def test_a_long_chain_of_defs_is_refused_at_check(tmp_path: Path) -> None:
    defs = "def f0(x: int) = x\n" + "".join(f"def f{i}(x: int) = f{i - 1}(x)\n"
                                             for i in range(1, 3000))
    err = refused(tmp_path, HEAD + defs + "score = f2999(1)\n" + MOVE)
    assert "the calls from def 'f2999' go 3,000 defs deep, over the limit of 50" in err


def test_defs_calling_each_other_twice_are_refused(tmp_path: Path) -> None:
    defs = "def f0(x: int) = x\n" + "".join(f"def f{i}(x: int) = f{i - 1}(x) + f{i - 1}(x)\n"
                                             for i in range(1, 30))
    err = refused(tmp_path, HEAD + defs + "score = f29(1)\n" + MOVE)
    assert "makes more than 1,000,000 def calls" in err


def test_a_long_chain_of_procs_is_refused(tmp_path: Path) -> None:
    procs = "proc p0() { v += 1 }\n" + "".join(f"proc p{i}() {{ p{i - 1}() }}\n"
                                               for i in range(1, 2000))
    err = refused(tmp_path, HEAD + "var v = 0\n" + procs + "move go { p1999() }\n")
    assert "the calls from proc 'p1999' go 2,000 procs deep" in err


# ---------------------------------------------------------------------- 3. linear compilation
def test_deep_nesting_is_a_located_error_found_quickly(tmp_path: Path) -> None:
    ifs = "if v == 0 {\n" * 2000 + "v = 1\n" + "}\n" * 2000
    out = refused(tmp_path, HEAD + "var v = 0\nmove go { }\nflow {\n" + ifs + "1 chooses go }\n")
    assert "t.cardgame:106:1: error: this is nested too deeply (more than 100 levels" in out
    for expr in ("not " * 5000 + "true", "+".join(["1"] * 5000), " and ".join(["true"] * 5000)):
        out = refused(tmp_path, HEAD + f"var v = 0\nmove go {{ let w = {expr} }}\n")
        assert "error: this is nested too deeply" in out


def test_the_checker_stops_after_100_errors(tmp_path: Path) -> None:
    body = "".join(f"v = unknown_{i}\n" for i in range(8000))
    path = tmp_path / "t.cardgame"
    path.write_text(HEAD + "var v = 0\nmove go {\n" + body + "}\n", encoding="utf-8")
    out = check_cmd(path.name, cwd=tmp_path)
    assert out.stderr.count("error: unknown name") == 100
    assert "error: too many errors; stopping after the first 100" in out.stderr


def test_card_attributes_are_bounded(tmp_path: Path) -> None:
    deck = "deck {\n" + "".join(f"card(rank: 1, a{i}: 1)\n" for i in range(3000)) + "}\n"
    err = refused(tmp_path, 'game "T"\n' + deck + MOVE)
    assert "t.cardgame:103:21: error: a deck has at most 100 card attributes" in err
    deck = "deck {\n" + "".join(f"card(rank: {r}, " + ", ".join(f"a{j}: {j}" for j in range(90))
                                + ") times 999\n" for r in range(5)) + "}\n"
    err = refused(tmp_path, 'game "T"\n' + deck + MOVE)
    assert "the deck holds 4,995 cards x 90 attributes = 449,550 values, over the limit" in err


def test_a_file_of_too_many_words_is_refused_before_parsing(tmp_path: Path) -> None:
    text = HEAD + "var v = [" + ", ".join(["1"] * 60_000) + "]\n" + MOVE
    out = refused(tmp_path, text)
    assert "error: this file has more than 50,000 words and symbols" in out


def test_placeholders_count_as_words(tmp_path: Path) -> None:
    for quote in ('"', '"""'):
        out = refused(tmp_path, HEAD + f"move go {{ log {quote}" + "{1+1}" * 30_000
                      + f"{quote} }}\n")
        assert "error: this file has more than 50,000 words and symbols" in out


def test_deck_loops_zones_and_variables_are_bounded(tmp_path: Path) -> None:
    deck = "deck {\n for a in 1..9999 { for b in 1..9999 { } }\n card(rank: 1)\n}\n"
    assert "the deck's loops run more than 100,000 rounds" in refused(tmp_path, 'game "T"\n'
                                                                      + deck + MOVE)
    zones = "".join(f"zone z{i}_[1000]\n" for i in range(300))
    assert "a game has at most 10,000 zones" in refused(tmp_path, HEAD + zones + MOVE)
    variables = "".join(f"var v{i}_[1000] = 0\n" for i in range(300))
    assert "a game has at most 100,000 variables" in refused(tmp_path, HEAD + variables + MOVE)


# ---------------------------------------------------------------------- 4. reads
def test_a_game_file_is_at_most_1_mib(tmp_path: Path) -> None:
    err = refused(tmp_path, HEAD + MOVE + "# " + "x" * (1 << 20) + "\n")
    assert err.strip() == ("error: cannot read t.cardgame: a game file is at most 1,048,576 "
                           "bytes (1 MiB)")


def test_only_regular_game_files_are_read(tmp_path: Path) -> None:
    fifo = tmp_path / "f.cardgame"
    os.mkfifo(fifo)
    assert check_cmd("f.cardgame", cwd=tmp_path).stderr.strip() == \
        "error: f.cardgame is not a game file (not a regular file)"
    assert check_cmd("/dev/zero", cwd=tmp_path).stderr.strip() == \
        "error: /dev/zero is not a game file (not a regular file)"
    (tmp_path / "d.cardgame").mkdir()
    assert "not a regular file" in check_cmd("d.cardgame", cwd=tmp_path).stderr
    secret = tmp_path / "secret.txt"
    secret.write_text("password=hunter2\n")
    out = check_cmd("./secret.txt", cwd=tmp_path)
    assert "hunter2" not in out.stderr and "is not a game file" in out.stderr


def test_extends_stays_in_the_games_folder(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "base.cardgame").write_text(HEAD + MOVE)
    game = tmp_path / "game"
    game.mkdir()
    (game / "link.cardgame").symlink_to(outside / "base.cardgame")
    (game / "ok.cardgame").write_text(HEAD + MOVE)
    for target in ("link", "../outside/base.cardgame"):
        (game / "v.cardgame").write_text(f'extends "{target}"\ngame "V"\n')
        out = check_cmd("v.cardgame", cwd=game)
        assert f"v.cardgame:1:9: error: '{target}' is outside the game's folder" in out.stderr
    (game / "v.cardgame").write_text('extends "ok"\ngame "V"\n')
    assert check_cmd("v.cardgame", cwd=game).returncode == 0
    (game / "v.cardgame").write_text('extends "calculation"\ngame "V"\n')
    assert check_cmd("v.cardgame", cwd=game).returncode == 0  # a bundled game


def test_a_long_chain_of_extends_is_not_called_a_cycle(tmp_path: Path) -> None:
    for i in range(18):
        text = f'extends "e{i + 1}"\n' if i < 17 else HEAD + MOVE
        (tmp_path / f"e{i}.cardgame").write_text(text)
    err = check_cmd("e0.cardgame", cwd=tmp_path).stderr
    assert "e16.cardgame:1:9: error: too many levels of 'extends' (at most 16)" in err
    assert "cycle" not in err


# ---------------------------------------------------------------------- 5. messages
def test_a_file_that_is_not_utf8_is_located(tmp_path: Path) -> None:
    err = refused(tmp_path, (HEAD + MOVE).encode() + b'log "ab\xff"\n')
    assert err.strip().splitlines()[0] == ("t.cardgame:5:8: error: this file is not UTF-8 text: "
                                           "byte 0xff cannot be decoded")


def test_a_bom_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "t.cardgame"
    path.write_bytes(b"\xef\xbb\xbf" + (HEAD + MOVE).encode())
    assert check_cmd("t.cardgame", cwd=tmp_path).returncode == 0


@pytest.mark.parametrize("text,where,message", [
    (HEAD.replace("zone pile", "zon\u0435 pile") + MOVE, "3:4",
     "unexpected character '\u0435' (U+0435 CYRILLIC SMALL LETTER IE)\n"),
    (HEAD + "var v\u0430 = 0\n" + MOVE, "4:6",
     "unexpected character '\u0430' (U+0430 CYRILLIC SMALL LETTER A)\n"),
])
def test_a_look_alike_letter_is_named(tmp_path: Path, text: str, where: str,
                                      message: str) -> None:
    err = refused(tmp_path, text)
    assert f"t.cardgame:{where}: error: {message}" in err
    assert "hint: it looks like the ASCII letter" in err


def test_a_form_feed_or_line_separator_keeps_the_caret_on_its_line(tmp_path: Path) -> None:
    err = refused(tmp_path, 'game "T"\f\ndeck standard\fzone pile\nmove go { x = 1 }\n')
    assert err.splitlines()[:3] == [
        "t.cardgame:3:11: error: cannot assign to 'x' (not a variable)",
        " 3 | move go { x = 1 }",
        "   |           ^",
    ]
    err = refused(tmp_path, 'game "T"\ndeck standard\n\u2028\nmove go { }\n')
    assert err.startswith("t.cardgame:3:1: error: unexpected character '\\u2028' (U+2028 LINE "
                          "SEPARATOR)")


def test_escaped_braces_are_not_placeholders(tmp_path: Path) -> None:
    path = tmp_path / "t.cardgame"
    path.write_text(HEAD + 'var v = 7\nmove go { log "a {{v}} is {v}" }\n', encoding="utf-8")
    g = compile_game(path)
    _, events = g.apply_with_events(g.new_state(0), g.legal_moves(g.new_state(0))[0])
    assert "a {v} is 7" in repr(events)


# ---------------------------------------------------------------------- 6. moves
def test_two_zones_written_alike_are_refused(tmp_path: Path) -> None:
    err = refused(tmp_path, HEAD + "zone p[2]\nzone p1\nmove take(z in [p1, p[1]]) { }\n")
    assert "zone 'p1' gives a zone written 'p1', like one of zone 'p'" in err
    err = refused(tmp_path, HEAD + "zone a[12]\nzone a1[2]\n" + MOVE)
    assert "zone 'a1' gives a zone written 'a11', like one of zone 'a'" in err


@pytest.mark.parametrize("decl", ["move help { }", "move undo(n in 1..3) { }",
                                  "move quit { }", "move Save(n in 1..3) { }",
                                  "move pass { }"])
def test_a_move_named_like_a_command_is_refused(tmp_path: Path, decl: str) -> None:
    err = refused(tmp_path, HEAD + decl + "\n")
    assert "error: a move may not be named" in err


def test_a_move_with_parameters_may_share_a_word_command_name(tmp_path: Path) -> None:
    path = tmp_path / "t.cardgame"
    path.write_text(HEAD + "move show(n in 1..3) { }\nmove Go { }\n", encoding="utf-8")
    assert check_cmd(path.name, cwd=tmp_path).returncode == 0
    err = refused(tmp_path, HEAD + "move go { }\nmove Go { }\n")
    assert "move 'Go' is written like move 'go'" in err


def test_the_command_words_are_the_prompts() -> None:
    from cardgame.interpreter.lang import limits
    from cardgame.repl.commands import ALIASES, COMMANDS

    assert set(COMMANDS) | set(ALIASES) - {"?", "n", "b"} | {"pass"} == \
        limits.ARG_COMMANDS | limits.WORD_COMMANDS


# ---------------------------------------------------------------------- property


NUMBERS = st.one_of(st.integers(0, 20), st.integers(0, 10**40),
                    st.sampled_from([2**63 - 1, 2**63, 10**18 - 1, 10**18]))
ATOMS = st.one_of(NUMBERS.map(str), st.sampled_from(["v", "w", "true", "false", "k",
                                                       "size(pile)", "player_count", "zz"]))


def _exprs() -> st.SearchStrategy[str]:
    return st.recursive(ATOMS, lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "%", "==", "<", "and", "or"]),
                  inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        inner.map(lambda x: f"not {x}"),
        inner.map(lambda x: f"-{x}"),
        st.tuples(inner, inner, inner).map(lambda t: f"if {t[0]} then {t[1]} else {t[2]}"),
        st.tuples(st.sampled_from(["sum", "count", "any"]), inner, inner).map(
            lambda t: f"{t[0]} k in 1..{t[1]}: {t[2]}"),
        st.lists(inner, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"),
    ), max_leaves=30)


def _stmts(e: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.recursive(e.map(lambda x: f"v = {x}"), lambda inner: st.one_of(
        st.tuples(e, inner).map(lambda t: f"if {t[0]} {{ {t[1]} }}"),
        st.tuples(e, inner).map(lambda t: f"repeat {t[0]} times {{ {t[1]} }}"),
        st.tuples(e, inner).map(lambda t: f"for w in 1..{t[0]} {{ {t[1]} }}"),
        st.lists(inner, min_size=1, max_size=3).map(" ".join),
    ), max_leaves=12)


@st.composite
def programs(draw: st.DrawFn) -> str:
    e = _exprs()
    body = draw(_stmts(e))
    depth = draw(st.sampled_from([0, 0, 5, 99, 101, 400]))
    wrapped = "if true { " * depth + body + " }" * depth
    decl = draw(st.sampled_from(["", f"def d = {draw(e)}\n",
                                 f"zone z[{draw(NUMBERS)}]\n",
                                 f"move m(a in 1..{draw(NUMBERS)}, b in 1..{draw(NUMBERS)}) {{ }}\n"]))
    return HEAD + "var v = 0\n" + decl + f"move go {{ {wrapped} }}\n"


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(programs())
def test_check_ends_with_a_game_or_a_located_error(tmp_path_factory: pytest.TempPathFactory,
                                                   text: str) -> None:
    path = tmp_path_factory.getbasetemp() / "limits-prop.cardgame"
    path.write_text(text, encoding="utf-8")
    try:
        with time_limit(20):
            compile_game(path)
    except Diagnostics as ds:
        assert all(d.span.line > 0 for d in ds.items if "too many errors" not in d.message)
        str(ds)
    except Diagnostic as d:
        assert d.span.line > 0, d.message
        d.format()
    except CardgameError:
        pass


def test_a_source_line_is_shown_safely_with_the_caret_in_place(tmp_path: Path) -> None:
    err = refused(tmp_path, HEAD + 'move go { log "\u202e" x = 1 }  # \x1b[2J\n')
    lines = err.splitlines()
    assert lines[0] == "t.cardgame:4:19: error: cannot assign to 'x' (not a variable)"
    assert lines[1] == ' 4 | move go { log "\\u202e" x = 1 }  # \\u001b[2J'
    assert lines[2] == "   |" + " " * (lines[1].index("x = 1") - 4) + "^"
