"""`cardgame play`: the completer and lexer alone, then the real prompt_toolkit
application driven through a pipe input (DummyOutput), the scriptable mode as a real
process, and what a seat may see in a game with hidden hands."""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from cardgame.interpreter.bots import GreedyBot
from cardgame.interpreter.cli import build_parser
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.engine import replay as replay_mod
from cardgame.interpreter.errors import CardgameError, UsageError
from cardgame.repl.app import COMMANDS, Repl, make_repl
from cardgame.repl.commands import HANDLERS, REPLAY_COMMANDS, REPLAY_HANDLERS
from cardgame.repl.completion import InputLexer, MoveCompleter
from cardgame.repl.render import plain, render_table
from cardgame.repl.rules import rules_text, rules_width
from cardgame.repl.session import Session
from prompt_toolkit.completion import CompleteEvent, Completer
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

DATA = Path(__file__).parent / "data"
TWO_HANDS = str(DATA / "two_hands.cardgame")
CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")


# ---------------------------------------------------------------------- helpers
def args_for(argv: list[str], tmp_path: Path) -> argparse.Namespace:
    return build_parser().parse_args(["play", *argv, "--history", str(tmp_path / "history")])


def drive(argv: list[str], lines: list[str], tmp_path: Path, keys: str | None = None) -> Repl:
    """Run the application on `lines` (or raw `keys`), then end of input."""
    with create_pipe_input() as inp:
        inp.send_text(keys if keys is not None else "".join(f"{ln}\n" for ln in lines))
        inp.close()
        repl, note = make_repl(args_for(argv, tmp_path), input=inp, output=DummyOutput())
        assert repl.interactive
        assert repl.run(note) == 0
    return repl


def errors(repl: Repl) -> list[str]:
    return [t for t in repl.transcript if t.startswith("error:")]


def tables(repl: Repl) -> list[str]:
    return [t for t in repl.transcript if t.startswith("\n") and " · seed " in t]


def complete(completer: Completer, text: str) -> list[str]:
    return [c.text for c in completer.get_completions(Document(text), CompleteEvent())]


def all_completable(completer: Completer, commands: set[str]) -> set[str]:
    """Every full input the completer can build word by word (commands left out)."""
    out: set[str] = set()
    todo = [""]
    while todo:
        prefix = todo.pop()
        words = [w for w in complete(completer, prefix) if not (prefix == "" and w in commands)]
        if not words:
            out.add(prefix.strip())
        for w in words:
            todo.append(prefix + w + " ")
    return out


def wait_for(cond: Callable[[], bool], timeout: float = 10) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.005)
    return False


MOVES = [("draw", "turn the top card of the stock"), ("build 1", "put it on pile 1"),
         ("build 3", "put it on pile 3"), ("discard 2", "put it on waste pile 2")]


# ---------------------------------------------------------------------- the completer alone
def test_completer_first_word_offers_move_names_then_commands() -> None:
    c = MoveCompleter(lambda: MOVES, COMMANDS)
    got = complete(c, "")
    assert got[:3] == ["draw", "build", "discard"]
    assert set(got[3:]) == set(COMMANDS)
    assert complete(c, "b") == ["build"]
    assert complete(c, "d") == ["draw", "discard"]
    assert complete(c, "un") == ["undo"]
    assert complete(c, "12") == []  # a move number: nothing to complete
    metas = {x.text: x.display_meta_text for x in c.get_completions(Document("d"),
                                                                    CompleteEvent())}
    assert metas == {"draw": "turn the top card of the stock", "discard": "put it on waste pile 2"}


def test_completer_offers_the_arguments_of_legal_moves_only() -> None:
    c = MoveCompleter(lambda: MOVES, COMMANDS)
    assert complete(c, "build ") == ["1", "3"]
    assert complete(c, "build 3") == ["3"]
    assert complete(c, "  build  ") == ["1", "3"]
    assert complete(c, "discard ") == ["2"]
    assert complete(c, "draw ") == []
    assert complete(c, "lift ") == []
    doc = Document("build 3")
    (comp,) = c.get_completions(doc, CompleteEvent())
    assert comp.start_position == -1 and comp.display_meta_text == "put it on pile 3"


def test_completer_takes_suit_letters_and_completes_cards() -> None:
    moves = [("play Q♠", ""), ("play Q♥", ""), ("play 10♦", ""),
             ("shift column1 column4", "")]
    c = MoveCompleter(lambda: moves, {})
    assert complete(c, "play q") == ["Q♠", "Q♥"]
    assert complete(c, "play Qh") == ["Q♥"]
    assert complete(c, "play 10") == ["10♦"]
    assert complete(c, "shift col") == ["column1"]
    assert complete(c, "shift column1 ") == ["column4"]


