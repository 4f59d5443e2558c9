"""`cardgame fuzz`'s report adds up and says what is true, and (without `--players`) it
fuzzes every player count the game allows.

tests/data/fuzz15/hole.cardgame (a user test's game): 2..4 players, default 2; with 4 the
deal fails (13 cards each empty the deck before the trump card is turned).
"""

from __future__ import annotations

import io
import re
from contextlib import redirect_stdout
from pathlib import Path

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
