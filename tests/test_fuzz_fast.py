"""`cardgame fuzz`'s fast checked walks (interpreter/fuzz/fast.py, engine/walk.py).

Each per-step check of a fast walk is proven on a broken game: the walk itself sees the
failure, and its full replay (the same deal and choices through the full checked
playthrough) confirms it with the right property. A walk's choices are a full
playthrough's: replayed, they play the same game. The report says what each kind of
game checked.
"""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter import fuzz as F
from cardgame.interpreter.engine import Game, State, compile_game
from cardgame.interpreter.fuzz import Playthrough, PropertyFailure
from cardgame.interpreter.fuzz.fast import FAST_CHECKED, FAST_SAMPLED, FULL_ONLY, FastWalks
from cardgame.interpreter.fuzz.search import FAST_PER_FULL

MUTANTS = Path(__file__).resolve().parent / "mutants"
LEAKS = Path(__file__).resolve().parent / "data" / "leaks"

# mutant -> (what the walk sees (one of), the property its full replay confirms,
#            max_moves, walks to try)
FAST: dict[str, tuple[set[str], str, int, int]] = {
    "calc-bad-build": ({"invariant"}, "invariant", 2000, 200),
    "calc-dead-end": ({"dead-end"}, "dead-end", 2000, 500),
    # the condition of a move divides by zero: the step's legal moves fail
    "calc-division": ({"legal-move-fails", "rule-error"}, "rule-error", 2000, 200),
    "calc-loop": ({"loop"}, "loop", 2000, 200),
    "calc-never-ends": ({"no-termination"}, "no-termination", 150, 200),
    "calc-index-error": ({"legal-move-fails"}, "legal-move-fails", 2000, 200),
    "besieged-empty-pile": ({"legal-move-fails", "rule-error"}, "rule-error", 2000, 500),
    "besieged-no-limit": ({"loop"}, "loop", 2000, 200),
    "besieged-no-stuck": ({"dead-end"}, "dead-end", 2000, 200),
    "duel-chip-leak": ({"invariant"}, "invariant", 2000, 500),
    "duel-no-end": ({"dead-end"}, "dead-end", 2000, 200),
    "duel-runaway": ({"legal-move-fails", "rule-error"}, "rule-error", 2000, 200),
}


def walks(g: Game, max_moves: int = 2000, seed: int = 0) -> FastWalks:
    return FastWalks(Playthrough(g, max_moves), seed)


@pytest.mark.parametrize("name", sorted(FAST))
def test_each_check_of_a_fast_walk_fires_on_a_broken_game(name: str) -> None:
    seen, prop, max_moves, tries = FAST[name]
    fw = walks(compile_game(str(MUTANTS / f"{name}.cardgame")), max_moves)
    rng = random.Random(7)
    for _ in range(tries):
        w = fw.walker.walk(rng.getrandbits(32), rng)
        if w.found is not None:
            break
    else:
        pytest.fail(f"{name}: {tries} fast walks found nothing")
    assert w.found in seen, (w.found, w.message)
    cx = fw.confirm(w)
    assert cx is not None, fw.play.cov.fast_unconfirmed
    assert cx.property == prop, cx.message
    # the counterexample is the walk's own game, up to the failure
    assert len(cx.moves) <= w.moves


def test_the_conservation_check_of_a_fast_walk_fires() -> None:
    # no rule can copy or lose a card: the check is proven against a deck it believes
    # one card larger (a card lost) and one whose last card it does not know (a stray)
    g = compile_game("calculation")
    fw = walks(g)
    fw.walker.ncards += 1
    w = fw.walker.walk(1, random.Random(1))
    assert w.found == "conservation" and w.moves == 0
    fw = walks(g)
    fw.walker.all_cards = frozenset(range(len(g.card_text) - 1)) | {-1}
    w = fw.walker.walk(1, random.Random(1))
    assert w.found == "conservation"
    # the full replay sees nothing wrong: the report says so instead of hiding it
    assert fw.confirm(w) is None
    assert "its full replay found nothing" in fw.play.cov.fast_unconfirmed[0]


