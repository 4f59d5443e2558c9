"""`cardgame fuzz`: the properties it checks are proven on deliberately broken games.

Each file in tests/mutants/ is a bundled game (or the small two-player test game
tests/mutants/duel.cardgame) with one thing broken; its first comment says what and
which property must catch it. Each is fuzzed with a fixed budget and seed, and the
counterexample must name the right property and be short.

Set CARDGAME_SLOW_TESTS=1 to also fuzz the bundled Besieged Castle variants with the
full 200 examples (a few seconds each otherwise).
"""

from __future__ import annotations

import io
import json
import os
import re
import unittest
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter import fuzz as F
from cardgame.interpreter.cli import main
from cardgame.interpreter.engine import Game, Position, State, compile_game, compile_loaded
from cardgame.interpreter.engine.replay import load as load_replay
from cardgame.interpreter.errors import IllegalMove
from cardgame.interpreter.fuzz import Playthrough, PropertyFailure, playthrough
from cardgame.interpreter.lang import load, resolve_game

MUTANTS = Path(__file__).resolve().parent / "mutants"
SLOW = os.environ.get("CARDGAME_SLOW_TESTS") == "1"

# mutant -> (property, the longest counterexample accepted, words the message must hold,
#            max_moves for the run)
EXPECTED: dict[str, tuple[str, int, str, int]] = {
    "calc-dead-end": ("dead-end", 12, "nobody has a legal move", 2000),
    "calc-loop": ("loop", 2, "no `limit`", 2000),
    "calc-never-ends": ("no-termination", 150, "has not ended after 150 moves", 150),
    "calc-index-error": ("legal-move-fails", 2, "index 5 is out of range", 2000),
    "calc-division": ("rule-error", 1, "division by zero", 2000),
    "calc-bad-build": ("invariant", 2, "invariant `piles`", 2000),
    "besieged-empty-pile": ("rule-error", 20, "nothing there: a is empty",
                            2000),
    "besieged-no-limit": ("loop", 10, "can be repeated for ever", 2000),
    "besieged-no-stuck": ("dead-end", 5, "nobody has a legal move", 2000),
    # both seats peek: the shortest story (over any deal) may show either one's leak
    "duel-peek": ("leak", 6, "legal moves depend on cards p1 cannot see|"
                             "legal moves depend on cards p2 cannot see", 2000),
    "duel-log-leak": ("leak", 6, "a log line reads", 2000),
    "duel-var-leak": ("leak", 6, "the variable `peeked` is", 2000),
    "duel-chip-leak": ("invariant", 6, "invariant `chips`", 2000),
    "duel-no-end": ("dead-end", 22, "nobody has a legal move", 2000),
    "duel-runaway": ("rule-error", 20, "runaway loop", 2000),
}


def run(game: str | Path | Game, **kw: Any) -> F.FuzzReport:
    kw.setdefault("seed", 0)
    kw.setdefault("examples", 200)
    kw.setdefault("database", None)
    kw.setdefault("shrink_seconds", 2)
    kw.setdefault("write_replay", False)
    return F.fuzz(game, **kw)


def length(r: F.FuzzReport) -> int:
    assert r.failure is not None
    return len(r.failure.moves) + (1 if r.failure.failing_move is not None else 0)


def test_every_mutant_is_covered_and_says_what_it_breaks() -> None:
    files = {p.stem for p in MUTANTS.glob("*.cardgame") if p.is_file()}
    assert set(EXPECTED) | {"duel", "calc-dead-rule"} == files
    assert len(EXPECTED) >= 12
    for name in files - {"duel"}:
        text = (MUTANTS / f"{name}.cardgame").read_text(encoding="utf-8")
        assert text.startswith("# Mutant of"), name
        assert "Expected:" in text, name


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_mutant_is_caught_with_a_short_counterexample(name: str, tmp_path: Path) -> None:
    prop, bound, words, max_moves = EXPECTED[name]
    out = tmp_path / "cx.json"
    r = run(MUTANTS / f"{name}.cardgame", max_moves=max_moves, write_replay=True, out=out)
    assert r.failure is not None, f"{name}: nothing found"
    assert r.failure.property == prop, F.format_report(r)
    assert any(w in r.failure.message for w in words.split("|")), F.format_report(r)
    assert 1 <= r.coverage.found_after <= 200
    assert length(r) <= bound, F.format_report(r)
    # the replay file steps to the state where the property failed
    assert r.replay_path == str(out) and r.replay_ok, F.format_report(r)
    rp = load_replay(out)
    assert rp.seed == r.failure.seed
    assert len(rp.moves) == len(r.failure.moves)
    assert prop in rp.note


def test_a_dead_rule_is_a_warning_not_a_failure() -> None:
    r = run(MUTANTS / "calc-dead-rule.cardgame", examples=40)
    assert r.ok
    assert any(w.startswith("move `pay_and_play_two`") and "never legal in 40 games" in w
               for w in r.warnings), r.warnings


