"""The shortest story: a failure is shrunk over the deal seed as well as the moves.

A failure met in the fuzzer's very first playthrough (deal seed 0, the first listed move at
every choice) is already minimal to Hypothesis; the story search (`fuzz/story.py`) looks on,
on other deals, for a shorter failure of the same property. These runs are bounded by a
number of games (`shrink_games`), not by time, so they do not depend on the machine.

The deeper mutants of tests/mutants/deep/ (rare positions, long stories) are registered
here as those of tests/mutants/ are in tests/test_fuzz.py; benchmarks/shrink.py compares
the fuzzer's counterexamples on all of them with an independent random search.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter import fuzz as F
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.engine.replay import load as load_replay
from cardgame.interpreter.fuzz import Playthrough, PropertyFailure, story
from cardgame.interpreter.fuzz.playthrough import Coverage

MUTANTS = Path(__file__).resolve().parent / "mutants"
DEEP = MUTANTS / "deep"

# deep mutant -> (property, games of the search that must find it)
DEEP_EXPECTED: dict[str, tuple[str, int]] = {
    "deep-duel-king-tie": ("invariant", 400),
    "deep-duel-last-round": ("invariant", 400),
    "deep-duel-deuce": ("rule-error", 400),
    "deep-duel-spade-peek": ("leak", 400),
    "deep-duel-tie-tax": ("invariant", 400),
    "deep-duel-seven-loop": ("rule-error", 400),
    "deep-duel-queen-dead-end": ("dead-end", 400),
    "deep-duel-big-pot-leak": ("leak", 400),
    "deep-calc-lift-three": ("invariant", 200),
    "deep-calc-pile4-slip": ("invariant", 400),
    "deep-calc-waste-six": ("dead-end", 200),
    "deep-calc-waste-index": ("legal-move-fails", 200),
    "deep-calc-empty-stock": ("rule-error", 200),
    "deep-calc-double-lift": ("invariant", 400),
    "deep-besieged-empty-order": ("rule-error", 200),
    "deep-besieged-skip-rank": ("invariant", 400),
    "deep-besieged-five-astray": ("invariant", 400),
    "deep-inter-rich-refill": ("invariant", 400),
    "deep-inter-late-debt": ("invariant", 400),
    "deep-inter-rank-bonus": ("invariant", 200),
    "deep-inter-late-peek": ("leak", 400),
}


def length(cx: Any) -> int:
    return len(cx.moves) + (1 if cx.failing_move is not None else 0)


def first_playthrough(path: Path) -> Any:
    """The fuzzer's first playthrough: deal seed 0, the first listed move every time."""
    play = Playthrough(compile_game(path), 2000, Coverage())
    with pytest.raises(PropertyFailure) as e:
        play.run(0, lambda n: 0)
    return e.value.cx


def shrink_run(path: Path, **kw: Any) -> F.FuzzReport:
    kw.setdefault("seed", 0)
    kw.setdefault("examples", 1)  # the first playthrough only
    kw.setdefault("database", None)
    kw.setdefault("shrink_seconds", 600)  # the games bound stops it, not time
    kw.setdefault("shrink_games", 300)
    kw.setdefault("write_replay", False)
    return F.fuzz(path, **kw)


def test_a_failure_of_the_first_playthrough_is_shrunk_over_other_deals(
        tmp_path: Path) -> None:
    path = DEEP / "deep-calc-waste-index.cardgame"
    first = first_playthrough(path)
    # the first playthrough fails, long: waste pile 4 takes five cards after 1, 2 and 3
    assert first.property == "legal-move-fails" and first.seed == 0
    assert length(first) >= 30
    out = tmp_path / "cx.json"
    r = shrink_run(path, write_replay=True, out=out)
    cx = r.failure
    assert cx is not None and cx.property == "legal-move-fails", F.format_report(r)
    assert r.coverage.found_after == 1
    st = r.story
    assert st is not None and r.shrunk
    assert st.found_moves == length(first) and st.found_seed == 0
    assert st.hypothesis_moves == length(first)  # Hypothesis could not shrink it at all
    assert st.shrunk_moves == length(cx) < length(first), F.format_report(r)
    assert st.stop == "games" and st.games == 300
    # the shorter story really fails: its replay reaches the failing state
    assert r.replay_ok, F.format_report(r)
    rp = load_replay(out)
    assert rp.seed == cx.seed and len(rp.moves) == len(cx.moves)
    text = F.format_report(r)
    assert (f"shrunk from {length(first)} to {length(cx)} moves (Hypothesis: {length(first)}; "
            "then 300 games on other deals") in text
    assert "stopped by the game bound" in text
    # the summary says what the shrinking played: its full games (counted in the run's
    # lines above) apart from the story search's quick walks (not counted there); it
    # said "then shrunk over 4 more games" next to "then 257,495 games on other deals"
    c = r.coverage
    full = c.games - c.found_after
    assert "then shrunk over" not in text
    line = next(ln for ln in text.splitlines() if ln.startswith("  shrinking played"))
    assert line.startswith(f"  shrinking played {full:,} game{'s' if full != 1 else ''} in "
                           "full, every property checked (counted above)"), line
    if st.games > full:
        assert line.endswith(f", and at least {st.games - full:,} quick walks that check "
                             "only this property (not counted above)"), line
    data = F.report_json(r)["story"]
    assert data["found_moves"] == length(first) and data["shrunk_moves"] == length(cx)
    assert data["stopped_by"] == "games"
    json.dumps(data)