def test_a_clean_game_walks_clean() -> None:
    for name in ("calculation", "besieged-castle", "interaction"):
        fw = walks(compile_game(name))
        for _ in range(20):
            assert fw.walk() is None, fw.play.cov.fast_unconfirmed
        assert fw.play.cov.fast_games == 20 and fw.play.cov.fast_moves > 20 * 10


@pytest.mark.parametrize("name", ["calculation", "chains", "interaction", "hearts",
                                  "arsene", "scopa", "freecell"])
def test_a_walks_choices_replay_the_same_game_in_full(name: str) -> None:
    # the choices (simultaneous ones: the player first; twin cards' moves once) mean the
    # same in the walk and in the full playthrough: the same moves, the same ending
    g = compile_game(name)
    fw = walks(g, seed=3)
    rng = random.Random(3)
    for _ in range(2):
        w = fw.walker.walk(rng.getrandbits(32), rng)
        assert w.found is None, w.message
        it = iter(w.choices)
        path = Playthrough(g, 2000).run(w.seed, lambda n, it=it: next(it))
        assert next(it, None) is None
        assert len(path) - 1 == w.moves
        # (a walk keeps the reason as the state records it: a flow that runs out is
        # "ended", shown as "the flow ran to its end")
        assert g.end_reason(path[-1]) == g.reason_text(w.ended)


def test_open_walks_say_the_leak_check_is_vacuous() -> None:
    # every card face up from the deal on: no seat has anything to learn
    fw = walks(compile_game("besieged-castle"))
    fw.walk()
    assert fw.play.cov.fast_open == 1
    # a face-down stock, secret simultaneous choices: not open
    for name in ("calculation", "interaction"):
        fw = walks(compile_game(name))
        fw.walk()
        assert fw.play.cov.fast_open == 0


def test_a_walk_that_failed_replays_its_failure_not_another() -> None:
    # the replay of a failing walk is a full playthrough of the same game: a move it
    # does not play that fails is found there too (the lookahead), at the same step
    g = compile_game(str(MUTANTS / "calc-index-error.cardgame"))
    fw = walks(g)
    rng = random.Random(2)
    w = fw.walker.walk(rng.getrandbits(32), rng)
    while w.found is None:
        w = fw.walker.walk(rng.getrandbits(32), rng)
    it = iter(w.choices)
    with pytest.raises(PropertyFailure) as e:
        Playthrough(g, 2000).run(w.seed, lambda n: next(it, 0))
    assert e.value.cx.property == "legal-move-fails"
    assert len(e.value.cx.moves) <= w.moves


def run(game: str | Path, **kw: Any) -> F.FuzzReport:
    kw.setdefault("seed", 0)
    kw.setdefault("database", None)
    kw.setdefault("shrink_seconds", 2)
    kw.setdefault("write_replay", False)
    return F.fuzz(game, **kw)


def test_a_budget_of_games_interleaves_a_fixed_number_of_walks() -> None:
    a = run("calculation", examples=5, seed=4)
    b = run("calculation", examples=5, seed=4)
    assert a.ok and a.coverage.games == 5
    assert a.coverage.fast_games == 5 * FAST_PER_FULL
    assert (a.coverage.fast_moves, a.coverage.checks) == (b.coverage.fast_moves,
                                                           b.coverage.checks)
    off = run("calculation", examples=5, seed=4, fast_walks=False)
    assert off.coverage.fast_games == 0
    # the full playthroughs are the same ones, walks or not
    assert (off.coverage.games, off.coverage.moves, off.coverage.checks) == (
        a.coverage.games, a.coverage.moves, a.coverage.checks)
    assert "fast walks" not in F.format_report(off)


def test_a_time_budget_gives_most_of_it_to_fast_walks() -> None:
    r = run("besieged-castle", seconds=1.5, seed=None)
    c = r.coverage
    assert r.ok and c.games >= 1 and c.fast_games >= 1
    assert c.fast_moves > c.moves
    assert c.fast_seconds > r.full_seconds


