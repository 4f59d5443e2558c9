"""A rule error inside a `log` line: one verdict everywhere (user test ut15, item 1).

A log line is narration: the part whose expression fails is shown as a marker
(`‹rule error: ...›`) and play goes on, in the REPL as in the API; unobserved play
(`simulate`, `random_playout`) skips log lines; `fuzz` reports the failure as a rule hole
("log-line-fails"), found alike by a fast walk and by its full replay, with a replay that
shows it. The game is the user's: `log "{me} still holds {top of hand[me]}"` after the
last card of a hand is played."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter import fuzz as F
from cardgame.interpreter.cli import build_parser
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.engine import replay as replay_mod
from cardgame.interpreter.errors import LogFailure
from cardgame.interpreter.fuzz import Playthrough
from cardgame.interpreter.fuzz.fast import FastWalks
from cardgame.repl.app import make_repl
from cardgame.repl.session import Session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from support import tmux as tmux_

DATA = Path(__file__).parent / "data"
GAME = str(DATA / "log_fails.cardgame")
WHERE = "log_fails.cardgame:31:26: rule error (in move play): "
MARKER = "\u2039rule error: "


TMUX = tmux_.server("log-lines")


@pytest.fixture(scope="module", autouse=True)
def tmux_server():  # type: ignore[no-untyped-def]
    yield from tmux_.keep_server(TMUX)


def play_out(game: Any, seed: int) -> tuple[Any, list[str]]:
    """A game played to the end through the observed API, its log lines."""
    state, logs = game.start_with_events(seed)
    while not game.is_terminal(state):
        state, more = game.apply_with_events(state, game.legal_moves(state)[0])
        logs += more
    return state, logs


def test_an_observed_game_shows_the_failed_part_as_a_marker_and_goes_on() -> None:
    game = compile_game(GAME)
    state, logs = play_out(game, 3)
    assert game.is_terminal(state) and len(logs) == 20
    assert logs[-1].startswith("p") and " still holds " + MARKER in logs[-1]
    assert logs[-1].endswith("\u203a")
    # the same game unobserved: the same moves, the same end
    plain = game.new_state(3)
    while not game.is_terminal(plain):
        plain = game.apply(plain, game.legal_moves(plain)[0])
    assert plain == state
    assert game.random_playout(1, random.Random(1), 1000)[1] == 20


def test_the_api_names_the_error_of_each_failed_part() -> None:
    game = compile_game(GAME)
    with game.checking_logs() as fails:
        state = game.new_state(3)
        while not game.is_terminal(state):
            state = game.apply(state, game.legal_moves(state)[0])
    assert fails and all(WHERE in str(e) for e in fails)
    # out of the block nothing is collected, though this last move's log line fails
    before = len(fails)
    states = [game.new_state(3)]
    while not game.is_terminal(states[-1]):
        states.append(game.apply(states[-1], game.legal_moves(states[-1])[0]))
    last = states[-2]
    with game.checking_logs() as inside:
        game.apply(last, game.legal_moves(last)[0])
    assert inside  # (the move does fail: the check below could fail)
    game.apply(last, game.legal_moves(last)[0])
    assert len(fails) == before


def test_a_log_line_that_runs_too_long_costs_the_rule_nothing() -> None:
    # (found by review: the runaway part spent the rule's step budget, so the rule's next
    # loop failed in observed play and fuzz, naming that innocent line; unobserved play
    # went on)
    game = compile_game(str(DATA / "log_budget.cardgame"))
    state, logs = play_out(game, 1)
    assert game.is_terminal(state)
    assert any("ran more than" in line for line in logs), logs
    with game.checking_logs() as fails:
        s = game.new_state(1)
        s = game.apply(s, game.legal_moves(s)[0])
    assert fails and all("log_budget.cardgame:17:" in str(e) for e in fails), fails


def test_fuzz_reports_the_failing_log_line_as_a_rule_hole(tmp_path: Path) -> None:
    out = tmp_path / "cx.json"
    r = F.fuzz(GAME, seed=1, examples=50, database=None, shrink_seconds=2, out=out)
    cx = r.failure
    assert cx is not None and cx.property == "log-line-fails", r
    assert WHERE in cx.message and "writes a log line that fails" in cx.message
    assert cx.failing_move is None and cx.state is not None
    # the fast walk and its full replay agree: no "its full replay found nothing"
    assert r.coverage.fast_unconfirmed == []
    assert r.replay_ok
    # the replay shows the failed line and names the error
    rep = replay_mod.load(str(out))
    sess, notes = Session.from_replay(rep)
    assert not notes
    assert any(MARKER in e for e in sess.steps[-1].events)
    assert any(WHERE in str(e) for e in sess.log_errors)


def test_the_fast_walk_finds_it_and_its_full_replay_confirms_it() -> None:
    game = compile_game(GAME)
    play = Playthrough(game, 2000)
    walks = FastWalks(play, 1)
    with game.checking_logs() as play.logs:
        w = walks.play_one()
        assert w.found == "log-line-fails" and WHERE in w.message
        cx = walks.confirm(w)
    assert cx is not None and cx.property == "log-line-fails"
    assert play.cov.fast_unconfirmed == []


def test_the_repl_plays_the_game_to_its_end(tmp_path: Path) -> None:
    """The user's session: `play --seed 3`, answering 1 each time. It used to stop at
    move 18 on the bot's turn for good ("it is not your turn")."""
    with create_pipe_input() as inp:
        inp.send_text("1\n" * 12)
        inp.close()
        args = build_parser().parse_args(["play", GAME, "--seed", "3", "--history",
                                          str(tmp_path / "history")])
        repl, note = make_repl(args, input=inp, output=DummyOutput())
        assert repl.run(note) == 0
    text = "\n".join(repl.transcript)
    assert repl.sess.over and len(repl.sess.steps) == 20
    assert "it is not your turn" not in text
    assert "still holds " + MARKER in text
    warnings = [t for t in repl.transcript if t.startswith("warning:") and WHERE in t]
    assert len(warnings) == 2  # the last card of each hand, each named once


