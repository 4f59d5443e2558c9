"""The fifteenth user test's command-line and REPL leftovers (ut15 REPORT items 2, 9, 12,
15, 17): end reasons in words, bot names, charts' ticks, examples' lines."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from cardgame.interpreter.analysis import simulate
from cardgame.interpreter.cli import build_parser, main
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.fuzz import fuzz
from cardgame.repl.app import make_repl

DATA = Path(__file__).parent / "data" / "ut15"
RUNOUT = str(DATA / "runout.cardgame")


def script(argv: list[str], lines: list[str]) -> str:
    stream = io.StringIO()
    repl, note = make_repl(build_parser().parse_args(["play", *argv]), interactive=False,
                           stream=stream)
    assert repl.run_script(lines, note) == 0
    return stream.getvalue()


# ---------------------------------------------------------------------- end reasons
FLOW = "the flow ran to its end"


def test_a_flow_that_runs_out_says_so_everywhere(capsys):
    """A flow with no `end "reason"` ran out: its reason read "ended" (item 15)."""
    g = compile_game(RUNOUT)
    st = g.new_state(1)
    while not g.is_terminal(st):
        st = g.apply(st, g.legal_moves(st)[0])
    assert g.end_reason(st) == FLOW
    assert g.ended(st) == "ended"  # the state keeps its word (hashed states, saves)
    sim = simulate(g, games=4, seed=1)
    assert {r.end_reason for r in sim.records} == {FLOW}
    assert main(["simulate", RUNOUT, "--games", "4", "--seed", "1"]) == 0
    assert f"100.0% [51.0, 100.0] {FLOW}" in capsys.readouterr().out
    assert main(["simulate", RUNOUT, "--games", "4", "--seed", "1", "--json"]) == 0
    assert f"end.{FLOW}" in json.loads(capsys.readouterr().out)["metrics"]
    r = fuzz(g, examples=3, seed=1, database=None, write_replay=False)
    assert set(r.coverage.endings) | set(r.coverage.fast_endings) <= {FLOW, "ended"}
    assert main(["fuzz", RUNOUT, "--examples", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert f"'{FLOW}'" in out and "'ended'" not in out
    played = script([RUNOUT, "--seed", "1"], ["step"] * 6)
    assert f"game over: {FLOW} — " in played


def test_a_bare_end_is_not_the_flow_running_out(tmp_path):
    f = tmp_path / "bare.cardgame"
    f.write_text((DATA / "runout.cardgame").read_text().replace(
        '{ n += 1 }', '{ n += 1 if n == 2 { end } }'))
    g = compile_game(str(f))
    st = g.new_state(1)
    while not g.is_terminal(st):
        st = g.apply(st, g.legal_moves(st)[0])
    assert g.end_reason(st) == "an `end` with no reason"


# ---------------------------------------------------------------------- --bots
KNOWN = "(known: greedy, ismcts, ismcts-lead, ismcts-max, mcts, random)"


@pytest.mark.parametrize("command", ["simulate", "play"])
def test_a_misspelt_bot_gets_a_did_you_mean(command, capsys):
    assert main([command, RUNOUT, "--bots", "gredy"]) == 2
    assert capsys.readouterr().err == (f"cardgame {command}: error: unknown bot 'gredy': did "
                                       f"you mean 'greedy'? {KNOWN}\n")
    # a search bot's budget is kept in the name to type
    assert main([command, RUNOUT, "--bots", "ismcst:200"]) == 2
    assert "unknown bot 'ismcst:200': did you mean 'ismcts:200'" in capsys.readouterr().err
    assert main([command, RUNOUT, "--bots", "clever"]) == 2
    assert capsys.readouterr().err == f"cardgame {command}: error: unknown bot 'clever' {KNOWN}\n"


def test_the_count_of_bots_is_said_plainly(capsys):
    assert main(["simulate", RUNOUT, "--bots", "greedy,random,random"]) == 2
    assert capsys.readouterr().err == ("cardgame simulate: error: --bots takes one bot name, "
                                       "or one per seat: 2 names for 2 seats, not 3\n")
    assert main(["play", RUNOUT, "--bots", "greedy,random,random"]) == 2
    assert capsys.readouterr().err == (
        "cardgame play: error: 3 bots named for 2 seats: give one bot name, or one per seat: "
        "2 names for 2 seats (the entries of the seats you play are not used)\n")
    out = script([RUNOUT, "--seed", "1"], ["set bots gredy"])
    assert "unknown bot 'gredy': did you mean 'greedy'?" in out


# ---------------------------------------------------------------------- charts
def _numbers(svg: Path) -> list[str]:
    """The numeric labels of a chart (its ticks): the SVG keeps text as text."""
    labels = re.findall(r"<text[^>]*>([^<]*)</text>", svg.read_text())
    return [t for t in labels if re.fullmatch(r"[−-]?[\d.,]+", t)]


@pytest.mark.parametrize("games", [3, 25])
def test_charts_tick_counts_and_moves_in_whole_numbers(games, tmp_path, capsys):
    """A game of a fixed 6 moves: its length chart was ticked 5.6, 5.8, ... and the seats
    of the scores chart counted in halves (17.5)."""
    assert main(["simulate", RUNOUT, "--games", str(games), "--seed", "1",
                 "--plot", str(tmp_path)]) == 0
    for chart in ("length", "scores"):
        ticks = _numbers(tmp_path / f"{chart}.svg")
        assert ticks and all(re.fullmatch(r"\d+", t) for t in ticks), (chart, ticks)
    # the one length is shown among its neighbours, not alone across the whole axis
    assert {"5", "6", "7"} <= set(_numbers(tmp_path / "length.svg"))


# ---------------------------------------------------------------------- the REPL
MYGAME = str(DATA / "mygame.cardgame")


def test_rules_show_a_move_in_words_with_its_conditions():
    """`rules` of a game with no page showed "• play(c): play {c}": the raw template,
    and none of the move's `when` conditions (ut15 item 17)."""
    out = script([MYGAME, "--seed", "3"], ["rules"])
    text = " ".join(out.split())
    assert ("• play(c in hand[me]): play c; only when trick is empty or c.suit == led or "
            "not (any d in hand[me]: d.suit == led) (else: you must follow led)") in text
    assert "{" not in out.split("Moves")[1]


