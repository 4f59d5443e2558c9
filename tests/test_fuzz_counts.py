"""`cardgame fuzz`'s report adds up and says what is true, and (without `--players`) it
fuzzes every player count the game allows.

tests/data/fuzz15/hole.cardgame (a user test's game): 2..4 players, default 2; with 4 the
deal fails (13 cards each empty the deck before the trump card is turned).
"""

from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from cardgame.interpreter import fuzz as F
from cardgame.interpreter.cli import main
from cardgame.interpreter.engine.replay import load as load_replay

HOLE = Path(__file__).resolve().parent / "data" / "fuzz15" / "hole.cardgame"


def cli(*argv: str) -> tuple[int, str]:
    buf = io.StringIO()
    with redirect_stdout(buf):
        code = main(list(argv))
    return code, buf.getvalue()


# ---------------------------------------------------------------------- the report's figures
def test_endings_add_up_to_the_games_with_a_time_budget() -> None:
    # the full playthrough under way when the time ran out was counted as a game, and
    # not among the endings: "in all: 65,217 games" beside "endings: 65,216 'ended'"
    r = F.fuzz(HOLE, players=2, seconds=1.0, seed=1, database=None, write_replay=False)
    c = r.coverage
    assert r.ok and c.cut == 0
    # (none when the time ran out between two playthroughs, in the fast walks)
    assert c.timed_out in (0, 1)
    assert sum(c.endings.values()) + c.timed_out == c.games
    assert sum(c.fast_endings.values()) == c.fast_games
    text = F.format_report(r)
    n = c.games + c.fast_games
    assert f"in all: {n:,} games" in text
    line = next(ln for ln in text.splitlines() if ln.startswith("  endings: "))
    assert sum(int(k.replace(",", "")) for k in re.findall(r"(\d[\d,]*) ", line)) == n, text
    if c.timed_out:
        assert line.endswith(", 1 cut short when the time ran out")
    assert F.report_json(r)["timed_out"] == c.timed_out


def test_a_deal_that_fails_is_reported_at_one_seed(tmp_path: Path) -> None:
    # found by a fast walk on one deal, it was reported at deal seed 0 (where Hypothesis
    # moved it): one seed, the one it was found on, in the text, the JSON and the replay
    out = tmp_path / "cx.json"
    r = F.fuzz(HOLE, players=4, seconds=1.0, seed=1, database=None, out=out)
    assert r.failure is not None and r.failure.property == "rule-error"
    assert r.coverage.found_by_fast  # (found by a walk: the full playthroughs start at 0)
    text = F.format_report(r)
    seeds = set(re.findall(r"deal seed (\d+)", text))
    assert seeds == {str(r.failure.seed)}, text
    assert r.story is not None and r.story.found_seed == r.failure.seed
    assert load_replay(out).seed == r.failure.seed
    assert F.report_json(r)["failure"]["seed"] == r.failure.seed


def test_the_leak_line_says_no_walk_made_a_move() -> None:
    # "leak cannot happen on them (every seat saw every card at every decision)" when
    # there was no decision at all
    r = F.fuzz(HOLE, players=4, seconds=1.0, seed=1, database=None, write_replay=False)
    assert r.coverage.fast_games and not r.coverage.fast_moves
    text = F.format_report(r)
    assert "every seat saw every card" not in text
    assert "leak had nothing to check on them (no walk made a move)" in text
    assert F.report_json(r)["fast_walks"]["leak"] == "no moves"


# ---------------------------------------------------------------------- every player count
def test_without_players_every_count_the_game_allows_is_fuzzed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # it fuzzed the default count (2) alone and said "no rule hole found"
    monkeypatch.chdir(tmp_path)
    code, out = cli("fuzz", str(HOLE), "--examples", "6", "--seed", "1")
    assert code == 1, out
    assert "every player count the game allows, 2, 3 and 4, the budget shared " \
           "(2 games with 2 players, 2 games with 3 players, 2 games with 4 players)" in out
    for n in (2, 3, 4):
        assert f"(Two Trumps: up to four), {n} players, seed 1" in out
    assert "FAILED: rule-error" in out and "the deal fails:" in out
    assert re.search(r"game .*hole\.cardgame, 4 players, deal seed \d+", out)
    assert out.rstrip().endswith("player counts fuzzed: 2, 3 and 4: a rule hole with 4 "
                                 "players; none with 2 and 3")
    # the counterexample's file names the count, and so does the replay in it
    path = tmp_path / ".cardgame" / "counterexample-hole-4-players.json"
    assert f"replay: {Path('.cardgame') / path.name}" in out
    assert load_replay(path).players == 4
    assert not (tmp_path / ".cardgame" / "counterexample-hole.json").exists()