@tmux_.needs_tmux
def test_the_full_screen_plays_the_game_to_its_end() -> None:
    """The full-screen application (tmux): each move answered with 1 until the game
    is over; the last step's warning names the failed log line's place."""
    t = tmux_.Term(TMUX, [GAME, "--seed", "3"], 220, 50,
                   ready=lambda s: "your turn" in s, rounds=3, pause=0.1)
    try:
        screens = []
        for _ in range(12):
            t.keys("1", "Enter")
            screens.append(t.settle())
            if "game over" in screens[-1]:
                break
    finally:
        t.close()
    last = screens[-1]
    assert "game over" in last, last
    assert "not your turn" not in "".join(screens)
    assert "still holds " + MARKER in last
    assert "warning: " in last and WHERE in last


def test_the_scriptable_repl_with_random_bots_plays_the_last_card() -> None:
    """With --bots random the person's last card could never be played."""
    stream = io.StringIO()
    args = build_parser().parse_args(["play", GAME, "--seed", "3", "--bots", "random"])
    repl, note = make_repl(args, interactive=False, stream=stream)
    assert repl.run_script(["1"] * 12, note) == 0
    out = stream.getvalue()
    assert repl.sess.over, out
    refused = [ln for ln in out.splitlines() if ln.startswith("error:")]
    assert all("the game is over" in ln for ln in refused), refused
    assert WHERE in out and MARKER in out


def test_a_log_failure_is_a_str_that_keeps_its_error() -> None:
    game = compile_game(GAME)
    state, events = game.start_observed(3)
    while not game.is_terminal(state):
        state, events = game.apply_observed(state, game.legal_moves(state)[0])
    parts = [p for e in events if e.kind == "log" for p in e.parts
             if isinstance(p, LogFailure)]
    assert parts and WHERE in str(parts[0].error)


def test_a_failing_log_line_of_the_deal_is_found_by_both_kinds_of_games() -> None:
    game = compile_game(str(DATA / "log_fails_deal.cardgame"))
    r = F.fuzz(game, seed=1, examples=20, database=None, shrink_seconds=1,
               write_replay=False)
    assert r.failure is not None and r.failure.property == "log-line-fails"
    assert "a log line of the deal fails" in r.failure.message
    assert "log_fails_deal.cardgame:9:36: rule error (in setup)" in r.failure.message
    play = Playthrough(game, 2000)
    walks = FastWalks(play, 1)
    with game.checking_logs() as play.logs:
        w = walks.play_one()
        assert w.found == "log-line-fails" and "of the deal" in w.message
        cx = walks.confirm(w)
    assert cx is not None and cx.property == "log-line-fails" and not cx.moves
    # the game itself starts, and its first line shows the marker
    _, logs = game.start_with_events(1)
    assert logs[0].startswith("the bottom of the stock is " + MARKER)
