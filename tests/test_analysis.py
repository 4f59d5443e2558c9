"""`cardgame simulate` and the analysis package behind it: the record, the text report
and the exit codes. Speeds vary from run to run; everything else repeats with the seed.

The figures pinned here changed once, on purpose, when each game's seeds became a
function of (seed, game index) alone (issue 11): before, one RNG stream dealt every game
and chose every move, so game i depended on all the games before it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cardgame.interpreter.analysis import simulate, simulation_json, simulation_text
from cardgame.interpreter.cli import main
from cardgame.interpreter.engine import compile_game

MUTANTS = Path(__file__).resolve().parent / "mutants"
SPEED = re.compile(r"^  (games|moves)/s .*$", re.M)
TIME = re.compile(r" in [0-9.]+ s,")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["simulate", *argv])
    out, err = capsys.readouterr()
    return code, TIME.sub(" in ... s,", SPEED.sub(r"  \1/s ...", out)), err


def test_a_solitaire_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "calculation", "--games", "50", "--seed", "3")
    assert code == 0
    assert out == (
        "Calculation: 50 random games, seed 3\n"
        "  games/s ...\n"
        "  moves/s ...\n"
        "  played         50 games in ... s, this process\n"
        "  win rate       0.0% [0.0, 7.1]\n"
        "  score          21.44 [19.94, 22.94]   median 20 [19, 22]  p10 16  p90 30\n"
        "                 ▃▁▂▇▃█▅▃▅▅▂▅   ▁▁▂▂     ▁ 14..38\n"
        "  moves          109.9 [108.5, 111.3]  median 109 [108, 111]  p10 105  p90 117\n"
        "                 ▂▂▆▇█▇▁▂▂▂   ▁ 101..127\n"
        "  branching      2.75 [2.73, 2.77] legal moves per decision\n"
        "  end reasons    100.0% [92.9, 100.0] the stock is empty and no waste top fits\n"
        "                 a foundation\n"
        "  coverage       4 moves, 1 ending, over this run's 50 games\n"
        "    every one fired in this run\n")


def test_a_four_player_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "interaction", "--games", "50", "--seed", "3")
    assert code == 0
    assert out == (
        "Interaction: 50 random games, seed 3, 4 players\n"
        "  games/s ...\n"
        "  moves/s ...\n"
        "  played         50 games + 50 for coverage in ... s, this process\n"
        "  seat  win share           wins                shared 1st         score\n"
        "  p1    22.0% [12.8, 35.2]  20.0% [11.2, 33.0]  4.0% [1.1, 13.5]   11.80 [10.56, 13.04]\n"
        "  p2    21.3% [12.2, 34.5]  18.0% [9.8, 30.8]   8.0% [3.2, 18.8]   11.10 [9.64, 12.56]\n"
        "  p3    27.3% [16.9, 41.0]  22.0% [12.8, 35.2]  12.0% [5.6, 23.8]  12.60 [11.10, 14.10]\n"
        "  p4    29.3% [18.6, 43.1]  26.0% [15.9, 39.6]  8.0% [3.2, 18.8]   12.40 [10.85, 13.95]\n"
        "        fair share 25.0%: no seat differs significantly\n"
        "  winning score  17.09 [15.60, 18.59], margin 4.07 [2.99, 5.15]\n"
        "  scores         median 12  p10 5  p90 18  ▁▃▄▅█▇█▆▄▂▁▁▁▁ ▁ 1..31 (all seats)\n"
        "  moves          18.8 [18.1, 19.6]  median 19 [17, 20]  p10 15  p90 22\n"
        "                 ▁▅▆▆▅▄▇█▄▃▁ 14..24\n"
        "  phases entered 'First turn' 1.00 [1.00, 1.00]; 'Play' 1.00 [1.00, 1.00]\n"
        "  branching      23.31 [22.93, 23.69] legal moves per decision\n"
        "  lead changes   1.82 [1.40, 2.24] per game  ▅█▅▅▂▁▁ 0..6\n"
        "  decisiveness   0.28 [0.20, 0.37]: the winner leads for good over the last 28%\n"
        "                 of the game\n"
        "  drama          3.00 [2.26, 3.74] points at worst behind the leader; the\n"
        "                 winner was behind in 81.4% [67.4, 90.3] of games\n"
        "  end reasons    100.0% [92.9, 100.0] a refill drew the joker\n"
        "  coverage       4 moves, 2 choices, 1 ending, 4 branches, over 2\n"
        "                 configurations: this run's 50 games and 50 of each other one\n"
        "    every one fired in this run\n")


def test_the_json_record(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "arsene", "--games", "20", "--seed", "3", "--json",
                 "--coverage-games", "0"])
    r = json.loads(capsys.readouterr().out)
    assert code == 0
    for key in ("seconds", "games_per_second", "moves_per_second"):
        assert r.pop(key) > 0
    metrics = r.pop("metrics")
    dists = r.pop("distributions")
    cov = r.pop("coverage")
    assert r == {
        "format": "cardgame-simulation", "version": 1,
        "game": "Arsène", "ref": "arsene", "players": 4,
        "options": {"advanced": False, "max_deals": 200},
        "bots": ["random"] * 4, "games": 20, "seed": 3, "max_moves": 100_000,
        "runner": "this process", "tasks": 7,
        "outcomes": {"ended": 20, "unfinished": 0, "dead-end": 0, "rule-error": 0},
        "longest_game": 439, "errors": []}
    figures = {k: (v["value"], v["low"], v["high"], v["n"], v["method"])
               for k, v in metrics.items() if k.split(".")[0] in ("win", "draw", "score")}
    assert figures == {
        "win.p1": (0.4, 0.218807, 0.613418, 20, "wilson"),
        "win.p2": (0.05, 0.008881, 0.236131, 20, "wilson"),
        "win.p3": (0.25, 0.111862, 0.468701, 20, "wilson"),
        "win.p4": (0.2, 0.080658, 0.416017, 20, "wilson"),
        "draw.p1": (0.1, 0.027866, 0.301034, 20, "wilson"),
        "draw.p2": (0.0, 0.0, 0.161125, 20, "wilson"),
        "draw.p3": (0.05, 0.008881, 0.236131, 20, "wilson"),
        "draw.p4": (0.05, 0.008881, 0.236131, 20, "wilson"),
        "score.p1": (4.95, 3.730763, 6.169237, 20, "t"),
        "score.p2": (2.0, 1.039666, 2.960334, 20, "t"),
        "score.p3": (3.25, 0.983148, 5.516852, 20, "t"),
        "score.p4": (2.25, 0.999029, 3.500971, 20, "t")}
    assert metrics["moves"] == {"value": 306.4, "low": 269.465377, "high": 343.334623,
                                "n": 20, "method": "t"}
    assert [k for k in metrics if k.startswith("share.")] == [
        "share.p1", "share.p2", "share.p3", "share.p4"]
    # a shared first place counts 1/k: the four seats' shares of a game add up to 1
    assert sum(metrics[f"share.p{p}"]["value"] for p in (1, 2, 3, 4)) == pytest.approx(1)
    assert list(metrics)[16:] == [
        "winning_score", "margin", "moves", "phase.Trump", "phase.Tricks", "branching",
        "lead_changes", "decisiveness", "drama", "comeback",
        "end.a player lost their chips", "unfinished", "dead_end", "rule_error"]
    assert dists["moves"]["quantiles"]["p50"]["value"] == 291.5
    assert sum(dists["moves"]["histogram"]["counts"]) == 20
    assert sum(dists["scores"]["histogram"]["counts"]) == 80  # four seats a game
    assert cov["judged"] is True and len(cov["configurations"]) == 1
    assert [x["text"] for x in cov["rules"] if x["kind"] == "move"] == [
        "lay_trump", "show", "give_dummy", "play", "keep", "push"]


def test_rule_errors_name_their_games_and_fail(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(MUTANTS)  # spans print their file relative to here
    code, out, _ = run(capsys, "calc-division.cardgame", "--games", "30", "--seed", "2")
    assert code == 1
    where = "calc-division.cardgame:10:32: rule error (in move discard): division by zero"
    lines = out.splitlines()
    i = lines.index("  rule errors: 30")
    assert lines[i - 1:i + 4] == [
        "  no game ended: no figures",
        "  rule errors: 30",
        f"  game 0 (deal seed 2341370557): {where}",
        f"  game 1 (deal seed 907249112): {where}",
        f"  game 2 (deal seed 2304041489): {where}"]
    # a run whose games all failed does not call rules dead
    assert lines[-1] == "    not judged: no game ended (30 failed)"


def test_dead_ends_fail_and_unfinished_games_do_not(capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    code, out, _ = run(capsys, str(MUTANTS / "calc-dead-end.cardgame"), "--games", "30",
                       "--seed", "2")
    assert code == 1
    assert "  dead ends: 30" in out.splitlines()
    assert ("  game 0 (deal seed 2341370557): dead end after 21 moves: nobody can move and "
            "the game is not over") in out.splitlines()
    code, out, _ = run(capsys, "calculation", "--games", "20", "--seed", "1",
                       "--max-moves", "5")
    assert code == 0 and out.splitlines()[-3:] == [
        "  unfinished (hit --max-moves): 20",
        "  coverage       4 moves, 1 ending, over this run's 20 games",
        "    not judged: no game ended"]


def test_options_print_as_set_takes_them(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "arsene", "--games", "2", "--seed", "3", "--set", "advanced=true")
    assert out.splitlines()[0] == ("Arsène: 2 random games, seed 3, 4 players "
                                   "(advanced=true, max_deals=200)")


def test_at_least_one_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "calculation", "--games", "0"]) == 2
    assert capsys.readouterr().err == "cardgame simulate: error: --games must be at least 1\n"


def test_the_record_repeats_with_the_seed_and_the_text_reads_it() -> None:
    g = compile_game("calculation")
    a, b = simulate(g, 10, 7), simulate(g, 10, 7)
    assert a.records == b.records and len(a.records) == 10 and a.seed == 7
    ja, jb = simulation_json(a), simulation_json(b)
    for r in (ja, jb):
        for key in ("seconds", "games_per_second", "moves_per_second"):
            r.pop(key)
    assert ja == jb and ja["games"] == 10 and ja["seed"] == 7
    a.seconds = 10 / 1234.5
    text = simulation_text(a)
    assert text.splitlines()[:3] == ["Calculation: 10 random games, seed 7",
                                     "  games/s        1,234.5",
                                     f"  moves/s        {sum(r.moves for r in a.records) * 123.45:,.0f}"]


def test_the_report_fits_an_80_column_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    """Prose and histogram lines wrap under the value column; only the seat table's rows
    and a failing game's one-line message may be wider."""
    _, out, _ = run(capsys, "arsene", "--games", "30", "--seed", "5")
    for line in out.splitlines():
        assert len(line) <= 79 or line.startswith(("  seat ", "  game ")) or re.match(
            r"  p[0-9]+ ", line), line