def test_completer_follows_the_moves_as_they_change() -> None:
    now: list[tuple[str, str]] = [("draw", "")]
    c = MoveCompleter(lambda: now, {})
    assert complete(c, "") == ["draw"]
    now[:] = [("discard 1", ""), ("discard 4", "")]
    assert complete(c, "") == ["discard"]
    assert complete(c, "discard ") == ["1", "4"]


def test_completer_completes_files_and_settings(tmp_path: Path) -> None:
    (tmp_path / "game1.json").write_text("{}")
    (tmp_path / "other.txt").write_text("")
    c = MoveCompleter(lambda: [], COMMANDS,
                      arg_choices={"set": lambda w: ["auto", "bots"] if not w else ["on", "off"]})
    assert complete(c, f"save {tmp_path}/ga") == ["me1.json"]
    assert sorted(complete(c, f"load {tmp_path}/")) == ["game1.json", "other.txt"]
    assert complete(c, "set ") == ["auto", "bots"]
    assert complete(c, "set auto o") == ["on", "off"]


def test_lexer_colours_commands_moves_numbers_and_cards() -> None:
    lexer = InputLexer(lambda: ["play", "draw"], COMMANDS)

    def styles(text: str) -> list[tuple[str, str]]:
        return [f for f in lexer.lex_document(Document(text))(0) if f[1].strip()]

    assert styles("undo 2") == [("class:command", "undo"), ("class:arg", "2")]
    assert styles("play Qh 10♠") == [("class:move", "play"), ("class:card.red", "Qh"),
                                     ("class:card.black", "10♠")]
    assert styles("12") == [("class:number", "12")]
    assert styles("dr") == [("", "dr")]  # a prefix of a move: not (yet) wrong
    assert styles("xyzzy") == [("class:unknown", "xyzzy")]


def test_cards_of_a_custom_deck_are_coloured_as_cards() -> None:
    """A card is a word naming one of the game's cards, not only a standard one."""
    deck = ["1", "10", "page♥", "crown♠", "crown", "JK"]  # Chains' ranks, named ranks
    lexer = InputLexer(lambda: ["take"], COMMANDS, cards=lambda: deck)

    def styles(text: str) -> list[tuple[str, str]]:
        return [f for f in lexer.lex_document(Document(text))(0) if f[1].strip()]

    assert styles("take 1 pageh Crown♠ crown jk 7 Q♠") == [
        ("class:move", "take"), ("class:card", "1"), ("class:card.red", "pageh"),
        ("class:card.black", "Crown♠"), ("class:card", "crown"), ("class:card.joker", "jk"),
        ("class:arg", "7"), ("class:arg", "Q♠")]  # not cards of this deck
    moves = [("take 1", ""), ("take page♥", ""), ("take 7", "")]
    c = MoveCompleter(lambda: moves, {}, cards=lambda: deck)
    got = {x.text: x.style for x in c.get_completions(Document("take "), CompleteEvent())}
    assert got == {"1": "class:card", "page♥": "class:card.red", "7": ""}


def test_the_repl_colours_the_cards_of_the_game_it_plays(tmp_path: Path) -> None:
    repl = drive(["chains", "--seed", "1"], [], tmp_path)
    assert repl.prompt_session is not None
    lexer = repl.prompt_session.lexer
    assert lexer is not None
    frags = [f for f in lexer.lex_document(Document("x 1 10 K♠"))(0) if f[1].strip()]
    assert frags[1:] == [("class:card", "1"), ("class:card", "10"), ("class:arg", "K♠")]
    c = repl.prompt_session.completer
    assert c is not None
    got = [(x.text, x.style) for x in c.get_completions(Document("close "), CompleteEvent())]
    assert got == [("10", "class:card")]  # Chains at the deal: `close 10` is legal


# ---------------------------------------------------------------------- the application
def calculation_script(seed: int) -> tuple[list[str], Session]:
    """A whole game of Calculation played by the greedy bot's choices, typed alternately
    as the move's number and its text (suits as letters)."""
    sess = Session(compile_game("calculation"), "calculation", seed)
    sess.advance()
    lines: list[str] = []
    while not sess.over:
        moves = sess.my_moves()
        move = GreedyBot(len(lines)).choose(sess.game, sess.state, 1)
        lines.append(str(moves.index(move) + 1) if len(lines) % 2 else
                     sess.game.move_text(move))
        sess.play(move)
        sess.advance()
    return lines, sess


def test_a_whole_game_of_calculation(tmp_path: Path) -> None:
    lines, expected = calculation_script(7)
    repl = drive(["calculation", "--seed", "7"], lines, tmp_path)
    assert errors(repl) == []
    assert repl.sess.state == expected.state and repl.sess.over
    last = tables(repl)[-1]
    score = expected.game.scores(expected.state)[0]
    assert f"score  {score}" in last
    verdict = "you won" if score == 52 else "you lost"
    assert f"game over: {expected.game.end_reason(expected.state)} — {verdict}" in last
    assert len(tables(repl)) == len(lines) + 1