def test_the_clean_two_player_game_is_clean() -> None:
    r = run(MUTANTS / "duel.cardgame", examples=100)
    assert r.ok, F.format_report(r)
    assert r.coverage.games == 100
    assert r.warnings == []


def test_the_random_search_repeats_with_its_seed_and_hypothesis_shrinks_its_failure(
) -> None:
    # the search draws no choice from Hypothesis: the same seed, the same playthroughs
    # (a clean game: the same games and properties checked; its games are all 20 moves
    # long), the same first failure; the failing playthrough's choices are then handed to
    # Hypothesis, which shortens them
    a, b = (run(MUTANTS / "duel.cardgame", examples=30, seed=5) for _ in range(2))
    assert (a.coverage.games, a.coverage.checks) == (b.coverage.games, b.coverage.checks)
    c = run(MUTANTS / "duel.cardgame", examples=30, seed=6)
    assert c.coverage.checks != a.coverage.checks
    kw: dict[str, Any] = {"shrink_seconds": 30, "shrink_games": 20}
    x, y = (run(MUTANTS / "duel-chip-leak.cardgame", **kw) for _ in range(2))
    assert x.story is not None and y.story is not None
    assert (x.coverage.found_after, x.story.found_seed, x.story.found_moves) == (
        y.coverage.found_after, y.story.found_seed, y.story.found_moves)
    assert x.story.hypothesis_moves < x.story.found_moves, F.format_report(x)


def test_the_database_replays_a_failure_first(tmp_path: Path) -> None:
    # an empty database (nothing to replay) is no error; a failure found is saved and
    # replayed first by the next run
    db = tmp_path / "db"
    try:
        clean = run(MUTANTS / "duel.cardgame", examples=5, database=db)
    except unittest.SkipTest as e:  # (Hypothesis's "no test cases": pytest would skip)
        pytest.fail(f"the search raised SkipTest: {e}")
    assert clean.ok, F.format_report(clean)
    first = run(MUTANTS / "duel-chip-leak.cardgame", database=db, seed=1)
    assert first.failure is not None and first.failure.property == "invariant"
    again = run(MUTANTS / "duel-chip-leak.cardgame", database=db, seed=2)
    assert again.failure is not None and again.failure.property == "invariant"
    assert again.coverage.found_after == 1


def test_loop_report_names_the_cycle() -> None:
    r = run(MUTANTS / "calc-loop.cardgame")
    cx = r.failure
    assert cx is not None and cx.cycle == (0, 2)
    assert r.move_texts == ["p1 draw", "p1 unturn"]
    text = F.format_report(r)
    assert "<- cycle" in text


def test_rule_error_names_its_source_line() -> None:
    r = run(MUTANTS / "calc-division.cardgame")
    assert r.failure is not None
    assert re.search(r"calc-division\.cardgame:10:\d+: rule error", r.failure.message)


# ---------------------------------------------------------------------- bundled games
def cli(*argv: str) -> tuple[int, str]:
    buf = io.StringIO()
    with redirect_stdout(buf):
        code = main(list(argv))
    return code, buf.getvalue()


def test_calculation_is_clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = cli("fuzz", "calculation", "--examples", "200", "--seed", "1")
    assert code == 0, out
    assert "no rule hole found" in out
    assert "200 games" in out
    assert not (tmp_path / ".cardgame" / "counterexample-calculation.json").exists()


@pytest.mark.parametrize("game", ["besieged-castle", "besieged-castle-spice-1",
                                  "besieged-castle-spice-2"])
