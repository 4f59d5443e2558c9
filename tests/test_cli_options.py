"""The commands' options as the README states them, their help texts, and an option a
command does not take refused by that command (its usage, not the top level's)."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest
from cardgame.interpreter.cli import build_parser, main

README = Path(__file__).resolve().parent.parent / "README.md"
COMMON = ("--players", "--set", "--seed", "--json")


def _commands() -> dict[str, argparse.ArgumentParser]:
    p = build_parser()
    sub = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def _takes(parser: argparse.ArgumentParser) -> set[str]:
    return {o for a in parser._actions for o in a.option_strings if o in COMMON}


def _names(text: str) -> set[str]:
    return set(re.findall(r"`([a-z]+)`", text))


def test_the_readme_says_which_command_takes_which_option() -> None:
    text = " ".join(README.read_text(encoding="utf-8").split())
    all_three = re.search(r"file\. (.*?) take `--players N`, `--set NAME=VALUE`", text)
    only_two = re.search(r"\(repeatable\) and `--seed S`[^.]*\. (`\w+`) takes `--players` and "
                         r"`--set`", text)
    none = re.search(r"(`\w+`) and (`\w+`) take none of them", text)
    json_ = re.search(r"`--json` gives machine-readable output in (.*?);", text)
    assert all_three and only_two and none and json_, "the README's sentence changed"
    claimed: dict[str, set[str]] = {}
    for c in _names(all_three.group(1)):
        claimed[c] = {"--players", "--set", "--seed"}
    claimed[only_two.group(1).strip("`")] = {"--players", "--set"}
    for c in none.groups():
        claimed[c.strip("`")] = set()
    for c in _names(json_.group(1)):
        claimed[c].add("--json")
    commands = _commands()
    assert set(claimed) == set(commands)
    for name, parser in commands.items():
        assert _takes(parser) == claimed[name], name


def test_every_option_has_a_help_text() -> None:
    for name, parser in _commands().items():
        for a in parser._actions:
            if a.option_strings:
                assert a.help, f"cardgame {name} {a.option_strings[0]} has no help"


def test_fuzz_examples_help_says_games_not_example_blocks() -> None:
    fuzz = _commands()["fuzz"]
    h = next(a.help for a in fuzz._actions if "--examples" in a.option_strings)
    assert h and "N games" in h and "not the game's `example` blocks" in h


def test_an_option_a_command_does_not_take_is_refused_by_that_command(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["test", "games/hearts.cardgame", "--set", "target=50"])
    assert e.value.code == 2
    assert capsys.readouterr().err == (
        "usage: cardgame test [-h] [--verbose] [--json] GAME [GAME ...]\n"
        "cardgame test: error: unrecognized arguments: --set target=50 (an example names "
        "its own players and options: `players 3`, `option NAME = VALUE` as its first "
        "lines; docs/testing.md)\n")
    with pytest.raises(SystemExit):
        main(["check", "games/hearts.cardgame", "--seed", "3"])
    err = capsys.readouterr().err
    assert err.startswith("usage: cardgame check ")
    assert err.endswith("cardgame check: error: unrecognized arguments: --seed 3 (check "
                        "only compiles: nothing in it is random)\n")
    with pytest.raises(SystemExit):
        main(["list", "--players", "3"])
    assert capsys.readouterr().err == ("usage: cardgame list [-h] [--json]\n"
                                       "cardgame list: error: unrecognized arguments: "
                                       "--players 3\n")
    with pytest.raises(SystemExit):
        main(["--bogus"])
    assert "cardgame: error: unrecognized arguments: --bogus" in capsys.readouterr().err


def test_list_json_gives_each_option_as_data(capsys: pytest.CaptureFixture[str]) -> None:
    # (a user test: each option was one formatted string, to be parsed again)
    assert main(["list", "--json"]) == 0
    games = {g["name"]: g for g in json.loads(capsys.readouterr().out)}
    arsene, blackjack = games["arsene"]["options"], games["blackjack"]["options"]
    assert arsene["max_deals"] == {
        "type": "int", "min": 1, "max": 1000, "default": 200,
        "doc": "the game ends after this many deals (the rules alone may never end)",
        "text": "1..1000 (default 200)  the game ends after this many deals (the rules alone "
                "may never end)"}
    assert arsene["advanced"]["type"] == "bool" and arsene["advanced"]["default"] is False
    assert blackjack["soft17"]["choices"] == ["stand", "hit"]
    assert blackjack["soft17"]["default"] == "stand"