def test_every_count_in_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = cli("fuzz", str(HOLE), "--examples", "3", "--seed", "1", "--json",
                    "--out", str(tmp_path / "cx.json"))
    assert code == 1
    doc = json.loads(out)
    assert doc["format"] == "cardgame-fuzz-report" and doc["ok"] is False
    assert doc["player_counts"] == [2, 3, 4] and doc["players_allowed"] == [2, 4]
    assert doc["failed_player_counts"] == [4]
    runs = doc["runs"]
    assert [r["players"] for r in runs] == [2, 3, 4]
    assert [r["ok"] for r in runs] == [True, True, False]
    assert runs[2]["failure"]["property"] == "rule-error"
    assert runs[2]["failure"]["replay"] == str(tmp_path / "cx-4-players.json")
    assert load_replay(tmp_path / "cx-4-players.json").players == 4


def test_players_fuzzes_that_count_alone_and_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = cli("fuzz", str(HOLE), "--players", "2", "--examples", "3", "--seed", "1")
    assert code == 0, out
    assert "3 players" not in out and "4 players" not in out
    assert out.rstrip().endswith("player counts fuzzed: 2 alone (--players); the game "
                                 "allows 2 to 4: without --players each is fuzzed")
    code, out = cli("fuzz", str(HOLE), "--players", "2", "--examples", "3", "--seed", "1",
                    "--json")
    doc = json.loads(out)
    assert doc["player_counts"] == [2] and doc["players"] == 2 and doc["ok"] is True
    # a game of one player count: its report as before, the count in the JSON
    code, out = cli("fuzz", "calculation", "--examples", "2", "--seed", "1", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["player_counts"] == [1] and doc["players_allowed"] == [1, 1]
    assert "runs" not in doc


def test_a_time_budget_is_shared_between_the_counts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = cli("fuzz", str(HOLE), "--seconds", "1.5", "--seed", "1")
    assert code == 1
    assert "the budget shared (0.5 s each)" in out
    # the clean counts stop at their share (a failing one shrinks for 2 s at least)
    for n in (2, 3):
        part = out.split(f"up to four), {n} players")[1]
        took = float(re.search(r" in ([\d.]+) s;", part).group(1))  # type: ignore[union-attr]
        assert took < 1.0


def test_a_count_the_game_does_not_compile_for_is_a_hole_and_the_others_are_fuzzed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # (found by review: such a game stopped fuzz with exit 2 and no report, though
    # `check` (at the default count) says it is ok and main fuzzed that count)
    monkeypatch.chdir(tmp_path)
    game = str(HOLE.parent / "counts" / "three_named.cardgame")
    code, out = cli("fuzz", game, "--examples", "4", "--seed", "1")
    assert code == 1, out
    assert "cardgame fuzz: " in out and "3 players" in out
    assert "rule hole: with 2 players the game does not compile" in out
    assert "there is no player 3 in a game of 2" in out
    code, out = cli("fuzz", game, "--examples", "4", "--seed", "1", "--json")
    doc = json.loads(out)
    assert code == 1 and doc["ok"] is False and doc["player_counts"] == [3]
    assert doc["not_compiling"][0]["players"] == 2


def test_a_counterexample_on_another_deal_says_so() -> None:
    # (found by review: "found in game 1 (19 moves, deal seed 0)" and then "game ...,
    # deal seed 135011840", with nothing to say why the seeds differ)
    game = Path(__file__).resolve().parent / "data" / "log_fails.cardgame"
    r = F.fuzz(game, examples=20, seed=1, database=None, write_replay=False)
    assert r.story is not None and r.failure is not None
    assert r.story.found_seed != r.failure.seed
    text = F.format_report(r)
    assert (f"the playthrough below is on another deal (seed {r.failure.seed}), as short "
            f"or shorter: the deal first found was seed {r.story.found_seed}") in text
    assert f"deal seed {r.failure.seed}" in text