def test_the_report_says_what_each_kind_of_game_checked() -> None:
    r = run("besieged-castle", examples=2)
    text = F.format_report(r)
    assert "full playthroughs: 2 games" in text
    assert f"fast walks: {2 * FAST_PER_FULL} games" in text
    assert "every property checked on every step but illegal-move-accepted (the full " \
        "playthroughs' alone)" in text
    assert ("json on every 256th state and the last of every 32nd walk, that walk played "
            "twice for nondeterminism (1 walk)") in text
    assert "leak cannot happen on them" in text
    assert "error" not in text  # (test_golf and test_pyramid read a clean run so)
    doc = F.report_json(r)
    fw = doc["fast_walks"]
    assert fw["games"] == 2 * FAST_PER_FULL
    assert fw["checked"] == [p for p in FAST_CHECKED if p != "leak"]
    assert fw["sampled"] == list(FAST_SAMPLED)
    assert fw["leak"] == "vacuous" and fw["full_playthroughs_only"] == list(FULL_ONLY)
    assert fw["replayed_walks"] == 1  # (the first of 8)
    assert doc["full_playthroughs"]["games"] == 2
    assert set(doc["full_playthroughs"]["checked"]) == set(F.PROPERTIES)
    assert set(FAST_CHECKED) | set(FAST_SAMPLED) | set(FULL_ONLY) == set(F.PROPERTIES)
    assert doc["moves_per_second"] > 0
    json.dumps(doc)
    r = run("calculation", examples=2)
    text = F.format_report(r)
    assert "every step but illegal-move-accepted (the full playthroughs' alone)" in text
    assert f"leak for one seat per walk, in turn ({2 * FAST_PER_FULL} walks with a " \
        "shadow world)" in text
    assert "error" not in text
    fw = F.report_json(r)["fast_walks"]
    assert fw["leak"] == "one seat per walk" and fw["checked"] == list(FAST_CHECKED)
    assert fw["leak_walks"] == 2 * FAST_PER_FULL
    assert fw["full_playthroughs_only"] == list(FULL_ONLY)


# ---------------------------------------------------------------------- leaks on walks
LEAKY = [MUTANTS / "duel-peek.cardgame", MUTANTS / "duel-log-leak.cardgame",
         MUTANTS / "duel-var-leak.cardgame", MUTANTS / "deep" / "deep-duel-big-pot-leak.cardgame",
         MUTANTS / "deep" / "deep-duel-spade-peek.cardgame",
         MUTANTS / "deep" / "deep-inter-late-peek.cardgame",
         *(LEAKS / f"{n}-leak.cardgame" for n in ("gamble-branch", "gamble-log", "gamble-size",
                                                  "gamble-var", "recycle", "branch-node"))]
CLEAN = [MUTANTS / "duel.cardgame", LEAKS / "follow.cardgame", LEAKS / "recycle.cardgame",
         *(LEAKS / f"{n}-clean.cardgame" for n in ("gamble-branch", "gamble-log", "gamble-size",
                                                   "gamble-var", "recycle", "branch-node"))]


@pytest.mark.parametrize("path", LEAKY, ids=lambda p: p.stem)
def test_a_fast_walk_finds_each_leak_and_its_full_replay_confirms_it(path: Path) -> None:
    # the walk's shadow world (its seat's hidden cards dealt otherwise, stepped beside it)
    # tells the seat something else: a legal move, a log line, a variable, a zone's size
    fw = walks(compile_game(str(path)))
    for _ in range(300):
        w = fw.play_one()
        if w.found is not None:
            break
    else:
        pytest.fail(f"{path.stem}: 300 fast walks found nothing")
    assert w.found == "leak", (w.found, w.message)
    assert w.leak_seat is not None and f"p{w.leak_seat}" in w.message
    cx = fw.confirm(w)
    assert cx is not None, fw.play.cov.fast_unconfirmed
    assert cx.property == "leak", cx.message


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: p.stem)
def test_the_near_misses_of_the_leaks_walk_clean(path: Path) -> None:
    fw = walks(compile_game(str(path)))
    for _ in range(150):
        w = fw.play_one()
        assert w.found is None, (w.found, w.message)
    assert fw.play.cov.fast_leak >= 100  # (a shadow world drawn on almost every walk)


@pytest.mark.parametrize("name,n", [("calculation", 40), ("chains", 40), ("interaction", 150),
                                    ("arsene", 12), ("crazy-eights", 40), ("oh-hell", 8),
                                    ("scopa", 12)])
