"""`cardgame play --bots`: one bot for every other seat, or one per seat as `simulate
--bots` takes them (the brief's product surface: `--bots` is one name or one per seat
wherever bots play)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cardgame.interpreter.bots import IsmctsLeadBot, RandomBot
from cardgame.interpreter.cli import main
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.errors import UsageError
from cardgame.repl.session import CommandError, Session, bot_names
from test_repl import args_for, drive, errors, make_repl


def test_one_name_or_one_per_seat() -> None:
    assert bot_names("greedy", 3) == {1: "greedy", 2: "greedy", 3: "greedy"}
    assert bot_names("random,ismcts-lead:50,greedy", 3) == {
        1: "random", 2: "ismcts-lead:50", 3: "greedy"}
    with pytest.raises(CommandError, match="2 bots named for 3 seats: give one bot name, or one per seat: 3 names"):
        bot_names("random,greedy", 3)
    with pytest.raises(CommandError, match="unknown bot 'nope'"):
        bot_names("greedy,nope,greedy", 3)


def test_each_seat_gets_its_own_bot_and_says_so(tmp_path: Path) -> None:
    repl = drive(["interaction", "--players", "4", "--seed", "1",
                  "--bots", "greedy,ismcts-lead:20,random,greedy"], ["1"], tmp_path)
    sess = repl.sess
    assert errors(repl) == []
    assert isinstance(sess.bots[2], IsmctsLeadBot) and isinstance(sess.bots[3], RandomBot)
    assert 1 not in sess.bots  # the seat you play: its entry is not used
    assert sess.labels() == {1: "you", 2: "ismcts-lead:20 bot", 3: "random bot",
                             4: "greedy bot"}
    assert sess.who(3) == "p3 (random bot)"
    text = "\n".join(repl.transcript)
    assert "p2 (ismcts-lead:20 bot)" in text and "p3 (random bot)" in text


def test_set_bots_takes_one_per_seat_too(tmp_path: Path) -> None:
    repl = drive(["interaction", "--players", "3", "--seed", "2"],
                 ["set bots random,random,ismcts-lead:20", "set bots greedy,random"], tmp_path)
    assert repl.sess.labels()[3] == "ismcts-lead:20 bot"
    assert isinstance(repl.sess.bots[2], RandomBot)
    # (it read "give one bot for every seat, or one per seat": the same thing twice)
    assert errors(repl) == ["error: 2 bots named for 3 seats: give one bot name, or one per "
                            "seat: 3 names for 3 seats (the entries of the seats you play are "
                            "not used)"]


def test_a_bad_bots_list_is_a_usage_error(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(UsageError, match="3 bots named for 4 seats"):
        make_repl(args_for(["interaction", "--players", "4", "--bots", "greedy,random,mcts"],
                           tmp_path))
    assert main(["play", "interaction", "--bots", "nope"]) == 2
    assert "unknown bot 'nope'" in capsys.readouterr().err
    with pytest.raises(CommandError, match="unknown bot"):  # a session made in code too
        Session(compile_game("interaction", 4), "interaction", 1,
                bots="greedy,nope,greedy,greedy")