def test_besieged_castle_variants_are_clean(game: str, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    n = "200" if SLOW else "12"
    code, out = cli("fuzz", game, "--examples", n, "--seed", "1")
    assert code == 0, out


def test_json_report_and_replay_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = cli("fuzz", str(MUTANTS / "calc-index-error.cardgame"), "--examples", "50",
                    "--seed", "3", "--json")
    assert code == 1
    rep = json.loads(out)
    assert rep["format"] == "cardgame-fuzz-report" and rep["ok"] is False
    f = rep["failure"]
    assert f["property"] == "legal-move-fails"
    assert f["moves"] == [{"player": 1, "move": "draw"}]
    assert f["failing_move"] == {"player": 1, "move": "discard 4"}
    assert f["state"]["zones"]["turned"] != []
    path = tmp_path / ".cardgame" / "counterexample-calc-index-error.json"
    assert f["replay"] == str(Path(".cardgame") / "counterexample-calc-index-error.json")
    assert path.is_file()
    rp = load_replay(path)
    assert [m for _, m in rp.moves] == ["draw"]
    assert "discard 4" in rp.note
    # the database keeps the failure: the next run replays it first
    assert (tmp_path / ".cardgame" / "fuzz-db").is_dir()
    code, out = cli("fuzz", str(MUTANTS / "calc-index-error.cardgame"), "--examples", "50",
                    "--json", "--out", str(tmp_path / "other.json"))
    assert code == 1
    again = json.loads(out)
    assert again["found_in_game"] == 1
    # the search for a shorter story on other deals comes on top (fuzz/story.py)
    assert again["games"] <= 3 + again["story"]["games"]
    assert (tmp_path / "other.json").is_file()


def test_text_report_lists_moves_and_state(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = cli("fuzz", str(MUTANTS / "duel-chip-leak.cardgame"), "--examples", "100",
                    "--seed", "1")
    assert code == 1
    assert "FAILED: invariant" in out
    assert re.search(r"^\s+1\. p\d ", out, re.M)
    assert "hand-p1" in out and "chips" in out
    assert "replay: .cardgame/counterexample-duel-chip-leak.json" in out


def test_usage_and_game_errors_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["fuzz", "no-such-game"]) == 2
    assert main(["fuzz", "calculation", "--examples", "0"]) == 2
    assert main(["fuzz", "calculation", "--set", "nonsense"]) == 2
    assert main(["fuzz", "calculation", "--set", "nope=1"]) == 2
    bad = tmp_path / "bad.cardgame"
    bad.write_text('game "Bad"\ndeck standard\nmove m when wat { }\n', encoding="utf-8")
    assert main(["fuzz", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.cardgame:3:" in err


def test_seconds_budget_stops_in_time(tmp_path: Path) -> None:
    import time

    t = time.monotonic()
    r = run("besieged-castle", examples=None, seconds=1.0, seed=None)
    assert r.ok
    assert time.monotonic() - t < 5
    assert r.coverage.games >= 1


def test_progress_line_goes_to_the_given_stream() -> None:
    buf = io.StringIO()
    r = run("calculation", examples=20, progress=buf)
    assert r.ok
    assert "games" in buf.getvalue() and "moves/s" in buf.getvalue()


# ---------------------------------------------------------------------- the checks themselves
# Some holes cannot be written in the language: it has no statement that copies a card,
# generated code draws chance only from the state's own seed, and the engine's apply
# checks every move against the legal list. The checks are still proven here, on games
# whose engine is broken on purpose.
def sabotaged() -> Game:
    """Calculation compiled afresh (not the shared cached game), to be broken on purpose."""
    return compile_loaded(load(resolve_game("calculation")))


def first_failure(g: Game, seed: int = 0, choices: int = 0) -> PropertyFailure:
    play = Playthrough(g, 500)
    with pytest.raises(PropertyFailure) as e:
        play.run(seed, lambda n: choices % n)
    return e.value


def test_conservation_check_catches_a_duplicated_card() -> None:
    g = sabotaged()
    real_apply = g.apply

    def duplicating(state: State, move: Any) -> State:
        after = real_apply(state, move)
        if g.move_text(move) != "draw":
            return after
        turned = g.zone_ids(after, "turned")  # the card drawn is there, and now twice
        return Position(g, after).zone("turned", turned + turned).state(check=False)

    g.apply = duplicating
    fail = first_failure(g)
    assert fail.cx.property == "conservation"
    assert "in two places" in fail.cx.message


def test_illegal_move_check_catches_an_apply_that_accepts_anything() -> None:
    g = sabotaged()
    real_apply = g.apply

    def lax_apply(state: State, move: Any) -> State:
        try:
            return real_apply(state, move)
        except IllegalMove:
            return state

    g.apply = lax_apply
    fail = first_failure(g)
    assert fail.cx.property == "illegal-move-accepted"


def test_determinism_check_catches_hidden_state() -> None:
    g = sabotaged()
    real_new = g.new_state
    calls = [0]

    def drifting(seed: int = 0) -> State:
        calls[0] += 1
        return real_new(seed + calls[0])

    g.new_state = drifting
    fail = first_failure(g)
    assert fail.cx.property == "nondeterminism"


def test_json_check_catches_a_lossy_round_trip() -> None:
    g = sabotaged()
    real = g.from_json

    def lossy(text: str) -> State:
        st = real(text)  # comes back one move older
        return Position(g, st).moves_played(g.moves_played(st) + 1).state()

    g.from_json = lossy
    fail = first_failure(g)
    assert fail.cx.property == "json"


def test_leak_check_catches_a_view_that_shows_hidden_cards(
        monkeypatch: pytest.MonkeyPatch) -> None:
    g = compile_game(str(MUTANTS / "duel.cardgame"))
    real_view = playthrough.view

    def peeking(game: Game, state: State, player: int | None) -> dict[str, Any]:
        v = real_view(game, state, player)
        v["zones"]["stock"] = game.zone_cards(state, "stock")
        return v

    monkeypatch.setattr(playthrough, "view", peeking)
    fail = first_failure(g)
    assert fail.cx.property == "leak"
    assert "view changes" in fail.cx.message


def test_bundled_multiplayer_games_are_fuzzable() -> None:
    from cardgame.interpreter.lang.loader import bundled_names

    for name in bundled_names():
        if name in ("calculation",) or name.startswith("besieged"):
            continue
        r = run(name, examples=3)
        assert r.ok, F.format_report(r)