def test_the_story_search_is_deterministic_with_a_games_bound() -> None:
    path = DEEP / "deep-calc-waste-index.cardgame"
    a = shrink_run(path, shrink_games=60)
    b = shrink_run(path, shrink_games=60)
    assert a.failure is not None and b.failure is not None
    assert (a.failure.seed, a.failure.moves) == (b.failure.seed, b.failure.moves)


def test_a_story_that_cannot_be_shorter_stops_at_once() -> None:
    # a game that does not end is always --max-moves moves long
    r = shrink_run(MUTANTS / "calc-never-ends.cardgame", max_moves=150)
    assert r.failure is not None and r.failure.property == "no-termination"
    assert r.story is not None and r.story.stop == "minimal" and r.story.games == 0
    assert "stopped by nothing shorter can exist" in F.format_report(r)


def test_only_the_same_property_replaces_the_story() -> None:
    """The story search keeps the first property even where another fails sooner."""
    path = DEEP / "deep-calc-waste-index.cardgame"
    g = compile_game(path)
    play = Playthrough(g, 2000, Coverage())
    cx = first_playthrough(path)
    cx.property = "invariant"  # as if an invariant had failed there: nothing else counts
    import random
    import time

    s = story.StorySearch(play, cx, deadline=time.monotonic() + 600,
                          rng=random.Random(1), max_games=100)
    best = s.run()
    assert best is cx and s.improvements == 0 and s.stop == "games"


def test_the_memory_bound_stops_the_story_search(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(story, "REMEMBER_CHOICES", 0)
    r = shrink_run(DEEP / "deep-calc-waste-index.cardgame", shrink_games=10_000)
    assert r.story is not None and r.story.stop == "memory", F.format_report(r)
    assert r.story.games < 10_000
    assert "stopped by the memory bound" in F.format_report(r)


def test_the_deep_folder_holds_a_faithful_copy_of_duel() -> None:
    copy = (DEEP / "duel.cardgame").read_text(encoding="utf-8").splitlines()
    orig = (MUTANTS / "duel.cardgame").read_text(encoding="utf-8").splitlines()
    assert copy[0].startswith("# A copy of ../duel.cardgame")
    assert copy[2:] == orig


def test_every_deep_mutant_is_registered_and_says_what_it_breaks() -> None:
    files = {p.stem for p in DEEP.glob("*.cardgame")} - {"duel"}
    assert files == set(DEEP_EXPECTED)
    assert len(files) >= 20
    for name, (prop, _) in DEEP_EXPECTED.items():
        text = (DEEP / f"{name}.cardgame").read_text(encoding="utf-8")
        assert text.startswith("# Mutant of"), name
        assert f"Expected: {prop}." in text, name


@pytest.mark.parametrize("name", sorted(DEEP_EXPECTED))
def test_deep_mutant_is_caught_with_its_property(name: str) -> None:
    prop, games = DEEP_EXPECTED[name]
    # the search stops at the first failure; the shrinking is short (4 s, 50 games)
    r = F.fuzz(DEEP / f"{name}.cardgame", seed=0, examples=games, database=None,
               shrink_seconds=4, shrink_games=50, write_replay=False)
    assert r.failure is not None, f"{name}: nothing found in {games} games"
    assert r.failure.property == prop, F.format_report(r)
    assert r.story is not None and r.story.shrunk_moves <= r.story.found_moves


def test_fast_walks_find_a_short_story_of_an_invariant() -> None:
    """For an invariant, the story search plays its walks quickly (the invariant alone
    checked, no lookahead) and replays only a shorter failure in full. Every 5 going to
    hearts needs a non-heart suit built to 4 first: a deal's first failure of 20 moves or
    more shrinks, within 1,000 games, to at most 10 (an independent random search over
    deals finds 6 to 8 in 60 s)."""
    import random
    import time

    path = DEEP / "deep-besieged-five-astray.cardgame"
    play = Playthrough(compile_game(path), 2000, Coverage())
    rng = random.Random(5)
    cx = None
    while cx is None:
        try:
            play.run(rng.getrandbits(32), random.Random(rng.getrandbits(64)).randrange)
        except PropertyFailure as e:
            if e.cx.property == "invariant":
                cx = e.cx
    assert length(cx) >= 20
    s = story.StorySearch(play, cx, deadline=time.monotonic() + 600,
                          rng=random.Random(0), max_games=1000)
    best = s.run()
    assert s.stop == "games"
    assert best.property == "invariant" and length(best) <= 10, length(best)
    # the shorter story is a full checked playthrough that fails the same way
    again = Playthrough(compile_game(path), 2000, Coverage())
    choices = story.choices_of(again, best.seed, list(best.moves))
    assert choices is not None
    with pytest.raises(PropertyFailure) as e:
        again.run(best.seed, story.Script(choices, None, lambda: None))
    assert e.value.cx.property == "invariant" and length(e.value.cx) <= length(best)