def test_the_table_lays_out_every_zone(tmp_path: Path) -> None:
    repl = drive(["calculation", "--seed", "7"], [], tmp_path)
    table = tables(repl)[0]
    assert "Calculation · seed 7 · move 1" in table
    assert re.search(r"stock +▒▒ \(47\)", table)  # face down, squared: a back and a count
    assert re.search(r"turned card +Q♥", table)
    assert "pile 1  pile 2  pile 3  pile 4\nA♠      2♠      3♠      4♠" in table
    assert "waste1  waste2  waste3  waste4" in table
    assert "score  4" in table and "your turn" in table
    assert "  1 discard 1   put the turned card on waste pile 1" in table
    # columns as columns: Besieged Castle's columns side by side, top cards last
    repl = drive(["besieged-castle", "--seed", "2"], [], tmp_path)
    lines = tables(repl)[0].splitlines()
    head = next(i for i, ln in enumerate(lines) if ln.startswith("column1  column2"))
    game = repl.sess.game
    assert lines[head + 1].split() == [game.zone_cards(repl.sess.state, f"column{k}")[0]
                                       for k in range(1, 9)]
    assert lines[head + 6].split() == [game.zone_cards(repl.sess.state, f"column{k}")[-1]
                                       for k in range(1, 9)]


@pytest.mark.parametrize("argv,script", [
    (["calculation", "--seed", "7"], ["1", "2"]),
    (["besieged-castle", "--seed", "2"], ["1"]),
    (["interaction", "--players", "3", "--seed", "5"], ["1"]),
    ([TWO_HANDS, "--seed", "3", "--seat", "2"], []),
])
def test_completion_offers_exactly_the_legal_moves(argv: list[str], script: list[str],
                                                    tmp_path: Path) -> None:
    repl = drive(argv, script, tmp_path)
    assert errors(repl) == []
    completer = repl.prompt_session.completer
    assert completer is not None
    sess = repl.sess
    seat = sess.person_to_move()
    assert seat is not None
    legal = {sess.game.move_text(m) for m in sess.game.legal_moves(sess.state, seat)}
    assert legal and all_completable(completer, set(COMMANDS)) == legal


def test_tab_completes_in_the_running_application(tmp_path: Path) -> None:
    with create_pipe_input() as inp:
        repl, note = make_repl(args_for(["calculation", "--seed", "7"], tmp_path), input=inp,
                               output=DummyOutput())
        runner = threading.Thread(target=repl.run, args=(note,), daemon=True)
        runner.start()
        buf = repl.prompt_session.default_buffer
        inp.send_text("1\n2\n")
        assert wait_for(lambda: len(repl.sess.steps) == 5)
        inp.send_text("bu")
        assert wait_for(lambda: buf.text == "bu")
        inp.send_text("\t")  # the only move starting 'bu'
        assert wait_for(lambda: buf.text == "build")
        inp.send_text(" ")
        assert wait_for(lambda: buf.text == "build ")
        inp.send_text("\t")  # its only legal argument
        assert wait_for(lambda: buf.text == "build 2")
        inp.send_text("\n")
        assert wait_for(lambda: len(repl.sess.steps) == 7)
        inp.close()
        runner.join(10)
        assert not runner.is_alive()
    assert repl.sess.game.move_text(repl.sess.steps[5].move) == "build 2"


def test_undo_and_redo_any_number_of_steps(tmp_path: Path) -> None:
    repl = drive(["calculation", "--seed", "7"],
                 ["1", "2", "1", "undo 2", "show", "redo", "redo", "redo", "undo 9", "undo",
                  "redo 9"], tmp_path)
    sess = repl.sess
    texts = [sess.game.move_text(s.move) for s in sess.steps]
    assert texts == ["draw", "discard 1", "draw", "discard 2", "draw", "build 2", "draw"]
    assert [t.split(": ", 1)[1] for t in errors(repl)] == ["nothing to redo", "nothing to undo"]
    info = [t for t in repl.transcript if t.startswith(("undid", "redid"))]
    assert info == ["undid 2 moves of yours", "redid 1 move of yours", "redid 1 move of yours",
                    "undid 3 moves of yours (only 3 to undo)",
                    "redid 3 moves of yours (only 3 to redo)"]
    after_undo = tables(repl)[4]
    assert "move 3" in after_undo and "waste1  waste2" in after_undo