def test_the_leak_check_of_the_walks_finds_nothing_in_the_bundled_games(name: str,
                                                                          n: int) -> None:
    # no false alarm: the bundled games leak nothing (their full playthroughs agree)
    fw = walks(compile_game(name), seed=5)
    seats = set()
    for _ in range(n):
        w = fw.play_one()
        assert w.found is None, (w.found, w.message)
        seats.add(w.leak_seat)
    assert seats == set(range(1, fw.walker.g.players + 1))  # every seat in turn
    assert fw.play.cov.fast_leak == n


def test_the_json_check_of_a_fast_walk_fires(monkeypatch: pytest.MonkeyPatch) -> None:
    # no state of the language fails its JSON round trip: the check is proven against
    # an engine whose from_json loses the move counter
    g = compile_game("calculation")
    fw = walks(g)
    fw.walker.json_every = 3
    load = g.from_json

    def lossy(text: str) -> State:
        load(text)
        return g.new_state(12345)  # (another state than the one saved)

    monkeypatch.setattr(g, "from_json", lossy)  # (the compiled game is cached)
    w = fw.play_one()
    assert w.found == "json" and w.moves == 2, w.message
    assert "differs in" in w.message
    cx = fw.confirm(w)
    assert cx is not None and cx.property == "json"


def test_the_nondeterminism_check_of_the_fast_walks_fires(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    # a game cannot depend on anything but its state: the check is proven against a
    # walker whose second play of the same walk ends elsewhere
    g = compile_game("calculation")
    fw = walks(g)
    walk = fw.walker.walk
    calls = [0]

    def flaky(seed: int, rng: random.Random, seat: int | None = None) -> Any:
        w = walk(seed, rng, seat)
        calls[0] += 1
        if calls[0] == 2:
            w.final = (*w.final, "elsewhere")
        return w

    monkeypatch.setattr(fw.walker, "walk", flaky)
    w = fw.play_one()  # the first walk is played twice
    assert calls[0] == 2
    assert w.found == "nondeterminism", (w.found, w.message)
    assert fw.play.cov.fast_replayed == 1


def test_a_failure_a_fast_walk_finds_is_confirmed_and_shrunk() -> None:
    # the first full playthrough (seed 0, the first move at every choice) passes; a fast
    # walk after it finds the odd chip lost, its full replay confirms it, and the
    # shrinking makes it as short as before
    r = run(MUTANTS / "duel-chip-leak.cardgame", examples=200)
    c = r.coverage
    assert r.failure is not None and r.failure.property == "invariant"
    assert c.found_by_fast >= 1 and c.found_after >= 2
    assert "found by fast walk" in F.format_report(r)
    assert len(r.failure.moves) <= 6


def test_with_a_time_budget_a_walk_that_fails_is_confirmed_from_the_search() -> None:
    # with a time budget the walks keep their share from the first tick on: in a game
    # that never ends the first walk fails; the search confirms it by a full replay
    r = run(MUTANTS / "calc-never-ends.cardgame", seconds=3.0, max_moves=150)
    c = r.coverage
    assert r.failure is not None and r.failure.property == "no-termination"
    assert c.found_by_fast == 1 and c.found_after >= 1
    assert len(r.failure.moves) == 150


def test_the_leak_check_of_a_walk_keeps_to_its_thread() -> None:
    # the walk's recorder stands in for the game's while it runs: another thread that
    # observes the same compiled game meanwhile gets its own events, all of them, and
    # the walk does not take them (or its own lost ones) for a leak
    g = compile_game("interaction")

    def observed() -> list[Any]:
        st, ev = g.start_observed(7)
        out = [ev]
        rng = random.Random(7)
        while not g.is_terminal(st) and len(out) < 30:
            st, ev = g.apply_observed(st, rng.choice(g.legal_moves(st)))
            out.append(ev)
        return out

    alone = observed()
    stop = False
    seen: list[bool] = []

    def other() -> None:
        while not stop:
            seen.append(observed() == alone)

    t = threading.Thread(target=other)
    t.start()
    try:
        fw = walks(g)
        for _ in range(150):
            w = fw.play_one()
            assert w.found is None, (w.found, w.message)
    finally:
        stop = True
        t.join()
    assert seen and all(seen)
    assert observed() == alone
