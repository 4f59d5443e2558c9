"""Error messages: golden files for `cardgame check`, and the diagnostics API.

tests/golden/NAME.cardgame is a broken game file; NAME.expected is the exact stderr of
`cardgame check NAME.cardgame` run in tests/golden (so paths print relative), and the
optional NAME.args holds extra command-line arguments (e.g. `--set rounds=9`).
Run with UPDATE_GOLDEN=1 to rewrite the .expected files from the current messages, then
read the diff: every message should point at the right token and give a useful hint.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cardgame.interpreter.cli import main
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.errors import CardgameError, Diagnostic, Diagnostics

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = sorted(p.stem for p in GOLDEN.glob("*.cardgame"))
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
HEADER = re.compile(r"^(?P<file>[^\s:]+):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.+)$")


def extra_args(name: str) -> list[str]:
    path = GOLDEN / f"{name}.args"
    return path.read_text(encoding="utf-8").split() if path.exists() else []


def check_in_process(name: str, capsys: pytest.CaptureFixture[str],
                     monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    monkeypatch.chdir(GOLDEN)
    code = main(["check", *extra_args(name), f"{name}.cardgame"])
    return code, capsys.readouterr().err


def cli(*args: str, cwd: Path = GOLDEN) -> subprocess.CompletedProcess[str]:
    """The real `cardgame` command (its entry point is cardgame.interpreter.cli:main)."""
    return subprocess.run([sys.executable, "-m", "cardgame.interpreter.cli", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=120)


def test_there_are_enough_golden_files():
    assert len(CASES) >= 12
    for name in CASES:
        assert (GOLDEN / f"{name}.expected").exists() or UPDATE, f"{name}.expected is missing"


# ---------------------------------------------------------------------- the golden files
@pytest.mark.parametrize("name", CASES)
def test_golden_message(name, capsys, monkeypatch):
    code, err = check_in_process(name, capsys, monkeypatch)
    expected = GOLDEN / f"{name}.expected"
    if UPDATE:
        expected.write_text(err, encoding="utf-8")
    assert code == 1
    assert "Traceback" not in err
    assert err == expected.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", CASES)
def test_golden_message_is_well_formed(name):
    """Each diagnostic names the file, line and column; shows that line of the file with
    a caret under the column; and any hint comes last, on its own line."""
    source = (GOLDEN / f"{name}.cardgame").read_text(encoding="utf-8").splitlines()
    lines = (GOLDEN / f"{name}.expected").read_text(encoding="utf-8").splitlines()
    heads = [i for i, ln in enumerate(lines) if HEADER.match(ln)]
    assert heads and heads[0] == 0, lines
    for i in heads:
        m = HEADER.match(lines[i])
        assert m is not None
        assert m["file"] == f"{name}.cardgame" or (GOLDEN / m["file"]).exists()
        line, col = int(m["line"]), int(m["col"])
        shown = re.match(r"^ (\d+) \| (.*)$", lines[i + 1])
        assert shown is not None, lines[i + 1]
        assert int(shown[1]) == line
        assert shown[2] == source[line - 1].expandtabs(1)
        caret = re.match(r"^ +\| ( *)(\^+)$", lines[i + 2])
        assert caret is not None, lines[i + 2]
        assert len(caret[1]) == col - 1
        assert col - 1 + len(caret[2]) <= max(len(shown[2]), col)
    if len(heads) > 1:
        assert lines[-1] == f"{len(heads)} errors"


def test_every_golden_file_through_the_real_command():
    """One run of `cardgame check` over all the files that need no extra arguments: the
    stderr is the expected messages one after the other, no traceback, exit code 1."""
    names = [n for n in CASES if not extra_args(n)]
    out = cli("check", "--quiet", *[f"{n}.cardgame" for n in names])
    assert "Traceback" not in out.stderr
    assert out.returncode == 1
    assert out.stderr == "".join((GOLDEN / f"{n}.expected").read_text(encoding="utf-8")
                                 for n in names)


def test_a_raw_control_character_is_located_under_its_escape(capsys, monkeypatch):
    """A golden file that cannot live in tests/golden: its source line holds a raw ESC,
    which the message shows escaped (`\\u001b`), with the caret under that escape. (Not
    in tests/data itself either, whose games must all compile: test_program.py.)"""
    data = GOLDEN.parent / "data" / "raw_control"
    monkeypatch.chdir(data)
    assert main(["check", "string_control_character.cardgame"]) == 1
    expected = data / "string_control_character.expected"
    err = capsys.readouterr().err
    if UPDATE:
        expected.write_text(err, encoding="utf-8")
    assert err == expected.read_text(encoding="utf-8")


# ---------------------------------------------------------------------- the API
def test_a_file_with_one_error_raises_a_diagnostic(monkeypatch):
    monkeypatch.chdir(GOLDEN)
    with pytest.raises(Diagnostic) as e:
        compile_game("unknown_zone.cardgame")
    d = e.value
    assert (d.span.line, d.span.column) == (9, 23)
    assert "dnoe" in d.message
    assert d.hint == "did you mean 'done'?"
    assert d.format() + "\n" == (GOLDEN / "unknown_zone.expected").read_text(encoding="utf-8")


def test_a_file_with_several_errors_raises_them_all(monkeypatch):
    monkeypatch.chdir(GOLDEN)
    with pytest.raises(Diagnostics) as e:
        compile_game("several_errors.cardgame")
    assert [(d.span.line, d.span.column) for d in e.value.items] == [(8, 63), (10, 28), (13, 22)]  # 10:28: the attribute's name
    assert all(isinstance(d, Diagnostic) and d.hint for d in e.value.items)


def test_syntax_errors_say_what_was_expected(monkeypatch):
    monkeypatch.chdir(GOLDEN)
    with pytest.raises(Diagnostic) as e:
        compile_game("syntax_unexpected_token.cardgame")
    assert e.value.message == "unexpected name 'done'"
    assert e.value.hint == "expected 'to'"


# ---------------------------------------------------------------------- --set
def test_set_option_out_of_range_is_an_error_of_the_command_line():
    out = cli("check", "--set", "rounds=9", "set_option_out_of_range.cardgame")
    assert out.returncode == 1
    # the message names the command-line setting and points at the option's declaration
    assert out.stderr.startswith("set_option_out_of_range.cardgame:4:1: error: "
                                 "--set rounds=9: option 'rounds' is 1..5, not 9\n")
    assert out.stdout == ""


def test_set_option_in_range_is_accepted():
    out = cli("check", "--set", "rounds=5", "set_option_out_of_range.cardgame")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("set_option_out_of_range.cardgame: ok (Tiny, 1 player")


@pytest.mark.parametrize(("value", "message"), [
    ("rounds=9", "--set rounds=9: option 'rounds' is 1..5, not 9"),
    ("rounds=0", "--set rounds=0: option 'rounds' is 1..5, not 0"),
    ("rounds=x", "--set rounds=x: option 'rounds' takes a number, not 'x'"),
    ("rouns=2", "unknown option 'rouns'"),
])
def test_bad_option_values_are_diagnostics(value, message):
    key, raw = value.split("=")
    with pytest.raises(Diagnostic) as e:
        compile_game(GOLDEN / "set_option_out_of_range.cardgame", settings={key: raw})
    assert e.value.message == message
    if key == "rouns":
        assert e.value.hint == "did you mean 'rounds'?"


def test_set_without_a_value_is_a_usage_error():
    out = cli("check", "--set", "rounds", "set_option_out_of_range.cardgame")
    assert out.returncode == 2
    assert out.stderr == "cardgame check: error: --set takes NAME=VALUE, not 'rounds'\n"


@pytest.mark.parametrize("args, message", [
    (["calculation", "--examples", "0"], "--examples must be at least 1"),
    (["calculation", "--seconds", "0"], "--seconds must be more than 0"),
    (["calculation", "--max-moves", "0"], "--max-moves must be at least 1"),
    # the limits are checked before the game is looked for
    (["no-such-game", "--examples", "0"], "--examples must be at least 1"),
    (["calculation", "--examples", "3", "--set", "rounds"],
     "--set takes NAME=VALUE, not 'rounds'"),
])
def test_bad_fuzz_limits_are_usage_errors(args, message, capsys):
    assert main(["fuzz", *args]) == 2
    assert capsys.readouterr().err == f"cardgame fuzz: error: {message}\n"


def test_a_fuzzed_game_that_does_not_compile_exits_with_2(capsys):
    assert main(["fuzz", "no-such-game", "--examples", "3"]) == 2
    assert capsys.readouterr().err == ("error: unknown game 'no-such-game'\nhint: run "
                                       "'cardgame list' for the bundled games, or give a path\n")


def test_bad_simulate_and_play_arguments_are_usage_errors(capsys):
    assert main(["simulate", "calculation", "--games", "0"]) == 2
    assert capsys.readouterr().err == "cardgame simulate: error: --games must be at least 1\n"
    assert main(["play", "calculation", "--seat", "3"]) == 2
    assert capsys.readouterr().err == ("cardgame play: error: --seat 3: this is a one-player "
                                       "game (seat 1)\n")


# ---------------------------------------------------------------------- robustness
def test_bundled_games_check_clean():
    out = cli("check", "calculation", "besieged-castle", "besieged-castle-spice-1",
              "besieged-castle-spice-2")
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    assert out.stdout.count(": ok (") == 4


def test_a_missing_file_is_a_one_line_error():
    out = cli("check", "no-such-game.cardgame")
    assert out.returncode == 1
    assert out.stderr == "error: no such game file: no-such-game.cardgame\n"



@pytest.mark.parametrize("command", ["check", "simulate", "play", "fuzz", "test", "mutate",
                                     "solve"])
def test_a_bare_name_of_a_file_here_says_how_to_name_it(command, tmp_path, monkeypatch, capsys):
    """`cardgame simulate mygame` with ./mygame.cardgame there (a user test): a bare name
    stays a bundled game's (no file silently shadows one), and the hint says how to name
    the file, in every command that takes GAME."""
    (tmp_path / "mygame.cardgame").write_text("game \"Mine\"\n")
    monkeypatch.chdir(tmp_path)
    assert main([command, "mygame"]) in (1, 2)
    assert capsys.readouterr().err == (
        "error: unknown game 'mygame'\nhint: did you mean ./mygame.cardgame? (a bare name "
        "is a bundled game; give a file's path)\n")


def test_a_missing_file_gets_a_did_you_mean(tmp_path, monkeypatch, capsys):
    (tmp_path / "mygame.cardgame").write_text("")
    (tmp_path / "other.cardgame").write_text("")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "mygam.cardgame"]) == 1
    assert capsys.readouterr().err == ("error: no such game file: mygam.cardgame\n"
                                       "hint: did you mean 'mygame.cardgame'?\n")
    assert main(["check", "sub/mygam.cardgame"]) == 1
    assert capsys.readouterr().err == "error: no such game file: sub/mygam.cardgame\n"

@pytest.mark.parametrize("expr", [
    "1" + " + 1" * 250,  # a long sum (the generated code nests 250 deep)
    "1" + " + 1" * 1200,  # deeper than Python's recursion limit
    "(" * 400 + "1" + ")" * 400,
], ids=["sum-250", "sum-1200", "parentheses-400"])
def test_a_huge_expression_never_gives_a_traceback(tmp_path, expr):
    game = tmp_path / "huge.cardgame"
    game.write_text(f'game "Huge"\nplayers 1\ndeck standard\nzone pile: face up\n'
                    f"def f(x: int) = {expr}\n"
                    "move take when f(1) > 0 and pile is not empty { move top of pile to deck }\n",
                    encoding="utf-8")
    out = cli("check", game.name, cwd=tmp_path)
    assert "Traceback" not in out.stderr
    assert out.returncode in (0, 1)
    if out.returncode == 1:
        assert out.stderr.startswith("huge.cardgame:")


@pytest.mark.parametrize(("kind", "first", "second"), [
    ("zone", 'zone pile "pile": face down', 'zone pile "pile": face up'),
    ("def", "def high(c: card) = c.rank > 10", "def high(c: card) = c.rank > 5"),
    ("move", 'move take "take" when pile is not empty { move top of pile to done }',
     'move take "take" when done is not empty { move top of done to pile }'),
], ids=["zone", "def", "move"])
def test_a_name_declared_twice_in_one_file_is_an_error(tmp_path, kind, first, second):
    game = tmp_path / "twice.cardgame"
    game.write_text(f'game "Twice"\nplayers 1\ndeck standard\nzone done: face up\n'
                    f"{first}\n{second}\n"
                    + ("" if kind == "move" else
                       'move go when pile is not empty { move top of pile to done }\n')
                    + ("zone pile: face down\n" if kind != "zone" else ""),
                    encoding="utf-8")
    with pytest.raises(CardgameError) as e:
        compile_game(game)
    items = e.value.items if isinstance(e.value, Diagnostics) else [e.value]
    assert any(isinstance(d, Diagnostic) and d.span.line == 6
               and re.search(r"already|twice|again", d.message) for d in items), str(e.value)


# a `while true` with a way out, which check accepts (the refusal: golden
# while_true_without_way_out)
_WAY_OUT = {
    "break": "while true { if trick is empty { break }\n move top of trick to hand[me] }",
    "break in an else": "while true { if n > 3 { n = 0 } else { break } }",
    "end": "while true { end \"done\" }",
    "a proc that ends": "while true { stop() }",
    "a false condition": "while false { n += 1 }",
    "a condition that changes": "while n < 3 { n += 1 }",
}


@pytest.mark.parametrize("body", list(_WAY_OUT.values()), ids=list(_WAY_OUT))
def test_a_while_true_with_a_way_out_is_accepted(tmp_path, body):
    game = tmp_path / "g.cardgame"
    game.write_text(
        'game "T"\nplayers 2\ndeck standard\nzone hand[player]: owner\nzone trick: face up\n'
        'var n = 0\nproc stop() { end "stopped" }\n'
        f'move play(c in hand[me]) "play {{c}}" {{ move c to trick\n {body}\n}}\n'
        "flow { while true { for p in players { p chooses play } } }\n", encoding="utf-8")
    compile_game(str(game))