def test_undo_goes_back_through_bot_moves(tmp_path: Path) -> None:
    repl = drive([TWO_HANDS, "--seed", "3"], ["1", "1", "undo"], tmp_path)
    sess = repl.sess
    # opening: the bot chose in secret, then you; your next move and the bot's reply are undone
    assert [s.by for s in sess.steps] == ["bot", "you"]
    assert sess.person_to_move() == 1
    repl2 = drive([TWO_HANDS, "--seed", "3"], ["1", "1", "undo", "undo"], tmp_path)
    assert [s.by for s in repl2.sess.steps] == ["bot"]  # back to the first decision


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    repl = drive([TWO_HANDS, "--seed", "3", "--bots", "random"],
                 ["1", "2", f"save {save}", "new 11", "1", f"load {save}", "log"], tmp_path)
    assert errors(repl) == []
    rep = replay_mod.load(save)
    assert rep.seed == 3 and rep.players == 2 and len(rep.moves) == 4
    assert rep.source == repl.sess.game.source_id
    assert f"saved to {save} (4 moves" in "\n".join(repl.transcript)
    assert repl.sess.seed == 3 and len(repl.sess.steps) == 4
    assert [s.by for s in repl.sess.steps] == ["bot", "you", "you", "bot"]
    states = rep.states(repl.sess.game)
    assert repl.sess.state == states[-1]
    assert not repl.sess.dirty  # just loaded: nothing to lose
    # and the file replays with `--replay`
    r2 = drive(["--replay", str(save)], ["", "", "end", "back 2", "play"], tmp_path)
    assert errors(r2) == [] and len(r2.sess.steps) == 2 and r2.replay is None
    completer = r2.prompt_session.completer
    assert completer is not None and "undo" in complete(completer, "")  # play mode now