def test_save_suggests_a_command_the_shell_reads_whole(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = script([RUNOUT, "--seed", "1"], ["step", "save my save.json", "save plain.json",
                                           "save it's.json"])
    assert "load my save.json or cardgame play --replay 'my save.json')" in out
    assert "load plain.json or cardgame play --replay plain.json)" in out
    assert (tmp_path / "my save.json").is_file()
    assert "cardgame play --replay 'it'\"'\"'s.json')" in out


def test_past_moves_keep_the_bot_that_made_them(tmp_path):
    """A save made against greedy bots, loaded in a `--bots random` session, labelled the
    greedy bot's past moves "p2 (random bot)" (ut15 item 17): a save does not record its
    bots, so its moves name none; `set bots` does not relabel the moves made before it."""
    save = tmp_path / "g.json"
    out = script([MYGAME, "--seed", "3"], ["1", "1", f"save {save}", "set bots random",
                                           "1", "log"])
    log = out.rsplit("Two Trumps, seed 3", 1)[1]
    assert "p2 (greedy bot): play" in log and "p2 (random bot): play" in log
    first = log.split("p2 (random bot)")[0]  # the greedy's moves came first
    assert first.count("p2 (greedy bot)") >= 2
    out = script([MYGAME, "--seed", "3", "--bots", "random"], [f"load {save}", "log"])
    log = out.rsplit("Two Trumps, seed 3", 1)[1]
    assert "bot)" not in log.split("\n\n")[0]
    assert "p2: play" in log


def test_the_numbered_moves_follow_the_hand_as_drawn():
    """The hand is drawn K♠ 3♥ J♥ 7♣ 8♣ J♣ Q♣ 5♦ 9♦ 10♦ (sorted by suit and rank); the
    numbered moves were 1 play 3♥, 2 play 9♦, ... in the deal's order (ut15 item 9). N of
    `play N` is the N shown."""
    out = script([MYGAME, "--seed", "3"], ["moves", "1", "log"])
    hand = "K♠ 3♥ J♥ 7♣ 8♣ J♣ Q♣ 5♦ 9♦ 10♦"
    assert f"p1 you     {hand}" in out
    listed = [ln.split("play ")[1] for ln in out.split("to move: p1 (you)")[1].splitlines()
              if ln.strip()[:2].strip().isdigit() and "play " in ln][:10]
    assert listed == hand.split()
    assert "1. you: play K♠" in out.rsplit("Two Trumps, seed 3", 1)[1]


# ---------------------------------------------------------------------- examples
def test_a_failed_comparison_names_only_what_has_a_value():
    """`expect trump == diamonds` failing read "got trump is clubs, diamonds is diamonds"
    (ut15 item 17): a side that is its own value is left out."""
    from cardgame.interpreter.examples import run_examples

    failures = [f for o in run_examples(DATA / "ex_trump.cardgame") for f in o.failures]
    assert failures == ["ex_trump.cardgame:64: expected trump == diamonds, got trump is clubs"]
