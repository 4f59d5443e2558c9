"""`cardgame simulate` and the analysis package behind it: the record, the text report
and the exit codes. Speeds vary from run to run; everything else repeats with the seed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cardgame.interpreter.analysis import simulate, simulation_text
from cardgame.interpreter.cli import main
from cardgame.interpreter.engine import compile_game

MUTANTS = Path(__file__).resolve().parent / "mutants"
SPEED = re.compile(r"^  (games|moves)/s .*$", re.M)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["simulate", *argv])
    out, err = capsys.readouterr()
    return code, SPEED.sub(r"  \1/s ...", out), err


def test_a_solitaire_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "calculation", "--games", "50", "--seed", "3")
    assert code == 0
    assert out == ("Calculation: 50 random games, seed 3\n"
                   "  games/s ...\n"
                   "  moves/s ...\n"
                   "  average moves  110.1 (longest 127)\n"
                   "  win rate       0.00%\n"
                   "  average score  21.34\n")


def test_a_four_player_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "interaction", "--games", "50", "--seed", "3")
    assert code == 0
    assert out == ("Interaction: 50 random games, seed 3, 4 players\n"
                   "  games/s ...\n"
                   "  moves/s ...\n"
                   "  average moves  18.6 (longest 23)\n"
                   "  P1: win rate 26.0% (shared 0.0%), average score 12.12\n"
                   "  P2: win rate 30.0% (shared 4.0%), average score 12.92\n"
                   "  P3: win rate 22.0% (shared 6.0%), average score 11.54\n"
                   "  P4: win rate 14.0% (shared 6.0%), average score 11.70\n")


def test_the_json_record(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "arsene", "--games", "20", "--seed", "3", "--json"])
    r = json.loads(capsys.readouterr().out)
    assert code == 0
    for key in ("seconds", "games_per_second", "moves_per_second"):
        assert r.pop(key) > 0
    assert r == {
        "game": "Arsène", "players": 4, "options": {"advanced": False, "max_deals": 200},
        "games": 20, "seed": 3, "average_moves": 292.7, "longest_game": 492,
        "win_rate": [0.05, 0.3, 0.2, 0.35], "draw_rate": [0.1, 0.05, 0.1, 0.05],
        "average_score": [2.4, 3.25, 3.35, 3.6], "rule_errors": 0, "dead_ends": 0,
        "unfinished": 0, "first_errors": []}


def test_rule_errors_name_their_seeds_and_fail(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(MUTANTS)  # spans print their file relative to here
    code, out, _ = run(capsys, "calc-division.cardgame", "--games", "30", "--seed", "2")
    assert code == 1
    where = "calc-division.cardgame:10:32: rule error (in move discard): division by zero"
    assert out.splitlines()[-4:] == [
        "  rule errors: 30",
        f"  seed 4106135923: {where}",
        f"  seed 393353683: {where}",
        f"  seed 1550730039: {where}"]


def test_dead_ends_fail_and_unfinished_games_do_not(capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    code, out, _ = run(capsys, str(MUTANTS / "calc-dead-end.cardgame"), "--games", "30",
                       "--seed", "2")
    assert code == 1 and out.splitlines()[-1] == "  dead ends: 30"
    code, out, _ = run(capsys, "calculation", "--games", "20", "--seed", "1",
                       "--max-moves", "5")
    assert code == 0 and out.splitlines()[-1] == "  unfinished (hit --max-moves): 20"


def test_options_print_as_the_game_holds_them(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "arsene", "--games", "2", "--seed", "3", "--set", "advanced=true")
    assert out.splitlines()[0] == ("Arsène: 2 random games, seed 3, 4 players "
                                   "(advanced=True, max_deals=200)")


def test_at_least_one_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "calculation", "--games", "0"]) == 2
    assert capsys.readouterr().err == "cardgame simulate: error: --games must be at least 1\n"


def test_the_record_repeats_with_the_seed_and_the_text_reads_it() -> None:
    g = compile_game("calculation")
    a, b = simulate(g, 10, 7), simulate(g, 10, 7)
    for r in (a, b):
        for key in ("seconds", "games_per_second", "moves_per_second"):
            r.pop(key)
    assert a == b and a["games"] == 10 and a["seed"] == 7
    text = simulation_text({**a, "games_per_second": 1234.5, "moves_per_second": 98765.4})
    assert text.splitlines()[:3] == ["Calculation: 10 random games, seed 7",
                                     "  games/s        1,234.5", "  moves/s        98,765"]