@pytest.mark.parametrize("content,message", [
    ("{not json", "is not valid JSON (line 1"),
    ('{"format": "something-else"}', "is not a cardgame replay or save file"),
    ('{"format": "cardgame-replay", "game": "calculation"}', "lacks 'seed'"),
    ('{"format": "cardgame-replay", "game": "calculation", "seed": "x"}', "'seed' must be"),
    ('{"format": "cardgame-replay", "game": "no-such-game", "seed": 1}', "unknown game"),
    (None, "No such file or directory"),
])
def test_bad_saves_are_one_line_errors(content: str | None, message: str,
                                       tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    if content is not None:
        bad.write_text(content)
    repl = drive(["calculation", "--seed", "7"], ["1", f"load {bad}", "1"], tmp_path)
    (err,) = errors(repl)
    assert message in err and "\n" not in err
    assert len(repl.sess.steps) == 5  # the session went on with the same game


def test_a_save_whose_moves_no_longer_replay(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    repl = drive(["calculation", "--seed", "7"], ["1", "2", "1", f"save {save}"], tmp_path)
    data = json.loads(save.read_text())
    data["moves"][3]["move"] = "build 4"  # not legal there
    save.write_text(json.dumps(data))
    repl = drive(["calculation", "--seed", "1"], [f"load {save}"], tmp_path)
    (warn,) = [t for t in repl.transcript if t.startswith("warning")]
    assert warn.startswith("warning: move 4 ('build 4' by p1) does not replay: build 4: pile 4")
    assert warn.endswith("; kept the first 3 moves")
    assert repl.sess.seed == 7 and len(repl.sess.steps) == 3 and errors(repl) == []


def test_loading_a_save_of_a_changed_game_says_so_and_tries(tmp_path: Path) -> None:
    game_file = tmp_path / "two_hands.cardgame"
    shutil.copy(TWO_HANDS, game_file)
    save = tmp_path / "g.json"
    drive([str(game_file), "--seed", "3"], ["1", "1", f"save {save}"], tmp_path)
    game_file.write_text(game_file.read_text().replace('"Two Hands"', '"Two Hands, v2"'))
    repl = drive([str(game_file), "--seed", "5"], [f"load {save}"], tmp_path)
    warn = [t for t in repl.transcript if t.startswith("warning")]
    assert len(warn) == 1 and "changed since this was saved" in warn[0]
    assert repl.sess.game.name == "Two Hands, v2" and len(repl.sess.steps) >= 4
    assert errors(repl) == []


def test_an_illegal_move_is_explained_in_one_line(tmp_path: Path) -> None:
    repl = drive(["calculation", "--seed", "7"],
                 ["discard 9", "build 1", "frobnicate 3", "9", "0", "discard", "1"], tmp_path)
    # issue 9: a refusal names its reason and line; a missing argument lists the choices
    assert errors(repl) == [
        "error: discard 9: 9 is out of range (1 to 4)",
        "error: build 1: pile 1 takes rank 2 next, the turned card is Q♥ — "
        "calculation.cardgame:45",
        "error: unknown command 'frobnicate': help lists the commands; your moves are "
        "listed with numbers",
        "error: there is no move 9: choose 1 to 4",
        "error: there is no move 0: choose 1 to 4",
        "error: discard needs an argument: discard 1, discard 2, discard 3, discard 4",
    ]
    assert len(repl.sess.steps) == 3  # the forced draw, then '1', then the forced draw
    assert not any("Traceback" in t for t in repl.transcript)


def test_every_command_has_one_handler() -> None:
    assert list(HANDLERS) == list(COMMANDS)
    assert set(REPLAY_HANDLERS) == set(REPLAY_COMMANDS)


def test_bad_commands_are_one_line_errors(tmp_path: Path) -> None:
    repl = drive(["calculation", "--seed", "7"],
                 ["undo", "redo", "undo x", "save", "load", "new seven", "set auto maybe",
                  "set bots clever", "help nothing", f"save {tmp_path}/no/such/dir/x.json",
                  "hint"], tmp_path)
    errs = [e.split(": ", 1)[1] for e in errors(repl)]
    assert errs[:9] == [
        "nothing to undo", "nothing to redo", "undo takes a number of steps: undo 3",
        "save needs a file name: save FILE", "load needs a file name: load FILE",
        "new takes a seed number, not 'seven': new 42",
        "set auto on|off, or set bots greedy|ismcts|ismcts-lead|ismcts-max|mcts|random",
        "unknown bot 'clever' (known: greedy, ismcts, ismcts-lead, ismcts-max, mcts, random)",
        "no command or move 'nothing': help lists them",
    ]
    assert errs[9].startswith(f"cannot write {tmp_path}/no/such/dir/x.json")
    assert repl.transcript[-1].startswith("hint (ismcts-max, 300 iterations): ")  # the session went on


def test_commands_help_rules_hint_log_new_restart(tmp_path: Path) -> None:
    repl = drive(["calculation", "--seed", "7"],
                 ["help", "help undo", "rules", "", "q", "1", "hint", "log", "moves", "set",
                  "new 12", "restart"], tmp_path)
    text = "\n".join(repl.transcript)
    assert errors(repl) == []
    assert "commands:\n  help" in text and "undo: undo [N]" in text
    # the rules, rendered, a page at a time (Enter: the next page; q stops)
    rules = rules_text(repl.sess.game, "calculation", rules_width(repl.width()))
    pages = [t for t in repl.transcript if t and rules.startswith(t) or t in rules and
             len(t.splitlines()) > 10]
    assert len(pages) == 2 and rules.startswith(pages[0] + "\n" + pages[1])
    # (the search's worlds follow the seat's history: the game's record is given)
    assert ("hint (ismcts-max, 300 iterations): 3 discard 3 (put the turned card on waste pile "
            "3; your score stays 4)") in text
    assert "   2. you: put the turned card on waste pile 1" in text
    assert "auto on, bots greedy" in text
    assert "new game, seed 12" in text and "restarted, seed 12" in text
    assert repl.sess.seed == 12 and len(repl.sess.steps) == 1


def script(argv: list[str], lines: list[str]) -> tuple[Repl, str]:
    """Scriptable mode (stdin not a terminal): the Repl and everything it printed."""
    stream = io.StringIO()
    repl, note = make_repl(build_parser().parse_args(["play", *argv]), interactive=False,
                           stream=stream)
    assert repl.run_script(lines, note) == 0
    return repl, stream.getvalue()


def test_concede_ends_the_game_as_a_loss_and_undo_takes_it_back(tmp_path: Path) -> None:
    save = tmp_path / "conceded.json"
    lines = ["1", "2", "1", "concede", "1", "hint", f"save {save}", "log", "undo", "moves"]
    repl, out = script(["besieged-castle", "--seed", "2"], lines)
    sess, game = repl.sess, repl.sess.game
    # scriptable mode asks nothing: the concession is made at once
    assert "besieged-castle> concede\nyou conceded: the game is over" in out
    after = tables(repl)[4]
    assert after.splitlines()[1] == "Besieged Castle · seed 2 · move 3"
    assert "  you: conceded\ngame over: p1 conceded — you lost" in after
    assert after.endswith("new, restart, undo, save FILE or quit")
    assert "your turn" not in after
    # while conceded: no move, no hint; the concession is not saved (it is not a move)
    assert [e.split(": ", 1)[1] for e in errors(repl)] == [
        "the game is over (new, restart or undo)"]
    assert "besieged-castle> hint\nthe game is over\n" in out
    rep = replay_mod.load(save)
    assert [text for _, text in rep.moves] == [game.move_text(s.move) for s in sess.steps]
    assert len(rep.moves) == 3 and not game.is_terminal(rep.states(game)[-1])
    assert "      you conceded (not a move: save keeps the moves before it)" in out
    # undo takes back only the concession: the same position, to play on
    assert "besieged-castle> undo\nundid your concession\n" in out
    assert len(sess.steps) == 3 and sess.conceded is None and not sess.over
    assert sess.state == sess.steps[-1].after
    assert sess.my_moves() == game.legal_moves(sess.state, 1) != []
    assert "your turn" in tables(repl)[-1] and "game over" not in tables(repl)[-1]
    assert game.results(sess.state) == [""]


def test_concede_redo_new_and_several_seats(tmp_path: Path) -> None:
    repl, out = script(["besieged-castle", "--seed", "2"],
                       ["1", "concede", "undo 2", "redo 5", "concede", "new 4", "concede x"])
    assert "undid your concession and 1 move of yours" in out
    assert "redid your concession and 1 move of yours (only 2 to redo)" in out
    assert [e.split(": ", 1)[1] for e in errors(repl)] == [
        "the game is over (new, restart or undo)", "concede takes nothing after it, not 'x'"]
    assert repl.sess.seed == 4 and repl.sess.conceded is None and not repl.sess.over
    # with several players, the game ends at once: the person's seat loses
    repl, out = script(["interaction", "--players", "3", "--seed", "5"], ["concede"])
    assert repl.sess.game.results(repl.sess.state)[0] == "loss"
    assert "game over: p1 conceded — p1 (you) loss" in tables(repl)[-1]


def test_concede_asks_first_at_a_terminal_and_help_lists_it(tmp_path: Path) -> None:
    repl = drive(["besieged-castle", "--seed", "2"], [], tmp_path,
                 keys="1\nconcede\nn\nhelp\nhelp concede\nconcede\ny\n")
    text = "\n".join(repl.transcript)
    assert "not conceded: play on" in text
    assert "  concede  give up: the game ends and you lose (undo takes it back)" in text
    assert "concede: give up: the game ends and you lose" in text
    assert repl.sess.over and repl.sess.game.end_reason(repl.sess.state) == "p1 conceded"
    assert "game over: p1 conceded — you lost" in tables(repl)[-1]
    assert len(tables(repl)) == 3  # the first, after '1', after the concession
    assert "concede" in complete(repl.prompt_session.completer, "conc")


def test_rules_without_a_doc_page_are_the_about_text_and_the_moves(tmp_path: Path) -> None:
    repl = drive([TWO_HANDS, "--seed", "1"], ["rules"], tmp_path)
    # rendered: the title as a heading, the moves as a list (no raw Markdown)
    assert repl.transcript[-1].startswith("TWO HANDS\n\nEach player holds five cards that")
    # (the description in words: it showed its raw template, "play(c): play {c} ...")
    assert repl.transcript[-1].endswith("Moves\n\n• play(c in hand[me]): play c to the pile")


def test_rules_of_a_bundled_game_are_its_doc_page(tmp_path: Path) -> None:
    repl = drive(["calculation", "--seed", "1"], ["rules"], tmp_path)
    page = repl.transcript[-1]
    assert page.startswith("CALCULATION") and "**" not in page  # rendered, not raw Markdown
    assert "foundation" in page.lower()


def test_rules_never_read_a_page_beside_a_users_game(tmp_path: Path) -> None:
    # (This test used to check the opposite. Issue 18: playing a game file reads no file
    # but it and what it extends, so a docs/ page beside it, or in the working folder,
    # could be anything: the rules are made from the game itself.)
    (tmp_path / "games").mkdir()
    (tmp_path / "docs" / "games").mkdir(parents=True)
    shutil.copy(TWO_HANDS, tmp_path / "games" / "two_hands.cardgame")
    (tmp_path / "docs" / "games" / "two_hands.md").write_text("# Two Hands\n\nThe page.\n")
    repl = drive([str(tmp_path / "games" / "two_hands.cardgame"), "--seed", "1"], ["rules"],
                 tmp_path)
    assert "The page." not in repl.transcript[-1]
    # the page made from the game's own moves
    assert "• play(c in hand[me])" in repl.transcript[-1]


def test_auto_off_waits_for_enter(tmp_path: Path) -> None:
    repl = drive([TWO_HANDS, "--seed", "3", "--seat", "2"],
                 ["set auto off", "1", "1", "", "1", "", "set auto on"], tmp_path)
    sess = repl.sess
    assert errors(repl) == ["error: it is not your turn (press Enter to let the bots play)"]
    assert "p1 (greedy bot) to move: press Enter to let it play" in tables(repl)[1]
    assert [s.by for s in sess.steps] == ["bot", "you", "bot", "you", "bot"]
    assert sess.person_to_move() == 2 and sess.auto


def test_auto_play_stops_when_forced_moves_go_round_in_circles(tmp_path: Path) -> None:
    repl = drive([str(DATA / "ping_pong.cardgame"), "--seed", "1"], ["", ""], tmp_path)
    assert [t.splitlines()[1].split(" · ")[-1] for t in tables(repl)] == [
        "move 2", "move 5", "move 8"]
    assert all(t.endswith("auto-play stopped: a position came back (the moves go round in "
                          "circles); Enter plays on") for t in tables(repl))
    assert not repl.sess.over and all(s.by == "auto" for s in repl.sess.steps)
    # a move forced on the person says so, wherever the step is told
    assert "you: move the card to the east pile (K♣)  [forced: the only move]" in tables(repl)[0]


def test_ctrl_c_cancels_the_line_and_ctrl_d_asks_first(tmp_path: Path) -> None:
    # Ctrl-C drops 'build 9' (no error); Ctrl-D on an unsaved game asks: 'n' stays
    repl = drive(["calculation", "--seed", "7"], [], tmp_path,
                 keys="1\nbuild 9\x03\x04n\nshow\n\x04y\nshow\n")
    assert errors(repl) == []
    assert len(tables(repl)) == 3  # the first, after '1', after 'show'; then 'y' quit
    # nothing unsaved: Ctrl-D quits at once
    repl = drive(["calculation", "--seed", "7"], [], tmp_path, keys="\x04show\n")
    assert len(tables(repl)) == 1


def test_quit_asks_only_for_an_unsaved_game(tmp_path: Path) -> None:
    repl = drive(["calculation", "--seed", "7"], [], tmp_path,
                 keys=f"1\nquit\nno\nsave {tmp_path / 's.json'}\nquit\nshow\n")
    assert len(tables(repl)) == 2 and errors(repl) == []


def test_history_is_kept_in_the_history_file(tmp_path: Path) -> None:
    drive(["calculation", "--seed", "7"], ["1", "hint"], tmp_path)
    assert "+hint" in (tmp_path / "history").read_text()
    repl = drive(["calculation", "--seed", "7"], [], tmp_path, keys="\x1b[A\n")  # Up, Enter
    assert repl.transcript[-1].startswith("hint (ismcts-max, 300 iterations): ")


def test_the_toolbar_and_the_prompt(tmp_path: Path) -> None:
    repl = drive(["chains", "--seed", "4", "--set", "mode=advanced"], [], tmp_path)
    bar = plain(repl.toolbar())
    assert "Chains [mode=advanced]" in bar and "seed 4" in bar and "your turn" in bar
    assert "score -10" in bar and "auto on" in bar
    assert repl.message() == "chains> "


def test_replay_mode_steps_through_a_file(tmp_path: Path) -> None:
    lines, _ = calculation_script(5)
    save = tmp_path / "c.json"
    drive(["calculation", "--seed", "5"], lines[:6] + [f"save {save}"], tmp_path)
    total = len(replay_mod.load(save).moves)
    repl = drive(["--replay", str(save)], ["", "next", "back", "end", "", "goto 3", "nope"],
                 tmp_path)
    notes = [t.splitlines()[1].split(" · ")[-1] for t in tables(repl)]
    assert notes == [f"replay {k}/{total}" for k in (0, 1, 2, 1, total, 3)]
    assert [e.split(":")[1].strip() for e in errors(repl)] == [
        f"that was the last move ({total})", "unknown replay command 'nope'"]
    assert "stock        ▒▒" not in tables(repl)[0]  # a designer's replay shows every card
    assert "Enter: next move" in tables(repl)[0]


def test_scriptable_mode_as_a_real_process(tmp_path: Path) -> None:
    lines, expected = calculation_script(7)
    script = "\n".join(["help", "log", *lines[:10], "build 9", "undo", "redo"]) + "\n"
    env = dict(os.environ, PYTHONIOENCODING="utf-8", HOME=str(tmp_path))
    out = subprocess.run([sys.executable, "-m", "cardgame.interpreter.cli", "play",
                          "calculation", "--seed", "7"], input=script, capture_output=True,
                         text=True, encoding="utf-8", env=env, cwd=tmp_path, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    assert "\x1b" not in out.stdout  # no colour when not at a terminal
    assert "calculation> build 9\nerror: build 9: 9 is out of range (1 to 4)\n" in out.stdout
    # the same table text as the application draws, and it ends with the last one
    stream = io.StringIO()
    args = build_parser().parse_args(["play", "calculation", "--seed", "7"])
    repl, note = make_repl(args, interactive=False, stream=stream)
    repl.run_script(io.StringIO(script), note)
    assert out.stdout == stream.getvalue()
    sess = Session(compile_game("calculation"), "calculation", 7)
    sess.steps = list(repl.sess.steps)
    final = plain(render_table(sess.table()))
    assert out.stdout.endswith(final + "\n")
    assert not (tmp_path / ".cardgame_history").exists()


def test_scriptable_mode_without_a_seed_shows_the_one_it_chose(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "cardgame.interpreter.cli", "play",
                          "calculation"], input="", capture_output=True, text=True,
                         encoding="utf-8", env=dict(os.environ, PYTHONIOENCODING="utf-8"),
                         timeout=60)
    assert out.returncode == 0
    m = re.match(r"seed (\d+) \(chosen at random; --seed \1 plays this deal again\)\n",
                 out.stdout)
    assert m and f"seed {m.group(1)} · move" in out.stdout


def test_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="this game has seats 1 to 2"):
        make_repl(args_for([TWO_HANDS, "--seat", "3"], tmp_path), interactive=False)
    with pytest.raises(UsageError, match="one-player game"):
        make_repl(args_for(["calculation", "--seat", "2"], tmp_path), interactive=False)
    with pytest.raises(UsageError, match="play needs a GAME"):
        make_repl(args_for([], tmp_path), interactive=False)
    with pytest.raises(CardgameError, match="unknown game 'calculatoin'"):
        make_repl(args_for(["calculatoin"], tmp_path), interactive=False)
    out = subprocess.run([sys.executable, "-m", "cardgame.interpreter.cli", "play",
                          "calculation", "--replay", str(tmp_path / "none.json")],
                         input="", capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and out.stderr.startswith("error: cannot read")
    assert "Traceback" not in out.stderr


# ---------------------------------------------------------------------- hidden information
def card_tokens(text: str) -> set[str]:
    return set(CARD.findall(text))


@pytest.mark.parametrize("game_ref,players,seat", [
    (TWO_HANDS, 2, 1), (TWO_HANDS, 2, 2), ("interaction", 3, 1), ("interaction", 4, 2),
])
def test_a_seat_never_sees_another_seats_hand(game_ref: str, players: int, seat: int) -> None:
    game = compile_game(game_ref, players)
    sess = Session(game, game_ref, 21, seats=[seat], bots="random")
    sess.advance()
    checked = 0
    while not sess.over and checked < 40:
        text = plain(render_table(sess.table())) + "\n".join(sess.log_lines())
        text += "\n".join(t for t, _ in sess.my_move_texts()) + sess.hint()
        for other in range(1, players + 1):
            if other != seat:
                theirs = set(game.zone_cards(sess.state, f"hand-p{other}"))
                assert theirs and not card_tokens(text) & theirs, (other, theirs)
        mine = game.zone_cards(sess.state, f"hand-p{seat}")
        assert set(mine) <= card_tokens(text)
        assert {m[0] for m in sess.my_moves()} == {seat}
        sess.play(sess.my_moves()[0])
        sess.advance()
        checked += 1
    assert checked >= 4


def test_a_secret_choice_stays_secret_until_all_have_chosen() -> None:
    game = compile_game(TWO_HANDS)
    sess = Session(game, TWO_HANDS, 3)
    sess.advance()  # the bot chooses first, in secret
    (bot_step,) = sess.steps
    chosen = game.move_text(bot_step.move).split()[1]
    text = plain(render_table(sess.table()))
    assert "p2 (greedy bot) chose, in secret" in text and chosen not in text
    assert "chosen: p2 (greedy bot)" in text
    sess.play(sess.my_moves()[0])
    text = plain(render_table(sess.table()))
    assert f"p2 (greedy bot): play {chosen} to the pile" in text


def test_the_repl_completes_a_hearts_pass_one_card_at_a_time(tmp_path: Path) -> None:
    """A set of cards (issue 16): after each card typed, in any order, only the other
    cards of the hand are offered; a pass typed in any order is played."""
    repl = drive(["hearts", "--seed", "3"], [], tmp_path)
    c = repl.prompt_session.completer if repl.prompt_session else None
    assert c is not None
    hand = complete(c, "pass ")
    assert len(hand) == 13
    second = complete(c, f"pass {hand[5]} ")
    assert len(second) == 12 and hand[5] not in second
    third = complete(c, f"pass {hand[5]} {hand[1]} ")
    assert sorted(third) == sorted(x for x in hand if x not in (hand[5], hand[1]))
    assert complete(c, f"pass {hand[5]} {hand[1]} {hand[0]} ") == []
    played = drive(["hearts", "--seed", "3"], [f"pass {hand[5]} {hand[1]} {hand[0]}"],
                   tmp_path)
    assert not errors(played)


def test_a_set_move_with_many_ways_is_one_row_and_the_others_keep_their_numbers() -> None:
    """Hearts' pass has 286 ways: the move list shows one row saying how to type it, not
    286 numbered rows; a move after it keeps its number (typing it still picks it)."""
    from itertools import combinations

    from cardgame.repl.render import move_lines

    hand = "7♠ 10♠ K♠ 3♥ 6♥ 7♥ 10♥ J♥ 6♣ 7♣ 10♣ Q♣ 2♦".split()
    moves = [(f"pass {' '.join(c)}", "") for c in combinations(hand, 3)] + [("concede", "")]
    text = ["".join(t for _, t in line) for line in move_lines(moves, 80, {"pass": 1})]
    assert len(moves) == 287
    assert text[0].strip() == "pass ...  choose 3 cards (286 ways): type pass and the cards, any order"
    assert text[1:] == ["  287 concede"]
    assert all(len(t) <= 80 for t in text)
    # a few ways: numbered as before; without `sets`, every way is numbered
    few = moves[:5] + [("concede", "")]
    assert ["".join(t for _, t in ln).split()[0] for ln in move_lines(few, 80, {"pass": 1})] \
        == ["1", "2", "3", "4", "5", "6"]
    flat = " ".join("".join(t for _, t in ln) for ln in move_lines(moves, 80))
    assert "  1 pass 7♠ 10♠ K♠" in flat and "287 concede" in flat and "..." not in flat
